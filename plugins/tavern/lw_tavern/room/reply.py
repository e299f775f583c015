"""The reply processor: MagVarUpdate's commands read by code, ``<UpdateVariable>`` blocks cut from the narration.

An MVU card teaches the model to end its reply with an update block; the kernel calls
:func:`reply_edit` with the reply text (``lw_reply_text``). The commands are read as MagVarUpdate
reads them (:mod:`lw_tavern.mvu.magvar`: anywhere in the reply, with the room's MVU schema, the
arguments by its own libraries in the sandbox) and handed back as the kernel's tree changes, which
it checks, makes and records; players read the narration without the blocks. Problems are notes
for the keeper.
"""

from __future__ import annotations

import re
from typing import Any

from lwcore.api import ReplyEdit, sandbox as default_sandbox, tree_of

from lw_tavern.mvu.magvar import read_reply, reconcile
from lw_tavern.mvu.update import strip_blocks
from lw_tavern.mvu.values import Reader
from lw_tavern.room.documents import SCHEMA, SCHEMA_ID

_ANY_BLOCK = re.compile(r"<\s*(update_?variable|json_?patch)\b", re.IGNORECASE)
_ANY_CALL = re.compile(r"_\.(set|insert|assign|remove|unset|delete|add)\(")


def room_schema(room: Any) -> dict[str, Any] | None:
    """The room's MVU schema reconciled with its tree now (MagVarUpdate reconciles after every
    update); ``None`` for a room whose tree was seeded before schemas were kept (no checks)."""
    doc = room.documents.get(SCHEMA, SCHEMA_ID) if room is not None else None
    schema = doc.data.get("schema") if doc is not None else None
    if not isinstance(schema, dict):
        return None
    return reconcile(tree_of(room), schema)


def reply_edit(text: str, room: Any = None, sandbox: Any = None) -> ReplyEdit | None:
    """The narration without update blocks and the commands as tree changes (``None``: none)."""
    if not _ANY_BLOCK.search(text) and not _ANY_CALL.search(text):
        return None
    if sandbox is None:
        sandbox = default_sandbox
    reader = Reader(sandbox)
    update = read_reply(text, reader, room_schema(room))
    notes = [f"<UpdateVariable> {problem}" for problem in update.problems]
    if update.missing:
        notes.append("<UpdateVariable> read without " + ", ".join(update.missing)
                     + ": values MagVarUpdate reads with them stayed text (`lw tavern js-install`)")
    return ReplyEdit(strip_blocks(text), tuple(update.changes), tuple(notes))
