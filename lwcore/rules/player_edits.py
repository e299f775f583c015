"""What a player may write on their own sheet with ``.st``: the rulepack's stats, within its bounds.

The keeper (``.st … @member`` in a room) and the operator (``lw cmd --sheet``) set anything: a
custom skill, a monster's STR 150. A player's ``.st`` in a room runs on a copy of their own
sheet, and the copy is kept only when :func:`check_player_edit` finds nothing against the
room's rulepack:

- every stat it sets or changes is one the pack knows (a name, an alias, a derived stat) or
  one the sheet already holds (a custom skill the keeper gave it) -- ``.st '@p' 5`` is refused;
- every value it gives lies within the pack's ``bounds`` for that stat (its own entry, else the
  ``*`` entry: :meth:`lwcore.rules.system.RuleSystem.bounds`), and within
  ±:data:`PLAYER_STAT_LIMIT` where the pack names none (``.st STR 999`` where the pack bounds
  STR at 99 is refused); a stat brought back to the pack's own value (``.st del``) always is fine;
- named expressions (``&手枪=1d6``): at most :data:`MAX_PLAYER_EXPRESSIONS` on the sheet, each
  name at most :data:`MAX_EXPRESSION_NAME` characters, each expression at most
  :data:`MAX_EXPRESSION_CHARS`;
- the sheet's subsystem state (temporary insanity, death-save tallies …) stays as it was: a
  ``clr`` of a sheet holding some is the keeper's.

Whose sheet is the room command's business: a player's ``.st`` always takes their own (``@name``
is the keeper's). A refusal names every problem and changes nothing.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from lwcore.errors import LwError

if TYPE_CHECKING:
    from lwcore.rules.sheet import Sheet

PLAYER_STAT_LIMIT = 1_000_000
"""The largest magnitude a player may give a stat the pack gives no bounds."""
MAX_PLAYER_EXPRESSIONS = 64
MAX_EXPRESSION_NAME = 40
MAX_EXPRESSION_CHARS = 200


def _shown(value: float) -> str:
    return f"{value:g}"


def check_player_edit(before: Sheet, after: Sheet, *, locale: str = "en") -> None:
    """Refuse (:class:`LwError`, code ``forbidden``) what ``after`` holds that a player may not
    have written over ``before`` (see the module docstring), stats named in ``locale``;
    ``None`` when all is fine."""
    pack = after.rule_system
    problems: list[str] = []
    old, new = before.stored(), after.stored()
    for name in sorted(set(new), key=str):
        if name in old and _same(old[name], new[name]):
            continue
        if pack.canonical(name) is None and name not in old:
            problems.append(f"{name!r} is not a stat of {pack.id} (the keeper adds one: .st NAME VALUE @member)")
            continue
        value = new[name]
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
            problems.append(f"{name}: {value!r} is not a number")
            continue
        low, high = pack.bounds(name)
        if low is None and high is None:
            low, high = -PLAYER_STAT_LIMIT, PLAYER_STAT_LIMIT
        if (low is not None and value < low) or (high is not None and value > high):
            shown = pack.display_name(name, locale)
            span = f"{_shown(low) if low is not None else '…'}..{_shown(high) if high is not None else '…'}"
            problems.append(f"{shown} {_shown(value)} is outside {span}")
    expressions = after.expressions
    added = {k: v for k, v in expressions.items() if before.expressions.get(k) != v}
    if added and len(expressions) > MAX_PLAYER_EXPRESSIONS:
        problems.append(f"{len(expressions)} named expressions; a sheet holds at most {MAX_PLAYER_EXPRESSIONS}")
    for name, expr in added.items():
        if len(name) > MAX_EXPRESSION_NAME:
            problems.append(f"&{name[:20]}…: a name is at most {MAX_EXPRESSION_NAME} characters")
        if len(expr) > MAX_EXPRESSION_CHARS:
            problems.append(f"&{name}: an expression is at most {MAX_EXPRESSION_CHARS} characters")
    if after.state != before.state:
        problems.append("that would change the sheet's state (conditions the rules track); the keeper can: "
                        ".st … @member")
    if problems:
        raise LwError("; ".join(problems), code="forbidden",
                      expected=f"stats of {pack.id} within their bounds (.st show lists them)")


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b
