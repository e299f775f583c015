"""One provider protocol as a turn uses it: its prompt compiler and its adapter, composed.

Two plugin families serve a protocol: a **prompt compiler** (``kernel.prompt_compilers``:
logical messages -> the protocol's payload, with cache figures) and a **provider adapter**
(``kernel.provider_adapters``: tool offers, replies, tool results, HTTP; the contract is
:mod:`lwcore.provider_adapter`). The kernel never knows a protocol's wire shapes; it composes the
two into one :class:`Provider` per protocol (:func:`provider_for`), and every other part of a
turn -- compiling, the tool loop, a chronicle fold -- asks the provider only:

- :meth:`Provider.compile`: logical messages + tool offers -> a :class:`ProviderRequest`
  (the compiler's payload, the request body with the offered tools, the cache figures);
- :meth:`Provider.parse`: a reply body -> :class:`~lwcore.provider_adapter.ParsedReply`;
- :meth:`Provider.continued`: the request after a reply and its tool results;
- :meth:`Provider.final`: that request with tool use switched off (the tool loop's last call);
- :meth:`Provider.send`: one HTTP request, within what is left of a turn's deadline -- the one
  place a turn's requests leave the process.

A compiler's result is read through its ``provider`` attribute (or ``output``/``provider`` key
of a mapping, or the mapping itself): the payload; and ``cache`` (an object with ``to_json()``
or a mapping): the cache figures.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lwcore.contributions import resolve
from lwcore.deadline import Deadline
from lwcore.errors import LwError, about_the_model
from lwcore.provider_adapter import ParsedReply, ProviderAdapterProtocol, ToolOffer, ToolResult

if TYPE_CHECKING:
    from lwcore.kernel import Kernel
    from lwcore.turn.room import Room

SEND_TIMEOUT = 60.0
"""Seconds one model request may take (less when the turn's deadline leaves less)."""

Message = dict[str, Any]
"""A logical message: ``role``, ``markdown``, ``blocks`` (``{source, markdown}``), optional
``messageRole`` and ``promptId`` (the prompt compiler's input)."""

PromptCompile = Callable[..., Any]
"""A prompt compiler's entry point: ``compile(messages, tools=<tool definitions>)``."""

Respond = Callable[[Mapping[str, Any]], Mapping[str, Any]]
"""Answers one request body with the reply body (an endpoint, or recorded replies)."""


@dataclass(frozen=True)
class ProviderRequest:
    """One compiled request: ``payload`` (what the prompt compiler returned, without tools),
    ``body`` (the request body: the payload plus the offered tools, model and token limit),
    ``cache`` (the compiler's cache figures, JSON), and what it was built with."""

    payload: dict[str, Any]
    body: dict[str, Any]
    cache: Any
    offers: tuple[ToolOffer, ...]
    model: str | None
    max_tokens: int


@dataclass(frozen=True)
class Provider:
    """A protocol's prompt compiler and adapter, composed (see the module docstring)."""

    protocol: str
    adapter: ProviderAdapterProtocol
    compiler: PromptCompile

    @property
    def default_key_env(self) -> str:
        """The environment variable an endpoint's key is read from when none is named."""
        return str(self.adapter.default_key_env)

    def definitions(self, offers: Sequence[ToolOffer]) -> list[dict[str, Any]]:
        """``offers`` in the protocol's tool shape."""
        return self.adapter.tool_definitions(offers)

    def compile(
        self, messages: Sequence[Message], offers: Sequence[ToolOffer], *, model: str | None, max_tokens: int,
    ) -> ProviderRequest:
        """The request for ``messages`` with ``offers``: the compiler is given the offers in the
        protocol's tool shape (for its cache figures), the adapter builds the body."""
        compiled = self.compiler(list(messages), tools=self.definitions(offers))
        payload = payload_of(compiled)
        body = self.adapter.request(payload, offers, model=model, max_tokens=max_tokens)
        return ProviderRequest(payload, body, cache_of(compiled), tuple(offers), model, max_tokens)

    def parse(self, reply: Mapping[str, Any]) -> ParsedReply:
        """A reply body read: its text and tool calls in order (:class:`LwError` when it is no
        reply of this protocol)."""
        return self.adapter.parse_reply(reply)

    def result_messages(self, results: Sequence[ToolResult]) -> list[dict[str, Any]]:
        """``results`` in the protocol's tool-result shape."""
        return self.adapter.tool_result_messages(results)

    def continued(
        self, request: Mapping[str, Any], reply: Mapping[str, Any], results: Sequence[ToolResult],
    ) -> dict[str, Any]:
        """The next request of a tool loop: ``request``, the assistant turn of ``reply``, the results."""
        return self.adapter.continue_request(request, reply, results)

    def final(
        self, first: ProviderRequest, steps: Sequence[tuple[Mapping[str, Any], Sequence[ToolResult]]],
    ) -> dict[str, Any]:
        """The tool loop's last request: the conversation so far (``first``, then each step's
        reply and tool results) with tool use switched off, so the model answers in text.

        The adapter's optional ``tools_off(request)`` says how its protocol switches tools off
        (some protocols need the tool definitions kept while the history holds tool calls);
        without it, the conversation is rebuilt on a request made with no tools offered."""
        tools_off = getattr(self.adapter, "tools_off", None)
        if callable(tools_off):
            body: dict[str, Any] = first.body
            for reply, results in steps:
                body = self.continued(body, reply, results)
            return dict(tools_off(body))
        body = self.adapter.request(first.payload, [], model=first.model, max_tokens=first.max_tokens)
        for reply, results in steps:
            body = self.continued(body, reply, results)
        return body

    def send(
        self, request: Mapping[str, Any], *, endpoint: str, api_key: str | None, deadline: Deadline | None = None,
        timeout: float = SEND_TIMEOUT,
    ) -> Mapping[str, Any]:
        """POST ``request`` to ``endpoint`` and return the reply body, given at most ``timeout``
        seconds and what is left of ``deadline``; a request cut short by the deadline fails as
        the deadline (code ``deadline``), any other failure is marked
        :func:`lwcore.errors.about_the_model` (a player reads only that the model did not
        answer). Every model request of a turn goes through here."""
        try:
            bound = timeout if deadline is None else deadline.bound(timeout)
            return self.adapter.send(request, endpoint=endpoint, api_key=api_key, timeout=bound)
        except LwError as exc:
            if deadline is not None and deadline.expired:
                raise deadline.error() from None
            raise about_the_model(exc)

    def responder(self, endpoint: str, api_key: str | None, deadline: Deadline | None = None) -> Respond:
        """:meth:`send` to ``endpoint`` as a :data:`Respond` (what a chronicle fold asks with)."""
        return lambda request: self.send(request, endpoint=endpoint, api_key=api_key, deadline=deadline)


# --- lookups --------------------------------------------------------------------------------


def adapter_for(kernel: Kernel, protocol: str) -> ProviderAdapterProtocol:
    """The adapter registered for ``protocol`` (an instance; a registered class is made once
    per call); :class:`LwError` naming the installed protocols when there is none."""
    registry = kernel.provider_adapters
    if protocol not in registry:
        known = ", ".join(sorted(registry)) or "none installed"
        raise LwError(f"no provider adapter for protocol {protocol!r}", expected=f"one of: {known}")
    adapter = resolve(registry[protocol].adapter)
    if isinstance(adapter, type):
        adapter = adapter()
    return adapter


def compiler_for(kernel: Kernel, protocol: str) -> PromptCompile:
    """The prompt compiler registered for ``protocol``; :class:`LwError` when there is none."""
    registry = kernel.prompt_compilers
    if protocol not in registry:
        known = ", ".join(sorted(registry)) or "none installed"
        raise LwError(f"no prompt compiler for protocol {protocol!r}", expected=f"one of: {known}")
    return resolve(registry[protocol].compile)


def provider_for(kernel: Kernel, protocol: str) -> Provider:
    """The :class:`Provider` of ``protocol``: its adapter and its prompt compiler."""
    adapter = adapter_for(kernel, protocol)
    return Provider(protocol, adapter, compiler_for(kernel, protocol))


def default_protocol(kernel: Kernel, room: Room | None = None) -> str:
    """The provider protocol a turn compiles for when none is asked: the room's ``provider:``,
    else the first provider adapter registered (plugin priority order) that also has a prompt
    compiler. :class:`LwError` when no installed plugin can serve any."""
    if room is not None and room.file.provider:
        return room.file.provider
    for protocol in kernel.provider_adapters:
        if protocol in kernel.prompt_compilers:
            return protocol
    raise LwError(
        "no provider protocol can be served: no installed plugin offers both a provider adapter "
        "and a prompt compiler for the same protocol",
        expected="a providers plugin and a prompt compiler plugin (lw plugins list)",
    )


def protocol_of_reply(kernel: Kernel, reply: Mapping[str, Any]) -> str | None:
    """The one installed protocol whose adapter recognizes ``reply``'s shape, else ``None``
    (none, or more than one, recognizes it)."""
    matches = []
    for protocol, entry in kernel.provider_adapters.items():
        if protocol not in kernel.prompt_compilers:
            continue
        adapter = resolve(entry.adapter)
        recognizes = getattr(adapter, "recognizes", None)
        try:
            if callable(recognizes) and recognizes(reply):
                matches.append(protocol)
        except Exception:  # noqa: BLE001 - a broken recognizer just does not recognize
            continue
    return matches[0] if len(matches) == 1 else None


# --- a compiler's result --------------------------------------------------------------------


def payload_of(result: Any) -> dict[str, Any]:
    """The payload of a prompt compiler's result (see the module docstring)."""
    payload = getattr(result, "provider", None)
    if payload is None and isinstance(result, Mapping):
        payload = result.get("output", result.get("provider", result))
    if not isinstance(payload, Mapping):
        raise LwError(f"the prompt compiler returned {type(result).__name__}, not a payload")
    return dict(payload)


def cache_of(result: Any) -> Any:
    """The cache figures of a prompt compiler's result, as JSON (``None`` when it has none)."""
    cache = getattr(result, "cache", None)
    if cache is None and isinstance(result, Mapping):
        cache = result.get("cache")
    if cache is not None and hasattr(cache, "to_json"):
        return cache.to_json()
    return cache
