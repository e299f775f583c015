"""Message controls: every save of a room can be undone, so a turn can be regenerated, a
narration edited and the room rewound to before a turn.

**The undo log** (``.lw/undo.jsonl``): every :meth:`lwcore.turn.room.Room.save` adds to its own
transaction one line recording each change it makes -- a replaced file's bytes before and
after, an append's offset, what it cut (``was``) and what it wrote -- with the turn number
before and after the save (:func:`stage_record`). The line goes in the same transaction, so
the log always matches the room. Undoing a save is the reverse of its changes; redoing it
(switching back to an alternative) is the forward. Both cost what the saves wrote, not the
size of the room: rewinding a 10,000-turn room by one turn reads one record.

Every control is **one transaction** (:class:`lwcore.io.transaction.FolderTransaction`, the
save's own, faults injectable at each step) and runs with the room's writer lock held by the
caller:

- :func:`rewind` -- the room as it was just before turn ``N`` was saved: every file the saves
  since then changed put back byte for byte (created files removed, logs cut back, the
  history and the chronicle's documents included), those records dropped from the log;
- :func:`edit` -- the keeper's narration of a turn replaced and marked ``edited`` (the
  history's tail from that line rewritten in place: the cost of the tail, not of the file);
- :func:`choose` -- switch the last turn to another of its kept alternatives: the current one
  undone (and kept), the chosen one redone.

**Regenerate** (:func:`regenerate`) is a rewind that keeps the undone turn as an alternative
(``.lw/alternatives.json``), then the turn played again from the state before it. They are
two transactions under one hold of the lock, the rewind a *held* one
(:meth:`lwcore.io.transaction.FolderTransaction.hold`): applied at once, made durable by the
turn's own save, so a regenerate costs about one save, not two. If the new turn fails or is
stopped, the earlier reply is chosen back before the lock is let go; if the process dies
between them, the room is whole at "before turn N" (the held rewind finished from its
record), and the earlier reply is still kept as an alternative (``lw room choose``). A regenerated turn rolls its dice anew: a reply's narration is written
around its rolls, so the dice belong to the alternative they were rolled for -- switching
back brings them back with it. The room is read once: after the rewind only the files it put
back are read again (:meth:`lwcore.turn.room.Room.reread`), and what was said is read from the
last turn's own history lines, never the whole history. (The rewind is applied before the
turn is played, not staged in the turn's transaction: the turn reads the room's files --
plugins' included -- from disk, so the state before turn N must be there.)

Files a person edits by hand between turns are not in the log: a rewind puts back what the
saves since turn ``N`` changed, as they saved it.
"""

from __future__ import annotations

import base64
import json
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lwcore.errors import LwError
from lwcore.io.atomic import write_target
from lwcore.io.limits import JSON_LIMITS, Limits
from lwcore.io.speech import check_said
from lwcore.io.loglines import lines_before, lines_from
from lwcore.io.paths import confine
from lwcore.io.safe_json import load_json
from lwcore.io.text import open_file, read_text
from lwcore.io.transaction import STATE_DIR, FaultHook, FolderTransaction, finish_held
from lwcore.turn.history import HistoryEntry, entry_record, record_text

if TYPE_CHECKING:
    from lwcore.turn.room import Room

UNDO_LOG = ".lw/undo.jsonl"
ALTERNATIVES = ".lw/alternatives.json"
MAX_UNDO_RECORD_BYTES = 64 * 1024 * 1024
"""The largest line of the undo log (one save's record); a save whose record would be larger
writes a marker instead, and no rewind goes back past it."""
MAX_FILE_OFFSET = 1 << 40
"""The largest byte offset an undo record's append may name (beyond any room file)."""
EDIT_TEXT_LIMIT = 100_000
"""The longest narration the keeper may put in place of a turn's (``lw room edit``)."""


# --- recording ---------------------------------------------------------------------------------


def _b64(data: bytes | None) -> str | None:
    return None if data is None else base64.b64encode(data).decode("ascii")


def _raw(text: Any) -> bytes | None:
    return None if text is None else base64.b64decode(text)


