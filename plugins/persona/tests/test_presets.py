"""§4: preset cards."""

from __future__ import annotations

import json

import pytest
from lwcore.errors import LwError

from lw_persona import presets as pm
from lw_persona.config import read_raw


@pytest.mark.parametrize("bad", ["../x", "a/b", "a.b", "", "x" * 65, "名字", "a b", "..", None, 5])
def test_id_regex_rejects(bad):
    assert pm.safe_id(bad) is None
    with pytest.raises(LwError):
        pm.require_id(bad)


@pytest.mark.parametrize("good", ["a", "A-b_9", "x" * 64])
def test_id_regex_accepts(good):
    assert pm.safe_id(good) == good


def test_load_rejects_traversal(home):
    secret = home / "secret.json"
    secret.write_text('{"persona": {"stance": "x"}}', encoding="utf-8")
    with pytest.raises(LwError, match="invalid preset id"):
        pm.load("../secret")


def test_whitelist_and_no_memory():
    raw = {"spec": pm.PRESET_SPEC, "id": "p", "persona": {"stance": "s", "enabled": False, "preset": "x", "contracts": []},
           "memory": {"entries": [{"text": "implant"}]}}
    preset, notes = pm.normalize(raw)
    assert preset["persona"] == {"stance": "s", "contracts": []}
    assert any("memory" in n for n in notes) and any("enabled" in n for n in notes)
    assert "memory" not in pm.body_for_file(preset)


def test_legacy_format_only_without_persona():
    preset, notes = pm.normalize({"character": "c", "contracts": [{"text": "k"}], "name": "old"}, "file-id")
    assert preset["persona"] == {"character": "c", "contracts": [{"text": "k"}]} and preset["id"] == "file-id"
    preset, _ = pm.normalize({"persona": {"stance": "s"}, "character": "ignored"})
    assert preset["persona"] == {"stance": "s"}
    assert pm.normalize({"something": "else"}) is None


def test_apply_overwrites_only_present_keys_and_autosaves(write_config, home):
    path = write_config({"x-top": 1, "thinkingLanguage": "en",
                         "persona": {"stance": "mine", "character": "keep", "enabled": True, "x-p": [1]},
                         "memory": {"enabled": True, "entries": [{"text": "私人"}]}, "budget": {"max": 9}})
    preset = {"id": "card", "persona": {"stance": "theirs", "userName": None, "contracts": [{"text": "k"}]},
              "thinkingLanguage": 5}
    result = pm.apply(preset, path)
    after = read_raw(path)
    assert after["persona"] == {"stance": "theirs", "character": "keep", "enabled": True, "x-p": [1], "contracts": [{"text": "k"}]}
    assert after["thinkingLanguage"] == "en"  # not a string in the card: untouched
    assert after["memory"] == {"enabled": True, "entries": [{"text": "私人"}]} and after["x-top"] == 1 and after["budget"] == {"max": 9}
    auto = pm.load("autosave")
    assert result["autosave"] and auto["persona"] == {"stance": "mine", "character": "keep"}
    pm.apply({"id": "tl", "persona": {}, "thinkingLanguage": "ja"}, path)
    assert read_raw(path)["thinkingLanguage"] == "ja"


def test_apply_refuses_broken_config(write_config):
    path = write_config("{oops")
    with pytest.raises(LwError):
        pm.apply({"persona": {"stance": "x"}}, path)
    assert path.read_text(encoding="utf-8") == "{oops"


def test_save_list_show(write_config, home):
    path = write_config({"thinkingLanguage": "zh-CN", "persona": {"stance": "s", "enabled": False},
                         "memory": {"entries": [{"text": "no"}]}})
    saved = pm.save(pm.from_config(read_raw(path), preset_id="mine", label="我的"))
    body = json.loads(saved.read_text(encoding="utf-8"))
    assert body == {"spec": pm.PRESET_SPEC, "id": "mine", "label": "我的", "description": "", "thinkingLanguage": "zh-CN",
                    "persona": {"stance": "s"}}
    (saved.parent / "bad name.json").write_text("{}", encoding="utf-8")
    (saved.parent / "broken.json").write_text("{", encoding="utf-8")
    items, skipped = pm.list_presets()
    assert [i["id"] for i in items] == ["mine"]
    assert {s["file"] for s in skipped} == {"bad name.json", "broken.json"}
