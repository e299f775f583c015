"""The room documents this plugin keeps, and what each viewer may see of them.

These projections are the only exit for the plugin's room content (the kernel's rule: every
view, ``--json`` output and command reply is built from them):

- ``worldbook_entry`` -- one imported world-book entry (``data.entry`` in SillyTavern's
  world-info shape, ``data.pack`` the import it belongs to; ``meta.source`` is the
  ``<pack-id>#<entry-id>`` handle). Players never see a ``secret`` entry, not even that it
  exists; the others show their title, keys and text.
- ``worldbook_pack`` -- one import (``world:<pack>``, ``companion:<pack>``, ``pc:<member>``):
  kind, pack id, name, file, its hook scripts and report, and (a world import) the card's texts
  entries' ``match*`` flags scan. Players see what was imported and for whom, never the hooks,
  the report or the card's texts.
- ``worldbook_timed`` -- the world book's timed state (turn counter, ``sticky``/``cooldown``
  effects), what fired last turn, template warnings: keeper-only.
- ``pregen`` -- a claimable pre-generated character: players see name, blurb and who holds
  it; the pristine sheet and the claimer's original sheet are keeper-only.
- ``companion`` -- a companion the keeper plays: players see its name and description.
- ``preset_enabled`` -- a chat-completion preset enabled in this room (not secret).
- ``mvu_schema`` -- what MagVarUpdate derives from the world imports' ``[InitVar]`` data (which
  lists and objects may grow, required keys, templates, ``strictSet``…): keeper-only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lwcore.api import DocumentType, Viewer

ENTRY = "worldbook_entry"
PACK = "worldbook_pack"
TIMED = "worldbook_timed"
TIMED_ID = "timed"
PREGEN = "pregen"
COMPANION = "companion"
PRESET = "preset_enabled"
SCHEMA = "mvu_schema"
SCHEMA_ID = "schema"

_HERE = "lw_tavern.room.documents"


def document_types() -> list[DocumentType]:
    return [
        DocumentType(ENTRY, f"{_HERE}:project_entry", f"{_HERE}:check_entry",
                     description={"en": "an imported world-book entry (secret ones keeper-only)"}),
        DocumentType(PACK, f"{_HERE}:project_pack", f"{_HERE}:check_pack",
                     description={"en": "an import into the room: its kind, pack, hook scripts, report"}),
        DocumentType(TIMED, f"{_HERE}:keeper_only",
                     description={"en": "the world book's timed effects and turn counter (keeper-only)"}),
        DocumentType(PREGEN, f"{_HERE}:project_pregen", f"{_HERE}:check_pregen",
                     description={"en": "a claimable pre-generated character"}),
        DocumentType(COMPANION, f"{_HERE}:project_companion",
                     description={"en": "a companion the keeper plays"}),
        DocumentType(PRESET, f"{_HERE}:project_public",
                     description={"en": "a chat-completion preset enabled in the room"}),
        DocumentType(SCHEMA, f"{_HERE}:keeper_only",
                     description={"en": "the MVU schema of the room's variable tree (keeper-only)"}),
    ]


def _entry(doc: Any) -> Mapping[str, Any]:
    entry = doc.data.get("entry")
    return entry if isinstance(entry, Mapping) else {}


def project_entry(doc: Any, viewer: Viewer, room: Any) -> dict[str, Any] | None:
    entry = _entry(doc)
    if viewer.keeper:
        return {"pack": doc.data.get("pack"), "source": doc.source, **dict(entry)}
    if entry.get("secret") is not False:  # anything but a plain false is kept from players
        return None
    keys = keys_raw if isinstance(keys_raw := entry.get("key"), list) else []
    return {"pack": doc.data.get("pack"), "title": str(entry.get("comment") or ""), "keys": [str(k) for k in keys],
            "content": str(entry.get("content") or "")}


def check_entry(doc: Any, room: Any) -> list[str]:
    entry = doc.data.get("entry")
    problems = []
    if not isinstance(entry, Mapping):
        problems.append("data.entry must be a world-info entry (a mapping)")
    elif not isinstance(entry.get("secret", False), bool):
        problems.append("entry.secret must be true or false")
    if not isinstance(doc.data.get("pack"), str):
        problems.append("data.pack must name the import")
    return problems


def project_pack(doc: Any, viewer: Viewer, room: Any) -> dict[str, Any] | None:
    if viewer.keeper:
        return dict(doc.data)
    return {k: doc.data.get(k) for k in ("kind", "pack", "name", "member") if k in doc.data}


def check_pack(doc: Any, room: Any) -> list[str]:
    problems = []
    if doc.data.get("kind") not in ("world", "pc", "companion"):
        problems.append("data.kind must be world, pc or companion")
    hooks = doc.data.get("hooks", [])
    if not isinstance(hooks, list) or not all(isinstance(h, str) for h in hooks):
        problems.append("data.hooks must be a list of scripts")
    return problems


def keeper_only(doc: Any, viewer: Viewer, room: Any) -> dict[str, Any] | None:
    return dict(doc.data) if viewer.keeper else None


_PREGEN_PUBLIC = ("name", "blurb", "concept", "pack", "claimed_by")


def project_pregen(doc: Any, viewer: Viewer, room: Any) -> dict[str, Any] | None:
    if viewer.keeper:
        return dict(doc.data)
    return {k: doc.data.get(k) for k in _PREGEN_PUBLIC if k in doc.data}


def check_pregen(doc: Any, room: Any) -> list[str]:
    problems = []
    if not isinstance(doc.data.get("name"), str) or not doc.data["name"].strip():
        problems.append("data.name must be the character's name")
    if not isinstance(doc.data.get("sheet"), Mapping):
        problems.append("data.sheet must be the pristine sheet (a mapping)")
    if not isinstance(doc.data.get("claimed_by", ""), str):
        problems.append("data.claimed_by must be a member id or empty")
    return problems


def project_companion(doc: Any, viewer: Viewer, room: Any) -> dict[str, Any] | None:
    if viewer.keeper:
        return dict(doc.data)
    return {k: doc.data.get(k) for k in ("name", "description", "pack") if k in doc.data}


def project_public(doc: Any, viewer: Viewer, room: Any) -> dict[str, Any] | None:
    return dict(doc.data)
