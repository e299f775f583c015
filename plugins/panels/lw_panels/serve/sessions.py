"""The web table's sessions: a seat link, opened in a browser, becomes a session cookie.

Opening a seat's link (``/t/TOKEN/``) makes a session of that seat and sends the browser on to
the seat's page (``/s/SEAT/``) with a cookie holding the session's random id, so the link
leaves the address bar, the history and (after that first request) the logs of any proxy.

Sessions are kept in the room's own ``.lw/sessions.json``, so a restarted server keeps them:
for each session the SHA-256 (hex) of its id -- never the id, which is only in the cookie --,
its member, the hash of the link it was made from and when it expires (:data:`LIFETIME`
after it was made; seconds since the epoch, the clock injectable). Writes are atomic under
the store's own lock (``.lw/sessions``); reads are bounded and read the file again only when
it changed (:class:`lw_panels.serve.stores.FileCache`; a write keeps what it wrote, so it is not
read back). The file is compact JSON: a new session rewrites it whole, which costs little next
to its ``fsync`` at a table's sizes (a few seats of up to :data:`MAX_PER_SEAT` sessions) and
stays well under 0.1 s at :data:`MAX_SESSIONS`. A session is good only while the link
it was made from is still the seat's link (:meth:`lw_panels.serve.invites.Invites.valid`), so
rotating or revoking a link ends its sessions at once; both also forget them
(:meth:`Sessions.forget`).
"""

from __future__ import annotations

import hashlib
import heapq
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lw_panels.serve.stores import FileCache
from lwcore.api import FolderLock, LwError, atomic_write_text

COOKIE = "lw_seat"
SESSIONS = ".lw/sessions.json"
LOCK_NAME = "sessions"
LIFETIME = 30 * 24 * 3600
"""Seconds a session lasts (30 days); opening the seat's link again makes a new one."""
MAX_PER_SEAT = 32
"""Sessions one seat may have at once; a new one past it ends the oldest."""
MAX_SESSIONS = 10_000
"""The most sessions a store holds (a bigger file is refused, not read; a new session past it
ends the one closest to expiring)."""


@dataclass(frozen=True)
class Session:
    id: str
    member: str
    invite: str
    """The hash of the link the session was made from."""
    expires: float = 0.0


def _hashed(sid: str) -> str:
    return hashlib.sha256(sid.encode("utf-8", "surrogatepass")).hexdigest()


_Entries = dict[str, tuple[str, str, float]]
"""Hash of a session id -> (member, hash of its link, when it expires)."""


class Sessions:
    """The sessions of the room folder ``folder``; ``clock``: seconds since the epoch
    (``time.time``); ``lifetime``: seconds a new session lasts."""

    def __init__(self, folder: str | Path, *, clock: Callable[[], float] | None = None,
                 lifetime: float = LIFETIME) -> None:
        self.folder = Path(folder)
        self.path = self.folder / SESSIONS
        self.clock = clock or time.time
        self.lifetime = lifetime
        self._cache = FileCache(self.path, self._parse)

    def _parse(self, data: Any) -> _Entries:
        if data is None:
            return {}
        found = data.get("sessions") if isinstance(data, dict) else None
        entries: _Entries = {}
        if isinstance(found, dict) and len(found) <= MAX_SESSIONS:
            for key, entry in found.items():
                if not (isinstance(key, str) and len(key) == 64 and isinstance(entry, dict)):
                    break
                member, invite, expires = entry.get("member"), entry.get("invite"), entry.get("expires")
                if not (isinstance(member, str) and isinstance(invite, str) and len(invite) == 64
                        and isinstance(expires, (int, float)) and not isinstance(expires, bool)):
                    break
                entries[key] = (member, invite, float(expires))
            else:
                return entries
        raise LwError("the table's sessions file is not what lw serve writes", file=self.path,
                      expected='{"format": 1, "sessions": {"SHA-256 hex": {"member", "invite", "expires"}}}; '
                               "deleting it ends every session (each seat's link makes a new one)")

    def open(self, member: str, invite: str) -> Session:
        """A new session of ``member``'s seat, made from the link whose hash is ``invite``."""
        session = Session(secrets.token_urlsafe(32), member, invite, round(self.clock() + self.lifetime, 3))

        def add(entries: _Entries) -> None:
            mine = sorted((e[2], key) for key, e in entries.items() if e[0] == member)
            for _, key in mine[: max(0, len(mine) - MAX_PER_SEAT + 1)]:
                del entries[key]
            if len(entries) >= MAX_SESSIONS:  # only then is the whole store sorted
                over = len(entries) - MAX_SESSIONS + 1
                for _, key in heapq.nsmallest(over, ((e[2], key) for key, e in entries.items())):
                    del entries[key]
            entries[_hashed(session.id)] = (member, invite, session.expires)
        self._change(add)
        return session

    def get(self, sid: str | None) -> Session | None:
        """The session whose id is ``sid``, unexpired, else ``None`` (looked up by the id's
        hash: the stored form tells nothing of the id)."""
        if not sid or len(sid) > 128:
            return None
        entry = self._cache.read().get(_hashed(sid))
        if entry is None or entry[2] <= self.clock():
            return None
        return Session(sid, *entry)

    def end(self, sid: str) -> None:
        self._change(lambda entries: entries.pop(_hashed(sid), None))

    def forget(self, member: str) -> None:
        """End every session of ``member``'s seat (their link was rotated or revoked)."""
        if any(e[0] == member for e in self._cache.read().values()):
            self._change(lambda entries: [entries.pop(k) for k in [k for k, e in entries.items() if e[0] == member]])

    def _change(self, edit: Callable[[_Entries], Any]) -> None:
        """``edit`` the entries and write them (expired ones dropped), under the store's lock."""
        with FolderLock(self.folder, name=LOCK_NAME, timeout=30):
            entries = dict(self._cache.read())
            now = self.clock()
            for key in [k for k, e in entries.items() if e[2] <= now]:
                del entries[key]
            edit(entries)
            data = {key: {"member": m, "invite": i, "expires": x} for key, (m, i, x) in entries.items()}
            # compact, unsorted: json's C encoder at its fastest (an indent takes the pure-Python one)
            atomic_write_text(self.path, json.dumps({"format": 1, "sessions": data}, separators=(",", ":")) + "\n")
            self._cache.keep(entries)  # what the file parses to (expiries are kept to the ms, as written)
