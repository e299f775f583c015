"""Sheets, creation, subsystems and dot commands of the kernel, on made-up packs (no bundled
system is needed: everything here is driven by pack data)."""

from __future__ import annotations

import random
import re

import pytest

from lwcore.errors import LwError
from lwcore.rules.creation import CreationError, make_char, validate
from lwcore.rules.engine import PackSource, RulesEngine
from lwcore.rules.sheet import Sheet, SheetFile, load_sheet_file, parse_st, save_sheet_file
from lwcore.rules.kinds.base import dice_max
from lwcore.rules.kinds.sanity import split_loss
from lwcore.rules.subsystems import SubsystemError, net_advantage

PCT = {
    "names": ["percent", "百分"],
    "defaults": {"体魄": 50, "灵巧": 50, "意志": 50, "观察": 25, "运气": 50, "恐慌值": 0, "dc": 10},
    "alias": {"体魄": ["body", "BOD"], "灵巧": ["dex", "DEX", "敏"], "意志": ["will"], "观察": ["spot hidden", "spot"],
              "稳定": ["stab", "STAB"], "生命": ["hp", "HP"], "生命上限": ["hpmax"], "运气": ["luck"],
              "二号技能": ["skill2"], "dc": ["DC"]},
    "derived": {"生命上限": {"expr": "floor(体魄 / 10)"}, "生命": {"copy_of": "生命上限"},
                "稳定": {"copy_of": "意志"}},
    "st_show": {"top": ["体魄", "灵巧", "意志", "生命"], "itemsPerLine": 2},
    "sheet": {"resources": [{"id": "hp", "label": {"en": "Hit Points", "zh": "生命值"}, "value": "生命", "max": "生命上限"},
                            {"id": "stab", "label": "STAB", "value": "稳定"}]},
    "creation_constraints": {
        "method": "roll",
        "roll": {"体魄": "3d6x5", "灵巧": "(2d6+6)x5"},
        "point_buy": {"budget": 10, "cost": {40: 0, 50: 2, 60: 5, 70: 9}, "stats": ["体魄", "灵巧"]},
        "array": {"values": [70, 40], "stats": ["体魄", "灵巧"]},
        "range": {"min": 15, "max": 90},
    },
    "resolution": {
        "roll": "1d100", "target": "skill",
        "modifiers": {"bonus": {"tens_reroll": "keep_lowest", "label": {"en": "bonus", "zh": "奖励"}},
                      "penalty": {"tens_reroll": "keep_highest"}},
        "difficulties": {"hard": {"target": "floor(target / 2)", "label": {"en": "Hard", "zh": "困难"}},
                         "extreme": {"target": "floor(target / 5)", "label": {"en": "Extreme", "zh": "极难"}}},
        "ranks": [
            {"id": "crit", "when": "roll == 1", "success": True, "critical": True, "tier": 4},
            {"id": "fumble", "when": "roll == 100 || (roll > target && target < 50 && roll >= 96)", "fumble": True},
            {"id": "hard", "when": "roll <= target && roll <= floor(raw_target / 2)", "success": True, "tier": 3},
            {"id": "ok", "when": "roll <= target", "success": True, "tier": 2},
            {"id": "fail", "tier": 1},
        ],
    },
    "subsystems": {
        "stress": {"kind": "sanity", "stat": "稳定", "floor": 0, "fumble_loss": "max", "temporary_at": 5, "permanent_at": 0},
        "luck": {"stat": "运气", "forbid_fumble": True},
        "growth": {"improve_when": "roll > skill || roll > 95", "gain": "1d10", "cap": 99},
        "opposed": {"tie": ["higher_skill"], "final": "draw"},
        "push": {},
        "random_madness": {"tables": {"bout": {"roll": "1d3", "duration": "1d4", "unit": {"en": "rounds", "zh": "轮"},
                                               "entries": [{"en": "A", "zh": "甲"}, {"en": "B", "zh": "乙"},
                                                           {"en": "C", "zh": "丙"}]}}},
    },
    "commands": {
        "ra": {"action": "check", "counted": {"b": "bonus", "p": "penalty"}},
        "r": {"action": "check"},
        "sc": {"tool": "stress", "counted": {"b": "bonus", "p": "penalty"}},
        "en": {"tool": "growth"},
        "ti": {"tool": "random_madness", "table": "bout"},
        "st": {"action": "set_stats"},
        "new": {"action": "make_char"},
    },
    "labels": {"en": {"crit": ["Critical"], "ok": ["Success"], "hard": ["Hard Success"], "fail": ["Failure"],
                      "fumble": ["Fumble"]},
               "zh": {"crit": ["大成功"], "ok": ["成功"], "hard": ["困难成功"], "fail": ["失败"], "fumble": ["大失败"],
                      "temporary": ["暂时失控"]}},
}

