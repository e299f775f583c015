"""A room's history, read from the end: a turn costs what it reads, not the whole campaign.

``history.jsonl`` only grows (new entries are appended in the room's save transaction, with
fsync). A turn needs the last entries (the prompt's recent history, the turn number), so
:class:`HistoryLog` reads the file backwards (:func:`lwcore.io.loglines.lines_before`) and
parses only the lines it is asked for; a whole pass (:meth:`HistoryLog.all`) is there for the
rare reader that wants everything. A bad line is a located error naming the file and the byte offset of the line.

Every entry is stored as one line the log's readers take back (``LOG_LINE_LIMITS``): an entry
recorded too large (a model's 4.5 MB narration) is fitted when it is recorded (:func:`fitted`):
its details are dropped, then its text is cut with a note saying so -- never a line that
would make the room unreadable.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from lwcore.errors import LwError, quoting_keeper_data
from lwcore.io.limits import LOG_LINE_LIMITS, Limits, check_shape
from lwcore.io.loglines import lines_before
from lwcore.io.models import validate_model
from lwcore.io.safe_json import load_json
from lwcore.io.text import decode_text
from lwcore.turn.events import Event, event_from_data


class HistoryEntry(BaseModel):
    """One line of ``history.jsonl``.

    ``role``: ``player`` (what a player said), ``keeper`` (narration), ``event`` (a tool's
    outcome, e.g. a check). ``audience``: ``all`` or ``keeper`` (never shown to players).
    """

    model_config = ConfigDict(extra="allow")

    turn: int = 0
    role: Literal["player", "keeper", "event"]
    actor: str | None = None
    text: str = ""
    audience: Literal["all", "keeper"] = "all"
    data: dict[str, Any] | None = None

    @classmethod
    def of_event(cls, event: Event, *, turn: int, actor: str | None = None) -> HistoryEntry:
        """The entry recording ``event`` in turn ``turn`` (by ``actor``, when a member's), its
        text the event's history text, its audience the event's (stated unless the event's kind never
        states one: :attr:`~lwcore.turn.events.Event.STATES_AUDIENCE`)."""
        given: dict[str, Any] = {"actor": actor} if actor is not None else {}
        if event.STATES_AUDIENCE or event.audience != "all":
            given["audience"] = event.audience
        return cls(turn=turn, role="event", text=event.history_text(), data=event.data(), **given)

    @property
    def event(self) -> Event | None:
        """The typed event an ``event`` entry records (:func:`lwcore.turn.events.event_from_data`;
        an event whose data keeps no summary -- a command's reply, a fold note -- has the
        entry's text as its summary); ``None`` for a player's or the keeper's line, or an event
        entry without data."""
        if self.role != "event" or not self.data:
            return None
        event = event_from_data(self.data)
        return event if event.summary or not self.text else replace(event, summary=self.text)


class HistoryLog:
    """The saved entries of ``history.jsonl`` (read lazily, newest first) plus the entries
    recorded since the room was loaded (``pending``, appended on save)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.pending: list[HistoryEntry] = []
        self._cache: list[HistoryEntry] = []  # the newest saved entries, oldest first
        self._offset = self._size()  # byte offset where the cached part starts
        self._exhausted = self._offset == 0

    # -- reading ---------------------------------------------------------------------------

    def _size(self) -> int:
        try:
            return self.path.stat().st_size
        except FileNotFoundError:
            return 0

    def _read_more(self, wanted: int) -> None:
        """Extend the cache backwards until it holds ``wanted`` saved entries (or all)."""
        if self._exhausted or len(self._cache) >= wanted:
            return
        older: list[HistoryEntry] = []
        offset = self._offset
        lines = lines_before(self.path, offset)
        try:
            for line in lines:
                if len(self._cache) + len(older) >= wanted:
                    break
                if line.raw.strip():
                    older.append(self._parse(line.raw, line.start))
                offset = line.start
            else:
                offset = 0
        finally:
            lines.close()
        older.reverse()
        self._cache = older + self._cache
        self._offset = offset
        self._exhausted = offset == 0

    def _parse(self, raw: bytes, offset: int) -> HistoryEntry:
        try:
            with quoting_keeper_data():  # a keeper-only line's text can be in the message
                value = load_json(decode_text(raw, self.path), self.path, limits=LOG_LINE_LIMITS)
                return validate_model(HistoryEntry, value, file=self.path, strict=True)
        except LwError as exc:
            exc.byte = offset + (exc.byte or 0)
            exc.line = None
            exc.message = f"{exc.message} (the history line at byte {offset})"
            raise

    def tail(self, n: int) -> list[HistoryEntry]:
        """The last ``n`` entries, oldest first (saved and pending)."""
        if n <= 0:
            return []
        if len(self.pending) >= n:
            return list(self.pending[-n:])
        self._read_more(n - len(self.pending))
        saved = self._cache[-(n - len(self.pending)):]
        return [*saved, *self.pending]

    def newest_first(self) -> Iterator[HistoryEntry]:
        """Every entry, newest first, read from the end as far as the caller goes (in chunks
        growing from 16 entries to 256: a caller that stops at the last turn parses a few)."""
        yield from reversed(self.pending)
        index = len(self._cache) - 1
        while True:
            while index >= 0:
                yield self._cache[index]
                index -= 1
            if self._exhausted:
                return
            before = len(self._cache)
            self._read_more(before + min(256, max(16, before)))
            index = len(self._cache) - before - 1

    def all(self) -> list[HistoryEntry]:
        """Every entry, oldest first (reads the whole file)."""
        entries = list(self.newest_first())
        entries.reverse()
        return entries

    def last(self) -> HistoryEntry | None:
        tail = self.tail(1)
        return tail[0] if tail else None

    @property
    def turn_number(self) -> int:
        """The turn of the newest entry (turns never go down), 0 for a new room."""
        last = self.last()
        return last.turn if last is not None else 0

    @property
    def saved_turn(self) -> int:
        """The turn of the newest saved entry (the pending ones not counted), 0 for none."""
        self._read_more(1)
        return self._cache[-1].turn if self._cache else 0

    def __bool__(self) -> bool:
        return bool(self.pending) or self._size() > 0

    # -- writing ---------------------------------------------------------------------------

    def record(self, entry: HistoryEntry) -> HistoryEntry:
        """Add ``entry`` (:func:`fitted` to a line the log can read back); the entry as stored."""
        stored = fitted(entry)
        self.pending.append(stored)
        return stored

    def saved(self) -> None:
        """The pending entries are on disk now (appended after the cached part)."""
        self._cache.extend(self.pending)
        self.pending = []


# --- one line per entry ----------------------------------------------------------------------


def entry_record(entry: HistoryEntry) -> dict[str, Any]:
    """The JSON value of ``entry``'s line, as the log stores it."""
    return entry.model_dump(mode="json", exclude_unset=True)


def record_text(record: dict[str, Any]) -> str:
    """The text of a line holding ``record`` (without its newline)."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def _size(entry: HistoryEntry) -> int:
    return len(record_text(entry_record(entry)).encode("utf-8", "surrogatepass"))  # a lone surrogate fails later


def _fits(entry: HistoryEntry, limits: Limits) -> bool:
    record = entry_record(entry)
    if len(record_text(record).encode("utf-8", "surrogatepass")) > limits.max_bytes:
        return False
    try:
        check_shape(record, limits)
    except LwError:
        return False
    return True


def fitted(entry: HistoryEntry, limits: Limits = LOG_LINE_LIMITS) -> HistoryEntry:
    """``entry`` as the log can store it: unchanged when its line is within ``limits``; else
    its ``data`` is kept as its ``kind`` and a ``cut`` note only, and when the line is still
    too long its text is cut (at a character) and ends with a note of what was cut."""
    if _fits(entry, limits):
        return entry
    if entry.data is not None:
        kind = entry.data.get("kind")
        entry = entry.model_copy(update={"data": {"kind": kind, "cut": "the details did not fit a history line"}})
        if _fits(entry, limits):
            return entry
    text = entry.text
    note = f" […] (cut: the text had {len(text):,} characters; a history line holds {limits.max_bytes:,} bytes)"
    base = _size(entry.model_copy(update={"text": ""})) - 2  # the line but for its text's JSON string

    def size(part: str) -> int:
        return base + len(json.dumps(part + note, ensure_ascii=False).encode("utf-8", "surrogatepass"))

    low, high = 0, len(text)
    while low < high:  # the longest start of the text that fits with the note
        middle = (low + high + 1) // 2
        if size(text[:middle]) <= limits.max_bytes:
            low = middle
        else:
            high = middle - 1
    return entry.model_copy(update={"text": text[:low] + note})
