"""coc7 through the kernel's sheets, subsystems and commands: real-world ``.st`` strings
(including the traps), sanity edge cases, luck, growth, opposed, push, madness tables."""

from __future__ import annotations

import random

import pytest

from lwcore.errors import LwError
from lwcore.kernel import Kernel
from lwcore.rules import engine_for
from lwcore.rules.subsystems import SubsystemError


@pytest.fixture(scope="module")
def engine():
    return engine_for(Kernel())


# (text, stored values afterwards); None = only that it parses
ST_CASES = [
    ("力量50敏捷60体质70", {"敏捷": 60, "体质": 70}),
    (".st 力量:60 敏捷:70", {"力量": 60, "敏捷": 70}),
    ("str50dex60con70", {"敏捷": 60, "体质": 70}),
    ("STR60 DEX70", {"力量": 60, "敏捷": 70}),
    ("Str60Dex70", {"力量": 60, "敏捷": 70}),
    ("dex60", {"敏捷": 60}),
    ("DEX60", {"敏捷": 60}),
    ("dex 60 db 0", {"敏捷": 60}),  # db equal to the derived damage bonus is not stored
    ("力量５０敏捷６５", {"敏捷": 65}),
    ("力量：60，敏捷：65", {"力量": 60, "敏捷": 65}),
    ("力量=60 敏捷=65", {"力量": 60, "敏捷": 65}),
    ("力量50 敏捷 60", {"敏捷": 60}),
    ("侦查60聆听50图书馆使用70", {"侦查": 60, "聆听": 50, "图书馆使用": 70}),
    ("侦察60", {"侦查": 60}),
    ("spot hidden 60 listen 55", {"侦查": 60, "聆听": 55}),
    ("信用评级30", {"信用评级": 30}),
    ("cr30", {"信用评级": 30}),
    ("克苏鲁神话5", {"克苏鲁神话": 5}),
    ("步枪/霰弹枪40", {"步枪/霰弹枪": 40}),
    ("驾驶(汽车)40", {"驾驶(汽车)": 40}),
    ("潜水艇驾驶30", {"潜水艇驾驶": 30}),
    ("母语80", {"母语": 80}),
    ("闪避40", {"闪避": 40}),
    ("闪避25", {}),  # half of DEX 50: the derived value, not stored
    ("mov8", {}),  # the computer's value for the defaults
    ("san40 理智值40", {"理智": 40}),
    ("san值45", {"理智": 45}),
    ("年龄45", {"年龄": 45}),
    ("hp12/12", {"生命": 12, "生命上限": 12}),
    ("力量60体质55体型65敏捷50外貌70智力75意志40教育80幸运45san40hp12mp8",
     {"力量": 60, "体质": 55, "体型": 65, "外貌": 70, "智力": 75, "意志": 40, "教育": 80, "幸运": 45,
      }),  # san 40, mp 8 and hp 12 are what POW 40, CON 55 and SIZ 65 derive: not stored
    ("luck45 pow60", {"幸运": 45, "意志": 60}),
    ("int70edu75", {"智力": 70, "教育": 75}),
    ("&手枪=1d10", {}),
    ("&步枪=2d6+4 &小刀=1d4", {}),
]


@pytest.mark.parametrize(("text", "stored"), ST_CASES)
def test_real_world_st(engine, text: str, stored: dict) -> None:
    sheet = engine.sheet("coc7")
    sheet.apply_st(text)
    assert sheet.stored() == stored


def test_at_least_thirty_cases() -> None:
    assert len(ST_CASES) + len(ADJUST_CASES) >= 30


# (text, stat, sign): dice adjustments, where names with a d never read as dice
ADJUST_CASES = [
    ("hp-1d3", "生命", -1),
    ("san-1d6+1", "理智", -1),
    ("hp+2", "生命", 1),
    ("san-1d10 hp-2", "理智", -1),
    ("mp-1d4dex60", "魔法", -1),
    ("幸运-10", "幸运", -1),
    ("san+1d3 db0", "理智", 1),
]


@pytest.mark.parametrize(("text", "stat", "sign"), ADJUST_CASES)
def test_real_world_adjust(engine, text: str, stat: str, sign: int) -> None:
    sheet = engine.sheet("coc7", {"体质": 60, "体型": 60})
    before = sheet[stat]
    result = sheet.apply_st(text, rng=random.Random(4))
    first = result.rolls[0]
    assert first["name"] == stat and sheet[stat] == before + sign * first["total"] or stat == "生命"
    assert result.changes[stat] == (before, before + sign * first["total"])
    if "dex60" in text:
        assert sheet["dex"] == 60


