"""``sanity``: roll the pack's check against a stat and lose ``SUCCESS/FAILURE`` dice.

Keys: ``stat`` (the stat rolled against and lost), ``floor`` (lowest value, default 0),
``fumble_loss`` (``max``: a fumble loses the failure expression's maximum; ``roll``: roll it;
``all``: a fumble loses everything down to the floor), ``stat_max`` (the stat's maximum, for
hosts; also ``template: check_with_loss``),
``temporary_at`` (flag ``temporary`` when one roll loses this much or more) and
``permanent_at`` (flag ``permanent`` when the stat falls to it or below). The flags are kept in
the sheet's ``state`` under the subsystem's name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from lwcore.errors import LwError
from lwcore.rules.dice import compile_dice
from lwcore.rules.kinds.base import (SubsystemError, SubsystemKind, SubsystemResult, ToolArgument, dice_max, drawer,
                                     number_of, set_stat, stat_of)
from lwcore.rules.render import render_check, word

if TYPE_CHECKING:
    import random

    from lwcore.rules.commands import CommandCall
    from lwcore.rules.packcheck import PackChecker
    from lwcore.rules.sheet import Sheet
    from lwcore.rules.system import RuleSystem


def split_loss(text: str) -> tuple[str, str]:
    """``"1/1d6"`` -> ``("1", "1d6")``: the first ``/`` separates success from failure."""
    text = str(text).strip()
    ok, sep, bad = text.partition("/")
    if not sep or not ok.strip() or not bad.strip():
        raise SubsystemError(f"loss {text!r} must be SUCCESS/FAILURE", expected="e.g. 0/1d6 or 1/1d10+1")
    for part in (ok, bad):
        try:
            compile_dice(part.strip())
        except LwError as exc:
            raise SubsystemError(f"loss {text!r}: {exc.message}", expected=exc.expected) from None
    return ok.strip(), bad.strip()


class Sanity(SubsystemKind):
    name = "sanity"
    aliases = ("check_with_loss",)
    summary = "a check against a stat that loses SUCCESS/FAILURE dice of it"
    keys = {"stat": "the stat rolled against and lost", "floor": "the lowest it falls to",
            "fumble_loss": "max | roll | all: what a fumble loses", "temporary_at": "a loss that flags temporary",
            "stat_max": "the stat's maximum (for hosts)",
            "permanent_at": "a value that flags permanent", "loss": "the shape of a loss (for hosts)"}
    stat_keys = ("stat",)
    tool_arguments = {
        "loss": ToolArgument(str, "SUCCESS/FAILURE loss, e.g. 0/1d6", 3, 100),
        "bonus": ToolArgument(int, "bonus dice on its check", 0, 10),
        "penalty": ToolArgument(int, "penalty dice on its check", 0, 10),
    }
    required_tool_arguments = frozenset({"loss"})

    def validate(self, data: Mapping[str, Any], check: PackChecker, path: tuple[Any, ...]) -> None:
        if data.get("fumble_loss", "max") not in ("max", "roll", "all"):
            check.error("fumble_loss must be max, roll or all", (*path, "fumble_loss"))
        if data.get("stat_max") is not None:
            check.stat(data["stat_max"], (*path, "stat_max"))
        for key in ("floor", "temporary_at", "permanent_at"):
            check.integer(data, key, path)

    def run(self, pack: RuleSystem, data: Mapping[str, Any], sheet: Sheet | None, *, name: str, loss: str,
            value: int | None = None, bonus: int = 0, penalty: int = 0, rng: random.Random | None = None,
            faces: Sequence[int] | None = None, roll: int | None = None) -> SubsystemResult:
        stat = stat_of(data, "stat", pack)
        ok_expr, bad_expr = split_loss(loss)
        current = number_of(sheet, stat, value)
        # one stream of dice for the check and the loss, so ``faces`` replays the whole procedure
        draw = drawer(rng, faces)
        if roll is not None:
            check = pack.check(current, bonus=bonus, penalty=penalty, rng=rng, roll=roll)
        else:
            check = pack.check(current, bonus=bonus, penalty=penalty, draw=draw)
        rolls: list[dict[str, Any]] = []
        floor = int(data.get("floor", 0))
        fumble_loss = data.get("fumble_loss", "max")
        if check.fumble and fumble_loss == "all":
            amount, used = max(0, current - floor), bad_expr
            rolls.append({"expr": bad_expr, "total": amount, "faces": [], "all": True})
        elif check.fumble and fumble_loss == "max":
            amount, used = dice_max(bad_expr), bad_expr
            rolls.append({"expr": bad_expr, "total": amount, "faces": [], "maximum": True})
        else:
            used = ok_expr if check.success else bad_expr
            lost_roll = compile_dice(used).evaluate(draw)
            amount = max(0, lost_roll.total)
            rolls.append({"expr": used, "total": amount, "faces": lost_roll.faces})
        after = max(floor, current - amount)
        lost = current - after
        flags: dict[str, Any] = {}
        if data.get("temporary_at") is not None and lost >= int(data["temporary_at"]):
            flags["temporary"] = True
        if data.get("permanent_at") is not None and after <= int(data["permanent_at"]):
            flags["permanent"] = True
        changes: dict[str, tuple[Any, Any]] = {}
        set_stat(sheet, stat, after, changes)
        if sheet is not None and flags:
            sheet.state.setdefault(name, {}).update(flags)
        outcome = "fumble" if check.fumble else ("success" if check.success else "failure")
        return SubsystemResult(pack.id, name, self.name, outcome, check.success,
                               values={"stat": stat, "before": current, "after": after, "loss": lost, "expr": used,
                                       "loss_text": f"{ok_expr}/{bad_expr}"},
                               changes=changes, flags=flags, rolls=rolls, check=check)

    def render(self, pack: RuleSystem, result: SubsystemResult, locale: str) -> str:
        v = result.values
        assert result.check is not None
        shown = pack.display_name(v["stat"], locale)
        line = f"{shown} {v['loss_text']}: {render_check(pack, result.check, locale)}; " \
               f"{shown} {v['before']} -> {v['after']} (-{v['loss']})"
        for flag in ("temporary", "permanent"):
            if result.flags.get(flag):
                line += f" [{word(pack, flag, locale)}]"
        return line

    def command(self, call: CommandCall) -> SubsystemResult:
        tokens = call.rest.split()
        loss = next((t for t in tokens if "/" in t), None)
        if loss is None:
            raise call.refuse(f".{call.word} needs SUCCESS/FAILURE loss", f".{call.word} 1/1d6")
        args = call.parse(" ".join(t for t in tokens if t is not loss))
        return call.run(loss=loss, value=args.value, bonus=args.modifiers.get("bonus", 0),
                        penalty=args.modifiers.get("penalty", 0), faces=call.faces)

    def uses(self, pack: RuleSystem, data: Mapping[str, Any], locale: str) -> list[str]:
        return ["loss S/F"]


KIND = Sanity()
