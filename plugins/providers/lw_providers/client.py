"""The HTTP client of the provider adapters (httpx): one model request, streamed or not.

:func:`exchange` POSTs a request body as JSON and returns the reply body:

- **Timeouts**: separate connect and read timeouts (the read timeout bounds each wait for
  bytes, a slow first token included), from the profile, never above the pipeline's
  ``timeout`` (what is left of a room's deadline).
- **Retries**: an answer of 408, 429, 500, 502, 503, 504 or 529 (overloaded), or a refused or
  timed-out connection, is tried again up to the profile's ``retries`` times, after the wait
  the server asks for (``retry-after-ms``, ``Retry-After`` in seconds or as an HTTP date)
  or an exponential backoff with jitter (:data:`BACKOFF_BASE` doubling up to
  :data:`MAX_BACKOFF`). A server asking for more than :data:`MAX_RETRY_AFTER` seconds is not
  waited for. Any other 4xx is never retried. Nothing is retried once a reply has begun.
- **Streaming**: with ``stream``, the reply is read as server-sent events by the protocol's
  reader (:mod:`lw_providers.streams`); each delta goes to the host's callback as it
  arrives. A server that answers a streamed request with plain JSON is read as JSON.
- **Cancellation**: a set :class:`lwcore.live.Cancel` stops the call at once (the socket is
  shut down, a backoff wait ends) and the call fails with code ``cancelled``.
- **Errors**: every failure is one ``LwError`` naming the profile and endpoint, what went
  wrong and what was expected, with a stable ``code`` (``auth``, ``rate_limited``,
  ``overloaded``, ``server_error``, ``refused``, ``unreachable``, ``timeout``, ``stream_cut``,
  ``bad_stream``, ``bad_reply``, ``protocol_mismatch``, ``cancelled``, ``limit``). The key
  never appears in a message.

The read size is bounded by :data:`MAX_REPLY_BYTES` (streamed or not).
Proxies from the environment are not used (``trust_env=False``): a loopback server is
reached directly.
"""

from __future__ import annotations

import email.utils
import functools
import json
import socket
import ssl
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from lwcore.api import CallOptions, Cancel, Delta, LwError, TextDelta, load_json

from lw_providers.sse import SseReader
from lw_providers.streams import NAMES, READERS, shape_of

MAX_REPLY_BYTES = 16 * 1024 * 1024
"""The largest reply read, streamed or not."""
RETRY_STATUS = frozenset({408, 429, 500, 502, 503, 504, 529})
BACKOFF_BASE = 0.5
MAX_BACKOFF = 8.0
MAX_RETRY_AFTER = 60.0
"""The longest wait a server's ``Retry-After`` is honoured for, in seconds."""
MAX_ERROR_BYTES = 4096
"""How much of an error answer is read (for its message)."""
STATUS_CODES = {401: "auth", 403: "auth", 408: "timeout", 429: "rate_limited", 529: "overloaded", 503: "overloaded"}

_ssl_lock = threading.Lock()
_ssl_context: ssl.SSLContext | None = None


def _ssl() -> ssl.SSLContext:
    """One TLS context for every call (loading the CA bundle costs ~100 ms; a client ~0.2 ms)."""
    global _ssl_context
    with _ssl_lock:
        if _ssl_context is None:
            _ssl_context = ssl.create_default_context()
        return _ssl_context


@dataclass
class Target:
    """Where and how one request goes."""

    protocol: str
    endpoint: str
    label: str
    headers: Mapping[str, str]
    connect_timeout: float
    read_timeout: float
    retries: int = 0
    api_key: str | None = None
    key_env: str | None = None
    hint: str = ""
    """What a 404 means for this protocol (which path it expected)."""
    attempts: list[int] = field(default_factory=list)
    """The status of every attempt (0: no answer), for the caller's report."""


def _scrub(text: str, key: str | None) -> str:
    return text.replace(key, "***") if key else text


def _fail(target: Target, message: str, *, code: str, expected: str | None = None) -> LwError:
    return LwError(_scrub(f"{target.label}: {message}", target.api_key), code=code,
                   expected=_scrub(expected, target.api_key) if expected else None)


def retry_after(headers: Mapping[str, str], now: Callable[[], float] = time.time) -> float | None:
    """The wait a server asks for, in seconds (``retry-after-ms``, then ``Retry-After``)."""
    raw_ms = headers.get("retry-after-ms")
    if raw_ms:
        try:
            return max(0.0, float(raw_ms) / 1000)
        except ValueError:
            pass
    raw = headers.get("retry-after")
    if not raw:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when.timestamp() - now())


def backoff(attempt: int, options: CallOptions) -> float:
    """The wait before retry ``attempt`` (0-based) when the server names none."""
    return min(MAX_BACKOFF, BACKOFF_BASE * 2**attempt) * (0.5 + options.rng.random() / 2)