D20 = {
    "names": ["twenty"],
    "defaults": {"might": 10, "nimble": 10, "ok_count": 0, "bad_count": 0, "hp": 0},
    "alias": {"nimble": ["dex"]},
    "resolution": {
        "roll": "1d20", "target": "dc", "compare": ">=",
        "modifiers": {"up": {"reroll": "keep_highest", "max": 1}, "down": {"reroll": "keep_lowest", "max": 1}},
        "ranks": [{"id": "nat20", "when": "dice[0] == 20", "success": True, "critical": True, "tier": 3,
                   "tally_success": 0, "regain": 1},
                  {"id": "nat1", "when": "dice[0] == 1", "fumble": True, "tally_failure": 2},
                  {"id": "hit", "when": "roll >= target", "success": True, "tier": 2, "tally_success": 1},
                  {"id": "miss", "tier": 1, "tally_failure": 1}],
    },
    "subsystems": {
        "advantage": {"pair": ["up", "down"], "cancel": "all", "house": {"netting": "net"}},
        "dying": {"kind": "tally", "target": 10, "success_stat": "ok_count", "failure_stat": "bad_count",
                  "regain_stat": "hp"},
    },
    "commands": {"chk": {"action": "check", "value_is": "modifier", "target_words": ["dc"],
                         "switches": {"adv": {"modifier": "up"}, "dis": {"modifier": "down"}}},
                 "ds": {"tool": "dying"}},
}


@pytest.fixture(scope="module")
def engine() -> RulesEngine:
    return RulesEngine(None, sources=[PackSource("pct", "test", data=PCT), PackSource("twenty", "test", data=D20)],
                       user_dir=False)


@pytest.fixture
def sheet(engine: RulesEngine) -> Sheet:
    return engine.sheet("pct")


# --- sheets -----------------------------------------------------------------------------------


def test_defaults_and_derived_are_not_stored(sheet: Sheet) -> None:
    assert sheet.stored() == {}
    sheet.set("body", 70)
    assert sheet.stored() == {"体魄": 70}
    assert sheet["hp"] == 7 and sheet["HPMAX"] == 7  # derived recomputed on change
    sheet.set("BOD", 50)  # back to the default: not stored
    assert sheet.stored() == {}
    sheet.set("hp", 5)
    assert sheet.stored() == {}  # 5 is the derived value (max 5)
    sheet.set("hp", 3)
    assert sheet.stored() == {"生命": 3}
    sheet.set("生命", 4)
    sheet.set("body", 80)
    assert sheet["hp"] == 4 and sheet["生命上限"] == 8
    sheet.set("hp", 8)  # equal to the derived value: follows the max again
    assert "生命" not in sheet.stored()
    sheet.set("body", 90)
    assert sheet["hp"] == 9


def test_aliases_are_case_insensitive_and_unknown_names_kept(sheet: Sheet) -> None:
    sheet.set("DeX", 60)
    sheet.set("Spot Hidden", 40)
    sheet.set("潜水艇驾驶", 30)
    assert sheet.stored() == {"灵巧": 60, "观察": 40, "潜水艇驾驶": 30}
    assert sheet.get("敏") == 60 and sheet.get("SPOT") == 40


def test_resources_per_viewer(sheet: Sheet) -> None:
    sheet.set("hp", 3)
    en = {r["id"]: r for r in sheet.resources("en")}
    zh = {r["id"]: r for r in sheet.resources("zh-CN")}
    assert en["hp"]["label"] == "Hit Points" and zh["hp"]["label"] == "生命值"
    assert en["hp"]["value"] == 3 and en["hp"]["max"] == 5
    assert en["stab"]["label"] == zh["stab"]["label"] == "STAB" and en["stab"]["max"] is None


