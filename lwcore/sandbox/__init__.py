"""The JavaScript sandbox: QuickJS runs that are pure — JSON in, effects or a value out.

A kernel service: a plugin reaches it only through ``ctx.sandbox()``, which needs
``"sandbox:js"`` in the plugin's manifest. Every run gets a fresh QuickJS context with a
memory, CPU-time and stack limit, no host I/O, a seeded ``Math.random`` and a fixed clock; its
failures come back as data (:class:`Failure`, located in the script) and never crash or hang
the host. The contract, limits and figures: ``lwcore/sandbox/README.md``.

- :func:`run_hooks` / :class:`HookSession`: ``hooks.js`` handlers on the turn's events.
- :func:`run_plan` / :func:`check_plan`: prep scripts that plan tool calls.
- :func:`resolve`: rule scripts that return a verdict or effects of a closed vocabulary.
- :func:`evaluate`: a script's completion value (templates).
- :class:`RegexTester`: regular expressions from content, with JavaScript's semantics and a
  time bound per test.
- :class:`Budget`: one CPU budget for all of a turn's runs (``Budget(...).active()``).

Importing this package is cheap: the binding loads on the first run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lwcore import lazy_exports

_LAZY = {
    "Limits": "lwcore.sandbox.runtime",
    "Failure": "lwcore.sandbox.runtime",
    "HookSession": "lwcore.sandbox.hooks",
    "HookRun": "lwcore.sandbox.hooks",
    "EventResult": "lwcore.sandbox.hooks",
    "run_hooks": "lwcore.sandbox.hooks",
    "EVENTS": "lwcore.sandbox.hooks",
    "HOOK_LIMITS": "lwcore.sandbox.hooks",
    "run_plan": "lwcore.sandbox.plans",
    "check_plan": "lwcore.sandbox.plans",
    "PlanOp": "lwcore.sandbox.plans",
    "PlanResult": "lwcore.sandbox.plans",
    "ToolGate": "lwcore.sandbox.plans",
    "PLAN_LIMITS": "lwcore.sandbox.plans",
    "evaluate": "lwcore.sandbox.outcomes",
    "resolve": "lwcore.sandbox.outcomes",
    "Outcome": "lwcore.sandbox.outcomes",
    "Verdict": "lwcore.sandbox.outcomes",
    "TEMPLATE_LIMITS": "lwcore.sandbox.outcomes",
    "RULE_LIMITS": "lwcore.sandbox.outcomes",
    "Budget": "lwcore.sandbox.budget",
    "TURN_BUDGET_S": "lwcore.sandbox.budget",
    "RegexTester": "lwcore.sandbox.regex",
    "RegexFailed": "lwcore.sandbox.regex",
    "REGEX_LIMITS": "lwcore.sandbox.regex",
}

__all__ = list(_LAZY)

if TYPE_CHECKING:
    from lwcore.sandbox.budget import TURN_BUDGET_S, Budget
    from lwcore.sandbox.hooks import EVENTS, HOOK_LIMITS, EventResult, HookRun, HookSession, run_hooks
    from lwcore.sandbox.outcomes import RULE_LIMITS, TEMPLATE_LIMITS, Outcome, Verdict, evaluate, resolve
    from lwcore.sandbox.plans import PLAN_LIMITS, PlanOp, PlanResult, ToolGate, check_plan, run_plan
    from lwcore.sandbox.regex import REGEX_LIMITS, RegexFailed, RegexTester
    from lwcore.sandbox.runtime import Failure, Limits

__getattr__ = lazy_exports(__name__, _LAZY)
