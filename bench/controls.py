"""Message controls on a 10,000-turn room against a plain turn there (issue 28's figure:
regenerate and rewind within 1.5x a plain turn).

Each run copies the example room, writes 10,000 turns of past history (30,000 lines), plays two
recorded turns through ``run_turn`` (so the undo log holds their saves), then times, each on a
fresh copy: a plain recorded turn (the baseline, same run), a rewind to before the last turn
(``lwcore.turn.controls.rewind``) and a regenerate of the last turn with the recorded reply
(``lwcore.turn.controls.regenerate``: a rewind keeping the reply, then the turn). Timings are
medians over the runs, interleaved so load from elsewhere hits each case alike.

    .venv/bin/python bench/controls.py [--runs N]
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from history import EXAMPLE, REPLY, SAY, write_history  # noqa: E402

TURNS = 10_000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from lwcore.kernel import Kernel
    from lwcore.turn import controls
    from lwcore.turn.pipeline import run_turn

    work = Path(tempfile.mkdtemp(prefix="lw-controls-"))
    kernel = Kernel(data_dir=work / "data", env={})
    seed = work / "seed"
    shutil.copytree(EXAMPLE, seed, ignore=shutil.ignore_patterns("replies"))
    write_history(seed / "history.jsonl", TURNS * 3)
    for n in range(2):
        run_turn(kernel, seed, SAY, reply=REPLY, rng=random.Random(n))

    def plain(room: Path) -> None:
        run_turn(kernel, room, SAY, reply=REPLY, rng=random.Random(9))

    def rewind(room: Path) -> None:
        controls.rewind(kernel, room, TURNS + 2)

    def regenerate(room: Path) -> None:
        controls.regenerate(kernel, room, lambda loaded, said, actor: run_turn(
            kernel, loaded, said, actor=actor, reply=REPLY, rng=random.Random(9)))

    cases = {"plain turn": plain, "rewind one turn": rewind, "regenerate": regenerate}
    times: dict[str, list[float]] = {name: [] for name in cases}
    for run in range(args.runs + 1):
        for name, case in cases.items():
            room = work / f"{name}-{run}".replace(" ", "-")
            shutil.copytree(seed, room)
            start = time.perf_counter()
            case(room)
            elapsed = time.perf_counter() - start
            if run:  # the first round warms imports and the pack cache
                times[name].append(elapsed * 1000)
            shutil.rmtree(room)
    shutil.rmtree(work, ignore_errors=True)
    base = statistics.median(times["plain turn"])
    print(f"{TURNS:,}-turn room        {'median (ms)':>12} {'x plain turn':>13}")
    worst = 0.0
    for name in cases:
        ms = statistics.median(times[name])
        worst = max(worst, ms / base) if name != "plain turn" else worst
        print(f"{name:<22} {ms:>12.1f} {ms / base:>13.2f}")
    print(f"goal: regenerate and rewind within 1.5x a plain turn -> {worst:.2f}x {'ok' if worst <= 1.5 else 'MISSED'}")


if __name__ == "__main__":
    main()
