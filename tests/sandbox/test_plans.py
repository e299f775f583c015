"""Prep scripts: plan() is the only callable; limits at their edges; the engine's gate seam."""

from __future__ import annotations

import json

from lwcore.sandbox import PLAN_LIMITS, PlanOp, check_plan, run_plan

SETUP = """// prep/setup.js
const guards = ["门房老周", "巡夜的李七", "更夫赵三"];
for (const name of guards) {
  plan("add_npc", { name: name, concept: "夜里见过五层的人" });
}
plan("define_variable", { var_id: "floor_seen", kind: "number", minimum: 0, maximum: 3 });
"""


def test_the_specs_example_plans_four_operations_in_order_with_their_lines() -> None:
    result = run_plan(SETUP, script="fog/prep/setup.js")
    assert result.ok, result.failure
    assert [(op.tool, op.line) for op in result.ops] == [("add_npc", 4)] * 3 + [("define_variable", 6)]
    assert result.ops[1].args == {"name": "巡夜的李七", "concept": "夜里见过五层的人"}
    assert result.ops[3].args["maximum"] == 3


def test_lines_hold_whatever_the_script_does_to_error_stacks_and_its_settings_are_put_back() -> None:
    # the emitters read the caller's line from call sites; a script's own prepareStackTrace
    # (here one that lies) and stackTraceLimit must neither fool that nor be lost
    script = """Error.prepareStackTrace = () => "at <input>:99:1"; Error.stackTraceLimit = 0;
[1, 2].forEach(i => plan('x', {i}));
Reflect.apply(plan, null, ['y', {}]);
const kept = [Error.stackTraceLimit, new Error().stack];
plan('z', {kept});
"""
    result = run_plan(script)
    assert result.ok, result.failure
    assert [(op.tool, op.line) for op in result.ops] == [("x", 2), ("x", 2), ("y", 3), ("z", 5)]
    assert result.ops[3].args == {"kept": [0, "at <input>:99:1"]}


def test_a_plan_without_operations_is_fine() -> None:
    result = run_plan("// nothing to do\n")
    assert result.ok and result.ops == ()


def test_the_script_length_limit_at_its_edge() -> None:
    body = "plan('x', {});"
    exactly = body + " " * (20_000 - len(body))
    assert run_plan(exactly).ok
    over = run_plan(exactly + " ")
    assert not over.ok and over.failure.kind == "limit" and "20001 characters" in over.error


def test_the_operation_count_at_its_edge() -> None:
    assert len(run_plan("for (let i = 0; i < 200; i++) plan('x', {i});").ops) == 200
    over = run_plan("for (let i = 0; i < 201; i++) {\n  plan('x', {i});\n}")
    assert not over.ok and "more than 200 plan" in over.error and over.failure.line == 2 and over.ops == ()


def test_the_argument_size_at_its_edge() -> None:
    # {"s":"…"} is 8 bytes of JSON around the text
    fits = run_plan(f"plan('x', {{s: 'y'.repeat({8 * 1024 - 8})}});")
    assert fits.ok and len(json.dumps(fits.ops[0].args, separators=(",", ":"))) == 8 * 1024
    over = run_plan(f"\nplan('x', {{s: 'y'.repeat({8 * 1024 - 7})}});")
    assert not over.ok and "8193 bytes" in over.error and over.failure.line == 2


def test_cpu_is_limited_to_one_second() -> None:
    assert PLAN_LIMITS.time_s == 1.0
    result = run_plan("plan('a', {});\nwhile (true) {}")
    assert not result.ok and result.failure.kind == "timeout" and "1 s of CPU" in result.error


def test_bad_calls_to_plan_are_located() -> None:
    for call, words in [("plan(5, {})", "tool must be a string"), ("plan('x', [1])", "args must be an object"),
                        ("plan('x', 'a=1')", "args must be an object"), ("plan('bad tool', {})", "tool"),
                        ("plan('x', {n: NaN})", "NaN")]:
        result = run_plan(f"\n\n{call};")
        assert not result.ok and words in result.error and result.failure.line == 3, (call, result.failure)


def test_plan_is_the_only_thing_exposed() -> None:
    result = run_plan("plan('seen', {names: ['getvar', 'setvar', 'emitUI', 'on', '_', 'input', 'log']"
                      ".filter(n => typeof globalThis[n] !== 'undefined')});")
    assert result.ops[0].args == {"names": []}


def test_the_gate_runs_over_every_operation_before_any_runs() -> None:
    seen: list[str] = []

    def gate(op: PlanOp) -> str | None:
        seen.append(op.tool)
        return "no such tool in this room" if op.tool == "launch_rocket" else None

    planned = run_plan("plan('add_npc', {name: 'a'});\nplan('launch_rocket', {});\nplan('add_npc', {name: 'b'});")
    checked = check_plan(planned, gate)
    assert seen == ["add_npc", "launch_rocket"]
    assert not checked.ok and checked.failure.kind == "refused" and checked.failure.line == 2
    assert "operation 2 plan('launch_rocket', …): no such tool in this room; nothing was run" == checked.error
    assert checked.ops == planned.ops

    assert check_plan(planned, lambda op: None) is planned


def test_a_failed_plan_is_not_checked() -> None:
    failed = run_plan("throw new Error('bad')")
    assert check_plan(failed, lambda op: "never asked") is failed
