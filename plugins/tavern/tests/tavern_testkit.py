"""Helpers for the world-book tests: run a scan with both matchers and insist they agree."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from lw_tavern.worldbook.engine import Activation, Message, ScanInput, activate, compile_book
from lw_tavern.worldbook.model import WorldBook, WorldEntry, WorldSettings
from lw_tavern.worldbook.timed import TimedState


class Rolls(random.Random):
    """A random source that returns the given ``random()`` values in turn (and counts them)."""

    def __init__(self, values: Sequence[float] = ()) -> None:
        super().__init__(0)
        self.values = list(values)
        self.used = 0

    def random(self) -> float:
        if self.used >= len(self.values):
            raise AssertionError("the scan drew more random numbers than the test expected")
        self.used += 1
        return self.values[self.used - 1]


def entry(uid: int, **fields: Any) -> WorldEntry:
    data = {"uid": uid, "content": f"content {uid}", **fields}
    return WorldEntry.model_validate(data)


def book(*entries: WorldEntry, name: str = "") -> WorldBook:
    return WorldBook(entries=list(entries), extra={"name": name} if name else {})


def scan(
    entries: Sequence[WorldEntry] | WorldBook,
    chat: Sequence[str | Message],
    *,
    settings: WorldSettings | None = None,
    state: TimedState | None = None,
    rolls: Sequence[float] = (),
    advance: bool = True,
    **kwargs: Any,
) -> Activation:
    """One scan with the fast matcher and the reference; both must agree on everything."""
    settings = settings or WorldSettings()
    wb = entries if isinstance(entries, WorldBook) else book(*entries)
    compiled = compile_book(wb, settings)
    options = {k: kwargs.pop(k) for k in ("render", "condition", "tokens") if k in kwargs}
    inp = ScanInput(chat=list(chat), **kwargs)
    results = []
    for matcher in ("fast", "naive"):
        rng = Rolls(rolls)
        results.append((activate(compiled, inp, settings, state, rng=rng, advance=advance,
                                 matcher=matcher, **options), rng.used))  # type: ignore[arg-type]
    (fast, fast_used), (naive, naive_used) = results
    assert fast.fired == naive.fired
    assert fast.placement == naive.placement
    assert fast.state == naive.state
    assert fast_used == naive_used
    return fast


def fired(entries: Sequence[WorldEntry] | WorldBook, chat: Sequence[str | Message], **kwargs: Any) -> list[str]:
    return list(scan(entries, chat, **kwargs).fired)
