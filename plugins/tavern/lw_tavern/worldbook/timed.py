"""Timed effects (``sticky``, ``cooldown``, ``delay``), counted in chat messages as SillyTavern counts them.

SillyTavern counts in chat messages (``chat.length`` at a generation: a greeting and two
messages an exchange, so ``sticky: 5`` lasts over three generations) and keeps the effects in
the chat's metadata. Here the effects are a plain, JSON-able :class:`TimedState` the caller
stores, and ``turn`` is the message count of the generation evaluated last (a room counts its
player and keeper lines, :func:`lw_tavern.room.prompt.message_count`; without a count the
engine adds one per scan). Only the injection path advances it (a preview or a keeper's search
reads the state and leaves it alone).

The arithmetic is SillyTavern's ("turn" below is its chat length):

- an activated entry with ``sticky: N`` (or ``cooldown: N``) gets an effect from turn ``T``
  to ``T + N`` (not renewed while one is running);
- at turn ``T'`` an effect is dropped when ``T' <= start`` and it is not protected (the turn
  was evaluated again without advancing), or when ``T' >= end`` (it ran out); a sticky effect
  that runs out starts the entry's cooldown right away (protected);
- an effect whose entry is gone is kept until it would have ended;
- ``delay: N`` keeps an entry out while ``T' < N``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from lw_tavern.files import validate

EFFECT_TYPES = ("sticky", "cooldown")


class Effect(BaseModel):
    """One running effect: the entry's content hash, and the turns it runs between."""

    model_config = ConfigDict(extra="forbid", strict=True)

    hash: str
    start: int
    end: int
    protected: bool = False


class TimedState(BaseModel):
    """What a room keeps between turns: the turn counter and the running effects by entry."""

    model_config = ConfigDict(extra="forbid", strict=True)

    turn: int = Field(0, ge=0)
    sticky: dict[str, Effect] = Field(default_factory=dict)
    cooldown: dict[str, Effect] = Field(default_factory=dict)


@dataclass
class ActiveEffects:
    """The effects in force for the turn being evaluated (by entry key)."""

    sticky: set[str] = field(default_factory=set)
    cooldown: set[str] = field(default_factory=set)
    delay: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class TimedInfo:
    """What timed effects need to know about an entry."""

    key: str
    hash: str
    sticky: int
    cooldown: int
    delay: int


def check(state: TimedState, turn: int, entries: Mapping[str, TimedInfo],
          delayed: Iterable[TimedInfo]) -> tuple[TimedState, ActiveEffects]:
    """The effects in force at ``turn`` and the state with the finished ones removed
    (``delayed``: the entries that have a ``delay``)."""
    new = state.model_copy(deep=True)
    active = ActiveEffects()
    for kind in EFFECT_TYPES:
        table: dict[str, Effect] = getattr(new, kind)
        for key, effect in list(table.items()):
            info = entries.get(key)
            if info is not None and info.hash != effect.hash:
                info = None  # the entry was edited: the effect no longer belongs to it
            if turn <= effect.start and not effect.protected:
                del table[key]
                continue
            if info is None:
                if turn >= effect.end:
                    del table[key]
                continue
            length = getattr(info, kind)
            if not length:
                del table[key]
                continue
            if turn >= effect.end:
                del table[key]
                if kind == "sticky" and info.cooldown:
                    new.cooldown[key] = Effect(hash=info.hash, start=turn, end=turn + info.cooldown, protected=True)
                    active.cooldown.add(key)
                continue
            getattr(active, kind).add(key)
    for info in delayed:
        if info.delay and turn < info.delay:
            active.delay.add(info.key)
    new.turn = turn
    return new, active


def record(state: TimedState, turn: int, activated: list[TimedInfo]) -> TimedState:
    """Start the sticky and cooldown effects of the entries activated at ``turn``."""
    for info in activated:
        for kind in EFFECT_TYPES:
            length = getattr(info, kind)
            table: dict[str, Effect] = getattr(state, kind)
            if length and info.key not in table:
                table[info.key] = Effect(hash=info.hash, start=turn, end=turn + length)
    return state


def state_from_json(data: Any, *, file: Any = None) -> TimedState:
    """A :class:`TimedState` from stored JSON (located errors)."""
    return validate(TimedState, data, file=file)
