"""A tool call that runs a pack subsystem, as its kind sees it (:meth:`SubsystemKind.tool`).

A tool (the turn's ``subsystem_check``, or a host's own) builds a :class:`SubsystemToolCall`
from what the model gave and from the characters it can reach, and :func:`run_tool_call` runs
it: the arguments are checked against the kind's declarations
(:attr:`~lwcore.rules.kinds.base.SubsystemKind.tool_arguments`, ``required_tool_arguments``),
then the kind decides how the call maps to its run -- on the character's sheet, on the
character's kept check, or on two characters' checks. A computer- or script-backed subsystem
gets every argument as given. Nothing here names a kind.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lwcore.rules import subsystems
from lwcore.rules.kinds.base import SubsystemError, SubsystemKind, SubsystemResult

if TYPE_CHECKING:
    from lwcore.rules.engine import RulesEngine
    from lwcore.rules.sheet import Sheet
    from lwcore.rules.system import RuleSystem


@dataclass
class SubsystemToolCall:
    """One tool call that runs the subsystem ``subsystem`` (its declared name) for the
    character whose sheet is ``sheet``.

    - ``given``: the arguments the call gave (absent ones left out); :func:`run_tool_call`
      adds the ones the pack command that named the subsystem fixes (``fixed``) beneath them.
    - ``characters(word)``: another character, by member id or name -> ``(member id, sheet)``
      (a :class:`lwcore.errors.LwError` when there is none).
    - ``check(sheet, skill)``: roll a check of ``skill`` on that sheet the way the tool's host
      rolls checks, keep it there as the character's last check, return its JSON outcome.
    - The kind adds to the tool's answer through ``extra`` (what its ``headline`` names).
    """

    engine: RulesEngine | None
    rule_system: RuleSystem
    subsystem: str
    sheet: Sheet
    given: dict[str, Any]
    characters: Callable[[str], tuple[str, Sheet]]
    check: Callable[[Sheet, str], dict[str, Any]]
    rng: random.Random | None = None
    locale: str = "en"
    fixed: Mapping[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def data(self) -> dict[str, Any]:
        """The subsystem's settings in the pack."""
        return subsystems.spec(self.rule_system, self.subsystem)[1]

    def run(self, **kwargs: Any) -> SubsystemResult:
        """Run the subsystem on the character's sheet (changed in place)."""
        return subsystems.run(self.engine, self.rule_system, self.subsystem, self.sheet, rng=self.rng, **kwargs)

    def on_kept(self, want: str | None = None) -> SubsystemResult:
        """Run it on the character's kept check (which becomes its new form); the answer names
        the check's stat."""
        result = subsystems.run_on_kept(self.engine, self.rule_system, self.subsystem, self.sheet, want=want, rng=self.rng)
        self.extra["stat"] = result.values.get("stat")
        return result

    def refuse(self, message: str, expected: str | None = None) -> SubsystemError:
        return SubsystemError(message, expected=expected)


def run_tool_call(call: SubsystemToolCall, kind: SubsystemKind | None) -> SubsystemResult:
    """Run ``call`` with ``kind`` (``None`` for a computer- or script-backed subsystem, which
    gets every argument as given). An argument the kind does not take, one it needs and
    lacks, or a value of the wrong type is refused (:class:`SubsystemError`) before anything
    is rolled."""
    if kind is None:
        call.given = {**call.fixed, **call.given}
        return call.run(**call.given)
    name = call.subsystem
    if not kind.runs_alone:
        raise call.refuse(f"the {name!r} subsystem works on earlier check results; no tool runs it",
                          "a check with its modifiers instead")
    declared = kind.tool_arguments
    foreign = sorted(k for k in call.given if k not in declared)
    if foreign:
        raise call.refuse(f"the {name!r} subsystem does not take {', '.join(foreign)}",
                          "its arguments: " + (", ".join(declared) or "none"))
    given = {k: v for k, v in call.fixed.items() if k in declared}
    given.update((k, declared[k].check(k, v)) for k, v in call.given.items())
    missing = [k for k in declared if k in kind.required_tool_arguments and k not in given]
    if missing:
        raise call.refuse(f"the {name!r} subsystem needs {', '.join(missing)}",
                          "; ".join(f"{k}: {declared[k].description}" for k in missing))
    call.given = given
    return kind.tool(call)
