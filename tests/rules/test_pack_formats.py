"""The rulepack format as authors meet it: shapes written for Loreweaver load with their
meaning, validation finds every problem at once (located), unknown keys warn with a "did you
mean" at every level, ``--strict`` makes warnings errors, and the schema documents every field."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from lwcore.cli import main
from lwcore.rules import RulesEngine
from lwcore.rules.engine import PackSource
from lwcore.rules.errors import RulepackError, RulepackErrors
from lwcore.rules.kept_check import rank_named
from lwcore.rules.model import Rulepack

BASE = """\
defaults: {STR: 50, SIZ: 60, DEX: 40, hp: 8, hpmax: 8}
resolution:
  roll: 1d100
  target: skill
  ranks:
    - {id: crit, when: "roll == 1", success: true, critical: true, tier: 3}
    - {id: regular, when: "roll <= target", success: true, tier: 2}
    - {id: fail, tier: 1}
"""


def problems(pack_from, text: str) -> list[str]:
    with pytest.raises(RulepackError) as info:
        pack_from(text)
    error = info.value
    return [str(e) for e in error.errors] if isinstance(error, RulepackErrors) else [str(error)]


# --- shapes written for Loreweaver, each with its meaning ------------------------------------


def test_a_label_may_be_display_and_markers(pack_from) -> None:
    pack = pack_from(BASE + """\
labels:
  en:
    regular: {display: Success, markers: [Regular Success, Plain Success]}
    fail: {display: Failure, markers: []}
    crit: [Critical Success, Crit]
""")
    assert pack.label("regular") == "Success" and pack.label("fail") == "Failure" and pack.label("crit") == "Critical Success"
    assert rank_named(pack, "plain success") == "regular" and rank_named(pack, "Crit") == "crit"


def test_a_difficulty_given_only_prefixes_keeps_the_target_and_names_the_difficulty(pack_from, tmp_path: Path) -> None:
    pack = pack_from(BASE + """\
  difficulties:
    regular: {prefixes: {en: [regular, normal], zh: []}}
    hard: {target: "floor(target / 2)", prefixes: {en: [hard], zh: [困难]}}
commands: {ra: {action: check}}
""".replace("  difficulties", "  difficulties", 1))
    assert pack.check(60, difficulty="regular", roll=55).target == 60
    result = pack.check(60, difficulty="hard", roll=55)
    assert (result.target, result.rank) == (30, "fail")
    engine = RulesEngine(None, sources=[PackSource("shape", "test", tmp_path / "shape.yaml")], user_dir=None)
    assert engine.command("shape", ".ra normal STR", faces=[55]).data["check"]["difficulty"] == "regular"
    assert engine.command("shape", ".ra 困难STR", faces=[55]).data["check"]["difficulty"] == "hard"


def test_sum_ranges_else_may_be_computed_and_formatted(pack_from) -> None:
    pack = pack_from(BASE + """\
derived:
  DB:
    sum_ranges:
      of: [STR, SIZ]
      ranges: [[0, 124, "0"], [125, 164, 1d4]]
      else: {expr: "floor((STR + SIZ - 205) / 80) + 2", format: "{}d6"}
  Build:
    sum_ranges: {of: [STR, SIZ], ranges: [[0, 124, 0]], else: {expr: "floor((STR + SIZ - 205) / 80) + 3"}}
""")
    assert pack.derive({"STR": 50, "SIZ": 60})["DB"] == "0"
    assert pack.derive({"STR": 100, "SIZ": 200})["DB"] == "3d6" and pack.derive({"STR": 100, "SIZ": 200})["Build"] == 4
    assert any("else" in p for p in problems(pack_from, BASE + """\
derived:
  DB: {sum_ranges: {of: [STR], ranges: [], else: {expr: "STR", format: "no slot"}}}
"""))


def test_a_resource_may_read_a_source_record(pack_from) -> None:
    pack = pack_from(BASE + """\
sheet:
  hit_points: {current: 8, max: 8}
  wounds: {current: STR, max: SIZ}
  resources:
    - {id: hp, label: HP, source: hit_points}
    - {id: w, label: {en: Wounds, zh: 伤}, source: wounds}
