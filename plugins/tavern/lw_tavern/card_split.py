"""Splitting a card into its person half and its world half (A.2), as a pure function.

A SillyTavern "heavy" card welds a character (persona, memory, abilities) to a world's machinery
(hook scripts, an MVU variable declaration, executable EJS, keeper-only lore, front-end render
entries, regex and helper scripts). :func:`split_card` takes the raw card dict (V1, V2 or V3
JSON, or the dict the kernel's card reader returns) and returns both halves and an itemized
account of everything a person import strips. The split is deterministic and structural: the
person half cannot install hooks, seed variables or run templates, however it is phrased.

:func:`import_entries` is the trust boundary every import of a book passes (person or world):
the scope is fixed to the room; ``constant`` (and ``@@activate``) kept as the author set it on a
keeper's world import (each constant entry listed in the report with its size: SillyTavern sends
it every turn, and MVU cards carry their update rules so) and forced off on a person's import;
``@INJECT`` entries reported and kept inert; ``secret`` kept only for a keeper's import, entry ids regenerated deterministically, ``@@if`` turned into the
entry's condition (a keeper's import) or removed (a person's: its lore is inert text,
:mod:`lw_tavern.inert`), render-only entries disabled, ``{{char}}`` bound to the card's name
(never making a decorator line: the name is text).
"""

from __future__ import annotations

import copy
import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lw_tavern.decorators import RENDER_ONLY, named, split_decorators
from lw_tavern.ejs.lite import strip_templates
from lw_tavern.mvu.initvar import is_declaration, parse_initvar
from lw_tavern.worldbook.load import book_from_data, book_to_data
from lw_tavern.worldbook.engine import estimate_tokens
from lw_tavern.worldbook.model import WorldBook, WorldEntry, unique_ids

from lwcore.api import Dropped, ImportReport, LwError

PERSON_TEXT_FIELDS = ("description", "personality", "scenario", "first_mes", "mes_example", "system_prompt",
                      "post_history_instructions", "creator_notes")
HOOKS_EXTENSION = "loreweaver_hooks"
WORLD_EXTENSIONS = (HOOKS_EXTENSION, "regex_scripts", "TavernHelper_scripts", "tavern_helper", "TavernHelper_variables")
"""Card extensions that program the room rather than describe a person."""

SECRET_KEPT = "secret: kept for the keeper only (players never see it)"
PERSON_CONDITION = "@@if removed: a person's lore is text and runs no condition (it fires by its keys)"
REGENERATED = ("id regenerated (its handle <pack-id>#<entry-id> kept as its source); scope fixed to the room, "
               "never global")
_RENDER_TITLE = re.compile(r"^\s*\[RENDER:", re.IGNORECASE)
_CHAR = re.compile(r"\{\{\s*char\s*\}\}|<char>|<BOT>", re.IGNORECASE)


def card_data(card: Mapping[str, Any]) -> dict[str, Any]:
    """The character fields of a raw card: ``data`` of a V2/V3 card, the card itself for V1."""
    data = card.get("data")
    if isinstance(data, Mapping) and str(card.get("spec", "")).startswith("chara_card_v"):
        return dict(data)
    return dict(card)


def strip_ejs(text: str) -> tuple[str, int]:
    """``text`` without EJS (see :func:`lw_tavern.ejs.lite.strip_templates`), and how many."""
    return strip_templates(text)


def is_render_only(entry: WorldEntry) -> bool:
    """An entry for the chat front end (a status bar, an iframe), meaningless in a prompt."""
    decorators, _ = split_decorators(entry.content)
    return bool(_RENDER_TITLE.match(entry.comment)) or any(d.name in RENDER_ONLY for d in decorators)


@dataclass
class WorldHalf:
    """What only a keeper's world import brings: hooks, variable declarations (parsed), the
    whole book, and the card's world extensions."""

    hooks: list[Any] = field(default_factory=list)
    declarations: list[dict[str, Any]] = field(default_factory=list)
    book: WorldBook | None = None
    extensions: dict[str, Any] = field(default_factory=dict)
    problems: list[LwError] = field(default_factory=list)
    """Declarations that could not be read (located; for the keeper's world import)."""


@dataclass
class Split:
    """Both halves of a card and the account of what the person half lost."""

    person: dict[str, Any]
    world: WorldHalf
    report: ImportReport


