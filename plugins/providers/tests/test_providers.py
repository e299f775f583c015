"""The providers plugin: registered by a real kernel, and both adapters' shapes."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from lwcore.contributions import resolve
from lwcore.errors import LwError
from lwcore.kernel import Kernel
from lwcore.provider_adapter import ProviderAdapterProtocol, ToolOffer, ToolResult

OFFER = ToolOffer("roll_it", "Roll it.", {"type": "object", "properties": {"n": {"type": "integer"}}})


def test_kernel_finds_the_bundled_adapters(tmp_path: Path) -> None:
    kernel = Kernel(data_dir=tmp_path, env={})
    record = kernel.plugin("providers")
    assert record.status == "enabled" and record.bundled and "net" in record.manifest.needs
    adapters = kernel.provider_adapters
    assert {"anthropic_messages", "chat_completions", "openai_responses"} <= set(adapters)
    for protocol in ("anthropic_messages", "chat_completions", "openai_responses"):
        assert adapters.origin(protocol) == "providers"
        adapter = resolve(adapters[protocol].adapter)
        assert isinstance(adapter, ProviderAdapterProtocol) and adapter.protocol == protocol


def test_plugin_module_is_light() -> None:
    import subprocess
    import sys

    code = "import lw_providers.plugin, sys; print('lw_providers.adapters' in sys.modules, 'pydantic' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_anthropic_shapes() -> None:
    from lw_providers.adapters import ANTHROPIC_MESSAGES as a

    payload = {"protocol": "anthropic_messages", "system": [{"type": "text", "text": "S"}],
               "messages": [{"role": "user", "content": "hi"}]}
    body = a.request(payload, [OFFER], model="m", max_tokens=10)
    assert body["tools"] == [{"name": "roll_it", "description": "Roll it.", "input_schema": dict(OFFER.parameters)}]
    assert "protocol" not in body and payload["protocol"] == "anthropic_messages"  # not mutated
    assert "tools" not in a.request(payload, [], model=None, max_tokens=10)
    reply = {"content": [{"type": "text", "text": "A"}, {"type": "tool_use", "id": "x", "name": "roll_it", "input": {"n": 1}},
                         {"type": "tool_use", "name": "roll_it", "input": "garbage"}], "stop_reason": "tool_use"}
    parsed = a.parse_reply(reply)
    assert parsed.text == "A" and [c.arguments for c in parsed.tool_calls] == [{"n": 1}, "garbage"]
    results = [ToolResult("x", "roll_it", {"ok": 1}), ToolResult("call_2", "roll_it", {"error": "bad"}, is_error=True)]
    nxt = a.continue_request(body, reply, results)
    assert nxt["messages"][-2] == {"role": "assistant", "content": reply["content"]}
    assert nxt["messages"][-1]["content"][1] == {"type": "tool_result", "tool_use_id": "call_2",
                                                "content": '{"error": "bad"}', "is_error": True}
    assert len(body["messages"]) == 1  # continue_request copies
    with pytest.raises(LwError):
        a.parse_reply({"choices": []})


def test_chat_shapes() -> None:
    from lw_providers.adapters import CHAT_COMPLETIONS as c

    payload = {"protocol": "chat_completions", "messages": [{"role": "system", "content": "S"}]}
    body = c.request(payload, [OFFER], model="m", max_tokens=10)
    assert body["tools"][0] == {"type": "function", "function": {"name": "roll_it", "description": "Roll it.",
                                                                 "parameters": dict(OFFER.parameters)}}
    reply = {"choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "roll_it", "arguments": '{"n": 2}'}},
        {"id": "c2", "type": "function", "function": {"name": "roll_it", "arguments": "{broken"}},
    ]}}]}
    parsed = c.parse_reply(reply)
    assert parsed.text == "" and [t.arguments for t in parsed.tool_calls] == [{"n": 2}, "{broken"]
    assert parsed.stop_reason == "tool_calls"
    nxt = c.continue_request(body, reply, [ToolResult("c1", "roll_it", {"v": 3})])
    assert nxt["messages"][-1] == {"role": "tool", "tool_call_id": "c1", "content": '{"v": 3}'}
    assert nxt["messages"][-2]["tool_calls"][0]["id"] == "c1"
    with pytest.raises(LwError):
        c.parse_reply({"content": []})


def test_responses_shapes() -> None:
    from lw_providers.adapters import RESPONSES as r

    payload = {"protocol": "openai_responses", "messages": [{"role": "system", "content": "S"}, {"role": "user", "content": "U"}]}
    body = r.request(payload, [OFFER], model="m", max_tokens=10)
    assert body == {"model": "m", "max_output_tokens": 10, "input": payload["messages"],
                    "tools": [{"type": "function", "name": "roll_it", "description": "Roll it.",
                               "parameters": dict(OFFER.parameters), "strict": False}]}
    reply = {"status": "completed", "output": [
        {"type": "reasoning", "id": "rs1", "summary": []},
        {"type": "function_call", "id": "fc1", "call_id": "c1", "name": "roll_it", "arguments": '{"n": 2}'},
        {"type": "function_call", "call_id": "c2", "name": "roll_it", "arguments": "{broken"},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Done."}]},
    ]}
    parsed = r.parse_reply(reply)
    assert parsed.text == "Done." and [(t.id, t.arguments) for t in parsed.tool_calls] == [("c1", {"n": 2}), ("c2", "{broken")]
    nxt = r.continue_request(body, reply, [ToolResult("c1", "roll_it", {"v": 3})])
    assert nxt["input"][-1] == {"type": "function_call_output", "call_id": "c1", "output": '{"v": 3}'}
    assert nxt["input"][-2]["type"] == "message" and len(body["input"]) == 2
    with pytest.raises(LwError):
        r.parse_reply({"choices": []})


@pytest.mark.parametrize("reply,protocol", [
    ({"content": [{"type": "text", "text": "x"}], "role": "assistant"}, "anthropic_messages"),
    ({"choices": [{"message": {"content": "x"}}]}, "chat_completions"),
    ({"output": [], "status": "completed"}, "openai_responses"),
])
def test_each_adapter_recognizes_only_its_reply_shape(reply: dict, protocol: str) -> None:
    from lw_providers.adapters import ANTHROPIC_MESSAGES, CHAT_COMPLETIONS, RESPONSES

    recognized = [a.protocol for a in (ANTHROPIC_MESSAGES, CHAT_COMPLETIONS, RESPONSES) if a.recognizes(reply)]
    assert recognized == [protocol]


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                        st.sampled_from(["content", "text", "type", "choices", "message", "tool_calls", "function",
                                         "name", "arguments", "output", "input", "id", "call_id", "stop_reason"]),
                        inner, max_size=5), max_leaves=25)
SHAPES = st.one_of(
    st.fixed_dictionaries({"content": st.lists(JSON, max_size=4)}),
    st.fixed_dictionaries({"choices": st.lists(st.fixed_dictionaries({"message": JSON}), max_size=2)}),
    st.fixed_dictionaries({"choices": st.lists(st.fixed_dictionaries(
        {"message": st.fixed_dictionaries({"content": st.lists(JSON, max_size=4), "tool_calls": JSON})}), max_size=2)}),
    st.fixed_dictionaries({"output": st.lists(JSON, max_size=4)}),
    JSON,
)


@settings(max_examples=300, deadline=None)
@given(reply=SHAPES)
@example(reply={"output": [{"type": "message", "content": 5}, {"type": "function_call", "arguments": [1]}]})
@example(reply={"choices": [{"message": {"content": [{"type": "text", "text": 7}], "tool_calls": {"a": 1}},
                             "finish_reason": ["stop"]}]})
@example(reply={"content": [{"type": "tool_use", "input": "x", "id": [1]}, {"type": "text", "text": None}],
                "stop_reason": {}})
def test_any_reply_is_read_or_refused_with_a_message(reply: object) -> None:
    """A model's reply is input: whatever its JSON, each adapter reads it or refuses it with an
    LwError -- never another exception (a content part whose text is a number, a tool call that
    is a list ...)."""
    from lw_providers.adapters import ANTHROPIC_MESSAGES, CHAT_COMPLETIONS, RESPONSES

    for adapter in (ANTHROPIC_MESSAGES, CHAT_COMPLETIONS, RESPONSES):
        try:
            parsed = adapter.parse_reply(reply)  # type: ignore[arg-type]
        except LwError:
            continue
        assert isinstance(parsed.text, str)
