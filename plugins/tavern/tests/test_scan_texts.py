"""An entry's ``match*`` flags in a room: its keys also match the room's card (the world
import's description, personality, depth prompt, scenario, creator notes) and the acting
member's character (the persona), exactly as each flag says -- every flag against every text,
through a real world import, a pc import and a compiled turn."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from lwcore.kernel import Kernel
from lwcore.turn.compile import compile_turn
from lwcore.turn.room import Room
from lwcore.turn.view import view_for

from roomkit import copy_room, import_into, request_text

# flag (SillyTavern's name, as a V2 card's extension) -> the word only that text holds
TEXTS = {
    "match_persona_description": "ZSELFZ",
    "match_character_description": "ZDESCZ",
    "match_character_personality": "ZTRAITZ",
    "match_character_depth_prompt": "ZDEPTHZ",
    "match_scenario": "ZSCENEZ",
    "match_creator_notes": "ZNOTESZ",
}
FLAGS = list(TEXTS)
NAME = "Qorvath"
SAY = "我四处看看。"


def hit(flag: str | None, word: str) -> str:
    return f"HIT[{flag or 'none'}|{word}]"


def world_card() -> dict:
    """A world card whose texts each hold one word, and an entry per (flag, word) -- with no
    flag too -- that fires only on that word; one more needs ``{{char}}`` read as the name."""
    entries = []
    for flag in (*FLAGS, None):
        for word in TEXTS.values():
            entries.append({"keys": [word], "content": hit(flag, word), "enabled": True, "insertion_order": 100,
                            "position": "before_char", "id": len(entries),
                            "extensions": {"loreweaver_secret": True, **({flag: True} if flag else {})}})
    entries.append({"keys": [NAME], "content": "HIT[name-by-macro]", "enabled": True, "insertion_order": 100,
                    "position": "before_char", "id": len(entries),
                    "extensions": {"loreweaver_secret": True, "match_character_description": True}})
    return {"spec": "chara_card_v2", "spec_version": "2.0", "data": {
        "name": NAME, "description": "ZDESCZ 守着灯，{{char}} 是她的名字。", "personality": "ZTRAITZ 寡言。",
        "scenario": "ZSCENEZ 雾夜。", "creator_notes": "ZNOTESZ 给守秘人的话。", "first_mes": "", "mes_example": "",
        "alternate_greetings": [], "tags": [],
        "extensions": {"depth_prompt": {"prompt": "ZDEPTHZ 低语。", "depth": 4, "role": "system"}},
        "character_book": {"name": "scan", "entries": entries}}}


def person_card() -> dict:
    return {"spec": "chara_card_v2", "spec_version": "2.0", "data": {
        "name": "林渔", "description": "ZSELFZ 渔夫的儿子。", "personality": "", "scenario": "", "first_mes": "",
        "mes_example": "", "alternate_greetings": [], "tags": [], "creator_notes": "", "extensions": {}}}


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The compiled request text, for the member with the pc import (p1) and the one without (p2)."""
    tmp = tmp_path_factory.mktemp("scan")
    kernel = Kernel(data_dir=tmp / "data", env={})
    room_dir = copy_room(tmp / "room")
    for name, card in (("scan.world.json", world_card()), ("self.card.json", person_card())):
        (room_dir / name).write_text(json.dumps(card, ensure_ascii=False), encoding="utf-8")
    import_into(kernel, room_dir, room_dir / "scan.world.json", "world")
    import_into(kernel, room_dir, room_dir / "self.card.json", "pc", member="p1")
    room = Room.load(room_dir, kernel)
    views = {p: view_for(room, p).to_json_text() for p in ("p1", "p2")}
    return {**{p: request_text(compile_turn(kernel, room_dir, SAY, actor=p, rng=random.Random(1))) for p in ("p1", "p2")},
            **{f"view:{p}": v for p, v in views.items()}}


@pytest.mark.parametrize("flag", [*FLAGS, None])
def test_each_flag_matches_its_text_and_no_other(scanned: dict[str, str], flag: str | None) -> None:
    fired = {word for word in TEXTS.values() if hit(flag, word) in scanned["p1"]}
    assert fired == ({TEXTS[flag]} if flag else set())


def test_the_persona_is_the_acting_members_character(scanned: dict[str, str]) -> None:
    assert hit("match_persona_description", "ZSELFZ") in scanned["p1"]
    assert hit("match_persona_description", "ZSELFZ") not in scanned["p2"]  # p2's character says nothing of it
    card = {flag: word for flag, word in TEXTS.items() if flag != "match_persona_description"}
    assert all(hit(flag, word) in scanned["p2"] for flag, word in card.items())  # the room's card is everyone's


def test_card_texts_are_read_with_their_macros(scanned: dict[str, str]) -> None:
    assert "HIT[name-by-macro]" in scanned["p1"]


def test_the_card_texts_stay_with_the_keeper(scanned: dict[str, str]) -> None:
    for player in ("p1", "p2"):
        seen = scanned[f"view:{player}"]
        assert not any(word in seen for word in ("ZTRAITZ", "ZDEPTHZ", "ZSCENEZ", "ZNOTESZ")), player


def test_matched_texts_are_not_placed(scanned: dict[str, str]) -> None:
    """They are read by the scan only; the prompt holds the entries that fired, not the texts."""
    assert "ZSCENEZ 雾夜" not in scanned["p1"] and "ZNOTESZ 给守秘人的话" not in scanned["p1"]
    assert "ZDEPTHZ 低语" not in scanned["p1"]


def test_a_world_import_keeps_the_texts_for_the_keeper_only(tmp_path: Path) -> None:
    from lwcore.turn.documents import project, viewer_of

    kernel = Kernel(data_dir=tmp_path / "data", env={})
    room_dir = copy_room(tmp_path / "room")
    (room_dir / "scan.world.json").write_text(json.dumps(world_card(), ensure_ascii=False), encoding="utf-8")
    import_into(kernel, room_dir, room_dir / "scan.world.json", "world")
    room = Room.load(room_dir, kernel)
    doc = room.documents.get("worldbook_pack", "world:scan")
    assert doc.data["scan"] == {"character_description": f"ZDESCZ 守着灯，{{{{char}}}} 是她的名字。",
                                "character_personality": "ZTRAITZ 寡言。", "character_depth_prompt": "ZDEPTHZ 低语。",
                                "scenario": "ZSCENEZ 雾夜。", "creator_notes": "ZNOTESZ 给守秘人的话。"}
    assert "scan" not in project(room, doc, viewer_of(room, room.member("p1")))
    assert project(room, doc, viewer_of(room, room.member("kp")))["scan"] == doc.data["scan"]
