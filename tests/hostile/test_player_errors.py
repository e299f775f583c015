"""What a player reads when a room command of theirs fails, through real ``lw`` processes: a
failed ``.import`` is one refusal whatever went wrong (missing, a folder, outside the room, a
link out of it, the room's own files, a keeper's broken card) -- so a player learns neither
which files exist nor what they hold -- and no answer names a path of the server; a pc import
of the keeper's card says nothing of its keeper-only entries, not even how many. The keeper
running the same line reads the located error. Refusals leave the room byte for byte."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from hostile_kit import Snapshot, assert_clean, assert_refused, run_lw

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "fog-harbor"
REFUSED = "cannot be imported as pc here (the keeper can run the same .import to see why)"


@pytest.fixture
def room(tmp_path: Path) -> tuple[Path, Path]:
    room = tmp_path / "room"
    shutil.copytree(EXAMPLE, room, ignore=shutil.ignore_patterns("replies"))
    (tmp_path / "home").mkdir()
    card = json.loads((room / "cards" / "fog-harbor.world.json").read_text(encoding="utf-8"))
    card["data"]["character_book"]["entries"][0]["insertion_order"] = "守秘人的秘密 不是数字"
    (room / "cards" / "broken.json").write_text(json.dumps(card, ensure_ascii=False), encoding="utf-8")
    (tmp_path / "outside.json").write_text(json.dumps({"name": "x", "description": "y"}), encoding="utf-8")
    (room / "link.json").symlink_to(tmp_path / "outside.json")
    return room, tmp_path / "home"


def refs(room: Path) -> dict[str, str]:
    """What the player types -> how their refusal quotes it (their own words; an absolute path
    outside the room by its last part, as every error a player reads names one)."""
    return {"missing.json": "missing.json", "cards": "cards", "../outside.json": "../outside.json",
            "/etc/passwd": "passwd", "link.json": "link.json", "room.yaml": "room.yaml",
            "variables.yaml": "variables.yaml", "cards/broken.json": "cards/broken.json",
            "fog-harbor/nothing.json": "fog-harbor/nothing.json", str(room / "room.yaml"): "room.yaml"}


def test_every_failed_import_is_one_refusal(room: tuple[Path, Path]) -> None:
    folder, home = room
    snapshot = Snapshot(folder, ignore=(".lw",))
    answers = {}
    for ref, echoed in refs(folder).items():
        outcome = run_lw("turn", str(folder), "--as", "p1", "--say", f".import {ref}", data_dir=home,
                         surface="player .import (one refusal)")
        message = assert_refused(outcome)
        for path in (str(folder), str(folder.parent), str(home)):
            assert path not in outcome.stdout + outcome.stderr, (ref, message)
        assert "守秘人的秘密" not in message
        answers[ref] = message.replace(repr(echoed), "REF")
    assert set(answers.values()) == {f"error: REF {REFUSED}\n"}, answers
    snapshot.assert_unchanged()


@pytest.mark.parametrize(("ref", "says"), [("missing.json", "no file"), ("../outside.json", "outside"),
                                           ("link.json", "outside"), ("cards/broken.json", "insertion_order")])
def test_the_keeper_reads_what_is_wrong(room: tuple[Path, Path], ref: str, says: str) -> None:
    folder, home = room
    snapshot = Snapshot(folder, ignore=(".lw",))
    outcome = run_lw("turn", str(folder), "--as", "kp", "--say", f".import {ref} world", data_dir=home)
    assert says in assert_refused(outcome)
    snapshot.assert_unchanged()


def test_a_pc_import_of_the_keepers_card_tells_nothing_of_its_secrets(room: tuple[Path, Path]) -> None:
    folder, home = room
    outcome = run_lw("turn", str(folder), "--as", "p1", "--say", ".import cards/fog-harbor.world.json pc",
                     data_dir=home)
    assert_clean(outcome)
    assert outcome.code == 0, outcome.stderr
    assert "keeper-only" not in outcome.stdout and "守秘人专属" not in outcome.stdout and "未导入" not in outcome.stdout
    assert "周伯年" not in outcome.stdout  # the card's secret entry
    keeper = run_lw("turn", str(folder), "--as", "kp", "--say", ".import cards/fog-harbor.world.json pc @p2",
                    data_dir=home)
    assert keeper.code == 0 and "keeper-only lore" in keeper.stdout  # the keeper is told what was left out


def test_a_lazily_read_file_is_the_keepers_to_see(room: tuple[Path, Path]) -> None:
    """A broken documents log read by ``.chronicle``: the player reads that the keeper must look,
    at the file as the room names it (no server path, nothing of what is in it); the keeper reads
    the file and what is wrong."""
    folder, home = room
    (folder / "docs" / "chronicle.jsonl").write_text('{"id": "x", "data": {"t": "SECRET"}, "data": 1}\n',
                                                     encoding="utf-8")
    snapshot = Snapshot(folder, ignore=(".lw",))
    player = run_lw("turn", str(folder), "--as", "p1", "--say", ".chronicle", data_dir=home)
    message = assert_refused(player)
    assert "only the keeper can see" in message and "docs/chronicle.jsonl" in message
    assert str(folder) not in message and "SECRET" not in message
    keeper = run_lw("turn", str(folder), "--as", "kp", "--say", ".chronicle", data_dir=home)
    assert "chronicle.jsonl" in assert_refused(keeper)
    snapshot.assert_unchanged()
