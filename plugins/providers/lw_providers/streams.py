"""Streamed replies read into the reply body the non-streamed call returns.

One reader per protocol; each is fed the server-sent events of one response (``feed(event,
data)``, the data still text), returns the typed deltas (:mod:`lwcore.live`) each event
carries, and :meth:`finish` returns the assembled body -- the same shape, and so the same
:class:`~lwcore.provider_adapter.ParsedReply`, as the non-streamed reply: tool calls assembled
from their deltas go through the same checked tool path as any other.

- :class:`AnthropicStream`: ``message_start``, ``content_block_start`` / ``_delta``
  (``text_delta``, ``input_json_delta``, ``thinking_delta``, ``signature_delta``) / ``_stop``,
  ``message_delta`` (stop reason, usage), ``message_stop``, ``ping``, ``error``.
- :class:`ChatStream`: ``chat.completion.chunk`` objects: ``choices[0].delta`` content and
  ``tool_calls`` deltas by ``index``, ``finish_reason``, a usage chunk (``choices: []``),
  ``[DONE]``.
- :class:`ResponsesStream`: ``response.created``, ``response.output_item.added`` / ``.done``,
  ``response.output_text.delta``, ``response.function_call_arguments.delta`` / ``.done``,
  ``response.completed``; ``response.failed``, ``response.incomplete`` and ``error`` fail.

Narration events come by the hundred and differ only in their text: once one has been read
whole, its JSON before and after the text is kept as a template, and a later event that
matches it character for character around a single JSON string is read by decoding that
string alone (:meth:`_Stream.feed`; :meth:`_Stream.feed_chunk` for a network read that is
one such event, SSE framing included); anything else is read whole. Chat Completions and
Anthropic Messages have templates; Responses events number themselves (``sequence_number``),
so none would match.

A stream that ends before its protocol's end (a cut), an event that is not JSON, an error
event, or events in another protocol's shape (:func:`shape_of`: the endpoint speaks a
different protocol) raise ``LwError`` saying which. Limits: :data:`MAX_STREAM_BLOCKS` content
blocks / tool calls / output items in one reply.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from lwcore.api import (
    Delta,
    LwError,
    StopDelta,
    TextDelta,
    ToolArgumentsDelta,
    ToolCallStart,
    UsageDelta,
    load_json,
)

MAX_STREAM_BLOCKS = 1024
"""Content blocks, tool calls or output items one streamed reply may have."""

NAMES = {"anthropic_messages": "Anthropic Messages", "chat_completions": "Chat Completions",
         "openai_responses": "OpenAI Responses"}
HEAD_KEYS = ("id", "model", "created", "system_fingerprint")
"""The fields of a Chat Completions stream's first chunk kept in the assembled reply."""
ANTHROPIC_TYPES = {"message_start", "content_block_start", "content_block_delta", "content_block_stop",
                   "message_delta", "message_stop", "ping"}


def shape_of(obj: Any) -> str | None:
    """Which protocol a streamed event (or reply body) is shaped like, if any can tell."""
    if not isinstance(obj, dict):
        return None
    kind = kind_raw if isinstance(kind_raw := obj.get("type"), str) else None
    if isinstance(obj.get("choices"), list) or obj.get("object") in ("chat.completion", "chat.completion.chunk"):
        return "chat_completions"
    if isinstance(kind, str) and kind.startswith("response.") or obj.get("object") == "response":
        return "openai_responses"
    if kind in ANTHROPIC_TYPES or kind == "message" and isinstance(obj.get("content"), list):
        return "anthropic_messages"
    return None


def _mismatch(protocol: str, obj: Any) -> LwError | None:
    other = shape_of(obj)
    if other is None or other == protocol:
        return None
    return LwError(f"the endpoint answered in {NAMES[other]} shape, not {NAMES[protocol]}",
                   code="protocol_mismatch", expected=f"--protocol {other} (or a profile with that protocol)")


def _finite(token: str) -> float:
    value = float(token)
    if not math.isfinite(value):
        raise ValueError(f"{token} is out of range for a number")
    return value


def _nonfinite(token: str) -> Any:
    raise ValueError(f"{token} is not a JSON number")


