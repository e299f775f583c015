"""hooks.js: events, the variable bridge, effect kinds and their limits, the turn's lifetime."""

from __future__ import annotations

from datetime import datetime

import pytest

from lwcore.sandbox import EVENTS, HookSession, run_hooks
from lwcore.sandbox.effects import (
    CAPS,
    EmitPanel,
    EmitUI,
    IncVar,
    Inject,
    Log,
    MeterBlock,
    Narrate,
    RewriteReply,
    SetVar,
    parse_effects,
)
from lwcore.sandbox.runtime import SandboxFailed

WRONG_GLOBAL = """
on('turn_start', () => {
  globalThis.__turns = (globalThis.__turns || 0) + 1;
  emitUI([{kind: 'meter', label: 'Tide sense', value: globalThis.__turns, min: 0, max: 40}]);
});
"""
RIGHT_BRIDGE = """
on('turn_start', () => {
  incvar('tide_sense', 1);
  emitUI([{kind: 'meter', label: 'Tide sense', value: Number(getvar('tide_sense')) || 0, min: 0, max: 40}]);
});
"""


def apply(state: dict, effects: tuple) -> dict:
    """What the engine will do later, reduced to the test's needs: apply writes to the tree."""
    out = dict(state)
    for effect in effects:
        if isinstance(effect, IncVar):
            out[effect.path[0]] = out.get(effect.path[0], 0) + effect.by
        elif isinstance(effect, SetVar):
            out[effect.path[0]] = effect.value
    return out


def test_a_counter_in_a_js_global_resets_every_turn_but_one_through_incvar_persists() -> None:
    """The spec's globalThis pitfall: one interpreter per turn, so a JS global never advances."""
    wrong, right, state = [], [], {}
    for turn in range(3):
        wrong.append(run_hooks(WRONG_GLOBAL, [("turn_start", {})], {}, seed=turn, clock=0).effects[0].blocks[0].value)
        run = run_hooks(RIGHT_BRIDGE, [("turn_start", {})], state, seed=turn, clock=0)
        right.append(run.effects[1].blocks[0].value)
        state = apply(state, run.effects)
    assert wrong == [1, 1, 1]
    assert right == [1, 2, 3] and state == {"tide_sense": 3}


def test_within_one_turn_a_js_global_does_live_across_events() -> None:
    run = run_hooks("let seen = 0;\nfor (const e of ['turn_start', 'dice_rolled', 'reply_ready']) on(e, () => narrate(String(++seen)));",
                    [("turn_start", {}), ("dice_rolled", {}), ("reply_ready", {})], {}, seed=1, clock=0)
    assert [e.text for e in run.effects] == ["1", "2", "3"]


def test_every_event_reaches_its_handlers_in_registration_order_with_its_own_payload_copy() -> None:
    script = """
    on('dice_rolled', e => { e.rolls.push('mutated'); log('first ' + e.rolls.length); });
    on('dice_rolled', e => log('second ' + e.rolls.length));
    on('reply_ready', e => log(e.reply));
    on('variables_changed', e => log(e.writes.map(w => w.path).join(',')));
    on('turn_start', e => log(e.user_message));
    """
    run = run_hooks(script, [("turn_start", {"user_message": "我去码头"}), ("dice_rolled", {"rolls": [1, 2]}),
                             ("variables_changed", {"writes": [{"path": "hp"}, {"path": "san"}]}),
                             ("reply_ready", {"reply": "The pier is empty."})], {}, seed=1, clock=0)
    assert run.ok, run.failure
    assert [[e.text for e in r.effects] for r in run.events] == [
        ["我去码头"], ["first 3", "second 2"], ["hp,san"], ["The pier is empty."]]


def test_variables_changed_fires_once_per_turn_so_cascades_end() -> None:
    with HookSession("on('variables_changed', () => incvar('n'));", state={"n": 0}, seed=1, clock=0) as session:
        first = session.dispatch("variables_changed", {"writes": []})
        second = session.dispatch("variables_changed", {"writes": []})
    assert [e.kind for e in first.effects] == ["incvar"]
    assert second.ok and second.effects == () and "at most once" in second.skipped


