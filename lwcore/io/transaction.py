"""Folder locks and an all-or-nothing save across several files of one folder.

**Locks** (advisory ``flock`` files under ``<folder>/.lw/``; each holder opens its own, so
threads of one process exclude each other like processes do):

- the **writer lock** (``lock``, :func:`locked` without ``shared``): held for a whole
  load-change-save -- a turn, its model call included. Writers of one folder go one at a time.
- the **commit lock** (``commit``): held exclusively only while a transaction's journal is
  written and applied (milliseconds), shared by a reader for as long as it reads
  (:func:`locked` with ``shared``). A reader never takes the writer lock, so it never waits
  for a turn in progress: it reads the last committed state, whole.
- a **turnstile** (``gate``) gives a waiting commit priority over readers that arrive after
  it, so a stream of overlapping readers cannot starve a commit.

A waiter gives up with a clear error after ``timeout`` seconds.

**Transaction** (:class:`FolderTransaction`): every new file body is written and fsynced to
``<folder>/.lw/txn/`` first; then, under the commit lock, a journal naming each change is
written atomically (its appearance is the commit point), each change is applied (a rename
over the target, or an append at a recorded offset) and the journal is removed.
:func:`recover` finishes a committed transaction whose process died, and throws away an
uncommitted one, so the folder always holds the old state or the new state of every file,
never a mix. A journal outlives its commit lock only when its process died: the next writer
or reader recovers it (under the commit lock) before reading.

Appends make a growing log (a room's history) cost the size of what is added, not of the
whole file: the journal records the file's size before the append, and replaying it
truncates back to that size before writing, so it can run any number of times. A
transaction may also cut a file back to a size (``truncate``: a log rewound) or remove one
(``delete``); both are idempotent too.

**A held transaction** (:meth:`FolderTransaction.hold`) is applied at once and made durable by
the next commit in the folder: its one record file (``.lw/held.json``, every change with its
bytes) is its commit point, its changes are applied without a sync each, and the next
commit syncs what of them it does not rewrite itself, then removes the record in its own
journal. A change followed at once by another -- a regenerate's rewind, then the turn played
again -- so costs about one transaction. A held transaction whose process died is finished
from its record by the next writer (after any journal), or by a reader that finds no writer.
"""

from __future__ import annotations

import json
import os
import stat
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import NotRequired, TypedDict

from lwcore.errors import LwError
from lwcore.io.atomic import atomic_write_bytes, fsync_dir, write_target
from lwcore.io.paths import confine
from lwcore.io.safe_json import load_json, read_json
from lwcore.io.text import open_file

STATE_DIR = ".lw"
LOCK_FILE = "lock"
COMMIT_LOCK = "commit"
GATE_LOCK = "gate"
TXN_DIR = "txn"
JOURNAL = "journal.json"
HELD = "held.json"

FaultHook = Callable[[str], None]
"""Called with a step name at each step of a commit (tests inject faults through it)."""


def _no_fault(step: str) -> None:
    return None


