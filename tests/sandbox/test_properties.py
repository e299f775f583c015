"""Properties: JSON crosses the sandbox unchanged; paths written are paths read."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lwcore.sandbox import evaluate, run_hooks

def same(a: object, b: object) -> bool:
    """Equal as JSON: a number is a number (JS has no int/float split), a bool is a bool."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


PROPS = settings(deadline=None, max_examples=80, suppress_health_check=[HealthCheck.too_slow])
SAFE = 2**53 - 1
scalars = st.none() | st.booleans() | st.integers(-SAFE, SAFE) | st.floats(allow_nan=False, allow_infinity=False) | st.text()
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                           max_leaves=25)
states = st.dictionaries(st.text(max_size=200), json_values, max_size=5)
"""Variable names are at most 200 characters (a limit of the effect model)."""


@PROPS
@given(states)
def test_any_json_state_round_trips_through_variables(state: dict) -> None:
    outcome = evaluate("variables", state=state)
    assert outcome.ok, outcome.failure
    assert same(outcome.value, state)


@PROPS
@given(states)
def test_any_json_state_round_trips_through_getvar_and_setvar(state: dict) -> None:
    script = """
    on('turn_start', () => {
      for (const key of Object.keys(variables)) {
        if (['__proto__', 'constructor', 'prototype', ''].includes(key)) continue;
        setvar([key], getvar([key]));
      }
    });
    """
    run = run_hooks(script, [("turn_start", {})], state, seed=1, clock=0)
    assert run.ok, run.failure
    forbidden = {"__proto__", "constructor", "prototype", ""}
    assert same({e.path[0]: e.value for e in run.effects}, {k: v for k, v in state.items() if k not in forbidden})


@PROPS
@given(json_values)
def test_a_value_emitted_is_the_value_the_engine_reads(value: object) -> None:
    run = run_hooks("on('turn_start', e => emitPanel('p/q', e.value));", [("turn_start", {"value": value})], {},
                    seed=1, clock=0)
    assert run.ok, run.failure
    assert same(run.effects[0].payload, value)


keys = st.text(st.characters(blacklist_characters=".[]'\"\\", blacklist_categories=("Cs",)), min_size=1, max_size=8)


@PROPS
@given(st.lists(keys, min_size=1, max_size=5), json_values)
def test_a_dotted_path_written_with_set_reads_back_with_get(path: list[str], value: object) -> None:
    dotted = ".".join(path)
    outcome = evaluate("[_.toPath(input.p), _.get(_.set({}, input.p, input.v), input.p), _.has(_.set({}, input.p, 1), input.p)]",
                       {"p": dotted, "v": value})
    assert outcome.ok, outcome.failure
    assert outcome.value[0] == path
    assert same(outcome.value[1], value)
    assert outcome.value[2] is True


@PROPS
@given(st.lists(keys, min_size=1, max_size=4))
def test_a_bracketed_path_reads_like_the_list_of_its_keys(path: list[str]) -> None:
    quoted = path[0] + "".join(f'["{k}"]' for k in path[1:])
    outcome = evaluate("_.toPath(input)", quoted)
    assert outcome.value == path


@pytest.mark.parametrize("big", [2**53, -(2**53), 10**30])
def test_integers_a_js_number_cannot_hold_are_refused_on_the_way_in(big: int) -> None:
    with pytest.raises(TypeError, match="beyond"):
        evaluate("1", state={"a": [{"b": big}]})
    assert evaluate("variables.a", state={"a": 2**53 - 1, "s": "12345678901234567890"}).value == 2**53 - 1
