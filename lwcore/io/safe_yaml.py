"""The one YAML reader of the project: limits, strict tags, duplicate keys refused, positions.

PyYAML (its C parser when present) composes the node graph; this module builds the Python
values itself so that it can:

- bound the work: nesting deeper than ``limits.max_depth`` and documents that expand to more
  than ``limits.max_nodes`` values (an alias bomb: a few hundred bytes of nested anchors
  expanding to billions of values) are refused as soon as the bound is passed; a recursive
  alias (``&a [*a]``) is refused;
- refuse what it would otherwise guess: a duplicate mapping key (PyYAML keeps the last one),
  an unknown or language-specific tag (``!!python/object/apply:…``, ``!custom``), a
  non-finite number (``.nan``, ``.inf``) unless the caller allows it, a mapping or list used
  as a key;
- give every value a fresh object (an alias is copied, never shared), so a caller may
  mutate what it read;
- remember where each value and key came from (:class:`Positions`) for located diagnostics.

Timestamps (``2024-01-01``) stay the text they were written as: our formats never mean a
date object. Merge keys (``<<: *base``) are honoured the way YAML 1.1 defines them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, overload

from lwcore.errors import LwError
from lwcore.io.limits import YAML_LIMITS, Limits
from lwcore.io.text import read_bytes, source_text

PathKey = tuple[Any, ...]
"""A path into a document: mapping keys and list indexes from the top."""

_STD = "tag:yaml.org,2002:"
_MAP = _STD + "map"
_SEQ = _STD + "seq"
_STR = _STD + "str"
_MERGE = _STD + "merge"
_TIMESTAMP = _STD + "timestamp"
_SCALARS = frozenset(_STD + t for t in ("str", "int", "float", "bool", "null"))
_INT = _STD + "int"
_INT_BITS_MAX = 4096
"""An integer longer than this (1233 decimal digits) is refused: a hexadecimal or binary one reads,
but Python cannot write it back as decimal text (its 4300-digit limit), so every later print fails."""


def _shown(value: str) -> str:
    """A scalar quoted for a message: its first 40 characters, an ellipsis for the rest."""
    return repr(value[:40]) + ("…" if len(value) > 40 else "")


@dataclass(frozen=True, slots=True)
class Position:
    """Where a value starts: 1-based line and column, and its scalar style (``'``, ``"`` …)."""

    file: str | None
    line: int
    column: int
    style: str | None = None

    def inside(self, offset: int) -> tuple[int, int]:
        """``(line, column)`` of the 1-based character ``offset`` of a one-line scalar."""
        quote = 1 if self.style in ("'", '"') else 0
        return self.line, self.column + quote + offset - 1


class Positions:
    """Value and key positions of one (possibly merged) document."""

    def __init__(self) -> None:
        self.values: dict[PathKey, Position] = {}
        self.keys: dict[PathKey, Position] = {}

    def overlay(self, other: Positions, prefix: PathKey = ()) -> None:
        """Copy ``other``'s positions over ours (``other`` wins), under ``prefix``."""
        for path, pos in other.values.items():
            self.values[prefix + path] = pos
        for path, pos in other.keys.items():
            self.keys[prefix + path] = pos

    def find(self, path: Iterable[Any], key: bool = False) -> Position | None:
        """The position of ``path`` or of its nearest located ancestor."""
        parts = tuple(path)
        table = self.keys if key else self.values
        while True:
            pos = table.get(parts) or (self.values.get(parts) if key else None)
            if pos is not None or not parts:
                return pos
            parts = parts[:-1]

    @classmethod
    def of_file(cls, file: str | None) -> Positions:
        """Positions for data that did not come from a YAML text: everything is ``file``."""
        positions = cls()
        positions.values[()] = Position(file, 0, 0)
        return positions


def _yaml() -> Any:
    import yaml

    return yaml


@overload
def load_yaml(
    source: str | bytes, file: str | Path | None = ..., *, limits: Limits = ..., positions: Literal[False] = ...
) -> Any: ...


@overload
def load_yaml(
    source: str | bytes, file: str | Path | None = ..., *, limits: Limits = ..., positions: Literal[True]
) -> tuple[Any, Positions]: ...


def load_yaml(
    source: str | bytes,
    file: str | Path | None = None,
    *,
    limits: Limits = YAML_LIMITS,
    positions: bool = False,
) -> Any:
    """Parse one YAML document (an empty document is ``None``).

    Returns the data, or ``(data, Positions)`` with ``positions=True``. Every problem is a
    located :class:`LwError` (code ``syntax``, ``limit``, ``encoding``, ``tag``,
    ``duplicate_key`` or ``value``).
    """
    name = str(file) if file is not None else None
    text = source_text(source, name, max_bytes=limits.max_bytes, what="YAML")
    builder = _Builder(name, limits, Positions() if positions else None)
    node = _compose(text, name)
    data = None if node is None else builder.build(node, (), 0)
    if positions:
        assert builder.positions is not None
        return data, builder.positions
    return data


def read_yaml(
    path: str | Path, *, limits: Limits = YAML_LIMITS, positions: bool = False
) -> Any:
    """:func:`load_yaml` of a file (size checked before it is read whole)."""
    return load_yaml(read_bytes(path, max_bytes=limits.max_bytes), path, limits=limits, positions=positions)  # type: ignore[call-overload]  # the overloads split on a literal positions; this passes the caller's bool through


def _compose(text: str, name: str | None) -> Any:
    yaml = _yaml()
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        return yaml.compose(text, Loader=loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        raise LwError(
            f"invalid YAML: {problem}",
            file=name,
            line=mark.line + 1 if mark else None,
            column=mark.column + 1 if mark else None,
            code="limit" if "nesting depth" in problem else "syntax",
        ) from None
    except yaml.YAMLError as exc:
        raise LwError(f"invalid YAML: {exc}", file=name, code="syntax") from None
    except RecursionError:
        raise LwError("YAML nested too deeply", file=name, code="limit") from None


class _Builder:
    """Builds plain Python values from a composed node graph, within :class:`Limits`."""

    def __init__(self, file: str | None, limits: Limits, positions: Positions | None) -> None:
        self.file = file
        self.limits = limits
        self.positions = positions
        self.count = 0
        self.active: set[int] = set()
        self._constructor: Any = None

    def fail(self, node: Any, message: str, code: str) -> LwError:
        mark = node.start_mark
        return LwError(message, file=self.file, line=mark.line + 1, column=mark.column + 1, code=code)

    def position(self, node: Any) -> Position:
        mark = node.start_mark
        return Position(self.file, mark.line + 1, mark.column + 1, getattr(node, "style", None))

    def build(self, node: Any, path: PathKey, depth: int) -> Any:
        self.count += 1
        if self.count > self.limits.max_nodes:
            raise self.fail(
                node,
                f"YAML expands to more than {self.limits.max_nodes} values "
                "(nested aliases? an alias bomb is refused)",
                "limit",
            )
        if self.positions is not None:
            self.positions.values[path] = self.position(node)
        yaml = _yaml()
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node)
        if depth > self.limits.max_depth:
            raise self.fail(node, f"YAML nested deeper than {self.limits.max_depth} levels", "limit")
        key = id(node)
        if key in self.active:
            raise self.fail(node, "recursive alias (a value that contains itself)", "limit")
        self.active.add(key)
        try:
            if isinstance(node, yaml.MappingNode):
                if node.tag != _MAP:
                    raise self.unknown_tag(node)
                return self.mapping(node, path, depth)
            if node.tag != _SEQ:
                raise self.unknown_tag(node)
            return [self.build(item, path + (i,), depth + 1) for i, item in enumerate(node.value)]
        finally:
            self.active.discard(key)

    def unknown_tag(self, node: Any) -> LwError:
        return self.fail(node, f"unsupported YAML tag {node.tag!r}", "tag")

    def scalar(self, node: Any) -> Any:
        if node.tag == _TIMESTAMP:
            return node.value
        if node.tag not in _SCALARS:
            raise self.unknown_tag(node)
        if node.tag == _STR:
            return node.value
        if self._constructor is None:
            self._constructor = _yaml().constructor.SafeConstructor()
        try:
            value = self._constructor.construct_object(node, deep=True)
        except Exception as exc:  # noqa: BLE001 - any constructor failure is bad input
            if node.tag == _INT:  # the resolver read an integer: only its length can fail (Python's digit limit)
                raise self.too_large(node) from None
            raise self.fail(node, f"invalid YAML value {_shown(node.value)}: {exc}", "value") from None
        if isinstance(value, float) and not math.isfinite(value) and not self.limits.allow_nonfinite:
            raise self.fail(node, f"{_shown(node.value)} is not a finite number", "value")
        if isinstance(value, int) and value.bit_length() > _INT_BITS_MAX:
            raise self.too_large(node)
        return value

    def too_large(self, node: Any) -> LwError:
        return self.fail(node, f"{_shown(node.value)} is too large a number (over {_INT_BITS_MAX} bits)", "value")

    def mapping(self, node: Any, path: PathKey, depth: int) -> dict[Any, Any]:
        yaml = _yaml()
        explicit: dict[Any, Any] = {}
        first_at: dict[Any, Any] = {}
        merged: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE:
                for source in self.merge_sources(value_node, path, depth):
                    for k, v in source.items():
                        merged.setdefault(k, v)
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                raise self.fail(key_node, "a mapping key must be a plain value, not a mapping or list", "value")
            key = self.scalar(key_node)
            if key in first_at:
                first = first_at[key].start_mark
                raise self.fail(
                    key_node, f"duplicate key {key!r} (first at line {first.line + 1})", "duplicate_key"
                )
            first_at[key] = key_node
            if self.positions is not None:
                self.positions.keys[path + (key,)] = self.position(key_node)
            explicit[key] = self.build(value_node, path + (key,), depth + 1)
        if not merged:
            return explicit
        out = {k: v for k, v in merged.items() if k not in explicit}
        out.update(explicit)
        return out

    def merge_sources(self, node: Any, path: PathKey, depth: int) -> list[dict[Any, Any]]:
        yaml = _yaml()
        items = node.value if isinstance(node, yaml.SequenceNode) else [node]
        sources = []
        for item in items:
            if not isinstance(item, yaml.MappingNode):
                raise self.fail(item, "a merge key (<<) takes a mapping or a list of mappings", "value")
            sources.append(self.build(item, path, depth + 1))
        return sources