_DECODER = json.JSONDecoder(parse_float=_finite, parse_constant=_nonfinite)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_scan_string: Callable[[str, int], tuple[str, int]] = getattr(json.decoder, "scanstring")
"""One JSON string from just after its opening quote: ``(text, index after its closing quote)``
(strict: control characters refused, as by ``_DECODER``; not in the type stubs)."""
LEARNING = 4
"""How many narration events a reader studies for a template before it stops trying."""


def _json(data: str, number: int) -> Any:
    """One event's JSON: the standard decoder (an event is at most ``MAX_SSE_EVENT_BYTES``)
    refusing non-finite numbers and runaway nesting; an event with a surrogate escape goes
    through the kernel's reader, which refuses a lone one (no file could store it)."""
    try:
        if "\\u" in data and _SURROGATE_ESCAPE.search(data):
            return load_json(data)
        return _DECODER.decode(data)
    except LwError as exc:
        raise LwError(f"stream event {number} is not JSON ({exc.message})", code="bad_stream") from None
    except (ValueError, RecursionError) as exc:
        reason = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)[:80] or "nested too deep"
        raise LwError(f"stream event {number} is not JSON ({reason})", code="bad_stream") from None


def _templated(data: str, before: str, after: str) -> str | None:
    """The text of ``data`` if it is ``before`` + one JSON string + ``after`` (a string with a
    surrogate escape excepted: the whole reader refuses a lone one), else None."""
    end = len(data) - len(after)
    if end <= len(before) or not data.startswith(before) or not data.endswith(after):
        return None
    try:
        text, stop = _scan_string(data, len(before))
    except ValueError:
        return None
    if stop != end or not text or "\\u" in data[len(before):end] and _SURROGATE_ESCAPE.search(data, len(before), end):
        return None
    return text


def _index(value: Any, limit: int = MAX_STREAM_BLOCKS) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < limit:
        raise LwError(f"a stream event's index is not a number from 0 to {limit - 1}", code="bad_stream")
    return value


def _arguments(raw: str) -> Any:
    """Accumulated JSON arguments, decoded when whole (``{}`` for none, raw when undecodable:
    the pipeline answers a raw value with a tool error)."""
    if not raw.strip():
        return {}
    try:
        return load_json(raw)
    except LwError:
        return raw


