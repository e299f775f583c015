"""The providers' official Python SDKs as independent readers (test-only; the code never
imports them): their request types check the bodies our adapters send for a real compiled
turn, and their stream readers read our loopback servers, agreeing with our readers."""

from __future__ import annotations

import shutil
from pathlib import Path

import anthropic
import openai
import pytest
from anthropic.types.message_create_params import MessageCreateParamsStreaming
from openai.types.chat.completion_create_params import CompletionCreateParamsStreaming
from openai.types.responses.response_create_params import ResponseCreateParamsStreaming
from provider_servers import ProviderServer, Reply, events_for
from pydantic import TypeAdapter, ValidationError

from lwcore.provider_adapter import ToolResult
from lwcore.turn.compile import compile_turn
from lwcore.turn.provider import adapter_for
from lwcore.turn.room import Room
from lw_providers.streams import READERS
from lw_providers.sse import SseReader
from provider_servers import encode

TYPES = {"anthropic_messages": MessageCreateParamsStreaming, "chat_completions": CompletionCreateParamsStreaming,
         "openai_responses": ResponseCreateParamsStreaming}
KEY = "sk-sdk-reader-0123456789"
REPLY = Reply("雾里有三声钟响。", [("call_1", "skill_check", {"character": "p1", "skill": "侦查"}),
                                  ("call_2", "adjust_variable", {"id": "clues_found", "delta": 1})])


def bodies(kernel, room_dir: Path, protocol: str) -> list[dict]:
    """The streamed request of a compiled turn, and the next step's after two tool results."""
    adapter = adapter_for(kernel, protocol)
    compiled = compile_turn(kernel, Room.load(room_dir, kernel), "我去码头查看那艘空船。", provider=protocol, model="m")
    first = {**compiled.request, **adapter.stream_fields()}
    reply = ours(protocol)
    results = [ToolResult("call_1", "skill_check", {"success": True}),
               ToolResult("call_2", "adjust_variable", {"error": "bad"}, is_error=True)]
    return [first, {**adapter.continue_request(compiled.request, reply, results), **adapter.stream_fields()}]


def ours(protocol: str) -> dict:
    sse, reader = SseReader(), READERS[protocol]()
    for name, data in events_for(protocol, REPLY, "m", 0, 3, {"stream_options": {"include_usage": True}}):
        for event, text in sse.feed(encode(name, data)):
            reader.feed(event, text)
    return reader.finish()


def validate(adapter: TypeAdapter, body: dict) -> None:
    """Validate ``body``, forcing every lazily validated ``Iterable`` field (pydantic checks
    the SDK types' ``Iterable[...]`` items only as they are iterated), at any depth."""

    def force(value: object) -> None:
        if isinstance(value, dict):
            for item in value.values():
                force(item)
        elif isinstance(value, (list, tuple)):
            for item in value:
                force(item)
        elif not isinstance(value, (str, bytes, int, float, bool, type(None))) and hasattr(value, "__iter__"):
            for item in value:  # a pydantic ValidatorIterator: iterating validates
                force(item)

    force(adapter.validate_python(body))


@pytest.mark.parametrize("protocol", sorted(TYPES))
def test_request_bodies_are_what_the_sdk_types_describe(kernel, room_dir: Path, protocol: str) -> None:
    adapter = TypeAdapter(TYPES[protocol])
    for body in bodies(kernel, room_dir, protocol):
        validate(adapter, body)
    # the check would catch a body of the wrong shape: another protocol's tool offers
    other = "chat_completions" if protocol != "chat_completions" else "anthropic_messages"
    wrong = dict(bodies(kernel, room_dir, protocol)[0], tools=bodies(kernel, room_dir, other)[0]["tools"])
    with pytest.raises(ValidationError):
        validate(adapter, wrong)


@pytest.mark.parametrize("protocol", sorted(TYPES))
def test_the_sdks_read_our_loopback_streams_as_we_do(protocol: str) -> None:
    ours_reply = adapter_for_protocol(protocol).parse_reply(ours(protocol))
    with ProviderServer(protocol, [REPLY], key=KEY) as server:
        if protocol == "anthropic_messages":
            client = anthropic.Anthropic(base_url=server.base, api_key=KEY, max_retries=0)
            with client.messages.stream(model="m", max_tokens=64, messages=[{"role": "user", "content": "hi"}]) as s:
                final = s.get_final_message()
            text = "".join(b.text for b in final.content if b.type == "text")
            calls = [(b.id, b.name, b.input) for b in final.content if b.type == "tool_use"]
            stop = final.stop_reason
        elif protocol == "chat_completions":
            client = openai.OpenAI(base_url=server.base + "/v1", api_key=KEY, max_retries=0)
            with client.chat.completions.stream(model="m", messages=[{"role": "user", "content": "hi"}]) as s:
                final = s.get_final_completion()
            message = final.choices[0].message
            text = message.content
            calls = [(c.id, c.function.name, __import__("json").loads(c.function.arguments)) for c in message.tool_calls]
            stop = final.choices[0].finish_reason
        else:
            client = openai.OpenAI(base_url=server.base + "/v1", api_key=KEY, max_retries=0)
            with client.responses.stream(model="m", input="hi") as s:
                final = s.get_final_response()
            text = final.output_text
            calls = [(i.call_id, i.name, __import__("json").loads(i.arguments)) for i in final.output
                     if i.type == "function_call"]
            stop = final.status
    assert text == ours_reply.text == REPLY.text
    assert calls == [(c.id, c.name, c.arguments) for c in ours_reply.tool_calls] == list(REPLY.calls)
    assert stop == ours_reply.stop_reason


def adapter_for_protocol(protocol: str):
    from lw_providers.adapters import ANTHROPIC_MESSAGES, CHAT_COMPLETIONS, RESPONSES

    return {a.protocol: a for a in (ANTHROPIC_MESSAGES, CHAT_COMPLETIONS, RESPONSES)}[protocol]
