"""The plugin API (``lwcore.api``): its surface is recorded, its version can be required.

``tests/kernel/data/api_surface.json`` records every name of ``lwcore.api.__all__`` with its kind
and signature (a namespace module: its public names). A name that disappears or whose
signature changes fails :func:`test_no_public_name_disappears_or_changes` unless
``API_VERSION``'s major version went up; a new name fails
:func:`test_every_public_name_is_recorded` until it is recorded with::

    .venv/bin/python tests/kernel/test_api.py --update

(which refuses to record a removal or a change without a major version).
"""

from __future__ import annotations

import ast
import inspect
import json
import re
import sys
import types
from pathlib import Path
from typing import Any

import lwcore.api as api
from lwcore.api_version import API_VERSION, parse_requirement, satisfies

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOT = Path(__file__).with_name("data") / "api_surface.json"
UPDATE = ".venv/bin/python tests/kernel/test_api.py --update"


def _signature(value: Any) -> str:
    try:
        text = str(inspect.signature(value))
    except (TypeError, ValueError):
        return ""
    return re.sub(r" at 0x[0-9a-f]+", "", text)


def _namespace(module: types.ModuleType) -> list[str]:
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n, v in vars(module).items() if not n.startswith("_")
                 and (inspect.isfunction(v) or inspect.isclass(v)) and v.__module__ == module.__name__]
    return sorted(names)


def describe(value: Any) -> dict[str, Any]:
    """A name's kind and signature, as the snapshot records them."""
    if isinstance(value, types.ModuleType):
        return {"kind": "module", "names": _namespace(value)}
    if inspect.isclass(value):
        return {"kind": "class", "signature": _signature(value)}
    if callable(value) and (inspect.isfunction(value) or inspect.isbuiltin(value)):
        return {"kind": "function", "signature": _signature(value)}
    return {"kind": type(value).__name__}


def surface() -> dict[str, dict[str, Any]]:
    return {name: describe(getattr(api, name)) for name in sorted(api.__all__)}


def recorded() -> dict[str, Any]:
    return json.loads(SNAPSHOT.read_text(encoding="utf-8"))


