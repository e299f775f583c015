"""Recursion at scale: each pass looks at what is new, with the activations of the full scan.

The engine's passes look only at entries that may fire (``engine._Pool``); the reference
matcher looks at every entry in every pass, as SillyTavern's loop does. Generated books built
for long recursion (chains, branches, secondary keys, levels, groups, exclusions, min
activations) must give both the same activations, placement, state and random draws. Then the
hostile cases through the real ``lw tavern activate``: a 10,000-entry chain with a budget of
100,000 tokens (31 s before; the subprocess timeout is the hang check, ``bench/worldbook.py``
measures the chain at n and 4n), also with ``--all``; and books whose regular expressions
backtrack for minutes.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lw_tavern.worldbook.engine import Message, ScanInput, activate, compile_book
from lw_tavern.worldbook.model import WorldBook, WorldEntry, WorldSettings
from lw_tavern.worldbook.timed import TimedState

LW = str(Path(sys.executable).with_name("lw"))


@st.composite
def chains(draw):
    """A book in which entries mention each other's keys, so recursion runs many passes."""
    n = draw(st.integers(2, 40))
    out = []
    for uid in range(n):
        links = draw(st.lists(st.integers(0, n - 1), max_size=2))
        data = {
            "uid": uid,
            "key": [f"k{uid}x"] + draw(st.lists(st.sampled_from(["shared", "/k1\\dx/", "\x01k0x", "  "]), max_size=1)),
            "keysecondary": draw(st.lists(st.sampled_from([f"k{(uid + 3) % n}x", "shared", "nowhere"]), max_size=2)),
            "selective": True,
            "selectiveLogic": draw(st.integers(0, 3)),
            "content": draw(st.sampled_from(["", "", "@@if k1 on\n", "@@if k2 on\n"]))
            + " ".join(f"k{j}x" for j in links) + draw(st.sampled_from(["", " shared"])),
            "order": draw(st.integers(0, 5)),
            "scanDepth": draw(st.sampled_from([None, None, 1, 4])),
            "preventRecursion": draw(st.booleans()) and draw(st.booleans()),
            "excludeRecursion": draw(st.booleans()) and draw(st.booleans()),
            "delayUntilRecursion": draw(st.sampled_from([False, False, False, 1, 2])),
            "group": draw(st.sampled_from(["", "", "", "g", "g,h"])),
            "probability": draw(st.sampled_from([100, 100, 100, 60])),
            "disable": draw(st.booleans()) and draw(st.booleans()) and draw(st.booleans()),
            "cooldown": draw(st.sampled_from([None, None, 1])),
        }
        out.append(WorldEntry.model_validate(data))
    return out


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chains(), st.lists(st.sampled_from(["k0x", "k1x shared", "nothing", "k2x"]), min_size=1, max_size=4),
       st.builds(WorldSettings, depth=st.integers(1, 4), recursive=st.just(True),
                 min_activations=st.integers(0, 4), max_recursion_steps=st.sampled_from([0, 0, 5]),
                 max_context=st.sampled_from([200, 100_000]), budget=st.sampled_from([25, 100])),
       st.integers(0, 2**32), st.booleans())
def test_long_recursion_activates_as_the_full_scan_does(book, chat, world, seed, explain):
    compiled = compile_book(WorldBook(entries=book), world)
    scan = ScanInput(chat=[Message(t, name="N") for t in chat])
    state = TimedState()
    for _turn in range(2):
        results = []
        for matcher in ("fast", "naive"):
            rng = random.Random(seed)
            a = activate(compiled, scan, world, state, rng=rng, matcher=matcher, explain=explain,  # type: ignore[arg-type]
                         condition=lambda expr: "k1" not in expr)
            results.append((a.fired, a.contents, a.placement, a.state, a.overflowed, a.loops, rng.random()))
        assert results[0] == results[1]
        state = results[0][3]


WORDS = ["k0x", "k1x", "k2x", "k3x", "s1", "s2", "old", "deep", "g"]


