"""Atomic file writes shared by the kernel and plugins.

A reader sees the old file or the new one, never half of one. A write keeps the file's
permission bits (a new file gets the ordinary ``0o666 & ~umask``) and goes *through* a
symbolic link to the file it points at, so an operator's symlinked config stays a symlink.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from lwcore.errors import LwError


def write_target(path: Path) -> Path:
    """The file a write to ``path`` must replace: ``path`` itself, or the final target of a
    symbolic link (relative links resolved against the link's folder)."""
    path = Path(path)
    if path.is_symlink():
        return Path(os.path.realpath(path))
    return path


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so a reader sees the old file or the new one, never half.

    Writes a temporary file in the target's folder, fsyncs it, gives it the target's mode
    (or the umask default for a new file), then renames it over the target. A symbolic link
    is written through (its target is replaced, the link stays). Creates missing parent
    folders. On any error the temporary file is removed and the target is untouched.
    """
    target = write_target(Path(path))
    try:
        mode = target.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o666 & ~_current_umask()
    with staged_file(target.parent, prefix=f".{target.name}.") as staged:
        staged.handle.write(data)
        staged.handle.flush()
        os.fchmod(staged.handle.fileno(), mode)
        os.fsync(staged.handle.fileno())
        staged.into = target


@dataclass
class Staged:
    """A temporary file being written: ``handle`` (binary, open), ``path``; set ``into`` to the
    path it should be renamed to once written."""

    handle: IO[bytes]
    path: Path
    into: Path | None = None


@contextmanager
def staged_file(folder: Path, *, prefix: str, suffix: str = ".tmp") -> Iterator[Staged]:
    """A new temporary file in ``folder`` (created if missing) for the block to write. When the
    block ends, the file is closed and renamed to ``staged.into`` if the block set it (else
    removed); when the block raises, it is removed and the error goes on. What a reader of
    ``into`` sees is the old file or the whole new one."""
    import tempfile  # imported here: it costs milliseconds at every CLI start otherwise

    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=folder)
    staged = Staged(os.fdopen(fd, "w+b"), Path(tmp))
    try:
        with staged.handle:
            yield staged
        if staged.into is not None:
            os.replace(tmp, staged.into)
            return
    except BaseException:
        _unlink(tmp)
        raise
    _unlink(tmp)


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def atomic_write_text(path: Path, text: str) -> None:
    """:func:`atomic_write_bytes` of ``text`` encoded as UTF-8 (no BOM, newlines as given).

    Text that cannot be encoded (a lone surrogate) raises :class:`lwcore.errors.LwError`
    before anything is touched.
    """
    atomic_write_bytes(path, encode_utf8(text, file=path))


def encode_utf8(text: str, *, file: str | Path | None = None) -> bytes:
    """``text`` as UTF-8; a lone surrogate is a located :class:`LwError`, never a crash."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        line = text.count("\n", 0, exc.start) + 1
        column = exc.start - (text.rfind("\n", 0, exc.start) + 1) + 1
        raise LwError(
            f"text holds a character that cannot be written as UTF-8 ({text[exc.start]!r})",
            file=file,
            line=line,
            column=column,
        ) from None


def fsync_dir(folder: Path) -> None:
    """Flush a folder's entries (renames, new files) to disk where the OS allows it."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