def breaking(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """What of ``old`` is gone or changed in ``new`` (a module may gain names)."""
    out = []
    for name, was in old.items():
        now = new.get(name)
        if now is None:
            out.append(f"{name}: removed")
        elif was.get("kind") == now.get("kind") == "module":
            gone = sorted(set(was["names"]) - set(now["names"]))
            if gone:
                out.append(f"{name}: namespace lost {gone}")
        elif was != now and not grew_compatibly(name, was, now):
            out.append(f"{name}: was {was}, now {now}")
    return out


def grew_compatibly(name: str, was: dict[str, Any], now: dict[str, Any]) -> bool:
    """A callable that only gained trailing parameters with defaults (a minor change: a new
    optional argument or an optional field of a contribution type), or gave a type to what was
    annotated ``Any``: dropping the new ones from today's signature, and reading ``Any`` where
    it was, gives the recorded one."""
    if was.get("kind") != now.get("kind") or "signature" not in was:
        return False
    try:
        signature = inspect.signature(getattr(api, name))
    except (TypeError, ValueError):
        return False
    # a parameter or field annotated ``Any`` that now names its type (a typed seam) is a minor
    # change: the recorded signature is read with today's annotation put back to Any
    params = [p.replace(annotation="Any") if f"{p.name}: 'Any'" in was["signature"] else p
              for p in signature.parameters.values()]
    while True:
        shorter = re.sub(r" at 0x[0-9a-f]+", "", str(signature.replace(parameters=params)))
        if shorter == was["signature"]:
            return True
        if not params or params[-1].default is inspect.Parameter.empty:
            return False
        params.pop()


def major(version: str) -> int:
    return int(version.split(".")[0])


def test_no_public_name_disappears_or_changes() -> None:
    snapshot = recorded()
    problems = breaking(snapshot["names"], surface())
    if major(API_VERSION) > major(snapshot["api_version"]):
        return  # a major version may break; --update records it
    assert problems == [], (
        "lwcore.api lost or changed public names: that needs a major API version "
        "(lwcore/api_version.py), then " + UPDATE
    )


def test_every_public_name_is_recorded() -> None:
    snapshot = recorded()
    new = sorted(set(api.__all__) - set(snapshot["names"]))
    assert new == [], f"new lwcore.api names (a minor version): record them with {UPDATE}"
    assert snapshot["api_version"] == API_VERSION or not new


def test_all_lists_exactly_the_export_table_and_every_name_resolves() -> None:
    assert api.__all__ == ["API_VERSION", *api._EXPORTS]
    assert len(set(api.__all__)) == len(api.__all__)
    for name in api.__all__:
        assert getattr(api, name) is not None, name
    assert set(dir(api)) == set(api.__all__)


def test_the_type_checking_imports_spell_the_same_table() -> None:
    """The ``if TYPE_CHECKING:`` block (for type checkers) names exactly what the runtime table
    resolves, each from the same module under the same name."""
    tree = ast.parse(Path(api.__file__).read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", "") == "TYPE_CHECKING"
                 and any(isinstance(s, ast.ImportFrom) and s.module != "typing" for s in n.body))
    spelt = {}
    for stmt in block.body:
        if isinstance(stmt, ast.ImportFrom) and stmt.module != "typing":
            for alias in stmt.names:
                spelt[alias.asname or alias.name] = (stmt.module, alias.name)
    table = {name: (module, attr) if attr else tuple(module.rsplit(".", 1)) for name, (module, attr) in api._EXPORTS.items()}
    assert spelt == table
    (literal,) = [ast.literal_eval(s.value) for s in block.body
                  if isinstance(s, ast.Assign) and [getattr(t, "id", "") for t in s.targets] == ["__all__"]]
    assert literal == api.__all__, f"the literal __all__ is stale: {UPDATE} spells it again"


def test_importing_the_api_imports_nothing_else() -> None:
    """A plugin's ``import lwcore.api`` is cheap: names are imported on first use."""
    import subprocess

    code = "import sys, lwcore.api; print(sorted(m for m in sys.modules if m.startswith(('lwcore', 'pydantic', 'pluggy', 'typing'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "['lwcore', 'lwcore.api', 'lwcore.api_version']"


def test_an_unknown_name_says_where_the_api_is() -> None:
    try:
        api.Secret  # noqa: B018
    except AttributeError as exc:
        assert "lwcore.api.__all__" in str(exc)
    else:
        raise AssertionError("lwcore.api.Secret resolved")


# --- the version a manifest may require ----------------------------------------------------------


def test_requirements_are_read_clause_by_clause() -> None:
    assert parse_requirement(">=1.0,<2") == [(">=", (1, 0, 0)), ("<", (2, 0, 0))]
    table = {
        ">=1.0,<2": True, ">=1": True, "==1.0.0": True, "!=1.0.0": False, "<1": False,
        ">1.0": False, "<=1.0.0": True, ">=0.9, <1.1": True, ">=2": False, "==1": True,
    }
    assert {req: satisfies(req, "1.0.0") for req in table} == table
    assert satisfies(">=1.2,<2", "1.10.0") and not satisfies(">=1.2,<2", "1.1.9")
    for bad in ("", "1.0", ">=", "~=1.0", ">=1.0,", ">=1.x", "=>1", ">=1.0.0.0", ">= 1" + "0" * 7, "x" * 101):
        try:
            parse_requirement(bad)
        except ValueError as exc:
            assert str(exc)
        else:
            raise AssertionError(f"{bad!r} was accepted")


CURRENT_CODE = """
from lwcore.api import PromptSegment, hookimpl

@hookimpl
def lw_prompt_segments(turn):
    return [PromptSegment("current-seg", "made with lwcore.api")]
"""

REFUSED_CODE = """
import os, pathlib
pathlib.Path(os.environ["LW_TEST_MARKER_DIR"], "imported").write_text("yes")
"""


def test_a_plugin_requiring_another_api_is_refused_before_its_code_runs(site, kernel_factory, tmp_path) -> None:
    future = f">={major(API_VERSION) + 1}.0,<{major(API_VERSION) + 2}"
    site.add("future", code=REFUSED_CODE, extra_manifest=f'requires_api = "{future}"')
    site.add("current", code=CURRENT_CODE,
             extra_manifest=f'requires_api = ">={API_VERSION},<{major(API_VERSION) + 1}"')
    kernel = kernel_factory(env={"LW_PLUGINS": "future,current"})
    kernel.load_all()
    record = kernel.plugin("future")
    manifest = site.root / "lwtest_future" / "lw-plugin.toml"
    line = manifest.read_text(encoding="utf-8").splitlines().index(f'requires_api = "{future}"') + 1
    assert record.status == "error"
    assert record.reason == (f"{manifest}:{line}: requires_api: needs plugin API {future}, this kernel provides "
                             f"{API_VERSION}; not loaded (update the plugin or Loreweaver)")
    assert not (tmp_path / "markers" / "imported").exists() and "lwtest_future.plugin" not in sys.modules
    assert kernel.plugin("current").status == "enabled"
    assert [e.value.text for e in kernel.prompt_segments().segments] == ["made with lwcore.api"]


def test_a_malformed_requirement_is_a_located_manifest_error(site, kernel_factory) -> None:
    site.add("odd", code=REFUSED_CODE, extra_manifest='requires_api = "~=1.0"')
    record = kernel_factory(env={"LW_PLUGINS": "odd"}).plugin("odd")
    manifest = site.root / "lwtest_odd" / "lw-plugin.toml"
    assert record.status == "error"
    line = manifest.read_text(encoding="utf-8").splitlines().index('requires_api = "~=1.0"') + 1
    assert record.reason == (f"bad manifest: {manifest}:{line}: requires_api: Value error, clause '~=1.0' is not "
                             "OPERATOR VERSION (expected comma-separated OPERATOR VERSION clauses, e.g. '>=2.0,<3')")


def test_lw_plugins_list_shows_the_refusal(site, tmp_path) -> None:
    """The real ``lw`` shows the refused plugin and why, and exits as for any broken plugin."""
    import os
    import subprocess

    future = f">={major(API_VERSION) + 1}"
    site.add("future", code=REFUSED_CODE, extra_manifest=f'requires_api = "{future}"')
    env = {**os.environ, "LW_PLUGINS": "future", "PYTHONPATH": os.pathsep.join([str(site.root), str(ROOT)])}
    out = subprocess.run([sys.executable, "-c", "from lwcore.cli import main; main()", "plugins", "list", "--json"], capture_output=True,
                         text=True, timeout=120, env=env)
    assert "Traceback" not in out.stderr
    rows = {row["id"]: row for row in json.loads(out.stdout)}
    assert rows["future"]["status"] == "error" and f"needs plugin API {future}" in rows["future"]["reason"]
    assert not (tmp_path / "markers" / "imported").exists()


def spell_all(names: list[str]) -> None:
    """Write ``names`` as the literal ``__all__`` of lwcore.api's ``TYPE_CHECKING`` block (what
    mypy reads as the module's exports), wrapped at 110 columns."""
    path = Path(api.__file__)
    text = path.read_text(encoding="utf-8")
    found = re.search(r"\n    __all__ = \[(.*?)\]\n", text, flags=re.S)
    assert found, "lwcore/api.py has no literal __all__ in its TYPE_CHECKING block"
    lines, current = [], "    __all__ = ["
    for name in names:
        piece = f'"{name}", '
        if len(current) + len(piece) > 110:
            lines.append(current.rstrip())
            current = "        "
        current += piece
    lines.append(current.rstrip().rstrip(",") + "]")
    path.write_text(text[:found.start()] + "\n" + "\n".join(lines) + "\n" + text[found.end():], encoding="utf-8")


def update() -> int:
    """Record the current surface; refuse a removal or change without a major version."""
    new = surface()
    if SNAPSHOT.exists():
        snapshot = recorded()
        problems = breaking(snapshot["names"], new)
        if problems and major(API_VERSION) <= major(snapshot["api_version"]):
            print("refused: these break plugins and need a major API version first:", *problems, sep="\n  ")
            return 1
    spell_all(list(api.__all__))
    SNAPSHOT.parent.mkdir(parents=True, exist_ok=True)
    SNAPSHOT.write_text(json.dumps({"api_version": API_VERSION, "names": new}, indent=1, ensure_ascii=False) + "\n",
                        encoding="utf-8")
    print(f"recorded {len(new)} names of lwcore.api {API_VERSION} in {SNAPSHOT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(update() if sys.argv[1:] == ["--update"] else 2)


def test_the_scaffold_imports_only_the_api_and_requires_this_major_version() -> None:
    """What ``lw plugins new`` writes is a plugin of this API (installed and run for real in
    ``tests/kernel/test_cli.py::test_scaffolded_plugin_installed_into_this_venv``)."""
    from lwcore.builtins.host.scaffold import files

    written = files("greeter")
    modules = set()
    for name, text in written.items():
        if name.endswith(".py"):
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("lwcore"):
                    modules.add(node.module)
                elif isinstance(node, ast.Import):
                    modules.update(a.name for a in node.names if a.name.startswith("lwcore"))
    assert modules == {"lwcore.api"}
    manifest = written["lw_greeter/lw-plugin.toml"]
    requirement = re.search(r'^requires_api = "(.*)"$', manifest, re.M)
    assert requirement and satisfies(requirement.group(1))
    assert not satisfies(requirement.group(1), f"{major(API_VERSION) + 1}.0.0")


def test_a_manifest_cache_of_another_manifest_schema_is_ignored(site, kernel_factory, tmp_path) -> None:
    """A cache written by a kernel whose manifests have other fields (an older one without
    ``requires_api``, a newer one with more) starts over instead of failing every command."""
    from lwcore import __version__
    from lwcore.manifest import ManifestCache, cache_tag

    site.add("good", code=CURRENT_CODE, extra_manifest='requires_api = ">=1"')
    kernel_factory(env={"LW_PLUGINS": "good"}).load_all()
    path = tmp_path / "data" / "cache" / "manifests.json"
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written["engine"] == cache_tag() and "requires_api" in cache_tag()
    for entry in written["manifests"].values():
        entry["data"]["from_the_future"] = 1  # a field this kernel's Manifest does not have
    path.write_text(json.dumps({**written, "engine": f"{__version__} id version from_the_future"}), encoding="utf-8")
    manifest = site.root / "lwtest_good" / "lw-plugin.toml"
    assert ManifestCache(path).get(manifest, manifest.stat()) is None
    kernel = kernel_factory(env={"LW_PLUGINS": "good"})
    assert kernel.plugin("good").status == "enabled" and kernel.plugin("good").manifest.requires_api == ">=1"


def test_the_names_renamed_in_2_0_still_answer_with_a_deprecation_warning(tmp_path) -> None:
    """2.0 renamed ``pack`` (the rule system a room, a sheet and the engine's lookup give) to
    ``rule_system``; the old names answer the same object through 2.x, warning."""
    import shutil
    import warnings

    from lwcore.api import Kernel, Room, engine_for

    room_dir = tmp_path / "room"
    shutil.copytree(ROOT / "examples" / "fog-harbor", room_dir, ignore=shutil.ignore_patterns("replies", ".lw"))
    kernel = Kernel(data_dir=tmp_path / "home", env={})
    room = Room.load(room_dir, kernel)
    sheet = next(iter(room.sheets.values()))
    engine = engine_for(kernel)
    for old, new in ((lambda: room.pack, room.rule_system), (lambda: sheet.pack, sheet.rule_system),
                     (lambda: engine.pack(room.rule_system.id), engine.rule_system(room.rule_system.id))):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert old() is new
        assert [w.category for w in caught] == [DeprecationWarning] and "rule_system" in str(caught[0].message)
