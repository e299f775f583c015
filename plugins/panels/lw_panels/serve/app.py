"""The web table's HTTP side (Starlette): one page per seat, live updates, acting, panels.

Routes (``TOKEN`` is a seat's secret link token; everything under it acts as that member):

=============================================  ==============================================
``GET /``                                      a page saying to open your seat's link
``GET /t/TOKEN/``                              the member's page (:func:`lw_panels.html.page_html`)
``GET /t/TOKEN/state``                         the member's current update (JSON)
``GET /t/TOKEN/events``                        server-sent events: ``update`` after every change;
                                               on the keeper's seat also ``delta`` (a live turn's
                                               narration as the model writes it)
``POST /t/TOKEN/say``                          ``{"text"}``: act as the member (a command or a turn)
``POST /t/TOKEN/intent``                       ``{"panel", "kind", "value"}``: a panel intent
``POST /t/TOKEN/control``                      the keeper's seat only: ``{"action": "regenerate" |
                                               "rewind" | "edit" | "choose" | "stop", "turn",
                                               "text", "number"}`` (:meth:`Table.control`)
``GET /t/TOKEN/asset/SHA256``                  a picture of a panel in the member's manifest
``GET /t/TOKEN/frame/PACK/PANEL/PATH``         a declared file of a tier-2 panel of theirs
=============================================  ==============================================

Guards: the server binds to loopback unless told otherwise (``lw serve --host``, with a public
address: docs/hosting.md) and answers only requests whose ``Host`` is a loopback name or the
public address's host (no DNS rebinding); writes take JSON only and refuse a foreign ``Origin``; a
write's body is at most :data:`MAX_BODY_BYTES`, refused by its ``Content-Length`` before any
of it is read (413), and a body without one (chunked) is read only up to that size; the
whole body must arrive within :data:`BODY_TIME_LIMIT` seconds (408);
every page carries a strict Content-Security-Policy; a tier-2 frame's files carry their own
(:func:`lw_panels.html.frame_policy`). Each update is built per seat from that member's own
projections: a player's page, its events and its files never hold keeper-only data.

Reads (pages, ``state``, events, files) read the room as last committed and never wait for a
turn; ``say`` and ``intent`` queue on the room's turn queue (:meth:`Table.submit`) and answer
when their line is played, or at its deadline with 504 and code ``deadline`` ("nothing of it
was saved") when it was not -- unless it had begun saving, then when it ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import posixpath
import re
import threading
from typing import Any

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from lw_panels.html import frame_policy, page_html, page_policy, update_json
from lw_panels.intents import intent_line
from lw_panels.load import asset_bytes
from lw_panels.manifest import manifest, room_packs
from lw_panels.serve.table import Seat, Table, json_error
from lwcore.api import LwError, Room, js_enabled, load_json, room_lock, viewer_of

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
LOOPBACK = ("127.0.0.1", "localhost", "[::1]", "::1")
KEEPALIVE = 15.0
STREAM_QUEUE = 256
"""Items (updates, narration deltas) one event stream may have waiting for its reader."""
STREAM_UPDATES = 16
"""Items a stream that does not keep up holds when an update is queued (older ones are dropped)."""
MAX_BODY_BYTES = 16 * 1024
"""The largest body a write (``say``, ``intent``) may have."""
BODY_TIME_LIMIT = 10
"""Seconds a write's whole body may take to arrive."""
_SAFE = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"}


