"""Replace several files and folders under one root all at once, or not at all.

An install puts a pack's home folder, files in discovery folders (``rulepacks/``, ``skills/``)
and the install ledger in place together; a remove takes them away together. :class:`Swap`
does that with renames only:

1. the caller stages every new file or folder under ``<work>/new/`` (same file system);
2. :meth:`Swap.commit` writes a journal naming each change (an atomic write);
3. each change moves the current target aside into ``<work>/old/<n>`` and renames the staged
   one into its place;
4. removing the journal is the commit point; then ``old/`` and ``new/`` are deleted.

A failure before the commit point rolls every change back at once; a process killed before it
leaves the journal, and :func:`recover` (run under the lock before the next operation) rolls
back the same way. So the tree always holds the previous state or the new one, never a mix,
once recovery has run. ``fault`` is called with each step's name (tests make it raise or kill
the process): ``journal``, ``moved:<target>``, ``placed:<target>``, ``committed``, ``done``.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from lwcore.errors import LwError
from lwcore.io.atomic import atomic_write_bytes, fsync_dir
from lwcore.io.safe_json import read_json
from lwcore.pack.names import name_problem

JOURNAL = "journal.json"
FaultHook = Callable[[str], None]


def _no_fault(step: str) -> None:
    return None


def _exists(path: Path) -> bool:
    return os.path.lexists(path)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif _exists(path):
        path.unlink()


@dataclass
class Swap:
    """Changes to paths under ``root`` (relative POSIX paths), made with ``work`` as scratch.

    ``work`` must be on the same file system as ``root`` and free of another swap (hold a lock
    and call :func:`recover` first).
    """

    root: Path
    work: Path
    fault: FaultHook = _no_fault
    ops: list[dict[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if (self.work / JOURNAL).exists():
            raise LwError("an interrupted pack operation has not been recovered", file=self.work / JOURNAL)
        _discard(self.work)
        (self.work / "new").mkdir(parents=True, exist_ok=True)

    @property
    def staging(self) -> Path:
        """Where the caller writes what :meth:`put` will move into place."""
        return self.work / "new"

    def put(self, staged: str, target: str) -> None:
        """Replace ``root/target`` (file or folder, existing or not) with ``staging/staged``."""
        self.ops.append({"op": "put", "target": target, "new": staged})

    def delete(self, target: str) -> None:
        """Remove ``root/target`` (nothing happens when it does not exist)."""
        self.ops.append({"op": "delete", "target": target})

    def commit(self) -> None:
        """Apply every change, or roll them all back and re-raise."""
        for index, op in enumerate(self.ops):
            op["old"] = str(index)
        (self.work / "old").mkdir(exist_ok=True)
        fsync_dir(self.work / "new")
        atomic_write_bytes(self.work / JOURNAL, json.dumps({"format": 1, "ops": self.ops}).encode("utf-8"))
        fsync_dir(self.work)
        try:
            self.fault("journal")
            for op in self.ops:
                target = self.root / op["target"]
                if _exists(target):
                    os.rename(target, self.work / "old" / op["old"])
                    self.fault(f"moved:{op['target']}")
                if op["op"] == "put":
                    target.parent.mkdir(parents=True, exist_ok=True)
                    os.rename(self.work / "new" / op["new"], target)
                    fsync_dir(target.parent)
                    self.fault(f"placed:{op['target']}")
        except BaseException:
            _roll_back(self.root, self.work, self.ops)
            raise
        (self.work / JOURNAL).unlink()
        fsync_dir(self.work)
        self.fault("committed")
        _discard(self.work)
        self.fault("done")


def _roll_back(root: Path, work: Path, ops: list[dict[str, str]]) -> None:
    """Undo the applied part of ``ops`` (last first); safe to run again after a crash in it."""
    for op in reversed(ops):
        target = root / op["target"]
        old = work / "old" / op["old"]
        if op["op"] == "put" and not _exists(work / "new" / op["new"]) and _exists(target):
            os.rename(target, work / "new" / op["new"])  # placed: take the new one back out
        if _exists(old):
            if _exists(target):
                _remove(target)
            target.parent.mkdir(parents=True, exist_ok=True)
            os.rename(old, target)
    journal = work / JOURNAL
    if journal.exists():
        journal.unlink()
    fsync_dir(work)
    _discard(work)


def _discard(work: Path) -> None:
    """Remove scratch left without a journal (staging never committed, or old content after
    the commit point)."""
    for name in ("new", "old"):
        if _exists(work / name):
            shutil.rmtree(work / name)


def recover(root: Path, work: Path) -> bool:
    """Roll back a swap whose process died before its commit point; drop leftover scratch.
    Hold the lock. Returns whether a swap was rolled back. A damaged journal is a located
    :class:`LwError` (nothing is guessed)."""
    journal = work / JOURNAL
    if not journal.exists():
        if work.is_dir():
            _discard(work)
        return False
    data = read_json(journal)
    ops = data.get("ops") if isinstance(data, dict) else None
    if not isinstance(ops, list) or not all(
        isinstance(op, dict) and op.get("op") in ("put", "delete") and isinstance(op.get("target"), str)
        and name_problem(op["target"]) is None and isinstance(op.get("old"), str) and op["old"].isdigit()
        and (op["op"] == "delete" or (isinstance(op.get("new"), str) and name_problem(op["new"]) is None))
        for op in ops
    ):
        raise LwError("an interrupted pack operation left a damaged journal; inspect it, then remove it", file=journal)
    _roll_back(root, work, ops)
    return True
