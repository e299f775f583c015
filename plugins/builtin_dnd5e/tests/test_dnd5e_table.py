"""Exhaustive d20 table: natural 1-20 x modifier -5..15 x DC 1-30 x advantage state, for
ability checks / saves (rules as written), attack rolls and the natural-checks house rule,
against an oracle written here from the rules (not from the pack)."""

from __future__ import annotations

import pytest

from lwcore.kernel import Kernel
from lwcore.rules import engine_for
from lwcore.rules.subsystems import net_advantage

STATES = {"none": (0, 0), "advantage": (1, 0), "disadvantage": (0, 1), "both": (1, 1), "two_adv_one_dis": (2, 1)}


@pytest.fixture(scope="module")
def pack():
    return engine_for(Kernel()).rule_system("dnd5e")


def other_die(natural: int) -> int:
    """A second d20 face that differs from the natural roll in both directions over the table."""
    return (natural * 7) % 20 + 1


def oracle(kind: str, dice: list[int], state: str, modifier: int, dc: int) -> tuple[int, bool, bool, bool]:
    """(natural, success, critical, fumble) by the rules: advantage keeps the higher d20,
    disadvantage the lower; any advantage and any disadvantage cancel (a single d20).
    Attack rolls: a natural 20 hits and is critical, a natural 1 misses. Ability checks and
    saves (RAW) only compare the total with the DC."""
    gains, losses = STATES[state]
    if gains and losses:
        natural = dice[0]
    elif gains:
        natural = max(dice)
    elif losses:
        natural = min(dice)
    else:
        natural = dice[0]
    total_ok = natural + modifier >= dc
    if kind in ("attack", "natural_checks"):
        if natural == 20:
            return natural, True, True, False
        if natural == 1:
            return natural, False, False, True
    return natural, total_ok, False, False


@pytest.mark.parametrize("kind", ["check", "attack", "natural_checks"])
@pytest.mark.parametrize("state", list(STATES))
def test_d20_table(pack, kind: str, state: str) -> None:
    gains, losses = STATES[state]
    modifiers = net_advantage(pack, gains, losses)
    variant = None if kind == "check" else kind
    rows = 0
    for natural in range(1, 21):
        dice = [natural] if not modifiers else [natural, other_die(natural)]
        for modifier in range(-5, 16):
            for dc in range(1, 31):
                result = pack.check(dc, modifier=modifier, modifiers=modifiers, variant=variant, faces=dice)
                want_nat, success, critical, fumble = oracle(kind, dice, state, modifier, dc)
                got = (result.roll, result.success, result.critical, result.fumble)
                assert got == (want_nat, success, critical, fumble), (kind, state, dice, modifier, dc)
                assert result.margin == want_nat + modifier - dc
                rows += 1
    assert rows == 20 * 21 * 30


def test_netting_house_rule(pack) -> None:
    for gains in range(4):
        for losses in range(4):
            raw = net_advantage(pack, gains, losses)
            net = net_advantage(pack, gains, losses, "netting")
            if gains and losses:
                assert raw == {}
            else:
                assert raw == ({"advantage": 1} if gains else {"disadvantage": 1} if losses else {})
            n = gains - losses
            assert net == ({"advantage": 1} if n > 0 else {"disadvantage": 1} if n < 0 else {})


def test_death_saves_against_the_rules(pack) -> None:
    """Three successes stabilise, three failures kill; a natural 1 is two failures; a natural
    20 regains 1 HP (and resets the tallies)."""
    engine = engine_for(Kernel())
    for sequence in ([12, 15, 10], [9, 2, 5], [1, 9], [1, 1], [15, 1, 12, 13], [20], [5, 5, 20]):
        sheet = engine.sheet("dnd5e", {"hp": 0})
        ok = bad = 0
        last = None
        for face in sequence:
            last = engine.subsystem("dnd5e", "death_save", sheet, faces=[face])
            if face == 20:
                ok = bad = 0
                assert last.outcome == "regain" and sheet["hp"] == 1
                continue
            if face == 1:
                bad += 2
            elif face >= 10:
                ok += 1
            else:
                bad += 1
            assert last.values["successes"] == min(ok, 3) and last.values["failures"] == min(bad, 3), sequence
        if bad >= 3:
            assert last.outcome == "ended_failure"
        elif ok >= 3:
            assert last.outcome == "ended_success"
