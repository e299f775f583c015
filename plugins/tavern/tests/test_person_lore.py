"""A person's lore belongs to that character, keyed, and is said once (contract: a player's pc
import never adds its lore to the shared book a second time). Through the real ``lw``, as an
operator runs it: imports as room commands, then the compiled request of a player's turn."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from roomkit import FIXTURES, copy_room

LW = str(Path(sys.executable).with_name("lw"))
SAY = "我去码头看看钟声和空船"
# Texts of keyed entries of the card's book (keys 码头, 钟声), and of its keeper-only entry.
PIER, BELL_LORE, SECRET = "PIER-BEFORE", "DEPTH-BELL", "SECRET-TRUTH"


def lw(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env["LW_HOME"] = str(tmp_path / "home")
    done = subprocess.run([LW, *args], capture_output=True, text=True, env=env, timeout=180)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return done


def request_of(tmp_path: Path, room: Path, text: str = SAY, member: str = "p1") -> str:
    done = lw(tmp_path, "turn", str(room), "--as", member, "--say", text, "--json")
    return json.dumps(json.loads(done.stdout)["payload"], ensure_ascii=False)


@pytest.fixture
def room(tmp_path: Path) -> Path:
    folder = copy_room(tmp_path / "room")
    shutil.copy(FIXTURES / "bell-tower.world.json", folder / "bell.json")
    return folder


@pytest.mark.parametrize("order", ["pc first", "world first"])
def test_the_same_card_as_the_world_and_a_character_is_said_once(tmp_path: Path, room: Path, order: str) -> None:
    imports = [("p1", ".import bell.json pc"), ("kp", ".import bell.json world")]
    for member, line in imports if order == "pc first" else imports[::-1]:
        lw(tmp_path, "turn", str(room), "--as", member, "--say", line)
    request = request_of(tmp_path, room)
    assert (request.count(PIER), request.count(BELL_LORE), request.count(SECRET)) == (1, 1, 1)


def test_two_members_with_the_same_character_hear_its_lore_once(tmp_path: Path, room: Path) -> None:
    lw(tmp_path, "turn", str(room), "--as", "p1", "--say", ".import bell.json pc")
    alone = request_of(tmp_path, room)
    lw(tmp_path, "turn", str(room), "--as", "p2", "--say", ".import bell.json pc")
    request = request_of(tmp_path, room)
    assert (request.count(PIER), request.count(BELL_LORE)) == (1, 1)
    assert SECRET not in request  # a person's import never carries keeper-only lore
    # Keyed: said only when a key is in what was said, for the character as for anyone.
    assert alone.count(PIER) == 1 and PIER not in request_of(tmp_path, room, "我在房间里休息")


def test_a_characters_own_lore_is_kept_beside_the_worlds(tmp_path: Path, room: Path) -> None:
    card = json.loads((room / "bell.json").read_text(encoding="utf-8"))
    for entry in card["data"]["character_book"]["entries"]:
        if entry["content"].startswith(PIER):
            entry["content"] = "OWN-PIER 守夜人自己记得的码头。"
    (room / "own.json").write_text(json.dumps(card, ensure_ascii=False), encoding="utf-8")
    lw(tmp_path, "turn", str(room), "--as", "kp", "--say", ".import bell.json world")
    lw(tmp_path, "turn", str(room), "--as", "p1", "--say", ".import own.json pc")
    request = request_of(tmp_path, room)
    assert (request.count(PIER), request.count("OWN-PIER"), request.count(BELL_LORE)) == (1, 1, 1)


def test_the_roster_reads_a_cards_name_macros(tmp_path: Path, room: Path) -> None:
    """A world import's person in the pregen roster: ``{{char}}``/``{{user}}`` read as the
    character's name (the contract binds ``{{char}}`` at import), never shown raw to the table."""
    card = json.loads((room / "bell.json").read_text(encoding="utf-8"))
    card["data"]["description"] = "守塔人的女儿。{{char}}在哼歌，<BOT>不说话。{{user}}听着。\n第二行。"
    (room / "bell.json").write_text(json.dumps(card, ensure_ascii=False), encoding="utf-8")
    lw(tmp_path, "turn", str(room), "--as", "kp", "--say", ".import bell.json world")
    listing = lw(tmp_path, "turn", str(room), "--as", "p1", "--say", ".pc list").stdout
    name = card["data"]["name"]
    assert f"守塔人的女儿。{name}在哼歌，{name}不说话。{name}听着。" in listing
    assert "{{" not in listing and "<BOT>" not in listing
