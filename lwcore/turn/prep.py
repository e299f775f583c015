"""Prep scripts (C.3): a JavaScript file plans tool calls; the engine checks the whole plan
against the room, then runs each call through the same path as the model's.

``run_prep_plan`` (a tool of the built-in ``turn`` plugin; keeper only; phase ``prep``)::

    run_prep_plan(script="for (const n of ['老周', '李七']) plan('thread_note', {label: n});")
    run_prep_plan(script_ref="blackmoor/prep/setup.js", apply=true)

1. **Plan.** The script runs in the JS sandbox (:func:`lwcore.sandbox.run_plan`), where
   ``plan(tool, args)`` is the only thing it can call; it yields the operations (at most 200,
   8 KiB of arguments each; 20,000 characters of script, 1 s of CPU). Its seed comes from the
   script's text and its clock is the room's game clock, so a preview plans exactly what
   applying will run.
2. **Check the whole plan** (:func:`lwcore.sandbox.check_plan` with a :class:`RoomGate`)
   before anything runs: every operation's tool must be one the room offers its keeper in the
   prep phase (:func:`lwcore.turn.offers.visible_tools`: gated tools only when an enabled
   feature asks for them, and never ``run_prep_plan`` itself), and its arguments must satisfy
   the tool's argument model. A plan with one bad operation runs nothing; the refusal names
   the operation and the script line that planned it.
3. **Preview** (``apply: false``, the default) returns the operations and changes nothing.
4. **Apply** runs the operations in order through :func:`lwcore.turn.calls.execute_call`,
   with the turn's own tool context: the same handlers, the same events. Each operation's
   arguments go in as the instance of the tool's model the gate validated in step 2 (strictly,
   as a call would be), so they are not validated a second time. An operation that fails stops the plan there; the ones before it stay (the turn
   saves them with everything else).

``script_ref`` names a script of an installed pack: ``<pack-id>/<path inside the pack>``,
read from ``<data dir>/packs/<pack-id>@<version>/`` -- the version the install ledger marks
active, else (a folder put there by hand) the highest version; the path is confined to that
folder and must end in ``.js``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from lwcore.contributions import ToolSpec, resolve
from lwcore.errors import LwError
from lwcore.io.paths import confine
from lwcore.io.text import read_text
from lwcore.pack.ledger import Ledger
from lwcore.sandbox import check_plan, run_plan
from lwcore.sandbox.switch import REASON as JS_OFF
from lwcore.sandbox.switch import js_enabled
from lwcore.provider_adapter import ToolCall
from lwcore.turn.events import KeeperNote
from lwcore.turn.hook_runtime import game_clock
from lwcore.turn.calls import argument_problems, execute_call, validate_arguments
from lwcore.turn.offers import visible_tools
from lwcore.turn.tools import ToolContext, ToolError

if TYPE_CHECKING:
    from lwcore.kernel import Kernel
    from lwcore.sandbox.plans import PlanOp, PlanResult
    from lwcore.turn.room import Room

TOOL = "run_prep_plan"
PREP = "prep"
PACKS = "packs"
PACK_ID = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$")
MAX_SCRIPT_BYTES = 256 * 1024


class RunPrepPlanArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    script: str | None = Field(default=None, max_length=100_000,
                               description="a prep script (JavaScript): plan(tool, args) for each call")
    script_ref: str | None = Field(default=None, max_length=300,
                                   description="a script of an installed pack: <pack-id>/prep/setup.js")
    apply: bool = Field(default=False, description="false: preview the operations, change nothing; true: run them")

    @model_validator(mode="after")
    def _one_source(self) -> RunPrepPlanArgs:
        if (self.script is None) == (self.script_ref is None):
            raise ValueError("give exactly one of script and script_ref")
        return self


def version_key(version: str) -> tuple[Any, ...]:
    """Sort key of a version (``1.10.0`` after ``1.9.2``; ``1.0.0-rc1`` before ``1.0.0``)."""
    main, _, pre = version.partition("-")
    parts = tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"[.+]", main))
    return (parts, 0 if pre else 1, pre)


def resolve_script_ref(data_dir: Path, ref: str) -> Path:
    """The file ``ref`` (``<pack-id>/<path>``) names in the active (else the newest) installed
    version of that pack; :class:`LwError` when the pack is not installed or the path is not a
    script in it."""
    pack_id, _, rel = ref.strip().partition("/")
    if not PACK_ID.match(pack_id) or not rel:
        raise LwError(f"script_ref {ref!r} is not <pack-id>/<path>", expected="e.g. blackmoor/prep/setup.js",
                      code="invalid")
    if not rel.endswith(".js"):
        raise LwError(f"script_ref {ref!r} does not name a .js script", code="invalid")
    root = data_dir / PACKS
    try:
        installed = [p for p in root.iterdir() if p.is_dir() and p.name.partition("@")[0] == pack_id and "@" in p.name]
    except OSError:
        installed = []
    if not installed:
        raise LwError(f"no pack {pack_id!r} is installed", file=root, code="not_found",
                      expected=f"a folder {pack_id}@<version> in {root}")
    home = _active(root, pack_id, installed) or max(installed, key=lambda p: version_key(p.name.partition("@")[2]))
    return confine(home, rel, what="script_ref")


def _active(root: Path, pack_id: str, installed: list[Path]) -> Path | None:
    """The home of the version the install ledger marks active, when it names one that is there."""
    try:
        version = Ledger.load(root).active.get(pack_id)
    except LwError:
        return None
    return next((p for p in installed if version is not None and p.name == f"{pack_id}@{version}"), None)


def script_seed(source: str) -> int:
    """The seed a script plans with: from its text, so a preview and its apply agree."""
    return int.from_bytes(hashlib.sha256(source.encode("utf-8", "surrogatepass")).digest()[:8], "big")


@dataclass
class RoomGate:
    """The engine's check of one planned operation against a room (a
    :class:`lwcore.sandbox.ToolGate`): the tool must be one the room offers ``keeper`` in
    ``phase``, and the arguments must satisfy its model. The arguments it accepted are kept as
    that model's instances (:meth:`arguments`), so applying runs them without a second check."""

    offered: Mapping[str, ToolSpec]
    phase: str | None
    _accepted: dict[int, tuple[PlanOp, BaseModel]] = field(default_factory=dict, init=False, repr=False)

    @classmethod
    def for_room(cls, kernel: Kernel, room: Room, *, keeper: bool = True, phase: str | None = PREP) -> RoomGate:
        specs = visible_tools(kernel, room, keeper=keeper, phase=phase)
        return cls({s.name: s for s in specs if s.name != TOOL}, phase)

    def __call__(self, op: PlanOp) -> str | None:
        from pydantic import ValidationError

        spec = self.offered.get(op.tool)
        if spec is None:
            where = f"in its {self.phase} phase" if self.phase else "now"
            return f"the room does not offer {op.tool!r} to its keeper {where}"
        try:
            args = validate_arguments(resolve(spec.args_model), op.args)  # exactly as the call would be
        except ValidationError as exc:
            return f"invalid arguments for {op.tool!r}: {argument_problems(exc, 3)}"
        except Exception as exc:  # noqa: BLE001 - a tool whose model does not load is not reachable
            return f"tool {op.tool!r} cannot be checked: {type(exc).__name__}: {exc}"
        self._accepted[id(op)] = (op, args)
        return None

    def arguments(self, op: PlanOp) -> BaseModel:
        """The arguments of ``op`` as this gate validated them (its tool's model instance);
        ``KeyError`` for an operation it did not accept."""
        accepted, args = self._accepted[id(op)]
        if accepted is not op:
            raise KeyError(op)
        return args


