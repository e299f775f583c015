"""The limits the safe readers enforce, in one place (``docs/security.md`` lists them)."""

from __future__ import annotations

from dataclasses import dataclass, replace

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

    def with_(self, **changes: object) -> Limits:
        return replace(self, **changes)  # type: ignore[arg-type]


YAML_LIMITS = Limits()
JSON_LIMITS = Limits(max_depth=128)
LINE_LIMITS = Limits(max_bytes=1024 * 1024, max_depth=64, max_nodes=100_000)
"""One request line of a batch (``--batch``): small and flat."""
