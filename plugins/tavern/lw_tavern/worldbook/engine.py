"""World-book activation with SillyTavern's semantics, as a pure function.

:func:`compile_book` turns books into a :class:`CompiledBook` once (sorted entries, keys after
macros, regex keys checked by JavaScript, the Aho-Corasick automata); :func:`activate` runs one turn's scan
over it: state in (:class:`~lw_tavern.worldbook.timed.TimedState`), state out, randomness from
the ``rng`` it is given, token counting from ``tokens``.

The scan is SillyTavern's ``checkWorldInfo``, step for step: entries in insertion-order
sequence (higher ``order`` first); per pass, each entry is checked against its filters and timed
effects, then activated by ``@@activate``, an external activation, ``constant``, a running
``sticky`` effect, or a primary key and its secondary keys under the entry's logic; the pass's
new entries (sticky ones first) go through inclusion groups (sticky members win; scoring; a
``groupOverride`` member with the highest order; else a weighted roll), then probability rolls
and the token budget (an overflow stops the budget-bound entries; ``ignoreBudget`` ones go on).
Recursion feeds the activated text back to the scan (minus ``preventRecursion`` entries;
``excludeRecursion`` entries cannot be activated by it; ``delayUntilRecursion`` levels open one
by one); min-activations widens the depth one message at a time; ``max_recursion_steps`` caps
the passes. Activated entries are placed by position, lower ``order`` first so that a higher
order sits closer to the chat.

Known deliberate differences from SillyTavern (each would be a bug to copy):

- an entry removed from an inclusion group twice (it is in two groups) is removed once;
  SillyTavern's ``splice(indexOf(…))`` then removes an unrelated entry;
- "a group was already activated" checks group membership, not string equality of the whole
  ``group`` field (so ``"a,b"`` counts for ``a`` and ``b``);
- group scoring counts keys after macros and trimming (SillyTavern counts raw keys there);
- a ``null`` probability is 100 (SillyTavern's card import does this; its scan compares with 0).
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import IntEnum
from typing import Any, Literal

from lwcore.api import Budget, RegexTester, current_budget

from lw_tavern.decorators import has_line, named, split_decorators
from lw_tavern.worldbook.jstext import is_multi_word, js_trim, parse_regex_key
from lw_tavern.worldbook.model import (
    DEFAULT_DEPTH,
    DEFAULT_WEIGHT,
    MAX_SCAN_DEPTH,
    Logic,
    Position,
    Role,
    WorldBook,
    WorldEntry,
    WorldSettings,
    unique_ids,
)
from lw_tavern.worldbook.scan import (
    GLOBAL_TEXTS,
    Automaton,
    Buffer,
    FastMatcher,
    Fresh,
    Key,
    Matcher,
    NaiveMatcher,
    RegexRuns,
    ScanEntry,
)
from lw_tavern.worldbook.timed import ActiveEffects, TimedInfo, TimedState, check, record


class ScanState(IntEnum):
    NONE = 0
    INITIAL = 1
    RECURSION = 2
    MIN_ACTIVATIONS = 3


def estimate_tokens(text: str) -> int:
    """The default token count: a quarter of the UTF-8 bytes, rounded up (about right for
    English; about 0.75 a character for Chinese). Pass a real tokenizer's count to be exact."""
    return (len(text.encode("utf-8")) + 3) // 4


@dataclass(frozen=True)
class Message:
    """One chat message, oldest first in a chat; ``name`` is prefixed when names are scanned."""

    text: str
    name: str = ""


@dataclass(frozen=True)
class ScanInput:
    """What one turn's scan reads besides the book.

    - ``chat``: the messages, oldest first.
    - ``injections``: prompts that are scanned too (the author's note when it allows it).
    - ``globals``: ``persona_description``, ``character_description``,
      ``character_personality``, ``character_depth_prompt``, ``scenario``, ``creator_notes``
      for entries that opted into scanning them.
    - ``trigger``: the generation type (``normal``, ``continue``, ``impersonate``, ``swipe``,
      ``regenerate``, ``quiet``) for entries limited by ``triggers``.
    - ``character``/``character_tags``: for entries with a character filter (``None`` tags:
      the tag filter does not apply).
    - ``force``: entry keys activated from outside (a script, a keeper).
    - ``length``: how many chat messages there are at this generation (SillyTavern's
      ``chat.length``: timed effects count messages); ``None``: the state's counter plus one.
    """

    chat: Sequence[Message | str] = ()
    injections: Sequence[str] = ()
    globals: Mapping[str, str] = field(default_factory=dict)
    trigger: str = "normal"
    character: str | None = None
    character_tags: Sequence[str] | None = None
    force: frozenset[str] = frozenset()
    length: int | None = None


@dataclass
class Compiled:
    """One entry ready for the scan."""

    index: int
    entry: WorldEntry
    key: str
    content: str
    activate: bool
    dont_activate: bool
    condition: str
    scan: ScanEntry
    timed: TimedInfo
    probability: float
    level: int


@dataclass
class CompiledBook:
    """Books compiled for :func:`activate` against one pair of global key settings."""

    entries: list[Compiled]
    by_key: dict[str, Compiled]
    case_sensitive: bool
    whole_words: bool
    max_entry_depth: int
    always: list[int]
    levels: list[int]
    timed: dict[str, TimedInfo]
    delayed: list[TimedInfo]
    scans: list[ScanEntry]
    _automaton: Automaton | None = None

    @property
    def automaton(self) -> Automaton:
        """The key automata, built on first use (a room keeps the compiled book)."""
        if self._automaton is None:
            self._automaton = Automaton(self.scans)
        return self._automaton


