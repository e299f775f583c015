"""Loopback model servers speaking each provider's documented wire format, with scripted faults.

:class:`ProviderServer` is a real HTTP/1.1 server on 127.0.0.1 (a thread) that answers
requests in one protocol's shape, non-streamed or, when the request says ``"stream": true``,
as server-sent events exactly as the provider documents them (event names and fields,
tool-call deltas, usage), sent with chunked transfer encoding as the providers do:

- ``anthropic_messages`` (``POST /v1/messages``): ``message_start``, ``ping``,
  ``content_block_start`` / ``content_block_delta`` (``text_delta``, ``input_json_delta``) /
  ``content_block_stop``, ``message_delta`` (stop reason, usage), ``message_stop``. Wants
  ``anthropic-version`` and, when given a key, ``x-api-key`` (or ``Authorization: Bearer``,
  which Anthropic's current Python SDK sends).
- ``chat_completions`` (``POST …/chat/completions``): ``chat.completion.chunk`` objects
  with ``choices[0].delta`` content and ``tool_calls`` by ``index``, ``finish_reason``, a
  usage chunk when ``stream_options.include_usage``, then ``data: [DONE]``. Wants
  ``Authorization: Bearer`` when given a key.
- ``openai_responses`` (``POST …/responses``): ``response.created``,
  ``response.output_item.added``, ``response.content_part.added``,
  ``response.output_text.delta`` / ``.done``, ``response.function_call_arguments.delta`` /
  ``.done``, ``response.output_item.done``, ``response.completed``.

Each request answers the next :class:`Reply` of the script (a list, or a function of the
request number); ``faults[n]`` (a :class:`Fault`), when given, replaces or disturbs the answer
to request ``n``. Every request is recorded (:attr:`ProviderServer.requests`). A request
without a model, on a path the protocol does not serve, or without the key is refused the way
the provider refuses it.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

PATHS = {"anthropic_messages": ("/v1/messages",), "chat_completions": ("/chat/completions",),
         "openai_responses": ("/responses",)}


@dataclass
class Reply:
    """One scripted model reply: narration and tool calls ``(id, name, arguments)``."""

    text: str = ""
    calls: Sequence[tuple[str, str, Any]] = ()


@dataclass
class Fault:
    """What goes wrong with one answer.

    ``status``: answer this HTTP status instead (``headers`` and ``body`` with it);
    ``cut``: stop the stream after ``after`` events, in the middle of the next one;
    ``slow_first``: wait ``delay`` seconds before the first token (headers already sent);
    ``garbage``: answer 200 with ``body`` (bytes) as an event stream; ``error_event``: an
    error event after ``after`` events (Anthropic ``overloaded_error``, OpenAI ``error``);
    ``hang``: send the headers, then nothing for ``delay`` seconds.
    """

    kind: str
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: Any = None
    after: int = 2
    delay: float = 0.0


@dataclass
class Seen:
    path: str
    headers: dict[str, str]
    body: Any


def _error_body(protocol: str, status: int, kind: str, message: str) -> dict[str, Any]:
    if protocol == "anthropic_messages":
        return {"type": "error", "error": {"type": kind, "message": message}}
    return {"error": {"message": message, "type": kind, "param": None, "code": kind}}


def status_fault(protocol: str, status: int, headers: dict[str, str] | None = None) -> Fault:
    """The provider's own error answer for ``status`` (429 rate limit, 529 overloaded, …)."""
    kinds = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
             404: "not_found_error", 429: "rate_limit_error", 500: "api_error", 503: "overloaded_error",
             529: "overloaded_error"}
    kind = kinds.get(status, "api_error")
    return Fault("status", status=status, headers=headers or {},
                 body=_error_body(protocol, status, kind, f"{kind.replace('_', ' ')} (scripted)"))


def pieces(text: str, size: int) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)] or []


# --- the three wire formats --------------------------------------------------------------------


def anthropic_body(reply: Reply, model: str, n: int) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    if reply.text:
        content.append({"type": "text", "text": reply.text})
    content += [{"type": "tool_use", "id": i, "name": name, "input": args} for i, name, args in reply.calls]
    return {"id": f"msg_{n}", "type": "message", "role": "assistant", "model": model, "content": content,
            "stop_reason": "tool_use" if reply.calls else "end_turn", "stop_sequence": None,
            "usage": {"input_tokens": 25, "output_tokens": 9}}


