"""Applying one turn as a campaign grows: 100, 10,000 and 100,000 history entries, then
100, 10,000 and 100,000 chronicle entries.

Each case copies the example room, writes the campaign's past, then times one whole recorded
turn through ``run_turn`` on the folder (lock, load, compile, apply the example's recorded
reply, one transactional save). Goal for both: the 100,000 case within 1.5x the 100 case.
The baseline in the same run is each table's 100 case.

- history: ``history.jsonl`` of N entries (before this was read from its end: 0.38 s at 100
  entries, 0.95 s at 20,000, the file read and rewritten whole).
- chronicle: ``docs/chronicle.jsonl`` of N entries, the campaign summary covering all but the
  last few (what folding leaves), a 100-entry history; the reply also records a chronicle
  entry. A turn reads the records after the summary's cursor, never the folded past.

    .venv/bin/python bench/history.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "fog-harbor"
REPLY = json.loads((EXAMPLE / "replies" / "turn1.anthropic_messages.json").read_text(encoding="utf-8"))
SAY = "我去码头查看那艘空船。"
SIZES = (100, 10_000, 100_000)
UNFOLDED = 6
"""Chronicle entries the summary does not cover yet (the last few turns)."""


def durable(handle: IO[Any]) -> None:
    """On disk before the clock starts: the turn's own fsync must not pay for the set-up's
    dirty pages (that would grow with N and measure the bench, not the turn)."""
    handle.flush()
    os.fsync(handle.fileno())


def write_history(path: Path, n: int, *, last_turn: int | None = None) -> None:
    """``n`` history lines, three a turn, the newest at ``last_turn`` (default ``n // 3``)."""
    line = {"turn": 0, "role": "keeper", "actor": "kp", "text": "雾气在码头上翻涌，远处的灯塔忽明忽暗。" * 2}
    shift = 0 if last_turn is None else last_turn - (n - 1) // 3 - 1
    with path.open("w", encoding="utf-8") as handle:
        for i in range(n):
            line["turn"] = i // 3 + 1 + shift
            line["role"] = ("player", "keeper", "event")[i % 3]
            handle.write(json.dumps(line, ensure_ascii=False) + "\n")
        durable(handle)


def write_chronicle(room: Path, n: int) -> None:
    """``n`` chronicle entries (one a turn) and a summary covering all but :data:`UNFOLDED`."""
    docs = room / "docs"
    docs.mkdir(exist_ok=True)
    end, covers = 0, None
    with (docs / "chronicle.jsonl").open("wb") as handle:
        for turn in range(1, n + 1):
            record = {"id": f"c-{turn}-1", "schema_version": 1,
                      "data": {"text": f"第{turn}夜，调查员们沿着码头追查，又找到一条线索。", "keeper": "他们没注意到灯塔。",
                               "turn": turn, "pcs": ["陈默"], "scene": "码头"}}
            line = (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
            handle.write(line)
            end += len(line)
            if turn == n - UNFOLDED:
                covers = {"entry": record["id"], "byte": end}
        durable(handle)
    summary = {"text": "调查员们在雾港追查了很久。", "keeper": "", "through_turn": n - UNFOLDED, "fold_count": n // 8}
    if covers is not None:
        summary["covers"] = covers
    (docs / "campaign_summary.yaml").write_text(
        "summary:\n  schema_version: 2\n  data: " + json.dumps(summary, ensure_ascii=False) + "\n", encoding="utf-8")
    write_history(room / "history.jsonl", 100, last_turn=n)


def with_chronicle_call(reply: dict) -> dict:
    """The example reply, also recording what the table did in the chronicle."""
    call = {"type": "tool_use", "id": "bench-chronicle", "name": "chronicle_record",
            "input": {"text": "调查员们登上了那艘空船。", "keeper": "船舱下有人。"}}
    return {**reply, "content": [*reply["content"][:-1], call, reply["content"][-1]]}


CASES: dict[str, tuple[Callable[[Path, int], None], dict]] = {
    "history entries": (lambda room, n: write_history(room / "history.jsonl", n), REPLY),
    "chronicle entries": (write_chronicle, with_chronicle_call(REPLY)),
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from lwcore.kernel import Kernel
    from lwcore.turn.pipeline import run_turn

    work = Path(tempfile.mkdtemp(prefix="lw-history-"))
    kernel = Kernel(data_dir=work / "data", env={})
    times: dict[tuple[str, int], list[float]] = {(case, n): [] for case in CASES for n in SIZES}
    for run in range(args.runs + 1):
        for case, (prepare, reply) in CASES.items():
            for n in SIZES:  # interleaved, so load from elsewhere on the machine hits every case alike
                room = work / f"room-{n}-{run}"
                shutil.copytree(EXAMPLE, room, ignore=shutil.ignore_patterns("replies"))
                prepare(room, n)
                start = time.perf_counter()
                result = run_turn(kernel, room, SAY, reply=reply, rng=random.Random(5))
                elapsed = time.perf_counter() - start
                assert not any(r.is_error for r in result.applied.results), result.applied.results
                if run:  # the first round warms imports and the pack cache
                    times[(case, n)].append(elapsed * 1000)
                shutil.rmtree(room)
    shutil.rmtree(work, ignore_errors=True)
    for case in CASES:
        results = {n: statistics.median(times[(case, n)]) for n in SIZES}
        base = results[100]
        print(f"{case:<18} {'apply a turn (ms)':>18} {'x 100-entry case':>17}")
        for n, ms in results.items():
            print(f"{n:<18,} {ms:>18.1f} {ms / base:>17.2f}")
        verdict = "ok" if results[100_000] <= 1.5 * base else "MISSED"
        print(f"goal: 100,000 within 1.5x the 100 case -> {results[100_000] / base:.2f}x {verdict}\n")


if __name__ == "__main__":
    main()
