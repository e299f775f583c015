"""Copying a folder someone handed us (a room to copy), taking only what is inside it.

:func:`copy_tree` copies regular files and folders that are *inside* the source, and nothing
else, within limits:

- a symbolic link is never followed (not to a file outside the source, not to ``/dev/zero``):
  it is refused, as are a named pipe, a device and a socket (they would block or never end);
- each file is opened without following a link, without waiting (``O_NONBLOCK``), checked to be
  a regular file on the open handle, and read in pieces counted against :data:`FILE_BYTES` and,
  over the whole copy, :data:`TOTAL_BYTES` (a file that grows while read cannot pass them);
- folders are walked through their open handles (a folder swapped for a link while the copy
  runs is refused, not followed), at most :data:`MAX_DEPTH` deep and :data:`MAX_ENTRIES` entries.
- a copied file keeps its permission bits except write for group and others (a world-writable
  template never makes a room other local users can rewrite); the owner may always read and write it.

A refusal is a :class:`~lwcore.errors.LwError` located by the entry's path *relative to the
source* (never a server path), with code ``not_a_file`` or ``limit``. The target is the caller's
staging folder: on a refusal it holds part of the copy, and the caller removes it (so the copy
appears whole or not at all).
"""

from __future__ import annotations

import fnmatch
import os
import stat
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from lwcore.errors import LwError
from lwcore.io.text import MIB, describe_size

FILE_BYTES = 64 * MIB
"""The largest file copied."""
TOTAL_BYTES = 512 * MIB
"""The most one copy takes, all files together."""
MAX_ENTRIES = 20_000
"""Files and folders one copy takes."""
MAX_DEPTH = 32
"""How deep folders nest."""
CHUNK = 1024 * 1024

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_BINARY = getattr(os, "O_BINARY", 0)


class _Budget:
    def __init__(self) -> None:
        self.bytes = 0
        self.entries = 0


def copy_tree(source: Path, target: Path, *, ignore: Sequence[str] = ()) -> None:
    """Copy the folder ``source`` into the existing folder ``target`` (module doc); entries whose
    name matches a pattern of ``ignore`` (``fnmatch``, at any depth) are left out. ``source``
    itself is opened as named (a link to a folder is that folder); nothing in it is followed."""
    try:
        fd = os.open(os.fspath(source), os.O_RDONLY | _DIRECTORY)  # the folder named may be a link: the operator's word
    except OSError as exc:
        raise LwError(f"cannot read the folder: {exc.strerror or exc}", file=source, code="io") from None
    try:
        if not stat.S_ISDIR(os.fstat(fd).st_mode):
            raise LwError("is not a folder", file=source, code="not_a_file")
        _copy_dir(fd, Path(target), PurePosixPath(), tuple(ignore), _Budget(), 0)
    finally:
        os.close(fd)


def _refuse(rel: PurePosixPath, what: str, code: str = "not_a_file", expected: str | None = None) -> LwError:
    if code == "not_a_file":
        what += ": only the folder's own files and folders are copied"
    return LwError(what, file=str(rel), code=code, expected=expected or "a regular file or a folder inside the folder copied")


def _copy_dir(dir_fd: int, target: Path, rel: PurePosixPath, ignore: tuple[str, ...], budget: _Budget,
              depth: int) -> None:
    if depth > MAX_DEPTH:
        raise _refuse(rel, f"folders nested deeper than {MAX_DEPTH}", "limit", "a shallower folder")
    with os.scandir(dir_fd) as it:
        names = sorted(entry.name for entry in it)
    for name in names:
        if any(fnmatch.fnmatch(name, pattern) for pattern in ignore):
            continue
        here = rel / name
        budget.entries += 1
        if budget.entries > MAX_ENTRIES:
            raise _refuse(here, f"more than {MAX_ENTRIES:,} files and folders", "limit", "a smaller folder")
        mode = os.lstat(name, dir_fd=dir_fd).st_mode
        if stat.S_ISLNK(mode):
            raise _refuse(here, "a symbolic link (never followed)", expected="the file itself in place of the link")
        if stat.S_ISDIR(mode):
            try:
                child = os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW, dir_fd=dir_fd)
            except OSError as exc:
                raise _refuse(here, f"cannot read the folder ({exc.strerror or exc})", "io") from None
            try:
                if not stat.S_ISDIR(os.fstat(child).st_mode):
                    raise _refuse(here, "changed while copied")
                (target / name).mkdir()
                _copy_dir(child, target / name, here, ignore, budget, depth + 1)
            finally:
                os.close(child)
        elif stat.S_ISREG(mode):
            _copy_file(dir_fd, name, target / name, here, budget)
        else:
            kind = "a named pipe" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
            raise _refuse(here, f"{kind}, not a file")


def _copy_file(dir_fd: int, name: str, target: Path, rel: PurePosixPath, budget: _Budget) -> None:
    try:
        fd = os.open(name, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _BINARY, dir_fd=dir_fd)
    except OSError as exc:
        raise _refuse(rel, f"cannot read ({exc.strerror or exc})", "io") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _refuse(rel, "changed while copied: not a regular file")
        copied = 0
        with open(target, "xb") as out:
            while True:
                chunk = os.read(fd, CHUNK)
                if not chunk:
                    break
                copied += len(chunk)
                budget.bytes += len(chunk)
                if copied > FILE_BYTES:
                    raise _refuse(rel, f"larger than the {describe_size(FILE_BYTES)} limit of one file", "limit",
                                  "a smaller file")
                if budget.bytes > TOTAL_BYTES:
                    raise _refuse(rel, f"the copy passes the {describe_size(TOTAL_BYTES)} limit of a whole room",
                                  "limit", "a smaller room folder")
                out.write(chunk)
        os.chmod(target, stat.S_IMODE(info.st_mode) & 0o755 | 0o600)  # never writable by others: the room is the operator's
    finally:
        os.close(fd)
