"""One CPU budget for all of a turn's sandbox runs (``lwcore.sandbox.budget``).

The clock is injected: a :class:`Ticks` clock advances by a fixed step each time it is read,
so a budget runs out after a known number of runs without anything being slow. The tests
that need a real interrupt use a real loop and a small budget (tenths of a second).
"""

from __future__ import annotations

import threading

import pytest

from lwcore.sandbox import Budget, HookSession, evaluate, resolve, run_hooks, run_plan
from lwcore.sandbox.budget import current, ensure


class Ticks:
    """A clock that moves ``step`` seconds every time it is read."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 0.0
        self.reads = 0

    def __call__(self) -> float:
        self.now += self.step
        self.reads += 1
        return self.now


def until_refused(run, limit: int = 200) -> list:
    """Outcomes of ``run()`` up to and including the first that fails."""
    out = []
    for _ in range(limit):
        out.append(run())
        if not out[-1].ok:
            return out
    raise AssertionError(f"no failure in {limit} runs")


def test_every_run_is_charged_and_a_spent_budget_refuses_the_next_at_once() -> None:
    clock = Ticks(0.01)  # each call into a context is charged 0.01 s (a run makes a few)
    budget = Budget(1.0, clock=clock)
    outcomes = until_refused(lambda: evaluate("1 + 1", budget=budget))
    assert len(outcomes) > 5 and all(o.ok and o.value == 2 for o in outcomes[:-1])
    assert outcomes[-1].failure.kind == "budget" and "1 s of script time is spent" in outcomes[-1].error
    assert budget.spent and budget.refused >= 1 and budget.used <= 1.0 + 0.01
    reads = clock.reads
    assert evaluate("1 + 1", budget=budget).failure.kind == "budget"
    assert clock.reads == reads  # refused before a context was even made


def test_the_active_budget_is_charged_without_being_passed() -> None:
    budget = Budget(0.5, clock=Ticks(0.01))
    with budget.active():
        assert current() is budget
        results = until_refused(lambda: run_hooks("on('turn_start', () => {});", [("turn_start", {})], seed=1, clock=0))
    assert current() is None
    assert len(results) > 2 and results[0].ok and results[-1].failure.kind == "budget"
    assert run_hooks("on('turn_start', () => {});", [("turn_start", {})], seed=1, clock=0).ok  # outside: no budget


def test_ensure_shares_the_outer_budget_and_makes_one_otherwise() -> None:
    with ensure() as outer:
        with ensure() as inner:
            assert inner is outer
    with ensure(1.5) as alone:
        assert alone.seconds == 1.5 and current() is alone


def test_a_looping_script_stops_at_what_is_left_of_the_budget_not_at_its_own_limit() -> None:
    budget = Budget(0.3)
    session = HookSession("on('turn_start', () => { for (;;) {} });", seed=1, clock=0, budget=budget)
    result = session.dispatch("turn_start")
    assert result.failure.kind == "timeout"  # 0.25 s, its own limit, came first
    spinning = evaluate("for (;;) {}", budget=budget)  # 0.5 s limit; ≈ 0.05 s of budget left
    assert spinning.failure.kind == "budget" and budget.spent
    assert budget.used <= 0.3 + 0.05


def test_the_turn_budget_bounds_many_looping_scripts_together() -> None:
    budget = Budget(0.4)
    with budget.active():
        runs = [evaluate("for (;;) {}") for _ in range(10)]  # ten times 0.5 s alone
        rules = resolve("function resolve(c) { for (;;) {} }", faces=[1], targets={})
        plan = run_plan("for (;;) {}")
    kinds = [r.failure.kind for r in runs]
    assert kinds[0] == "budget" and set(kinds) == {"budget"}
    assert rules.failure.kind == "budget" and plan.failure.kind == "budget"
    assert budget.used < 0.4 + 0.1  # within the budget (one clock reading of slack)


def test_budgets_on_two_threads_are_their_own() -> None:
    seen: dict[str, object] = {}

    def worker(name: str, seconds: float) -> None:
        with Budget(seconds).active() as budget:
            seen[name] = (current() is budget, evaluate("1 + 1").ok)

    threads = [threading.Thread(target=worker, args=(n, s)) for n, s in (("a", 1.0), ("b", 2.0))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert seen == {"a": (True, True), "b": (True, True)}
    assert current() is None


@pytest.mark.parametrize("seconds", [0, -1, 601])
def test_a_budget_is_positive_and_bounded(seconds: float) -> None:
    with pytest.raises(ValueError):
        Budget(seconds)