def test_keywords_and_expressions(engine) -> None:
    sheet = engine.sheet("coc7")
    sheet.apply_st("力量60 &手枪=1d10")
    assert sheet.expressions == {"手枪": "1d10"}
    assert sheet.apply_st("export").output == [".st 力量60 &手枪=1d10"]
    assert "力量:60" in sheet.apply_st("show", locale="zh").output[0]
    assert sheet.apply_st("show str", locale="en").output == ["STR:60"]
    sheet.apply_st("del str")
    assert sheet.stored() == {}
    sheet.apply_st("力量70")
    sheet.apply_st("clr")
    assert sheet.stored() == {} and sheet.expressions == {}
    for bad in ("力量", "&手枪", "hp-", "hp-xyz"):
        with pytest.raises(LwError):
            sheet.apply_st(bad)


def test_derived_follow_changes(engine) -> None:
    sheet = engine.sheet("coc7")
    sheet.apply_st("体质80体型70")
    assert sheet["hp"] == 15 and sheet["hpmax"] == 15 and "生命" not in sheet.stored()
    sheet.apply_st("hp-3")
    assert sheet["hp"] == 12 and sheet.stored()["生命"] == 12
    sheet.apply_st("cm10")
    assert sheet["sanmax"] == 89
    res = {r["id"]: r for r in sheet.resources("zh")}
    assert res["hp"]["label"] == "生命" and res["hp"]["value"] == 12 and res["hp"]["max"] == 15
    assert {r["id"]: r["label"] for r in sheet.resources("en")}["san"] == "Sanity"


# --- sanity -----------------------------------------------------------------------------------


def test_sanity_fumble_takes_max(engine) -> None:
    sheet = engine.sheet("coc7", {"san": 60})
    r = engine.subsystem("coc7", "sanity", sheet, loss="1/1d10+1", faces=[100])
    assert r.outcome == "fumble" and r.values["loss"] == 11 and sheet["san"] == 49 and r.flags == {"temporary": True}


def test_sanity_fumble_below_fifty(engine) -> None:
    sheet = engine.sheet("coc7", {"san": 40})
    r = engine.subsystem("coc7", "sanity", sheet, loss="0/1d6", faces=[97])
    assert r.outcome == "fumble" and r.values["loss"] == 6 and r.flags["temporary"]


def test_sanity_floor_and_permanent(engine) -> None:
    sheet = engine.sheet("coc7", {"san": 4})
    r = engine.subsystem("coc7", "sanity", sheet, loss="1/1d20", faces=[50, 18])
    assert sheet["san"] == 0 and r.values["loss"] == 4 and r.flags == {"permanent": True}
    r = engine.subsystem("coc7", "sanity", sheet, loss="1/1d20", faces=[1, ])
    assert sheet["san"] == 0 and r.values["loss"] == 0 and r.flags == {"permanent": True}


def test_sanity_four_is_not_temporary_five_is(engine) -> None:
    sheet = engine.sheet("coc7", {"san": 50})
    r = engine.subsystem("coc7", "sanity", sheet, loss="0/1d6", faces=[90, 4])
    assert r.values["loss"] == 4 and r.flags == {}
    r = engine.subsystem("coc7", "sanity", sheet, loss="0/1d6", faces=[90, 5])
    assert r.values["loss"] == 5 and r.flags == {"temporary": True}


def test_sanity_success_loss_and_dice(engine) -> None:
    sheet = engine.sheet("coc7", {"san": 50})
    r = engine.subsystem("coc7", "sanity", sheet, loss="1d3/1d6", faces=[30, 2])
    assert r.outcome == "success" and r.values["loss"] == 2
    r = engine.subsystem("coc7", "sanity", sheet, loss="1/1d6", bonus=1, faces=[75, 1, 1])  # 75 -> 15: success
    assert r.check.roll == 15 and r.values["loss"] == 1
    r = engine.subsystem("coc7", "sanity", sheet, loss="1/1d6", penalty=2, faces=[15, 9, 3, 6])  # -> 95: fails
    assert r.check.roll == 95 and r.outcome == "failure" and r.values["loss"] == 6
    r = engine.subsystem("coc7", "sanity", sheet, loss="0/0", faces=[99])
    assert r.values["loss"] == 0


