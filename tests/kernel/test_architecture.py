"""The kernel stays small and layered.

- It never imports a plugin package and never names a bundled system, persona format or
  provider (a word inside an identifier counts: ``anthropic_messages`` names a provider).
- Layers, each importing only from the ones before it, for module-level *and* function-level
  imports: **host** (everything not listed below: kernel, discovery, registries, io, cli,
  sandbox …) ← **rules** (``lwcore.rules``) ← **turn** (``lwcore.turn``) ← **built-in
  plugins** (``lwcore.builtins.<id>``, each using only the layers up to its own: ``host`` the
  host, ``rules`` also the rules engine, ``turn`` everything; never another built-in).
- One listed exception: ``Kernel.turn``, the thin facade over the turn pipeline.
"""

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
WORD = re.compile(r"[A-Za-z0-9&]+")
"""A word: underscores separate words, so ``anthropic_messages`` is two of them."""
CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9&]+|[0-9]+")

LAYERS = {"host": 0, "rules": 1, "turn": 2, "builtins": 3}
ALLOWED_EXCEPTIONS = {("lwcore.kernel", "lwcore.turn.pipeline")}
"""(importer, imported): the only imports that may point up the layers."""


def kernel_files() -> list[Path]:
    return sorted(p for p in KERNEL.rglob("*") if p.is_file() and p.suffix in {".py", ".toml", ".md", ".tmpl", ".yaml", ".json", ".js"})


def module_name(path: Path) -> str:
    rel = path.relative_to(KERNEL.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer(module: str) -> tuple[int, str | None]:
    """``(layer number, built-in id or None)`` of a module inside ``lwcore``."""
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in ("rules", "turn"):
        return LAYERS[parts[1]], None
    if len(parts) > 1 and parts[1] == "builtins":
        return LAYERS["builtins"], parts[2] if len(parts) > 2 else None
    return LAYERS["host"], None


def imports(path: Path) -> list[tuple[int, str]]:
    """``(line, absolute module)`` of every import in the file, at any depth."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            out.append((node.lineno, target))
            out += [(node.lineno, f"{target}.{alias.name}") for alias in node.names]
    return out


def layer_violations() -> list[str]:
    bad = []
    for path in kernel_files():
        if path.suffix != ".py":
            continue
        importer = module_name(path)
        level, builtin = layer(importer)
        for line, target in imports(path):
            if not target.startswith("lwcore.") or any(
                importer == a and (target == b or target.startswith(b + ".")) for a, b in ALLOWED_EXCEPTIONS
            ):
                continue
            their_level, their_builtin = layer(target)
            if their_builtin is not None and builtin is not None and their_builtin != builtin:
                bad.append(f"{importer}:{line} imports another built-in: {target}")
            elif builtin is not None and their_builtin is None and their_level > LAYERS.get(builtin, LAYERS["turn"]):
                bad.append(f"{importer}:{line} (built-in {builtin}) imports a later layer: {target}")
            elif their_level > level:
                bad.append(f"{importer}:{line} imports a later layer: {target}")
    return bad


def test_layers_import_only_downwards() -> None:
    assert layer_violations() == []


def test_the_layer_check_would_catch_an_upward_import(tmp_path: Path, monkeypatch) -> None:
    assert layer("lwcore.kernel") == (0, None) and layer("lwcore.turn.room") == (2, None)
    assert layer("lwcore.builtins.rules.commands") == (3, "rules")
    sneaky = KERNEL / "io" / "_layer_probe.py"
    sneaky.write_text("def f():\n    from lwcore.rules import engine_for\n    return engine_for\n", encoding="utf-8")
    try:
        assert any("_layer_probe" in v and "lwcore.rules" in v for v in layer_violations())
    finally:
        sneaky.unlink()


def test_kernel_never_imports_a_plugin_package() -> None:
    offenders = []
    for path in kernel_files():
        if path.suffix != ".py":
            continue
        for _, name in imports(path):
            if name.split(".")[0].startswith("lw_"):
                offenders.append(f"{path.name}: {name}")
    assert offenders == []


def words(line: str) -> set[str]:
    """Every word of ``line`` and every camelCase part of it."""
    out = set()
    for word in WORD.findall(line):
        out.add(word)
        out.update(CAMEL.findall(word))
    return out


def test_kernel_never_names_a_bundled_system() -> None:
    hits = []
    for path in kernel_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for word in words(line):
                if FORBIDDEN_NAMES.fullmatch(word):
                    hits.append(f"{path.relative_to(KERNEL)}:{number}: {word}")
    assert hits == []


def test_the_check_would_catch_a_name() -> None:
    assert FORBIDDEN_NAMES.fullmatch("coc7") and FORBIDDEN_NAMES.fullmatch("Persona")
    assert not FORBIDDEN_NAMES.fullmatch("coconut")
    assert any(FORBIDDEN_NAMES.fullmatch(w) for w in words('DEFAULT = "anthropic_messages"'))
    assert any(FORBIDDEN_NAMES.fullmatch(w) for w in words("class TavernCard:"))
    assert not any(FORBIDDEN_NAMES.fullmatch(w) for w in words("coconut_tree = 1"))


SECRECY_FIELDS = {"visibility", "audience", "secret"}
SECRECY_READERS = {
    "lwcore/turn/projections.py": "the projections: the one exit (iron rule 3)",
    "lwcore/turn/chronicle.py": "validates chronicle/summary/thread writes",
    "lwcore/turn/variables.py": "the variable model itself",
    "lwcore/turn/tools.py": "echoes the keeper's own declaration back to the keeper's model",
}


def secrecy_reads(path: Path) -> list[str]:
    """Reads of secrecy fields: ``x.visibility``/``x.audience``/``x.secret``, ``x["secret"]``,
    ``x.get("audience")``, and a raw document's keeper margin (``doc.data["keeper"]``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    hits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in SECRECY_FIELDS and isinstance(node.ctx, ast.Load):
            hits.append(f"{node.lineno}: .{node.attr}")
        key = None
        target = None
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            key, target = node.slice.value, node.value
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
              and node.args and isinstance(node.args[0], ast.Constant)):
            key, target = node.args[0].value, node.func.value
        if key in SECRECY_FIELDS:
            hits.append(f"{node.lineno}: [{key!r}]")
        elif key == "keeper" and isinstance(target, ast.Attribute) and target.attr == "data":
            hits.append(f"{node.lineno}: .data[{key!r}]")
    return hits


def test_secrecy_is_read_only_by_the_projections() -> None:
    """M17: every player view, panel datum, --json output and per-viewer prompt part comes
    from a document projection; nothing else in the turn layer reads a secrecy field."""
    root = KERNEL.parent
    offenders = []
    for folder in (KERNEL / "turn", KERNEL / "builtins" / "turn"):
        for path in sorted(folder.glob("*.py")):
            rel = path.relative_to(root).as_posix()
            if rel in SECRECY_READERS:
                continue
            offenders += [f"{rel}:{hit}" for hit in secrecy_reads(path)]
    assert offenders == []


def test_the_secrecy_check_would_catch_a_read(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("def f(var, entry, doc):\n    return var.visibility, entry['audience'], doc.data.get('keeper'), "
                     "doc.get('secret')\n", encoding="utf-8")
    assert len(secrecy_reads(probe)) == 4
