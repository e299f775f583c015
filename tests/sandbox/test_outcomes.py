"""Rule scripts (verdicts of a closed vocabulary) and template evaluation."""

from __future__ import annotations

import pytest

from lwcore.sandbox import Verdict, evaluate, resolve
from lwcore.sandbox.outcomes import Adjust, Flag, Note, SetStat

# A success-counting pool the expression language cannot say: 10s explode (reroll rolled by the
# engine beforehand and passed in as extra faces), a 1 cancels a success, three or more
# successes are exceptional, no success with a 1 is a botch.
POOL = """
function resolve(check) {
  const need = check.targets.difficulty;
  let successes = check.faces.filter(f => f >= need).length + check.explosions.filter(f => f >= need).length;
  const ones = check.faces.filter(f => f === 1).length;
  if (successes === 0 && ones > 0) return {verdict: "botch", note: "a 1 and nothing else"};
  successes = Math.max(successes - ones, 0);
  if (successes === 0) return "failure";
  return {verdict: successes >= 3 ? "exceptional" : "success", margin: successes};
}
"""
RANKS = ("botch", "failure", "success", "exceptional")


@pytest.mark.parametrize(("faces", "explosions", "verdict", "margin"), [
    ([8, 9, 2, 1], [], "success", 1),
    ([10, 10, 7, 3], [9, 2], "exceptional", 3),
    ([2, 3, 4], [], "failure", None),
    ([1, 3, 4], [], "botch", None),
    ([8, 1, 1], [], "failure", None),
])
def test_a_scripted_pool_resolves(faces: list[int], explosions: list[int], verdict: str, margin: int | None) -> None:
    outcome = resolve(POOL, faces=faces, targets={"difficulty": 8}, inputs={"explosions": explosions}, verdicts=RANKS)
    assert outcome.ok, outcome.failure
    assert isinstance(outcome.value, Verdict)
    assert (outcome.value.verdict, outcome.value.margin) == (verdict, margin)


def test_a_subsystem_flow_returns_effects_of_the_closed_vocabulary() -> None:
    flow = """
    function resolve(check) {
      const lost = check.success ? check.faces[0] : check.faces[1];
      log('lost ' + lost);
      return {verdict: lost >= 5 ? 'bout' : 'shaken', effects: [
        {op: 'adjust', stat: 'SAN', by: -lost},
        {op: 'set', stat: '状态', value: lost >= 5 ? '疯狂' : '惊吓'},
        {op: 'flag', name: 'temporary-insanity', value: lost >= 5},
        {op: 'flag', name: 'shaken'},
        {op: 'note', text: 'The keeper describes the bout.'}]};
    }
    """
    outcome = resolve(flow, faces=[1, 6], targets={"SAN": 50}, inputs={"success": False}, verdicts=("bout", "shaken"))
    assert outcome.ok, outcome.failure
    verdict = outcome.value
    assert verdict.verdict == "bout" and [type(e) for e in verdict.effects] == [Adjust, SetStat, Flag, Flag, Note]
    assert verdict.effects[0].by == -6 and verdict.effects[1].value == "疯狂" and verdict.effects[3].value is True
    assert [e.text for e in outcome.effects] == ["lost 6"]


@pytest.mark.parametrize(("returned", "words"), [
    ("'crit'", "not one of botch, exceptional, failure, success"),
    ("42", "resolve() returned 42"),
    ("{}", "give a verdict, effects, or both"),
    ("{verdict: 'success', colour: 'red'}", "colour"),
    ("{verdict: 'success', margin: '2'}", "margin"),
    ("{effects: [{op: 'roll', dice: '1d6'}]}", "effects"),
    ("{effects: [{op: 'adjust', stat: 'SAN', by: 'lots'}]}", "by"),
    ("{verdict: 'no spaces allowed'}", "verdict"),
    ("undefined", "resolve() returned None"),
])
def test_a_result_outside_the_vocabulary_is_refused(returned: str, words: str) -> None:
    outcome = resolve(f"function resolve(check) {{ return {returned}; }}", faces=[1], targets={}, verdicts=RANKS)
    assert not outcome.ok and outcome.failure.kind == "invalid" and words in outcome.error, outcome.failure


def test_a_rule_script_without_its_function_or_throwing_is_located() -> None:
    assert "defines no function resolve(input)" in resolve("const x = 1;", faces=[1], targets={}).error
    outcome = resolve("function resolve(c) {\n  return c.faces[0].nope.deeper;\n}", faces=[1], targets={})
    assert outcome.failure.kind == "error" and outcome.failure.line == 2


def test_a_rule_script_sees_no_state_and_no_effect_emitters() -> None:
    outcome = resolve("function resolve(c) { return {verdict: 'ok', note: [typeof getvar, typeof setvar, typeof emitUI, "
                      "typeof plan, typeof on, typeof _].join(' ')}; }", faces=[1], targets={})
    assert outcome.value.note == "undefined undefined undefined undefined undefined function"


def test_inputs_cannot_shadow_faces_or_targets() -> None:
    with pytest.raises(ValueError, match="faces"):
        resolve("", faces=[1], targets={}, inputs={"faces": [6]})
    with pytest.raises(ValueError, match="function name"):
        resolve("", faces=[1], targets={}, entry="resolve()")


def test_an_async_resolver_is_followed_to_its_end() -> None:
    outcome = resolve("async function resolve(c) { await null; return 'success'; }", faces=[1], targets={})
    assert outcome.ok and outcome.value.verdict == "success"


def test_evaluate_returns_the_completion_value_and_the_writes() -> None:
    template = """
    const who = input.name;
    if (getvar('stat_data.好感度') > 50) setvar('stat_data.flags.met', true);
    incvar('visits');
    `${who}: ${_.clamp(getvar('好感度'), 0, 100)} / visits ${getvar('visits')}`;
    """
    outcome = evaluate(template, {"name": "顾晚棠"}, state={"好感度": 120, "visits": 2})
    assert outcome.ok, outcome.failure
    assert outcome.value == "顾晚棠: 100 / visits 3"
    assert [(e.kind, e.path) for e in outcome.effects] == [("setvar", ["flags", "met"]), ("incvar", ["visits"])]


def test_evaluate_values_of_every_json_shape() -> None:
    for source, value in [("1 + 1", 2), ("'x'", "x"), ("null", None), ("var unused = 1;", None),
                          ("({a: [1, {b: true}]})", {"a": [1, {"b": True}]}), ("[]", [])]:
        assert evaluate(source).value == value, source


def test_evaluate_effects_are_armed_at_the_top_level_but_limited() -> None:
    outcome = evaluate("for (let i = 0; i < 65; i++) setvar('k' + i, i);")
    assert not outcome.ok and "more than 64 writes" in outcome.error
    assert evaluate("log('x'); 1").effects[0].text == "x"
