"""How often a seat may act at the web table: a token bucket per seat.

Each seat may act (say a line, use a panel, use a keeper's control) ``per_minute`` times a
minute on average, and up to ``per_minute`` times in a burst; past that an action is refused
with the seconds to wait (HTTP 429 with ``Retry-After``). Reaching the table at all is limited
the same way, far more generously (:data:`READS_PER_MINUTE`). The clock is injectable (tests).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

ACTS_PER_MINUTE = 20
READS_PER_MINUTE = 300
"""How often one seat may reach the table at all (pages, updates, pictures, frames, event
streams, acting too): generous for a browser, a bound on one seat keeping the server busy."""


class RateLimit:
    """``per_minute`` actions a minute per key (0: no limit); ``clock``: seconds, monotonic."""

    def __init__(self, per_minute: int = ACTS_PER_MINUTE, *, clock: Callable[[], float] | None = None) -> None:
        self.per_minute = per_minute
        self.clock = clock or time.monotonic
        self._buckets: dict[str, tuple[float, float]] = {}
        """key -> (tokens left, when they were counted)."""

    def take(self, key: str) -> float:
        """Take one action for ``key``: 0 when allowed, else the seconds until one is."""
        if self.per_minute <= 0:
            return 0.0
        now = self.clock()
        rate = self.per_minute / 60.0
        tokens, then = self._buckets.get(key, (float(self.per_minute), now))
        tokens = min(float(self.per_minute), tokens + max(0.0, now - then) * rate)
        if tokens >= 1.0:
            self._buckets[key] = (tokens - 1.0, now)
            return 0.0
        self._buckets[key] = (tokens, now)
        return (1.0 - tokens) / rate


def retry_after(seconds: float) -> str:
    """``seconds`` as a ``Retry-After`` value (whole seconds, at least 1)."""
    return str(max(1, math.ceil(seconds)))
