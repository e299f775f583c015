"""Writes a plugin asks for while a turn compiles, made only when the turn is applied.

Compiling a turn never changes the room: a compile-only run (a preview, ``lw turn --say``
without a reply) must leave it as it was. Yet some prompt work is state -- a world book's timed
effects advance on every turn whose prompt was sent, a template's ``setvar`` is buffered until
the reply is in. A plugin hands such writes to the turn's :class:`StagedWrites`
(``turn.extra["staged"]`` in its ``lw_prompt_segments``); the pipeline makes them when the
reply is applied, before the reply's tool calls run, and drops them otherwise. A script's
``setvar``/``incvar`` (a template's) is staged as a :class:`~lwcore.contributions.VariableWrite`
and made like a hook's (:func:`lwcore.turn.script_writes.apply_write`: declared variables
checked and clamped, other names leaves of the variable tree). A recompile of
the same turn (the chronicle folding first) starts a fresh set, so nothing is staged twice.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lwcore.contributions import TreeChange, VariableWrite
from lwcore.errors import LwError
from lwcore.turn import tree
from lwcore.turn.script_writes import apply_write

if TYPE_CHECKING:
    from lwcore.turn.documents import Document
    from lwcore.turn.room import Room


@dataclass
class StagedWrites:
    """One compile's staged writes: room documents to store, variable-tree changes and scripts'
    variable writes, made in that order (each kind in the order staged)."""

    documents: list[tuple[str, Document]] = field(default_factory=list)
    tree_changes: list[tuple[str, TreeChange]] = field(default_factory=list)
    variable_writes: list[tuple[str, VariableWrite]] = field(default_factory=list)

    def document(self, doc: Document, *, by: str) -> None:
        """Store ``doc`` (through its type's write check) if the turn is applied."""
        self.documents.append((by, doc))

    def tree(self, changes: Iterable[TreeChange], *, by: str) -> None:
        """Make ``changes`` on the room's variable tree if the turn is applied."""
        self.tree_changes += [(by, change) for change in changes]

    def variables(self, writes: Iterable[VariableWrite], *, by: str) -> None:
        """Make a script's ``writes`` if the turn is applied, as a hook's are made."""
        self.variable_writes += [(by, write) for write in writes]

    def commit(self, room: Room) -> list[dict[str, Any]]:
        """Make the writes; returns the keeper-only events (a refused document or operation is
        an event, never an exception: the turn goes on)."""
        events: list[dict[str, Any]] = []
        for by, doc in self.documents:
            try:
                room.documents.put(doc)
            except LwError as exc:
                events.append({"kind": "staged_refused", "audience": "keeper", "by": by,
                               "summary": f"{by}: {doc.type} {doc.id!r} not stored: {exc.message}"})
        writers = dict.fromkeys(by for by, _ in self.tree_changes)
        for writer in writers:
            events += tree.apply_changes(room, [c for by, c in self.tree_changes if by == writer], by=writer)
        for by, write in self.variable_writes:
            events += apply_write(room, write, by=by)
        self.documents.clear()
        self.tree_changes.clear()
        self.variable_writes.clear()
        return events
