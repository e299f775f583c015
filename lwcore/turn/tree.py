"""A room's variable tree: plain nested data that scripts, replies and tools write, kept by the kernel.

Imported content often keeps its state in one nested tree (``{"世界": {"时间": "1925-01-03"},
"主角": {"好感": 30}}``) rather than as declared module variables. The kernel keeps it as a
document of the room (type ``mvu``, ``docs/mvu.yaml``: the name rooms have always stored it
under): the tree plus the path prefixes the keeper exposed to players. What the kernel owns is
what is not any format's: the storage, lodash **paths** (:func:`parse_path`, :func:`show_path`:
what scripts' ``setvar`` and the panels use), reading (:func:`lookup`, :func:`get`,
:func:`leaves`; a leaf stored as ``[value, "description"]`` is shown as its value with that
description), **exposure** to players (:func:`is_exposed`, :func:`prune`), the **limits**, and
the **checks and records** of every write (iron rule 1: code applies state; the model, scripts
and plugins only ask).

**Changes.** A writer hands the kernel :class:`~lwcore.contributions.TreeChange` values: a pure
function from the tree before to the tree after, with the path it writes and its name for the
record. A plugin brings its format's semantics that way (a card format's update operations,
with their own rules for leaves and lists); the kernel's own writers use the generic changes here: :func:`put`
(set a node, creating branches), :func:`replace` (an existing node only), :func:`remove` and
:func:`add` (a number plus a number; a missing one starts at 0). :func:`apply_changes` applies
them to a room in order and returns the events the turn records (keeper-only: the tree is
hidden from players until the keeper exposes it). Each change is checked: one that raises
:class:`TreeError` is refused (the others still apply); the ids of the room's declared module
variables are not the tree's, so a change that would create or change a top-level leaf of that
name is refused (a leaf never shadows the variable the keeper declared); a batch that would grow
the tree past :data:`MAX_TREE_BYTES`, or that ``docs/mvu.yaml`` could not be read back with, is
refused whole.
"""

from __future__ import annotations

import copy
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lwcore.contributions import TreeChange
from lwcore.errors import LwError
from lwcore.turn.documents import Document

if TYPE_CHECKING:
    from lwcore.turn.room import Room

MVU_TYPE = "mvu"
MVU_ID = "mvu"
"""The tree's document type and id (``docs/mvu.yaml``): the storage name rooms already use."""
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
            node[_index(segment)] = child  # type: ignore[index]  # node is a list on this branch (the dict case is above)
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


# --- the kernel's generic changes -------------------------------------------------------------


def thaw(tree: Any, segments: Sequence[Segment]) -> Any:
    """A new root sharing ``tree``'s data except the containers along ``segments`` (copy on write:
    a change costs the containers on its path, not the whole tree). For writers' changes."""
    return _thaw(tree, segments)


def parent_of(tree: Any, segments: Sequence[Segment], path: str) -> Any:
    """The container holding ``segments``' last key; :class:`TreeError` when it is missing."""
    return _parent(tree, segments, path)


def place(parent: Any, segment: Segment, value: Any, path: str) -> None:
    """Set ``segment`` of ``parent`` (an object's key; a list's index, or its end)."""
    _put(parent, segment, value, path)


def step(node: Any, segment: Segment) -> tuple[bool, Any]:
    """``(found, child)`` one step down (a numeric text indexes a list, as lodash steps)."""
    return _step(node, segment)


def index_of(segment: Segment) -> int | None:
    """``segment`` as a list index, or ``None``."""
    return _index(segment)


def open_branch(tree: Tree, segments: Sequence[Segment], path: str) -> tuple[Tree, Any]:
    """A copy of ``tree`` thawed along ``segments`` (non-empty) and the node that holds the last
    segment, creating each missing branch as an object on the way. Raises :class:`TreeError`
    (naming ``path``) where a missing branch would sit in a list or a value stands in the way: a
    value is never turned into a branch. Every writer that creates branches walks through here."""
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
    return new, node


def new_root(value: Any) -> Tree:
    """The tree that writing ``value`` at the root (the empty path) makes: a copy of it, which
    must be an object (:class:`TreeError` otherwise). Every writer of the root goes through here."""
    if not isinstance(value, dict):
        raise TreeError("the root can only be set to an object")
    return copy.deepcopy(value)


def _put_value(tree: Tree, path: str, value: Any) -> Tree:
    segments = parse_path(path)
    if not segments:
        return new_root(value)
    new, node = open_branch(tree, segments, path)
    found, old = _step(node, segments[-1])
    value = copy.deepcopy(value)
    if found and is_described(old) and not isinstance(value, (dict, list)):
        value = [value, old[1]]  # a leaf stored with its description keeps it
    _put(node, segments[-1], value, path)
    return new


def _replace_value(tree: Tree, path: str, value: Any) -> Tree:
    segments = parse_path(path)
    found, _ = lookup(tree, segments)
    if not found:
        raise TreeError(f"{path}: no such variable")
    return _put_value(tree, path, value)


def _remove_value(tree: Tree, path: str) -> Tree:
    segments = parse_path(path)
    if not segments:
        raise TreeError("the root cannot be removed")
    new = _thaw(tree, segments)
    found, _ = lookup(new, segments)
    if not found:
        raise TreeError(f"{path}: no such variable")
    parent = _parent(new, segments, path)
    if isinstance(parent, dict):
        del parent[str(segments[-1])]
    else:
        del parent[_index(segments[-1])]
    return new


