"""``lw serve`` against seats that misbehave and turns that take long, over real HTTP.

Bodies (raw sockets against a real server): a body past the limit is refused by its
``Content-Length`` before it is read, a chunked one as soon as it passes the limit, a lying
length reads no more than it says, a slow one is cut at its time limit while other seats are
answered; the connection is closed after a refused body, and a real ``lw serve`` process stays
small whatever a seat sends. Turns (a slow model on loopback, a long computation): another
seat's page, ``state`` and events answer while a turn is in flight; lines in one room apply in
the order they came; a turn past its deadline is answered with 504 at the deadline and leaves
the room byte-identical, and the table goes on.
"""

from __future__ import annotations

import json
import os
import queue
import re
import socket
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from panels_testkit import Server, copy_pack, copy_room, fetch, recorded

pytest.importorskip("starlette", reason="lw serve needs the serve extra (starlette, uvicorn)")
pytest.importorskip("uvicorn", reason="lw serve needs the serve extra (starlette, uvicorn)")

from lw_panels.serve.app import MAX_BODY_BYTES  # noqa: E402
from lw_panels.serve.table import Table, TurnSource  # noqa: E402

from lwcore.contributions import ReplyEdit  # noqa: E402
from lwcore.turn.connection import LiveRequest  # noqa: E402
from lwcore.hookspecs import hookimpl  # noqa: E402
from lwcore.kernel import Kernel  # noqa: E402
from lwcore.plugins import InProcessPlugin  # noqa: E402

HANG = 20.0
"""Seconds after which a wait is a hang (a failure), never a result."""


def snapshot(room: Path) -> dict[str, bytes]:
    """Every file of the room, byte for byte (the lock files under ``.lw/`` left out)."""
    return {str(p.relative_to(room)): p.read_bytes() for p in sorted(room.rglob("*"))
            if p.is_file() and ".lw" not in p.relative_to(room).parts}


def wait_until(condition: Any, what: str) -> None:
    deadline = time.monotonic() + HANG
    while not condition():
        assert time.monotonic() < deadline, f"hung waiting for {what}"
        time.sleep(0.01)


# --- a slow model on loopback ----------------------------------------------------------------


class SlowModel:
    """An Anthropic-shaped model endpoint on 127.0.0.1 that holds every request until
    :meth:`release` (``hold=False``: answers at once). Each request's body goes to
    :attr:`requests`; the answer is plain narration ``reply N``."""

    def __init__(self, *, hold: bool = True) -> None:
        self.requests: queue.Queue[dict[str, Any]] = queue.Queue()
        self.released = threading.Event()
        if not hold:
            self.released.set()
        self.count = 0
        model = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                model.count += 1
                number = model.count
                model.requests.put(body)
                model.released.wait(60)
                data = json.dumps({
                    "id": f"msg_{number}", "type": "message", "role": "assistant", "model": "slow",
                    "stop_reason": "end_turn", "content": [{"type": "text", "text": f"reply {number}"}],
                    "usage": {"input_tokens": 1, "output_tokens": 1}}).encode("utf-8")
                try:
                    self.send_response(200)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass  # the turn gave up waiting (its deadline)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True

    def release(self) -> None:
        self.released.set()

    def source(self) -> TurnSource:
        return TurnSource(live=LiveRequest(endpoint=f"http://127.0.0.1:{self.server.server_address[1]}/v1/messages",
                                           key_env="LW_TEST_SLOW_KEY", protocol="anthropic_messages", model="slow"))

    def __enter__(self) -> SlowModel:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.release()
        self.server.shutdown()
        self.server.server_close()


def post_in_thread(url: str, text: str) -> queue.Queue[tuple[int, dict[str, Any]]]:
    """POST ``{"text": text}`` to ``url`` from a thread; its ``(status, JSON)`` arrives later."""
    answers: queue.Queue[tuple[int, dict[str, Any]]] = queue.Queue()

    def run() -> None:
        status, _, body = fetch(url, data={"text": text}, timeout=120)
        answers.put((status, json.loads(body)))

    threading.Thread(target=run, daemon=True).start()
    return answers


