"""What ``roll`` means in a rank ``when:`` and a ``margin:``: the kept dice total plus the
check's flat ``modifier`` (Loreweaver's meaning, so its packs grade the same here); ``total``
is the dice alone. Exhaustive over the faces where the domain is finite: a roll-over and a
roll-under pack of our own shaped like the reference packs, the default ranks and margin, the
reference repository's own dnd5e and coc7 packs loaded unchanged, and a pack still written
the old way (``roll + modifier``), which now counts the modifier twice."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from lwcore.rules.engine import PackSource, RulesEngine
from lwcore.rules.errors import RulepackError
from lwcore.rules.model import Rulepack
from lwcore.rules.system import RuleSystem

MODIFIERS = (-6, -1, 0, 3, 9)

# A d20 pack shaped like the reference's: the natural faces by dice[0], the DC by roll.
OVER = """\
resolution:
  roll: 1d20
  target: dc
  compare: ">="
  ranks:
    - {id: natural_top, when: "dice[0] == 20", success: true, critical: true, tier: 3}
    - {id: natural_bottom, when: "dice[0] == 1", fumble: true, tier: 0}
    - {id: made, when: "roll >= target", success: true, tier: 2}
    - {id: missed, tier: 1}
"""

# A roll-under percentile pack: lower is better, so a positive modifier makes it harder.
UNDER = """\
resolution:
  roll: 1d100
  target: skill
  compare: "<="
  ranks:
    - {id: best, when: "total == 1", success: true, critical: true, tier: 4}
    - {id: half, when: "roll <= floor(raw_target / 2)", success: true, tier: 3}
    - {id: made, when: "roll <= target", success: true, tier: 2}
    - {id: missed, tier: 1}
"""


def over_grade(natural: int, modifier: int, dc: int) -> tuple[str, int]:
    """Loreweaver's reading of OVER: the natural faces first, then dice plus modifier against
    the DC; the margin is dice plus modifier minus the DC."""
    rank = "natural_top" if natural == 20 else "natural_bottom" if natural == 1 else \
        "made" if natural + modifier >= dc else "missed"
    return rank, natural + modifier - dc


def test_a_roll_over_pack_meets_the_dc_with_dice_plus_modifier(pack_from) -> None:
    pack = pack_from(OVER)
    for natural, modifier, dc in itertools.product(range(1, 21), MODIFIERS, range(1, 31)):
        result = pack.check(dc, modifier=modifier, faces=[natural])
        assert (result.rank, result.margin) == over_grade(natural, modifier, dc), (natural, modifier, dc)
        # the result's roll is the dice as rolled; the modifier is added once, in the grade
        assert result.roll == natural and result.kept == (natural,)


@pytest.mark.parametrize("modifier", [m for m in MODIFIERS if m])
def test_the_boundary_moves_to_the_target_less_the_modifier(pack_from, modifier: int) -> None:
    pack = pack_from(OVER)
    dc = 14
    edge = dc - modifier                     # the lowest natural face that makes the DC
    below, at = (pack.check(dc, modifier=modifier, faces=[face]) for face in (edge - 1, edge))
    if 1 < edge - 1 < 20:
        assert (below.rank, below.margin) == ("missed", -1)
    if 1 < edge < 20:
        assert (at.rank, at.margin) == ("made", 0)


def test_a_roll_under_pack_adds_the_modifier_to_the_roll_it_compares(pack_from) -> None:
    pack = pack_from(UNDER)
    for natural, modifier, skill in itertools.product(range(1, 101), MODIFIERS, (1, 25, 50, 99)):
        value = natural + modifier
        want = "best" if natural == 1 else "half" if value <= skill // 2 else \
            "made" if value <= skill else "missed"
        result = pack.check(skill, modifier=modifier, faces=[natural])
        assert (result.rank, result.margin) == (want, skill - value), (natural, modifier, skill)
        # outcomes() takes the dice as rolled and adds the same modifier
        (rank,) = pack.outcomes(skill, [natural], modifier=modifier)
        assert rank.id == want


def test_total_reads_the_dice_alone(pack_from) -> None:
    pack = pack_from("""\
        resolution:
          roll: 2d6
          target: dc
          compare: ">="
          ranks:
            - {id: boxcars, when: "total == 12", success: true, critical: true, tier: 3}
            - {id: made, when: "roll >= target", success: true, tier: 2}
            - {id: missed, tier: 1}
          margin: "roll - total"
        """)
    for first, second, modifier in itertools.product(range(1, 7), range(1, 7), MODIFIERS):
        result = pack.check(30, modifier=modifier, faces=[first, second])
        assert result.rank == ("boxcars" if first + second == 12 else "missed")
        assert result.margin == modifier       # roll - total is the modifier, whatever fell


def test_the_default_ranks_and_margin_count_the_modifier_once(pack_from) -> None:
    over = pack_from("resolution: {roll: 1d20, target: dc, compare: '>='}\n", name="plain_over")
    under = pack_from("resolution: {roll: 1d100, target: skill, compare: '<='}\n", name="plain_under")
    for natural, modifier in itertools.product(range(1, 21), MODIFIERS):
        result = over.check(12, modifier=modifier, faces=[natural])
        assert (result.success, result.margin) == (natural + modifier >= 12, natural + modifier - 12)
    for natural, modifier in itertools.product(range(1, 101), MODIFIERS):
        result = under.check(40, modifier=modifier, faces=[natural])
        assert (result.success, result.margin) == (natural + modifier <= 40, 40 - natural - modifier)


def test_a_pack_written_the_old_way_counts_the_modifier_twice(pack_from) -> None:
    """The migration note: ``roll + modifier`` was dice plus modifier; now ``roll`` already
    holds the modifier, so that pack's boundary sits at the DC less twice the modifier."""
    old = pack_from(OVER.replace('"roll >= target"', '"roll + modifier >= target"'), name="old")
    new = pack_from(OVER, name="new")
    for natural in range(2, 20):
        assert old.check(15, modifier=3, faces=[natural]).success == (natural + 6 >= 15)
        assert new.check(15, modifier=3, faces=[natural]).success == (natural + 3 >= 15)
    assert (old.check(15, modifier=3, faces=[9]).rank, new.check(15, modifier=3, faces=[9]).rank) == \
        ("made", "missed")