def stage_record(folder: Path, txn: FolderTransaction, *, turn_before: int, turn_after: int) -> None:
    """Add to ``txn`` (a save of the room ``folder``, not yet committed) the undo log line
    recording its changes. Call it last, with the room's writer lock held."""
    changes: list[dict[str, Any]] = []
    for change in txn.changes:
        target = write_target(folder / change.target)
        exists = target.is_file()
        if change.kind == "replace":
            changes.append({"target": change.target, "kind": "replace",
                            "before": _b64(target.read_bytes()) if exists else None, "after": _b64(change.data)})
        elif change.kind == "append":
            size = target.stat().st_size if exists else 0
            at = size if change.at is None else change.at
            was = b""
            if exists and at < size:
                with open(target, "rb") as handle:
                    handle.seek(at)
                    was = handle.read()
            changes.append({"target": change.target, "kind": "append", "at": at, "was": _b64(was),
                            "data": _b64(change.data), **({} if exists else {"new": True})})
        else:
            raise LwError(f"a save that does {change.kind} is not recorded (only a rewind does that)")
    if not changes:
        return
    line = json.dumps({"turn_before": turn_before, "turn_after": turn_after, "changes": changes},
                      separators=(",", ":")).encode("ascii")
    if len(line) > MAX_UNDO_RECORD_BYTES:
        line = json.dumps({"turn_before": turn_before, "turn_after": turn_after, "lost": True}).encode("ascii")
    txn.append(UNDO_LOG, line + b"\n")


# --- reading ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Record:
    """One save's line of the undo log: where it starts, the turns around it, its changes
    (``None``: too large to keep -- no rewind goes back past it)."""

    start: int
    raw: bytes
    turn_before: int
    turn_after: int
    changes: list[dict[str, Any]] | None


_B64 = (str, type(None))


def _limits() -> Limits:
    """What a reader of the undo log and the kept alternatives takes: JSON's, up to
    :data:`MAX_UNDO_RECORD_BYTES`."""
    return replace(JSON_LIMITS, max_bytes=MAX_UNDO_RECORD_BYTES)


def _change_problem(folder: Path, change: Any, path: Path) -> str | None:
    """Why ``change`` is not a change record of the room ``folder`` (``None``: it is one). Its
    target is a file of the room as a save names it: a canonical relative path (no empty, ``.``
    or ``..`` part), inside the room, not the room's own state (``.lw/``), not a folder."""
    if not isinstance(change, dict) or not isinstance(change.get("target"), str):
        return "a change without a target"
    target = change["target"]
    parts = target.split("/")
    if "\\" in target or any(part in ("", ".", "..") for part in parts) or parts[0] == STATE_DIR:
        return f"a change of {target[:80]!r}, which is not a file of the room"
    confined = confine(folder, target, file=path, what="an undo record's file")
    if confined.is_dir():
        return f"a change of {target[:80]!r}, which is a folder"
    if change.get("kind") == "replace":
        ok = isinstance(change.get("before"), _B64) and isinstance(change.get("after"), str)
    elif change.get("kind") == "append":
        at = change.get("at")
        ok = (isinstance(at, int) and not isinstance(at, bool) and 0 <= at <= MAX_FILE_OFFSET
              and isinstance(change.get("was"), _B64) and isinstance(change.get("data"), str))
    else:
        ok = False
    return None if ok else f"a change of {target[:80]!r} that is not a replace or an append"