def anthropic_events(reply: Reply, model: str, n: int, chunk: int) -> list[tuple[str | None, str]]:
    body = anthropic_body(reply, model, n)
    start = {**body, "content": [], "stop_reason": None, "usage": {"input_tokens": 25, "output_tokens": 1}}
    events: list[tuple[str | None, Any]] = [("message_start", {"type": "message_start", "message": start}),
                                            ("ping", {"type": "ping"})]
    for index, block in enumerate(body["content"]):
        if block["type"] == "text":
            events.append(("content_block_start", {"type": "content_block_start", "index": index,
                                                   "content_block": {"type": "text", "text": ""}}))
            events += [("content_block_delta", {"type": "content_block_delta", "index": index,
                                                "delta": {"type": "text_delta", "text": p}})
                       for p in pieces(block["text"], chunk)]
        else:
            events.append(("content_block_start", {"type": "content_block_start", "index": index,
                                                   "content_block": {**block, "input": {}}}))
            events += [("content_block_delta", {"type": "content_block_delta", "index": index,
                                                "delta": {"type": "input_json_delta", "partial_json": p}})
                       for p in ["", *pieces(json.dumps(block["input"], ensure_ascii=False), chunk)]]
        events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    events.append(("message_delta", {"type": "message_delta",
                                     "delta": {"stop_reason": body["stop_reason"], "stop_sequence": None},
                                     "usage": {"output_tokens": 9}}))
    events.append(("message_stop", {"type": "message_stop"}))
    return [(name, json.dumps(data, ensure_ascii=False)) for name, data in events]