def entry_key(book_name: str, entry: WorldEntry) -> str:
    """The stable key of an entry in timed state and traces: its ``id`` if it has one, else
    ``<book>.<uid>`` (SillyTavern's ``world.uid``), or the bare uid for an unnamed book.
    :func:`compile_book` makes the keys of its books unique (an ``id`` keeps its key; a key
    asked for twice gets ``~2`` … appended: :func:`lw_tavern.worldbook.model.unique_ids`)."""
    if entry.id:
        return entry.id
    return f"{book_name}.{entry.uid}" if book_name else str(entry.uid)


def compile_book(
    books: WorldBook | Sequence[WorldBook],
    settings: WorldSettings | None = None,
    *,
    key_macros: Callable[[str], str] | None = None,
    strategy: Literal["evenly", "sequential"] = "evenly",
    regex: RegexTester | None = None,
) -> CompiledBook:
    """Compile ``books`` for scanning.

    Entries are ordered like SillyTavern's ``getSortedEntries``: by ``order``, highest first,
    file order within equal orders; ``evenly`` sorts all books together, ``sequential`` sorts
    each and concatenates them in the given order (character lore first, say). ``key_macros``
    expands macros in keys (``{{char}}`` …) as SillyTavern does before matching. Each
    ``/pattern/flags`` key is checked by JavaScript (``regex``, default a fresh
    :class:`lwcore.sandbox.RegexTester`): one ``new RegExp`` refuses is a plain key, as in
    SillyTavern.
    """
    settings = settings or WorldSettings()
    if isinstance(books, WorldBook):
        books = [books]
    pairs = [(book.name, e) for book in books for e in book.entries]
    keys = iter(unique_ids([(entry_key(name, e), bool(e.id)) for name, e in pairs]))
    tagged = [[(next(keys), e) for e in book.entries] for book in books]
    if strategy == "evenly":
        ordered = sorted((pair for group in tagged for pair in group), key=lambda p: -p[1].order)
    else:
        ordered = [pair for group in tagged for pair in sorted(group, key=lambda p: -p[1].order)]
    expand = key_macros or (lambda text: text)
    compiled: list[Compiled] = []
    for index, (key, entry) in enumerate(ordered):
        decorators, content = split_decorators(entry.content)
        condition = entry.condition or (found.arg if (found := named(decorators, "if")) else "")
        case_sensitive = settings.case_sensitive if entry.case_sensitive is None else entry.case_sensitive
        whole_words = settings.match_whole_words if entry.match_whole_words is None else entry.match_whole_words
        scan_depth = entry.scan_depth
        compiled.append(Compiled(
            index=index,
            entry=entry,
            key=key,
            content=content,
            activate=has_line(decorators, "@@activate"),
            dont_activate=has_line(decorators, "@@dont_activate"),
            condition=condition,
            scan=ScanEntry(
                index=index,
                keys=tuple(_key(k, expand) for k in entry.key),
                secondary=tuple(_key(k, expand) for k in entry.keysecondary),
                case_sensitive=case_sensitive,
                whole_words=whole_words,
                scan_depth=None if scan_depth is None else min(max(scan_depth, 0), MAX_SCAN_DEPTH),
                global_flags=tuple(flag for flag, _ in GLOBAL_TEXTS if getattr(entry, flag)),
            ),
            timed=TimedInfo(key=key, hash=entry.digest(), sticky=entry.sticky or 0,
                            cooldown=entry.cooldown or 0, delay=entry.delay or 0),
            probability=100.0 if entry.probability is None else float(entry.probability),
            level=entry.recursion_delay_level,
        ))
    _check_regexes(compiled, regex)
    _mark_joined(compiled)
    depths = [c.scan.scan_depth for c in compiled if c.scan.scan_depth is not None]
    return CompiledBook(
        entries=compiled,
        by_key={c.key: c for c in compiled},
        case_sensitive=settings.case_sensitive,
        whole_words=settings.match_whole_words,
        max_entry_depth=max(depths, default=0),
        always=[c.index for c in compiled if c.entry.constant or c.activate],
        levels=sorted({c.level for c in compiled if c.level}),
        timed={c.key: c.timed for c in compiled},
        delayed=[c.timed for c in compiled if c.timed.delay],
        scans=[c.scan for c in compiled],
    )


def _mark_joined(compiled: list[Compiled]) -> None:
    for c in compiled:
        c.scan.joined = any(k.joined or k.always for k in c.scan.keys)
        c.scan.secondary_joined = any(k.joined for k in c.scan.secondary)


def _tester() -> RegexTester:
    """A tester charged to the active budget, else to a budget of its own: a scan's regular
    expressions together never take longer than a turn's script budget."""
    return RegexTester(budget=current_budget() or Budget(), script="world book regex key")


_VALID: dict[tuple[str, str], bool] = {}
"""(pattern, flags) -> whether JavaScript accepts it (deterministic: kept across compiles)."""
_VALID_SIZE = 8192


def _check_regexes(compiled: list[Compiled], tester: RegexTester | None) -> None:
    """Turn every regex key JavaScript refuses into a plain key. A pattern whose check overran
    stays a regex key (valid, as far as is known): its tests fail and the scan reports it. The
    checks have a budget of their own, never the turn's: a book compiled after a turn's scripts
    spent it must not keep a refused pattern as a regex key (a room keeps the compiled book)."""
    tester = tester if tester is not None else RegexTester(budget=Budget(), script="world book regex key")

    def valid(key: Key) -> bool:
        assert key.regex is not None
        which = (key.regex.pattern, key.regex.flags)
        known = _VALID.get(which)
        if known is None:
            checked = tester.check(*which)
            known = checked.verdict != "invalid"
            if checked.verdict != "failed":
                if len(_VALID) >= _VALID_SIZE:
                    _VALID.clear()
                _VALID[which] = known
        return known

    for c in compiled:
        scan = c.scan
        if any(k.regex is not None for k in (*scan.keys, *scan.secondary)):
            scan.keys = tuple(k if k.regex is None or valid(k) else replace(k, regex=None) for k in scan.keys)
            scan.secondary = tuple(k if k.regex is None or valid(k) else replace(k, regex=None) for k in scan.secondary)


