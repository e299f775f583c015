"""The memory inbox (§5): an append-only JSONL event log, replayed in line order on every read.

Two kinds of lines: *fact* lines (``{"text", "at", "status", "tag", "kind"}``) and *op* lines
(``confirm`` / ``reject`` / ``drop`` / ``supersede``, located by ``ref`` = the entry's exact
text). Bad lines and unknown ops are skipped one by one; nothing is ever rewritten.

Write rights (§5.5) are enforced by which functions exist where:

- :class:`ModelInbox` is the model-facing handle: it can only append ``status:"proposed"`` fact
  lines and ``supersede`` lines (always ``status:"proposed"``);
- :func:`confirm`, :func:`reject`, :func:`drop` are the human actions, used by
  ``lw persona inbox …`` only.
"""

from __future__ import annotations

import gc
import json
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, cast

from lwcore.api import LwError, js, read_bytes as read_file

PROPOSED = "proposed"
CONFIRMED = "confirmed"
LEGACY = "legacy"
UNKNOWN = "unknown"
MEMORY_KIND = "memory"
HUMAN_OPS = ("confirm", "reject", "drop")
MAX_INBOX_BYTES = 128 * 1024 * 1024
"""An inbox larger than this is not read (about a million lines)."""

_NEWLINES = re.compile(r"[\r\n]+")
_KIND_STRIP = re.compile(r"[^a-z0-9_-]")


def fold(value: Any) -> str:
    """Text as stored in the view: ``String(v).trim()`` with newline runs folded to one space."""
    if value is None:
        return ""
    text = value if isinstance(value, str) else js.to_string(value)
    text = text.strip(js.WHITESPACE)
    if "\n" in text or "\r" in text:
        text = _NEWLINES.sub(" ", text)
    return text


def norm_kind(value: Any) -> str:
    """Lower-case, only ``[a-z0-9_-]`` kept; ``''`` = not given."""
    if value is None:
        return ""
    text = (value if isinstance(value, str) else js.to_string(value)).strip(js.WHITESPACE).lower()
    return _KIND_STRIP.sub("", text)


def status_of(value: Any) -> str:
    """``confirmed`` / ``proposed``; absent or empty = ``legacy``; any other value = ``unknown``.

    ``unknown`` is never injected under any setting (the reference treats it as legacy; the
    spec only lets an *absent* status count as legacy -- see README).
    """
    if value is None:
        return LEGACY
    if not isinstance(value, str):
        return UNKNOWN
    s = value.strip(js.WHITESPACE).lower()
    if s == CONFIRMED:
        return CONFIRMED
    if s == PROPOSED:
        return PROPOSED
    return LEGACY if s == "" else UNKNOWN


@dataclass(slots=True)
class Entry:
    """One entry of the replayed view."""

    text: str
    at: str = ""
    tag: str = ""
    status: str = LEGACY
    kind: str = MEMORY_KIND

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "at": self.at, "tag": self.tag, "status": self.status, "kind": self.kind}


@dataclass(slots=True)
class Replay:
    """The view after replay (oldest first) and what was skipped.

    ``skipped``: ``(line number, reason)`` of every bad line (``bad`` counts them); ``error``:
    why the file itself could not be read (a located :class:`lwcore.errors.LwError`; the view
    is then empty), ``None`` when it was read.
    """

    entries: list[Entry] = field(default_factory=list)
    lines: int = 0
    bad: int = 0
    unknown_ops: int = 0
    unmatched: int = 0
    skipped: list[tuple[int, str]] = field(default_factory=list)
    error: Exception | None = None

    def copy(self) -> Replay:
        """A replay sharing the entries but with its own list (what a cache hands out)."""
        return Replay(list(self.entries), self.lines, self.bad, self.unknown_ops, self.unmatched,
                      list(self.skipped), self.error)


_SCAN = json.JSONDecoder().scan_once  # type: ignore[attr-defined]  # typeshed leaves the scanner out
"""The C scanner behind ``json.loads``, called directly (a line is already stripped)."""


