"""The built-in document types' projections: the one place the turn layer reads secrecy.

Each function is ``project(doc, viewer, room) -> view | None`` for one type (registered by
the built-in ``turn`` plugin). The fields that decide who sees what -- a variable's
``visibility``, an event's ``audience``, an entry's ``secret``, a record's ``keeper`` margin --
are read here and nowhere else in ``lwcore/turn`` (an architecture test enforces it); every
other module asks :func:`lwcore.turn.documents.project`.

Derived documents (sheets, variables, history events) are built from the room's files by the
``*_document`` functions below.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lwcore.contributions import CommandReply, Viewer
from lwcore.turn import tree as variable_tree
from lwcore.turn.documents import Document
from lwcore.turn.event_lines import entry_text
from lwcore.turn.events import Audience, Event, VariableChanged
from lwcore.turn.room import HistoryEntry, Room, sheet_values
from lwcore.turn.variables import VariableDef


# --- derived documents --------------------------------------------------------------------


def sheet_document(room: Room, member_id: str) -> Document:
    """A member's sheet: name, the character's one-line ``tagline`` (the keys the rulepack
    names in ``sheet.tagline``), the values shown, expressions, kept state and the sheet's
    other keys (``extra``)."""
    sheet = room.sheets[member_id]
    return Document(member_id, "sheet", {
        "member": member_id, "name": sheet.name, "tagline": room.rule_system.tagline(sheet.extra),
        "values": sheet_values(sheet), "expressions": dict(sheet.expressions), "state": dict(sheet.state),
        "extra": dict(sheet.extra),
    })


def variable_document(var: VariableDef) -> Document:
    return Document(var.id, "variable", var.model_dump(mode="json"))


def event_document(entry: HistoryEntry) -> Document:
    return Document(f"{entry.turn}", "event", entry.model_dump(mode="json"))


def variable_audience(var: VariableDef) -> Audience:
    """Who an event about ``var`` is for: ``all`` for a player-visible variable, else ``keeper``."""
    return "all" if var.visibility == "player" else "keeper"


def recorded_audience(reply: CommandReply) -> Audience | None:
    """Who a room command's reply is recorded for: ``all``, ``keeper``, or ``None`` (only the
    member who typed it sees it; nothing is recorded)."""
    if reply.audience == "actor":
        return None
    return "all" if reply.audience == "all" else "keeper"


def event_audience(event: Event) -> Audience:
    """Who a tool's or command's event is for when it is recorded: ``all`` or ``keeper``."""
    return "all" if event.audience == "all" else "keeper"


# --- projections --------------------------------------------------------------------------


def project_sheet(doc: Document, viewer: Viewer, room: Room) -> dict[str, Any] | None:
    """A character sheet: players see who it is (name and tagline) and the values the pack
    shows; the keeper also sees expressions, the sheet's other keys (notes …) and the engine's
    kept state."""
    data = doc.data
    if viewer.keeper:
        return dict(data)
    return {"member": data["member"], "name": data["name"], "tagline": data.get("tagline"),
            "values": dict(data["values"])}


def project_variable(doc: Document, viewer: Viewer, room: Room) -> dict[str, Any] | None:
    """A module variable: keeper-only trackers vanish, declaration and value alike (iron rule
    3); enum values come with their label in the viewer's locale."""
    var = VariableDef.model_validate(dict(doc.data))
    if var.visibility != "player" and not viewer.keeper:
        return None
    view: dict[str, Any] = {
        "id": var.id, "label": var.label(viewer.locale), "kind": var.kind, "value": var.value,
        "value_label": var.option_label(var.value, viewer.locale) if var.kind == "enum" else None,
        "minimum": var.minimum, "maximum": var.maximum,
    }
    if viewer.keeper:
        view["visibility"] = var.visibility
        view["keeper_only"] = var.visibility != "player"
        view["options"] = list(var.options)
        view["option_labels"] = [var.option_label(o, viewer.locale) for o in var.options] if var.option_labels else []
    return view


DICE_KEYS = ("faces", "dice", "roll")
"""Keys whose number (or list of numbers) in an event's data means dice were rolled."""