def test_an_unknown_event_is_the_callers_mistake() -> None:
    with HookSession("", seed=1, clock=0) as session, pytest.raises(ValueError, match="turn_start"):
        session.dispatch("turn_started")
    assert EVENTS == ("turn_start", "reply_ready", "dice_rolled", "variables_changed")


def test_a_handler_for_an_event_this_host_never_fires_is_a_located_warning_not_a_failure() -> None:
    run = run_hooks("\non('clock_advanced', () => {});\non('turn_start', () => narrate('ok'));", [("turn_start", {})],
                    {}, seed=1, clock=0)
    assert run.ok and run.effects[0].text == "ok"
    assert run.warnings == ('line 2: on("clock_advanced"): this host never fires that event '
                            "(it fires turn_start, reply_ready, dice_rolled, variables_changed)",)


def test_the_variable_bridge_reads_its_own_writes_and_records_only_requests() -> None:
    script = """
    on('turn_start', () => {
      setvar('stat_data.角色.好感度', getvar('角色.好感度') + 5);
      incvar('variables.hp', -2);
      decvar('hp');
      setvar(['weird.key'], {nested: [1, 'two']});
      log([getvar('stat_data.角色.好感度'), getvar('hp'), getvar('weird.key').nested[1], getvar('missing', {defaults: 'd'}),
           getvar('flat.id'), stat_data.hp, variables === stat_data].join('|'));
      variables.direct = 'not an effect';
    });
    """
    state = {"角色": {"好感度": 10}, "hp": 10, "flat.id": "whole key wins"}
    run = run_hooks(script, [("turn_start", {})], state, seed=1, clock=0)
    assert run.ok, run.failure
    assert [(e.kind, e.path) for e in run.effects[:4]] == [
        ("setvar", ["角色", "好感度"]), ("incvar", ["hp"]), ("incvar", ["hp"]), ("setvar", ["weird.key"])]
    assert run.effects[0].value == 15 and run.effects[1].by == -2 and run.effects[2].by == -1
    assert run.effects[4].text == "15|7|two|d|whole key wins|7|true"
    assert state == {"角色": {"好感度": 10}, "hp": 10, "flat.id": "whole key wins"}


def test_a_new_state_between_events_replaces_the_view() -> None:
    with HookSession("on('turn_start', () => incvar('hp', 5));\non('reply_ready', () => log(String(getvar('hp'))));",
                     state={"hp": 1}, seed=1, clock=0) as session:
        session.dispatch("turn_start")
        carried = session.dispatch("reply_ready")
        replaced = session.dispatch("reply_ready", state={"hp": 4})
    assert carried.effects[0].text == "6" and replaced.effects[0].text == "4"


@pytest.mark.parametrize(("call", "message"), [
    ("getvar(5)", "must be a string or a list of keys"),
    ("setvar('stat_data', 1)", "name a variable, not the whole state"),
    ("setvar('a..b', 1)", "has an empty key"),
    ("incvar('hp', '2')", "the step must be a finite number"),
    ("incvar('hp', Infinity)", "the step must be a finite number"),
    ("setvar('x', undefined)", "not a JSON value"),
])
def test_bad_bridge_calls_fail_at_the_call(call: str, message: str) -> None:
    run = run_hooks(f"on('turn_start', () => {{\n  {call};\n}});", [("turn_start", {})], {"hp": 1}, seed=1, clock=0)
    assert not run.ok and message in run.error and run.failure.line == 2


