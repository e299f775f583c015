"""The web table's sessions: a seat link, opened in a browser, becomes a session cookie.

Opening a seat's link (``/t/TOKEN/``) makes a session of that seat and sends the browser on to
the seat's page (``/s/SEAT/``) with a cookie holding the session's random id, so the link
leaves the address bar, the history and (after that first request) the logs of any proxy.
Sessions live in the server's memory only: a restart ends them (the link, which lasts, makes a
new one). Each session remembers the hash of the link it was made from; it is good only while
that is still the seat's link (:meth:`lw_panels.serve.invites.Invites.valid`), so rotating or
revoking a link ends its sessions at once.
"""

from __future__ import annotations

import hmac
import secrets
from collections import OrderedDict
from dataclasses import dataclass

COOKIE = "lw_seat"
MAX_PER_SEAT = 32
"""Sessions one seat may have at once; a new one past it ends the oldest."""


@dataclass(frozen=True)
class Session:
    id: str
    member: str
    invite: str
    """The hash of the link the session was made from."""


class Sessions:
    """The sessions of one server, by id."""

    def __init__(self) -> None:
        self._open: OrderedDict[str, Session] = OrderedDict()

    def open(self, member: str, invite: str) -> Session:
        """A new session of ``member``'s seat, made from the link whose hash is ``invite``."""
        mine = [sid for sid, s in self._open.items() if s.member == member]
        for sid in mine[: max(0, len(mine) - MAX_PER_SEAT + 1)]:
            del self._open[sid]
        session = Session(secrets.token_urlsafe(32), member, invite)
        self._open[session.id] = session
        return session

    def get(self, sid: str | None) -> Session | None:
        """The session whose id is ``sid`` (compared in constant time), else ``None``."""
        if not sid:
            return None
        found = self._open.get(sid)
        return found if found is not None and hmac.compare_digest(found.id, sid) else None

    def end(self, sid: str) -> None:
        self._open.pop(sid, None)