def split_card(card: Mapping[str, Any]) -> Split:
    """Split a raw card (never changed) into its person half and its world half.

    The person half is the card's character fields (V2 names) with EJS removed from the text,
    the world extensions removed, and a book of the plain lore only (no declarations, no
    keeper-only, no render-only entries, templates removed). The report names each removal.
    Every entry of both books carries its handle's id as ``id`` (:func:`with_source_ids`), so a
    person import and a world import of one card give its entries the same handles.
    """
    data = card_data(card)
    dropped: list[Dropped] = []
    carried: list[str] = []
    person = copy.deepcopy(data)
    for name in PERSON_TEXT_FIELDS:
        value = person.get(name)
        if isinstance(value, str):
            clean, n = strip_ejs(value)
            if n:
                person[name] = clean
                dropped.append(Dropped(name, f"{n} EJS template tag(s) removed"))
            if clean.strip():
                carried.append(name)
    greetings = person.get("alternate_greetings")
    if isinstance(greetings, list):
        out = []
        for i, g in enumerate(greetings):
            clean, n = strip_ejs(g) if isinstance(g, str) else (g, 0)
            if n:
                dropped.append(Dropped(f"alternate_greetings[{i}]", f"{n} EJS template tag(s) removed"))
            out.append(clean)
        person["alternate_greetings"] = out
    world = WorldHalf()
    ext = person.get("extensions")
    if isinstance(ext, Mapping):
        kept = {}
        for key, value in ext.items():
            if key in WORLD_EXTENSIONS:
                world.extensions[key] = copy.deepcopy(value)
                dropped.append(Dropped(f"extensions.{key}", _extension_reason(key, value)))
            else:
                kept[key] = value
        person["extensions"] = kept
        hooks = ext.get(HOOKS_EXTENSION)
        # one script written bare counts as a list of one; anything else present is handed on
        # as it is, for the import to refuse it located (never dropped without a word)
        world.hooks = list(hooks) if isinstance(hooks, list) else [] if hooks is None else [hooks]
    if isinstance(card.get("hooks"), list):  # a native card's top-level hooks
        world.hooks = list(card["hooks"])
        dropped.append(Dropped("hooks", f"{len(card['hooks'])} hook script(s) not installed"))
    book_raw = data.get("character_book")
    if isinstance(book_raw, Mapping):
        book = with_source_ids(book_from_data(book_raw))
        world.book = book
        person_entries: list[WorldEntry] = []
        for entry in book.entries:
            where = f"character_book entry {entry.title!r}"
            if is_declaration(entry):
                try:
                    world.declarations.append(parse_initvar(entry.content, where=where))
                except LwError as exc:
                    world.problems.append(exc)  # the keeper's concern, never in a person report
                dropped.append(Dropped(where, "variable declaration ([InitVar]): world machinery, not stored"))
            elif entry.secret:
                dropped.append(Dropped(where, "keeper-only lore"))
            elif is_render_only(entry):
                dropped.append(Dropped(where, "front-end render entry"))
            else:
                clean, n = strip_ejs(entry.content)
                if n:
                    dropped.append(Dropped(where, f"{n} EJS template tag(s) removed"))
                person_entries.append(entry.model_copy(update={"content": clean}))
        person_book = book.model_copy(update={"entries": person_entries})
        person["character_book"] = book_to_data(person_book)
        carried.append(f"character_book ({len(person_entries)} of {len(book.entries)} entries)")
    return Split(person=person, world=world, report=ImportReport(carried=tuple(carried), dropped=tuple(dropped)))


def _extension_reason(key: str, value: Any) -> str:
    count = len(value) if isinstance(value, (list, dict)) else 1
    if key == HOOKS_EXTENSION:
        return f"{count} hook script(s) not installed"
    return f"{count} SillyTavern script item(s): world machinery, not run"


# --- the trust boundary of every book import -------------------------------------------------------


@dataclass
class ImportedBook:
    """A book as it enters a room, with the variable trees its declarations seed."""

    book: WorldBook
    declarations: list[dict[str, Any]]
    report: ImportReport
    changed: list[Dropped] = field(default_factory=list)
    """What the trust boundary changed in the entries it kept (``field`` names the entry)."""
    scope: str = "room"
    sources: list[str] = field(default_factory=list)
    """Each kept entry's id before the import (:func:`source_ids`): the part after ``#`` in its
    ``<pack-id>#<entry-id>`` handle."""


def source_ids(entries: Sequence[WorldEntry]) -> list[str]:
    """The entry part of each entry's handle ``<pack-id>#<entry-id>``, unique in the book: the
    author's ``id``, else the uid as text; one that is taken (an author's id wins over a uid,
    the first of two equal ids keeps it) gets ``~2``, ``~3`` … appended
    (:func:`lw_tavern.worldbook.model.unique_ids`). The same book gives the same ids."""
    return unique_ids([(e.id or str(e.uid), bool(e.id)) for e in entries])


def with_source_ids(book: WorldBook) -> WorldBook:
    """``book`` with every entry's ``id`` set to its :func:`source_ids` id (so that a part of
    the book keeps the handles its entries have in the whole)."""
    ids = source_ids(book.entries)
    return book.model_copy(update={"entries": [e if e.id == i else e.model_copy(update={"id": i})
                                               for e, i in zip(book.entries, ids, strict=True)]})


