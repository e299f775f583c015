"""Hostile streams: every surface that reads a streamed reply (the SSE reader, the three
protocol readers) answers bad input with an ``LwError`` -- never another exception, never a
hang -- and reads a good stream the same however its bytes are split."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from provider_servers import Reply, encode, events_for

from lwcore.errors import LwError
from lwcore.api import CallOptions
from lw_providers import client
from lw_providers.client import Target
from lw_providers.adapters import ANTHROPIC_MESSAGES, CHAT_COMPLETIONS, RESPONSES
from lw_providers.sse import MAX_SSE_EVENT_BYTES, MAX_SSE_LINE_BYTES, SseReader
from lw_providers.streams import MAX_STREAM_BLOCKS, READERS

ADAPTERS = {a.protocol: a for a in (ANTHROPIC_MESSAGES, CHAT_COMPLETIONS, RESPONSES)}
PROTOCOLS = tuple(READERS)
REPLY = Reply("潮水退去，船舱里只剩一盏灯。", [("c1", "skill_check", {"character": "p1", "skill": "侦查"})])
HANG = 20.0
"""Seconds a hostile read may take before it counts as a hang (a hang check, not a speed claim)."""


def finishes(fn: Callable[[], Any]) -> Any:
    """Run ``fn`` in a thread; fail if it does not finish within :data:`HANG` seconds."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            box["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(HANG)
    assert not thread.is_alive(), "the reader hung"
    if "error" in box:
        raise box["error"]
    return box.get("value")


def stream_bytes(protocol: str, reply: Reply = REPLY, chunk: int = 3) -> bytes:
    return b"".join(encode(name, data) for name, data in events_for(protocol, reply, "m", 0, chunk,
                                                                    {"stream_options": {"include_usage": True}}))


def read(protocol: str, chunks: list[bytes]) -> dict:
    sse, reader = SseReader(), READERS[protocol]()
    for chunk in chunks:
        for event, data in sse.feed(chunk):
            reader.feed(event, data)
        if reader.done:
            break
    for event, data in sse.close():
        reader.feed(event, data)
    return reader.finish()


def only_lw_errors(protocol: str, chunks: list[bytes]) -> dict | None:
    try:
        return read(protocol, chunks)
    except LwError:
        return None


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_stream_reads_the_same_however_its_bytes_are_split(protocol: str) -> None:
    data = stream_bytes(protocol)
    whole = ADAPTERS[protocol].parse_reply(read(protocol, [data]))
    assert whole.text == REPLY.text and whole.tool_calls[0].arguments == REPLY.calls[0][2]
    for cut in range(0, len(data), 7):
        assert ADAPTERS[protocol].parse_reply(read(protocol, [data[:cut], data[cut:]])) == whole
    assert ADAPTERS[protocol].parse_reply(read(protocol, [data[i:i + 1] for i in range(len(data))])) == whole
    events = [encode(name, data) for name, data in events_for(protocol, REPLY, "m", 0, 3,
                                                                {"stream_options": {"include_usage": True}})]
    assert ADAPTERS[protocol].parse_reply(read(protocol, events)) == whole  # an event a read, as servers send


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("newline", [b"\r\n", b"\r"])
def test_every_line_ending_reads_the_same(protocol: str, newline: bytes) -> None:
    data = stream_bytes(protocol).replace(b"\n", newline)
    assert ADAPTERS[protocol].parse_reply(read(protocol, [data])).text == REPLY.text


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_stream_cut_anywhere_is_an_error_or_the_whole_reply(protocol: str) -> None:
    """Cut at every byte: the reader either refuses (the end never came) or -- cut only after
    the end event -- returns the whole reply; nothing else."""
    data = stream_bytes(protocol)
    full = ADAPTERS[protocol].parse_reply(read(protocol, [data]))
    whole = (full.text, full.tool_calls, full.stop_reason)
    for cut in range(len(data)):
        got = only_lw_errors(protocol, [data[:cut]])
        if got is not None:  # only once the reply is whole (a Chat Completions usage chunk may be missing)
            parsed = ADAPTERS[protocol].parse_reply(got)
            assert (parsed.text, parsed.tool_calls, parsed.stop_reason) == whole, cut


def test_sse_fields_comments_and_multi_line_data() -> None:
    sse = SseReader()
    events = sse.feed(b": a comment\nid: 7\nretry: 100\nevent: x\ndata: one\ndata:two\ndata:  three\n\n"
                      b"data: {}\n\nevent: lonely\n\n\n\n")
    assert events == [("x", "one\ntwo\n three"), (None, "{}"), ("lonely", "")]
    assert not sse.partial
    assert sse.feed(b"data: half") == [] and sse.partial
    pieces = [b"event: x\ndata: {\"a\": 1}\n\n", b"data: \xe4\xb8\xad\n\n", b"data:nospace\n\n", b": note\n\n",
              b"data: \n\n", b"event: e\n\n", b"data: a\ndata: b\n\n", b"id: 1\ndata: c\n\n"]
    together, apart = SseReader(), SseReader()  # an event a chunk reads as the same bytes at once
    assert [e for piece in pieces for e in apart.feed(piece)] == together.feed(b"".join(pieces))
    assert apart.events == together.events == 7 and not apart.partial
    for bad in (b"event: \xff\ndata: x\n\n", b"data: \xff\n\n"):
        with pytest.raises(LwError) as info:
            SseReader().feed(bad)
        assert info.value.code == "encoding"


