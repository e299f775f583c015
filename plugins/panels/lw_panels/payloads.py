"""The ``panel_payload`` document type: a hook's ``emitPanel`` payload, for that panel's viewers.

One document per ``pack/panel`` (``docs/panel_payload.yaml``): the opaque JSON a hook sent. It
reaches a viewer only when that panel is in the viewer's own manifest
(:func:`lw_panels.manifest.manifest`) -- a keeper panel's payload never reaches a player; and
a payload for a player panel must not hold a keeper-only variable's current text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lw_panels.leaks import payload_problem
from lw_panels.manifest import manifest, room_packs
from lw_panels.variables import keeper_only
from lwcore.api import Document, Viewer

if TYPE_CHECKING:
    from lwcore.api import Room


def project_payload(doc: Document, viewer: Viewer, room: Room) -> dict[str, Any] | None:
    """A hook's payload for one panel: only to viewers whose manifest has that panel."""
    if not any(panel.ref == doc.id for panel in manifest(room, viewer)):
        return None
    return {"panel": doc.id, "payload": doc.data.get("payload"), "turn": doc.data.get("turn")}


def validate_payload(doc: Document, room: Room) -> list[str]:
    """A payload must address a panel an enabled pack declares, and a payload for a player
    panel must not hold a keeper-only variable's current text (the hook runtime logs the
    refusal for the keeper)."""
    pack_id, _, panel_id = doc.id.partition("/")
    for pack in room_packs(room).packs:
        panel = pack.panel(panel_id) if pack.home.id == pack_id else None
        if panel is not None:
            problem = payload_problem(panel, doc.data.get("payload"), keeper_only(room))
            return [problem] if problem else []
    return [f"no enabled pack declares the panel {doc.id!r}"]
