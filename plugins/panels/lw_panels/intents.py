"""Panel intents: what a panel sends is only what its viewer could have typed.

A panel acts as the member viewing it. An intent names the panel it comes from, which must
be in that member's own manifest (a player can never work a keeper panel), and becomes one
line the member could type themselves, run through the room's ordinary door (room commands
with their ``who`` checks, or the member's turn):

- ``choice`` and ``input``: the value, as typed;
- ``roll``: ``.r <value>`` -- the engine's dice, rolled as that member, for the table.

A tier-2 panel's intent is never a room command (a ``choice`` or ``input`` line starting with
``.``): its script runs without anyone clicking what it sends, so on the keeper's page it
could otherwise type any keeper command unseen (``.var expose *``: keeper-only data shown to
every player). It sends the viewer's words for the story, or a roll -- and its words are a
turn only once the viewer has read them and confirmed them on the table's own page
(:func:`needs_confirm`): a script may wait for a click on something else and then send
words of its own choosing. Those words must show on the page as they are said: a character
drawn as nothing (a format character, a run of variation selectors) is refused
(:func:`hidden_at`), or the viewer would confirm one text and the model read another.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Any

from lw_panels.manifest import manifest
from lwcore.api import LwError, is_command, viewer_of

if TYPE_CHECKING:
    from lwcore.api import Member, Room

KINDS = ("choice", "input", "roll")
MAX_VALUE = 2000
SHOWN_FORMAT = frozenset("\u200c\u200d\u200e\u200f\u061c")
"""The format characters a scripted panel's words may hold: the joiners and direction marks
that scripts and emoji need (each shows as its effect on the letters around it)."""


BLANK = frozenset("\u034f\u115f\u1160\u2800\u3164\uffa0")
"""Characters outside ``Cf`` that a page also draws as nothing: the combining grapheme joiner,
the Hangul fillers and the blank braille pattern."""


def _selector(ch: str) -> bool:
    return "\ufe00" <= ch <= "\ufe0f" or "\U000e0100" <= ch <= "\U000e01ef"


def hidden_at(text: str) -> int | None:
    """The index of the first character of ``text`` a page draws as nothing -- a format
    character (Unicode ``Cf``: tag characters, zero-width spaces, word joiners, bidi controls, a
    soft hyphen) other than :data:`SHOWN_FORMAT`, one of :data:`BLANK`, or a variation selector
    after another -- else
    ``None``. Such characters can carry words the viewer never sees (tag characters spell ASCII
    that a model reads)."""
    after_selector = False
    for index, ch in enumerate(text):
        if ch >= "\u00ad" and (ch in BLANK or unicodedata.category(ch) == "Cf" and ch not in SHOWN_FORMAT):
            return index
        selector = _selector(ch)
        if selector and after_selector:
            return index
        after_selector = selector
    return None


def intent_line(room: Room, member: Member, panel: Any, kind: Any, value: Any) -> str:
    """The line ``member``'s intent stands for; :class:`LwError` (``forbidden`` for a panel
    outside their manifest, ``invalid`` for a malformed intent) when there is none."""
    if kind not in KINDS:
        raise LwError(f"intent kind {kind!r} is unknown", expected=" | ".join(KINDS), code="invalid")
    if not isinstance(value, str) or not isinstance(panel, str):
        raise LwError("an intent names its panel and carries a text value", code="invalid")
    if len(value) > MAX_VALUE:
        raise LwError(f"the intent's value is {len(value)} characters; the limit is {MAX_VALUE}", code="invalid")
    tiers = {p.ref: p.tier for p in manifest(room, viewer_of(room, member))}
    if panel not in tiers:
        raise LwError("that panel is not one of yours", code="forbidden")
    text = value.strip()
    if not text:
        raise LwError("the intent's value is empty", code="invalid")
    if kind == "roll":
        return ".r " + " ".join(text.split())
    if tiers[panel] == 2 and is_command(text):
        raise LwError("a scripted (tier-2) panel sends words for the story or a roll, never a room command",
                      code="forbidden", expected="type the command yourself")
    if tiers[panel] == 2 and (at := hidden_at(text)) is not None:
        raise LwError(f"the panel's words hold a character shown as nothing (U+{ord(text[at]):04X} at column {at + 1}): "
                      "what you would confirm is not all that would be said", code="invalid",
                      expected="type the words yourself")
    return text


def needs_confirm(room: Room, member: Member, panel: Any, line: str) -> bool:
    """Whether ``line``, which ``member``'s ``panel`` sent, must be confirmed by them before it
    is played: words for the story (not a roll, which is the engine's) from a scripted
    (tier-2) panel."""
    if is_command(line):
        return False
    return any(p.ref == panel and p.tier == 2 for p in manifest(room, viewer_of(room, member)))