def _parse(path: Path, start: int, raw: bytes, folder: Path | None = None) -> Record:
    """One undo record (of the room ``folder``; default: the log's own room), checked whole:
    a damaged or hostile line (a file outside the room, a wrong type) is a located error."""
    folder = folder if folder is not None else path.parent.parent
    where = f"the undo log's line at byte {start}" if path.name == "undo.jsonl" else "a kept alternative"
    try:
        data = load_json(raw.decode("ascii"), path, limits=_limits())
    except (LwError, UnicodeDecodeError):
        raise LwError(f"{where} is damaged", file=path, byte=start) from None
    ok = isinstance(data, dict) and all(
        isinstance(data.get(k), int) and not isinstance(data.get(k), bool) for k in ("turn_before", "turn_after"))
    changes = data.get("changes") if ok else None
    if not ok or (changes is None and data.get("lost") is not True) or (changes is not None and not isinstance(changes, list)):
        raise LwError(f"{where} is not a record", file=path, byte=start)
    for change in changes or ():
        problem = _change_problem(folder, change, path)
        if problem is not None:
            raise LwError(f"{where} is not a record: {problem}", file=path, byte=start, code="invalid")
    try:
        for change in changes or ():
            for key in ("before", "after", "was", "data"):
                if isinstance(change.get(key), str):
                    base64.b64decode(change[key], validate=True)
    except ValueError:
        raise LwError(f"{where} holds bytes that are not base64", file=path, byte=start) from None
    return Record(start, raw, data["turn_before"], data["turn_after"], changes)


def newest_first(folder: Path) -> Iterator[Record]:
    """The undo log's records, newest first (read from the end as far as the caller goes)."""
    path = folder / UNDO_LOG
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return
    if not path.is_file():  # a pipe's size says 0 and a folder's is no count of lines: refused, located
        open_file(path).close()
    for line in lines_before(path, size, max_line=MAX_UNDO_RECORD_BYTES + 1):
        if line.raw.strip():
            yield _parse(path, line.start, line.raw)


def records_since(folder: Path, turn: int) -> list[Record]:
    """The records of the saves since just before turn ``turn`` was saved, newest first;
    :class:`LwError` when the log does not reach back that far."""
    found: list[Record] = []
    reached = False
    for record in newest_first(folder):
        if record.turn_after < turn:
            reached = True
            break
        if record.changes is None:
            raise LwError(f"a save after turn {record.turn_before} was too large to keep for undoing, so the room "
                          f"cannot go back to before turn {turn}", code="refused")
        found.append(record)
    if found and not reached and found[-1].turn_before >= turn:
        raise LwError(f"this room's undo log does not reach back to before turn {turn} (it begins at turn "
                      f"{found[-1].turn_before}: saves before it kept none)", code="refused")
    return found


# --- the file algebra -----------------------------------------------------------------------


@dataclass(frozen=True)
class _Whole:
    """A file known whole (``None``: it does not exist)."""

    data: bytes | None


@dataclass(frozen=True)
class _Prefix:
    """The file's first ``size`` bytes as they are on disk now (``None``: all of them), then ``tail``."""

    size: int | None
    tail: bytes = b""


_State = _Whole | _Prefix
_NOW = _Prefix(None)


def _cut(state: _State, n: int) -> _State:
    if isinstance(state, _Whole):
        return _Whole((state.data or b"")[:n])
    if state.size is None or n <= state.size:
        return _Prefix(n)
    return _Prefix(state.size, state.tail[:n - state.size])


def _plus(state: _State, data: bytes) -> _State:
    if isinstance(state, _Whole):
        return _Whole((state.data or b"") + data)
    return _Prefix(state.size, state.tail + data)


def _size(folder: Path, target: str, state: _State) -> int:
    """How many bytes the file ``target`` has in ``state`` (``_NOW``: on disk now; a file that is
    not there, or not a regular file, has none)."""
    if isinstance(state, _Whole):
        return len(state.data or b"")
    if state.size is None:
        try:
            info = (folder / target).lstat()
        except OSError:
            return 0
        return info.st_size if stat.S_ISREG(info.st_mode) else 0
    return state.size + len(state.tail)


def _check_at(folder: Path, record: Record, change: dict[str, Any], state: _State, path: Path) -> None:
    """An append of ``record`` is applied (undone or redone) only at an offset inside the file
    as it is at that point: one past its end would leave a hole (a sparse file of any size)."""
    if change["kind"] != "append" or change.get("new"):
        return
    size = _size(folder, change["target"], state)
    if int(change["at"]) > size:
        where = f"the undo log's line at byte {record.start}" if path.name == "undo.jsonl" else "a kept alternative"
        raise LwError(f"{where} is not a record: an append at byte {change['at']} of {change['target']!r}, "
                      f"past its end ({size} bytes)", file=path, byte=record.start, code="invalid")


