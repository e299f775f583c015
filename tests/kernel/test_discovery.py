"""Entry-point and directory discovery, manifests before import, gating, failure isolation."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from lwcore.errors import PluginError
from lwcore.kernel import Kernel
from lwcore.settings import PluginSettings

GOOD = """
from lwcore.contributions import PromptSegment
from lwcore.hookspecs import hookimpl

@hookimpl
def lw_prompt_segments(turn):
    return [PromptSegment("good-seg", "good text")]
"""

MARKING = """
import os, pathlib
pathlib.Path(os.environ["LW_TEST_MARKER_DIR"], "imported").write_text("yes")
raise RuntimeError("this module must never be imported while disabled")
"""


def ids_with_status(kernel: Kernel, *ids: str) -> dict[str, str]:
    return {r.id: r.status for r in kernel.plugins if r.id in ids}


def test_disabled_third_party_is_listed_but_never_imported(site, kernel_factory, tmp_path) -> None:
    site.add("marker", code=MARKING)
    kernel = kernel_factory()
    kernel.load_all()
    record = kernel.plugin("marker")
    assert record.status == "disabled"
    assert record.manifest is not None and record.manifest.description["en"] == "test plugin marker"
    assert record.distribution == "lwtest-marker"
    assert "lw plugins enable marker" in (record.reason or "")
    assert not (tmp_path / "markers" / "imported").exists()
    assert "lwtest_marker" not in sys.modules and "lwtest_marker.plugin" not in sys.modules


def test_enabled_third_party_is_imported_and_called(site, kernel_factory) -> None:
    site.add("good", code=GOOD)
    assert kernel_factory().prompt_segments().segments == ()
    kernel = kernel_factory(env={"LW_PLUGINS": "good"})
    assert [e.value.text for e in kernel.prompt_segments().segments] == ["good text"]
    assert kernel.plugin("good").status == "enabled"


def test_operator_enable_is_persisted(site, kernel_factory, tmp_path) -> None:
    site.add("good", code=GOOD)
    settings = PluginSettings.load(tmp_path / "data")
    settings.enable("good")
    settings.save()
    kernel = kernel_factory()
    assert kernel.plugin("good").status == "enabled"
    # LW_PLUGINS, when set, is the allowlist (empty = no third-party code plugins)
    assert kernel_factory(env={"LW_PLUGINS": ""}).plugin("good").status == "disabled"


def test_a_plugin_cannot_declare_itself_bundled(site, kernel_factory, tmp_path) -> None:
    """Bundled status is the kernel's word (its distribution's ``bundled`` extra, in the same
    environment), never the plugin's: a manifest saying ``bundled = true`` is third-party code
    like any other -- listed, disabled, never imported, even under ``LW_PLUGINS=``."""
    site.add("marker", code=MARKING, claims_bundled=True)
    for env in ({}, {"LW_PLUGINS": ""}):
        kernel = kernel_factory(env=env)
        kernel.load_all()
        record = kernel.plugin("marker")
        assert (record.status, record.bundled) == ("disabled", False)
    assert not (tmp_path / "markers" / "imported").exists()
    assert "lwtest_marker.plugin" not in sys.modules


def test_a_self_declared_bundled_plugin_loses_a_name_clash(site, kernel_factory, tmp_path) -> None:
    site.add("twin", code=GOOD, package="lwtest_twin_real", dist="lwtest-twin-real", bundled=True)
    site.add("twin", code=MARKING, package="lwtest_twin_fake", dist="lwtest-twin-fake", claims_bundled=True)
    kernel = kernel_factory()
    kernel.load_all()
    records = [r for r in kernel.plugins if r.id == "twin"]
    assert [(r.distribution, r.status) for r in records] == [("lwtest-twin-real", "enabled"), ("lwtest-twin-fake", "error")]
    assert not (tmp_path / "markers" / "imported").exists()


def test_a_look_alike_name_in_another_folder_is_not_bundled(site, kernel_factory, tmp_path, monkeypatch) -> None:
    site.ship_with_kernel("lwtest-lookalike")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.syspath_prepend(str(elsewhere))
    from tests.conftest import Site

    other = Site(elsewhere)
    other.add("lookalike", code=MARKING, dist="lwtest-lookalike")
    try:
        record = kernel_factory().plugin("lookalike")
        assert (record.status, record.bundled) == ("disabled", False)
        assert not (tmp_path / "markers" / "imported").exists()
    finally:
        for name in [m for m in sys.modules if m.startswith("lwtest_lookalike")]:
            del sys.modules[name]


def test_bundled_enabled_by_default_and_disableable(site, kernel_factory, tmp_path) -> None:
    site.add("builtin", code=GOOD, bundled=True)
    assert kernel_factory().plugin("builtin").status == "enabled"
    settings = PluginSettings.load(tmp_path / "data")
    settings.disable("builtin")
    settings.save()
    kernel = kernel_factory()
    assert kernel.plugin("builtin").status == "disabled"
    assert kernel.prompt_segments().segments == ()


FAILURES = {
    "missing module": dict(entry="lwtest_nowhere.plugin", manifest=False, package="lwtest_missing"),
    "import error": dict(code="raise ImportError('no such dependency: frobnicate')"),
    "malformed manifest": dict(manifest='id = "broken"\nversion = 1.0.0\n'),
    "invalid manifest": dict(manifest='id = "broken"\nversion = "1.0"\ntier = "magic"\n'),
    "bad signature": dict(
        code="from lwcore.hookspecs import hookimpl\n@hookimpl\ndef lw_prompt_segments(turn, nonsense):\n    return []\n"
    ),
    "raises in hook": dict(
        code="from lwcore.hookspecs import hookimpl\n@hookimpl\ndef lw_prompt_segments(turn):\n    raise ValueError('boom')\n"
    ),
    "wrong return type": dict(
        code="from lwcore.hookspecs import hookimpl\n@hookimpl\ndef lw_prompt_segments(turn):\n    return 'not a list'\n"
    ),
    "wrong item type": dict(
        code="from lwcore.hookspecs import hookimpl\n@hookimpl\ndef lw_prompt_segments(turn):\n    return [{'name': 'x', 'text': 'y'}]\n"
    ),
    "no manifest": dict(manifest=False),
    "module __getattr__ raises": dict(
        code="def __dir__():\n    return ['lw_prompt_segments']\n"
        "def __getattr__(name):\n    raise RuntimeError('lookup of ' + name + ' exploded')\n"
    ),
    "generator raises after first yield": dict(
        code="from lwcore.contributions import PromptSegment\nfrom lwcore.hookspecs import hookimpl\n"
        "@hookimpl\ndef lw_prompt_segments(turn):\n    yield PromptSegment('first', 'x')\n    raise ValueError('late')\n"
    ),
    "wrong field type": dict(
        code="from lwcore.contributions import PromptSegment\nfrom lwcore.hookspecs import hookimpl\n"
        "@hookimpl\ndef lw_prompt_segments(turn):\n    return [PromptSegment('z', 'text', order='zzz')]\n"
    ),
    "iterable that raises": dict(
        code="from lwcore.hookspecs import hookimpl\nclass Bad:\n    def __iter__(self):\n        raise OSError('no')\n"
        "@hookimpl\ndef lw_prompt_segments(turn):\n    return Bad()\n"
    ),
}


@pytest.mark.parametrize("kind", sorted(FAILURES))
def test_each_failure_is_contained(kind, site, kernel_factory) -> None:
    site.add("broken", **FAILURES[kind])
    site.add("good", code=GOOD)
    kernel = kernel_factory(env={"LW_PLUGINS": "good,broken"})
    texts = [e.value.text for e in kernel.prompt_segments().segments]
    assert texts == ["good text"]
    kernel.load_all()
    broken = kernel.plugin("broken")
    assert broken.status == "error", broken
    assert broken.reason
    assert kernel.plugin("good").status == "enabled"


def test_malformed_manifest_is_located(site, kernel_factory) -> None:
    site.add("broken", manifest='id = "broken"\nversion = 1.0.0\n')
    reason = kernel_factory().plugin("broken").reason or ""
    assert "lw-plugin.toml:2:" in reason and "invalid TOML" in reason


def test_invalid_manifest_names_key_line_and_expectation(site, kernel_factory) -> None:
    site.add("broken", manifest='id = "broken"\nversion = "1.0"\n\ntier = "magic"\n')
    reason = kernel_factory().plugin("broken").reason or ""
    assert "lw-plugin.toml:4" in reason and "tier" in reason and "data | declarative | code" in reason


def test_duplicate_id_keeps_the_bundled_one(site, kernel_factory) -> None:
    site.add("twin", code=GOOD, package="lwtest_twin_a", dist="lwtest-twin-a")
    site.add("twin", code=GOOD, package="lwtest_twin_b", dist="lwtest-twin-b", bundled=True)
    kernel = kernel_factory()
    records = [r for r in kernel.plugins if r.id == "twin"]
    assert [(r.distribution, r.status) for r in records] == [
        ("lwtest-twin-b", "enabled"),
        ("lwtest-twin-a", "error"),
    ]
    assert "duplicate id" in (records[1].reason or "")


def test_strict_mode_raises(site, kernel_factory) -> None:
    site.add("broken", manifest='id = "broken"\n')
    with pytest.raises(PluginError, match="broken"):
        kernel_factory(env={"LW_STRICT_PLUGINS": "1"})


def test_undeclared_family_is_refused(site, kernel_factory) -> None:
    code = GOOD + """
