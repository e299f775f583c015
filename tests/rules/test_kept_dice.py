"""What a rank's ``dice[i]`` reads: the natural faces the roll *kept*, indexed from 0, as
Loreweaver's packs mean it. Every roll shape is covered, exhaustively over the faces where the
domain is finite: keep highest/lowest (also with ties), a modifier that replaces the roll
(advantage ``2d20kh1``), a whole-roll reroll, percentile bonus/penalty tens dice, pools,
explosions; the reference repository's own dnd5e pack, loaded unchanged, grades advantage and
disadvantage by the kept d20. ``CheckResult.dice`` stays every face rolled (it replays the
check); ``CheckResult.kept`` is what the ranks read."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from lwcore.kernel import Kernel
from lwcore.rules import engine_for
from lwcore.rules.dice import compile_dice
from lwcore.rules.engine import PackSource, RulesEngine
from lwcore.rules.errors import CheckError, RulepackError

D20 = """\
resolution:
  roll: 1d20
  target: dc
  compare: ">="
  modifiers:
    advantage: UP
    disadvantage: DOWN
  ranks:
    - {id: crit, when: "DIE == 20", success: true, critical: true, tier: 3}
    - {id: fumble, when: "DIE == 1", fumble: true, tier: 0}
    - {id: success, when: "roll >= target", success: true, tier: 2}
    - {id: fail, tier: 1}
