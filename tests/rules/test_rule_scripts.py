"""The rulepack script channel (A.1) with an example pack that needs it (``script_pack/``: a
d6-pool system whose check succeeds when two dice sum to the skill): the engine rolls, the
script gives a verdict of the pack's, the engine checks and clamps; load-time and run-time
failures located in the script; the trust card says so; a room plays it end to end."""

from __future__ import annotations

import itertools
import json
import random
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lwcore.errors import LwError
from lwcore.kernel import Kernel
from lwcore.rules.engine import PackSource, RulesEngine
from lwcore.rules.errors import CheckError, RulepackError
from lwcore.rules.sheet import Sheet

EXAMPLE = Path(__file__).parent / "script_pack"


@pytest.fixture
def pack_dir(tmp_path: Path) -> Path:
    target = tmp_path / "packs"
    shutil.copytree(EXAMPLE, target)
    return target


def engine_for(folder: Path) -> RulesEngine:
    return RulesEngine(None, sources=[PackSource(p.stem, "test", p) for p in sorted(folder.glob("*.yaml"))],
                       user_dir=None, recheck_after=0)


def oracle(faces: list[int], target: int) -> tuple[str, int | None]:
    """The example pack's rule, written out in Python."""
    if all(f == 1 for f in faces):
        return "snake-eyes", None
    if any(faces.count(f) >= 3 for f in faces):
        return "triple", None
    pairs = sum(1 for a, b in itertools.combinations(faces, 2) if a + b == target)
    return ("pair", pairs) if pairs else ("miss", 0)


@pytest.mark.parametrize(("faces", "target", "rank", "margin", "flags"), [
    ([3, 4, 6], 7, "pair", 1, {}),
    ([3, 4, 4, 3], 7, "pair", 4, {}),
    ([2, 6, 1], 7, "pair", 1, {}),
    ([6, 6, 5], 7, "miss", 0, {"note": "no two dice make 7"}),
    ([2, 2, 2], 4, "triple", None, {"triple_face": 2}),
    ([1, 1, 1], 2, "snake-eyes", None, {}),
    ([1, 1], 2, "snake-eyes", None, {}),
])
def test_the_script_decides_what_the_expression_language_cannot(pack_dir: Path, faces: list[int], target: int,
                                                                 rank: str, margin: int | None, flags: dict) -> None:
    pack = engine_for(pack_dir).rule_system("match")
    assert pack.has_rules_script and set(pack.scripts) == {"resolution", "subsystems.strain"}
    result = pack.check(target, params={"pool": len(faces)}, faces=faces)
    assert (result.rank, result.dice, result.target) == (rank, tuple(faces), target)
    assert (result.success, result.critical, result.fumble) == (
        rank in ("pair", "triple"), rank == "triple", rank == "snake-eyes")
    assert result.flags == flags
    if margin is not None:
        assert result.margin == margin
    else:  # the pack's own margin (target - roll) when the script gives none
        assert result.margin == target - sum(faces)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=2, max_size=8), st.integers(2, 12))
def test_any_roll_gets_the_rule_the_script_states(faces: list[int], target: int) -> None:
    pack = engine_for(EXAMPLE).rule_system("match")
    result = pack.check(target, params={"pool": len(faces)}, faces=faces)
    rank, margin = oracle(faces, target)
    assert result.rank == rank and (margin is None or result.margin == margin)


def test_rolls_come_from_the_engine_and_repeat_with_the_seed(pack_dir: Path) -> None:
    pack = engine_for(pack_dir).rule_system("match")
    first = [pack.check(7, rng=random.Random(seed)) for seed in range(20)]
    again = [pack.check(7, rng=random.Random(seed)) for seed in range(20)]
    assert [r.to_json() for r in first] == [r.to_json() for r in again]
    assert all(len(r.dice) == 3 and r.rank == oracle(list(r.dice), 7)[0] for r in first)
    assert {r.rank for r in first} >= {"pair", "miss"}


