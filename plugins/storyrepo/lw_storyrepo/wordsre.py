"""A regular expression matching any of many words, longest first, as a tree of their characters.

``"|".join(words)`` makes the regular expression engine try every word in turn at each place a
text may hold one: a book of four thousand names starting 王 tries four thousand words at each 王
of a draft. :func:`alternation` shares the words' common beginnings (王(?:二(?:麻子)?|五)), so a
place costs about the length of the longest word. It matches what the words joined longest first
match: at a place, the longest word there first, a shorter one when what follows in a larger
pattern asks for it (the engine backtracks through the tree as through the list).

The engine tries a group's branches one after another, so a character followed by thousands of
others in the words (王 of a 名册 of four thousand 王…) would still cost thousands of tries at each
王 of a draft: the branches of such a level are split in groups of at most :data:`FAN_MAX`, each
behind a look at the range of its characters (:func:`_told_apart`), a few dozen tries. The first
level stays one list: the engine looks for its characters as a set before it tries the pattern.
"""

from __future__ import annotations

import bisect
import functools
import re
from typing import Any, Iterable, Iterator

DEPTH_MAX = 24
"""Beyond this many shared characters a subtree is its words joined longest first: the groups of
the pattern nest at most this deep (the engine's parser recurses per group)."""
FAN_MAX = 16
"""The most branches of one level tried one after another; a level of more is told apart in groups."""

_END = ""


def alternation(words: Iterable[str]) -> str:
    """The pattern (no capturing group) of ``words`` (empty ones left out), longest match first;
    ``(?!)``, which matches nothing, for none. The same words give the same pattern, built once: a
    draft's checks ask for the book's names and keywords again with every draft."""
    return _built(frozenset(w for w in words if w))


def guarded(words: Iterable[str]) -> str:
    """:func:`alternation`'s pattern (the same matches) for words read inside a longer pattern, at places it does
    not start: behind one look at the words' first characters, and its first level told apart in groups too (a
    first level of thousands of characters — a card's things — was tried branch by branch at every place the
    pattern around it reached; A16, stop 56)."""
    return _guarded(frozenset(w for w in words if w))


@functools.lru_cache(maxsize=64)
def _guarded(kept: frozenset[str]) -> str:
    """:func:`guarded` of the non-empty ``kept``, built once a set of words: a book's things and places are asked for
    again with every draft."""
    if not kept:
        return r"(?!)"
    return "(?=[" + "".join(map(re.escape, sorted({w[0] for w in kept}))) + "])" + _built(kept, True)


@functools.lru_cache(maxsize=64)
def _built(words: frozenset[str], top: bool = False) -> str:
    tree: dict[str, Any] = {}  # character -> subtree; _END -> the word ending there
    for word in words:
        if word:
            node = tree
            for c in word:
                node = node.setdefault(c, {})
            node[_END] = word
    if not tree:
        return r"(?!)"
    stack: list[tuple[str, dict[str, Any], Iterator[str], list[tuple[str, str]]]] = [
        ("", tree, iter(sorted(k for k in tree if k)), [])]
    # each level: its character, its node, the children still to do, (character, pattern after it) of those done
    while True:
        char, node, todo, branches = stack[-1]
        c = next(todo, None)
        if c is not None:
            child = node[c]
            if len(stack) >= DEPTH_MAX:
                branches.append((c, _flat(child, len(stack))))
            else:
                stack.append((c, child, iter(sorted(k for k in child if k)), []))
            continue
        stack.pop()
        pattern = _group(branches, _END in node, len(stack) > 0 or top)
        if not stack:
            return pattern
        stack[-1][3].append((char, pattern))


def _group(branches: list[tuple[str, str]], ends: bool, split: bool) -> str:
    """One level's branches (each a character and the pattern after it, by character) as one pattern,
    in groups (:func:`_told_apart`) when ``split``; optional (tried first, then left out) when a word
    ends there."""
    if not branches:
        return ""
    if len(branches) == 1:
        inner = re.escape(branches[0][0]) + branches[0][1]
    elif split and len(branches) > FAN_MAX:
        inner = _told_apart(branches)
    else:
        inner = "(?:" + "|".join(re.escape(c) + rest for c, rest in branches) + ")"
    return f"(?:{inner})?" if ends else inner


