"""What a subsystem kind is (:class:`SubsystemKind`), what it returns, and what kinds share.

A kind is one procedure many systems share (a sanity roll, a luck spend, a death-save tally),
configured by a pack's ``subsystems:`` entry. One module per kind holds everything about it:
the keys it reads and how they are checked when the pack loads (:meth:`~SubsystemKind.validate`),
how it runs (:meth:`~SubsystemKind.run`), how its result reads (:meth:`~SubsystemKind.render`),
how a dot command feeds it (:meth:`~SubsystemKind.command`) and which arguments a tool call
may give it (:attr:`~SubsystemKind.tool_arguments`, :meth:`~SubsystemKind.from_tool`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from lwcore.errors import LwError
from lwcore.rules.dice import DIGIT, FUDGE, FaceReplay, compile_dice, rng_drawer
from lwcore.rules.errors import CheckError
from lwcore.rules.render import render_values

if TYPE_CHECKING:
    from lwcore.rules.commands import CommandCall
    from lwcore.rules.packcheck import PackChecker
    from lwcore.rules.sheet import Sheet
    from lwcore.rules.system import CheckResult, RuleSystem


class SubsystemError(CheckError):
    """A subsystem cannot run as asked (unknown, malformed, or refused by its rules)."""


@dataclass
class SubsystemResult:
    """What a subsystem did. ``outcome`` is a short id the pack's labels can name."""

    system: str
    subsystem: str
    kind: str
    outcome: str
    success: bool | None = None
    values: dict[str, Any] = field(default_factory=dict)
    changes: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    flags: dict[str, Any] = field(default_factory=dict)
    rolls: list[dict[str, Any]] = field(default_factory=list)
    check: CheckResult | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "subsystem": self.subsystem,
            "kind": self.kind,
            "outcome": self.outcome,
            "success": self.success,
            "values": dict(self.values),
            "changes": {k: list(v) for k, v in self.changes.items()},
            "flags": dict(self.flags),
            "rolls": list(self.rolls),
            "check": self.check.to_json() if self.check is not None else None,
        }


TOOL_ARGUMENTS = ("loss", "skill", "table", "bonus", "penalty", "modifier")
"""The arguments a tool call may give a subsystem (besides ``args`` for a computer)."""

COMMON_KEYS = {"kind": "which kind runs it (default: the subsystem's name)",
               "template": "the same as kind (the word other engines use)", "display": "its name per locale",
               "computer": "a plugin's computer runs it instead", "script": "a sandbox script runs it instead",
               "label": "its name for people", "description": "what it does"}


