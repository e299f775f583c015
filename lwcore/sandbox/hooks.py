"""Event hooks (``hooks.js``): handlers on the turn's lifecycle, run pure in the sandbox.

A hook script registers handlers at its top level::

    on("turn_start", (event) => {
      incvar("tide_sense", 1);                 // asks the engine to add 1; it clamps and keeps it
      emitUI([{kind: "meter", label: "Tide sense", value: getvar("tide_sense"), min: 0, max: 40}],
             {panel: "sidebar", id: "tide"});
    });

One :class:`HookSession` is one script for one turn: a fresh context, the script loaded once,
then each event the turn fires dispatched to it in order. Its ``globalThis`` lives exactly that
long: a counter kept in a JS global reads the same every turn, silently; anything that must
outlive the turn goes through ``setvar``/``incvar``, whose effects the engine applies and
passes back in as ``state`` next turn. Each script of a room gets its own session, so one
script's failure never touches another's.

Events: ``turn_start`` (before the keeper's prompt is built: ``inject`` only works here),
``reply_ready`` (the reply is known: ``rewriteReply`` only works here), ``dice_rolled`` and
``variables_changed`` (fired at most once per session: a second dispatch is skipped, so writes
made in response cannot cascade). The payload of each event is whatever JSON the engine
passes; each handler gets its own copy.

Failure semantics: the first failure (at load or in any event: a throw, a syntax error, a
timeout, memory, stack, a bad effect) is that event's ``failure``; the session is then
disabled and every later event reports the same failure without running (the engine logs it
once: "hook disabled"). Effects of events that completed before stay valid. An event's effects
are all-or-nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from lwcore.sandbox.budget import Budget
from lwcore.sandbox.effects import CAPS, parse_effects
from lwcore.sandbox.runtime import (
    Failure,
    Limits,
    Mode,
    Result,
    Sandbox,
    SandboxFailed,
    check_source,
    read_json,
    texts,
    to_json,
)

EVENTS = ("turn_start", "reply_ready", "dice_rolled", "variables_changed")
ONCE = frozenset({"variables_changed"})
ONLY = {"inject": ("turn_start",), "rewriteReply": ("reply_ready",)}
"""Effects that mean something in one event only; emitting them elsewhere fails at the call."""

EFFECT_KINDS = ("setvar", "incvar", "inject", "narrate", "rewriteReply", "log", "emitUI", "emitPanel")
HOOK_LIMITS = Limits(memory_bytes=32 * 1024 * 1024, time_s=0.25, stack_bytes=256 * 1024,
                     output_chars=1_000_000, source_chars=40_000)
MODE = Mode(
    globals=("on", "getvar", "setvar", "incvar", "decvar", "variables", "stat_data", "inject", "narrate",
             "rewriteReply", "log", "emitUI", "emitPanel", "_"),
    caps={k: v for k, v in CAPS.items() if k != "plan"}, events=EVENTS, only=ONLY, armed=False,
)


@dataclass(frozen=True)
class EventResult(Result):
    """What one event asked for. ``skipped`` says why it did not run (``variables_changed``
    a second time, or the session disabled by an earlier failure, then ``failure`` is set)."""

    event: str
    effects: tuple[Any, ...] = ()
    failure: Failure | None = None
    skipped: str | None = None


@dataclass(frozen=True)
class HookRun(Result):
    """A whole :func:`run_hooks`: the load's failure (if any), the script's warnings, one
    result per event given."""

    load_failure: Failure | None
    warnings: tuple[str, ...]
    events: tuple[EventResult, ...]

    @property
    def failure(self) -> Failure | None:
        return self.load_failure or next((e.failure for e in self.events if e.failure), None)

    @property
    def effects(self) -> tuple[Any, ...]:
        return tuple(effect for event in self.events for effect in event.effects)


class HookSession:
    """One hook script for one turn. Use it on one thread; :meth:`close` (or ``with``) frees
    the context at once rather than at garbage collection.

    ``state`` is the variable tree the handlers see (``variables``, ``stat_data``, ``getvar``);
    a dispatch may pass a newer one (after the engine applied earlier effects), else the
    handlers see the previous view including their own writes.
    """

    def __init__(self, source: str, *, state: Mapping[str, Any] | None = None, seed: int | str,
                 clock: datetime | int | float, limits: Limits = HOOK_LIMITS, script: str = "hooks.js",
                 budget: Budget | None = None) -> None:
        state_json = to_json(dict(state or {}), "state")
        self.script = script
        self.failure: Failure | None = None
        self.warnings: tuple[str, ...] = ()
        self._fired: set[str] = set()
        self._sandbox: Sandbox | None = None
        try:
            check_source(source, limits, script)
            sandbox = Sandbox(MODE, limits=limits, seed=seed, clock=clock, script=script, budget=budget)
            self._sandbox = sandbox
            with sandbox.deadline():
                sandbox.call("state", state_json)
                sandbox.call("load", source)
                sandbox.drain()
                sandbox.call("collect")
                self.warnings = texts(read_json(sandbox.call("warnings") or "[]", "warnings", limits, script))
        except SandboxFailed as exc:
            self._disable(exc.failure)

    @property
    def ok(self) -> bool:
        return self.failure is None

    def dispatch(self, event: str, payload: Any = None, state: Mapping[str, Any] | None = None) -> EventResult:
        """Run ``event``'s handlers with ``payload`` (any JSON; ``None`` gives ``{}``)."""
        if event not in EVENTS:
            raise ValueError(f"unknown hook event {event!r} (expected one of {', '.join(EVENTS)})")
        payload_json = to_json({} if payload is None else payload, "the event payload")
        state_json = None if state is None else to_json(dict(state), "state")
        if self.failure is not None or self._sandbox is None:
            return EventResult(event, failure=self.failure, skipped="the hooks were disabled by an earlier failure")
        if event in ONCE and event in self._fired:
            return EventResult(event, skipped=f"{event} fires at most once per turn")
        self._fired.add(event)
        sandbox = self._sandbox
        try:
            with sandbox.deadline():
                if state_json is not None:
                    sandbox.call("state", state_json)
                sandbox.call("dispatch", event, payload_json)
                sandbox.drain()
                raw = read_json(sandbox.call("collect") or "[]", "effects", sandbox.limits, self.script)
            return EventResult(event, parse_effects(raw, EFFECT_KINDS, self.script))
        except SandboxFailed as exc:
            self._disable(exc.failure)
            return EventResult(event, failure=exc.failure)

    def _disable(self, failure: Failure) -> None:
        self.failure = failure
        self._sandbox = None

    def close(self) -> None:
        """Free the context; later dispatches report the session as closed."""
        if self._sandbox is not None:
            self._sandbox = None
            if self.failure is None:
                self.failure = Failure("refused", "the hook session was closed", script=self.script)

    def __enter__(self) -> HookSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def run_hooks(source: str, events: Iterable[tuple[str, Any]], state: Mapping[str, Any] | None = None, *,
              seed: int | str, clock: datetime | int | float, limits: Limits = HOOK_LIMITS,
              script: str = "hooks.js", budget: Budget | None = None) -> HookRun:
    """Load ``source`` once and dispatch ``events`` (``(name, payload)`` pairs) in order: one
    turn of one script. Writes of an event are visible to the next (the same session)."""
    with HookSession(source, state=state, seed=seed, clock=clock, limits=limits, script=script,
                     budget=budget) as session:
        load_failure = session.failure
        results = tuple(session.dispatch(name, payload) for name, payload in events)
        return HookRun(load_failure, session.warnings, results)
