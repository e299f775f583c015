"""Content never drives the operator's terminal (the attacker's L3): a model's narration, a
room's title, kept alternatives and players' views holding ESC sequences (CSI, OSC 52 clipboard,
OSC 0 title), carriage returns, C1 controls and bidi overrides are printed in a visible form by
every ``lw`` command, as real processes; ``--json`` keeps the same data, escaped."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings, strategies as st

from lwcore.io.terminal import json_safe, terminal_safe

from .conftest import REPLIES, with_narration

LW = str(Path(sys.executable).with_name("lw"))
SAY = "我去码头查看那艘空船。"
HOSTILE = "\x1b[2J\x1b]52;c;ZXZpbA==\x07\x1b]0;pwned\x07\rOVER\x9b31m\u202egnp.exe\x08\x7f"
FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def lw(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env["LW_HOME"] = str(home)
    done = subprocess.run([LW, *args], capture_output=True, text=True, env=env, timeout=120)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def clean(text: str) -> bool:
    return FORBIDDEN.search(text) is None


def reply_file(tmp_path: Path, extra: str) -> str:
    reply = json.loads((REPLIES / "turn1.anthropic_messages.json").read_text(encoding="utf-8"))
    path = tmp_path / f"reply{len(list(tmp_path.glob('reply*')))}.json"
    path.write_text(json.dumps(with_narration(reply, extra), ensure_ascii=False), encoding="utf-8")
    return str(path)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=200))
def test_terminal_safe_output_never_holds_a_control(text: str) -> None:
    out = terminal_safe(text)
    assert clean(out)
    assert out.count("\n") == text.count("\n") and out.count("\t") == text.count("\t")
    assert json.loads(json_safe(json.dumps(text, ensure_ascii=False))) == text  # the same data
    assert clean(json_safe(json.dumps(text, ensure_ascii=False)))


def test_visible_forms() -> None:
    assert terminal_safe("a\x1b[31mb\r\nc\rd\x9b\u202e\x7f\te") == "a^[[31mb\nc^Md\ufffd\ufffd^?\te"
    assert terminal_safe("雾散了。\n") == "雾散了。\n"


def test_narration_titles_alternatives_and_views_reach_the_terminal_visible(tmp_path: Path, room_dir: Path) -> None:
    home = tmp_path / "home"
    text = (room_dir / "room.yaml").read_text(encoding="utf-8")
    (room_dir / "room.yaml").write_text(text.replace(
        "  en: The Fog Harbor Affair", '  en: "Fog\\e]0;owned\\a Harbor\\u202e"'), encoding="utf-8")
    room = str(room_dir)
    first = lw("turn", room, "--say", SAY, "--reply", reply_file(tmp_path, HOSTILE), "--seed", "1", home=home)
    assert first.returncode == 0, first.stderr
    again = lw("turn", room, "--regenerate", "--reply", reply_file(tmp_path, "（重写）" + HOSTILE), home=home)
    assert again.returncode == 0, again.stderr
    outputs = {
        "turn": first.stdout + first.stderr,
        "regenerate": again.stdout + again.stderr,
        "alternatives": lw("room", "alternatives", room, home=home).stdout,
        "view": lw("turn", room, "--as", "p2", home=home).stdout,
        "keeper view": lw("turn", room, "--view", home=home).stdout,
    }
    for name, out in outputs.items():
        assert clean(out), (name, [c for c in out if FORBIDDEN.match(c)])
    assert "^[]52;c;ZXZpbA==^G^[]0;pwned^G" in outputs["alternatives"] and "^MOVER" in outputs["alternatives"]
    assert "^[]52" in outputs["view"]
    # the room list shows the room's title visible (a room of the data dir, by name)
    assert lw("room", "create", "harbor", "--from", room, home=home).returncode == 0
    listed = lw("room", "list", home=home)
    assert listed.returncode == 0 and clean(listed.stdout) and "Fog^[]0;owned^G Harbor\ufffd" in listed.stdout
    # JSON keeps the very data, escaped (a script reads the same narration back)
    data = json.loads(lw("room", "alternatives", room, "--json", home=home).stdout)
    assert HOSTILE in data[0]["narration"]
    raw = lw("room", "list", "--json", home=home).stdout
    assert clean(raw) and "Fog\x1b]0;owned\x07 Harbor\u202e" in [r["title"] for r in json.loads(raw)]
