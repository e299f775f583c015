"""No module of the Story Repo binds a top-level name twice. A second ``X = …`` (or ``def X``) further down a long
module silently replaces the first for every reader, above it too: stop 60's reviewer found four such (T9's ``COMING``
over the planned-day words, S3's ``LISTED`` over the rank reader's, ``PLACE_HEADS`` in the names, ``_CLAUSE_END``), each
changing a reading nobody asked to change."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "lw_storyrepo"


def bound_twice(source: str) -> list[str]:
    """The names bound more than once by the module's own top-level statements (assignments, functions, classes)."""
    names: Counter[str] = Counter()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] += 1
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] += 1
    return sorted(n for n, count in names.items() if count > 1)


def test_the_check_finds_a_name_bound_twice() -> None:
    assert bound_twice("A = 1\ndef f(): return A\nA = 2\n") == ["A"]
    assert bound_twice("A = 1\nB: int = 2\nclass C: pass\n") == []


@pytest.mark.parametrize("module", sorted(PACKAGE.glob("*.py")), ids=lambda p: p.name)
def test_no_module_binds_a_top_level_name_twice(module: Path) -> None:
    assert bound_twice(module.read_text(encoding="utf-8")) == []
