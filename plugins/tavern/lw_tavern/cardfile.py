"""Reading what an import brings: a card file, a native card, or a world book on its own.

- a native card (``*.lorecard.json``, ``format: "loreweaver.card"``): read and migrated by
  :mod:`lw_tavern.lorecard`, then seen as the SillyTavern card it converts to (so one card
  split serves both) with its ``pregens`` and typed ``variables`` kept aside;
- a SillyTavern world-info file (``{"entries": {...}}``) or a bare ``character_book``: a card
  with that book and no person;
- any other card: the kernel's card reader (``lwcore.cards``) -- JSON (its spec told, what is no
  card refused), PNG and CHARX (assets are not read: an import needs the card's text).

Every read is bounded and every error located (the kernel's safe readers). Every ``lw tavern``
command reads its input here (``import``, ``inspect``, ``convert``, ``activate``): they all
accept the same files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lw_tavern.files import MAX_CARD_BYTES, decode_lenient, located
from lw_tavern.lorecard import load_lorecard, sniff, to_card
from lw_tavern.worldbook.load import book_from_data
from lw_tavern.worldbook.model import WorldBook
from lwcore.api import JSON_LIMITS, load_card, load_json, read_bytes, unwrap_card as unwrap

_JSON_START = (b"{", b"[", b"\xef\xbb\xbf")


@dataclass(frozen=True)
class Material:
    """A file ready to import: the card (SillyTavern shape), the native card it came from (if
    any), the JSON text (for locating later errors), whether it is a world book on its own, and
    its container (``json``, ``png``, ``charx``)."""

    card: dict[str, Any]
    native: Any = None
    text: str | None = None
    book_only: bool = False
    container: str = "json"
    warnings: tuple[str, ...] = ()
    """What was read as SillyTavern reads it rather than refused (bytes that are not UTF-8, lone
    surrogate escapes: both U+FFFD)."""


def book_of(material: Material, path: Path | str) -> WorldBook:
    """The world book ``material`` holds, as written (before any import), every entry checked
    and its problems located in ``path``; a card without a book (a V1 card, say) has an empty
    one."""
    if material.book_only:
        return book_from_data(material.card["data"]["character_book"], file=path, text=material.text)
    if material.native is not None:  # its reader checked the entries, located in the native file
        return book_from_data(material.card)
    if not isinstance(material.card.get("data"), Mapping):
        return WorldBook(entries=[], source="character_book")
    return book_from_data(material.card, file=path, text=material.text)


def read_material(path: Path | str) -> Material:
    """What ``path`` holds, as :class:`Material` (see the module docstring)."""
    raw = read_bytes(path, max_bytes=MAX_CARD_BYTES)
    if raw.lstrip()[:3].startswith(_JSON_START):
        return _from_json(raw, path)
    notes: list[str] = []
    card = load_card(raw, str(path), assets=False, surrogates=notes)
    return Material(dict(card.raw), container=card.report.container, warnings=tuple(notes))


def read_book(path: str | Path) -> WorldBook:
    """The world book of a file, read as an import reads it: a world-info file, a
    ``character_book``, or a card holding one (JSON, PNG, CHARX, native)."""
    return book_of(read_material(path), path)


def _from_json(raw: bytes, path: Path | str) -> Material:
    import dataclasses

    warnings: list[str] = []
    text = decode_lenient(raw, path, warnings)
    data = load_json(text, path, limits=JSON_LIMITS.with_(max_bytes=MAX_CARD_BYTES), surrogates=warnings)
    material = _material(data, text, path)
    return dataclasses.replace(material, warnings=tuple(warnings)) if warnings else material


def _material(data: Any, text: str, path: Path | str) -> Material:
    if not isinstance(data, Mapping):
        raise located("a card is a JSON object", file=path, text=text, path=(), expected='{"spec": "chara_card_v2", …}')
    if sniff(data):
        native = load_lorecard(data, file=path, text=text)
        return Material(to_card(native), native, text)
    if "entries" in data:  # a world book on its own
        return Material({"spec": "chara_card_v2", "data": {"name": "", "character_book": dict(data)}}, None, text,
                        book_only=True)
    unwrap(dict(data), file=path)  # a located refusal of what is no card
    return Material(dict(data), None, text)