def _told_apart(branches: list[tuple[str, str]]) -> str:
    """``branches`` (by character) in groups of at most :data:`FAN_MAX` branches (or groups), each
    behind a look at the range from its first character to its last: a character that is no
    branch's fails there, or at the branches of the one group whose range holds it."""
    if len(branches) <= FAN_MAX:
        return "(?:" + "|".join(re.escape(c) + rest for c, rest in branches) + ")"
    size = FAN_MAX
    while len(branches) > size * FAN_MAX:
        size *= FAN_MAX
    groups = [branches[k:k + size] for k in range(0, len(branches), size)]
    return "(?:" + "|".join(f"(?=[{re.escape(g[0][0])}-{re.escape(g[-1][0])}])" + _told_apart(g) for g in groups) + ")"


def _flat(node: dict[str, Any], depth: int) -> str:
    """A subtree ``depth`` characters down as the joined list of the rest of its words, longest first."""
    ends: list[str] = []
    stack = [node]
    while stack:
        for c, child in stack.pop().items():
            if c == _END:
                ends.append(child[depth:])
            else:
                stack.append(child)
    ends.sort(key=len, reverse=True)
    if ends == [""]:
        return ""
    return "(?:" + "|".join(map(re.escape, ends)) + ")"


SCAN_MAX = 64
"""Up to this many words are looked for in a text one by one; more, through the text's pieces."""
GRAM_MAX = 8
"""The longest word looked up among a text's pieces (a longer one is looked for in the text)."""


@functools.lru_cache(maxsize=16)
def first_end(pattern: re.Pattern[str], text: str) -> int:
    """The least ``x`` for which ``pattern.search(text[:x])`` finds a match, ``len(text) + 1`` when none does, for a
    pattern whose match in a text stays in every longer text beginning with it (no ``$``, no look past its end):
    whether it stands wholly before each of a sentence's places, the sentence read in a few searches once, not one
    from its start for each place (a sentence of thousands of dates: A17, stop 57)."""
    m = pattern.search(text)
    if m is None:
        return len(text) + 1
    # no match starts before m; the first to end ends by m's end
    ends = range(m.start(), m.end() + 1)
    return ends[bisect.bisect_left(ends, True, key=lambda x: pattern.search(text, 0, x) is not None)]


def occurring(words: Iterable[str], text: str) -> set[str]:
    """The words of ``words`` that occur in ``text``. Thousands of words (a book's names and their
    forms) cost the text's pieces of their lengths once, not a reading of the text each."""
    chars = frozenset(text)
    maybe = {w for w in words if w and chars.issuperset(w)}
    if len(maybe) <= SCAN_MAX:
        return {w for w in maybe if w in text}
    lengths = sorted({len(w) for w in maybe if len(w) <= GRAM_MAX})
    firsts = {w[0] for w in maybe}  # a piece is cut only where a word may start (a name's surname: a few places in ten)
    pieces = {text[i:i + n] for i, c in enumerate(text) if c in firsts for n in lengths}
    return {w for w in maybe if (w in pieces if len(w) <= GRAM_MAX else w in text)}


def found_at(words: Iterable[str], text: str) -> dict[int, list[str]]:
    """Every place in ``text`` where a word of ``words`` starts, overlapping ones too: ``{start: [the
    words there, longest first]}``. Thousands of words (a book's places) cost the text's pieces of
    their lengths once, not a reading of the text each."""
    wanted = set(occurring(words, text))
    out: dict[int, list[str]] = {}
    for n in sorted({len(w) for w in wanted}, reverse=True):
        for i in range(len(text) - n + 1):
            if text[i:i + n] in wanted:
                out.setdefault(i, []).append(text[i:i + n])
    return out


