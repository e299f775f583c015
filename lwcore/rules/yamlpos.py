"""YAML loading that remembers where every value came from (file, line, column).

Rulepack diagnostics point at the offending value, also for values inherited through
``extends:`` from another file, so each loaded document carries a :class:`Positions` map
``path -> Position`` (a path is a tuple of mapping keys and list indexes).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lwcore.rules.errors import RulepackError

Path_ = tuple[Any, ...]


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
        self.values: dict[Path_, Position] = {}
        self.keys: dict[Path_, Position] = {}

    def overlay(self, other: Positions, prefix: Path_ = ()) -> None:
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


def load_yaml(text: str, file: str | Path | None = None) -> tuple[Any, Positions]:
    """Parse ``text``; return ``(data, positions)``. Syntax errors are located
    :class:`RulepackError`."""
    import yaml

    loader_cls = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    name = str(file) if file is not None else None
    try:
        node = yaml.compose(text, Loader=loader_cls)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise RulepackError(
            f"invalid YAML: {exc.problem or exc.context}",
            file=name,
            line=mark.line + 1 if mark else None,
            column=mark.column + 1 if mark else None,
        ) from None
    except yaml.YAMLError as exc:
        raise RulepackError(f"invalid YAML: {exc}", file=name) from None
    positions = Positions()
    if node is None:
        return None, positions
    constructor = yaml.constructor.SafeConstructor()

    def pos(n: Any) -> Position:
        return Position(name, n.start_mark.line + 1, n.start_mark.column + 1, getattr(n, "style", None))

    def build(n: Any, path: Path_, depth: int) -> Any:
        if depth > 64:
            raise RulepackError("YAML nested too deeply", file=name, line=n.start_mark.line + 1)
        positions.values[path] = pos(n)
        if isinstance(n, yaml.MappingNode):
            try:
                constructor.flatten_mapping(n)
            except yaml.MarkedYAMLError as exc:
                raise RulepackError(f"invalid YAML: {exc.problem}", file=name, line=n.start_mark.line + 1) from None
            out: dict[Any, Any] = {}
            for key_node, value_node in n.value:
                key = constructor.construct_object(key_node, deep=True)
                try:
                    hash(key)
                except TypeError:
                    raise RulepackError(
                        "a mapping key must be a plain value", file=name, line=key_node.start_mark.line + 1,
                        column=key_node.start_mark.column + 1,
                    ) from None
                positions.keys[path + (key,)] = pos(key_node)
                out[key] = build(value_node, path + (key,), depth + 1)
            return out
        if isinstance(n, yaml.SequenceNode):
            return [build(item, path + (i,), depth + 1) for i, item in enumerate(n.value)]
        try:
            return constructor.construct_object(n, deep=True)
        except yaml.YAMLError as exc:
            raise RulepackError(f"invalid YAML value: {exc}", file=name, line=n.start_mark.line + 1) from None

    return build(node, (), 0), positions


def positions_of(data: Any, file: str | None = None) -> Positions:
    """Positions for data that did not come from a file: every path maps to ``file`` only."""
    positions = Positions()
    positions.values[()] = Position(file, 0, 0) if file else Position(None, 0, 0)
    return positions
