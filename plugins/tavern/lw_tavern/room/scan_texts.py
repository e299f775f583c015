"""What a room's world-book scan reads besides the chat: the texts entries opt into with their
``match*`` flags (SillyTavern's ``globalScanData``).

An entry with ``matchCharacterDescription``, ``matchCharacterPersonality``,
``matchCharacterDepthPrompt``, ``matchScenario``, ``matchCreatorNotes`` or
``matchPersonaDescription`` also matches its keys against that text (the engine appends it to
the entry's scan buffer, :mod:`lw_tavern.worldbook.scan`). In a room:

- **the character** is the room's card: the card of each world import (with several, each
  text joined in import order). A world import keeps its description, personality, scenario,
  creator notes and depth prompt (the Character's Note, ``extensions.depth_prompt.prompt``) as
  its ``worldbook_pack`` document's ``scan`` (keeper-only), from the card's person half
  (templates removed); each turn they are read with the macros (``{{char}}`` the card's name,
  ``{{user}}`` the acting member's character), never as templates;
- **the persona** is the acting member's character: their sheet's ``notes`` (a ``pc`` import
  puts the card's description and personality there), as written -- player text is neither
  rendered nor run.

Only the texts some entry of the book asks for are read. They are matched, never placed: the
prompt does not change unless an entry fires.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from lw_tavern.card_split import strip_ejs
from lw_tavern.room.documents import PACK
from lw_tavern.worldbook.scan import GLOBAL_TEXTS

if TYPE_CHECKING:
    from lwcore.api import Member, Room

    from lw_tavern.room.render import Renderer
    from lw_tavern.worldbook.engine import CompiledBook

PERSONA = "persona_description"
CARD_TEXTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("character_description", ("description",)),
    ("character_personality", ("personality",)),
    ("character_depth_prompt", ("extensions", "depth_prompt", "prompt")),
    ("scenario", ("scenario",)),
    ("creator_notes", ("creator_notes",)),
)
"""(scan text, where a card's person half holds it)."""


def card_texts(person: Mapping[str, Any]) -> dict[str, str]:
    """The non-empty scan texts of a card (its person half: :func:`lw_tavern.card_split.split_card`),
    by scan name, templates removed."""
    out = {}
    for name, where in CARD_TEXTS:
        value: Any = person
        for key in where:
            value = value.get(key) if isinstance(value, Mapping) else None
        if isinstance(value, str):
            text = strip_ejs(value)[0].strip()
            if text:
                out[name] = text
    return out


def wanted(book: CompiledBook) -> set[str]:
    """The scan texts some entry of ``book`` opts into."""
    flags = {flag for scan in book.scans for flag in scan.global_flags}
    return {name for flag, name in GLOBAL_TEXTS if flag in flags}


def scan_globals(room: Room, actor: Member, book: CompiledBook, renderer: Renderer) -> dict[str, str]:
    """This turn's scan texts that ``book``'s entries ask for (see the module docstring)."""
    names = wanted(book)
    if not names:
        return {}
    out: dict[str, str] = {}
    if PERSONA in names:
        sheet = room.sheets.get(actor.id)
        notes = sheet.extra.get("notes") if sheet is not None else None
        if isinstance(notes, str) and notes.strip():
            out[PERSONA] = notes.strip()
    parts: dict[str, list[str]] = {}
    for doc in room.documents.all(PACK):
        texts = doc.data.get("scan")
        if doc.data.get("kind") != "world" or not isinstance(texts, Mapping):
            continue
        char = str(doc.data.get("name") or "") or None
        for name, _ in CARD_TEXTS:
            if name in names and isinstance(texts.get(name), str) and texts[name].strip():
                parts.setdefault(name, []).append(renderer.macros(texts[name], where=f"{doc.id} {name}", char=char))
    out.update({name: "\n".join(texts) for name, texts in parts.items()})
    return out
