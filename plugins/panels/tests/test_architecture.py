"""The plugin's own rules: who-sees-what is read in one module; no other plugin is imported;
``plugin.py`` stays light."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import lw_panels

PACKAGE = Path(lw_panels.__file__).parent
SECRECY = {"visibility", "audience", "secret"}
READERS = {
    "projection.py": "the projections and the audience rule",
    "load.py": "copies a panel's declared audience into the loaded panel",
}


def reads(path: Path) -> list[str]:
    hits = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr in SECRECY and isinstance(node.ctx, ast.Load):
            hits.append(f"{path.name}:{node.lineno}: .{node.attr}")
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value in SECRECY:
            hits.append(f"{path.name}:{node.lineno}: [{node.slice.value!r}]")
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
                and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value in SECRECY):
            hits.append(f"{path.name}:{node.lineno}: .get({node.args[0].value!r})")
    return hits


def test_secrecy_is_read_in_the_projection_module_only() -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).as_posix() not in READERS:
            offenders += reads(path)
    assert offenders == []


def test_no_other_plugin_is_imported() -> None:
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            for name in names:
                assert not (name.startswith("lw_") and not name.startswith("lw_panels")), f"{path.name}: {name}"


def test_plugin_module_is_light() -> None:
    probe = ("import sys, lw_panels.plugin; heavy = [m for m in ('starlette', 'uvicorn', 'pydantic', 'lw_panels.load', "
             "'lw_panels.serve.app', 'lwcore.turn.room') if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "[]", out.stderr
