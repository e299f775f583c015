"""Hostile scripts: every one is contained as a located failure, the host stays fine, and the
next run works. Nothing here may crash, hang or leak into the host."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading

import pytest

from lwcore.sandbox import HookSession, Limits, evaluate, run_hooks, run_plan
from lwcore.sandbox.hooks import HOOK_LIMITS

SMALL = Limits(memory_bytes=8 * 1024 * 1024, time_s=0.2, stack_bytes=128 * 1024, output_chars=200_000,
               source_chars=40_000)


def hooks(body: str, *, limits: Limits = SMALL, state: dict | None = None, payload: dict | None = None):
    """One turn_start of ``body`` (the whole script)."""
    return run_hooks(body, [("turn_start", payload or {})], state or {"hp": 3}, seed=1, clock=0, limits=limits)


def assert_host_fine() -> None:
    """The next run in this process works and sees nothing of the previous one."""
    run = run_hooks('on("turn_start", () => { incvar("n", 1); narrate(String(typeof leaked)); });',
                    [("turn_start", {})], {"n": 1}, seed=2, clock=0)
    assert run.ok, run.failure
    assert [e.kind for e in run.effects] == ["incvar", "narrate"]
    assert run.effects[1].text == "undefined"


# (name, script, failure kind, words the message must contain, expected line or None)
CORPUS = [
    ("syntax error", "on('turn_start', () => {\n  let x = ;\n});", "syntax", "SyntaxError", 2),
    ("throw at load", "\n\nthrow new Error('boom at load');", "error", "boom at load", 3),
    ("throw in handler", "on('turn_start', () => {\n  null.x;\n});", "error", "TypeError", 2),
    ("throw a number", "on('turn_start', () => { throw 42; });", "error", "42", None),
    ("throw undefined", "on('turn_start', () => { throw undefined; });", "error", "threw undefined", None),
    ("throw an unprintable value", "on('turn_start', () => { throw {toString() { throw 1; }}; });", "error",
     "cannot be shown", None),
    ("endless loop at load", "\nfor (;;) {}", "timeout", "CPU time", None),
    ("endless loop in handler", "on('turn_start', () => {\n  while (true) {}\n});", "timeout", "CPU time", None),
    ("endless loop in a named function", "function spin() {\n  for (;;) {}\n}\non('turn_start', spin);", "timeout",
     "interrupted in spin()", None),
    ("catch cannot stop the timeout", "on('turn_start', () => { for (;;) { try { for (;;) {} } catch (e) {} finally { continue; } } });",
     "timeout", "CPU time", None),
    ("catastrophic regex", "on('turn_start', () => { /(a+)+$/.test('a'.repeat(40) + 'b'); });", "timeout", "CPU time", None),
    ("sort comparator loop", "on('turn_start', () => { [3, 2, 1].sort(() => { for (;;) {} }); });", "timeout", "CPU time", None),
    ("endless async loop", "on('turn_start', async () => { for (;;) { await null; } });", "limit", "promise jobs", None),
    ("allocation bomb", "on('turn_start', () => { const a = []; for (;;) a.push({x: [1, 2, 3]}); });", "memory", "MiB", None),
    ("string doubling", "on('turn_start', () => { let s = 'x'; for (;;) s += s; });", "limit", "longer than QuickJS allows",
     None),
    ("string doubling, flattened", "on('turn_start', () => { let s = 'x'; for (;;) s = (s + s).slice(0); });", "memory", "MiB",
     None),
    ("huge repeat", "on('turn_start', () => { 'x'.repeat(1e9); });", "memory", "MiB", None),
    ("huge buffer", "on('turn_start', () => { new ArrayBuffer(2e9); });", "memory", "MiB", None),
    ("deep recursion", "on('turn_start', () => {\n  (function f(n) { return f(n + 1) + 1; })(0);\n});", "stack", "KiB stack", 2),
    ("deep JSON out", "on('turn_start', () => { let a = []; for (let i = 0; i < 1e4; i++) a = [a]; setvar('x', a); });",
     "stack", "KiB stack", None),
    ("deep JSON out over memory", "on('turn_start', () => { let a = []; for (let i = 0; i < 1e5; i++) a = [a]; setvar('x', a); });",
     "memory", "MiB", None),
    ("cycle in an effect", "on('turn_start', () => {\n  const o = {}; o.o = o;\n  emitPanel('p/q', o);\n});", "error",
     "circular", 3),
    ("throwing getter in an effect", "on('turn_start', () => {\n  emitUI([{ get kind() { throw new Error('gotcha'); } }]);\n});",
     "error", "gotcha", 2),
    ("NaN in an effect", "on('turn_start', () => {\n  setvar('hp', 0 / 0);\n});", "error", "NaN", 2),
    ("function in a list", "on('turn_start', () => {\n  emitPanel('p/q', [1, () => 2]);\n});", "error", "in a list", 2),
    ("Map in an effect", "on('turn_start', () => {\n  emitPanel('p/q', {m: new Map()});\n});", "error", "a Map", 2),
    ("BigInt in an effect", "on('turn_start', () => {\n  setvar('n', 10n);\n});", "error", "bigint", 2),
    ("payload over 32 KiB", "on('turn_start', () => {\n  emitPanel('p/q', {s: 'x'.repeat(40000)});\n});", "invalid",
     "limit is 32768", 2),
    ("narration over its size", "on('turn_start', () => {\n  narrate('n'.repeat(2001));\n});", "invalid", "2000", 2),
    ("more panels than a turn allows", "on('turn_start', () => {\n  for (let i = 0; i < 21; i++) emitPanel('p/q', i);\n});",
     "error", "more than 20 emitPanel", 2),
    ("more writes than a turn allows", "on('turn_start', () => {\n  for (let i = 0; i < 65; i++) incvar('n');\n});",
     "error", "more than 64 writes", 2),
    ("output over the run's limit", "on('turn_start', () => {\n  for (let i = 0; i < 64; i++) setvar('k' + i, 'y'.repeat(9000));\n});",
     "error", "characters of JSON", 2),
    ("lone surrogate in a text", "on('turn_start', () => {\n  narrate('\\ud800');\n});", "invalid", "surrogate", None),
    ("unknown UI block", "on('turn_start', () => {\n  emitUI([{kind: 'marquee', text: 'hi'}]);\n});", "invalid", "marquee", 2),
    ("meter with max below min", "on('turn_start', () => {\n  emitUI([{kind: 'meter', label: 'X', value: 1, min: 5, max: 1}]);\n});",
     "invalid", "max (1) must be above min (5)", 2),
    ("inject outside turn_start", "on('reply_ready', () => { inject('late'); }); on('turn_start', () => { rewriteReply('early'); });",
     "error", "rewriteReply() has no effect in a turn_start handler", 1),
    ("effect at the top of the script", "\nnarrate('hello');", "error", "inside an on(...) handler", 2),
    ("on() inside a handler", "on('turn_start', () => {\n  on('reply_ready', () => {});\n});", "error", "top of the script", 2),
    ("never-settling handler", "on('turn_start', async () => { await new Promise(() => {}); });", "error", "never finished", None),
    ("rejected handler", "on('turn_start', async () => {\n  await null;\n  throw new RangeError('later');\n});", "error",
     "RangeError: later", 3),
    ("escape to the global and look for host I/O",
     "on('turn_start', () => {\n  const g = (() => {}).constructor.constructor('return this')();\n  g.std.loadFile('/etc/passwd');\n});",
     "error", "TypeError", 3),
    ("require is not there", "on('turn_start', () => {\n  require('fs');\n});", "error", "ReferenceError", 2),
    ("path through __proto__", "on('turn_start', () => {\n  setvar('__proto__.polluted', 1);\n});", "error", "not allowed", 2),
    ("variable path through constructor", "on('turn_start', () => {\n  setvar(['constructor', 'prototype', 'x'], 1);\n});",
     "error", "not allowed", 2),
    ("incvar on text", "on('turn_start', () => {\n  incvar('name');\n});", "error", "not a number", 2),
]


@pytest.mark.parametrize(("name", "script", "kind", "words", "line"), CORPUS, ids=[c[0] for c in CORPUS])
def test_hostile_hook_is_contained(name: str, script: str, kind: str, words: str, line: int | None) -> None:
    run = hooks(script, state={"hp": 3, "name": "Wen"}, payload={})
    assert not run.ok, f"{name}: expected a failure"
    failure = run.failure
    assert failure.kind == kind, failure
    assert words in failure.message, failure
    assert len(failure.message) <= 501
    if line is not None:
        assert failure.line == line, failure
        assert str(failure).startswith(f"hooks.js:{line}:")
    assert run.error == failure.message
    assert_host_fine()


def test_a_failed_session_reports_the_same_failure_for_every_later_event_and_runs_nothing() -> None:
    run = run_hooks("on('turn_start', () => { throw new Error('first'); });\non('reply_ready', () => narrate('x'));",
                    [("turn_start", {}), ("reply_ready", {}), ("dice_rolled", {})], {}, seed=1, clock=0)
    first, second, third = run.events
    assert "first" in first.error and first.skipped is None
    assert second.failure is first.failure and second.skipped and second.effects == ()
    assert third.failure is first.failure


def test_events_before_a_failure_keep_their_effects() -> None:
    run = run_hooks("on('turn_start', () => incvar('n'));\non('reply_ready', () => { throw new Error('x'); });",
                    [("turn_start", {}), ("reply_ready", {})], {"n": 0}, seed=1, clock=0)
    assert run.events[0].ok and [e.kind for e in run.events[0].effects] == ["incvar"]
    assert not run.events[1].ok and run.events[1].effects == ()


def test_redefining_json_and_the_bridges_does_not_reach_the_read_back() -> None:
    script = """
    JSON.stringify = () => '[{"kind":"narrate","text":"forged"}]';
    JSON.parse = () => ({forged: true});
    on('turn_start', () => {
      narrate('real');
      globalThis.narrate = () => {};
      narrate('swallowed by the script itself');
      JSON = null;
      setvar('hp', 9);
    });
    """
    run = hooks(script)
    assert run.ok, run.failure
    assert [(e.kind, getattr(e, "text", None)) for e in run.effects] == [("narrate", "real"), ("setvar", None)]
    assert run.effects[1].value == 9


def test_prototype_tricks_cannot_forge_or_reshape_effects() -> None:
    script = """
    Object.defineProperty(Object.prototype, 'kind', {get() { return 'forged'; }, configurable: true});
    Array.prototype.push = () => { throw new Error('push ran'); };
    Array.prototype.join = () => 'joined';
    String.prototype.slice = () => 'sliced';
    String.prototype.indexOf = () => -1;
    RegExp.prototype.exec = () => null;
    Function.prototype.call = () => { throw new Error('call ran'); };
    Reflect.apply = () => { throw new Error('apply ran'); };
    Object.defineProperty = () => { throw new Error('defineProperty ran'); };
    Promise.prototype.then = () => { throw new Error('then ran'); };
    on('turn_start', () => {
      incvar('hp', 2);
      setvar('a.b', {deep: [1, 2]});
      emitUI([{kind: 'stat', label: 'HP', value: getvar('hp')}], {panel: 'sidebar'});
    });
    """
    run = hooks(script)
    assert run.ok, run.failure
    assert [e.kind for e in run.effects] == ["incvar", "setvar", "emitUI"]
    assert run.effects[1].path == ["a", "b"] and run.effects[1].value == {"deep": [1, 2]}
    assert run.effects[2].blocks[0].value == 5
    assert [e.line for e in run.effects] == [13, 14, 15]
    assert_host_fine()


def test_an_index_setter_on_array_prototype_fails_the_emission_and_forges_nothing() -> None:
    # QuickJS's JSON.stringify keeps its own work list in a JS array, so this reaches it: the
    # emission fails at the script's call and nothing of the event leaves
    run = hooks("Object.defineProperty(Array.prototype, '0', {set() { throw new Error('setter ran'); }});\n"
                "on('turn_start', () => {\n  narrate('a');\n  setvar('x', [1]);\n});")
    assert not run.ok and "setter ran" in run.error and run.events[0].effects == ()
    assert_host_fine()


def test_a_tojson_trick_fails_where_it_throws() -> None:
    run = hooks("Object.prototype.toJSON = function () {\n  throw new Error('toJSON ran');\n};\n"
                "on('turn_start', () => {\n  emitPanel('p/q', {a: 1});\n});")
    assert not run.ok and "toJSON ran" in run.error and run.failure.line == 2


def test_the_global_the_escape_reaches_is_the_sandbox_own_and_holds_no_host_capability() -> None:
    outcome = evaluate("""
    const g = (function () {}).constructor.constructor('return this')();
    const names = Object.getOwnPropertyNames(g);
    [g === globalThis, names.filter(n => /^(std|os|require|process|print|console|setTimeout|performance|WeakRef|
      FinalizationRegistry|Atomics|SharedArrayBuffer|fetch|XMLHttpRequest|__lw_sources)$/.test(n))]
    """.replace("\n      ", ""))
    assert outcome.ok, outcome.failure
    assert outcome.value == [True, []]


def test_the_host_function_is_unreachable_from_the_script() -> None:
    outcome = evaluate("Object.getOwnPropertyNames(globalThis).filter(n => /host|lw|sandbox/i.test(n))")
    assert outcome.ok and outcome.value == []


@pytest.mark.parametrize(("script", "words"), [
    ("(function () {})", "a function"),
    ("Symbol('s')", "a symbol"),
    ("10n", "bigint"),
    ("new Map([[1, 2]])", "a Map"),
    ("[NaN]", "NaN"),
    ("({a: Infinity})", "Infinity"),
    ("(() => { const a = []; a.push(a); return a; })()", "circular"),
    ("({get x() { throw new Error('getter'); }})", "getter"),
    ("Promise.reject(new Error('rejected'))", "rejected"),
    ("new Promise(() => {})", "never settles"),
])
def test_a_value_that_is_not_json_is_refused(script: str, words: str) -> None:
    outcome = evaluate(script)
    assert not outcome.ok and words in outcome.error, outcome.failure
    assert_host_fine()


def test_a_script_over_its_length_is_refused_before_it_runs() -> None:
    run = hooks("//" + "x" * 40_000)
    assert run.failure.kind == "limit" and "40002 characters" in run.error


def test_a_huge_string_in_the_state_or_payload_is_fine_under_the_memory_limit() -> None:
    big = "字" * 200_000
    run = run_hooks("on('turn_start', e => narrate(String(getvar('big').length + e.more.length)));",
                    [("turn_start", {"more": big})], {"big": big}, seed=1, clock=0)
    assert run.ok and run.effects[0].text == "400000"


def test_a_session_stays_on_its_thread() -> None:
    session = HookSession("on('turn_start', () => {});", seed=1, clock=0)
    errors: list[BaseException] = []

    def other() -> None:
        try:
            session.dispatch("turn_start")
        except RuntimeError as exc:
            errors.append(exc)

    thread = threading.Thread(target=other)
    thread.start()
    thread.join()
    assert errors and "thread" in str(errors[0])
    assert session.dispatch("turn_start").ok


def test_sessions_on_many_threads_at_once_are_independent() -> None:
    results: dict[int, object] = {}

    def work(n: int) -> None:
        results[n] = run_hooks("on('turn_start', e => setvar('n', e.n * 2));", [("turn_start", {"n": n})], {},
                               seed=n, clock=0)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert {n: results[n].effects[0].value for n in range(8)} == {n: n * 2 for n in range(8)}


def test_a_plan_cannot_reach_state_tools_or_lodash() -> None:
    result = run_plan("plan('note', {seen: [typeof getvar, typeof _, typeof setvar, typeof emitUI, typeof on]});")
    assert result.ok and result.ops[0].args == {"seen": ["undefined"] * 5}


def test_limits_refuse_a_stack_check_that_would_be_switched_off() -> None:
    with pytest.raises(ValueError, match="switch the check off"):
        Limits(stack_bytes=0)


def test_the_default_hook_limits_survive_a_realistic_hook() -> None:
    run = run_hooks("on('turn_start', () => { const xs = _.range(20000); setvar('s', _.sum(_.map(xs, x => x % 7))); });",
                    [("turn_start", {})], {}, seed=1, clock=0, limits=HOOK_LIMITS)
    assert run.ok and run.effects[0].value == sum(x % 7 for x in range(20000))


def test_a_crash_in_a_child_process_would_show_here() -> None:
    """The whole corpus once more in a fresh interpreter: exit code 0 proves no case took the
    process down (a segfault would be a negative return code)."""
    code = textwrap.dedent("""
        import sys
        sys.path[:0] = %r
        from tests.sandbox.test_containment import CORPUS, hooks
        for name, script, kind, words, line in CORPUS:
            run = hooks(script, state={"hp": 3, "name": "Wen"})
            assert run.failure.kind == kind, (name, run.failure)
        print("survived", len(CORPUS))
    """) % [os.getcwd()]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=os.getcwd())
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == f"survived {len(CORPUS)}"


@pytest.mark.parametrize(("within", "beyond", "kind"), [
    ("'x'.repeat(3e6).length", "'x'.repeat(9e6).length", "memory"),
    ("(function f(n) { return n ? f(n - 1) + 1 : 0; })(40)", "(function f(n) { return n ? f(n - 1) + 1 : 0; })(1000)", "stack"),
    ("(function () { let s = 0; for (let i = 0; i < 1e5; i++) s += i; return s; })()", "(function () { for (;;) {} })()",
     "timeout"),
])
def test_limits_at_their_edges(within: str, beyond: str, kind: str) -> None:
    """8 MiB, 128 KiB of stack (about 75 frames) and 0.2 s of CPU: what fits runs, what does not fails."""
    fits = evaluate(within, limits=SMALL)
    assert fits.ok, fits.failure
    fails = evaluate(beyond, limits=SMALL)
    assert not fails.ok and fails.failure.kind == kind, fails.failure
    assert_host_fine()
