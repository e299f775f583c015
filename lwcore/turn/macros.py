"""``{{roll:EXPR}}`` in narration: rolled by the engine's dice, never trusted from the model.

Iron rule 2: a number the model writes is never a roll. Where narration needs one it writes
``{{roll:1d6}}``; :func:`expand_rolls` rolls it with :mod:`lwcore.rules.dice` and puts the
total in its place. A bad expression is left visible as ``[roll error: ...]`` instead of
breaking the turn.

Linear in the narration: a macro is ``{{roll:`` and the text up to the next brace, which must
close it (``}}``); the expression is that text without the spaces around it, 1 to
:data:`MAX_ROLL_EXPR` characters (anything else is left as written). The pattern has no
two ways to read a run of spaces, so no input makes it backtrack. At most :data:`MAX_ROLLS`
macros of one narration are rolled (each is a history event and a hook event).
"""

from __future__ import annotations

import random
import re
from typing import Any

from lwcore.errors import LwError
from lwcore.rules.dice import roll

MAX_ROLL_EXPR = 200
MAX_ROLLS = 64
"""Roll macros one narration may have rolled; later ones read ``[roll not made: …]``."""
ROLL_MACRO = re.compile(r"\{\{\s*roll\s*:([^{}]*)\}\}", re.IGNORECASE)


def expand_rolls(text: str, rng: random.Random) -> tuple[str, list[dict[str, Any]]]:
    """``(text with every roll macro replaced by its total, the rolls as JSON)``."""
    if "{{" not in text:
        return text, []
    rolls: list[dict[str, Any]] = []

    def replace(match: re.Match[str]) -> str:
        inner = match.group(1)
        # the expression without the spaces around it; of spaces only, the last of them
        expr = inner.strip() or inner[-1:]
        if not 1 <= len(expr) <= MAX_ROLL_EXPR:
            return match.group(0)
        if len(rolls) >= MAX_ROLLS:
            return f"[roll not made: more than {MAX_ROLLS} rolls in one reply]"
        try:
            outcome = roll(expr, rng)
        except LwError as exc:
            rolls.append({"expr": expr, "error": str(exc)})
            return f"[roll error: {exc.message}]"
        rolls.append(outcome.to_json())
        return str(outcome.total)

    return ROLL_MACRO.sub(replace, text), rolls
