"""What a viewer reads is in the viewer's language: the system replies to dot commands (the
kernel's and the bundled plugins'), the keeper's prompt and ``lw turn --view``, in an English
room and in a Chinese room, hold no message text of the other language.

"Message text": see ``tests/support/language_leaks.py``. The room's own content (the example's
Chinese names and notes) is data and may be in any language.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from language_leaks import foreign, fragments

from lwcore.kernel import Kernel
from lwcore.turn.messages import segment_text
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room
from lwcore.turn.segments import room_segments

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "fog-harbor"
LW = str(Path(sys.executable).with_name("lw"))

# (member, line): the keeper's and a player's system replies, every kind the kernel and the
# bundled plugins answer in this room without a model
LINES = [
    ("kp", ".help"), ("kp", ".phase"), ("kp", ".phase prep"), ("kp", ".rule"), ("kp", ".rule rule1"),
    ("kp", ".rule rule1"), ("kp", ".rule none"), ("kp", ".recap"), ("kp", ".chronicle"), ("kp", ".threads"),
    ("kp", ".var list"), ("kp", ".var expose fog"), ("kp", ".var list"), ("kp", ".var hide fog"),
    ("kp", ".module"), ("kp", ".panels"), ("kp", ".skill"), ("kp", ".skill enable rule-forge"),
    ("kp", ".skill disable rule-forge"), ("kp", ".preset"), ("kp", ".lore constant"),
    ("kp", ".lore greeting"), ("p1", ".skill show rule-forge"),  # the keeper's would hold the skill's body (content)
    ("p1", ".help"), ("p1", ".pc"), ("p1", ".pc claim 1"), ("p1", ".pc"), ("p1", ".pc release"),
    ("p1", ".recap"), ("p1", ".chronicle"), ("p1", ".module"), ("p1", ".panels"),
    ("kp", ".phase none"),
]


def room_in(tmp_path: Path, language: str) -> Path:
    """The example room with the room and every member in ``language``."""
    room = tmp_path / f"room-{language}"
    shutil.copytree(EXAMPLE, room, ignore=shutil.ignore_patterns("replies"))
    text = (room / "room.yaml").read_text(encoding="utf-8")
    (room / "room.yaml").write_text(re.sub(r"(?m)^(\s*)locale: \S+$", rf"\1locale: {language}", text), encoding="utf-8")
    return room


def test_the_fragments_tell_the_languages_apart() -> None:
    assert {"可用的房间命令", "守秘人专属", "没有安装带面板的包"} <= fragments("zh")
    assert {"Room commands you can run here", "keeper only", "No open threads"} <= fragments("en")
    assert "守秘人专属" in foreign("Room commands you can run here: 守秘人专属", "en")
    assert foreign("可用的房间命令：\n  .rule none keeper only", "zh") == ["keeper only"]
    assert foreign("phase: prep", "en") == foreign("阶段：prep", "zh") == []


@pytest.mark.parametrize("language", ["en", "zh"])
def test_system_replies_follow_the_room_language(kernel: Kernel, tmp_path: Path, language: str) -> None:
    room = room_in(tmp_path, language)
    replies = []
    for member, line in LINES:
        result = run_turn(kernel, room, line, actor=member, rng=random.Random(1))
        assert result.command is not None and result.command.reply is not None, line
        replies.append((line, result.command.reply.text))
    leaks = [(line, foreign(text, language)) for line, text in replies if foreign(text, language)]
    assert leaks == []
    said = "\n".join(text for _, text in replies)
    if language == "en":
        assert "Room commands you can run here:" in said and "phase set to: prep" in said
        assert "The keeper set the house rule to rule1" in said and "the house rule is rule1 already" in said
    else:
        assert "可用的房间命令：" in said and "阶段已设为：prep" in said and "守秘人把房规改为 rule1" in said


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_keeper_prompt_follows_the_room_language(kernel: Kernel, tmp_path: Path, language: str) -> None:
    room = Room.load(room_in(tmp_path, language), kernel)
    text = "\n\n".join(segment_text(s) for s in room_segments(room, room.file.locale))
    assert foreign(text, language) == []
    assert ("## Character sheets" if language == "en" else "## 角色卡") in text


@pytest.mark.parametrize("language", ["en", "zh"])
def test_lw_turn_view_follows_the_viewer_language(tmp_path: Path, language: str) -> None:
    room = room_in(tmp_path, language)
    env_data = tmp_path / "data"
    env_data.mkdir()
    for member in ("p1", "kp"):
        run = subprocess.run([LW, "--data-dir", str(env_data), "turn", str(room), "--as", member, "--view"],
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
        assert foreign(run.stdout, language) == [], (member, run.stdout)
        if member == "kp":
            assert ("[keeper view]" if language == "en" else "[守秘人视图]") in run.stdout


def test_what_the_keeper_tells_the_table_is_read_in_each_players_language(kernel: Kernel, room_dir: Path) -> None:
    """In the example room the keeper and p1 read Chinese, p2 English: the keeper's ``.phase``
    and ``.rule`` lines, recorded once, are read by each player in their own language."""
    from lwcore.turn.view import player_view

    for line in (".phase prep", ".rule rule1", ".rule none", ".phase none"):
        run_turn(kernel, room_dir, line, actor="kp", rng=random.Random(1))
    room = Room.load(room_dir, kernel)
    zh = [h.text for h in player_view(room, "p1").history]
    en = [h.text for h in player_view(room, "p2").history]
    assert zh[-4:] == ["阶段已设为：prep", "守秘人把房规改为 rule1 — 技能≥50时01-05大成功；技能<50时96-100大失败，否则100（原为 无）。",
                       "守秘人取消了房规（原为 rule1）：检定按 coc7 的规则书进行。", "阶段已设为：（无）"]
    assert en[-4:] == ["phase set to: prep",
                       "The keeper set the house rule to rule1 — crit 01, or 01-05 with skill >= 50; fumble 96-100 "
                       "under 50, else 100 (was none).",
                       "The keeper turned the house rule off (was rule1): checks follow coc7's own ladder.",
                       "phase set to: (none)"]
    # the stored line is the keeper's own (what an older reader, or a removed plugin, falls back to)
    stored = [e for e in room.history.all() if e.role == "event"][-1]
    assert stored.text == "阶段已设为：（无）" and stored.data["said"]["id"] == "phase.set"


@pytest.mark.parametrize("said", [
    {"package": "no_such_package", "id": "x", "values": {}},
    {"package": "lwcore", "id": "no.such.id", "values": {}},
    {"package": "lwcore", "id": "phase.set", "values": {}},                     # a value gone
    {"package": "lwcore", "id": "phase.set", "values": {"phase": ["a"]}},       # not text
    {"package": "os.path", "id": "x", "values": {}},                            # not a top-level name
    {"package": "../../etc", "id": "x", "values": {}},
    {"package": "lwcore", "id": "phase.set", "values": {"phase": {"package": "lwcore", "id": "nope"}}},
    "phase.set", None, 7, [],
])
def test_a_said_line_that_does_not_read_shows_its_stored_text(kernel: Kernel, room_dir: Path, said) -> None:
    from lwcore.turn.event_lines import entry_text
    from lwcore.turn.history import HistoryEntry

    room = Room.load(room_dir, kernel)
    entry = HistoryEntry(turn=1, role="event", text="as stored",
                         data={"kind": "command", "command": "phase", "line": ".phase x", "result": None, "said": said})
    assert entry_text(room, entry, "en") == "as stored"
