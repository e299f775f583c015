"""One keeper turn, end to end: the one entry point (:func:`run_turn`).

``Kernel.turn``, ``lw turn``, ``lw serve``'s per-room queue and every host play a turn through
:func:`run_turn`, which takes the room's lock once (exclusive when the turn writes) and crosses
each of the turn's jobs once, each in its own module:

1. what the member said is checked (:func:`lwcore.io.speech.check_said`); a line starting
   with ``.`` is a room command instead (:mod:`lwcore.turn.room_commands`);
2. the provider is looked up (:mod:`lwcore.turn.provider`) and the turn's context is built
   once (:mod:`lwcore.turn.context`): every plugin hook of the turn gets the same object;
3. the hook scripts start and ``turn_start`` fires (:mod:`lwcore.turn.hook_runtime`);
4. the turn compiles, once (:mod:`lwcore.turn.compile`): segments (the kernel's own among them,
   :mod:`lwcore.turn.segments`), messages (:mod:`lwcore.turn.messages`), tools offered
   (:mod:`lwcore.turn.offers`), the fold plan (:mod:`lwcore.turn.fold`), the request;
5. with a reply or an endpoint, the reply is applied (:mod:`lwcore.turn.apply`: the tool loop
   of :mod:`lwcore.turn.tool_loop`, each call through :mod:`lwcore.turn.calls`, the events of
   :mod:`lwcore.turn.events`, the history, one save);
6. a fold planned for after the turn runs (:mod:`lwcore.turn.fold`).

**Budget**: a turn runs under one :class:`~lwcore.sandbox.budget.Budget` (``TURN_BUDGET_S`` of
CPU for every sandbox run together: hooks, templates, conditions, rule scripts, content
regexes), activated here once and read by the sandbox itself; the context carries it.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Mapping
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lwcore.contributions import StagedWrites, TurnContext
from lwcore.deadline import Deadline
from lwcore.errors import LwError, about_the_model
from lwcore.io.speech import check_said
from lwcore.live import CallOptions, calling, current_call
from lwcore.sandbox.budget import ensure as ensure_budget
from lwcore.turn.apply import AppliedReply, apply_endpoint, apply_reply
from lwcore.turn.compile import DEFAULT_MAX_TOKENS, CompiledTurn, compile_context
from lwcore.turn.connection import Connection, LiveRequest
from lwcore.turn.context import turn_context
from lwcore.turn.fold import FoldResult, fold_batches
from lwcore.turn.hook_runtime import TurnHooks
from lwcore.turn.provider import Provider, Respond, default_protocol, provider_for
from lwcore.turn.room import Member, Room, room_lock
from lwcore.turn.room_commands import CommandRun, is_command, run_room_command
from lwcore.turn.view import PlayerView, view_for

if TYPE_CHECKING:
    from lwcore.kernel import Kernel

MAX_STEPS = 8
"""Requests one turn's tool loop may make (:mod:`lwcore.turn.tool_loop`)."""

FoldReply = Mapping[str, Any] | Callable[[Mapping[str, Any]], Mapping[str, Any]]
"""A recorded reply for every fold request, or a function from a fold request to its reply."""


@dataclass(frozen=True)
class EnvKey:
    """An endpoint's key read from the process environment when the turn sends: the variable
    ``name``, else the one the protocol's adapter names (``default_key_env``)."""

    name: str | None = None


@dataclass
class TurnResult:
    """One turn: the compiled request (and the applied reply, when one was applied), or --
    for a line that is a room command (``.var list``) -- the command's outcome instead."""

    compiled: CompiledTurn | None
    applied: AppliedReply | None = None
    command: CommandRun | None = None
    folds: list[FoldResult] = field(default_factory=list)
    """The chronicle folds this turn ran."""
    connection: Connection | None = None
    """The live connection the turn played on (given ``live=``)."""

    def player_view(self, viewer: str | None = None) -> PlayerView:
        """The view of ``viewer`` after the turn (default: the acting player, or the first
        player when the keeper acted); the keeper gets the keeper's view."""
        if self.compiled is None:
            raise LwError("a room command has no player view of its own")
        room = self.compiled.room
        if viewer is None and not self.compiled.keeper:
            viewer = self.compiled.actor.id
        return view_for(room, viewer)


