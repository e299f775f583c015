"""The one JSON reader of the project: limits, strict numbers, duplicate keys refused.

Python's :func:`json.loads` accepts ``NaN``, ``Infinity`` and ``1e400`` (as infinity), keeps
the last of two equal keys, and crashes with ``RecursionError`` on deep nesting; callers then
crash again in ``copy.deepcopy`` on merely deep data. :func:`load_json` refuses each of those
with a located :class:`LwError`, and bounds the size, the depth and the number of values.

:func:`iter_json_lines` reads JSON Lines (batch requests): every line gets exactly one outcome
(its value or its located error), so one bad line never loses the others.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from lwcore.errors import LwError
from lwcore.io.limits import JSON_LIMITS, LINE_LIMITS, Limits, check_shape
from lwcore.io.text import read_bytes, source_text


class _Refused(ValueError):
    def __init__(self, message: str, token: str, code: str = "value") -> None:
        super().__init__(message)
        self.message = message
        self.token = token
        self.code = code


def _constant(token: str) -> Any:
    raise _Refused(f"{token} is not a JSON number (expected a finite number)", token)


def _float(token: str) -> float:
    value = float(token)
    if not math.isfinite(value):
        raise _Refused(f"{token} is out of range for a number", token)
    return value


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Refused(f"duplicate key {key!r}", json.dumps(key, ensure_ascii=False), "duplicate_key")
            seen.add(key)
    return out


def _locate(text: str, token: str, *, second: bool = False) -> tuple[int | None, int | None]:
    """Line and column of ``token`` in ``text`` (the second occurrence of a key for
    duplicates); ``(None, None)`` when it cannot be found."""
    if second:
        pattern = re.compile(re.escape(token) + r"\s*:")
        matches = list(pattern.finditer(text))
        index = matches[1].start() if len(matches) > 1 else (matches[0].start() if matches else -1)
    else:
        index = text.find(token)
    if index < 0:
        return None, None
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


_STRICT = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_constant, parse_float=_float)
_LENIENT = json.JSONDecoder(object_pairs_hook=_pairs)
"""The decoders, made once (``json.loads`` with options builds a new decoder on every call)."""


def load_json(source: str | bytes, file: str | Path | None = None, *, limits: Limits = JSON_LIMITS,
              surrogates: list[str] | None = None) -> Any:
    """Parse one JSON document; every problem is a located :class:`LwError` (code
    ``syntax``, ``limit``, ``encoding``, ``duplicate_key`` or ``value``).

    A ``\\udXXX`` escape without its pair is refused; with ``surrogates`` (a list) it is read as
    U+FFFD instead, as a browser shows it, and a note is appended to that list (JavaScript's
    ``JSON.parse`` accepts such escapes: a card made in a browser may hold one)."""
    name = str(file) if file is not None else None
    text = source_text(source, name, max_bytes=limits.max_bytes, what="JSON")
    try:
        value = (_LENIENT if limits.allow_nonfinite else _STRICT).decode(text)
    except json.JSONDecodeError as exc:
        raise LwError(f"invalid JSON: {exc.msg}", file=name, line=exc.lineno, column=exc.colno, code="syntax") from None
    except _Refused as exc:
        line, column = _locate(text, exc.token, second=exc.code == "duplicate_key")
        raise LwError(exc.message, file=name, line=line, column=column, code=exc.code) from None
    except RecursionError:
        raise LwError(f"JSON nested deeper than {limits.max_depth} levels", file=name, code="limit") from None
    except ValueError:  # an integer with more digits than Python converts (4300)
        raise LwError("a number has too many digits", file=name, code="value") from None
    if len(text) > 2 * min(limits.max_depth, limits.max_nodes):
        check_shape(value, limits, name)  # a shorter text cannot nest that deep or hold that many values
    if _SURROGATE_ESCAPE.search(text):
        if surrogates is None:
            _refuse_lone_surrogates(value, name)
        else:
            value, count = replace_lone_surrogates(value)
            if count:
                surrogates.append(f"{count} lone surrogate escape(s) (\\ud800-\\udfff without its pair) "
                                  "read as U+FFFD")
    return value


def replace_lone_surrogates(value: Any) -> tuple[Any, int]:
    """``value`` with every lone surrogate in its texts (keys too) replaced by U+FFFD, and how many."""
    count = 0

    def fix(text: str) -> str:
        nonlocal count
        try:
            text.encode("utf-8")
            return text
        except UnicodeEncodeError:
            out = []
            for ch in text:
                if "\ud800" <= ch <= "\udfff":
                    count += 1
                    out.append("\ufffd")
                else:
                    out.append(ch)
            return "".join(out)

    def walk(item: Any) -> Any:
        if isinstance(item, str):
            return fix(item)
        if isinstance(item, dict):
            return {fix(k): walk(v) for k, v in item.items()}
        if isinstance(item, list):
            return [walk(v) for v in item]
        return item

    return walk(value), count


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _refuse_lone_surrogates(value: Any, file: str | None) -> None:
    """A ``\\udXXX`` escape that is not half of a pair decodes to a lone surrogate, which no
    file can store as UTF-8: refuse it here rather than fail later, half-way through a save."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise LwError(
                    "a string holds a lone surrogate escape (\\ud800-\\udfff without its pair)",
                    file=file, code="value", expected="text that is valid Unicode",
                ) from None
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def read_json(path: str | Path, *, limits: Limits = JSON_LIMITS) -> Any:
    """:func:`load_json` of a file (size checked before it is read whole)."""
    return load_json(read_bytes(path, max_bytes=limits.max_bytes), path, limits=limits)


def iter_json_lines(
    lines: Iterable[str | bytes], file: str | Path | None = None, *, limits: Limits = LINE_LIMITS,
    blank: bool = False,
) -> Iterator[tuple[int, Any]]:
    """``(line number, value or LwError)`` for every non-blank line of ``lines`` -- and, with
    ``blank=True``, an error (code ``empty``) for every blank one too (a batch answers every
    line: a host that wrote a line waits for its answer).

    A line's error carries the line number in the stream (and the column in the line), so a
    batch can answer it and go on with the next line.
    """
    name = str(file) if file is not None else None
    for number, raw in enumerate(lines, 1):
        stripped = raw.strip()
        if not stripped:
            if blank:
                yield number, LwError("a blank line", file=name, line=number, code="empty",
                                      expected="one JSON request per line")
            continue
        try:
            yield number, load_json(raw, name, limits=limits)
        except LwError as exc:
            exc.line = number if exc.line in (None, 1) else number + exc.line - 1
            yield number, exc
