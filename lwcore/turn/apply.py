"""Applying a model's reply to the room: tool calls, the narration, the history, one save.

:func:`apply_reply` applies one recorded reply; :func:`apply_endpoint` sends the compiled
request to an endpoint and runs the tool loop (:mod:`lwcore.turn.tool_loop`) first. Both then:

1. make the writes plugins staged while the turn compiled (:func:`lwcore.turn.staged.commit`),
   once the reply is in and before its tool calls run;
2. run each tool call through :func:`lwcore.turn.calls.execute_call` (only the tools offered
   this turn);
3. pass the reply text through the reply processors (``lw_reply_text``): the narration they
   leave, their MVU tree operations applied by the engine, their notes for the keeper;
4. roll the narration's ``{{roll:XdY}}`` macros (:mod:`lwcore.turn.macros`);
5. fire the hook scripts' later events (``dice_rolled``, ``variables_changed``,
   ``reply_ready``: :mod:`lwcore.turn.hook_runtime`);
6. append the turn to the history -- what the member said, every event
   (:mod:`lwcore.turn.events`), the narration as stored -- and save the room (one transaction).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lwcore.turn import tree
from lwcore.provider_adapter import ToolCall, ToolResult
from lwcore.turn.calls import execute_call
from lwcore.turn.compile import CompiledTurn
from lwcore.turn.events import Event, KeeperNote, Rolled, TreeChanged, VariableChanged, as_event
from lwcore.turn.history import HistoryEntry
from lwcore.turn.hook_runtime import TurnHooks
from lwcore.turn.macros import expand_rolls
from lwcore.turn.staged import commit
from lwcore.turn.tool_loop import run_tool_loop
from lwcore.turn.tools import ToolContext

if TYPE_CHECKING:
    from lwcore.kernel import Kernel


@dataclass
class AppliedReply:
    """The outcome of applying a reply (or of a whole tool loop)."""

    narration: str
    results: list[ToolResult]
    tool_messages: list[dict[str, Any]]
    events: list[Event]
    rolls: list[dict[str, Any]]
    steps: int = 1
    written: list[Path] = field(default_factory=list)
    ui: list[dict[str, Any]] = field(default_factory=list)
    """Tier-0 UI blocks the turn's hooks emitted (``emitUI``), with the script that did."""

    def to_json(self) -> dict[str, Any]:
        return {
            "narration": self.narration,
            "tool_results": [
                {"call_id": r.call_id, "name": r.name, "is_error": r.is_error, "content": r.content}
                for r in self.results
            ],
            "tool_messages": self.tool_messages,
            "rolls": self.rolls,
            "steps": self.steps,
            "ui": self.ui,
        }


def tool_context(kernel: Kernel, compiled: CompiledTurn, rng: random.Random | None = None) -> ToolContext:
    """The context every tool call of the turn runs with (``rng``, else the turn's own random
    source)."""
    return ToolContext(kernel=kernel, room=compiled.room, actor=compiled.actor, keeper=compiled.keeper,
                       locale=compiled.locale, rng=rng if rng is not None else compiled.rng)


def apply_reply(
    kernel: Kernel, compiled: CompiledTurn, reply: Mapping[str, Any], *, rng: random.Random | None = None,
    hooks: TurnHooks | None = None,
) -> AppliedReply:
    """Apply one recorded ``reply`` (its tool calls, then its narration) to the compiled
    turn's room and save it (see the module docstring); ``rng``: the random source of its
    tool calls and macros (default: the turn's)."""
    parsed = compiled.provider.parse(reply)
    ctx = tool_context(kernel, compiled, rng)
    ctx.events.extend(commit(compiled.staged, compiled.room))
    offered = compiled.tool_names
    results = [execute_call(kernel, call, ctx, offered) for call in parsed.tool_calls]
    messages = compiled.provider.result_messages(results) if results else []
    return finish(compiled, ctx, parsed.text, results, messages, 1, hooks)


