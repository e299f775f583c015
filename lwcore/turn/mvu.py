"""A room's MVU variable tree: imported cards' module state, kept as plain nested data.

Cards built on the community MVU framework keep their state in one nested tree (``{"世界":
{"时间": "1925-01-03"}, "主角": {"好感": [30, "对你的好感"]}}``). Loreweaver keeps it as the
``mvu`` document of the room (``docs/mvu.yaml``): the tree plus the path prefixes the keeper
exposed to players. Paths are dot-separated keys (``主角.好感``); a leaf written as
``[value, "description"]`` is a value with its description. Every write goes through the
functions here (iron rule 1: code applies state, the model only asks).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from lwcore.errors import LwError

MAX_DEPTH = 32
MAX_LEAVES = 10_000


def split(path: str) -> list[str]:
    """``a.b.c`` -> ``["a", "b", "c"]``; an empty part is an error."""
    parts = [p.strip() for p in str(path).split(".")]
    if not path or any(not p for p in parts) or len(parts) > MAX_DEPTH:
        raise LwError(f"{path!r} is not a variable path", expected="keys joined by dots, e.g. 主角.好感")
    return parts


def is_described(value: Any) -> bool:
    """Whether ``value`` is an MVU ``[value, "description"]`` leaf."""
    return isinstance(value, list) and len(value) == 2 and isinstance(value[1], str) and not isinstance(value[0], (dict, list))


def value_of(leaf: Any) -> Any:
    return leaf[0] if is_described(leaf) else leaf


def leaves(tree: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every leaf as ``{"path", "value", "description"}`` (depth-first, in key order)."""
    out: list[dict[str, Any]] = []

    def walk(node: Any, prefix: str, depth: int) -> None:
        if depth > MAX_DEPTH or len(out) >= MAX_LEAVES:
            return
        if isinstance(node, Mapping):
            for key, child in node.items():
                walk(child, f"{prefix}.{key}" if prefix else str(key), depth + 1)
            return
        out.append({"path": prefix, "value": value_of(node),
                    "description": node[1] if is_described(node) else None})

    walk(tree, "", 0)
    return out


def is_exposed(path: str, exposed: list[str]) -> bool:
    """Whether ``path`` lies under one of the ``exposed`` prefixes (``*`` exposes all)."""
    for prefix in exposed:
        if prefix == "*" or path == prefix or path.startswith(prefix + "."):
            return True
    return False


def prune(tree: Mapping[str, Any], exposed: list[str], prefix: str = "") -> dict[str, Any]:
    """The tree with only the exposed leaves (structure kept, empty branches dropped)."""
    out: dict[str, Any] = {}
    for key, child in tree.items():
        path = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(child, Mapping):
            kept = prune(child, exposed, path)
            if kept:
                out[key] = kept
        elif is_exposed(path, exposed):
            out[key] = copy.deepcopy(child)
    return out


def get(tree: Mapping[str, Any], path: str, default: Any = None) -> Any:
    node: Any = tree
    for part in split(path):
        if not isinstance(node, Mapping) or part not in node:
            return default
        node = node[part]
    return value_of(node)


def set_value(tree: dict[str, Any], path: str, value: Any) -> Any:
    """Set ``path`` to ``value`` (creating branches; a described leaf keeps its description).
    Returns the value before (``None`` when new)."""
    parts = split(path)
    node: dict[str, Any] = tree
    for part in parts[:-1]:
        child = node.get(part)
        if not isinstance(child, dict):
            if child is not None:
                raise LwError(f"{path!r}: {part!r} holds a value, not a branch")
            child = node[part] = {}
        node = child
    before = node.get(parts[-1])
    if is_described(before) and not isinstance(value, (dict, list)):
        node[parts[-1]] = [value, before[1]]
    else:
        node[parts[-1]] = value
    return value_of(before)


def delete(tree: dict[str, Any], path: str) -> bool:
    parts = split(path)
    node: Any = tree
    for part in parts[:-1]:
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    if isinstance(node, dict) and parts[-1] in node:
        del node[parts[-1]]
        return True
    return False