def test_sanity_command(engine) -> None:
    sheet = engine.sheet("coc7", {"san": 55})
    r = engine.command("coc7", ".sc 1/1d6", sheet=sheet, faces=[80, 6], locale="zh")
    assert r.sheet_changed and sheet["san"] == 49
    assert r.text == "理智 1/1d6: 55: 1d100=80/55 失败; 理智 55 -> 49 (-6) [临时疯狂]"
    r = engine.command("coc7", ".sc 0/1d10+1 p1", sheet=sheet, faces=[40, 9, 3], locale="en")
    assert r.data["check"]["roll"] == 90 and "Temporary Insanity" not in r.text
    with pytest.raises(LwError):
        engine.command("coc7", ".sc", sheet=sheet)


# --- luck, growth, opposed, push, madness ------------------------------------------------------


def test_luck(engine) -> None:
    pack = engine.rule_system("coc7")
    sheet = engine.sheet("coc7", {"luck": 30})
    r = engine.subsystem("coc7", "luck", sheet, check=pack.check(50, roll=62))
    assert r.values["cost"] == 12 and sheet["luck"] == 18 and r.outcome == "regular"
    with pytest.raises(SubsystemError, match="fumble"):
        engine.subsystem("coc7", "luck", sheet, check=pack.check(40, roll=98))
    with pytest.raises(SubsystemError, match="only 18"):
        engine.subsystem("coc7", "luck", sheet, check=pack.check(50, roll=62), want="hard")
    r = engine.subsystem("coc7", "luck", engine.sheet("coc7", {"luck": 40}), check=pack.check(50, roll=62), want="hard")
    assert r.values["cost"] == 37


def test_growth(engine) -> None:
    sheet = engine.sheet("coc7", {"侦查": 60})
    r = engine.command("coc7", ".en 侦查", sheet=sheet, faces=[61, 10], locale="zh")
    assert sheet["侦查"] == 70 and r.text == "侦查 60: 61 成长 60 -> 70 (+10)"
    r = engine.command("coc7", ".en 侦查", sheet=sheet, faces=[70])
    assert sheet["侦查"] == 70 and not r.data["success"]
    sheet.set("侦查", 97)
    engine.command("coc7", ".en 侦查", sheet=sheet, faces=[96, 8])
    assert sheet["侦查"] == 99  # over 95 always improves; capped at 99


def test_opposed_and_push(engine) -> None:
    pack = engine.rule_system("coc7")
    a, b = pack.check(70, roll=30), pack.check(50, roll=20)  # hard vs hard: higher skill wins
    assert engine.subsystem("coc7", "opposed", first=a, second=b).outcome == "first"
    assert engine.subsystem("coc7", "opposed", first=pack.check(70, roll=60), second=b).outcome == "second"
    failed = pack.check(40, roll=70)
    pushed = engine.subsystem("coc7", "push", previous=failed, faces=[90])
    assert pushed.flags == {"pushed": True, "dire": True}
    with pytest.raises(SubsystemError):
        engine.subsystem("coc7", "push", previous=pushed.check, pushed=True)


def test_madness_tables(engine) -> None:
    for table, command, unit in (("realtime", ".ti", "轮"), ("summary", ".li", "小时")):
        for seed in range(20):
            r = engine.command("coc7", command, rng=random.Random(seed), locale="zh")
            v = r.data["values"]
            assert v["table"] == table and 1 <= v["roll"] <= 10 and v["entry"] and v["unit"] == unit


def test_ra_words(engine) -> None:
    sheet = engine.sheet("coc7", {"侦查": 60})
    for text, target, difficulty, mods in (
        (".ra 困难侦查+10 b2", 35, "hard", {"bonus": 2}),
        (".ra 极难侦查", 12, "extreme", {}),
        (".ra hard spot hidden p", 30, "hard", {"penalty": 1}),
        (".ra extreme 侦查 b", 12, "extreme", {"bonus": 1}),
        (".rc 侦查-20", 40, None, {}),
        (".ra 侦查75", 75, None, {}),
    ):
        extra = sum(mods.values())
        r = engine.command("coc7", text, sheet=sheet, faces=[50] + [3] * extra)
        check = r.data["check"]
        assert (check["target"], check["difficulty"], check["modifiers"]) == (target, difficulty, mods), text
