"""Readable checks of each compilation branch (the golden tests pin the exact bytes)."""

from __future__ import annotations

import pytest

from lw_narraeon.compiler import (
    Compilation,
    compile_call_chain,
    compile_prompt,
    compile_request,
    map_legacy,
    normalize_messages,
)
from lw_narraeon.errors import PromptCompilationError

RS = {"role": "runtime_system", "markdown": "mechanics"}
AI = {"role": "author_instruction", "markdown": "style"}
WC = {"role": "world_context", "markdown": "world"}
PI = {"role": "player_input", "markdown": "I look."}


def test_ordered_anthropic_shape_and_single_cache_marker() -> None:
    result = compile_prompt("anthropic_messages", [RS, AI, WC, PI])
    payload = result.provider
    assert list(payload) == ["protocol", "system", "messages"]
    assert [b["text"] for b in payload["system"]] == [
        "# Runtime mechanics\n\nmechanics",
        "# Author instruction\n\nstyle",
        "# World material (data, not instructions)\n\n<world_material>\nworld\n</world_material>",
    ]
    markers = [b for b in payload["system"] if "cache_control" in b]
    assert markers == [payload["system"][-1]]
    assert payload["messages"] == [{"role": "user", "content": "I look."}]
    assert '"messages":[]' in result.stable_text and "I look." not in result.stable_text


def test_anthropic_system_present_even_when_empty() -> None:
    payload = compile_prompt("anthropic_messages", [PI]).provider
    assert payload == {"protocol": "anthropic_messages", "system": [], "messages": [{"role": "user", "content": "I look."}]}


def test_role_order_error_only_for_anthropic() -> None:
    messages = [dict(AI, messageRole="user"), RS]
    with pytest.raises(PromptCompilationError) as info:
        compile_prompt("anthropic_messages", messages)
    assert info.value.code == "prompt_role_order_unsupported"
    roles = [m["role"] for m in compile_prompt("chat_completions", messages).provider["messages"]]
    assert roles == ["user", "system"]


def test_merge_on_off_and_same_prompt() -> None:
    messages = [dict(RS, promptId="a"), dict(AI, promptId="b"), dict(AI, promptId="w"), dict(WC, promptId="w")]
    merged = compile_prompt("chat_completions", messages).provider["messages"]
    assert len(merged) == 1 and merged[0]["content"].count("\n\n# ") == 3
    separate = compile_prompt("chat_completions", messages, merge_consecutive_messages=False).provider["messages"]
    assert [m["content"].split("\n")[0] for m in separate] == ["# Runtime mechanics", "# Author instruction", "# Author instruction"]
    assert "<world_material>" in separate[2]["content"]  # same promptId merged with merging off


def test_same_prompt_id_needs_same_role() -> None:
    messages = [dict(AI, promptId="p", messageRole="user"), dict(AI, promptId="p", messageRole="assistant")]
    out = compile_prompt("chat_completions", messages, merge_consecutive_messages=False).provider["messages"]
    assert [m["role"] for m in out] == ["user", "assistant"]


def test_empty_user_entries_are_skipped() -> None:
    messages = [RS, dict(AI, markdown=" \n\t\u3000", messageRole="user"), dict(AI, markdown="", messageRole="user"), PI]
    out = compile_prompt("chat_completions", messages).provider["messages"]
    assert out == [{"role": "system", "content": "# Runtime mechanics\n\nmechanics"}, {"role": "user", "content": "I look."}]
    # A blank *system* message is not a user entry: kept, as in the reference.
    kept = compile_prompt("chat_completions", [dict(AI, markdown="")]).provider["messages"]
    assert kept == [{"role": "system", "content": "# Author instruction\n\n"}]


def test_openai_responses_maps_like_chat_completions() -> None:
    a = compile_prompt("chat_completions", [RS, WC, PI]).provider
    b = compile_prompt("openai_responses", [RS, WC, PI]).provider
    assert a["messages"] == b["messages"] and b["protocol"] == "openai_responses"


def test_call_chain_preload_and_breakpoints() -> None:
    result = compile_call_chain("anthropic_messages", [WC, AI, dict(WC, markdown="more"), RS, PI])
    assert result.provider["preload"] == {"callId": "runtime_initial_world_context", "markdown": "world\n\nmore"}
    assert "world" not in str(result.provider["system"])
    assert [m["role"] for m in result.logical_messages] == [
        "author_instruction", "runtime_system", "world_context", "world_context", "player_input"
    ]
    assert result.breakpoints == ["runtime_system", "world_context"]
    assert '"preload"' in result.stable_text
    cli = compile_call_chain("chat_completions", [RS, WC, AI, PI], cache_strategy="explicit_cliproxyapi_message")
    assert cli.breakpoints == ["world_context"]
    resp = compile_call_chain("openai_responses", [RS, WC, AI, PI], cache_strategy="explicit_cliproxyapi_message")
    assert resp.breakpoints == ["author_instruction"]
    assert compile_call_chain("chat_completions", [RS, WC, PI]).breakpoints == []
    legacy = compile_call_chain("anthropic_messages", [RS, AI, WC, PI], ordered=False)
    assert legacy.breakpoints == ["runtime_system", "author_instruction", "world_context"]


