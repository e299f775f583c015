"""Opening a seat's link as a room's sessions grow (issue 29's loose ends, item 3).

    .venv/bin/python bench/sessions.py [--joins N]

A join makes a session (``Sessions.open``: the room's ``.lw/sessions.json`` rewritten whole,
atomically, under its lock) and the seat's next request finds it (``Sessions.get``). Timed
here in this process, in a room folder holding 100 sessions (the baseline, same run: some
seats' worth) and 10,000 (the most a store holds), every session live. Printed: the median
join of each and their ratio. Before: the file was indented JSON (Python's pure encoder) and
read back and parsed whole at the next request -- 0.41 s a join at 9,000 sessions.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SIZES = (100, 10_000)


def join_ms(size: int, joins: int) -> float:
    from lw_panels.serve.sessions import MAX_SESSIONS, SESSIONS, Sessions

    folder = Path(tempfile.mkdtemp(prefix="lw-bench-sessions-"))
    try:
        now = time.time()
        past = {hashlib.sha256(str(n).encode()).hexdigest(): {"member": f"p{n % 400}", "invite": "0" * 64,
                                                              "expires": now + 86400}
                for n in range(min(size, MAX_SESSIONS) - 1)}
        (folder / SESSIONS).parent.mkdir(parents=True)
        (folder / SESSIONS).write_text(json.dumps({"format": 1, "sessions": past}), encoding="utf-8")
        store = Sessions(folder)
        store.get("warm")  # the server has read its store before anyone joins
        times = []
        for n in range(joins):
            start = time.perf_counter()
            session = store.open(f"p{n % 400}", "1" * 64)  # a seat of its own sessions: none ended for it
            assert store.get(session.id) is not None
            times.append((time.perf_counter() - start) * 1000)
        return statistics.median(times)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--joins", type=int, default=30)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    small, large = (join_ms(size, args.joins) for size in SIZES)
    print(f"a join (open + the next request's lookup): {small:.2f} ms with {SIZES[0]:,} sessions (baseline), "
          f"{large:.2f} ms with {SIZES[1]:,} (ratio {large / small:.1f})")


if __name__ == "__main__":
    main()