@pytest.mark.parametrize("hostile", [
    b"data: " + b"x" * (MAX_SSE_LINE_BYTES + 10),                       # a line with no end
    b"data: " + b"x" * (MAX_SSE_LINE_BYTES + 10) + b"\n\n",             # one huge line
    (b"data: " + b"x" * 1000 + b"\n") * (MAX_SSE_EVENT_BYTES // 1000 + 10),  # one event of many lines
    b"data: \xff\xfe\n\n",                                                # not UTF-8
])
def test_sse_limits_and_encoding_are_refused(hostile: bytes) -> None:
    def go() -> None:
        sse = SseReader()
        for i in range(0, len(hostile), 65536):
            sse.feed(hostile[i:i + 65536])

    with pytest.raises(LwError) as info:
        finishes(go)
    assert info.value.code in ("limit", "encoding")


def _events(protocol: str, objs: list[Any]) -> list[bytes]:
    return [encode(o.get("type") if isinstance(o, dict) and protocol != "chat_completions" else None,
                   o if isinstance(o, str) else json.dumps(o)) for o in objs]


START = {"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant", "content": [],
                                                "model": "m", "usage": {"input_tokens": 1}}}
HOSTILE = {
    "anthropic_messages": [
        [{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "x"}}],
        [START, {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "x"}}],
        [START, {"type": "content_block_start", "index": 10 ** 9, "content_block": {"type": "text"}}],
        [START, {"type": "content_block_start", "index": -1, "content_block": {"type": "text"}}],
        [START, {"type": "content_block_start", "index": True, "content_block": {"type": "text"}}],
        [START, {"type": "content_block_start", "index": 0, "content_block": []}],
        [START, {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": 5}},
         {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "x"}}],
        [START, {"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "text": None}},
         {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "x"}}],
        [START, {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}],
        [{"type": "message_start", "message": "nope"}],
        ["not json at all"],
        ["[" * 5000 + "]" * 5000],
        [START, "[]"],
        [{"choices": []}],
    ],
    "chat_completions": [
        [{"choices": "nope"}],
        [{"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 10 ** 9}]}}]}],
        [{"choices": [{"index": 0, "delta": {"tool_calls": [{"index": "0"}]}}]}],
        [{"choices": [{"index": 0, "delta": {"content": "x"}}]}, "[DONE]"],
        [{"error": {"message": "boom", "type": "server_error"}}],
        [{"type": "message_start", "message": {}}],
        ["{\"choices\": [1e999]}"],
        ["\"just a string\""],
    ],
    "openai_responses": [
        [{"type": "response.output_text.delta", "output_index": 0, "delta": "x"}],
        [{"type": "response.output_item.added", "output_index": 0, "item": None}],
        [{"type": "response.output_item.added", "output_index": 5000, "item": {"type": "message"}}],
        [{"type": "response.completed", "response": []}],
        [{"type": "response.failed", "response": {"error": {"code": "server_error", "message": "x"}}}],
        [{"type": "response.incomplete", "response": {"incomplete_details": {"reason": "max_output_tokens"}}}],
        [{"type": "error", "code": "server_error", "message": "Overloaded"}],
        [{"type": "response.created", "response": {}}],
        [{"choices": [{"index": 0, "delta": {}}]}],
    ],
}


@pytest.mark.parametrize("protocol,case", [(p, i) for p, cases in HOSTILE.items() for i in range(len(cases))])
def test_hostile_events_are_refused_cleanly(protocol: str, case: int) -> None:
    chunks = _events(protocol, HOSTILE[protocol][case])
    with pytest.raises(LwError):
        finishes(lambda: read(protocol, chunks))


def test_a_tool_call_with_broken_arguments_is_kept_raw_for_the_tool_path() -> None:
    """Broken JSON arguments are not a broken stream: the call keeps them raw and the turn's
    checked tool path answers it with a tool error."""
    objs = [START, {"type": "content_block_start", "index": 0,
                    "content_block": {"type": "tool_use", "id": "t", "name": "roll", "input": {}}},
            {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{oops"}},
            {"type": "content_block_stop", "index": 0},
            {"type": "message_delta", "delta": {"stop_reason": "tool_use"}}, {"type": "message_stop"}]
    parsed = ANTHROPIC_MESSAGES.parse_reply(read("anthropic_messages", _events("anthropic_messages", objs)))
    assert parsed.tool_calls[0].arguments == "{oops"


def test_too_many_tool_calls_are_refused() -> None:
    chunks = [encode(None, json.dumps({"choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": i, "id": f"c{i}", "function": {"name": "x", "arguments": ""}}]}}]})) for i in range(MAX_STREAM_BLOCKS + 1)]
    with pytest.raises(LwError):
        finishes(lambda: read("chat_completions", chunks))


