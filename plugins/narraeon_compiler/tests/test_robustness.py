"""compile_request is the subprocess boundary: whatever JSON arrives, it answers, never raises."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lw_narraeon.canonical import js_json
from lw_narraeon.compiler import LOGICAL_ROLES, MESSAGE_ROLES, PROVIDERS, compile_request

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=12,
)
messages = st.lists(
    st.fixed_dictionaries(
        {"role": st.sampled_from(LOGICAL_ROLES), "markdown": st.text(max_size=10)},
        optional={
            "messageRole": st.sampled_from(MESSAGE_ROLES),
            "promptId": st.sampled_from(["a", "b"]),
            "blocks": st.lists(st.fixed_dictionaries({"source": st.text(max_size=3), "markdown": st.text(max_size=5)}), max_size=2),
        },
    ),
    max_size=8,
)
requests = st.fixed_dictionaries(
    {"provider": st.sampled_from(PROVIDERS), "messages": messages},
    optional={
        "ordered": st.booleans(),
        "mergeConsecutiveMessages": st.booleans(),
        "callChain": st.booleans(),
        "cacheStrategy": st.sampled_from(["explicit_anthropic_blocks", "explicit_cliproxyapi_message", "provider_managed"]),
    },
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(requests, json_values, st.fixed_dictionaries({"provider": st.sampled_from(PROVIDERS), "messages": json_values})))
def test_compile_request_always_answers(request) -> None:
    response = compile_request(request)
    assert set(response) in ({"error"}, {"output", "stableText", "cache", "breakpoints"})
    js_json(response)  # always serialisable
    if "error" in response:
        assert response["error"]["code"] in {
            "invalid_request", "invalid_logical_messages", "unsupported_provider",
            "unsupported_cache_strategy", "prompt_role_order_unsupported",
        }


@settings(max_examples=200, deadline=None)
@given(requests)
def test_valid_requests_only_fail_on_role_order(request) -> None:
    response = compile_request(request)
    if "error" in response:
        assert response["error"]["code"] == "prompt_role_order_unsupported"
        assert request["provider"] == "anthropic_messages"
    else:
        assert response["cache"]["estimatedCacheableBytes"] == response["cache"]["firstDynamicByte"]
        if request.get("ordered", True) and request["provider"] == "anthropic_messages":
            strategy = request.get("cacheStrategy", "explicit_anthropic_blocks")
            text = js_json(response["output"])
            assert text.count('"cache_control"') <= (1 if strategy == "explicit_anthropic_blocks" else 0)
