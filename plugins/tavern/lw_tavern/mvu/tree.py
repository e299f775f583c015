"""The MVU variable tree: paths into it and the five operations on it, as pure functions.

MVU (MagVarUpdate) cards keep their state in one nested JSON tree (``stat_data``) whose leaves
may be ``[value, "description"]`` pairs. Paths are lodash paths: ``角色.好感度``,
``背包[0].名称``, ``a["key with spaces"]``, ``a.0`` (a list index when the node is a list).

Every operation takes a tree and returns a new one (the input is never changed) or raises
:class:`TreeError` saying why nothing was done. The semantics are MVU's own:

- ``set(path, value)``: the path must exist; a ``[value, "description"]`` leaf keeps its
  description; a number leaf takes a numeric string as a number.
- ``insert(path, value)``: appends to a list, or merges an object into an object;
  ``insert(path, key, value)`` inserts at a list index (``"-"`` is the end) or sets an object
  key. The parent must exist; a missing target is created.
- ``delete(path)``: removes the node (a list index is spliced out); ``delete(path, key)``
  removes a list element by index or by value, or an object key (or the n-th key).
- ``add(path, delta)``: a number plus a number; an ISO date plus milliseconds.
- ``move(from, to)``: detaches a node and puts it at ``to`` (whose parent must exist).
"""

from __future__ import annotations

import copy
import datetime
import math
import re
from collections.abc import Sequence
from typing import Any

from lwcore.turn.mvu import is_described
from lwcore.turn.mvu import value_of as leaf_value

Tree = dict[str, Any]
Segment = str | int

MAX_PATH = 1000


class TreeError(ValueError):
    """An operation that cannot be done on this tree (the tree is left as it was)."""


# --- paths -------------------------------------------------------------------------------------

_BRACKET = re.compile(r"""\[\s*(?:(-?\d+)|"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^\]]*))\s*\]""")


def parse_path(path: str) -> list[Segment]:
    """A lodash path as segments (``int`` for a bracketed number, ``str`` otherwise).

    ``a.b``, ``a[0]``, ``a["x.y"]``, ``a['x']``, ``a.0``; a dotted segment wrapped in quotes
    (``a."x y".b``) is one key. The empty path is the root.
    """
    if not isinstance(path, str):
        raise TreeError(f"a path is text, not {type(path).__name__}")
    if len(path) > MAX_PATH:
        raise TreeError(f"a path longer than {MAX_PATH} characters")
    out: list[Segment] = []
    i, n = 0, len(path)
    expect_segment = True
    while i < n:
        ch = path[i]
        if ch == "[":
            m = _BRACKET.match(path, i)
            if m is None:
                raise TreeError(f"path {path!r}: unclosed '[' at {i + 1}")
            if m.group(1) is not None:
                out.append(int(m.group(1)))
            else:
                raw = next(g for g in (m.group(2), m.group(3), m.group(4)) if g is not None)
                out.append(re.sub(r"\\(.)", r"\1", raw).strip())
            i = m.end()
            expect_segment = False
            continue
        if ch == ".":
            if expect_segment and out:
                raise TreeError(f"path {path!r}: empty segment at {i + 1}")
            i += 1
            expect_segment = True
            continue
        if ch in "\"'" and expect_segment:
            end = path.find(ch, i + 1)
            if end < 0:
                raise TreeError(f"path {path!r}: unclosed quote at {i + 1}")
            out.append(path[i + 1:end])
            i = end + 1
            expect_segment = False
            continue
        j = i
        while j < n and path[j] not in ".[":
            j += 1
        out.append(path[i:j].strip())
        i = j
        expect_segment = False
    if path and expect_segment:
        raise TreeError(f"path {path!r} ends with '.'")
    return out


def pointer_path(pointer: str) -> list[Segment]:
    """A JSON Pointer (``/a/b/0``, with ``~1`` for ``/`` and ``~0`` for ``~``) as segments."""
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        return parse_path(pointer)
    return [part.replace("~1", "/").replace("~0", "~") for part in pointer[1:].split("/")]


def show_path(segments: Sequence[Segment]) -> str:
    """Segments back as a dotted path (indexes in brackets)."""
    out = ""
    for s in segments:
        out += f"[{s}]" if isinstance(s, int) else (f".{s}" if out else str(s))
    return out


