"""The turn report's leak check (``lw turn``'s "no keeper-only value in any player's view") has
no false alarms on imported worlds: a word of the format ("number", a variable's kind) or a
greeting the import published as the story's opening is no secret. (A real leak is still
reported: tests/turn/test_chronicle_secrecy.py.) Through the real ``lw``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

LW = str(Path(sys.executable).with_name("lw"))
ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "plugins" / "tavern" / "tests" / "fixtures"


def test_imported_worlds_raise_no_false_alarm(tmp_path: Path) -> None:
    room = tmp_path / "room"
    shutil.copytree(ROOT / "examples" / "fog-harbor", room, ignore=shutil.ignore_patterns(".lw"))
    shutil.copy(FIXTURES / "ashen-stair.lorecard.json", room / "ashen.json")
    shutil.copy(FIXTURES / "bell-tower.world.json", room / "bell.json")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env["LW_HOME"] = str(tmp_path / "home")

    def lw(*args: str) -> str:
        done = subprocess.run([LW, *args], capture_output=True, text=True, env=env, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout

    lw("turn", str(room), "--as", "kp", "--say", ".import ashen.json world")
    lw("turn", str(room), "--as", "kp", "--say", ".import bell.json world")
    report = lw("turn", str(room), "--say", "我去码头查看那艘空船。", "--reply",
                str(room / "replies" / "turn1.anthropic_messages.json"), "--seed", "5")
    assert "✓ no keeper-only value in any player's view" in report and "✗" not in report, report[-600:]
