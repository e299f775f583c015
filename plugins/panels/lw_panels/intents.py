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
words of its own choosing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lw_panels.manifest import manifest
from lwcore.api import LwError, is_command, viewer_of

if TYPE_CHECKING:
    from lwcore.api import Member, Room

KINDS = ("choice", "input", "roll")
MAX_VALUE = 2000


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
    return text


def needs_confirm(room: Room, member: Member, panel: Any, line: str) -> bool:
    """Whether ``line``, which ``member``'s ``panel`` sent, must be confirmed by them before it
    is played: words for the story (not a roll, which is the engine's) from a scripted
    (tier-2) panel."""
    if is_command(line):
        return False
    return any(p.ref == panel and p.tier == 2 for p in manifest(room, viewer_of(room, member)))
