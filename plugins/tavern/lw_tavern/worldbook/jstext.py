"""JavaScript string and regular-expression semantics that world-book matching depends on.

SillyTavern matches keys in the browser, so "whitespace", "word character", ``toLowerCase``
and ``/pattern/flags`` keys mean what JavaScript says. This module reproduces those meanings
in Python: :func:`is_word_char` (``\\w`` is ASCII-only in JavaScript, so a
CJK character is a word *boundary*). A key written ``/…/flags`` (:func:`parse_regex_key`) is
not translated: it runs in JavaScript itself, through the kernel's bounded engine
(:class:`lwcore.sandbox.RegexTester`); Python only reads which literal texts a match must
contain (:func:`required_literals`), so a scan can skip the search where none occurs.
Whitespace and ``trim`` are the kernel's (:mod:`lwcore.js`); ``js_trim`` is its ``trim``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from lwcore.api import WHITESPACE
from lwcore.api import js_trim  # the scan's name for it, kept here so its importers stay as they are

_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_WS_SPLIT = re.compile(f"[{re.escape(WHITESPACE)}]+")


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
    """Some occurrence of ``needle`` in ``haystack`` is a whole word.

    Linear in the haystack however the occurrences overlap: after an occurrence the next one
    is either one period of the needle further on (checked on that period's characters alone)
    or past the overlap a period allows, so no character is compared twice per needle length
    (``"\x01a" * 800`` against a long run of ``"\x01a"``: one pass, not one search per
    occurrence).
    """
    size = len(needle)
    if not size:
        return True
    period = smallest_period(needle)
    tail = needle[size - period:]
    start = haystack.find(needle)
    while start >= 0:
        if whole_word_at(haystack, start, start + size):
            return True
        if haystack.startswith(tail, start + size):
            start += period
        else:
            # an occurrence overlapping this one by a period or more would extend its run
            start = haystack.find(needle, start + size - period + 1)
    return False


def smallest_period(text: str) -> int:
    """The smallest ``p > 0`` with ``text[i] == text[i + p]`` wherever both exist (KMP)."""
    border = [0] * len(text)
    k = 0
    for i in range(1, len(text)):
        while k and text[i] != text[k]:
            k = border[k - 1]
        if text[i] == text[k]:
            k += 1
        border[i] = k
    return len(text) - (border[-1] if text else 0)


# --- /pattern/flags keys -------------------------------------------------------------------

_KEY_REGEX = re.compile(r"^/([\s\S]+?)/([gimsuy]*)$")
_UNESCAPED_SLASH = re.compile(r"(^|[^\\])/")
MAX_REGEX_KEY = 2000


@dataclass(frozen=True)
class RegexKey:
    """A ``/pattern/flags`` key as SillyTavern reads it: the JavaScript ``pattern`` and
    ``flags``, tested by the kernel's bounded JavaScript engine (:class:`lwcore.sandbox.RegexTester`),
    never by Python's ``re``. Whether JavaScript accepts the pattern is decided when the book is
    compiled (a pattern it refuses makes the key a plain key, as in SillyTavern)."""

    source: str
    pattern: str
    flags: str
    literals: tuple[str, ...] | None = None
    """Texts one of which every match contains (lowered for an ``i`` pattern), or ``None``
    when no such set is known; lets a scan skip the search where none of them occurs."""

    @property
    def ignore_case(self) -> bool:
        return "i" in self.flags


@lru_cache(maxsize=4096)
def parse_regex_key(key: str) -> RegexKey | None:
    """The key's ``/pattern/flags`` parts, or ``None`` when it is a plain key.

    Follows SillyTavern's ``parseRegexFromString`` up to the ``new RegExp``: ``/…/flags``
    with flags from ``gimsuy``, no unescaped ``/`` inside, the first ``\\/`` unescaped. Whether
    JavaScript then accepts the pattern (duplicate flags, a syntax error: a plain key) is asked
    of the kernel's JavaScript engine when the book is compiled. Keys longer than
    :data:`MAX_REGEX_KEY` characters are plain keys.
    """
    match = _KEY_REGEX.match(key)
    if match is None or len(key) > MAX_REGEX_KEY:
        return None
    pattern, flags = match.group(1), match.group(2)
    if _UNESCAPED_SLASH.search(pattern):
        return None
    pattern = pattern.replace("\\/", "/", 1)
    try:
        # without the u flag JavaScript folds case only within ASCII for ASCII letters
        literals = required_literals(pattern, ignore_case="i" in flags, ascii_mode="u" not in flags)
    except RecursionError:
        literals = None
    return RegexKey(key, pattern, flags, literals)


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

    Linear in the pattern: one pass finds every group's end and its top-level ``|``; each
    level then reads only its own characters. Groups nested deeper than
    :data:`MAX_LITERAL_DEPTH` require nothing.
    """
    groups = _Groups(pattern)
    if groups.unclosed:
        return None
    return _required(pattern, 0, len(pattern), groups.bars.get(-1, []), groups, ignore_case, ascii_mode, 0)


MAX_LITERAL_DEPTH = 32


class _Groups:
    """One pass over a pattern: where each group closes (``close[open index]``) and the
    top-level ``|`` of each group (``bars[open index]``; ``bars[-1]`` for the pattern)."""

    unclosed: bool

    def __init__(self, pattern: str) -> None:
        self.close: dict[int, int] = {}
        self.bars: dict[int, list[int]] = {}
        stack: list[int] = []
        stray = False
        for i, ch in _structure(pattern):
            if ch == "(":
                stack.append(i)
            elif ch == ")":
                if stack:
                    self.close[stack.pop()] = i
                else:
                    stray = True
            elif ch == "|":
                self.bars.setdefault(stack[-1] if stack else -1, []).append(i)
        self.unclosed = bool(stack) or stray
        """Unbalanced parentheses (JavaScript refuses such a pattern: it requires nothing)."""


def _required(pattern: str, start: int, end: int, bars: list[int], groups: _Groups, ignore_case: bool,
              ascii_mode: bool, depth: int) -> tuple[str, ...] | None:
    """:func:`required_literals` of ``pattern[start:end]``, whose top-level ``|`` are ``bars``."""
    if depth > MAX_LITERAL_DEPTH:
        return None
    out: list[str] = []
    cuts = [start - 1, *(b for b in bars if start <= b < end), end]
    for a, b in zip(cuts, cuts[1:]):
        found = _branch(pattern, a + 1, b, groups, ignore_case, ascii_mode, depth)
        if found is None:
            return None
        out.extend(found)
    return tuple(dict.fromkeys(out))


def _branch(pattern: str, start: int, end: int, groups: _Groups, ignore_case: bool, ascii_mode: bool,
            depth: int) -> tuple[str, ...] | None:
    options: list[tuple[str, ...]] = []
    run = ""
    i = start
    while i < end:
        ch = pattern[i]
        nxt = pattern[i + 1] if i + 1 < end else ""
        if _literal_char(ch, ignore_case, ascii_mode):
            if nxt in ("?", "*") or (nxt == "{" and pattern[i + 2:i + 3] == "0" and i + 2 < end):
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
            i = _escape_end(pattern, i)
        elif ch == "[":
            close = _class_end(pattern, i)
            i = end if close < 0 or close >= end else close + 1
        elif ch == "{":
            close = pattern.find("}", i, end)
            i = end if close < 0 else close + 1
        elif ch == "(":
            close = groups.close.get(i, -1)
            if close < 0 or close >= end:
                return None
            after = pattern[close + 1:close + 2] if close + 1 < end else ""
            optional = after in ("?", "*") or (after == "{" and pattern[close + 2:close + 3] == "0")
            inner = i + 1
            if not optional and not pattern.startswith(("?=", "?!", "?<=", "?<!"), inner):
                if pattern.startswith("?:", inner):
                    inner += 2
                elif pattern.startswith("?<", inner):
                    name_end = pattern.find(">", inner, close)
                    inner = close if name_end < 0 else name_end + 1
                found = _required(pattern, inner, close, groups.bars.get(i, []), groups, ignore_case, ascii_mode,
                                  depth + 1)
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
    return tuple(t.lower() if ignore_case else t for t in best)


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
