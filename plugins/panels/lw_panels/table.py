"""What one member sees at the table, as data for the renderers.

:func:`table_view` gathers, for one member, only from projections: the story so far (the
recap and the history lines :func:`lwcore.turn.view.view_for` gives them), their variables,
their panels resolved (:mod:`lw_panels.manifest`), the hooks' blocks of the last turn
resolved for them, what the stage director staged on the last turn in their language
(:mod:`lw_panels.stage_view`), and, for each tier-2 panel, the state its frame receives
(their own variables and the panel's latest payload).
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from pydantic import TypeAdapter, ValidationError

from lw_panels.compile import compile_block, resolve, shown
from lw_panels.load import asset_bytes
from lw_panels.manifest import resolve_panels, room_packs
from lw_panels.pictures import PictureStore
from lw_panels.stage_view import stage_for
from lw_panels.variables import viewer_state
from lwcore.api import Block, alternatives_of, js_enabled, view_for, viewer_of

if TYPE_CHECKING:
    from lwcore.api import Room

_BLOCK: TypeAdapter[Any] = TypeAdapter(Block)


def hook_ui(room: Room, emissions: Iterable[Mapping[str, Any]], state: Any, locale: str,
            known: set[str]) -> list[dict[str, Any]]:
    """The hooks' ``emitUI`` emissions of a turn, resolved for one viewer (their
    ``visible_when`` against the viewer's values). A picture by hash shows only when it is
    a file of an enabled pack (``known``); one by path shows its caption."""
    out = []
    for emission in emissions:
        blocks = []
        for raw in emission.get("blocks", ()):
            try:
                block = _BLOCK.validate_python(raw)
            except ValidationError:
                continue
            for item in resolve([compile_block(block)], state.vars, state.values, locale):
                if item.get("kind") == "image" and item.get("hash") not in known:
                    item = {k: v for k, v in item.items() if k != "hash"}
                blocks.append(item)
        if blocks:
            options = emission.get("options") or {}
            out.append({"kind": "ui", "slot": options.get("panel", "inline"), "blocks": blocks})
    return out


def table_view(room: Room, member_ref: str | None, *, ui: Iterable[Mapping[str, Any]] = (),
               version: int = 0, asset_base: str | None = None, frame_base: str | None = None,
               inline_assets: bool = False, staged: Iterable[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """Everything member ``member_ref`` sees (a mapping the renderers take). ``asset_base``
    and ``frame_base`` say where the web table serves pictures and tier-2 pages;
    ``inline_assets`` embeds pictures as ``data:`` URLs instead (a standalone page);
    ``staged``: the stage director's entries of the last turn (:mod:`lw_panels.staging`)."""
    member = room.member(member_ref)
    viewer = viewer_of(room, member)
    view = view_for(room, member.id)
    state = viewer_state(room, viewer)
    packs = room_packs(room)
    by_hash = {asset.sha256: (pack, asset) for pack in packs.packs for asset in pack.files.values()}
    panels = resolve_panels(room, viewer, state=state)
    staged = list(staged)
    inline: dict[str, str] | None = None
    if inline_assets:
        inline = {}
        for sha in _hashes(panels) | {e[k] for e in staged for k in ("hash", "map") if e.get(k)}:
            if sha in by_hash:
                pack, asset = by_hash[sha]
                data = asset_bytes(pack, asset)
                inline[sha] = f"data:{asset.mime};base64," + base64.b64encode(data).decode("ascii")
    frames = {}
    scripts = js_enabled(room.kernel.env)  # off: no tier-2 frame runs; each shows its tier-1 fallback
    for panel in panels:
        if inline is not None:
            panel["inline_assets"] = inline
        else:
            panel["asset_base"] = asset_base
            panel["frame_base"] = frame_base if scripts or panel["tier"] != 2 else None
        if panel["tier"] == 2 and not scripts:
            panel["scripts_off"] = True
        elif panel["tier"] == 2:
            frames[panel["id"]] = {"variables": [{"id": v.id, "label": v.label, "value": v.value, "text": v.text}
                                                 for v in state.vars.values()],
                                   "payload": panel.get("payload")}
    emissions = hook_ui(room, ui, state, viewer.locale, set(by_hash))
    for emission in emissions:
        if inline is not None:
            emission["inline_assets"] = inline
        else:
            emission["asset_base"] = asset_base
    served = inline is None and asset_base is not None  # the web table serves generated pictures by hash
    pictures = {e["generated"] for e in staged if isinstance(e.get("generated"), str)} if served else set()

    def source(sha: str) -> str | None:
        if sha in pictures:
            return f"{asset_base}{sha}"
        if sha not in by_hash:
            return None
        return inline.get(sha) if inline is not None else (f"{asset_base}{sha}" if asset_base is not None else None)

    stage = stage_for(staged, viewer.locale, source, None if served else PictureStore(room.path).bytes_of) if staged else []
    variables = [{"id": v.id, "label": v.label, "text": v.value_label if v.value_label is not None else shown(v.value),
                  "maximum": v.maximum, "keeper_only": bool(getattr(v, "keeper_only", False))} for v in view.variables]
    variables += [{"id": "mvu." + leaf.path, "label": leaf.path, "text": shown(leaf.value), "maximum": None,
                   "keeper_only": leaf.hidden, **({"hidden": True} if leaf.hidden else {})} for leaf in view.tree]
    name = member.name or member.id
    own = next((sheet for sheet in view.sheets if sheet.member == member.id), None)
    out = {
        "room": room.file.id, "title": view.title, "viewer": member.id, "name": name, "keeper": viewer.keeper,
        "locale": viewer.locale, "recap": view.recap, "version": version,
        "history": [line.model_dump() for line in view.history], "variables": variables,
        "panels": panels, "ui": emissions, "stage": stage, "frames": frames,
        "sheet": None if own is None else {"name": own.name, "tagline": own.tagline,
                                           "resources": [bar.model_dump() for bar in own.resources]},
    }
    if viewer.keeper:  # the keeper's message controls: the last turn and its kept replies
        out["controls"] = {"turn": room.turn_number, "alternatives": [
            {"number": n, "narration": text, "chosen": chosen} for n, text, chosen in alternatives_of(room)]}
    return out


def _hashes(panels: list[dict[str, Any]]) -> set[str]:
    return {b["hash"] for p in panels for b in p.get("blocks", ()) if b.get("kind") == "image" and b.get("hash")}