def first_event(url: str) -> str:
    """The first line of a seat's event stream (its ``retry`` line), within the hang check."""
    host, port = url.split("/")[2].split(":")
    with socket.create_connection((host, int(port)), timeout=HANG) as sock:
        path = "/" + url.split("/", 3)[3]
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
        data = b""
        while b"\r\n\r\n" not in data or b"retry:" not in data:
            chunk = sock.recv(4096)
            assert chunk, "the event stream closed"
            data += chunk
    return data.decode("utf-8", "replace")


@pytest.fixture
def seats() -> Any:
    return lambda member: f"seat-{member}"


def test_reads_answer_while_a_turn_waits_for_a_slow_model(kernel, table_room: Path, seats, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setenv("LW_TEST_SLOW_KEY", "k-slow")
    with SlowModel() as model:
        table = Table(kernel, table_room, model.source(), seed=5, token=seats)
        with Server(table) as server:
            answers = post_in_thread(server.link("p1") + "say", "我去码头查看那艘空船。")
            model.requests.get(timeout=HANG)  # the turn is in flight, waiting on the model
            for member, path in (("p2", "state"), ("kp", ""), ("p1", ""), ("kp", "state")):
                status, _, body = fetch(server.link(member) + path, timeout=HANG)  # used to wait for the turn
                assert status == 200, (member, path, body)
            assert "retry:" in first_event(server.link("p2") + "events")
            state = json.loads(fetch(server.link("p2") + "state", timeout=HANG)[2])
            assert state["version"] == 0 and "我去码头查看那艘空船" not in json.dumps(state, ensure_ascii=False)
            assert answers.empty()  # still in flight: the reads did not wait for it
            model.release()
            status, answer = answers.get(timeout=HANG)
            assert status == 200 and answer["text"] == "reply 1", answer
            state = json.loads(fetch(server.link("p2") + "state", timeout=HANG)[2])
            assert state["version"] == 1 and "我去码头查看那艘空船" in json.dumps(state, ensure_ascii=False)


def test_lines_in_one_room_apply_in_the_order_they_came(kernel, table_room: Path, seats, monkeypatch) -> None:  # noqa: ANN001
    lines = [("p1", "第一句：我去码头。"), ("p2", "Second: I follow the footprints."), ("p1", "第三句：我敲钟。")]
    monkeypatch.setenv("LW_TEST_SLOW_KEY", "k-slow")
    with SlowModel() as model:
        table = Table(kernel, table_room, model.source(), seed=5, token=seats)
        with Server(table) as server:
            answers = []
            for index, (member, text) in enumerate(lines):
                answers.append(post_in_thread(server.link(member) + "say", text))
                if index == 0:
                    model.requests.get(timeout=HANG)  # the first is in flight
                wait_until(lambda n=index + 1: table.queue.pending == n, f"line {index + 1} to be queued")
            model.release()
            results = [a.get(timeout=HANG) for a in answers]
    assert [r[0] for r in results] == [200, 200, 200], results
    assert [r[1]["text"] for r in results] == ["reply 1", "reply 2", "reply 3"]
    from lwcore.turn.room import Room

    history = Room.load(table_room, kernel).history.all()
    said = [(e.actor, e.text, e.turn) for e in history if e.role == "player"]
    assert [(a, t) for a, t, _ in said[-3:]] == lines
    assert [n for _, _, n in said[-3:]] == sorted({n for _, _, n in said[-3:]})  # three turns, in order
    seen_by_model = [json.dumps(model.requests.get(timeout=HANG), ensure_ascii=False) for _ in range(2)]
    assert lines[0][1] in seen_by_model[0] and lines[1][1] in seen_by_model[1]  # each turn saw the one before


def test_one_seat_cannot_fill_the_turn_queue(kernel, table_room: Path, seats, monkeypatch) -> None:  # noqa: ANN001
    """Attacker's X4: a player's link sent its burst of lines at once and every one queued
    (each a live turn, paid for) ahead of everyone else's, past their deadlines. A seat has at
    most LINES_PER_SEAT lines queued or playing; the next is refused (429, ``busy``), in its
    own language, and the other seats still play."""
    monkeypatch.setenv("LW_TEST_SLOW_KEY", "k-slow")
    with SlowModel() as model:
        table = Table(kernel, table_room, model.source(), seed=5, token=seats)
        with Server(table) as server:
            answers = [post_in_thread(server.link("p1") + "say", "第一句。")]
            model.requests.get(timeout=HANG)  # in flight
            answers.append(post_in_thread(server.link("p1") + "say", "第二句。"))
            wait_until(lambda: table.queue.pending == 2, "p1's second line to be queued")
            for text in ("第三句。", ".r 1d6"):  # a turn or a command: the seat has its share queued
                status, _, body = fetch(server.link("p1") + "say", data={"text": text}, timeout=HANG)
                refusal = json.loads(body)
                assert status == 429 and refusal["code"] == "busy" and "请等它们完成后再试" in refusal["error"], refusal
            assert table.queue.pending == 2
            answers.append(post_in_thread(server.link("p2") + "say", "I follow."))  # another seat is not held back
            wait_until(lambda: table.queue.pending == 3, "p2's line to be queued")
            model.release()
            results = [a.get(timeout=HANG) for a in answers]
            assert [r[0] for r in results] == [200, 200, 200], results
            status, _, body = fetch(server.link("p1") + "say", data={"text": ".r 1d6"}, timeout=HANG)
            assert status == 200, body  # its lines played: the seat acts again


def test_a_turn_past_its_deadline_changes_nothing_and_the_table_goes_on(kernel, table_room: Path, seats, monkeypatch) -> None:  # noqa: ANN001
    before = snapshot(table_room)
    monkeypatch.setenv("LW_TEST_SLOW_KEY", "k-slow")
    with SlowModel() as model:
        table = Table(kernel, table_room, model.source(), seed=5, token=seats, turn_seconds=1.5)
        with Server(table) as server:
            start = time.monotonic()
            status, _, body = fetch(server.link("p1") + "say", data={"text": "我去码头查看那艘空船。"}, timeout=HANG)
            waited = time.monotonic() - start
            answer = json.loads(body)
            assert status == 504 and answer["code"] == "deadline", answer
            assert "1.5 s" in answer["error"] and "nothing of it was saved" in answer["error"]
            assert waited < HANG
            wait_until(lambda: table.queue.pending == 0, "the timed-out turn to end")
            assert snapshot(table_room) == before  # byte for byte
            assert table.version == 0
            model.release()  # the model answers again: the next line is played
            status, _, body = fetch(server.link("p2") + "say", data={"text": "I look around."}, timeout=HANG)
            assert status == 200, body
    assert snapshot(table_room) != before


def blocking_processor(entered: threading.Event, release: threading.Event) -> InProcessPlugin:
    """A reply processor that stands for a long computation: it holds the turn until released."""
    @hookimpl
    def lw_reply_text(turn, text, ctx):  # noqa: ANN001, ANN202
        entered.set()
        release.wait(60)
        return ReplyEdit(narration=text)

    manifest = {"id": "slowpoke", "version": "1", "tier": "code", "provides": ["reply_text"]}
    return InProcessPlugin(manifest, SimpleNamespace(lw_reply_text=lw_reply_text))


def test_a_long_computation_past_the_deadline_saves_nothing_when_it_ends(tmp_path: Path, seats) -> None:
    """The turn's own thread cannot be stopped: it runs on after the seat was answered, and
    when it reaches its save the deadline refuses it; the recorded reply stays unused."""
    from lw_panels.packs import dev_mounts
    from panels_testkit import say

    entered, release = threading.Event(), threading.Event()
    kernel = Kernel(data_dir=tmp_path / "data", env={}, plugins=[blocking_processor(entered, release)])
    dev_mounts(kernel).mount(copy_pack(tmp_path / "harbor-ui"))
    room = copy_room(tmp_path / "room")
    say(kernel, room, ".panels enable harbor-ui", "kp")
    before = snapshot(room)
    table = Table(kernel, room, TurnSource(deque([recorded()])), seed=5, token=seats, turn_seconds=1.0)
    with Server(table) as server:
        status, _, body = fetch(server.link("p1") + "say", data={"text": "我去码头查看那艘空船。"}, timeout=HANG)
        assert status == 504 and json.loads(body)["code"] == "deadline"
        assert entered.is_set() and table.queue.pending == 1  # still computing
        release.set()
        wait_until(lambda: table.queue.pending == 0, "the computation to end")
        assert snapshot(room) == before and len(table.source.replies) == 1
        status, _, body = fetch(server.link("p1") + "say", data={"text": "我去码头查看那艘空船。"}, timeout=HANG)
        assert status == 200, body  # the same reply, now in time
    assert snapshot(room) != before and len(table.source.replies) == 0


# --- bodies -------------------------------------------------------------------------------------


def request_head(server: Server, member: str, headers: str) -> bytes:
    path = server.link(member)[len(server.origin):]
    return (f"POST {path}say HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            f"Content-Type: application/json\r\n{headers}\r\n").encode()


def send_raw(port: int, head: bytes, body: Iterator[bytes]) -> tuple[int, bytes]:
    """Send ``head`` then ``body`` until the server stops taking it; ``(bytes of body sent,
    everything the server answered until it closed)``."""
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=HANG) as sock:
        sock.sendall(head)
        try:
            for chunk in body:
                sock.sendall(chunk)
                sent += len(chunk)
        except OSError:  # the server closed the connection: it stopped reading
            pass
        answer = b""
        try:
            while chunk := sock.recv(65536):
                answer += chunk
        except ConnectionResetError:
            pass
    return sent, answer


MIB = b"x" * (1 << 20)


def megabytes(n: int) -> Iterator[bytes]:
    return (MIB for _ in range(n))


def chunked(n: int) -> Iterator[bytes]:
    return (b"%x\r\n" % len(MIB) + MIB + b"\r\n" for _ in range(n))


@pytest.fixture
def server(kernel, table_room: Path, seats) -> Iterator[Server]:  # noqa: ANN001
    table = Table(kernel, table_room, TurnSource(deque([recorded()])), seed=5, token=seats)
    with Server(table, body_seconds=1.0) as running:
        yield running


def test_a_body_past_the_limit_is_refused_before_it_is_read(server: Server, table_room: Path) -> None:
    before = snapshot(table_room)
    head = request_head(server, "p1", f"Content-Length: {300 << 20}\r\n")
    with socket.create_connection(("127.0.0.1", server.port), timeout=HANG) as sock:
        sock.sendall(head)  # not one byte of the body
        answer = sock.recv(65536)
    assert answer.startswith(b"HTTP/1.1 413") and b"connection: close" in answer.lower()
    sent, answer = send_raw(server.port, head, megabytes(300))
    assert answer.startswith(b"HTTP/1.1 413") and sent < 300 << 20  # the server closed long before the end
    assert snapshot(table_room) == before


def test_a_chunked_body_is_read_only_up_to_the_limit(server: Server, table_room: Path) -> None:
    before = snapshot(table_room)
    sent, answer = send_raw(server.port, request_head(server, "p1", "Transfer-Encoding: chunked\r\n"), chunked(300))
    assert answer.startswith(b"HTTP/1.1 413") and b"at most 16384 bytes" in answer
    assert sent < 300 << 20
    small = json.dumps({"text": ".r 1d6"}).encode()
    one_chunk = b"%x\r\n" % len(small) + small + b"\r\n0\r\n\r\n"
    head = request_head(server, "p1", "Transfer-Encoding: chunked\r\nConnection: close\r\n")
    sent, answer = send_raw(server.port, head + one_chunk, iter(()))
    assert answer.startswith(b"HTTP/1.1 200"), answer[:300]  # a small chunked body is fine
    assert MAX_BODY_BYTES == 16384 and snapshot(table_room) != before


def test_a_lying_length_reads_no_more_than_it_says(server: Server, table_room: Path) -> None:
    before = snapshot(table_room)
    sent, answer = send_raw(server.port, request_head(server, "p1", "Content-Length: 12\r\n"), megabytes(64))
    assert answer.startswith(b"HTTP/1.1 400")  # twelve bytes of x are no JSON; the rest is never a request
    assert sent < 64 << 20
    assert snapshot(table_room) == before
    for bad in ("Content-Length: -5\r\n", "Content-Length: 1e9\r\n"):
        sent, answer = send_raw(server.port, request_head(server, "p1", bad), iter(()))
        assert answer.startswith(b"HTTP/1.1 400"), (bad, answer[:200])


def test_a_slow_body_is_cut_at_its_time_limit_and_others_are_answered(server: Server, table_room: Path) -> None:
    before = snapshot(table_room)
    answers: queue.Queue[tuple[int, bytes]] = queue.Queue()

    def trickle() -> Iterator[bytes]:
        for _ in range(200):  # 200 bytes over 20 s: far past the 1 s limit
            yield b" "
            time.sleep(0.1)

    thread = threading.Thread(target=lambda: answers.put(send_raw(
        server.port, request_head(server, "p1", "Content-Length: 200\r\n"), trickle())), daemon=True)
    thread.start()
    time.sleep(0.2)
    for member, path in (("p2", "state"), ("kp", "")):  # the slow seat holds up no one
        assert fetch(server.link(member) + path, timeout=HANG)[0] == 200
    sent, answer = answers.get(timeout=HANG)
    assert answer.startswith(b"HTTP/1.1 408") and sent < 200
    assert snapshot(table_room) == before


def vm_peak_mib(pid: int) -> float:
    text = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    return int(re.search(r"VmHWM:\s+(\d+) kB", text).group(1)) / 1024  # type: ignore[union-attr]


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="reads the server's peak memory from /proc")
def test_a_real_lw_serve_stays_small_whatever_a_seat_sends(tmp_path: Path, table_room: Path, pack: Path) -> None:
    """The issue's case: 300 MiB from one seat grew the server by 294 MiB. Now a real ``lw
    serve`` process is sent 300 MiB three ways (declared, chunked, under a lying length) and
    its peak memory grows by less than 16 MiB."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env.update({"LW_HOME": str(tmp_path / "home"), "LW_DEV_PACKS": str(pack), "PYTHONUNBUFFERED": "1"})
    lw = Path(sys.executable).parent / "lw"
    process = subprocess.Popen([str(lw), "serve", str(table_room), "--port", "0"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env)
    try:
        lines = [process.stdout.readline() for _ in range(5)]  # type: ignore[union-attr]
        found = re.search(r"http://127\.0\.0\.1:(\d+)(/t/\S+/)", "".join(lines))
        assert found, lines
        port, path = int(found.group(1)), found.group(2)
        def answers() -> bool:
            try:
                return fetch(f"http://127.0.0.1:{port}{path}state", timeout=HANG)[0] == 200
            except OSError:  # not listening yet
                return False

        wait_until(answers, "lw serve to answer")
        peak = vm_peak_mib(process.pid)
        head = (f"POST {path}say HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n").encode()
        for extra, body in ((f"Content-Length: {300 << 20}\r\n", megabytes(300)),
                            ("Transfer-Encoding: chunked\r\n", chunked(300)),
                            ("Content-Length: 12\r\n", megabytes(300))):
            sent, answer = send_raw(port, head + extra.encode() + b"\r\n", body)
            assert answer.startswith((b"HTTP/1.1 413", b"HTTP/1.1 400")), answer[:200]
        grown = vm_peak_mib(process.pid) - peak
        assert grown < 16, f"the server's peak memory grew by {grown:.0f} MiB"
        assert fetch(f"http://127.0.0.1:{port}{path}state", timeout=HANG)[0] == 200
    finally:
        process.terminate()
        try:
            _, err = process.communicate(timeout=HANG)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    assert "Traceback" not in err, err


def test_the_turn_timeout_option_says_its_default(tmp_path: Path, table_room: Path) -> None:
    """``lw serve --help`` names the default deadline the table uses; a bad value is refused."""
    from lw_panels.serve.table import TURN_TIME_LIMIT

    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env["LW_HOME"] = str(tmp_path / "home")
    lw = str(Path(sys.executable).parent / "lw")
    shown = subprocess.run([lw, "serve", "--help"], capture_output=True, text=True, env=env, timeout=120)
    assert shown.returncode == 0 and f"[default: {TURN_TIME_LIMIT}]" in " ".join(shown.stdout.split())
    for bad in ("0", "-3", "soon"):
        refused = subprocess.run([lw, "serve", str(table_room), "--turn-timeout", bad], capture_output=True,
                                 text=True, env=env, timeout=120)
        assert refused.returncode == 2 and "--turn-timeout" in refused.stderr and "Traceback" not in refused.stderr