def test_an_edited_script_takes_effect_at_once(pack_dir: Path) -> None:
    engine = engine_for(pack_dir)
    assert engine.rule_system("match").check(7, faces=[3, 4, 6], params={"pool": 3}).rank == "pair"
    (pack_dir / "match" / "resolver.js").write_text('function resolve(check) { return "miss"; }', encoding="utf-8")
    assert engine.rule_system("match").check(7, faces=[3, 4, 6], params={"pool": 3}).rank == "miss"


@pytest.mark.parametrize(("body", "message", "line"), [
    ('function resolve(c) { return "legendary"; }', "not one of miss, pair, snake-eyes, triple", None),
    ("function resolve(c) {\n  return c.nothing.here;\n}", "TypeError", 2),
    ("function resolve(c) { for (;;) {} }", "CPU", None),
    ('function resolve(c) { return {verdict: "pair", effects: [{op: "adjust", stat: "Nerve", by: 1}]}; }',
     "a check changes no sheet value", None),
    ('function resolve(c) { return {effects: [{op: "note", text: "hm"}]}; }', "must give a verdict", None),
    ("function resolve(c) { return 42; }", r"resolve\(\) returned 42", None),
])
def test_a_script_that_misbehaves_fails_the_check_located(pack_dir: Path, body: str, message: str,
                                                          line: int | None) -> None:
    (pack_dir / "match" / "resolver.js").write_text(body, encoding="utf-8")
    pack = engine_for(pack_dir).rule_system("match")
    with pytest.raises(CheckError, match=message) as info:
        pack.check(7, faces=[3, 4, 6], params={"pool": 3})
    assert info.value.file and info.value.file.endswith("resolver.js")
    if line is not None:
        assert info.value.line == line


@pytest.mark.parametrize(("change", "message", "at"), [
    (("resolution.js", "function resolve(c) {"), "does not load: resolver.js:1", "resolution.script"),
    (("resolution.js", "function other(c) { return 'pair'; }"), "defines no function resolve", "resolution.script"),
    (("yaml", "script: match/resolver.js", "script: match/missing.js"), "file not found", "resolution.script"),
    (("yaml", "script: match/resolver.js", "script: ../outside.js"), "relative path inside the pack",
     "resolution.script"),
    (("yaml", "targets: [Nerve]", "targets: [Nerv]"), "unknown stat 'Nerv'", "subsystems.strain.targets.0"),
    (("yaml", "outcomes: {steady: {success: true}, rattled: {success: false}}", "outcomes: [1, 2]"),
     "outcomes must list outcome ids", "subsystems.strain.outcomes"),
    (("yaml", "bounds: {Nerve: [0, NerveMax]}", "bounds: {Nerve: [0]}"), "a bound is [low, high]",
     "subsystems.strain.bounds.Nerve"),
    (("yaml", "roll: 1d6\n", "roll: 1d\n"), "subsystems.strain.roll", "subsystems.strain.roll"),
])
def test_a_broken_script_or_setting_fails_the_load_located(pack_dir: Path, change: tuple, message: str,
                                                           at: str) -> None:
    yaml_file = pack_dir / "match.yaml"
    if change[0] == "resolution.js":
        (pack_dir / "match" / "resolver.js").write_text(change[1], encoding="utf-8")
    else:
        text = yaml_file.read_text(encoding="utf-8")
        assert change[1] in text
        yaml_file.write_text(text.replace(change[1], change[2]), encoding="utf-8")
    with pytest.raises(RulepackError) as info:
        engine_for(pack_dir).rule_system("match")
    text = str(info.value)
    assert message in text and at in text, text
    assert f"{yaml_file}:" in text  # located in the pack file that declares it


