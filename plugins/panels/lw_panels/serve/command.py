"""``lw serve ROOM [ROOM …] [--port N]``: rooms as small web tables on this machine.

One page per member (the keeper and each player), each reached by a secret link: a seat's link
is made the first time the room is served and printed then (once: the room keeps only its hash,
:mod:`lw_panels.serve.invites`); it lasts across restarts until ``lw seat rotate`` or ``lw seat
revoke`` (:mod:`lw_panels.serve.seats`); the story so far, the member's variables, their panels updating after every turn,
a box to act as that member, and panel intents. Turns play on the room's provider profile
(``profile:`` in ``room.yaml``; ``--profile NAME`` for another), an ``--endpoint``, or recorded
replies (``--reply FILE``, repeatable, used in order), as in ``lw turn``; room commands
(``.r 1d100``, ``.panels``) need none. With no model at all the table still starts, with a
warning, and refuses each turn with a message saying so. The server listens on 127.0.0.1 unless
``--host`` says otherwise, and then only with ``--public-url`` (the address players open; https,
or ``--insecure-http``): docs/hosting.md. Ctrl-C, or SIGTERM (a service manager's stop), stops the
server: open event streams end, and the command says so and exits 0. What it prints is flushed
before it serves, so the links reach a log file or a journal at once.
"""

from __future__ import annotations

import re
import shlex
import signal
import sys
import threading
from pathlib import Path
from types import FrameType

import click

from lw_panels.serve.ratelimit import ACTS_PER_MINUTE
from lw_panels.serve.seats import DEFAULT_URL
from lwcore.api import ROOM, LwError, cli_state as state


@click.command("serve")
@click.argument("rooms", type=ROOM, nargs=-1)
@click.option("--all", "all_rooms", is_flag=True,
              help="Serve every room of the data dir (lw room list), each under /r/NAME/.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on (0: any free port).")
@click.option("--host", "bind", default="127.0.0.1", show_default=True,
              help="Address to listen on. Anything but loopback needs --public-url (docs/hosting.md).")
@click.option("--public-url", default=None, metavar="URL",
              help="The address players open (https://table.example.org behind a reverse proxy): links "
                   "are printed with it and requests naming it are answered.")
@click.option("--insecure-http", is_flag=True,
              help="Allow an http:// --public-url on a non-loopback address (seat links travel in clear).")
@click.option("--reply", "replies", multiple=True, type=click.Path(dir_okay=False, path_type=Path),
              help="A recorded model reply (JSON) for the next turn; repeat for more turns.")
@click.option("--profile", "profile_name", default=None,
              help="Play on this provider profile (default: the room's profile:; lw provider list).")
@click.option("--endpoint", default=None, help="Send each turn to this HTTP endpoint and run the tool loop.")
@click.option("--key-env", default=None, help="Environment variable holding the endpoint's key.")
@click.option("--model", default=None, help="Model name to put in the request.")
@click.option("--provider", default=None, help="Provider protocol (default: read from the reply, else the room's).")
@click.option("--seed", default=None, type=int, help="Seed the engine's dice.")
@click.option("--pack", "packs", multiple=True, type=click.Path(file_okay=False, path_type=Path),
              help="Mount a pack source folder (development; repeatable).")
@click.option("--acts-per-minute", default=ACTS_PER_MINUTE, show_default=True, type=click.IntRange(min=0),
              help="How often one seat may act (a line, a panel, a control) per minute; 0: no limit.")
@click.option("--turn-timeout", default=None, type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="How long a line played at the table may take, waiting for earlier ones included; past it "
                   "nothing of it is saved and the one who acted is told so. [default: 180]")
