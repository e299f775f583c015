"""JSON text exactly as JavaScript's ``JSON.stringify(value)`` writes it.

Compact separators, no ASCII escaping, key order as given (except that, as in JavaScript,
keys that are canonical array indices -- ``"0"``, ``"17"`` -- come first in ascending
order), numbers formatted by ECMAScript ``Number::toString`` (``1.0`` -> ``1``,
``1e21`` -> ``1e+21``, ``1e-7`` -> ``1e-7``; NaN and infinities -> ``null``), lone
surrogates written as lowercase ``\\udxxx`` escapes (well-formed ``JSON.stringify``).

The common case -- dicts, lists, strings, bools, ``None`` and safe integers -- goes straight
through the C ``json`` encoder; only values holding floats, unsafe integers, non-string or
index-like keys take the slower pure-Python path.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from typing import Any

_dumps = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":"), check_circular=False, allow_nan=False
).encode
_encode_str = json.encoder.py_encode_basestring  # type: ignore[attr-defined]
try:  # the C version when available (same output)
    from _json import encode_basestring as _encode_str  # type: ignore[no-redef]
except ImportError:  # pragma: no cover
    pass

_SURROGATE = re.compile("[\ud800-\udfff]")
MAX_SAFE_INTEGER = 2**53 - 1
_MAX_INDEX = 2**32 - 2


def _is_index_key(key: str) -> bool:
    return (
        key.isascii()
        and key.isdigit()
        and (key == "0" or key[0] != "0")
        and int(key) <= _MAX_INDEX
    )


def _simple(value: Any) -> bool:
    """True when the C encoder's output already equals ``JSON.stringify``'s (surrogates aside)."""
    stack = [value]
    pop = stack.pop
    push = stack.extend
    while stack:
        item = pop()
        kind = type(item)
        if kind is str or kind is bool or item is None:
            continue
        if kind is dict:
            for key in item:
                if type(key) is not str or (key[:1].isdigit() and _is_index_key(key)):
                    return False
            push(item.values())
        elif kind is list or kind is tuple:
            push(item)
        elif kind is int:
            if not -MAX_SAFE_INTEGER <= item <= MAX_SAFE_INTEGER:
                return False
        else:
            return False
    return True


def js_number(value: float | int) -> str:
    """ECMAScript ``Number::toString`` for a finite double; ``null`` for NaN/Infinity."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
            return str(value)
        try:
            value = float(value)
        except OverflowError:
            return "null"
    if math.isnan(value) or math.isinf(value):
        return "null"
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    text = repr(abs(value))  # shortest round-trip digits, as ECMAScript requires
    mantissa, _, exp_text = text.partition("e")
    exponent = int(exp_text) if exp_text else 0
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    n = len(whole) + exponent
    stripped = digits.lstrip("0")
    n -= len(digits) - len(stripped)
    digits = stripped.rstrip("0") or "0"
    k = len(digits)
    if k <= n <= 21:
        body = digits + "0" * (n - k)
    elif 0 < n <= 21:
        body = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        body = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        mark = "+" if e >= 0 else "-"
        head = digits if k == 1 else digits[0] + "." + digits[1:]
        body = f"{head}e{mark}{abs(e)}"
    return sign + body


def _slow(value: Any, out: list[str]) -> None:
    kind = type(value)
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, str):
        out.append(_encode_str(value))
    elif isinstance(value, (int, float)):
        out.append(js_number(value))
    elif isinstance(value, dict):
        items = [(k if isinstance(k, str) else _key_text(k), v) for k, v in value.items()]
        index = sorted((int(k), k, v) for k, v in items if _is_index_key(k))
        if index:
            named = [(k, v) for k, v in items if not _is_index_key(k)]
            items = [(k, v) for _, k, v in index] + named
        out.append("{")
        first = True
        for key, item in items:
            if not first:
                out.append(",")
            first = False
            out.append(_encode_str(key))
            out.append(":")
            _slow(item, out)
        out.append("}")
    elif isinstance(value, (list, tuple)):
        out.append("[")
        for position, item in enumerate(value):
            if position:
                out.append(",")
            _slow(item, out)
        out.append("]")
    else:
        raise TypeError(f"Object of type {kind.__name__} is not JSON serializable")


def _key_text(key: Any) -> str:
    if key is None or isinstance(key, bool):
        return "null" if key is None else ("true" if key else "false")
    if isinstance(key, (int, float)):
        return js_number(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


def _fix_surrogates(text: str) -> str:
    # Pair up surrogate halves first (a Python str may hold a pair as two code points),
    # then escape what is still alone, as well-formed JSON.stringify does.
    text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    return _SURROGATE.sub(lambda m: "\\u%04x" % ord(m.group()), text)


def js_json(value: Any) -> str:
    """``JSON.stringify(value)`` for JSON-like Python data (dict, list, tuple, str, numbers…)."""
    if _simple(value):
        text = _dumps(value)
    else:
        parts: list[str] = []
        _slow(value, parts)
        text = "".join(parts)
    if _SURROGATE.search(text):
        text = _fix_surrogates(text)
    return text


def js_json_utf8(value: Any) -> tuple[str, bytes]:
    """``(js_json(value), its UTF-8 bytes)``; one encode doubles as the lone-surrogate check."""
    text = _dumps(value) if _simple(value) else _slow_text(value)
    try:
        return text, text.encode("utf-8")
    except UnicodeEncodeError:
        text = _fix_surrogates(text)
        return text, text.encode("utf-8")


def _slow_text(value: Any) -> str:
    parts: list[str] = []
    _slow(value, parts)
    return "".join(parts)


def json_text_as_string_utf8(json_bytes: bytes) -> bytes:
    """UTF-8 of ``JSON.stringify(text)`` where ``text`` is itself canonical JSON output.

    Canonical JSON has no raw control characters and no lone surrogates, so quoting it only
    needs backslashes and double quotes escaped.
    """
    return b'"' + json_bytes.replace(b"\\", b"\\\\").replace(b'"', b'\\"') + b'"'


def utf8(text: str) -> bytes:
    """The bytes ``new TextEncoder().encode(text)`` produces (lone surrogates become U+FFFD)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        paired = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
        return _SURROGATE.sub("\ufffd", paired).encode("utf-8")


def utf8_length(text: str) -> int:
    """``new TextEncoder().encode(text).byteLength``."""
    try:
        return len(text.encode("utf-8"))
    except UnicodeEncodeError:
        return len(utf8(text))


def sha256_hex(text: str) -> str:
    """Lowercase hex SHA-256 of the UTF-8 bytes of ``text``."""
    return hashlib.sha256(utf8(text)).hexdigest()


def js_sort_key(text: str) -> bytes:
    """Sort key giving JavaScript's default ``Array.prototype.sort`` order (UTF-16 code units)."""
    return text.encode("utf-16-be", "surrogatepass")


_JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def js_trim(text: str) -> str:
    """``String.prototype.trim``: strips ECMAScript WhiteSpace and LineTerminator only."""
    return text.strip(_JS_WHITESPACE)
