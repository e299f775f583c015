"""Character creation from a pack's ``creation_constraints`` (``make_char``).

::

    creation_constraints:
      method: roll                      # the default method: roll | point_buy | array
      roll: {STAT: "3d6x5", ...}        # a dice expression per stat
      point_buy: {budget: 27, cost: {8: 0, 9: 1, ...}, stats: [STAT, ...]}
      array: {values: [15, 14, 13, 12, 10, 8], stats: [STAT, ...]}
      range: {min: 0, max: 99}          # every created stat
      ranges: {STAT: {min: 3, max: 18}} # one stat
      attributes: {STAT: {roll: "3d6x5", min: 15, max: 90}}   # roll + ranges, one entry a stat

A new sheet is validated against the ranges (and the budget or the array); a problem is a
:class:`CreationError` naming the stat.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from lwcore.errors import LwError
from lwcore.rules.dice import compile_dice
from lwcore.rules.errors import CheckError
from lwcore.rules.sheet import Sheet

if TYPE_CHECKING:
    from lwcore.rules.system import RuleSystem

METHODS = ("roll", "point_buy", "array")


class CreationError(CheckError):
    """A new character breaks the pack's creation constraints (or they are malformed)."""


def _cc(pack: RuleSystem) -> dict[str, Any]:
    """The pack's creation constraints; ``attributes: {STAT: {roll, min, max}}`` (one entry per
    stat, the shape other engines use) reads as ``roll`` and ``ranges`` entries."""
    cc = dict(pack.model.creation_constraints or {})
    attributes = cc.get("attributes")
    if isinstance(attributes, Mapping):
        rolls = dict(cc.get("roll") or {})
        ranges = dict(cc.get("ranges") or {})
        for stat, entry in attributes.items():
            if isinstance(entry, Mapping):
                if entry.get("roll") is not None:
                    rolls.setdefault(stat, entry["roll"])
                bounds = {k: entry[k] for k in ("min", "max") if entry.get(k) is not None}
                if bounds:
                    ranges.setdefault(pack.canonical(str(stat)) or stat, bounds)
        cc["roll"], cc["ranges"] = rolls, ranges
    return cc


def methods(pack: RuleSystem) -> list[str]:
    cc = _cc(pack)
    return [m for m in METHODS if cc.get(m)]


def _bounds(pack: RuleSystem, stat: str) -> tuple[float | None, float | None]:
    cc = _cc(pack)
    lo = hi = None
    base = cc.get("range") or {}
    if isinstance(base, Mapping):
        lo, hi = base.get("min"), base.get("max")
    one = (cc.get("ranges") or {}).get(stat)
    if isinstance(one, Mapping):
        lo = one.get("min", lo)
        hi = one.get("max", hi)
    elif isinstance(one, (list, tuple)) and len(one) == 2:
        lo, hi = one
    return lo, hi


def _stats(pack: RuleSystem, section: Mapping[str, Any], method: str) -> list[str]:
    stats = section.get("stats")
    if not isinstance(stats, list) or not stats:
        raise CreationError(f"{pack.id}: creation_constraints.{method}.stats must list the stats")
    return [pack.canonical(str(s)) or str(s) for s in stats]


def _cost_table(pack: RuleSystem, section: Mapping[str, Any]) -> dict[int, int]:
    cost = section.get("cost")
    if not isinstance(cost, Mapping) or not cost:
        raise CreationError(f"{pack.id}: creation_constraints.point_buy.cost must map values to costs")
    return {int(k): int(v) for k, v in cost.items()}


def validate(pack: RuleSystem, values: Mapping[str, Any], method: str | None = None) -> list[str]:
    """Problems of ``values`` (canonical or alias names) under the pack's constraints."""
    cc = _cc(pack)
    method = method or cc.get("method") or next(iter(methods(pack)), None)
    vals = {pack.canonical(k) or k: v for k, v in values.items()}
    problems = []
    created = set(cc.get("roll") or {}) if method == "roll" else set()
    if method in ("point_buy", "array") and cc.get(method):
        created = set(_stats(pack, cc[method], method))
    created = {pack.canonical(s) or s for s in created}
    for stat in sorted(created):
        value = vals.get(stat)
        if value is None:
            problems.append(f"{stat}: missing")
            continue
        lo, hi = _bounds(pack, stat)
        if lo is not None and value < lo:
            problems.append(f"{stat}: {value} is below {lo}")
        if hi is not None and value > hi:
            problems.append(f"{stat}: {value} is above {hi}")
    if method == "point_buy":
        section = cc["point_buy"]
        table = _cost_table(pack, section)
        spent = 0
        for stat in _stats(pack, section, "point_buy"):
            value = vals.get(stat)
            if value is None:
                continue
            if int(value) not in table:
                problems.append(f"{stat}: {value} cannot be bought (from {min(table)} to {max(table)})")
                continue
            spent += table[int(value)]
        budget = int(section.get("budget", 0))
        if spent > budget:
            problems.append(f"point buy: {spent} points spent, the budget is {budget}")
    elif method == "array":
        section = cc["array"]
        want = Counter(int(v) for v in section.get("values") or [])
        got = Counter(int(vals[s]) for s in _stats(pack, section, "array") if s in vals)
        if got != want:
            problems.append(f"array: the values must be exactly {sorted(want.elements(), reverse=True)}")
    return problems


def make_char(pack: RuleSystem, *, rng: random.Random | None = None, method: str | None = None,
              assign: Mapping[str, Any] | None = None, name: str = "") -> Sheet:
    """A new validated sheet. ``roll`` rolls each formula; ``point_buy``/``array`` take
    ``assign`` (stat -> value), defaulting to the cheapest buy / the array in stat order."""
    cc = _cc(pack)
    method = method or cc.get("method") or next(iter(methods(pack)), None)
    if method is None or not cc.get(method):
        raise CreationError(f"{pack.id} has no creation method {method!r}",
                            expected="one of: " + (", ".join(methods(pack)) or "(no creation_constraints)"))
    values: dict[str, Any] = {}
    if method == "roll":
        for stat, formula in (cc.get("roll") or {}).items():
            try:
                values[pack.canonical(stat) or stat] = compile_dice(str(formula)).roll(rng).total
            except LwError as exc:
                raise CreationError(f"{pack.id}: creation_constraints.roll.{stat}: {exc.message}") from None
        for stat, value in (assign or {}).items():
            values[pack.canonical(stat) or stat] = value
    elif method == "point_buy":
        section = cc["point_buy"]
        table = _cost_table(pack, section)
        cheapest = min(table, key=lambda v: (table[v], v))
        for stat in _stats(pack, section, "point_buy"):
            values[stat] = cheapest
        for stat, value in (assign or {}).items():
            values[pack.canonical(stat) or stat] = int(value)
    else:
        section = cc["array"]
        stats = _stats(pack, section, "array")
        pool = [int(v) for v in section.get("values") or []]
        for stat, value in zip(stats, pool, strict=False):
            values[stat] = value
        for stat, value in (assign or {}).items():
            values[pack.canonical(stat) or stat] = int(value)
    problems = validate(pack, values, method)
    if problems:
        raise CreationError(f"{pack.id} {method}: " + "; ".join(problems))
    return Sheet(pack, values, name=name)