class _Stream:
    protocol = ""
    text_key: re.Pattern[str] | None = None
    """Where the text of a narration event starts (the key and the string's opening quote);
    None: no templates for this protocol."""

    def __init__(self) -> None:
        self.events = 0
        self.done = False
        self._template: tuple[str | None, str, str, Any] | None = None
        self._raw: tuple[bytes, bytes, Any] | None = None
        self._learning = LEARNING

    def feed(self, event: str | None, data: str) -> list[Delta]:
        self.events += 1
        if self.done:
            return []
        template = self._template
        if template is not None and event == template[0]:
            text = _templated(data, template[1], template[2])
            if text is not None:
                return self._text(text, template[3])
        obj = self._decode(event, data)
        if obj is None:
            return []
        if self.events == 1 or not isinstance(obj, dict):
            error = _mismatch(self.protocol, obj)
            if error is not None:
                raise error
        if not isinstance(obj, dict):
            raise LwError(f"stream event {self.events} is not a JSON object", code="bad_stream")
        deltas = self._event(event, obj)
        if self._learning and len(deltas) == 1 and type(deltas[0]) is TextDelta and self.text_key is not None:
            self._learn(event, data, deltas[0].text)
        return deltas

    def _learn(self, event: str | None, data: str, text: str) -> None:
        """Keep ``data`` (a narration event just read whole, carrying ``text``) as the template
        of those to come: the JSON before and after the one string that is its text. That
        string is found by putting another text in its place and reading the result whole:
        it must be a narration event of that text in the reader's present state
        (:meth:`_text_of`), so any event equal to the template around any other string is too."""
        self._learning -= 1
        assert self.text_key is not None
        for match in self.text_key.finditer(data):
            start = match.end()
            try:
                value, stop = _scan_string(data, start)
            except ValueError:
                continue
            if value != text:
                continue
            before, after = data[:start], data[stop:]
            probe = "\x01" if text != "\x01" else "\x02"
            try:
                obj = _DECODER.decode(before + json.dumps(probe)[1:] + after)
            except (ValueError, RecursionError):
                continue
            found = self._text_of(event, obj) if isinstance(obj, dict) else None
            if found is not None and found[0] == probe:
                self._template = (event, before, after, found[1])
                head = (f"event: {event}\n" if event is not None else "") + "data: " + before
                self._raw = (head.encode("utf-8"), (after + "\n\n").encode("utf-8"), found[1])
                return

    def feed_chunk(self, chunk: bytes) -> list[Delta] | None:
        """The deltas of ``chunk`` when it is, as sent, one whole SSE event (one ``data:`` line,
        ``event:`` first if named) that matches the template; None for any other chunk, which
        then goes through the SSE reader and :meth:`feed`. Feed it only with the SSE reader
        between events (:meth:`lw_providers.sse.SseReader.take`)."""
        raw = self._raw
        if raw is None or self.done or not chunk.startswith(raw[0]) or not chunk.endswith(raw[1]):
            return None
        middle = chunk[len(raw[0]):len(chunk) - len(raw[1])]
        try:  # strict: a raw CR or LF (another SSE line) is refused as any control character
            literal = middle.decode("utf-8")
            text, stop = _scan_string(literal, 0)
        except ValueError:  # not UTF-8 (UnicodeDecodeError), not one JSON string
            return None
        if stop != len(literal) or not text or "\\u" in literal and _SURROGATE_ESCAPE.search(literal):
            return None
        self.events += 1
        return self._text(text, raw[2])

    def _text_of(self, event: str | None, obj: Mapping[str, Any]) -> tuple[str, Any] | None:
        """``(text, where)`` when ``obj``, read now, would only add ``text`` to the narration
        (at ``where``, for :meth:`_text`) and yield its one :class:`TextDelta`; else None."""
        return None

    def _text(self, text: str, where: Any) -> list[Delta]:
        """What reading a narration event of ``text`` does (see :meth:`_text_of`)."""
        raise NotImplementedError

    def _decode(self, event: str | None, data: str) -> Any:
        return _json(data, self.events)

    def _event(self, event: str | None, obj: Mapping[str, Any]) -> list[Delta]:
        raise NotImplementedError

    def finish(self) -> dict[str, Any]:
        raise NotImplementedError

    def _cut(self, what: str) -> LwError:
        return LwError(f"the stream ended before the reply was complete (no {what} after {self.events} events)",
                       code="stream_cut", expected=f"a whole {NAMES[self.protocol]} stream")


def _provider_error(obj: Mapping[str, Any]) -> LwError:
    error = error_raw if isinstance(error_raw := obj.get("error"), dict) else obj
    kind = str(error.get("type") or error.get("code") or "error")[:60]
    message = str(error.get("message") or "")[:300]
    code = "overloaded" if "overloaded" in kind else "provider_error"
    return LwError(f"the stream reported an error: {kind}: {message}".rstrip(": "), code=code)


