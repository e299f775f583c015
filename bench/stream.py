"""Streaming figures of a live turn (issue 28), against a loopback provider server in its own process.

1. **The kernel's share of the time to the first narration token.** The server holds the
   first token back a fixed ``DELAY``. A turn on the example room (``Kernel.turn`` on a
   profile, streamed, the room loaded, compiled, sent, the stream read, each delta handed
   to a callback) is timed from the call to the first narration delta; the baseline, measured
   in the same run against the same server, is a bare httpx streaming POST of the same request
   body timed to the first byte of its first text event. The kernel's share is the
   difference of the medians. Goal: at most 10 ms.
2. **CPU per streamed turn against a non-streamed one** (``time.process_time`` of this
   process, the server being another process): the same reply (a 1,200-character narration
   sent 4 characters an event, and a tool call) streamed and not, the two interleaved (the
   medians of twice ``RUNS`` turns each). Goal: at most 1.2x.

    .venv/bin/python bench/stream.py
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "fog-harbor"
SAY = "我去码头查看那艘空船。"
DELAY = 0.05
RUNS = 15
NARRATION = ("雾气从海面上缓缓升起，码头上的灯一盏接一盏地熄灭。" * 40)[:1200]

SERVER = f"""
import sys, time
sys.path.insert(0, {str(ROOT / "tests" / "support")!r})
from provider_servers import ProviderServer, Reply
reply = Reply({NARRATION!r})
with ProviderServer("chat_completions", lambda n: reply, chunk=4, first_token_delay=float(sys.argv[1])) as s:
    print(s.url, flush=True)
    sys.stdin.read()
"""


def server(delay: float) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen([sys.executable, "-c", SERVER, str(delay)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    return process, process.stdout.readline().strip()


def main() -> int:
    import httpx

    from lwcore.kernel import Kernel
    from lwcore.live import CallOptions, TextDelta, calling
    from lwcore.profiles import Profile

    work = Path(tempfile.mkdtemp(prefix="lw-bench-stream-"))
    slow, slow_url = server(DELAY)
    fast, fast_url = server(0.0)
    try:
        kernel = Kernel(data_dir=work / "home", env={"LW_HOME": str(work / "home")})
        room = work / "room"
        shutil.copytree(EXAMPLE, room, ignore=shutil.ignore_patterns("replies"))

        def turn(url: str, stream: bool, marks: dict | None = None) -> None:
            def on_delta(delta: object) -> None:
                if marks is not None and isinstance(delta, TextDelta) and "first" not in marks:
                    marks["first"] = time.perf_counter()

            profile = Profile(name="bench", protocol="chat_completions", endpoint=url, model="m", retries=0)
            with calling(CallOptions(profile=profile, stream=stream, on_delta=on_delta)):
                kernel.turn(room, SAY, provider="chat_completions", endpoint=url, api_key=None, model="m")

        turn(slow_url, True)  # warm: imports, registries, packs, the TLS context
        kernel_first = []
        for _ in range(RUNS):
            marks: dict = {}
            start = time.perf_counter()
            turn(slow_url, True, marks)
            kernel_first.append((marks["first"] - start) * 1000)

        from lwcore.turn.compile import compile_turn
        from lwcore.turn.room import Room

        body = compile_turn(kernel, Room.load(room, kernel), SAY, provider="chat_completions", model="m").request
        data = json.dumps({**body, "stream": True, "stream_options": {"include_usage": True}},
                          ensure_ascii=False).encode("utf-8")
        bare_first = []
        with httpx.Client(trust_env=False) as client:
            for _ in range(RUNS + 1):
                start = time.perf_counter()
                with client.stream("POST", slow_url, content=data, headers={"content-type": "application/json"}) as r:
                    for chunk in r.iter_bytes():
                        if b'"content": "' in chunk and b'"content": ""' not in chunk:
                            break
                bare_first.append((time.perf_counter() - start) * 1000)
        bare_first = bare_first[1:]

        cpu: dict[bool, list[float]] = {False: [], True: []}
        turn(fast_url, False)
        turn(fast_url, True)
        for _ in range(RUNS * 2):  # interleaved, so load from elsewhere on the machine hits both alike
            for stream in (False, True):
                start = time.process_time()
                turn(fast_url, stream)
                cpu[stream].append((time.process_time() - start) * 1000)

        compile_ms = []
        for _ in range(RUNS):
            start = time.perf_counter()
            compile_turn(kernel, Room.load(room, kernel), SAY, provider="chat_completions", model="m")
            compile_ms.append((time.perf_counter() - start) * 1000)
        k, b = statistics.median(kernel_first), statistics.median(bare_first)
        c = statistics.median(compile_ms)
        share = k - b
        plain_cpu, stream_cpu = statistics.median(cpu[False]), statistics.median(cpu[True])
        ratio = stream_cpu / plain_cpu
        print(f"first narration token, live turn (server delay {DELAY * 1000:.0f} ms)  {k:8.2f} ms")
        print(f"first narration token, bare httpx stream (baseline)         {b:8.2f} ms")
        print(f"kernel's share of the time to the first token                {share:8.2f} ms   "
              f"= {k / b:4.2f}x the baseline  (goal <= 10 ms: {'OK' if share <= 10 else 'OVER'})")
        print(f"  of which: load and compile the room (the turn pipeline)     {c:8.2f} ms")
        print(f"  of which: the rest (hooks, client, stream reader, delta)     {share - c:8.2f} ms")
        print(f"CPU per turn, not streamed (baseline)                        {plain_cpu:8.2f} ms")
        print(f"CPU per turn, streamed ({len(NARRATION) // 4} text events)                     {stream_cpu:8.2f} ms   "
              f"= {ratio:4.2f}x  (goal <= 1.2x: {'OK' if ratio <= 1.2 else 'OVER'})")
        return 0
    finally:
        for process in (slow, fast):
            process.stdin.close()  # type: ignore[union-attr]
            process.wait(10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    os.environ.pop("LW_PLUGINS", None)
    sys.exit(main())