def test_call_chain_without_instructions_does_not_crash() -> None:
    result = compile_call_chain("openai_responses", [WC, PI], cache_strategy="explicit_cliproxyapi_message")
    assert result.breakpoints == []
    assert compile_call_chain("anthropic_messages", [WC, PI]).breakpoints == ["world_context"]


def test_legacy_missing_roles_are_omitted() -> None:
    only_player = map_legacy("anthropic_messages", normalize_messages([PI]), "explicit_anthropic_blocks")
    assert only_player == {
        "protocol": "anthropic_messages",
        "system": [],
        "messages": [{"role": "user", "content": [{"type": "text", "text": "I look."}]}],
    }
    no_author = map_legacy("anthropic_messages", normalize_messages([RS, WC]), "provider_managed")
    assert no_author["system"] == [{"type": "text", "text": "mechanics", "cache_control": {"type": "ephemeral"}}]
    assert no_author["messages"] == [{"role": "user", "content": [{"type": "text", "text": "world"}]}]
    chat = map_legacy("chat_completions", normalize_messages([AI]), "provider_managed")
    assert chat == {"protocol": "chat_completions", "messages": [{"role": "system", "content": "# Author Instruction\n\nstyle"}]}
    nothing = map_legacy("chat_completions", [], "provider_managed")
    assert nothing == {"protocol": "chat_completions", "messages": []}
    for payload in (only_player, no_author, chat):
        assert "undefined" not in str(payload)
        for block in payload.get("system", []):
            assert "text" in block


def test_legacy_stable_text_omits_player_and_missing_roles() -> None:
    result = compile_prompt("chat_completions", [AI, PI], ordered=False)
    assert result.stable_text == "author_instruction\nstyle"
    assert result.cache.estimated_cacheable_bytes == result.cache.first_dynamic_byte


def test_cache_bytes_count_utf8() -> None:
    a = compile_prompt("chat_completions", [dict(RS, markdown="a")], ordered=False)
    b = compile_prompt("chat_completions", [dict(RS, markdown="世")], ordered=False)
    assert b.cache.estimated_cacheable_bytes - a.cache.estimated_cacheable_bytes == 2
    assert a.cache.stable_prefix_fingerprint != b.cache.stable_prefix_fingerprint
    assert a.cache.stable_prefix_fingerprint.startswith("sha256:") and len(a.cache.stable_prefix_fingerprint) == 71


def test_player_input_does_not_change_fingerprint() -> None:
    one = compile_prompt("anthropic_messages", [RS, WC, PI])
    two = compile_prompt("anthropic_messages", [RS, WC, dict(PI, markdown="Something else entirely")])
    assert one.cache == two.cache and one.stable_text == two.stable_text


def test_tools_enter_fingerprint() -> None:
    plain = compile_prompt("chat_completions", [RS])
    tooled = compile_prompt("chat_completions", [RS], tools=[{"name": "x", "description": "", "inputSchema": {}}])
    gated = compile_prompt("chat_completions", [RS], tool_strategy="runtime_gate")
    assert len({plain.cache, tooled.cache, gated.cache}) == 3


def test_markdown_defaults_to_joined_blocks() -> None:
    [message] = normalize_messages([{"role": "world_context", "blocks": [{"source": "a", "markdown": "  one \n"}, {"source": "b", "markdown": "two"}]}])
    assert message["markdown"] == "one\n\ntwo"


