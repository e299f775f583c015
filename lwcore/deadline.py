"""A turn's deadline: past it, the turn writes nothing.

A host that cannot wait for ever (a web table, a chat bot) gives a turn a :class:`Deadline`
(``kernel.turn(..., deadline=d)``). Every save of the room during that turn first *claims*
the deadline (:meth:`Deadline.claim`, called by :meth:`lwcore.turn.room.Room.save` before its
transaction commits): after the deadline has passed, or after the host declared it expired
(:meth:`Deadline.expire`), the claim fails with :class:`~lwcore.errors.LwError` code
``deadline`` and nothing is written, so the room stays exactly as it was. A model call made
for the turn gets at most the time that is left (:meth:`Deadline.remaining`).

Claiming and expiring are one decision under one lock: either the turn's first commit
claimed the deadline in time (then :meth:`expire` answers ``False``: the room is changing,
wait for the turn to end) or the host expired it first (then no commit of the turn can
happen). The host can therefore tell its user the truth -- "nothing of it was saved" --
while the turn's thread is still running.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from lwcore.errors import LwError


class Deadline:
    """``seconds`` from now on ``clock`` (``time.monotonic``; injectable for tests)."""

    def __init__(self, seconds: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self._clock = clock
        self._at = clock() + seconds
        self._lock = threading.Lock()
        self._expired = False
        self._claimed = False

    def remaining(self) -> float:
        """Seconds left (0 once passed or expired)."""
        with self._lock:
            return 0.0 if self._expired else max(0.0, self._at - self._clock())

    @property
    def expired(self) -> bool:
        """Whether no commit may happen any more."""
        with self._lock:
            return self._expired or (not self._claimed and self._clock() >= self._at)

    @property
    def claimed(self) -> bool:
        """Whether a commit of the turn claimed the deadline (the room may have changed)."""
        with self._lock:
            return self._claimed

    def bound(self, seconds: float) -> float:
        """How long a step that would take up to ``seconds`` (a model call) may take now: what
        is left, at most ``seconds``; :class:`LwError` (code ``deadline``) when nothing is.
        Once a commit claimed the deadline the turn is no longer bounded (it finishes)."""
        with self._lock:
            if self._claimed:
                return seconds
            left = 0.0 if self._expired else self._at - self._clock()
        if left <= 0:
            raise self.error()
        return min(seconds, left)

    def expire(self) -> bool:
        """Declare the deadline passed: ``True`` when no commit claimed it (none ever will),
        ``False`` when one did (the turn is writing; let it finish)."""
        with self._lock:
            if self._claimed:
                return False
            self._expired = True
            return True

    def claim(self) -> None:
        """Before a commit: :class:`LwError` (code ``deadline``) when the deadline passed or
        was expired; otherwise the commit may go ahead, and every later one too (a turn that
        began writing in time finishes writing)."""
        with self._lock:
            if self._claimed:
                return
            if self._expired or self._clock() >= self._at:
                self._expired = True
                raise self.error()
            self._claimed = True

    def error(self) -> LwError:
        """The message for the one who acted: the turn ran out of time and changed nothing."""
        return LwError(f"the turn did not finish within {self.seconds:g} s; nothing of it was saved",
                       expected="try again (a slow model, or a long turn ahead of yours in the room)",
                       code="deadline")