def test_a_pack_given_as_data_cannot_have_a_script() -> None:
    engine = RulesEngine(None, sources=[PackSource("inline", "test", None, {
        "defaults": {"a": 1}, "resolution": {"roll": "1d6", "target": "skill", "script": "r.js"}})], user_dir=None)
    with pytest.raises(RulepackError, match="a script needs the rulepack to be a file"):
        engine.rule_system("inline")


def test_a_when_in_a_scripted_ladder_is_a_warning(pack_dir: Path) -> None:
    yaml_file = pack_dir / "match.yaml"
    yaml_file.write_text(yaml_file.read_text(encoding="utf-8").replace(
        "{id: miss, tier: 1}", "{id: miss, tier: 1, when: 'roll > 100'}"), encoding="utf-8")
    pack = engine_for(pack_dir).rule_system("match")
    assert any("when: is not used" in w for w in pack.warnings)
    with pytest.raises(CheckError, match="outcomes\\(\\) needs rank conditions"):
        pack.outcomes(7, [1, 2])


# --- the scripted subsystem ------------------------------------------------------------------------


def sheet(pack, **values) -> Sheet:  # noqa: ANN001
    return Sheet.from_file(pack, {"system": "match", "name": "Mara", "values": values})


@pytest.mark.parametrize(("face", "nerve", "outcome", "after", "flags"), [
    (2, 6, "steady", 5, {}),
    (5, 6, "steady", 3, {}),
    (6, 5, "rattled", 0, {"note": "shaken"}),   # 5 - 6 clamped to the floor 0
    (4, 3, "rattled", 0, {"note": "shaken"}),
])
def test_the_subsystem_script_changes_the_sheet_through_the_engine(pack_dir: Path, face: int, nerve: int, outcome: str,
                                                                   after: int, flags: dict) -> None:
    engine = engine_for(pack_dir)
    pack = engine.rule_system("match")
    character = sheet(pack, Nerve=nerve)
    result = engine.subsystem("match", "strain", character, faces=[face])
    assert (result.kind, result.outcome, result.success) == ("script", outcome, outcome == "steady")
    assert character.get("Nerve") == after and result.changes == {"Nerve": (nerve, after)}
    assert result.flags == flags and result.values == {"dice": [face], "total": face}
    assert result.rolls[0]["faces"] == [face]


def test_the_subsystem_clamps_to_the_bounds_and_the_resource_maximum(pack_dir: Path) -> None:
    engine = engine_for(pack_dir)
    pack = engine.rule_system("match")
    character = sheet(pack, Nerve=2, NerveMax=8)
    result = engine.subsystem("match", "strain", character, faces=[1], rest=True)
    assert character.get("Nerve") == 8 and result.changes == {"Nerve": (2, 8)}


@pytest.mark.parametrize(("body", "message"), [
    ('function resolve(c) { return {verdict: "steady", effects: [{op: "adjust", stat: "Luck", by: 1}]}; }',
     "'Luck' is not a stat of this system"),
    ('function resolve(c) { return "panicked"; }', "not one of rattled, steady"),
    ('function resolve(c) { return {verdict: "steady", effects: [{op: "set", stat: "Nerve", value: "lots"}]}; }',
     "Nerve is a number"),
])
def test_a_subsystem_script_cannot_reach_past_the_pack(pack_dir: Path, body: str, message: str) -> None:
    (pack_dir / "match" / "strain.js").write_text(body, encoding="utf-8")
    engine = engine_for(pack_dir)
    character = sheet(engine.rule_system("match"), Nerve=6)
    with pytest.raises(CheckError, match=message):
        engine.subsystem("match", "strain", character, faces=[3])
    assert character.get("Nerve") == 6


def test_the_dot_command_runs_the_script(pack_dir: Path) -> None:
    engine = engine_for(pack_dir)
    character = sheet(engine.rule_system("match"), Nerve=6)
    done = engine.command("match", ".strain", sheet=character, rng=random.Random(3))
    assert done.data["kind"] == "script" and done.data["outcome"] in ("steady", "rattled")
    assert character.get("Nerve") == done.data["changes"]["Nerve"][1]
    check = engine.command("match", ".m Wits", sheet=character, rng=random.Random(3))
    rolled = check.data["check"]
    assert rolled["rank"] == oracle(rolled["dice"], 7)[0] and check.text.endswith(engine.rule_system("match").label(rolled["rank"]))


