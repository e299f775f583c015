"""The hostile card corpus (``tests/support/hostile_cards.py``) against the reader.

All cases run in one child process with a timeout (a hang fails the test instead of stalling
the suite); each must be refused with its expected code and a location, and no other
exception may escape. The slowest refusal is printed (``-s``) as a figure, never asserted.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import hostile_cards as corpus
from hostile_cards import hostile_cards

RUNNER = r"""
import json, sys, time
from lwcore.cards import load_card
from hostile_cards import hostile_cards
from lwcore.errors import LwError
for case in hostile_cards():
    data = case.make()
    start = time.perf_counter()
    try:
        load_card(data, case.name)
        out = {"id": case.id, "outcome": "accepted"}
    except LwError as error:
        out = {"id": case.id, "outcome": "refused", "error": error.to_json(), "text": str(error)}
    except BaseException as error:
        out = {"id": case.id, "outcome": "crashed", "text": f"{type(error).__name__}: {error}"}
    out["ms"] = (time.perf_counter() - start) * 1000
    print(json.dumps(out), flush=True)
"""


def test_every_hostile_card_is_refused_located_and_bounded():
    cases = {c.id: c for c in hostile_cards()}
    assert len(cases) == len(hostile_cards()) >= 60
    env = {**os.environ, "PYTHONPATH": os.path.dirname(corpus.__file__)}  # the corpus lives with the tests
    done = subprocess.run([sys.executable, "-c", RUNNER], capture_output=True, text=True, timeout=180, env=env)
    assert done.returncode == 0, done.stderr
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["id"] for r in results] == list(cases)
    for result in results:
        case = cases[result["id"]]
        assert result["outcome"] == "refused", result
        error = result["error"]
        assert error["code"] == case.code, result
        assert result["text"].startswith(case.name), result  # the file is named first
        assert "Traceback" not in result["text"]
        if case.id.startswith("png-") and case.code not in ("not_a_card",):
            assert error["byte"] is not None, result
    slowest = max(results, key=lambda r: r["ms"])
    print(f"\n{len(results)} hostile cards refused; slowest {slowest['id']}: {slowest['ms']:.0f} ms")


def test_corpus_ids_are_unique_and_cover_each_container():
    ids = [c.id for c in hostile_cards()]
    assert len(ids) == len(set(ids))
    for prefix in ("json-", "png-", "charx-"):
        assert sum(i.startswith(prefix) for i in ids) >= 15