@pytest.mark.parametrize(("text", "expected"), [
    ("体魄50灵巧60", {"灵巧": 60}),
    ("dex60", {"灵巧": 60}),
    ("DEX60 body70", {"灵巧": 60, "体魄": 70}),
    ("dc15", {"dc": 15}),
    ("DC15dex70", {"dc": 15, "灵巧": 70}),
    ("skill2 40", {"二号技能": 40}),
    ("二号技能40", {"二号技能": 40}),
    ("spot hidden 60", {"观察": 60}),
    ("体魄：70，灵巧=60", {"体魄": 70, "灵巧": 60}),
    ("体魄７０", {"体魄": 70}),
])
def test_st_traps(engine: RulesEngine, text: str, expected: dict) -> None:
    sheet = engine.sheet("pct")
    sheet.apply_st(text)
    assert sheet.stored() == expected


def test_st_adjust_expr_and_keywords(engine: RulesEngine) -> None:
    sheet = engine.sheet("pct", {"体魄": 100})
    result = sheet.apply_st("hp-1d3dex60", rng=random.Random(1))
    assert result.rolls[0]["expr"] == "1d3" and sheet["dex"] == 60
    assert sheet["hp"] == 10 - result.rolls[0]["total"]
    sheet.apply_st("hp+1")
    sheet.apply_st("&斧头=1d8+1d4 stab+5")
    assert sheet.expressions == {"斧头": "1d8+1d4"} and sheet["stab"] == 55
    sheet.apply_st("hp3/12")
    assert sheet["hp"] == 3 and sheet["hpmax"] == 12
    export = sheet.export()
    other = engine.sheet("pct")
    other.apply_st(export)
    assert other.stored() == sheet.stored() and other.expressions == sheet.expressions
    sheet.apply_st("del dex 斧头")
    assert "灵巧" not in sheet.stored() and sheet.expressions == {}
    assert "体魄" in sheet.apply_st("show").output[0]
    sheet.apply_st("clr")
    assert sheet.stored() == {}


@pytest.mark.parametrize("text", ["&x", "&=1d6", "hp-", "体魄", "del", "clr now", "&x=1d"])
def test_st_errors_are_located(engine: RulesEngine, text: str) -> None:
    with pytest.raises(LwError):
        parse_st(text, engine.rule_system("pct"))


def test_sheet_file_roundtrip(engine: RulesEngine, tmp_path) -> None:
    sheet = engine.sheet("pct", {"dex": 70}, name="调查员")
    sheet.expressions["手枪"] = "1d10"
    sheet.extra["portrait"] = "x.png"
    for name in ("a.yaml", "b.json"):
        save_sheet_file(tmp_path / name, sheet)
        back = Sheet.from_file(engine.rule_system("pct"), load_sheet_file(tmp_path / name))
        assert back.stored() == {"灵巧": 70} and back.name == "调查员" and back.extra == {"portrait": "x.png"}
    (tmp_path / "bad.yaml").write_text("- 1\n", encoding="utf-8")
    with pytest.raises(LwError):
        load_sheet_file(tmp_path / "bad.yaml")
    assert "values" in SheetFile.model_json_schema()["properties"]


# --- creation ---------------------------------------------------------------------------------


def test_make_char_methods(engine: RulesEngine) -> None:
    pack = engine.rule_system("pct")
    for seed in range(30):
        s = make_char(pack, rng=random.Random(seed))
        assert 15 <= s["体魄"] <= 90 and 40 <= s["灵巧"] <= 90
        assert s["体魄"] % 5 == 0
    s = make_char(pack, method="point_buy", assign={"body": 60, "dex": 50})
    assert s["体魄"] == 60 and s["灵巧"] == 50
    with pytest.raises(CreationError, match="budget"):
        make_char(pack, method="point_buy", assign={"body": 70, "dex": 50})
    with pytest.raises(CreationError, match="cannot be bought"):
        make_char(pack, method="point_buy", assign={"body": 45})
    assert make_char(pack, method="array").stored() == {"体魄": 70, "灵巧": 40}
    with pytest.raises(CreationError, match="array"):
        make_char(pack, method="array", assign={"dex": 70})
    assert validate(pack, {"体魄": 95, "灵巧": 50}) == ["体魄: 95 is above 90"]
    with pytest.raises(CreationError):
        make_char(pack, method="nope")


# --- subsystems -------------------------------------------------------------------------------


def test_loss_parsing_and_max() -> None:
    assert split_loss("1/1d6") == ("1", "1d6") and split_loss(" 0/1d10+1 ") == ("0", "1d10+1")
    assert dice_max("1d10+1") == 11 and dice_max("2d6") == 12 and dice_max("3") == 3
    for bad in ("1d6", "/1d6", "1/", "1/1x"):
        with pytest.raises(SubsystemError):
            split_loss(bad)


