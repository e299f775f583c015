"""Paths a file names, confined to the folder they belong to (a room, a book, a pack)."""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath, PureWindowsPath

from lwcore.errors import LwError


def confine(
    root: str | Path,
    relative: str,
    *,
    file: str | Path | None = None,
    line: int | None = None,
    what: str = "path",
) -> Path:
    """``root / relative``, refused (:class:`LwError`) unless it stays inside ``root``.

    Refused: an empty path, an absolute path (POSIX or Windows, drive letters and UNC names
    too), a NUL or other control character, and any path that leaves ``root`` once ``..``
    and symbolic links are resolved. ``file``/``line`` locate the declaration in the error.
    """
    if not isinstance(relative, str) or not relative.strip():
        raise LwError(f"{what} is empty", file=file, line=line, expected="a path inside the folder")
    if any(ord(c) < 32 or c == "\x7f" for c in relative):
        raise LwError(f"{what} {relative!r} holds a control character", file=file, line=line)
    if PurePosixPath(relative).is_absolute() or PureWindowsPath(relative).is_absolute() or PureWindowsPath(relative).drive:
        raise LwError(
            f"{what} {relative!r} is absolute", file=file, line=line, expected="a path relative to its folder"
        )
    base = Path(os.path.realpath(root))
    target = Path(os.path.realpath(base / relative.replace("\\", "/")))
    if target != base and base not in target.parents:
        raise LwError(
            f"{what} {relative!r} leads outside its folder", file=file, line=line,
            expected=f"a path inside {base}",
        )
    return target
