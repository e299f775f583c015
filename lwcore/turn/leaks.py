"""What players must never be told, and whether a text tells it: the one leak check.

:func:`keeper_only` lists a room's keeper-only variables -- the declared module variables the
keeper's projection marks keeper-only, and the MVU leaves the keeper has not exposed -- with
their ids, every ancestor of an id (``mvu.内部`` of ``mvu.内部.真凶``), the ids players do see,
and their current values.

:meth:`KeeperOnly.said_in` is the check every player-bound output runs before it leaves: which
keeper-only variables' current text values a text (or any string inside a JSON value) holds.
Its rules, one place for all of them:

- only **texts** identify a secret: numbers and booleans are never compared (a gauge at 3 must
  not be refused because a keeper-only counter also reads 3);
- a value shorter than :data:`MIN_SECRET_CHARS` characters is too likely by chance to look for,
  and a value players see anyway (another, player-visible variable holds it) tells them nothing;
- texts are compared with whitespace collapsed and case folded;
- a value is found inside a longer text, except that a word of a script written with spaces
  (Latin, Greek, Cyrillic) is only found as a whole word: ``Anna`` is not in ``Annals``. Chinese,
  Japanese and Korean have no such boundary, so ``周伯年`` is found anywhere.

Who runs it: the panels plugin on every text and compared literal of a player panel (``.panels
enable``, ``lw panels check``) and on a hook's ``emitPanel`` payload for a player panel; the hook
runtime (:mod:`lwcore.turn.hook_runtime`) on ``narrate``, ``rewriteReply`` and ``emitUI``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lwcore.turn.documents import keeper_viewer, project
from lwcore.turn.projections import variable_document

if TYPE_CHECKING:
    from lwcore.turn.room import Room

MVU_PREFIX = "mvu."
"""How an MVU leaf is named among the variables (``mvu.<path>``)."""
MIN_SECRET_CHARS = 2
"""A keeper-only text value shorter than this (after whitespace is collapsed) is not looked for."""

_SPACED_WORD = re.compile(r"[0-9A-Za-z\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF]")
"""A character of a word in a script that separates words with spaces."""


def normalize(text: str) -> str:
    """Whitespace collapsed to single spaces, case folded: how texts are compared."""
    return " ".join(text.split()).casefold()


def strings(value: Any) -> Iterator[str]:
    """Every string inside a JSON value (keys too), depth first."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings(key)
            yield from strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from strings(item)


@dataclass(frozen=True)
class KeeperOnly:
    """What only the keeper sees: variable ids (declared and MVU) and their current values;
    ``visible`` holds the ids players do see."""

    ids: frozenset[str]
    values: tuple[Any, ...]
    """The current value of each keeper-only variable (in no particular order)."""
    visible: frozenset[str] = frozenset()
    named: frozenset[str] = frozenset()
    """The ids and every ancestor of one: saying any of them says a secret's name."""
    texts: dict[str, str] = field(default_factory=dict)
    """Normalized text value -> the keeper-only variable id holding it (the values looked for)."""

    def names(self, name: str) -> bool:
        return name in self.named

    def only_prefix(self, prefix: str) -> bool:
        """Whether only keeper-only ids start with ``prefix`` (a repeat over it names them)."""
        return any(i.startswith(prefix) for i in self.ids) and not any(i.startswith(prefix) for i in self.visible)

    def said_in(self, value: Any) -> list[str]:
        """The ids of the keeper-only variables whose current text value ``value`` (a text, or
        any JSON value: every string in it) holds, sorted; empty when it tells no secret."""
        if not self.texts:
            return []
        found: set[str] = set()
        for text in strings(value):
            haystack = normalize(text)
            for secret, var_id in self.texts.items():
                if var_id not in found and _holds(haystack, secret):
                    found.add(var_id)
        return sorted(found)


def _holds(haystack: str, secret: str) -> bool:
    """Whether ``secret`` stands in ``haystack`` (a spaced-script word only as a whole word)."""
    start = haystack.find(secret)
    while start != -1:
        end = start + len(secret)
        before = start > 0 and _SPACED_WORD.match(secret[0]) and _SPACED_WORD.match(haystack[start - 1])
        after = end < len(haystack) and _SPACED_WORD.match(secret[-1]) and _SPACED_WORD.match(haystack[end])
        if not before and not after:
            return True
        start = haystack.find(secret, start + 1)
    return False


def keeper_only(room: Room) -> KeeperOnly:
    """The keeper-only variables of ``room``: those the keeper's projections mark as not
    shown to players, and the MVU leaves the keeper has not exposed."""
    keeper = keeper_viewer(room)
    hidden: dict[str, Any] = {}
    shown: dict[str, Any] = {}
    for var in room.variables.variables:
        view = project(room, variable_document(var), keeper)
        if view is None:
            continue
        (hidden if view.get("keeper_only") else shown)[view["id"]] = view.get("value")
    doc = room.documents.get("mvu", "mvu")
    view = project(room, doc, keeper) if doc is not None else None
    for leaf in (view or {}).get("leaves", ()):
        var_id = MVU_PREFIX + str(leaf["path"])
        (shown if leaf.get("exposed", True) else hidden)[var_id] = leaf.get("value")
    public = {normalize(v) for v in shown.values() if isinstance(v, str)}
    texts: dict[str, str] = {}
    for var_id, value in sorted(hidden.items()):
        if isinstance(value, str):
            text = normalize(value)
            if len(text) >= MIN_SECRET_CHARS and text not in public:
                texts.setdefault(text, var_id)
    named = {".".join(i.split(".")[:n]) for i in hidden for n in range(1, i.count(".") + 2)}
    return KeeperOnly(frozenset(hidden), tuple(hidden.values()), frozenset(shown), frozenset(named), texts)
