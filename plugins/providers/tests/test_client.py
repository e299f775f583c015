"""The HTTP client against loopback servers of each protocol: streaming, retries honouring
Retry-After, timeouts, cancellation, and a clear located error for every scripted fault."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest
from provider_servers import Clock, Fault, ProviderServer, Reply, status_fault

from lwcore.errors import LwError
from lwcore.io import load_json
from lwcore.live import CallOptions, Cancel, StopDelta, TextDelta, ToolArgumentsDelta, ToolCallStart, calling
from lwcore.profiles import Profile
from lw_providers import client
from lw_providers.adapters import ANTHROPIC_MESSAGES, CHAT_COMPLETIONS, RESPONSES

ADAPTERS = {a.protocol: a for a in (ANTHROPIC_MESSAGES, CHAT_COMPLETIONS, RESPONSES)}
PROTOCOLS = tuple(ADAPTERS)
KEY = "sk-loopback-secret-0123456789"
REPLY = Reply("雾从海面涌来，钟声三响。", [("call_1", "skill_check", {"character": "p1", "skill": "侦查"}),
                                         ("call_2", "adjust_variable", {"id": "clues_found", "delta": 1})])


def send(protocol: str, server: ProviderServer, *, stream: bool = True, retries: int = 2, read: float = 5.0,
         clock: Clock | None = None, cancel: Cancel | None = None, deltas: list | None = None,
         key: str | None = KEY, endpoint: str | None = None, **profile: Any) -> dict:
    adapter = ADAPTERS[protocol]
    request = adapter.request({"messages": [{"role": "user", "content": "hi"}]}, [], model="m", max_tokens=64)
    p = Profile(name="loop", protocol=protocol, endpoint=endpoint or server.url, model="m", key_env="LOOP_KEY",
                retries=retries, read_timeout=read, connect_timeout=2.0, **profile)
    options = CallOptions(profile=p, stream=stream, on_delta=deltas.append if deltas is not None else None,
                          cancel=cancel, sleep=clock or Clock(), rng=random.Random(1))
    with calling(options):
        return adapter.send(request, endpoint=p.endpoint, api_key=key, timeout=60.0)


def fails(fn, *args: Any, **kwargs: Any) -> LwError:
    with pytest.raises(LwError) as info:
        fn(*args, **kwargs)
    text = str(info.value)
    assert KEY not in text and "Traceback" not in text
    return info.value


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("chunk", [1, 4, 1000])
def test_a_streamed_reply_is_the_non_streamed_reply(protocol: str, chunk: int) -> None:
    """Text and tool calls assembled from deltas equal what the non-streamed body parses to;
    the deltas arrive in order and carry the same text and arguments."""
    adapter = ADAPTERS[protocol]
    with ProviderServer(protocol, [REPLY], key=KEY, chunk=chunk) as server:
        plain = adapter.parse_reply(send(protocol, server, stream=False))
        deltas: list = []
        streamed = adapter.parse_reply(send(protocol, server, deltas=deltas))
    assert server.requests[1].body["stream"] is True and "stream" not in server.requests[0].body
    assert streamed.text == plain.text == REPLY.text
    assert streamed.tool_calls == plain.tool_calls
    assert [(c.id, c.name, c.arguments) for c in streamed.tool_calls] == [(i, n, a) for i, n, a in REPLY.calls]
    assert streamed.stop_reason == plain.stop_reason
    assert "".join(d.text for d in deltas if isinstance(d, TextDelta)) == REPLY.text
    assert [d.name for d in deltas if isinstance(d, ToolCallStart)] == ["skill_check", "adjust_variable"]
    args = {}
    for d in deltas:
        if isinstance(d, ToolArgumentsDelta):
            args[d.index] = args.get(d.index, "") + d.fragment
    assert [load_json(args[i]) for i in sorted(args)] == [a for _, _, a in REPLY.calls]
    assert [d.reason for d in deltas if isinstance(d, StopDelta)] == [plain.stop_reason]


def test_each_protocol_sends_its_own_headers_and_stream_fields() -> None:
    for protocol in PROTOCOLS:
        with ProviderServer(protocol, [REPLY], key=KEY) as server:
            send(protocol, server)
        seen = server.requests[0]
        if protocol == "anthropic_messages":
            assert seen.headers["x-api-key"] == KEY and seen.headers["anthropic-version"] == "2023-06-01"
            assert "authorization" not in seen.headers
        else:
            assert seen.headers["authorization"] == f"Bearer {KEY}" and "x-api-key" not in seen.headers
        assert seen.headers["accept"] == "text/event-stream" and seen.body["model"] == "m"
        if protocol == "chat_completions":
            assert seen.body["stream_options"] == {"include_usage": True}
        if protocol == "openai_responses":
            assert seen.body["max_output_tokens"] == 64 and "messages" not in seen.body


def test_sampling_options_of_the_profile_are_sent_and_never_override_the_request() -> None:
    with ProviderServer("chat_completions", [REPLY]) as server:
        send("chat_completions", server, sampling={"temperature": 0.7, "top_k": 40, "max_tokens": 5})
    body = server.requests[0].body
    assert body["temperature"] == 0.7 and body["top_k"] == 40 and body["max_tokens"] == 64


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("status", [429, 529, 500, 503])
def test_retryable_answers_are_retried_after_the_wait_the_server_asks(protocol: str, status: int) -> None:
    clock = Clock()
    faults = [status_fault(protocol, status, {"retry-after": "3"}), status_fault(protocol, status)]
    with ProviderServer(protocol, [REPLY], key=KEY, faults=faults) as server:
        reply = send(protocol, server, clock=clock, retries=2)
    assert ADAPTERS[protocol].parse_reply(reply).text == REPLY.text
    assert len(server.requests) == 3
    assert clock.waits[0] == 3.0  # Retry-After honoured
    assert 0.25 <= clock.waits[1] <= 1.0  # no Retry-After: backoff 0.5 s (second try) with jitter


def test_retry_after_ms_and_http_dates_are_read() -> None:
    assert client.retry_after({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    assert client.retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:10 GMT"},
                              now=lambda: 1445412480.0) == 10.0
    assert client.retry_after({"retry-after": "soon"}) is None and client.retry_after({}) is None


def test_retries_run_out_with_a_located_error() -> None:
    clock = Clock()
    faults = [status_fault("anthropic_messages", 529)] * 3
    with ProviderServer("anthropic_messages", [REPLY], key=KEY, faults=faults) as server:
        error = fails(send, "anthropic_messages", server, clock=clock, retries=2)
    assert error.code == "overloaded" and "profile 'loop'" in str(error) and server.url in str(error)
    assert "HTTP 529" in str(error) and "after 3 tries" in str(error) and "overloaded" in str(error)
    assert len(server.requests) == 3 and len(clock.waits) == 2


def test_a_wait_longer_than_the_cap_is_not_waited_for() -> None:
    clock = Clock()
    faults = [status_fault("chat_completions", 429, {"retry-after": str(int(client.MAX_RETRY_AFTER) + 1)})]
    with ProviderServer("chat_completions", [REPLY], faults=faults) as server:
        error = fails(send, "chat_completions", server, clock=clock)
    assert error.code == "rate_limited" and clock.waits == [] and len(server.requests) == 1


@pytest.mark.parametrize("status,code", [(400, "refused"), (401, "auth"), (403, "auth"), (404, "refused")])
def test_other_client_errors_are_never_retried(status: int, code: str) -> None:
    clock = Clock()
    with ProviderServer("chat_completions", [REPLY], faults=[status_fault("chat_completions", status)]) as server:
        error = fails(send, "chat_completions", server, clock=clock, retries=5)
    assert len(server.requests) == 1 and clock.waits == [] and error.code == code
    assert f"HTTP {status}" in str(error) and "profile 'loop'" in str(error)
    if code == "auth":
        assert "$LOOP_KEY" in error.expected


def test_a_wrong_key_is_a_401_that_names_the_variable_not_the_key() -> None:
    with ProviderServer("anthropic_messages", [REPLY], key="the-right-one") as server:
        error = fails(send, "anthropic_messages", server)
    assert error.code == "auth" and "LOOP_KEY" in str(error) and "the-right-one" not in str(error)


def test_a_wrong_path_is_a_404_that_says_which_path_was_expected() -> None:
    with ProviderServer("chat_completions", [REPLY]) as server:
        error = fails(send, "chat_completions", server, endpoint=server.base + "/v1/completions")
    assert "HTTP 404" in str(error) and "/chat/completions" in error.expected


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("stream", [True, False])
def test_a_reply_cut_mid_way_fails_as_cut(protocol: str, stream: bool) -> None:
    with ProviderServer(protocol, [REPLY], faults=[Fault("cut", after=4)]) as server:
        error = fails(send, protocol, server, stream=stream)
    assert error.code in ("stream_cut", "bad_reply") and "profile 'loop'" in str(error)
    assert len(server.requests) == 1  # never retried once the reply began


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_stream_that_ends_early_without_a_cut_connection_fails_as_cut(protocol: str) -> None:
    """A well-formed stream that stops before its end event (no message_stop, no
    finish_reason, no response.completed)."""
    reader = client.READERS[protocol]()
    from provider_servers import events_for

    events = events_for(protocol, REPLY, "m", 0, 3, {})
    for name, data in events[: len(events) // 2]:
        reader.feed(name, data)
    with pytest.raises(LwError) as info:
        reader.finish()
    assert info.value.code == "stream_cut"


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_an_error_event_in_the_stream_fails_with_the_providers_words(protocol: str) -> None:
    with ProviderServer(protocol, [REPLY], faults=[Fault("error_event", after=3)]) as server:
        error = fails(send, protocol, server)
    assert "Overloaded" in str(error) or "overloaded" in str(error)


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("stream", [True, False])
def test_garbage_fails_cleanly(protocol: str, stream: bool) -> None:
    with ProviderServer(protocol, [REPLY], faults=[Fault("garbage")]) as server:
        error = fails(send, protocol, server, stream=stream)
    assert error.code in ("bad_stream", "bad_reply", "encoding", "stream_cut") and "profile 'loop'" in str(error)


def test_a_slow_first_token_within_the_read_timeout_is_waited_for() -> None:
    with ProviderServer("anthropic_messages", [REPLY], faults=[Fault("slow_first", delay=0.3)]) as server:
        reply = send("anthropic_messages", server, read=10.0)
    assert ADAPTERS["anthropic_messages"].parse_reply(reply).text == REPLY.text


def test_nothing_within_the_read_timeout_is_a_timeout_not_a_hang() -> None:
    with ProviderServer("chat_completions", [REPLY], faults=[Fault("hang", delay=5.0)]) as server:
        start = time.monotonic()
        error = fails(send, "chat_completions", server, read=0.3)
    assert error.code == "timeout" and "0.3 s" in str(error)
    assert time.monotonic() - start < 4.5  # a hang check: it ended well before the server did


def test_a_refused_connection_is_retried_then_reported() -> None:
    clock = Clock()
    with ProviderServer("chat_completions") as server:
        url = server.url
    error = fails(send, "chat_completions", None, endpoint=url, clock=clock, retries=1)  # type: ignore[arg-type]
    assert error.code == "unreachable" and "after 2 tries" in str(error) and len(clock.waits) == 1


@pytest.mark.parametrize("served,asked", [("chat_completions", "anthropic_messages"),
                                          ("anthropic_messages", "chat_completions"),
                                          ("anthropic_messages", "openai_responses")])
@pytest.mark.parametrize("stream", [True, False])
def test_a_server_of_another_protocol_is_named(served: str, asked: str, stream: bool) -> None:
    """An OpenAI-compatible server answering an Anthropic request (in its own shape), and an
    Anthropic server refusing an OpenAI request (an Anthropic-shaped error): the error says
    which protocol answered and what to set."""
    with ProviderServer(served, [REPLY]) as server:
        error = fails(send, asked, server, stream=stream, key=None)
    assert error.code == "protocol_mismatch", str(error)
    assert f"--protocol {served}" in error.expected and "profile 'loop'" in str(error)


def test_a_request_the_server_cannot_read_says_which_shape_was_sent() -> None:
    with ProviderServer("openai_responses", [REPLY]) as server:
        error = fails(send, "chat_completions", server, endpoint=server.base + "/v1/responses", key=None)
    assert "HTTP 400" in str(error) and "input" in str(error) and "Chat Completions shape" in error.expected


def test_cancel_during_a_slow_first_token_stops_at_once() -> None:
    cancel = Cancel()
    with ProviderServer("anthropic_messages", [REPLY], faults=[Fault("hang", delay=10.0)]) as server:
        threading.Timer(0.3, cancel.set).start()
        start = time.monotonic()
        error = fails(send, "anthropic_messages", server, cancel=cancel, read=30.0)
    assert error.code == "cancelled" and time.monotonic() - start < 8.0


def test_cancel_during_a_backoff_stops_before_the_next_try() -> None:
    cancel = Cancel()

    def clock(seconds: float, c: Cancel | None) -> None:
        cancel.set()

    with ProviderServer("chat_completions", [REPLY], faults=[status_fault("chat_completions", 500)]) as server:
        error = fails(send, "chat_completions", server, cancel=cancel, clock=clock)  # type: ignore[arg-type]
    assert error.code == "cancelled" and len(server.requests) == 1


def test_a_cancel_already_set_sends_nothing() -> None:
    cancel = Cancel()
    cancel.set()
    with ProviderServer("chat_completions", [REPLY]) as server:
        error = fails(send, "chat_completions", server, cancel=cancel)
    assert error.code == "cancelled" and server.requests == []


def test_outside_a_calling_block_one_plain_request_goes_out() -> None:
    with ProviderServer("chat_completions", [REPLY], faults=[status_fault("chat_completions", 500)]) as server:
        request = CHAT_COMPLETIONS.request({"messages": []}, [], model="m", max_tokens=8)
        error = fails(CHAT_COMPLETIONS.send, request, endpoint=server.url, api_key=KEY, timeout=5.0)
    assert len(server.requests) == 1 and "stream" not in server.requests[0].body and "HTTP 500" in str(error)


def test_the_narration_pieces_of_one_read_reach_the_callback_as_one() -> None:
    """What arrived in one read of the network is handed on at once: each run of narration
    pieces one ``TextDelta`` (in order, nothing lost), every other delta where it was."""
    deltas = [TextDelta("雾"), TextDelta("中"), ToolCallStart(0, "c1", "roll"), ToolArgumentsDelta(0, "{}"),
              TextDelta("钟"), TextDelta("声"), TextDelta("。"), StopDelta("end_turn")]
    assert client._joined(deltas) == [TextDelta("雾中"), ToolCallStart(0, "c1", "roll"), ToolArgumentsDelta(0, "{}"),
                                      TextDelta("钟声。"), StopDelta("end_turn")]
    assert client._joined([TextDelta("a")]) == [TextDelta("a")] and client._joined([]) == []
