"""Batch modes (``--batch FILE|-``): JSON lines in, exactly one JSON line out per request.

:func:`run_batch` is the one mechanism every batch command uses (``lw check --batch``,
``lw prompt compile --batch`` …):

- every input line gets exactly one answer, in order; a line that is blank, not valid UTF-8,
  not JSON, too deep, too large (``LINE_LIMITS``, or the command's own limits) or refused by
  the handler gets an error object naming its line (``{"error": {"message", "line", "column",
  "byte", "file", "expected", "code"}}``, see :func:`error_answer`), and the lines after it
  are still answered;
- the input is read in chunks and a line is never held past the line size limit (a
  gigabyte without a newline is one refused line, not a gigabyte in memory);
- answers are written in blocks, and flushed whenever the input has to be waited for, so a
  host that writes one request and reads one answer works, and a file streams at full speed;
- the exit status is 0 when every line was answered without error, 1 otherwise (2 when
  answering a line hit a bug: that line says ``internal error``, the others are answered).

A command takes the option with :func:`batch_option` and ends with :func:`exit_batch`, so
every batch mode reads, answers and exits the same way.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

import click

from lwcore.errors import LwError
from lwcore.io.limits import LINE_LIMITS, Limits
from lwcore.io.safe_json import iter_json_lines
from lwcore.io.terminal import json_safe
from lwcore.io.text import open_file

CHUNK = 64 * 1024


def _refuse(value: Any) -> Any:
    raise TypeError(f"{type(value).__name__} is not JSON")


def _encoder() -> Callable[[Any], str]:
    """One JSON encoder for every answer, made once: ``json.dumps`` builds an encoder per
    call, and ``JSONEncoder.encode`` its C iterator per call. Non-finite numbers are refused."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # an interpreter without the C accelerator
        return json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode
    chunks = make(None, _refuse, json.encoder.encode_basestring, None, ": ", ", ", False, False, False)
    return lambda value: "".join(chunks(value, 0))


ENCODE = _encoder()

Answer = Callable[[int, Any], tuple[Any, bool]]
"""``answer(line number, parsed value) -> (JSON-ready answer, whether it is a failure)``;
raising :class:`LwError` is a failure too (answered by :func:`error_answer`)."""


def error_answer(error: LwError, number: int, file: str | None) -> dict[str, Any]:
    """The answer for a refused line: ``{"error": {message, file, line, column, byte, expected,
    code}}`` -- the error's own fields (its code, or ``invalid``), the line always its line
    number in the input."""
    payload = error.to_json()
    payload["line"] = number
    payload["file"] = payload.get("file") or file
    payload["code"] = payload.get("code") or "invalid"
    return {"error": payload}


def run_batch(
    source: str,
    answer: Answer,
    *,
    encode: Callable[[Any], str] = ENCODE,
    out: BinaryIO | None = None,
    limits: Limits | None = None,
) -> int:
    """Answer every JSON line of ``source`` (a path, or ``-`` for stdin); returns the exit
    status (1 when any line failed, 2 when a line hit a bug). ``limits`` bound each line
    (default ``LINE_LIMITS``)."""
    limits = limits or LINE_LIMITS
    name = None if source == "-" else source
    if source == "-":
        read = _reader(sys.stdin)
        close = None
    else:
        handle = open_file(source, pipes=True)  # a stream is read to its end; /dev/zero is refused
        read, close = _reader(handle), handle.close
    sink = out if out is not None else sys.stdout.buffer
    pending: list[str] = []

    def flush() -> None:
        if pending:
            sink.write((json_safe("\n".join(pending)) + "\n").encode("utf-8", "surrogatepass"))
            pending.clear()
        sink.flush()

    failed = broken = False
    try:
        for number, value in iter_json_lines(_lines(read, flush, limits.max_bytes), name, limits=limits, blank=True):
            try:
                if isinstance(value, LwError):
                    raise value
                reply, bad = answer(number, value)
                text = encode(reply)
            except LwError as exc:
                bad, text = True, encode(error_answer(exc, number, name))
            except Exception as exc:  # noqa: BLE001 - a bug answering one line must not lose the others
                broken = bad = True
                text = encode({"error": {"message": f"internal error: {type(exc).__name__}: {exc}",
                                         "code": "internal", "line": number, "file": name}})
            failed = failed or bad
            pending.append(text)
            if len(pending) >= 512:
                sink.write((json_safe("\n".join(pending)) + "\n").encode("utf-8", "surrogatepass"))
                pending.clear()
        flush()
    finally:
        if close is not None:
            close()
    return 2 if broken else 1 if failed else 0


def batch_option(*, required: bool = False) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The ``--batch FILE|-`` option of a batch command (parameter name ``batch``)."""
    return click.option(
        "--batch", "batch", default=None, required=required, metavar="FILE|-",
        help="JSON lines in ('-' reads stdin), one JSON answer (or {\"error\": …} with its line) per "
             "line out; exit 1 if any line failed.")


def exit_batch(source: str, answer: Answer, **options: Any) -> None:
    """Run the batch (:func:`run_batch`) and end the command with its exit status, the same
    under ``lw`` and under click's test runner."""
    code = run_batch(source, answer, **options)
    click.get_current_context().exit(code)


def _reader(stream: Any) -> Callable[[int], bytes]:
    """A read of at most n bytes that waits for one system call at most (``b""`` at the end);
    a text stream without a byte buffer (a test's ``StringIO``) is read as UTF-8."""
    binary = getattr(stream, "buffer", stream)
    if isinstance(binary, io.TextIOBase):
        return lambda n: binary.read(n).encode("utf-8", "surrogateescape")
    return getattr(binary, "read1", binary.read)


def _lines(read: Callable[[int], bytes], waiting: Callable[[], None], max_bytes: int) -> Iterator[bytes]:
    """Lines (without their newline) from ``read``; ``waiting()`` runs before every read that
    may block. A line longer than ``max_bytes`` yields only its first ``max_bytes + 1`` bytes
    (enough for the reader to refuse it) and the rest is skipped unread into memory."""
    buffer = b""
    skipping = False
    while True:
        waiting()
        chunk = read(CHUNK)
        if not chunk:
            break
        buffer += chunk
        start = 0
        while True:
            end = buffer.find(b"\n", start)
            if end < 0:
                break
            if skipping:
                skipping = False
            else:
                yield buffer[start:end]
            start = end + 1
        buffer = buffer[start:]
        if len(buffer) > max_bytes and not skipping:
            yield buffer[: max_bytes + 1]
            skipping = True
        if skipping:
            buffer = b""
    if buffer and not skipping:
        yield buffer
