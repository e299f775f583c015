"""JavaScript string and regular-expression semantics that world-book matching depends on.

SillyTavern matches keys in the browser, so "whitespace", "word character", ``toLowerCase``
and ``/pattern/flags`` keys mean what JavaScript says. This module reproduces those meanings
in Python: :func:`js_trim`, :func:`is_word_char` (``\\w`` is ASCII-only in JavaScript, so a
CJK character is a word *boundary*), :func:`parse_regex_key` (a key written ``/…/flags``
becomes a compiled Python pattern with JavaScript's semantics, or ``None`` when SillyTavern
would not read it as a regular expression either).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

JS_WHITESPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_WS_SPLIT = re.compile(f"[{re.escape(JS_WHITESPACE)}]+")


def js_trim(text: str) -> str:
    """``String.prototype.trim``."""
    return text.strip(JS_WHITESPACE)


def is_word_char(ch: str) -> bool:
    """Whether ``ch`` matches JavaScript's ``\\w`` (ASCII letters, digits, underscore)."""
    return ch in _WORD


def is_multi_word(needle: str) -> bool:
    """Whether ``needle.split(/\\s+/)`` has more than one part (whole-word matching then falls
    back to a plain substring test, as SillyTavern does)."""
    return len(_WS_SPLIT.split(needle)) > 1


def whole_word_at(haystack: str, start: int, end: int) -> bool:
    """Whether the occurrence ``haystack[start:end]`` stands between non-word characters (or
    the ends): SillyTavern's ``(?:^|\\W)key(?:$|\\W)``."""
    return (start == 0 or haystack[start - 1] not in _WORD) and (end >= len(haystack) or haystack[end] not in _WORD)


def contains_whole_word(haystack: str, needle: str) -> bool:
    """Some occurrence of ``needle`` in ``haystack`` is a whole word."""
    start = haystack.find(needle)
    while start >= 0:
        if whole_word_at(haystack, start, start + len(needle)):
            return True
        start = haystack.find(needle, start + 1)
    return False


# --- /pattern/flags keys -------------------------------------------------------------------

_KEY_REGEX = re.compile(r"^/([\s\S]+?)/([gimsuy]*)$")
_UNESCAPED_SLASH = re.compile(r"(^|[^\\])/")
_JS_SPACE_CLASS = "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
_CLASS_ESCAPES_OUT = {
    "d": "[0-9]", "D": "[^0-9]",
    "w": "[A-Za-z0-9_]", "W": "[^A-Za-z0-9_]",
    "s": f"[{_JS_SPACE_CLASS}]", "S": f"[^{_JS_SPACE_CLASS}]",
    "b": r"(?:(?<=[A-Za-z0-9_])(?![A-Za-z0-9_])|(?<![A-Za-z0-9_])(?=[A-Za-z0-9_]))",
    "B": r"(?:(?<=[A-Za-z0-9_])(?=[A-Za-z0-9_])|(?<![A-Za-z0-9_])(?![A-Za-z0-9_]))",
}
_CLASS_ESCAPES_IN = {"d": "0-9", "w": "A-Za-z0-9_", "s": _JS_SPACE_CLASS}
MAX_REGEX_KEY = 2000
_QUANTIFIER = re.compile(r"\{\d+(?:,\d*)?\}")


class UnsupportedRegex(ValueError):
    """A JavaScript pattern with no faithful Python translation."""


@dataclass(frozen=True)
class RegexKey:
    """A compiled ``/pattern/flags`` key. ``sticky`` (the ``y`` flag) anchors the test at the
    start of the text, as ``RegExp.prototype.test`` does from ``lastIndex`` 0."""

    source: str
    pattern: re.Pattern[str]
    sticky: bool

    def test(self, text: str) -> bool:
        return (self.pattern.match(text) if self.sticky else self.pattern.search(text)) is not None


@lru_cache(maxsize=4096)
def parse_regex_key(key: str) -> RegexKey | None:
    """The key as a regular expression, or ``None`` when it is a plain key.

    Follows SillyTavern's ``parseRegexFromString``: ``/…/flags`` with flags from ``gimsuy``,
    no unescaped ``/`` inside, and a pattern the engine accepts; anything else is a plain key
    (matched literally). Patterns Python cannot reproduce faithfully count as invalid, i.e.
    plain keys, never a silently different regex.
    """
    match = _KEY_REGEX.match(key)
    if match is None or len(key) > MAX_REGEX_KEY:
        return None
    pattern, flags = match.group(1), match.group(2)
    if _UNESCAPED_SLASH.search(pattern) or len(set(flags)) != len(flags):
        return None
    pattern = pattern.replace("\\/", "/", 1)
    try:
        translated = translate_pattern(pattern, multiline="m" in flags, unicode="u" in flags)
        py_flags = (re.IGNORECASE if "i" in flags else 0) | (re.DOTALL if "s" in flags else 0) | (
            re.MULTILINE if "m" in flags else 0)
        return RegexKey(key, re.compile(translated, py_flags), sticky="y" in flags)
    except (re.error, UnsupportedRegex, RecursionError, OverflowError):
        return None


