"""The hook scripts a world import installed, for the turns of its room (``lw_turn_scripts``).

A world card's ``extensions.loreweaver_hooks`` (a native card's top-level ``hooks``) are kept in
the import's ``worldbook_pack`` document; re-importing the card replaces them. The kernel runs
each in its own sandbox session per turn (C.1).
"""

from __future__ import annotations

from lw_tavern.room.documents import PACK
from lw_tavern.room.imports import MAX_HOOKS
from lwcore.api import HookScript, TurnRoom


def scripts(room: TurnRoom) -> list[HookScript]:
    """The hook scripts the room's world imports installed (at most 16 in a room)."""
    out: list[HookScript] = []
    for doc in room.documents.all(PACK):
        if doc.data.get("kind") != "world":
            continue
        for index, source in enumerate(doc.data.get("hooks") or ()):
            if isinstance(source, str) and len(out) < MAX_HOOKS:
                out.append(HookScript(f"{doc.id}#{index}", source, origin=f"{doc.data.get('pack')} hooks[{index}]"))
    return out
