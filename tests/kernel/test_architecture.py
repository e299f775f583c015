"""The kernel stays small and layered.

- It never imports a plugin package and never names a bundled system, persona format or
  provider (a word inside an identifier counts: ``anthropic_messages`` names a provider).
- Layers, each importing only from the ones before it, for module-level *and* function-level
  imports: **host** (everything not listed below: kernel, discovery, registries, io, cli,
  sandbox …) ← **rules** (``lwcore.rules``) ← **turn** (``lwcore.turn``) ← **built-in
  plugins** (``lwcore.builtins.<id>``, each using only the layers up to its own: ``host`` the
  host, ``rules`` also the rules engine, ``turn`` everything; never another built-in) ←
  **the plugin API** (``lwcore.api``: it re-exports from every layer; nothing in the kernel
  imports it).
- The bundled plugins import the kernel only through ``lwcore.api`` (module-level,
  function-level, ``importlib.import_module`` strings and ``"module:attr"`` lazy references).
- One listed exception: ``Kernel.turn``, the thin facade over the turn pipeline.
- Lazy imports live at the boundary (click commands, lazy ``"module:attr"`` targets, ``lw_*``
  hooks in plugin.py, package ``__getattr__``); any other function-level import of an
  internal module keeps a heavy dependency off start-up, and is listed in
  :data:`LAZY_IMPORTS` with why (``tests/kernel/lazy_imports.py`` finds them).
- No import cycle at run time, in the kernel or a bundled plugin: module-level and
  function-level imports alike (what ``if TYPE_CHECKING:`` imports is for a type checker only).
"""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from types import ModuleType

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

LAYERS = {"host": 0, "rules": 1, "turn": 2, "builtins": 3, "api": 4}
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
    if len(parts) > 1 and parts[1] == "api":
        return LAYERS["api"], None
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


API_MODULE = "lwcore.api"
LAZY_KERNEL_REFERENCE = re.compile(r"^(lwcore(?:\.\w+)*):[A-Za-z_][\w.]*$")


def _kernel_internal(name: str) -> bool:
    return name.split(".")[0] == "lwcore" and name != API_MODULE


