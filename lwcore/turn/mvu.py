"""A room's MVU variable tree: imported cards' module state, kept as plain nested data.

Cards built on the community MVU framework keep their state in one nested tree (``{"世界":
{"时间": "1925-01-03"}, "主角": {"好感": [30, "对你的好感"]}}``). Loreweaver keeps it as the
``mvu`` document of the room (``docs/mvu.yaml``): the tree plus the path prefixes the keeper
exposed to players. A leaf written as ``[value, "description"]`` is a value with its
description. Every write goes through the functions here (iron rule 1: code applies state,
the model and the scripts only ask).

**Paths** are lodash paths: ``角色.好感度``, ``背包[0].名称``, ``a["key with spaces"]``, ``a.0``
(a list index when the node is a list); :func:`show_path` writes segments back so that
:func:`parse_path` reads them again (keys holding ``.`` or brackets are quoted).

**Operations** (:class:`~lwcore.contributions.TreeOp`, the kernel's vocabulary for every writer: hook scripts,
reply processors, tools, templates) have MVU's own semantics; each returns a new tree (the
input is never changed) or raises :class:`TreeError` saying why nothing was done:

- ``set(path, value)``: the path must exist; a ``[value, "description"]`` leaf keeps its
  description; a number leaf takes a numeric text as a number (other text is refused).
- ``put(path, value)``: ``set`` that creates missing branches (a script's ``setvar`` of an
  undeclared name, a template's write).
- ``insert(path, value)``: appends to a list, or merges an object into an object;
  ``insert(path, key, value)`` inserts at a list index (``"-"`` is the end) or sets an object
  key. The parent must exist; a missing target is created.
- ``delete(path)``: removes the node (a list index is spliced out); ``delete(path, key)``
  removes a list element by index or by value, or an object key (or the n-th key).
- ``add(path, delta)``: a number plus a number; an ISO date plus milliseconds.
- ``move(from, to)``: detaches a node and puts it at ``to`` (whose parent must exist).

:func:`apply_to_room` applies operations to a room's tree and returns the events the turn
records (keeper-only: the tree is hidden from players until the keeper exposes it). The ids of
the room's declared module variables are not the tree's: an operation that would create or
change a top-level leaf of that name (``add /cult_alert`` in a reply's patch, a merge into the
root, a move) is refused, so a leaf never shadows the variable the keeper declared.
"""

from __future__ import annotations

import copy
import datetime
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lwcore.contributions import TreeOp
from lwcore.errors import LwError
from lwcore.turn.documents import Document

if TYPE_CHECKING:
    from lwcore.turn.room import Room

MVU_TYPE = "mvu"
MVU_ID = "mvu"
MAX_DEPTH = 32
MAX_LEAVES = 10_000
MAX_PATH = 1000
MAX_TREE_BYTES = 1_000_000
"""A tree bigger than this (compact JSON) refuses the writes that would make it so."""

Tree = dict[str, Any]
Segment = str | int


class TreeError(LwError):
    """An operation that cannot be done on this tree (the tree is left as it was)."""


# --- leaves --------------------------------------------------------------------------------


def is_described(value: Any) -> bool:
    """Whether ``value`` is an MVU ``[value, "description"]`` leaf."""
    return isinstance(value, list) and len(value) == 2 and isinstance(value[1], str) and not isinstance(value[0], (dict, list))


def value_of(leaf: Any) -> Any:
    return leaf[0] if is_described(leaf) else leaf