class AnthropicStream(_Stream):
    protocol = "anthropic_messages"
    text_key = re.compile(r'"text"\s*:\s*"')

    def __init__(self) -> None:
        super().__init__()
        self.message: dict[str, Any] | None = None
        self.blocks: dict[int, dict[str, Any]] = {}
        self.partial: dict[int, list[str]] = {}
        self.texts: dict[int, list[str]] = {}
        """The pieces of each text block's text, joined once at :meth:`finish`."""

    def _event(self, event: str | None, obj: Mapping[str, Any]) -> list[Delta]:
        kind = obj.get("type", event)
        if kind == "ping":
            return []
        if kind == "error":
            raise _provider_error(obj)
        if kind == "message_start":
            message = obj.get("message")
            if not isinstance(message, dict):
                raise LwError("message_start without a message", code="bad_stream")
            self.message = {k: v for k, v in message.items() if k != "content"}
            self.message["content"] = []
            usage = usage_raw if isinstance(usage_raw := message.get("usage"), dict) else {}
            return [UsageDelta(usage.get("input_tokens"), usage.get("output_tokens"))] if usage else []
        if self.message is None:
            raise LwError(f"a {str(kind)[:40]!r} event before message_start", code="bad_stream")
        if kind == "content_block_start":
            index = _index(obj.get("index"))
            block = obj.get("content_block")
            if index not in self.blocks and len(self.blocks) >= MAX_STREAM_BLOCKS:
                raise LwError(f"more than {MAX_STREAM_BLOCKS} content blocks in one reply", code="limit")
            if not isinstance(block, dict):
                raise LwError("content_block_start without a content_block", code="bad_stream")
            if not isinstance(block.get("text", ""), str):
                raise LwError(f"content_block_start of block {index} whose text is not a string",
                              code="bad_stream")
            self.blocks[index] = dict(block)
            self.texts.pop(index, None)
            if block.get("type") == "tool_use":
                self.partial[index] = []
                return [ToolCallStart(index, str(block.get("id", "")), str(block.get("name", "")))]
            if block.get("type") == "text" and block.get("text"):
                return [TextDelta(str(block["text"]))]
            return []
        if kind == "content_block_delta":
            index = _index(obj.get("index"))
            block = self.blocks.get(index)
            delta = obj.get("delta")
            if block is None or not isinstance(delta, dict):
                raise LwError(f"content_block_delta for block {index}, which did not start", code="bad_stream")
            dtype = delta.get("type")
            if dtype == "text_delta" and isinstance(delta.get("text"), str):
                return self._text(delta["text"], index)
            if dtype == "input_json_delta" and isinstance(delta.get("partial_json"), str):
                self.partial.setdefault(index, []).append(delta["partial_json"])
                return [ToolArgumentsDelta(index, delta["partial_json"])]
            if dtype == "thinking_delta" and isinstance(delta.get("thinking"), str):
                block["thinking"] = block.get("thinking", "") + delta["thinking"]
            elif dtype == "signature_delta" and isinstance(delta.get("signature"), str):
                block["signature"] = block.get("signature", "") + delta["signature"]
            return []
        if kind == "content_block_stop":
            index = _index(obj.get("index"))
            block = self.blocks.get(index)
            if block is not None and block.get("type") == "tool_use":
                block["input"] = _arguments("".join(self.partial.pop(index, [])))
            return []
        if kind == "message_delta":
            delta = delta_raw if isinstance(delta_raw := obj.get("delta"), dict) else {}
            for key in ("stop_reason", "stop_sequence"):
                if key in delta:
                    self.message[key] = delta[key]
            usage = usage_raw if isinstance(usage_raw := obj.get("usage"), dict) else {}
            if usage:
                merged = dict(self.message.get("usage") or {})
                merged.update(usage)
                self.message["usage"] = merged
            out: list[Delta] = [UsageDelta(usage.get("input_tokens"), usage.get("output_tokens"))] if usage else []
            return out + ([StopDelta(delta.get("stop_reason"))] if "stop_reason" in delta else [])
        if kind == "message_stop":
            self.done = True
        return []

    def _text_of(self, event: str | None, obj: Mapping[str, Any]) -> tuple[str, Any] | None:
        index, delta = obj.get("index"), obj.get("delta")
        if obj.get("type", event) != "content_block_delta" or self.message is None or type(index) is not int \
                or index not in self.blocks or not isinstance(delta, dict) or delta.get("type") != "text_delta":
            return None
        text = delta.get("text")
        return (text, index) if isinstance(text, str) else None

    def _text(self, text: str, where: Any) -> list[Delta]:
        pieces = self.texts.get(where)
        if pieces is None:
            self.texts[where] = pieces = [self.blocks[where].get("text", "")]
        pieces.append(text)
        return [TextDelta(text)]

    def finish(self) -> dict[str, Any]:
        if not self.done or self.message is None:
            raise self._cut("message_stop")
        for index in list(self.partial):  # a tool block that never stopped
            self.blocks[index]["input"] = _arguments("".join(self.partial.pop(index)))
        for index, pieces in self.texts.items():
            self.blocks[index]["text"] = "".join(pieces)
        self.texts.clear()
        reply = dict(self.message)
        reply["content"] = [self.blocks[i] for i in sorted(self.blocks)]
        return reply


