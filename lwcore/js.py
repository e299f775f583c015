"""JavaScript's value semantics, written once for every part that must agree with a browser.

Content made for JavaScript hosts (character cards and world books, prompt configs written
for a browser extension, a reference compiler written in JavaScript) is read here in Python;
wherever the original leans on a JavaScript coercion, the Python side must give the
byte-identical answer. These functions are the one definition; each is checked against
JavaScript's own output (a Node corpus, ``tests/kernel/data/js_values.json``, and the kernel's
QuickJS sandbox live).

- :func:`number_to_string`: ``Number::toString(x)`` (``String(x)`` of a number): shortest
  round-trip digits, plain notation for 1e-6 <= |x| < 1e21 (``0.000001``) and exponent
  notation outside it (``1e+21``, ``1e-7``), ``-0`` -> ``"0"``, ``NaN``, ``Infinity``, ``-Infinity``.
- :func:`to_string`, :func:`to_number`, :func:`truthy`: ``String(v)``, ``Number(v)`` and
  ``!!v`` for JSON values (``None`` is ``null``).
- :data:`WHITESPACE`, :func:`trim`, :func:`trim_start`, :func:`trim_end`: ECMAScript
  WhiteSpace + LineTerminator (what ``trim`` removes and ``\\s`` matches): TAB, VT, FF, SP,
  NBSP, U+FEFF, every Zs character, LF, CR, U+2028, U+2029 -- not U+0085 or U+001C-U+001F,
  which Python's ``str.strip`` also removes.
- :func:`utf16_length`, :func:`utf16_slice`, :func:`utf16_sort_key`: ``s.length``,
  ``s.slice(a, b)`` and the default ``Array.prototype.sort`` order, all in UTF-16 code units.
- :func:`is_array_index`, :func:`object_keys`: the property order of ``Object.keys`` and
  ``JSON.stringify`` (array-index keys ascending first, then the rest in insertion order).

Pure functions of their arguments; nothing here imports beyond the standard library.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

__all__ = [
    "WHITESPACE",
    "MAX_SAFE_INTEGER",
    "number_to_string",
    "to_string",
    "to_number",
    "truthy",
    "trim",
    "trim_start",
    "trim_end",
    "utf16_length",
    "utf16_slice",
    "utf16_sort_key",
    "is_array_index",
    "object_keys",
]

WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
"""ECMAScript WhiteSpace and LineTerminator: the characters ``String.prototype.trim`` removes
and the regular-expression class ``\\s`` matches (Zs as of Unicode 15; unchanged since 6.3)."""

MAX_SAFE_INTEGER = 2**53 - 1
_MAX_ARRAY_INDEX = 2**32 - 2
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_RADIX = re.compile(r"0(?:[xX][0-9a-fA-F]+|[oO][0-7]+|[bB][01]+)")


def number_to_string(value: float | int) -> str:
    """``Number::toString(value)`` in radix 10, exactly as ECMAScript specifies it.

    An ``int`` is first made a double as JavaScript would (nearest, ties to even; beyond the
    double range it is an infinity). ``bool`` is not a number here (``TypeError``); use
    :func:`to_string` for any JSON value.
    """
    if type(value) is int:
        if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
            return str(value)
        try:
            value = float(value)
        except OverflowError:
            return "Infinity" if value > 0 else "-Infinity"
    elif isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"number_to_string takes an int or a float, not {type(value).__name__}")
    if value != value:
        return "NaN"
    if value == 0:
        return "0"  # -0 too
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    sign = "-" if value < 0 else ""
    text = repr(abs(value))  # Python's repr: the shortest digits that round-trip, correctly rounded
    mantissa, _, exp_text = text.partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    n = len(whole) + (int(exp_text) if exp_text else 0)
    stripped = digits.lstrip("0")
    n -= len(digits) - len(stripped)
    digits = stripped.rstrip("0")
    k = len(digits)
    # ECMAScript Number::toString steps 6-10, with value = 0.digits x 10^n
    if k <= n <= 21:
        body = digits + "0" * (n - k)
    elif 0 < n <= 21:
        body = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        body = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        head = digits if k == 1 else digits[0] + "." + digits[1:]
        body = f"{head}e{'+' if e >= 0 else '-'}{abs(e)}"
    return sign + body


def to_string(value: Any, *, null: str = "null") -> str:
    """``String(value)`` for a JSON value: ``None`` -> ``"null"``, ``true``/``false``, numbers
    by :func:`number_to_string`, a list joined by ``,`` (``null`` items empty), a dict
    ``"[object Object]"``. ``null=""`` gives the idiom ``String(v ?? '')`` (only a top-level
    ``None`` is affected)."""
    if isinstance(value, str):
        return value
    if value is None:
        return null
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return number_to_string(value)
    if isinstance(value, (list, tuple)):
        return ",".join("" if item is None else to_string(item) for item in value)
    return "[object Object]"


def to_number(value: Any) -> float:
    """``Number(value)`` for a JSON value (``NaN`` when it is not numeric).

    A string follows StringToNumber: :data:`WHITESPACE` around it is ignored, empty is 0, then
    a decimal literal, ``0x``/``0o``/``0b`` digits (unsigned), or ``[+-]Infinity``; anything
    else (``inf``, ``1_000``, ``-0x1``) is ``NaN``. A list is ``Number(String(list))``.
    """
    if value is None or value is False:
        return 0.0
    if value is True:
        return 1.0
    if isinstance(value, (int, float)):
        try:
            return float(value)
        except OverflowError:
            return math.inf if value > 0 else -math.inf
    if isinstance(value, (list, tuple)):
        return to_number(to_string(value))
    if not isinstance(value, str):
        return math.nan
    text = value.strip(WHITESPACE)
    if not text:
        return 0.0
    if _DECIMAL.fullmatch(text):
        return float(text)
    if _RADIX.fullmatch(text):
        try:
            return float(int(text[2:], {"x": 16, "o": 8, "b": 2}[text[1].lower()]))
        except OverflowError:
            return math.inf
    if text in ("Infinity", "+Infinity"):
        return math.inf
    if text == "-Infinity":
        return -math.inf
    return math.nan


def truthy(value: Any) -> bool:
    """JavaScript truthiness (``!!value``) of a JSON value: ``null``, ``false``, ``0``, ``-0``,
    ``NaN`` and ``""`` are false; every object and array, even empty, is true."""
    if value is None or value is False:
        return False
    if value is True:
        return True
    if isinstance(value, (int, float)):
        return value == value and value != 0
    if isinstance(value, str):
        return value != ""
    return True


def trim(text: str) -> str:
    """``String.prototype.trim``."""
    return text.strip(WHITESPACE)


def trim_start(text: str) -> str:
    """``String.prototype.trimStart``."""
    return text.lstrip(WHITESPACE)


def trim_end(text: str) -> str:
    """``String.prototype.trimEnd``."""
    return text.rstrip(WHITESPACE)


def utf16_length(text: str) -> int:
    """``text.length``: UTF-16 code units (a character beyond U+FFFF counts two)."""
    if text.isascii():
        return len(text)
    return len(text) + sum(1 for ch in text if ch > "\uffff")


def utf16_slice(text: str, start: int, end: int | None = None) -> str:
    """``text.slice(start, end)`` in UTF-16 code units: negative positions count from the end,
    positions are clamped, ``start >= end`` gives ``""``. A cut through a surrogate pair leaves
    a lone surrogate, as JavaScript does."""
    if text.isascii() or not any(ch > "\uffff" for ch in text):
        return text[start:end]
    units = text.encode("utf-16-le", "surrogatepass")
    size = len(units) // 2
    lo, hi = slice(start, end).indices(size)[:2]
    if lo >= hi:
        return ""
    return units[2 * lo:2 * hi].decode("utf-16-le", "surrogatepass")


def utf16_sort_key(text: str) -> bytes:
    """A key giving JavaScript's default string order (code unit by code unit; U+FF61 sorts
    after U+1F600, unlike Python's code-point order)."""
    return text.encode("utf-16-be", "surrogatepass")


def is_array_index(key: str) -> bool:
    """Whether a property name is an array index (``"0"``, ``"17"``; not ``"01"``, ``"-1"``,
    ``"4294967295"``): such keys come first, ascending, in JavaScript's property order."""
    return (
        key.isascii()
        and key.isdigit()
        and (key == "0" or key[0] != "0")
        and int(key) <= _MAX_ARRAY_INDEX
    )


def object_keys(mapping: Mapping[str, Any]) -> list[str]:
    """``Object.keys`` order: array-index keys ascending, then the rest in insertion order."""
    names = list(mapping)
    index = [k for k in names if is_array_index(k)]
    if not index:
        return names
    return sorted(index, key=int) + [k for k in names if not is_array_index(k)]
