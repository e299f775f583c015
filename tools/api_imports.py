"""Rewrite plugin code to import the kernel only through the plugin API (``lwcore.api``).

For every ``from lwcore.X import Y [as Z]`` (at any depth in a module) whose object ``lwcore.api``
exports -- the very same object, under its own name or another one -- the statement becomes
``from lwcore.api import API_NAME [as LOCAL]`` (the local name never changes, so the rest of the
file is untouched); names the API does not export stay in a ``from lwcore.X import ...`` of
their own. ``import lwcore.X as Z`` becomes ``from lwcore.api import NAME as Z`` when the API
exports module ``lwcore.X`` as a namespace. Then it reports what is left: imports of other
``lwcore`` modules, ``importlib.import_module("lwcore...")`` calls and ``"lwcore...:attr"``
lazy references, each with file and line.

Idempotent: a second run changes nothing. Re-run it after merging branches that add plugin code
with old imports; if it reports names left over, export them from ``lwcore.api`` (a minor API
version) or stop using them.

Usage::

    python tools/api_imports.py            # rewrite plugins/*/lw_*/**.py, report what remains
    python tools/api_imports.py --check    # change nothing; exit 1 if a rewrite or a leftover is found
    python tools/api_imports.py PATH...    # only these files or folders

Exit status: 0 when nothing is left over, 1 otherwise (a leftover, or with ``--check`` a pending
rewrite), 2 on a file that does not parse.
"""

from __future__ import annotations

import ast
import importlib
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
API = "lwcore.api"
MAX_LINE = 110
LAZY_REFERENCE = re.compile(r"^lwcore(\.[A-Za-z_]\w*)*:[A-Za-z_][\w.]*$")


def plugin_sources(root: Path = ROOT) -> list[Path]:
    """Every Python file of every bundled plugin package (``plugins/*/lw_*/**.py``)."""
    return sorted(p for p in (root / "plugins").glob("*/lw_*/**/*.py") if p.is_file())


def is_kernel_module(name: str) -> bool:
    """Whether ``name`` is ``lwcore`` or one of its modules, other than the API itself."""
    return (name == "lwcore" or name.startswith("lwcore.")) and name != API and not name.startswith(API + ".")


class Exports:
    """What ``lwcore.api`` exports, found by object identity."""

    def __init__(self) -> None:
        api = importlib.import_module(API)
        table: dict[str, str] = api._EXPORTS
        self._by_id: dict[int, list[str]] = {}
        self._objects: list[Any] = []  # kept alive so the ids stay theirs
        for name in table:
            value = getattr(api, name)
            self._objects.append(value)
            self._by_id.setdefault(id(value), []).append(name)

    def name_for(self, value: Any, preferred: str) -> str | None:
        """The API's name for ``value`` (``preferred`` when the API uses it), or None."""
        names = self._by_id.get(id(value), [])
        if preferred in names:
            return preferred
        return names[0] if names else None


def _imported(module: str, name: str) -> Any:
    """What ``from module import name`` binds, or None when it does not import."""
    try:
        target: ModuleType = importlib.import_module(module)
    except ImportError:
        return None
    try:
        return getattr(target, name)
    except AttributeError:
        try:
            return importlib.import_module(f"{module}.{name}")
        except ImportError:
            return None


@dataclass
class FileResult:
    path: Path
    rewritten: list[tuple[int, str, str]] = field(default_factory=list)
    """(line, ``module.name``, API name) of every name moved to ``lwcore.api``."""
    left: list[tuple[int, str]] = field(default_factory=list)
    """(line, what) of every kernel import still outside the API."""
    new_text: str | None = None


def _alias(name: str, local: str | None) -> str:
    return name if local is None or local == name else f"{name} as {local}"


def _statement(indent: str, module: str, names: Sequence[str], comment: str) -> list[str]:
    line = f"{indent}from {module} import {', '.join(names)}"
    tail = f"  {comment}" if comment else ""
    if len(line) + len(tail) <= MAX_LINE:
        return [line + tail]
    return [f"{indent}from {module} import ({tail}", *(f"{indent}    {n}," for n in names), f"{indent})"]


def process(path: Path, exports: Exports, root: Path = ROOT) -> FileResult:
    """Rewrite one file's kernel imports (in memory: ``new_text`` is None when nothing changes)."""
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text, filename=str(path))
    lines = text.splitlines(keepends=True)
    result = FileResult(path)
    edits: list[tuple[int, int, list[str]]] = []  # (first line index, last line index, new lines)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and is_kernel_module(node.module):
            moved, kept = [], []
            for alias in node.names:
                value = None if alias.name == "*" else _imported(node.module, alias.name)
                api_name = None if value is None else exports.name_for(value, alias.name)
                if api_name is None:
                    kept.append(_alias(alias.name, alias.asname))
                    result.left.append((node.lineno, f"from {node.module} import {alias.name}"))
                else:
                    moved.append(_alias(api_name, alias.asname or alias.name))
                    result.rewritten.append((node.lineno, f"{node.module}.{alias.name}", api_name))
            if moved:
                edits.append(_edit(lines, node, [(API, moved), *([(node.module, kept)] if kept else [])], result))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if not is_kernel_module(alias.name):
                    continue
                value = _imported(*alias.name.rsplit(".", 1)) if "." in alias.name else None
                api_name = None if value is None or alias.asname is None else exports.name_for(value, alias.asname)
                if api_name is not None and len(node.names) == 1:
                    edits.append(_edit(lines, node, [(API, [_alias(api_name, alias.asname)])], result))
                    result.rewritten.append((node.lineno, alias.name, api_name))
                else:
                    result.left.append((node.lineno, f"import {alias.name}"))
        elif isinstance(node, ast.Call) and _is_import_module(node.func):
            arg = node.args[0] if node.args else None
            if not isinstance(arg, ast.Constant) or not isinstance(arg.value, str) or is_kernel_module(arg.value):
                result.left.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and LAZY_REFERENCE.match(node.value):
            if is_kernel_module(node.value.partition(":")[0]):
                result.left.append((node.lineno, f"lazy reference {node.value!r}"))
    edits = [e for e in edits if e[2]]
    if edits:
        for first, last, new in sorted(edits, reverse=True):
            lines[first : last + 1] = [line + "\n" for line in new]
        new_text = "".join(lines)
        if new_text != text:
            result.new_text = new_text
    merged = merge_api_imports(result.new_text if result.new_text is not None else text)
    if merged != text:
        result.new_text = merged
    result.left.sort()
    return result


