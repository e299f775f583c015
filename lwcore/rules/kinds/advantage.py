"""``advantage``: how opposing modifiers net before a check rolls.

Keys: ``pair`` (the two modifiers, default ``[advantage, disadvantage]``), ``cancel`` (``all``:
any of each cancels all of the other; ``net``: the difference counts), ``max`` (the most either
way, default 1) and ``house: {NAME: all|net}`` (named house rules a check may choose). It never
runs by itself: every check with a modifier of the pair is netted through it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from lwcore.rules.kinds.base import SubsystemError, SubsystemKind, SubsystemResult

if TYPE_CHECKING:
    from lwcore.rules.packcheck import PackChecker
    from lwcore.rules.sheet import Sheet
    from lwcore.rules.system import RuleSystem

MODES = ("all", "net")
DEFAULT_PAIR = ("advantage", "disadvantage")


def pair_of(data: Mapping[str, Any]) -> tuple[str, str]:
    pair = data.get("pair")
    if not pair:
        return DEFAULT_PAIR
    up, down = (list(pair) + list(DEFAULT_PAIR))[:2]
    return str(up), str(down)


def net(data: Mapping[str, Any], gains: int, losses: int, rule: str | None = None) -> dict[str, int]:
    """Modifier counts after the cancelling rule (``rule`` picks a ``house:`` one)."""
    mode = data.get("cancel", "all")
    if rule is not None:
        house = data.get("house") or {}
        if rule not in house:
            raise SubsystemError(f"no advantage rule {rule!r}", expected="one of: " + (", ".join(house) or "none"))
        mode = house[rule]
    gains, losses = max(0, gains), max(0, losses)
    most = data.get("max", 1)
    if mode == "all":
        if gains and losses:
            return {}
        g, lo = min(gains, most), min(losses, most)
    elif mode == "net":
        n = gains - losses
        g, lo = (min(n, most), 0) if n > 0 else (0, min(-n, most))
    else:
        raise SubsystemError(f"advantage cancel: {mode!r} is not all or net")
    up, down = pair_of(data)
    out = {}
    if g:
        out[up] = g
    if lo:
        out[down] = lo
    return out


class Advantage(SubsystemKind):
    name = "advantage"
    summary = "how opposing modifiers net before a check"
    keys = {"pair": "the two modifiers", "cancel": "all | net", "max": "the most either way",
            "house": "NAME -> all | net"}
    runs_alone = False

    def validate(self, data: Mapping[str, Any], check: PackChecker, path: tuple[Any, ...]) -> None:
        for i, mod in enumerate(pair_of(data)):
            if mod not in check.modifiers:
                check.error(f"advantage names the modifier {mod!r}, which resolution does not declare",
                            (*path, "pair", i) if data.get("pair") else path,
                            expected="one of: " + (", ".join(sorted(check.modifiers)) or "(none)"))
        house = data.get("house") or {}
        if not isinstance(house, Mapping):
            check.error("house is NAME -> all | net", (*path, "house"))
            house = {}
        for where, mode in [(("cancel",), data.get("cancel", "all")), *((("house", k), v) for k, v in house.items())]:
            if mode not in MODES:
                check.error(f"cancel mode {mode!r} is not all or net", (*path, *where), expected="all or net")
        check.integer(data, "max", path)

    def run(self, pack: RuleSystem, data: Mapping[str, Any], sheet: Sheet | None, *, name: str, gains: int = 0,
            losses: int = 0, rule: str | None = None) -> SubsystemResult:
        return SubsystemResult(pack.id, name, self.name, "net", None,
                               values={"modifiers": net(data, gains, losses, rule)})


KIND = Advantage()
