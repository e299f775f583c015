"""The closed expression language: values, types, located errors, and property tests."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lwcore.rules.errors import ExprError
from lwcore.rules.expr import BOOL, LIST, NUM, ExprScope, compile_expr

PROPS = settings(deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow])

SCOPE = ExprScope(
    {"roll": NUM, "dice": LIST, "target": NUM, "raw_target": NUM, "modifier": NUM, "ones": NUM, "力量": NUM},
    {"successes": "the roll has no success pool"},
    dice_count=2,
)
ENV = {"roll": 37, "dice": [37, 4], "target": 30, "raw_target": 60, "modifier": -1, "ones": 0, "力量": 70}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("roll <= target", False),
        ("roll <= raw_target && roll <= floor(raw_target / 2)", False),
        ("roll > target || roll == 100", True),
        ("!(roll == 1)", True),
        ("!roll == 1", True),
        ("floor(raw_target / 5)", 12),
        ("ceil(raw_target / 7)", 9),
        ("raw_target / 4", 15),
        ("roll % 11", 4),
        ("min(5, raw_target, 3)", 3),
        ("max(roll, target)", 37),
        ("abs(modifier)", 1),
        ("-roll + 2 * 3", -31),
        ("dice1 + dice[1]", 41),
        ("dice[0] * 10 + dice2", 374),
        ("dice[2 - 1]", 4),
        ("力量 / 2", 35),
        ("true && !false", True),
        ("(roll <= target) == false", True),
        ("0.5 * 4", 2.0),
    ],
)
def test_values(text: str, value: object) -> None:
    assert compile_expr(text, SCOPE)(ENV) == value


@pytest.mark.parametrize(
    ("text", "column", "fragment"),
    [
        ("rol <= target", 1, "did you mean 'roll'"),
        ("roll <= targt", 9, "unknown name 'targt'"),
        ("successes > 1", 1, "not available here"),
        ("roll & 1", 6, "'&&'"),
        ("roll = 1", 6, "'=='"),
        ("roll && true", 1, "'&&' needs a true/false"),
        ("roll <= true", 9, "needs a number"),
        ("1 < 2 < 3", 7, "do not chain"),
        ("floor(roll", 11, "',' or ')'"),
        ("sqrt(roll)", 1, "unknown function"),
        ("min(roll)", 1, "at least 2"),
        ("dice + 1", 1, "dice is a list"),
        ("dice3", 1, "dice3, but the roll keeps 2 dice"),
        ("dice[2] > 1", 6, "dice[2], but the roll keeps 2 dice"),
        ("dice0", 1, "unknown name 'dice0'"),
        ("dice[1.5]", 6, "not a die number"),
        ("roll[1]", 5, "only dice can be indexed"),
        ("roll / 0", 8, "division by zero"),
        ("", 1, "empty"),
        ("(roll", 6, "')'"),
    ],
)
def test_errors_are_located(text: str, column: int, fragment: str) -> None:
    with pytest.raises(ExprError) as info:
        compile_expr(text, SCOPE)
    assert fragment in str(info.value)
    assert info.value.column == column


def test_result_type_is_checked() -> None:
    with pytest.raises(ExprError, match="must be a true/false"):
        compile_expr("roll + 1", SCOPE, BOOL)
    with pytest.raises(ExprError, match="must be a number"):
        compile_expr("roll > 1", SCOPE, NUM)
    assert compile_expr(1, SCOPE, NUM)(ENV) == 1


def test_runtime_index_out_of_range_is_an_expr_error() -> None:
    scope = ExprScope({"dice": LIST})
    for text in ("dice[1] > 1", "dice[0 - 1] > 1", "dice2 > 1"):
        expr = compile_expr(text, scope)
        with pytest.raises(ExprError, match="out of range"):
            expr({"dice": [1]})
    assert compile_expr("dice[0] == dice1", scope)({"dice": [6]}) is True


def test_names_used_are_recorded() -> None:
    assert compile_expr("roll <= floor(raw_target / 2)", SCOPE).names == {"roll", "raw_target"}


ALPHABET = "roll target dice1 [] () 0123456789 + - * / % < > = ! & | , floor min max abs true false 力量 . _"


@PROPS
@given(st.text(alphabet=ALPHABET, max_size=60))
def test_any_text_compiles_or_raises_expr_error(text: str) -> None:
    try:
        expr = compile_expr(text, SCOPE)
    except ExprError:
        return
    try:
        expr(ENV)
    except ExprError:
        pass


@PROPS
@given(st.text(max_size=40))
def test_arbitrary_unicode_never_escapes(text: str) -> None:
    try:
        compile_expr(text, SCOPE)(ENV)
    except ExprError:
        pass


def test_deep_nesting_is_refused_not_a_recursion_error() -> None:
    for text in ("(" * 500 + "1" + ")" * 500, "!" * 500 + "true", "-" * 500 + "1", "dice[" * 300 + "1" + "]" * 300,
                 "abs(" * 300 + "1" + ")" * 300):
        with pytest.raises(ExprError, match="nested too deeply"):
            compile_expr(text, SCOPE)