class ChatStream(_Stream):
    protocol = "chat_completions"
    text_key = re.compile(r'"content"\s*:\s*"')

    def __init__(self) -> None:
        super().__init__()
        self.head: dict[str, Any] = {}
        self.role = "assistant"
        self.text: list[str] = []
        self.calls: dict[int, dict[str, Any]] = {}
        self.arguments: dict[int, list[str]] = {}
        self.finish_reason: str | None = None
        self.usage: Any = None

    def _decode(self, event: str | None, data: str) -> Any:
        if data.strip() == "[DONE]":
            self.done = True
            return None
        return super()._decode(event, data)

    def _event(self, event: str | None, obj: Mapping[str, Any]) -> list[Delta]:
        if "error" in obj and "choices" not in obj:
            raise _provider_error(obj)
        if not self.head:
            self.head = {k: obj[k] for k in HEAD_KEYS if k in obj}
        out: list[Delta] = []
        if isinstance(obj.get("usage"), dict):
            self.usage = dict(obj["usage"])
            out.append(UsageDelta(self.usage.get("prompt_tokens"), self.usage.get("completion_tokens")))
        choices = obj.get("choices")
        if not isinstance(choices, list):
            raise LwError(f"stream event {self.events} has no choices list", code="bad_stream")
        for choice in choices:
            if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                continue
            delta = delta_raw if isinstance(delta_raw := choice.get("delta"), dict) else {}
            if isinstance(delta.get("role"), str):
                self.role = delta["role"]
            if isinstance(delta.get("content"), str) and delta["content"]:
                self.text.append(delta["content"])
                out.append(TextDelta(delta["content"]))
            for call in delta.get("tool_calls") or ():
                if not isinstance(call, dict):
                    continue
                index = _index(call.get("index", 0))
                function = function_raw if isinstance(function_raw := call.get("function"), dict) else {}
                if index not in self.calls:
                    if len(self.calls) >= MAX_STREAM_BLOCKS:
                        raise LwError(f"more than {MAX_STREAM_BLOCKS} tool calls in one reply", code="limit")
                    self.calls[index] = {"id": str(call.get("id") or f"call_{index}"), "type": "function",
                                         "function": {"name": str(function.get("name") or "")}}
                    self.arguments[index] = []
                    out.append(ToolCallStart(index, self.calls[index]["id"], self.calls[index]["function"]["name"]))
                elif function.get("name") and not self.calls[index]["function"]["name"]:
                    self.calls[index]["function"]["name"] = str(function["name"])
                if isinstance(function.get("arguments"), str) and function["arguments"]:
                    self.arguments[index].append(function["arguments"])
                    out.append(ToolArgumentsDelta(index, function["arguments"]))
            if choice.get("finish_reason"):
                self.finish_reason = str(choice["finish_reason"])
                out.append(StopDelta(self.finish_reason))
        return out

    def _text_of(self, event: str | None, obj: Mapping[str, Any]) -> tuple[str, Any] | None:
        choices = obj.get("choices")
        if not isinstance(choices, list) or len(choices) != 1 or isinstance(obj.get("usage"), dict) \
                or not self.head and any(key in obj for key in HEAD_KEYS):
            return None
        choice = choices[0]
        delta = choice.get("delta") if isinstance(choice, dict) else None
        if not isinstance(delta, dict) or choice.get("index", 0) != 0 or choice.get("finish_reason") \
                or delta.get("tool_calls") or isinstance(delta.get("role"), str) and delta["role"] != self.role:
            return None
        text = delta.get("content")
        return (text, None) if isinstance(text, str) and text else None

    def _text(self, text: str, where: Any) -> list[Delta]:
        self.text.append(text)
        return [TextDelta(text)]

    def finish(self) -> dict[str, Any]:
        if self.finish_reason is None:
            raise self._cut("finish_reason")
        message: dict[str, Any] = {"role": self.role, "content": "".join(self.text) if self.text else None}
        if self.calls:
            message["tool_calls"] = []
            for index in sorted(self.calls):
                call = self.calls[index]
                call["function"]["arguments"] = "".join(self.arguments[index])
                message["tool_calls"].append(call)
        reply = {**self.head, "object": "chat.completion",
                 "choices": [{"index": 0, "message": message, "finish_reason": self.finish_reason}]}
        if self.usage is not None:
            reply["usage"] = self.usage
        return reply


