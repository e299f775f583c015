"""Rulepacks: model, located diagnostics, extends, derived stats, resolution, discovery."""

from __future__ import annotations

import os
import random
import textwrap
from pathlib import Path

import pytest

from lwcore.contributions import Computer, RulepackSource
from lwcore.hookspecs import hookimpl
from lwcore.kernel import Kernel
from lwcore.plugins import InProcessPlugin
from lwcore.rules import RulesEngine, engine_for
from lwcore.rules.engine import PackSource
from lwcore.rules.errors import CheckError, RulepackError
from lwcore.rules.merge import deep_merge

# A small percentile system written for these tests (no real system is named in the kernel).
BASE = """\
names: [perc, "percentile test"]
set_keys: [perc]
defaults: {might: 40, grit: 60, lore: 10}
alias: {might: [mgt, MIGHT], grit: [GRT]}
display:
  zh: {might: 力气}
derived:
  half_might: {half_of: might}
  copy_grit: {copy_of: grit}
  tenth: {floor_div: {of: might, by: 10}}
  band: {sum_ranges: {of: [might, grit], ranges: [[0, 50, low], [51, 120, mid]], else: high}}
  total: {expr: "might + grit + half_might"}
resolution:
  version: 1
  roll: 1d100
  target: skill
  compare: "<="
  modifiers:
    bonus: {tens_reroll: keep_lowest}
    penalty: {tens_reroll: keep_highest}
  difficulties:
    hard: {target: "floor(target / 2)"}
  ranks:
    - {id: best, when: "roll == 1", success: true, critical: true, tier: 3, shiny: true}
    - {id: good, when: "roll <= target", success: true, tier: 2}
    - {id: bad, tier: 1}
  variants:
    kind:
      ranks:
        - {id: best, when: "roll <= 5", success: true, critical: true, tier: 3}
labels:
  en: {best: [Best, Top], good: Good}
  zh: {best: [最好]}
expertise: {en: "roll low", zh: "掷低"}
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.fixture
def packs(tmp_path: Path) -> Path:
    folder = tmp_path / "packs"
    write(folder, "perc.yaml", BASE)
    return folder


class Clock:
    """A clock the test moves by hand (the engine's freshness window is measured on it)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def engine_with(folder: Path, *extra: str, user_dir: Path | None = None, clock: Clock | None = None) -> RulesEngine:
    sources = [PackSource(p.stem, "test", p) for p in sorted(folder.glob("*.yaml"))]
    return RulesEngine(None, sources=sources, user_dir=user_dir, clock=clock or Clock())


# --- model and diagnostics -------------------------------------------------------------


def test_a_pack_loads_with_every_section(packs: Path) -> None:
    pack = engine_with(packs).rule_system("perc")
    assert pack.names == ("perc", "percentile test")
    assert pack.canonical("MGT") == "might" and pack.canonical("mgt") == "might"
    assert pack.display_name("might", "zh") == "力气" and pack.display_name("might", "en") == "might"
    assert pack.label("best", "en") == "Best" and pack.label("best", "zh-CN") == "最好"
    assert pack.label("good", "zh") == "Good" and pack.label("bad", "en") == "bad"
    assert pack.expertise("zh") == "掷低"
    assert pack.variants == ("kind",) and pack.difficulties == ("hard",)


def test_typo_in_when_fails_with_line_and_column(packs: Path) -> None:
    text = BASE.replace('when: "roll <= target"', 'when: "roll <= targt"')
    path = write(packs, "perc.yaml", text)
    with pytest.raises(RulepackError) as info:
        engine_with(packs).rule_system("perc")
    err = info.value
    line_no = next(i for i, line in enumerate(text.splitlines(), 1) if "targt" in line)
    line = text.splitlines()[line_no - 1]
    assert err.file == str(path)
    assert err.line == line_no
    assert err.column == line.index("targt") + 1
    assert "unknown name 'targt'" in err.message and "did you mean 'target'" in err.message


def test_target_is_not_available_in_a_target_none_pack(tmp_path: Path) -> None:
    write(tmp_path, "pool.yaml", """\
        resolution:
          roll: "{n}d10>=8"
          target: none
          params: {n: {min: 1, max: 9, default: 3}}
          ranks:
            - {id: win, when: "successes > target", success: true}
            - {id: lose}
        """)
    with pytest.raises(RulepackError, match="'target' is not available here: this pack has target: none") as info:
        engine_with(tmp_path).rule_system("pool")
    assert (info.value.line, info.value.column) == (6, 36)


def test_pydantic_errors_are_located(packs: Path) -> None:
    write(packs, "bad.yaml", """\
        resolution:
          roll: 1d20
          compare: "=<"
          ranks: [{id: x}]
        """)
    with pytest.raises(RulepackError, match="resolution.compare") as info:
        engine_with(packs).rule_system("bad")
    assert info.value.line == 3
    write(packs, "bad2.yaml", """\
        resolution:
          roll: 1d20
          rnaks: []
        """)
    with pytest.raises(RulepackError, match="resolution.rnaks: unknown key") as info:
        engine_with(packs).rule_system("bad2")
    assert (info.value.line, info.value.column) == (3, 3)


def test_unknown_top_level_keys_are_warnings(packs: Path) -> None:
    write(packs, "extra.yaml", "names: [x]\nfuture_thing: {a: 1}\n")
    engine = engine_with(packs)
    assert engine.rule_system("extra").warnings == [f"{packs / 'extra.yaml'}:2:1: unknown top-level key 'future_thing' (kept, not used)"]
    assert any(not p.error and "future_thing" in p.message for p in engine.problems())


@pytest.mark.parametrize(
    ("yaml_text", "fragment"),
    [
        ("resolution: {roll: '1d', ranks: [{id: a}]}", "resolution.roll"),
        ("resolution: {roll: 1d20, ranks: [{id: a}, {id: b, when: 'roll > 1'}]}", "is not last"),
        ("resolution: {roll: 1d20, ranks: [{id: a, when: 'roll > 1'}]}", "no fallback rank"),
        ("resolution: {roll: 1d20, ranks: [{id: a, when: 'roll > 1', success: true}, {id: a}]}", "appears twice"),
        ("resolution: {roll: 1d20, ranks: [{id: a, when: 'roll + 1'}, {id: b}]}", "must be a true/false"),
        ("resolution: {roll: 2d20, modifiers: {b: {tens_reroll: keep_lowest}}, ranks: [{id: a}]}", "tens_reroll needs"),
        ("resolution: {roll: 1d20, difficulties: {h: {target: 'roll / 2'}}, ranks: [{id: a}]}", "not available here"),
        ("derived: {x: {half_of: nothing}}", "unknown stat 'nothing'"),
        ("defaults: {a: 1}\nderived: {x: {half_of: a, copy_of: a}}", "exactly one of"),
        ("defaults: {a: 1}\nderived: {x: {computer: nope}}", "unknown computer 'nope'"),
        ("defaults: {a: 1}\nderived: {x: {expr: 'y + 1'}, y: {expr: 'x + 1'}}", "loop"),
        ("- just\n- a list\n", "a rulepack is a mapping"),
        ("names: [a\n", "invalid YAML"),
        ("resolution: {roll: 1d20, script: ../evil.js}", "relative path"),
    ],
)
def test_malformed_packs_fail_with_a_diagnostic(tmp_path: Path, yaml_text: str, fragment: str) -> None:
    write(tmp_path, "p.yaml", yaml_text)
    with pytest.raises(RulepackError) as info:
        engine_with(tmp_path).rule_system("p")
    assert fragment in str(info.value)
    assert info.value.file == str(tmp_path / "p.yaml")


# --- extends -----------------------------------------------------------------------------


def test_deep_merge_rules() -> None:
    parent = {"a": {"x": 1, "y": 2}, "l": [1, 2], "k": 1, "gone": {"z": 1}}
    child = {"a": {"y": 3, "w": 4}, "l": [9], "gone": None, "new": {"n": None, "m": 1}}
    assert deep_merge(parent, child) == {"a": {"x": 1, "y": 3, "w": 4}, "l": [9], "k": 1, "new": {"m": 1}}
    assert parent["a"] == {"x": 1, "y": 2}


def test_extends_merges_deletes_and_replaces(packs: Path) -> None:
    write(packs, "perc_house.yaml", """\
        extends: perc
        names: [house]
        defaults: {might: 55, lore: null}
        labels: null
        resolution:
          difficulties:
            easy: {target: "target * 2"}
        """)
    engine = engine_with(packs)
    pack = engine.rule_system("perc_house")
    assert pack.chain == ("perc_house", "perc")
    assert pack.model.defaults == {"might": 55, "grit": 60}
    assert pack.names == ("perc_house", "house")  # its own words: names and set_keys are never inherited
    assert pack.is_a("perc") and pack.is_a("Percentile Test") and not pack.matches("perc")
    assert pack.label("best", "en") == "best"
    assert pack.difficulties == ("hard", "easy")
    assert pack.check(30, difficulty="easy", faces=[55]).rank == "good"
    assert engine.rule_system("perc").model.defaults["might"] == 40


def test_extends_error_in_child_points_at_the_child_file(packs: Path) -> None:
    path = write(packs, "child.yaml", """\
        extends: perc
        resolution:
          ranks:
            - {id: odd, when: "rol == 1"}
            - {id: rest}
        """)
    with pytest.raises(RulepackError) as info:
        engine_with(packs).rule_system("child")
    assert (info.value.file, info.value.line, info.value.column) == (str(path), 4, 24)


def chain(folder: Path, length: int) -> None:
    for i in range(1, length + 1):
        parent = "perc" if i == 1 else f"c{i - 1}"
        write(folder, f"c{i}.yaml", f"extends: {parent}\nnames: [c{i}]\n")


def test_four_levels_of_extends_are_allowed(packs: Path) -> None:
    chain(packs, 4)
    assert engine_with(packs).rule_system("c4").chain == ("c4", "c3", "c2", "c1", "perc")


def test_five_levels_of_extends_are_refused(packs: Path) -> None:
    chain(packs, 5)
    with pytest.raises(RulepackError, match="extends chain too deep: c5 -> c4 -> c3 -> c2 -> c1 -> perc"):
        engine_with(packs).rule_system("c5")


def test_extends_cycle_is_refused_with_the_chain(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "extends: b\n")
    write(tmp_path, "b.yaml", "extends: c\n")
    write(tmp_path, "c.yaml", "extends: a\n")
    with pytest.raises(RulepackError, match="extends cycle: a -> b -> c -> a"):
        engine_with(tmp_path).rule_system("a")


def test_extends_itself_and_unknown_parent(tmp_path: Path) -> None:
    write(tmp_path, "me.yaml", "extends: me\n")
    write(tmp_path, "orphan.yaml", "names: [o]\nextends: ghost\n")
    engine = engine_with(tmp_path)
    with pytest.raises(RulepackError, match="extends itself; a patch needs its own new id"):
        engine.rule_system("me")
    with pytest.raises(RulepackError, match=r"unknown parent system 'ghost' \(chain: orphan -> ghost\)") as info:
        engine.rule_system("orphan")
    assert info.value.line == 2


# --- derived -----------------------------------------------------------------------------


def test_declarative_derived_stats(packs: Path) -> None:
    pack = engine_with(packs).rule_system("perc")
    assert pack.derive({"MIGHT": 41}) == {
        "half_might": 20, "copy_grit": 60, "tenth": 4, "band": "mid", "total": 121,
    }
    assert pack.derive({"might": 0, "grit": 10})["band"] == "low"
    assert pack.derive({"might": 100, "grit": 100})["band"] == "high"


def test_computers_and_computer_groups_through_a_kernel(tmp_path: Path) -> None:
    folder = tmp_path / "srcs"
    write(folder, "alpha.yaml", "defaults: {a: 3}\nderived: {twice: {computer: twice}}\n")
    write(folder, "beta.yaml", "defaults: {a: 5}\nderived: {twice: {computer_group: alpha}, other: {computer_group: alpha, stat: twice}}\n")

    class Plugin:
        @hookimpl
        def lw_rulepacks(self, register):
            register(RulepackSource(path=folder / "alpha.yaml"))
            register(RulepackSource(path=folder / "beta.yaml"))
            register(RulepackSource(data={"defaults": {"q": 1}}, id="gamma"))

        @hookimpl
        def lw_rule_computers(self, register):
            register(Computer("twice", lambda values: values["a"] * 2))

    manifest = {"id": "alpha-sys", "version": "1.0", "tier": "code", "provides": ["rulepacks"]}
    kernel = Kernel(data_dir=tmp_path / "home", entry_points=False, plugins=[InProcessPlugin(manifest, Plugin())], env={})
    engine = engine_for(kernel)
    assert engine is engine_for(kernel)
    assert engine.ids() == ["alpha", "beta", "gamma"]
    assert engine.sources()["alpha"].origin == "alpha-sys"
    assert engine.derive("alpha") == {"twice": 6}
    assert engine.derive("beta") == {"twice": 10, "other": 10}
    assert engine.rule_system("gamma").model.defaults == {"q": 1}


# --- resolution --------------------------------------------------------------------------


def test_ranks_flags_variants_and_margin(packs: Path) -> None:
    pack = engine_with(packs).rule_system("perc")
    best = pack.check(50, faces=[1])
    assert (best.rank, best.success, best.critical, best.tier, dict(best.flags)) == ("best", True, True, 3, {"shiny": True})
    assert pack.check(50, faces=[3]).rank == "good"
    assert pack.check(50, faces=[3], variant="kind").rank == "best"
    hard = pack.check(50, faces=[30], difficulty="hard")
    assert (hard.rank, hard.target, hard.raw_target, hard.margin) == ("bad", 25, 50, -5)
    with pytest.raises(CheckError, match="unknown difficulty 'nightmare'"):
        pack.check(50, difficulty="nightmare")
    with pytest.raises(CheckError, match="unknown variant"):
        pack.check(50, variant="nope")
    with pytest.raises(CheckError, match="needs a target value"):
        pack.check(None)
    with pytest.raises(CheckError, match="no 'boost' modifier"):
        pack.check(50, modifiers={"boost": 1})


def test_pool_system_with_params_and_reroll(tmp_path: Path) -> None:
    write(tmp_path, "pool.yaml", """\
        resolution:
          roll: "{n}d10>=8"
          target: none
          params: {n: {min: 1, max: 9, default: 3}}
          ranks:
            - {id: botch, when: "successes == 0 && ones > 0", fumble: true}
            - {id: win, when: "successes >= 1", success: true, tier: 2}
            - {id: lose}
        """)
    write(tmp_path, "adv.yaml", """\
        resolution:
          roll: 1d20
          target: dc
          compare: ">="
          modifiers: {advantage: {reroll: keep_highest}, disadvantage: {reroll: keep_lowest}}
        """)
    engine = engine_with(tmp_path)
    pool = engine.rule_system("pool")
    result = pool.check(params={"n": 5}, faces=[8, 1, 3, 9, 10])
    assert (result.rank, result.successes, result.ones, result.margin) == ("win", 3, 1, 3)
    assert pool.check(faces=[1, 2, 3]).rank == "botch"
    assert len(pool.check(params={"n": 99}, rng=random.Random(1)).dice) == 9
    adv = engine.rule_system("adv")
    r = adv.check(15, modifiers={"advantage": 1}, faces=[3, 18])
    assert (r.roll, r.rank, r.success, r.margin) == (18, "success", True, 3)
    assert adv.check(15, modifiers={"disadvantage": 1}, faces=[3, 18]).roll == 3
    assert adv.check(15, modifiers={"advantage": 1, "disadvantage": 1}, faces=[12]).dice == (12,)


def test_a_script_a_pack_names_must_be_there(tmp_path: Path) -> None:
    """The script channel itself is tested in test_rule_scripts.py."""
    write(tmp_path, "js.yaml", "resolution: {script: resolver.js}\n")
    with pytest.raises(RulepackError, match="resolution.script: script 'resolver.js': file not found") as info:
        engine_with(tmp_path).rule_system("js")
    assert info.value.line == 1


# --- discovery ----------------------------------------------------------------------------


def test_user_files_are_discovered_and_changes_picked_up_within_the_window(packs: Path, tmp_path: Path) -> None:
    user = tmp_path / "user"
    clock = Clock()
    engine = engine_with(packs, user_dir=user, clock=clock)
    assert engine.ids() == ["perc"]
    write(user, "mine.yaml", "extends: perc\nnames: [mine]\n")
    assert engine.ids() == ["perc"]  # the sources were looked at less than a second ago
    clock.now += 1.0
    assert engine.ids() == ["mine", "perc"]
    assert engine.rule_system("mine").model.defaults["might"] == 40
    first = engine.rule_system("mine")
    clock.now += 5
    assert engine.rule_system("mine") is first  # cached while nothing changes
    path = write(user, "mine.yaml", "extends: perc\nnames: [mine]\ndefaults: {might: 99}\n")
    os.utime(path, ns=(1, 1))
    assert engine.rule_system("mine") is first
    engine.refresh()  # at once, without waiting for the window
    assert engine.rule_system("mine").model.defaults["might"] == 99
    path.unlink()
    clock.now += 1.0
    assert engine.ids() == ["perc"]


def test_a_zero_window_looks_at_the_sources_on_every_call(packs: Path, tmp_path: Path) -> None:
    user = tmp_path / "user"
    engine = RulesEngine(None, sources=[PackSource("perc", "test", packs / "perc.yaml")], user_dir=user,
                         recheck_after=0)
    write(user, "mine.yaml", "extends: perc\nnames: [mine]\n")
    assert engine.ids() == ["mine", "perc"]


def test_user_file_cannot_shadow_a_plugin_id(packs: Path, tmp_path: Path) -> None:
    user = tmp_path / "user"
    write(user, "perc.yaml", "names: [impostor]\n")
    engine = engine_with(packs, user_dir=user)
    assert engine.rule_system("perc").names[1] == "percentile test"
    problems = [str(p) for p in engine.problems()]
    assert any("cannot replace it" in p and "perc" in p for p in problems)


def test_a_malformed_pack_is_skipped_not_fatal(packs: Path) -> None:
    write(packs, "broken.yaml", "resolution: {roll: '1d', ranks: [{id: a}]}\n")
    engine = engine_with(packs)
    assert sorted(engine.packs()) == ["perc"]
    (problem,) = [p for p in engine.problems() if p.error]
    assert problem.id == "broken" and "resolution.roll" in problem.message
    assert engine.find("percentile test") == "perc" and engine.find("PERC") == "perc"
    assert engine.find("nothing") is None


def test_validate_file_resolves_extends_against_installed_packs(packs: Path, tmp_path: Path) -> None:
    loose = write(tmp_path, "loose.yaml", "extends: perc\nresolution: {ranks: [{id: x, when: 'roll < 0'}, {id: y}]}\n")
    pack = engine_with(packs).validate_file(loose)
    assert pack.chain == ("loose", "perc")
    assert pack.check(10, faces=[5]).rank == "y"


def test_resources_resolve_labels_per_viewer(tmp_path: Path) -> None:
    write(tmp_path, "bars.yaml", """\
        defaults: {hp: 10, tide: 3}
        sheet:
          resources:
            - {id: hp, label: HP, value: hp}
            - {id: tide, label: {en: Tide, zh: 潮位}, value: tide, max: hp}
        """)
    pack = engine_with(tmp_path).rule_system("bars")
    assert [r["label"] for r in pack.resources("zh-CN")] == ["HP", "潮位"]
    assert [r["label"] for r in pack.resources("fr")] == ["HP", "Tide"]


def test_creation_roll_formulas_are_checked(tmp_path: Path) -> None:
    write(tmp_path, "gen.yaml", "creation_constraints:\n  roll:\n    might: 3d6x5\n    grit: 3d6xx5\n")
    with pytest.raises(RulepackError, match="creation_constraints.roll.grit") as info:
        engine_with(tmp_path).rule_system("gen")
    assert (info.value.line, info.value.column) == (4, 15)
