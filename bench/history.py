"""Applying one turn as a campaign grows: 100, 10,000 and 100,000 history entries.

Each case copies the example room, writes a ``history.jsonl`` of N entries, then times one
whole recorded turn through ``run_turn`` on the folder (lock, load, compile, apply the
example's recorded reply, one transactional save with the history appended). Goal: the
100,000 case within 1.5x the 100 case (before this change the file was read and rewritten
whole: 0.38 s at 100 entries, 0.95 s at 20,000). The baseline in the same run is the 100 case.

    .venv/bin/python bench/history.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "fog-harbor"
REPLY = json.loads((EXAMPLE / "replies" / "turn1.anthropic_messages.json").read_text(encoding="utf-8"))
SAY = "我去码头查看那艘空船。"


def write_history(path: Path, n: int) -> None:
    line = {"turn": 0, "role": "keeper", "actor": "kp", "text": "雾气在码头上翻涌，远处的灯塔忽明忽暗。" * 2}
    with path.open("w", encoding="utf-8") as handle:
        for i in range(n):
            line["turn"] = i // 3 + 1
            line["role"] = ("player", "keeper", "event")[i % 3]
            handle.write(json.dumps(line, ensure_ascii=False) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from lwcore.kernel import Kernel
    from lwcore.turn.pipeline import run_turn

    work = Path(tempfile.mkdtemp(prefix="lw-history-"))
    kernel = Kernel(data_dir=work / "data", env={})
    sizes = (100, 10_000, 100_000)
    times: dict[int, list[float]] = {n: [] for n in sizes}
    for run in range(args.runs + 1):
        for n in sizes:  # interleaved, so load from elsewhere on the machine hits every case alike
            room = work / f"room-{n}-{run}"
            shutil.copytree(EXAMPLE, room, ignore=shutil.ignore_patterns("replies"))
            write_history(room / "history.jsonl", n)
            start = time.perf_counter()
            run_turn(kernel, room, SAY, reply=REPLY, rng=random.Random(5))
            elapsed = time.perf_counter() - start
            if run:  # the first round warms imports and the pack cache
                times[n].append(elapsed * 1000)
            shutil.rmtree(room)
    results = {n: statistics.median(t) for n, t in times.items()}
    shutil.rmtree(work, ignore_errors=True)
    base = results[100]
    print(f"{'history entries':<18} {'apply a turn (ms)':>18} {'x 100-entry case':>17}")
    for n, ms in results.items():
        print(f"{n:<18,} {ms:>18.1f} {ms / base:>17.2f}")
    verdict = "ok" if results[100_000] <= 1.5 * base else "MISSED"
    print(f"goal: 100,000 within 1.5x the 100 case -> {results[100_000] / base:.2f}x {verdict}")


if __name__ == "__main__":
    main()
