"""Prep scripts: a JavaScript file that only *plans* tool calls (`plan(tool, args)`).

::

    const guards = ["门房老周", "巡夜的李七", "更夫赵三"];
    for (const name of guards) plan("add_npc", {name, concept: "夜里见过五层的人"});
    plan("define_variable", {var_id: "floor_seen", kind: "number", minimum: 0, maximum: 3});

``plan`` is the only thing the sandbox exposes: no state, no tools, no `_`, no I/O. A run
returns the list of operations or a located refusal. Limits: a script of at most 20,000
characters, at most 200 operations of at most 8 KiB of JSON arguments each, 1 s of CPU.

The same script with the same ``seed`` and ``clock`` plans the same operations, so a preview
(``apply: false``) shows exactly what applying will run.

Checking the plan against a room (is the tool reachable there, are the arguments valid, is
the room in its prep phase) is the engine's: :func:`check_plan` runs the engine's
:class:`ToolGate` over every operation *before* any runs, and refuses the whole plan at the
first operation the gate refuses, located at the line that planned it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Protocol

from lwcore.sandbox.budget import Budget
from lwcore.sandbox.effects import CAPS, parse_effects
from lwcore.sandbox.runtime import Failure, Limits, Mode, Result, Sandbox, SandboxFailed, check_source, read_json

PLAN_LIMITS = Limits(memory_bytes=32 * 1024 * 1024, time_s=1.0, stack_bytes=256 * 1024,
                     output_chars=2_000_000, source_chars=20_000)
MODE = Mode(globals=("plan",), caps={"plan": CAPS["plan"]})


@dataclass(frozen=True)
class PlanOp:
    """One planned tool call and the script line that planned it."""

    tool: str
    args: Mapping[str, Any]
    line: int | None = None


@dataclass(frozen=True)
class PlanResult(Result):
    """The operations a prep script planned, or why it could not (``failure``). Run the
    operations only when :attr:`ok`; a refused plan keeps its operations for the preview."""

    ops: tuple[PlanOp, ...] = ()
    failure: Failure | None = None
    script: str = "prep.js"


class ToolGate(Protocol):
    """The engine's check of one operation against a room: ``None`` when it may run, else
    the reason it may not (a tool the room cannot reach, arguments its model refuses …)."""

    def __call__(self, op: PlanOp) -> str | None: ...


def run_plan(source: str, *, seed: int | str = 0, clock: datetime | int | float = 0,
             limits: Limits = PLAN_LIMITS, script: str = "prep.js", budget: Budget | None = None) -> PlanResult:
    """Run a prep script and return its operations in the order planned."""
    try:
        check_source(source, limits, script)
        sandbox = Sandbox(MODE, limits=limits, seed=seed, clock=clock, script=script, budget=budget)
        with sandbox.deadline():
            sandbox.call("load", source)
            sandbox.drain()
            raw = read_json(sandbox.call("collect") or "[]", "the plan", limits, script)
        effects = parse_effects(raw, ("plan",), script)
    except SandboxFailed as exc:
        return PlanResult(failure=exc.failure, script=script)
    return PlanResult(tuple(PlanOp(e.tool, e.args, e.line) for e in effects), script=script)


def check_plan(result: PlanResult, gate: ToolGate) -> PlanResult:
    """Run ``gate`` over every operation before any of them runs; the first refusal refuses
    the whole plan (kind ``refused``, at that operation's line). A failed plan is returned
    as it is."""
    if not result.ok:
        return result
    for number, op in enumerate(result.ops, 1):
        reason = gate(op)
        if reason is not None:
            failure = Failure("refused", f"operation {number} plan({op.tool!r}, …): {reason}; nothing was run",
                              op.line, script=result.script)
            return replace(result, failure=failure)
    return result
