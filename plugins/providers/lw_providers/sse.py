"""Server-sent events, read incrementally and bounded (the WHATWG ``text/event-stream`` rules).

:class:`SseReader` is fed the bytes of a response as they arrive and returns each complete
event as ``(event name or None, data)``. Lines end in CRLF, LF or CR (a CR at the end of a
chunk waits for the next one); ``data:`` lines of one event join with a newline; comment lines
(``:`` …) and ``id:``/``retry:`` fields are read and dropped; one space after the colon is
removed. Text must be UTF-8.

Limits: a line longer than :data:`MAX_SSE_LINE_BYTES` or an event whose data passes
:data:`MAX_SSE_EVENT_BYTES` is refused (``LwError``) as soon as it passes, without waiting
for its end, so a hostile stream costs bounded memory and time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from lwcore.api import LwError

T = TypeVar("T")

MAX_SSE_LINE_BYTES = 1024 * 1024
MAX_SSE_EVENT_BYTES = 4 * 1024 * 1024


class SseReader:
    """Feed bytes, get events (see the module doc)."""

    def __init__(self) -> None:
        self._pending = b""
        self._event: str | None = None
        self._data: list[str] = []
        self._size = 0
        self.events = 0
        self.bytes = 0

    def feed(self, chunk: bytes) -> list[tuple[str | None, str]]:
        """The events completed by ``chunk``."""
        self.bytes += len(chunk)
        if not self._pending and not self._data and self._event is None and chunk[-2:] == b"\n\n":
            whole = self._whole(chunk)
            if whole is not None:
                return whole
        buffer = self._pending + chunk if self._pending else chunk
        if b"\r" in buffer:
            return self._feed_cr(buffer)
        lines = buffer.split(b"\n")
        self._pending = lines.pop()
        if len(self._pending) > MAX_SSE_LINE_BYTES:
            raise LwError(f"a stream line is longer than {MAX_SSE_LINE_BYTES} bytes", code="limit")
        out: list[tuple[str | None, str]] = []
        for raw in lines:
            if len(raw) > MAX_SSE_LINE_BYTES:
                raise LwError(f"a stream line is longer than {MAX_SSE_LINE_BYTES} bytes", code="limit")
            event = self._line(raw)
            if event is not None:
                out.append(event)
        return out

    def take(self, chunk: bytes, read: Callable[[bytes], T | None]) -> T | None:
        """What ``read`` makes of ``chunk`` as one whole event, if the reader is between events
        and ``chunk`` is no longer than a line: the event is then counted as read. None, and
        nothing read, when it is not or ``read`` gives None (:meth:`feed` it then)."""
        if self._pending or self._data or self._event is not None or len(chunk) > MAX_SSE_LINE_BYTES:
            return None
        got = read(chunk)
        if got is not None:
            self.events += 1
            self.bytes += len(chunk)
        return got

    def _whole(self, chunk: bytes) -> list[tuple[str | None, str]] | None:
        """The one event of a chunk that is exactly one event of one ``data:`` line (after an
        optional ``event:`` line) -- what a server writes a token at a time -- read in one pass;
        None for any other chunk (the line-by-line reader takes it)."""
        if len(chunk) > MAX_SSE_LINE_BYTES or b"\r" in chunk:
            return None
        body = chunk[:-2]
        event: str | None = None
        if body[:7] == b"event: ":
            name, _, body = body.partition(b"\n")
            try:
                event = name[7:].decode("utf-8")
            except UnicodeDecodeError:
                return None
        if body[:6] != b"data: " or b"\n" in body:
            return None
        try:
            data = body[6:].decode("utf-8")
        except UnicodeDecodeError:
            return None
        self.events += 1
        return [(event, data)] if data or event else []

    def _feed_cr(self, buffer: bytes) -> list[tuple[str | None, str]]:
        """:meth:`feed` for text with CR or CRLF line ends."""
        out: list[tuple[str | None, str]] = []
        start = 0
        n = len(buffer)
        while start < n:
            lf = buffer.find(b"\n", start)
            cr = buffer.find(b"\r", start, lf if lf >= 0 else n)
            if cr >= 0:
                end = cr
                if cr + 1 >= n:  # a CR at the end: the next chunk may bring its LF
                    break
                nxt = cr + 2 if buffer[cr + 1:cr + 2] == b"\n" else cr + 1
            elif lf >= 0:
                end, nxt = lf, lf + 1
            else:
                break
            if end - start > MAX_SSE_LINE_BYTES:
                raise LwError(f"a stream line is longer than {MAX_SSE_LINE_BYTES} bytes", code="limit")
            event = self._line(buffer[start:end])
            if event is not None:
                out.append(event)
            start = nxt
        self._pending = buffer[start:]
        if len(self._pending) > MAX_SSE_LINE_BYTES:
            raise LwError(f"a stream line is longer than {MAX_SSE_LINE_BYTES} bytes", code="limit")
        return out

    def _line(self, raw: bytes) -> tuple[str | None, str] | None:
        if not raw:
            if not self._data and self._event is None:
                return None
            event, data = self._event, "\n".join(self._data)
            self._event, self._data, self._size = None, [], 0
            self.events += 1
            return (event, data) if data or event else None
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise LwError("the stream is not UTF-8 text", code="encoding") from None
        if line[0] == ":":
            return None
        name, colon, value = line.partition(":")
        if colon and value[:1] == " ":
            value = value[1:]
        if name == "data":
            self._size += len(value) + 1
            if self._size > MAX_SSE_EVENT_BYTES:
                raise LwError(f"a stream event is larger than {MAX_SSE_EVENT_BYTES} bytes", code="limit")
            self._data.append(value)
        elif name == "event":
            self._event = value
        return None

    def close(self) -> list[tuple[str | None, str]]:
        """The events the end of the stream completes (a last line ending in a lone CR)."""
        if self._pending.endswith(b"\r"):
            return self.feed(b"\n")
        return []

    @property
    def partial(self) -> bool:
        """Whether the bytes so far end inside an event (a stream cut mid-event)."""
        return bool(self._pending.strip() or self._data or self._event is not None)
