"""The JS sandbox's cost per turn, against a bare QuickJS context measured in the same run.

    .venv/bin/python bench/sandbox.py

A "turn" is one :class:`lwcore.sandbox.HookSession` (a fresh context, the core, the script
loaded) dispatching four events (turn_start, dice_rolled, variables_changed, reply_ready) and
reading back and validating their effects: everything a turn pays. Goals: < 5 ms a turn and
<= 10x a bare context (``_quickjs.Context()`` created and freed).

QuickJS compiles source at a fixed rate and the binding has no bytecode API (``eval`` takes
one argument, nothing to load compiled code with), so a run costs what it compiles. The core is
compiled always; every other part (effects, variables, Date, each group of ``_``) the first
time a script touches it. The scenarios below show what each use costs; the breakdown shows
the parts. Then a prep plan of 200 operations in the sandbox alone, and the engine side of C.3:
``run_prep_plan`` applying a 200-operation plan (planned in the sandbox, every operation checked
against the room, then run through the tool path) against the same 200 calls made directly --
once at the tool level (``execute_call`` each) and once as whole turns (a recorded reply with
200 tool calls, against one with a single ``run_prep_plan`` call; both saved). Goal: <= 1.5x.

The per-turn script budget (``lwcore.sandbox.budget``) is measured on the ordinary hook turn: the
same turn with a budget active (each call charged and armed with what is left of it) against
the same turn without one, both in this run.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import _quickjs  # noqa: E402

from lwcore.sandbox import Budget, HookSession, run_plan  # noqa: E402
from lwcore.sandbox.runtime import Limits, Mode, Sandbox, _one_line, core_source  # noqa: E402

EVENTS = [("turn_start", {"user_message": "我去码头查看那艘空船。"}), ("dice_rolled", {"rolls": [{"tool": "check", "result": 42}]}),
          ("variables_changed", {"writes": [{"path": "fear", "op": "add"}]}), ("reply_ready", {"reply": "The pier is empty."})]
STATE = {"fear": 3, "day": 46, "角色": {"顾晚棠": {"好感度": 40, "阶段": "初识"}}, "inventory": [{"name": "lamp", "n": 1}]}

SCRIPTS = {
    "handlers only (no effects)": """
        on('turn_start', e => {}); on('dice_rolled', e => {}); on('variables_changed', e => {}); on('reply_ready', e => {});
    """,
    "variables + effects, no _": """
        on('turn_start', e => { if (getvar('fear') >= 8) inject('The town is past reason.'); });
        on('dice_rolled', e => { incvar('fear', e.rolls.length);
          emitUI([{kind: 'meter', label: 'Fear', value: getvar('fear'), min: 0, max: 10}], {panel: 'sidebar', id: 'fear'}); });
        on('variables_changed', e => { setvar('角色.顾晚棠.阶段', getvar('角色.顾晚棠.好感度') > 50 ? '熟悉' : '初识'); });
        on('reply_ready', e => narrate('— day ' + getvar('day')));
    """,
    "variables + effects + _ (get, clamp, random)": """
        on('turn_start', e => { if (_.get(variables, 'fear', 0) >= 8) inject('The town is past reason.'); });
        on('dice_rolled', e => { setvar('fear', _.clamp(getvar('fear') + _.random(1, 3), 0, 10));
          emitUI([{kind: 'meter', label: 'Fear', value: getvar('fear'), min: 0, max: 10}], {panel: 'sidebar', id: 'fear'}); });
        on('variables_changed', e => { setvar('角色.顾晚棠.阶段', _.get(stat_data, '角色.顾晚棠.好感度') > 50 ? '熟悉' : '初识'); });
        on('reply_ready', e => narrate('— day ' + getvar('day')));
    """,
    "every part of _ (all five groups, a chain)": """
        on('turn_start', e => { inject(_.chain(variables.inventory).filter(i => i.n > 0).map('name').sortBy().value().join(', ')); });
        on('dice_rolled', e => { setvar('fear', _.clamp(getvar('fear') + _.sum(_.map(e.rolls, 'result')) % 3, 0, 10)); });
        on('variables_changed', e => { setvar('snapshot', _.omit(_.cloneDeep(variables), 'inventory')); });
        on('reply_ready', e => { if (!_.isEqual(getvar('fear'), 3)) narrate(_.toString(_.keys(variables))); });
    """,
}


def best(fn: Callable[[], object], repeat: int = 7, seconds: float = 0.3) -> float:
    """Seconds per call: the best of ``repeat`` batches after a warm-up."""
    for _ in range(5):
        fn()
    n = 10
    while True:
        start = time.perf_counter()
        for _ in range(n):
            fn()
        elapsed = time.perf_counter() - start
        if elapsed > seconds / repeat:
            break
        n *= 2
    times = [elapsed]
    for _ in range(repeat - 1):
        start = time.perf_counter()
        for _ in range(n):
            fn()
        times.append(time.perf_counter() - start)
    return min(times) / n


def turn(script: str) -> Callable[[], object]:
    def run() -> object:
        with HookSession(script, state=STATE, seed=7, clock=0) as session:
            results = [session.dispatch(name, payload) for name, payload in EVENTS]
        assert all(r.ok for r in results), [r.failure for r in results]
        return results
    return run


def part(name: str) -> Callable[[], object]:
    """A context with the core, then part ``name`` compiled (forced through a global)."""
    touch = {"effects": "typeof log", "vars": "typeof getvar", "hooks": "typeof on", "date": "typeof Date",
             "lodash": "typeof _", "lodash/base": "_.isNil", "lodash/paths": "_.get", "lodash/objects": "_.isEqual",
             "lodash/collections": "_.map", "lodash/numbers": "_.clamp"}[name]
    mode = Mode(globals=("log", "getvar", "on", "_"))

    def run() -> object:
        sandbox = Sandbox(mode, limits=Limits(), seed=1, clock=0, script="bench")
        sandbox.call("load", touch)
        return sandbox
    return run


def main() -> None:
    bare = best(lambda: _quickjs.Context())
    print(f"bare QuickJS context (created and freed): {bare * 1e6:8.1f} µs   (baseline, 1.0x)")

    sample = " ".join(f"function f{i}(a, b) {{ var x = a + b * {i}; if (x > 10) {{ return x - 1; }} return [x, a].length; }}"
                      for i in range(100))
    compile_s = best(lambda: _quickjs.Context().eval(sample)) - bare
    rate = len(sample) / (compile_s * 1e6)
    print(f"QuickJS compile rate in this build: {rate:.1f} characters/µs ({len(sample)} chars in {compile_s * 1e6:.0f} µs)")

    print("\nOne turn: a fresh session, the script loaded, four events dispatched and their effects validated")
    figures = {}
    for label, script in SCRIPTS.items():
        seconds = best(turn(script))
        figures[label] = seconds
        print(f"  {label:46} {seconds * 1e3:6.2f} ms   {seconds / bare:5.1f}x bare")

    budgeted = turn_budget_cost(figures)

    print("\nWhere it goes (each part compiled on first use; the core always)")
    empty = best(lambda: Sandbox(Mode(globals=()), limits=Limits(), seed=1, clock=0, script="bench"))
    print(f"  {'core (' + str(len(core_source())) + ' chars) + context':46} {empty * 1e6:8.1f} µs   {empty / bare:5.1f}x bare")
    js = Path(__file__).resolve().parents[1] / "lwcore" / "sandbox" / "js"
    previous = {"lodash/base": "lodash", "lodash/paths": "lodash/base", "lodash/objects": "lodash/paths",
                "lodash/collections": "lodash/objects", "lodash/numbers": "lodash/base"}
    cost = {}
    for name in ("effects", "vars", "hooks", "date", "lodash", "lodash/base", "lodash/paths", "lodash/objects",
                 "lodash/collections", "lodash/numbers"):
        cost[name] = best(part(name))
        source = js / (("lodash/index" if name == "lodash" else name) + ".js")
        base = cost.get(previous.get(name, ""), empty)
        print(f"  + {name:20} {len(_one_line(source.read_text(encoding='utf-8'))):6} chars {(cost[name] - base) * 1e6:8.1f} µs")

    plan = "for (let i = 0; i < 200; i++) plan('add_npc', {name: 'guard ' + i, concept: '夜里见过五层的人', tags: ['night', 'floor-5']});"
    result = run_plan(plan)
    assert result.ok and len(result.ops) == 200
    planning = best(lambda: run_plan(plan))
    print(f"\nPrep plan of 200 operations, planned and validated: {planning * 1e3:.2f} ms "
          f"({planning / 200 * 1e6:.1f} µs an operation, {planning / bare:.1f}x bare)")

    prep_plans()
    libraries(bare)

    typical = figures["variables + effects + _ (get, clamp, random)"]
    print(f"\nGoals for a turn with four events and _: < 5 ms -> {'met' if typical < 5e-3 else 'NOT met'} "
          f"({typical * 1e3:.2f} ms); <= 10x bare -> {'met' if typical <= 10 * bare else 'NOT met'} ({typical / bare:.1f}x)")


def libraries(bare: float) -> None:
    """The tavern plugin's npm libraries in the sandbox (issue 26): what each costs to compile in a
    fresh context, and what a run pays -- a template on the EJS library (lodash only when it names
    ``_``), an MVU reply whose values need no library, one whose value needs mathjs -- against the
    plugin's own compiler for the same template, all in this run."""
    try:
        from lw_tavern import jsdeps
        from lw_tavern.ejs import full
        from lw_tavern.mvu.magvar import update_variables
        from lw_tavern.mvu.values import LIMITS, Reader
    except ImportError:
        print("\nThe tavern plugin's JavaScript libraries: the plugin is not installed (skipped)")
        return
    import lwcore.sandbox as sandbox

    if jsdeps.missing():
        print(f"\nThe tavern plugin's JavaScript libraries: not installed ({', '.join(jsdeps.missing())}; make setup)")
        return
    print("\nThe tavern plugin's JavaScript libraries (npm, run in the sandbox): compiling each in a fresh context")
    wrap = "(function (module, exports, define) {{ {} \n}})({{exports: {{}}}}, {{}}, undefined)"
    for name in ("ejs", "lodash", "json5", "jsonrepair", "mathjs"):
        source = jsdeps.source(name) or ""
        code = wrap.format(source)

        def load(code: str = code) -> object:
            context = _quickjs.Context()
            context.set_memory_limit(LIMITS.memory_bytes)
            context.set_max_stack_size(LIMITS.stack_bytes)
            return context.eval(code)
        seconds = best(load, repeat=3, seconds=0.6)
        print(f"  {name:12} {len(source):8,} chars   {seconds * 1e3:7.2f} ms   {seconds / bare:7.0f}x bare")
    template = "第<%= getvar('stat_data.世界.日') %>日<% if (variables.世界.日 > 2) { %>，夜深了<% } %>。"
    tree = {"世界": {"日": 3}, "角色": {"好感度": [30, "0-100"]}}
    own = best(lambda: full.render_full(template, sandbox, tree=tree, seed=1, clock=0, library=False), repeat=5)
    lib = best(lambda: full.render_full(template, sandbox, tree=tree, seed=1, clock=0), repeat=5)
    with_lodash = best(lambda: full.render_full("<%= _.get(variables, '世界.日') %>", sandbox, tree=tree, seed=1, clock=0),
                       repeat=5)
    print("\nA template entry rendered (one sandbox run)")
    print(f"  {'its own compiler (no library)':46} {own * 1e3:6.2f} ms   (baseline, 1.0x)")
    print(f"  {'the EJS library':46} {lib * 1e3:6.2f} ms   {lib / own:5.1f}x")
    print(f"  {'the EJS library, the template names _ (lodash)':46} {with_lodash * 1e3:6.2f} ms   {with_lodash / own:5.1f}x")
    reply = "<UpdateVariable>\n_.set('世界.日', 3, 4);//次日\n_.add('角色.好感度', 5);\n_.set('角色.心情', '平静');\n</UpdateVariable>"
    plain = best(lambda: update_variables(tree, reply, Reader(sandbox)), repeat=5)
    math_reply = "<UpdateVariable>\n_.set('世界.日', 3, log(10^3, 10) + 1);\n</UpdateVariable>"
    with_math = best(lambda: update_variables(tree, math_reply, Reader(sandbox)), repeat=3, seconds=1.0)
    print("\nAn MVU reply read and applied (three commands)")
    print(f"  {'values read without a library':46} {plain * 1e3:6.2f} ms   (baseline, 1.0x)")
    print(f"  {'a value only mathjs reads':46} {with_math * 1e3:6.2f} ms   {with_math / plain:5.0f}x")


