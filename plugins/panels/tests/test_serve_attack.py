"""An attacker's pass over lw serve (real server on 127.0.0.1): what one seat's holder can do
to the table with its own link."""

from __future__ import annotations

import contextlib
import json
import http.client
import socket
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from panels_testkit import Server, fetch

from lw_panels.serve.app import MAX_STREAMS_PER_SEAT, create_site
from lw_panels.serve.table import Table, TurnSource

OPERATOR = "operator-0123456789"


def seeds(member: str) -> str:
    return f"seat-{member}-0123456789abcdef"


class Stream:
    """One open event stream, read on its own thread: its lines, and whether it ended."""

    def __init__(self, url: str) -> None:
        self.lines: list[str] = []
        self.ended = threading.Event()
        self.hello = threading.Event()
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        self.conn.request("GET", parts.path)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            response = self.conn.getresponse()
            while line := response.readline():
                self.lines.append(line.decode("utf-8").strip())
                if line.startswith(b"event: hello"):
                    self.hello.set()
        except OSError:
            pass
        finally:
            self.ended.set()

    def close(self) -> None:
        if self.conn.sock is not None:
            with contextlib.suppress(OSError):
                self.conn.sock.shutdown(socket.SHUT_RDWR)  # the reader sees the end, then the socket goes
        self.ended.wait(10)
        self.conn.close()


def test_one_seat_cannot_open_event_streams_without_end(kernel, table_room: Path) -> None:  # noqa: ANN001
    """Attacker's X3: every stream held a connection, a queue of whole updates and a read of the
    invites file every second on the server's event loop -- one player's link opening them by
    the thousand stalled every room. Past the cap the oldest of that seat's streams ends."""
    table = Table(kernel, table_room, TurnSource(), seed=5, token=seeds)
    site = create_site({"": table}, operator=OPERATOR)
    with Server(table, app=site) as server:
        events = f"{server.origin}/t/{seeds('p1')}/events"
        streams = []
        try:
            for _ in range(MAX_STREAMS_PER_SEAT + 3):
                stream = Stream(events)
                assert stream.hello.wait(20), stream.lines
                streams.append(stream)
            for old in streams[:3]:  # the oldest three were ended ...
                assert old.ended.wait(10)
            assert not any(s.ended.is_set() for s in streams[3:])  # ... the newest still listen
            page = fetch(f"{server.origin}/o/{OPERATOR}/")[2].decode("utf-8")
            assert f"(p1, player): link made, {MAX_STREAMS_PER_SEAT} open page(s)" in page
            keeper = Stream(f"{server.origin}/t/{seeds('kp')}/events")  # another seat is not touched
            assert keeper.hello.wait(20)
            streams.append(keeper)
            time.sleep(0.2)
            assert not any(s.ended.is_set() for s in streams[3:])
        finally:
            for stream in streams:
                stream.close()


def test_one_seat_cannot_keep_the_server_busy_reading(kernel, table_room: Path) -> None:  # noqa: ANN001
    """Attacker's X6: reads were never limited, so one seat's link asking for its page or its
    update without pause kept the server's threads building views, every room's pages waiting
    behind them. Every way to a seat counts against a per-seat budget (an injected clock)."""
    now = [0.0]
    table = Table(kernel, table_room, TurnSource(), seed=5, token=seeds)
    site = create_site({"": table}, reads_per_minute=4, clock=lambda: now[0])
    with Server(table, app=site) as server:
        link = f"{server.origin}/t/{seeds('p1')}/"
        assert [fetch(link + "state")[0] for _ in range(4)] == [200] * 4
        status, headers, body = fetch(link + "state")
        assert status == 429 and headers["retry-after"] == "15", (status, body)
        assert "请等待 15 秒后再试" in json.loads(body)["error"]  # in the seat's language
        assert fetch(link + "events")[0] == 429  # another way in is the same budget
        assert fetch(f"{server.origin}/t/{seeds('p2')}/state")[0] == 200  # another seat is not held back
        assert fetch(f"{server.origin}/t/not-a-seat/state")[0] == 404
        now[0] += 15.0  # a quarter of a minute: one read more
        assert fetch(link + "state")[0] == 200
        assert fetch(link + "state")[0] == 429


def test_a_scripted_panel_never_types_a_room_command(kernel, table_room: Path) -> None:  # noqa: ANN001
    """Attacker's X9: a tier-2 panel's script posts intents with no click behind them; on the
    keeper's page it could type any keeper command unseen -- ``.var expose *`` shows every
    hidden value to the players. Its intents are words for the story or a roll; the tier-1
    dice panel's declared command buttons still work."""
    table = Table(kernel, table_room, TurnSource(), seed=5, token=seeds)
    with Server(table) as server:
        intent = f"{server.origin}/t/{seeds('kp')}/intent"
        for kind in ("input", "choice"):
            for value in (".var expose *", "  .panels disable harbor-ui", "。var expose *"):  # 。: typed on a CJK keyboard
                status, _, body = fetch(intent, data={"panel": "harbor-ui/map", "kind": kind, "value": value})
                assert status == 403 and "never a room command" in json.loads(body)["error"], (kind, value, body)
        status, _, body = fetch(intent, data={"panel": "harbor-ui/map", "kind": "roll", "value": "1d6"})
        assert status == 200 and "1d6 = " in json.loads(body)["text"], body
        status, _, body = fetch(intent, data={"panel": "harbor-ui/dice", "kind": "choice", "value": ".r 1d6"})
        assert status == 200 and "1d6 = " in json.loads(body)["text"], body
