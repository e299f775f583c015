"""The keeper's message controls on a room folder, each under the room's writer lock: what
``lw room …``, ``lw turn --regenerate`` and the keeper's seat at the web table call.

The work is :mod:`lwcore.turn.checkpoints`' (one transaction each); this module takes the lock,
loads the room and checks the one who asks is its keeper (``by``: a member id or name;
``None``: the operator at the command line, who owns the folder).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lwcore.errors import LwError
from lwcore.turn import checkpoints
from lwcore.turn.history import HistoryLog
from lwcore.turn.room import HISTORY_FILE, Room, room_lock

if TYPE_CHECKING:
    from lwcore.kernel import Kernel

Play = Callable[[Room, str, "str | None"], Any]
"""``play(room, said, actor)``: play one turn in the loaded room (its lock held)."""


def _keeper(room: Room, by: str | None) -> None:
    if by is not None and not room.is_keeper(room.member(by)):
        raise LwError("only the keeper can regenerate, edit, rewind or stop a turn", code="forbidden")


def rewind(kernel: Kernel, folder: str | Path, turn: int, *, by: str | None = None) -> int:
    """Rewind the room to just before turn ``turn``; the turn number it is at now."""
    with room_lock(folder):
        room = Room.load(folder, kernel)
        _keeper(room, by)
        if not 1 <= turn <= room.turn_number:
            raise LwError(f"no turn {turn} to go back before", code="invalid",
                          expected=f"a turn from 1 to {room.turn_number}" if room.turn_number else "a turn played first")
        checkpoints.rewind(room.path, turn)
        return HistoryLog(room.path / HISTORY_FILE).turn_number


def edit(kernel: Kernel, folder: str | Path, turn: int | None, text: str, *, by: str | None = None) -> int:
    """Put ``text`` in place of turn ``turn``'s narration (``None``: the last turn's); the turn."""
    with room_lock(folder):
        room = Room.load(folder, kernel)
        _keeper(room, by)
        turn = room.turn_number if turn is None else turn
        checkpoints.edit(room, turn, text)
        return turn


def choose(kernel: Kernel, folder: str | Path, number: int, *, by: str | None = None) -> None:
    """Make the last turn's reply number ``number`` (:func:`alternatives`) the one in the room."""
    with room_lock(folder):
        room = Room.load(folder, kernel)
        _keeper(room, by)
        checkpoints.choose(room.path, number, turn_number=room.turn_number)


def alternatives(kernel: Kernel, folder: str | Path) -> list[tuple[int, str, bool]]:
    """The last turn's replies: ``(number, narration, in the room now)`` (a reader's lock)."""
    with room_lock(folder, shared=True):
        return checkpoints.alternatives_of(Room.load(folder, kernel))


def regenerate(kernel: Kernel, folder: str | Path, play: Play, *, by: str | None = None) -> Any:
    """Play the last turn again from the state before it (the same words, by the same member),
    the earlier reply kept as an alternative; what ``play`` returns."""
    with room_lock(folder):
        room = Room.load(folder, kernel)
        _keeper(room, by)
        said, actor = checkpoints.last_said(room)
        return checkpoints.regenerate(room, lambda loaded: play(loaded, said, actor))