def rolled(data: Any, depth: int = 0) -> bool:
    """Whether an event's data records dice rolled (a check, a subsystem, ``.r``, a rule
    system's dot command): a :data:`DICE_KEYS` key holding a number or numbers, looked for a
    few levels down."""
    if depth > 4:
        return False
    if isinstance(data, Mapping):
        for key in DICE_KEYS:
            value = data.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                return True
            if isinstance(value, list) and value and all(isinstance(v, int) for v in value):
                return True
        return any(rolled(v, depth + 1) for v in data.values() if isinstance(v, (Mapping, list)))
    if isinstance(data, list):
        return any(rolled(v, depth + 1) for v in data[:16])
    return False


def project_event(doc: Document, viewer: Viewer, room: Room) -> dict[str, Any] | None:
    """A history entry. Players see entries meant for the table only, variable events only
    while the variable is player-visible *now* (a variable later made secret disappears from
    old lines too), each line rebuilt in the viewer's locale; the keeper sees everything, with
    ``keeper`` marking what players do not see."""
    entry = HistoryEntry.model_validate(dict(doc.data))
    event = entry.event
    hidden = entry.audience != "all" or (event is not None and event.audience != "all")
    if not hidden and event is not None and event.kind == "variable":
        var = room.variable(str(event.id)) if isinstance(event, VariableChanged) else None
        hidden = var is None or var.visibility != "player"
    if hidden and not viewer.keeper:
        return None
    actor = entry.actor
    if entry.role == "player" and actor in room.sheets:
        actor = room.sheets[actor].name
    edited = {"edited": True} if (entry.model_extra or {}).get("edited") is True else {}
    if event is not None and rolled(event.data()):
        edited["dice"] = True
    if viewer.keeper:
        text = entry_text(room, entry, viewer.locale, variables=False)
        return {"turn": entry.turn, "role": entry.role, "actor": actor, "member": entry.actor, "text": text,
                "keeper_only": hidden, **edited}
    text = entry_text(room, entry, viewer.locale) if entry.role == "event" else entry.text
    if not text:
        return None
    return {"turn": entry.turn, "role": entry.role, "actor": actor, "text": text, **edited}


def keeper_only(doc: Document, viewer: Viewer, room: Room) -> dict[str, Any] | None:
    """Keeper notes and threads: the keeper's working memory, whole-document keeper-only (an
    open loop's very existence can be a spoiler)."""
    return dict(doc.data) if viewer.keeper else None


def project_mvu(doc: Document, viewer: Viewer, room: Room) -> dict[str, Any] | None:
    """An imported MVU variable tree: players see only leaves under the prefixes the keeper
    exposed (``.var expose``) -- nothing exposed, nothing shipped; the keeper sees every leaf
    marked ``exposed`` or ``hidden``."""
    raw = doc.data.get("tree")
    tree: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    exposed = [p for p in doc.data.get("exposed") or () if isinstance(p, str)]
    leaves = variable_tree.leaves(tree)
    if viewer.keeper:
        return {"tree": tree, "exposed": exposed,
                "leaves": [{**leaf, "exposed": variable_tree.is_exposed(leaf["path"], exposed)} for leaf in leaves]}
    return {"tree": variable_tree.prune(tree, exposed),
            "leaves": [leaf for leaf in leaves if variable_tree.is_exposed(leaf["path"], exposed)]}


_CHRONICLE_PUBLIC = ("text", "turn", "pcs", "scene")
_SUMMARY_PUBLIC = ("text", "through_turn")


def project_chronicle(doc: Document, viewer: Viewer, room: Room) -> dict[str, Any] | None:
    """A chronicle entry: what the table did is public; the ``keeper`` annotation (what the
    players missed) and fold bookkeeping stay keeper-side."""
    if viewer.keeper:
        return dict(doc.data)
    return {k: doc.data[k] for k in _CHRONICLE_PUBLIC if k in doc.data}


def project_summary(doc: Document, viewer: Viewer, room: Room) -> dict[str, Any] | None:
    """The campaign summary ("story so far"): players get the text and how far it reaches;
    the keeper's margin and the fold bookkeeping are keeper-only."""
    if viewer.keeper:
        return dict(doc.data)
    return {k: doc.data[k] for k in _SUMMARY_PUBLIC if k in doc.data}