def plugin_api_violations(root: Path) -> list[str]:
    """Every way a bundled plugin's code (``plugins/*/lw_*/**.py``) reaches a kernel module
    other than ``lwcore.api``: ``import``/``from`` at any depth, ``importlib.import_module`` or
    ``__import__`` of a constant name, a ``"lwcore.x:attr"`` lazy reference."""
    bad = []
    for path in sorted((root / "plugins").glob("*/lw_*/**/*.py")):
        rel = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.Call) and (
                (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
                or (isinstance(node.func, ast.Name) and node.func.id in {"import_module", "__import__"})
            ) and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                names = [node.args[0].value]
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                match = LAZY_KERNEL_REFERENCE.match(node.value)
                names = [match.group(1)] if match else []
            bad += [f"{rel}:{node.lineno}: {name}" for name in names if _kernel_internal(name)]
    return bad


def test_bundled_plugins_import_the_kernel_only_through_the_api() -> None:
    """Issue 25: plugin code sees the kernel through ``lwcore.api`` alone (tests may import
    internals). ``python tools/api_imports.py`` rewrites what it can and reports the rest."""
    assert plugin_api_violations(KERNEL.parent) == [], "run tools/api_imports.py; export what is missing from lwcore.api"


def test_the_api_import_check_would_catch_each_way_in(tmp_path: Path) -> None:
    source = (
        "import importlib\n"
        "from lwcore.api import Room\n"
        "from lwcore.turn.room import Member\n"
        "import lwcore.js as js\n"
        "def f():\n"
        "    from lwcore import errors\n"
        "    importlib.import_module('lwcore.sandbox')\n"
        "    __import__('lwcore.kernel')\n"
        "    return 'lwcore.rules.dice:roll', 'lw_demo.x:y', 'lwcore.api:Room'\n"
    )
    target = tmp_path / "plugins" / "demo" / "lw_demo" / "deep" / "mod.py"
    target.parent.mkdir(parents=True)
    target.write_text(source, encoding="utf-8")
    (tmp_path / "plugins" / "demo" / "tests").mkdir()
    (tmp_path / "plugins" / "demo" / "tests" / "test_x.py").write_text("from lwcore.kernel import Kernel\n", encoding="utf-8")
    rel = "plugins/demo/lw_demo/deep/mod.py"
    assert sorted(plugin_api_violations(tmp_path)) == sorted([
        f"{rel}:3: lwcore.turn.room", f"{rel}:4: lwcore.js", f"{rel}:6: lwcore", f"{rel}:7: lwcore.sandbox",
        f"{rel}:8: lwcore.kernel", f"{rel}:9: lwcore.rules.dice",
    ])


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
SECRECY_READERS: dict[tuple[str, str], str] = {
    # The places that may read a secrecy field, ``(file, function)`` (``*``: the whole module,
    # for the modules that *are* projections). Every other read, anywhere in the kernel or a
    # bundled plugin, fails the test: player-facing content goes through a document
    # projection (iron rule 3). A place listed here that reads nothing any more fails too, so
    # the list stays the truth. Plugins' own tests are not scanned (they assert on the fields).
    # -- the kernel
    ("lwcore/turn/projections.py", "*"): "the built-in projections: the one exit",
    ("lwcore/turn/chronicle.py", "validate_chronicle"): "a write check: the keeper annotation is a string",
    ("lwcore/turn/events.py", "*"): "the typed events carry their audience into their history data and back "
                                    "(serialising it; who reads an event is decided in projections.py)",
    ("lwcore/turn/history.py", "HistoryEntry.of_event"): "an event's history entry is recorded for the event's audience",
    ("lwcore/turn/chronicle.py", "validate_summary"): "a write check: the keeper margin is a string",
    ("lwcore/turn/tools.py", "define_variable"): "echoes the keeper's own declaration to the keeper's model",
    ("lwcore/contributions.py", "CommandReply.__post_init__"): "checks a reply's audience is a known word",
    # -- panels: the plugin's projection module, and loading what a pack declares
    ("plugins/panels/lw_panels/projection.py", "*"): "the panels plugin's projections (audience -> manifest)",
    ("plugins/panels/lw_panels/load.py", "load_panels_file"): "copies a panel's declared audience into the Panel",
    # -- tavern: the import side (what a card brings, before anything is stored) and its projections
    ("plugins/tavern/lw_tavern/room/documents.py", "*"): "the tavern plugin's projections and write checks",
    ("plugins/tavern/lw_tavern/card_split.py", "split_card"): "import: keeper-only lore is dropped from a person",
    ("plugins/tavern/lw_tavern/card_split.py", "import_entries"): "import: only a keeper's import keeps secret lore",
    ("plugins/tavern/lw_tavern/lorecard.py", "_world_data"): "format conversion carries the flag",
    ("plugins/tavern/lw_tavern/lorecard.py", "entry_from_world"): "format conversion carries the flag",
    ("plugins/tavern/lw_tavern/room/imports.py", "stored_entry"): "import: writes the flag into the stored entry",
    ("plugins/tavern/lw_tavern/room/imports.py", "_variables"): "import: writes declared visibility to variables.yaml",
    ("plugins/tavern/lw_tavern/preview.py", "preview"): "lw tavern inspect: counts a file's secret entries, before any import",
    # -- storyrepo: an author's book, where secrets (信息差) are what the author edits
    ("plugins/storyrepo/lw_storyrepo/changes.py", "target"): "an author's change to a secret finds that secret's file",
    ("plugins/storyrepo/lw_storyrepo/edits.py", "set_secret"): "an author's edit of a secret",
    ("plugins/storyrepo/lw_storyrepo/edits.py", "add_knower"): "an author's edit of who knows a secret",
}


def scoped_nodes(path: Path) -> Iterator[tuple[str, ast.AST]]:
    """Every node of ``path`` with the function (or class) it is in, dotted (``C.m``;
    ``<module>`` outside any)."""

    def visit(node: ast.AST, scope: tuple[str, ...]) -> Iterator[tuple[str, ast.AST]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                yield from visit(child, (*scope, child.name))
                continue
            yield ".".join(scope) or "<module>", child
            yield from visit(child, scope)

    yield from visit(ast.parse(path.read_text(encoding="utf-8")), ())


def secrecy_reads(path: Path) -> list[tuple[str, str]]:
    """Reads of secrecy fields as ``(function, "line: what")``: ``x.visibility``/
    ``x.audience``/``x.secret``, ``x["secret"]``, ``x.get("audience")``, and a keeper margin
    read from raw document data (``doc.data["keeper"]``, ``data.get("keeper")``). Writes are
    not reads."""
    hits: list[tuple[str, str]] = []
    for where, node in scoped_nodes(path):
        if isinstance(node, ast.Attribute) and node.attr in SECRECY_FIELDS and isinstance(node.ctx, ast.Load):
            hits.append((where, f"{node.lineno}: .{node.attr}"))
        key, target = None, None
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.ctx, ast.Load):
            key, target = node.slice.value, node.value
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
              and node.args and isinstance(node.args[0], ast.Constant)):
            key, target = node.args[0].value, node.func.value
        if key in SECRECY_FIELDS:
            hits.append((where, f"{node.lineno}: [{key!r}]"))
        elif key == "keeper" and ((isinstance(target, ast.Attribute) and target.attr == "data")
                                  or (isinstance(target, ast.Name) and target.id == "data")):
            hits.append((where, f"{node.lineno}: data[{key!r}]"))
    return hits


