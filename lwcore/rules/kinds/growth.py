"""``growth``: an improvement roll for a skill.

Keys: ``roll`` (default ``1d100``), ``improve_when`` (a closed-language condition over
``roll`` and ``skill``, default ``roll > skill``), ``gain`` (dice added when it improves,
default ``1d10``) and ``cap`` (the highest the skill grows to).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from lwcore.errors import LwError
from lwcore.rules.dice import compile_dice
from lwcore.rules.expr import BOOL, NUM, Expr, ExprScope, compile_expr
from lwcore.rules.kinds.base import (SubsystemError, SubsystemKind, SubsystemResult, ToolArgument, drawer, number_of,
                                     roll_record)
from lwcore.rules.render import word

if TYPE_CHECKING:
    import random

    from lwcore.rules.commands import CommandCall
    from lwcore.rules.packcheck import PackChecker
    from lwcore.rules.sheet import Sheet
    from lwcore.rules.system import RuleSystem

SCOPE = ExprScope({"roll": NUM, "skill": NUM}, what="improve_when")


def improve_when(data: Mapping[str, Any]) -> Expr:
    """The improvement condition: ``improve_when`` (default ``roll > skill``), or-ed with
    ``roll > auto_success_above`` when given."""
    text = str(data.get("improve_when", "roll > skill"))
    above = data.get("auto_success_above")
    if isinstance(above, int) and not isinstance(above, bool):
        text = f"({text}) || roll > {above}"
    return compile_expr(text, SCOPE, BOOL)


def gain_of(data: Mapping[str, Any]) -> str:
    return str(data.get("gain", data.get("improve", "1d10")))


class Growth(SubsystemKind):
    name = "growth"
    aliases = ("improvement_check",)
    summary = "an improvement roll for a skill"
    keys = {"roll": "the improvement roll (dice)", "improve_when": "condition over roll and skill",
            "gain": "dice added when it improves", "improve": "the same as gain",
            "auto_success_above": "a roll above it always improves", "cap": "the highest the skill grows to"}
    tool_arguments = {"skill": ToolArgument(str, "the skill to improve")}
    required_tool_arguments = frozenset({"skill"})

    def validate(self, data: Mapping[str, Any], check: PackChecker, path: tuple[Any, ...]) -> None:
        check.expression(lambda: improve_when(data), (*path, "improve_when"))
        for key in ("roll", "gain", "improve"):
            if key in data:
                check.dice(data[key], (*path, key))
        check.integer(data, "cap", path)
        check.integer(data, "auto_success_above", path)

    def run(self, pack: RuleSystem, data: Mapping[str, Any], sheet: Sheet | None, *, name: str, skill: str,
            value: int | None = None, rng: random.Random | None = None,
            faces: Sequence[int] | None = None) -> SubsystemResult:
        canonical = pack.canonical(skill) or skill
        current = number_of(sheet, canonical, value)
        try:
            when = improve_when(data)
        except LwError as exc:
            raise SubsystemError(f"{pack.id}: subsystems.{name}.improve_when: {exc.message}") from None
        draw = drawer(rng, faces)
        first = compile_dice(str(data.get("roll", "1d100"))).evaluate(draw)
        rolls = [roll_record(first)]
        improved = bool(when.fn({"roll": first.total, "skill": current}))
        after = current
        if improved:
            gained = compile_dice(gain_of(data)).evaluate(draw)
            rolls.append(roll_record(gained))
            cap = data.get("cap")
            after = current + gained.total if cap is None else min(int(cap), current + gained.total)
            after = max(after, current)
        changes: dict[str, tuple[Any, Any]] = {}
        if sheet is not None and improved:
            changes[canonical] = (sheet.get(canonical), after)
            sheet.set(canonical, after)
        return SubsystemResult(pack.id, name, self.name, "improved" if improved else "unchanged", improved,
                               values={"stat": canonical, "before": current, "after": after,
                                       "gain": after - current, "roll": first.total},
                               changes=changes, rolls=rolls)

    def render(self, pack: RuleSystem, result: SubsystemResult, locale: str) -> str:
        v = result.values
        line = f"{pack.display_name(v['stat'], locale)} {v['before']}: {v['roll']} {word(pack, result.outcome, locale)}"
        if result.success:
            line += f" {v['before']} -> {v['after']} (+{v['gain']})"
        return line

    def command(self, call: CommandCall) -> SubsystemResult:
        args = call.parse()
        if args.stat is None:
            raise call.refuse(f".{call.word}: which skill?", f".{call.word} NAME [VALUE]")
        value = args.value if args.value is not None else call.value_of(args)[1]
        return call.run(skill=args.stat, value=value, faces=call.faces)

    def uses(self, pack: RuleSystem, data: Mapping[str, Any], locale: str) -> list[str]:
        return ["skill"]


KIND = Growth()
