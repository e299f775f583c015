"""Chat transcripts for ``lw tavern activate``: SillyTavern ``.jsonl`` exports and plain JSON.

Accepted: a SillyTavern chat export (JSON Lines; the first line is the chat's metadata, the
others messages with ``name`` and ``mes``), a JSON list of messages, or ``{"messages": [...]}``.
A message is a string or an object with ``mes``/``text``/``content`` and an optional ``name``.
Messages are oldest first, as in the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lwcore.api import LwError, LwErrors, iter_json_lines, read_text

from lw_tavern.files import located, read_json_file
from lw_tavern.worldbook.engine import Message

_TEXT_FIELDS = ("mes", "text", "content")


def _message(value: Any) -> Message | None:
    if isinstance(value, str):
        return Message(value)
    if isinstance(value, dict):
        for name in _TEXT_FIELDS:
            if isinstance(value.get(name), str):
                speaker = value.get("name")
                return Message(value[name], speaker if isinstance(speaker, str) else "")
    return None


def read_chat(path: str | Path) -> list[Message]:
    """The messages of a chat file (oldest first); unreadable lines or items are located."""
    if str(path).lower().endswith(".jsonl"):
        messages: list[Message] = []
        problems: list[LwError] = []
        for number, value in iter_json_lines(read_text(path).splitlines(), path):
            if isinstance(value, LwError):
                problems.append(value)
                continue
            message = _message(value)
            if message is not None:
                messages.append(message)
            elif not (isinstance(value, dict) and ("chat_metadata" in value or "user_name" in value)):
                problems.append(LwError("a line is neither a message nor the chat's metadata", file=str(path),
                                        line=number, code="invalid", expected='{"name": ..., "mes": ...}'))
        if problems:
            raise problems[0] if len(problems) == 1 else LwErrors(problems)
        return messages
    data, text = read_json_file(path)
    items = data.get("messages") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise located("a chat is a list of messages", file=path, text=text, path=(),
                      expected='["text", {"name": ..., "mes": ...}] or {"messages": [...]}')
    out = []
    for i, item in enumerate(items):
        message = _message(item)
        if message is None:
            at = ("messages", i) if isinstance(data, dict) else (i,)
            raise located("not a message", file=path, text=text, path=at, expected='"text" or {"mes": "text"}')
        out.append(message)
    return out
