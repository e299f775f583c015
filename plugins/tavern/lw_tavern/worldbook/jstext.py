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
from collections.abc import Iterator
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
    literals: tuple[str, ...] | None = None
    """Texts one of which every match contains (lowered for an ``i`` pattern), or ``None``
    when no such set is known; lets a scan skip the search where none of them occurs."""
    ignore_case: bool = False

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
    # Without the u flag JavaScript folds case only within ASCII for ASCII letters, which is
    # Python's ASCII mode; a pattern with non-ASCII cased letters needs Unicode folding.
    ascii_mode = "u" not in flags and not any(not c.isascii() and c.lower() != c.upper() for c in pattern)
    try:
        translated = translate_pattern(pattern, multiline="m" in flags, unicode="u" in flags, ascii_mode=ascii_mode)
        py_flags = (re.IGNORECASE if "i" in flags else 0) | (re.DOTALL if "s" in flags else 0) | (
            re.MULTILINE if "m" in flags else 0) | (re.ASCII if ascii_mode else 0)
        literals = required_literals(pattern, ignore_case="i" in flags, ascii_mode=ascii_mode)
        return RegexKey(key, re.compile(translated, py_flags), sticky="y" in flags,
                        literals=literals, ignore_case="i" in flags)
    except (re.error, UnsupportedRegex, RecursionError, OverflowError):
        return None


def translate_pattern(pattern: str, *, multiline: bool = False, unicode: bool = False, ascii_mode: bool = False) -> str:
    """A JavaScript pattern as a Python ``re`` pattern with the same meaning.

    Handles the differences that matter for keys: ASCII-only ``\\d \\w \\b`` and JavaScript's
    whitespace for ``\\s`` (in ``ascii_mode``, compiled with ``re.ASCII``, the native
    ``\\d \\w \\b`` already mean that); ``$`` (end of input only, without ``m``); named groups
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
                out.append("\\" + nxt if ascii_mode and nxt not in "sS" else _CLASS_ESCAPES_OUT[nxt])
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


_META = frozenset("\\.[]()?*+{}|^$\n\x01")
_CASE_TRAPS = frozenset("kKsSiI")  # Unicode IGNORECASE also equates these with ſ, K, ı, İ


def _literal_char(ch: str, ignore_case: bool, ascii_mode: bool) -> bool:
    if ch in _META:
        return False
    if not ignore_case:
        return True
    if ascii_mode:
        return ch.isascii() or ch.lower() == ch.upper() == ch
    return ch not in _CASE_TRAPS and (ch.isascii() or ch.lower() == ch.upper() == ch)


def required_literals(pattern: str, ignore_case: bool, ascii_mode: bool = False) -> tuple[str, ...] | None:
    """Texts one of which every match of a JavaScript ``pattern`` contains, or ``None``.

    Each top-level alternative contributes its best requirement: the longest run of literal
    characters (at least two) it must contain, or the requirement of a group it must match
    (``(?:cat|dog)s``). Conservative by construction: a run stops at any escape, class, group,
    anchor or quantifier, a character made optional by ``?``, ``*`` or ``{0,…}`` is left out,
    and lookarounds and optional groups require nothing. With ``ignore_case`` only characters
    whose case-insensitive matches are exactly their lower and upper case count, and the texts
    are lowered (in ``ascii_mode``, where ASCII letters match only ASCII letters, every ASCII
    character counts).
    """
    out: list[str] = []
    for branch in _split_top(pattern, "|"):
        options: list[tuple[str, ...]] = []
        run = ""
        i = 0
        while i < len(branch):
            ch = branch[i]
            nxt = branch[i + 1] if i + 1 < len(branch) else ""
            if _literal_char(ch, ignore_case, ascii_mode):
                if nxt in ("?", "*") or (nxt == "{" and branch[i + 2:i + 3] == "0"):
                    options.append((run,))
                    run = ""
                else:
                    run += ch
                    if nxt in ("+", "{"):
                        options.append((run,))
                        run = ""
                i += 1
                continue
            options.append((run,))
            run = ""
            if ch == "\\":
                i = _escape_end(branch, i)
            elif ch == "[":
                close = _class_end(branch, i)
                i = len(branch) if close < 0 else close + 1
            elif ch == "{":
                close = branch.find("}", i)
                i = len(branch) if close < 0 else close + 1
            elif ch == "(":
                close = _group_end(branch, i)
                if close < 0:
                    return None
                inner = branch[i + 1:close]
                after = branch[close + 1:close + 2]
                optional = after in ("?", "*") or (after == "{" and branch[close + 2:close + 3] == "0")
                if not optional and not inner.startswith(("?=", "?!", "?<=", "?<!")):
                    if inner.startswith("?:"):
                        inner = inner[2:]
                    elif inner.startswith("?<"):
                        inner = inner[inner.find(">") + 1:]
                    found = required_literals(inner, ignore_case, ascii_mode)
                    if found:
                        options.append(found)
                i = close + 1
            else:
                i += 1
        options.append((run,))
        usable = [o for o in options if o and min(len(t) for t in o) >= 2]
        if not usable:
            return None
        best = max(usable, key=lambda o: (min(len(t) for t in o), -len(o)))
        out.extend(t.lower() if ignore_case else t for t in best)
    return tuple(dict.fromkeys(out))


def _escape_end(pattern: str, i: int) -> int:
    """Index just after the escape sequence starting with the backslash at ``i``."""
    nxt = pattern[i + 1:i + 2]
    if nxt == "x":
        return i + 4
    if nxt == "u":
        if pattern[i + 2:i + 3] == "{":
            close = pattern.find("}", i)
            return len(pattern) if close < 0 else close + 1
        return i + 6
    if nxt in ("p", "P") and pattern[i + 2:i + 3] == "{":
        close = pattern.find("}", i)
        return len(pattern) if close < 0 else close + 1
    if nxt == "k" and pattern[i + 2:i + 3] == "<":
        close = pattern.find(">", i)
        return len(pattern) if close < 0 else close + 1
    if nxt == "c":
        return i + 3
    if nxt.isdigit():
        j = i + 1
        while j < len(pattern) and pattern[j].isdigit():
            j += 1
        return j
    return i + 2


def _structure(pattern: str, start: int = 0) -> Iterator[tuple[int, str]]:
    """``(index, character)`` of every character outside escapes and character classes
    (an unclosed class ends the walk)."""
    i = start
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i = _escape_end(pattern, i)
            continue
        if ch == "[":
            close = _class_end(pattern, i)
            if close < 0:
                return
            i = close + 1
            continue
        yield i, ch
        i += 1


def _split_top(pattern: str, sep: str) -> list[str]:
    """``pattern`` split at top-level ``sep`` (outside groups, classes and escapes)."""
    parts: list[str] = []
    depth = 0
    start = 0
    for i, ch in _structure(pattern):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(pattern[start:i])
            start = i + 1
    parts.append(pattern[start:])
    return parts


def _class_end(pattern: str, start: int) -> int:
    """Index of the ``]`` closing the class opened at ``start`` (-1 if none)."""
    i = start + 1
    if pattern[i:i + 1] == "^":
        i += 1
    while i < len(pattern):
        if pattern[i] == "\\":
            i = _escape_end(pattern, i)
            continue
        if pattern[i] == "]":
            return i
        i += 1
    return -1


def _group_end(pattern: str, start: int) -> int:
    """Index of the ``)`` closing the group opened at ``start`` (-1 if none)."""
    depth = 0
    for i, ch in _structure(pattern, start):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i
    return -1
