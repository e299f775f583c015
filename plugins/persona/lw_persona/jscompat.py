"""Small helpers that reproduce the reference implementation's JavaScript value semantics.

The format promises byte-identical text across implementations; where the reference leans on
JavaScript coercions (``String(v)``, truthiness, ``trim()``, ``.length``, key order) we
reproduce them here once instead of approximating them at every call site.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

#: Characters ``String.prototype.trim`` removes (ECMAScript WhiteSpace + LineTerminator).
JS_WS = "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"

_INDEX_KEY = re.compile(r"^(0|[1-9][0-9]*)$")


def trim(text: str) -> str:
    """``String.prototype.trim``."""
    return text.strip(JS_WS)


def truthy(value: Any) -> bool:
    """JavaScript truthiness of a JSON value (empty objects and arrays are truthy)."""
    if value is None or value is False:
        return False
    if value is True:
        return True
    if isinstance(value, (int, float)):
        return not (value == 0 or (isinstance(value, float) and math.isnan(value)))
    if isinstance(value, str):
        return value != ""
    return True


def num_str(value: float | int) -> str:
    """``String(number)`` for the numbers JSON can carry."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == int(value) and abs(value) < 1e21:
        return str(int(value))
    text = repr(value)
    if "e" in text:
        mantissa, _, exponent = text.partition("e")
        sign = "-" if exponent.startswith("-") else "+"
        text = f"{mantissa}e{sign}{exponent.lstrip('+-').lstrip('0') or '0'}"
    return text


def to_str(value: Any) -> str:
    """``String(value)`` for JSON values (``undefined``/``null`` are the caller's business)."""
    if isinstance(value, str):
        return value
    if value is None:
        return "null"
    if isinstance(value, (bool, int, float)):
        return num_str(value)
    if isinstance(value, list):
        return ",".join("" if v is None else to_str(v) for v in value)
    return "[object Object]"


def str_or_empty(value: Any) -> str:
    """``String(v == null ? '' : v)``."""
    return "" if value is None else to_str(value)


def number(value: Any) -> float:
    """``Number(value)`` for JSON values (NaN when not numeric)."""
    if value is None:
        return 0.0
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        text = trim(value)
        if text == "":
            return 0.0
        try:
            if text.lower().startswith(("0x", "0o", "0b")):
                return float(int(text, 0))
            if text in ("Infinity", "+Infinity", "-Infinity"):
                return float(text.replace("Infinity", "inf"))
            if not re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", text):
                return math.nan
            return float(text)
        except ValueError:
            return math.nan
    if isinstance(value, list):
        if not value:
            return 0.0
        if len(value) == 1:
            return number(to_str(value[0]) if value[0] is not None else "")
    return math.nan


def utf16_len(text: str) -> int:
    """``string.length`` (UTF-16 code units)."""
    if text.isascii():
        return len(text)
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def keys(mapping: Mapping[str, Any]) -> list[str]:
    """``Object.keys`` order: array-index keys ascending, then the rest in insertion order."""
    names = list(mapping)
    index = [k for k in names if _INDEX_KEY.match(k) and int(k) < 4294967295]
    if not index:
        return names
    rest = [k for k in names if not (_INDEX_KEY.match(k) and int(k) < 4294967295)]
    return sorted(index, key=int) + rest


def is_object(value: Any) -> bool:
    """``v && typeof v === 'object' && !Array.isArray(v)`` for JSON values."""
    return isinstance(value, dict)