def _undo(state: _State, change: dict[str, Any]) -> _State:
    if change["kind"] == "replace":
        return _Whole(_raw(change["before"]))
    if change.get("new"):
        return _Whole(None)
    return _plus(_cut(state, int(change["at"])), _raw(change["was"]) or b"")


def _redo(state: _State, change: dict[str, Any]) -> _State:
    if change["kind"] == "replace":
        return _Whole(_raw(change["after"]))
    return _plus(_cut(state, int(change["at"])), _raw(change["data"]) or b"")


def _stage(txn: FolderTransaction, states: dict[str, _State]) -> None:
    for target, state in states.items():
        if isinstance(state, _Whole):
            if state.data is None:
                txn.delete(target)
            else:
                txn.replace(target, state.data)
        elif state.size is not None:
            if state.tail:
                txn.append(target, state.tail, at=state.size)
            else:
                txn.truncate(target, state.size)


def _undone(folder: Path, records: list[Record]) -> dict[str, _State]:
    """Each file as it was before ``records`` (newest first); a located error when a record's
    append lies past the end of its file (:func:`_check_at`)."""
    states: dict[str, _State] = {}
    for record in records:
        for change in reversed(record.changes or ()):
            state = states.get(change["target"], _NOW)
            _check_at(folder, record, change, state, folder / UNDO_LOG)
            states[change["target"]] = _undo(state, change)
    return states


def _log_size(folder: Path) -> int:
    try:
        return (folder / UNDO_LOG).stat().st_size
    except FileNotFoundError:
        return 0


# --- alternatives ------------------------------------------------------------------------------


@dataclass
class Alternatives:
    """The kept replies of turn ``turn``: each item's ``records`` (the undo log lines of its
    saves) or ``None`` for the one in the room now; ``narration`` what it narrated."""

    turn: int
    items: list[dict[str, Any]]

    @property
    def chosen(self) -> int | None:
        return next((i for i, item in enumerate(self.items) if item.get("records") is None), None)


def read_alternatives(folder: Path) -> Alternatives | None:
    path = folder / ALTERNATIVES
    if not path.is_file():
        return None
    data = load_json(read_text(path, max_bytes=MAX_UNDO_RECORD_BYTES), path, limits=_limits())
    items = data.get("items") if isinstance(data, dict) else None
    if not isinstance(items, list) or not isinstance(data.get("turn"), int) or not all(
            isinstance(i, dict) and isinstance(i.get("narration", ""), str)
            and (i.get("records") is None or (isinstance(i["records"], list)
                                              and all(isinstance(r, str) and r.isascii() for r in i["records"])))
            for i in items):
        raise LwError("the kept alternatives are damaged", file=path)
    return Alternatives(data["turn"], items)


def _alternatives_bytes(alternatives: Alternatives) -> bytes:
    return json.dumps({"turn": alternatives.turn, "items": alternatives.items}, ensure_ascii=False).encode("utf-8")


def _narration_of(records: list[Record], turn: int) -> str:
    """The keeper's narration of ``turn`` as the newest of ``records`` (newest first) left it."""
    for record in records:
        for change in reversed(record.changes or ()):
            if change["target"] == "history.jsonl" and change["kind"] == "append":
                texts = []
                for raw in (_raw(change["data"]) or b"").split(b"\n"):
                    try:
                        entry = json.loads(raw)
                    except ValueError:
                        continue
                    if isinstance(entry, dict) and entry.get("role") == "keeper" and entry.get("turn") == turn:
                        texts.append(str(entry.get("text", "")))
                if texts:
                    return "\n".join(texts)
    return ""