def entry_id(pack_id: str, entry: WorldEntry, index: int) -> str:
    """The regenerated id of an imported entry: a stable function of the pack and the entry's
    place in its file, so a re-import gives the same handles (``<pack-id>#<entry-id>``)."""
    digest = hashlib.sha256(f"{pack_id}\x00{entry.uid}\x00{index}".encode()).hexdigest()[:10]
    return f"e{digest}"


def _with_decorators(lines: Sequence[str], body: str) -> str:
    """An entry's content: its decorator ``lines``, then ``body``. A body that would read as
    more decorators (a bound name starting with ``@@``) is set off by an empty line, so the
    entry has exactly the decorators the import kept."""
    joined = "\n".join([*lines, body]) if lines else body
    if len(split_decorators(joined)[0]) == len(lines):
        return joined
    return "\n".join([*lines, "", body])


CONSTANT_KEPT = "constant: sent every turn, as the author set it"
_INJECT = re.compile(r"^\s*@INJECT\b", re.IGNORECASE)


def is_inject(entry: WorldEntry) -> bool:
    """Whether an entry is an ST-Prompt-Template ``@INJECT`` entry (its title starts with it)."""
    return bool(_INJECT.match(entry.comment or ""))


def import_entries(book: WorldBook, *, pack_id: str, keeper: bool, char_name: str | None = None) -> ImportedBook:
    """Every entry of ``book`` through the import trust boundary (see the module docstring).
    The report lists what was dropped; ``changed`` what was changed in the entries kept."""
    out: list[WorldEntry] = []
    sources: list[str] = []
    dropped: list[Dropped] = []
    changed: list[Dropped] = []
    declarations: list[dict[str, Any]] = []
    handles = source_ids(book.entries)
    for index, entry in enumerate(book.entries):
        where = f"entry {entry.title!r}"
        if is_declaration(entry):
            if keeper:
                declarations.append(parse_initvar(entry.content, where=where))
            dropped.append(Dropped(where, "variable declaration: seeds the room's variables" if keeper
                                   else "variable declaration: only a keeper's world import seeds variables"))
            continue
        if entry.secret and not keeper:
            dropped.append(Dropped(where, "keeper-only lore: only a keeper's import keeps it"))
            continue
        decorators, content = split_decorators(entry.content)
        update: dict[str, Any] = {"id": entry_id(pack_id, entry, index)}
        if entry.secret:
            changed.append(Dropped(where, SECRET_KEPT))
        condition = named(decorators, "if")
        if not keeper and (condition or entry.condition):
            update["condition"] = ""
            changed.append(Dropped(where, PERSON_CONDITION))
        elif condition and not entry.condition:
            update["condition"] = condition.arg
            changed.append(Dropped(where, "@@if became the entry's condition"))
        if entry.constant and keeper:
            size = len(entry.content)
            changed.append(Dropped(where, f"{CONSTANT_KEPT} ({size:,} characters, about "
                                          f"{estimate_tokens(entry.content):,} tokens; "
                                          f".lore constant off <handle> switches it off)"))
        elif entry.constant:
            update["constant"] = False
            changed.append(Dropped(where, "constant turned off: a person's lore fires by its keys"))
        if any(d.name == "activate" for d in decorators):
            changed.append(Dropped(where, "@@activate kept: fires every turn, as the author set it" if keeper
                                   else "@@activate removed: a person's lore fires by its keys"))
        if is_inject(entry):
            changed.append(Dropped(where, "@INJECT entry (ST-Prompt-Template): kept inert -- placed as its position "
                                          "says, never injected into a chat message by index"))
        kept = [d.line for d in decorators if d.name != "if" and (keeper or d.name != "activate")]
        if is_render_only(entry) and not entry.disable:
            update["disable"] = True
            changed.append(Dropped(where, "front-end render entry: disabled"))
        if char_name:
            content = _CHAR.sub(char_name, content)
            if keeper:
                kept = [_CHAR.sub(char_name, line) for line in kept]
            update["comment"] = _CHAR.sub(char_name, entry.comment)
            update["key"] = [_CHAR.sub(char_name, k) for k in entry.key]
            update["keysecondary"] = [_CHAR.sub(char_name, k) for k in entry.keysecondary]
        if decorators or char_name:
            update["content"] = _with_decorators(kept, content)
        out.append(entry.model_copy(update=update))
        sources.append(handles[index])
    if out:
        changed.insert(0, Dropped("every entry", REGENERATED))
    report = ImportReport(carried=(f"{len(out)} world-book entries",), dropped=tuple(dropped))
    return ImportedBook(book.model_copy(update={"entries": out}), declarations, report, changed, sources=sources)
