"""``push``: re-roll a failed check once, with the same target, difficulty, dice and modifier.

Keys: ``forbid_fumble`` (a fumble cannot be pushed). The new check is flagged ``pushed`` (and
``dire`` when it fails again); a pushed check cannot be pushed again. It works on the
character's kept check (:mod:`lwcore.rules.kept_check`), which becomes the pushed one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from lwcore.i18n import kernel_text
from lwcore.rules.kept_check import after_push, last_check, remember_check
from lwcore.rules.kinds.base import SubsystemError, SubsystemKind, SubsystemResult
from lwcore.rules.render import render_check, word

if TYPE_CHECKING:
    import random

    from lwcore.rules.commands import CommandCall
    from lwcore.rules.packcheck import PackChecker
    from lwcore.rules.sheet import Sheet
    from lwcore.rules.system import CheckResult, RuleSystem
    from lwcore.rules.tool_calls import SubsystemToolCall


class Push(SubsystemKind):
    name = "push"
    summary = "re-roll the last failed check once, at higher stakes"
    keys = {"forbid_fumble": "a fumble cannot be pushed"}
    kept_checks = 1

    def validate(self, data: Mapping[str, Any], check: PackChecker, path: tuple[Any, ...]) -> None:
        check.boolean(data, "forbid_fumble", path)

    def run(self, pack: RuleSystem, data: Mapping[str, Any], sheet: Sheet | None, *, name: str,
            previous: CheckResult, pushed: bool = False, rng: random.Random | None = None,
            faces: Sequence[int] | None = None, modifier: int = 0, stat: str | None = None) -> SubsystemResult:
        if pushed or previous.flags.get("pushed"):
            raise SubsystemError("a pushed roll cannot be pushed again")
        if previous.success:
            raise SubsystemError("only a failed check can be pushed")
        if previous.fumble and data.get("forbid_fumble", False):
            raise SubsystemError("a fumble cannot be pushed")
        again = pack.check(previous.raw_target, difficulty=previous.difficulty, variant=previous.variant,
                           modifiers=previous.modifiers, modifier=modifier, params=previous.params, rng=rng,
                           faces=faces)
        flags = {"pushed": True}
        if not again.success:
            flags["dire"] = True
        values: dict[str, Any] = {"rank": again.rank}
        if stat:
            values["stat"] = stat
        return SubsystemResult(pack.id, name, self.name, again.rank, again.success, values=values, flags=flags,
                               check=again)

    def render(self, pack: RuleSystem, result: SubsystemResult, locale: str) -> str:
        assert result.check is not None
        stat = result.values.get("stat")
        return f"{render_check(pack, result.check, locale, stat=stat)} [{word(pack, 'pushed', locale)}]"

    def on_kept(self, pack: RuleSystem, data: Mapping[str, Any], sheet: Sheet, *, name: str,
                want: str | None = None, rng: random.Random | None = None, faces: Sequence[int] | None = None,
                **_: Any) -> SubsystemResult:
        """Push the sheet's kept check; the kept check becomes the pushed one."""
        if want:
            raise SubsystemError("push takes no want", expected="no want")
        check, extras = last_check(sheet)
        result = self.run(pack, data, sheet, name=name, previous=check, modifier=int(extras.get("modifier") or 0),
                          rng=rng, faces=faces, stat=extras.get("stat"))
        remember_check(sheet, after_push(result), **extras)
        return result

    def command(self, call: CommandCall) -> SubsystemResult:
        if call.rest.strip():
            raise call.refuse(f".{call.word} takes nothing: it re-rolls the last check", f".{call.word}")
        return call.on_kept()

    def tool(self, call: SubsystemToolCall) -> SubsystemResult:
        return call.on_kept()

    def uses(self, pack: RuleSystem, data: Mapping[str, Any], locale: str) -> list[str]:
        return [kernel_text("subsystems.last_check", locale)]


KIND = Push()