def test_sanity_edges(engine: RulesEngine) -> None:
    s = engine.sheet("pct")
    r = engine.subsystem("pct", "stress", s, loss="1/1d6", roll=20, rng=random.Random(1))
    assert r.outcome == "success" and r.values["loss"] == 1 and s["stab"] == 49 and not r.flags
    # a fumble loses the maximum of the failure expression
    r = engine.subsystem("pct", "stress", s, loss="0/1d10+1", faces=[100])
    assert r.check.roll == 100 and r.outcome == "fumble" and r.values["loss"] == 11 and r.flags == {"temporary": True}
    assert s["stab"] == 38 and s.state["stress"]["temporary"] is True
    # the floor
    s.set("stab", 3)
    r = engine.subsystem("pct", "stress", s, loss="1d10/1d100", faces=[99, 50])
    assert s["stab"] == 0 and r.values["loss"] == 3 and r.flags == {"permanent": True}
    # bonus dice apply to the roll
    s.set("stab", 60)
    r = engine.subsystem("pct", "stress", s, loss="0/5", bonus=1, faces=[95, 1])  # 95 -> 15
    assert r.check.roll == 15 and r.outcome == "success" and r.values["loss"] == 0
    r = engine.subsystem("pct", "stress", s, loss="0/5", penalty=1, faces=[15, 9])  # 15 -> 95
    assert r.check.roll == 95 and r.outcome == "failure" and r.values["loss"] == 5 and r.flags["temporary"]
    # no sheet: a value
    r = engine.subsystem("pct", "sanity", None, loss="1/1d4", value=10, roll=50, rng=random.Random(2))
    assert r.values["before"] == 10 and r.changes == {}
    with pytest.raises(SubsystemError):
        engine.subsystem("pct", "stress", None, loss="1/1d4")


def test_luck_growth_opposed_push_tables(engine: RulesEngine) -> None:
    pack = engine.rule_system("pct")
    s = engine.sheet("pct")
    check = pack.check(40, roll=45)
    r = engine.subsystem("pct", "luck", s, check=check)
    assert r.values["cost"] == 5 and r.outcome == "ok" and s["luck"] == 45
    r = engine.subsystem("pct", "luck", s, check=pack.check(40, roll=45), want="hard")
    assert r.values["cost"] == 25 and s["luck"] == 20
    with pytest.raises(SubsystemError, match="only 20"):
        engine.subsystem("pct", "luck", s, check=pack.check(40, roll=70))
    with pytest.raises(SubsystemError, match="fumble"):
        engine.subsystem("pct", "luck", s, check=pack.check(40, roll=100))
    g = engine.subsystem("pct", "growth", s, skill="spot", faces=[80, 7])
    assert g.success and s["观察"] == 32
    g = engine.subsystem("pct", "growth", s, skill="spot", faces=[20])
    assert not g.success and s["观察"] == 32
    g = engine.subsystem("pct", "growth", None, skill="spot", value=97, faces=[96, 10])
    assert g.values["after"] == 99  # cap
    a, b = pack.check(60, roll=10), pack.check(40, roll=10)
    assert engine.subsystem("pct", "opposed", first=a, second=b).outcome == "first"  # same tier, higher skill
    assert engine.subsystem("pct", "opposed", first=pack.check(60, roll=50), second=b).outcome == "second"
    assert engine.subsystem("pct", "opposed", first=pack.check(40, roll=30), second=pack.check(40, roll=35)).outcome == "draw"
    failed = pack.check(40, roll=80)
    pushed = engine.subsystem("pct", "push", previous=failed, faces=[30])
    assert pushed.flags["pushed"] and pushed.check.success
    with pytest.raises(SubsystemError):
        engine.subsystem("pct", "push", previous=pack.check(40, roll=10))
    t = engine.subsystem("pct", "random_madness", table_name="bout", rng=random.Random(3), locale="zh")
    assert t.values["entry"] in ("甲", "乙", "丙") and 1 <= t.values["duration"] <= 4 and t.values["unit"] == "轮"
    with pytest.raises(SubsystemError):
        engine.subsystem("pct", "nope")