""")
    from lwcore.rules.sheet import Sheet

    bars = {b["id"]: b for b in Sheet(pack, {"hp": 5}).resources("zh")}
    assert (bars["hp"]["stat"], bars["hp"]["value"], bars["hp"]["max"]) == ("hp", 5, 8)
    assert (bars["w"]["label"], bars["w"]["value"], bars["w"]["max"]) == ("伤", 50, 60)
    fresh = pack_from(BASE.replace(", hp: 8, hpmax: 8", "") + """\
sheet:
  hit_points: {current: 10, max: 12}
  resources: [{id: life, label: Life, source: hit_points}]
""", "fresh")
    assert (fresh.model.defaults["life"], fresh.model.defaults["lifemax"]) == (10, 12)
    assert any("source 'nowhere'" in p for p in problems(pack_from, BASE + """\
sheet: {resources: [{id: hp, label: HP, source: nowhere}]}
"""))


def test_a_modifier_may_replace_the_roll(pack_from) -> None:
    pack = pack_from("""\
resolution:
  roll: 1d20
  target: dc
  compare: ">="
  modifiers:
    advantage: {roll: 2d20kh1}
    disadvantage: {roll: 2d20kl1}
""")
    assert pack.check(10, modifiers={"advantage": 1}, faces=[3, 17]).roll == 17
    assert pack.check(10, modifiers={"disadvantage": 1}, faces=[3, 17]).roll == 3
    both = pack.check(10, modifiers={"advantage": 1, "disadvantage": 1}, faces=[12])
    assert both.roll == 12 and both.dice == (12,)  # opposite replacements cancel
    with pytest.raises(RulepackError.__mro__[1], match="at most 1"):
        pack.check(10, modifiers={"advantage": 2}, faces=[3, 17])


def test_resolution_check_routes_favorable_and_gives_a_default_target(tmp_path: Path) -> None:
    path = tmp_path / "dc.yaml"
    path.write_text(textwrap.dedent("""\
        defaults: {stealth: 3}
        resolution:
          roll: 1d20
          target: dc
          compare: ">="
          modifiers: {advantage: {roll: 2d20kh1}, disadvantage: {roll: 2d20kl1}}
          check: {favorable: advantage, unfavorable: disadvantage, default_target: 15, default_skill: stealth}
          ranks:
            - {id: success, when: "roll >= target", success: true, tier: 2}
            - {id: fail, tier: 1}
        commands: {chk: {action: check, value_is: modifier}}
        """), encoding="utf-8")
    engine = RulesEngine(None, sources=[PackSource("dc", "test", path)], user_dir=None)
    from lwcore.rules.commands import check_command, check_with_value

    pack = engine.rule_system("dc")
    done = check_with_value(pack, check_command(pack), "stealth", 3, modifiers={"favorable": 1}, faces=[4, 12])
    assert (done.result.target, done.result.roll, done.result.modifiers) == (15, 12, {"advantage": 1})
    assert done.result.rank == "success" and not done.roll_only


def test_rank_ids_may_repeat_with_one_outcome_and_a_variant_may_be_a_whole_ladder(pack_from) -> None:
    pack = pack_from("""\
resolution:
  roll: 1d100
  target: skill
  ranks:
    - {id: crit, when: "roll == 1", success: true, critical: true, tier: 5}
    - {id: fumble, when: "roll == 100", fumble: true, tier: 0}
    - {id: regular, when: "roll <= target", success: true, tier: 2}
    - {id: fumble, when: "roll >= 96 && target < 50", fumble: true, tier: 0}
    - {id: fail, tier: 1}
  variants:
    strict:
      ranks:
        - {id: fumble, when: "roll >= 96", fumble: true, tier: 0}
        - {id: crit, when: "roll <= 5", success: true, critical: true, tier: 5}
        - {id: regular, when: "roll <= target", success: true, tier: 2}
        - {id: fail, tier: 1}
""")
    assert [pack.check(40, roll=r).rank for r in (1, 97, 100, 30, 60)] == ["crit", "fumble", "fumble", "regular", "fail"]
    assert [pack.check(99, variant="strict", roll=r).rank for r in (97, 4, 60)] == ["fumble", "crit", "regular"]
    assert any("appears twice with different outcomes" in p for p in problems(pack_from, """\
resolution:
  roll: 1d100
  ranks: [{id: a, when: "roll < 5", success: true}, {id: a, tier: 3}]