def alternatives_of(room: Room) -> list[tuple[int, str, bool]]:
    """The last turn's replies as the keeper can choose among them: ``(number, narration,
    whether it is the one in the room)``, numbered from 1; empty when it has no other."""
    kept = read_alternatives(room.path)
    turn = room.turn_number
    if kept is None or kept.turn not in (turn, turn + 1):
        return []
    shown = [(n + 1, str(item.get("narration", "")), item.get("records") is None) for n, item in enumerate(kept.items)]
    if kept.turn == turn and kept.chosen is None:  # the turn played after the regenerate
        current = "\n".join(e.text for e in room.history.tail(64) if e.turn == turn and e.role == "keeper")
        shown.append((len(kept.items) + 1, current, True))
    return shown


# --- the controls --------------------------------------------------------------------------------


def rewind(folder: Path, turn: int, *, keep: bool = False, fault: FaultHook | None = None) -> int:
    """Put the room back to just before turn ``turn`` was saved (one transaction; hold the
    writer lock). ``keep``: the undone turn becomes an alternative (a regenerate); its
    number is returned. Kept alternatives of a turn that is undone are dropped otherwise.
    :class:`LwError` when there is nothing after that point, or the log does not reach it."""
    return _rewind(folder, turn, keep=keep, fault=fault)[0]


def _rewind(folder: Path, turn: int, *, keep: bool, fault: FaultHook | None,
            hold: bool = False) -> tuple[int, set[str]]:
    """:func:`rewind`; also the files it changed (relative to the room). ``hold``: a held
    transaction (:meth:`~lwcore.io.transaction.FolderTransaction.hold`: durable with the next commit)."""
    records = records_since(folder, turn)
    if not records:
        raise LwError(f"nothing has been saved since before turn {turn}", code="invalid")
    number = 0
    states = _undone(folder, records)
    states[UNDO_LOG] = _Prefix(records[-1].start)
    kept = read_alternatives(folder)
    if keep:
        item = {"records": [r.raw.decode("ascii") for r in reversed(records)], "narration": _narration_of(records, turn)}
        if kept is not None and kept.turn == turn:
            index = kept.chosen
            if index is None:
                kept.items.append(item)
                index = len(kept.items) - 1
            else:
                kept.items[index] = {**item, "narration": kept.items[index].get("narration") or item["narration"]}
        else:
            kept, index = Alternatives(turn, [item]), 0
        number = index + 1
        states[ALTERNATIVES] = _Whole(_alternatives_bytes(kept))
    elif kept is not None and kept.turn >= turn:
        states[ALTERNATIVES] = _Whole(None)
    _commit(folder, states, fault, hold=hold)
    return number, set(states)


def choose(folder: Path, number: int, *, turn_number: int, fault: FaultHook | None = None) -> None:
    """Make alternative ``number`` (from 1, as :func:`alternatives_of` numbers them) the last
    turn's reply: the one in the room undone and kept, the chosen one redone (one transaction)."""
    kept = read_alternatives(folder)
    if kept is None or kept.turn not in (turn_number, turn_number + 1):
        raise LwError("the last turn has no other reply to choose", code="refused",
                      expected="regenerate it first (lw turn ROOM --regenerate)")
    total = len(kept.items) + (1 if kept.turn == turn_number and kept.chosen is None else 0)
    if not 1 <= number <= total:
        raise LwError(f"no reply number {number}", code="invalid", expected=f"1 to {total}")
    index = number - 1
    if index == len(kept.items) or kept.items[index].get("records") is None:
        return  # already in the room
    active = records_since(folder, kept.turn)
    states = _undone(folder, active)
    lines = [line.encode("ascii") for line in kept.items[index]["records"]]
    for raw in lines:
        record = _parse(folder / ALTERNATIVES, 0, raw, folder)
        for change in record.changes or ():
            state = states.get(change["target"], _NOW)
            _check_at(folder, record, change, state, folder / ALTERNATIVES)
            states[change["target"]] = _redo(state, change)
    start = active[-1].start if active else _log_size(folder)
    states[UNDO_LOG] = _Prefix(start, b"".join(raw + b"\n" for raw in lines))
    current = {"records": [r.raw.decode("ascii") for r in reversed(active)], "narration": _narration_of(active, kept.turn)}
    chosen = kept.chosen
    if chosen is not None:
        kept.items[chosen] = {**current, "narration": kept.items[chosen].get("narration") or current["narration"]}
    elif active:
        kept.items.append(current)
    kept.items[index] = {"records": None, "narration": kept.items[index].get("narration", "")}
    states[ALTERNATIVES] = _Whole(_alternatives_bytes(kept))
    _commit(folder, states, fault)