def _error_detail(response: httpx.Response) -> tuple[str, str | None]:
    """The error's words (bounded) and the protocol its shape belongs to, when it tells
    (Anthropic errors are ``{"type": "error", "error": {…}}``; OpenAI's ``{"error": {…}}``)."""
    text = _error_text(response)
    try:
        body = json.loads(text)
    except ValueError:
        return " ".join(text.split())[:300], None
    shape = "anthropic_messages" if isinstance(body, dict) and body.get("type") == "error" else None
    error = body.get("error", body) if isinstance(body, dict) else body
    if isinstance(error, dict):
        kind = error.get("type") or error.get("code") or ""
        message = error.get("message") or error.get("detail") or ""
        return (f"{kind}: {message}".strip(": ")[:300] if (kind or message) else json.dumps(error)[:300]), shape
    return str(error)[:300], shape


def _error_text(response: httpx.Response) -> str:
    raw = b""
    try:
        for chunk in response.iter_bytes():
            raw += chunk
            if len(raw) >= MAX_ERROR_BYTES:
                break
    except httpx.HTTPError:
        pass
    return raw[:MAX_ERROR_BYTES].decode("utf-8", "replace")


def _status_error(target: Target, status: int, reason: str, detail: str, tries: int) -> LwError:
    code = STATUS_CODES.get(status, "server_error" if status >= 500 else "refused")
    said = f"HTTP {status} {reason}" + (f": {detail}" if detail else "")
    after = f" (after {tries} tries)" if tries > 1 else ""
    expected = {
        "auth": f"a key the server accepts in ${target.key_env}" if target.key_env else "a key: the server wants one "
                "(lw provider add … --key-env NAME)",
        "rate_limited": "fewer requests: the server limits how often it is called (raise the profile's retries, or wait)",
        "overloaded": "a server with capacity: it says it is overloaded; try again later",
        "server_error": "a working server",
    }.get(code)
    if status == 404:
        expected = target.hint or "the endpoint URL the server documents"
    elif code == "refused" and expected is None:
        expected = f"a request the server accepts in {NAMES.get(target.protocol, target.protocol)} shape"
    return _fail(target, f"{said}{after}", code=code, expected=expected)


def _shutdown(holder: dict[str, Any]) -> None:
    stream = holder.get("stream")
    sock = stream.get_extra_info("socket") if stream is not None else None
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def exchange(target: Target, body: Mapping[str, Any], options: CallOptions) -> dict[str, Any]:
    """Send ``body`` to ``target`` (see the module doc); the reply body."""
    cancel = options.cancel
    data = json.dumps(body, ensure_ascii=False).encode("utf-8")
    headers = {"content-type": "application/json", **target.headers}
    if options.stream:
        headers["accept"] = "text/event-stream"
        headers["accept-encoding"] = "identity"  # events as sent: read raw, no decoder per chunk
    timeout = httpx.Timeout(connect=target.connect_timeout, read=target.read_timeout,
                            write=target.read_timeout, pool=target.connect_timeout)
    tries = 0
    for attempt in range(target.retries + 1):
        _check(cancel, target)
        tries += 1
        holder: dict[str, Any] = {}

        def trace(name: str, info: Mapping[str, Any], holder: dict[str, Any] = holder) -> None:
            if name == "connection.connect_tcp.complete":
                holder["stream"] = info.get("return_value")
                if cancel is not None and cancel.is_set():
                    _shutdown(holder)

        with httpx.Client(verify=_ssl(), trust_env=False, follow_redirects=False) as client, \
                (cancel or Cancel()).on_cancel(functools.partial(_shutdown, holder)):
            try:
                request = client.build_request("POST", target.endpoint, content=data, headers=headers,
                                               timeout=timeout, extensions={"trace": trace})
                response = client.send(request, stream=True)
            except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
                _check(cancel, target)
                target.attempts.append(0)
                if attempt < target.retries:
                    _wait(backoff(attempt, options), options, target)
                    continue
                what = "request failed: " + ("timed out connecting" if isinstance(exc, httpx.ConnectTimeout)
                                              else "could not connect")
                raise _fail(target, f"{what}{f' (after {tries} tries)' if tries > 1 else ''}: {_reason(exc)}",
                            code="unreachable", expected="a server listening at the endpoint") from None
            except httpx.TimeoutException:
                _check(cancel, target)
                target.attempts.append(0)
                raise _fail(target, f"no answer within {target.read_timeout:g} s", code="timeout",
                            expected="a server that answers within the profile's read_timeout") from None
            except httpx.HTTPError as exc:
                _check(cancel, target)
                target.attempts.append(0)
                raise _fail(target, f"request failed: {_reason(exc)}", code="unreachable") from None
            try:
                target.attempts.append(response.status_code)
                if response.status_code >= 400:
                    detail, shape = _error_detail(response)
                    if shape is not None and shape != target.protocol and 400 <= response.status_code < 500:
                        raise _fail(target, f"HTTP {response.status_code}: the endpoint answered with a "
                                    f"{NAMES[shape]} error ({detail}), not {NAMES.get(target.protocol)}",
                                    code="protocol_mismatch",
                                    expected=f"--protocol {shape} (or a profile with that protocol)")
                    if response.status_code in RETRY_STATUS and attempt < target.retries:
                        wait = retry_after(response.headers)
                        if wait is not None and wait > MAX_RETRY_AFTER:
                            raise _fail(target, f"HTTP {response.status_code}: the server asks to wait {wait:g} s "
                                        f"before retrying (more than {MAX_RETRY_AFTER:g} s)",
                                        code=STATUS_CODES.get(response.status_code, "server_error"),
                                        expected="to try again later")
                        _wait(backoff(attempt, options) if wait is None else wait, options, target)
                        continue
                    raise _status_error(target, response.status_code, response.reason_phrase, detail, tries)
                return _read(target, response, options)
            except httpx.TimeoutException:
                _check(cancel, target)
                raise _fail(target, f"the reply stopped: nothing arrived for {target.read_timeout:g} s",
                            code="timeout", expected="a server that keeps sending within the profile's read_timeout") \
                    from None
            except httpx.HTTPError as exc:
                _check(cancel, target)
                raise _fail(target, f"the reply was cut off: {_reason(exc)}", code="stream_cut",
                            expected=f"a whole {NAMES.get(target.protocol, target.protocol)} reply") from None
            except LwError as exc:
                _check(cancel, target)
                if exc.message.startswith(target.label):
                    raise
                raise _fail(target, exc.message, code=exc.code or "bad_reply",
                            expected=exc.expected or f"a {NAMES.get(target.protocol, target.protocol)} reply") from None
            finally:
                response.close()
    raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises


def _reason(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return " ".join(text.split())[:200]


def _check(cancel: Cancel | None, target: Target) -> None:
    if cancel is not None and cancel.is_set():
        raise LwError(f"{target.label}: the turn was cancelled; nothing was written", code="cancelled")


def _wait(seconds: float, options: CallOptions, target: Target) -> None:
    options.sleep(seconds, options.cancel)
    _check(options.cancel, target)


def _read(target: Target, response: httpx.Response, options: CallOptions) -> dict[str, Any]:
    kind = response.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind == "text/event-stream":
        return _read_stream(target, response, options)
    raw = bytearray()
    for chunk in response.iter_bytes():
        raw += chunk
        if len(raw) > MAX_REPLY_BYTES:
            raise LwError(f"the reply is larger than {MAX_REPLY_BYTES} bytes", code="limit")
    try:
        reply = load_json(bytes(raw))
    except LwError as exc:
        shown = kind or "no content type"
        raise LwError(f"the reply is not JSON ({shown}: {exc.message})", code="bad_reply",
                      expected=f"a {NAMES.get(target.protocol, target.protocol)} reply") from None
    if not isinstance(reply, dict):
        raise LwError("the reply is not a JSON object", code="bad_reply")
    other = shape_of(reply)
    if other is not None and other != target.protocol:
        raise LwError(f"the endpoint answered in {NAMES[other]} shape, not {NAMES.get(target.protocol)}",
                      code="protocol_mismatch", expected=f"--protocol {other} (or a profile with that protocol)")
    return reply


def _joined(deltas: list[Delta]) -> list[Delta]:
    """``deltas`` with each run of narration pieces made one (what arrived in one read is
    handed on at once: one callback, not one a token)."""
    out: list[Delta] = []
    run: list[str] = []
    for delta in deltas:
        if isinstance(delta, TextDelta):
            run.append(delta.text)
            continue
        if run:
            out.append(TextDelta("".join(run)))
            run = []
        out.append(delta)
    if run:
        out.append(TextDelta("".join(run)))
    return out


def _read_stream(target: Target, response: httpx.Response, options: CallOptions) -> dict[str, Any]:
    reader = READERS[target.protocol]()
    sse = SseReader()
    on_delta = options.on_delta
    encoded = response.headers.get("content-encoding", "identity").lower() not in ("", "identity")
    for chunk in (response.iter_bytes() if encoded else response.iter_raw()):
        if sse.bytes + len(chunk) > MAX_REPLY_BYTES:
            raise LwError(f"the stream is larger than {MAX_REPLY_BYTES} bytes", code="limit")
        deltas = sse.take(chunk, reader.feed_chunk)  # a narration event alone in its read, as most are
        if deltas is not None:
            if on_delta is not None:
                for delta in deltas:
                    on_delta(delta)
            continue
        events = sse.feed(chunk)
        if on_delta is None:
            for event, data in events:
                reader.feed(event, data)
        elif len(events) == 1:
            for delta in reader.feed(*events[0]):
                on_delta(delta)
        elif events:
            for delta in _joined([delta for event, data in events for delta in reader.feed(event, data)]):
                on_delta(delta)
        if reader.done:
            break
    if not reader.done:
        for event, data in sse.close():
            for delta in reader.feed(event, data):
                if on_delta is not None:
                    on_delta(delta)
    _check(options.cancel, target)
    if not reader.done and sse.events == 0:
        raise LwError("the stream held no events", code="bad_stream",
                      expected=f"a {NAMES.get(target.protocol, target.protocol)} event stream")
    return reader.finish()