class FolderLock:
    """An advisory lock on a folder (``fcntl.flock``; on systems without it, no locking).

    Use as ``with FolderLock(path):`` (exclusive) or ``FolderLock(path, shared=True)``;
    ``name`` picks the lock file under ``.lw/`` (the writer lock by default).
    Re-entrant within one object only; each holder should use its own object.
    """

    def __init__(self, folder: str | Path, *, shared: bool = False, timeout: float = 120.0,
                 name: str = LOCK_FILE) -> None:
        self.folder = Path(folder)
        self.shared = shared
        self.timeout = timeout
        self.name = name
        self._fd: int | None = None
        self._depth = 0

    def __enter__(self) -> FolderLock:
        if self._depth == 0:
            self._acquire()
        self._depth += 1
        return self

    def __exit__(self, *exc: object) -> None:
        self._depth -= 1
        if self._depth == 0:
            self._release()

    def _acquire(self) -> None:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows: no advisory lock (docs/security.md)
            return
        state = self.folder / STATE_DIR
        try:
            state.mkdir(exist_ok=True)
            fd = os.open(state / self.name, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as exc:
            if self.shared and isinstance(exc, PermissionError):
                return  # a read-only folder can still be read
            raise LwError(f"cannot lock the folder: {exc.strerror or exc}", file=self.folder) from None
        mode = fcntl.LOCK_SH if self.shared else fcntl.LOCK_EX
        deadline = time.monotonic() + self.timeout
        delay = 0.005
        while True:
            try:
                fcntl.flock(fd, mode | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    raise LwError(
                        f"busy: another process has held this folder for {self.timeout:g} s",
                        file=self.folder, code="busy",
                    ) from None
                time.sleep(delay)
                delay = min(delay * 2, 0.1)
        self._fd = fd

    def _release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing releases the flock
            self._fd = None


@dataclass
class _Change:
    kind: str  # "replace" | "append" | "truncate" | "delete"
    target: str  # relative to the folder
    data: bytes
    staged: str = ""
    offset: int = 0
    mode: int | None = None
    at: int | None = None


@dataclass
class FolderTransaction:
    """Collect file changes inside ``folder``, then :meth:`commit` them all or none.

    Paths are relative to the folder (already confined by the caller). ``fault`` is called
    at each step with its name (tests make it raise or kill the process).
    """

    folder: Path
    fault: FaultHook = _no_fault
    changes: list[_Change] = field(default_factory=list)

    def replace(self, rel: str, data: bytes) -> None:
        """Replace the file ``rel`` with ``data`` (a new file is created)."""
        self.changes.append(_Change("replace", rel, data))

    def append(self, rel: str, data: bytes, *, at: int | None = None) -> None:
        """Append ``data`` to the file ``rel`` (created if missing); ``at``: write it at
        that byte offset instead, cutting what followed (a log's tail rewritten)."""
        if data:
            self.changes.append(_Change("append", rel, data, at=at))

    def truncate(self, rel: str, size: int) -> None:
        """Cut the file ``rel`` back to its first ``size`` bytes (a log rewound)."""
        self.changes.append(_Change("truncate", rel, b"", offset=size))

    def delete(self, rel: str) -> None:
        """Remove the file ``rel`` (nothing when it is missing)."""
        self.changes.append(_Change("delete", rel, b""))

    def commit(self) -> list[Path]:
        """Apply every change or none; returns the files changed. Hold the folder's writer
        lock while calling it (the commit lock is taken here, for the journal and its replay)."""
        if not self.changes:
            return []
        txn = self.folder / STATE_DIR / TXN_DIR
        txn.mkdir(parents=True, exist_ok=True)
        _discard(txn)
        entries: list[_JournalEntry] = []
        for index, change in enumerate(self.changes):
            target = write_target(self.folder / change.target)
            try:
                st = target.stat()
                change.mode, size = st.st_mode & 0o7777, st.st_size
            except FileNotFoundError:
                change.mode, size = None, 0
            else:
                if not stat.S_ISREG(st.st_mode):  # a pipe, device, socket or folder: never journaled
                    _discard(txn)
                    raise LwError("cannot be written: it is not a regular file (a pipe, device, socket or folder)",
                                  file=self.folder / change.target, code="not_a_file",
                                  expected="a regular file, or none (it is then created)")
            if change.kind in ("replace", "append"):
                if change.kind == "append":
                    change.offset = size if change.at is None else change.at
                change.staged = f"{index}.new"
                staged = txn / change.staged
                with open(staged, "wb") as handle:
                    handle.write(change.data)
                    handle.flush()
                    os.fsync(handle.fileno())
            self.fault(f"staged:{change.target}")
            entries.append(
                {"kind": change.kind, "target": change.target, "staged": change.staged,
                 "offset": change.offset, "mode": change.mode}
            )
        fsync_dir(txn)
        if _held(self.folder).exists():  # a held transaction (see hold) ends with this one
            _sync_held(self.folder, entries)
            entries.append({"kind": "delete", "target": f"{STATE_DIR}/{HELD}", "staged": "", "offset": 0})
        with committing(self.folder):
            atomic_write_bytes(txn / JOURNAL, json.dumps({"format": 1, "changes": entries}).encode("utf-8"))
            fsync_dir(txn)
            self.fault("committed")
            _replay(self.folder, txn, entries, self.fault)
        return [self.folder / c.target for c in self.changes]

    def hold(self) -> None:
        """Apply every change now -- whole, at once, for any reader -- and make it durable
        later: its record (``.lw/held.json``: each change with its bytes, one file, one fsync)
        is the commit point, and the changes are applied without syncing each file. The
        **next commit in the folder** makes them durable together with its own (and removes the
        record in its journal), so a change followed at once by another (a regenerate's rewind,
        then the turn played again) costs about one transaction, not two. If the process dies
        first, the next writer (or a reader finding no writer) finishes the held changes from
        the record (:func:`recover`); :func:`finish_held` does it at once. Hold the writer
        lock; at most one held transaction at a time (an earlier one is finished first)."""
        if not self.changes:
            return
        finish_held(self.folder)
        header = [{"kind": c.kind, "target": c.target, "offset": c.offset, "size": len(c.data)} for c in self.changes]
        record = json.dumps({"format": 1, "changes": header}).encode("utf-8") + b"\n" + b"".join(
            c.data for c in self.changes)
        state = self.folder / STATE_DIR
        state.mkdir(exist_ok=True)
        atomic_write_bytes(state / HELD, record)
        fsync_dir(state)
        self.fault("committed")
        with committing(self.folder):
            for change in self.changes:
                _apply(self.folder, change.kind, change.target, change.data, change.offset, durable=False)
                self.fault(f"applied:{change.target}")
        self.fault("done")


class _JournalEntry(TypedDict):
    """One change as the journal records it (what :func:`recover` checks before replaying)."""

    kind: str
    target: str
    staged: str
    offset: int
    mode: NotRequired[int | None]


def _replay(folder: Path, txn: Path, entries: list[_JournalEntry], fault: FaultHook) -> None:
    for entry in entries:
        target = write_target(folder / str(entry["target"]))
        staged = txn / str(entry["staged"])
        if entry["kind"] == "delete":
            if target.exists():
                target.unlink()
                fsync_dir(target.parent)
        elif entry["kind"] == "truncate":
            if target.exists():
                with open(target, "r+b") as handle:
                    handle.truncate(int(entry["offset"]))
                    os.fsync(handle.fileno())
        elif entry["kind"] == "replace":
            if staged.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                mode = entry.get("mode")
                os.chmod(staged, int(mode) if isinstance(mode, int) else 0o666 & ~_umask())
                os.replace(staged, target)
                fsync_dir(target.parent)
        else:
            data = staged.read_bytes()
            target.parent.mkdir(parents=True, exist_ok=True)
            flags = os.O_RDWR | os.O_CREAT
            fd = os.open(target, flags, 0o666)
            try:
                os.ftruncate(fd, int(entry["offset"]))
                os.lseek(fd, 0, os.SEEK_END)
                os.write(fd, data)
                os.fsync(fd)
            finally:
                os.close(fd)
        fault(f"applied:{entry['target']}")
    (txn / JOURNAL).unlink()
    fsync_dir(txn)
    fault("done")
    _discard(txn)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _held(folder: Path) -> Path:
    return folder / STATE_DIR / HELD


def _apply(folder: Path, kind: str, rel: str, data: bytes, offset: int, *, durable: bool) -> None:
    """One held change on disk (``durable``: synced, file and folder entry)."""
    target = write_target(folder / rel)
    if kind == "delete":
        if target.exists():
            target.unlink()
            if durable:
                fsync_dir(target.parent)
    elif kind == "truncate":
        if target.exists():
            with open(target, "r+b") as handle:
                handle.truncate(offset)
                if durable:
                    os.fsync(handle.fileno())
    elif kind == "replace":
        if durable:
            atomic_write_bytes(target, data)
            fsync_dir(target.parent)
        else:  # in place: no reader reads while the commit lock is held, and the record can redo it
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "wb") as handle:
                handle.write(data)
    else:  # append at offset
        target.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(target, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            os.ftruncate(fd, offset)
            os.lseek(fd, 0, os.SEEK_END)
            os.write(fd, data)
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        if durable:
            fsync_dir(target.parent)


def _read_held(folder: Path) -> list[tuple[str, str, bytes, int]]:
    """The held record's changes ``(kind, target, bytes, offset)``, each checked (a target
    inside the folder, sizes that add up): a damaged record is a located error, never guessed."""
    path = _held(folder)
    try:
        handle = open_file(path)  # a regular file only: a pipe is refused, never waited on
    except LwError as exc:
        raise LwError(f"an unfinished held change is damaged ({exc.message}); inspect it, then remove it",
                      file=path) from None
    with handle:
        line = handle.readline(1024 * 1024)
        size = os.fstat(handle.fileno()).st_size
        try:  # bounded: a header nested past JSON's limits is damaged, not a recursion
            header = load_json(line, path)
        except LwError:
            header = None
        changes = header.get("changes") if isinstance(header, dict) else None
        if not isinstance(changes, list) or not all(
            isinstance(c, dict) and c.get("kind") in ("replace", "append", "truncate", "delete")
            and isinstance(c.get("target"), str) and isinstance(c.get("offset"), int) and c["offset"] >= 0
            and isinstance(c.get("size"), int) and c["size"] >= 0 for c in changes
        ) or len(line) + sum(c["size"] for c in changes) != size:
            raise LwError("an unfinished held change is damaged; inspect it, then remove it", file=path)
        out = []
        for change in changes:
            confine(folder, change["target"], file=path, what="held change target")
            out.append((change["kind"], change["target"], handle.read(change["size"]), change["offset"]))
        return out


def _sync_held(folder: Path, entries: list[_JournalEntry]) -> None:
    """Make the held changes durable where the transaction about to commit (``entries``) does
    not: a file it replaces or removes is its; any other held file is synced, and the folder
    entry of every held file the held changes made, renamed or removed. After this,
    the held changes are on disk even if the commit never comes."""
    replaced = {e["target"] for e in entries if e["kind"] in ("replace", "delete")}
    written = {e["target"] for e in entries}
    folders: set[Path] = set()
    for kind, rel, _data, _offset in _read_held(folder):
        if rel in replaced:
            continue
        target = write_target(folder / rel)
        if rel not in written and kind != "delete" and target.is_file():
            fd = os.open(target, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        if kind != "truncate":  # a cut file keeps its folder entry; a renamed, removed or made one not
            folders.add(target.parent)
    for parent in folders:
        fsync_dir(parent)


def finish_held(folder: str | Path) -> bool:
    """Make a held transaction (:meth:`FolderTransaction.hold`) durable now, from its record,
    and remove the record; whether there was one. Hold the writer lock (not the commit lock:
    it is taken here)."""
    folder = Path(folder)
    if not _held(folder).exists():
        return False
    with committing(folder):
        return _finish_held(folder)


def _finish_held(folder: Path) -> bool:
    """:func:`finish_held` with the commit lock held."""
    if not _held(folder).exists():
        return False
    for kind, rel, data, offset in _read_held(folder):
        _apply(folder, kind, rel, data, offset, durable=True)
    _held(folder).unlink()
    fsync_dir(folder / STATE_DIR)
    return True


def _discard(txn: Path) -> None:
    """Remove staged files of a transaction that never committed (no journal)."""
    if (txn / JOURNAL).exists():
        return
    for child in txn.iterdir():
        try:
            child.unlink()
        except OSError:
            pass


def recover(folder: Path, *, writer: bool = False) -> bool:
    """Finish a committed transaction (journal present) or drop an uncommitted one.

    Call with the commit lock held exclusively (:func:`committing`), and -- when there may be
    no journal, so that staged files are thrown away -- with the writer lock too (a reader
    calls it only when it found a journal). Returns whether a transaction was finished.
    A journal that cannot be read is reported as a located :class:`LwError` (nothing is
    guessed). With the writer lock (``writer``), a held transaction (:meth:`FolderTransaction.hold`)
    whose process died is finished too, after the journal (which, when it is the commit that
    ended the held one, removes its record).
    """
    txn = Path(folder) / STATE_DIR / TXN_DIR
    if not txn.is_dir():
        return _finish_held(Path(folder)) if writer else False
    journal = txn / JOURNAL
    if not journal.exists():
        _discard(txn)
        return _finish_held(Path(folder)) if writer else False
    data = read_json(journal)
    changes = data.get("changes") if isinstance(data, dict) else None
    if not isinstance(changes, list) or not all(
        isinstance(c, dict) and c.get("kind") in ("replace", "append", "truncate", "delete") and isinstance(c.get("target"), str)
        and isinstance(c.get("staged"), str) and isinstance(c.get("offset"), int)
        for c in changes
    ):
        raise LwError("unfinished save journal is damaged; inspect it, then remove it", file=journal)
    for change in changes:
        confine(folder, change["target"], file=journal, what="journal target")
        if "/" in change["staged"] or "\\" in change["staged"]:
            raise LwError("unfinished save journal names a staged file outside its folder", file=journal)
    _replay(Path(folder), txn, changes, _no_fault)
    if writer:
        _finish_held(Path(folder))
    return True


def _journal(folder: Path) -> Path:
    return folder / STATE_DIR / TXN_DIR / JOURNAL


@contextmanager
def committing(folder: str | Path, *, timeout: float = 120.0) -> Iterator[None]:
    """``with committing(folder):`` -- the commit lock, exclusive: no reader is reading and
    none starts (readers arriving meanwhile wait at the turnstile) until the block ends."""
    folder = Path(folder)
    commit = FolderLock(folder, timeout=timeout, name=COMMIT_LOCK)
    with FolderLock(folder, timeout=timeout, name=GATE_LOCK):
        commit.__enter__()
    try:
        yield
    finally:
        commit.__exit__(None, None, None)


_reading = threading.local()
"""Folders this thread holds the commit lock of as a reader (a nested read takes no lock:
at the turnstile it could wait for a commit that waits for the outer read)."""


def _finish_orphan_held(folder: Path) -> None:
    """A reader found held changes: while their writer lives (it holds the writer lock) they
    are whole on disk already; when no one holds it, their process died -- finish them."""
    writer = FolderLock(folder, timeout=0)
    try:
        writer.__enter__()
    except LwError:
        return  # a writer is at work (or the folder cannot be locked): read what is there
    try:
        with committing(folder):
            recover(folder, writer=True)  # a journal first: the commit that ended them may be in it
    finally:
        writer.__exit__(None, None, None)


@contextmanager
def _read_lock(folder: Path, timeout: float) -> Iterator[None]:
    held: dict[Path, int] = _reading.__dict__.setdefault("held", {})
    key = folder.resolve()
    if held.get(key):
        held[key] += 1
        try:
            yield
        finally:
            held[key] -= 1
        return
    if _held(folder).exists():  # held changes: a writer applying them, or one that died
        _finish_orphan_held(folder)
    while True:
        commit = FolderLock(folder, shared=True, timeout=timeout, name=COMMIT_LOCK)
        with FolderLock(folder, shared=True, timeout=timeout, name=GATE_LOCK):
            commit.__enter__()
        if not _journal(folder).exists():
            break
        commit.__exit__(None, None, None)  # a save whose process died: finish it, then read
        with committing(folder, timeout=timeout):
            if _journal(folder).exists():  # (staged files of a live writer are never discarded here)
                recover(folder)
    held[key] = 1
    try:
        yield
    finally:
        held.pop(key, None)
        commit.__exit__(None, None, None)


@contextmanager
def locked(folder: str | Path, *, shared: bool = False, timeout: float = 120.0) -> Iterator[None]:
    """``with locked(folder):`` -- the folder's writer lock, for a load-change-save;
    ``shared=True``: the commit lock as a reader, for reading the last committed state whole
    (it never waits for a writer, only for a commit being applied). Either way an interrupted
    save is recovered first."""
    folder = Path(folder)
    if shared:
        with _read_lock(folder, timeout):
            yield
        return
    with FolderLock(folder, timeout=timeout):
        if _journal(folder).exists() or _held(folder).exists():
            with committing(folder, timeout=timeout):
                recover(folder, writer=True)
        else:
            recover(folder)  # staged files of a save that never committed: only writers see them
        yield