"""


def d20_grade(natural: int, modifier: int, dc: int) -> str:
    """A natural 20 is critical, a natural 1 a fumble, else the total against the DC."""
    if natural == 20:
        return "crit"
    if natural == 1:
        return "fumble"
    return "success" if natural + modifier >= dc else "fail"


TWO_D20 = {"advantage": max, "disadvantage": min}


@pytest.mark.parametrize("die", ["dice[0]", "dice1"])
@pytest.mark.parametrize(("advantage", "disadvantage"), [
    ("{roll: 2d20kh1}", "{roll: 2d20kl1}"),          # a modifier that replaces the roll
    ("{reroll: keep_highest}", "{reroll: keep_lowest}"),  # the whole roll made again
])
def test_two_d20_grade_crit_and_fumble_by_the_kept_face(pack_from, die: str, advantage: str,
                                                        disadvantage: str) -> None:
    pack = pack_from(D20.replace("UP", advantage).replace("DOWN", disadvantage).replace("DIE", die))
    assert pack.warnings == []
    rows = 0
    for first, second in itertools.product(range(1, 21), repeat=2):
        for mode, keep in TWO_D20.items():
            natural = keep(first, second)
            for modifier, dc in ((0, 15), (-4, 3), (7, 25)):
                result = pack.check(dc, modifier=modifier, modifiers={mode: 1}, faces=[first, second])
                assert (result.rank, result.roll, result.kept, result.dice) == \
                    (d20_grade(natural, modifier, dc), natural, (natural,), (first, second)), (mode, first, second)
                assert result.critical == (natural == 20) and result.fumble == (natural == 1)
                rows += 1
    for natural in range(1, 21):
        result = pack.check(15, faces=[natural])
        assert (result.rank, result.kept) == (d20_grade(natural, 0, 15), (natural,))
    assert rows == 400 * 2 * 3


def kept_in_roll_order(faces: tuple[int, ...], mode: str, n: int) -> list[int]:
    """The oracle: the n highest (kh, dh) or lowest (kl, dl) faces, the earlier rolled first
    among equal ones, are kept (kh, kl) or dropped (dh, dl); the rest keep their roll order."""
    highest = mode in ("kh", "dh")
    ranked = sorted(range(len(faces)), key=lambda i: (-faces[i] if highest else faces[i], i))
    chosen = set(ranked[:n])
    keep = chosen if mode in ("kh", "kl") else set(range(len(faces))) - chosen
    return [face for i, face in enumerate(faces) if i in keep]


@pytest.mark.parametrize(("count", "sides", "mode", "n"), [
    (3, 6, "kh", 2), (3, 6, "kl", 2), (3, 6, "dh", 1), (3, 6, "dl", 1), (4, 4, "kh", 3), (4, 4, "kl", 1),
    (4, 4, "dh", 2), (4, 4, "dl", 3), (5, 3, "kh", 2),
])
def test_keep_and_drop_keep_faces_in_roll_order_exhaustively(count: int, sides: int, mode: str, n: int) -> None:
    expr = compile_dice(f"{count}d{sides}{mode}{n}")
    assert expr.kept_dice == (n if mode[0] == "k" else count - n)
    for faces in itertools.product(range(1, sides + 1), repeat=count):
        rolled = expr.roll(faces=list(faces))
        want = kept_in_roll_order(faces, mode, n)
        assert (rolled.kept, rolled.faces, rolled.total) == (want, list(faces), sum(want)), faces


def test_ranks_read_the_kept_faces_of_a_keep_highest_roll(pack_from) -> None:
    pack = pack_from("""\
        resolution:
          roll: 3d6kh2
          target: none
          ranks:
            - {id: pair, when: "dice[0] == dice[1]", success: true, tier: 2}
            - {id: falling, when: "dice[0] > dice[1]", tier: 1}
            - {id: rising, tier: 1}
        """)
    for faces in itertools.product(range(1, 7), repeat=3):
        first, second = kept_in_roll_order(faces, "kh", 2)
        want = "pair" if first == second else "falling" if first > second else "rising"
        result = pack.check(faces=list(faces))
        assert (result.rank, result.kept, result.roll) == (want, (first, second), first + second), faces


@pytest.mark.parametrize("extra", [1, 2])
def test_bonus_and_penalty_tens_dice_keep_one_percentile_die(pack_from, extra: int) -> None:
    """The kept value is the d100 read with the kept tens digit (tens 0 and units 0 read 100);
    ``dice[0]`` is that value, never the first face rolled."""
    pack = pack_from("""\
        resolution:
          roll: 1d100
          target: skill
          modifiers:
            bonus: {tens_reroll: keep_lowest}
            penalty: {tens_reroll: keep_highest}
          ranks:
            - {id: crit, when: "dice[0] == 1", success: true, critical: true, tier: 4}
            - {id: fumble, when: "dice[0] == 100", fumble: true, tier: 0}
            - {id: regular, when: "roll <= target", success: true, tier: 2}
            - {id: fail, tier: 1}
        """)
    for value in range(1, 101):
        units = value % 10
        for digits in itertools.product(range(10), repeat=extra):
            values = [value, *(digit * 10 + units or 100 for digit in digits)]
            for name, keep in (("bonus", min), ("penalty", max)):
                kept = keep(values)
                result = pack.check(50, modifiers={name: extra}, faces=[value, *digits])
                want = "crit" if kept == 1 else "fumble" if kept == 100 else "regular" if kept <= 50 else "fail"
                assert (result.rank, result.roll, result.kept, result.ones) == (want, kept, (kept,), int(kept == 1)), \
                    (value, digits, name)


def test_the_bundled_percentile_pack_keeps_the_bonus_die_value() -> None:
    pack = engine_for(Kernel()).rule_system("coc7")
    result = pack.check(60, bonus=1, faces=[37, 0])
    assert (result.roll, result.kept, result.dice, result.rank) == (7, (7,), (37, 0), "extreme")
    result = pack.check(60, penalty=1, faces=[37, 9])
    assert (result.roll, result.kept, result.dice) == (97, (97,), (37, 9))


def test_a_rerolled_pool_keeps_the_chosen_rolls_faces_and_successes(pack_from) -> None:
    pack = pack_from("""\
        resolution:
          roll: 2d6>=5
          target: none
          modifiers:
            again: {reroll: keep_highest}
          ranks:
            - {id: sweep, when: "successes == 2", success: true, tier: 3}
            - {id: opened_high, when: "dice[0] >= 5", success: true, tier: 2}
            - {id: miss, tier: 1}
        """)
    for first, second in itertools.product(itertools.product(range(1, 7), repeat=2), repeat=2):
        hits = [sum(face >= 5 for face in roll) for roll in (first, second)]
        chosen = first if hits[0] >= hits[1] else second
        successes = max(hits)
        want = "sweep" if successes == 2 else "opened_high" if chosen[0] >= 5 else "miss"
        result = pack.check(modifiers={"again": 1}, faces=[*first, *second])
        assert (result.rank, result.kept, result.successes, result.ones) == \
            (want, chosen, successes, chosen.count(1)), (first, second)


def test_exploded_dice_are_kept_after_the_dice_they_came_from(pack_from) -> None:
    pack = pack_from("""\
        resolution:
          roll: 2d6!
          target: none
          ranks:
            - {id: burst, when: "dice[2] == 6", success: true, tier: 2}
            - {id: plain, tier: 1}
        """)
    result = pack.check(faces=[6, 3, 6, 2])
    assert (result.kept, result.roll, result.rank) == ((6, 3, 6, 2), 17, "burst")
    assert pack.check(faces=[6, 3, 4]).rank == "plain"
    with pytest.raises(CheckError, match="dice index 2 out of range"):
        pack.check(faces=[2, 3])  # no die exploded: the roll kept two


def test_a_die_the_roll_never_keeps_fails_the_load_located(pack_from) -> None:
    text = D20.replace("UP", "{roll: 2d20kh1}").replace("DOWN", "{roll: 2d20kl1}")
    with pytest.raises(RulepackError) as info:
        pack_from(text.replace("DIE == 20", "dice[1] == 20").replace("DIE", "dice[0]"))
    assert "shape.yaml:9:" in str(info.value) and "dice[1], but the roll keeps 1 dice" in str(info.value)
    # a replacement roll that keeps two faces makes dice[1] reachable
    widened = text.replace("{roll: 2d20kh1}", "{roll: 2d20}").replace("DIE == 20", "dice[1] == 20")
    pack = pack_from(widened.replace("DIE", "dice[0]"))
    assert pack.check(10, modifiers={"advantage": 1}, faces=[4, 20]).rank == "crit"


def test_a_script_gets_every_face_and_the_kept_ones(pack_from, tmp_path: Path) -> None:
    (tmp_path / "kept.js").write_text(
        'function resolve(check) { return {verdict: "seen", note: check.kept.join(",") + " of " + '
        'check.faces.join(",")}; }\n', encoding="utf-8")
    pack = pack_from("""\
        resolution:
          roll: 3d6kh2
          target: none
          script: kept.js
          ranks: [{id: seen, success: true, tier: 1}]
        """)
    result = pack.check(faces=[6, 2, 5])
    assert (result.rank, result.flags["note"], result.kept) == ("seen", "6,5 of 6,2,5", (6, 5))


def test_the_reference_dnd5e_pack_grades_advantage_and_disadvantage_by_the_kept_d20(reference_packs) -> None:
    """Loreweaver's shipped dnd5e pack, unchanged: its ``dice[0] == 20`` crit and ``dice[0] == 1``
    fumble read the kept d20 of ``2d20kh1``/``2d20kl1``."""
    (path,) = reference_packs("dnd5e")
    pack = RulesEngine(None, sources=[PackSource("dnd5e", "test", path)], user_dir=None).rule_system("dnd5e")
    assert not [w for w in pack.warnings if "dice" in w], pack.warnings
    assert pack.check(15, modifiers={"disadvantage": 1}, faces=[20, 1]).rank == "fumble"
    assert pack.check(15, modifiers={"advantage": 1}, faces=[3, 20]).rank == "crit"
    for first, second in itertools.product(range(1, 21), repeat=2):
        for mode, keep in TWO_D20.items():
            natural = keep(first, second)
            for dc in (2, 15, 19):
                result = pack.check(dc, modifiers={mode: 1}, faces=[first, second])
                want = d20_grade(natural, 0, dc)
                assert (result.rank, result.kept, result.roll) == (want, (natural,), natural), (mode, first, second)
                assert result.success == (want in ("crit", "success"))


def test_the_reference_dnd5e_pack_adds_the_modifier_to_roll(reference_packs) -> None:
    """Its ``roll >= target`` is the kept d20 plus the check's modifier (every face, modifier
    and DC: ``test_roll_meaning.py``)."""
    (path,) = reference_packs("dnd5e")
    pack = RulesEngine(None, sources=[PackSource("dnd5e", "test", path)], user_dir=None).rule_system("dnd5e")
    assert pack.check(12, modifier=5, faces=[10]).rank == "success"
    assert pack.check(12, modifier=5, faces=[6]).rank == "fail"
