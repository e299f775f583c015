"""Module variables: every write checked and clamped by code (iron rule 1)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from lwcore.contributions import Viewer
from lwcore.turn.projections import project_variable, variable_document
from lwcore.turn.view import VariableLine
from lwcore.turn.variables import (
    VariableDef,
    VariableError,
    check_value,
)

NUM = VariableDef(id="hp", kind="number", minimum=0, maximum=10, visibility="player")


def test_numbers_are_clamped_and_rounded() -> None:
    assert check_value(NUM, 99) == (10, "99 is outside [0, 10]; clamped to 10")
    assert check_value(NUM, -3)[0] == 0
    assert check_value(NUM, "7") == (7, None)
    assert check_value(NUM, 2.6) == (3, None)
    free = VariableDef(id="x", kind="number", integer=False)
    assert check_value(free, 2.5) == (2.5, None) and check_value(free, 1e9)[0] == 1e9


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), "many", None, True, [1]])
def test_nonsense_numbers_are_refused(bad) -> None:
    with pytest.raises(VariableError):
        check_value(NUM, bad)


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12, max_value=1e12))
def test_any_number_lands_inside_the_bounds(value: float) -> None:
    stored, _ = check_value(NUM, value)
    assert 0 <= stored <= 10 and isinstance(stored, int)


def test_other_kinds() -> None:
    flag = VariableDef(id="lit", kind="bool")
    assert check_value(flag, "yes") == (True, None) and check_value(flag, 0) == (False, None)
    with pytest.raises(VariableError):
        check_value(flag, "maybe")
    mood = VariableDef(id="mood", kind="enum", options=["calm", "tense"])
    assert mood.value == "calm" and check_value(mood, "tense") == ("tense", None)
    with pytest.raises(VariableError):
        check_value(mood, "furious")
    note = VariableDef(id="note", kind="text", max_length=5)
    assert check_value(note, "abcdefgh") == ("abcde", "text cut to 5 characters")


def test_declarations_are_checked() -> None:
    with pytest.raises(ValidationError):
        VariableDef(id="x", minimum=5, maximum=1)
    with pytest.raises(ValidationError):
        VariableDef(id="x", kind="enum")
    with pytest.raises(ValidationError):
        VariableDef(id="1bad")
    with pytest.raises(ValidationError):
        VariableDef(id="x", minimum=math.inf)
    assert VariableDef(id="x", minimum=3, maximum=9).value == 3  # default pulled into range
    assert VariableDef(id="x", minimum=0, maximum=5, value=50).value == 5  # stored values clamped on load
    assert VariableDef(id="线索").visibility == "keeper"  # secret unless declared otherwise


def test_player_projection_cannot_hold_a_keeper_variable() -> None:
    with pytest.raises(ValidationError):
        VariableLine(id="x", label="x", kind="number", value=1, visibility="keeper")  # type: ignore[arg-type]
    defs = [NUM, VariableDef(id="secret", kind="text", value="the butler")]
    player, keeper = Viewer("p1", "en"), Viewer("kp", "en", keeper=True)
    assert [v.id for v in defs if project_variable(variable_document(v), player, None)] == ["hp"]
    assert [v.id for v in defs if project_variable(variable_document(v), keeper, None)] == ["hp", "secret"]