class ResponsesStream(_Stream):
    protocol = "openai_responses"

    def __init__(self) -> None:
        super().__init__()
        self.response: dict[str, Any] | None = None
        self.items: dict[int, dict[str, Any]] = {}
        self.final: dict[str, Any] | None = None

    def _item(self, obj: Mapping[str, Any]) -> dict[str, Any]:
        index = _index(obj.get("output_index"))
        item = self.items.get(index)
        if item is None:
            raise LwError(f"an event for output item {index}, which was not added", code="bad_stream")
        return item

    def _event(self, event: str | None, obj: Mapping[str, Any]) -> list[Delta]:
        kind = str(obj.get("type") or event or "")
        if kind == "error":
            raise _provider_error(obj)
        if kind in ("response.failed", "response.incomplete"):
            ended = ended_raw if isinstance(ended_raw := obj.get("response"), dict) else {}
            detail = ended.get("error") or ended.get("incomplete_details") or {}
            raise LwError(f"the response ended as {kind.split('.')[-1]}: "
                          f"{json.dumps(detail, ensure_ascii=False)[:300]}", code="provider_error")
        if kind in ("response.created", "response.in_progress"):
            if isinstance(obj.get("response"), dict):
                self.response = dict(obj["response"])
            return []
        if kind == "response.output_item.added":
            index = _index(obj.get("output_index"))
            item = obj.get("item")
            if index not in self.items and len(self.items) >= MAX_STREAM_BLOCKS:
                raise LwError(f"more than {MAX_STREAM_BLOCKS} output items in one reply", code="limit")
            if not isinstance(item, dict):
                raise LwError("response.output_item.added without an item", code="bad_stream")
            self.items[index] = copy_item = dict(item)
            if copy_item.get("type") == "function_call":
                copy_item.setdefault("arguments", "")
                return [ToolCallStart(index, str(copy_item.get("call_id") or copy_item.get("id") or ""),
                                      str(copy_item.get("name", "")))]
            return []
        if kind == "response.output_text.delta" and isinstance(obj.get("delta"), str):
            item = self._item(obj)
            parts = item.setdefault("content", [])
            content_index = obj.get("content_index", 0)
            content_index = _index(content_index)
            while len(parts) <= content_index:
                parts.append({"type": "output_text", "text": "", "annotations": []})
            parts[content_index]["text"] = parts[content_index].get("text", "") + obj["delta"]
            return [TextDelta(obj["delta"])]
        if kind == "response.function_call_arguments.delta" and isinstance(obj.get("delta"), str):
            item = self._item(obj)
            item["arguments"] = item.get("arguments", "") + obj["delta"]
            return [ToolArgumentsDelta(_index(obj.get("output_index")), obj["delta"])]
        if kind == "response.function_call_arguments.done" and isinstance(obj.get("arguments"), str):
            self._item(obj)["arguments"] = obj["arguments"]
            return []
        if kind == "response.output_item.done" and isinstance(obj.get("item"), dict):
            self.items[_index(obj.get("output_index"))] = dict(obj["item"])
            return []
        if kind == "response.completed":
            response = obj.get("response")
            if not isinstance(response, dict):
                raise LwError("response.completed without a response", code="bad_stream")
            self.final = dict(response)
            self.done = True
            usage = usage_raw if isinstance(usage_raw := response.get("usage"), dict) else {}
            out: list[Delta] = [UsageDelta(usage.get("input_tokens"), usage.get("output_tokens"))] if usage else []
            return out + [StopDelta(str(response.get("status") or "completed"))]
        return []

    def finish(self) -> dict[str, Any]:
        if self.final is None:
            raise self._cut("response.completed")
        reply = dict(self.final)
        if not isinstance(reply.get("output"), list) or not reply["output"]:
            reply["output"] = [self.items[i] for i in sorted(self.items)]
        return reply


READERS = {"anthropic_messages": AnthropicStream, "chat_completions": ChatStream, "openai_responses": ResponsesStream}
