"""Argument models and handlers of the kernel's own tools (see :mod:`lwcore.turn.toolspecs`).

A handler receives the validated arguments and a :class:`ToolContext`; it returns a
JSON-serialisable result or raises :class:`ToolError` (the model gets a tool error, the turn
goes on). Plugin tools receive the same :class:`ToolContext`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from lwcore.errors import LwError
from lwcore.rules import engine_for, kinds
from lwcore.rules.dice import roll
from lwcore.rules.kinds import ToolArgument
from lwcore.rules.render import word
from lwcore.rules.subsystems import headline, render_subsystem
from lwcore.rules.tool_calls import SubsystemToolCall, run_tool_call
from lwcore.turn import sheet_rolls
from lwcore.turn.event_lines import check_line
from lwcore.turn.events import CheckRolled, Events, SubsystemRan, VariableChanged
from lwcore.turn.projections import variable_audience
from lwcore.turn.variables import ID_PATTERN, Kind, VariableDef, VariableError, check_value

if TYPE_CHECKING:
    from lwcore.kernel import Kernel
    from lwcore.turn.room import Member, Room


class ToolError(Exception):
    """A tool call that cannot be carried out; its message goes back to the model."""


@dataclass
class ToolContext:
    """What a tool handler gets besides its arguments.

    ``actor`` is the member on whose behalf the turn runs (``keeper`` tells whether that is
    the keeper); ``rng`` is the turn's random source (seeded in tests and demos); handlers
    append what happened to ``events`` (:class:`lwcore.turn.events.Event` objects; a mapping
    with ``kind``, ``audience`` (``all`` or ``keeper``) and ``summary`` is turned into one) and
    name the room parts they changed with ``room.mark(...)``.
    """

    kernel: Kernel
    room: Room
    actor: Member
    keeper: bool
    locale: str
    rng: random.Random = field(default_factory=random.Random)
    events: Events = field(default_factory=Events)

    def roll(self, expr: str) -> Any:
        """Roll a dice expression with the engine (a ``lwcore.rules.dice.DiceRoll``)."""
        return roll(expr, self.rng)


# --- variables -------------------------------------------------------------------------------


class DefineVariableArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=ID_PATTERN, description="variable id, e.g. clues_found")
    kind: Kind = Field(default="number", description="number | bool | text | enum")
    visibility: Literal["player", "keeper"] = Field(
        default="keeper", description="player: shown to players; keeper: never leaves the keeper"
    )
    labels: dict[str, str] = Field(default_factory=dict, description="display label by locale, e.g. {en: Clues, zh: 线索}")
    minimum: int | float | None = None
    maximum: int | float | None = None
    integer: bool = True
    options: list[str] = Field(default_factory=list, description="the values of an enum")
    option_labels: dict[str, dict[str, str]] = Field(
        default_factory=dict, description="display labels of enum options by locale, e.g. {薄雾: {en: Light mist}}")
    initial: Any = Field(default=None, description="starting value (checked and clamped)")


class SetVariableArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="a declared variable id")
    value: Any = Field(description="new value; numbers are clamped into the declared bounds")


class AdjustVariableArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="a declared number variable id")
    delta: int | float = Field(description="amount to add (negative to subtract)", allow_inf_nan=False)


def _variable_event(var: VariableDef, before: Any, note: str | None) -> VariableChanged:
    summary = f"{var.id}: {before} → {var.value}" if before is not None else f"{var.id} = {var.value}"
    return VariableChanged(id=var.id, before=before, value=var.value, audience=variable_audience(var),
                           summary=summary, note=note or None)


def define_variable(args: DefineVariableArgs, ctx: ToolContext) -> dict[str, Any]:
    if ctx.room.variable(args.id) is not None:
        raise ToolError(f"variable {args.id!r} is already declared; use set_variable")
    data = args.model_dump(exclude_unset=True)
    initial = data.pop("initial", None)
    try:
        var = VariableDef(**data)
        if initial is not None:
            value, _ = check_value(var, initial)
            var.value = value
    except VariableError as exc:
        raise ToolError(str(exc)) from None
    except ValueError as exc:  # pydantic's ValidationError is a ValueError
        raise ToolError(_short(exc)) from None
    ctx.room.variables.variables.append(var)
    ctx.room.mark("variables")
    ctx.events.append(_variable_event(var, None, "declared"))
    return {"ok": True, "id": var.id, "kind": var.kind, "visibility": var.visibility, "value": var.value}


def _declared(ctx: ToolContext, var_id: str) -> VariableDef:
    var = ctx.room.variable(var_id)
    if var is None:
        known = ", ".join(v.id for v in ctx.room.variables.variables) or "none"
        raise ToolError(f"no variable {var_id!r} is declared (declared: {known})")
    return var


def set_variable(args: SetVariableArgs, ctx: ToolContext) -> dict[str, Any]:
    var = _declared(ctx, args.id)
    try:
        value, note = check_value(var, args.value)
    except VariableError as exc:
        raise ToolError(str(exc)) from None
    before = var.value
    var.value = value
    ctx.room.mark("variables")
    ctx.events.append(_variable_event(var, before, note))
    result = {"ok": True, "id": var.id, "before": before, "value": value}
    if note:
        result["clamped"] = note
    return result


def adjust_variable(args: AdjustVariableArgs, ctx: ToolContext) -> dict[str, Any]:
    var = _declared(ctx, args.id)
    if var.kind != "number":
        raise ToolError(f"{var.id} is a {var.kind}, only numbers can be adjusted")
    before = var.value
    value, note = check_value(var, float(before) + args.delta)
    var.value = value
    ctx.room.mark("variables")
    ctx.events.append(_variable_event(var, before, note))
    result = {"ok": True, "id": var.id, "before": before, "delta": args.delta, "value": value}
    if note:
        result["clamped"] = note
    return result


# --- checks ----------------------------------------------------------------------------------


class SkillCheckArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    character: str = Field(description="the character's member id or name")
    skill: str = Field(min_length=1, description="skill or characteristic, any alias the rule system knows")
    difficulty: str | None = Field(default=None, description="a difficulty the rule system declares (e.g. hard)")
    target: int | None = Field(default=None, ge=-1000, le=1000, description=(
        "the number to beat (e.g. a DC), only for rule systems that add the skill's value to the roll; "
        "leave it out where the skill's value is itself the target"))
    modifiers: list[str] = Field(default_factory=list, description="named roll modifiers the rule system declares (e.g. bonus)")
    params: dict[str, int] = Field(default_factory=dict, description="dice-pool parameters the rule system declares")
    reason: str = Field(default="", max_length=300, description="why the check is made (shown with the result)")


def skill_check(args: SkillCheckArgs, ctx: ToolContext) -> dict[str, Any]:
    """Roll and grade one check on a character's sheet with the room's rulepack
    (:func:`lwcore.turn.sheet_rolls.check_on_sheet`); the check is kept on the sheet."""
    room = ctx.room
    try:
        member_id, sheet = room.sheet_of(args.character)
        outcome = sheet_rolls.check_on_sheet(
            sheet, skill=args.skill, variant=room.file.variant, difficulty=args.difficulty,
            modifiers=list(args.modifiers), params=dict(args.params), rng=ctx.rng, locale=ctx.locale,
            target=args.target,
        )
    except LwError as exc:
        raise ToolError(str(exc)) from None
    room.mark(f"sheet:{member_id}")  # the check is kept in the sheet's state (luck, push, opposed)
    result = {"character": sheet.name, "member": member_id, **outcome}
    if args.reason:
        result["reason"] = args.reason
    try:
        summary = check_line(room.rule_system, result, ctx.locale)
    except (LwError, KeyError, TypeError, ValueError):
        summary = f"{sheet.name} {outcome['skill_label']} {outcome['roll']}/{outcome['target']} → {outcome['rank_label']}"
    ctx.events.append(CheckRolled(summary=summary, result=result))
    return result


SUBSYSTEM_CHECK_FIELDS: dict[str, Any] = {
    "character": (str, Field(description="the character's member id or name")),
    "subsystem": (str, Field(min_length=1, max_length=64, description=(
        "a subsystem the rule system declares (listed in the prompt), or the rule system's command "
        "word for it"))),
}
"""The fields every ``subsystem_check`` call has; the subsystem kinds add theirs after them
(:func:`lwcore.rules.kinds.tool_arguments`), then come ``args`` and ``reason``."""

_SUBSYSTEM_CHECK: tuple[Mapping[str, ToolArgument], type[BaseModel]] | None = None


def subsystem_check_args(kind_set: kinds.KindSet | None = None) -> type[BaseModel]:
    """The argument model of ``subsystem_check``, built from the declared tool arguments of
    ``kind_set``'s kinds (default: the bundled kinds; a plugin kind's own arguments come in
    ``args``), rebuilt when the set is another. ``lwcore.turn.tools:SubsystemCheckArgs`` names
    it for the tool spec."""
    global _SUBSYSTEM_CHECK
    arguments = (kind_set or kinds.bundled()).tool_arguments()
    if _SUBSYSTEM_CHECK is None or _SUBSYSTEM_CHECK[0] is not arguments:
        fields = dict(SUBSYSTEM_CHECK_FIELDS)
        for name, argument in arguments.items():
            if name in fields or name in ("args", "reason"):
                raise TypeError(f"a subsystem kind's tool argument {name!r} is one of subsystem_check's own fields")
            bounds: dict[str, Any] = {"ge": argument.low, "le": argument.high} if argument.type is int else \
                {"min_length": argument.low, "max_length": argument.high}
            annotation = int if argument.type is int else str | None
            fields[name] = (annotation, Field(default=argument.default, description=argument.description, **bounds))
        fields["args"] = (dict[str, int | str | bool], Field(default_factory=dict, description=(
            "other arguments the subsystem declares (a plugin computer's or a script's)")))
        fields["reason"] = (str, Field(default="", max_length=300, description="what caused the check"))
        model = create_model("SubsystemCheckArgs", __config__=ConfigDict(extra="forbid"), **fields)
        _SUBSYSTEM_CHECK = (arguments, model)
    return _SUBSYSTEM_CHECK[1]


def __getattr__(name: str) -> Any:
    if name == "SubsystemCheckArgs":
        return subsystem_check_args()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _given(args: Any) -> dict[str, Any]:
    """The kind arguments a call gave (those left at their default are not given) and its
    ``args``; an argument given both ways is refused."""
    given = {name: getattr(args, name) for name, argument in kinds.tool_arguments().items()
             if getattr(args, name) != argument.default}
    extra: Mapping[str, Any] = args.args
    twice = sorted(set(given) & set(extra))
    if twice:
        raise LwError(f"{', '.join(twice)} given twice (as an argument and in args)")
    return {**given, **extra}


def subsystem_check(args: Any, ctx: ToolContext) -> dict[str, Any]:
    """Run a pack-declared subsystem for a character: the subsystem's kind says how the call
    maps to its run (:func:`lwcore.rules.tool_calls.run_tool_call`); the engine rolls, applies
    the pack's rules and changes the sheets, and every sheet that changed is marked."""
    room = ctx.room
    pack = room.rule_system
    try:
        member_id, sheet = room.sheet_of(args.character)
        target = sheet_rolls.find_subsystem(pack, args.subsystem)
        call = SubsystemToolCall(
            engine_for(ctx.kernel), pack, target.name, sheet, _given(args), room.sheet_of,
            lambda who, skill: sheet_rolls.check_on_sheet(who, skill=skill, variant=room.file.variant,
                                                          difficulty=None, modifiers=[], params={}, rng=ctx.rng,
                                                          locale=ctx.locale),
            rng=ctx.rng, locale=ctx.locale, fixed=target.fixed)
        before = {m: (s.stored(), repr(s.state)) for m, s in room.sheets.items()}
        result = run_tool_call(call, target.kind)
        room.mark(*(f"sheet:{m}" for m, s in room.sheets.items() if (s.stored(), repr(s.state)) != before[m]))
    except LwError as exc:
        raise ToolError(str(exc)) from None
    text = render_subsystem(pack, result, ctx.locale)
    out: dict[str, Any] = {"character": sheet.name, "member": member_id, **result.to_json(), **call.extra,
                           "text": text}
    if target.command:
        out["command"] = target.command
    if result.check is not None:
        out["rank_label"] = pack.label(result.check.rank, ctx.locale)
    if result.flags:
        out["flag_labels"] = {k: word(pack, k, ctx.locale) for k, v in result.flags.items() if v}
    if args.reason:
        out["reason"] = args.reason
    json_ready = {k: v for k, v in out.items() if k != "system"}
    summary = f"{headline(pack, target.name, json_ready)} {text}"
    ctx.events.append(SubsystemRan(summary=summary, result=json_ready))
    return json_ready


def _short(exc: Exception) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        first = errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "arguments"
        return f"{where}: {first.get('msg')}"
    return str(exc)
