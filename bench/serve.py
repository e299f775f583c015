"""``lw serve`` under a slow turn and a hostile body (issue 24, items 6 and 9).

    .venv/bin/python bench/serve.py [--reads N] [--mib N]

A real ``lw serve`` process on 127.0.0.1 plays the example room with the harbour pack; its
turns go to a model endpoint on loopback that holds each request until told to answer.

1. Reads during a turn: the time another seat's ``GET state`` takes while a turn waits on the
   model, against the same request with no turn in flight (the baseline, same run). Goal: a
   read does not wait for the turn -- within 3x the baseline (before: it waited for the
   whole turn).
2. A seat's oversized body: ``--mib`` MiB sent as a declared ``Content-Length``, as a chunked
   body without one, and under a lying ``Content-Length: 12``; the server's peak memory
   (``VmHWM`` from ``/proc``) before and after, and how much of each body it took before it
   closed the connection. Goal: the peak grows by < 16 MiB (before: by about the body's size;
   300 MiB grew it by 294 MiB).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROOM = ROOT / "examples" / "fog-harbor"
PACK = ROOT / "plugins" / "panels" / "examples" / "harbor-ui"
GOAL_RATIO = 3.0
GOAL_GROWTH_MIB = 16


class HeldModel:
    """An Anthropic-shaped endpoint that answers only once :attr:`release` is set."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.asked = threading.Event()
        model = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                self.rfile.read(int(self.headers["content-length"]))
                model.asked.set()
                model.release.wait(120)
                data = json.dumps({"id": "m", "type": "message", "role": "assistant", "model": "held",
                                   "stop_reason": "end_turn", "content": [{"type": "text", "text": "钟声。"}],
                                   "usage": {"input_tokens": 1, "output_tokens": 1}}).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1/messages"


def get(url: str) -> float:
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=120) as response:
        response.read()
    return time.perf_counter() - start


def example_room(prefix: str, **env: str) -> tuple[Path, Path, dict[str, str]]:
    """A fresh work folder (``prefix``), a copy of the example room in it (no recorded replies)
    and the environment of an ``lw`` run there (this one without ``LW_*``, a data dir of its
    own, and ``env``)."""
    work = Path(tempfile.mkdtemp(prefix=prefix))
    room = work / "room"
    shutil.copytree(ROOM, room, ignore=shutil.ignore_patterns("replies"))
    run = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    run.update({"LW_HOME": str(work / "home"), "PYTHONUNBUFFERED": "1", **env})
    return work, room, run


def serve_room(room: Path, env: dict[str, str], *options: str) -> tuple[subprocess.Popen[str], dict[str, str]]:
    """A real ``lw serve ROOM --port 0 OPTIONS`` (the ``lw`` beside this Python) and the seat
    links it printed (``p1``, ``p2``, … and ``keeper`` -> link), once it answers on its port.
    Shared by the benches that serve a room (``bench/frame_keys.py`` too)."""
    lw = str(Path(sys.executable).parent / "lw")
    process = subprocess.Popen([lw, "serve", str(room), "--port", "0", *options], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env)
    try:
        seen = ""
        while "Ctrl-C stops it." not in seen:
            line = process.stdout.readline()  # type: ignore[union-attr]
            if not line:
                raise RuntimeError("lw serve ended: " + process.stderr.read())  # type: ignore[union-attr]
            seen += line
        links = dict(re.findall(r"\((\w+)\): (http://127\.0\.0\.1:\d+/t/\S+/)", seen))
        origin = next(iter(links.values())).split("/t/")[0]
        deadline = time.monotonic() + 30
        while True:
            try:
                get(origin + "/")
                return process, links
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
    except BaseException:
        process.kill()
        process.wait(10)
        raise


def median_ms(url: str, n: int) -> float:
    return statistics.median(get(url) for _ in range(n)) * 1000


def peak_mib(pid: int) -> float:
    text = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    return int(re.search(r"VmHWM:\s+(\d+) kB", text).group(1)) / 1024  # type: ignore[union-attr]


def send(port: int, head: bytes, chunks: object) -> int:
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(head)
        try:
            for chunk in chunks:  # type: ignore[attr-defined]
                sock.sendall(chunk)
                sent += len(chunk)
        except OSError:
            pass
        try:
            while sock.recv(65536):
                pass
        except OSError:
            pass
    return sent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reads", type=int, default=20)
    parser.add_argument("--mib", type=int, default=300)
    args = parser.parse_args()
    work, room, env = example_room("lw-bench-serve-", LW_DEV_PACKS=str(PACK),
                                   ANTHROPIC_API_KEY="bench-key")  # the loopback model takes any key
    lw = str(Path(sys.executable).parent / "lw")
    subprocess.run([lw, "turn", str(room), "--as", "kp", "--say", ".panels enable harbor-ui"], env=env, check=True,
                   capture_output=True)
    model = HeldModel()
    process, links = serve_room(room, env, "--endpoint", model.url, "--provider", "anthropic_messages",
                                "--model", "bench")
    try:
        port = int(re.search(r":(\d+)/", links["p1"]).group(1))  # type: ignore[union-attr]
        idle = median_ms(links["p2"] + "state", args.reads)
        request = urllib.request.Request(links["p1"] + "say", data=json.dumps({"text": "我去码头。"}).encode(),
                                         headers={"Content-Type": "application/json"})
        acting = threading.Thread(target=lambda: urllib.request.urlopen(request, timeout=300).read(), daemon=True)
        acting.start()
        model.asked.wait(60)
        busy = median_ms(links["p2"] + "state", args.reads)
        model.release.set()
        acting.join(120)
        print(f"reads: GET state {idle:.1f} ms with no turn, {busy:.1f} ms while a turn waits on the model "
              f"(ratio {busy / idle:.2f}, goal <= {GOAL_RATIO:g}) -- {'ok' if busy / idle <= GOAL_RATIO else 'MISSED'}")

        path = links["p1"].split(str(port), 1)[1]
        head = f"POST {path}say HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n".encode()
        mib = b"x" * (1 << 20)
        before = peak_mib(process.pid)
        cases = [("declared", f"Content-Length: {args.mib << 20}\r\n", (mib for _ in range(args.mib))),
                 ("chunked", "Transfer-Encoding: chunked\r\n",
                  (b"%x\r\n" % len(mib) + mib + b"\r\n" for _ in range(args.mib))),
                 ("lying length", "Content-Length: 12\r\n", (mib for _ in range(args.mib)))]
        for name, extra, body in cases:
            sent = send(port, head + extra.encode() + b"\r\n", body)
            print(f"body: {name}: {args.mib} MiB offered, {sent / (1 << 20):.1f} MiB sent before the server closed the connection")
        grown = peak_mib(process.pid) - before
        print(f"body: peak memory {before:.0f} MiB before, grown by {grown:.1f} MiB "
              f"(goal < {GOAL_GROWTH_MIB}) -- {'ok' if grown < GOAL_GROWTH_MIB else 'MISSED'}")
    finally:
        model.release.set()
        process.terminate()
        process.communicate(timeout=30)
        model.server.shutdown()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