def test_each_effect_kind_round_trips_into_its_typed_model() -> None:
    script = """
    on('turn_start', () => {
      inject('the town is past reason');
      narrate('A bell rings.');
      log({level: 'debug', n: 1});
      emitUI([{kind: 'meter', label: {en: 'Fear', zh: '恐惧'}, value: 3, min: 0, max: 10},
              {kind: 'stat', label: 'Day', value: 46}, {kind: 'badge', label: 'alert', tone: 'warn'},
              {kind: 'text', text: 'Fog.', style: 'quote'}, {kind: 'divider'},
              {kind: 'choices', prompt: 'Go?', options: [{id: 'pier', label: 'Pier', input: 'go to the pier'}]},
              {kind: 'image', src: 'assets/map.png', caption: {en: 'Map'}, visible_when: 'day >= 46'}],
             {panel: 'sidebar', id: 'hud', replace: true});
      emitPanel('fog-harbor/case-board', {clues: ['ticket', 'ledger']});
    });
    on('reply_ready', e => rewriteReply(e.reply + '…'));
    """
    run = run_hooks(script, [("turn_start", {}), ("reply_ready", {"reply": "Quiet"})], {}, seed=1, clock=0)
    assert run.ok, run.failure
    kinds = [type(e) for e in run.effects]
    assert kinds == [Inject, Narrate, Log, EmitUI, EmitPanel, RewriteReply]
    ui = run.effects[3]
    assert [b.kind for b in ui.blocks] == ["meter", "stat", "badge", "text", "divider", "choices", "image"]
    assert isinstance(ui.blocks[0], MeterBlock) and ui.blocks[0].label == {"en": "Fear", "zh": "恐惧"}
    assert ui.options.panel == "sidebar" and ui.options.id == "hud" and ui.options.replace is True
    assert run.effects[2].text == '{"level":"debug","n":1}'
    assert run.effects[4].payload == {"clues": ["ticket", "ledger"]}
    assert run.effects[5].text == "Quiet…"
    assert [e.line for e in run.effects] == [3, 4, 5, 6, 12, 14]


BAD_BLOCKS = [
    ("{kind: 'meter', label: 'X', value: 1, max: 0}", "max (0) must be above min (0)"),
    ("{kind: 'meter', label: 'X', value: '3', min: 0, max: 5}", "blocks[0].value"),
    ("{kind: 'meter', label: 'X', value: true, min: 0, max: 5}", "blocks[0].value"),
    ("{kind: 'stat', label: 'X'}", "blocks[0].value"),
    ("{kind: 'badge', label: 'X', tone: 'loud'}", "blocks[0].tone"),
    ("{kind: 'text', text: 'x'.repeat(2001)}", "blocks[0].text"),
    ("{kind: 'text', text: 'x', colour: 'red'}", "blocks[0].colour"),
    ("{kind: 'choices', options: []}", "blocks[0].options"),
    ("{kind: 'choices', options: [{id: 'a', label: 'A', input: 'a'}, {id: 'a', label: 'B', input: 'b'}]}", "unique"),
    ("{kind: 'choices', options: [{id: 'a b', label: 'A', input: 'a'}]}", "blocks[0].options[0].id"),
    ("{kind: 'image'}", "exactly one of src"),
    ("{kind: 'image', src: '../secret.png'}", "relative path inside the pack"),
    ("{kind: 'image', src: 'https://example.com/x.png'}", "relative path inside the pack"),
    ("{kind: 'image', hash: 'ABC'}", "blocks[0].hash"),
    ("{kind: 'meter', label: {EN: 'x'}, value: 1, max: 2}", "blocks[0].label"),
    ("{label: 'no kind'}", "blocks[0]"),
]


@pytest.mark.parametrize(("block", "words"), BAD_BLOCKS, ids=[b[0][:40] for b in BAD_BLOCKS])
def test_tier0_blocks_are_shape_checked_with_a_located_message(block: str, words: str) -> None:
    run = run_hooks(f"on('turn_start', () => {{\n\n  emitUI([{block}]);\n}});", [("turn_start", {})], {}, seed=1, clock=0)
    assert not run.ok and run.failure.kind == "invalid" and run.failure.line == 3
    assert run.error.startswith("emitUI(): ") and words in run.error, run.error


@pytest.mark.parametrize(("call", "words"), [
    ("emitUI([])", "blocks"),
    ("emitUI(Array(17).fill({kind: 'divider'}))", "blocks"),
    ("emitUI([{kind: 'divider'}], {panel: 'floating'})", "options.panel"),
    ("emitPanel('no-slash', {})", "panel"),
    ("emitPanel('pack/panel/extra', {})", "panel"),
    ("emitUI({kind: 'divider'})", "must be a list of blocks"),
    ("emitUI([{kind: 'divider'}], 'sidebar')", "options must be an object"),
    ("narrate(42)", "must be a string"),
    ("inject('x'.repeat(4001))", "4000"),
])
def test_other_effect_shapes_are_refused(call: str, words: str) -> None:
    run = run_hooks(f"on('turn_start', () => {{ {call}; }});", [("turn_start", {})], {}, seed=1, clock=0)
    assert not run.ok and words in run.error, run.error


