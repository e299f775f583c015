"""The provider adapters (``lwcore.provider_adapter.ProviderAdapterProtocol``).

- :class:`AnthropicMessages`: ``tools: [{name, description, input_schema}]``; a reply's
  ``content`` holds ``text`` and ``tool_use`` blocks; results go back as one ``user``
  message of ``tool_result`` blocks; tools off is ``tool_choice: {type: none}`` (a history
  holding tool calls must keep the definitions).
- :class:`ChatCompletions`: ``tools: [{type: function, function: {name, description,
  parameters}}]``; a reply's ``choices[0].message`` holds ``content`` and ``tool_calls``
  (arguments are a JSON *string*); results go back as one ``tool`` message per call; tools
  off is a request without ``tools``.
- :class:`Responses`: OpenAI's Responses API: ``input`` items and ``instructions``;
  ``tools: [{type: function, name, description, parameters}]``; a reply's ``output`` holds
  ``message`` items (``output_text`` parts) and ``function_call`` items (arguments a JSON
  string); results go back as ``function_call_output`` items; tools off is
  ``tool_choice: "none"``.

Each recognizes its own reply shape (:meth:`recognizes`), so a recorded reply names its
protocol without ``--provider``.

Each is pure except ``send`` (see :mod:`lw_providers.client`).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from lwcore.api import (
    CallOptions,
    LwError,
    ParsedReply,
    ToolCall,
    ToolOffer,
    ToolResult,
    current_call,
    load_json,
)



def _content_text(content: Any) -> str:
    return content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)


class _Adapter:
    """What the adapters share: the request body is built the same way, and ``send`` goes
    through :mod:`lw_providers.client` (streamed when the host asks, see :mod:`lwcore.live`)."""

    protocol = ""
    default_key_env = ""
    requires_key = False
    """Whether the protocol's servers always want a key (a missing one is an error, not a warning)."""
    endpoint_paths: tuple[str, ...] = ()
    """URL path endings that imply this protocol (``lw turn --endpoint`` and ``lw provider add``)."""
    sampling_keys: frozenset[str] = frozenset()
    """Sampling options a profile may set for this protocol (sent as given)."""

    def headers(self, api_key: str | None) -> dict[str, str]:
        raise NotImplementedError

    def stream_fields(self) -> dict[str, Any]:
        raise NotImplementedError

    def send(self, request: Mapping[str, Any], *, endpoint: str, api_key: str | None, timeout: float) -> dict[str, Any]:
        """POST ``request`` (contract in :mod:`lwcore.provider_adapter`). Inside a host's
        :func:`lwcore.live.calling` block: the profile's timeouts, retries and sampling
        options, streaming and cancellation; outside one: one plain request, no retries."""
        from lw_providers.client import Target, exchange

        options = current_call() or CallOptions()
        profile = options.profile
        body = dict(request)
        if profile is not None:
            for key, value in profile.sampling.items():
                body.setdefault(key, value)
            if not body.get("model"):
                raise LwError(f"{profile.label()}: no model to ask for", code="no_model",
                              expected="the profile's model (lw provider add NAME --model …)")
        if options.stream:
            body.update(self.stream_fields())
        target = Target(
            protocol=self.protocol, endpoint=endpoint,
            label=profile.label() if profile is not None else f"endpoint {endpoint}",
            headers=self.headers(api_key),
            connect_timeout=min(profile.connect_timeout if profile else 10.0, timeout),
            read_timeout=min(profile.read_timeout if profile else timeout, timeout),
            retries=profile.retries if profile is not None else 0, api_key=api_key,
            key_env=profile.key_env if profile is not None else self.default_key_env,
            hint=f"a URL ending in {' or '.join(self.endpoint_paths)}" if self.endpoint_paths else "",
        )
        if urlsplit(endpoint).scheme not in ("http", "https"):
            raise LwError(f"endpoint must be an http(s) URL, not {endpoint!r}")
        return exchange(target, body, options)

    def tool_definitions(self, offers: Sequence[ToolOffer]) -> list[dict[str, Any]]:
        raise NotImplementedError

    def request(
        self, payload: Mapping[str, Any], offers: Sequence[ToolOffer], *, model: str | None, max_tokens: int
    ) -> dict[str, Any]:
        body: dict[str, Any] = {}
        if model:
            body["model"] = model
        body["max_tokens"] = max_tokens
        body.update(copy.deepcopy(dict(payload)))
        body.pop("protocol", None)
        if offers:
            body["tools"] = self.tool_definitions(offers)
        return body


def _word(value: Any) -> str | None:
    """A reply's stop reason or status when it is text, else ``None`` (a reply is input)."""
    return value if isinstance(value, str) else None


def _json_arguments(raw: Any) -> Any:
    """A tool call's JSON-string arguments decoded; anything undecodable stays raw (the
    pipeline answers it with a tool error)."""
    if not isinstance(raw, str):
        return raw
    if not raw.strip():
        return {}
    try:
        return load_json(raw)  # the kernel's reader: bounded depth and size, strict numbers
    except LwError:
        return raw