@click.pass_context
def serve(ctx: click.Context, rooms: tuple[Path, ...], all_rooms: bool, port: int, replies: tuple[Path, ...], endpoint: str | None,
          key_env: str | None, model: str | None, provider: str | None, seed: int | None,
          packs: tuple[Path, ...], turn_timeout: float | None, profile_name: str | None, bind: str,
          public_url: str | None, insecure_http: bool, acts_per_minute: int) -> None:
    """Serve ROOM as a web table (one page per member) on 127.0.0.1, or on --host with a
    --public-url for players on other machines (docs/hosting.md). Several ROOMs (or --all):
    one server, each room under /r/NAME/, and an operator's page listing them."""
    try:
        import uvicorn

        from lw_panels.serve.app import create_site
    except ImportError:
        raise LwError("lw serve needs the serve extra's packages", expected="pip install starlette uvicorn") from None
    from collections import deque

    from lw_panels.packs import dev_mounts
    from lw_panels.serve.origins import LOOPBACK, public_origin

    public = public_origin(public_url) if public_url else None
    if bind not in LOOPBACK:
        if public is None:
            raise LwError(f"--host {bind} lets other machines in: give the address they open with --public-url",
                          expected="--public-url https://table.example.org (docs/hosting.md), or leave --host out")
        if public.startswith("http://") and not insecure_http:
            raise LwError(f"--public-url {public} is plain http on a network address: seat links would travel in clear",
                          expected="an https:// address (a reverse proxy with TLS: docs/hosting.md), "
                                   "or --insecure-http on a network you trust")
    from lw_panels.serve.table import TURN_TIME_LIMIT, Table, TurnSource
    from lw_panels.serve.app import slug
    from lw_panels.serve.invites import new_token
    from lwcore.api import LiveRequest, Room, list_rooms, read_json, room_lock

    if replies and (endpoint or profile_name):
        raise LwError("give recorded replies or a live model (--endpoint, --profile), not both")
    kernel = state(ctx).kernel
    if all_rooms:
        if rooms:
            raise LwError("name rooms or give --all, not both")
        rooms = tuple(entry.path for entry in list_rooms(kernel.data_dir) if entry.problem is None)
        for entry in list_rooms(kernel.data_dir):
            if entry.problem is not None:
                _warn(f"room {entry.name} is not served: {entry.problem}")
    if not rooms:
        raise LwError("no room to serve", expected="lw serve ROOM [ROOM …], or --all for every room of the data dir "
                                                   "(lw room list)")
    several = len(rooms) > 1
    names = [path.name for path in rooms]
    if several and len(set(names)) != len(names):
        raise LwError("two of these rooms have the same folder name, so they cannot share one server's paths",
                      expected="serve them from separate lw serve processes")
    if several and replies:
        raise LwError("recorded replies (--reply) are for one room", expected="serve that room alone")
    for path in packs:
        dev_mounts(kernel).mount(path)
    tables = {}
    for room in rooms:
        said = f"{room.name}: " if several else ""
        live = None
        if not replies:
            with room_lock(room, shared=True):
                loaded = Room.load(room, kernel)
            if endpoint or profile_name or loaded.file.profile:
                live = LiveRequest(profile=profile_name, endpoint=endpoint, protocol=provider, model=model,
                                   key_env=key_env, warn=_warn)
                connection = live.connect(kernel, loaded)  # every problem of the connection now, not at the first turn
                live = LiveRequest(profile=profile_name, endpoint=endpoint, protocol=provider, model=model,
                                   key_env=key_env)
                click.echo(f"{said}turns play on {connection.profile.model} at {connection.profile.endpoint}"
                           + (f" (profile {connection.profile.name})" if connection.named else ""))
            else:
                _warn(f"{said}no model: this room names no provider profile and no --reply or --endpoint was given, "
                      "so every turn will be refused (room commands still work). Add one with lw provider add NAME "
                      "…, then profile: NAME in room.yaml or lw serve --profile NAME.")
        source = TurnSource(deque(read_json(p) for p in replies), provider=provider, live=live)
        prefix = f"/r/{slug(room.name)}" if several else ""
        tables[prefix] = Table(kernel, room, source, seed=seed, turn_seconds=turn_timeout or TURN_TIME_LIMIT)
    operator = new_token() if several else None
    app = create_site(tables, public_url=public, acts_per_minute=acts_per_minute, operator=operator)
    import socket

    address = bind.strip("[]")
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((address, port))
    except (OSError, UnicodeError) as exc:
        sock.close()
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise LwError(f"cannot listen on {bind}:{port}: {reason}", expected="a free --port and an address of this machine") from None
    bound = sock.getsockname()[1]
    local = f"http://{'[' + address + ']' if family == socket.AF_INET6 else address}:{bound}"
    base = public or local
    if public and public.startswith("http://") and bind not in LOOPBACK:
        _warn("plain http on a network address: anyone on the way can read the seat links")
    if operator is not None:
        click.echo(f"{len(tables)} rooms on {base}/" + (f" (listening on {local})" if public else "")
                   + f"; the operator's page (rooms and seats, this run only): {base}/o/{operator}/")
    named = {entry.path.resolve(): entry.name for entry in list_rooms(kernel.data_dir)}
    for prefix, table in tables.items():
        click.echo(f"{table.title}: the web table is on {base}{prefix}/" + (f" (listening on {local})" if public else "")
                   + " — one link per seat:")
        revoked = {member for member, hashed in table.invites.current().items() if hashed is None}
        for seat, link in table.links(base + prefix):
            again = _rotate_hint(named.get(table.path.resolve(), str(table.path)), seat.member, base + prefix)
            click.echo(f"  {seat.name} ({'keeper' if seat.keeper else seat.member}): "
                       + (link or (f"link revoked (a new one: {again})" if seat.member in revoked
                                   else f"the link sent earlier (a new one: {again})")))
    click.echo("Ctrl-C stops it.")
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1)
    hubs = list(app.state.hubs.values())

    class TableServer(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            for hub in hubs:
                hub.close_soon()  # open event streams end, so the server stops at once
            super().handle_exit(sig, frame)

    sys.stdout.flush()  # the links reach a log file or a service's journal now, not when a buffer fills
    previous = signal.signal(signal.SIGTERM, _stopped) if threading.current_thread() is threading.main_thread() else None
    try:
        TableServer(config).run(sockets=[sock])
    except (KeyboardInterrupt, Stopped):  # uvicorn re-raises the signal it shut down on: this command's end
        click.echo("The table is stopped.")
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


class Stopped(Exception):
    """A service manager's stop (SIGTERM) ended the table: it stops as on Ctrl-C."""


def _stopped(sig: int, frame: FrameType | None) -> None:
    raise Stopped


def _rotate_hint(room: str, member: str, url: str) -> str:
    """The ``lw seat rotate`` command that makes ``member`` a new link to the table served at
    ``url``: the room by its name in the data dir (else its folder), with ``--url`` unless it
    is ``lw seat``'s default, so the printed link is one this table answers."""
    ref = room if re.fullmatch(r"[A-Za-z0-9_./-]+", room) else shlex.quote(room)
    who = member if re.fullmatch(r"[A-Za-z0-9_-]+", member) else shlex.quote(member)
    return f"lw seat rotate {ref} {who}" + ("" if url == DEFAULT_URL else f" --url {url}")


def _warn(text: str) -> None:
    click.echo(f"warning: {text}", err=True)
