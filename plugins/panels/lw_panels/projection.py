"""The panels plugin's document types and the one place it reads who may see what.

- ``panel_packs`` (``docs/panel_packs.yaml``, one document ``enabled``): the packs whose
  panels (and presentation kit) a room's keeper switched on with ``.panels enable``. Public:
  every member may know which packs dress the table.
- ``panel_payload`` (``docs/panel_payload.yaml``, one document per ``pack/panel``): the
  opaque JSON a hook sent with ``emitPanel``; its projection and write check are
  :mod:`lw_panels.payloads` (a payload follows its panel's place in a viewer's manifest).

:func:`shows` is where a panel's ``audience`` is read (``all``: everyone, ``player``: the
players, ``keeper``: the keeper), server-side, before anything is rendered or sent: a keeper
panel is absent from a player's manifest, not hidden in it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from lwcore.api import Document, Viewer, keeper_viewer, project

if TYPE_CHECKING:
    from lw_panels.load import Panel
    from lwcore.api import Room

ENABLED = "enabled"
_PACK_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")


def shows(panel: Panel, viewer: Viewer) -> bool:
    """Whether ``panel`` belongs in ``viewer``'s manifest (its ``audience``)."""
    audience = panel.audience
    if audience == "all":
        return True
    if audience == "keeper":
        return viewer.keeper
    if audience == "player":
        return not viewer.keeper
    return False


def audience_of(panel: Panel) -> str:
    """``panel``'s audience, for the keeper's listings."""
    return panel.audience


def player_facing(panel: Panel) -> bool:
    """Whether ``panel`` ships to players (so it must never name a keeper-only variable)."""
    return panel.audience in ("all", "player")


def project_packs(doc: Document, viewer: Viewer, room: Room) -> dict[str, Any] | None:
    """The enabled packs, for every member."""
    packs = doc.data.get("packs")
    return {"packs": [p for p in packs if isinstance(p, str)] if isinstance(packs, list) else []}


def validate_packs(doc: Document, room: Room) -> list[str]:
    if doc.id != ENABLED:
        return [f"the enabled packs are one document, {ENABLED!r}"]
    packs = doc.data.get("packs")
    if not isinstance(packs, list) or not all(isinstance(p, str) and _PACK_ID.match(p) for p in packs):
        return ["packs is a list of pack ids"]
    if len(set(packs)) != len(packs):
        return ["a pack is listed twice"]
    return []


def enabled_packs(room: Room) -> list[str]:
    """The pack ids enabled in ``room`` (through the document's projection)."""
    doc = room.documents.get("panel_packs", ENABLED)
    view = project(room, doc, keeper_viewer(room)) if doc is not None else None
    return list((view or {}).get("packs", []))


def set_enabled(room: Room, pack_id: str, on: bool) -> bool:
    """Switch ``pack_id``'s panels on or off in ``room`` (saved with the room); whether that
    changed anything."""
    current = enabled_packs(room)
    if (pack_id in current) == on:
        return False
    packs = [*current, pack_id] if on else [p for p in current if p != pack_id]
    room.documents.put(Document(ENABLED, "panel_packs", {"packs": packs}))
    return True
