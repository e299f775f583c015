"""Which of a book's literal keys occur in a text, and which as whole words, in bounded work.

A scan needs two facts per key and text: the key occurs, and it occurs as a whole word (for
whole-word entries). An Aho-Corasick search that reports every overlapping match gives them,
but the number of matches ending at one position is the number of keys that are suffixes of
each other there: keys ``a``, ``aa``, … ``a`` × 400 against 20,000 ``a`` are 8 million
matches (3.5 s and 1.3 GB before this module). So the keys of one table are split by how
deeply they nest:

- :func:`suffix_links` finds, for every key, the longest other key it ends with (its parent:
  keys form a forest, a key's ancestors being exactly the keys it ends with) and its height
  (the longest chain of keys ending with it, itself included). Linear in the keys' characters
  (a sort of the reversed keys and one stack).
- Keys of height at most :data:`NESTING` go to the ``ahocorasick-rs`` automaton. Along a chain
  heights strictly grow, so at most :data:`NESTING` of them end at any one position: an
  overlapping search reports at most ``NESTING`` matches a character, and it is run over
  pieces of :data:`SEARCH_CHUNK` characters (plus the longest key, so no match is cut), so at
  most ``NESTING × (SEARCH_CHUNK + longest key)`` matches exist at once.
- Keys nested deeper (each is a suffix of a chain of more than ``NESTING`` keys: ``a`` in the
  book above, never a key of an ordinary book, whose keys nest three deep at most) go to
  :class:`NestedKeys`, an Aho-Corasick automaton of this module's own that yields, at each
  position, only the longest of them ending there; every key it ends with is found by walking
  up the parents, and a walk stops at a key already walked from in this text. Each key is
  walked through once per text for the any-fact and once for the whole-word fact, so the work
  is the text's length plus the keys found, whatever the nesting. Whole words come from the
  same walk: a key's start inside a longer key ending at the same position is a word boundary
  or not whatever the text (:attr:`NestedKeys.inner_word`); only the longest key's start and
  the shared end are read from the text. The automaton reads only runs of characters its keys
  use (a regular expression finds them), so an ordinary text costs it almost nothing.

:class:`KeyTable` puts the two together for one table of keys (the case-sensitive or the
lowered ones); ``tests/test_worldbook_matchers.py`` holds the scan equal to SillyTavern's
per-entry scan on generated books, nested ones included.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable, Sequence
from operator import itemgetter

from lw_tavern.worldbook.jstext import is_word_char

NESTING = 4
"""At most this many keys of the library's automaton end at any one position of a text."""
SEARCH_CHUNK = 65_536
"""The library searches a text in pieces of this many characters (plus the longest key)."""

_FIRST = itemgetter(0)
_CODE_BITS = 21  # every code point fits


def suffix_links(keys: Sequence[str]) -> tuple[list[int], list[int]]:
    """``(parent, height)`` of each of ``keys`` (distinct, non-empty): ``parent[i]`` is the
    longest other key that ``keys[i]`` ends with (-1: none), ``height[i]`` the number of keys
    in the longest chain ``keys[i] ⊂ k1 ⊂ k2 …`` where each ends with the one before (1: no
    other key ends with ``keys[i]``)."""
    reversed_keys = [k[::-1] for k in keys]
    parent = [-1] * len(keys)
    stack: list[int] = []
    # in sorted order a string's prefixes come before it and stay on the stack until a string
    # without them comes: the stack is the chain of prefixes of the current string
    for i in sorted(range(len(keys)), key=reversed_keys.__getitem__):
        r = reversed_keys[i]
        while stack and not r.startswith(reversed_keys[stack[-1]]):
            stack.pop()
        if stack:
            parent[i] = stack[-1]
        stack.append(i)
    height = [1] * len(keys)
    for i in sorted(range(len(keys)), key=lambda i: -len(keys[i])):
        p = parent[i]
        if p >= 0 and height[p] <= height[i]:
            height[p] = height[i] + 1
    return parent, height