def _key(source: str, expand: Callable[[str], str]) -> Key:
    substituted = expand(source)
    needle = js_trim(substituted)
    return Key(source=source, needle=needle, regex=parse_regex_key(needle) if needle else None,
               empty=substituted == "", folded=needle.lower(), multi_word=is_multi_word(needle.lower()))


# --- results ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """Why an entry did or did not fire: a short code and the detail a person reads."""

    fired: bool
    code: str
    detail: str = ""
    loop: int = 0


@dataclass(frozen=True)
class DepthGroup:
    """Entries inserted at one depth with one role (contents in insertion order)."""

    depth: int
    role: Role
    contents: tuple[str, ...]


@dataclass(frozen=True)
class Placement:
    """Where the activated entries go, each list in insertion order (top to bottom)."""

    before: tuple[str, ...] = ()
    after: tuple[str, ...] = ()
    an_top: tuple[str, ...] = ()
    an_bottom: tuple[str, ...] = ()
    em_top: tuple[str, ...] = ()
    em_bottom: tuple[str, ...] = ()
    depth: tuple[DepthGroup, ...] = ()
    outlets: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def world_info_before(self) -> str:
        return "\n".join(self.before)

    @property
    def world_info_after(self) -> str:
        return "\n".join(self.after)


@dataclass(frozen=True)
class Activation:
    """The outcome of one scan.

    ``fired`` lists the activated entries' keys in activation order; ``contents`` their text
    after rendering; ``placement`` where they go; ``verdicts`` why each looked-at entry fired
    or not (entries no key of which occurred are left out unless the scan explained all);
    ``state`` the timed state to store (the input state when the scan did not advance);
    ``problems`` what the keeper should know, as ``(entry key, text)``: a regex key skipped
    because it overran, and why.
    """

    fired: tuple[str, ...]
    contents: Mapping[str, str]
    placement: Placement
    verdicts: Mapping[str, Verdict]
    state: TimedState
    overflowed: bool
    loops: int
    turn: int
    problems: tuple[tuple[str, str], ...] = ()


# --- the scan --------------------------------------------------------------------------------


def _newest_first(scan: ScanInput, include_names: bool) -> list[str]:
    out = []
    for message in reversed(scan.chat):
        if isinstance(message, str):
            out.append(message)
        else:
            out.append(f"{message.name}: {message.text}" if include_names and message.name else message.text)
    return out


def activate(
    book: CompiledBook,
    scan: ScanInput,
    settings: WorldSettings | None = None,
    state: TimedState | None = None,
    *,
    rng: random.Random,
    advance: bool = True,
    render: Callable[[WorldEntry, str], str] | None = None,
    condition: Callable[[str], bool] | None = None,
    tokens: Callable[[str], int] = estimate_tokens,
    matcher: Literal["fast", "naive"] = "fast",
    explain: bool = False,
    regex: RegexTester | None = None,
) -> Activation:
    """One turn's activation.

    - ``state``: the room's timed state; this scan evaluates the generation at ``scan.length``
      chat messages (SillyTavern's count), else at ``state.turn + 1``. With
      ``advance`` the returned state holds that turn and the effects it started; without, the
      input state comes back unchanged (a preview).
    - ``rng``: rolls probabilities and inclusion-group draws (``rng.random()``, in
      SillyTavern's order).
    - ``render(entry, content)``: the entry's text as injected (macros, templates); it is
      called once per entry that passes its probability roll, as SillyTavern substitutes
      macros there; default: the content without its decorators. It may raise
      :class:`LeftOut` to leave the entry out (verdict ``left_out``).
    - ``condition(expr)``: evaluates an entry's ``@@if`` condition, once per entry and scan; an
      entry with a condition never fires without one (fail closed).
    - ``regex``: the :class:`lwcore.sandbox.RegexTester` the regex keys run in (default a
      fresh one charged to the active budget, else to a turn's budget of its own); a key that
      overruns is skipped for the rest of the scan and listed in ``problems``.
    - ``matcher``: ``naive`` is the reference implementation (slow, same answers).
    - ``explain``: look at every entry so each gets a verdict (for people, not for speed).
    """
    settings = settings or WorldSettings()
    if (book.case_sensitive, book.whole_words) != (settings.case_sensitive, settings.match_whole_words):
        raise ValueError("the book was compiled with other case/whole-word settings; compile it with these")
    state = state or TimedState()
    turn = scan.length if scan.length is not None else state.turn + 1
    next_state, effects = check(state, turn, book.timed, book.delayed)
    newest = _newest_first(scan, settings.include_names)
    buffer = Buffer.build(newest, dict(scan.globals), scan.injections, MAX_SCAN_DEPTH)
    entries = book.entries
    regexes = RegexRuns(regex if regex is not None else _tester())
    finder: Matcher = (NaiveMatcher(book.scans, buffer, regexes) if matcher == "naive"
                       else FastMatcher(book.scans, buffer, book.automaton, regexes))
    run = _Run(book, scan, settings, effects, finder, rng, render, condition, tokens)
    run.loop(len(newest), explain)
    if advance:
        next_state = record(next_state, turn, [entries[i].timed for i in run.activated])
    else:
        next_state = state
    fired = tuple(entries[i].key for i in run.activated)
    return Activation(
        fired=fired,
        contents={entries[i].key: run.text(i) for i in run.activated},
        placement=_place(entries, run),
        verdicts=run.verdicts,
        state=next_state,
        overflowed=run.overflowed,
        loops=run.count,
        turn=turn,
        problems=tuple((entries[i].key, what) for (i, _source), what in regexes.problems.items()),
    )