class Hub:
    """Who listens for updates: one queue per open event stream, by seat. An item is
    ``(event, data)``: ``update`` (a seat's whole update) or ``delta`` (narration as the model
    writes it, for the keeper's seats only); ``None`` ends the stream."""

    def __init__(self) -> None:
        self.listeners: dict[str, set[asyncio.Queue[tuple[str, str] | None]]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None

    def add(self, seat: Seat) -> asyncio.Queue[tuple[str, str] | None]:
        self.loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[str, str] | None] = asyncio.Queue(maxsize=STREAM_QUEUE)
        self.listeners.setdefault(seat.token, set()).add(queue)
        return queue

    def drop(self, seat: Seat, queue: asyncio.Queue[tuple[str, str] | None]) -> None:
        self.listeners.get(seat.token, set()).discard(queue)

    def put(self, token: str, item: tuple[str, str]) -> None:
        """Queue ``item`` for every stream of seat ``token``. A stream that does not keep up
        holds at most :data:`STREAM_UPDATES` items when an update comes (the oldest go: the
        newest update is what counts), and a delta finding it full is dropped (the turn's
        update brings the whole narration)."""
        for queue in list(self.listeners.get(token, ())):
            if item[0] == "update":
                while queue.qsize() >= STREAM_UPDATES:
                    queue.get_nowait()
            elif queue.full():
                continue
            queue.put_nowait(item)

    def deltas(self, seats: list[Seat]) -> Any:
        """A function, callable from any thread, that sends narration text to ``seats``
        (the keeper's: raw model text is never a player's). Text that comes while the event
        loop has not yet taken the last piece joins it: one wake-up of the loop and one event
        a stream for a run of tokens, not one a token, in the order written."""
        tokens = [seat.token for seat in seats if seat.keeper]
        waiting: list[str] = []
        lock = threading.Lock()

        def flush() -> None:
            with lock:
                text = "".join(waiting)
                waiting.clear()
            for token in tokens:
                self.put(token, ("delta", text))

        def send(text: str) -> None:
            loop = self.loop
            if not tokens or not text or loop is None or loop.is_closed():
                return
            with lock:
                first = not waiting
                waiting.append(text)
            if first:
                loop.call_soon_threadsafe(flush)
        return send

    def close(self) -> None:
        """End every open event stream (the server is stopping)."""
        for queues in self.listeners.values():
            for queue in queues:
                if queue.full():
                    queue.get_nowait()
                queue.put_nowait(None)

    def close_soon(self) -> None:
        """:meth:`close`, from any thread (a signal handler, a test)."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.close)


def create_app(table: Table, *, body_seconds: float = BODY_TIME_LIMIT, public_url: str | None = None) -> Starlette:
    """The ASGI app serving ``table`` (``body_seconds``: how long a write's body may take).
    ``public_url``: the address players reach the table at (``https://table.example.org``,
    behind a reverse proxy): requests naming its host are answered too, and writes from its
    origin accepted; every other name still gets 421 (:func:`public_origin`)."""
    public = public_origin(public_url) if public_url else None
    hub = Hub()

    def seat_of(request: Request) -> Seat:
        seat = table.seat(request.path_params["token"])
        if seat is None:
            raise _Refusal(404, "no such seat")
        return seat

    def bases(seat: Seat) -> tuple[str, str]:
        return f"/t/{seat.token}/asset/", f"/t/{seat.token}/frame/"

    def view(seat: Seat) -> dict[str, Any]:
        asset_base, frame_base = bases(seat)
        return table.view(seat, asset_base=asset_base, frame_base=frame_base)

    async def run(func: Any, *args: Any, **kw: Any) -> Any:
        from starlette.concurrency import run_in_threadpool

        return await run_in_threadpool(func, *args, **kw)

    async def broadcast() -> None:
        """Each listening seat's update, built from one reading of the room."""
        seats = [s for token, queues in list(hub.listeners.items()) if queues and (s := table.seat(token))]
        if not seats:
            return
        try:
            views = await run(table.views, seats, bases)
        except LwError as exc:
            views = {seat.token: seat.error(exc) for seat in seats}
        for seat in seats:
            view_or_error = views[seat.token]
            payload = (json.dumps({"error": str(view_or_error)}, ensure_ascii=False)
                       if isinstance(view_or_error, LwError) else update_json(view_or_error))
            hub.put(seat.token, ("update", payload))

    async def index(request: Request) -> Response:
        return HTMLResponse("<!doctype html><meta charset=utf-8><title>Loreweaver table</title>"
                            "<p>Open the link of your seat, as printed by <code>lw serve</code>.</p>",
                            headers={**_SAFE, "Content-Security-Policy": "default-src 'none'"})

    async def page(request: Request) -> Response:
        seat = seat_of(request)
        try:
            data = await run(view, seat)
        except LwError as exc:  # a room that cannot be read: told as this seat may read it
            message = html.escape(str(seat.error(exc)))
            return HTMLResponse("<!doctype html><meta charset=utf-8><title>Loreweaver table</title>"
                                f"<p>This room cannot be read right now.</p><pre>{message}</pre>",
                                status_code=503, headers={**_SAFE, "Content-Security-Policy": "default-src 'none'"})
        return HTMLResponse(page_html(data, live=True, base=f"/t/{seat.token}/"),
                            headers={**_SAFE, "Content-Security-Policy": page_policy(live=True)})

    async def state(request: Request) -> Response:
        seat = seat_of(request)
        try:
            data = await run(view, seat)
        except LwError as exc:
            return JSONResponse(json_error(seat.error(exc)), status_code=503, headers=_SAFE)
        return Response(update_json(data), media_type="application/json", headers=_SAFE)

    async def events(request: Request) -> Response:
        seat = seat_of(request)
        queue = hub.add(seat)

        async def stream() -> Any:
            try:
                yield f"retry: 1000\nevent: hello\ndata: {table.version}\n\n"
                while True:
                    try:
                        item = await asyncio.wait_for(queue.get(), KEEPALIVE)
                    except asyncio.TimeoutError:
                        yield ": keepalive\n\n"
                        continue
                    if item is None:
                        return
                    event, data = item
                    lines = _LINE_BREAK.split(data)  # a CR in a model's text must not end an SSE line of its own
                    yield f"event: {event}\n" + "".join(f"data: {line}\n" for line in lines) + "\n"
            finally:
                hub.drop(seat, queue)

        return StreamingResponse(stream(), media_type="text/event-stream", headers={**_SAFE, "X-Accel-Buffering": "no"})

    async def body_of(request: Request) -> dict[str, Any]:
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            raise _Refusal(415, "send JSON")
        origin = request.headers.get("origin")
        host = request.headers.get("host", "")
        # the public name's pages are the public origin's (scheme and port included: a plain-http
        # page under that name is not the table's); a loopback name's, its own
        own = public if public is not None and host.lower() == public.split("://", 1)[1] else \
            f"{request.url.scheme}://{host}"
        if origin is not None and origin != own:
            raise _Refusal(403, "foreign origin")
        raw = await _bounded_body(request, MAX_BODY_BYTES, body_seconds)
        try:
            data = load_json(raw)
        except LwError as exc:
            raise _Refusal(400, str(exc)) from None
        if not isinstance(data, dict):
            raise _Refusal(400, "send a JSON object")
        return data

    async def act(seat: Seat, text: str) -> Response:
        return await queued(lambda deadline: table.submit(seat, text, deadline))

    async def queued(submit: Any) -> Response:
        """Answer when the line ``submit(deadline)`` queued is played, or at its deadline.
        Every seat hears at once whose turn is now being played, and again when it ends."""
        waiting = len(table.waiting)
        try:
            deadline = table.deadline()
            done = asyncio.wrap_future(submit(deadline))
            if len(table.waiting) > waiting:
                await broadcast()
            try:
                outcome = await asyncio.wait_for(asyncio.shield(done), deadline.remaining())
            except asyncio.TimeoutError:
                if deadline.expire():  # it never began saving, and now never will
                    done.add_done_callback(_quietly)
                    raise deadline.error() from None
                outcome = await done  # it is saving: its answer is the truth
        except LwError as exc:
            if len(table.waiting) != waiting:  # a turn that did not play: nobody is acting any more
                await broadcast()
            status = {"forbidden": 403, "invalid": 400, "no_reply": 409, "no_model": 409, "cancelled": 409,
                      "refused": 409, "deadline": 504}.get(exc.code or "", 422)
            return JSONResponse(json_error(exc), status_code=status, headers=_SAFE)
        if outcome.changed:
            await broadcast()
        return JSONResponse({"text": outcome.text, "version": table.version, "in_story": outcome.in_story},
                            headers=_SAFE)

    async def say(request: Request) -> Response:
        seat = seat_of(request)
        data = await body_of(request)
        text = data.get("text")
        if not isinstance(text, str):
            raise _Refusal(400, "text must be a string")
        return await act(seat, text)

    async def control(request: Request) -> Response:
        seat = seat_of(request)
        if not seat.keeper:  # refused before the body is read; the table refuses again
            return JSONResponse({"error": "only the keeper can regenerate, edit, rewind or stop a turn",
                                 "code": "forbidden"}, status_code=403, headers=_SAFE)
        data = await body_of(request)
        return await queued(lambda deadline: table.control(seat, data, deadline))

    async def intent(request: Request) -> Response:
        seat = seat_of(request)
        data = await body_of(request)

        def line() -> str:
            with room_lock(table.path, shared=True):
                room = Room.load(table.path, table.kernel)
                return intent_line(room, room.member(seat.member), data.get("panel"), data.get("kind"),
                                   data.get("value"))
        try:
            text = await run(line)
        except LwError as exc:
            shown = seat.error(exc)  # reading the room can fail on keeper-only data
            status = {"forbidden": 403, "invalid": 400}.get(shown.code or "", 422)
            return JSONResponse(json_error(shown), status_code=status, headers=_SAFE)
        return await act(seat, text)

    def member_panels(seat: Seat) -> tuple[Any, list[Any]]:
        with room_lock(table.path, shared=True):
            room = Room.load(table.path, table.kernel)
            packs = room_packs(room)
            return packs, manifest(room, viewer_of(room, room.member(seat.member)), packs)

    async def asset(request: Request) -> Response:
        seat = seat_of(request)
        sha = request.path_params["sha"]
        packs, panels = await run(member_panels, seat)
        allowed = {sha for panel in panels for sha in _image_hashes(panel.templates)}
        allowed |= {b.get("hash") for e in table.ui for b in e.get("blocks", ()) if b.get("kind") == "image"}
        if sha not in allowed:
            raise _Refusal(404, "no such picture here")
        for pack in packs.packs:
            for item in pack.files.values():
                if item.sha256 == sha:
                    data = await run(asset_bytes, pack, item)
                    return Response(data, media_type=item.mime, headers={
                        "X-Content-Type-Options": "nosniff", "Cache-Control": "private, max-age=31536000, immutable",
                        "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox"})
        raise _Refusal(404, "no such picture here")

    async def frame(request: Request) -> Response:
        seat = seat_of(request)
        ref = f"{request.path_params['pack']}/{request.path_params['panel']}"
        rel = request.path_params["path"]
        packs, panels = await run(member_panels, seat)
        panel = next((p for p in panels if p.ref == ref and p.tier == 2), None)
        if panel is None or panel.entry is None:
            raise _Refusal(404, "no such panel here")
        if not js_enabled(table.kernel.env):  # the operator turned sandboxed JS off: no frame page
            raise _Refusal(404, "no such panel here")
        folder = posixpath.dirname(panel.entry.path)
        wanted = posixpath.normpath(posixpath.join(folder, rel)) if folder else posixpath.normpath(rel)
        item = next((a for a in panel.assets if a.path == wanted), None)
        if item is None:
            raise _Refusal(404, "not a file this panel declares")
        pack = next(p for p in packs.packs if p.home.id == panel.pack)
        data = await run(asset_bytes, pack, item)
        origin = f"{request.url.scheme}://{request.headers.get('host', '')}"
        headers = {"X-Content-Type-Options": "nosniff", "Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
                   "Content-Security-Policy": frame_policy(f"{origin}/t/{seat.token}/frame/{ref}/")}
        media = item.mime + ("; charset=utf-8" if item.mime.startswith("text/") else "")
        return Response(data, media_type=media, headers=headers)

    routes = [
        Route("/", index),
        Route("/t/{token}/", page),
        Route("/t/{token}/state", state),
        Route("/t/{token}/events", events),
        Route("/t/{token}/say", say, methods=["POST"]),
        Route("/t/{token}/intent", intent, methods=["POST"]),
        Route("/t/{token}/control", control, methods=["POST"]),
        Route("/t/{token}/asset/{sha:str}", asset),
        Route("/t/{token}/frame/{pack}/{panel}/{path:path}", frame),
    ]
    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, _Refusal)
        headers = {**_SAFE, "Connection": "close"} if exc.close else _SAFE
        return JSONResponse({"error": str(exc)}, status_code=exc.status, headers=headers)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        yield
        hub.close()

    table.on_text = hub.deltas(list(table.seats.values()))  # a live turn's narration, as it comes, to the keeper
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={_Refusal: refused})
    app.add_middleware(_Guard, names=LOOPBACK + ((_host_of(public),) if public else ()))
    app.state.table = table
    app.state.hub = hub
    return app


