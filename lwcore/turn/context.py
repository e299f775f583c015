"""The turn's context, built once: what every plugin hook of one turn is told.

:func:`turn_context` makes the :class:`~lwcore.contributions.TurnContext` a turn hands to its
hook scripts' collection (``lw_turn_scripts``), its prompt segments (``lw_prompt_segments``)
and its reply processors (``lw_reply_text``): the same object for all three, so every plugin
sees the same inputs under the same names (``player_input`` for what the member says).
"""

from __future__ import annotations

import random

from lwcore.contributions import StagedWrites, TurnContext
from lwcore.deadline import Deadline
from lwcore.sandbox.budget import current as current_budget
from lwcore.turn.room import Member, Room


def turn_context(
    room: Room, actor: Member, player_input: str, *, rng: random.Random | None = None,
    staged: StagedWrites | None = None, deadline: Deadline | None = None, model: str | None = None,
) -> TurnContext:
    """The context of ``actor``'s turn in ``room`` saying ``player_input``: their locale, id,
    display name (else their id) and whether they keep the room; the room, its
    folder and its config files (name -> absolute path); the turn's ``rng`` (a fresh one when
    none is given), ``staged`` writes, ``deadline``, the ``model`` the request names, and the
    script budget in force (:func:`lwcore.sandbox.budget.current`)."""
    configs = {name: str((room.path / rel).resolve()) for name, rel in room.file.config.items()}
    return TurnContext(
        locale=room.locale_of(actor),
        model=model,
        cwd=room.path,
        viewer=actor.id,
        room=room,
        player_input=player_input,
        actor_name=actor.name or actor.id,
        keeper=room.is_keeper(actor),
        config=configs,
        rng=rng if rng is not None else random.Random(),
        budget=current_budget(),
        deadline=deadline,
        staged=staged,
    )


def turn_room(context: TurnContext) -> Room:
    """The room of a turn's ``context`` (one :func:`turn_context` built); a context made
    outside a turn, with no room, is a programming error."""
    if not isinstance(context.room, Room):
        raise ValueError("this TurnContext was made outside a turn: it has no room")
    return context.room