def _isort_key(name: str) -> tuple[int, str]:
    """isort's order of imported names: CONSTANTS, then Classes, then functions."""
    bare = name.split(" as ")[0]
    return (0 if bare.isupper() else 1 if bare[:1].isupper() else 2, bare)


def merge_api_imports(text: str) -> str:
    """Merge runs of adjacent ``from lwcore.api import`` statements (same block, no comments
    between or on them) into one, names in isort order."""
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    runs: list[list[ast.ImportFrom]] = []
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        run: list[ast.ImportFrom] = []
        for stmt in [*body, None]:
            is_api = isinstance(stmt, ast.ImportFrom) and stmt.module == API and stmt.level == 0 and not _commented(lines, stmt)
            if is_api and run and stmt.lineno == (run[-1].end_lineno or run[-1].lineno) + 1:
                run.append(stmt)
                continue
            if len(run) > 1:
                runs.append(run)
            run = [stmt] if is_api else []
    for run in sorted(runs, key=lambda r: r[0].lineno, reverse=True):
        names = sorted({_alias(a.name, a.asname) for stmt in run for a in stmt.names}, key=_isort_key)
        indent = lines[run[0].lineno - 1][: run[0].col_offset]
        new = _statement(indent, API, names, "")
        lines[run[0].lineno - 1 : run[-1].end_lineno or run[-1].lineno] = [line + "\n" for line in new]
    return "".join(lines)


def _commented(lines: list[str], node: ast.stmt) -> bool:
    return any("#" in lines[i] for i in range(node.lineno - 1, node.end_lineno or node.lineno))


def _is_import_module(func: ast.expr) -> bool:
    return (isinstance(func, ast.Attribute) and func.attr == "import_module") or (
        isinstance(func, ast.Name) and func.id in {"import_module", "__import__"})


def _edit(lines: list[str], node: ast.stmt, statements: Iterable[tuple[str, list[str]]],
          result: FileResult) -> tuple[int, int, list[str]]:
    """Replace ``node``'s lines with ``statements``; an import sharing its line with other code
    is left alone (reported) rather than guessed at."""
    first, last = node.lineno - 1, (node.end_lineno or node.lineno) - 1
    head = lines[first][: node.col_offset]
    rest = lines[last][node.end_col_offset or 0 :].strip()
    if head.strip() or (rest and not rest.startswith("#")):
        result.left.append((node.lineno, "import shares its line with other code: rewrite by hand"))
        return first, last, []
    new: list[str] = []
    for module, names in statements:
        new += _statement(head, module, names, rest if not new else "")
    return first, last, new


def distinct_kernel_modules(paths: Iterable[Path]) -> set[str]:
    """Every ``lwcore`` module the files import (``lwcore.api`` included)."""
    found = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and node.module.split(".")[0] == "lwcore":
                found.add(node.module)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names if a.name.split(".")[0] == "lwcore")
    return found


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    check = "--check" in args
    targets = [Path(a) for a in args if a != "--check"]
    paths = plugin_sources() if not targets else sorted(
        {p for t in targets for p in ([t] if t.is_file() else t.rglob("*.py"))})
    sys.path.insert(0, str(ROOT))
    exports = Exports()
    try:
        before = distinct_kernel_modules(paths)
    except SyntaxError as exc:
        print(f"{exc.filename}:{exc.lineno}: does not parse: {exc.msg}", file=sys.stderr)
        return 2
    changed = left = 0
    for path in paths:
        result = process(path, exports)
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        if result.new_text is not None:
            changed += 1
            verb = "would rewrite" if check else "rewrote"
            print(f"{shown}: {verb} {len(result.rewritten)} name(s)")
            if not check:
                path.write_text(result.new_text, encoding="utf-8")
        for line, what in result.left:
            left += 1
            print(f"{shown}:{line}: left outside lwcore.api: {what}")
    after = distinct_kernel_modules(paths)
    print(f"{len(paths)} file(s); {changed} {'to rewrite' if check else 'rewritten'}; {left} leftover(s); "
          f"distinct lwcore modules imported: {len(before)} before, {len(after)} after")
    return 1 if left or (check and changed) else 0


if __name__ == "__main__":
    sys.exit(main())
