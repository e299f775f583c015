"""Named derived-stat computers for coc7 (deterministic, no IO).

The damage-bonus and build tables are also in the pack as ``sum_ranges`` (up to STR+SIZ 524);
these computers extend them without a bound (+1d6 / +1 build for every further 80 points).
Movement depends on comparisons and age, which the declarative forms do not express.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _num(values: Mapping[str, Any], name: str) -> int:
    value = values.get(name, 0)
    return int(value) if value is not None else 0


def _band(total: int) -> int:
    """Build for STR+SIZ: -2 (2–64), -1 (65–84), 0 (85–124), 1 (125–164), 2 (165–204), then +1 per 80."""
    if total <= 64:
        return -2
    if total <= 84:
        return -1
    if total <= 124:
        return 0
    if total <= 164:
        return 1
    if total <= 204:
        return 2
    return 3 + (total - 205) // 80


def build(values: Mapping[str, Any]) -> int:
    return _band(_num(values, "力量") + _num(values, "体型"))


def damage_bonus(values: Mapping[str, Any]) -> str:
    band = _band(_num(values, "力量") + _num(values, "体型"))
    if band <= 0:
        return str(band)
    if band == 1:
        return "+1d4"
    return f"+{band - 1}d6"


def movement(values: Mapping[str, Any]) -> int:
    dex, strength, size = _num(values, "敏捷"), _num(values, "力量"), _num(values, "体型")
    if dex < size and strength < size:
        base = 7
    elif dex > size and strength > size:
        base = 9
    else:
        base = 8
    age = _num(values, "年龄")
    if age >= 40:
        base -= min((age - 30) // 10, 5)
    return base