def test_advantage_and_tally(engine: RulesEngine) -> None:
    pack = engine.rule_system("twenty")
    assert net_advantage(pack, 1, 0) == {"up": 1}
    assert net_advantage(pack, 3, 1) == {}  # any of each cancels
    assert net_advantage(pack, 3, 1, "netting") == {"up": 1}
    assert net_advantage(pack, 1, 2, "netting") == {"down": 1}
    s = engine.sheet("twenty")
    assert engine.subsystem("twenty", "dying", s, roll=12).values["successes"] == 1
    assert engine.subsystem("twenty", "dying", s, roll=1).values["failures"] == 2
    r = engine.subsystem("twenty", "dying", s, roll=5)
    assert r.outcome == "ended_failure" and r.flags["ended"] == "failure"
    r = engine.subsystem("twenty", "dying", s, roll=20)
    assert r.outcome == "regain" and s["hp"] == 1 and s.get("ok_count") == 0


# --- commands ---------------------------------------------------------------------------------


def test_check_commands(engine: RulesEngine) -> None:
    s = engine.sheet("pct", {"spot": 60})
    r = engine.command("pct", ".ra 困难观察+10 b2", sheet=s, faces=[55, 1, 3], locale="zh")
    check = r.data["check"]
    assert check["raw_target"] == 70 and check["target"] == 35 and check["modifiers"] == {"bonus": 2}
    assert check["roll"] == 15 and check["rank"] == "hard"
    assert r.text == "观察 70 困难 奖励×2: 1d100=15/35 困难成功"
    r = engine.command("pct", ".ra extreme spot hidden p", sheet=s, faces=[11, 9], locale="en")
    assert r.data["check"]["target"] == 12 and r.data["check"]["roll"] == 91 and r.text.endswith("Failure")
    r = engine.command("pct", ".r 潜水艇驾驶40 找线索", roll=None, faces=[33], locale="zh") if False else \
        engine.command("pct", ".r 潜水艇驾驶40 找线索", faces=[33], locale="zh")
    assert r.data["stat"] == "潜水艇驾驶" and r.data["value"] == 40 and r.data["reason"] == "找线索"
    r = engine.command("pct", "。ra观察", faces=[20])
    assert r.data["value"] == 25 and r.data["check"]["rank"] == "ok"
    with pytest.raises(LwError):
        engine.command("pct", ".ra 未知技能")
    with pytest.raises(LwError):
        engine.command("pct", ".zz")


def test_tool_commands(engine: RulesEngine) -> None:
    s = engine.sheet("pct")
    r = engine.command("pct", ".sc 1/1d6 b1", sheet=s, faces=[100, 9], locale="zh")  # 100 -> bonus 90
    assert r.data["check"]["roll"] == 90 and r.data["outcome"] == "failure" and r.sheet_changed
    assert "稳定 50 ->" in r.text
    r = engine.command("pct", ".en spot", sheet=s, faces=[90, 4])
    assert s["spot"] == 29
    r = engine.command("pct", ".ti", rng=random.Random(1), locale="en")
    assert r.data["values"]["entry"] in ("A", "B", "C") and "rounds" in r.text
    r = engine.command("pct", ".st dex70 hp-1", sheet=s)
    assert r.sheet_changed and s["dex"] == 70
    r = engine.command("pct", ".new 3", rng=random.Random(2))
    assert len(r.data["sheets"]) == 3


def test_modifier_commands_and_advantage(engine: RulesEngine) -> None:
    s = engine.sheet("twenty", {"dex": 14})
    r = engine.command("twenty", ".chk dex+3 dc15 adv", sheet=s, faces=[4, 12])
    assert r.data["modifier"] == 17 and r.data["check"]["roll"] == 12 and r.data["check"]["success"]
    r = engine.command("twenty", ".chk dex dc15 adv dis", sheet=s, faces=[4])
    assert r.data["check"]["modifiers"] == {} and r.data["check"]["roll"] == 4
    r = engine.command("twenty", ".chk dex dc15 adv adv dis", sheet=s, faces=[4, 9], advantage_rule="netting")
    assert r.data["check"]["modifiers"] == {"up": 1}
    r = engine.command("twenty", ".chk +2", faces=[11])
    assert r.data["roll_only"] and r.data["total"] == 13
    r = engine.command("twenty", ".ds", sheet=s, faces=[15])
    assert s.get("ok_count") == 1 and r.sheet_changed


# --- load-time checks of subsystems and commands ------------------------------------------------