"""))


def test_template_names_a_kind_and_its_keys_keep_their_meaning(tmp_path: Path) -> None:
    path = tmp_path / "tpl.yaml"
    path.write_text(textwrap.dedent("""\
        defaults: {STR: 50, SAN: 45}
        resolution:
          roll: 1d100
          target: skill
          ranks:
            - {id: fumble, when: "roll == 100", fumble: true, tier: 0}
            - {id: regular, when: "roll <= target", success: true, tier: 2}
            - {id: fail, tier: 1}
        subsystems:
          sanity_check: {template: check_with_loss, stat: SAN, fumble_loss: all}
          skill_growth: {template: improvement_check, roll: 1d100, improve: 1d10, cap: 100, auto_success_above: 95}
          madness: {template: table_draw, default: temp, tables: {temp: {aliases: [temporary], entries: [a, b]}}}
        commands:
          sc: {tool: sanity_check}
          ti: {tool: madness, args: {table: temporary}}
        """), encoding="utf-8")
    engine = RulesEngine(None, sources=[PackSource("tpl", "test", path)], user_dir=None)
    assert engine.rule_system("tpl").warnings == []
    fumbled = engine.subsystem("tpl", "sanity_check", engine.sheet("tpl"), loss="1/1d6", faces=[100])
    assert (fumbled.outcome, fumbled.values["after"], fumbled.values["loss"]) == ("fumble", 0, 45)  # all of it
    grown = engine.subsystem("tpl", "skill_growth", engine.sheet("tpl", {"STR": 98}), skill="STR", faces=[97, 4])
    assert grown.outcome == "improved" and grown.values["after"] == 100  # 97 > 95 though under 98; capped
    assert engine.subsystem("tpl", "madness", faces=[1]).values["table"] == "temp"  # the default table
    assert engine.command("tpl", ".ti", faces=[2]).data["values"]["entry"] == "b"  # 1d2 over two entries


def test_creation_attributes_roll_each_stat_within_its_bounds(tmp_path: Path) -> None:
    import random

    path = tmp_path / "make.yaml"
    path.write_text(BASE + textwrap.dedent("""\
        creation_constraints:
          attributes:
            STR: {min: 15, max: 90, roll: "3d6x5"}
            SIZ: {min: 40, max: 90, roll: "(2d6+6)x5"}
        """), encoding="utf-8")
    engine = RulesEngine(None, sources=[PackSource("make", "test", path)], user_dir=None)
    for seed in range(20):
        values = engine.make_char("make", rng=random.Random(seed)).values()
        assert 15 <= values["STR"] <= 90 and 40 <= values["SIZ"] <= 90


def test_the_loreweaver_reference_packs_validate_unchanged(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          reference_packs) -> None:
    files = [str(path) for path in reference_packs("coc7", "dnd5e", "wod")]
    try:
        main(["--data-dir", str(tmp_path / "home"), "rulepack", "validate", *files])
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr().out
    assert code == 0, out
    assert [line for line in out.splitlines() if line.startswith("ok:")] == [
        f"ok: {tmp_path / 'coc7.yaml'} (coc7)", f"ok: {tmp_path / 'dnd5e.yaml'} (dnd5e)",
        f"ok: {tmp_path / 'wod.yaml'} (wod)"]
    assert "error" not in out


# --- validation that catches mistakes ------------------------------------------------------


@pytest.mark.parametrize(("text", "place", "hint"), [
    ("deriveds: {}\n", "unknown top-level key 'deriveds'", "did you mean 'derived'?"),
    ("commands: {ra: {action: check, countd: {b: bonus}}}\n", "commands.ra: unknown key 'countd'",
     "did you mean 'counted'?"),
    ("sheet: {resources: [{id: hp, label: HP, value: hp, maxx: hpmax}]}\n", "sheet.resources.0: unknown key 'maxx'",
     "did you mean 'max'?"),
    ("subsystems: {luck: {stat: STR, forbid_fumbel: true}}\n", "subsystems.luck: unknown key 'forbid_fumbel'",
     "did you mean 'forbid_fumble'?"),
    ("subsystems: {odd: {kind: sanitty, stat: STR}}\n", "kind 'sanitty' is not one this engine runs",
     "did you mean 'sanity'?"),
    ("st_show: {itemsperline: 4}\n", "st_show: unknown key 'itemsperline'", "did you mean 'itemsPerLine'?"),
    ("labels: {crit: {en: Critical}}\n", "'crit' is a rank id", "did you mean labels.en.crit?"),
    ("display: {english: {STR: Strength}}\n", "does not look like a locale", ""),
    ("display: {en: {STRR: Strength}}\n", "'STRR' is not a stat", "did you mean 'STR'?"),
])
def test_unknown_keys_warn_at_every_level_with_a_suggestion(pack_from, tmp_path: Path, text: str, place: str,
                                                             hint: str) -> None:
    pack = pack_from(BASE + text)
    (warning,) = [w for w in pack.warnings if place in w]
    assert hint in warning and warning.startswith(f"{tmp_path / 'shape.yaml'}:")


def test_an_unknown_key_inside_resolution_is_an_error_with_a_suggestion(pack_from) -> None:
    (problem,) = problems(pack_from, BASE + "  modifiers: {bonus: {tens_reroll: keep_lowest, lable: bonus die}}\n")
    assert "resolution.modifiers.bonus.lable: unknown key (did you mean 'label'?)" in problem


def test_every_problem_is_reported_at_once_each_located(pack_from, tmp_path: Path) -> None:
    found = problems(pack_from, """\
