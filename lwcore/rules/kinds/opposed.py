"""``opposed``: two check results compared; the higher rank tier wins.

Keys: ``both_fail`` (``draw``: two failures draw), ``tie`` (rules tried in order when the
tiers are equal: ``higher_skill``, ``lower_roll``, ``higher_margin``) and ``final`` (``draw``,
``first`` or ``second`` when no rule decides). It compares two characters' checks, so it has
no dot-command form (a command works on one sheet); the turn's tool runs it on two sheets.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from lwcore.rules.kinds.base import SubsystemKind, SubsystemResult
from lwcore.rules.render import word

if TYPE_CHECKING:
    from lwcore.rules.packcheck import PackChecker
    from lwcore.rules.sheet import Sheet
    from lwcore.rules.system import CheckResult, RuleSystem

TIE_RULES = ("higher_skill", "lower_roll", "higher_margin")
FINALS = ("draw", "first", "second")


def _tie(rule: str, first: CheckResult, second: CheckResult) -> str | None:
    """The winner a tie rule picks (``None`` when it does not decide)."""
    if rule == "higher_skill":
        a, b = first.raw_target, second.raw_target
        if a is None or b is None or a == b:
            return None
        return "first" if a > b else "second"
    if rule == "lower_roll":
        return None if first.roll == second.roll else ("first" if first.roll < second.roll else "second")
    if first.margin == second.margin or first.margin is None or second.margin is None:
        return None
    return "first" if first.margin > second.margin else "second"


class Opposed(SubsystemKind):
    name = "opposed"
    summary = "two characters' checks compared"
    keys = {"tie": "rules for equal tiers: higher_skill, lower_roll, higher_margin",
            "both_fail": "draw: two failures draw", "final": "draw | first | second when nothing decides"}
    kept_checks = 2

    def validate(self, data: Mapping[str, Any], check: PackChecker, path: tuple[Any, ...]) -> None:
        tie = data.get("tie") or []
        if not isinstance(tie, list):
            check.error("tie is a list of rules", (*path, "tie"), expected=", ".join(TIE_RULES))
            tie = []
        for i, rule in enumerate(tie):
            if rule not in TIE_RULES:
                check.error(f"unknown tie rule {rule!r}", (*path, "tie", i), expected=", ".join(TIE_RULES))
        if data.get("final", "draw") not in FINALS:
            check.error("final must be draw, first or second", (*path, "final"))
        if data.get("both_fail", "draw") not in ("draw", "tier"):
            check.error("both_fail must be draw or tier", (*path, "both_fail"))

    def run(self, pack: RuleSystem, data: Mapping[str, Any], sheet: Sheet | None, *, name: str,
            first: CheckResult, second: CheckResult) -> SubsystemResult:
        """Higher rank tier wins (two failures draw unless ``both_fail`` says otherwise); equal
        tiers go by the ``tie`` rules, then ``final``."""
        winner: str | None = None
        decided_by = "tier"
        if not first.success and not second.success and data.get("both_fail", "draw") == "draw":
            winner, decided_by = "draw", "both_fail"
        elif first.tier != second.tier:
            winner = "first" if first.tier > second.tier else "second"
        else:
            for rule in data.get("tie", ["higher_skill"]) or []:
                winner = _tie(rule, first, second)
                if winner is not None:
                    decided_by = rule
                    break
            else:
                winner, decided_by = str(data.get("final", "draw")), "final"
        return SubsystemResult(pack.id, name, self.name, winner, None,
                               values={"winner": winner, "decided_by": decided_by,
                                       "first": first.to_json(), "second": second.to_json()})

    def render(self, pack: RuleSystem, result: SubsystemResult, locale: str) -> str:
        return word(pack, result.outcome, locale)

    def uses(self, pack: RuleSystem, data: Mapping[str, Any], locale: str) -> list[str]:
        return ["opponent [skill, opponent_skill]"]


KIND = Opposed()
