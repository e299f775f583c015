"""bench/serve_load.py's core (issue 29's load run and soak), small: 2 rooms x 2 seats (the
keeper and one player) for a few seconds on a real ``lw serve --all`` and a loopback streaming
model, so the bench cannot rot. What it checks is asserted, never how fast it went."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[3] / "bench" / "serve_load.py"


def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("serve_load_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_load_run_loses_nothing(tmp_path: Path) -> None:
    load = bench()
    lines: list[str] = []
    figures = load.run(tmp_path, rooms=2, players=1, seconds=4, latency=(0.1, 0.3), bare_runs=2, say=lines.append)
    numbers = load.report(figures, rooms=2, seats=2, say=lines.append)
    assert figures.problems == [], lines
    answered = [t for t in figures.turns if t.status == 200]
    assert {t.room for t in answered} == {"room00", "room01"}, lines
    assert all(set(t.seen) == {"kp", "p1"} for t in answered), lines  # every seat got every turn's update
    assert all(t.mark in figures.model for t in answered)  # each turn went to the model once, timed there
    assert numbers["unseen"] == 0 and numbers["turns_per_second"] > 0
    assert any("nothing lost" in line for line in lines), lines


def test_soak_keeps_turns_whole_and_links_valid(tmp_path: Path) -> None:
    load = bench()
    lines: list[str] = []
    figures = load.run(tmp_path, rooms=2, players=1, seconds=6, latency=(0.1, 0.3), kills=(1.5, 2.5), soak=True,
                       bare_runs=1, say=lines.append)
    load.report(figures, rooms=2, seats=2, say=lines.append)
    assert figures.restarts >= 1, lines
    assert figures.links == 4
    assert figures.problems == [], lines  # every link answered after each restart; every room whole
    assert any(t.status == 200 for t in figures.turns)
