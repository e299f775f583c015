"""Making the writes a plugin staged while a turn compiled, once the turn is applied.

Compiling a turn never changes the room: a compile-only run (a preview, ``lw turn --say``
without a reply) must leave it as it was. Yet some prompt work is state -- a world book's timed
effects advance on every turn whose prompt was sent, a template's ``setvar`` is buffered until
the reply is in. A plugin hands such writes to the turn's
:class:`~lwcore.contributions.StagedWrites` (``turn.staged`` in its ``lw_prompt_segments``);
:func:`commit` makes them when the reply is applied, before the reply's tool calls run, and
nothing makes them otherwise. A script's ``setvar``/``incvar`` (a template's) is staged as a
:class:`~lwcore.contributions.VariableWrite` and made like a hook's
(:func:`lwcore.turn.script_writes.apply_write`: declared variables checked and clamped, other
names leaves of the variable tree). A turn's segments are asked for once, so nothing is staged twice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lwcore.contributions import StagedWrites
from lwcore.errors import LwError
from lwcore.turn import tree
from lwcore.turn.events import Event, KeeperNote, as_event
from lwcore.turn.script_writes import apply_write

if TYPE_CHECKING:
    from lwcore.turn.room import Room


def commit(staged: StagedWrites, room: Room) -> list[Event]:
    """Make ``staged``'s writes on ``room`` (in memory; the turn saves) and forget them;
    returns the events (a refused document or operation is a keeper-only event, never an
    exception: the turn goes on)."""
    events: list[Event] = []
    for by, doc in staged.documents:
        try:
            room.documents.put(doc)
        except LwError as exc:
            events.append(KeeperNote(kind="staged_refused", by=by,
                                     summary=f"{by}: {doc.type} {doc.id!r} not stored: {exc.message}"))
    writers = dict.fromkeys(by for by, _ in staged.tree_changes)
    for writer in writers:
        events += map(as_event, tree.apply_changes(room, [c for by, c in staged.tree_changes if by == writer], by=writer))
    for by, write in staged.variable_writes:
        events += apply_write(room, write, by=by)
    staged.clear()
    return events
