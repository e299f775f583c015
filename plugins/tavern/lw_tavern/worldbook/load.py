"""World books from data: SillyTavern world-info files, card books, and whole cards.

:func:`book_from_data` recognises the three shapes SillyTavern users hand around and returns
one :class:`WorldBook`; :func:`book_to_data` writes it back in the shape it came in, unknown
fields and all.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lwcore.api import LwError, LwErrors

from lw_tavern.files import located, validate
from lw_tavern.worldbook.model import (
    CARD_FIELDS,
    WorldBook,
    WorldEntry,
    entry_from_card,
    entry_to_card,
    entry_to_worldinfo,
    js_key_order,
)

MAX_ENTRIES = 100_000
_CARD_PATH = {WorldEntry.model_fields[attr].alias or attr: path for attr, path in CARD_FIELDS}


def book_from_data(data: Any, *, file: str | Path | None = None, text: str | None = None) -> WorldBook:
    """The book in ``data``: ``{"entries": {uid: entry}}`` (world info), ``{"entries": [..]}``
    (a card's ``character_book``), or a V2/V3 card holding one at ``data.character_book``.

    Every bad entry is reported at once, located. A card without a book is an empty book.
    """
    if not isinstance(data, Mapping):
        raise located("a world book is a JSON object", file=file, text=text, path=(), expected='{"entries": ...}')
    at: tuple[Any, ...] = ()
    if "entries" not in data and isinstance(data.get("data"), Mapping):
        at = ("data", "character_book")
        data = data["data"].get("character_book") or {"entries": []}
        if not isinstance(data, Mapping):
            raise located("character_book is not an object", file=file, text=text, path=at)
    entries = data.get("entries")
    extra = {k: v for k, v in data.items() if k != "entries"}
    if isinstance(entries, Mapping):
        return _worldinfo(entries, extra, file, text, at)
    if isinstance(entries, list):
        return _card_book(entries, extra, file, text, at)
    raise located("no entries", file=file, text=text, path=(*at, "entries"),
                  expected="an object of entries by uid (world info) or a list (character_book)")


def _collect(results: list[WorldEntry], problems: list[LwError], fn: Any) -> None:
    try:
        results.append(fn())
    except LwErrors as exc:
        problems.extend(exc.errors)
    except LwError as exc:
        problems.append(exc)


def _check_count(n: int, file: Any, text: Any, at: tuple[Any, ...]) -> None:
    if n > MAX_ENTRIES:
        raise located(f"{n} entries; at most {MAX_ENTRIES} are read", file=file, text=text,
                      path=(*at, "entries"), code="limit")


def _worldinfo(entries: Mapping[str, Any], extra: dict[str, Any], file: Any, text: Any,
               at: tuple[Any, ...]) -> WorldBook:
    _check_count(len(entries), file, text, at)
    out: list[WorldEntry] = []
    problems: list[LwError] = []
    for key in js_key_order(list(entries)):
        raw = entries[key]
        where = (*at, "entries", key)
        if not isinstance(raw, Mapping):
            problems.append(located("an entry is a JSON object", file=file, text=text, path=where))
            continue
        raw = {"uid": int(key) if key.isdigit() else key, **raw}
        _collect(out, problems, lambda raw=raw, where=where: validate(WorldEntry, raw, file=file, text=text, at=where))
    if problems:
        raise problems[0] if len(problems) == 1 else LwErrors(problems)
    return WorldBook(entries=out, source="worldinfo", extra=extra)


def _card_book(entries: list[Any], extra: dict[str, Any], file: Any, text: Any,
               at: tuple[Any, ...]) -> WorldBook:
    _check_count(len(entries), file, text, at)
    out: list[WorldEntry] = []
    problems: list[LwError] = []
    for index, raw in enumerate(entries):
        where = (*at, "entries", index)
        if not isinstance(raw, Mapping):
            problems.append(located("an entry is a JSON object", file=file, text=text, path=where))
            continue
        converted = entry_from_card(raw, index)
        _collect(out, problems, lambda c=converted, where=where: validate(
            WorldEntry, c, file=file, text=text, at=where, rename=_card_location))
    if problems:
        raise problems[0] if len(problems) == 1 else LwErrors(problems)
    return WorldBook(entries=out, source="character_book", extra=extra)


def _card_location(loc: tuple[Any, ...]) -> tuple[Any, ...]:
    """A world-info field name in a pydantic location -> where the card file keeps it."""
    if not loc:
        return loc
    first = loc[0]
    if first == "disable":
        return ("enabled", *loc[1:])
    if first == "uid":
        return ("id", *loc[1:])
    path = _CARD_PATH.get(first)
    return (*path.split("."), *loc[1:]) if path else loc


def book_to_data(book: WorldBook) -> dict[str, Any]:
    """The book as JSON data in the shape it was read from (unknown fields kept)."""
    if book.source == "character_book":
        return {**book.extra, "entries": [entry_to_card(e) for e in book.entries]}
    return {"entries": {str(e.uid): entry_to_worldinfo(e) for e in book.entries}, **book.extra}
