"""The web table's HTTP side (Starlette): one page per seat, live updates, acting, panels.

Routes. ``TOKEN`` is a seat's secret link token (:mod:`lw_panels.serve.invites`): opening
``/t/TOKEN/`` in a browser makes a session (:mod:`lw_panels.serve.sessions`) and sends it on to
``/s/SEAT/`` (``SEAT``: the member's id, or a digest of it when it is not URL-safe), where every
route below answers to the session cookie instead of the token; ``/t/TOKEN/…`` keeps answering
to the token for programs. A tier-2 panel's frame is under ``/f/KEY/…`` (``KEY``: a digest of
the seat's current link, for the sandboxed frame sends no cookie). Everything acts as that member:

=============================================  ==============================================
``GET /``                                      a page saying to open your seat's link
``GET /t/TOKEN/``                              the seat's link: a new session, then ``/s/SEAT/``
``GET /s/SEAT/``                               the member's page (:func:`lw_panels.html.page_html`)
``GET /t/TOKEN/state``                         the member's current update (JSON)
``GET /t/TOKEN/events``                        server-sent events: ``update`` after every change,
                                               ``status`` when a turn begins to be played and
                                               when a line ends without changing the room (or
                                               is refused): only the page's status line; on the
                                               keeper's seat also ``delta`` (a live turn's
                                               narration as the model writes it)
``POST /t/TOKEN/say``                          ``{"text"}``: act as the member (a command or a turn)
``POST /t/TOKEN/intent``                       ``{"panel", "kind", "value"}``: a panel intent; a
                                               scripted panel's words answer 202 ``{"confirm":
                                               LINE}`` and are played only when sent again
                                               with ``"confirmed": true`` (the page asks first)
``POST /t/TOKEN/control``                      the keeper's seat only: ``{"action": "regenerate" |
                                               "rewind" | "edit" | "choose" | "stop", "turn",
                                               "text", "number"}`` (:meth:`Table.control`)
``POST /t/TOKEN/seats``                        the keeper's seat only: ``{"action": "rotate" |
                                               "revoke", "member"}`` or ``{"action": "add",
                                               "name"}``; a new link is in the answer only
``GET /t/TOKEN/asset/SHA256``                  a picture of a panel in the member's manifest
``GET /t/TOKEN/frame/PACK/PANEL/PATH``         a declared file of a tier-2 panel of theirs
                                               (also ``/f/KEY/PACK/PANEL/PATH``)
=============================================  ==============================================

Several rooms on one server (:func:`create_site`) put each room's routes under ``/r/NAME``; a
room's link keeps working however the room is served (:func:`_moved_links`: ``/t/TOKEN/…`` is
sent on to ``/r/NAME/t/TOKEN/…`` and back, 307). A link that opens no seat, opened in a
browser, answers a small page with the player's next step.

A link rotated or revoked (``lw seat``, or the keeper's page) stops working at once, and so
does every session made from it (its open event streams end within a second). Sessions are kept
hashed in the room's folder, so they outlive a restart, until they expire
(:mod:`lw_panels.serve.sessions`). Acting (``say``, ``intent``,
``control``) is limited per seat (:mod:`lw_panels.serve.ratelimit`): 429 with ``Retry-After``.
A seat keeps at most :data:`MAX_STREAMS_PER_SEAT` event streams open (a new one ends the oldest).

Guards: the server binds to loopback unless told otherwise (``lw serve --host``, with a public
address: docs/hosting.md) and answers only requests whose ``Host`` is a loopback name or the
public address's host (no DNS rebinding); writes take JSON only and refuse a foreign ``Origin``; a
write's body is at most :data:`MAX_BODY_BYTES`, refused by its ``Content-Length`` before any
of it is read (413), and a body without one (chunked) is read only up to that size; the
whole body must arrive within :data:`BODY_TIME_LIMIT` seconds (408); the session cookie is
``HttpOnly``, ``SameSite=Strict``, ``Secure`` under an https public address, and its path is
the seat's own; every answer carries ``Referrer-Policy: no-referrer``;
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
import hashlib
import hmac
import html
import json
import os
import posixpath
import re
import secrets
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from lw_panels.html import frame_policy, page_html, page_policy, status_html, update_json
from lw_panels.intents import intent_line, needs_confirm
from lw_panels.load import asset_bytes
from lw_panels.manifest import manifest, room_packs
from lw_panels.messages import MESSAGES
from lw_panels.pictures import PictureStore
from lw_panels.serve.invites import Invites, token_hash
from lw_panels.serve.origins import normal_origin, own_origin, public_origin
from lw_panels.serve.ratelimit import ACTS_PER_MINUTE, READS_PER_MINUTE, RateLimit, retry_after
from lw_panels.serve.sessions import COOKIE, Sessions
from lw_panels.serve.table import Seat, Table, invite_link, json_error, staged_hashes, staged_pictures
from lwcore.api import LwError, Room, js_enabled, load_json, room_in_use, room_lock, viewer_of

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
KEEPALIVE = 15.0
STREAM_QUEUE = 256
"""Items (updates, narration deltas) one event stream may have waiting for its reader."""
STREAM_UPDATES = 16
"""Items a stream that does not keep up holds when an update is queued (older ones are dropped)."""
MAX_STREAMS_PER_SEAT = 8
"""Event streams one seat may have open at once (a new one past it ends the oldest): each
holds a connection, a queue of updates and a check of its link every second."""
MAX_BODY_BYTES = 16 * 1024
"""The largest body a write (``say``, ``intent``) may have."""
BODY_TIME_LIMIT = 10
"""Seconds a write's whole body may take to arrive."""
_SAFE = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"}


