"""The plugin API's version and the ``requires_api`` check of a manifest.

:data:`API_VERSION` is re-exported by :mod:`lwcore.api`; it lives here so that discovery (which
reads manifests before any plugin code) can check a plugin's ``requires_api`` without importing
the API module. A requirement is a comma-separated list of clauses, each an operator
(``>=``, ``>``, ``<=``, ``<``, ``==``, ``!=``) and a numeric version (``1``, ``1.2``, ``1.2.3``),
e.g. ``">=2.0,<3"``; missing parts count as 0. A clause that is not of that form is refused when
the manifest is validated.
"""

from __future__ import annotations

import re

API_VERSION = "2.3.0"
"""Semantic version of :mod:`lwcore.api`: MAJOR.MINOR.PATCH (see that module's stability promise)."""

CLAUSE = re.compile(r"^\s*(>=|<=|==|!=|>|<)\s*(\d{1,6}(?:\.\d{1,6}){0,2})\s*$")
MAX_REQUIREMENT_CHARS = 100
"""Longest ``requires_api`` accepted in a manifest."""

_COMPARE = {
    ">=": lambda a, b: a >= b,
    ">": lambda a, b: a > b,
    "<=": lambda a, b: a <= b,
    "<": lambda a, b: a < b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
}


def _version(text: str) -> tuple[int, int, int]:
    parts = [int(p) for p in text.split(".")] + [0, 0]
    return parts[0], parts[1], parts[2]


def parse_requirement(text: str) -> list[tuple[str, tuple[int, int, int]]]:
    """``">=2.0,<3"`` -> ``[(">=", (1, 0, 0)), ("<", (2, 0, 0))]``; ``ValueError`` naming the
    clause when one is not ``OPERATOR VERSION`` (an empty requirement is refused too)."""
    if len(text) > MAX_REQUIREMENT_CHARS:
        raise ValueError(f"longer than {MAX_REQUIREMENT_CHARS} characters")
    clauses = []
    for clause in text.split(","):
        match = CLAUSE.match(clause)
        if not match:
            raise ValueError(f"clause {clause.strip()!r} is not OPERATOR VERSION")
        clauses.append((match.group(1), _version(match.group(2))))
    return clauses


def satisfies(requirement: str, version: str = API_VERSION) -> bool:
    """Whether ``version`` (default: this kernel's API) meets every clause of ``requirement``."""
    have = _version(version)
    return all(_COMPARE[op](have, want) for op, want in parse_requirement(requirement))
