"""The lodash 4.17.21 path functions MagVarUpdate's updates go through, over JSON data in Python.

``to_path`` (``_.toPath``), ``get``, ``has``, ``set``, ``unset``, ``merge`` and ``is_equal`` read
and write plain JSON (dicts, lists, scalars) the way lodash does on the same JSON in JavaScript:
a path that is a key of the object is that key (``isKey``), a numeric text indexes a list only
in its canonical form (``'0'``, not ``'00'``), ``set`` creates a list where the next key is an
index, ``merge`` merges lists index by index and never writes ``undefined`` over a value. What
JavaScript would keep but JSON drops (a text key on a list, a hole) is dropped here.
"""

from __future__ import annotations

import re
from typing import Any

_PROP_NAME = re.compile(r"""[^.\[\]]+|\[(?:(-?\d+(?:\.\d+)?)|(["'])((?:(?!\2)[^\\]|\\.)*?)\2)\]|(?=(?:\.|\[\])(?:\.|\[\]|$))""")
_ESCAPE_CHAR = re.compile(r"\\(\\)?")
_DEEP_PROP = re.compile(r"""\.|\[(?:[^\[\]]*|(["'])(?:(?!\1)[^\\]|\\.)*?\1)\]""")
_PLAIN_PROP = re.compile(r"^[A-Za-z0-9_]*$")
MAX_SAFE = 9007199254740991


def string_to_path(text: str) -> list[str]:
    out: list[str] = []
    if text[:1] == ".":
        out.append("")
    for m in _PROP_NAME.finditer(text):
        number, quote, sub = m.group(1), m.group(2), m.group(3)
        out.append(_ESCAPE_CHAR.sub(lambda e: e.group(1) or "", sub) if quote else (number or m.group(0)))
    return out


def js_string(value: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    return str(value)


def _in(key: str, obj: Any) -> bool:
    if isinstance(obj, dict):
        return key in obj
    if isinstance(obj, list):
        return key == "length" or _index(key, len(obj)) is not None
    return False


def is_key(value: Any, obj: Any) -> bool:
    if isinstance(value, list):
        return False
    if value is None or isinstance(value, (bool, int, float)):
        return True
    value = str(value)
    return bool(_PLAIN_PROP.match(value)) or not _DEEP_PROP.search(value) or (obj is not None and _in(value, obj))


def to_path(value: Any) -> list[str]:
    """``_.toPath``."""
    if isinstance(value, list):
        return [js_string(v) for v in value]
    return string_to_path(js_string(value))


def cast_path(value: Any, obj: Any) -> list[str]:
    if isinstance(value, list):
        return [js_string(v) for v in value]
    return [js_string(value)] if is_key(value, obj) else string_to_path(js_string(value))


def _index(key: str, length: int | None = None) -> int | None:
    """``key`` as a list index (canonical digits only), within ``length`` when given."""
    if not key.isdigit() or (len(key) > 1 and key[0] == "0") or not key.isascii():
        return None
    index = int(key)
    if index > MAX_SAFE or (length is not None and index >= length):
        return None
    return index


def child(obj: Any, key: str) -> tuple[bool, Any]:
    """``(own property?, value)`` of ``obj[key]``."""
    if isinstance(obj, dict):
        return (key in obj, obj.get(key))
    if isinstance(obj, list):
        if key == "length":
            return True, len(obj)
        index = _index(key, len(obj))
        return (True, obj[index]) if index is not None else (False, None)
    if isinstance(obj, str):
        if key == "length":
            return True, len(obj.encode("utf-16-le")) // 2
        index = _index(key, len(obj))
        return (True, obj[index]) if index is not None else (False, None)
    return False, None


def get(obj: Any, path: Any, default: Any = None) -> Any:
    """``_.get``."""
    keys = cast_path(path, obj)
    node = obj
    for key in keys:
        if node is None:
            return default
        _, node = child(node, key)
    return default if node is None and keys and not _present(obj, keys) else node


def _present(obj: Any, keys: list[str]) -> bool:
    node = obj
    for key in keys:
        found, node = child(node, key)
        if not found:
            return False
    return True


def has(obj: Any, path: Any) -> bool:
    """``_.has`` (own properties along the path)."""
    keys = cast_path(path, obj)
    node = obj
    for key in keys:
        if node is None:
            return False
        found, node = child(node, key)
        if not found:
            return False
    return bool(keys) or False


def is_object(value: Any) -> bool:
    return isinstance(value, (dict, list))


def set_(obj: Any, path: Any, value: Any) -> Any:
    """``_.set`` in place; returns ``obj``."""
    if not is_object(obj):
        return obj
    keys = cast_path(path, obj)
    node = obj
    for i, key in enumerate(keys):
        last = i == len(keys) - 1
        if last:
            new = value
        else:
            _, current = child(node, key)
            new = current if is_object(current) else ([] if _index(keys[i + 1]) is not None else {})
        if not _assign(node, key, new):
            return obj
        node = new
    return obj


def _assign(node: Any, key: str, value: Any) -> bool:
    if isinstance(node, dict):
        node[key] = value
        return True
    if isinstance(node, list):
        index = _index(key)
        if index is None or index > 100_000:
            return False  # a text key on a list: JSON drops it
        while len(node) < index:
            node.append(None)  # a hole: JSON writes null
        if index == len(node):
            node.append(value)
        else:
            node[index] = value
        return True
    return False


def unset(obj: Any, path: Any) -> bool:
    """``_.unset``: deletes the last key (a list element becomes a hole: ``null`` in JSON)."""
    keys = cast_path(path, obj)
    if not keys:
        return True
    parent = obj if len(keys) == 1 else get(obj, keys[:-1])
    if parent is None:
        return True
    key = keys[-1]
    if isinstance(parent, dict):
        parent.pop(key, None)
    elif isinstance(parent, list):
        index = _index(key, len(parent))
        if index is not None:
            parent[index] = None
    return True


def merge(obj: Any, source: Any) -> Any:
    """``_.merge(obj, source)`` in place (objects and lists deeply, by key and by index)."""
    if isinstance(source, dict):
        items = list(source.items())
    elif isinstance(source, list):
        items = [(str(i), v) for i, v in enumerate(source)]
    else:
        return obj
    for key, src in items:
        found, current = child(obj, key)
        if isinstance(src, (dict, list)):
            if isinstance(src, list):
                new = current if isinstance(current, list) else []
            else:
                new = current if isinstance(current, dict) else {}
            merge(new, src)
            if not (found and current is new):
                _assign(obj, key, new)
        elif src is not UNDEFINED_MARK and (not found or not is_equal(current, src)):
            _assign(obj, key, src)
    return obj


UNDEFINED_MARK = object()


def is_equal(a: Any, b: Any) -> bool:
    """``_.isEqual`` on JSON (``1 == 1.0``, ``True != 1``)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(is_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(is_equal(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b
