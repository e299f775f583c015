"""A room's turn with a large world book: what the tavern plugin adds, warm and cold.

    .venv/bin/python bench/worldbook_room.py

A copy of the example room gets a generated world card of 2,000 entries (seeded; one to three
keys each from a mixed English/Chinese vocabulary, a quarter of them before the character, the
rest after; 50 at depth), imported as its world (`lw tavern import`'s code). Timed, each on the
same room and input:

- **bare**: `compile_turn` with the tavern plugin switched off (the kernel's own work: the
  baseline of this run);
- **warm**: `compile_turn` with the book compiled once for the file's revision (what every turn
  after the first costs): activation, rendering, placement;
- **cold**: the same with the per-kernel book cache emptied before each turn (reading the
  entries' YAML, validating, compiling: what every turn would cost without the cache).

Printed: best and median of each, the plugin's added cost (warm - bare) and the cache's ratio
(cold / warm).
"""

from __future__ import annotations

import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "plugins" / "tavern" / "tests"))

from lwcore.kernel import Kernel  # noqa: E402
from lwcore.turn.compile import compile_turn  # noqa: E402

ENTRIES = 2_000
WORDS = ["harbor", "lamp", "bell", "tide", "keeper", "boat", "fog", "码头", "灯塔", "钟声", "潮水", "渔船", "雾", "守夜人",
         "船长", "日记", "礁石", "北岬", "栈桥", "马灯"]
SAY = "我去码头查看那艘空船，远处钟声响起，潮水在涨。"


def card(rng: random.Random) -> dict:
    entries = []
    for i in range(ENTRIES):
        keys = [f"{rng.choice(WORDS)}{rng.randrange(400)}" for _ in range(rng.randint(1, 3))]
        if i % 40 == 0:
            keys.append(rng.choice(WORDS))  # one entry in forty fires on the input
        ext = {"position": 4, "depth": 2} if i % 40 == 1 else {}
        entries.append({"id": i, "keys": keys, "content": f"entry {i}: " + " ".join(rng.choice(WORDS) for _ in range(30)),
                        "insertion_order": rng.randrange(200), "enabled": True,
                        "position": "before_char" if i % 4 == 0 else "after_char", "extensions": ext})
    return {"spec": "chara_card_v2", "spec_version": "2.0",
            "data": {"name": "bench", "description": "", "character_book": {"name": "bench", "entries": entries}}}


def timed(fn, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def show(label: str, ms: list[float]) -> str:
    return f"  {label:<8} {min(ms):8.2f} ms best of {len(ms)} (median {statistics.median(ms):.2f})"


def main() -> None:
    from lw_tavern.room.book import BookCache
    from roomkit import copy_room, import_into

    tmp = Path(tempfile.mkdtemp(prefix="lw-bench-"))
    try:
        room = copy_room(tmp / "room")
        path = tmp / "bench.world.json"
        path.write_text(json.dumps(card(random.Random(7)), ensure_ascii=False), encoding="utf-8")
        kernel = Kernel(data_dir=tmp / "data", env={})
        bare_kernel = Kernel(data_dir=tmp / "bare", env={}, disabled={"tavern"})
        import_into(kernel, room, path, "world")
        cache: BookCache = kernel.service("tavern.books", lambda k: BookCache())

        def turn(k: Kernel) -> object:
            return compile_turn(k, room, SAY, rng=random.Random(1))

        first = turn(kernel)
        fired = [s for s in first.segments if s.plugin == "tavern"]
        entries = next(d for _, d in first.staged.documents if d.type == "worldbook_timed").data["fired"]
        assert entries, "the bench book should fire"
        bare = timed(lambda: turn(bare_kernel), 15)
        warm = timed(lambda: turn(kernel), 15)

        def cold_turn() -> None:
            cache.books.clear()
            turn(kernel)

        cold = timed(cold_turn, 5)
        print(f"world book in a room: {ENTRIES} entries, {len(entries)} fire on the input, "
              f"{sum(s.chars for s in fired):,} characters placed in {len(fired)} segments")
        print(show("bare", bare) + "   the kernel alone (tavern off)")
        print(show("warm", warm) + "   the book compiled once per revision")
        print(show("cold", cold) + "   read + compiled every turn")
        print(f"  the plugin adds {min(warm) - min(bare):.2f} ms a turn warm; the cache saves "
              f"{min(cold) / min(warm):.1f}x")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