def edit(room: Room, turn: int, text: str, *, fault: FaultHook | None = None) -> None:
    """Put ``text`` in place of the keeper's narration of ``turn`` (its last narration line),
    marked ``edited`` (players see the mark); one transaction, recorded for undoing."""
    text = text.strip()
    if not text:
        raise LwError("the new narration is empty", code="invalid")
    if len(text) > EDIT_TEXT_LIMIT:
        raise LwError(f"the new narration has {len(text):,} characters (at most {EDIT_TEXT_LIMIT:,})", code="limit")
    check_said(text.replace("\n", " "))
    path = room.path / "history.jsonl"
    target = None
    size = path.stat().st_size if path.is_file() else 0
    for line in lines_before(path, size):
        if not line.raw.strip():
            continue
        try:
            entry = json.loads(line.raw)
            number = int(entry.get("turn", 0))
        except (ValueError, TypeError, AttributeError):
            raise LwError(f"the history line at byte {line.start} is damaged", file=path, byte=line.start) from None
        if number < turn:
            break
        if number == turn and entry.get("role") == "keeper":
            target = (line, entry)
            break
    if target is None:
        raise LwError(f"turn {turn} has no narration to edit", code="invalid",
                      expected=f"a turn from 1 to {room.turn_number} that the keeper narrated")
    line, entry = target
    entry.update({"text": text, "edited": True})
    new = record_text(entry_record(HistoryEntry.model_validate(entry))).encode("utf-8") + b"\n"
    rest = b"".join(raw.raw + b"\n" for raw in lines_from(path, line.end))
    txn = FolderTransaction(room.path, fault=fault) if fault else FolderTransaction(room.path)
    txn.append("history.jsonl", new + rest, at=line.start)
    stage_record(room.path, txn, turn_before=room.turn_number, turn_after=room.turn_number)
    txn.commit()


def _commit(folder: Path, states: dict[str, _State], fault: FaultHook | None, *, hold: bool = False) -> None:
    txn = FolderTransaction(folder, fault=fault) if fault else FolderTransaction(folder)
    _stage(txn, states)
    if hold:
        txn.hold()
    else:
        txn.commit()


def regenerate(room: Room, play: Callable[[Room], Any], *, fault: FaultHook | None = None) -> Any:
    """Play the last turn again from the state before it, the earlier reply kept as an
    alternative (see the module doc): ``play(room)`` plays a turn in the loaded room it is
    given (what was said, by whom, is :func:`last_said`'s). Hold the writer lock. What
    ``play`` returns; if it raises, the earlier reply is chosen back and the error goes on."""
    turn = room.turn_number
    if turn < 1:
        raise LwError("no turn has been played here yet", code="invalid")
    number, changed = _rewind(room.path, turn, keep=True, fault=fault, hold=True)
    try:
        played = play(room.reread(changed))  # only the files the rewind put back are read again
    except BaseException:
        choose(room.path, number, turn_number=turn - 1)  # (its commit ends the held rewind)
        raise
    finish_held(room.path)  # a turn that saved nothing: the rewind made durable on its own
    return played


def last_said(room: Room) -> tuple[str, str | None]:
    """What the member who acted in the last turn said, and their id."""
    turn = room.turn_number
    if turn < 1:
        raise LwError("no turn has been played here yet", code="invalid")
    entries = []
    for entry in room.history.newest_first():  # the last turn's entries only (turns never go down)
        if entry.turn < turn:
            break
        entries.append(entry)
    said = [e for e in reversed(entries) if e.turn == turn and e.role == "player"]
    if not said or not any(e.turn == turn and e.role == "keeper" for e in entries):
        raise LwError(f"the last turn ({turn}) was no model's reply to a player (a room command?): nothing to "
                      "regenerate", code="invalid")
    return said[0].text, said[0].actor
