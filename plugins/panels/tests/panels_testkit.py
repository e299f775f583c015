"""Helpers of the panels plugin's tests: rooms, packs, a real kernel, a real web table.

Every room is a fresh copy of the example room ``examples/fog-harbor`` (keeper ``kp``,
players ``p1`` (zh) and ``p2`` (en); ``clues_found`` and ``fog`` are player-visible,
``cult_alert``, ``true_culprit`` and ``ritual_nights_left`` keeper-only). Packs are copies of
the example pack ``plugins/panels/examples/harbor-ui`` or written by the test. Servers on
loopback: the web table itself (:class:`Server`, :func:`fetch`) and the HTTP services around
it (:class:`Loopback`: a model, an image provider, a site nothing may reach).
"""

from __future__ import annotations

import json
import random
import shutil
import struct
import textwrap
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE_ROOM = ROOT / "examples" / "fog-harbor"
REPLIES = EXAMPLE_ROOM / "replies"
EXAMPLE_PACK = ROOT / "plugins" / "panels" / "examples" / "harbor-ui"
SECRET_VALUE = "灯塔看守人周伯年"
"""The keeper-only ``true_culprit``: must never reach a player."""
KEEPER_TEXTS = (SECRET_VALUE, "守秘人看板", "Keeper's board", "教团警觉", "Cult alertness", "cult_alert",
                "true_culprit", "ritual_nights_left")
"""Strings only the keeper's side of the example room and pack holds."""


def png(width: int = 4, height: int = 3, rgb: tuple[int, int, int] = (40, 80, 120)) -> bytes:
    """A real PNG of one colour (made here: no binary fixture)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def copy_room(target: Path) -> Path:
    shutil.copytree(EXAMPLE_ROOM, target, ignore=shutil.ignore_patterns("replies", "README*"))
    return target


def copy_pack(target: Path) -> Path:
    shutil.copytree(EXAMPLE_PACK, target)
    return target


def write_pack(folder: Path, panels_yaml: str, *, pack_id: str = "testpack", files: dict[str, Any] | None = None,
               presentation: str | None = None) -> Path:
    """A pack folder with ``pack.yaml``, ``ui/panels.yaml`` and ``files`` (path -> text or bytes)."""
    folder.mkdir(parents=True, exist_ok=True)
    contents = "contents:\n  panels: [ui/panels.yaml]\n"
    if presentation is not None:
        contents += "  presentation: [ui/presentation.yaml]\n"
    (folder / "pack.yaml").write_text(f"id: {pack_id}\nversion: 1.0.0\n{contents}", encoding="utf-8")
    (folder / "ui").mkdir(exist_ok=True)
    (folder / "ui" / "panels.yaml").write_text(textwrap.dedent(panels_yaml), encoding="utf-8")
    if presentation is not None:
        (folder / "ui" / "presentation.yaml").write_text(textwrap.dedent(presentation), encoding="utf-8")
    for rel, content in (files or {}).items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return folder


def install(data_dir: Path, source: Path, pack_id: str, version: str = "1.0.0") -> Path:
    """Put ``source`` where an installed pack lives (``<data_dir>/packs/<id>@<version>``)."""
    target = data_dir / "packs" / f"{pack_id}@{version}"
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(source, target)
    return target


def say(kernel: Any, room: Path, text: str, actor: str, **kw: Any) -> Any:
    """One line in ``room`` as ``actor`` (a room command or a turn), through ``Kernel.turn``."""
    from lwcore.turn.pipeline import run_turn

    kw.setdefault("rng", random.Random(7))
    return run_turn(kernel, room, text, actor=actor, **kw)


def recorded(protocol: str = "anthropic_messages") -> dict[str, Any]:
    return json.loads((REPLIES / f"turn1.{protocol}.json").read_text(encoding="utf-8"))


def load(kernel: Any, room: Path) -> Any:
    from lwcore.turn.room import Room

    return Room.load(room, kernel)


class Server:
    """``lw serve``'s app on a real uvicorn server on 127.0.0.1 (a thread of the test):
    ``create_app(table, **options)``, or ``app`` when given (several rooms: ``create_site``)."""

    def __init__(self, table: Any, *, app: Any = None, **options: Any) -> None:
        import socket

        import uvicorn

        from lw_panels.serve.app import create_app

        self.table = table
        self.app = app if app is not None else create_app(table, **options)
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.origin = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning", timeout_graceful_shutdown=1,
                                                    lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the web table did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: Any) -> None:
        for hub in self.app.state.hubs.values():
            hub.close_soon()
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()

    def link(self, member: str) -> str:
        """``member``'s seat link (made when the table was set up)."""
        return f"{self.origin}/t/{self.table.fresh[member]}/"


