"""The provider adapter protocol: what a turn asks of a provider plugin.

A plugin registers ``ProviderAdapter(protocol, adapter)`` through ``lw_provider_adapters``;
``adapter`` (or the object a lazy reference resolves to) implements
:class:`ProviderAdapterProtocol`. The kernel itself never knows a provider's wire shapes: it
hands the adapter neutral :class:`ToolOffer`/:class:`ToolResult` values and gets neutral
:class:`ToolCall`/:class:`ParsedReply` values back.

Contracts (every method must be pure except :meth:`ProviderAdapterProtocol.send`):

``request(payload, offers, *, model, max_tokens) -> dict``
    The HTTP request body for one call: the compiled ``payload`` (what the prompt compiler
    returned for this protocol; must not be mutated) plus the tool offers in the protocol's
    shape, the model name and the token limit. An empty ``offers`` list adds no tool key.
``tool_definitions(offers) -> list[dict]``
    The offers alone in the protocol's shape (used for display and cache figures).
``parse_reply(reply) -> ParsedReply``
    Read a reply body: the narration text and every tool call in order. Never raises for a
    malformed tool call: a call whose arguments are not a JSON object keeps them as the raw
    value (the pipeline turns that into a tool error). Raises ``LwError`` only when the body
    is not a reply of this protocol at all.
``continue_request(request, reply, results) -> dict``
    A new request body for the next step of the tool loop: ``request`` followed by the
    assistant turn of ``reply`` and the ``results`` in the protocol's tool-result shape.
``tool_result_messages(results) -> list[dict]``
    The ``results`` alone as the protocol's message(s).
``send(request, *, endpoint, api_key, timeout) -> dict``
    POST ``request`` as JSON to ``endpoint`` and return the decoded reply body. Raises
    ``LwError`` for HTTP errors, timeouts and non-JSON answers (the key never appears in
    the message).
``default_key_env``
    The environment variable the key is read from when the operator names none.
``recognizes(reply) -> bool`` (optional)
    Whether a reply body has this protocol's shape; lets a host (``lw turn --reply``) find
    the protocol of a recorded reply without being told.
``tools_off(request) -> dict`` (optional)
    ``request`` with tool use switched off, so the model answers in text: the tool loop's
    last request when the model is still calling tools (:mod:`lwcore.turn.tool_loop`). Without
    it the kernel rebuilds the conversation on a request made with no tools offered.

The kernel composes an adapter with its protocol's prompt compiler into one
:class:`lwcore.turn.provider.Provider`; the rest of a turn talks to that.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True, slots=True)
class ToolOffer:
    """A tool as offered to the model: name, description (one locale), JSON Schema of its args."""

    name: str
    description: str
    parameters: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One tool call read from a reply. ``arguments`` is a dict when well formed, else raw."""

    id: str
    name: str
    arguments: Any


@dataclass(frozen=True, slots=True)
class ToolResult:
    """The outcome of one call, returned to the model. ``content`` is JSON-serialisable."""

    call_id: str
    name: str
    content: Any
    is_error: bool = False


@dataclass(frozen=True, slots=True)
class ParsedReply:
    """A reply body read by an adapter: narration text, tool calls, and the stop reason."""

    text: str
    tool_calls: tuple[ToolCall, ...] = ()
    stop_reason: str | None = None
    raw: Mapping[str, Any] = field(default_factory=dict)


@runtime_checkable
class ProviderAdapterProtocol(Protocol):
    """See the module docstring for each method's contract."""

    protocol: str
    default_key_env: str

    def request(
        self, payload: Mapping[str, Any], offers: Sequence[ToolOffer], *, model: str | None, max_tokens: int
    ) -> dict[str, Any]: ...

    def tool_definitions(self, offers: Sequence[ToolOffer]) -> list[dict[str, Any]]: ...

    def parse_reply(self, reply: Mapping[str, Any]) -> ParsedReply: ...

    def continue_request(
        self, request: Mapping[str, Any], reply: Mapping[str, Any], results: Sequence[ToolResult]
    ) -> dict[str, Any]: ...

    def tool_result_messages(self, results: Sequence[ToolResult]) -> list[dict[str, Any]]: ...

    def send(
        self, request: Mapping[str, Any], *, endpoint: str, api_key: str | None, timeout: float
    ) -> dict[str, Any]: ...
