"""Dice expressions: grammar, semantics, limits, replay, and property tests."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lwcore.rules.dice import (
    DIGIT,
    FUDGE,
    MAX_EXPLOSIONS,
    DiceExpr,
    FaceReplay,
    compile_dice,
    rng_drawer,
    roll,
)
from lwcore.rules.errors import DiceError

PROPS = settings(deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize(
    ("expr", "faces", "total"),
    [
        ("1d100", [37], 37),
        ("d%", [100], 100),
        ("d20", [20], 20),
        ("2d20kh1+3", [4, 17], 20),
        ("2d20kl1", [4, 17], 4),
        ("2d20k1", [4, 17], 17),
        ("4d6kh3", [1, 6, 5, 2], 13),
        ("4d6dl1", [1, 6, 5, 2], 13),
        ("4d6dh1", [1, 6, 5, 2], 8),
        ("3d6 x 5", [1, 2, 3], 30),
        ("3d6×5", [1, 2, 3], 30),
        ("3d6*5", [1, 2, 3], 30),
        ("(2d6+6)x5", [3, 4], 65),
        ("7/2", [], 3),
        ("-7/2", [], -4),
        ("1d6/2", [5], 2),
        ("1 - 2 - 3", [], -4),
        ("2 + 3 * 4", [], 14),
        ("4dF", [-1, 0, 1, 1], 1),
        ("dF", [-1], -1),
        ("10d10>=8", [8, 9, 10, 1, 1, 7, 3, 2, 5, 8], 4),
        ("5d10>8", [8, 9, 10, 1, 1], 2),
        ("5d10<=2", [8, 9, 10, 1, 2], 2),
        ("5d10<3", [8, 9, 10, 1, 3], 1),
        ("3d6!", [6, 2, 3, 6, 1], 18),
        ("2d6!kh1", [6, 1, 4], 6),
    ],
)
def test_semantics(expr: str, faces: list[int], total: int) -> None:
    result = compile_dice(expr).roll(faces=faces)
    assert result.total == total
    assert result.faces == faces


def test_pools_count_successes_and_ones() -> None:
    result = roll("10d10>=8", faces=[8, 9, 10, 1, 1, 7, 3, 2, 5, 8])
    assert (result.successes, result.ones) == (4, 2)
    assert roll("1d20", faces=[1]).ones == 1


def test_keep_reports_dropped_faces() -> None:
    result = roll("4d6kh3", faces=[1, 6, 5, 2])
    (term,) = result.terms
    assert term.faces == (1, 6, 5, 2)
    assert term.kept == (False, True, True, True)
    assert "(1)" in str(result)


def test_seeded_rolls_repeat_and_replay() -> None:
    for expr in ("1d100", "4d6kh3", "10d10>=8", "5d6!", "4dF+2", "2d20kh1+3"):
        first = compile_dice(expr).roll(random.Random(5))
        second = compile_dice(expr).roll(random.Random(5))
        assert first.to_json() == second.to_json()
        assert compile_dice(expr).roll(faces=first.faces).to_json() == first.to_json()


def test_rng_faces_are_in_range_and_cover_every_face() -> None:
    draw = rng_drawer(random.Random(1))
    seen = {draw(6) for _ in range(2000)}
    assert seen == {1, 2, 3, 4, 5, 6}
    assert {draw(FUDGE) for _ in range(500)} == {-1, 0, 1}
    assert {draw(DIGIT) for _ in range(1000)} == set(range(10))


def test_params_are_clamped_and_defaulted() -> None:
    expr = DiceExpr("{pool}d10>=8", {"pool": {"min": 1, "max": 9, "default": 3}})
    assert len(expr.roll(random.Random(1)).faces) == 3
    assert len(expr.roll(random.Random(1), params={"pool": 50}).faces) == 9
    assert len(expr.roll(random.Random(1), params={"pool": -2}).faces) == 1
    assert roll("{n}d6", faces=[1, 2], params={"n": 2}).total == 3


@pytest.mark.parametrize(
    ("expr", "column", "fragment"),
    [
        ("", 1, "empty"),
        ("1d", 3, "after 'd'"),
        ("2d6+", 5, "unexpected end"),
        ("2d6 +*", 6, "unexpected"),
        ("(1d6", 5, "')'"),
        ("1d6 @ 2", 5, "unexpected character"),
        ("1d0", 3, "at least one side"),
        ("{pool}d6", 1, "unknown parameter"),
        ("{}d6", 1, "bad parameter"),
        ("4d6kh", 6, "after 'kh'"),
        ("4d6kh1kl1", 7, "only one keep"),
    ],
)
def test_syntax_errors_are_located(expr: str, column: int | None, fragment: str) -> None:
    with pytest.raises(DiceError) as info:
        compile_dice(expr)
    assert fragment in str(info.value)
    assert info.value.column == column


@pytest.mark.parametrize(
    ("expr", "fragment"),
    [
        ("1001d6", "dice in one term"),
        ("1d10001", "sides"),
        ("1000d6+1000d6+1000d6+1000d6+1000d6+1d6", "too many dice"),
        ("1d1!", "explode forever"),
        ("4dF!", "explode forever"),
        ("99999999999d6", "too large"),
        ("3d6kh4", "keeps or drops 4 of 3"),
        ("1d6/0", "division by zero"),
        ("(" * 100 + "1" + ")" * 100, "nested too deeply"),
        ("1" * 2000, "characters long"),
    ],
)
def test_limits_are_refused(expr: str, fragment: str) -> None:
    with pytest.raises(DiceError) as info:
        compile_dice(expr)
    assert fragment in str(info.value)


def test_division_by_a_rolled_zero_is_an_error() -> None:
    with pytest.raises(DiceError, match="division by zero"):
        roll("6/(1d2-1)", faces=[1])


def test_explosions_are_capped_not_endless() -> None:
    always_max = lambda sides: sides  # noqa: E731 - a drawer that always explodes
    result = compile_dice("1d6!").roll(draw=always_max)
    assert result.capped
    assert len(result.faces) == 1 + MAX_EXPLOSIONS


def test_replay_checks_faces() -> None:
    with pytest.raises(DiceError, match="impossible on a d6"):
        roll("1d6", faces=[7])
    with pytest.raises(DiceError, match="not enough dice faces"):
        roll("2d6", faces=[3])
    with pytest.raises(DiceError, match="faces given but the roll used 1"):
        roll("1d6", faces=[3, 4])
    replay = FaceReplay([3], fallback=lambda s: 1)
    assert [replay(6), replay(6)] == [3, 1]


# --- properties --------------------------------------------------------------------------

ALPHABET = "0123456789dDfFkKhHlLxX×!%+-*/()<>=>{} abc"


@PROPS
@given(st.text(alphabet=ALPHABET, max_size=40))
def test_any_text_compiles_or_raises_dice_error(text: str) -> None:
    try:
        expr = compile_dice(text)
    except DiceError:
        return
    try:
        expr.roll(random.Random(0))
    except DiceError:
        pass


@PROPS
@given(st.text(max_size=30))
def test_arbitrary_unicode_never_escapes(text: str) -> None:
    try:
        compile_dice(text).roll(random.Random(0))
    except DiceError:
        pass


def _dice_term() -> st.SearchStrategy[tuple[str, int, int]]:
    """(text, min, max) of a simple dice term."""

    @st.composite
    def build(draw: st.DrawFn) -> tuple[str, int, int]:
        n = draw(st.integers(1, 6))
        s = draw(st.integers(2, 20))
        keep = draw(st.sampled_from(["", "kh", "kl"]))
        if keep:
            k = draw(st.integers(1, n))
            return f"{n}d{s}{keep}{k}", k, k * s
        return f"{n}d{s}", n, n * s

    return build()


@PROPS
@given(st.lists(st.tuples(st.sampled_from("+-"), _dice_term(), ), min_size=1, max_size=4), st.integers(0, 2**32))
def test_generated_sums_stay_in_bounds_and_replay(terms: list[tuple[str, tuple[str, int, int]]], seed: int) -> None:
    text = ""
    lo = hi = 0
    for sign, (term, tmin, tmax) in terms:
        text += f" {sign} {term}"
        if sign == "+":
            lo, hi = lo + tmin, hi + tmax
        else:
            lo, hi = lo - tmax, hi - tmin
    expr = compile_dice(text)
    result = expr.roll(random.Random(seed))
    assert lo <= result.total <= hi
    assert expr.roll(faces=result.faces).total == result.total
