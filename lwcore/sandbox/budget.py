"""One CPU budget for everything a turn runs in the sandbox.

Each sandbox run has its own CPU limit (a hook call 0.25 s, a template 0.5 s …), but a turn
runs many: every hook event, every EJS entry, every JavaScript ``@@if`` condition, every rule
script a tool call reaches, every regular expression from content. Forty looping templates
would each use their whole limit. A :class:`Budget` bounds the sum: every run inside the turn
is charged the CPU time it used, each call is armed with at most what is left, and once it is
spent every later run fails at once with the failure kind ``budget`` (the callers degrade: an
entry is left out, a hook is disabled for the turn, a condition is false, a regex key is
skipped -- each logged for the keeper), so the turn's scripts finish within the budget.

The turn makes one (``lwcore.turn.pipeline``) and *activates* it for its duration: every run
on that thread (more exactly, in that :mod:`contextvars` context) is charged without anything
being passed down, since scripts run deep inside the rules engine and plugins. The turn context
also carries it (``turn.budget``) for a plugin that wants to look. A run may be given
a budget explicitly instead (the runners' ``budget=``).

The clock is injectable (``clock=``, default :func:`time.process_time`, the CPU time of the
process, which is what QuickJS's own limit reads): a test hands in a clock that advances as it
likes, and the budget runs out without anything being slow.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

TURN_BUDGET_S = 2.0
"""CPU seconds a turn's sandbox runs may use together."""

_CURRENT: ContextVar[Budget | None] = ContextVar("lw_sandbox_budget", default=None)


class Budget:
    """CPU seconds shared by the sandbox runs of one turn (or one scan, one command)."""

    def __init__(self, seconds: float = TURN_BUDGET_S, *, clock: Callable[[], float] = time.process_time) -> None:
        if not 0 < seconds <= 600:
            raise ValueError("a budget is more than 0 and at most 600 seconds")
        self.seconds = seconds
        self.clock = clock
        self.used = 0.0
        self.refused = 0
        """Runs (or calls) refused or cut short because the budget was spent."""
        self._exhausted = False

    def remaining(self) -> float:
        """Seconds left (0 when spent)."""
        return 0.0 if self._exhausted else max(0.0, self.seconds - self.used)

    @property
    def spent(self) -> bool:
        return self.remaining() <= 0

    def charge(self, seconds: float) -> None:
        """Count ``seconds`` of CPU time used by a run."""
        self.used += max(0.0, seconds)

    def exhaust(self) -> None:
        """Mark the budget spent: a run was cut short by it (its clock reading may lag by a
        few microseconds; the budget must read as spent afterwards all the same)."""
        self._exhausted = True
        self.refused += 1

    def describe(self) -> str:
        return f"the turn's {self.seconds:g} s of script time is spent"

    @contextmanager
    def active(self) -> Iterator[Budget]:
        """Charge every sandbox run in this context to this budget until the block ends."""
        token = _CURRENT.set(self)
        try:
            yield self
        finally:
            _CURRENT.reset(token)

    def __repr__(self) -> str:
        return f"Budget({self.seconds:g} s, used {self.used:.3f} s{', spent' if self.spent else ''})"


def current() -> Budget | None:
    """The budget activated around this call (:meth:`Budget.active`), if any."""
    return _CURRENT.get()


@contextmanager
def ensure(seconds: float = TURN_BUDGET_S) -> Iterator[Budget]:
    """The active budget, or a new one activated for the block (a compile outside a turn, a
    command scanning a book): nested callers share the outermost one."""
    existing = current()
    if existing is not None:
        yield existing
        return
    with Budget(seconds).active() as budget:
        yield budget