def replay(lines: Iterable[str | None]) -> Replay:
    """Replay ``lines`` in order (§5.4); ``None`` stands for a line that is not UTF-8.
    O(1) per line: entries are located through an index."""
    with _collector_paused():
        return _replay(lines)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector: a replay allocates a dict and an entry per line and
    frees nothing, so the collections it would trigger (a sixth of a 10,000-line replay's
    time) find nothing to collect. Reference counting still frees everything as usual."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _replay(lines: Iterable[str | None]) -> Replay:
    order: dict[int, Entry] = {}
    by_text: dict[str, list[int]] = {}
    skipped: list[tuple[int, str]] = []
    seq = 0
    n = unknown = unmatched = 0
    scan = _SCAN
    ws = js.WHITESPACE
    for line in lines:
        n += 1
        if line is None:
            skipped.append((n, "not valid UTF-8"))
            continue
        s = line.strip(ws)
        if not s:
            continue
        try:
            o, end = scan(s, 0)
        except (StopIteration, ValueError, RecursionError):
            skipped.append((n, "not JSON"))
            continue
        if end != len(s) or type(o) is not dict:
            skipped.append((n, "not one JSON object"))
            continue
        op = o.get("op")
        if type(op) is not str or not op:
            if op is not None and type(op) is not str:
                op = ""
            text = o.get("text")
            if type(text) is not str or not text.isprintable() or text != text.strip():
                text = fold(text)
            if not text:
                skipped.append((n, "a fact line without text"))
                continue
            at = o.get("at")
            tag = o.get("tag")
            kind = o.get("kind")
            status = o.get("status")
            entry = Entry(
                text,
                at if type(at) is str else "",
                fold(tag) if tag is not None else "",
                # the two values writers use, without a call; anything else through status_of
                CONFIRMED if status == CONFIRMED else PROPOSED if status == PROPOSED else status_of(status),
                (norm_kind(kind) or MEMORY_KIND) if kind is not None else MEMORY_KIND,
            )
            seq += 1
            order[seq] = entry
            slot = by_text.get(text)
            if slot is None:
                by_text[text] = [seq]
            else:
                slot.append(seq)
            continue
        if op not in ("confirm", "reject", "drop", "supersede"):
            unknown += 1
            continue
        ref = o.get("ref")
        if type(ref) is not str or not ref.isprintable() or ref != ref.strip():
            ref = fold(ref)
        if not ref:
            skipped.append((n, f"a {op} line without ref"))
            continue
        if op == "supersede":
            new_text = fold(o.get("text"))
            if not new_text:
                skipped.append((n, "a supersede line without text"))
                continue
        slot = by_text.get(ref)
        if not slot:
            unmatched += 1
            continue
        first = slot[0]
        if op == "confirm":
            order[first].status = CONFIRMED
            continue
        slot.pop(0)
        if not slot:
            del by_text[ref]
        old = order.pop(first)
        if op == "supersede":
            at = o.get("at")
            status = status_of(o.get("status"))
            kind = norm_kind(o.get("kind"))
            entry = Entry(
                new_text,
                at if type(at) is str else "",
                fold(o.get("tag")) or old.tag,
                old.status if status == LEGACY else status,
                kind or old.kind or MEMORY_KIND,
            )
            seq += 1
            order[seq] = entry
            by_text.setdefault(new_text, []).append(seq)
    return Replay(list(order.values()), n, len(skipped), unknown, unmatched, skipped)


def split_lines(data: bytes) -> list[str | None]:
    """The lines of ``data`` (``\\n`` separated; a trailing ``\\r`` is trimmed later); a line
    that is not valid UTF-8 is ``None``, never decoded with replacement characters (that
    would inject text nobody wrote)."""
    try:
        return cast("list[str | None]", data.decode("utf-8").split("\n"))  # a new list: None may go in
    except UnicodeDecodeError:
        out: list[str | None] = []
        for raw in data.split(b"\n"):
            try:
                out.append(raw.decode("utf-8"))
            except UnicodeDecodeError:
                out.append(None)
        return out


def read_bytes(path: Path) -> bytes:
    """The inbox file (:data:`MAX_INBOX_BYTES` at most, a regular file); located
    :class:`LwError` otherwise, code ``not_found`` when it does not exist."""
    return read_file(path, max_bytes=MAX_INBOX_BYTES)


def read_lines(path: Path) -> list[str | None]:
    """:func:`split_lines` of the file; ``[]`` when it cannot be read."""
    try:
        return split_lines(read_bytes(path))
    except LwError:
        return []


_CACHE: dict[str, tuple[tuple[int, int, int], Replay]] = {}