class Hub:
    """Who listens for updates: one queue per open event stream, by seat. An item is
    ``(event, data)``: ``update`` (a seat's whole update), ``status`` (whose turn is being
    played: the page's status line) or ``delta`` (narration as the model writes it, for the
    keeper's seats only); ``None`` ends the stream. Each stream has a check
    (is the link or session it was opened with still good?): :meth:`prune` ends those that fail it."""

    def __init__(self) -> None:
        self.listeners: dict[str, dict[asyncio.Queue[tuple[str, str] | None], None]] = {}
        """The open streams' queues by seat, oldest first."""
        self.checks: dict[asyncio.Queue[tuple[str, str] | None], Callable[[], bool]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None

    def add(self, seat: Seat, valid: Callable[[], bool] = lambda: True) -> asyncio.Queue[tuple[str, str] | None]:
        """A new stream of ``seat``'s; past :data:`MAX_STREAMS_PER_SEAT` of them the oldest ends."""
        self.loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[str, str] | None] = asyncio.Queue(maxsize=STREAM_QUEUE)
        queues = self.listeners.setdefault(seat.member, {})
        while len(queues) >= MAX_STREAMS_PER_SEAT:
            oldest = next(iter(queues))
            del queues[oldest]
            self.checks.pop(oldest, None)
            _end(oldest)
        queues[queue] = None
        self.checks[queue] = valid
        return queue

    def drop(self, seat: Seat, queue: asyncio.Queue[tuple[str, str] | None]) -> None:
        self.listeners.get(seat.member, {}).pop(queue, None)
        self.checks.pop(queue, None)

    def prune(self) -> None:
        """End every stream whose link or session is no longer good (rotated, revoked)."""
        for queues in list(self.listeners.values()):
            for queue in list(queues):
                try:
                    good = self.checks.get(queue, lambda: True)()
                except LwError:
                    good = False
                if not good:
                    queues.pop(queue, None)
                    self.checks.pop(queue, None)
                    _end(queue)

    def put(self, member: str, item: tuple[str, str]) -> None:
        """Queue ``item`` for every stream of ``member``'s seat. A stream that does not keep up
        holds at most :data:`STREAM_UPDATES` items when an update comes (the oldest go: the
        newest update is what counts), and a delta or a status finding it full is dropped (the
        turn's update brings the whole narration and the status after it)."""
        for queue in list(self.listeners.get(member, ())):
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
        keepers = [seat.member for seat in seats if seat.keeper]
        waiting: list[str] = []
        lock = threading.Lock()

        def flush() -> None:
            with lock:
                text = "".join(waiting)
                waiting.clear()
            for member in keepers:
                self.put(member, ("delta", text))

        def send(text: str) -> None:
            loop = self.loop
            if not keepers or not text or loop is None or loop.is_closed():
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
                _end(queue)

    def close_soon(self) -> None:
        """:meth:`close`, from any thread (a signal handler, a test)."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.close)


def _identity(folder: Any) -> tuple[int, int] | None:
    """The device and inode of ``folder`` (``None``: gone)."""
    try:
        info = os.stat(folder)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def _end(queue: asyncio.Queue[tuple[str, str] | None]) -> None:
    """End the event stream reading ``queue``."""
    if queue.full():
        queue.get_nowait()
    queue.put_nowait(None)


@dataclass(frozen=True)
class _Access:
    """How a request reaches a seat: the ``seat``, the ``base`` its page's requests go to, and
    :meth:`valid` (is that way still good: the link not rotated or revoked?)."""

    seat: Seat
    base: str
    invite: str
    """The hash of the seat's link the request came by."""
    invites: Invites

    def valid(self) -> bool:
        return self.invites.valid(self.seat.member, self.invite)


