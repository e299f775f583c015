"""Scripts that give a value back: templates (:func:`evaluate`) and rule scripts (:func:`resolve`).

Both run pure like every sandbox run: JSON in, a JSON value and effects out. They differ in
what they see and what the value must be.

**Templates** (:func:`evaluate`): the script's completion value (its last expression
statement; a promise is followed to its end) is the result. It sees ``input`` (the caller's
JSON), the variable bridge over ``state`` (``getvar``/``setvar``/``incvar``/``decvar``,
``variables``, ``stat_data``), ``log`` and ``_``. Writes are effects the caller applies later.

**Rule scripts** (:func:`resolve`, the rulepack script channel ``resolution: {script: …}`` and
``subsystems: {name: {script: …}}``): the engine rolls the pack's declared dice first; the
script defines ``function resolve(check)`` and gets ``{faces, targets, …inputs}``; it never
rolls and never touches state. It returns either a verdict id (a rank id of the pack, or a
subsystem's outcome id) or an object of this closed vocabulary::

    {verdict: "hard",          // optional: a rank / outcome id
     margin: 2,                // optional: a finite number
     note: "…",                // optional: a line for the keeper
     effects: [                // optional: what should change, for the engine to check and clamp
       {op: "adjust", stat: "SAN", by: -3},      // add to a sheet value
       {op: "set", stat: "状态", value: "疯狂"},   // set a sheet value
       {op: "flag", name: "bout", value: true},   // a flag on the result
       {op: "note", text: "…"}]}                  // a line for the keeper

Anything else is refused (``invalid``). The engine validates stat names and applies.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, Literal, Union

from pydantic import Field, StringConstraints, TypeAdapter, ValidationError, model_validator

from lwcore.sandbox.budget import Budget
from lwcore.sandbox.effects import CAPS, ID_PATTERN, Strict, first_problem, parse_effects
from lwcore.sandbox.runtime import (
    Failure,
    Limits,
    Mode,
    Result,
    Sandbox,
    SandboxFailed,
    check_source,
    read_json,
    to_json,
)

TEMPLATE_LIMITS = Limits(memory_bytes=32 * 1024 * 1024, time_s=0.5, stack_bytes=256 * 1024,
                         output_chars=1_000_000, source_chars=200_000)
RULE_LIMITS = Limits(memory_bytes=16 * 1024 * 1024, time_s=0.2, stack_bytes=256 * 1024,
                     output_chars=100_000, source_chars=40_000)
TEMPLATE_MODE = Mode(globals=("getvar", "setvar", "incvar", "decvar", "variables", "stat_data", "log", "_"),
                     caps={"writes": CAPS["writes"], "log": CAPS["log"]}, keep=True)
RULE_MODE = Mode(globals=("log", "_"), caps={"log": CAPS["log"]}, keep=True)

Stat = Annotated[str, StringConstraints(min_length=1, max_length=64)]
Scalar = Union[Annotated[str, StringConstraints(max_length=200)], int, float, bool]


class Adjust(Strict):
    """Add ``by`` to a sheet value (the engine clamps to the sheet's bounds)."""

    op: Literal["adjust"]
    stat: Stat
    by: int | float


class SetStat(Strict):
    """Set a sheet value."""

    op: Literal["set"]
    stat: Stat
    value: Scalar


class Flag(Strict):
    """A flag on the result (``bout: true``), for the pack's labels and the keeper."""

    op: Literal["flag"]
    name: Annotated[str, StringConstraints(pattern=ID_PATTERN)]
    value: Scalar | None = True


class Note(Strict):
    op: Literal["note"]
    text: Annotated[str, StringConstraints(min_length=1, max_length=500)]


RuleEffect = Annotated[Union[Adjust, SetStat, Flag, Note], Field(discriminator="op")]


class Verdict(Strict):
    """What a rule script decided (at least one of ``verdict`` and ``effects``)."""

    verdict: Annotated[str, StringConstraints(pattern=ID_PATTERN)] | None = None
    margin: int | float | None = None
    note: Annotated[str, StringConstraints(max_length=500)] | None = None
    effects: Annotated[list[RuleEffect], Field(max_length=32)] = Field(default_factory=list)

    @model_validator(mode="after")
    def _something(self) -> Verdict:
        if self.verdict is None and not self.effects:
            raise ValueError("give a verdict, effects, or both")
        return self


_VERDICT: TypeAdapter[Verdict] = TypeAdapter(Verdict)


@dataclass(frozen=True)
class Outcome(Result):
    """A script's value (``value``; for rule scripts the checked :class:`Verdict`), the effects
    it requested (variable writes for templates, ``log`` lines for both), or its ``failure``."""

    value: Any = None
    effects: tuple[Any, ...] = ()
    failure: Failure | None = None


def _run(mode: Mode, source: str, *, call: tuple[str, str] | None, state: Mapping[str, Any] | None,
         input_json: str | None, seed: int | str, clock: datetime | int | float, limits: Limits, script: str,
         what: str, kinds: tuple[str, ...], budget: Budget | None) -> tuple[Any, tuple[Any, ...]]:
    state_json = to_json(dict(state), "state") if state is not None else None
    check_source(source, limits, script)
    sandbox = Sandbox(mode, limits=limits, seed=seed, clock=clock, script=script, input_json=input_json, budget=budget)
    with sandbox.deadline():
        if state_json is not None:
            sandbox.call("state", state_json)
        sandbox.call("load", source)
        sandbox.drain()
        if call is not None:
            sandbox.call("call", *call)
            sandbox.drain()
        pair = read_json(sandbox.call("result", what) or "[null,[]]", what, limits, script)
    return pair[0], parse_effects(pair[1], kinds, script)


def evaluate(source: str, inputs: Any = None, *, state: Mapping[str, Any] | None = None, seed: int | str = 0,
             clock: datetime | int | float = 0, limits: Limits = TEMPLATE_LIMITS, script: str = "template",
             budget: Budget | None = None) -> Outcome:
    """Run ``source`` and return its completion value (JSON; ``undefined`` gives ``None``).
    ``budget``: the turn's budget to charge (default: the one active, if any)."""
    input_json = None if inputs is None else to_json(inputs, "inputs")
    try:
        value, effects = _run(TEMPLATE_MODE, source, call=None, state=state if state is not None else {},
                              input_json=input_json, seed=seed, clock=clock, limits=limits, script=script,
                              what="the script's value", kinds=("setvar", "incvar", "log"), budget=budget)
    except SandboxFailed as exc:
        return Outcome(failure=exc.failure)
    return Outcome(value, effects)


def resolve(source: str, *, faces: Sequence[int | float], targets: Mapping[str, Any],
            inputs: Mapping[str, Any] | None = None, verdicts: Collection[str] | None = None, seed: int | str = 0,
            clock: datetime | int | float = 0, limits: Limits = RULE_LIMITS, script: str = "resolver.js",
            entry: str = "resolve", budget: Budget | None = None) -> Outcome:
    """Call ``entry(check)`` of a rule script with ``check = {faces, targets, **inputs}`` and
    check what it returns; ``verdicts`` (the pack's rank or outcome ids) bounds the verdict."""
    extra = dict(inputs or {})
    clash = {"faces", "targets"} & set(extra)
    if clash:
        raise ValueError(f"inputs may not name {', '.join(sorted(clash))} (given separately)")
    if not re.fullmatch(r"[A-Za-z_$][A-Za-z0-9_$]*", entry):
        raise ValueError(f"entry must be a JS function name, not {entry!r}")
    check = to_json({"faces": list(faces), "targets": dict(targets), **extra}, "the check")
    try:
        value, effects = _run(RULE_MODE, source, call=(entry, check), state=None, input_json=None, seed=seed,
                              clock=clock, limits=limits, script=script, what=f"{entry}() result", kinds=("log",),
                              budget=budget)
        verdict = _verdict(value, entry, verdicts, script)
    except SandboxFailed as exc:
        return Outcome(failure=exc.failure)
    return Outcome(verdict, effects)


def _verdict(value: Any, entry: str, allowed: Collection[str] | None, script: str) -> Verdict:
    try:
        verdict = _VERDICT.validate_python({"verdict": value} if isinstance(value, str) else value)
    except ValidationError as exc:
        raise SandboxFailed(Failure("invalid", f"{entry}() returned {_short(value)}: {first_problem(exc)}",
                                    script=script)) from None
    if allowed is not None and verdict.verdict is not None and verdict.verdict not in allowed:
        raise SandboxFailed(Failure("invalid", f"{entry}() returned the verdict {verdict.verdict!r}, which is not one "
                                               f"of {', '.join(sorted(allowed))}", script=script))
    return verdict


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:80] + "…"
