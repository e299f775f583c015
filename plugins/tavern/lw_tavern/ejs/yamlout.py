"""``YAML.stringify(value, {blockQuote: 'literal'})`` of the ``yaml`` package (2.9.1), as Tavern
Helper's ``{{format_message_variable::…}}`` writes a variable.

:func:`fast` writes the common shapes itself -- mappings and sequences of plain one-line texts,
numbers, booleans and nulls, block style with sequences indented under their key, nothing near
the 80-column fold -- and answers ``None`` for anything it is not certain to write exactly as the
library does (a text that needs quotes, a long or multi-line text, an odd key…). :func:`stringify`
then asks the library itself, in the sandbox (:mod:`lw_tavern.mvu.values`' batch script).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

_CORE = re.compile(r"""(?x)
    [-+]?[0-9]+ | 0o[0-7]+ | 0x[0-9a-fA-F]+
  | [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
  | [-+]?\.(inf|Inf|INF) | \.(nan|NaN|NAN)
  | true|True|TRUE|false|False|FALSE|null|Null|NULL|~ """)
_PLAIN = re.compile(r"[^\s\-?:,\[\]{}#&*!|>'\"%@`][^\n]*")
WIDTH = 60


def _plain(text: str) -> bool:
    return (bool(text) and _PLAIN.fullmatch(text) is not None and text == text.strip() and ": " not in text
            and " #" not in text and not text.endswith(":") and not _CORE.fullmatch(text)
            and all(ch.isprintable() for ch in text))


def _number(value: int | float) -> str | None:
    if isinstance(value, int):
        return str(value) if abs(value) < 2**53 else None
    if not math.isfinite(value):
        return None
    if value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    text = repr(value)
    return text if re.fullmatch(r"-?\d+\.\d+", text) else None


def _scalar(value: Any) -> str | None:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return _number(value)
    if isinstance(value, str):
        return value if _plain(value) else None
    return None


def _lines(value: Any, indent: int, out: list[str]) -> bool:
    pad = " " * indent
    if isinstance(value, dict):
        for key, child in value.items():
            if not isinstance(key, str) or not _plain(key):
                return False
            if isinstance(child, (dict, list)) and child:
                out.append(f"{pad}{key}:")
                if not _lines(child, indent + 2, out):
                    return False
                continue
            text = "{}" if child == {} else "[]" if child == [] else _scalar(child)
            if text is None or len(pad) + len(key) + 2 + len(text) > WIDTH:
                return False
            out.append(f"{pad}{key}: {text}")
        return True
    if isinstance(value, list):
        for child in value:
            if isinstance(child, (dict, list)) and child:
                sub: list[str] = []
                if not _lines(child, indent + 2, sub):
                    return False
                out.append(f"{pad}- {sub[0][indent + 2:]}")
                out.extend(sub[1:])
                continue
            text = "{}" if child == {} else "[]" if child == [] else _scalar(child)
            if text is None or len(pad) + 2 + len(text) > WIDTH:
                return False
            out.append(f"{pad}- {text}")
        return True
    return False


def fast(value: Any) -> str | None:
    """The library's text for ``value`` (its trailing newline dropped), or ``None`` when unsure."""
    if isinstance(value, (dict, list)):
        if not value:
            return "{}" if isinstance(value, dict) else "[]"
        out: list[str] = []
        return "\n".join(out) if _lines(value, 0, out) else None
    text = _scalar(value)
    return text if text is not None and len(text) <= WIDTH else None


def key(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=False)
