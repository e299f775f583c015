"""Same seed and clock, same effects, on any host; nothing reads the host's time or randomness."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from datetime import datetime, timezone

import pytest

from lwcore.sandbox import evaluate, run_hooks, run_plan

SCRIPT = """
on('turn_start', () => {
  setvar('roll', _.random(1, 100));
  setvar('pick', _.sample(['north', 'south', 'east', 'west']));
  setvar('order', _.shuffle([1, 2, 3, 4, 5, 6]));
  setvar('raw', Math.random());
  setvar('now', [Date.now(), new Date().toISOString(), Date()]);
});
"""


def effects(seed: int | str, clock: datetime | int = 0) -> list[tuple[str, object]]:
    run = run_hooks(SCRIPT, [("turn_start", {})], {}, seed=seed, clock=clock)
    assert run.ok, run.failure
    return [(e.path[0], e.value) for e in run.effects]


def test_the_same_seed_gives_the_same_effects() -> None:
    assert effects(7) == effects(7)
    assert effects("turn-12") == effects("turn-12")


def test_different_seeds_give_different_random_values() -> None:
    rolls = {json.dumps(effects(seed)[:4]) for seed in range(20)}
    assert len(rolls) == 20
    assert effects(1) != effects("1")


def test_the_clock_is_the_callers_and_local_time_is_utc() -> None:
    clock = datetime(1925, 3, 4, 21, 30)
    now = dict(effects(1, clock))["now"]
    assert now == [-1414636200000, "1925-03-04T21:30:00.000Z", "Wed Mar 04 1925 21:30:00 GMT+0000"]
    assert dict(effects(1, datetime(1925, 3, 4, 21, 30, tzinfo=timezone.utc)))["now"] == now


def test_math_random_is_seeded_and_in_range() -> None:
    values = evaluate("Array.from({length: 1000}, () => Math.random())", seed=3).value
    assert values == evaluate("Array.from({length: 1000}, () => Math.random())", seed=3).value
    assert all(0 <= v < 1 for v in values) and len(set(values)) == 1000
    assert 0.45 < sum(values) / 1000 < 0.55


def test_no_host_clock_or_counter_is_reachable() -> None:
    outcome = evaluate("[typeof performance, typeof WeakRef, typeof FinalizationRegistry, typeof Atomics, "
                       "typeof SharedArrayBuffer, Date.now(), new Date().getTime(), +new Date(), Date.now() === Date.now()]",
                       clock=5)
    assert outcome.value == ["undefined"] * 5 + [5, 5, 5, True]


DATE_PROBE = """[
  new Date(0).getHours(), new Date(0).getTimezoneOffset(), new Date(0).toString(), new Date(0).toLocaleString(),
  new Date(2024, 0, 1).getTime(), new Date(2024, 0, 1, 10, 30).toTimeString(), Date.parse('2024-01-01T10:00'),
  Date.parse('2024-01-01'), Date.parse('Jan 1 2024 10:00'), Date.parse('2024-01-01T10:00+08:00'),
  Date.parse('Jan 1 2024 10:00 GMT+0800'), new Date('2024-06-01 12:00').getHours(), new Date(NaN).toString(),
  (() => { const d = new Date(0); d.setHours(5); return d.toISOString(); })(), new Date(0).getYear(),
  new Date(Date.UTC(-50, 0, 1)).toDateString(), new Date(1e12).toLocaleDateString(), new Date(1e12).toLocaleTimeString()
]"""
EXPECTED = [
    0, 0, "Thu Jan 01 1970 00:00:00 GMT+0000", "01/01/1970, 12:00:00 AM", 1704067200000, "10:30:00 GMT+0000",
    1704103200000, 1704067200000, 1704103200000, 1704074400000, 1704074400000, 12, "Invalid Date",
    "1970-01-01T05:00:00.000Z", 70, "Sun Jan 01 -0050", "09/09/2001", "01:46:40 AM",
]


def test_dates_read_the_same_here() -> None:
    assert evaluate(DATE_PROBE).value == EXPECTED


@pytest.mark.parametrize("zone", ["Asia/Shanghai", "America/New_York", "Pacific/Chatham"])
def test_dates_read_the_same_under_any_host_time_zone(zone: str) -> None:
    code = textwrap.dedent(f"""
        import json, sys
        sys.path[:0] = {[os.getcwd()]!r}
        from lwcore.sandbox import evaluate
        from tests.sandbox.test_determinism import DATE_PROBE, SCRIPT
        from lwcore.sandbox import run_hooks
        run = run_hooks(SCRIPT, [("turn_start", {{}})], {{}}, seed=9, clock=1_700_000_000_000)
        print(json.dumps([evaluate(DATE_PROBE).value, [e.value for e in run.effects]]))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "TZ": zone}, cwd=os.getcwd())
    assert done.returncode == 0, done.stderr[-2000:]
    dates, values = json.loads(done.stdout)
    assert dates == EXPECTED
    here = run_hooks(SCRIPT, [("turn_start", {})], {}, seed=9, clock=1_700_000_000_000)
    assert values == [e.value for e in here.effects]


def test_a_plan_previews_exactly_what_applying_runs() -> None:
    script = "for (const n of _names()) plan('add_npc', {name: n, mood: Math.random() < 0.5 ? 'calm' : 'wary'});\n" \
             "function _names() { return ['a', 'b', 'c', 'd', 'e', 'f']; }"
    assert run_plan(script, seed="pack/prep/setup.js") == run_plan(script, seed="pack/prep/setup.js")


@pytest.mark.parametrize("clock", [float("nan"), 9e15, True, "2024-01-01"])
def test_a_clock_a_js_date_cannot_hold_is_refused(clock: object) -> None:
    with pytest.raises((TypeError, ValueError)):
        evaluate("1", clock=clock)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [1.5, None, True, b"x"])
def test_a_seed_must_be_an_int_or_a_str(seed: object) -> None:
    with pytest.raises(TypeError, match="seed"):
        evaluate("1", seed=seed)  # type: ignore[arg-type]