def test_a_rule_script_gets_roll_with_the_modifier_and_total_without(pack_from, tmp_path: Path) -> None:
    (tmp_path / "seen.js").write_text(
        'function resolve(check) { return {verdict: "seen", note: check.roll + " " + check.total + " " + '
        'check.modifier}; }\n', encoding="utf-8")
    pack = pack_from("""\
        resolution:
          roll: 3d6
          target: none
          script: seen.js
          ranks: [{id: seen, success: true, tier: 1}]
        """)
    assert pack.check(modifier=4, faces=[6, 2, 5]).flags["note"] == "17 13 4"


def test_total_is_a_known_name_before_the_roll_only_where_it_exists(pack_from) -> None:
    with pytest.raises(RulepackError, match=r"total.*difficulties adjust the target before the roll"):
        pack_from("""\
            resolution:
              roll: 1d20
              target: dc
              difficulties: {odd: {target: "total"}}
            """)
    with pytest.raises(RulepackError, match=r"unknown name 'totl' \(did you mean 'total'\?\)"):
        pack_from("resolution: {roll: 1d20, target: dc, ranks: [{id: a, when: 'totl > 1'}, {id: b}]}\n")


def test_the_schema_says_what_roll_and_total_are() -> None:
    schema = Rulepack.model_json_schema()
    when = schema["$defs"]["Rank"]["properties"]["when"]["description"]
    margin = schema["$defs"]["Resolution"]["properties"]["margin"]["description"]
    assert "plus the check's modifier" in when and "total (the dice alone)" in when
    assert "roll includes the modifier" in margin


def reference(reference_packs, name: str) -> RuleSystem:
    (path,) = reference_packs(name)
    return RulesEngine(None, sources=[PackSource(name, "test", path)], user_dir=None).rule_system(name)


def test_the_reference_dnd5e_pack_grades_every_face_modifier_and_dc_as_loreweaver(reference_packs) -> None:
    """Loreweaver's dnd5e pack, unchanged: ``roll >= target`` is the d20 plus the modifier, the
    natural 20/1 stay the kept face, and the default margin counts the modifier once."""
    pack = reference(reference_packs, "dnd5e")
    for natural, modifier, dc in itertools.product(range(1, 21), range(-5, 11), range(1, 31)):
        result = pack.check(dc, modifier=modifier, faces=[natural])
        want = "crit" if natural == 20 else "fumble" if natural == 1 else \
            "success" if natural + modifier >= dc else "fail"
        assert (result.rank, result.margin) == (want, natural + modifier - dc), (natural, modifier, dc)


def test_the_reference_coc7_pack_grades_the_roll_plus_the_modifier(reference_packs) -> None:
    """Loreweaver's coc7 pack, unchanged: a modifier shifts the value its whole ladder reads, so
    a check with a modifier grades as the same check rolled that much higher."""
    pack = reference(reference_packs, "coc7")
    for skill, modifier in itertools.product((10, 45, 50, 80), (-7, 4)):
        for natural in range(1, 101):
            if not 1 <= natural + modifier <= 100:
                continue
            shifted = pack.check(skill, modifier=modifier, faces=[natural])
            plain = pack.check(skill, faces=[natural + modifier])
            assert (shifted.rank, shifted.margin) == (plain.rank, plain.margin), (skill, modifier, natural)
