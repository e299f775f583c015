"""What a plugin may use of a turn's room without knowing its class: :class:`TurnRoom`.

``TurnContext.room`` is typed with it. The room's class (:class:`lwcore.turn.room.Room`, exported
as ``lwcore.api.Room``) lives in a later layer than the contribution types, so the contribution
layer describes the part of it plugins read and change -- its folder, the kernel, its members,
its documents, its history, and :meth:`TurnRoom.mark` -- as protocols of this (host) layer.
``Room`` satisfies :class:`TurnRoom` (the type checker checks it where a turn builds its context,
``lwcore.turn.context``; ``tests/turn/test_room_protocol.py`` checks it at run time).

The kernel's turns hand hooks a ``Room`` (``None`` outside a turn). A plugin that needs more of
the room than this protocol (its ``room.yaml`` as ``file``, its sheets, the helpers of
``lwcore.api`` that take a ``Room``) narrows with ``isinstance(turn.room, Room)`` and contributes
nothing otherwise, as two of the bundled plugins do; one that reads only what
:class:`TurnRoom` names works with any object satisfying it.

Importing this module costs almost nothing: protocols only, every annotation a string.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from pathlib import Path

    from lwcore.contributions import Document
    from lwcore.kernel import Kernel


class RoomMember(Protocol):
    """One member of a room, as a plugin reads it: ``id``, display ``name`` (may be empty) and
    ``locale`` (``None``: the room's)."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def locale(self) -> str | None: ...


class RoomHistoryEntry(Protocol):
    """One line of the room's history: the ``turn`` it belongs to, its ``role`` (``player``,
    ``keeper`` or ``event``), the ``actor``'s member id (``None`` for the keeper's narration),
    its ``text`` and its ``audience`` (``all`` or ``keeper``: never shown to players)."""

    @property
    def turn(self) -> int: ...

    @property
    def role(self) -> str: ...

    @property
    def actor(self) -> str | None: ...

    @property
    def text(self) -> str: ...

    @property
    def audience(self) -> str: ...


class RoomHistory(Protocol):
    """The room's history, oldest first: the saved entries and those recorded this turn."""

    def tail(self, n: int) -> Sequence[RoomHistoryEntry]:
        """The newest ``n`` entries, oldest first."""
        ...

    def all(self) -> Sequence[RoomHistoryEntry]:
        """Every entry, oldest first (reads the whole log: prefer :meth:`tail`)."""
        ...


class RoomDocuments(Protocol):
    """The room's documents by type name (``docs/<type>.jsonl``); a change is saved with the
    turn, under its lock, and each reader sees only its projection."""

    def all(self, name: str) -> Sequence[Document]:
        """Every document of type ``name``, in the order they were written."""
        ...

    def get(self, name: str, doc_id: str) -> Document | None:
        """The document ``doc_id`` of type ``name``, else ``None``."""
        ...

    def put(self, doc: Document) -> Document:
        """Store ``doc`` (new, or replacing the one with its id) after its type's write check;
        returns what is stored; :class:`lwcore.errors.LwError` when the type refuses it."""
        ...

    def delete(self, name: str, doc_id: str) -> bool:
        """Remove the document ``doc_id`` of type ``name``; whether there was one."""
        ...


@runtime_checkable
class TurnRoom(Protocol):
    """The room a turn plays in, as :class:`lwcore.contributions.TurnContext` hands it to a
    plugin's hooks (see the module docstring).

    - ``path``: the room folder; ``kernel``: the kernel that loaded it.
    - ``members``: the keeper first, then the players; ``member(ref)``: the member with that id
      or name (``None``: the first player, else the keeper), :class:`lwcore.errors.LwError`
      naming the members when there is none.
    - ``documents``, ``history``: see :class:`RoomDocuments`, :class:`RoomHistory`.
    - ``turn_number``: the turn of the newest history entry (0 for a new room).
    - ``mark(*parts)``: name the room parts a plugin changed outside ``documents``
      (``"room"``, ``"sheet:<member id>"``, ``"variables"``) so the room's save writes them.
    """

    @property
    def path(self) -> Path: ...

    @property
    def kernel(self) -> Kernel: ...

    @property
    def members(self) -> Sequence[RoomMember]: ...

    def member(self, ref: str | None) -> RoomMember: ...

    @property
    def documents(self) -> RoomDocuments: ...

    @property
    def history(self) -> RoomHistory: ...

    @property
    def turn_number(self) -> int: ...

    def mark(self, *what: str) -> None: ...


__all__ = ["RoomDocuments", "RoomHistory", "RoomHistoryEntry", "RoomMember", "TurnRoom"]
