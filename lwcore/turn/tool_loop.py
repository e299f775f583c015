"""The tool loop: a model's tool calls run and answered until it narrates.

:func:`run_tool_loop` reads each reply through the turn's
:class:`~lwcore.turn.provider.Provider`, runs its tool calls (one function given by the
caller: :func:`lwcore.turn.calls.execute_call` in a turn), and asks again with the results,
until a reply without tool calls. At most ``max_steps`` requests are made in all; when the
model is still calling tools as the last of them comes up, that last request is made with
tool use switched off (:meth:`~lwcore.turn.provider.Provider.final`), so the turn always ends
on the model's narration -- and a keeper-only ``loop`` note says the limit was reached. A call
the tools-off reply still makes is not run (noted for the keeper too).

Nothing here writes the room: the caller applies the outcome (:mod:`lwcore.turn.apply`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from lwcore.provider_adapter import ToolCall, ToolResult
from lwcore.turn.events import Event, KeeperNote
from lwcore.turn.provider import Provider, ProviderRequest, Respond


@dataclass
class LoopOutcome:
    """What a tool loop ended with: the last reply's ``text`` (the narration), every tool
    result in order and the same results in the protocol's tool-result shape, the number of
    requests made (``steps``) and the keeper notes about the loop itself."""

    text: str
    results: list[ToolResult] = field(default_factory=list)
    tool_messages: list[dict[str, Any]] = field(default_factory=list)
    steps: int = 1
    notes: list[Event] = field(default_factory=list)


def run_tool_loop(
    provider: Provider, first: ProviderRequest, reply: Mapping[str, Any], *, respond: Respond,
    run: Callable[[ToolCall], ToolResult], max_steps: int,
) -> LoopOutcome:
    """Run the loop from ``reply`` (the answer to ``first``), asking ``respond`` for every
    later reply and ``run`` for every tool call (see the module docstring)."""
    limit = max(1, max_steps)
    outcome = LoopOutcome("")
    steps: list[tuple[Mapping[str, Any], list[ToolResult]]] = []
    request: Mapping[str, Any] = first.body
    step = 1
    while True:
        parsed = provider.parse(reply)
        outcome.text, outcome.steps = parsed.text, step
        last = step == limit
        if not parsed.tool_calls:
            break
        if last and step > 1:  # the tools-off reply: what it still calls is not run
            outcome.notes.append(KeeperNote(kind="loop", summary=(
                f"tool loop: the last reply still called {', '.join(c.name for c in parsed.tool_calls)}; not run")))
            break
        results = [run(call) for call in parsed.tool_calls]
        outcome.results += results
        outcome.tool_messages += provider.result_messages(results)
        steps.append((reply, results))
        if last:  # one request allowed: nothing can be asked after it
            break
        step += 1
        request = provider.final(first, steps) if step == limit else provider.continued(request, reply, results)
        reply = respond(request)
    if step == limit and steps:
        outcome.notes.insert(0, KeeperNote(kind="loop", summary=(
            f"tool loop stopped after {limit} steps" + ("; the last request was made without tools" if limit > 1 else ""))))
    return outcome
