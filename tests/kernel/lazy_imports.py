"""Function-level imports of internal modules, classified boundary or not (issue 12).

An *internal* module is ``lwcore`` (or a submodule) or, inside a plugin, the plugin's own
package (``lw_x`` for ``plugins/x/lw_x/…``); relative imports are internal. A function-level
import is one inside a ``def`` (at any depth). It sits at the **boundary**, where lazy imports
belong, when its function (or one enclosing it) is:

- ``cli``: a click command or group (a decorator from ``click`` or a ``.command``/``.group``
  decorator);
- ``lazy``: the target of a lazy contribution reference (``"module:attr"``, the way
  ``CommandRef`` names its command and ``RoomCommand``/``DocumentType`` their handlers);
- ``hook``: a hook implementation, an ``lw_*`` function in a ``plugin.py`` module;
- ``package``: a module-level ``__getattr__`` (lazy exports of a package).

Every other function-level internal import must break a real import cycle or keep a heavy
dependency off the start-up path; ``tests/kernel/test_architecture.py`` holds the allowlist.

Run ``python tests/kernel/lazy_imports.py [ROOT] [--all]`` to print the non-boundary ones
(``--all``: every one, with its class) and the counts.
"""

from __future__ import annotations

import ast
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

LAZY_REFERENCE = re.compile(r"^([A-Za-z_][\w.]*):([A-Za-z_]\w*)$")
"""A complete ``"package.module:attribute"`` string."""
CLI_DECORATOR = re.compile(r"(^|\.)(command|group)\b|^click\.")


@dataclass(frozen=True)
class LazyImport:
    file: str
    """Path relative to the root, ``/``-separated."""
    function: str
    """Dotted scope, ``Class.method`` or ``outer.inner``."""
    module: str
    """The absolute module imported (``from a import b`` gives ``a``)."""
    line: int
    boundary: str | None
    """``"cli"``, ``"lazy"``, ``"hook"``, ``"package"`` or None when outside the boundary."""


def sources(root: Path) -> list[Path]:
    """The kernel's and the bundled plugins' Python files (plugins' tests left out)."""
    plugins = root / "plugins"
    plugin_files = [p for p in plugins.rglob("*.py") if "tests" not in p.relative_to(plugins).parts]
    return sorted([*(root / "lwcore").rglob("*.py"), *plugin_files])


def module_of(root: Path, path: Path) -> str:
    """The dotted module name of ``path`` (``lwcore.x.y``, ``lw_panels.load``)."""
    rel = path.relative_to(root)
    parts = list(rel.with_suffix("").parts)
    if parts[0] == "plugins":
        parts = parts[2:]  # plugins/<dist>/<package>/…
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def internal_roots(module: str) -> tuple[str, ...]:
    """Top-level packages internal to ``module``: the kernel, and a plugin's own package."""
    top = module.split(".")[0]
    return ("lwcore",) if top == "lwcore" else ("lwcore", top)


def absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def string_value(node: ast.AST, names: dict[str, str]) -> str | None:
    """The value of a string constant, or of an f-string made of constants and ``names``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.FormattedValue) and isinstance(value.value, ast.Name) and value.value.id in names:
                parts.append(names[value.value.id])
            elif isinstance(value, ast.Constant):
                parts.append(str(value.value))
            else:
                return None
        return "".join(parts)
    return None


def lazy_targets(paths: list[Path]) -> set[tuple[str, str]]:
    """``(module, attr)`` of every lazy reference in ``paths``: a ``"module:attr"`` string, or
    an f-string built from names assigned strings in the same file (``f"{_HERE}.commands:roll"``)."""
    targets = set()
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names: dict[str, str] = {}
        for node in ast.walk(tree):  # a name's string value, wherever it is assigned
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                if (value := string_value(node.value, names)) is not None:
                    names[node.targets[0].id] = value
        for node in ast.walk(tree):
            if isinstance(node, (ast.Constant, ast.JoinedStr)):
                if (value := string_value(node, names)) and (m := LAZY_REFERENCE.match(value)):
                    targets.add((m[1], m[2]))
    return targets


def boundary_kind(node: ast.AST, scope: tuple[str, ...], module: str, path: Path,
                  targets: set[tuple[str, str]]) -> str | None:
    """Why the function ``node`` (at ``scope``) is a boundary, or None."""
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    if len(scope) == 1 and node.name == "__getattr__":
        return "package"
    if path.name == "plugin.py" and node.name.startswith("lw_"):
        return "hook"
    if any(CLI_DECORATOR.search(ast.unparse(d)) for d in node.decorator_list):
        return "cli"
    if len(scope) == 1 and (module, node.name) in targets:
        return "lazy"
    return None


def scan_file(root: Path, path: Path, targets: set[tuple[str, str]]) -> list[LazyImport]:
    module = module_of(root, path)
    roots = internal_roots(module)
    is_package = path.name == "__init__.py"
    rel = path.relative_to(root).as_posix()
    found: list[LazyImport] = []

    def internal(name: str, relative: bool) -> bool:
        return relative or any(name == r or name.startswith(r + ".") for r in roots)

    def visit(node: ast.AST, scope: tuple[str, ...], in_function: bool, boundary: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                inner = (*scope, child.name)
                kind = boundary or boundary_kind(child, inner, module, path, targets)
                is_def = not isinstance(child, ast.ClassDef)
                visit(child, inner, in_function or is_def, kind)
                continue
            if in_function and isinstance(child, ast.Import):
                for alias in child.names:
                    if internal(alias.name, False):
                        found.append(LazyImport(rel, ".".join(scope), alias.name, child.lineno, boundary))
            elif in_function and isinstance(child, ast.ImportFrom):
                target = absolute(child, module, is_package)
                if internal(target, bool(child.level)):
                    found.append(LazyImport(rel, ".".join(scope), target, child.lineno, boundary))
            visit(child, scope, in_function, boundary)

    visit(ast.parse(path.read_text(encoding="utf-8")), (), False, None)
    return found


def scan(root: Path) -> list[LazyImport]:
    """Every function-level internal import of the kernel and the bundled plugins under ``root``."""
    paths = sources(root)
    targets = lazy_targets(paths)
    return [hit for path in paths for hit in scan_file(root, path, targets)]


def main(argv: list[str]) -> None:
    show_all = "--all" in argv
    args = [a for a in argv if a != "--all"]
    root = Path(args[0]) if args else Path(__file__).resolve().parents[2]
    hits = scan(root)
    for hit in hits:
        if show_all or hit.boundary is None:
            print(f"{hit.boundary or '-':8} {hit.file}:{hit.line} {hit.function} -> {hit.module}")
    counts = Counter(hit.boundary or "outside" for hit in hits)
    kernel = Counter(hit.boundary or "outside" for hit in hits if hit.file.startswith("lwcore/"))
    print(f"total {len(hits)}: {dict(counts)}; lwcore/ only: {dict(kernel)}")


if __name__ == "__main__":
    main(sys.argv[1:])