class SubsystemKind:
    """One kind of subsystem. Subclass it in a module of :mod:`lwcore.rules.kinds` and set
    ``KIND = YourKind()`` there; override what the kind needs.

    - ``name``: the ``kind:`` word; ``aliases``: other words for the same kind.
    - ``keys``: the pack keys it reads (key -> what it means); others get a warning.
    - ``stat_keys``: keys that must name a stat of the pack (checked at load).
    - ``tool_arguments`` / ``required_tool_arguments``: what a tool call may / must give.
    - ``kept_checks``: how many characters' most recent checks it works on (1: a luck spend or a
      push, on one character's, through ``on_kept``; 2: an opposed roll); 0 rolls its own.
    - ``runs_alone``: ``False`` for a kind applied inside other checks (never run by itself).
    """

    name: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    summary: ClassVar[str] = ""
    keys: ClassVar[Mapping[str, str]] = {}
    stat_keys: ClassVar[tuple[str, ...]] = ()
    tool_arguments: ClassVar[frozenset[str]] = frozenset()
    required_tool_arguments: ClassVar[frozenset[str]] = frozenset()
    kept_checks: ClassVar[int] = 0
    runs_alone: ClassVar[bool] = True

    # --- load time ------------------------------------------------------------------------

    def validate(self, data: Mapping[str, Any], check: PackChecker, path: tuple[Any, ...]) -> None:
        """Record every problem of ``data`` (this kind's settings) with ``check``; the common
        part (stat keys, unknown keys) is done by :meth:`check_common`."""

    def check_common(self, data: Mapping[str, Any], check: PackChecker, path: tuple[Any, ...]) -> None:
        for key in self.stat_keys:
            if key not in data:
                check.error(f"a {self.name} subsystem needs {key}:", path, expected=f"{key}: <a stat name>")
            else:
                check.stat(data[key], (*path, key))
        known = {**COMMON_KEYS, **self.keys}
        for key in data:
            if key not in known:
                check.unknown_key(key, path, known)

    # --- running --------------------------------------------------------------------------

    def run(self, pack: RuleSystem, data: Mapping[str, Any], sheet: Sheet | None, *, name: str,
            **kwargs: Any) -> SubsystemResult:
        raise SubsystemError(f"{pack.id}: the {self.name!r} kind does not run on its own")

    def render(self, pack: RuleSystem, result: SubsystemResult, locale: str) -> str:
        """The result as one line in ``locale``, through the pack's labels."""
        return render_values(pack, result, locale)

    # --- the doors: a dot command, a tool call --------------------------------------------

    def command(self, call: CommandCall) -> SubsystemResult:
        """Run for a dot command (``call.rest`` is the text after the command word)."""
        raise call.refuse(f"the {call.subsystem!r} subsystem has no command form", "use the API")

    def from_tool(self, subsystem: str, given: Mapping[str, Any], locale: str) -> dict[str, Any]:
        """The engine's keyword arguments for a tool call that gave ``given`` (only the
        arguments this kind takes, already checked against :attr:`tool_arguments`)."""
        return dict(given)

    def tool_kwargs(self, subsystem: str, given: Mapping[str, Any], locale: str) -> dict[str, Any]:
        """:meth:`from_tool` after refusing arguments this kind does not take or lacks."""
        extra = sorted(k for k, v in given.items() if v and k not in self.tool_arguments)
        if extra:
            raise LwError(f"the {subsystem!r} subsystem does not take {', '.join(extra)}",
                          expected="its arguments: " + (", ".join(sorted(self.tool_arguments)) or "none"))
        missing = sorted(k for k in self.required_tool_arguments if not given.get(k))
        if missing:
            raise LwError(f"the {subsystem!r} subsystem needs {', '.join(missing)}",
                          expected=self.tool_hint(missing[0]))
        return self.from_tool(subsystem, {k: v for k, v in given.items() if v}, locale)

    def tool_hint(self, argument: str) -> str:
        return argument

    def uses(self, pack: RuleSystem, data: Mapping[str, Any], locale: str) -> list[str]:
        """What a tool call gives it, in a few words (the prompt's list of subsystems)."""
        return sorted(self.tool_arguments)


# --- shared helpers ------------------------------------------------------------------------------


def drawer(rng: random.Random | None, faces: Sequence[int] | None) -> Callable[[int], int]:
    """One stream of dice for a whole procedure: ``faces`` replays it (then ``rng``)."""
    return FaceReplay(faces, fallback=rng_drawer(rng)) if faces is not None else rng_drawer(rng)


def roll_record(result: Any) -> dict[str, Any]:
    return {"expr": result.expr, "total": result.total, "faces": result.faces}


def dice_max(expr: str) -> int:
    """The largest total of a dice expression (every die at its highest face)."""

    def top(sides: int) -> int:
        return 1 if sides == FUDGE else 9 if sides == DIGIT else sides

    compiled = compile_dice(str(expr))
    if "!" in compiled.text:
        raise SubsystemError(f"{expr!r}: an exploding roll has no maximum")
    return compiled.evaluate(top).total


def stat_of(data: Mapping[str, Any], key: str, pack: RuleSystem, default: str | None = None) -> str:
    """The canonical stat the setting ``key`` names."""
    name = data.get(key, default)
    if not isinstance(name, str) or not name:
        raise SubsystemError(f"{pack.id}: subsystem needs {key}: (a stat name)")
    return pack.canonical(name) or name


def number_of(sheet: Sheet | None, name: str, given: int | None) -> int:
    """``given``, else the sheet's number for ``name``."""
    if given is not None:
        return int(given)
    if sheet is None:
        raise SubsystemError(f"needs a value for {name} (give it, or a sheet)")
    value = sheet.get(name)
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise SubsystemError(f"the sheet has no number for {name}")
    return int(value)


def set_stat(sheet: Sheet | None, stat: str, value: Any, changes: dict[str, tuple[Any, Any]]) -> None:
    """Set ``stat`` on ``sheet`` (when there is one), recording ``(before, after)``."""
    if sheet is not None:
        before = sheet.get(stat)
        sheet.set(stat, value)
        changes[stat] = (before, value)