def create_app(table: Table, *, body_seconds: float = BODY_TIME_LIMIT, public_url: str | None = None,
               acts_per_minute: int = ACTS_PER_MINUTE, clock: Callable[[], float] | None = None,
               reads_per_minute: int = READS_PER_MINUTE, session_clock: Callable[[], float] | None = None) -> Starlette:
    """The ASGI app serving ``table`` at the root (``body_seconds``: how long a write's body
    may take). ``public_url``: the address players reach the table at
    (``https://table.example.org``, behind a reverse proxy): requests naming its host are
    answered too, and writes from its origin accepted; every other name still gets 421
    (:func:`public_origin`). ``acts_per_minute``: how often one seat may act (0: no limit);
    ``reads_per_minute``: how often it may reach the table at all (pages, updates, files);
    ``clock``: the rate limit's clock (``time.monotonic``); ``session_clock``: the sessions'
    (``time.time``). Several rooms: :func:`create_site`."""
    return create_site({"": table}, body_seconds=body_seconds, public_url=public_url,
                       acts_per_minute=acts_per_minute, clock=clock, reads_per_minute=reads_per_minute,
                       session_clock=session_clock)


def create_site(tables: Mapping[str, Table], *, body_seconds: float = BODY_TIME_LIMIT, public_url: str | None = None,
                acts_per_minute: int = ACTS_PER_MINUTE, clock: Callable[[], float] | None = None,
                operator: str | None = None, reads_per_minute: int = READS_PER_MINUTE,
                session_clock: Callable[[], float] | None = None) -> Starlette:
    """The ASGI app serving each of ``tables`` under its path prefix (``""``: the root, for one
    room; ``/r/NAME`` for several): every room keeps its own seats, sessions, event streams
    and acting limits, and plays its turns on its own queue, so turns in different rooms run
    at the same time. ``operator``: the token of the operator's page (``/o/TOKEN/``: each room,
    its seats and their state -- no game data). ``session_clock``: the sessions' clock (seconds
    since the epoch, ``time.time``: they outlive the process). The other options are
    :func:`create_app`'s."""
    public = public_origin(public_url) if public_url else None
    routes = [Route("/", _index)]
    hubs: dict[str, Hub] = {}
    for prefix, table in tables.items():
        room_routes, hubs[prefix] = _room_app(table, prefix=prefix, public=public, body_seconds=body_seconds,
                                              limit=RateLimit(acts_per_minute, clock=clock),
                                              reads=RateLimit(reads_per_minute, clock=clock),
                                              session_clock=session_clock)
        routes += room_routes
    if operator is not None:
        routes.append(Route("/o/{token}/", _operator_page(tables, hubs, token_hash(operator))))
    routes += _moved_links(tables)

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, _Refusal)
        headers = {**_SAFE, "Connection": "close"} if exc.close else dict(_SAFE)
        if exc.retry is not None:
            headers["Retry-After"] = exc.retry
        return JSONResponse({"error": str(exc)}, status_code=exc.status, headers=headers)

    async def watch() -> None:
        """Every second, end the event streams of links rotated or revoked since."""
        while True:
            await asyncio.sleep(1.0)
            for hub in hubs.values():
                hub.prune()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        with contextlib.ExitStack() as held:
            for table in tables.values():  # lw room rename/archive refuse a room while it is served
                held.enter_context(room_in_use(table.path))
            watcher = asyncio.create_task(watch())
            yield
            watcher.cancel()
            for hub in hubs.values():
                hub.close()

    for prefix, table in tables.items():  # a live turn's narration, as it comes, to the keeper
        table.on_text = hubs[prefix].deltas(list(table.seats.values()))
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={_Refusal: refused})
    app.add_middleware(_Guard, public=public)
    app.state.tables = dict(tables)
    app.state.hubs = hubs
    first = next(iter(tables))
    app.state.table = tables[first]
    app.state.hub = hubs[first]
    return app


def _moved_links(tables: Mapping[str, Table]) -> list[Route]:
    """A seat's link keeps working however its room is served: a link printed when the room
    was served alone (``/t/TOKEN/…``) is sent on (307, method and body kept) to the room's path
    on a server of several rooms (``/r/NAME/t/TOKEN/…``), and a link of the room among several
    to the root when it is served alone. Only a current link of a room served here is sent on
    (a token is its seat's secret, so the redirect tells its holder nothing new); any other
    answers 404 as before, and a link of one room never reaches another."""
    alone = set(tables) == {""}

    def lookup(token: str, name: str | None) -> str | None:
        """The prefix of the room served here whose current link ``token`` is (named ``name``
        in a link of several rooms), else ``None``."""
        for prefix, table in tables.items():
            if name is not None and name != slug(table.path.name):
                continue
            try:
                if table.invites.member_of(token) is not None:
                    return prefix
            except LwError:  # an unreadable store: that room's own routes say so
                continue
        return None

    async def moved(request: Request) -> Response:
        params = request.path_params
        prefix = lookup(params["token"], params.get("room"))
        if prefix is None:
            if not params.get("rest"):  # the link itself, opened in a browser
                return _refusal_page(_no_seat(), request)
            raise _no_seat()
        where = f"{prefix}/t/{params['token']}/{params.get('rest', '')}"
        query = request.url.query
        return RedirectResponse(where + (f"?{query}" if query else ""), status_code=307, headers=_SAFE)

    base = "/r/{room}/t/{token}/" if alone else "/t/{token}/"
    return [Route(base, moved, methods=["GET", "POST"]), Route(base + "{rest:path}", moved, methods=["GET", "POST"])]