def scanned_sources(root: Path) -> list[Path]:
    """Every Python file of the kernel and of the bundled plugins under ``root`` (the
    plugins' tests left out)."""
    plugins = root / "plugins"
    plugin_files = [p for p in plugins.rglob("*.py") if "tests" not in p.relative_to(plugins).parts]
    return sorted([*(root / "lwcore").rglob("*.py"), *plugin_files])


Finder = Callable[[Path], list[tuple[str, str]]]


def unlisted(root: Path, find: Finder, allowed: Mapping[tuple[str, str], str]) -> tuple[list[str], list[tuple[str, str]]]:
    """``(hits outside the allowed places, allowed places with no hit)`` of ``find`` over
    :func:`scanned_sources`; ``allowed`` is keyed ``(file, function)``, ``(file, "*")`` for a
    whole module."""
    offenders, used = [], set()
    for path in scanned_sources(root):
        rel = path.relative_to(root).as_posix()
        for where, hit in find(path):
            key = next((k for k in ((rel, "*"), (rel, where)) if k in allowed), None)
            if key is None:
                offenders.append(f"{rel}:{hit} in {where}")
            else:
                used.add(key)
    return offenders, sorted(set(allowed) - used)


def test_secrecy_is_read_only_where_listed() -> None:
    """M17: every player view, panel datum, --json output and per-viewer prompt part comes
    from a document projection; nothing in the kernel or a bundled plugin reads a secrecy
    field except the places listed (with why) in :data:`SECRECY_READERS`."""
    offenders, unused = unlisted(KERNEL.parent, secrecy_reads, SECRECY_READERS)
    assert offenders == [], "secrecy read outside a projection (list it in SECRECY_READERS only if it is one)"
    assert unused == [], "listed readers that read nothing: remove them"


def test_a_new_read_in_a_plugin_fails(tmp_path: Path) -> None:
    for rel, text in {
        "lwcore/turn/projections.py": "def project(doc):\n    return doc.secret\n",
        "plugins/tavern/lw_tavern/room/documents.py": "def f(e):\n    return e['secret']\n",
        "plugins/tavern/lw_tavern/room/prompt.py": "def lore(entry):\n    return entry.get('secret')\n",
        "plugins/panels/lw_panels/render.py": "def show(panel):\n    return panel.audience\n",
        "plugins/panels/tests/test_render.py": "def test(panel):\n    assert panel.audience\n",
    }.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    offenders, unused = unlisted(tmp_path, secrecy_reads, SECRECY_READERS)
    assert offenders == ["plugins/panels/lw_panels/render.py:2: .audience in show",
                         "plugins/tavern/lw_tavern/room/prompt.py:2: ['secret'] in lore"]
    assert ("lwcore/turn/chronicle.py", "validate_chronicle") in unused  # not in this tree: reported as unused