from lwcore.contributions import ToolSpec

@hookimpl
def lw_tools(register):
    register(ToolSpec("sneaky", {"en": "x"}, "pydantic:BaseModel", print))
"""
    site.add("sneaky", code=code, provides=("prompt_segments",))
    kernel = kernel_factory(env={"LW_PLUGINS": "sneaky"})
    assert "sneaky" not in kernel.tools
    assert [e.value.text for e in kernel.prompt_segments().segments] == ["good text"]
    refused = kernel.plugin("sneaky").refused
    assert refused == ["lw_tools: family 'tools' is not in the manifest's provides"]


def test_manifest_cache_skips_revalidation(site, kernel_factory, tmp_path) -> None:
    site.add("good", code=GOOD)
    kernel_factory()
    cache = json.loads((tmp_path / "data" / "cache" / "manifests.json").read_text(encoding="utf-8"))
    (entry,) = [v for k, v in cache["manifests"].items() if "lwtest_good" in k]
    assert entry["data"]["id"] == "good"
    # an edited manifest is revalidated (the signature changes)
    manifest = site.root / "lwtest_good" / "lw-plugin.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace('"1.0.0"', '"2.0.0"'), encoding="utf-8")
    assert kernel_factory().plugin("good").manifest.version == "2.0.0"


def test_engine_version_gate(site, kernel_factory) -> None:
    site.add("future", code=GOOD, extra_manifest='min_engine = "99.0"')
    record = kernel_factory(env={"LW_PLUGINS": "future"}).plugin("future")
    assert record.status == "error" and "needs lwcore >= 99.0" in (record.reason or "")


# --- directory plugins --------------------------------------------------------------------

DATA_MANIFEST = 'id = "{id}"\nversion = "1.0"\ntier = "data"\nprovides = ["rulepacks"]\n'


def write_dir_plugin(root: Path, folder: str, manifest: str | None, files: dict[str, str] = {}) -> Path:
    path = root / folder
    path.mkdir(parents=True)
    if manifest is not None:
        (path / "lw-plugin.toml").write_text(manifest, encoding="utf-8")
    for rel, text in files.items():
        (path / rel).parent.mkdir(parents=True, exist_ok=True)
        (path / rel).write_text(text, encoding="utf-8")
    return path


def test_directory_data_plugin(kernel_factory, tmp_path) -> None:
    root = tmp_path / "data" / "plugins"
    write_dir_plugin(root, "海潮", DATA_MANIFEST.format(id="tide"), {"rulepacks/tide.yaml": "names: [tide]\n"})
    write_dir_plugin(root, "empty", None)
    write_dir_plugin(root, "codey", 'id = "codey"\nversion = "1"\ntier = "code"\n')
    kernel = kernel_factory(entry_points=False)
    assert kernel.rulepacks["tide"].path == root / "海潮" / "rulepacks" / "tide.yaml"
    assert kernel.rulepacks.origin("tide") == "tide"
    statuses = {r.name: (r.status, r.reason) for r in kernel.plugins}
    assert statuses["海潮"] == ("enabled", None)
    assert statuses["empty"][0] == "error" and "no lw-plugin.toml" in statuses["empty"][1]
    assert statuses["codey"][0] == "error" and "cannot be code-tier" in statuses["codey"][1]
    assert kernel.data_folders("rulepacks") == (("tide", root / "海潮" / "rulepacks"),)


def test_running_kernel_notices_new_and_changed_folders(kernel_factory, tmp_path) -> None:
    root = tmp_path / "data" / "plugins"
    root.mkdir(parents=True)
    kernel = kernel_factory(entry_points=False)
    assert len(kernel.rulepacks) == 0
    plugin = write_dir_plugin(root, "late", DATA_MANIFEST.format(id="late"), {"rulepacks/a.yaml": "x: 1\n"})
    assert set(kernel.rulepacks) == {"a"}
    (plugin / "rulepacks" / "b.yaml").write_text("x: 2\n", encoding="utf-8")
    assert set(kernel.rulepacks) == {"a", "b"}


def test_builtin_id_wins_over_user_folder(site, kernel_factory, tmp_path) -> None:
    site.add("tide", code=GOOD, bundled=True)
    write_dir_plugin(tmp_path / "data" / "plugins", "tide", DATA_MANIFEST.format(id="tide"))
    records = [r for r in kernel_factory().plugins if r.id == "tide"]
    assert [(r.source, r.status) for r in records] == [("entry_point", "enabled"), ("directory", "error")]


def test_host_plugin_dirs_and_explicit_enabled_set(kernel_factory, tmp_path) -> None:
    extra = tmp_path / "host-plugins"
    write_dir_plugin(extra, "a", DATA_MANIFEST.format(id="a"), {"rulepacks/a.yaml": "x: 1\n"})
    write_dir_plugin(extra, "b", DATA_MANIFEST.format(id="b"), {"rulepacks/b.yaml": "x: 1\n"})
    kernel = kernel_factory(entry_points=False, plugin_dirs=[extra], enabled={"b"})
    assert set(kernel.rulepacks) == {"b"}
    assert kernel.plugin("a").reason == "not in the host's enabled set"


def test_uninstall_leaves_no_residue(site, kernel_factory, tmp_path) -> None:
    import shutil

    from lwcore.contributions import TurnContext

    site.add("gone", code=GOOD, bundled=True)
    kernel = kernel_factory()
    assert [e.plugin_id for e in kernel.prompt_segments(TurnContext()).segments] == ["gone"]
    shutil.rmtree(site.root / "lwtest_gone")
    shutil.rmtree(next(site.root.glob("lwtest_gone-*.dist-info")))
    for name in [m for m in sys.modules if m.startswith("lwtest_gone")]:
        del sys.modules[name]
    import importlib

    importlib.invalidate_caches()
    kernel = kernel_factory()
    assert all(r.id != "gone" for r in kernel.plugins)
    assert kernel.prompt_segments(TurnContext()).segments == ()
    cache = (tmp_path / "data" / "cache" / "manifests.json").read_text(encoding="utf-8")
    assert "lwtest_gone" not in cache