STATIC = "static"
"""An entry that cannot fire for the rest of the scan (disabled, its condition false, filtered,
delayed, on cooldown, ``@@dont_activate``, no keys)."""
MISSED = "missed"
"""No primary key matched: it cannot in a pass of the same kind unless one occurs in text that
is new to its buffer (a recursion text, or a message the depth now reaches)."""
SECONDARY = "secondary"
"""Its secondary keys failed: again only a key of it newly in its buffer can change that."""
VOLATILE = "volatile"
"""No key matched but a key tested on the joined buffer may match once the buffer changes."""
WAITING = "waiting"
"""Waiting for a recursion level (a recursion pass of that level or higher)."""
EXCLUDED = "excluded"
"""Kept out of recursion: only a pass that is not one can activate it."""


class LeftOut(Exception):
    """Raised by a ``render`` callback to leave an entry out of this scan (its template could not
    run: the turn's script budget is spent, say); the message is the entry's verdict detail."""


class _Pool:
    """Which entries a pass of the fast matcher looks at: those whose verdict may have changed.

    Every pass reads one of two buffers: with the recursion texts (the first pass and the
    recursion passes) or without them (min-activations passes), each at the depth reached so
    far. Per buffer kind an entry is to be looked at (``todo``) or parked with why it cannot
    fire there yet: until one of its primary keys (:data:`MISSED`) or any of its keys
    (:data:`SECONDARY`) is newly in the buffer -- the matcher reports such keys
    (``take_fresh``: a recursion text, or a message the widened depth now reaches, holding the
    key for the first time) --, or until the buffer changes at all (:data:`VOLATILE`: keys tested
    on the joined buffer). An entry that fired or failed its roll is done, one that a static
    filter stops is done too (:data:`STATIC`), one waiting for a recursion level waits in that
    level's bucket, released by a recursion pass of that level or higher (:data:`WAITING`), and
    one kept out of recursion is looked at only in passes without the recursion texts
    (:data:`EXCLUDED`). So each pass costs what changed for it rather than the whole book: a chain
    of entries each firing the next, thousands of distinct recursion levels, min activations
    widening over a thousand messages are linear, not quadratic. The verdict of a parked entry is
    the one it got when last looked at. The reference matcher looks at every entry in every pass
    instead (``tests/test_worldbook_matchers.py`` and ``tests/test_worldbook_recursion.py`` hold
    the two equal).
    """

    def __init__(self, run: _Run, explain: bool) -> None:
        self.run = run
        self.explain = explain
        self.started = False
        self.todo: dict[bool, set[int]] = {True: set(), False: set()}
        self.parked: dict[bool, dict[int, str]] = {True: {}, False: {}}
        self.volatile: dict[bool, set[int]] = {True: set(), False: set()}
        self.version: dict[bool, Any] = {True: None, False: None}
        self.gone: set[int] = set()
        """Done for this scan: fired, failed its roll, or stopped by a static filter."""
        self.waiting: dict[int, set[int]] = {}
        """Recursion level -> entries waiting for it."""
        self.waits: dict[int, int] = {}
        """Entry -> the recursion level it waits for."""
        self.levels: list[int] = []
        """The levels of :attr:`waiting`, a heap."""
        self.excluded: set[int] = set()

    def next(self, fresh: Fresh, state: ScanState, level: int, version: Any) -> list[int]:
        """The entries to look at in a pass of ``state`` at recursion ``level``; ``version``
        changes whenever the pass's buffer does."""
        run = self.run
        ctx = state != ScanState.MIN_ACTIVATIONS
        if not self.started:
            self.started = True
            first = (set(range(len(run.entries))) if self.explain else
                     set(run.finder.candidates()) | set(run.book.always) | run.sticky | run.forced)
            self.todo[True] = set(first)
            self.todo[False] = set(first)
        # a primary key newly in the buffer cannot change an entry whose secondary keys failed
        # (its primary keys still match): only one of its secondary keys can
        for i in fresh.recursion_primary:
            self._touch(i, (MISSED, VOLATILE), (True,))
        for i in fresh.recursion_secondary:
            self._touch(i, (SECONDARY, VOLATILE), (True,), new=False)
        for i in fresh.widened_primary:
            if run.entries[i].scan.scan_depth is None:
                self._touch(i, (MISSED, VOLATILE), (True, False))
        for i in fresh.widened_secondary:
            if run.entries[i].scan.scan_depth is None:
                self._touch(i, (SECONDARY, VOLATILE), (True, False), new=False)
        if self.version[ctx] != version:
            self.version[ctx] = version
            for i in self.volatile[ctx]:
                if self.parked[ctx].pop(i, None) is not None:
                    self.todo[ctx].add(i)
            self.volatile[ctx] = set()
        if state == ScanState.RECURSION:
            while self.levels and self.levels[0] <= level:
                for i in self.waiting.pop(heapq.heappop(self.levels)):
                    del self.waits[i]
                    self.todo[True].add(i)
        return sorted(self.todo[ctx])

    def _touch(self, i: int, reasons: tuple[str, ...], contexts: tuple[bool, ...], new: bool = True) -> None:
        """A key of entry ``i`` is newly in the buffers of ``contexts`` (with the recursion
        texts?): look at it again where it was parked for one of ``reasons`` (and, for a primary
        key, where it was never looked at)."""
        if i in self.gone or i in self.run.activated or i in self.run.failed:
            return
        if i in self.waits:
            return
        for ctx in contexts:
            if ctx and i in self.excluded:
                continue
            if not ctx and self._never_without_recursion(i):
                continue
            why = self.parked[ctx].get(i)
            if why is None:
                if new:
                    self.todo[ctx].add(i)
            elif why in reasons:
                del self.parked[ctx][i]
                self.volatile[ctx].discard(i)
                self.todo[ctx].add(i)

    def _never_without_recursion(self, i: int) -> bool:
        c = self.run.entries[i]
        return bool(c.level) and i not in self.run.sticky

    def park(self, i: int, why: str, state: ScanState) -> None:
        ctx = state != ScanState.MIN_ACTIVATIONS
        if why == STATIC:
            self._forget(i)
            self.gone.add(i)
        elif why == WAITING:
            self._forget(i)
            level = self.run.entries[i].level
            if level not in self.waiting:
                self.waiting[level] = set()
                heapq.heappush(self.levels, level)
            self.waiting[level].add(i)
            self.waits[i] = level
        elif why == EXCLUDED:
            self.todo[True].discard(i)
            self.parked[True].pop(i, None)
            self.volatile[True].discard(i)
            self.excluded.add(i)
        else:
            self.todo[ctx].discard(i)
            self.parked[ctx][i] = why
            if why == VOLATILE:
                self.volatile[ctx].add(i)

    def _forget(self, i: int) -> None:
        for ctx in (True, False):
            self.todo[ctx].discard(i)
            self.parked[ctx].pop(i, None)
            self.volatile[ctx].discard(i)

    def done(self, now: Iterable[int]) -> None:
        """After a pass: the entries of ``now`` that fired or failed are done; so is one that
        could fire but is left out for good, where leaving it out draws no random number -- every
        group of it already activated (only a sticky member gets past that, and the group's draw
        is skipped), or, once the budget overflowed, a budget-bound entry in no group (a member
        of a group still takes part in its draws)."""
        run = self.run
        for i in now:
            e = run.entries[i].entry
            if (i in run.activated or i in run.failed
                    or (i not in run.sticky and e.groups and run.activated_groups.issuperset(e.groups))
                    or (run.overflowed and not e.ignore_budget and not e.groups)):
                self._forget(i)
                self.gone.add(i)


