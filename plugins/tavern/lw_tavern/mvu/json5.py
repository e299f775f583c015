"""JSON5 text, read with limits and located errors (the ``json5`` package underneath).

MVU cards write their variable trees and update arguments in JSON5: comments, trailing
commas, single-quoted strings, unquoted (also Chinese) keys. This module reads them with the
well-kept ``json5`` package and adds what outside input needs: a size and a nesting limit (so a
hostile text cannot exhaust the stack), duplicate keys refused, ``NaN``/``Infinity`` refused
(no file of ours means them), and every problem as a :class:`Json5Error` with its line and
column.

Plain JSON (most of what models and cards write) is read first by the standard library's
decoder at C speed, with the same checks; only text that is not plain JSON goes to the
``json5`` package, which reads some microseconds a character (``allowance`` bounds how much of
that one caller may ask for).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

MAX_JSON5 = 1024 * 1024
MAX_DEPTH = 64


class Json5Error(ValueError):
    """Unreadable JSON5, with the 1-based line and column when known."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


def _pairs(pairs: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise Json5Error(f"duplicate key {key!r}")
        out[key] = value
    return out


def _constant(name: str) -> Any:
    raise Json5Error(f"{name} is not a number this file may hold")


def _float(text: str) -> float:
    import math

    value = float(text)
    if not math.isfinite(value):
        raise Json5Error(f"{text} is too large a number")
    return value


def _depth(text: str) -> int:
    """The deepest bracket nesting outside strings (a cheap guard before the parser recurses)."""
    depth = best = 0
    quote = ""
    i = 0
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
            best = max(best, depth)
        elif ch in "]}":
            depth -= 1
        i += 1
    return best


_PLAIN = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_constant, parse_float=_float)


def parse_json5(text: str, *, allowance: Any = None) -> Any:
    """The value in a JSON5 text.

    ``allowance``: an object whose ``json5`` attribute is how many characters of text that is
    not plain JSON may still be read by the ``json5`` package; it is decreased, and a text past
    it is refused (a :class:`Json5Error` saying so). Plain JSON is not counted.
    """
    import json5

    if len(text) > MAX_JSON5:
        raise Json5Error(f"longer than {MAX_JSON5} characters")
    if _depth(text) > MAX_DEPTH:
        raise Json5Error(f"nested deeper than {MAX_DEPTH} levels")
    try:
        return _PLAIN.decode(text)
    except json.JSONDecodeError:
        pass  # not plain JSON: JSON5 below
    except RecursionError:
        raise Json5Error(f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError:  # an integer with more digits than Python converts
        pass
    if allowance is not None:
        if len(text) > allowance.json5:
            raise Json5Error("this reply holds more JSON5 (text that is not plain JSON) than is read from one "
                             "reply; write plain JSON")
        allowance.json5 -= len(text)
    try:
        return json5.loads(text, object_pairs_hook=_pairs, parse_constant=_constant, parse_float=_float,
                           allow_duplicate_keys=True)
    except Json5Error:
        raise
    except RecursionError:
        raise Json5Error(f"nested deeper than {MAX_DEPTH} levels") from None
    except (ValueError, TypeError, OverflowError) as exc:
        message = str(exc)
        m = re.search(r"<string>:(\d+) (.*?) at column (\d+)", message)
        if m:
            return _raise(m.group(2), int(m.group(1)), int(m.group(3)))
        raise Json5Error(message.replace("<string>:", "line ")) from None


def _raise(message: str, line: int, column: int) -> Any:
    raise Json5Error(message, line, column)