def test_panel_limits_at_their_edges() -> None:
    exactly = "on('turn_start', () => emitPanel('p/q', 'x'.repeat(32 * 1024 - 2)));"
    over = "on('turn_start', () => emitPanel('p/q', 'x'.repeat(32 * 1024 - 1)));"
    assert run_hooks(exactly, [("turn_start", {})], {}, seed=1, clock=0).ok
    assert "limit is 32768" in run_hooks(over, [("turn_start", {})], {}, seed=1, clock=0).error
    cjk = "on('turn_start', () => emitPanel('p/q', '字'.repeat(11000)));"
    assert "33002 bytes" in run_hooks(cjk, [("turn_start", {})], {}, seed=1, clock=0).error


def test_per_turn_counts_span_the_whole_session() -> None:
    script = "on('turn_start', () => { for (let i = 0; i < 15; i++) emitPanel('p/q', i); });\n" \
             "on('reply_ready', () => {\n  for (let i = 0; i < 6; i++) emitPanel('p/q', i);\n});"
    run = run_hooks(script, [("turn_start", {}), ("reply_ready", {})], {}, seed=1, clock=0)
    assert len(run.events[0].effects) == 15 and CAPS["emitPanel"] == 20
    assert "more than 20 emitPanel" in run.events[1].error and run.events[1].failure.line == 3


def test_rewrite_reply_once_and_only_after_the_reply() -> None:
    run = run_hooks("on('reply_ready', () => { rewriteReply('a'); rewriteReply('b'); });", [("reply_ready", {})], {},
                    seed=1, clock=0)
    assert "more than 1 rewriteReply" in run.error
    run = run_hooks("on('dice_rolled', () => inject('x'));", [("dice_rolled", {})], {}, seed=1, clock=0)
    assert "inject() has no effect in a dice_rolled handler (only in turn_start)" in run.error


def test_async_handlers_finish_before_the_events_effects_are_read() -> None:
    script = """
    on('turn_start', async () => {
      await null;
      narrate('after await');
      await Promise.resolve().then(() => setvar('done', true));
    });
    """
    run = run_hooks(script, [("turn_start", {})], {}, seed=1, clock=0)
    assert run.ok and [e.kind for e in run.effects] == ["narrate", "setvar"]


def test_a_script_with_no_handlers_does_nothing() -> None:
    run = run_hooks("const x = 1;", [(e, {}) for e in EVENTS], {}, seed=1, clock=0)
    assert run.ok and run.effects == () and len(run.events) == 4


def test_a_closed_session_refuses_to_run() -> None:
    session = HookSession("on('turn_start', () => narrate('x'));", seed=1, clock=datetime(1925, 3, 4, 21, 0))
    session.close()
    result = session.dispatch("turn_start")
    assert not result.ok and result.failure.kind == "refused" and result.effects == ()


def test_state_and_payload_that_are_not_json_are_the_callers_mistake() -> None:
    with pytest.raises(TypeError, match="state must be JSON"):
        HookSession("", state={"x": object()}, seed=1, clock=0)
    with HookSession("", seed=1, clock=0) as session, pytest.raises(TypeError, match="payload must be JSON"):
        session.dispatch("turn_start", {"x": float("nan")})


def test_parse_effects_refuses_a_kind_the_run_may_not_request() -> None:
    with pytest.raises(SandboxFailed, match="not an effect this run may request"):
        parse_effects([{"kind": "plan", "line": 1, "tool": "x", "args": {}}], ("narrate",), "hooks.js")


@pytest.mark.parametrize("source", [
    "on('turn_start', () => narrate('x')) // a trailing comment, no newline",
    "'use strict';\non('turn_start', () => narrate('x'));",
    "\ufeffon('turn_start', () => narrate('x'));\r\n",
])
def test_scripts_as_authors_write_them_load(source: str) -> None:
    run = run_hooks(source, [("turn_start", {})], {}, seed=1, clock=0)
    assert run.ok and run.effects[0].text == "x", run.failure


def test_a_strict_script_is_still_located() -> None:
    run = run_hooks("'use strict';\non('turn_start', () => {\n  undeclared = 1;\n});", [("turn_start", {})], {},
                    seed=1, clock=0)
    assert not run.ok and "ReferenceError" in run.error and run.failure.line == 3
