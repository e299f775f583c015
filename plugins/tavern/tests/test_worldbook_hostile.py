"""Books and chats built to make the world-book scan super-linear, through a real ``lw tavern activate``.

One case per class (``hostile_books.CASES``: nested keys, keys sharing prefixes, one character
repeated, whole-word keys inside words, a whole-word key on the joined buffer, case-folding
variants, many secondary keys, many recursion levels, min activations over a thousand messages,
keys on the joined buffer at many depths and in a long recursion, group members and a spent
budget through many passes), each at a size the scan before the fix needed minutes or gigabytes
for. Each runs in its own ``lw`` process with a timeout (the hang check) and an address-space
limit (the memory check: a scan that materialised what it did before dies of it), and must exit
0 with the activations the case states and the problems it expects, no others. On small inputs
the same classes are held to the reference scan by the property tests
(``test_worldbook_matchers.py``, ``test_worldbook_recursion.py``, ``test_worldbook_literals.py``).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from hostile_books import CASES, book_json

LW = str(Path(sys.executable).with_name("lw"))
TIMEOUT = 60.0
MEMORY = 4 << 30
"""Address space a run may take (the fixed scan peaks under 200 MB on every case)."""


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


@pytest.mark.parametrize("name", list(CASES))
def test_a_hostile_book_is_scanned_in_bounded_time_and_memory(tmp_path: Path, name: str) -> None:
    build, size = CASES[name]
    case = build(size)
    book = tmp_path / "book.json"
    book.write_text(json.dumps(book_json(case), ensure_ascii=False), encoding="utf-8")
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps(case.chat, ensure_ascii=False), encoding="utf-8")
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps(case.settings), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env["LW_HOME"] = str(tmp_path / "home")
    try:
        proc = subprocess.run([LW, "tavern", "activate", str(book), "--chat", str(chat), "--settings", str(settings),
                               "--json"], capture_output=True, text=True, env=env, timeout=TIMEOUT,
                              preexec_fn=_limit)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"{case.name}: lw tavern activate did not finish within {TIMEOUT:.0f} s") from None
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr and "MemoryError" not in proc.stderr
    result = json.loads(proc.stdout)
    assert len(result["fired"]) == case.fired, case.name
    problems = [p["problem"] for p in result["problems"]]
    if case.problem:
        assert problems and all(case.problem in p for p in problems), problems[:3]
    else:
        assert problems == []