async def _bounded_body(request: Request, limit: int, seconds: float) -> bytes:
    """The request's body, refused (413) past ``limit`` bytes -- by its ``Content-Length``
    before reading any of it, else (chunked) as soon as what arrived passes the limit, the
    rest left unread -- or (408) when it has not all arrived within ``seconds``."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.strip().isdigit():
            raise _Refusal(400, "bad Content-Length", close=True)
        if int(declared) > limit:
            raise _Refusal(413, f"too large (at most {limit} bytes)", close=True)

    async def read() -> bytes:
        chunks: list[bytes] = []
        size = 0
        try:
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise _Refusal(413, f"too large (at most {limit} bytes)", close=True)
                chunks.append(chunk)
        except ClientDisconnect:
            raise _Refusal(400, "the body was cut short", close=True) from None
        return b"".join(chunks)

    try:
        return await asyncio.wait_for(read(), seconds)
    except asyncio.TimeoutError:
        raise _Refusal(408, f"the body did not arrive within {seconds:g} s", close=True) from None


def _quietly(future: asyncio.Future[Any]) -> None:
    """Collect the outcome of a line nobody waits for any more (its deadline was answered)."""
    if not future.cancelled():
        future.exception()


def _image_hashes(blocks: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(blocks, dict):
        if blocks.get("kind") == "image" and isinstance(blocks.get("hash"), str):
            found.add(blocks["hash"])
        for value in blocks.values():
            found |= _image_hashes(value)
    elif isinstance(blocks, (list, tuple)):
        for value in blocks:
            found |= _image_hashes(value)
    return found


class _Refusal(Exception):
    """An answer with ``status``; ``close``: end the connection after it (what is left of a
    refused body is not read)."""

    def __init__(self, status: int, message: str, *, close: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.close = close


def public_origin(url: str) -> str:
    """The origin (``scheme://host[:port]``, lower case) of the public address ``url``; a
    located refusal for anything but an http(s) URL with a host and nothing after its path."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.username or parts.password \
            or parts.query or parts.fragment or parts.path not in ("", "/"):
        raise LwError("--public-url is not the address of a site (its value is not shown: it may hold credentials)",
                      expected="https://HOST[:PORT] (no path: the table is served at the root)")
    return f"{parts.scheme}://{parts.netloc.lower()}"


def _host_of(origin: str) -> str:
    netloc = origin.split("://", 1)[1]
    return netloc.rsplit(":", 1)[0] if not netloc.startswith("[") else netloc.split("]")[0] + "]"


class _Guard:
    """Requests whose ``Host`` is one of ``names`` only: the loopback names, and the public
    address's host when the table has one (a page elsewhere cannot rebind a name of its own to
    this port and read the table)."""

    def __init__(self, app: Any, names: tuple[str, ...] = LOOPBACK) -> None:
        self.app = app
        self.names = names

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
        name = host.rsplit(":", 1)[0] if not host.startswith("[") else host.split("]")[0] + "]"
        if name.lower() not in self.names:
            await JSONResponse({"error": "this table does not answer to that name"}, status_code=421)(scope, receive, send)
            return
        await self.app(scope, receive, send)
