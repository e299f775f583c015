"""The coc7 pack against an independent oracle written here from the issue's table.

Every variant x difficulty x skill 0..100 x roll 1..100. The oracle is plain Python written
from the table (not from the pack); reading notes, where the table leaves room:

- success = roll <= adjusted target, or roll in the crit band; a roll over the adjusted target
  is a failure even when it is under the raw skill;
- successes are ranked against the raw skill (extreme <= skill/5, hard <= skill/2);
- fumble bands apply to failures only, except rule3 ("whatever the result") and the rulebook's
  forced 100;
- dg: 01 is always a critical success, even when the adjusted target is below 1 (the Delta
  Green rule, and the community dice bots'); otherwise a crit needs a success with matching
  digits; 100 reads "00", so it counts as matching digits.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from lwcore.rules import RulesEngine
from lwcore.rules.engine import PackSource

PACK = Path(__file__).resolve().parents[1] / "lw_coc7" / "rulepacks" / "coc7.yaml"
VARIANTS = [None, "rule1", "rule2", "rule3", "rule4", "rule5", "dg"]
DIFFICULTIES = [None, "regular", "hard", "extreme", "critical"]


def adjusted(skill: int, difficulty: str | None) -> int:
    if difficulty in (None, "regular"):
        return skill
    if difficulty == "hard":
        return skill // 2
    if difficulty == "extreme":
        return skill // 5
    return 1


def digits_match(roll: int) -> bool:
    return roll == 100 or (roll // 10) == (roll % 10)


def oracle(variant: str | None, skill: int, target: int, roll: int) -> str:
    """The rank id the table says (independent of the pack's expressions)."""
    s, t, r = skill, target, roll
    # crit band, and whether it forces a success
    if variant is None:
        crit_band = r == 1
    elif variant == "rule1":
        crit_band = r == 1 or (s >= 50 and 1 <= r <= 5)
    elif variant == "rule2":
        crit_band = r == 1 or r <= min(5, s)
    elif variant == "rule3":
        crit_band = r <= 5
    elif variant == "rule4":
        crit_band = r <= min(s // 10, 5)
    elif variant == "rule5":
        crit_band = r <= min(s // 5, 2)
    else:  # dg: 01 always; matching digits only on a success
        crit_band = r == 1 or (r <= t and digits_match(r))
    success = r <= t or crit_band
    # fumble band
    if variant is None:
        forced_fumble = r == 100
        fumble_band = t < 50 and r >= 96
    elif variant == "rule1":
        forced_fumble = False
        fumble_band = r >= 96 if s < 50 else r == 100
    elif variant == "rule2":
        forced_fumble = False
        fumble_band = r >= (96 if s < 96 else min(s + 1, 100))
    elif variant == "rule3":
        forced_fumble = r >= 96
        fumble_band = False
    elif variant == "rule4":
        forced_fumble = False
        fumble_band = r >= min(96 + s // 10, 100)
    elif variant == "rule5":
        forced_fumble = False
        fumble_band = r >= 96 if s < 50 else r >= 99
    else:
        forced_fumble = False
        fumble_band = digits_match(r)
    if crit_band:
        return "crit"
    if forced_fumble:
        return "fumble"
    if not success:
        return "fumble" if fumble_band else "fail"
    if variant == "dg":
        return "regular"
    if r <= s // 5:
        return "extreme"
    if r <= s // 2:
        return "hard"
    return "regular"


@pytest.fixture(scope="module")
def pack():
    engine = RulesEngine(None, sources=[PackSource("coc7", "coc7", PACK)],
                         computers={"coc7_mov": "lw_coc7.computers:movement"})
    return engine.rule_system("coc7")


FLAGS = {"crit": (True, True, False), "extreme": (True, False, False), "hard": (True, False, False),
         "regular": (True, False, False), "fail": (False, False, False), "fumble": (False, False, True)}


def test_every_variant_difficulty_skill_and_roll(pack):
    """All 7 x 5 x 101 x 100 cases, a row of 100 rolls per call (pack.outcomes)."""
    mismatches = []
    checked = 0
    rolls = range(1, 101)
    for variant in VARIANTS:
        for difficulty in DIFFICULTIES:
            for skill in range(101):
                target = adjusted(skill, difficulty)
                got = pack.outcomes(skill, rolls, difficulty=difficulty, variant=variant)
                for r, rank in zip(rolls, got, strict=True):
                    want = oracle(variant, skill, target, r)
                    checked += 1
                    if rank.id != want or (rank.success, rank.critical, rank.fumble) != FLAGS[want]:
                        mismatches.append((variant, difficulty, skill, r, rank.id, want))
    assert checked == 7 * 5 * 101 * 100
    assert mismatches[:10] == []


def test_full_checks_agree_with_the_oracle(pack):
    """The same through check() with replayed faces, on every 7th skill (the full path)."""
    mismatches = []
    for variant in VARIANTS:
        for difficulty in DIFFICULTIES:
            for skill in range(0, 101, 7):
                target = adjusted(skill, difficulty)
                for r in range(1, 101):
                    result = pack.check(skill, difficulty=difficulty, variant=variant, faces=(r,))
                    want = oracle(variant, skill, target, r)
                    if (result.rank, result.success, result.critical, result.fumble) != (want, *FLAGS[want]) \
                            or result.target != target or result.raw_target != skill or result.dice != (r,):
                        mismatches.append((variant, difficulty, skill, r, result.rank, want))
    assert mismatches[:10] == []


def test_a_flat_modifier_shifts_the_roll_the_whole_ladder_reads(pack):
    """``roll`` is the d100 plus a flat modifier (Loreweaver's meaning): with ``--modifier M`` a
    d100 of r grades exactly as a plain r + M does, in every variant and difficulty, and the
    margin is counted from r + M."""
    mismatches = []
    for variant in VARIANTS:
        for difficulty in DIFFICULTIES:
            for skill in range(0, 101, 9):
                plain = {r: o.id for r, o in zip(range(1, 101),
                                                  pack.outcomes(skill, range(1, 101), difficulty=difficulty,
                                                                variant=variant))}
                for modifier in (-20, 7):
                    shifted = pack.outcomes(skill, range(1, 101), difficulty=difficulty, variant=variant,
                                            modifier=modifier)
                    for r, outcome in zip(range(1, 101), shifted):
                        if 1 <= r + modifier <= 100 and outcome.id != plain[r + modifier]:
                            mismatches.append((variant, difficulty, skill, modifier, r))
    assert mismatches[:10] == []
    for r in range(1, 86):
        base, shifted = pack.check(60, faces=[r + 15]), pack.check(60, modifier=15, faces=[r])
        assert (shifted.rank, shifted.margin, shifted.roll) == (base.rank, base.margin, r)
        assert shifted.margin == 60 - (r + 15)


def test_rule0_is_the_rulebook(pack):
    for skill in (0, 30, 49, 50, 99, 100):
        for difficulty in DIFFICULTIES:
            base = [r.id for r in pack.outcomes(skill, range(1, 101), difficulty=difficulty)]
            same = [r.id for r in pack.outcomes(skill, range(1, 101), difficulty=difficulty, variant="rule0")]
            assert base == same


def tens(value: int) -> int:
    return (value // 10) % 10


def test_bonus_dice_keep_the_lowest_tens(pack):
    # base 37 (tens 3, units 7) + extra tens digit 0 -> 07
    result = pack.check(50, bonus=1, faces=[37, 0])
    assert result.roll == 7 and result.dice == (37, 0) and result.rank == "extreme"
    # units 0 and tens 0 read 100, so a bonus die of 0 on a 10 cannot help: 10 vs 100
    assert pack.check(50, bonus=1, faces=[10, 0]).roll == 10
    # base 100 (tens 0, units 0): a bonus tens digit 5 gives 50, the lowest
    assert pack.check(50, bonus=1, faces=[100, 5]).roll == 50
    # two bonus dice: the lowest of three
    assert pack.check(50, bonus=2, faces=[95, 4, 2]).roll == 25


def test_penalty_dice_keep_the_highest_tens(pack):
    assert pack.check(50, penalty=1, faces=[37, 9]).roll == 97
    # tens digit 0 with units 0 reads 100: the worst possible
    assert pack.check(50, penalty=1, faces=[40, 0]).roll == 100
    assert pack.check(50, penalty=1, faces=[100, 3]).roll == 100
    # units 5, tens 0 is 05 (not 100)
    assert pack.check(50, penalty=1, faces=[5, 0]).roll == 5


def test_bonus_and_penalty_cancel_one_for_one(pack):
    plain = pack.check(50, bonus=1, penalty=1, faces=[37])
    assert plain.roll == 37 and plain.dice == (37,)
    net = pack.check(50, bonus=1, penalty=2, faces=[37, 9])
    assert net.roll == 97 and net.dice == (37, 9)
    assert pack.check(50, bonus=3, penalty=1, faces=[77, 5, 1]).roll == 17


def test_bonus_dice_distribution_is_lower(pack):
    rng = random.Random(7)
    plain = sum(pack.check(50, rng=rng).roll for _ in range(2000))
    bonus = sum(pack.check(50, bonus=1, rng=rng).roll for _ in range(2000))
    penalty = sum(pack.check(50, penalty=1, rng=rng).roll for _ in range(2000))
    assert bonus < plain < penalty


def test_roll_is_replayable_from_its_faces(pack):
    rng = random.Random(11)
    for _ in range(50):
        first = pack.check(40, bonus=2, difficulty="hard", variant="rule3", rng=rng)
        again = pack.check(40, bonus=2, difficulty="hard", variant="rule3", faces=first.dice)
        assert again.to_json() == first.to_json()


def test_a_given_roll_value(pack):
    result = pack.check(60, difficulty="hard", variant="rule2", roll=37)
    assert (result.rank, result.success, result.target, result.raw_target, result.margin) == ("fail", False, 30, 60, -7)


@pytest.mark.parametrize(("difficulty", "skills"), [("extreme", range(0, 5)), ("hard", range(0, 2)), (None, [0])])
def test_dg_01_is_a_critical_success_even_below_a_target_of_1(pack, difficulty, skills):
    """Delta Green: 01 crits even when the adjusted target is 0 (skill 0-4 extreme, 0-1 hard,
    0 regular), where every other roll fails."""
    for skill in skills:
        result = pack.check(skill, difficulty=difficulty, variant="dg", faces=(1,))
        assert result.target == 0 and (result.rank, result.success, result.critical) == ("crit", True, True)
        assert pack.check(skill, difficulty=difficulty, variant="dg", faces=(2,)).rank == "fail"