def chat_body(reply: Reply, model: str, n: int) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
    if reply.calls:
        message["tool_calls"] = [{"id": i, "type": "function",
                                  "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}
                                 for i, name, args in reply.calls]
    return {"id": f"chatcmpl-{n}", "object": "chat.completion", "created": 1700000000, "model": model,
            "choices": [{"index": 0, "message": message, "logprobs": None,
                         "finish_reason": "tool_calls" if reply.calls else "stop"}],
            "usage": {"prompt_tokens": 25, "completion_tokens": 9, "total_tokens": 34}}


def chat_events(reply: Reply, model: str, n: int, chunk: int, usage: bool) -> list[tuple[str | None, str]]:
    body = chat_body(reply, model, n)
    head = {"id": body["id"], "object": "chat.completion.chunk", "created": body["created"], "model": model,
            "system_fingerprint": "fp_loopback"}

    def chunk_of(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**head, "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]}

    events = [chunk_of({"role": "assistant", "content": ""})]
    events += [chunk_of({"content": p}) for p in pieces(reply.text, chunk)]
    for index, (call_id, name, args) in enumerate(reply.calls):
        events.append(chunk_of({"tool_calls": [{"index": index, "id": call_id, "type": "function",
                                                "function": {"name": name, "arguments": ""}}]}))
        events += [chunk_of({"tool_calls": [{"index": index, "function": {"arguments": p}}]})
                   for p in pieces(json.dumps(args, ensure_ascii=False), chunk)]
    events.append(chunk_of({}, body["choices"][0]["finish_reason"]))
    if usage:
        events.append({**head, "choices": [], "usage": body["usage"]})
    return [(None, json.dumps(e, ensure_ascii=False)) for e in events] + [(None, "[DONE]")]


def responses_body(reply: Reply, model: str, n: int) -> dict[str, Any]:
    output: list[dict[str, Any]] = []
    if reply.text:
        output.append({"type": "message", "id": f"msg_{n}", "status": "completed", "role": "assistant",
                       "content": [{"type": "output_text", "text": reply.text, "annotations": []}]})
    output += [{"type": "function_call", "id": f"fc_{i}", "call_id": i, "name": name,
                "arguments": json.dumps(args, ensure_ascii=False), "status": "completed"}
               for i, name, args in reply.calls]
    return {"id": f"resp_{n}", "object": "response", "created_at": 1700000000, "status": "completed",
            "model": model, "output": output, "usage": {"input_tokens": 25, "output_tokens": 9, "total_tokens": 34}}


def responses_events(reply: Reply, model: str, n: int, chunk: int) -> list[tuple[str | None, str]]:
    body = responses_body(reply, model, n)
    shell = {**body, "status": "in_progress", "output": [], "usage": None}
    events: list[dict[str, Any]] = [{"type": "response.created", "response": shell},
                                    {"type": "response.in_progress", "response": shell}]
    for index, item in enumerate(body["output"]):
        if item["type"] == "message":
            events.append({"type": "response.output_item.added", "output_index": index,
                           "item": {**item, "status": "in_progress", "content": []}})
            part = {"type": "output_text", "text": "", "annotations": []}
            events.append({"type": "response.content_part.added", "item_id": item["id"], "output_index": index,
                           "content_index": 0, "part": part})
            events += [{"type": "response.output_text.delta", "item_id": item["id"], "output_index": index,
                        "content_index": 0, "delta": p} for p in pieces(reply.text, chunk)]
            events.append({"type": "response.output_text.done", "item_id": item["id"], "output_index": index,
                           "content_index": 0, "text": reply.text})
            events.append({"type": "response.content_part.done", "item_id": item["id"], "output_index": index,
                           "content_index": 0, "part": item["content"][0]})
        else:
            events.append({"type": "response.output_item.added", "output_index": index,
                           "item": {**item, "arguments": "", "status": "in_progress"}})
            events += [{"type": "response.function_call_arguments.delta", "item_id": item["id"],
                        "output_index": index, "delta": p} for p in pieces(item["arguments"], chunk)]
            events.append({"type": "response.function_call_arguments.done", "item_id": item["id"],
                           "output_index": index, "arguments": item["arguments"]})
        events.append({"type": "response.output_item.done", "output_index": index, "item": item})
    events.append({"type": "response.completed", "response": body})
    for number, event in enumerate(events):
        event["sequence_number"] = number
    return [(e["type"], json.dumps(e, ensure_ascii=False)) for e in events]


BODIES = {"anthropic_messages": anthropic_body, "chat_completions": chat_body, "openai_responses": responses_body}


def events_for(protocol: str, reply: Reply, model: str, n: int, chunk: int, request: Any) -> list[tuple[str | None, str]]:
    if protocol == "anthropic_messages":
        return anthropic_events(reply, model, n, chunk)
    if protocol == "chat_completions":
        usage = bool(isinstance(request, dict) and (request.get("stream_options") or {}).get("include_usage"))
        return chat_events(reply, model, n, chunk, usage)
    return responses_events(reply, model, n, chunk)


def encode(event: str | None, data: str) -> bytes:
    head = f"event: {event}\n" if event else ""
    return (head + "".join(f"data: {line}\n" for line in data.split("\n")) + "\n").encode("utf-8")


# --- the server ------------------------------------------------------------------------------------


class ProviderServer:
    """A loopback server of one protocol (see the module doc); a context manager."""

    def __init__(self, protocol: str, replies: Sequence[Reply] | Callable[[int], Reply] = (Reply("雾中传来钟声。"),),
                 *, faults: Sequence[Fault | None] = (), key: str | None = None, chunk: int = 3,
                 first_token_delay: float = 0.0, token_delay: float = 0.0) -> None:
        self.protocol = protocol
        self.token_delay = token_delay  # seconds between two events (a model's pace); 0: as fast as they go
        self.replies = replies
        self.faults = list(faults)
        self.key = key
        self.chunk = chunk
        self.first_token_delay = first_token_delay
        self.requests: list[Seen] = []
        self.lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self) -> None:
                super().setup()
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # each event as written

            def do_POST(self) -> None:  # noqa: N802
                outer._answer(self)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    @property
    def url(self) -> str:
        """The documented endpoint of the protocol on this server."""
        return self.base + {"anthropic_messages": "/v1/messages", "chat_completions": "/v1/chat/completions",
                            "openai_responses": "/v1/responses"}[self.protocol]

    def __enter__(self) -> ProviderServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    # -- answering

    def _reply(self, n: int) -> Reply:
        if callable(self.replies):
            return self.replies(n)
        return self.replies[min(n, len(self.replies) - 1)]

    def _answer(self, h: BaseHTTPRequestHandler) -> None:
        length = int(h.headers.get("content-length") or 0)
        raw = h.rfile.read(length)
        try:
            body = json.loads(raw.decode("utf-8"))
        except ValueError:
            body = None
        with self.lock:
            n = len(self.requests)
            self.requests.append(Seen(h.path, {k.lower(): v for k, v in h.headers.items()}, body))
        fault = self.faults[n] if n < len(self.faults) else None
        refusal = self._refusal(h, body)
        if refusal is not None:
            return self._json(h, *refusal)
        if fault is not None and fault.kind == "status":
            return self._json(h, fault.status, fault.body or {}, fault.headers)
        model = body["model"]
        reply = self._reply(n)
        if not body.get("stream"):
            if fault is not None and fault.kind == "cut":
                data = json.dumps(BODIES[self.protocol](reply, model, n)).encode()
                h.send_response(200)
                h.send_header("content-type", "application/json")
                h.send_header("content-length", str(len(data)))
                h.end_headers()
                h.wfile.write(data[: len(data) // 2])
                h.wfile.flush()
                h.close_connection = True
                return
            if fault is not None and fault.kind == "garbage":
                return self._raw(h, 200, "application/json", fault.body or b"\x00garbage{{{")
            return self._json(h, 200, BODIES[self.protocol](reply, model, n))
        self._stream(h, reply, model, n, body, fault)

    def _refusal(self, h: BaseHTTPRequestHandler, body: Any) -> tuple[int, dict[str, Any]] | None:
        p = self.protocol
        if not any(h.path.split("?")[0].endswith(path) for path in PATHS[p]):
            return 404, _error_body(p, 404, "not_found_error", f"no route for {h.path}")
        if self.key is not None:
            bearer = (h.headers.get("authorization") or "").removeprefix("Bearer ")
            # Anthropic: x-api-key, or the Bearer header its current Python SDK sends
            given = (h.headers.get("x-api-key") or bearer) if p == "anthropic_messages" else bearer
            if given != self.key:
                return 401, _error_body(p, 401, "authentication_error", "invalid api key")
        if p == "anthropic_messages" and not h.headers.get("anthropic-version"):
            return 400, _error_body(p, 400, "invalid_request_error", "anthropic-version: header is required")
        if not isinstance(body, dict):
            return 400, _error_body(p, 400, "invalid_request_error", "the body is not JSON")
        if not body.get("model"):
            return 400, _error_body(p, 400, "invalid_request_error", "model: Field required")
        wants = {"anthropic_messages": ("messages", "max_tokens"), "chat_completions": ("messages",),
                 "openai_responses": ("input",)}[p]
        missing = [k for k in wants if k not in body]
        if missing:
            return 400, _error_body(p, 400, "invalid_request_error", f"{missing[0]}: Field required")
        return None

    def _json(self, h: BaseHTTPRequestHandler, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        self._raw(h, status, "application/json", json.dumps(body, ensure_ascii=False).encode("utf-8"), headers)

    def _raw(self, h: BaseHTTPRequestHandler, status: int, kind: str, data: bytes,
             headers: dict[str, str] | None = None) -> None:
        h.send_response(status)
        h.send_header("content-type", kind)
        h.send_header("content-length", str(len(data)))
        for name, value in (headers or {}).items():
            h.send_header(name, value)
        h.end_headers()
        h.wfile.write(data)

    def _stream(self, h: BaseHTTPRequestHandler, reply: Reply, model: str, n: int, request: Any,
                fault: Fault | None) -> None:
        h.send_response(200)
        h.send_header("content-type", "text/event-stream; charset=utf-8")
        h.send_header("cache-control", "no-cache")
        h.send_header("transfer-encoding", "chunked")
        h.end_headers()
        h.close_connection = True

        def send(data: bytes) -> None:
            h.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
            h.wfile.flush()

        try:
            if fault is not None and fault.kind == "garbage":
                send(fault.body if isinstance(fault.body, bytes) else b"\x89PNG\r\n\x1a\n garbage {{{ ]]\n\n")
                send(b"")
                return
            if fault is not None and fault.kind == "hang":
                time.sleep(fault.delay)
                return
            events = events_for(self.protocol, reply, model, n, self.chunk, request)
            delay = self.first_token_delay or (fault.delay if fault is not None and fault.kind == "slow_first" else 0)
            for number, (name, data) in enumerate(events):
                if fault is not None and fault.kind == "cut" and number == fault.after:
                    send(encode(name, data)[: len(encode(name, data)) // 2])  # then the connection closes
                    return
                if fault is not None and fault.kind == "error_event" and number == fault.after:
                    error = _error_body(self.protocol, 529, "overloaded_error", "Overloaded")
                    if self.protocol == "openai_responses":
                        error = {"type": "error", "code": "server_error", "message": "Overloaded", "param": None}
                    send(encode("error" if self.protocol != "chat_completions" else None, json.dumps(error)))
                    send(b"")
                    return
                if delay and number == 1:  # the first token comes after the stream has opened
                    time.sleep(delay)
                elif self.token_delay and number > 1:
                    time.sleep(self.token_delay)
                send(encode(name, data))
            send(b"")
        except (BrokenPipeError, ConnectionResetError):
            pass


# --- helpers of the tests that use these servers -------------------------------------------------


def snapshot(folder: Any) -> dict[str, bytes]:
    """Every file of a room by relative path (the empty marker files the room lock makes under
    ``.lw/`` left out): equal before and after means a turn wrote nothing."""
    files = {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
    return {k: v for k, v in files.items() if not (k.startswith(".lw/") and not v)}


class Clock:
    """An injected backoff clock (``CallOptions.sleep``): records each wait, never sleeps."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    def __call__(self, seconds: float, cancel: object) -> None:
        self.waits.append(seconds)
