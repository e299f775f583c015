"""Provider presets as a data kind (issue 27, item 10): a data plugin's ``provider_presets/*.yaml``
is a profile a room can name once the operator has adopted it (``lw provider adopt``), listed by
``lw provider list`` with its origin, checked as a profile file is (never
a key in a file), and a data dir profile of the same name wins. Real ``lw`` processes, a real
data plugin folder, a loopback server speaking Chat Completions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from provider_servers import ProviderServer, Reply

LW = Path(sys.executable).parent / "lw"
NARRATION = "雾散了，码头上站着一个人。"


def lw(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(LW), *args], capture_output=True, text=True, env=_env(home), timeout=120)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def preset_plugin(home: Path, files: dict[str, str]) -> Path:
    folder = home / "plugins" / "table-models"
    (folder / "provider_presets").mkdir(parents=True)
    (folder / "lw-plugin.toml").write_text(
        'id = "table-models"\nversion = "1.0.0"\ntier = "data"\nprovides = ["provider_presets"]\n'
        '[description]\nen = "The models this table plays on"\n', encoding="utf-8")
    for name, text in files.items():
        (folder / "provider_presets" / f"{name}.yaml").write_text(text, encoding="utf-8")
    return folder


def test_a_room_plays_on_a_data_plugins_preset_only_once_adopted(tmp_path: Path, room_dir: Path) -> None:
    """A plugin not bundled with Loreweaver never decides where the operator's key goes (the
    attacker's H2): naming its preset is a located refusal naming ``lw provider adopt``, and
    nothing is sent; the adopt command shows the plugin, the host and the variable, asks (refusing
    without a terminal unless --yes), then saves the profile, and the room plays on it."""
    home = tmp_path / "home"
    with ProviderServer("chat_completions", [Reply(NARRATION)]) as server:
        host = server.url.split("/")[2]
        folder = preset_plugin(home, {"house": f"protocol: chat_completions\nendpoint: {server.url}\nmodel: house-model\n"
                                               "key_env: TABLE_KEY\n"})
        listed = json.loads(lw("provider", "list", "--json", home=home).stdout)
        (row,) = [r for r in listed if r["name"] == "house"]
        assert (row["source"], row["model"], row["bundled"], row["adopted"]) == (
            "preset of plugin table-models", "house-model", False, False)
        assert "[preset of plugin table-models, not adopted: lw provider adopt house]" in lw(
            "provider", "list", home=home).stdout
        # the bundled plugin's presets keep working as they are, marked so
        (ollama,) = [r for r in listed if r["name"] == "ollama"]
        assert ollama["bundled"] is True and ollama["source"] == "bundled preset of providers"
        # the trust card says where the preset sends the key
        card = lw("plugins", "info", "table-models", home=home)
        assert f"provider preset: house: it sends your key in $TABLE_KEY to host {host}" in card.stdout
        text = (room_dir / "room.yaml").read_text(encoding="utf-8")
        (room_dir / "room.yaml").write_text(f"profile: house\n{text}", encoding="utf-8")
        before = sorted((p.name, p.read_bytes()) for p in room_dir.rglob("*") if p.is_file() and p.name != "lock")
        for args in (["turn", str(room_dir), "--say", "我去码头。", "--no-stream"],
                     ["turn", str(room_dir), "--say", "我去码头。", "--profile", "house", "--no-stream"],
                     ["provider", "test", "house"]):
            refused = subprocess.run([str(LW), *args], capture_output=True, text=True, timeout=120,
                                     env={**_env(home), "TABLE_KEY": "sk-table-secret"})
            assert refused.returncode == 1, refused.stdout
            assert "preset of plugin 'table-models', which is not bundled" in refused.stderr
            assert f"$TABLE_KEY to host {host}" in refused.stderr and "lw provider adopt house" in refused.stderr
            assert f"{folder / 'provider_presets' / 'house.yaml'}" in refused.stderr
            assert "sk-table-secret" not in refused.stderr
        assert server.requests == []  # nothing was sent
        assert sorted((p.name, p.read_bytes()) for p in room_dir.rglob("*") if p.is_file() and p.name != "lock") == before
        # adopting: refused without a terminal and without --yes, nothing saved
        asked = subprocess.run([str(LW), "provider", "adopt", "house"], input="y\n", capture_output=True, text=True,
                               timeout=120, env=_env(home))
        assert asked.returncode == 1 and "not a terminal" in asked.stderr
        assert "plugin table-models" in asked.stdout and f"endpoint host: {host}" in asked.stdout
        assert "$TABLE_KEY" in asked.stdout and not (home / "providers" / "house.yaml").exists()
        adopted = lw("provider", "adopt", "house", "--yes", home=home)
        assert adopted.returncode == 0, adopted.stderr
        assert "adopted preset house of plugin table-models as profile house" in adopted.stdout
        listed = json.loads(lw("provider", "list", "--json", home=home).stdout)
        (row,) = [r for r in listed if r["name"] == "house"]
        assert (row["source"], row["adopted_from"]) == ("data dir", "house of plugin table-models")
        played = subprocess.run([str(LW), "turn", str(room_dir), "--say", "我去码头。", "--no-stream"],
                                capture_output=True, text=True, timeout=120, env={**_env(home), "TABLE_KEY": "k-1"})
        assert played.returncode == 0, played.stderr
        assert NARRATION in played.stdout and server.requests[0].body["model"] == "house-model"
        # adopting under another name keeps the preset marked adopted; the name must be free
        assert lw("provider", "adopt", "house", "--yes", home=home).returncode == 1
        assert lw("provider", "adopt", "house", "--as", "house2", "--yes", home=home).returncode == 0
        # a profile of the data dir with the same name wins over the preset
        (home / "providers" / "house.yaml").write_text(
            f"protocol: chat_completions\nendpoint: {server.url}\nmodel: operators-own\nkey_env: null\n", encoding="utf-8")
        shown = json.loads(lw("provider", "show", "house", "--json", home=home).stdout)
        assert shown["model"] == "operators-own"


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_") and not k.endswith("_API_KEY")}
    return {**env, "LW_HOME": str(home)}


@pytest.mark.parametrize("text,line", [
    ("protocol: chat_completions\nendpoint: http://h/v1/chat/completions\nmodel: m\napi_key: abc123\n", 4),
    ("protocol: chat_completions\nendpoint: http://u:secretpw@h/v1/chat/completions\nmodel: m\n", 2),
])
def test_a_preset_holding_a_key_is_refused_where_it_holds_it(tmp_path: Path, text: str, line: int) -> None:
    home = tmp_path / "home"
    folder = preset_plugin(home, {"leaky": text})
    shown = lw("provider", "show", "leaky", home=home)
    assert shown.returncode == 1 and "a profile never holds a key" in shown.stderr
    assert f"{folder / 'provider_presets' / 'leaky.yaml'}:{line}:" in shown.stderr
    assert "abc123" not in shown.stderr and "secretpw" not in shown.stderr
    listed = json.loads(lw("provider", "list", "--json", home=home).stdout)
    (row,) = [r for r in listed if r["name"] == "leaky"]
    assert "never holds a key" in row["error"] and "abc123" not in row["error"]
