"""§2: location rules, defaults, tolerant reads, unknown-key round trips, patch writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lwcore.errors import LwError

from lw_persona import config as cfgmod
from lw_persona import presets
from lw_persona.places import Places


def test_location_rules_with_dsh_home(home, monkeypatch, tmp_path):
    """§2.1 when $DSH_HOME is set (shared with other whale-persona tools)."""
    places = Places.resolve()
    assert places.shared and places.config == home / "whale-persona" / "config.json"
    legacy = home / "whale-suite" / "config.json"
    legacy.parent.mkdir(parents=True)
    legacy.mkdir()  # a folder named config.json is not a file: still the new layout
    assert Places.resolve().folder == home / "whale-persona"
    legacy.rmdir()
    legacy.write_text("{}", encoding="utf-8")
    assert Places.resolve().config == legacy
    assert presets.presets_dir() == home / "whale-suite" / "presets"
    monkeypatch.setenv("DSH_WHALE_CONFIG", str(tmp_path / "elsewhere.json"))
    assert Places.resolve().config == tmp_path / "elsewhere.json"
    assert Places.resolve().folder == home / "whale-suite"  # the folder stays (inbox, presets …)
    assert Places.resolve().config_file(tmp_path / "host.json") == tmp_path / "host.json"  # a host-passed path wins
    assert Places.resolve({"DSH_HOME": "/x"}).folder == Path("/x/whale-persona")


def test_location_without_dsh_home_is_the_kernels_data_dir(monkeypatch, tmp_path):
    monkeypatch.delenv("DSH_HOME")
    called = []

    def kernel_folder():
        called.append(1)
        return tmp_path / "kernel-data" / "plugins-data" / "persona"

    places = Places.resolve(kernel_folder=kernel_folder)
    assert not places.shared and called == [1]
    assert places.config == tmp_path / "kernel-data" / "plugins-data" / "persona" / "config.json"
    assert Places.resolve({"DSH_HOME": str(tmp_path)}, kernel_folder=kernel_folder).shared and called == [1]
    # no kernel at hand (the pure-Python API): where a default kernel would put it
    import os

    assert Places.resolve().folder == Path(os.environ["LW_HOME"]) / "plugins-data" / "persona"
    assert Places.resolve({"LW_HOME": str(tmp_path / "lw")}).folder == tmp_path / "lw" / "plugins-data" / "persona"
    assert not (Path(os.environ["LW_HOME"]) / "plugins-data").exists()  # resolving creates nothing


def test_defaults():
    cfg = cfgmod.merge(None)
    assert cfg["enabled"] is True and cfg["thinkingLanguage"] == "off"
    p, m, b = cfg["persona"], cfg["memory"], cfg["budget"]
    assert p["userName"] == "用户" and p["contracts"] == [] and p["appearance"] == {"enabled": False, "text": "", "byModel": {}}
    assert m == {"enabled": False, "entries": [], "inbox": True, "capture": "on-demand", "maxEntries": 30, "inboxPath": "",
                 "sinks": {}, "sinkLog": "", "requireConfirm": True}
    assert b == {"enabled": False, "max": 0, "warnInPrompt": True}


@pytest.mark.parametrize("content", [b"", b"{", b"\xff\xfe", b"[1]", b"42", b'"s"', b"null"])
def test_bad_files_give_defaults(tmp_path, content):
    path = tmp_path / "config.json"
    path.write_bytes(content)
    assert cfgmod.load(path) == cfgmod.merge(None)


def test_merge_keeps_unknown_keys():
    raw = {"x": 1, "persona": {"y": 2, "stance": "s"}, "memory": {"z": [3], "sinks": {"k": {"path": "/p", "w": 4}}},
           "budget": {"v": 5}}
    cfg = cfgmod.merge(raw)
    assert cfg["x"] == 1 and cfg["persona"]["y"] == 2 and cfg["memory"]["z"] == [3]
    assert cfg["memory"]["sinks"]["k"]["w"] == 4 and cfg["budget"]["v"] == 5


def test_patch_round_trip_keeps_unknown_keys_at_every_level(write_config):
    original = {
        "zz-first": True,
        "enabled": True,
        "persona": {"stance": "old", "x-persona": {"deep": [1, {"a": None}]}, "appearance": {"enabled": False, "x-app": 1},
                    "contracts": [{"id": "a", "text": "t", "on": True, "x-contract": "k"}]},
        "memory": {"enabled": True, "x-memory": 1, "sinks": {"note": {"path": "/n.md", "x-sink": "s"}}},
        "budget": {"enabled": True, "x-budget": 2},
        "context": {"other-tool": "data"},
        "中文键": "值",
    }
    path = write_config(original)
    raw = cfgmod.read_raw(path)
    persona = dict(raw["persona"], stance="new")
    cfgmod.write_patch(path, {"persona": persona})
    after = json.loads(path.read_text(encoding="utf-8"))
    expected = json.loads(json.dumps(original))
    expected["persona"]["stance"] = "new"
    assert after == expected
    assert list(after) == list(original)  # key order kept
    assert path.read_text(encoding="utf-8").endswith("}\n") and "中文键" in path.read_text(encoding="utf-8")


def test_patch_refuses_unknown_sections_and_bad_files(write_config):
    path = write_config({"a": 1})
    with pytest.raises(LwError):
        cfgmod.write_patch(path, {"budget": {}})
    path.write_text("{broken", encoding="utf-8")
    with pytest.raises(LwError, match="invalid JSON.*config.json was not overwritten") as info:
        cfgmod.write_patch(path, {"persona": {}})
    assert (info.value.file, info.value.line, info.value.column) == (str(path), 1, 2)
    assert path.read_text(encoding="utf-8") == "{broken"


def test_patch_is_atomic(write_config, monkeypatch):
    path = write_config({"persona": {"stance": "keep"}})
    import os

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(LwError, match="cannot write: disk full"):
        cfgmod.write_patch(path, {"persona": {"stance": "lost"}})
    assert json.loads(path.read_text(encoding="utf-8")) == {"persona": {"stance": "keep"}}
    assert [p.name for p in path.parent.iterdir()] == ["config.json"]


def test_inbox_path_rules(home, tmp_path):
    cfg = cfgmod.merge({})
    assert cfgmod.inbox_path(cfg) == home / "whale-persona" / "memory-inbox.jsonl"
    assert cfgmod.inbox_path(cfgmod.merge({"memory": {"inboxPath": " /abs/in.jsonl "}})) == Path("/abs/in.jsonl")
    assert cfgmod.inbox_path(cfgmod.merge({"memory": {"inboxPath": "sub/in.jsonl"}})) == home / "whale-persona" / "sub" / "in.jsonl"
    assert cfgmod.inbox_path(cfg, tmp_path / "o.jsonl") == tmp_path / "o.jsonl"


def test_patch_keeps_permission_bits(write_config):
    import os
    import stat

    path = write_config({"persona": {}})
    os.chmod(path, 0o640)
    cfgmod.write_patch(path, {"persona": {"stance": "x"}})
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
