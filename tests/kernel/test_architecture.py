"""The kernel stays small: it never imports a plugin package and never names a bundled
system, persona format or provider. Plugins are deletable."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import lwcore

KERNEL = Path(lwcore.__file__).parent
FORBIDDEN_NAMES = re.compile(
    r"coc7?|cthulhu|dnd5e?|d&d|wod|cofd|persona|whale|storyrepo|story[ _-]?repo|narraeon|"
    r"anthropic|openai|sillytavern|tavern",
    re.IGNORECASE,
)
WORD = re.compile(r"[A-Za-z0-9_&]+")


def kernel_files() -> list[Path]:
    return sorted(p for p in KERNEL.rglob("*") if p.is_file() and p.suffix in {".py", ".toml", ".md", ".tmpl", ".yaml", ".json"})


def test_kernel_never_imports_a_plugin_package() -> None:
    offenders = []
    for path in kernel_files():
        if path.suffix != ".py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0].startswith("lw_")]
    assert offenders == []


def test_kernel_never_names_a_bundled_system() -> None:
    hits = []
    for path in kernel_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for word in WORD.findall(line):
                if FORBIDDEN_NAMES.fullmatch(word):
                    hits.append(f"{path.relative_to(KERNEL)}:{number}: {word}")
    assert hits == []


def test_the_check_would_catch_a_name() -> None:
    assert FORBIDDEN_NAMES.fullmatch("coc7") and FORBIDDEN_NAMES.fullmatch("Persona")
    assert not FORBIDDEN_NAMES.fullmatch("coconut")