class _Run:
    """The mutable state of one scan (SillyTavern's locals in ``checkWorldInfo``)."""

    def __init__(self, book: CompiledBook, scan: ScanInput, settings: WorldSettings, effects: ActiveEffects,
                 finder: Matcher, rng: random.Random, render: Callable[[WorldEntry, str], str] | None,
                 condition: Callable[[str], bool] | None, tokens: Callable[[str], int]) -> None:
        self.book = book
        self.entries = book.entries
        self.scan = scan
        self.settings = settings
        self.effects = effects
        self.finder = finder
        self.rng = rng
        self.render = render
        self.condition = condition
        self.tokens = tokens
        self.activated: dict[int, None] = {}
        self.failed: set[int] = set()
        self.rendered: dict[int, str] = {}
        self.verdicts: dict[str, Verdict] = {}
        self.overflowed = False
        self.count = 0
        self.skew = 0
        self.activated_groups: set[str] = set()
        self.sticky = {self.book.by_key[k].index for k in effects.sticky if k in self.book.by_key}
        self.explain = False
        self.conditions: dict[int, bool | None] = {}
        self.forced = {self.book.by_key[k].index for k in scan.force if k in self.book.by_key}
        self.pooled = False
        """Passes look only at what the pool releases (the fast matcher): the memos below hold."""
        self.primary_memo: dict[tuple[int, bool], Key] = {}
        self.secondary_memo: dict[tuple[int, bool], int] = {}

    # -- helpers

    def text(self, index: int) -> str:
        return self.rendered.get(index, self.entries[index].content)

    def note(self, index: int, fired: bool, code: str, detail: str = "") -> None:
        self.verdicts[self.entries[index].key] = Verdict(fired, code, detail, self.count)

    def depth_of(self, c: Compiled) -> int:
        return c.scan.scan_depth if c.scan.scan_depth is not None else self.settings.depth + self.skew

    # -- the loop

    def loop(self, chat_length: int, explain: bool) -> None:
        settings = self.settings
        budget = settings.token_budget()
        levels = list(self.book.levels)
        level = levels.pop(0) if levels else 0
        self.explain = explain
        state = ScanState.INITIAL
        reach = settings.depth
        fast_count = self.tokens is estimate_tokens
        all_text = ""  # the recursion texts, newest first (only kept for a caller's token counter)
        all_bytes = 0
        pool = _Pool(self, explain)
        while state:
            if settings.max_recursion_steps and settings.max_recursion_steps <= self.count:
                break
            self.count += 1
            self.finder.prepare(max(settings.depth + self.skew, self.book.max_entry_depth))
            if settings.depth + self.skew > reach:
                self.finder.widen(reach, settings.depth + self.skew)
                reach = settings.depth + self.skew
            fresh = self.finder.take_fresh()
            with_recursion = state != ScanState.MIN_ACTIVATIONS
            if fresh is None:
                # the reference: every entry in every pass, as SillyTavern's own loop
                order: Iterable[int] = range(len(self.entries))
            else:
                self.pooled = True
                version = (self.skew, self.finder.recursion_count() if with_recursion else 0)
                order = pool.next(fresh, state, level, version)
            now = []
            for i in order:
                verdict = self.consider(i, state, level, with_recursion)
                if verdict is True:
                    now.append(i)
                elif verdict:
                    pool.park(i, verdict, state)
            now.sort(key=lambda i: (i not in self.sticky, i))
            looked = list(now)
            self.inclusion_groups(now, state)
            if fast_count:
                all_text_tokens = (all_bytes + 3) // 4 if all_bytes else 0
            else:
                all_text_tokens = self.tokens(all_text) if all_text else 0
            self.admit(now, budget, all_text_tokens)
            pool.done(looked)

            successful = [i for i in now if i not in self.failed]
            for_recursion = [i for i in successful if not self.entries[i].entry.prevent_recursion]
            nxt = ScanState.NONE
            if settings.recursive and not self.overflowed and for_recursion:
                nxt = ScanState.RECURSION
            if (settings.recursive and not self.overflowed and state == ScanState.MIN_ACTIVATIONS
                    and self.finder_has_recursion()):
                nxt = ScanState.RECURSION
            if (not nxt and not self.overflowed and settings.min_activations > 0
                    and len(self.activated) < settings.min_activations):
                depth_now = settings.depth + self.skew
                over = (settings.min_activations_depth_max > 0 and depth_now > settings.min_activations_depth_max) \
                    or depth_now > chat_length
                if not over:
                    nxt = ScanState.MIN_ACTIVATIONS
                    self.skew += 1
            if nxt == ScanState.NONE and levels:
                nxt = ScanState.RECURSION
                level = levels.pop(0)
            state = nxt
            if state:
                text = "\n".join(self.text(i) for i in for_recursion)
                if text:
                    self.finder.add_recursion(text)
                    if fast_count:
                        all_bytes += len(text.encode("utf-8")) + 1
                    else:
                        all_text = text + "\n" + all_text

    def finder_has_recursion(self) -> bool:
        return self.finder.recursion_count() > 0

    def evaluate_condition(self, i: int) -> bool | None:
        """An entry's ``@@if`` condition, evaluated once per scan (``None``: no evaluator)."""
        if i not in self.conditions:
            self.conditions[i] = self.condition(self.entries[i].condition) if self.condition else None
        return self.conditions[i]

    def consider(self, i: int, state: ScanState, level: int, with_recursion: bool) -> bool | str | None:
        """SillyTavern's per-entry checks: ``True`` when the entry activates in this pass; else
        why it cannot in the passes to come (:data:`STATIC`, :data:`MISSED`, :data:`SECONDARY`,
        :data:`VOLATILE`, :data:`WAITING`, :data:`EXCLUDED`: see :class:`_Pool`), or ``None``
        (it may in the next pass)."""
        if i in self.failed or i in self.activated:
            return None
        c = self.entries[i]
        e = c.entry
        if e.disable:
            self.note(i, False, "disabled")
            return STATIC
        if c.condition:
            verdict = self.evaluate_condition(i)
            if verdict is not True:
                self.note(i, False, "condition", f"@@if {c.condition}" + ("" if verdict is False else " (not evaluated)"))
                return STATIC
        if e.triggers and self.scan.trigger not in e.triggers:
            self.note(i, False, "trigger", f"only for {', '.join(e.triggers)}")
            return STATIC
        if e.character_filter is not None and self.filtered_by_character(e):
            self.note(i, False, "character")
            return STATIC
        sticky = i in self.sticky
        if c.key in self.effects.delay:
            self.note(i, False, "delay", f"delayed until message {c.timed.delay}")
            return STATIC
        if c.key in self.effects.cooldown and not sticky:
            self.note(i, False, "cooldown")
            return STATIC
        if not sticky and c.level:
            if state != ScanState.RECURSION:
                self.note(i, False, "delay_until_recursion", f"waits for recursion level {c.level}")
                return WAITING
            if c.level > level:
                self.note(i, False, "delay_until_recursion", f"waits for recursion level {c.level} (now {level})")
                return WAITING
        if state == ScanState.RECURSION and self.settings.recursive and e.exclude_recursion and not sticky:
            self.note(i, False, "exclude_recursion")
            return EXCLUDED
        if c.activate:
            self.note(i, True, "decorator", "@@activate")
            return True
        if c.dont_activate:
            self.note(i, False, "decorator", "@@dont_activate")
            return STATIC
        if i in self.forced:
            self.note(i, True, "external")
            return True
        if e.constant:
            self.note(i, True, "constant")
            return True
        if sticky:
            self.note(i, True, "sticky")
            return True
        if not e.key:
            self.note(i, False, "no_keys")
            return STATIC
        depth = self.depth_of(c)
        scan = c.scan
        primary = self.first_primary(i, scan, depth, with_recursion)
        if primary is None:
            if self.explain:
                self.note(i, False, "no_match", "no primary key within its scan depth")
            return VOLATILE if scan.joined and self.finder.volatile(scan, scan.keys, depth, with_recursion) else MISSED
        how = f"key {primary.source!r}" + (" (recursion)" if state == ScanState.RECURSION else "")
        if not (e.selective and e.keysecondary):
            self.note(i, True, "key", how)
            return True
        logic = Logic(e.selective_logic)
        if self.pooled and not scan.secondary_joined:
            fired, k = self.secondary_monotone(i, scan, logic, depth, with_recursion)
        else:
            fired, k = self.secondary(scan, logic, depth, with_recursion)
        if fired:
            if logic == Logic.AND_ANY:
                self.note(i, True, "key", f"{how} and secondary {k.source!r}")  # type: ignore[union-attr]  # a secondary match that fired names its key
            elif logic == Logic.NOT_ALL:
                self.note(i, True, "key", f"{how}, secondary {k.source!r} absent (NOT ALL)")  # type: ignore[union-attr]  # a secondary match that fired names its key
            elif logic == Logic.NOT_ANY:
                self.note(i, True, "key", f"{how}, no secondary key (NOT ANY)")
            else:
                self.note(i, True, "key", f"{how} and every secondary key (AND ALL)")
            return True
        self.note(i, False, "secondary", f"{how} but secondary keys fail {logic.name.replace('_', ' ')}")
        if (scan.joined or scan.secondary_joined) and self.finder.volatile(scan, (*scan.keys, *scan.secondary), depth,
                                                                           with_recursion):
            return VOLATILE
        return SECONDARY

    def first_primary(self, i: int, scan: ScanEntry, depth: int, with_recursion: bool) -> Key | None:
        """The first primary key (in the entry's order) that matches. With the pool, a literal
        key that matched stays matched in buffers of the same kind (they only grow), so it is
        asked first: an entry released again costs one test, not one per key (its verdict may
        then name that key where a key before it matches too)."""
        memo = (i, with_recursion)
        if self.pooled and not scan.joined:
            known = self.primary_memo.get(memo)
            if known is not None and self.finder.matches(scan, known, depth, with_recursion):
                return known
        primary = next((k for k in scan.keys if self.finder.matches(scan, k, depth, with_recursion)), None)
        if self.pooled and primary is not None and not scan.joined:
            self.primary_memo[memo] = primary
        return primary

    def secondary(self, scan: ScanEntry, logic: Logic, depth: int, with_recursion: bool) -> tuple[bool, Key | None]:
        """SillyTavern's loop over the secondary keys: whether they pass ``logic``, and the key
        that decided it for AND ANY and NOT ALL."""
        any_hit, all_hit = False, True
        for k in scan.secondary:
            hit = self.finder.matches(scan, k, depth, with_recursion)
            any_hit = any_hit or hit
            all_hit = all_hit and hit
            if logic == Logic.AND_ANY and hit:
                return True, k
            if logic == Logic.NOT_ALL and not hit:
                return True, k
        if logic == Logic.NOT_ANY:
            return not any_hit, None
        if logic == Logic.AND_ALL:
            return all_hit, None
        return False, None

    def secondary_monotone(self, i: int, scan: ScanEntry, logic: Logic, depth: int,
                           with_recursion: bool) -> tuple[bool, Key | None]:
        """:meth:`secondary` for literal keys under the pool, where a key that matched keeps
        matching in later buffers of the same kind: AND ALL resumes after the keys known to
        match, NOT ANY asks the key that stopped it last time first. An entry released once per
        newly matching key so costs its keys once, not once per release."""
        keys = scan.secondary
        memo = (i, with_recursion)
        if logic == Logic.AND_ALL:
            start = self.secondary_memo.get(memo, 0)
            for j in range(start, len(keys)):
                if not self.finder.matches(scan, keys[j], depth, with_recursion):
                    self.secondary_memo[memo] = j
                    return False, None
            self.secondary_memo[memo] = len(keys)
            return True, None
        if logic == Logic.NOT_ANY:
            known = self.secondary_memo.get(memo)
            if known is not None and self.finder.matches(scan, keys[known], depth, with_recursion):
                return False, None
            for j, k in enumerate(keys):
                if self.finder.matches(scan, k, depth, with_recursion):
                    self.secondary_memo[memo] = j
                    return False, None
            return True, None
        return self.secondary(scan, logic, depth, with_recursion)

    def filtered_by_character(self, e: WorldEntry) -> bool:
        f = e.character_filter
        assert f is not None
        if f.names:
            included = self.scan.character in f.names if self.scan.character else False
            if (included if f.is_exclude else not included):
                return True
        if f.tags and self.scan.character_tags is not None:
            has = any(t in f.tags for t in self.scan.character_tags)
            if (has if f.is_exclude else not has):
                return True
        return False

    # -- inclusion groups

    def inclusion_groups(self, now: list[int], state: ScanState) -> None:
        grouped: dict[str, list[int]] = {}
        for i in now:
            for g in self.entries[i].entry.groups:
                grouped.setdefault(g, []).append(i)
        if not grouped:
            return

        def remove(i: int, code: str = "group", detail: str = "") -> None:
            if i in now:
                now.remove(i)
                if detail:
                    self.note(i, False, code, detail)

        has_sticky: dict[str, bool] = {}
        for name, group in grouped.items():
            stickies = [i for i in group if i in self.sticky]
            has_sticky[name] = bool(stickies)
            for i in group:
                if stickies and i not in stickies:
                    remove(i, detail=f"group {name!r}: a sticky member wins")
            for i in group:
                key = self.entries[i].key
                if key in self.effects.cooldown:
                    remove(i, detail=f"group {name!r}: member on cooldown")
                elif key in self.effects.delay:
                    remove(i, detail=f"group {name!r}: member delayed")
        self.group_scoring(grouped, has_sticky, remove, state)
        for name, group in grouped.items():
            if has_sticky[name]:
                continue
            if name in self.activated_groups:
                for i in group:
                    remove(i, detail=f"group {name!r} already activated")
                continue
            if len(group) <= 1:
                continue
            prios = sorted((i for i in group if self.entries[i].entry.group_override),
                           key=lambda i: -self.entries[i].entry.order)
            if prios:
                winner: int | None = prios[0]
                how = "highest order with group override"
            else:
                weights = [self._weight(i) for i in group]
                roll = self.rng.random() * sum(weights)
                winner, acc = None, 0.0
                for i, w in zip(group, weights):
                    acc += w
                    if roll <= acc:
                        winner = i
                        break
                how = f"weighted draw {roll:.2f} of {sum(weights):g}"
            if winner is None:
                continue
            for i in group:
                if i != winner:
                    remove(i, detail=f"group {name!r}: lost to {self.entries[winner].key} ({how})")

    def _weight(self, i: int) -> float:
        w = self.entries[i].entry.group_weight
        return float(DEFAULT_WEIGHT if w is None else w)

    def group_scoring(self, grouped: dict[str, list[int]], has_sticky: dict[str, bool],
                      remove: Callable[..., None], state: ScanState) -> None:
        default = self.settings.use_group_scoring
        for name, group in grouped.items():
            scored_any = any(self.entries[i].entry.use_group_scoring for i in group)
            if (not default and not scored_any) or has_sticky[name]:
                continue
            scores = [self.score(i, state) for i in group]
            best = max(scores)
            for i, score in list(zip(group, scores)):
                flag = self.entries[i].entry.use_group_scoring
                if (default if flag is None else flag) and score < best:
                    remove(i, detail=f"group {name!r}: key score {score} < {best}")
                    group.remove(i)

    def score(self, i: int, state: ScanState) -> int:
        c = self.entries[i]
        scan = c.scan
        if not scan.keys:
            return 0
        depth = self.depth_of(c)
        rec = state != ScanState.MIN_ACTIVATIONS
        primary = sum(self.finder.matches(scan, k, depth, rec) for k in scan.keys)
        secondary = sum(self.finder.matches(scan, k, depth, rec) for k in scan.secondary)
        if scan.secondary:
            if c.entry.selective_logic == Logic.AND_ANY.value:
                return primary + secondary
            if c.entry.selective_logic == Logic.AND_ALL.value:
                return primary + secondary if secondary == len(scan.secondary) else primary
        return primary

    # -- probability and budget

    def admit(self, now: list[int], budget: int, prior_tokens: int) -> None:
        new_content = ""
        new_bytes = 0
        fast_count = self.tokens is estimate_tokens
        ignoring = sum(1 for i in now if self.entries[i].entry.ignore_budget)
        for i in now:
            c = self.entries[i]
            e = c.entry
            if e.ignore_budget:
                ignoring -= 1
            if self.overflowed and not e.ignore_budget:
                if ignoring > 0:
                    self.note(i, False, "budget", "the token budget is spent")
                    continue
                for j in now[now.index(i):]:
                    if not self.entries[j].entry.ignore_budget:
                        self.note(j, False, "budget", "the token budget is spent")
                break
            if e.use_probability and c.probability != 100 and i not in self.sticky:
                roll = self.rng.random() * 100
                if not roll <= c.probability:
                    self.failed.add(i)
                    self.note(i, False, "probability", f"rolled {roll:.2f} > {c.probability:g}%")
                    continue
            try:
                content = self.render(e, c.content) if self.render else c.content
            except LeftOut as exc:
                self.failed.add(i)
                self.note(i, False, "left_out", str(exc))
                continue
            self.rendered[i] = content
            if fast_count:
                new_bytes += len(content.encode("utf-8")) + 1
                used = prior_tokens + (new_bytes + 3) // 4
            else:
                new_content += content + "\n"
                used = prior_tokens + self.tokens(new_content)
            if not e.ignore_budget and used >= budget:
                self.overflowed = True
                self.note(i, False, "budget", f"{used} tokens would reach the budget of {budget}")
                continue
            self.activated[i] = None
            self.activated_groups.update(e.groups)