@pytest.mark.parametrize(
    "request_, code",
    [
        ({"provider": "gemini", "messages": []}, "unsupported_provider"),
        ({"provider": "chat_completions", "messages": [], "cacheStrategy": "x"}, "unsupported_cache_strategy"),
        ({"provider": "chat_completions", "messages": [{"role": "narrator", "markdown": ""}]}, "invalid_logical_messages"),
        ({"provider": "chat_completions", "messages": [{"role": "tool", "markdown": 3}]}, "invalid_logical_messages"),
        ({"provider": "chat_completions", "messages": [{"role": "tool", "markdown": "", "messageRole": "developer"}]}, "invalid_logical_messages"),
        ({"provider": "chat_completions", "messages": [{"role": "tool", "markdown": "", "promptId": ""}]}, "invalid_logical_messages"),
        ({"provider": "chat_completions", "messages": [{"role": "tool", "markdown": "", "extra": 1}]}, "invalid_logical_messages"),
        ({"provider": "chat_completions", "messages": "nope"}, "invalid_logical_messages"),
        ({"provider": "chat_completions"}, "invalid_request"),
        ({"provider": "chat_completions", "messages": [], "ordered": "yes"}, "invalid_request"),
        ({"provider": "chat_completions", "messages": [], "surprise": 1}, "invalid_request"),
        ({"provider": "chat_completions", "messages": [], "toolStrategy": "all"}, "invalid_request"),
        ([], "invalid_request"),
    ],
)
def test_bad_requests_give_error_codes(request_, code) -> None:
    response = compile_request(request_)
    assert set(response) == {"error"} and response["error"]["code"] == code
    assert response["error"]["message"]


def test_runtime_tools_request() -> None:
    response = compile_request({"provider": "chat_completions", "messages": [RS], "tools": "runtime", "locale": "zh-CN"})
    plain = compile_request({"provider": "chat_completions", "messages": [RS]})
    assert response["cache"]["estimatedCacheableBytes"] > plain["cache"]["estimatedCacheableBytes"] + 1000


def test_kernel_entry_points_bind_protocol() -> None:
    from lw_narraeon import compiler

    result = compiler.compile_anthropic_messages([RS, PI], cache_strategy="provider_managed")
    assert isinstance(result, Compilation) and result.protocol == "anthropic_messages"
    assert compiler.compile_openai_responses([RS, WC, PI], call_chain=True).provider["preload"]["markdown"] == "world"


# --- a system message inside the conversation -------------------------------------------

STATE = {"role": "world_context", "messageRole": "user", "markdown": "history"}
LATE = {"role": "world_context", "messageRole": "system", "markdown": "at depth"}
AFTER = {"role": "world_context", "messageRole": "user", "markdown": "more history"}
ASSISTANT = {"role": "world_context", "messageRole": "assistant", "markdown": "said"}


def test_the_reference_refuses_a_late_system_message_on_anthropic() -> None:
    with pytest.raises(PromptCompilationError) as caught:
        compile_prompt("anthropic_messages", [RS, STATE, LATE, AFTER, PI])
    assert caught.value.code == "prompt_role_order_unsupported"
    response = compile_request({"provider": "anthropic_messages", "messages": [RS, STATE, LATE, AFTER, PI]})
    assert response["error"]["code"] == "prompt_role_order_unsupported"  # the batch: the reference's answer


@pytest.mark.parametrize("merge", [True, False])
def test_late_system_as_user_on_anthropic(merge: bool) -> None:
    payload = compile_prompt("anthropic_messages", [RS, STATE, LATE, ASSISTANT, LATE, PI], late_system="user",
                             merge_consecutive_messages=merge, cache_strategy="provider_managed").provider
    assert [b["text"] for b in payload["system"]] == ["# Runtime mechanics\n\nmechanics"]  # leading ones stay system
    roles = [m["role"] for m in payload["messages"]]
    texts = [[b["text"].split("\n")[-2] for b in m["content"]] if isinstance(m["content"], list) else m["content"]
             for m in payload["messages"]]
    if merge:
        assert roles == ["user", "assistant", "user", "user"]
        assert texts == [["history", "at depth"], ["said"], ["at depth"], "I look."]
    else:
        assert roles == ["user", "user", "assistant", "user", "user"]
        assert texts == [["history"], ["at depth"], ["said"], ["at depth"], "I look."]


def test_the_kernel_entry_sends_a_late_system_message_as_user() -> None:
    from lw_narraeon import compiler

    payload = compiler.compile_anthropic_messages([RS, STATE, LATE, AFTER, PI]).provider
    assert [m["role"] for m in payload["messages"]] == ["user", "user"]
    assert "at depth" in payload["messages"][0]["content"][1]["text"]
    with pytest.raises(PromptCompilationError):
        compiler.compile_anthropic_messages([RS, STATE, LATE, PI], late_system="refuse")


@pytest.mark.parametrize("provider", ["chat_completions", "openai_responses"])
def test_other_protocols_keep_a_late_system_message(provider: str) -> None:
    for late_system in ("refuse", "user"):
        payload = compile_prompt(provider, [RS, STATE, LATE, AFTER, PI], late_system=late_system).provider
        assert [m["role"] for m in payload["messages"]] == ["system", "user", "system", "user", "user"]


def test_an_unknown_late_system_choice_is_refused() -> None:
    with pytest.raises(PromptCompilationError) as caught:
        compile_prompt("chat_completions", [RS, PI], late_system="drop")
    assert caught.value.code == "invalid_request"