@pytest.mark.parametrize("protocol", PROTOCOLS)
@given(data=st.binary(max_size=2000))
def test_random_bytes_are_an_error_or_a_reply(protocol: str, data: bytes) -> None:
    only_lw_errors(protocol, [data])


JSONISH = st.recursive(st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=5),
                       lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                           st.sampled_from(["type", "index", "delta", "choices", "message", "content_block", "item",
                                            "output_index", "response", "tool_calls", "function", "text",
                                            "partial_json", "arguments", "finish_reason", "usage", "output"]),
                           inner, max_size=4), max_leaves=12)
TYPES = st.sampled_from(["message_start", "content_block_start", "content_block_delta", "content_block_stop",
                         "message_delta", "message_stop", "ping", "error", "response.created",
                         "response.output_item.added", "response.output_text.delta",
                         "response.function_call_arguments.delta", "response.output_item.done", "response.completed"])


@pytest.mark.parametrize("protocol", PROTOCOLS)
@given(objs=st.lists(st.tuples(TYPES, JSONISH), max_size=8))
def test_random_events_are_an_error_or_a_reply(protocol: str, objs: list) -> None:
    events = []
    for kind, body in objs:
        obj = {"type": kind, **body} if isinstance(body, dict) else body
        events.append(obj)
    got = only_lw_errors(protocol, _events(protocol, events))
    if got is not None:
        ADAPTERS[protocol].parse_reply(got)  # whatever was assembled is a reply the adapter reads


def _outcome(reader: Any, events: list[tuple[str | None, str]]) -> Any:
    deltas: list = []
    try:
        for event, data in events:
            deltas += reader.feed(event, data)
        return deltas, reader.finish()
    except LwError as exc:
        return exc.code, exc.message


# What a later narration event's text is replaced by: JSON strings of every kind (each read as
# that text) and text around which the event is no longer one string in the same place.
TEXT_SWAPS = ['"plain"', '"quote \\" inside"', '"back\\\\slash\\\\"', '"\\u00e9\\n\\t"', '"\\ud83d\\ude00"',
              '"\\ud800 lone"', '"x\\udc00"', '"raw\x01control"', '"\\q bad escape"', '"open', '""', '5', 'null',
              '"a", "content": "b"', '"a", "text": "b"', '"a"}, {"x": "', '"a\\"']


@pytest.mark.parametrize("protocol", ["chat_completions", "anthropic_messages"])
def test_narration_read_through_a_template_is_read_as_the_whole_event_would_be(protocol: str) -> None:
    """A narration event matching the template of one before it is read from its text alone;
    whatever a later event's text is swapped for, deltas, reply and errors are those of a reader
    that reads every event whole."""

    class Whole(READERS[protocol]):  # type: ignore[valid-type,misc]
        text_key = None

    events = events_for(protocol, Reply("abcdefghijklmnopqrstuvwxyz", REPLY.calls), "m", 0, 3,
                        {"stream_options": {"include_usage": True}})
    key = '"content": "' if protocol == "chat_completions" else '"text": "'
    texts = [i for i, (_, data) in enumerate(events) if key in data and f'{key}"' not in data]
    assert len(texts) > 5
    templated = READERS[protocol]()
    _outcome(templated, events)
    assert templated._template is not None  # the fast path was taken
    for i in texts[2:5]:
        for swap in TEXT_SWAPS:
            name, data = events[i]
            start = data.index(key) + len(key) - 1
            stop = json.decoder.scanstring(data, start + 1)[1]
            changed = [*events[:i], (name, data[:start] + swap + data[stop:]), *events[i + 1:]]
            whole = _outcome(Whole(), changed)
            assert _outcome(READERS[protocol](), changed) == whole, (i, swap)
            assert _client_outcome(protocol, changed) == whole, (i, swap)


class _Chunks(httpx.SyncByteStream):
    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks

    def __iter__(self) -> Iterator[bytes]:
        yield from self.chunks


def _client_outcome(protocol: str, events: list[tuple[str | None, str]]) -> Any:
    """What the client's stream reader makes of ``events``, each arriving in its own read."""
    deltas: list = []
    response = httpx.Response(200, headers={"content-type": "text/event-stream"},
                              stream=_Chunks([encode(name, data) for name, data in events]))
    target = Target(protocol=protocol, endpoint="http://127.0.0.1:9/", label="test", headers={},
                    connect_timeout=1.0, read_timeout=1.0)
    try:
        return deltas, client._read_stream(target, response, CallOptions(stream=True, on_delta=deltas.append))
    except LwError as exc:
        return exc.code, exc.message
