"""``docs/security.md`` states every reader's real limits, read against the code.

Each limits table row names, in its last cell, the constants its figures come from
(``lwcore.rules.engine.PACK_LIMITS``, ``lwcore.cards.limits.CARD_LIMITS.max_chunks`` …); its
limit cell holds their figures in the same order: a reader's document limits (``Limits``) as
size, nesting and values, any other constant as one figure (``16 MiB``, ``65,536``, ``200:1``,
``0.1 s``).
The test reads each constant and compares; and it scans the kernel and every bundled plugin
for module-level limits (a ``Limits``, ``CardLimits`` or ``PackLimits`` value, or a size whose
name says ``BYTES`` or ``LIMIT``) so that a new one cannot go unlisted. The sandbox's own
limits are in ``lwcore/sandbox/README.md`` and are not readers' limits.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import re
from pathlib import Path
from typing import Any

import pytest

from lwcore.cards.limits import CardLimits
from lwcore.io.limits import Limits
from lwcore.pack.limits import PackLimits

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "security.md"
UNITS = {"KiB": 1024, "MiB": 1024**2, "GiB": 1024**3}
FIGURE = re.compile(r"(\d[\d,]*(?:\.\d+)?)(?::1\b)?\s*(KiB|MiB|GiB|s\b)?")
NAME = re.compile(r"^[A-Z][A-Z0-9_]*$")


def rows() -> list[tuple[str, list[str]]]:
    """``(limit cell, [constant, …])`` for every row of the tables headed ``| … | limit | code |``."""
    found = []
    in_table = False
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            in_table = False
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[-2:] == ["limit", "code"]:
            in_table = True
        elif in_table and not set("".join(cells)) <= {"-"}:
            refs = re.findall(r"`([A-Za-z_][\w.]*)`", cells[2])
            assert len(cells) == 3 and refs, f"a limits row without its constants: {line}"
            found.append((cells[1], refs))
    return found


ROWS = rows()


def figures(cell: str) -> list[float]:
    """The figures of a limit cell: sizes in bytes, counts, seconds (``0.1 s``)."""
    out: list[float] = []
    for number, unit in FIGURE.findall(cell):
        value = float(number.replace(",", "")) if "." in number else int(number.replace(",", ""))
        out.append(value * UNITS.get(unit or "", 1))
    return out


def resolve(ref: str) -> Any:
    """``a.b.c.NAME.attr`` -> the value (the longest importable module prefix, then attributes)."""
    parts = ref.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            value: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            value = getattr(value, attribute)
        return value
    raise AssertionError(f"{ref} names no module")


def expected(value: Any, ref: str) -> list[int]:
    if isinstance(value, Limits):
        assert not value.allow_nonfinite, f"{ref} allows non-finite numbers; the page says every reader refuses them"
        return [value.max_bytes, value.max_depth, value.max_nodes]
    assert isinstance(value, (int, float)) and not isinstance(value, bool), f"{ref} is {type(value).__name__}, not a limit"
    return [value]


def test_the_page_has_the_tables() -> None:
    assert len(ROWS) >= 30
    assert any("lwcore.rules.engine.PACK_LIMITS" in refs for _, refs in ROWS)


@pytest.mark.parametrize(("cell", "refs"), ROWS, ids=[" ".join(refs) for _, refs in ROWS])
def test_every_figure_is_the_codes(cell: str, refs: list[str]) -> None:
    want = [figure for ref in refs for figure in expected(resolve(ref), ref)]
    assert figures(cell) == want, f"docs/security.md says {cell!r} for {', '.join(refs)}; the code has {want}"


def limit_constants() -> set[str]:
    """Every module-level limit in the kernel (but its sandbox) and the bundled plugins, as
    documented references: ``module.NAME`` (``module.NAME.field`` for each field of a
    ``CardLimits``/``PackLimits``)."""
    files = [p for p in (ROOT / "lwcore").rglob("*.py") if "sandbox" not in p.relative_to(ROOT).parts]
    files += [p for p in (ROOT / "plugins").glob("*/lw_*/**/*.py")]
    found = set()
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = [t.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
                 for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
                 if isinstance(t, ast.Name) and NAME.match(t.id) and ("BYTES" in t.id or "LIMIT" in t.id)]
        if not names:
            continue
        parts = path.relative_to(ROOT).with_suffix("").parts
        module = ".".join(parts if parts[0] == "lwcore" else parts[2:])
        for name in names:
            value = getattr(importlib.import_module(module), name)
            if isinstance(value, (CardLimits, PackLimits)):
                found |= {f"{module}.{name}.{f.name}" for f in dataclasses.fields(value)}
            elif isinstance(value, Limits) or (isinstance(value, int) and not isinstance(value, bool)):
                found.add(f"{module}.{name}")
    return found


def test_every_limit_in_the_code_is_on_the_page() -> None:
    found = limit_constants()
    assert {"lwcore.io.limits.YAML_LIMITS", "lwcore.rules.engine.PACK_LIMITS",
            "lw_narraeon.compiler.REQUEST_LIMITS", "lwcore.cards.limits.CARD_LIMITS.max_ratio"} <= found
    documented = {ref for _, refs in ROWS for ref in refs}
    assert sorted(found - documented) == [], "limits in the code that docs/security.md does not list"
