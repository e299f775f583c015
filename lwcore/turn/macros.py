"""``{{roll:EXPR}}`` in narration: rolled by the engine's dice, never trusted from the model.

Iron rule 2: a number the model writes is never a roll. Where narration needs one it writes
``{{roll:1d6}}``; :func:`expand_rolls` rolls it with :mod:`lwcore.rules.dice` and puts the
total in its place. A bad expression is left visible as ``[roll error: ...]`` instead of
breaking the turn.
"""

from __future__ import annotations

import random
import re
from typing import Any

from lwcore.errors import LwError
from lwcore.rules.dice import roll

ROLL_MACRO = re.compile(r"\{\{\s*roll\s*:\s*([^{}]{1,200}?)\s*\}\}", re.IGNORECASE)


def expand_rolls(text: str, rng: random.Random) -> tuple[str, list[dict[str, Any]]]:
    """``(text with every roll macro replaced by its total, the rolls as JSON)``."""
    if "{{" not in text:
        return text, []
    rolls: list[dict[str, Any]] = []

    def replace(match: re.Match[str]) -> str:
        expr = match.group(1)
        try:
            outcome = roll(expr, rng)
        except LwError as exc:
            rolls.append({"expr": expr, "error": str(exc)})
            return f"[roll error: {exc.message}]"
        rolls.append(outcome.to_json())
        return str(outcome.total)

    return ROLL_MACRO.sub(replace, text), rolls