# --- the trust card and a room -------------------------------------------------------------------------


def data_plugin(data_dir: Path) -> Path:
    root = data_dir / "plugins" / "pair-match"
    shutil.copytree(EXAMPLE, root / "rulepacks")
    (root / "lw-plugin.toml").write_text(
        'id = "pair-match"\nversion = "1.0.0"\ntier = "data"\nprovides = ["rulepacks"]\n'
        '[description]\nen = "a d6 pool system with a script"\n', encoding="utf-8")
    return root


def test_the_trust_card_shows_has_rules_script(tmp_path: Path, lw) -> None:  # noqa: ANN001
    data_dir = tmp_path / "data"
    data_plugin(data_dir)
    code, out, _ = lw("--data-dir", str(data_dir), "plugins", "info", "pair-match", "--json")
    facts = json.loads(out)
    assert code == 0 and facts["has_rules_script"] is True
    assert facts["rules_scripts"] == ["match: resolution -> match/resolver.js", "match: subsystems.strain -> match/strain.js"]
    code, out, _ = lw("--data-dir", str(data_dir), "plugins", "info", "pair-match")
    assert "rules script: yes: match: resolution -> match/resolver.js" in out
    code, out, _ = lw("--data-dir", str(data_dir), "plugins", "info", "coc7", "--json")
    assert json.loads(out)["has_rules_script"] is False


ROOM = """\
format: 1
id: pairs
system: pair match
locale: en
keeper: {id: kp, name: Keeper}
players:
  - {id: p1, name: Mara, sheet: sheets/mara.yaml}
"""


def test_a_room_plays_the_scripted_system(tmp_path: Path) -> None:
    from lwcore.turn.pipeline import run_turn
    from lwcore.turn.room import Room

    data_dir = tmp_path / "data"
    data_plugin(data_dir)
    room_dir = tmp_path / "room"
    (room_dir / "sheets").mkdir(parents=True)
    (room_dir / "room.yaml").write_text(ROOM, encoding="utf-8")
    (room_dir / "sheets" / "mara.yaml").write_text("name: Mara\nvalues: {Wits: 7, Nerve: 4}\n", encoding="utf-8")
    kernel = Kernel(data_dir=data_dir, env={})
    reply = {"content": [
        {"type": "tool_use", "id": "a", "name": "skill_check", "input": {"character": "p1", "skill": "Wits",
                                                                         "params": {"pool": 4}}},
        {"type": "tool_use", "id": "b", "name": "subsystem_check", "input": {"character": "p1", "subsystem": "strain"}},
        {"type": "text", "text": "The dice settle."}]}
    result = run_turn(kernel, room_dir, "I read the harbour master's face.", reply=reply, rng=random.Random(11))
    check, strain = result.applied.results
    assert not check.is_error and not strain.is_error, (check.content, strain.content)
    assert check.content["rank"] == oracle(check.content["dice"], 7)[0] and len(check.content["dice"]) == 4
    assert check.content["rank_label"] == {"pair": "Pair", "miss": "Miss", "triple": "Triple",
                                           "snake-eyes": "Snake eyes"}[check.content["rank"]]
    nerve = Room.load(room_dir, kernel).sheets["p1"].get("Nerve")
    assert strain.content["outcome"] in ("steady", "rattled") and nerve == strain.content["changes"]["Nerve"][1]
    assert "Roll a pool of d6" in json.dumps(result.compiled.request)
    with pytest.raises(LwError):
        Room.load(room_dir, Kernel(data_dir=tmp_path / "elsewhere", env={}))  # the system is the plugin's