def leaves(tree: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every leaf as ``{"path", "value", "description"}`` (depth-first, in key order)."""
    out: list[dict[str, Any]] = []

    def walk(node: Any, path: list[Segment]) -> None:
        if len(path) > MAX_DEPTH or len(out) >= MAX_LEAVES:
            return
        if isinstance(node, Mapping):
            for key, child in node.items():
                walk(child, [*path, str(key)])
            return
        out.append({"path": show_path(path), "value": value_of(node),
                    "description": node[1] if is_described(node) else None})

    walk(tree, [])
    return out


def is_exposed(path: str, exposed: Sequence[str]) -> bool:
    """Whether ``path`` lies under one of the ``exposed`` prefixes (``*`` exposes all)."""
    for prefix in exposed:
        if prefix == "*" or path == prefix or path.startswith(prefix + ".") or path.startswith(prefix + "["):
            return True
    return False


def prune(tree: Mapping[str, Any], exposed: Sequence[str], prefix: Sequence[Segment] = ()) -> dict[str, Any]:
    """The tree with only the exposed leaves (structure kept, empty branches dropped)."""
    out: dict[str, Any] = {}
    for key, child in tree.items():
        path = [*prefix, str(key)]
        if isinstance(child, Mapping):
            kept = prune(child, exposed, path)
            if kept:
                out[key] = kept
        elif is_exposed(show_path(path), exposed):
            out[key] = copy.deepcopy(child)
    return out


# --- paths ---------------------------------------------------------------------------------

_INDEX = re.compile(r"\s*(-?\d+)\s*")
_PLAIN_KEY = re.compile(r"[^.\[\]\"'\s][^.\[\]]*")


def parse_path(path: str) -> list[Segment]:
    """A lodash path as segments (``int`` for a bracketed number, ``str`` otherwise).

    ``a.b``, ``a[0]``, ``a["x.y"]``, ``a['x']``, ``a.0``; a dotted segment wrapped in quotes
    (``a."x y".b``) is one key. The empty path is the root. :class:`TreeError` when the path
    is malformed or deeper than :data:`MAX_DEPTH`.
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
            found = _bracket(path, i)
            if found is None:
                raise TreeError(f"path {path!r}: unclosed '[' at {i + 1}")
            segment, i = found
            out.append(segment)
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
    if len(out) > MAX_DEPTH:
        raise TreeError(f"path {path[:60]!r}… is deeper than {MAX_DEPTH} keys")
    return out


def _bracket(path: str, i: int) -> tuple[Segment, int] | None:
    """The segment of the ``[…]`` at ``i`` and the index after it (``None``: not closed).

    In order: a number (``[ 0 ]``, ``[-1]``); a quoted key (``["x.y"]``, ``['a]b']``: a
    backslash keeps the next character, ``]`` may be inside) followed by ``]``; else the text up
    to the first ``]``, without the spaces around it. Linear in the path (one look at each
    character; a regex with three ways to read a run of spaces took seconds on ``[`` and spaces).
    """
    close = path.find("]", i + 1)
    if close >= 0:
        number = _INDEX.fullmatch(path, i + 1, close)
        if number is not None:
            return int(number.group(1)), close + 1
    j = i + 1
    while j < len(path) and path[j].isspace():
        j += 1
    if j < len(path) and path[j] in "\"'":
        quote = path[j]
        k = j + 1
        while k < len(path) and path[k] != quote:
            if path[k] == "\\":
                if k + 1 >= len(path) or path[k + 1] == "\n":
                    k = len(path)  # a backslash before a line break or the end: not a quoted key
                    break
                k += 1
            k += 1
        if k < len(path):
            end = k + 1
            while end < len(path) and path[end].isspace():
                end += 1
            if end < len(path) and path[end] == "]":
                body = path[j + 1:k]
                return _unquote(body, None) if quote == '"' else _unquote(None, body), end + 1
    if close < 0:
        return None
    return path[i + 1:close].strip(), close + 1


def _unquote(double: str | None, single: str | None) -> str:
    """The key inside ``"…"`` (JSON escapes) or ``'…'`` (a backslash keeps the next character)."""
    if double is not None:
        try:
            return str(json.loads(f'"{double}"'))
        except ValueError:
            return re.sub(r"\\(.)", r"\1", double)
    return re.sub(r"\\(.)", r"\1", single or "")


def pointer_path(pointer: str) -> list[Segment]:
    """A JSON Pointer (``/a/b/0``, with ``~1`` for ``/`` and ``~0`` for ``~``) as segments."""
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        return parse_path(pointer)
    return [part.replace("~1", "/").replace("~0", "~") for part in pointer[1:].split("/")]


def show_path(segments: Sequence[Segment]) -> str:
    """Segments back as a path :func:`parse_path` reads the same: ``a.b[0]``, and a key that
    holds dots, brackets, quotes or edge spaces in brackets (``a["x.y"]``)."""
    out = ""
    for s in segments:
        if isinstance(s, int):
            out += f"[{s}]"
        elif _PLAIN_KEY.fullmatch(s) and s == s.strip():
            out += f".{s}" if out else s
        else:
            out += "[" + json.dumps(s, ensure_ascii=False) + "]"
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


def lookup(tree: Any, segments: Sequence[Segment]) -> tuple[bool, Any]:
    """``(exists, node)`` at ``segments`` (the node as stored: a described leaf stays a pair)."""
    node = tree
    for segment in segments:
        found, node = _step(node, segment)
        if not found:
            return False, None
    return True, node


def get(tree: Mapping[str, Any], path: str, default: Any = None) -> Any:
    """The value at ``path`` (a described leaf's value), else ``default``."""
    found, node = lookup(tree, parse_path(path))
    return value_of(node) if found else default


def _thaw(tree: Any, segments: Sequence[Segment]) -> Any:
    """A new root sharing ``tree``'s data except the containers along ``segments`` (and the one
    at their end), which are fresh shallow copies an operation may change: copy on write, so
    an operation costs the containers on its path rather than the whole tree (a reply's 500
    commands on a 1 MB tree took 25 s when each copied the whole tree)."""
    if not isinstance(tree, (dict, list)):
        return copy.deepcopy(tree)
    root = copy.copy(tree)
    node = root
    for segment in segments:
        found, child = _step(node, segment)
        if not found or not isinstance(child, (dict, list)):
            break
        child = copy.copy(child)
        if isinstance(node, dict):
            node[str(segment)] = child
        else:
            node[_index(segment)] = child  # type: ignore[index]
        node = child
    return root


def _parent(tree: Any, segments: Sequence[Segment], path: str) -> Any:
    found, parent = lookup(tree, segments[:-1])
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


# --- the operations ------------------------------------------------------------------------


def op_set(tree: Tree, path: str, value: Any) -> Tree:
    segments = parse_path(path)
    if not segments:
        if not isinstance(value, dict):
            raise TreeError("the root can only be set to an object")
        return copy.deepcopy(value)
    new = _thaw(tree, segments)
    found, old = lookup(new, segments)
    if not found:
        raise TreeError(f"{path}: no such variable (set changes existing variables only)")
    _write_leaf(new, segments, old, copy.deepcopy(value), path)
    return new


def _write_leaf(tree: Tree, segments: Sequence[Segment], old: Any, value: Any, path: str) -> None:
    """Write ``value`` over ``old`` at ``segments``: a described leaf keeps its description,
    a number takes a numeric text as a number."""
    if is_described(old) and not isinstance(value, (dict, list)):
        old[0] = _as_number_like(old[0], value, path)
    else:
        _put(_parent(tree, segments, path), segments[-1], _as_number_like(old, value, path), path)


def op_put(tree: Tree, path: str, value: Any) -> Tree:
    """``set``, creating the branches that are missing (never replacing a value by a branch)."""
    segments = parse_path(path)
    if not segments:
        return op_set(tree, path, value)
    new = _thaw(tree, segments)
    node: Any = new
    for depth, segment in enumerate(segments[:-1]):
        found, child = _step(node, segment)
        if not found or child is None:
            if not isinstance(node, dict):
                raise TreeError(f"{path}: {show_path(segments[:depth + 1])} does not exist in a list")
            child = node[str(segment)] = {}
        elif not isinstance(child, (dict, list)):
            raise TreeError(f"{path}: {show_path(segments[:depth + 1])} holds a value, not a branch")
        node = child
    found, old = _step(node, segments[-1])
    value = copy.deepcopy(value)
    if found:
        _write_leaf(new, segments, old, value, path)
    else:
        _put(node, segments[-1], value, path)
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
    new = _thaw(tree, segments)
    found, target = lookup(new, segments)
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
    """lodash ``merge``: objects merge recursively, everything else replaces (each object
    merged into is copied first: it may be shared with the tree before the operation)."""
    for k, v in value.items():
        if isinstance(v, dict) and isinstance(into.get(k), dict):
            into[k] = dict(into[k])
            _merge(into[k], v)
        else:
            into[k] = v


def op_delete(tree: Tree, path: str, *args: Any) -> Tree:
    if len(args) > 1:
        raise TreeError(f"delete takes at most a key after the path (got {len(args)} arguments)")
    segments = parse_path(path)
    if not segments:
        raise TreeError("the root cannot be deleted")
    new = _thaw(tree, segments)
    found, target = lookup(new, segments)
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
    new = _thaw(tree, segments)
    found, node = lookup(new, segments)
    if not found:
        raise TreeError(f"{path}: no such variable")
    described = is_described(node)
    current = node[0] if described else node
    if isinstance(delta, str):
        number = _number_text(delta)
        if number is None:
            raise TreeError(f"{path}: {delta!r} is not a number")
        delta = number
    if not _is_number(delta) or not math.isfinite(delta):
        raise TreeError(f"{path}: the amount {delta!r} is not a number")
    if isinstance(current, str) and ISO_DATE.match(current.strip()):
        result: Any = add_milliseconds(current.strip(), delta)
    elif _is_number(current):
        result = current + delta
        if isinstance(result, float):
            if not math.isfinite(result):
                raise TreeError(f"{path}: {current} + {delta} is not a finite number")
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
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        raise TreeError(f"{iso!r} is not a date") from None
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
    new = _thaw(op_delete(tree, source), dst)
    _, moved = lookup(tree, src)
    _put(_parent(new, dst, target), dst[-1], copy.deepcopy(moved), target)
    return new


OPERATIONS = {"set": op_set, "put": op_put, "insert": op_insert, "delete": op_delete, "add": op_add, "move": op_move}
ALIASES = {"assign": "insert", "remove": "delete", "unset": "delete"}
"""MVU's other names for the operations."""


def set_value(tree: dict[str, Any], path: str, value: Any) -> Any:
    """``put`` in place: set ``path`` to ``value`` creating branches (a described leaf keeps
    its description). Returns the value before (``None`` when new)."""
    before = get(tree, path)
    new = op_put(tree, path, value)
    tree.clear()
    tree.update(new)
    return before


# --- operations as data --------------------------------------------------------------------


@dataclass(frozen=True)
class OpOutcome:
    """What one operation did: applied, or skipped and why."""

    op: TreeOp
    applied: bool
    reason: str = ""


def apply_ops(tree: Tree, ops: Sequence[TreeOp]) -> tuple[Tree, list[OpOutcome]]:
    """Apply ``ops`` in order to a copy of ``tree``; an operation that cannot be done is
    skipped and reported, the others still apply. ``tree`` is never changed; the result shares
    the parts no operation touched with it (copy on write), so do not change ``tree`` in place
    afterwards while the result is in use."""
    current = tree
    outcomes: list[OpOutcome] = []
    for op in ops:
        name = ALIASES.get(op.op, op.op)
        function = OPERATIONS.get(name)
        if function is None:
            outcomes.append(OpOutcome(op, False, f"unknown operation {op.op!r}"))
            continue
        try:
            current = function(current, op.path, *op.args)
        except TreeError as exc:
            outcomes.append(OpOutcome(op, False, exc.message))
        except TypeError as exc:  # wrong number of arguments
            outcomes.append(OpOutcome(op, False, f"{name}: {exc}"))
        else:
            outcomes.append(OpOutcome(op, True))
    return current, outcomes


def tree_of(room: Room) -> Tree:
    """A copy of the room's tree (empty when the room has none)."""
    doc = room.documents.get(MVU_TYPE, MVU_ID)
    tree = doc.data.get("tree") if doc is not None else None
    return copy.deepcopy(dict(tree)) if isinstance(tree, Mapping) else {}


def script_state(room: Room) -> Tree:
    """What scripts and templates see as ``variables``/``stat_data``: the room's tree, with every
    declared module variable at the top by its id (they are the keeper's content)."""
    tree = tree_of(room)
    for var in room.variables.variables:
        tree[var.id] = var.value
    return tree


def store_tree(room: Room, tree: Tree) -> None:
    """Make ``tree`` the room's tree (the exposed prefixes and the document's meta kept)."""
    doc = room.documents.get(MVU_TYPE, MVU_ID)
    data = {"tree": {}, "exposed": []} if doc is None else dict(doc.data)
    room.documents.put(Document(MVU_ID, MVU_TYPE, {**data, "tree": tree}, meta=dict(doc.meta) if doc else {}))


def _shown(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False) if isinstance(value, (dict, list, str)) else str(value)


def apply_to_room(room: Room, ops: Sequence[TreeOp], *, by: str) -> list[dict[str, Any]]:
    """Apply ``ops`` to the room's tree; return one keeper-only event per operation: ``tree``
    (with ``path``, ``before``, ``value``) for a done one, ``tree_refused`` (with the reason)
    for one that could not be done. ``by`` names the writer in each event. A batch that
    would grow the tree past :data:`MAX_TREE_BYTES`, or that ``docs/mvu.yaml`` could not be read
    back with (nested too deep), is refused whole. An operation that would create or change a
    top-level leaf named like a declared module variable is refused (the tree never shadows a
    declared id; removing such a leaf is fine)."""
    if not ops:
        return []
    original = state = tree_of(room)
    declared = {var.id for var in room.variables.variables}
    events: list[dict[str, Any]] = []
    for op in ops:
        was = _safe_get(state, op.path)
        before = state
        state, (outcome,) = apply_ops(state, [op])
        shadowed = sorted(d for d in declared if d in state and (d not in before or state[d] != before[d]))
        if outcome.applied and shadowed:
            state = before
            outcome = OpOutcome(op, False, f"{', '.join(shadowed)} is a declared variable of the room, not a leaf "
                                           "of the tree (its own tools write it)")
        if not outcome.applied:
            events.append(_refused(op, outcome.reason, by))
            continue
        name = ALIASES.get(op.op, op.op)
        now = _safe_get(state, str(op.args[0]) if name == "move" and op.args else op.path)
        events.append({"kind": "tree", "audience": "keeper", "op": name, "path": op.path, "before": was,
                       "value": now, "by": by,
                       "summary": f"{op.path}: {_shown(was)} → {_shown(now)}" + (f" ({op.reason})" if op.reason else "")})
    if state == original:
        return events
    if len(json.dumps(state, ensure_ascii=False)) > MAX_TREE_BYTES:
        reason = f"the variable tree would pass {MAX_TREE_BYTES:,} bytes"
        return [_refused(op, reason, by) for op in ops]
    try:
        store_tree(room, state)
    except LwError as exc:  # a tree its file could not be read back with (nested too deep …)
        return [_refused(op, exc.message, by) for op in ops]
    return events


def _refused(op: TreeOp, reason: str, by: str) -> dict[str, Any]:
    return {"kind": "tree_refused", "audience": "keeper", "op": op.op, "path": op.path, "by": by,
            "summary": f"{by}: {op.op} {op.path} refused: {reason}"}


def _safe_get(tree: Tree, path: str) -> Any:
    try:
        return get(tree, path)
    except TreeError:
        return None