def fetch(url: str, *, data: Any = None, headers: dict[str, str] | None = None,
         method: str | None = None, timeout: float = 30, jar: Any = None) -> tuple[int, dict[str, str], bytes]:
    """``(status, headers, body)`` of one request (no exception for error statuses); no
    answer within ``timeout`` seconds raises (a hang check). Redirects are followed with the
    cookies they set (a seat's link becomes a session on the way to its page), and with
    ``jar`` given, that jar's cookies are sent and kept."""
    import http.cookiejar
    import urllib.error
    import urllib.request

    body = None
    heads = dict(headers or {})
    if data is not None:
        body = data if isinstance(data, bytes) else json.dumps(data).encode("utf-8")
        heads.setdefault("Content-Type", "application/json")
    request = urllib.request.Request(url, data=body, headers=heads, method=method)
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(
        jar if jar is not None else http.cookiejar.CookieJar()))
    try:
        with opener.open(request, timeout=timeout) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


@dataclass(frozen=True)
class Heard:
    """One request a :class:`Loopback` server received."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes


class Loopback:
    """A plain HTTP server on 127.0.0.1 (a free port) in a thread of the test, standing in for a
    model, an image provider or a site a page must never reach: every GET and POST is kept in
    :attr:`seen` (its body read whole) and answered by ``answer(handler)`` (which writes the
    reply: :func:`send`, or anything a hostile server would do). Stop it with :meth:`close`,
    or use it as a context manager."""

    def __init__(self, answer: Callable[[BaseHTTPRequestHandler], Any]) -> None:
        self.seen: list[Heard] = []
        seen = self.seen

        class Handler(BaseHTTPRequestHandler):
            def handle_any(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                seen.append(Heard(self.command, self.path, dict(self.headers.items()),
                                  self.rfile.read(length) if length else b""))
                answer(self)

            do_GET = do_POST = handle_any  # noqa: N815

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def paths(self) -> list[str]:
        """The paths asked for, in order."""
        return [heard.path for heard in self.seen]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self) -> Loopback:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def send(handler: BaseHTTPRequestHandler, status: int = 200, body: Any = b"", **headers: str) -> None:
    """Answer ``status`` with ``body`` (bytes as they are, anything else as JSON) and ``headers``
    (``Access_Control_Allow_Origin="*"``: underscores for dashes)."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode("utf-8")
    handler.send_response(status)
    if not isinstance(body, bytes):
        handler.send_header("Content-Type", "application/json")
    for name, value in headers.items():
        handler.send_header(name.replace("_", "-"), value)
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


def nowhere() -> Loopback:
    """A loopback site a page must never reach (it answers anything 200, to any origin): what
    reached it is in its :attr:`Loopback.paths`."""
    return Loopback(lambda handler: send(handler, Access_Control_Allow_Origin="*"))


def event_stream(url: str, *, headers: dict[str, str] | None = None,
                 timeout: float = 30) -> tuple[int, Iterator[tuple[str, str]]]:
    """Open the server-sent event stream at ``url``: its status, and its events as they come
    (``(event, data)``, the data's lines joined) until the server ends it or the reader stops
    (the connection is closed then); no event within ``timeout`` seconds raises (a hang check)."""
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    conn.request("GET", parts.path, headers=headers or {})
    response = conn.getresponse()

    def read() -> Iterator[tuple[str, str]]:
        event, data = None, []
        try:
            while line := response.fp.readline():
                text = line.decode("utf-8").rstrip("\n")
                if text.startswith("event: "):
                    event = text[7:]
                elif text.startswith("data: "):
                    data.append(text[6:])
                elif text == "" and event is not None:
                    yield event, "\n".join(data)
                    event, data = None, []
        finally:
            conn.close()
    return response.status, read()