def _place(entries: list[Compiled], run: _Run) -> Placement:
    """Bucket the activated entries by position; lower ``order`` first in each bucket."""
    # each bucket is filled highest order first, then reversed (one pass, however many entries)
    lists: dict[int, list[str]] = {p: [] for p in Position}
    depth: dict[tuple[int, Role], list[str]] = {}
    outlets: dict[str, list[str]] = {}
    for i in sorted(run.activated, key=lambda i: -entries[i].entry.order):
        e = entries[i].entry
        content = run.text(i)
        if not content:
            continue
        if e.position == Position.AT_DEPTH:
            d = DEFAULT_DEPTH if e.depth is None else e.depth
            depth.setdefault((d, Role(0 if e.role is None else e.role)), []).append(content)
        elif e.position == Position.OUTLET:
            if e.outlet_name:
                outlets.setdefault(e.outlet_name, []).append(content)
        elif e.position in lists:
            lists[e.position].append(content)
    for bucket in (*lists.values(), *depth.values()):
        bucket.reverse()
    return Placement(
        before=tuple(lists[Position.BEFORE_CHAR]),
        after=tuple(lists[Position.AFTER_CHAR]),
        an_top=tuple(lists[Position.AN_TOP]),
        an_bottom=tuple(lists[Position.AN_BOTTOM]),
        em_top=tuple(lists[Position.EM_TOP]),
        em_bottom=tuple(lists[Position.EM_BOTTOM]),
        depth=tuple(DepthGroup(d, r, tuple(c)) for (d, r), c in depth.items()),
        outlets={k: tuple(v) for k, v in outlets.items()},
    )


def placement_json(p: Placement) -> dict[str, Any]:
    """The placement as JSON data."""
    return {
        "before": list(p.before), "after": list(p.after), "an_top": list(p.an_top), "an_bottom": list(p.an_bottom),
        "em_top": list(p.em_top), "em_bottom": list(p.em_bottom),
        "depth": [{"depth": g.depth, "role": g.role.name.lower(), "contents": list(g.contents)} for g in p.depth],
        "outlets": {k: list(v) for k, v in p.outlets.items()},
    }
