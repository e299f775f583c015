"""A wrong frame key in a room of many seats (the T8 attacker's pass, low finding).

    .venv/bin/python bench/frame_keys.py [--seats N] [--requests N]

A real ``lw serve`` process on 127.0.0.1 serves the example room, its invite store holding
``--seats`` links. ``/f/KEY/…`` with a wrong key is answered before any rate limit (it reaches
no seat): the server once computed one HMAC a seat for it, on its event loop. Printed: the
median time of a wrong frame key's 404, against a wrong seat link's 404 (the baseline, same
run: a link is one hash and a compare a stored link), and what the old per-seat digests cost
in this process for this many seats. Goal: a wrong frame key within 2x the baseline, whatever
the number of seats (before: the digests alone, about 1 ms for 1 000 seats, on every request).
Then a seat's own update (``GET state``, the page data every update sends, which names the
seat's frame key: looked up in the same index, where it once copied every link of the store),
and what that copy costs in this process.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import re
import secrets
import shutil
import statistics
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serve import example_room, serve_room  # noqa: E402

GOAL_RATIO = 2.0


def get_ms(url: str) -> float:
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            response.read()
    except urllib.error.HTTPError as exc:
        exc.read()
        assert exc.code == 404, exc.code
    return (time.perf_counter() - start) * 1000


def median_ms(urls: list[str]) -> float:
    return statistics.median(get_ms(url) for url in urls)


def main() -> None:
    from lw_panels.serve.invites import Invites

    parser = argparse.ArgumentParser()
    parser.add_argument("--seats", type=int, default=5000)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    work, room, env = example_room("lw-bench-frames-")
    Invites(room).ensure(f"ghost{n}" for n in range(args.seats))
    process, seats = serve_room(room, env)
    try:
        origin = re.search(r"http://127\.0\.0\.1:\d+", seats["p1"]).group(0)  # type: ignore[union-attr]
        n = args.requests
        links = [f"{origin}/t/{secrets.token_urlsafe(32)}/state" for _ in range(n)]
        frames = [f"{origin}/f/{secrets.token_hex(32)}/harbor-ui/map/index.html" for _ in range(n)]
        median_ms(links[:20] + frames[:20])  # warm both paths (the frame-key index is built once)
        link_ms, frame_ms = median_ms(links), median_ms(frames)
        key = secrets.token_bytes(32)
        start = time.perf_counter()
        for member in range(args.seats):
            hmac.new(key, f"ghost{member}\0{'0' * 64}".encode(), hashlib.sha256).hexdigest()
        digests_ms = (time.perf_counter() - start) * 1000
        ratio = frame_ms / link_ms
        print(f"seats {args.seats}, {n} requests each: wrong seat link {link_ms:.2f} ms (baseline), "
              f"wrong frame key {frame_ms:.2f} ms (ratio {ratio:.2f}, goal <= {GOAL_RATIO:g}) -- "
              f"{'ok' if ratio <= GOAL_RATIO else 'MISSED'}")
        print(f"the per-seat digests a wrong frame key used to cost: {digests_ms:.2f} ms a request")
        state_ms = median_ms([seats["p1"] + "state"] * 40)  # a seat's update: it names the seat's frame key
        store = Invites(room)
        store.current()
        start = time.perf_counter()
        for _ in range(100):
            store.current()
        copy_ms = (time.perf_counter() - start) * 10
        print(f"a seat's update (GET state; its frames' key comes from the index): {state_ms:.2f} ms "
              f"({state_ms / link_ms:.1f}x the baseline); naming the key used to copy every link, "
              f"{copy_ms:.3f} ms for each listening seat of each update")
    finally:
        process.terminate()
        process.wait(10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