def read(path: Path, *, cache: bool = True) -> Replay:
    """Replay the file at ``path``: a missing file is an empty view; one that cannot be read
    (not a regular file, too big, unreadable) is an empty view with ``error`` set.

    The replayed view is reused while the file's (size, mtime, inode) stay the same -- every
    append changes the size, so a new line is always seen by the next read. Callers get a
    fresh list of the cached entries; they must not mutate the entries themselves.
    """
    key = str(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        _CACHE.pop(key, None)
        return Replay()
    except OSError as exc:
        _CACHE.pop(key, None)
        return Replay(error=LwError(f"cannot read: {exc.strerror or exc}", file=path, code="io"))
    stamp = (st.st_size, st.st_mtime_ns, st.st_ino)
    hit = _CACHE.get(key) if cache else None
    if hit is not None and hit[0] == stamp:
        return hit[1].copy()
    try:
        result = replay(split_lines(read_bytes(path)))
    except LwError as exc:
        return Replay(error=None if exc.code == "not_found" else exc)
    if cache:
        if len(_CACHE) > 16:
            _CACHE.clear()
        _CACHE[key] = (stamp, result)
        result = result.copy()
    return result


def clear_cache() -> None:
    """Forget every cached view (benchmarks and tests)."""
    _CACHE.clear()


def injectable(entries: Sequence[Entry], *, require_confirm: bool = True) -> list[Entry]:
    """Entries that may enter the prompt (§3.3): kind ``memory``, confirmed (or legacy if allowed)."""
    return [
        e for e in entries
        if e.kind == MEMORY_KIND and (e.status == CONFIRMED or (not require_confirm and e.status == LEGACY))
    ]


def pick_relevant(entries: Sequence[Entry], max_entries: float, cwd: str | None) -> list[Entry]:
    """Cap at ``max_entries``: tag matching the cwd first, then global, then other projects;
    newest first inside a group; the result back in log order."""
    n = max_entries if max_entries > 0 else 30
    if len(entries) <= n:
        return list(entries)
    base = (cwd or "").replace("\\", "/").lower()
    segs = [s for s in base.split("/") if s] if base else []
    proj = segs[-1] if segs else ""
    seg_set = set(segs)

    # Indexes by score (0 other project, 1 global, 2 this project), each in log order; then the
    # newest of the best groups. Same result as sorting by (-score, -index), without the sort.
    groups: tuple[list[int], list[int], list[int]] = ([], [], [])
    for i, e in enumerate(entries):
        tag = e.tag.strip(js.WHITESPACE).lower() if e.tag else ""
        groups[1 if not tag else 2 if proj and (tag == proj or tag in seg_set) else 0].append(i)
    keep: list[int] = []
    for group in reversed(groups):
        need = int(n) - len(keep)
        if need <= 0:
            break
        keep += group[-need:]
    return [entries[i] for i in sorted(keep)]


# --- writing ------------------------------------------------------------------------------


def now_iso() -> str:
    """``new Date().toISOString()``."""
    now = datetime.now(timezone.utc)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def append_line(path: Path, obj: dict[str, Any]) -> str:
    """Append one JSON line with ``O_APPEND`` in a single write, then fsync. Returns the line."""
    line = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    if "\n" in line or "\r" in line:  # json.dumps escapes them; defensive
        raise ValueError("a JSON line cannot contain a raw newline")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        # The missing-final-newline check below reads then writes; an advisory lock keeps a
        # concurrent appender from landing between the two (seen: a stray empty line).
        _lock(fd)
        payload = (line + "\n").encode("utf-8")
        size = os.fstat(fd).st_size
        if size:
            # A hand-edited file may lack its final newline: never glue our line onto it.
            with open(path, "rb") as handle:
                handle.seek(size - 1)
                if handle.read(1) != b"\n":
                    payload = b"\n" + payload
        written = 0
        while written < len(payload):
            written += os.write(fd, payload[written:])
        os.fsync(fd)
    finally:
        os.close(fd)
    return line


def _lock(fd: int) -> None:
    """Exclusive advisory lock on ``fd`` until it is closed (no-op where fcntl is missing)."""
    try:
        import fcntl
    except ImportError:  # Windows: appends stay O_APPEND single writes
        return
    fcntl.flock(fd, fcntl.LOCK_EX)


class ModelInbox:
    """What the model-facing path may do (§5.5): propose facts and propose supersedes. Nothing else."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def propose(self, text: str, *, tag: str | None = None, kind: str | None = None, at: str | None = None) -> str:
        """Append a ``status:"proposed"`` fact line. ``kind`` must be ``[a-z0-9_-]``."""
        body = fold(text)
        if not body:
            raise LwError("a memory candidate needs non-empty text")
        obj: dict[str, Any] = {"text": body, "at": at or now_iso(), "status": PROPOSED}
        if tag and fold(tag):
            obj["tag"] = fold(tag)
        if kind is not None:
            k = norm_kind(kind)
            if not k or k != kind:
                raise LwError(f"invalid kind {kind!r}", expected="[a-z0-9_-]+")
            if k != MEMORY_KIND:
                obj["kind"] = k
        return append_line(self.path, obj)

    def propose_supersede(self, ref: str, text: str, *, tag: str | None = None, at: str | None = None) -> str:
        """Append a ``supersede`` line; always ``status:"proposed"`` (a rewrite needs a new confirmation)."""
        if not fold(ref) or not fold(text):
            raise LwError("supersede needs both ref (the old text) and text")
        obj: dict[str, Any] = {"op": "supersede", "ref": fold(ref), "text": fold(text), "at": at or now_iso(), "status": PROPOSED}
        if tag and fold(tag):
            obj["tag"] = fold(tag)
        return append_line(self.path, obj)


def _human_op(path: Path, op: str, index: int) -> tuple[Entry, str]:
    replayed = read(path, cache=False)
    if replayed.error is not None:
        raise replayed.error
    view = replayed.entries
    if not 0 <= index < len(view):
        raise LwError(f"no inbox entry #{index}", file=path, expected=f"an index from 0 to {len(view) - 1}" if view else "a non-empty inbox")
    entry = view[index]
    return entry, append_line(path, {"op": op, "ref": entry.text, "at": now_iso()})


def confirm(path: Path, index: int) -> tuple[Entry, str]:
    """Human action: confirm view entry ``index`` (appends a ``confirm`` line)."""
    return _human_op(path, "confirm", index)


def reject(path: Path, index: int) -> tuple[Entry, str]:
    """Human action: reject view entry ``index``."""
    return _human_op(path, "reject", index)


def drop(path: Path, index: int) -> tuple[Entry, str]:
    """Human action: drop view entry ``index``."""
    return _human_op(path, "drop", index)
