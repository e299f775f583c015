"""MagVarUpdate's operations on a room's variable tree: the MVU semantics, as the tavern plugin's.

An MVU command (``_.set``, ``_.insert``/``_.assign``, ``_.delete``/``_.remove``/``_.unset``,
``_.add``, ``_.move``; a JSON Patch's ops) becomes an :class:`Op`; each op is a pure function
from the tree before to the tree after, or a :class:`~lwcore.turn.tree.TreeError` saying why
nothing was done. A room hands them to the kernel as :class:`~lwcore.contributions.TreeChange`
values (:func:`change`), which it checks (limits, the declared-variable rule) and records.

- ``set(path, value)``: the path must exist; a ``[value, "description"]`` leaf keeps its
  description; a number leaf takes a numeric text as a number (other text is refused).
- ``put(path, value)``: ``set`` that creates missing branches.
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from lwcore.api import (
    Tree,
    TreeChange,
    TreeError,
    TreeSegment as Segment,
    tree_get as get,
    tree_index_of as _index,
    tree_is_described as is_described,
    tree_lookup as lookup,
    tree_new_root as new_root,
    tree_open_branch as open_branch,
    tree_parent_of as _parent,
    tree_parse_path as parse_path,
    tree_place as _put,
    tree_show_path as show_path,
    tree_step as _step,
    tree_thaw as _thaw,
)

__all__ = ["ALIASES", "OPERATIONS", "Op", "OpOutcome", "apply_ops", "change", "pointer_path", "show_path"]


@dataclass(frozen=True)
class Op:
    """One MVU operation as data: ``op`` (a name of :data:`OPERATIONS` or an alias), ``path``
    (a lodash path), ``args`` (what follows the path), ``reason`` (why; shown to the keeper)."""

    op: str
    path: str
    args: tuple[Any, ...] = ()
    reason: str = ""


def pointer_path(pointer: str) -> list[Segment]:
    """A JSON Pointer (``/a/b/0``, with ``~1`` for ``/`` and ``~0`` for ``~``) as segments."""
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        return parse_path(pointer)
    return [part.replace("~1", "/").replace("~0", "~") for part in pointer[1:].split("/")]


# --- the operations ------------------------------------------------------------------------


def op_set(tree: Tree, path: str, value: Any) -> Tree:
    segments = parse_path(path)
    if not segments:
        return new_root(value)
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
    new, node = open_branch(tree, segments, path)
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


OPERATIONS: dict[str, Callable[..., Tree]] = {"set": op_set, "put": op_put, "insert": op_insert, "delete": op_delete, "add": op_add, "move": op_move}
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


@dataclass(frozen=True)
class OpOutcome:
    """What one operation did: applied, or skipped and why."""

    op: Op
    applied: bool
    reason: str = ""


def apply_ops(tree: Tree, ops: Sequence[Op]) -> tuple[Tree, list[OpOutcome]]:
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


def change(op: Op) -> TreeChange:
    """``op`` as a change the kernel checks, makes and records (an unknown name, or the wrong
    number of arguments, is refused when it is made)."""
    name = ALIASES.get(op.op, op.op)
    function = OPERATIONS.get(name)

    def run(tree: Tree) -> Tree:
        if function is None:
            raise TreeError(f"unknown operation {op.op!r}")
        try:
            return function(tree, op.path, *op.args)
        except TypeError as exc:  # wrong number of arguments
            raise TreeError(f"{name}: {exc}") from None

    shows = str(op.args[0]) if name == "move" and op.args else None
    return TreeChange(name if function is not None else op.op, op.path, run, op.reason, shows)