def translate_pattern(pattern: str, *, multiline: bool = False, unicode: bool = False) -> str:
    """A JavaScript pattern as a Python ``re`` pattern with the same meaning.

    Handles the differences that matter for keys: ASCII-only ``\\d \\w \\b`` and JavaScript's
    whitespace for ``\\s``; ``$`` (end of input only, without ``m``); named groups
    ``(?<n>…)`` and ``\\k<n>``; ``[^]`` (any character) and ``[]`` (nothing); ``\\u{…}`` with
    ``u``; ``\\cX``. Raises :class:`UnsupportedRegex` for what it cannot translate faithfully.
    """
    out: list[str] = []
    i, n = 0, len(pattern)
    in_class = False
    class_start = 0
    while i < n:
        ch = pattern[i]
        if ch == "\\":
            if i + 1 >= n:
                raise UnsupportedRegex("trailing backslash")
            nxt = pattern[i + 1]
            if in_class and nxt in _CLASS_ESCAPES_IN:
                out.append(_CLASS_ESCAPES_IN[nxt])
            elif in_class and nxt in "DWS":
                raise UnsupportedRegex(f"\\{nxt} inside a character class")
            elif in_class and nxt == "b":
                out.append("\\x08")
            elif not in_class and nxt in _CLASS_ESCAPES_OUT:
                out.append(_CLASS_ESCAPES_OUT[nxt])
            elif nxt == "k" and i + 2 < n and pattern[i + 2] == "<":
                end = pattern.find(">", i + 3)
                if end < 0:
                    raise UnsupportedRegex("bad \\k<name>")
                out.append(f"(?P={pattern[i + 3:end]})")
                i = end + 1
                continue
            elif nxt == "u" and unicode and i + 2 < n and pattern[i + 2] == "{":
                end = pattern.find("}", i + 3)
                if end < 0:
                    raise UnsupportedRegex("bad \\u{...}")
                out.append(f"\\U{int(pattern[i + 3:end], 16):08x}")
                i = end + 1
                continue
            elif nxt == "c" and i + 2 < n and pattern[i + 2].isalpha():
                out.append(f"\\x{ord(pattern[i + 2]) % 32:02x}")
                i += 3
                continue
            elif nxt in "pP" and unicode:
                raise UnsupportedRegex("unicode property escapes")
            elif nxt.isdigit() and nxt != "0":
                out.append("\\" + nxt)
            elif nxt.isalnum() and nxt not in "tnrvfx0u":
                out.append(re.escape(nxt))  # JavaScript reads an unknown escape as the letter
            else:
                out.append("\\" + nxt)
            i += 2
            continue
        if in_class:
            if ch == "]" and i > class_start:
                in_class = False
            elif ch == "[":
                out.append("\\[")
                i += 1
                continue
            out.append(ch)
            i += 1
            continue
        if ch == "[":
            if pattern.startswith("[^]", i):
                out.append("[\\s\\S]")
                i += 3
                continue
            if pattern.startswith("[]", i):
                out.append("(?!)")
                i += 2
                continue
            in_class = True
            out.append("[")
            i += 1
            if i < n and pattern[i] == "^":
                out.append("^")
                i += 1
            class_start = i
            if i < n and pattern[i] == "]":
                raise UnsupportedRegex("']' right after '['")
            continue
        if ch == "(" and pattern.startswith("(?<", i) and i + 3 < n and pattern[i + 3] not in "=!":
            out.append("(?P<")
            i += 3
            continue
        if ch == "$" and not multiline:
            out.append("\\Z")
            i += 1
            continue
        if ch == "{":
            quantifier = _QUANTIFIER.match(pattern, i)
            out.append(quantifier.group(0) if quantifier else "\\{")
            i = quantifier.end() if quantifier else i + 1
            continue
        if ch == "}":
            out.append("\\}")
            i += 1
            continue
        out.append(ch)
        i += 1
    if in_class:
        raise UnsupportedRegex("unterminated character class")
    return "".join(out)