def run_turn(
    kernel: Kernel,
    room: Room | str | Path,
    player_input: str,
    *,
    provider: str | None = None,
    actor: str | None = None,
    reply: Mapping[str, Any] | None = None,
    endpoint: str | None = None,
    api_key: str | EnvKey | None = None,
    model: str | None = None,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    max_steps: int = MAX_STEPS,
    rng: random.Random | None = None,
    fold_reply: FoldReply | None = None,
    deadline: Deadline | None = None,
    on_start: Callable[[Room, Member], None] | None = None,
    live: LiveRequest | None = None,
) -> TurnResult:
    """Play one turn: compile it and, with ``reply`` (a recorded reply) or ``endpoint`` (sent
    there, the tool loop run), apply it (see the module docstring).

    ``player_input`` must be text a member may say (no control characters, at most
    ``MAX_SAID_BYTES``), else nothing runs. ``room`` is a folder -- loaded, changed and saved
    under its lock, taken here once (exclusive when the turn writes: a reply, an endpoint, a
    room command) -- or a loaded :class:`Room` whose lock the caller holds. ``actor`` is a
    member id or name (default: the first player). ``provider`` a protocol (default: the
    room's ``provider:``, else the first installed). ``api_key`` the endpoint's key, or
    :class:`EnvKey` to read it from the environment. ``on_start(room, member)`` is called once
    the room is loaded, before anything of the turn runs (``lw turn`` shows the room as it was).

    When the prompt nears the room model's window the chronicle folds
    (:mod:`lwcore.turn.fold`): at the emergency level before the model call, else after the
    turn. A fold is a model step: through ``endpoint``, or ``fold_reply``; with neither, the
    fold is noted as due and nothing is folded.

    ``deadline``: past it the turn writes nothing (every save claims it; a model call gets at
    most the time left) and fails with code ``deadline``.

    ``live``: play on a live model (:class:`lwcore.turn.connection.LiveRequest`: a profile by
    name, else the room's ``profile:``, or a bare endpoint), settled on the room loaded here
    before anything of the turn runs -- a room command ignores it. The turn's model calls
    read the profile's timeouts and retries through :func:`lwcore.live.calling` (a host's
    own ``calling`` block -- streaming, a cancel -- is kept, the profile put in it).
    """
    if sum(x is not None for x in (reply, endpoint, live)) > 1:
        raise LwError("give a recorded reply or a live model (an endpoint, a profile), not both")
    check_said(player_input)  # the one door what a member says comes through
    command = is_command(player_input)
    if command and (reply is not None or endpoint is not None):
        raise LwError("a room command (a line starting with '.') takes no model reply")
    turn = _Turn(kernel, player_input, provider=provider, actor=actor, reply=reply, endpoint=endpoint,
                 api_key=api_key, model=model, max_tokens=max_tokens, max_steps=max_steps, rng=rng,
                 fold_reply=fold_reply, deadline=deadline, on_start=on_start, live=None if command else live)
    if isinstance(room, Room):
        return turn.play(room)
    writes = reply is not None or endpoint is not None or command or live is not None
    with room_lock(room, shared=not writes):
        return turn.play(Room.load(room, kernel))


@dataclass
class _Turn:
    """One call of :func:`run_turn`, played in its loaded room."""

    kernel: Kernel
    player_input: str
    provider: str | None
    actor: str | None
    reply: Mapping[str, Any] | None
    endpoint: str | None
    api_key: str | EnvKey | None
    model: str | None
    max_tokens: int
    max_steps: int
    rng: random.Random | None
    fold_reply: FoldReply | None
    deadline: Deadline | None
    on_start: Callable[[Room, Member], None] | None
    live: LiveRequest | None = None
    connection: Connection | None = None

    def play(self, room: Room) -> TurnResult:
        if self.deadline is not None:
            room.deadline = self.deadline
        member = room.member(self.actor)
        if self.live is not None:
            self._connect(room)
        if self.on_start is not None:
            self.on_start(room, member)
        if is_command(self.player_input):
            return TurnResult(None, command=run_room_command(self.kernel, room, member, self.player_input, rng=self.rng))
        with ensure_budget():  # one script budget for the whole turn: hooks, templates, conditions, rules
            provider = provider_for(self.kernel, self.provider or default_protocol(self.kernel, room))
            rng = self.rng if self.rng is not None else random.Random()
            context = turn_context(room, member, self.player_input, rng=rng, staged=StagedWrites(),
                                   deadline=self.deadline, model=self.model)
            hooks = TurnHooks.start(self.kernel, room, context, rng)
            try:
                hooks.fire("turn_start", {"user_message": self.player_input, "actor": member.id,
                                          "turn": room.turn_number + 1})
                call = nullcontext() if self.connection is None else calling(
                    replace(current_call() or CallOptions(), profile=self.connection.profile))
                with call:
                    result = self._model_turn(room, member, provider, context, hooks)
                result.connection = self.connection
                return result
            finally:
                hooks.close()

    def _connect(self, room: Room) -> None:
        """Settle the live connection in ``room``: the protocol, endpoint, model and key the
        turn plays with come from it."""
        assert self.live is not None
        try:
            connection = self.connection = self.live.connect(self.kernel, room)
        except LwError as exc:
            raise about_the_model(exc)
        profile = connection.profile
        self.provider, self.endpoint, self.model = profile.protocol, profile.endpoint, profile.model
        self.api_key = connection.api_key
        if profile.max_tokens:
            self.max_tokens = profile.max_tokens

    def _model_turn(self, room: Room, member: Member, provider: Provider, context: TurnContext,
                    hooks: TurnHooks) -> TurnResult:
        applying = self.reply is not None or self.endpoint is not None
        respond = self._fold_responder(provider, context.deadline) if applying else None
        turn, folds = compile_context(self.kernel, context, member, provider, model=self.model,
                                      max_tokens=self.max_tokens, fold=applying, respond=respond)
        if not applying:
            return TurnResult(turn)
        if self.reply is not None:
            applied = apply_reply(self.kernel, turn, self.reply, hooks=hooks)
        else:
            assert self.endpoint is not None
            applied = apply_endpoint(self.kernel, turn, endpoint=self.endpoint, api_key=self._key(provider),
                                     max_steps=self.max_steps, hooks=hooks)
        if turn.folds is not None and turn.folds.after:
            folds += fold_batches(provider, room, turn.folds.after, respond=respond, locale=turn.locale,
                                  fullness=turn.folds.fullness)
        return TurnResult(turn, applied, folds=folds)

    def _key(self, provider: Provider) -> str | None:
        if isinstance(self.api_key, EnvKey):
            return os.environ.get(self.api_key.name or provider.default_key_env)
        return self.api_key

    def _fold_responder(self, provider: Provider, deadline: Deadline | None) -> Respond | None:
        """How a fold reaches a model: a recorded reply, a function, or the turn's endpoint
        (within what is left of the turn's ``deadline``)."""
        if callable(self.fold_reply):
            return self.fold_reply
        if self.fold_reply is not None:
            recorded = self.fold_reply
            return lambda request: recorded
        if self.endpoint is not None:
            return provider.responder(self.endpoint, self._key(provider), deadline)
        return None
