"""A world card's ``extensions.loreweaver_hooks`` written as one bare script (text, or an object
with ``source``) installs that script;
any other shape is refused, located, and nothing is written (never dropped without a word).
Through the real ``lw``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from roomkit import FIXTURES, copy_room, files

LW = str(Path(sys.executable).with_name("lw"))
SCRIPT = "on('turn_start', () => { incvar('雾港.钟声', 1); });"


def run(tmp_path: Path, room: Path, hooks: object) -> subprocess.CompletedProcess[str]:
    card = json.loads((FIXTURES / "bell-tower.world.json").read_text(encoding="utf-8"))
    card["data"]["extensions"]["loreweaver_hooks"] = hooks
    (room / "bell.json").write_text(json.dumps(card, ensure_ascii=False), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env["LW_HOME"] = str(tmp_path / "home")
    return subprocess.run([LW, "turn", str(room), "--as", "kp", "--say", ".import bell.json world"],
                          capture_output=True, text=True, env=env, timeout=120)


@pytest.mark.parametrize("hooks", [SCRIPT, {"source": SCRIPT}])
def test_one_bare_script_is_installed(tmp_path: Path, hooks: object) -> None:
    room = copy_room(tmp_path / "room")
    done = run(tmp_path, room, hooks)
    assert done.returncode == 0 and "1 hook script(s)" in done.stdout, done.stdout + done.stderr
    assert SCRIPT in (room / "docs" / "worldbook_pack.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("hooks", [5, True, {"code": 5}, ""])
def test_another_shape_is_refused_located(tmp_path: Path, hooks: object) -> None:
    room = copy_room(tmp_path / "room")
    before = files(room)
    done = run(tmp_path, room, hooks)
    assert done.returncode == 1 and "a hook is a script" in done.stderr and "bell.json" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    after = files(room)
    after.pop("bell.json", None)
    before.pop("bell.json", None)
    assert after == before
