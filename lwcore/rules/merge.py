"""``extends:`` — the deterministic deep merge of a patch over its parent.

Rules: the child wins; mappings merge recursively; an explicit ``null`` in the child deletes
the inherited key; lists (and every other value) replace the parent's whole.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from lwcore.io.safe_yaml import PathKey, Positions

MAX_EXTENDS_DEPTH = 4
"""How many ``extends`` hops a chain may take (child -> parent -> … -> great-great-parent)."""


def deep_merge(parent: Any, child: Any) -> Any:
    """Return a new value: ``child`` merged over ``parent`` (neither is modified)."""
    if isinstance(parent, Mapping) and isinstance(child, Mapping):
        out = {k: copy.deepcopy(v) for k, v in parent.items()}
        for key, value in child.items():
            if value is None:
                out.pop(key, None)
            elif key in out:
                out[key] = deep_merge(out[key], value)
            else:
                out[key] = _strip_nulls(value)
        return out
    return _strip_nulls(child)


def _strip_nulls(value: Any) -> Any:
    """A fresh copy of a child's value; nulls inside new mappings delete nothing, so drop them."""
    if isinstance(value, Mapping):
        return {k: _strip_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [copy.deepcopy(v) for v in value]
    return copy.deepcopy(value)


def merge_positions(parent: Positions, child: Positions, child_data: Mapping[str, Any]) -> Positions:
    """Positions of the merged document: the child's where it set a value, else the parent's.

    Under a path the child *replaced* (a list or a scalar), the parent's positions are dropped.
    """
    out = Positions()
    replaced: list[PathKey] = []

    def walk(value: Any, path: PathKey) -> None:
        if isinstance(value, Mapping):
            for key, sub in value.items():
                walk(sub, path + (key,))
        else:
            replaced.append(path)

    walk(child_data, ())
    for table_name in ("values", "keys"):
        src = getattr(parent, table_name)
        dst = getattr(out, table_name)
        for path, pos in src.items():
            if not any(path[: len(r)] == r and len(path) > len(r) for r in replaced):
                dst[path] = pos
    out.overlay(child)
    return out
