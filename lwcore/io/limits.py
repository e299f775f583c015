"""The limits the safe readers enforce, in one place (``docs/security.md`` lists them).

What a reader refuses, a writer must never write: a file or log line the project writes is
held to the limits of the reader that will read it back (:func:`check_writable`), so an
accepted change can never leave a file that no longer opens. The depth and value counts are
:func:`check_shape`'s, the one count both readers (JSON and YAML) and the writers use.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from lwcore.errors import LwError
from lwcore.io.text import DEFAULT_MAX_BYTES


@dataclass(frozen=True)
class Limits:
    """Bounds on one document read from outside.

    - ``max_bytes``: size of the encoded document.
    - ``max_depth``: nesting of mappings and lists (a scalar at the top is depth 0).
    - ``max_nodes``: values in the document *after* YAML aliases are expanded (an alias bomb
      of a few hundred bytes expands to billions; it is refused once it passes this).
    - ``allow_nonfinite``: accept ``.nan``/``.inf`` (YAML) and ``NaN``/``Infinity``/``1e400``
      (JSON). Off by default: no file format of ours means them.
    """

    max_bytes: int = DEFAULT_MAX_BYTES
    max_depth: int = 64
    max_nodes: int = 500_000
    allow_nonfinite: bool = False

    def with_(self, **changes: Any) -> Limits:
        return replace(self, **changes)


YAML_LIMITS = Limits()
JSON_LIMITS = Limits(max_depth=128)
LINE_LIMITS = Limits(max_bytes=1024 * 1024, max_depth=64, max_nodes=100_000)
"""One request line of a batch (``--batch``): small and flat."""
LOG_LINE_LIMITS = Limits(max_bytes=4 * 1024 * 1024, max_depth=128)
"""One line of an append-only log (a room's ``history.jsonl``, a ``docs/<type>.jsonl``), its
newline not counted: what every reader of a log accepts, so what a writer may append. Logs are
read from either end (:mod:`lwcore.io.loglines`), so a line has a size of its own."""


def check_shape(value: Any, limits: Limits, file: str | None = None, *, what: str = "JSON") -> None:
    """Refuse ``value`` (parsed, or about to be written) when it nests deeper than
    ``limits.max_depth`` or holds more than ``limits.max_nodes`` values, counted as the
    readers count them: the top value and every value inside a mapping or list (keys are not
    values); a scalar at the top is depth 0. Iterative: safe on any depth."""
    if not isinstance(value, (dict, list)):
        return
    count = 1
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > limits.max_depth:
            raise LwError(f"{what} nested deeper than {limits.max_depth} levels", file=file, code="limit")
        count += len(item)
        if count > limits.max_nodes:
            raise LwError(f"{what} holds more than {limits.max_nodes} values", file=file, code="limit")
        for child in item.values() if isinstance(item, dict) else item:
            if isinstance(child, (dict, list)):
                stack.append((child, depth + 1))


def check_writable(value: Any, size: int, limits: Limits, *, file: Any = None, what: str) -> None:
    """Refuse (code ``limit``, nothing written) to write ``value`` as ``size`` bytes where a
    reader with ``limits`` reads it back: too large, too deep or too many values. ``what``
    names it in the message (``"variables.yaml"``, ``"a history line"``)."""
    if size > limits.max_bytes:
        raise LwError(f"{what} would be {size:,} bytes; it is read back only up to {limits.max_bytes:,}",
                      file=file, code="limit", expected="less in one change")
    try:
        check_shape(value, limits, what=what)
    except LwError as exc:
        raise LwError(f"{exc.message}, more than is read back", file=file, code="limit",
                      expected="less in one change") from None
