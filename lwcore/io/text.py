"""Reading bytes and text from files people hand us, with limits and located errors.

Every reader of outside input (a file named on the command line, a room file, a card) goes
through :func:`read_bytes` / :func:`read_text` / :func:`decode_text` (or, to stream one,
:func:`open_file`): a missing file, a folder
where a file was expected, a file over its size limit, or bytes that are not UTF-8 become a
:class:`lwcore.errors.LwError` naming the file (and for encoding errors the line, the
column and the byte offset), never a traceback.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

from lwcore.errors import LwError

MIB = 1024 * 1024
DEFAULT_MAX_BYTES = 16 * MIB
"""Default cap for one file read whole (a rulepack, a room file, a card, a reply)."""

BOM = "\ufeff"


def describe_size(n: int) -> str:
    """``n`` bytes in words (``"16 MiB"``, ``"512 KiB"``, ``"300 bytes"``)."""
    if n >= MIB and n % MIB == 0:
        return f"{n // MIB} MiB"
    if n >= 1024 and n % 1024 == 0:
        return f"{n // 1024} KiB"
    return f"{n} bytes"


def open_file(path: str | Path, *, pipes: bool = False) -> BinaryIO:
    """``path`` opened for reading in binary: a regular file -- or, with ``pipes``, also a
    named pipe (opening it then waits for a writer; it is read to its end). A missing file, a
    folder, anything else that is not a regular file (a pipe without ``pipes``, a device, a
    socket: they would block or never end) or an unreadable file is a located
    :class:`LwError`. The caller closes the handle."""
    flags = os.O_RDONLY | getattr(os, "O_BINARY", 0)
    if not pipes:  # opening a named pipe must not wait for a writer; it changes nothing for a file
        flags |= getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(os.fspath(path), flags)
    except FileNotFoundError:
        raise LwError("file not found", file=path, code="not_found") from None
    except IsADirectoryError:
        raise LwError("is a folder, expected a file", file=path, code="not_a_file") from None
    except PermissionError:
        raise LwError("permission denied", file=path, code="permission") from None
    except OSError as exc:
        raise LwError(f"cannot read: {exc.strerror or exc}", file=path, code="io") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise LwError("is a folder, expected a file", file=path, code="not_a_file")
        if not (stat.S_ISREG(mode) or (pipes and stat.S_ISFIFO(mode))):
            what = "a regular file or a pipe" if pipes else "a regular file"
            raise LwError(f"is not {what} (a {'device or socket' if pipes else 'pipe, socket or device'})",
                          file=path, code="not_a_file", expected=what)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path: str | Path, *, max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """The whole file (:func:`open_file`: a regular file, or a located refusal), refusing one
    larger than ``max_bytes`` (checked while reading, so a growing file cannot make it read
    without end)."""
    with open_file(path) as handle:
        try:
            size = os.fstat(handle.fileno()).st_size
            # the size it has (a cache rebuild reads thousands of files: no max_bytes buffer
            # each time), then whatever it grew by, up to one byte past the limit
            data = handle.read(min(size, max_bytes) + 1)
            if len(data) > size and len(data) <= max_bytes:
                data += handle.read(max_bytes + 1 - len(data))
        except OSError as exc:
            raise LwError(f"cannot read: {exc.strerror or exc}", file=path, code="io") from None
    if len(data) > max_bytes:
        raise LwError(
            f"file is larger than the {describe_size(max_bytes)} limit", file=path, code="limit"
        )
    return data


def decode_text(data: bytes, file: str | Path | None = None) -> str:
    """``data`` decoded as UTF-8 (a leading byte-order mark dropped).

    Invalid bytes raise :class:`LwError` with the line, the column (in characters) and the
    byte offset of the first bad byte.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise encoding_error(data, exc.start, file) from None
    return text[1:] if text.startswith(BOM) else text


def encoding_error(data: bytes, offset: int, file: str | Path | None) -> LwError:
    """A located error for the invalid UTF-8 byte at ``offset`` of ``data``."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    line = data.count(b"\n", 0, offset) + 1
    column = len(data[line_start:offset].decode("utf-8", errors="replace")) + 1
    return LwError(
        f"invalid UTF-8 at byte {offset} (0x{data[offset]:02x})",
        file=file,
        line=line,
        column=column,
        byte=offset,
        expected="a UTF-8 text file",
        code="encoding",
    )


def read_text(path: str | Path, *, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """:func:`read_bytes` then :func:`decode_text`."""
    return decode_text(read_bytes(path, max_bytes=max_bytes), path)


def read_stream(stream: object, *, name: str = "<stdin>", max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """Read a binary or text stream (stdin) whole, with the same limit and decoding."""
    buffer = getattr(stream, "buffer", stream)
    data = buffer.read(max_bytes + 1)  # type: ignore[attr-defined]  # any object with read(); stdin's bytes buffer when it has one
    if isinstance(data, str):
        data = data.encode("utf-8", errors="surrogateescape")
    if len(data) > max_bytes:
        raise LwError(f"input is larger than the {describe_size(max_bytes)} limit", file=name, code="limit")
    return decode_text(data, name)


def source_text(source: str | bytes, name: str | None, *, max_bytes: int, what: str) -> str:
    """A document's text from bytes (decoded, located encoding errors) or from text (a BOM
    dropped), refused when larger than ``max_bytes`` of UTF-8; ``what`` names the format."""
    if isinstance(source, bytes):
        if len(source) > max_bytes:
            raise LwError(f"{what} is larger than the {describe_size(max_bytes)} limit", file=name, code="limit")
        return decode_text(source, name)
    text = source[1:] if source.startswith(BOM) else source
    if len(text) > max_bytes or (len(text) * 4 > max_bytes and len(text.encode("utf-8", "surrogatepass")) > max_bytes):
        raise LwError(f"{what} is larger than the {describe_size(max_bytes)} limit", file=name, code="limit")
    return text
