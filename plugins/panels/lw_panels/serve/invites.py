"""A room's seat invites: the secret link tokens of its web table, kept so they survive restarts.

The store is the room's own ``.lw/invites.json``: for each member id the SHA-256 (hex) of
their current link token, or ``null`` when their link was revoked (a member with no entry
has never had one). The clear token exists only in the answer of :meth:`Invites.issue` (shown
once: when a seat's link is made, and again made anew by ``lw seat rotate``); nothing on disk
can be turned back into a link. Writes are atomic and hold the store's own lock
(``.lw/invites``), not the room's writer lock, so changing a link never waits for a turn in
progress. A running server sees a change at its next request (:meth:`Invites.current` checks
the file's identity, size and time each time and reads it again when any changed: no cached
copy can outlive a change), so a rotated or revoked link
stops working at once (and the seat's sessions are forgotten: :mod:`lw_panels.serve.sessions`).

Because the store lives in the room's folder, a link belongs to that folder and no other: a
room renamed, and a new room made under the old name, has none of the old room's links.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from lw_panels.serve.sessions import Sessions
from lw_panels.serve.stores import FileCache
from lwcore.api import FolderLock, LwError, atomic_write_text

INVITES = ".lw/invites.json"
LOCK_NAME = "invites"
MAX_SEATS = 10_000
"""The most entries a store may hold (a bigger file is refused, not read)."""


def token_hash(token: str) -> str:
    """The stored form of a link token (hex SHA-256)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    """A fresh link token: 32 random bytes, URL-safe."""
    return secrets.token_urlsafe(32)


class Invites:
    """The invite store of the room folder ``folder``. ``make``: the maker of new tokens
    (``member -> token``; :func:`new_token` by default -- tests inject predictable ones)."""

    def __init__(self, folder: str | Path, *, make: Callable[[str], str] | None = None) -> None:
        self.folder = Path(folder)
        self.path = self.folder / INVITES
        self.make = make or (lambda member: new_token())
        self._cache = FileCache(self.path, self._parse)

    # -- reading ---------------------------------------------------------------------------

    def current(self) -> dict[str, str | None]:
        """``member -> hash`` (``None``: revoked) as the file holds it now (read again only when
        it changed: :class:`lw_panels.serve.stores.FileCache`)."""
        return dict(self._cache.read())

    def snapshot(self) -> Mapping[str, str | None]:
        """:meth:`current` without the copy: the very mapping the store's cache holds for the
        file as it is now -- the same object until the file changes, so a caller may key what
        it derives from the links (the table's frame keys) on its identity. Never to be changed."""
        return self._cache.read()

    def _parse(self, data: Any) -> dict[str, str | None]:
        if data is None:
            return {}
        seats = data.get("seats") if isinstance(data, dict) else None
        if not isinstance(seats, dict) or len(seats) > MAX_SEATS or not all(
                isinstance(k, str) and (v is None or (isinstance(v, str) and len(v) == 64)) for k, v in seats.items()):
            raise LwError("the seat invites file is not what lw serve writes", file=self.path,
                          expected='{"format": 1, "seats": {"MEMBER": "SHA-256 hex" | null}}; lw seat rotate remakes a link')
        return dict(seats)

    def member_of(self, token: str) -> tuple[str, str] | None:
        """``(member, hash)`` of the seat whose current link is ``token``, else ``None``.
        Every stored hash is compared, each in constant time."""
        wanted = token_hash(token)
        found = None
        for member, stored in self.snapshot().items():
            if stored is not None and hmac.compare_digest(stored, wanted):
                found = (member, stored)
        return found

    def valid(self, member: str, hashed: str) -> bool:
        """Whether ``hashed`` is still ``member``'s link (not rotated, not revoked)."""
        stored = self.snapshot().get(member)
        return stored is not None and hmac.compare_digest(stored, hashed)

    # -- changing --------------------------------------------------------------------------

    def issue(self, member: str) -> str:
        """A new link for ``member`` (their old one, if any, stops working): its clear token,
        which is not kept anywhere."""
        token = self.make(member)
        self._change(lambda seats: seats.__setitem__(member, token_hash(token)))
        _tidy(self.folder, member)
        return token

    def revoke(self, member: str) -> bool:
        """``member``'s link stops working (and every session made from it); whether they had one."""
        had: list[bool] = []

        def drop(seats: dict[str, str | None]) -> None:
            had.append(seats.get(member) is not None)
            seats[member] = None
        self._change(drop)
        _tidy(self.folder, member)
        return had[0]

    def ensure(self, members: Iterable[str]) -> dict[str, str]:
        """A link for each of ``members`` that never had one (a revoked link stays revoked):
        ``member -> clear token`` of the links made now, all in one write."""
        members = list(members)
        made: dict[str, str] = {}

        def add(seats: dict[str, str | None]) -> None:
            for member in members:
                if member not in seats:
                    made[member] = self.make(member)
                    seats[member] = token_hash(made[member])
        self._change(add, only_if=lambda seats: any(m not in seats for m in members))
        return made

    def _change(self, edit: Callable[[dict[str, str | None]], None],
                only_if: Callable[[dict[str, str | None]], bool] | None = None) -> None:
        with FolderLock(self.folder, name=LOCK_NAME, timeout=30):
            seats = self.current()
            if only_if is not None and not only_if(seats):
                return
            edit(seats)
            atomic_write_text(self.path, json.dumps({"format": 1, "seats": seats}, indent=1, sort_keys=True) + "\n")


def _tidy(folder: Path, member: str) -> None:
    """Forget ``member``'s sessions once their link changed. Only tidying: a session made from
    another link is refused anyway (:meth:`Invites.valid`), so a sessions file that cannot be
    read or written now never undoes, or hides, a link already changed."""
    try:
        Sessions(folder).forget(member)
    except (LwError, OSError):
        pass