@pytest.mark.parametrize(("patch", "message"), [
    ({"subsystems": {"stress": {"kind": "sanity", "stat": "nope"}}}, "subsystems.stress.stat: unknown stat 'nope'"),
    ({"subsystems": {"stress": {"kind": "sanity"}}}, "needs stat:"),
    ({"subsystems": {"growth": {"improve_when": "roll > skil"}}}, "subsystems.growth.improve_when"),
    ({"subsystems": {"growth": {"gain": "1d"}}}, "subsystems.growth.gain"),
    ({"subsystems": {"x": {"computer": "missing"}}}, "unknown computer 'missing'"),
    ({"subsystems": {"t": {"kind": "table", "tables": {"a": {"roll": "1dx"}}}}}, "subsystems.t.tables.a.roll"),
    ({"subsystems": {"o": {"kind": "opposed", "tie": ["coin"]}}}, "unknown tie rule"),
    ({"subsystems": {"a": {"kind": "advantage", "pair": ["boon", "bane"]}}}, "does not declare"),
    ({"commands": {"zz": {"action": "dance"}}}, "unknown action 'dance'"),
    ({"commands": {"zz": {"tool": "nothing"}}}, "names no subsystem"),
    ({"commands": {"zz": {"action": "check", "counted": {"b": "boon"}}}}, "counted 'b'"),
    ({"commands": {"zz": {"action": "check", "switches": {"adv": {"modifier": "boon"}}}}}, "unknown modifier"),
    ({"commands": {"zz": {"action": "check", "variant": "nope"}}}, "unknown variant"),
    ({"commands": {"zz": {"action": "check", "value_is": "both"}}}, "value_is"),
])
def test_behaviour_typos_fail_the_load(patch: dict, message: str) -> None:
    import copy

    data = copy.deepcopy(PCT)
    for key, value in patch.items():
        data[key] = {**data[key], **value}
    engine = RulesEngine(None, sources=[PackSource("bad", "test", data=data)], user_dir=False)
    with pytest.raises(LwError, match=re.escape(message)):
        engine.rule_system("bad")


def test_unknown_kind_is_a_warning() -> None:
    data = {**PCT, "subsystems": {**PCT["subsystems"], "chase": {"rounds": 3}}}
    engine = RulesEngine(None, sources=[PackSource("w", "test", data=data)], user_dir=False)
    assert any("chase" in w for w in engine.rule_system("w").warnings)


# --- properties -----------------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

ALPHABET = st.sampled_from(list("力量敏捷体魄dexDChpsan0123456789+-&=:/ ，、d%()xkh!.") + ["show", "del", "spot hidden"])


@settings(max_examples=300, deadline=None)
@given(st.lists(ALPHABET, max_size=14).map("".join))
def test_st_never_crashes_and_exports_round_trip(text: str) -> None:
    engine = RulesEngine(None, sources=[PackSource("pct", "test", data=PCT)], user_dir=False)
    sheet = engine.sheet("pct")
    try:
        sheet.apply_st(text, rng=random.Random(0))
    except LwError:
        return
    again = engine.sheet("pct")
    again.apply_st(sheet.export())
    assert again.stored() == sheet.stored() and again.expressions == sheet.expressions


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([".ra", ".r", ".sc", ".en", ".ti", ".st", ".new", "。ra", ".chk"]),
       st.lists(ALPHABET | st.sampled_from(["困难", "hard", "b2", "p", "1/1d6", "adv", "dc15"]), max_size=8).map(" ".join))
def test_commands_never_crash(head: str, rest: str) -> None:
    engine = RulesEngine(None, sources=[PackSource("pct", "test", data=PCT), PackSource("twenty", "test", data=D20)],
                         user_dir=False)
    for system in ("pct", "twenty"):
        try:
            result = engine.command(system, head + " " + rest, sheet=engine.sheet(system), rng=random.Random(1))
        except LwError:
            continue
        assert isinstance(result.text, str)


def test_repeat_prefix(engine: RulesEngine) -> None:
    r = engine.command("pct", ".ra 3#困难观察", rng=random.Random(4), locale="zh")
    assert r.data["repeat"] == 3 and len(r.data["results"]) == 3 and len(r.text.splitlines()) == 3
    assert all(x["check"]["difficulty"] == "hard" for x in r.data["results"])
    for bad in (".ra 11#观察", ".ra 0#观察"):
        with pytest.raises(LwError):
            engine.command("pct", bad)
    with pytest.raises(LwError):
        engine.command("pct", ".ra 2#观察", faces=[5, 6])