class NestedKeys:
    """An Aho-Corasick automaton over keys closed under :func:`suffix_links` parents, that
    reports, per text, which keys occur and which occur as whole words (see the module)."""

    def __init__(self, keys: Sequence[str], parent: Sequence[int], word_needed: Iterable[int]) -> None:
        self.keys = list(keys)
        self.parent = list(parent)
        self.inner_word = [p >= 0 and not is_word_char(k[len(k) - len(keys[p]) - 1])
                           for k, p in zip(keys, parent)]
        """Whether a key's parent, inside the key, starts after a non-word character."""
        self.word_needed = set(word_needed)
        goto: dict[int, int] = {}
        up = array("i", [0])
        code = array("i", [0])
        depth = array("i", [0])
        terminal = array("i", [-1])
        for j, key in enumerate(keys):
            state = 0
            for ch in key:
                edge = (state << _CODE_BITS) | ord(ch)
                nxt = goto.get(edge)
                if nxt is None:
                    nxt = goto[edge] = len(terminal)
                    up.append(state)
                    code.append(ord(ch))
                    depth.append(depth[state] + 1)
                    terminal.append(-1)
                state = nxt
            terminal[state] = j
        count = len(terminal)
        fail = array("i", bytes(4 * count))
        out = array("i", terminal)
        by_depth: list[list[int]] = [[] for _ in range((max(depth) if count else 0) + 1)]
        for state in range(1, count):
            by_depth[depth[state]].append(state)
        for level in by_depth[1:]:
            for state in level:
                parent_state = up[state]
                if parent_state:
                    f = fail[parent_state]
                    c = code[state]
                    while True:
                        nxt = goto.get((f << _CODE_BITS) | c)
                        if nxt is not None:
                            fail[state] = nxt
                            break
                        if f == 0:
                            break
                        f = fail[f]
                if out[state] < 0:
                    out[state] = out[fail[state]]
        self.goto = goto
        self.fail = fail
        self.out = out
        """The longest key ending at a state's text (-1: none)."""
        alphabet = sorted({ch for key in keys for ch in key})
        shortest = min((len(k) for k in keys), default=1)
        self.runs = re.compile("[" + "".join(re.escape(ch) for ch in alphabet) + "]{%d,}" % shortest)
        """Runs of characters the keys are made of, long enough to hold one."""

    def find(self, haystack: str, found: set[int], words: set[int]) -> None:
        """Add to ``found`` the keys (by index) occurring in ``haystack``, to ``words`` those of
        :attr:`word_needed` occurring as whole words in it."""
        goto, fail, out, parent, inner = self.goto, self.fail, self.out, self.parent, self.inner_word
        needed = self.word_needed
        walked: set[int] = set()  # keys whose ancestors' whole-word facts were taken from a shared end
        end_of_text = len(haystack)
        for run in self.runs.finditer(haystack):
            state = 0
            position = run.start()
            for ch in run.group():
                position += 1
                c = ord(ch)
                while True:
                    nxt = goto.get((state << _CODE_BITS) | c)
                    if nxt is not None:
                        state = nxt
                        break
                    if state == 0:
                        break
                    state = fail[state]
                key = out[state]
                if key < 0:
                    continue
                if key not in found:
                    node = key
                    while node >= 0 and node not in found:
                        found.add(node)
                        node = parent[node]
                if not needed or (position < end_of_text and is_word_char(haystack[position])):
                    continue
                # the keys ending here end before a non-word character (or the text's end)
                start = position - len(self.keys[key])
                if key in needed and (start == 0 or not is_word_char(haystack[start - 1])):
                    words.add(key)
                node = key
                while node not in walked:
                    walked.add(node)
                    up_node = parent[node]
                    if up_node < 0:
                        break
                    if inner[node] and up_node in needed:
                        words.add(up_node)
                    node = up_node


class KeyTable:
    """One table of literal keys (ids ``0 … len(keys) - 1``): the shallow ones in the
    library's automaton, the nested ones in :class:`NestedKeys`. :meth:`find` answers for a
    text. ``word_needed`` are the keys whose whole-word fact some entry reads; ``nesting``
    (:data:`NESTING`; tests lower it to send every key through :class:`NestedKeys`) the
    height above which a key is nested; ``chunk`` (:data:`SEARCH_CHUNK`; tests lower it to
    cut matches at every place) the size of the pieces the library searches."""

    def __init__(self, keys: Sequence[str], word_needed: Iterable[int], nesting: int = NESTING,
                 chunk: int = SEARCH_CHUNK) -> None:
        import ahocorasick_rs

        parent, height = suffix_links(keys)
        self.order = sorted(range(len(keys)), key=lambda i: (height[i] > nesting, i))
        """Ids in the table's order: the library's keys first (their library ids are their ids)."""
        self.id_of = {old: new for new, old in enumerate(self.order)}
        """Old id (position in ``keys``) -> id in this table."""
        self.keys = [keys[i] for i in self.order]
        needed = {self.id_of[i] for i in word_needed}
        self.shallow = sum(1 for h in height if h <= nesting)
        shallow_keys = self.keys[:self.shallow]
        self.library = ahocorasick_rs.AhoCorasick(shallow_keys) if shallow_keys else None
        self.overlap = max((len(k) for k in shallow_keys), default=1) - 1
        self.chunk = chunk
        self.word_needed = frozenset(i for i in needed if i < self.shallow)
        nested = self.keys[self.shallow:]
        self.nested = NestedKeys(
            nested, [-1 if parent[old] < 0 else self.id_of[parent[old]] - self.shallow
                     for old in self.order[self.shallow:]],
            [i - self.shallow for i in needed if i >= self.shallow]) if nested else None

    def find(self, haystack: str) -> tuple[set[int], set[int]]:
        """The ids of the keys occurring in ``haystack``, and of those in ``word_needed``
        occurring in it as whole words."""
        found: set[int] = set()
        words: set[int] = set()
        if self.library is not None:
            self._find_shallow(haystack, found, words)
        if self.nested is not None:
            deep: set[int] = set()
            deep_words: set[int] = set()
            self.nested.find(haystack, deep, deep_words)
            found.update(i + self.shallow for i in deep)
            words.update(i + self.shallow for i in deep_words)
        return found, words

    def _find_shallow(self, haystack: str, found: set[int], words: set[int]) -> None:
        assert self.library is not None
        size = len(haystack)
        span = self.chunk + self.overlap
        pending = set(self.word_needed)
        for start in range(0, max(size, 1), self.chunk):
            # every match starting in [start, start + chunk) lies inside this piece
            piece = haystack if start == 0 and size <= span else haystack[start:start + span]
            matches = self.library.find_matches_as_indexes(piece, overlapping=True)
            if not matches:
                continue
            here = set(map(_FIRST, matches))
            found |= here
            if pending and not pending.isdisjoint(here):
                for key, begin, end in matches:
                    if key in pending:
                        begin += start
                        end += start
                        if (begin == 0 or not is_word_char(haystack[begin - 1])) and (
                                end >= size or not is_word_char(haystack[end])):
                            pending.discard(key)
                            words.add(key)
                            if pending.isdisjoint(here):
                                break
            if start == 0 and size <= span:
                break