def plan_script(source: str, *, room: Room, script: str) -> PlanResult:
    """Run a prep script in the sandbox (seeded by its text, on the room's game clock)."""
    return run_plan(source, seed=script_seed(source), clock=game_clock(room), script=script)


def checked_plan(kernel: Kernel, room: Room, source: str, *, script: str, keeper: bool = True) -> tuple[PlanResult, RoomGate]:
    """Plan ``source`` and check every operation against ``room`` before any runs: the plan
    (``ok`` or its located failure) and the gate it passed."""
    if not js_enabled(kernel.env):
        raise LwError(f"prep script {script}: {JS_OFF}", code="refused", expected="the operator's switch on")
    gate = RoomGate.for_room(kernel, room, keeper=keeper)
    return check_plan(plan_script(source, room=room, script=script), gate), gate


def _ops_json(result: PlanResult) -> list[dict[str, Any]]:
    return [{"n": n, "tool": op.tool, "args": dict(op.args), "line": op.line} for n, op in enumerate(result.ops, 1)]


def _source(args: RunPrepPlanArgs, ctx: ToolContext) -> tuple[str, str]:
    if args.script is not None:
        return args.script, "prep.js"
    assert args.script_ref is not None
    try:
        path = resolve_script_ref(ctx.kernel.data_dir, args.script_ref)
        return read_text(path, max_bytes=MAX_SCRIPT_BYTES), args.script_ref
    except LwError as exc:
        raise ToolError(exc.message + (f" (expected {exc.expected})" if exc.expected else "")) from None


def run_prep_plan(args: RunPrepPlanArgs, ctx: ToolContext) -> dict[str, Any]:
    """The tool: plan, check the whole plan, then preview or run it (module docstring)."""
    source, name = _source(args, ctx)
    try:
        result, gate = checked_plan(ctx.kernel, ctx.room, source, script=name, keeper=ctx.keeper)
    except LwError as exc:  # the operator's switch
        raise ToolError(exc.message) from None
    if not result.ok:
        assert result.failure is not None
        raise ToolError(f"{result.failure}")
    ops = _ops_json(result)
    if not args.apply:
        return {"ok": True, "applied": False, "script": name, "count": len(ops), "operations": ops}
    offered = list(gate.offered)
    done: list[dict[str, Any]] = []
    for op, plan_op in zip(ops, result.ops):
        call = ToolCall(f"prep-{op['n']}", op["tool"], gate.arguments(plan_op))
        outcome = execute_call(ctx.kernel, call, ctx, offered)
        if outcome.is_error:
            ctx.events.append(KeeperNote(kind="prep_plan",
                                         summary=f"prep plan {name}: stopped at operation {op['n']} of {len(ops)}"))
            error = outcome.content.get("error") if isinstance(outcome.content, Mapping) else outcome.content
            kept = f"operations 1-{op['n'] - 1} ran and stay" if op["n"] > 1 else "nothing ran before it"
            raise ToolError(f"{name}:{op['line']}: operation {op['n']} {op['tool']} failed: {error}; {kept}")
        done.append({"n": op["n"], "tool": op["tool"], "result": outcome.content})
    ctx.events.append(KeeperNote(kind="prep_plan", summary=f"prep plan {name}: {len(done)} operations run"))
    return {"ok": True, "applied": True, "script": name, "count": len(done), "results": done}