def _add_value(tree: Tree, path: str, delta: Any) -> Tree:
    if isinstance(delta, bool) or not isinstance(delta, (int, float)) or not math.isfinite(delta):
        raise TreeError(f"{path}: the amount {delta!r} is not a number")
    found, node = lookup(tree, parse_path(path))
    current = value_of(node) if found else 0
    if isinstance(current, bool) or not isinstance(current, (int, float)):
        raise TreeError(f"{path}: holds {current!r}, not a number")
    result = current + delta
    if isinstance(result, float):
        if not math.isfinite(result):
            raise TreeError(f"{path}: {current} + {delta} is not a finite number")
        result = float(f"{result:.12g}")
    return _put_value(tree, path, result)


def put(path: str, value: Any, *, reason: str = "") -> TreeChange:
    """Set ``path`` to ``value``, creating missing branches (never turning a value into a branch;
    a leaf stored as ``[value, "description"]`` keeps its description when a value is written)."""
    return TreeChange("put", path, lambda tree: _put_value(tree, path, value), reason)


def replace(path: str, value: Any, *, reason: str = "") -> TreeChange:
    """Set ``path``, which must exist, to ``value``."""
    return TreeChange("replace", path, lambda tree: _replace_value(tree, path, value), reason)


def remove(path: str, *, reason: str = "") -> TreeChange:
    """Remove the node at ``path`` (a list element is spliced out)."""
    return TreeChange("remove", path, lambda tree: _remove_value(tree, path), reason)


def add(path: str, delta: float, *, reason: str = "") -> TreeChange:
    """Add ``delta`` to the number at ``path`` (a missing one starts at 0; a leaf stored with a
    description keeps it)."""
    return TreeChange("add", path, lambda tree: _add_value(tree, path, delta), reason)


# --- applying changes ------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """What one change did: applied, or refused and why."""

    change: TreeChange
    applied: bool
    reason: str = ""


def apply(tree: Tree, changes: Sequence[TreeChange]) -> tuple[Tree, list[Outcome]]:
    """Apply ``changes`` in order to ``tree`` (never changed: each change returns a new tree); a
    change that raises :class:`TreeError` (or breaks its contract: a ``TypeError``, a result that
    is no object) is refused and reported, the others still apply."""
    current = tree
    outcomes: list[Outcome] = []
    for change in changes:
        try:
            result = change.apply(current)
        except TreeError as exc:
            outcomes.append(Outcome(change, False, exc.message))
            continue
        except (TypeError, ValueError, KeyError, IndexError, RecursionError) as exc:
            outcomes.append(Outcome(change, False, f"{change.op}: {exc}"))
            continue
        if not isinstance(result, dict):
            outcomes.append(Outcome(change, False, f"{change.op}: the change gave {type(result).__name__}, not a tree"))
            continue
        current = result
        outcomes.append(Outcome(change, True))
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


def apply_changes(room: Room, changes: Sequence[TreeChange], *, by: str) -> list[dict[str, Any]]:
    """Apply ``changes`` to the room's tree; return one keeper-only event per change: ``tree``
    (with ``op``, ``path``, ``before``, ``value``) for a done one, ``tree_refused`` (with the
    reason) for one that could not be done. ``by`` names the writer in each event. The checks
    are the module docstring's."""
    if not changes:
        return []
    original = state = tree_of(room)
    declared = {var.id for var in room.variables.variables}
    events: list[dict[str, Any]] = []
    for change in changes:
        was = _safe_get(state, change.path)
        before = state
        state, (outcome,) = apply(state, [change])
        shadowed = sorted(d for d in declared if d in state and (d not in before or state[d] != before[d]))
        if outcome.applied and shadowed:
            state = before
            outcome = Outcome(change, False, f"{', '.join(shadowed)} is a declared variable of the room, not a leaf "
                                             "of the tree (its own tools write it)")
        if not outcome.applied:
            events.append(_refused(change, outcome.reason, by))
            continue
        now = _safe_get(state, change.shows if change.shows is not None else change.path)
        events.append({"kind": "tree", "audience": "keeper", "op": change.op, "path": change.path, "before": was,
                       "value": now, "by": by,
                       "summary": (f"{change.path}: {_shown(was)} → {_shown(now)}" if was is not None
                                   else f"{change.path} = {_shown(now)}")
                                  + (f" ({change.reason})" if change.reason else "")})
    if state == original:
        return events
    if len(json.dumps(state, ensure_ascii=False)) > MAX_TREE_BYTES:
        reason = f"the variable tree would pass {MAX_TREE_BYTES:,} bytes"
        return [_refused(change, reason, by) for change in changes]
    try:
        store_tree(room, state)
    except LwError as exc:  # a tree its file could not be read back with (nested too deep …)
        return [_refused(change, exc.message, by) for change in changes]
    return events


def _refused(change: TreeChange, reason: str, by: str) -> dict[str, Any]:
    return {"kind": "tree_refused", "audience": "keeper", "op": change.op, "path": change.path, "by": by,
            "summary": f"{by}: {change.op} {change.path} refused: {reason}"}


def _safe_get(tree: Tree, path: str) -> Any:
    try:
        return get(tree, path)
    except TreeError:
        return None
