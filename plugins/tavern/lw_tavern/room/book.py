"""A room's world book: its ``worldbook_entry`` documents compiled once per revision.

Compiling (sorting, macro-expanded keys, regex keys, the Aho-Corasick automata) is the costly
part of activation, and reading the entries' YAML is costlier still; both happen once per
revision of ``docs/worldbook_entry.yaml``. The compiled book is kept in a per-kernel cache
keyed by the file's identity (inode, modification time, size) and the two settings compiling
depends on; entries changed in memory and not yet saved bypass the cache.

Entries a person import brought are inert (:mod:`lw_tavern.inert`): the compiled book lists
them (``RoomBook.inert``) for the renderer, and one that carries a condition (an entry stored
before person imports dropped them, or a hand edit) is left out: a condition is code. A person's
lore is said once: one that says what another entry says (same keys, same text without
decorators) is left out, the keeper's copy kept.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lw_tavern.decorators import named, split_decorators
from lw_tavern.files import validate
from lw_tavern.inert import is_live_pack
from lw_tavern.room.documents import ENTRY
from lw_tavern.worldbook.engine import CompiledBook, compile_book
from lw_tavern.worldbook.model import WorldBook, WorldEntry, WorldSettings

from lwcore.api import LwError

if TYPE_CHECKING:
    from lwcore.api import Room

CACHE_SIZE = 8
DEFAULT_CONTEXT = 32_000


@dataclass(frozen=True)
class RoomBook:
    """The compiled book, each entry's handle (``<pack-id>#<entry-id>``) and title by key, the
    entries that could not be read (``(key, reason)``, left out), and the keys of the inert
    entries (a person import's: never a template)."""

    compiled: CompiledBook
    handles: Mapping[str, str]
    titles: Mapping[str, str]
    skipped: tuple[tuple[str, str], ...] = ()
    inert: frozenset[str] = frozenset()


class BookCache:
    """Compiled books by file revision (a few, least recently used dropped first). Shared by
    every thread of its kernel: each look-up or store is one step under the cache's lock."""

    def __init__(self) -> None:
        self.books: OrderedDict[tuple[Any, ...], RoomBook] = OrderedDict()
        self.compiles = 0
        self._lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> RoomBook | None:
        with self._lock:
            book = self.books.get(key)
            if book is not None:
                self.books.move_to_end(key)
            return book

    def put(self, key: tuple[Any, ...] | None, book: RoomBook) -> None:
        """Count a compile; keep ``book`` under ``key`` (``None``: unsaved entries, not kept)."""
        with self._lock:
            self.compiles += 1
            if key is None:
                return
            self.books[key] = book
            while len(self.books) > CACHE_SIZE:
                self.books.popitem(last=False)


def settings_of(room: Room) -> WorldSettings:
    """The room's activation settings: ``worldbook:`` in ``room.yaml`` (SillyTavern's world-info
    settings, ``lw schema tavern-worldinfo-settings``), the context size from the room's
    ``context_window`` unless given there."""
    extra = room.file.model_extra or {}
    raw = extra.get("worldbook") or {}
    if not isinstance(raw, Mapping):
        raise LwError("worldbook: is a mapping of world-info settings", file=room.path / "room.yaml")
    data = {"max_context": room.file.context_window or DEFAULT_CONTEXT, **raw}
    return validate(WorldSettings, data, file=room.path / "room.yaml", at=("worldbook",))


def room_book(room: Room, settings: WorldSettings) -> RoomBook | None:
    """The room's compiled world book, or ``None`` when the room has no entries."""
    store = room.documents
    path = store.folder / f"{ENTRY}.yaml"
    key: tuple[Any, ...] | None = None
    if not store.unsaved(ENTRY):
        try:
            stat = path.stat()
        except FileNotFoundError:
            return None
        key = (str(path), stat.st_ino, stat.st_mtime_ns, stat.st_size, settings.case_sensitive,
               settings.match_whole_words)
    cache: BookCache = room.kernel.service("tavern.books", lambda kernel: BookCache())
    if key is not None and (hit := cache.get(key)) is not None:
        return hit
    book = _compile(room, settings)
    cache.put(key, book)
    return book if book.compiled.entries or book.skipped else None


def _compile(room: Room, settings: WorldSettings) -> RoomBook:
    from pydantic import ValidationError

    entries: list[WorldEntry] = []
    handles: dict[str, str] = {}
    titles: dict[str, str] = {}
    skipped: list[tuple[str, str]] = []
    inert: set[str] = set()
    read: list[tuple[Any, WorldEntry, bool]] = []
    for doc in room.documents.all(ENTRY):
        raw = doc.data.get("entry")
        try:
            if not isinstance(raw, Mapping):
                raise ValueError("not a mapping")
            entry = WorldEntry.model_validate({**raw, "id": doc.id}, strict=True)
        except (ValidationError, ValueError) as exc:
            skipped.append((doc.id, str(exc).splitlines()[0]))
            continue
        live = is_live_pack(doc.data.get("pack"))
        if not live and (entry.condition or named(split_decorators(entry.content)[0], "if")):
            skipped.append((doc.id, "a person import's entry with a condition (a condition is code; import it again)"))
            continue
        read.append((doc, entry, live))
    # A person's lore belongs to the character and is said once: an entry a person import brought
    # that says what another entry of the book says (the keeper imported the same card as the
    # world, or two members the same character) is left out; the keeper's copy is the one kept,
    # whatever the order of the imports.
    said = {_lore_of(entry) for _, entry, live in read if live}
    for doc, entry, live in read:
        if not live:
            lore = _lore_of(entry)
            if lore in said:
                continue
            said.add(lore)
            inert.add(doc.id)
        entries.append(entry)
        handles[doc.id] = doc.source or doc.id
        titles[doc.id] = entry.title
    compiled = compile_book(WorldBook(entries=entries), settings)
    return RoomBook(compiled, handles, titles, tuple(skipped), frozenset(inert))


def _lore_of(entry: WorldEntry) -> tuple[Any, ...]:
    """What an entry says, as a key: its keys and its text without decorators (a person import
    drops ``@@activate`` and conditions, so the same author's entry compares equal either way)."""
    return (tuple(entry.key), tuple(entry.keysecondary), split_decorators(entry.content)[1].strip())
