"""The campaign chronicle (M18): what the table did, folded deterministically into a summary.

Three document types (registered by the built-in ``turn`` plugin):

- ``chronicle`` (append-only log): ``{text, keeper, turn, pcs, scene}`` -- ``text`` is what
  happened (public), ``keeper`` what the players missed (keeper-only). Written by the
  ``chronicle_record`` tool, which takes no turn: the engine stamps the turn being played,
  so nothing is ever written ahead of the fiction.
- ``campaign_summary`` (one document, id ``summary``): ``{text, keeper, through_turn,
  fold_count, covers}`` -- "the story so far" within :data:`SUMMARY_BUDGET` characters; its
  player projection is ``.recap``. ``keeper`` is the keeper's margin (keeper-only).
  ``covers`` (``{entry, byte}``) says how far into ``docs/chronicle.jsonl`` the summary
  reaches: every record up to byte ``byte``, the last of them entry ``entry``'s.
- ``thread`` (keeper-only): open loops, ``{label, status: open|resolved, notes}``.

**What the players may read stays apart from what they may not.** The summary's ``text`` is
folded from the *public* projections only (the entries' public text and the previous public
summary, projected for :func:`~lwcore.turn.documents.table_viewer`); the keeper annotations of
the same entries are folded, by a request of their own, into the keeper margin, which only the
keeper's projection shows. A fold model that copies its whole input into its answer therefore
puts nothing keeper-only into ``.recap``.

**Bounded reads.** The chronicle gains an entry a turn and is never rewritten; the summary
covers a prefix of it. A turn reads only the records after ``covers.byte`` (checked: the
record ending there must be entry ``covers.entry``'s, else the cursor is found again by id,
reading from the end) -- what the prompt shows, never the folded past.

**Folding** (when, what, and the model step that writes the summary) is
:mod:`lwcore.turn.fold`'s.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from lwcore.i18n import kernel_text
from lwcore.turn.documents import Document, LogRecord
from lwcore.turn.room import Room

CHRONICLE = "chronicle"
SUMMARY = "campaign_summary"
SUMMARY_ID = "summary"
THREAD = "thread"
THREAD_STATUSES = ("open", "resolved")

SUMMARY_BUDGET = 4000
"""Characters the summary may hold (a fold's result is cut there, at a sentence if it can)."""


# --- validation ---------------------------------------------------------------------------


def _nonneg_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def validate_chronicle(doc: Document, room: Room) -> list[str]:
    data = doc.data
    problems = []
    if not isinstance(data.get("text"), str) or not data["text"].strip():
        problems.append("text must be a non-empty string")
    if not _nonneg_int(data.get("turn")):
        problems.append("turn must be a whole number (the turn the entry was written after)")
    elif data["turn"] > room.turn_number + 1:
        problems.append(f"turn {data['turn']} is ahead of the fiction (the room is at turn {room.turn_number})")
    if not isinstance(data.get("keeper", ""), str):
        problems.append("keeper must be a string")
    if not _strings(data.get("pcs", [])):
        problems.append("pcs must be a list of character names")
    if not isinstance(data.get("scene", ""), str):
        problems.append("scene must be a string")
    return problems


def validate_summary(doc: Document, room: Room) -> list[str]:
    data = doc.data
    problems = []
    if not isinstance(data.get("text"), str):
        problems.append("text must be a string")
    elif len(data["text"]) > SUMMARY_BUDGET:
        problems.append(f"text is over the {SUMMARY_BUDGET}-character budget")
    for key in ("through_turn", "fold_count"):
        if not _nonneg_int(data.get(key, 0)):
            problems.append(f"{key} must be a whole number")
    if not isinstance(data.get("keeper", ""), str):
        problems.append("keeper must be a string")
    covers = data.get("covers")
    if covers is not None and not (isinstance(covers, dict) and isinstance(covers.get("entry"), str)
                                   and _nonneg_int(covers.get("byte"))):
        problems.append("covers must be {entry: <chronicle id>, byte: <offset in docs/chronicle.jsonl>}")
    return problems


def summary_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 -> 2: the list of every folded id becomes the ``covers`` cursor (its byte is
    found again from the entry on first read, then saved)."""
    data = dict(data)
    folded = data.pop("folded", None)
    if isinstance(folded, list) and folded and isinstance(folded[-1], str):
        data["covers"] = {"entry": folded[-1], "byte": 0}
    return data


def validate_thread(doc: Document, room: Room) -> list[str]:
    data = doc.data
    problems = []
    if not isinstance(data.get("label"), str) or not data["label"].strip():
        problems.append("label must be a non-empty string")
    if data.get("status") not in THREAD_STATUSES:
        problems.append(f"status must be one of: {', '.join(THREAD_STATUSES)}")
    if not isinstance(data.get("notes", ""), str):
        problems.append("notes must be a string")
    return problems


def thread_id(label: str) -> str:
    """A thread's id from its label, so re-stating a loop updates it instead of adding one."""
    return "t-" + hashlib.sha1(label.strip().casefold().encode("utf-8")).hexdigest()[:10]


# --- reading and writing the chronicle (bounded) ------------------------------------------


def summary(room: Room) -> Document | None:
    return room.documents.get(SUMMARY, SUMMARY_ID)


def entry_turn(doc: Document) -> int:
    """The turn a chronicle entry was written after (0 when it has no whole number)."""
    turn = doc.data.get("turn", 0)
    return turn if _nonneg_int(turn) else 0


def _start(room: Room) -> tuple[int, int | None]:
    """Where the records the summary does not cover begin: ``(byte, None)``; or, when its
    cursor names no record of the log, ``(0, through_turn)`` (read everything, and count
    entries up to ``through_turn`` as covered).

    The cursor is checked (the record ending at ``covers.byte`` must be ``covers.entry``'s).
    When the log was edited by hand before it, the cursor is found again after the *oldest*
    record of that entry -- at worst some folded entries show again until the next fold,
    never is an unfolded one lost -- and put back (saved with the room): one whole read, once."""
    current = summary(room)
    if current is None:
        return 0, None
    through = current.data.get("through_turn", 0)
    fallback = (0, through if _nonneg_int(through) and through > 0 else None)
    covers = current.data.get("covers")
    if not isinstance(covers, dict) or not isinstance(covers.get("entry"), str) or not _nonneg_int(covers.get("byte")):
        return fallback
    log = room.documents.log(CHRONICLE)
    entry, byte = covers["entry"], covers["byte"]
    found = log.ending_at(byte)
    if found is not None and found.id == entry:
        return byte, None
    ends = [record.end for record in log.newest() if record.id == entry]
    if not ends:
        return fallback
    room.documents.put(Document(SUMMARY_ID, SUMMARY, {**current.data, "covers": {"entry": entry, "byte": ends[-1]}}))
    return ends[-1], None


def unfolded_records(room: Room) -> list[LogRecord]:
    """The chronicle entries the summary does not cover, each as its newest record, in the
    order of those records (the order they were written in, and folded in)."""
    start, through = _start(room)
    latest: dict[str, LogRecord] = {}
    for record in room.documents.log(CHRONICLE).after(start):
        latest.pop(record.id, None)
        if record.doc is not None and (through is None or entry_turn(record.doc) > through):
            latest[record.id] = record
    return list(latest.values())


def unfolded(room: Room) -> list[Document]:
    """Chronicle entries the summary does not cover yet, oldest first."""
    return [r.doc for r in unfolded_records(room) if r.doc is not None]


def recent(room: Room, count: int) -> list[Document]:
    """The last ``count`` chronicle entries (folded or not), oldest first, read from the end."""
    seen: set[str] = set()
    out: list[Document] = []
    for record in room.documents.log(CHRONICLE).newest():
        if len(out) >= count:
            break
        if record.id in seen:
            continue
        seen.add(record.id)
        if record.doc is not None:
            out.append(record.doc)
    out.reverse()
    return out


def record(room: Room, text: str, *, keeper: str = "", pcs: Sequence[str] = (), scene: str = "") -> Document:
    """Append a chronicle entry for the turn being played (the engine stamps the turn). Its
    id is ``c-<turn>-<n>``, ``n`` one past the highest this turn used (the turn's records all
    lie after the summary's cursor: a fold never reaches the turn being played)."""
    turn = room.turn_number + 1
    prefix = f"c-{turn}-"
    start, _ = _start(room)
    used = [int(r.id[len(prefix):]) for r in room.documents.log(CHRONICLE).after(start)
            if r.id.startswith(prefix) and r.id[len(prefix):].isdigit()]
    doc = Document(f"{prefix}{max(used, default=0) + 1}", CHRONICLE,
                   {"text": text, "keeper": keeper, "turn": turn, "pcs": list(pcs), "scene": scene})
    return room.documents.put(doc)


def entry_line(view: Mapping[str, Any], locale: str) -> str:
    """One chronicle entry as a line in ``locale``, from a viewer's projection of it (the
    keeper's brings its annotation)."""
    line = f"[{view.get('turn')}] {view.get('text', '')}"
    if view.get("keeper"):
        line = kernel_text("chronicle.entry_keeper", locale, line=line, note=str(view["keeper"]))
    return line