def apply_endpoint(
    kernel: Kernel, compiled: CompiledTurn, *, endpoint: str, api_key: str | None, max_steps: int,
    hooks: TurnHooks | None = None,
) -> AppliedReply:
    """Send the compiled request to ``endpoint`` (within the turn's deadline) and run the
    tool loop to the narration (at most ``max_steps`` requests), then apply it like
    :func:`apply_reply`."""
    provider = compiled.provider
    respond = provider.responder(endpoint, api_key, compiled.context.deadline)
    reply = respond(compiled.sent.body)
    ctx = tool_context(kernel, compiled)
    ctx.events.extend(commit(compiled.staged, compiled.room))
    offered = compiled.tool_names

    def run(call: ToolCall) -> ToolResult:
        return execute_call(kernel, call, ctx, offered)

    loop = run_tool_loop(provider, compiled.sent, reply, respond=respond, run=run, max_steps=max_steps)
    ctx.events.extend(loop.notes)
    return finish(compiled, ctx, loop.text, loop.results, loop.tool_messages, loop.steps, hooks)


def finish(
    compiled: CompiledTurn, ctx: ToolContext, text: str, results: list[ToolResult],
    tool_messages: list[dict[str, Any]], steps: int, hooks: TurnHooks | None = None,
) -> AppliedReply:
    """Steps 3-6 of the module docstring, after the tool calls: the narration, the history,
    the save."""
    room = compiled.room
    text = process_reply(ctx, compiled, text)
    narration, rolls = expand_rolls(text, ctx.rng)
    ui: list[dict[str, Any]] = []
    if hooks is not None:
        narration = _after_hooks(hooks, ctx.events, narration, rolls)
        ctx.events.extend(hooks.events)
        ui = hooks.ui
    turn = room.turn_number + 1
    if compiled.player_input:
        # what the keeper tells the model is direction, not play: players never see it
        audience = "keeper" if compiled.keeper else "all"
        room.record(HistoryEntry(turn=turn, role="player", actor=compiled.actor.id, text=compiled.player_input,
                                 audience=audience))
    for event in ctx.events:
        room.record(HistoryEntry.of_event(event, turn=turn))
    for roll in rolls:
        if "error" not in roll:
            room.record(HistoryEntry.of_event(Rolled(roll=roll), turn=turn))
    if narration:  # as stored: a narration longer than a history line holds is cut, with a note
        narration = room.record(HistoryEntry(turn=turn, role="keeper", actor=room.file.keeper.id, text=narration)).text
    written = room.save()
    return AppliedReply(narration, results, tool_messages, list(ctx.events), rolls, steps, written, ui)


def _after_hooks(hooks: TurnHooks, events: list[Event], narration: str, rolls: list[dict[str, Any]]) -> str:
    """The turn's later hook events: ``dice_rolled`` per check, subsystem and narration roll,
    ``variables_changed`` once, ``reply_ready`` with the narration; returns the narration as
    the hooks leave it."""
    for event in events:
        if event.kind in ("check", "subsystem"):
            hooks.fire("dice_rolled", event.hook_payload())
    for roll in rolls:
        if "error" not in roll:
            hooks.fire("dice_rolled", Rolled(roll=roll).hook_payload())
    changed = [e.id if isinstance(e, VariableChanged) else e.path
               for e in (*events, *hooks.events) if isinstance(e, (VariableChanged, TreeChanged))]
    if changed:
        hooks.fire("variables_changed", {"changed": changed})
    hooks.fire("reply_ready", {"reply": narration})
    if hooks.rewrite is not None:
        narration = hooks.rewrite
    return "\n\n".join(p for p in (narration, *hooks.narrated) if p)


def process_reply(ctx: ToolContext, compiled: CompiledTurn, text: str) -> str:
    """The reply text through the reply processors (``lw_reply_text``, given the turn's
    context): their MVU tree operations applied by the engine (each processor's in order),
    their notes and any processor that was skipped logged for the keeper; returns the
    narration they leave."""
    processed = ctx.kernel.reply_text(compiled.context, text)
    for edit in processed.edits:
        ctx.events.extend(as_event(e) for e in tree.apply_changes(compiled.room, edit.value.tree_changes, by=edit.plugin_id))
        ctx.events.extend(KeeperNote(kind="reply_note", plugin=edit.plugin_id, summary=f"{edit.plugin_id}: {note}")
                          for note in edit.value.notes)
    ctx.events.extend(KeeperNote(kind="reply_processor_failed", summary=reason) for reason in processed.dropped)
    return processed.text