def _step(node: Any, segment: Segment) -> tuple[bool, Any]:
    """(found, child) one step down, lodash-style (a numeric text indexes a list)."""
    if isinstance(node, dict):
        key = str(segment)
        return (key in node, node.get(key))
    if isinstance(node, list):
        index = _index(segment)
        if index is not None and 0 <= index < len(node):
            return True, node[index]
    return False, None


def _index(segment: Segment) -> int | None:
    if isinstance(segment, int) and not isinstance(segment, bool):
        return segment
    if isinstance(segment, str) and segment.isdigit():
        return int(segment)
    return None


def get(tree: Any, segments: Sequence[Segment]) -> tuple[bool, Any]:
    """``(exists, value)`` at ``segments``."""
    node = tree
    for segment in segments:
        found, node = _step(node, segment)
        if not found:
            return False, None
    return True, node


def _parent(tree: Any, segments: Sequence[Segment], path: str) -> Any:
    found, parent = get(tree, segments[:-1])
    if not found or not isinstance(parent, (dict, list)):
        raise TreeError(f"{path}: the parent does not exist")
    return parent


def _put(parent: Any, segment: Segment, value: Any, path: str) -> None:
    if isinstance(parent, dict):
        parent[str(segment)] = value
        return
    index = _index(segment)
    if index is None or not 0 <= index <= len(parent):
        raise TreeError(f"{path}: {segment!r} is not an index of a list of {len(parent)}")
    if index == len(parent):
        parent.append(value)
    else:
        parent[index] = value


# --- the operations ----------------------------------------------------------------------------


def op_set(tree: Tree, path: str, value: Any) -> Tree:
    segments = parse_path(path)
    if not segments:
        if not isinstance(value, dict):
            raise TreeError("the root can only be set to an object")
        return copy.deepcopy(value)
    new = copy.deepcopy(tree)
    found, old = get(new, segments)
    if not found:
        raise TreeError(f"{path}: no such variable (set changes existing variables only)")
    parent = _parent(new, segments, path)
    value = copy.deepcopy(value)
    if is_described(old):
        old[0] = _as_number_like(old[0], value, path)
    else:
        _put(parent, segments[-1], _as_number_like(old, value, path), path)
    return new


def _as_number_like(old: Any, value: Any, path: str) -> Any:
    """A numeric text written over a number becomes a number (MVU does this); other text over
    a number is refused rather than stored as ``NaN``."""
    if _is_number(old) and isinstance(value, str):
        number = _number_text(value)
        if number is None:
            raise TreeError(f"{path}: {value!r} is not a number (the variable is a number)")
        return number
    return value


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _number_text(text: str) -> int | float | None:
    t = text.strip()
    if re.fullmatch(r"[-+]?\d+", t):
        return int(t)
    if re.fullmatch(r"[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?", t):
        number = float(t)
        return number if math.isfinite(number) else None
    return None


def op_insert(tree: Tree, path: str, *args: Any) -> Tree:
    if len(args) not in (1, 2):
        raise TreeError(f"insert takes a value, or a key and a value (got {len(args)} arguments)")
    segments = parse_path(path)
    new = copy.deepcopy(tree)
    found, target = get(new, segments)
    if found and target is not None and not isinstance(target, (dict, list)):
        raise TreeError(f"{path}: holds a {type(target).__name__}, not a list or an object")
    if not found or target is None:
        if segments:
            _parent(new, segments, path)
    value = copy.deepcopy(args[-1])
    if len(args) == 1:
        if not found or target is None:
            target = [] if isinstance(value, list) else {}
            _put(_parent(new, segments, path), segments[-1], target, path)
        if isinstance(target, list):
            target.append(value)
        elif isinstance(value, dict):
            _merge(target, value)
        else:
            raise TreeError(f"{path}: only an object can be merged into an object")
        return new
    key = args[0]
    if not found or target is None:
        target = {}
        _put(_parent(new, segments, path), segments[-1], target, path)
    if isinstance(target, list) and (key == "-" or (_is_number(key) and float(key).is_integer())):
        index = len(target) if key == "-" else int(key)
        target.insert(index, value)
    elif isinstance(target, dict):
        target[str(key)] = value
    else:
        raise TreeError(f"{path}: a list takes a number index or '-', not {key!r}")
    return new


