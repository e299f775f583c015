"""Reading a book's files: the one place storyrepo turns bytes from disk into text.

Every reader of a source file, a workspace file or a file named on the command line comes
through here, on top of the kernel's safe readers (:mod:`lwcore.io`): a file that is missing,
too large or not UTF-8 is refused the same way everywhere — a :class:`~lwcore.errors.LwError`
naming the file by its path inside the book, with the line, the column and the byte offset of
the first bad byte — never a traceback from a decoder deep inside a query.
"""

from __future__ import annotations

import sys
from pathlib import Path

from lwcore.api import DEFAULT_MAX_BYTES, LwError, decode_text, read_bytes as _read_bytes, read_stream

MAX_BYTES = DEFAULT_MAX_BYTES
"""The largest file a book reads whole (a chapter is ~10 KB; a whole novel in one file ~5 MB)."""


def decode(data: bytes, file: str) -> str:
    """``data`` as UTF-8 text (a leading byte-order mark dropped), or a located LwError."""
    return decode_text(data, file)


def read_bytes(path: Path | str, file: str | None = None) -> bytes:
    """The whole file, or a located LwError (missing, a folder, not a regular file, unreadable,
    over the limit): :func:`lwcore.io.read_bytes`, naming the file by its path in the book."""
    try:
        return _read_bytes(path, max_bytes=MAX_BYTES)
    except LwError as exc:
        if file is not None:
            exc.file = file
        raise


def read_text(path: Path | str, file: str | None = None) -> str:
    """The whole file as text (see :func:`decode`); ``file`` is the name shown in errors."""
    return decode(read_bytes(path, file), file or str(path))


def read_input(name: str) -> str:
    """A file named on the command line, ``-`` being standard input."""
    if name == "-":
        return read_stream(sys.stdin, name="<stdin>", max_bytes=MAX_BYTES)
    return read_text(Path(name), name)
