"""The dnd5e plugin in a real kernel: discovery, sheet maths, creation, commands."""

from __future__ import annotations

import random

import pytest

from lwcore.kernel import Kernel
from lwcore.rules import engine_for
from lwcore.rules.creation import CreationError


@pytest.fixture(scope="module")
def engine():
    return engine_for(Kernel())


def test_discovered_enabled_bundled() -> None:
    kernel = Kernel()
    record = next(r for r in kernel.plugins if r.id == "dnd5e")
    assert record.status == "enabled" and record.bundled
    assert "dnd5e" in kernel.rulepacks
    assert engine_for(kernel).find("D&D") == "dnd5e"


def test_modifiers_proficiency_and_skills(engine) -> None:
    for score in range(1, 31):
        sheet = engine.sheet("dnd5e", {"STR": score})
        assert sheet["STR_mod"] == (score - 10) // 2
    for level in range(1, 21):
        sheet = engine.sheet("dnd5e", {"level": level})
        assert sheet["prof"] == 2 + (level - 1) // 4
    sheet = engine.sheet("dnd5e", {"dex": 16, "wis": 8, "level": 9, "stealth_prof": 1, "perception_prof": 2,
                                   "DEX_save_prof": 1})
    assert sheet["stealth"] == 3 + 4 and sheet["acrobatics"] == 3 and sheet["perception"] == -1 + 8
    assert sheet["passive_perception"] == 17 and sheet["DEX_save"] == 7 and sheet["initiative"] == 3
    assert sheet["运动"] == 0 and sheet.get("隐匿") == 7
    # the skill -> ability table
    mapping = {"athletics": "STR", "acrobatics": "DEX", "sleight_of_hand": "DEX", "stealth": "DEX", "arcana": "INT",
               "history": "INT", "investigation": "INT", "nature": "INT", "religion": "INT",
               "animal_handling": "WIS", "insight": "WIS", "medicine": "WIS", "perception": "WIS", "survival": "WIS",
               "deception": "CHA", "intimidation": "CHA", "performance": "CHA", "persuasion": "CHA"}
    for skill, ability in mapping.items():
        sheet = engine.sheet("dnd5e", {ability: 18})
        assert sheet[skill] == 4, skill


def test_dc_ladder(engine) -> None:
    pack = engine.rule_system("dnd5e")
    ladder = {"very_easy": 5, "easy": 10, "medium": 15, "hard": 20, "very_hard": 25, "nearly_impossible": 30}
    for name, dc in ladder.items():
        assert pack.check(0, difficulty=name, roll=10).target == dc


def test_creation(engine) -> None:
    pack = engine.rule_system("dnd5e")
    for seed in range(50):
        sheet = engine.make_char("dnd5e", rng=random.Random(seed))
        assert all(3 <= sheet[a] <= 18 for a in ("STR", "DEX", "CON", "INT", "WIS", "CHA"))
    sheet = engine.make_char("dnd5e", method="point_buy", assign={"str": 15, "dex": 15, "con": 15})
    assert sheet["STR"] == 15 and sheet["INT"] == 8
    with pytest.raises(CreationError, match="budget"):
        engine.make_char("dnd5e", method="point_buy", assign={"str": 15, "dex": 15, "con": 15, "wis": 14})
    arr = engine.make_char("dnd5e", method="array", assign={"STR": 8, "CHA": 15})
    assert sorted(arr[a] for a in ("STR", "DEX", "CON", "INT", "WIS", "CHA")) == [8, 10, 12, 13, 14, 15]
    assert pack.model.creation_constraints["method"] == "roll"


@pytest.mark.parametrize(("text", "stat", "modifier", "target", "modifiers"), [
    (".chk dex dc15", "DEX_mod", 3, 15, {}),
    (".chk dex+2 dc 12 adv", "DEX_mod", 5, 12, {"advantage": 1}),
    (".chk 隐匿 困难 优势 劣势", "stealth", 3, 20, {}),
    (".chk stealth very hard dis", "stealth", 3, 25, {"disadvantage": 1}),
    (".save dex dc14", "DEX_save", 3, 14, {}),
    (".save 敏捷 dc 14 adv", "DEX_save", 3, 14, {"advantage": 1}),
    (".atk +5 ac13", None, 5, 13, {}),
    (".chk str dc10", "STR_mod", 0, 10, {}),
])
def test_commands(engine, text, stat, modifier, target, modifiers) -> None:
    sheet = engine.sheet("dnd5e", {"dex": 16})
    faces = [11, 6] if modifiers else [11]
    result = engine.command("dnd5e", text, sheet=sheet, faces=faces, locale="zh")
    assert result.data["stat"] == stat and result.data["modifier"] == modifier
    assert result.data["check"]["target"] == target and result.data["check"]["modifiers"] == modifiers


def test_command_text_and_initiative(engine) -> None:
    sheet = engine.sheet("dnd5e", {"dex": 14})
    r = engine.command("dnd5e", ".atk +4 ac 15", sheet=sheet, faces=[20], locale="en")
    assert r.data["check"]["critical"] and r.text == "+4: 1d20=20+4=24 vs 15 Natural 20"
    r = engine.command("dnd5e", ".init", sheet=sheet, faces=[9], locale="zh")
    assert r.data["total"] == 11 and r.text == "先攻 +2: 1d20=9+2=11"
    r = engine.command("dnd5e", ".ds", sheet=sheet, faces=[1], locale="zh")
    assert sheet["death_failures"] == 2 and "失败数 2/3" in r.text