async def _index(request: Request) -> Response:
    said = html.escape(MESSAGES.bind(browser_locale(request))("serve.index"))
    return HTMLResponse(f"<!doctype html><meta charset=utf-8><title>Loreweaver table</title><p>{said}</p>",
                        headers={**_SAFE, "Content-Security-Policy": "default-src 'none'"})


def _operator_page(tables: Mapping[str, Table], hubs: Mapping[str, Hub], hashed: str) -> Any:
    """The operator's page: each room, its seats, whether their links are made or revoked,
    how many live pages each has open and whose turn is being played. No game data."""

    async def page(request: Request) -> Response:
        if not hmac.compare_digest(token_hash(request.path_params["token"]), hashed):
            raise _Refusal(404, "no such page")
        rows = []
        for prefix, table in tables.items():
            try:
                links = table.invites.current()
            except LwError:
                links = {}
            seats = "".join(
                f"<li>{html.escape(seat.name)} ({html.escape(seat.member)}, {'keeper' if seat.keeper else 'player'}): "
                + ("link made" if links.get(member) else "revoked" if member in links else "no link yet")
                + f", {len(hubs[prefix].listeners.get(member, ()))} open page(s)</li>"
                for member, seat in table.seats.items())
            acting = ", ".join(table.waiting) or "nobody"
            rows.append(f"<h2>{html.escape(table.title)} <small>{html.escape(prefix or '/')}</small></h2>"
                        f"<p>acting now: {html.escape(acting)}</p><ul>{seats}</ul>")
        return HTMLResponse("<!doctype html><meta charset=utf-8><title>Loreweaver tables</title>"
                            f"<h1>Rooms served</h1>{''.join(rows)}"
                            "<p>Links are changed from the keeper's page, or with <code>lw seat rotate|revoke|add ROOM …</code>.</p>",
                            headers={**_SAFE, "Content-Security-Policy": "default-src 'none'"})
    return page