def turn_budget_cost(figures: dict[str, float]) -> float:
    """The same ordinary hook turn run under a turn's script budget (every call charged, every
    call armed with what is left), against the figure without one measured just above."""
    label = "variables + effects + _ (get, clamp, random)"
    run = turn(SCRIPTS[label])

    def budgeted() -> object:
        with Budget().active():
            return run()

    without, with_budget = float("inf"), float("inf")
    for _ in range(3):  # interleaved, so a neighbour's load falls on both
        without = min(without, best(run))
        with_budget = min(with_budget, best(budgeted))
    print(f"  {'... the same under a turn budget':46} {with_budget * 1e3:6.2f} ms   "
          f"{with_budget / without:5.2f}x without ({(with_budget - without) * 1e6:+.0f} µs a turn)")
    return with_budget


PREP_SCRIPT = "for (let i = 0; i < 200; i++) plan('thread_note', {label: '线索 ' + i, notes: '夜里见过五层的人'});"
PREP_OPS = [("thread_note", {"label": f"线索 {i}", "notes": "夜里见过五层的人"}) for i in range(200)]


def timed(setup: Callable[[], object], run: Callable[[object], object], repeat: int = 15) -> float:
    """Seconds of ``run(setup())``, the best of ``repeat`` (setup untimed)."""
    times = []
    for _ in range(repeat):
        state = setup()
        start = time.perf_counter()
        run(state)
        times.append(time.perf_counter() - start)
    return min(times)