def _merge(into: dict[str, Any], value: dict[str, Any]) -> None:
    """lodash ``merge``: objects merge recursively, everything else replaces."""
    for k, v in value.items():
        if isinstance(v, dict) and isinstance(into.get(k), dict):
            _merge(into[k], v)
        else:
            into[k] = v


def op_delete(tree: Tree, path: str, *args: Any) -> Tree:
    if len(args) > 1:
        raise TreeError(f"delete takes at most a key after the path (got {len(args)} arguments)")
    segments = parse_path(path)
    if not segments:
        raise TreeError("the root cannot be deleted")
    new = copy.deepcopy(tree)
    found, target = get(new, segments)
    if not found:
        raise TreeError(f"{path}: no such variable")
    if not args:
        parent = _parent(new, segments, path)
        if isinstance(parent, dict):
            del parent[str(segments[-1])]
        else:
            index = _index(segments[-1])
            assert index is not None
            del parent[index]
        return new
    what = args[0]
    if isinstance(target, list):
        if _is_number(what):
            index = int(what)
            if not 0 <= index < len(target):
                raise TreeError(f"{path}: no element {index} in a list of {len(target)}")
        else:
            index = next((i for i, item in enumerate(target) if item == what), -1)
            if index < 0:
                raise TreeError(f"{path}: {what!r} is not in the list")
        del target[index]
    elif isinstance(target, dict):
        if _is_number(what):
            keys = list(target)
            if not 0 <= int(what) < len(keys):
                raise TreeError(f"{path}: the object has no key number {what}")
            del target[keys[int(what)]]
        elif str(what) in target:
            del target[str(what)]
        else:
            raise TreeError(f"{path}: no key {what!r}")
    else:
        raise TreeError(f"{path}: holds a {type(target).__name__}; nothing to delete from it")
    return new


ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$")


def op_add(tree: Tree, path: str, delta: Any) -> Tree:
    segments = parse_path(path)
    new = copy.deepcopy(tree)
    found, node = get(new, segments)
    if not found:
        raise TreeError(f"{path}: no such variable")
    described = is_described(node)
    current = node[0] if described else node
    if isinstance(delta, str):
        number = _number_text(delta)
        if number is None:
            raise TreeError(f"{path}: {delta!r} is not a number")
        delta = number
    if not _is_number(delta):
        raise TreeError(f"{path}: the amount {delta!r} is not a number")
    if isinstance(current, str) and ISO_DATE.match(current.strip()):
        result: Any = add_milliseconds(current.strip(), delta)
    elif _is_number(current):
        result = current + delta
        if isinstance(result, float):
            result = float(f"{result:.12g}")
            if result.is_integer() and isinstance(current, int) and isinstance(delta, int):
                result = int(result)
    else:
        raise TreeError(f"{path}: holds {current!r}, not a number or a date")
    if described:
        node[0] = result
    elif segments:
        _put(_parent(new, segments, path), segments[-1], result, path)
    else:
        raise TreeError("the root is not a number")
    return new


def add_milliseconds(iso: str, ms: int | float) -> str:
    """An ISO date or date-time plus ``ms`` milliseconds, as JavaScript's ``toISOString`` writes
    it (UTC, milliseconds, ``Z``); a date without a zone is read as UTC (a date alone is
    midnight UTC, as JavaScript reads it)."""
    text = iso.replace(" ", "T")
    if len(text) == 10:
        text += "T00:00:00"
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    moment = datetime.datetime.fromisoformat(text)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    try:
        moment = moment + datetime.timedelta(milliseconds=ms)
    except OverflowError:
        raise TreeError(f"{iso} plus {ms} ms is out of the calendar") from None
    moment = moment.astimezone(datetime.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def op_move(tree: Tree, source: str, target: str) -> Tree:
    src = parse_path(source)
    dst = parse_path(target)
    if not src or not dst:
        raise TreeError("move needs two non-empty paths")
    if len(dst) > len(src) and [str(s) for s in dst[:len(src)]] == [str(s) for s in src]:
        raise TreeError(f"cannot move {source} inside itself")
    new = op_delete(tree, source)
    _, moved = get(tree, src)
    _put(_parent(new, dst, target), dst[-1], copy.deepcopy(moved), target)
    return new


OPERATIONS = {"set": op_set, "insert": op_insert, "delete": op_delete, "add": op_add, "move": op_move}
ALIASES = {"assign": "insert", "remove": "delete", "unset": "delete"}