def _room_app(table: Table, *, prefix: str, public: str | None, body_seconds: float,
              limit: RateLimit, reads: RateLimit,
              session_clock: Callable[[], float] | None = None) -> tuple[list[Route], Hub]:
    """The routes of one room's table under ``prefix``, and its hub of event streams."""
    hub = Hub()
    invites = table.invites
    sessions = Sessions(table.path, clock=session_clock)
    secret = secrets.token_bytes(32)  # frame keys are good for this process only
    folder = _identity(table.path)
    """The room's folder as it was when the table started: a room moved away (and perhaps
    another made under its name) is never served in its place."""

    def frame_key(member: str, invite: str | None) -> str:
        return hmac.new(secret, f"{member}\0{invite}".encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()

    frames: list[tuple[object, dict[str, tuple[str, str]], dict[str, str]]] = [(object(), {}, {})]
    """The reading of the invite store the frame-key index was built from, the index, and
    each member's key (the index read the other way)."""

    def frame_index() -> tuple[Mapping[str, tuple[str, str]], Mapping[str, str]]:
        """``frame key -> (member, link hash)`` of every current link, and ``member -> frame
        key``: built once per reading of the store (one digest a seat, when a link changed), so
        a request with a wrong key -- unauthenticated, before any rate limit -- costs one
        lookup, not a digest a seat, and an update names each seat's frames without one."""
        snapshot = invites.snapshot()
        held, index, keys = frames[0]
        if held is not snapshot:
            keys = {member: frame_key(member, invite) for member, invite in snapshot.items() if invite is not None}
            index = {key: (member, str(snapshot[member])) for member, key in keys.items()}
            frames[0] = (snapshot, index, keys)
        return index, keys

    def frame_keys() -> Mapping[str, tuple[str, str]]:
        return frame_index()[0]

    def seat_of(request: Request) -> Seat:
        return access(request).seat

    def access(request: Request) -> _Access:
        """The seat a request reaches, by its link token (``/t/TOKEN/…``), its session cookie
        (``/s/SEAT/…``) or its frame key (``/f/KEY/…``); refused (404, 401) when none is good now."""
        if _identity(table.path) != folder:
            raise _Refusal(410, told(request.path_params.get("seat"), "serve.room_moved"), key="serve.room_moved")
        try:
            way = _reached(request)
        except LwError:  # the store cannot be read (its path and contents are not a player's)
            raise _Refusal(503, told(request.path_params.get("seat"), "serve.links_unreadable"),
                           key="serve.links_unreadable") from None
        wait = reads.take(way.seat.member)  # every way in counts: one seat cannot keep the server's threads busy
        if wait:
            seconds = retry_after(wait)
            raise _Refusal(429, MESSAGES.bind(way.seat.locale)("serve.too_many_reads", seconds=seconds), retry=seconds)
        return way

    def _reached(request: Request) -> _Access:
        params = request.path_params
        if "token" in params:
            found = invites.member_of(params["token"])
            seat = table.seat(found[0]) if found is not None else None
            if found is None or seat is None:
                raise _no_seat()
            return _Access(seat, f"{prefix}/t/{params['token']}/", found[1], invites)
        if "key" in params:
            keyed = frame_keys().get(params["key"])
            seat = table.seat(keyed[0]) if keyed is not None else None
            if keyed is None or seat is None:
                raise _Refusal(404, "no such panel here")
            return _Access(seat, f"{prefix}/f/{params['key']}/", keyed[1], invites)
        session = sessions.get(request.cookies.get(COOKIE))
        # a session whose link changed is refused, not deleted here (no write on the event loop):
        # rotating or revoking forgets it, and an expired one goes at the store's next write
        if session is None or slug(session.member) != params.get("seat") or not invites.valid(session.member, session.invite):
            raise _Refusal(401, told(params.get("seat"), "serve.session_ended"))
        seat = table.seat(session.member)
        if seat is None:
            raise _Refusal(401, told(params.get("seat"), "serve.seat_gone"))
        return _Access(seat, f"{prefix}/s/{slug(seat.member)}/", session.invite, invites)

    def told(path_seat: str | None, message: str) -> str:
        """``message`` in the language of the seat whose page a refused request came from (its
        path names it), else the catalogue's default."""
        owner = next((s for member, s in list(table.seats.items()) if slug(member) == path_seat), None)
        return MESSAGES.bind(owner.locale if owner is not None else None)(message)

    def bases(seat: Seat) -> tuple[str, str]:
        """Where ``seat``'s pictures and frames are, for every way of reaching it: pictures under
        the seat's session path (the page is there), frames under the seat's frame key."""
        key = frame_index()[1].get(seat.member) or frame_key(seat.member, None)  # no link: a key nothing opens
        return f"{prefix}/s/{slug(seat.member)}/asset/", f"{prefix}/f/{key}/"

    def view(seat: Seat) -> dict[str, Any]:
        asset_base, frame_base = bases(seat)
        return table.view(seat, asset_base=asset_base, frame_base=frame_base)

    async def run(func: Any, *args: Any, **kw: Any) -> Any:
        from starlette.concurrency import run_in_threadpool

        return await run_in_threadpool(func, *args, **kw)

    async def broadcast() -> None:
        """Each listening seat's update, built from one reading of the room."""
        seats = [s for member, queues in list(hub.listeners.items()) if queues and (s := table.seat(member))]
        if not seats:
            return
        try:
            views = await run(table.views, seats, bases)
        except LwError as exc:
            views = {seat.member: seat.error(exc) for seat in seats}
        for seat in seats:
            view_or_error = views[seat.member]
            payload = (json.dumps({"error": str(view_or_error)}, ensure_ascii=False)
                       if isinstance(view_or_error, LwError) else update_json(view_or_error))
            hub.put(seat.member, ("update", payload))

    def announce() -> None:
        """Every listening seat hears whose turn is being played now (a ``status`` event: the
        page's status line, in that seat's language) -- not a whole update: nothing else changed."""
        status = {"turn": table.turn, "acting": table.waiting[0] if table.waiting else None}
        said: dict[tuple[str, bool], str] = {}
        for member, queues in list(hub.listeners.items()):
            seat = table.seats.get(member)
            if not queues or seat is None:
                continue
            key = (seat.locale, seat.keeper)
            if key not in said:
                said[key] = json.dumps({"status": status_html({"locale": seat.locale, "keeper": seat.keeper,
                                                               "status": status})}, ensure_ascii=False)
            hub.put(member, ("status", said[key]))

    async def join(request: Request) -> Response:
        """A seat's link: a new session of that seat, and on to its page without the token (a
        link that opens no seat: a page saying why, since a browser opened it)."""
        try:
            way = access(request)
        except _Refusal as refusal:
            return _refusal_page(refusal, request)
        seat = way.seat
        try:
            session = await run(sessions.open, seat.member, way.invite)
        except LwError:  # the sessions file cannot be read or written (its path is not a player's)
            return _refusal_page(_Refusal(503, MESSAGES.bind(seat.locale)("serve.no_page_now")))
        where = f"{prefix}/s/{slug(seat.member)}/"
        response = RedirectResponse(where, status_code=303, headers=_SAFE)
        response.set_cookie(COOKIE, session.id, path=where, httponly=True, samesite="strict", max_age=int(sessions.lifetime),
                            secure=public is not None and public.startswith("https://") and own_origin(
                                request.headers.get("host", ""), request.url.scheme, public) == public)
        return response

    async def page(request: Request) -> Response:
        try:
            seat = seat_of(request)
        except _Refusal as refusal:
            return _refusal_page(refusal)
        try:
            data = await run(view, seat)
        except LwError as exc:  # a room that cannot be read: told as this seat may read it
            message = html.escape(str(seat.error(exc)))
            heading = html.escape(MESSAGES.bind(seat.locale)("serve.room_unreadable"))
            return HTMLResponse("<!doctype html><meta charset=utf-8><title>Loreweaver table</title>"
                                f"<p>{heading}</p><pre>{message}</pre>",
                                status_code=503, headers={**_SAFE, "Content-Security-Policy": "default-src 'none'"})
        return HTMLResponse(page_html(data, live=True, base=f"{prefix}/s/{slug(seat.member)}/"),
                            headers={**_SAFE, "Content-Security-Policy": page_policy(live=True)})

    async def state(request: Request) -> Response:
        seat = seat_of(request)
        try:
            data = await run(view, seat)
        except LwError as exc:
            return JSONResponse(json_error(seat.error(exc)), status_code=503, headers=_SAFE)
        return Response(update_json(data), media_type="application/json", headers=_SAFE)

    async def events(request: Request) -> Response:
        way = access(request)
        seat = way.seat
        queue = hub.add(seat, way.valid)

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
        # a media type's name is case-insensitive and may carry parameters (``; charset=utf-8``)
        if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            raise _Refusal(415, "send JSON")
        origin = request.headers.get("origin")
        own = own_origin(request.headers.get("host", ""), request.url.scheme, public)
        if origin is not None and (own is None or normal_origin(origin) != own):
            raise _Refusal(403, "foreign origin")
        raw = await _bounded_body(request, MAX_BODY_BYTES, body_seconds)
        try:
            data = load_json(raw)
        except LwError as exc:
            raise _Refusal(400, str(exc)) from None
        if not isinstance(data, dict):
            raise _Refusal(400, "send a JSON object")
        return data

    def slowed(seat: Seat) -> Response | None:
        """The 429 answer when ``seat`` has acted too often just now, else ``None``."""
        wait = limit.take(seat.member)
        if not wait:
            return None
        text = MESSAGES.bind(seat.locale)("serve.too_fast", seconds=retry_after(wait))
        return JSONResponse({"error": text, "code": "too_fast"}, status_code=429,
                            headers={**_SAFE, "Retry-After": retry_after(wait)})

    async def act(seat: Seat, text: str) -> Response:
        return await queued(lambda deadline: table.submit(seat, text, deadline))

    async def queued(submit: Any) -> Response:
        """Answer when the line ``submit(deadline)`` queued is played, or at its deadline.
        Every seat hears at once whose turn is now being played, and again whenever a line
        ends -- changed or not, failed, stopped or past its deadline: an update when the room
        changed (it carries the status line), else a ``status`` event, so no page keeps
        saying someone is acting once they are not."""
        waiting = len(table.waiting)
        try:
            deadline = table.deadline()
            done = asyncio.wrap_future(submit(deadline))
            if len(table.waiting) > waiting:
                announce()
            try:
                outcome = await asyncio.wait_for(asyncio.shield(done), deadline.remaining())
            except asyncio.TimeoutError:
                if deadline.expire():  # it never began saving, and now never will
                    done.add_done_callback(_quietly)
                    # its name leaves the waiting list when the queue reaches it: say so then
                    done.add_done_callback(lambda _: announce())
                    raise deadline.error() from None
                outcome = await done  # it is saving: its answer is the truth
        except LwError as exc:
            announce()  # whoever is acting now (nobody, unless another line is queued)
            status = {"forbidden": 403, "invalid": 400, "no_reply": 409, "no_model": 409, "cancelled": 409,
                      "refused": 409, "deadline": 504, "busy": 429, "taken": 409}.get(exc.code or "", 422)
            return JSONResponse(json_error(exc), status_code=status, headers=_SAFE)
        if outcome.changed:
            await broadcast()
        else:
            announce()
        return JSONResponse({"text": outcome.text, "version": table.version, "in_story": outcome.in_story},
                            headers=_SAFE)

    async def say(request: Request) -> Response:
        seat = seat_of(request)
        data = await body_of(request)
        text = data.get("text")
        if not isinstance(text, str):
            raise _Refusal(400, MESSAGES.bind(seat.locale)("serve.text_string"))
        return slowed(seat) or await act(seat, text)

    async def control(request: Request) -> Response:
        seat = seat_of(request)
        if not seat.keeper:  # refused before the body is read; the table refuses again
            return JSONResponse({"error": MESSAGES.bind(seat.locale)("serve.controls_keeper_only"),
                                 "code": "forbidden"}, status_code=403, headers=_SAFE)
        data = await body_of(request)
        if data.get("action") != "stop":  # stopping a turn in flight is never held back
            too_fast = slowed(seat)
            if too_fast is not None:
                return too_fast
        return await queued(lambda deadline: table.control(seat, data, deadline))

    async def intent(request: Request) -> Response:
        seat = seat_of(request)
        data = await body_of(request)
        too_fast = slowed(seat)
        if too_fast is not None:
            return too_fast

        def line() -> tuple[str, bool]:
            with room_lock(table.path, shared=True):
                room = Room.load(table.path, table.kernel)
                member = room.member(seat.member)
                text = intent_line(room, member, data.get("panel"), data.get("kind"), data.get("value"))
                return text, needs_confirm(room, member, data.get("panel"), text)
        try:
            text, confirm = await run(line)
        except LwError as exc:
            shown = seat.error(exc)  # reading the room can fail on keeper-only data
            status = {"forbidden": 403, "invalid": 400}.get(shown.code or "", 422)
            return JSONResponse(json_error(shown), status_code=status, headers=_SAFE)
        if confirm and data.get("confirmed") is not True:  # the viewer reads a script's words before they are said
            return JSONResponse({"confirm": text, "code": "confirm"}, status_code=202, headers=_SAFE)
        return await act(seat, text)

    async def manage(request: Request) -> Response:
        """The keeper's hold on the seats from their page: ``{"action": "rotate" | "revoke",
        "member"}`` or ``{"action": "add", "name"}``. A new link is in this answer only (to the
        keeper who asked: no update, no event carries it); a player's seat is refused (403)
        before its body is read."""
        seat = seat_of(request)
        t = MESSAGES.bind(seat.locale)
        if not seat.keeper:
            return JSONResponse({"error": t("serve.seats_keeper_only"), "code": "forbidden"}, status_code=403,
                                headers=_SAFE)
        data = await body_of(request)
        too_fast = slowed(seat)
        if too_fast is not None:
            return too_fast
        action, member = data.get("action"), data.get("member")
        origin = own_origin(request.headers.get("host", ""), request.url.scheme, public) or ""
        try:
            if action == "add":
                added, token = await asyncio.wrap_future(table.add_seat(seat, data.get("name")))
                text = t("serve.seat_added", name=added.name)
            elif action in ("rotate", "revoke"):
                target = table.seat(member) if isinstance(member, str) and member else None
                if target is None:
                    return JSONResponse({"error": t("serve.seat_unknown"), "code": "invalid"}, status_code=400,
                                        headers=_SAFE)
                if target.member == seat.member:  # the keeper's own page would end with it
                    return JSONResponse({"error": t("serve.seat_own"), "code": "invalid"}, status_code=400,
                                        headers=_SAFE)
                if action == "rotate":
                    token = await run(invites.issue, target.member)
                    text = t("serve.seat_rotated", name=target.name)
                else:
                    await run(invites.revoke, target.member)
                    token, text = None, t("serve.seat_revoked", name=target.name)
                hub.prune()  # its open pages end now, not at the next second's check
            else:
                return JSONResponse({"error": t("serve.seat_action"), "code": "invalid"}, status_code=400,
                                    headers=_SAFE)
        except LwError as exc:
            if exc.code not in ("forbidden", "invalid", "deadline", "unavailable"):  # the stores' own (and paths)
                exc = LwError(t("serve.seat_links_unchanged"), code="unavailable")
            status = {"forbidden": 403, "invalid": 400, "deadline": 504, "unavailable": 503}[str(exc.code)]
            return JSONResponse(json_error(exc), status_code=status, headers=_SAFE)
        await broadcast()  # the keepers' pages show the seats' new states
        answer: dict[str, Any] = {"text": text}
        if token is not None:
            answer["link"] = invite_link(origin + prefix, token)
        return JSONResponse(answer, headers=_SAFE)

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
        allowed |= staged_hashes(table)  # the stage director's pictures, maps and sound cues
        pictures = staged_pictures(table)  # and the pictures it generated, kept in the room
        if sha in pictures:
            try:
                data = await run(PictureStore(table.path).bytes_of, sha)
            except LwError:
                raise _Refusal(404, "no such picture here") from None
            mime = pictures[sha] if pictures[sha] in PICTURE_TYPES else "application/octet-stream"
            return Response(data, media_type=mime, headers={
                "X-Content-Type-Options": "nosniff", "Cache-Control": "private, max-age=31536000, immutable",
                "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox"})
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
        way = access(request)
        seat = way.seat
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
        origin = own_origin(request.headers.get("host", ""), request.url.scheme, public) or ""
        where = f"{way.base}frame/{ref}/" if "token" in request.path_params else f"{way.base}{ref}/"
        headers = {"X-Content-Type-Options": "nosniff", "Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
                   "Content-Security-Policy": frame_policy(f"{origin}{where}")}
        media = item.mime + ("; charset=utf-8" if item.mime.startswith("text/") else "")
        return Response(data, media_type=media, headers=headers)

    routes = [
        Route(f"{prefix}/t/{{token}}/", join),
        Route(f"{prefix}/s/{{seat}}/", page),
        Route(f"{prefix}/f/{{key}}/{{pack}}/{{panel}}/{{path:path}}", frame),
        Route(f"{prefix}/t/{{token}}/frame/{{pack}}/{{panel}}/{{path:path}}", frame),
    ]
    for way in (f"{prefix}/t/{{token}}", f"{prefix}/s/{{seat}}"):  # by the link (programs), by the session (browsers)
        routes += [
            Route(f"{way}/state", state),
            Route(f"{way}/events", events),
            Route(f"{way}/say", say, methods=["POST"]),
            Route(f"{way}/intent", intent, methods=["POST"]),
            Route(f"{way}/control", control, methods=["POST"]),
            Route(f"{way}/seats", manage, methods=["POST"]),
            Route(f"{way}/asset/{{sha:str}}", asset),
        ]
    return routes, hub


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


PICTURE_TYPES = frozenset({"image/png", "image/jpeg", "image/webp", "image/gif"})
"""The media types a generated picture is served as (any other mime its entry names is not trusted)."""


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


NO_SEAT = ("this link opens no seat: the keeper changed or revoked it, or it was copied wrong; "
           "ask the keeper for your seat's link")
"""Why a seat link was refused: the player's next step, nothing about which case it was."""


def _no_seat() -> _Refusal:
    return _Refusal(404, NO_SEAT, key="serve.no_seat")


def browser_locale(request: Request) -> str:
    """The first language of the request's ``Accept-Language`` the panels speak (``en``
    otherwise): for a page shown before any seat, hence any seat's language, is known."""
    spoken = MESSAGES.languages
    for part in request.headers.get("accept-language", "")[:256].split(","):
        tag = part.split(";")[0].strip().lower()
        for candidate in (tag, tag.split("-")[0]):
            if candidate in spoken:
                return candidate
    return "en"


def _refusal_page(refusal: _Refusal, request: Request | None = None) -> HTMLResponse:
    """A refusal as the small page a browser shows (a seat's link or page opened by a person);
    one with a catalogue ``key`` reads in the browser's language."""
    said = str(refusal)
    if refusal.key is not None and request is not None:
        said = MESSAGES.bind(browser_locale(request))(refusal.key)
    said = said if said.endswith((".", "。", "!", "！", "?", "？")) else said + "."  # a sentence, ended once
    return HTMLResponse("<!doctype html><meta charset=utf-8><title>Loreweaver table</title>"
                        f"<p>{html.escape(said)}</p>", status_code=refusal.status,
                        headers={**_SAFE, "Content-Security-Policy": "default-src 'none'",
                                 **({"Retry-After": refusal.retry} if refusal.retry else {})})


class _Refusal(Exception):
    """An answer with ``status``; ``close``: end the connection after it (what is left of a
    refused body is not read); ``retry``: its ``Retry-After``."""

    def __init__(self, status: int, message: str, *, close: bool = False, retry: str | None = None,
                 key: str | None = None) -> None:
        super().__init__(message)
        self.key = key
        """The catalogue text of ``message``, for a page in the browser's language."""
        self.status = status
        self.close = close
        self.retry = retry
        """``Retry-After`` (seconds), when the answer is to wait."""


def slug(member: str) -> str:
    """A name as a part of a path (a seat's member id, a room's name when several are served):
    itself when it is URL-safe, else a digest of it."""
    if re.fullmatch(r"[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}", member):
        return member
    return "m-" + hashlib.sha256(member.encode("utf-8", "surrogatepass")).hexdigest()[:24]


class _Guard:
    """Requests whose ``Host`` is a loopback name or the ``public`` address (name and port)
    only: a page elsewhere cannot rebind a name of its own to this port and read the table."""

    def __init__(self, app: Any, public: str | None = None) -> None:
        self.app = app
        self.public = public

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
        if own_origin(host, scope.get("scheme", "http"), self.public) is None:
            await JSONResponse({"error": "this table does not answer to that name"}, status_code=421)(scope, receive, send)
            return
        await self.app(scope, receive, send)