def prep_plans() -> None:
    """run_prep_plan against the same 200 calls made directly (see the module docstring)."""
    import random
    import shutil
    import tempfile

    from lwcore.kernel import Kernel
    from lwcore.provider_adapter import ToolCall
    from lwcore.turn.calls import execute_call
    from lwcore.turn.offers import visible_tools
    from lwcore.turn.pipeline import run_turn
    from lwcore.turn.prep import RunPrepPlanArgs, run_prep_plan
    from lwcore.turn.room import Room
    from lwcore.turn.tools import ToolContext

    work = Path(tempfile.mkdtemp(prefix="lw-bench-prep-"))
    source = work / "source"
    shutil.copytree(ROOT / "examples" / "fog-harbor", source, ignore=shutil.ignore_patterns("replies"))
    room_yaml = source / "room.yaml"
    room_yaml.write_text(room_yaml.read_text(encoding="utf-8").replace("locale: zh\nkeeper:", "locale: zh\nphase: prep\nkeeper:"),
                         encoding="utf-8")
    kernel = Kernel(data_dir=work / "data", env={})
    count = iter(range(10**6))

    def fresh() -> Path:
        target = work / f"room-{next(count)}"
        shutil.copytree(source, target)
        return target

    def context() -> ToolContext:
        room = Room.load(fresh(), kernel)
        return ToolContext(kernel=kernel, room=room, actor=room.file.keeper, keeper=True, locale="zh",
                           rng=random.Random(1))

    def direct(ctx: ToolContext) -> None:
        offered = [s.name for s in visible_tools(kernel, ctx.room, keeper=True)]
        for n, (tool, args) in enumerate(PREP_OPS):
            assert not execute_call(kernel, ToolCall(f"c{n}", tool, dict(args)), ctx, offered).is_error

    def planned(ctx: ToolContext) -> None:
        assert run_prep_plan(RunPrepPlanArgs(script=PREP_SCRIPT, apply=True), ctx)["count"] == 200

    def reply(calls: list[tuple[str, dict]]) -> dict:
        return {"content": [{"type": "tool_use", "id": f"t{i}", "name": n, "input": a} for i, (n, a) in enumerate(calls)]}

    many, one = reply(PREP_OPS), reply([("run_prep_plan", {"script": PREP_SCRIPT, "apply": True})])

    def turn_with(recorded: dict) -> Callable[[Path], object]:
        def run(room: Path) -> object:
            result = run_turn(kernel, room, "布置", actor="kp", provider="anthropic_messages", reply=recorded,
                              rng=random.Random(1))
            assert not any(r.is_error for r in result.applied.results)
            return result
        return run

    try:
        calls = timed(context, direct)
        plan = timed(context, planned)
        turn_calls = timed(fresh, turn_with(many), repeat=7)
        turn_plan = timed(fresh, turn_with(one), repeat=7)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("\nPrep plans, engine side: 200 thread_note operations")
    print(f"  tool level: 200 direct calls (execute_call)      {calls * 1e3:7.2f} ms   (baseline, 1.0x)")
    print(f"              run_prep_plan, apply                 {plan * 1e3:7.2f} ms   {plan / calls:4.2f}x "
          f"-> goal <= 1.5x {'met' if plan <= 1.5 * calls else 'NOT met'}")
    print(f"  whole turn: a reply with 200 tool calls, saved   {turn_calls * 1e3:7.2f} ms   (baseline, 1.0x)")
    print(f"              a reply with one run_prep_plan       {turn_plan * 1e3:7.2f} ms   {turn_plan / turn_calls:4.2f}x "
          f"-> goal <= 1.5x {'met' if turn_plan <= 1.5 * turn_calls else 'NOT met'}")


if __name__ == "__main__":
    main()
