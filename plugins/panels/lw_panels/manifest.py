"""A room's panels for one viewer: the manifest (which panels), and the panels resolved.

- :func:`room_packs`: the packs the room enabled, loaded (a pack that is gone or broken is
  left out and reported to the keeper, never a broken room);
- :func:`manifest`: the panels ``viewer`` receives -- audience resolved here, server-side
  (:func:`lw_panels.projection.shows`), and, for a player, without any panel that names a
  keeper-only variable (:mod:`lw_panels.leaks`);
- :func:`wire`: a manifest panel as JSON for clients that resolve templates themselves
  (``audience`` never appears in it);
- :func:`resolve_panels`: the manifest resolved against the viewer's own variables, as
  ``{"kind": "panel", …}`` mappings the renderers draw (``Kernel.render_panel``).
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lw_panels.compile import resolve_reusing
from lw_panels.leaks import name_problems, names_a_secret
from lw_panels.load import LoadedPack, Panel, cached_pack
from lw_panels.packs import pack_homes
from lw_panels.projection import enabled_packs, player_facing, shows
from lw_panels.variables import ViewerState, keeper_only, viewer_state
from lwcore.api import LwError, Viewer, localized, project

if TYPE_CHECKING:
    from lwcore.api import Room


@dataclass
class RoomPacks:
    """The loaded enabled packs of a room, and (for the keeper) why any is missing."""

    packs: list[LoadedPack] = field(default_factory=list)
    problems: list[tuple[str, LwError]] = field(default_factory=list)

    def panels(self) -> list[Panel]:
        return [panel for pack in self.packs for panel in pack.panels]


def room_packs(room: Room) -> RoomPacks:
    kernel = room.kernel
    out = RoomPacks()
    enabled = enabled_packs(room)
    if not enabled:
        return out
    homes = pack_homes(kernel)
    for pack_id in enabled:
        home = homes.get(pack_id)
        if home is None:
            out.problems.append((pack_id, LwError(f"pack {pack_id!r} is enabled here but not installed")))
            continue
        try:
            out.packs.append(cached_pack(kernel, home))
        except LwError as exc:
            out.problems.append((pack_id, exc))
    return out


def manifest(room: Room, viewer: Viewer, packs: RoomPacks | None = None) -> list[Panel]:
    """The panels ``viewer`` receives, in pack order then declaration order."""
    packs = packs if packs is not None else room_packs(room)
    panels = [panel for panel in packs.panels() if shows(panel, viewer)]
    if viewer.keeper or not any(player_facing(p) and (p.named or p.prefixes) for p in panels):
        return panels
    secrets = keeper_only(room)
    return [panel for panel in panels if not names_a_secret(panel, secrets)]


def withheld(room: Room, packs: RoomPacks | None = None) -> list[tuple[Panel, list[LwError]]]:
    """Player-facing panels kept from the players because they name keeper-only variables
    (for the keeper: ``.panels list``)."""
    packs = packs if packs is not None else room_packs(room)
    secrets = keeper_only(room)
    out = []
    for panel in packs.panels():
        problems = name_problems(panel, secrets)
        if problems:
            out.append((panel, problems))
    return out


def wire(panel: Panel) -> dict[str, Any]:
    """One manifest entry as JSON: ``id`` (``pack/panel``), ``title``, ``slot``, ``tier`` and the
    template ``blocks`` (tier 1); ``entry``, ``assets`` (paths relative to the entry's folder)
    and ``fallback`` (tier 2). No ``audience``: it was resolved before."""
    title = panel.title if isinstance(panel.title, str) else dict(panel.title)
    out: dict[str, Any] = {"id": panel.ref, "title": title, "slot": panel.slot, "tier": panel.tier}
    if panel.tier == 1:
        out["blocks"] = list(panel.templates)
        return out
    assert panel.entry is not None
    folder = posixpath.dirname(panel.entry.path) or "."
    out["entry"] = {"path": posixpath.relpath(panel.entry.path, folder), "hash": panel.entry.sha256,
                    "size": panel.entry.size}
    out["assets"] = [{"path": posixpath.relpath(a.path, folder), "hash": a.sha256, "size": a.size, "mime": a.mime}
                     for a in panel.assets if a.path != panel.entry.path]
    out["fallback"] = None if panel.fallback_null else list(panel.templates)
    return out


def resolve_panel(panel: Panel, state: ViewerState, locale: str) -> dict[str, Any]:
    """``panel`` for one viewer: ``{"kind": "panel", "id", "title", "slot", "tier",
    "blocks"}`` (tier 2: ``blocks`` is its resolved fallback; ``entry`` names its page;
    ``fallback_null`` says it has no text version)."""
    out: dict[str, Any] = {
        "kind": "panel", "id": panel.ref,
        "title": panel.title if isinstance(panel.title, str) else localized(panel.title, locale),
        "slot": panel.slot, "tier": panel.tier,
        "blocks": resolve_reusing(panel.memo, panel.blocks, panel.named, panel.prefixes, state.vars, state.values,
                                  locale),
    }
    if panel.tier == 2:
        assert panel.entry is not None
        out["entry"] = posixpath.basename(panel.entry.path)
        out["fallback_null"] = panel.fallback_null
    return out


def resolve_panels(room: Room, viewer: Viewer, *, state: ViewerState | None = None,
                   payloads: bool = True) -> list[dict[str, Any]]:
    """Every panel of ``viewer``'s manifest, resolved (``payload``: a hook's latest
    ``emitPanel`` for it, when there is one)."""
    state = state if state is not None else viewer_state(room, viewer)
    panels = manifest(room, viewer)
    out = [resolve_panel(panel, state, viewer.locale) for panel in panels]
    if payloads and "panel_payload" in room.kernel.document_types:
        for entry in out:
            doc = room.documents.get("panel_payload", entry["id"])
            view = project(room, doc, viewer) if doc is not None else None
            if view is not None:
                entry["payload"] = view["payload"]
    return out
