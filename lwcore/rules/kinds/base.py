"""What a subsystem kind is (:class:`SubsystemKind`), what it returns, and what kinds share.

A kind is one procedure many systems share (a sanity roll, a luck spend, a death-save tally),
configured by a pack's ``subsystems:`` entry. One module per kind holds everything about it:
the keys it reads and how they are checked when the pack loads (:meth:`~SubsystemKind.validate`),
how it runs (:meth:`~SubsystemKind.run`), how its result reads (:meth:`~SubsystemKind.render`),
how a dot command feeds it (:meth:`~SubsystemKind.command`), which arguments a tool call may
give it (:attr:`~SubsystemKind.tool_arguments`, each a :class:`ToolArgument`) and how such a
call runs it (:meth:`~SubsystemKind.tool`). The turn builds its ``subsystem_check`` tool from
these declarations alone, so it never names a kind.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from lwcore.rules.dice import DIGIT, FUDGE, FaceReplay, compile_dice, rng_drawer
from lwcore.rules.errors import CheckError
from lwcore.rules.render import render_values

if TYPE_CHECKING:
    from lwcore.rules.commands import CommandCall
    from lwcore.rules.packcheck import PackChecker
    from lwcore.rules.sheet import Sheet
    from lwcore.rules.system import CheckResult, RuleSystem
    from lwcore.rules.tool_calls import SubsystemToolCall


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


@dataclass(frozen=True)
class ToolArgument:
    """One argument a tool call may give a kind: a field of the turn's ``subsystem_check`` tool.

    ``type`` is ``str`` (text ``low`` to ``high`` characters long; absent: ``None``) or ``int``
    (a whole number from ``low`` to ``high``; absent: 0). ``description`` tells the model what
    to give. Kinds that take an argument of the same name must agree on its type and bounds.
    """

    type: type
    description: str
    low: int = 1
    high: int = 64

    def __post_init__(self) -> None:
        if self.type not in (str, int):
            raise TypeError(f"a tool argument is text (str) or a whole number (int), not {self.type!r}")

    @property
    def default(self) -> Any:
        """What the argument is when a call leaves it out."""
        return 0 if self.type is int else None

    def same_shape(self, other: ToolArgument) -> bool:
        return (self.type, self.low, self.high) == (other.type, other.low, other.high)

    def check(self, name: str, value: Any) -> Any:
        """``value`` when it fits; a :class:`SubsystemError` saying what fits otherwise."""
        if self.type is int:
            if not isinstance(value, int) or isinstance(value, bool) or not self.low <= value <= self.high:
                raise SubsystemError(f"{name} is {value!r}", expected=f"a whole number from {self.low} to {self.high}")
        elif not isinstance(value, str) or not self.low <= len(value) <= self.high:
            raise SubsystemError(f"{name} is {value!r}", expected=f"text of {self.low} to {self.high} characters")
        return value


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
    - ``tool_arguments``: name -> :class:`ToolArgument`, what a tool call may give it (they
      become fields of the turn's ``subsystem_check`` tool); ``required_tool_arguments``: the
      names a call must give.
    - ``kept_checks``: how many characters' most recent checks it works on (1: a luck spend or a
      push, on one character's, through ``on_kept``; 2: an opposed roll); 0 rolls its own.
    - ``runs_alone``: ``False`` for a kind applied inside other checks (never run by itself).
    - ``headline``: how a line about one run starts, filled from the tool's answer
      (``{character}``; an opposed roll names both sides).
    """

    name: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    summary: ClassVar[str] = ""
    keys: ClassVar[Mapping[str, str]] = {}
    stat_keys: ClassVar[tuple[str, ...]] = ()
    tool_arguments: ClassVar[Mapping[str, ToolArgument]] = {}
    required_tool_arguments: ClassVar[frozenset[str]] = frozenset()
    kept_checks: ClassVar[int] = 0
    runs_alone: ClassVar[bool] = True
    headline: ClassVar[str] = "{character}"

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

    if TYPE_CHECKING:
        # ``run(pack, data, sheet, *, name, **keywords)``: each kind declares the keywords it
        # takes (the rulepack's tool call chooses them), so no one signature fits every kind.
        run: Callable[..., SubsystemResult]
    else:
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

    def tool(self, call: SubsystemToolCall) -> SubsystemResult:
        """Run for a tool call (``call.given``: the arguments it gave, already checked against
        :attr:`tool_arguments`): by default on the character's sheet, with those arguments as
        the keyword arguments of :meth:`run`."""
        return call.run(**call.given)

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
