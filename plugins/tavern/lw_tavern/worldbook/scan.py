"""What a world-book scan reads, and two ways to find keys in it.

The scan buffer is SillyTavern's: the newest messages (each trimmed) up to an entry's scan
depth, then the character/persona texts the entry opted into, the injected prompts (author's
note …), and the recursion buffer (left out during a min-activations pass). SillyTavern joins
them into one string, ``"\\x01" + parts.join("\\n\\x01")``, and tests every key of every entry
against it.

:class:`NaiveMatcher` does exactly that, entry by entry (the reference, and the baseline of
``bench/worldbook.py``). :class:`FastMatcher` gives the same answers from one pass over each
part with the literal keys' tables (lowered and as written; :mod:`lw_tavern.worldbook.literals`
finds which keys a text holds, and which as whole words, in work bounded by the text and the
keys found however the keys nest), recording for each key the newest message it occurs in,
whole word or not, and where else it occurs; a key matches an entry's buffer when it occurs
within the entry's depth. Keys whose meaning depends on the joined string (``/regex/`` keys,
and keys containing the ``\\x01`` joiner) are tested on the joined string on their own path,
where their literals occur, under an allowance. The two are interchangeable by construction:
``tests/test_worldbook_matchers.py`` checks them against each other on generated books.

Regex keys run in JavaScript, never in Python (:class:`RegexRuns`, over the kernel's
:class:`lwcore.sandbox.RegexTester`): each test is bounded in time and charged to the turn's
budget; a key that overruns is skipped for the rest of the scan and reported, the scan goes on.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

from lwcore.api import RegexFailed, RegexTester

from lw_tavern.worldbook.jstext import RegexKey, contains_whole_word, is_multi_word, js_trim
from lw_tavern.worldbook.literals import KeyTable

MATCHER = "\x01"
JOINER = "\n" + MATCHER
GLOBAL_TEXTS = (
    ("match_persona_description", "persona_description"),
    ("match_character_description", "character_description"),
    ("match_character_personality", "character_personality"),
    ("match_character_depth_prompt", "character_depth_prompt"),
    ("match_scenario", "scenario"),
    ("match_creator_notes", "creator_notes"),
)
"""(entry flag, global text) in the order SillyTavern appends them to the buffer."""
JOINED_FLOOR = 4_194_304
"""Characters a scan may read for keys tested on the joined buffer, besides :data:`JOINED_FACTOR`."""
JOINED_FACTOR = 16
"""… and this many per character of text the scan has read (messages, texts, recursion)."""
JOINED_SPENT = "the scan's allowance for keys tested on the whole buffer is spent"


@dataclass(frozen=True)
class Key:
    """One key of one entry, as the scan uses it.

    ``needle`` is the key after macros and trimming. ``regex`` is set for a ``/…/`` key;
    ``joined`` for a key that has to be tested on the joined buffer (a regex, or a key holding
    the joiner character); ``always`` for a key of only whitespace (it trims to an empty
    needle, which SillyTavern finds everywhere); ``empty`` for a key that is empty after its
    macros (SillyTavern skips it).
    """

    source: str
    needle: str
    regex: RegexKey | None = None
    empty: bool = False
    """The key is empty after macros: it never matches."""
    folded: str = ""
    """``needle`` lowered (JavaScript's ``toLowerCase``), for case-insensitive entries."""
    multi_word: bool = False
    """Whole-word matching falls back to a substring test for several words."""

    @property
    def joined(self) -> bool:
        return self.regex is not None or MATCHER in self.needle

    @property
    def always(self) -> bool:
        return not self.empty and self.regex is None and self.needle == ""


@dataclass
class ScanEntry:
    """The parts of a compiled entry the matchers read."""

    index: int
    keys: tuple[Key, ...]
    secondary: tuple[Key, ...]
    case_sensitive: bool
    whole_words: bool
    scan_depth: int | None
    global_flags: tuple[str, ...]
    joined: bool = False
    """Some primary key is tested on the joined buffer (its matches can change with any text)."""
    secondary_joined: bool = False
    """Some secondary key is tested on the joined buffer."""
    ids: dict[tuple[bool, str], int] = field(default_factory=dict)
    """(case sensitive?, transformed needle) -> pattern id in that automaton (fast matcher)."""


@dataclass
class Buffer:
    """The scan's texts: newest-first messages (trimmed), global texts, injections, recursion."""

    messages: list[str]
    globals: dict[str, str]
    injections: list[str]
    recursion: list[str] = field(default_factory=list)

    @classmethod
    def build(cls, newest_first: Sequence[str], globals: dict[str, str], injections: Sequence[str],
              max_depth: int) -> Buffer:
        return cls([js_trim(m) for m in newest_first[:max_depth]], dict(globals), list(injections))

    def joined(self, depth: int, flags: Iterable[str], with_recursion: bool) -> str:
        """SillyTavern's ``WorldInfoBuffer.get`` for an entry whose depth is ``depth`` (> 0)."""
        text = MATCHER + JOINER.join(self.messages[:depth])
        for flag, name in GLOBAL_TEXTS:
            if flag in flags and self.globals.get(name):
                text += JOINER + self.globals[name]
        if self.injections:
            text += JOINER + JOINER.join(self.injections)
        if with_recursion and self.recursion:
            text += JOINER + JOINER.join(self.recursion)
        return text


@lru_cache(maxsize=4096)
def joined_literal(needle: str) -> str:
    """The longest piece of a plain key holding the joiner that lies inside one buffer part
    wherever the key matches: a piece between joiner characters, less a trailing newline (the
    joiner's own). Empty when there is none."""
    pieces = [piece[:-1] if piece.endswith("\n") else piece for piece in needle.split(MATCHER)]
    return max(pieces, key=len)


def key_literals(key: Key, case_sensitive: bool) -> tuple[bool, tuple[str, ...] | None]:
    """The table (case-sensitive?) and the literals one of which occurs in an entry's buffer
    wherever ``key`` -- tested on the joined buffer -- matches (``None``: none known)."""
    if key.regex is not None:
        return not key.regex.ignore_case, key.regex.literals
    literal = joined_literal(key.needle if case_sensitive else key.folded)
    return case_sensitive, ((literal,) if literal else None)


class RegexRuns:
    """The regex keys' tests of one scan, through the kernel's bounded JavaScript tester.

    A result is kept per pattern and text (a scan asks the same question for many entries and
    passes). A pattern whose test overruns (its time or memory limit, or the turn's budget) is
    skipped for the rest of the scan -- it matches nothing -- and :attr:`problems` says which
    key of which entry, and why, for the keeper.
    """

    def __init__(self, tester: RegexTester) -> None:
        self.tester = tester
        self.failed: dict[tuple[str, str], str] = {}
        self.problems: dict[tuple[int, str], str] = {}
        """(entry index, key) -> what the keeper is told (the key was skipped, and why)."""
        self._results: dict[tuple[str, str, str], bool] = {}

    def gave_up(self, key: Key) -> bool:
        """Whether ``key``'s pattern was skipped for the rest of the scan."""
        return key.regex is not None and (key.regex.pattern, key.regex.flags) in self.failed

    def skip(self, entry: ScanEntry, key: Key, why: str) -> None:
        """Record that ``key`` of ``entry`` was skipped (it matches nothing), and why."""
        kind = "regex key" if key.regex is not None else "key"
        self.problems.setdefault((entry.index, key.source), f"{kind} {key.source!r} skipped: {why}")

    def test(self, entry: ScanEntry, key: Key, text: str | None) -> bool:
        """The pattern's answer on ``text`` (``None``: the scan could not afford to build it)."""
        regex = key.regex
        assert regex is not None
        which = (regex.pattern, regex.flags)
        why = self.failed.get(which)
        if why is None and text is None:
            why = self.failed[which] = JOINED_SPENT
        if why is None:
            assert text is not None
            result = self._results.get((regex.pattern, regex.flags, text))
            if result is not None:
                return result
            try:
                result = self.tester.test(regex.pattern, regex.flags, text)
            except RegexFailed as exc:
                why = self.failed[which] = exc.failure.message
            else:
                self._results[(regex.pattern, regex.flags, text)] = result
                return result
        self.skip(entry, key, why)
        return False


@dataclass
class Fresh:
    """Entries a key of which is newly in some buffer since the last pass: in the recursion
    texts (buffers with them only), or in messages the widened depth now reaches (entries
    scanning as deep as the settings say). ``primary``/``secondary``: the kind of key."""

    recursion_primary: set[int] = field(default_factory=set)
    recursion_secondary: set[int] = field(default_factory=set)
    widened_primary: set[int] = field(default_factory=set)
    widened_secondary: set[int] = field(default_factory=set)


class Matcher(Protocol):
    """Answers "does this key occur in this entry's buffer" for one activation call."""

    def prepare(self, depth: int) -> None:
        """Make sure the newest ``depth`` messages have been looked at."""

    def candidates(self) -> Iterable[int]:
        """Entries (by index) that may have a primary key match (a superset is fine)."""

    def take_fresh(self) -> Fresh | None:
        """The entries a key of which is newly in some buffer since the last call (``None``:
        unknown, every entry may have changed)."""

    def matches(self, entry: ScanEntry, key: Key, depth: int, with_recursion: bool) -> bool:
        """Whether ``key`` occurs in ``entry``'s buffer of ``depth`` newest messages."""

    def add_recursion(self, text: str) -> None:
        """Append a text to the recursion buffer."""

    def recursion_count(self) -> int:
        """How many texts the recursion buffer holds."""

    def widen(self, old: int, new: int) -> None:
        """The scan's depth grew from ``old`` to ``new`` messages: report the keys those messages
        hold for the first time as fresh (see :meth:`take_fresh`)."""

    def volatile(self, entry: ScanEntry, keys: Iterable[Key], depth: int, with_recursion: bool) -> bool:
        """Whether a miss of one of ``keys`` tested on the joined buffer may turn into a match when
        that buffer changes (no key of them was ruled out by its literals, or skipped)."""


def _plain_match(haystack: str, needle: str, case_sensitive: bool, whole_words: bool) -> bool:
    """SillyTavern's ``matchKeys`` for a plain (non-regex) key."""
    if not case_sensitive:
        haystack = haystack.lower()
        needle = needle.lower()
    if whole_words and not is_multi_word(needle):
        return needle == "" or contains_whole_word(haystack, needle)
    return needle in haystack


class NaiveMatcher:
    """The reference: every entry builds its buffer string and tests every key on it."""

    def __init__(self, entries: Sequence[ScanEntry], buffer: Buffer, regexes: RegexRuns) -> None:
        self.entries = entries
        self.buffer = buffer
        self.regexes = regexes

    def prepare(self, depth: int) -> None:
        pass

    def candidates(self) -> Iterable[int]:
        return range(len(self.entries))

    def take_fresh(self) -> Fresh | None:
        return None

    def matches(self, entry: ScanEntry, key: Key, depth: int, with_recursion: bool) -> bool:
        if key.empty:
            return False
        haystack = self.buffer.joined(depth, entry.global_flags, with_recursion) if depth > 0 else ""
        if key.regex is not None:
            return self.regexes.test(entry, key, haystack)
        return _plain_match(haystack, key.needle, entry.case_sensitive, entry.whole_words)

    def add_recursion(self, text: str) -> None:
        self.buffer.recursion.append(text)

    def recursion_count(self) -> int:
        return len(self.buffer.recursion)

    def widen(self, old: int, new: int) -> None:
        pass

    def volatile(self, entry: ScanEntry, keys: Iterable[Key], depth: int, with_recursion: bool) -> bool:
        return True


_ANYWHERE = 1 << 30


class _Facts:
    """Where the literal keys of one automaton occur: by message (newest index) and elsewhere."""

    __slots__ = ("msg_any", "msg_word", "other_any", "other_word")

    def __init__(self) -> None:
        self.msg_any: dict[int, int] = {}
        self.msg_word: dict[int, int] = {}
        self.other_any: dict[int, set[str]] = {}
        self.other_word: dict[int, set[str]] = {}


class Automaton:
    """The literal keys of a book in two tables (lowered, and as written), each a
    :class:`~lw_tavern.worldbook.literals.KeyTable` (the ``ahocorasick-rs`` automaton and the
    nested keys' own), with the entries each key is a primary key of, and those it is a
    secondary key of. Built once per compiled book."""

    def __init__(self, entries: Sequence[ScanEntry]) -> None:
        tables: dict[bool, dict[str, int]] = {False: {}, True: {}}
        primary_of: dict[bool, dict[int, list[int]]] = {False: {}, True: {}}
        secondary_of: dict[bool, dict[int, list[int]]] = {False: {}, True: {}}
        word_needed: dict[bool, set[int]] = {False: set(), True: set()}
        self.forced: list[int] = []
        for entry in entries:
            cs = entry.case_sensitive
            table = tables[cs]
            for is_primary, keys in ((True, entry.keys), (False, entry.secondary)):
                for key in keys:
                    if key.empty:
                        continue
                    if key.joined:
                        lcs, literals = key_literals(key, cs)
                        if literals is not None:
                            for literal in literals:
                                pid = tables[lcs].setdefault(literal, len(tables[lcs]))
                                entry.ids[(lcs, literal)] = pid
                                (primary_of if is_primary else secondary_of)[lcs].setdefault(pid, []).append(
                                    entry.index)
                            continue
                    if key.joined or key.always:
                        if is_primary:
                            self.forced.append(entry.index)
                        continue
                    needle = key.needle if cs else key.needle.lower()
                    pid = table.setdefault(needle, len(table))
                    entry.ids[(cs, needle)] = pid
                    (primary_of if is_primary else secondary_of)[cs].setdefault(pid, []).append(entry.index)
                    if entry.whole_words and not key.multi_word:
                        word_needed[cs].add(pid)
        self.tables: dict[bool, KeyTable] = {}
        for cs, table in tables.items():
            if not table:
                continue
            keys = self.tables[cs] = KeyTable(list(table), word_needed[cs])
            new = keys.id_of
            primary_of[cs] = {new[pid]: owners for pid, owners in primary_of[cs].items()}
            secondary_of[cs] = {new[pid]: owners for pid, owners in secondary_of[cs].items()}
        for entry in entries:
            if entry.ids:
                entry.ids = {(cs, needle): self.tables[cs].id_of[pid] for (cs, needle), pid in entry.ids.items()}
        self.primary_of = primary_of
        self.secondary_of = secondary_of
        self.forced = sorted(set(self.forced))


class FastMatcher:
    """Aho-Corasick over each buffer part once; per-key facts answer every entry.

    Keys tested on the joined buffer (``/regex/`` keys, keys holding the joiner) are first ruled
    out by their literals (:attr:`Key.literals`: a regex's required texts, the longest piece of a
    plain key between joiners). The joined buffers they need are built at most once per depth,
    texts and recursion state, and what building and searching them reads is charged to an
    allowance of :data:`JOINED_FLOOR` characters plus :data:`JOINED_FACTOR` per character the
    scan has read; a key that would pass it is skipped for the rest of the scan and reported
    (:meth:`RegexRuns.skip`), as a regex key that overruns is. Many entries with such keys at
    distinct depths, or one such key in a long recursion, cost a bounded multiple of the text.
    """

    def __init__(self, entries: Sequence[ScanEntry], buffer: Buffer, automaton: Automaton,
                 regexes: RegexRuns) -> None:
        self.entries = entries
        self.buffer = buffer
        self.auto = automaton
        self.regexes = regexes
        self.facts = {False: _Facts(), True: _Facts()}
        self.cands: set[int] = set(automaton.forced)
        self.fresh = Fresh()
        self.first_in: dict[int, list[tuple[bool, int]]] = {}
        """Message index -> the keys (table, id) whose newest occurrence (any, or as a whole
        word) is in that message."""
        self.scanned = 0
        self.read = 0
        """Characters of text scanned (the joined keys' allowance grows with it)."""
        self.spent = 0
        """Characters the joined keys' buffers and searches have read."""
        self._haystacks: dict[tuple[Any, ...], str] = {}
        self._skipped: set[tuple[int, str]] = set()
        for name, text in buffer.globals.items():
            if text:
                self._scan(text, _ANYWHERE, "g:" + name)
        for text in buffer.injections:
            self._scan(text, _ANYWHERE, "inject")
        for text in buffer.recursion:
            self._scan(text, _ANYWHERE, "rec")

    def _scan(self, text: str, index: int, tag: str) -> None:
        """Record the keys ``text`` holds; a key whose facts change makes its entries fresh."""
        self.read += len(text)
        for cs, keys in self.auto.tables.items():
            facts = self.facts[cs]
            found, words = keys.find(text if cs else text.lower())
            for pid in found:
                if self._note(facts.msg_any, facts.other_any, pid, index, tag):
                    self._changed(cs, pid, index, tag)
            for pid in words:
                if self._note(facts.msg_word, facts.other_word, pid, index, tag):
                    self._changed(cs, pid, index, tag)

    def _changed(self, cs: bool, pid: int, index: int, tag: str) -> None:
        owners = self.auto.primary_of[cs].get(pid)
        if owners:
            self.cands.update(owners)
        if not tag:
            self.first_in.setdefault(index, []).append((cs, pid))
        elif tag == "rec":
            self._freshen(cs, pid, self.fresh.recursion_primary, self.fresh.recursion_secondary)

    def _freshen(self, cs: bool, pid: int, primary: set[int], secondary: set[int]) -> None:
        owners = self.auto.primary_of[cs].get(pid)
        if owners:
            primary.update(owners)
        owners = self.auto.secondary_of[cs].get(pid)
        if owners:
            secondary.update(owners)

    @staticmethod
    def _note(by_msg: dict[int, int], other: dict[int, set[str]], pid: int, index: int, tag: str) -> bool:
        """Record one occurrence; whether it is new (a newer message, or a new kind of text)."""
        if tag:
            tags = other.setdefault(pid, set())
            if tag in tags:
                return False
            tags.add(tag)
            return True
        if by_msg.get(pid, _ANYWHERE) > index:
            by_msg[pid] = index
            return True
        return False

    def prepare(self, depth: int) -> None:
        for i in range(self.scanned, min(depth, len(self.buffer.messages))):
            self._scan(self.buffer.messages[i], i, "")
        self.scanned = max(self.scanned, min(depth, len(self.buffer.messages)))

    def widen(self, old: int, new: int) -> None:
        for index in range(old, min(new, self.scanned)):
            for cs, pid in self.first_in.get(index, ()):
                self._freshen(cs, pid, self.fresh.widened_primary, self.fresh.widened_secondary)

    def candidates(self) -> Iterable[int]:
        return self.cands

    def take_fresh(self) -> Fresh | None:
        fresh, self.fresh = self.fresh, Fresh()
        return fresh

    def matches(self, entry: ScanEntry, key: Key, depth: int, with_recursion: bool) -> bool:
        if key.empty:
            return False
        if key.always:
            return True
        if key.joined:
            if self._ruled_out(entry, key, depth, with_recursion):
                return False
            if key.regex is not None:
                return self.regexes.test(entry, key, self._joined(depth, entry.global_flags, with_recursion))
            cs = entry.case_sensitive
            haystack = self._joined(depth, entry.global_flags, with_recursion, lower=not cs)
            if haystack is None or not self._afford(len(haystack)):
                self._skipped.add((entry.index, key.source))
                self.regexes.skip(entry, key, JOINED_SPENT)
                return False
            return _plain_match(haystack, key.needle if cs else key.folded, True, entry.whole_words)
        cs = entry.case_sensitive
        needle = key.needle if cs else key.folded
        return self._occurs(entry, cs, needle, entry.whole_words and not key.multi_word, depth, with_recursion)

    def _ruled_out(self, entry: ScanEntry, key: Key, depth: int, with_recursion: bool) -> bool:
        """A key tested on the joined buffer certainly misses: skipped for the scan, or none of
        its literals occurs in the entry's buffer."""
        if self.regexes.gave_up(key):
            self.regexes.test(entry, key, None)  # records the problem for this entry
            return True
        if (entry.index, key.source) in self._skipped:
            self.regexes.skip(entry, key, JOINED_SPENT)
            return True
        cs, literals = key_literals(key, entry.case_sensitive)
        return literals is not None and not any(
            self._occurs(entry, cs, literal, False, depth, with_recursion) for literal in literals)

    def volatile(self, entry: ScanEntry, keys: Iterable[Key], depth: int, with_recursion: bool) -> bool:
        return any(k.joined and not k.empty and not self._ruled_out(entry, k, depth, with_recursion) for k in keys)

    def _occurs(self, entry: ScanEntry, cs: bool, needle: str, word: bool, depth: int, with_recursion: bool) -> bool:
        """Whether ``needle`` (in the ``cs`` automaton) occurs in ``entry``'s buffer."""
        if depth <= 0:
            return False
        pid = entry.ids[(cs, needle)]
        facts = self.facts[cs]
        first = (facts.msg_word if word else facts.msg_any).get(pid)
        if first is not None and first < depth:
            return True
        tags = (facts.other_word if word else facts.other_any).get(pid)
        if not tags:
            return False
        if "inject" in tags or (with_recursion and "rec" in tags):
            return True
        return any("g:" + name in tags and self.buffer.globals.get(name)
                   for flag, name in GLOBAL_TEXTS if flag in entry.global_flags)

    def _afford(self, cost: int) -> bool:
        if self.spent + cost > JOINED_FLOOR + JOINED_FACTOR * self.read:
            return False
        self.spent += cost
        return True

    def _joined(self, depth: int, flags: tuple[str, ...], with_recursion: bool, lower: bool = False) -> str | None:
        """The joined buffer for an entry, lowered or not (``None``: the allowance cannot pay
        for building it). Kept until the recursion buffer grows."""
        if depth <= 0:
            return ""
        key = (with_recursion, min(depth, len(self.buffer.messages)), flags, lower)
        text = self._haystacks.get(key)
        if text is None:
            if lower:
                text = self._joined(depth, flags, with_recursion)
                if text is None or not self._afford(len(text)):
                    return None
                text = text.lower()
            else:
                if not self._afford(self._joined_size(key[1], flags, with_recursion)):
                    return None
                text = self.buffer.joined(depth, flags, with_recursion)
            self._haystacks[key] = text
        return text

    def _joined_size(self, depth: int, flags: tuple[str, ...], with_recursion: bool) -> int:
        parts = [*self.buffer.messages[:depth], *(self.buffer.globals[name] for flag, name in GLOBAL_TEXTS
                                                  if flag in flags and self.buffer.globals.get(name)),
                 *self.buffer.injections, *(self.buffer.recursion if with_recursion else ())]
        return sum(map(len, parts)) + 2 * len(parts)

    def add_recursion(self, text: str) -> None:
        self.buffer.recursion.append(text)
        self._haystacks = {k: v for k, v in self._haystacks.items() if not k[0]}  # those with it are stale
        self._scan(text, _ANYWHERE, "rec")

    def recursion_count(self) -> int:
        return len(self.buffer.recursion)
