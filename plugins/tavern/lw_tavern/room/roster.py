"""The pregen roster: the claimable cast a keeper's world import brings (``.pc``).

Each pregen is a ``pregen`` document holding the **pristine** sheet the import gave it. A
claim is exclusive (one claimer per pregen, one pregen per player) and checked against the
room's rules: every stat of the pristine sheet must be a stat of the room's rule system. A
copy of the pristine sheet becomes the claimer's, in a file of its own
(``sheets/<member>-<pregen>.yaml``); their own sheet file is left untouched and remembered in
the pregen document (keeper-only). A release points them back at it -- byte for byte what it
was, comments included -- (or at no sheet, if they had none) and frees the pregen for the next
claimant. A re-import refreshes the pristine sheet and keeps the claim.
"""

from __future__ import annotations

from typing import Any

from lwcore.api import Document, LwError, Member, Room, Sheet, SheetFile, sheet_data, validate_model

from lw_tavern.room.documents import PREGEN
from lw_tavern.room.imports import slug


def roster(room: Room) -> list[Document]:
    return room.documents.all(PREGEN)


def find(room: Room, ref: str) -> Document:
    """A pregen by its id, its name (any case) or its number in ``.pc list`` (from 1), in that
    order: an id or name wins over a number, so a pregen whose name is all digits ("007") is
    found by it, and its id always names that one pregen (what the web table's button sends)."""
    docs = roster(room)
    ref = ref.strip()
    for doc in docs:
        if doc.id == ref:
            return doc
    wanted = slug(ref)
    for doc in docs:
        if wanted and (doc.id == wanted or slug(str(doc.data.get("name", ""))) == wanted):
            return doc
    if ref.isdigit() and 1 <= int(ref) <= len(docs):
        return docs[int(ref) - 1]
    names = ", ".join(str(d.data.get("name")) for d in docs) or "(the roster is empty)"
    raise LwError(f"no pregen {ref!r} in this room", expected=f"a number from .pc list or one of: {names}",
                  code="unknown")


def held_by(room: Room, member_id: str) -> Document | None:
    return next((d for d in roster(room) if d.data.get("claimed_by") == member_id), None)


def claim(room: Room, member: Member, ref: str) -> Document:
    """``member`` claims the pregen ``ref``; returns the updated document."""
    doc = find(room, ref)
    name = doc.data.get("name")
    holder = doc.data.get("claimed_by") or ""
    if holder == member.id:
        raise LwError(f"{name} is already yours")
    if holder:
        raise LwError(f"{name} is taken", code="taken")
    mine = held_by(room, member.id)
    if mine is not None:
        raise LwError(f"you already play {mine.data.get('name')}: .pc release first", code="taken")
    sheet = checked_sheet(room, doc.data.get("sheet") or {}, str(name))
    current = room.sheets.get(member.id)
    original = {"path": member.sheet, "sheet": sheet_data(current) if current is not None else None}
    room.sheets[member.id] = sheet
    member.sheet = copy_path(member, doc.id)
    room.mark("room", f"sheet:{member.id}")
    return room.documents.put(Document(doc.id, PREGEN, {**doc.data, "claimed_by": member.id, "original": original},
                                       meta=dict(doc.meta)))


def copy_path(member: Member, pregen_id: str) -> str:
    """The file a member's copy of a pregen lives in."""
    import re

    safe = re.sub(r"[^\w.-]+", "-", f"{member.id}-{pregen_id}", flags=re.UNICODE).strip(".-")
    return f"sheets/{safe or 'pregen'}.yaml"


def checked_sheet(room: Room, pristine: Any, name: str) -> Any:
    """The pristine sheet bound to the room's rule system: every stat must be one of its
    stats (aliases allowed), the values the sheet format takes."""
    pack = room.rule_system
    data = {**dict(pristine), "system": pack.id}
    unknown = [k for k in dict(data.get("values") or {}) if pack.canonical(str(k)) is None]
    if unknown:
        raise LwError(f"{name} cannot be played here: {', '.join(map(str, unknown))} "
                      f"{'is not a stat' if len(unknown) == 1 else 'are not stats'} of {pack.id}", code="rules")
    model = validate_model(SheetFile, data, file=f"pregen {name}")
    return Sheet.from_file(pack, model)


def release(room: Room, member: Member) -> Document:
    """``member`` gives their pregen back: their original sheet (or none) is restored."""
    doc = held_by(room, member.id)
    if doc is None:
        raise LwError(f"{member.name or member.id} plays no pregen", code="unknown")
    original = doc.data.get("original") or {}
    before = original.get("sheet")
    path = original.get("path")
    if isinstance(before, dict) and path:
        room.sheets[member.id] = Sheet.from_file(room.rule_system, {**before, "system": room.rule_system.id})
    else:
        room.sheets.pop(member.id, None)
    member.sheet = path  # the original file was never written: pointing back restores it
    room.mark("room")
    data = {k: v for k, v in doc.data.items() if k != "original"}
    return room.documents.put(Document(doc.id, PREGEN, {**data, "claimed_by": ""}, meta=dict(doc.meta)))