defaults: {DEX: 1e400, STR: 50}
derived: {half: {half_of: STRR}}
resolution:
  roll: 1d100
  ranks:
    - {id: a, when: "rol < 5"}
    - {id: b}
subsystems: {luck: {stat: LUK}}
""")
    assert len(found) == 1 and "DEX" in found[0]  # the model is refused before anything compiles
    found = problems(pack_from, """\
defaults: {STR: 50}
derived: {half: {half_of: STRR}}
resolution:
  roll: 1d100
  ranks:
    - {id: a, when: "rol < 5"}
    - {id: b}
subsystems: {luck: {stat: LUK}}
commands: {ra: {action: chek}}
""")
    file = tmp_path / "shape.yaml"
    assert len(found) == 4
    assert found[0].startswith(f"{file}:2:") and "unknown stat 'STRR' (did you mean 'STR'?)" in found[0]
    assert any(p.startswith(f"{file}:6:") and "unknown name 'rol' (did you mean 'roll'?)" in p for p in found)
    assert any(p.startswith(f"{file}:8:") and "unknown stat 'LUK'" in p for p in found)
    assert any(p.startswith(f"{file}:9:") and "unknown action 'chek' (did you mean 'check'?)" in p for p in found)


@pytest.mark.parametrize(("value", "fragment"), [("1e400", "reads like a number"), ('"50"', "reads like a number"),
                                                 (".nan", "not a finite number"), (".inf", "not a finite number")])
def test_numbers_written_as_text_or_not_finite_are_refused(pack_from, value: str, fragment: str) -> None:
    (problem,) = problems(pack_from, f"defaults: {{DEX: {value}}}\n")
    assert fragment in problem and ":1:" in problem


def test_validate_strict_makes_warnings_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pack = tmp_path / "loose.yaml"
    pack.write_text(BASE + "deriveds: {}\n", encoding="utf-8")
    codes = []
    for extra in ([], ["--strict"]):
        try:
            main(["--data-dir", str(tmp_path / "home"), "rulepack", "validate", *extra, str(pack)])
            codes.append(0)
        except SystemExit as exc:
            codes.append(int(exc.code or 0))
    out = capsys.readouterr().out
    assert codes == [0, 1]
    assert "warning:" in out and "error:" in out and out.count("unknown top-level key 'deriveds'") == 2


def test_the_schema_describes_every_field_with_an_example() -> None:
    schema = Rulepack.model_json_schema()
    missing = []
    for where, props in [("Rulepack", schema["properties"]),
                         *((name, sub.get("properties", {})) for name, sub in schema["$defs"].items())]:
        missing += [f"{where}.{field}" for field, prop in props.items()
                    if not prop.get("description") or "examples" not in prop]
    assert missing == []
    assert json.dumps(schema)  # printable as JSON (what lw schema rulepack prints)


def test_lw_schema_rulepack_prints_the_descriptions(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    try:
        main(["--data-dir", str(tmp_path), "schema", "rulepack"])
    except SystemExit as exc:
        assert not exc.code
    schema = json.loads(capsys.readouterr().out)
    assert schema["properties"]["tests"]["description"] and schema["$defs"]["Difficulty"]["properties"]["prefixes"]
