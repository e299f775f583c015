"""``lw seat list|rotate|revoke|add``: the keeper's hold on the web table's seat links.

A seat's link is made the first time the room is served (``lw serve`` prints it once) and
lasts until changed here; the room keeps only its hash (:mod:`lw_panels.serve.invites`), so a
lost link cannot be shown again -- ``rotate`` makes a new one (the old link and every session
made from it stop working, on a running table too, at its next request). ``revoke`` ends a
seat's link and sessions without a new one; ``add`` gives the room a new player (who then
claims a free pregenerated character at the table with ``.pc claim``) and prints their link.
Links are printed with ``--url``, the address the table is served at (with ``/r/NAME`` when
``lw serve`` hosts several rooms). The commands speak the shell's language (``LW_LOCALE``,
``LC_ALL``, ``LC_MESSAGES``, ``LANG``; English otherwise), as ``lw pack`` does.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import click

from lw_panels.messages import MESSAGES
from lw_panels.serve.invites import Invites
from lw_panels.serve.origins import public_origin
from lw_panels.serve.table import add_seated, invite_link
from lwcore.api import ROOM, LwError, Room, cli_state as state, pick_locale, room_lock

DEFAULT_URL = "http://127.0.0.1:8765"
"""``lw serve``'s own address with its default ``--port``: where ``lw seat`` links point by default."""
_URL = click.option("--url", default=DEFAULT_URL, show_default=True, metavar="URL",
                    help="The address the table is served at (lw serve's --public-url, or its loopback address; "
                         "with /r/ROOM when several rooms are served together).")


@click.group("seat")
def seat() -> None:
    """The seats of a room's web table: their links (lw serve) and who sits there."""


@seat.command("list")
@click.argument("room", type=ROOM)
@click.pass_context
def list_seats(ctx: click.Context, room: Path) -> None:
    """Each member of ROOM and the state of their link."""
    loaded, t = _load(ctx, room), _words(ctx)
    links = Invites(room).current()
    for member in loaded.members:
        kept = links.get(member.id, "")
        said = t("seat.link_made") if kept else t("seat.revoked") if member.id in links else t("seat.no_link")
        role = t("seat.keeper") if loaded.is_keeper(member) else t("seat.player")
        click.echo(f"{member.id}\t{member.name or member.id}\t{role}\t{said}")


@seat.command("rotate")
@click.argument("room", type=ROOM)
@click.argument("member")
@_URL
@click.pass_context
def rotate(ctx: click.Context, room: Path, member: str, url: str) -> None:
    """A new link for MEMBER's seat (id or name): the old one stops working at once."""
    found = _load(ctx, room).member(member)
    token = Invites(room).issue(found.id)
    click.echo(f"{found.name or found.id} ({found.id}): {invite_link(_base(url), token)}")
    click.echo(_words(ctx)("seat.rotated"))


@seat.command("revoke")
@click.argument("room", type=ROOM)
@click.argument("member")
@click.pass_context
def revoke(ctx: click.Context, room: Path, member: str) -> None:
    """MEMBER's link and sessions stop working at once (lw seat rotate makes a new link)."""
    found = _load(ctx, room).member(member)
    had = Invites(room).revoke(found.id)
    t = _words(ctx)
    click.echo(f"{found.name or found.id} ({found.id}): " + (t("seat.link_revoked") if had else t("seat.had_no_link")))


@seat.command("add")
@click.argument("room", type=ROOM)
@click.argument("name")
@click.option("--id", "member_id", default=None, help="The new member's id (default: the next free pN).")
@click.option("--locale", default=None, help="The new player's language (default: the room's).")
@_URL
@click.pass_context
def add(ctx: click.Context, room: Path, name: str, member_id: str | None, locale: str | None, url: str) -> None:
    """A new player seat named NAME in ROOM, and its link. The player claims a free
    pregenerated character at the table (.pc list, .pc claim N)."""
    base, speak = _base(url), _speaks(ctx)
    member, token = add_seated(state(ctx).kernel, room, Invites(room), name, member_id, locale, speak=speak)
    click.echo(f"{member.name or member.id} ({member.id}): {invite_link(base, token)}")
    click.echo(MESSAGES.bind(speak)("seat.added"))


def _speaks(ctx: click.Context) -> str:
    """The language ``lw seat`` speaks: the shell's (:func:`lwcore.pack.card.pick_locale`)."""
    return pick_locale(None, state(ctx).kernel.env)


def _words(ctx: click.Context) -> Any:
    return MESSAGES.bind(_speaks(ctx))


def _load(ctx: click.Context, room: Path) -> Room:
    with room_lock(room, shared=True):
        return Room.load(room, state(ctx).kernel)


def _base(url: str) -> str:
    """``url`` as the start of a link: its origin, and its path when the room is one of several
    served together (``https://table.example.org/r/fog-harbor``)."""
    scheme, sep, rest = url.partition("://")
    host, slash, path = rest.partition("/")
    path = path.strip("/")
    if path and not re.fullmatch(r"r/[A-Za-z0-9_.-]+", path):
        raise LwError("--url is the table's address, with /r/ROOM when several rooms are served together",
                      expected="https://table.example.org or https://table.example.org/r/fog-harbor")
    return public_origin(f"{scheme}{sep}{host}") + (f"/{path}" if path else "")
