"""The bundled romance-relationships skill (contract B.2: "romance-relationships 跑在这套上"): rated
mature, so it counts only in a room whose adult switch is on; enabled there, its guidance reaches
the keeper's model and the room offers the tools it names. Through the real ``lw``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

LW = str(Path(sys.executable).with_name("lw"))


def test_the_romance_skill_needs_the_adult_switch_then_guides_the_keeper(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env["LW_HOME"] = str(tmp_path / "home")

    def lw(*args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([LW, *args], capture_output=True, text=True, env=env, timeout=120)
        assert (done.returncode == 0) == ok, done.stderr
        return done

    lw("room", "create", "r", "--example", "fog-harbor")
    refused = lw("turn", "r", "--as", "kp", "--say", ".skill enable romance-relationships", ok=False)
    assert "rated mature: it needs the room's adult switch" in refused.stderr
    room_file = tmp_path / "home" / "rooms" / "r" / "room.yaml"
    room_file.write_text(room_file.read_text(encoding="utf-8") + "adult: true\n", encoding="utf-8")
    lw("turn", "r", "--as", "kp", "--say", ".skill enable romance-relationships")
    compiled = json.loads(lw("turn", "r", "--say", "我对苏医生笑了笑。", "--dry-run", "--json").stdout)
    text = json.dumps(compiled["payload"], ensure_ascii=False)
    assert "Consent beats" in text and "Bonds are variables" in text
    offered = set(compiled["tools"])
    assert {"skill_check", "keeper_note", "adjust_variable"} <= offered
