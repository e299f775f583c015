"""``skill_check`` uses the sheet value the way the room's rulepack says (its plain check
command's ``value_is``): rolled against (coc7), added to a d20 against a DC (dnd5e), or
filling the dice pool (wod). Each room is a small temporary one; every graded result is
checked against the dice faces it reports, recomputed here by hand, over many seeds."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room


def _room(tmp_path: Path, system: str, values: dict) -> Path:
    room = tmp_path / f"room-{system}"
    (room / "sheets").mkdir(parents=True)
    spec = {
        "format": 1, "id": f"room-{system}", "title": {"en": "Test"}, "system": system, "locale": "en",
        "keeper": {"id": "kp", "name": "Keeper"},
        "players": [{"id": "p1", "name": "Ann", "locale": "en", "sheet": "sheets/hero.yaml"}],
        "features": [],
    }
    sheet = {"system": system, "name": "Hero", "owner": "p1", "values": values}
    (room / "room.yaml").write_text(yaml.safe_dump(spec, allow_unicode=True), encoding="utf-8")
    (room / "sheets" / "hero.yaml").write_text(yaml.safe_dump(sheet, allow_unicode=True), encoding="utf-8")
    return room


def _check(kernel, room: Path, seed: int, **args):
    reply = {"content": [{"type": "tool_use", "id": "c", "name": "skill_check",
                          "input": {"character": "p1", **args}}]}
    result = run_turn(kernel, room, "I try.", reply=reply, rng=random.Random(seed))
    (only,) = result.applied.results
    return only


def _ok(kernel, room: Path, seed: int, **args) -> dict:
    only = _check(kernel, room, seed, **args)
    assert not only.is_error, only.content
    return only.content


SEEDS = range(40)


def test_coc7_rolls_against_the_skill_value(kernel, tmp_path: Path) -> None:
    room = _room(tmp_path, "coc7", {"侦查": 55})
    outcomes = set()
    for seed in SEEDS:
        c = _ok(kernel, room, seed, skill="spot hidden")
        assert c["skill"] == "侦查" and c["value"] == 55 and c["value_is"] == "target"
        assert c["target"] == 55 and "modifier" not in c
        roll = c["roll"]
        assert c["dice"] == [roll] and 1 <= roll <= 100
        assert c["success"] is (roll <= 55)
        assert c["critical"] is (roll == 1)
        outcomes.add(c["success"])
    assert outcomes == {True, False}
    # a difficulty halves the number to beat
    hard = _ok(kernel, room, 5, skill="侦查", difficulty="hard")
    assert hard["raw_target"] == 55 and hard["target"] == 27 and hard["success"] is (hard["roll"] <= 27)
    # the value is the target: a number to beat makes no sense here
    wrong = _check(kernel, room, 1, skill="侦查", target=15)
    assert wrong.is_error and "takes no target" in wrong.content["error"]


def test_dnd5e_adds_the_modifier_to_the_d20_against_a_dc(kernel, tmp_path: Path) -> None:
    room = _room(tmp_path, "dnd5e", {"STR": 16})
    outcomes = set()
    for seed in SEEDS:
        c = _ok(kernel, room, seed, skill="strength", target=15)
        # the pack's check command reads STR's modifier (stat_format "{}_mod"): (16 - 10) // 2
        assert c["skill"] == "STR_mod" and c["value"] == 3 and c["value_is"] == "modifier"
        assert c["modifier"] == 3 and c["target"] == 15
        (face,) = c["dice"]
        assert 1 <= face <= 20 and c["roll"] == face
        assert c["success"] is (face + 3 >= 15), (face, c)
        assert c["margin"] == face + 3 - 15
        outcomes.add(c["success"])
    assert outcomes == {True, False}
    # the event line shows the modifier and the DC, not "roll/value"
    history = Room.load(room, kernel).history.all()
    assert any("+3" in h.text and "vs 15" in h.text for h in history if h.role == "event")
    # a difficulty sets the DC by itself
    medium = _ok(kernel, room, 3, skill="STR", difficulty="medium")
    assert medium["target"] == 15 and medium["success"] is (medium["roll"] + 3 >= 15)
    # advantage and disadvantage cancel (the pack's advantage subsystem)
    both = _ok(kernel, room, 3, skill="STR", target=10, modifiers=["advantage", "disadvantage"])
    assert both["modifiers"] == {} and len(both["dice"]) == 1
    adv = _ok(kernel, room, 3, skill="STR", target=10, modifiers=["advantage"])
    assert len(adv["dice"]) == 2 and adv["roll"] == max(adv["dice"])
    # nothing to beat: the total is the outcome, no grade
    free = _ok(kernel, room, 4, skill="STR")
    assert free["roll_only"] is True and free["total"] == free["dice"][0] + 3
    assert free["success"] is None and free["target"] is None and free["margin"] is None


def test_wod_fills_the_dice_pool_with_the_value(kernel, tmp_path: Path) -> None:
    room = _room(tmp_path, "wod", {"力量": 4})
    outcomes = set()
    for seed in SEEDS:
        c = _ok(kernel, room, seed, skill="力量")
        assert c["value"] == 4 and c["value_is"] == "param" and c["params"]["pool"] == 4
        assert c["target"] is None and "modifier" not in c
        dice = c["dice"]
        assert len(dice) == 4 and all(1 <= d <= 10 for d in dice)
        successes = sum(d >= 6 for d in dice)
        ones = dice.count(1)
        assert c["margin"] == max(successes - ones, 0)
        assert c["success"] is (successes - ones >= 1)
        assert c["fumble"] is (successes == 0 and ones > 0)
        outcomes.add(c["success"])
    assert outcomes == {True, False}
    # the pack's other parameters still come through params
    hard = _ok(kernel, room, 7, skill="力量", params={"difficulty": 8})
    assert hard["params"]["difficulty"] == 8 and len(hard["dice"]) == 4
    assert hard["margin"] == max(sum(d >= 8 for d in hard["dice"]) - hard["dice"].count(1), 0)
    wrong = _check(kernel, room, 1, skill="力量", target=6)
    assert wrong.is_error and "takes no target" in wrong.content["error"]


@pytest.mark.parametrize(("system", "first"), [("coc7", "ra"), ("dnd5e", "chk"), ("wod", "w")])
def test_the_plain_check_command_is_the_first_check_command(kernel, system: str, first: str) -> None:
    from lwcore.rules import engine_for
    from lwcore.rules.commands import check_command

    found = check_command(engine_for(kernel).rule_system(system))
    assert found.word == first and found.action == "check"
