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
import re
from collections.abc import Callable
from typing import Any

from lwcore.api import MAX_SAFE_INTEGER, is_array_index, number_to_string

_dumps = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":"), check_circular=False, allow_nan=False
).encode
_encode_str: Callable[[str], str] = json.encoder.py_encode_basestring
try:  # the C version when available (same output)
    from _json import encode_basestring as _encode_str
except ImportError:  # pragma: no cover
    pass

_SURROGATE = re.compile("[\ud800-\udfff]")


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
                if type(key) is not str or (key[:1].isdigit() and is_array_index(key)):
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


def json_number(value: float | int) -> str:
    """A number as ``JSON.stringify`` writes it: ``Number::toString`` (:func:`lwcore.js.number_to_string`),
    ``null`` for NaN and the infinities."""
    text = number_to_string(value)
    return "null" if text in _NOT_FINITE else text


_NOT_FINITE = frozenset({"NaN", "Infinity", "-Infinity"})


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
        out.append(json_number(value))
    elif isinstance(value, dict):
        items = [(k if isinstance(k, str) else _key_text(k), v) for k, v in value.items()]
        index = sorted((int(k), k, v) for k, v in items if is_array_index(k))
        if index:
            named = [(k, v) for k, v in items if not is_array_index(k)]
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
        return json_number(key)
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

