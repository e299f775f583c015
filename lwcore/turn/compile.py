"""Compiling one turn: its context's segments -> logical messages -> one provider request.

:func:`compile_context` is what a turn runs, once (:func:`lwcore.turn.pipeline.run_turn`):

1. ask every enabled plugin for its prompt segments (``lw_prompt_segments`` with the turn's
   context) -- the kernel's own state among them (:mod:`lwcore.turn.segments`, through the
   built-in ``turn`` plugin) -- and add what the turn's hook scripts injected (slot
   ``context``, after the rest);
2. build the logical messages (:mod:`lwcore.turn.messages`) and the tools the room offers
   (:mod:`lwcore.turn.offers`);
3. when the turn will be applied, plan the chronicle fold from those messages
   (:func:`lwcore.turn.fold.plan_turn`): an emergency fold runs now and only the messages are
   built again (the kernel's ``story`` segment rendered anew);
4. compile the messages and offers through the turn's provider
   (:meth:`lwcore.turn.provider.Provider.compile`): the request.

Read-only but for an emergency fold (which saves the summary it wrote): the room is not
changed; writes plugins stage go to the context's ``staged`` and are made only when a reply is
applied. A plugin whose segment hook fails loses its segments for this turn and is listed in
:attr:`CompiledTurn.dropped`; the turn goes on.

:func:`compile_turn` compiles a turn on its own (no hook scripts, no fold): a preview.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from lwcore.contributions import PromptSegment, StagedWrites, TurnContext
from lwcore.sandbox.budget import ensure as ensure_budget
from lwcore.turn import segments as own_segments
from lwcore.provider_adapter import ToolOffer
from lwcore.turn.context import turn_context, turn_room
from lwcore.turn.fold import FoldResult, TurnFolds, fold_batches, plan_turn, prompt_tokens
from lwcore.turn.messages import Message, Placed, build_messages, segment_text
from lwcore.turn.offers import tool_offers, visible_tools
from lwcore.turn.provider import Provider, ProviderRequest, Respond, default_protocol, provider_for
from lwcore.turn.room import Member, Room

if TYPE_CHECKING:
    from lwcore.kernel import Kernel

DEFAULT_MAX_TOKENS = 1024
HOOK_ORDER = 1000
"""Where the hook scripts' injections sort in slot ``context`` (after every plugin segment)."""


class SegmentUse(NamedTuple):
    """A plugin's prompt segment as a turn used it."""

    name: str
    plugin: str
    slot: str
    chars: int


@dataclass
class CompiledTurn:
    """One compiled turn: its ``context`` (built once), ``provider``, logical ``messages``, the
    request ``sent`` (:class:`~lwcore.turn.provider.ProviderRequest`), every segment used, what
    was dropped, and the fold plan (``None`` for a turn only compiled)."""

    context: TurnContext
    actor: Member
    provider: Provider
    messages: list[Message]
    sent: ProviderRequest
    segments: list[SegmentUse]
    """Every segment used: its name, plugin, slot and size."""
    dropped: tuple[str, ...]
    """Plugin contributions dropped for this turn, with the reason."""
    folds: TurnFolds | None = None

    @property
    def room(self) -> Room:
        return turn_room(self.context)

    @property
    def protocol(self) -> str:
        return self.provider.protocol

    @property
    def keeper(self) -> bool:
        return self.context.keeper

    @property
    def locale(self) -> str:
        return self.context.locale

    @property
    def player_input(self) -> str:
        return self.context.player_input

    @property
    def rng(self) -> random.Random:
        return self.context.rng if self.context.rng is not None else random.Random()

    @property
    def staged(self) -> StagedWrites:
        """Writes plugins staged while compiling; made only when a reply is applied."""
        if self.context.staged is None:
            raise ValueError("a turn's context always carries its staged writes")
        return self.context.staged

    @property
    def payload(self) -> dict[str, Any]:
        """What the prompt compiler returned (without tools)."""
        return self.sent.payload

    @property
    def request(self) -> dict[str, Any]:
        """The request body: the payload plus the offered tools (and model, token limit)."""
        return self.sent.body

    @property
    def cache(self) -> Any:
        return self.sent.cache

    @property
    def offers(self) -> list[ToolOffer]:
        return list(self.sent.offers)

    @property
    def tool_names(self) -> list[str]:
        return [o.name for o in self.sent.offers]

    def to_json(self) -> dict[str, Any]:
        return {
            "protocol": self.protocol,
            "room": self.room.file.id,
            "actor": self.actor.id,
            "payload": self.request,
            "tools": self.tool_names,
            "cache": self.cache,
            "segments": [s._asdict() for s in self.segments],
            "dropped": list(self.dropped),
        }


