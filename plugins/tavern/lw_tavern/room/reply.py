"""The reply processor: ``<UpdateVariable>`` blocks read by code and cut from the narration.

An MVU card teaches the model to end its reply with an update block; the kernel calls
:func:`reply_edit` with the reply text (``lw_reply_text``) and makes the changes it returns
to the room's tree (MVU's operations as the kernel's tree changes, which it checks and
records), so players read the narration without the block and the tree changes by
engine code only. Problems found in a block are notes for the keeper.
"""

from __future__ import annotations

import re

from lwcore.contributions import ReplyEdit

from lw_tavern.mvu.ops import Op, change
from lw_tavern.mvu.update import parse_reply

_ANY_BLOCK = re.compile(r"<\s*(update_?variable|json_?patch)\b", re.IGNORECASE)


def reply_edit(text: str) -> ReplyEdit | None:
    """The narration without update blocks and the blocks' operations (``None``: no block)."""
    if not _ANY_BLOCK.search(text):
        return None
    parsed = parse_reply(text, file="reply")
    ops = tuple(change(Op(c.op, c.path, c.args, c.reason or "UpdateVariable")) for c in parsed.commands)
    return ReplyEdit(parsed.narration, ops, tuple(f"<UpdateVariable> {problem}" for problem in parsed.problems))
