"""The file formats of the panels plugin: ``ui/panels.yaml`` (``lw schema ui-panels``).

.. code-block:: yaml

    panels:
      - id: hud                      # the panel's id in its pack (hooks address pack/hud)
        title: {en: The harbour, zh: 港口}
        slot: sidebar                # sidebar | tray | modal
        audience: all                # all | player | keeper (resolved per viewer, server-side)
        blocks:                      # tier 1: tier-0 blocks with bindings (lw schema ui-block)
          - {kind: meter, label: {en: Clues, zh: 线索}, value: {$var: clues_found}, min: 0, max: 6}
          - {kind: text, text: {en: The survey is open.}, visible_when: "day >= 46"}
          - repeat: {prefix: "npc.", block: {kind: stat, label: {$leaf: label}, value: {$leaf: value}}}
      - id: map                      # tier 2: real HTML/JS/CSS in a locked frame
        title: {en: Map}
        slot: modal
        entry: ui/map/index.html
        assets: [ui/map/index.html, ui/map/map.js, ui/map/map.css, ui/map/harbour.png]
        fallback:                    # required: what text clients show (or: fallback: null)
          - {kind: image, src: ui/map/harbour.png, caption: {en: The harbour map}}

Tier is decided by ``entry``: without it a panel is tier 1 and needs ``blocks``; with it, the
panel lists every file it ships (``assets``, the entry included, all in the entry's folder or
below it) and says what text clients get (``fallback``: blocks, or ``null``).
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Annotated, Literal

from pydantic import Field, StringConstraints, model_validator

from lwcore.api import Label, Src, Strict, TemplateBlock

MAX_PANELS = 32
MAX_BLOCKS = 64
MAX_ASSETS = 24
PANEL_ID = r"^[a-z0-9][a-z0-9_-]{0,63}$"
SLOTS = ("sidebar", "tray", "modal")
AUDIENCES = ("all", "player", "keeper")
ENTRY_SUFFIXES = (".html", ".htm")

Blocks = Annotated[list[TemplateBlock], Field(min_length=1, max_length=MAX_BLOCKS)]


class PanelDef(Strict):
    """One named panel of a pack."""

    id: Annotated[str, StringConstraints(pattern=PANEL_ID)]
    title: Label
    slot: Literal["sidebar", "tray", "modal"]
    audience: Literal["all", "player", "keeper"] = "all"
    blocks: Blocks | None = None
    entry: Src | None = None
    assets: Annotated[list[Src], Field(min_length=1, max_length=MAX_ASSETS)] | None = None
    fallback: Blocks | None = None

    @model_validator(mode="after")
    def _tier(self) -> PanelDef:
        given = self.model_fields_set
        if self.entry is None:
            extra = [name for name in ("assets", "fallback") if name in given]
            if extra:
                raise ValueError(f"{', '.join(extra)}: only a tier-2 panel (one with entry) declares this")
            if self.blocks is None:
                raise ValueError("a tier-1 panel needs blocks (or an entry, for a tier-2 panel)")
            return self
        if "blocks" in given:
            raise ValueError("a tier-2 panel gives its text version as fallback, not blocks")
        if not self.entry.lower().endswith(ENTRY_SUFFIXES):
            raise ValueError(f"entry {self.entry!r} must be an .html file")
        if self.assets is None:
            raise ValueError("a tier-2 panel lists every file it ships in assets (the entry included)")
        if len(set(self.assets)) != len(self.assets):
            raise ValueError("assets lists a file twice")
        if self.entry not in self.assets:
            raise ValueError("assets must include the entry itself")
        folder = PurePosixPath(self.entry).parent
        outside = [a for a in self.assets if folder != PurePosixPath(".") and folder not in PurePosixPath(a).parents]
        if outside:
            raise ValueError(f"assets must lie in the entry's folder {folder.as_posix()!r}: {', '.join(outside)}")
        if "fallback" not in given:
            raise ValueError("a tier-2 panel needs fallback: blocks for text clients, or fallback: null")
        return self

    @property
    def tier(self) -> int:
        return 2 if self.entry is not None else 1


class PanelsFile(Strict):
    """``ui/panels.yaml``: the named panels of one pack."""

    panels: Annotated[list[PanelDef], Field(min_length=1, max_length=MAX_PANELS)]

    @model_validator(mode="after")
    def _unique(self) -> PanelsFile:
        seen: set[str] = set()
        for panel in self.panels:
            if panel.id in seen:
                raise ValueError(f"panel id {panel.id!r} is used twice")
            seen.add(panel.id)
        return self
