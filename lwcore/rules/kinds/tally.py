"""``tally``: a check whose ranks add to counters until one side ends it (death saves).

Keys: ``target`` (the fixed number to beat), ``variant`` (the ranks it uses),
``success_stat`` / ``failure_stat`` (the counters), ``successes_needed`` / ``failures_needed``
(default 3 each) and ``regain_stat`` (set to the rank's ``regain`` flag, clearing both
counters). The ranks say how much each result counts with their flags ``tally_success``,
``tally_failure`` and ``regain``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from lwcore.rules.kinds.base import SubsystemKind, SubsystemResult, ToolArgument, set_stat, stat_of
from lwcore.rules.render import render_check, word

if TYPE_CHECKING:
    import random

    from lwcore.rules.commands import CommandCall
    from lwcore.rules.packcheck import PackChecker
    from lwcore.rules.sheet import Sheet
    from lwcore.rules.system import RuleSystem

ENDINGS = ("regain", "ended_success", "ended_failure")


class Tally(SubsystemKind):
    name = "tally"
    summary = "a check whose results count toward an end (death saves)"
    keys = {"target": "the number to beat", "variant": "the ranks it uses", "success_stat": "success counter",
            "failure_stat": "failure counter", "successes_needed": "successes that end it",
            "failures_needed": "failures that end it", "regain_stat": "set by a regain rank"}
    stat_keys = ("success_stat", "failure_stat")
    tool_arguments = {"modifier": ToolArgument(int, "added to its roll", -100, 100)}

    def validate(self, data: Mapping[str, Any], check: PackChecker, path: tuple[Any, ...]) -> None:
        if data.get("variant") is not None and data["variant"] not in check.variants:
            check.error(f"unknown variant {data['variant']!r}", (*path, "variant"),
                        expected="one of: " + (", ".join(sorted(check.variants)) or "(none declared)"))
        if data.get("regain_stat") is not None:
            check.stat(data["regain_stat"], (*path, "regain_stat"))
        for key in ("target", "successes_needed", "failures_needed"):
            check.integer(data, key, path)

    def run(self, pack: RuleSystem, data: Mapping[str, Any], sheet: Sheet | None, *, name: str,
            rng: random.Random | None = None, faces: Sequence[int] | None = None, roll: int | None = None,
            modifier: int = 0) -> SubsystemResult:
        target = data.get("target")
        check = pack.check(int(target) if target is not None else None, variant=data.get("variant"),
                           modifier=modifier, rng=rng, faces=faces, roll=roll)
        ok_stat = stat_of(data, "success_stat", pack)
        bad_stat = stat_of(data, "failure_stat", pack)
        ok_need = int(data.get("successes_needed", 3))
        bad_need = int(data.get("failures_needed", 3))
        before_ok = int(sheet.get(ok_stat, 0) or 0) if sheet is not None else 0
        before_bad = int(sheet.get(bad_stat, 0) or 0) if sheet is not None else 0
        ok = before_ok + int(check.flags.get("tally_success", 0))
        bad = before_bad + int(check.flags.get("tally_failure", 0))
        flags: dict[str, Any] = {}
        changes: dict[str, tuple[Any, Any]] = {}
        regain = int(check.flags.get("regain", 0))
        outcome = check.rank
        if regain:
            flags["regained"] = regain
            ok, bad, outcome = 0, 0, "regain"
            if data.get("regain_stat"):
                set_stat(sheet, stat_of(data, "regain_stat", pack), regain, changes)
        elif bad >= bad_need:
            flags["ended"], outcome = "failure", "ended_failure"
        elif ok >= ok_need:
            flags["ended"], outcome = "success", "ended_success"
        ok, bad = min(ok, ok_need), min(bad, bad_need)
        if ok != before_ok:
            set_stat(sheet, ok_stat, ok, changes)
        if bad != before_bad:
            set_stat(sheet, bad_stat, bad, changes)
        if sheet is None:
            changes = {}
        return SubsystemResult(pack.id, name, self.name, outcome, check.success,
                               values={"successes": ok, "failures": bad, "roll": check.roll,
                                       "successes_needed": ok_need, "failures_needed": bad_need},
                               changes=changes, flags=flags, check=check)

    def render(self, pack: RuleSystem, result: SubsystemResult, locale: str) -> str:
        v = result.values
        assert result.check is not None
        line = f"{render_check(pack, result.check, locale)}; {word(pack, 'successes', locale)} {v['successes']}/" \
               f"{v['successes_needed']} {word(pack, 'failures', locale)} {v['failures']}/{v['failures_needed']}"
        if result.outcome in ENDINGS:
            line += f" [{word(pack, result.outcome, locale)}]"
        return line

    def command(self, call: CommandCall) -> SubsystemResult:
        return call.run(faces=call.faces)


KIND = Tally()
