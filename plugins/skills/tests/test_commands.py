"""``.skill`` in a room, through the kernel's room-command path: listing and showing for
anyone, enabling and disabling for the keeper only (the kernel refuses players before the
handler runs, and nothing is written)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lwcore.errors import LwError
from lwcore.io.safe_yaml import read_yaml
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room
from skills_testkit import write_skill


def say(kernel, room_dir: Path, line: str, who: str):  # noqa: ANN001, ANN201
    return run_turn(kernel, room_dir, line, actor=who).command


def test_anyone_lists_and_shows(kernel, room_dir: Path, data_dir: Path) -> None:  # noqa: ANN001
    write_skill(data_dir / "skills", "broken", "description: [")
    listing = say(kernel, room_dir, ".skill", "p2")
    assert listing.name == "skill" and listing.plugin_id == "skills" and listing.reply.audience == "actor"
    assert "tension-clock" in listing.reply.text and "rule-forge" in listing.reply.text
    assert "broken" not in listing.reply.text  # problems are the keeper's business
    assert "x broken (user)" in say(kernel, room_dir, ".skill list", "kp").reply.text
    shown = say(kernel, room_dir, ".skill show tension-clock", "p1").reply.text
    assert shown.startswith("紧张时钟 (tension-clock)") and "hooks.js" in shown and "A clock named" not in shown
    assert "文件夹" not in shown and "tension-clock/" not in shown  # no path on the operator's machine
    keepers = say(kernel, room_dir, "。skill show tension-clock", "kp").reply.text  # the keeper reads Chinese here
    assert "A clock named" in keepers and "  文件夹：" in keepers and "folder:" not in keepers


def test_only_the_keeper_enables_and_disables(kernel, room_dir: Path) -> None:  # noqa: ANN001
    before = (room_dir / "room.yaml").read_bytes()
    for line in (".skill enable tension-clock", ".skill disable tension-clock", ".SKILL ENABLE tension-clock"):
        with pytest.raises(LwError) as info:
            say(kernel, room_dir, line, "p1")
        assert info.value.code == "forbidden" and "is for the keeper only" in str(info.value)
    assert (room_dir / "room.yaml").read_bytes() == before
    done = say(kernel, room_dir, ".skill enable tension-clock", "kp")
    assert done.reply.audience == "keeper" and done.reply.text == "技能 紧张时钟（tension-clock）已启用；解锁工具：read_skill_reference"
    assert read_yaml(room_dir / "room.yaml")["features"][0]["id"] == "tension-clock"
    room = Room.load(room_dir, kernel)
    last = room.history.all()[-1]
    assert last.audience == "keeper" and last.data["command"] == "skill"
    assert "* tension-clock" in say(kernel, room_dir, ".skill", "p1").reply.text
    say(kernel, room_dir, ".skill disable tension-clock", "kp")
    assert read_yaml(room_dir / "room.yaml")["features"] == []


@pytest.mark.parametrize(("line", "message"), [
    (".skill enable", "usage: .skill"),
    (".skill frobnicate x", "usage: .skill"),
    (".skill enable nope", "no skill 'nope'"),
    (".skill disable tension-clock", "not enabled"),
])
def test_bad_arguments_are_clear_and_change_nothing(kernel, room_dir: Path, line: str, message: str) -> None:  # noqa: ANN001
    before = (room_dir / "room.yaml").read_bytes()
    with pytest.raises(LwError, match=message):
        say(kernel, room_dir, line, "kp")
    assert (room_dir / "room.yaml").read_bytes() == before


def test_help_lists_it_for_everyone(kernel, room_dir: Path) -> None:  # noqa: ANN001
    assert ".skill" in say(kernel, room_dir, ".help", "p1").reply.text