@st.composite
def widening(draw):
    """Books for the pool's release rules: keys first seen in older messages (min activations
    widen the depth to them), secondary keys only in recursion texts (a pass without them may
    flip NOT ANY / NOT ALL), exclusions and levels across both kinds of pass, groups and a
    small budget (entries left out for good), own scan depths (widening must not matter)."""
    n = draw(st.integers(2, 14))
    out = []
    for uid in range(n):
        out.append(WorldEntry.model_validate({
            "uid": uid,
            "key": draw(st.lists(st.sampled_from(WORDS + ["/k\\dx/", "\x01old"]), min_size=1, max_size=2)),
            "keysecondary": draw(st.lists(st.sampled_from(WORDS), max_size=3)),
            "selective": True,
            "selectiveLogic": draw(st.integers(0, 3)),
            "content": " ".join(draw(st.lists(st.sampled_from(WORDS), max_size=3))),
            "order": draw(st.integers(0, 3)),
            "scanDepth": draw(st.sampled_from([None, None, None, 1, 3, 6])),
            "excludeRecursion": draw(st.booleans()) and draw(st.booleans()),
            "preventRecursion": draw(st.booleans()) and draw(st.booleans()),
            "delayUntilRecursion": draw(st.sampled_from([False, False, False, 1, 2, 3])),
            "group": draw(st.sampled_from(["", "", "", "g", "h", "g,h"])),
            "groupOverride": draw(st.booleans()) and draw(st.booleans()),
            "ignoreBudget": draw(st.booleans()) and draw(st.booleans()),
            "probability": draw(st.sampled_from([100, 100, 100, 50])),
            "matchWholeWords": draw(st.sampled_from([None, True])),
        }))
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(widening(), st.lists(st.lists(st.sampled_from(WORDS + ["x", "zz"]), max_size=3).map(" ".join),
                            min_size=1, max_size=8),
       st.builds(WorldSettings, depth=st.integers(1, 3), recursive=st.booleans(),
                 min_activations=st.integers(0, 12), min_activations_depth_max=st.sampled_from([0, 0, 5]),
                 max_recursion_steps=st.sampled_from([0, 0, 4]), max_context=st.sampled_from([60, 100_000]),
                 budget=st.sampled_from([25, 100]), use_group_scoring=st.booleans()),
       st.integers(0, 2**32), st.booleans())
def test_passes_that_widen_the_depth_activate_as_the_full_scan_does(book, chat, world, seed, explain):
    compiled = compile_book(WorldBook(entries=book), world)
    scan = ScanInput(chat=chat)
    state = TimedState()
    for _turn in range(2):
        results = []
        for matcher in ("fast", "naive"):
            rng = random.Random(seed)
            a = activate(compiled, scan, world, state, rng=rng, matcher=matcher, explain=explain)  # type: ignore[arg-type]
            results.append((a.fired, a.contents, a.placement, a.state, a.overflowed, a.loops, rng.random()))
        assert results[0] == results[1]
        state = results[0][3]


def test_a_long_chain_fires_every_link() -> None:
    n = 3000
    book = WorldBook(entries=[WorldEntry.model_validate({"uid": i, "key": [f"k{i}x"], "content": f"link k{i + 1}x"})
                              for i in range(n)])
    world = WorldSettings(recursive=True, budget=100, max_context=100_000, depth=2)
    result = activate(compile_book(book, world), ScanInput(chat=["k0x"]), world, rng=random.Random(1))
    assert len(result.fired) == n and result.loops == n + 1


# --- through lw tavern activate -------------------------------------------------------------------


def lw(tmp_path: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env["LW_HOME"] = str(tmp_path / "home")
    return subprocess.run([LW, *args], capture_output=True, text=True, env=env, timeout=timeout)


def chain_files(tmp_path: Path, n: int) -> tuple[Path, Path, Path]:
    book = tmp_path / "chain.json"
    book.write_text(json.dumps({"entries": {str(i): {"uid": i, "key": [f"k{i}x"], "content": f"link k{i + 1}x"}
                                            for i in range(n)}}), encoding="utf-8")
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps(["k0x"]), encoding="utf-8")
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"recursive": True, "budget": 100, "max_context": 100_000}), encoding="utf-8")
    return book, chat, settings


def test_a_chain_of_ten_thousand_entries_with_a_budget_of_a_hundred_thousand(tmp_path: Path) -> None:
    book, chat, settings = chain_files(tmp_path, 10_000)
    for extra in ((), ("--all",)):
        proc = lw(tmp_path, "tavern", "activate", str(book), "--chat", str(chat), "--settings", str(settings), "--json",
                  *extra)
        assert proc.returncode == 0, proc.stderr
        result = json.loads(proc.stdout)
        assert len(result["fired"]) == 10_000 and result["passes"] == 10_001


def test_catastrophic_regex_keys_are_skipped_with_a_warning_and_the_scan_goes_on(tmp_path: Path) -> None:
    entries = {str(i): {"uid": i, "key": [f"/(a+)+$|q{{{i + 2}}}/"], "content": f"E{i}"} for i in range(40)}
    entries["40"] = {"uid": 40, "key": ["/a{30}!/"], "content": "FINE", "order": 1000}  # looked at first
    book = tmp_path / "book.json"
    book.write_text(json.dumps({"entries": entries}), encoding="utf-8")
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps(["a" * 30 + "!"]), encoding="utf-8")
    proc = lw(tmp_path, "tavern", "activate", str(book), "--chat", str(chat), "--json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["fired"] == ["40"]
    assert len(result["problems"]) == 40 and "warning: entry 0 (" in proc.stderr
    assert sum("script time is spent" in p["problem"] for p in result["problems"]) > 10
    assert "Traceback" not in proc.stderr
