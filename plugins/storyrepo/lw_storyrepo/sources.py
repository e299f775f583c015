"""Reading a book's files: the one place storyrepo turns bytes from disk into text.

Every reader of a source file, a workspace file or a file named on the command line comes
through here, on top of the kernel's safe readers (:mod:`lwcore.io`: the decoding, stdin): a file that is missing,
too large or not UTF-8 is refused the same way everywhere — a :class:`~lwcore.errors.LwError`
naming the file by its path inside the book, with the line, the column and the byte offset of
the first bad byte — never a traceback from a decoder deep inside a query.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

from lwcore.errors import LwError
from lwcore.io import decode_text, read_stream
from lwcore.io.text import DEFAULT_MAX_BYTES, describe_size

MAX_BYTES = DEFAULT_MAX_BYTES
"""The largest file a book reads whole (a chapter is ~10 KB; a whole novel in one file ~5 MB)."""


def decode(data: bytes, file: str) -> str:
    """``data`` as UTF-8 text (a leading byte-order mark dropped), or a located LwError."""
    return decode_text(data, file)


def read_bytes(path: Path | str, file: str | None = None) -> bytes:
    """The whole file, or a located LwError (missing, a folder, unreadable, over the limit).

    The same refusals, in the same words, as :func:`lwcore.io.read_bytes`; a regular file is
    read at its size (a cache rebuild reads thousands of chapters: no 16 MiB buffer and no
    ``Path`` per file), anything else up to the limit.
    """
    name = file or str(path)
    try:
        with open(path, "rb") as handle:
            st = os.fstat(handle.fileno())
            regular = stat.S_ISREG(st.st_mode)
            if regular and st.st_size > MAX_BYTES:
                raise LwError(f"file is larger than the {describe_size(MAX_BYTES)} limit", file=name, code="limit")
            data = handle.read(st.st_size + 1 if regular else MAX_BYTES + 1)
    except FileNotFoundError:
        raise LwError("file not found", file=name, code="not_found") from None
    except IsADirectoryError:
        raise LwError("is a folder, expected a file", file=name, code="not_a_file") from None
    except PermissionError:
        raise LwError("permission denied", file=name, code="permission") from None
    except OSError as exc:
        raise LwError(f"cannot read: {exc.strerror or exc}", file=name, code="io") from None
    if len(data) > MAX_BYTES:
        raise LwError(f"file is larger than the {describe_size(MAX_BYTES)} limit", file=name, code="limit")
    return data


def read_text(path: Path | str, file: str | None = None) -> str:
    """The whole file as text (see :func:`decode`); ``file`` is the name shown in errors."""
    return decode(read_bytes(path, file), file or str(path))


def read_input(name: str) -> str:
    """A file named on the command line, ``-`` being standard input."""
    if name == "-":
        return read_stream(sys.stdin, name="<stdin>", max_bytes=MAX_BYTES)
    return read_text(Path(name), name)
