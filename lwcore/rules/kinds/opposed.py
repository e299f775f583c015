"""``opposed``: two check results compared; the higher rank tier wins.

Keys: ``both_fail`` (``draw``: two failures draw), ``tie`` (rules tried in order when the
tiers are equal: ``higher_skill``, ``lower_roll``, ``higher_margin``) and ``final`` (``draw``,
``first`` or ``second`` when no rule decides). It compares two characters' checks, so it has
no dot-command form (a command works on one sheet); a tool call runs it on two sheets: the
character's and the ``opponent``'s kept checks, or two checks it rolls first when it names a
``skill`` (and an ``opponent_skill``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from lwcore.errors import LwError
from lwcore.rules.kept_check import last_check
from lwcore.rules.kinds.base import SubsystemKind, SubsystemResult, ToolArgument
from lwcore.rules.render import word

if TYPE_CHECKING:
    from lwcore.rules.packcheck import PackChecker
    from lwcore.rules.sheet import Sheet
    from lwcore.rules.system import CheckResult, RuleSystem
    from lwcore.rules.tool_calls import SubsystemToolCall

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
    tool_arguments = {
        "opponent": ToolArgument(str, "the other character (member id or name)"),
        "skill": ToolArgument(str, "the skill both characters roll now (leave skill and opponent_skill out to "
                                   "compare both characters' last checks)"),
        "opponent_skill": ToolArgument(str, "the opponent's skill when both checks are rolled now (default: skill)"),
    }
    required_tool_arguments = frozenset({"opponent"})
    headline = "{character} vs {opponent}:"

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

    def tool(self, call: SubsystemToolCall) -> SubsystemResult:
        """The character's check against the opponent's: both kept, or both rolled now."""
        skill, opponent_skill = call.given.get("skill"), call.given.get("opponent_skill")
        other_id, other = call.characters(call.given["opponent"])
        if other is call.sheet:
            raise call.refuse("a character cannot oppose themself", "another character")
        if opponent_skill and not skill:
            raise call.refuse("rolling both checks needs skill", "skill (and opponent_skill)")
        call.extra.update(opponent=other.name, opponent_member=other_id)
        if skill:
            call.extra["checks"] = [call.check(call.sheet, skill), call.check(other, opponent_skill or skill)]
        first, _ = last_check(call.sheet)
        try:
            second, _ = last_check(other)
        except LwError:
            raise call.refuse(f"{other.name} has no earlier check", "opponent_skill to roll one") from None
        return self.run(call.rule_system, call.data, None, name=call.subsystem, first=first, second=second)

    def uses(self, pack: RuleSystem, data: Mapping[str, Any], locale: str) -> list[str]:
        return ["opponent [skill, opponent_skill]"]


KIND = Opposed()