def test_the_secrecy_check_would_catch_a_read(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("def f(var, entry, doc):\n    return var.visibility, entry['audience'], doc.data.get('keeper'), "
                     "doc.get('secret')\n\n\nclass C:\n    def m(self, data):\n        data['secret'] = 1\n"
                     "        return data['keeper']\n", encoding="utf-8")
    assert [where for where, _ in secrecy_reads(probe)] == ["f", "f", "f", "f", "C.m"]  # the write is no read


KEEPER_VIEW_TAKERS: dict[tuple[str, str], str] = {
    # The places that take the keeper's projection of room content (``keeper_viewer(...)``,
    # or a ``Viewer`` whose keeper flag is not a literal False): all it holds is keeper data.
    # Text built from it must reach the keeper alone; public text that no one member owns
    # (the campaign summary behind every player's ``.recap``) is built from
    # ``table_viewer``'s projections. Every other place in the kernel or a bundled plugin
    # fails the test, and so does a listed place that takes it no more.
    ("lwcore/turn/documents.py", "viewer_of"): "a member's own viewer: the keeper's only for the keeper",
    ("lwcore/turn/segments.py", "room_segments"): "the keeper's model prompt (the model plays the keeper)",
    ("lwcore/turn/fold.py", "margin_messages"): "the keeper margin's fold request; only the keeper's projection shows it",
    ("lwcore/turn/fold.py", "plan_turn"): "sizes the keeper's prompt for the fold policy (a number, shown to no one)",
    ("lwcore/builtins/turn/report.py", "keeper_only_texts"): "the leak check: what to look for in the players' views",
    ("lwcore/builtins/turn/room_commands.py", "var_command"): ".var list: a keeper-only command (who=keeper)",
    ("plugins/panels/lw_panels/projection.py", "enabled_packs"): "the room's panel switch: which packs are on",
    ("lwcore/turn/leaks.py", "keeper_only"): "the one leak check: the keeper-only values no player-bound output may hold",
}


def keeper_view_takes(path: Path) -> list[tuple[str, str]]:
    """Where ``path`` takes the keeper's projection, as ``(function, "line: what")``: a use
    of ``keeper_viewer``, or a ``Viewer(...)`` built with a keeper flag other than a literal
    ``False``."""
    hits: list[tuple[str, str]] = []
    for where, node in scoped_nodes(path):
        if ((isinstance(node, ast.Name) and node.id == "keeper_viewer")
                or (isinstance(node, ast.Attribute) and node.attr == "keeper_viewer")):
            hits.append((where, f"{node.lineno}: keeper_viewer"))
        elif isinstance(node, ast.Call) and (getattr(node.func, "id", None) == "Viewer"
                                             or getattr(node.func, "attr", None) == "Viewer"):
            flag = node.args[2] if len(node.args) > 2 else next(
                (k.value for k in node.keywords if k.arg == "keeper"), ast.Constant(False))
            if not (isinstance(flag, ast.Constant) and flag.value is False):
                hits.append((where, f"{node.lineno}: Viewer(keeper={ast.unparse(flag)})"))
    return hits


def test_the_keeper_projection_is_taken_only_where_listed() -> None:
    """The players' recap leaked keeper notes because its fold input was the keeper's
    projection: no place outside :data:`KEEPER_VIEW_TAKERS` may take it."""
    offenders, unused = unlisted(KERNEL.parent, keeper_view_takes, KEEPER_VIEW_TAKERS)
    assert offenders == [], "the keeper's projection taken outside the listed places (public text needs table_viewer)"
    assert unused == [], "listed places that take no keeper projection: remove them"


def test_a_new_keeper_projection_fails(tmp_path: Path) -> None:
    for rel, text in {
        # the recap bug again: the public fold input built from the keeper's projection
        "lwcore/turn/fold.py": "def fold_messages(room, docs):\n    keeper = keeper_viewer(room)\n"
                                    "    return [project(room, d, keeper) for d in docs]\n\n\n"
                                    "def margin_messages(room):\n    return documents.keeper_viewer(room)\n",
        "plugins/tavern/lw_tavern/room/prompt.py": "def lore(room):\n    return Viewer('', 'zh', True)\n",
        "plugins/panels/lw_panels/render.py": "def show(room, member):\n    return Viewer(member.id, keeper=room.is_keeper(member))\n",
        "plugins/panels/lw_panels/public.py": "def show(room):\n    return Viewer('', 'zh', False), Viewer('', keeper=False), Viewer('')\n",
        "plugins/panels/tests/test_render.py": "def test(room):\n    assert keeper_viewer(room)\n",
    }.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    offenders, unused = unlisted(tmp_path, keeper_view_takes, KEEPER_VIEW_TAKERS)
    assert offenders == ["lwcore/turn/fold.py:2: keeper_viewer in fold_messages",
                         "plugins/panels/lw_panels/render.py:2: Viewer(keeper=room.is_keeper(member)) in show",
                         "plugins/tavern/lw_tavern/room/prompt.py:2: Viewer(keeper=True) in lore"]
    assert ("lwcore/turn/fold.py", "margin_messages") not in unused and ("lwcore/turn/fold.py", "plan_turn") in unused


def _load_lazy_imports() -> ModuleType:
    """The scanner next to this file (a script too: ``python tests/kernel/lazy_imports.py``)."""
    path = Path(__file__).with_name("lazy_imports.py")
    spec = importlib.util.spec_from_file_location("lw_test_lazy_imports", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


lazy_imports = _load_lazy_imports()

LAZY_IMPORTS: dict[tuple[str, str, str], str] = {
    # Function-level imports of internal modules outside the boundary (click commands, lazy
    # "module:attr" targets such as CommandRef's, ``lw_*`` hooks in plugin.py, package
    # ``__getattr__``; see tests/kernel/lazy_imports.py), keyed
    # ``(file, function, imported module)``. Each keeps a heavy dependency off the start-up
    # path of ``lw --version`` / ``lw plugins list`` / ``lw roll`` (bench/boot.py); none may
    # hide an import cycle (test_no_import_cycles). An unlisted one fails the test; so does a
    # listed one that is gone.
    ("lwcore/cli/__init__.py", "main", "lwcore.cli.app"):
        "heavy: click (~20 ms) off `lw --version`, which the entry point answers alone",
    ("lwcore/cli/__init__.py", "main", "lwcore.cli.listing"):
        "heavy: the kernel (pluggy, lwcore.contributions) off `lw --version`; `lw plugins list` takes it without click",
    ("lwcore/cli/app.py", "LwGroup.format_commands", "lwcore.contributions"):
        "heavy: lwcore.contributions (~15 ms of class definitions) off `lw --version`",
    ("lwcore/cli/app.py", "LwGroup.get_command", "lwcore.contributions"):
        "heavy: lwcore.contributions (~15 ms of class definitions) off `lw --version`",
    ("lwcore/cli/common.py", "RoomParam.convert", "lwcore.rooms"):
        "heavy: lwcore.contributions and the transaction module off every command's start-up "
        "(only a command given a ROOM reads it)",
    ("lwcore/cli/common.py", "CliState.kernel", "lwcore.kernel"):
        "heavy: pluggy and lwcore.contributions off `lw --version`",
    ("lwcore/manifest.py", "validate", "lwcore.manifest_schema"):
        "heavy: pydantic (manifest models) off `lw plugins list` with a warm manifest cache",
    ("lwcore/rules/__init__.py", "engine_for", "lwcore.rules.engine"):
        "heavy: pydantic (rulepack models) off `lw roll`",
    ("lwcore/kernel.py", "Kernel.turn", "lwcore.turn.pipeline"):
        "heavy: pydantic (room models) off `lw plugins list`; also the one allowed upward import",
    ("lwcore/builtins/turn/plugin.py", "_summary_v2", "lwcore.turn.chronicle"):
        "heavy: pydantic (room models) off `lw plugins list`, which imports every plugin.py",
    # -- the bundled plugins
    ("plugins/providers/lw_providers/adapters.py", "_Adapter.send", "lw_providers.client"):
        "heavy: httpx (~50-500 ms to import) off every turn that only compiles or applies a recorded reply",
}
"""Why each listed function-level internal import stays where it is."""


def lazy_import_offenders(root: Path, allowed: Mapping[tuple[str, str, str], str]) -> tuple[list[str], list[tuple[str, str, str]]]:
    """``(unlisted non-boundary imports, listed ones that no longer exist)`` in the kernel
    and the bundled plugins under ``root``."""
    found = [hit for hit in lazy_imports.scan(root) if hit.boundary is None]
    offenders = [f"{h.file}:{h.line} {h.function} imports {h.module}" for h in found
                 if (h.file, h.function, h.module) not in allowed]
    gone = sorted(set(allowed) - {(h.file, h.function, h.module) for h in found})
    return offenders, gone


def test_function_level_internal_imports_only_at_the_boundary_or_listed() -> None:
    """Issue 12: lazy imports live at the CLI/hook/package boundary; any other function-level
    import of an internal module is listed in :data:`LAZY_IMPORTS` with why (a heavy
    dependency kept off start-up: a cycle is no reason, there are none)."""
    assert all(reason.split(":")[0] == "heavy" for reason in LAZY_IMPORTS.values())
    offenders, gone = lazy_import_offenders(KERNEL.parent, LAZY_IMPORTS)
    assert offenders == [], "move these to module level, or list them (cycle/heavy) in LAZY_IMPORTS"
    assert gone == [], "listed lazy imports that no longer exist: remove them"


def test_the_lazy_import_check_classifies_and_catches(tmp_path: Path) -> None:
    files = {
        "lwcore/__init__.py": "def __getattr__(name):\n    from lwcore import io\n    return io\n",
        "lwcore/cli/commands.py": "import click\n\n\n@click.command()\ndef hello():\n    from lwcore.kernel import Kernel\n\n\n"
                                  "def helper():\n    from lwcore.errors import LwError\n\n\n"
                                  "def roll():\n    from ..rules import dice\n\n\n"
                                  "class C:\n    def m(self):\n        import lwcore.io.text\n        import json\n",
        "lwcore/builtins/x/plugin.py": "_HERE = 'lwcore.builtins.x'\n\n\ndef lw_cli(register):\n"
                                       "    from lwcore.contributions import CommandRef\n"
                                       "    register(CommandRef('roll', f'{_HERE}.commands:roll', ''))\n"
                                       "    register(CommandRef('hi', 'lwcore.cli.commands:hello', ''))\n\n\n"
                                       "def _private():\n    from lwcore.io import read_text\n",
        "lwcore/builtins/x/commands.py": "def roll():\n    from lwcore.rules import engine_for\n",
        "plugins/demo/lw_demo/plugin.py": "def lw_tools(register):\n    from lw_demo.tools import T\n\n\n"
                                          "def helper():\n    from lw_demo import tools\n    from lw_other import x\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    found = {(h.file, h.function, h.module): h.boundary for h in lazy_imports.scan(tmp_path)}
    assert found == {
        ("lwcore/__init__.py", "__getattr__", "lwcore"): "package",
        ("lwcore/cli/commands.py", "hello", "lwcore.kernel"): "cli",
        ("lwcore/cli/commands.py", "helper", "lwcore.errors"): None,
        ("lwcore/cli/commands.py", "roll", "lwcore.rules"): None,  # relative import, resolved
        ("lwcore/cli/commands.py", "C.m", "lwcore.io.text"): None,  # json is not internal
        ("lwcore/builtins/x/plugin.py", "lw_cli", "lwcore.contributions"): "hook",
        ("lwcore/builtins/x/plugin.py", "_private", "lwcore.io"): None,
        ("lwcore/builtins/x/commands.py", "roll", "lwcore.rules"): "lazy",  # an f-string CommandRef target
        ("plugins/demo/lw_demo/plugin.py", "lw_tools", "lw_demo.tools"): "hook",
        ("plugins/demo/lw_demo/plugin.py", "helper", "lw_demo"): None,  # lw_other: another plugin's, not internal
    }
    allowed = {("lwcore/cli/commands.py", "helper", "lwcore.errors"): "heavy: probe",
               ("lwcore/io/gone.py", "f", "lwcore.errors"): "heavy: gone"}
    offenders, gone = lazy_import_offenders(tmp_path, allowed)
    assert offenders == ["lwcore/builtins/x/plugin.py:11 _private imports lwcore.io",
                         "lwcore/cli/commands.py:14 roll imports lwcore.rules",
                         "lwcore/cli/commands.py:19 C.m imports lwcore.io.text",
                         "plugins/demo/lw_demo/plugin.py:6 helper imports lw_demo"]
    assert gone == [("lwcore/io/gone.py", "f", "lwcore.errors")]


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def import_graph(root: Path) -> dict[str, set[str]]:
    """module -> the modules it imports at run time, at any depth (in a function too), for the
    kernel and the bundled plugins under ``root`` (their tests left out): ``import a.b`` and
    ``from a import b`` point at the module ``a.b`` when there is one, else ``from a import
    name`` at ``a``. What an ``if TYPE_CHECKING:`` block imports is not run, so not counted."""
    paths = {lazy_imports.module_of(root, path): path for path in lazy_imports.sources(root)}
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        is_package = path.name == "__init__.py"
        targets: set[str] = set()

        def visit(node: ast.AST) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.If) and _type_checking(child):
                    for other in child.orelse:
                        visit_one(other)
                    continue
                visit_one(child)

        def visit_one(node: ast.AST) -> None:
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names if alias.name in paths)
            elif isinstance(node, ast.ImportFrom):
                base = lazy_imports.absolute(node, module, is_package)
                for alias in node.names:
                    if f"{base}.{alias.name}" in paths:
                        targets.add(f"{base}.{alias.name}")
                    elif base in paths:
                        targets.add(base)
            visit(node)

        visit(ast.parse(path.read_text(encoding="utf-8")))
        graph[module] = targets - {module}
    return graph


def import_cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """Every import cycle of ``graph``: its strongly connected parts of more than one module
    (Tarjan's algorithm, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.append(member)
                    if member == node:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return sorted(found)


def test_no_import_cycles() -> None:
    """Issue 25: no module of the kernel or of a bundled plugin imports, at run time and at any
    depth, a module that imports it back (directly or through others): each layer and each
    plugin reads from the top down."""
    assert import_cycles(import_graph(KERNEL.parent)) == []


def test_the_cycle_check_would_catch_one(tmp_path: Path) -> None:
    files = {
        "lwcore/__init__.py": "",
        "lwcore/a.py": "from lwcore.b import B\n",
        "lwcore/b.py": "def f():\n    from lwcore import a\n    return a\n\n\nB = 1\n",  # hidden in a function
        "lwcore/c.py": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from lwcore.d import D\n",
        "lwcore/d.py": "from lwcore.c import *\n\nD = 1\n",  # c only names d for a type checker
        "plugins/demo/lw_demo/__init__.py": "",
        "plugins/demo/lw_demo/x.py": "from . import y\n",
        "plugins/demo/lw_demo/y.py": "from lw_demo.z import Z\n",
        "plugins/demo/lw_demo/z.py": "import lw_demo.x\n\nZ = 1\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    graph = import_graph(tmp_path)
    assert graph["lwcore.c"] == set() and graph["lwcore.d"] == {"lwcore.c"}
    assert import_cycles(graph) == [["lw_demo.x", "lw_demo.y", "lw_demo.z"], ["lwcore.a", "lwcore.b"]]