class AnthropicMessages(_Adapter):
    protocol = "anthropic_messages"
    default_key_env = "ANTHROPIC_API_KEY"
    requires_key = True
    endpoint_paths = ("/v1/messages",)
    sampling_keys = frozenset({"temperature", "top_p", "top_k", "stop_sequences"})
    version = "2023-06-01"

    @staticmethod
    def recognizes(reply: Any) -> bool:
        return isinstance(reply, Mapping) and isinstance(reply.get("content"), list) and "choices" not in reply

    def tool_definitions(self, offers: Sequence[ToolOffer]) -> list[dict[str, Any]]:
        return [
            {"name": o.name, "description": o.description, "input_schema": dict(o.parameters)} for o in offers
        ]

    def parse_reply(self, reply: Mapping[str, Any]) -> ParsedReply:
        if not isinstance(reply, Mapping) or not isinstance(reply.get("content"), list):
            raise LwError("not an Anthropic Messages reply (no content list)")
        texts: list[str] = []
        calls: list[ToolCall] = []
        for index, block in enumerate(reply["content"]):
            if not isinstance(block, Mapping):
                continue
            if block.get("type") == "text" and isinstance(block.get("text"), str):
                texts.append(block["text"])
            elif block.get("type") == "tool_use":
                call_id = str(block.get("id") or f"call_{index}")
                calls.append(ToolCall(call_id, str(block.get("name", "")), block.get("input")))
        return ParsedReply("".join(texts).strip(), tuple(calls), _word(reply.get("stop_reason")), dict(reply))

    def tool_result_messages(self, results: Sequence[ToolResult]) -> list[dict[str, Any]]:
        blocks = []
        for r in results:
            block: dict[str, Any] = {"type": "tool_result", "tool_use_id": r.call_id, "content": _content_text(r.content)}
            if r.is_error:
                block["is_error"] = True
            blocks.append(block)
        return [{"role": "user", "content": blocks}] if blocks else []

    def continue_request(
        self, request: Mapping[str, Any], reply: Mapping[str, Any], results: Sequence[ToolResult]
    ) -> dict[str, Any]:
        body = copy.deepcopy(dict(request))
        body["messages"] = [
            *body.get("messages", []),
            {"role": "assistant", "content": copy.deepcopy(reply.get("content", []))},
            *self.tool_result_messages(results),
        ]
        return body

    def tools_off(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """``request`` with tool use switched off: the tool definitions stay (a history that
        holds tool calls needs them), ``tool_choice`` is ``none``."""
        body = copy.deepcopy(dict(request))
        body["tool_choice"] = {"type": "none"}
        return body

    def headers(self, api_key: str | None) -> dict[str, str]:
        headers = {"anthropic-version": self.version}
        if api_key:
            headers["x-api-key"] = api_key
        return headers

    def stream_fields(self) -> dict[str, Any]:
        return {"stream": True}


class ChatCompletions(_Adapter):
    protocol = "chat_completions"
    default_key_env = "OPENAI_API_KEY"
    requires_key = False  # llama.cpp, vLLM, Ollama and LM Studio serve without one
    endpoint_paths = ("/chat/completions",)
    sampling_keys = frozenset({"temperature", "top_p", "top_k", "min_p", "seed", "stop", "presence_penalty",
                               "frequency_penalty", "repetition_penalty"})

    @staticmethod
    def recognizes(reply: Any) -> bool:
        return isinstance(reply, Mapping) and isinstance(reply.get("choices"), list)

    def tool_definitions(self, offers: Sequence[ToolOffer]) -> list[dict[str, Any]]:
        return [
            {
                "type": "function",
                "function": {"name": o.name, "description": o.description, "parameters": dict(o.parameters)},
            }
            for o in offers
        ]

    @staticmethod
    def _message(reply: Mapping[str, Any]) -> Mapping[str, Any]:
        choices = reply.get("choices") if isinstance(reply, Mapping) else None
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], Mapping):
            raise LwError("not a Chat Completions reply (no choices)")
        message = choices[0].get("message")
        if not isinstance(message, Mapping):
            raise LwError("not a Chat Completions reply (choices[0] has no message)")
        return message

    def parse_reply(self, reply: Mapping[str, Any]) -> ParsedReply:
        message = self._message(reply)
        content = message.get("content")
        if isinstance(content, list):  # content parts
            content = "".join(p["text"] for p in content if isinstance(p, Mapping) and isinstance(p.get("text"), str))
        calls = []
        tool_calls = message.get("tool_calls")
        for index, call in enumerate(tool_calls if isinstance(tool_calls, list) else ()):
            if not isinstance(call, Mapping):
                continue
            function = function_raw if isinstance(function_raw := call.get("function"), Mapping) else {}
            arguments = _json_arguments(function.get("arguments"))
            calls.append(ToolCall(str(call.get("id") or f"call_{index}"), str(function.get("name", "")), arguments))
        stop = _word(reply["choices"][0].get("finish_reason"))
        return ParsedReply((content or "").strip() if isinstance(content, str) else "", tuple(calls), stop, dict(reply))

    def tool_result_messages(self, results: Sequence[ToolResult]) -> list[dict[str, Any]]:
        return [{"role": "tool", "tool_call_id": r.call_id, "content": _content_text(r.content)} for r in results]

    def continue_request(
        self, request: Mapping[str, Any], reply: Mapping[str, Any], results: Sequence[ToolResult]
    ) -> dict[str, Any]:
        body = copy.deepcopy(dict(request))
        assistant = copy.deepcopy(dict(self._message(reply)))
        assistant.setdefault("role", "assistant")
        body["messages"] = [*body.get("messages", []), assistant, *self.tool_result_messages(results)]
        return body

    def tools_off(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """``request`` with no tools offered (nor a ``tool_choice``): the model answers in text."""
        body = copy.deepcopy(dict(request))
        body.pop("tools", None)
        body.pop("tool_choice", None)
        return body

    def headers(self, api_key: str | None) -> dict[str, str]:
        return {"authorization": f"Bearer {api_key}"} if api_key else {}

    def stream_fields(self) -> dict[str, Any]:
        return {"stream": True, "stream_options": {"include_usage": True}}


class Responses(_Adapter):
    protocol = "openai_responses"
    default_key_env = "OPENAI_API_KEY"
    requires_key = False
    endpoint_paths = ("/responses",)
    sampling_keys = frozenset({"temperature", "top_p"})

    @staticmethod
    def recognizes(reply: Any) -> bool:
        return isinstance(reply, Mapping) and isinstance(reply.get("output"), list)

    def tool_definitions(self, offers: Sequence[ToolOffer]) -> list[dict[str, Any]]:
        # strict: the Responses API makes a function tool strict unless told (every property
        # required, no others): our tools' schemas have optional arguments, so say false
        return [{"type": "function", "name": o.name, "description": o.description, "parameters": dict(o.parameters),
                 "strict": False} for o in offers]

    def request(
        self, payload: Mapping[str, Any], offers: Sequence[ToolOffer], *, model: str | None, max_tokens: int
    ) -> dict[str, Any]:
        """The compiled messages become the ``input`` items (system and developer messages
        are input items of the Responses API too); the token limit is ``max_output_tokens``."""
        body: dict[str, Any] = {}
        if model:
            body["model"] = model
        body["max_output_tokens"] = max_tokens
        rest = copy.deepcopy(dict(payload))
        rest.pop("protocol", None)
        body["input"] = rest.pop("messages", rest.pop("input", []))
        body.update(rest)
        if offers:
            body["tools"] = self.tool_definitions(offers)
        return body

    def parse_reply(self, reply: Mapping[str, Any]) -> ParsedReply:
        if not self.recognizes(reply):
            raise LwError("not a Responses API reply (no output list)")
        texts: list[str] = []
        calls: list[ToolCall] = []
        for index, item in enumerate(reply["output"]):
            if not isinstance(item, Mapping):
                continue
            if item.get("type") == "message":
                parts = item.get("content")
                for part in parts if isinstance(parts, list) else ():
                    if isinstance(part, Mapping) and part.get("type") in ("output_text", "text") and isinstance(part.get("text"), str):
                        texts.append(part["text"])
            elif item.get("type") == "function_call":
                call_id = str(item.get("call_id") or item.get("id") or f"call_{index}")
                calls.append(ToolCall(call_id, str(item.get("name", "")), _json_arguments(item.get("arguments"))))
        return ParsedReply("".join(texts).strip(), tuple(calls), _word(reply.get("status")), dict(reply))

    def tool_result_messages(self, results: Sequence[ToolResult]) -> list[dict[str, Any]]:
        return [{"type": "function_call_output", "call_id": r.call_id, "output": _content_text(r.content)}
                for r in results]

    def continue_request(
        self, request: Mapping[str, Any], reply: Mapping[str, Any], results: Sequence[ToolResult]
    ) -> dict[str, Any]:
        body = copy.deepcopy(dict(request))
        output = [copy.deepcopy(dict(item)) for item in reply.get("output", []) if isinstance(item, Mapping)]
        body["input"] = [*body.get("input", []), *output, *self.tool_result_messages(results)]
        return body

    def tools_off(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """``request`` with tool use switched off: ``tool_choice`` is ``none`` (the function
        calls in its input keep their definitions)."""
        body = copy.deepcopy(dict(request))
        body["tool_choice"] = "none"
        return body

    def headers(self, api_key: str | None) -> dict[str, str]:
        return {"authorization": f"Bearer {api_key}"} if api_key else {}

    def stream_fields(self) -> dict[str, Any]:
        return {"stream": True}


ANTHROPIC_MESSAGES = AnthropicMessages()
CHAT_COMPLETIONS = ChatCompletions()
RESPONSES = Responses()
