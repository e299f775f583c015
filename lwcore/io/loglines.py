"""An append-only line log read from either end, by byte offset.

Logs (a room's ``history.jsonl``, its ``docs/<type>.jsonl``) only grow, so a reader that
wants the newest lines, or the lines written after a remembered point, need not read the
rest: :func:`lines_before` walks back from a byte offset in blocks, :func:`lines_from` reads
forward from one. Both yield :class:`Line` (where the line starts and ends, its bytes without
the newline), blank lines included -- callers skip them. A line longer than ``max_line`` is a
:class:`~lwcore.errors.LwError` located by byte (where it starts, read forwards; where it
ends, read backwards), so a corrupt log never costs unbounded memory. A missing file has no lines;
a log that is not a regular file (a named pipe, a device) is a located refusal, never a read
that waits for a writer (:func:`lwcore.io.text.open_file`).
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import BinaryIO, NamedTuple

from lwcore.errors import LwError
from lwcore.io.limits import LOG_LINE_LIMITS
from lwcore.io.text import open_file

BLOCK = 64 * 1024
MAX_LINE = LOG_LINE_LIMITS.max_bytes
"""The longest line (its newline not counted) a log reader takes: the logs' own limit."""


class Line(NamedTuple):
    """One line of a log: ``start`` is the offset of its first byte, ``end`` the offset just
    after its newline (after its last byte when the file ends without one)."""

    start: int
    end: int
    raw: bytes


def _too_long(path: Path, byte: int, where: str, max_line: int) -> LwError:
    return LwError(f"the line {where} byte {byte} is longer than {max_line:,} bytes", file=path, byte=byte,
                   code="limit")


def _open(path: Path) -> BinaryIO | None:
    """``path`` opened for reading (a regular file only), ``None`` when it does not exist."""
    try:
        return open_file(path)
    except LwError as exc:
        if exc.code == "not_found":
            return None
        raise


def lines_before(path: Path, end: int, *, block: int = BLOCK, max_line: int = MAX_LINE) -> Generator[Line, None, None]:
    """The lines of ``path`` in its first ``end`` bytes, newest first (``end`` should be a
    line boundary: the file's size, or a :attr:`Line.end`). Each byte is looked at once: a
    long line costs its length, not its length times the blocks it spans."""
    if end <= 0:
        return
    handle = _open(path)
    if handle is None:
        return
    with handle:
        position = end
        parts: list[bytes] = []  # the start of the line being assembled (it began before `position`), newest part first
        size = 0
        first = True
        while position > 0:
            step = min(block, position)
            position -= step
            handle.seek(position)
            data = handle.read(step)
            if first:  # the newline closing the region's newest line separates nothing
                first = False
                data = data[:-1] if data.endswith(b"\n") else data
            if b"\n" not in data:
                parts.append(data)
                size += len(data)
            else:
                pieces = data.split(b"\n")
                newest = pieces[-1] + b"".join(reversed(parts))
                start = position + len(pieces[0]) + 1
                complete = []
                for raw in (*pieces[1:-1], newest):
                    complete.append(Line(start, start + len(raw) + 1, raw))
                    start += len(raw) + 1
                if complete[-1].end > end:  # the newest line may lack its newline
                    complete[-1] = complete[-1]._replace(end=end)
                yield from reversed(complete)
                parts, size = [pieces[0]], len(pieces[0])
            if size > max_line:  # read backwards, its start is not known: locate its end
                raise _too_long(path, position + size, "ending at", max_line)
        carry = b"".join(reversed(parts))
        yield Line(0, min(len(carry) + 1, end), carry)


def lines_from(path: Path, start: int, *, max_line: int = MAX_LINE) -> Generator[Line, None, None]:
    """The lines of ``path`` from byte ``start`` (a line boundary) to its end, oldest first."""
    handle = _open(path)
    if handle is None:
        return
    with handle:
        handle.seek(start)
        offset = start
        while True:
            raw = handle.readline(max_line + 1)
            if not raw:
                return
            if len(raw) > max_line and not raw.endswith(b"\n"):
                raise _too_long(path, offset, "at", max_line)
            yield Line(offset, offset + len(raw), raw[:-1] if raw.endswith(b"\n") else raw)
            offset += len(raw)


def ends_line(path: Path, offset: int) -> bool:
    """Whether byte ``offset`` of ``path`` is just after a newline (a line boundary other
    than the start of the file)."""
    if offset <= 0:
        return False
    handle = _open(path)
    if handle is None:
        return False
    with handle:
        handle.seek(offset - 1)
        return handle.read(1) == b"\n"


def unterminated(path: Path) -> bool:
    """Whether ``path``'s last line lacks its newline (hand-edited): an append must then start
    with one, or its first line would join that line."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return False
    return size > 0 and not ends_line(path, size)