def starts_of(word: str, text: str) -> Iterator[int]:
    """Where ``re.finditer(re.escape(word), text)`` finds ``word`` (left to right, never overlapping), without a
    pattern compiled for each word: a check asking of hundreds of words (a contract's terms, a draft's candidate
    names) compiled as many, and pushed a draft's own patterns out of ``re``'s cache of 512."""
    if not word:
        yield from (m.start() for m in re.finditer("", text))
        return
    at = text.find(word)
    while at >= 0:
        yield at
        at = text.find(word, at + len(word))


SPOTS_CUT_MAX = 8
"""The longest piece :class:`Spots` cuts a text into; a longer word is looked up by its first piece this long."""


class Spots:
    """Where words stand in one text, for many words asked of it (a contract line of thousands of places, each asked
    where it stands): the text is cut once per word length (up to :data:`SPOTS_CUT_MAX`, or the ``cut`` given) and
    each word looked up, not each searched for from the text's start (``str.find`` walked the rest of a
    30,000-character line for each of its 4,000 places, and again in each rule asking; A14, stop 55). Cost: the text's
    length per distinct length asked, then each word's own mentions (a longer word: the mentions of its first piece)."""

    def __init__(self, text: str, cut: int = SPOTS_CUT_MAX) -> None:
        """``cut``: the longest piece cut (a longer word is looked up by its first piece this long, then checked)."""
        self.text = text
        self.cut = cut
        self._cut: dict[int, dict[str, list[int]]] = {}

    def _pieces(self, n: int) -> dict[str, list[int]]:
        table = self._cut.get(n)
        if table is None:
            table = self._cut[n] = {}
            text = self.text
            for i in range(len(text) - n + 1):
                table.setdefault(text[i:i + n], []).append(i)
        return table

    def every(self, word: str) -> list[int]:
        """Every start of ``word`` (not empty) in the text, overlapping ones too, left to right."""
        if not word:
            return []
        if len(word) <= self.cut:
            return self._pieces(len(word)).get(word, [])
        head = self._pieces(self.cut).get(word[:self.cut], [])
        return [at for at in head if self.text.startswith(word, at)]

    def of(self, word: str) -> list[int]:
        """Where :func:`starts_of` finds ``word`` (not empty): left to right, each after the last's end."""
        out: list[int] = []
        end = 0
        for at in self.every(word):
            if at >= end:
                out.append(at)
                end = at + len(word)
        return out


class Ends:
    """Which of many words end a text. Each text is cut at the words' lengths and the pieces looked up, not each
    word tried against it: a 名册 of thousands of names asked of each of a card's thousands of relations (or of
    each of another card's thousands of names) was their product, and each try cut the text before it again."""

    def __init__(self, words: Iterable[str]) -> None:
        self.words = frozenset(w for w in words if w)
        self.lengths = sorted({len(w) for w in self.words}, reverse=True)

    def of(self, text: str, end: int | None = None, shorter: bool = False) -> Iterator[str]:
        """The words ending ``text[:end]`` (all of ``text`` when ``end`` is None), longest first; only the ones
        shorter than ``text[:end]`` when ``shorter``."""
        end = len(text) if end is None else end
        for size in self.lengths:
            if size < end or (size == end and not shorter):
                piece = text[end - size:end]
                if piece in self.words:
                    yield piece


def quoted_at(line: str, at: int) -> bool:
    """Whether position ``at`` of ``line`` lies inside quoted words (more “ than ” before it). Far into a line, the
    quote marks before ``at`` are counted from the line's marks, found once (:func:`quote_marks`): a line of
    thousands of pronouns counted its start again for each (A13, stop 54)."""
    if at <= QUOTES_COUNTED:
        return line.count("“", 0, at) > line.count("”", 0, at)
    opening, closing = quote_marks(line)
    return bisect.bisect_left(opening, at) > bisect.bisect_left(closing, at)


QUOTES_COUNTED = 2000
"""How far into a line :func:`quoted_at` counts the quote marks before a place by reading them again."""


@functools.lru_cache(maxsize=16)
def quote_marks(line: str) -> tuple[list[int], list[int]]:
    """Where ``line``'s opening and closing quote marks (“ ”) stand, in order."""
    return [k for k, c in enumerate(line) if c == "“"], [k for k, c in enumerate(line) if c == "”"]
