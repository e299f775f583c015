"""Provider presets as a data kind (issue 27, item 10): a data plugin's ``provider_presets/*.yaml``
is a profile a room can name, listed by ``lw provider list``, checked as a profile file is (never
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
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_") and not k.endswith("_API_KEY")}
    env["LW_HOME"] = str(home)
    done = subprocess.run([str(LW), *args], capture_output=True, text=True, env=env, timeout=120)
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


def test_a_room_plays_on_a_data_plugins_preset(tmp_path: Path, room_dir: Path) -> None:
    home = tmp_path / "home"
    with ProviderServer("chat_completions", [Reply(NARRATION)]) as server:
        preset_plugin(home, {"house": f"protocol: chat_completions\nendpoint: {server.url}\nmodel: house-model\n"
                                      "key_env: null\n"})
        listed = json.loads(lw("provider", "list", "--json", home=home).stdout)
        (row,) = [r for r in listed if r["name"] == "house"]
        assert (row["source"], row["model"]) == ("preset of table-models", "house-model")
        text = (room_dir / "room.yaml").read_text(encoding="utf-8")
        (room_dir / "room.yaml").write_text(f"profile: house\n{text}", encoding="utf-8")
        played = lw("turn", str(room_dir), "--say", "我去码头。", "--no-stream", home=home)
        assert played.returncode == 0, played.stderr
        assert NARRATION in played.stdout and server.requests[0].body["model"] == "house-model"
        # a profile of the data dir with the same name wins over the preset
        (home / "providers").mkdir()
        (home / "providers" / "house.yaml").write_text(
            f"protocol: chat_completions\nendpoint: {server.url}\nmodel: operators-own\nkey_env: null\n", encoding="utf-8")
        shown = json.loads(lw("provider", "show", "house", "--json", home=home).stdout)
        assert shown["model"] == "operators-own"


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