def turn_segments(kernel: Kernel, context: TurnContext) -> tuple[list[Placed], tuple[str, ...]]:
    """The turn's segments in order (every plugin's, then the hook scripts' injections) and
    what was dropped."""
    segment_set = kernel.prompt_segments(context)
    placed = [Placed(e.value, e.plugin_id) for e in segment_set.segments]
    placed += [Placed(PromptSegment(f"hook-{i + 1}", text, slot="context", order=HOOK_ORDER + i), "hooks")
               for i, text in enumerate(context.injected)]
    return placed, segment_set.dropped


def player_line(room: Room, actor: Member, player_input: str) -> str:
    """``<character name>: <text>`` (the member's name, else id, without a sheet)."""
    name = room.sheets[actor.id].name if actor.id in room.sheets else (actor.name or actor.id)
    return f"{name}: {player_input}"


def refreshed(placed: list[Placed], room: Room, locale: str) -> list[Placed]:
    """``placed`` with the kernel's own ``story`` segment rendered again (after a fold wrote
    the summary), where the turn still has it; every other segment as it was."""
    fresh = {s.name: s for s in own_segments.room_segments(room, locale) if s.name == "story"}
    return [Placed(fresh[p.segment.name], p.plugin) if p.plugin == own_segments.PLUGIN and p.segment.name in fresh
            else p for p in placed]


def compile_context(
    kernel: Kernel, context: TurnContext, actor: Member, provider: Provider, *, model: str | None = None,
    max_tokens: int = DEFAULT_MAX_TOKENS, fold: bool = False, respond: Respond | None = None,
) -> tuple[CompiledTurn, list[FoldResult]]:
    """Compile the turn of ``context`` for ``provider`` (see the module docstring); returns it
    and the folds an emergency ran. With ``fold``, plan the chronicle fold (``respond`` asks
    the model an emergency fold needs; ``None``: the fold is noted as due)."""
    room = turn_room(context)
    placed, dropped_segments = turn_segments(kernel, context)
    line = player_line(room, actor, context.player_input)
    messages = build_messages(placed, line)
    offers, dropped_tools = tool_offers(kernel, visible_tools(kernel, room, keeper=context.keeper), context.locale)
    plan, folded = None, []
    if fold:
        plan = plan_turn(room, prompt_tokens(messages, provider.definitions(offers)))
        if plan.before:
            folded = fold_batches(provider, room, plan.before, respond=respond, locale=context.locale,
                                  fullness=plan.fullness)
            if folded:
                placed = refreshed(placed, room, context.locale)
                messages = build_messages(placed, line)
    sent = provider.compile(messages, offers, model=model, max_tokens=max_tokens)
    uses = [SegmentUse(p.segment.name, p.plugin, p.segment.slot, len(segment_text(p.segment))) for p in placed]
    turn = CompiledTurn(context, actor, provider, messages, sent, uses, (*dropped_segments, *dropped_tools), plan)
    return turn, folded


def compile_turn(
    kernel: Kernel,
    room: Room | str | Path,
    player_input: str,
    *,
    provider: str | None = None,
    actor: str | None = None,
    model: str | None = None,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    rng: random.Random | None = None,
) -> CompiledTurn:
    """Compile one turn for ``provider`` on behalf of ``actor`` (default: the first player),
    without running the room's hook scripts or folding: what the turn's request would be.

    ``provider`` defaults to :func:`lwcore.turn.provider.default_protocol` (the room's
    ``provider:``, else the first installed adapter that has a compiler); ``rng`` is the
    turn's random source handed to plugins (default: a fresh one). Read-only: a folder is
    loaded (the caller holds its lock, or reads without one) and nothing is written. The
    sandbox runs it causes share one script budget (a new one when called outside a turn).
    """
    with ensure_budget():
        room = room if isinstance(room, Room) else Room.load(room, kernel)
        member = room.member(actor)
        chosen = provider_for(kernel, provider or default_protocol(kernel, room))
        context = turn_context(room, member, player_input, rng=rng, staged=StagedWrites(), model=model)
        return compile_context(kernel, context, member, chosen, model=model, max_tokens=max_tokens)[0]
