"""``luck``: spend a stat to lower a one-die roll to a better rank.

Keys: ``stat`` (what is spent) and ``forbid_fumble`` (default true: luck never buys off a
fumble; also ``template: resource_spend_adjust``). The cost is the roll's drop to the wanted rank (or, with none named, to the next
better success), never more than is held. It works on the character's kept check
(:mod:`lwcore.rules.kept_check`), which becomes the bought one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from lwcore.i18n import kernel_text
from lwcore.rules.kept_check import after_luck, last_check, rank_named, remember_check
from lwcore.rules.kinds.base import SubsystemError, SubsystemKind, SubsystemResult, ToolArgument, number_of, stat_of
from lwcore.rules.render import word

if TYPE_CHECKING:
    from lwcore.rules.commands import CommandCall
    from lwcore.rules.packcheck import PackChecker
    from lwcore.rules.sheet import Sheet
    from lwcore.rules.system import CheckResult, RuleSystem
    from lwcore.rules.tool_calls import SubsystemToolCall


class Luck(SubsystemKind):
    name = "luck"
    aliases = ("resource_spend_adjust",)
    summary = "spend a stat to lower the last roll to a better result"
    keys = {"stat": "the stat spent", "forbid_fumble": "luck never buys off a fumble (default true)"}
    stat_keys = ("stat",)
    kept_checks = 1
    tool_arguments = {"want": ToolArgument(str, "the result level to buy (default: the next success level)")}

    def validate(self, data: Mapping[str, Any], check: PackChecker, path: tuple[Any, ...]) -> None:
        check.boolean(data, "forbid_fumble", path)

    def run(self, pack: RuleSystem, data: Mapping[str, Any], sheet: Sheet | None, *, name: str,
            check: CheckResult, want: str | None = None, held: int | None = None,
            apply: bool = True) -> SubsystemResult:
        """Lower ``check.roll`` until its rank is ``want`` (a rank id; default: the first
        better success reachable)."""
        stat = stat_of(data, "stat", pack)
        have = number_of(sheet, stat, held)
        if check.fumble and data.get("forbid_fumble", True):
            raise SubsystemError("luck cannot buy off a fumble")
        if check.raw_target is None:
            raise SubsystemError("luck needs a check with a target")
        rolls = list(range(check.roll, 0, -1))
        ranks = pack.outcomes(check.raw_target, rolls, difficulty=check.difficulty, variant=check.variant)
        wanted_tier = None
        if want is not None:
            match = [r for r in ranks if r.id == want]
            if not match:
                raise SubsystemError(f"no roll at or below {check.roll} reaches {want!r}",
                                     expected="a better result than the check has")
            wanted_tier = match[0].tier
        for value, rank in zip(rolls, ranks, strict=True):
            good = rank.tier >= wanted_tier if wanted_tier is not None else rank.success and rank.tier > check.tier
            if good:
                cost, reached = check.roll - value, rank
                break
        else:
            raise SubsystemError("no better result can be bought")
        if cost > have:
            raise SubsystemError(f"needs {cost} {stat} but only {have} is held")
        changes: dict[str, tuple[Any, Any]] = {}
        if apply and sheet is not None and cost:
            changes[stat] = (sheet.get(stat), have - cost)
            sheet.set(stat, have - cost)
        return SubsystemResult(pack.id, name, self.name, reached.id, reached.success,
                               values={"stat": stat, "cost": cost, "before": have, "after": have - cost,
                                       "roll": check.roll, "new_roll": check.roll - cost, "rank": reached.id},
                               changes=changes)

    def render(self, pack: RuleSystem, result: SubsystemResult, locale: str) -> str:
        v = result.values
        return f"{pack.display_name(v['stat'], locale)} {word(pack, 'cost', locale)} {v['cost']}: " \
               f"{v['roll']} -> {v['new_roll']} {pack.label(result.outcome, locale)}"

    def on_kept(self, pack: RuleSystem, data: Mapping[str, Any], sheet: Sheet, *, name: str,
                want: str | None = None, **_: Any) -> SubsystemResult:
        """Spend on the sheet's kept check; the kept check becomes the bought one."""
        check, extras = last_check(sheet)
        result = self.run(pack, data, sheet, name=name, check=check, want=rank_named(pack, want))
        remember_check(sheet, after_luck(pack, check, result), **extras)
        return result

    def command(self, call: CommandCall) -> SubsystemResult:
        return call.on_kept(want=call.rest.strip() or None)

    def tool(self, call: SubsystemToolCall) -> SubsystemResult:
        return call.on_kept(want=call.given.get("want"))

    def uses(self, pack: RuleSystem, data: Mapping[str, Any], locale: str) -> list[str]:
        return [kernel_text("subsystems.last_check", locale)]


KIND = Luck()
