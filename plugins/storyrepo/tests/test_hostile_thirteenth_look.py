"""Hostile input, a thirteenth look: stop 53's readers of a draft and of a contract (figures in bench/story_hostile.py,
``thirteenth_``).

- A place met by a spot in it (K1's :func:`lw_storyrepo.checks._by_its_spot`) walked the whole prose for each time a
  contract line named the place with its spot, and again for each line: a line naming 厂署秤房 two thousand times (or
  five hundred lines naming it) over a prose of thousands of 想去秤房 took 33 s at the draft cap. Each distinct spot is
  now read of the prose once a draft (:func:`~lw_storyrepo.checks._spot_met`, cached by the contract check).
- A use of a known thing by a pronoun (H5's continuity reader) asked whether its sentence names someone before it by
  searching the sentence from its start, and from its clause's start, for each use: a 60,000-character sentence of
  他掏出旧怀表 (no name in it, or one at its end) took 19 s. It also read the comparison word before the thing by a
  search of the sentence up to it, copied the rest of the sentence for the giving to the user, and counted the quote
  marks from the line's start for each pronoun. Each is now read once a sentence (:class:`~lw_storyrepo.continuity.
  _NameSpans`), at the use, or from the line's marks found once.

Each is read through its result and its work (calls made, the prose's reads), never timed."""

from __future__ import annotations

import cProfile
import pstats
import random
import re
from typing import Callable, TypeVar

import pytest

from lw_storyrepo import checks, continuity
from lw_storyrepo.checks import ERROR, WARN, CheckContext, contract_findings, dwellers_of
from lw_storyrepo.continuity import World
from lw_storyrepo.drafts import Draft
from lw_storyrepo.wordsre import alternation

T = TypeVar("T")


def _counted(fn: Callable[[], T]) -> tuple[T, int]:
    """``fn()`` and the calls it made (Python functions, builtins and each step of a generator)."""
    profile = cProfile.Profile()
    result = profile.runcall(fn)
    return result, sum(row[1] for row in pstats.Stats(profile).stats.values())  # type: ignore[attr-defined]


CARDS: dict[str, dict[str, object]] = {"宋知远": {"位置": "省城"}, "白露": {"位置": "省城"}}
PLACES = {"厂署", "省城", "城南"}


def _contract(lines: list[str], body: str) -> list[tuple[str, str]]:
    aliases = {"宋知远": "宋知远", "白露": "白露", **{p: p for p in PLACES}}
    world = World(CARDS, dict(aliases), PLACES, set(), ("普通人",), None, {}, {})
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), set(), world=world, people=set(CARDS),
                       dwellers=dwellers_of(CARDS)).for_draft({})
    return [(f.severity, f.message) for f in contract_findings({"合同": lines}, Draft("A", {}, body, 5), ctx)
            if f.severity in (ERROR, WARN)]


@pytest.mark.parametrize("lines", [["宋知远在" + "厂署秤房、" * 2000 + "码铜饼"], ["宋知远在厂署秤房码铜饼"] * 500])
def test_a_spot_asked_again_and_again_is_read_of_the_prose_once(lines: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    body = "宋知远想去秤房。" * 3000 + "秤房里一股铜锈味。"
    read: list[str] = []
    original = checks._spot_met
    monkeypatch.setattr(checks, "_spot_met", lambda ctx, term, spot, prose: read.append(spot) or original(ctx, term, spot, prose))
    assert _contract(lines, body) == []  # at the spot in the end: at the place
    assert read == ["秤房"]  # the prose walked for each mention and each line (2,000 or 500 walks)
    assert [s for s, _ in _contract(lines, "宋知远想去秤房。" * 3000)] in ([ERROR] * len(lines), [WARN] * len(lines))


def test_distinct_spots_of_one_line_are_each_read_in_the_line_order() -> None:
    line = "宋知远去厂署秤房，又去厂署账房"
    assert _contract([line], "宋知远进了账房，里面没人。") == []
    assert _contract([line], "宋知远进了秤房，里面没人。") == []
    assert [s for s, _ in _contract([line], "宋知远想去账房。")] in ([ERROR], [WARN])


# The use of a known thing by a pronoun (check_continuity's 持有 reader), on one sentence of thousands of clauses.

def _world() -> tuple[World, re.Pattern[str]]:
    cards = {"许砚": {"姓名": "许砚", "持有": ["旧怀表"]}, "顾衡": {"姓名": "顾衡", "持有": []}}
    aliases = {"许砚": "许砚", "顾衡": "顾衡"}
    world = World(cards=cards, aliases=aliases, items={"旧怀表"}, gender={"许砚": "他", "顾衡": "她"})
    return world, re.compile(alternation(aliases))


class _Searched:
    """A names pattern that counts the characters its searches read (``search``'s span), else the pattern itself."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern_ = pattern
        self.pattern = pattern.pattern
        self.read = 0

    def search(self, text: str, pos: int = 0, endpos: int = 2 ** 62) -> re.Match[str] | None:
        self.read += min(endpos, len(text)) - pos
        return self.pattern_.search(text, pos, endpos)

    def __getattr__(self, name: str) -> object:
        return getattr(self.pattern_, name)


def _holdings(text: str) -> tuple[set[str], int]:
    world, names = _world()
    searched = _Searched(names)
    found = continuity.check_continuity(world, {}, text.split("\n"), 1, [], searched)  # type: ignore[arg-type]
    return {f.message for f in found if f.kind == "连贯"}, searched.read


@pytest.mark.parametrize("unit", ["她掏出旧怀表", "她掏出旧怀表，", "她拿起那块旧怀表，他掏出旧怀表，"])
def test_thousands_of_uses_in_one_sentence_read_it_once(unit: str) -> None:
    text = "顾衡进来了。" + unit * 2000 + "顾衡。"
    found, read = _holdings(text)
    assert found == _holdings("顾衡进来了。" + unit * 20 + "顾衡。")[0] and found  # 她 (顾衡) holds no 旧怀表
    assert read < 4 * len(text)  # the sentence searched from its start (and its clause's) for each use: ≈1,000×


def test_the_names_before_a_use_are_read_as_a_search_of_the_sentence_reads_them() -> None:
    """:class:`continuity._NameSpans` answers ``names.search(sentence, a, b)`` for names that start one another
    (知夏, 知夏姐) and overlap (林知, 知夏), on random sentences of their characters."""
    names = re.compile(alternation(["知夏", "知夏姐", "林知", "夏", "许砚", "小许砚"]))
    rng = random.Random(13)
    for _ in range(300):
        sentence = "".join(rng.choice("林知夏姐许砚小，他") for _ in range(rng.randint(0, 40)))
        spans = continuity._NameSpans(names, sentence)
        for a in range(len(sentence) + 1):
            for b in range(a, len(sentence) + 1):
                assert spans.within(a, b) == (names.search(sentence, a, b) is not None), (sentence, a, b)
            assert spans.clause_start(a) == max(sentence.rfind(c, 0, a) for c in "，,；;") + 1


def test_quote_marks_far_into_a_line_are_counted_once() -> None:
    line = "“他说”。" * 2000 + "“他" * 5
    for at in (0, 3, 1999, 2001, 8000, len(line) - 1, len(line)):
        assert continuity.quoted_at(line, at) == (line.count("“", 0, at) > line.count("”", 0, at))
    _, calls = _counted(lambda: [continuity.quoted_at(line, at) for at in range(2001, len(line), 7)])
    assert calls < 10 * len(range(2001, len(line), 7))  # the marks found once, looked up at each


# A contract line of thousands of places each telling of a thing (寄一盒…点心: checks._owner_only): each asked the prose
# for every mention of its thing again (_told_as_known: 800 places over 6,000 of 一张点心, 20 s), tried each of a card's
# thousands of things at its place (4,000 × 4,000: 8 s) and compiled a pattern of its forms.

def _places(k: int) -> list[str]:
    return ["".join(chr(0x4E00 + (i * 7919 + j * 104729) % 20000) for j in range(2)) + "城" for i in range(k)]


def _owner_ctx(places: list[str], things: set[str]) -> CheckContext:
    aliases = {"宋知远": "宋知远", **{p: p for p in places}}
    world = World({"宋知远": {"位置": "省城"}}, dict(aliases), set(places), set(things), ("普通人",), None, {}, {})
    return CheckContext(aliases, [], [], [], 0, set(things), set(), world=world, people={"宋知远"},
                        dwellers=dwellers_of({"宋知远": {}})).for_draft({})


def test_thousands_of_places_telling_of_one_thing_read_it_of_the_prose_once() -> None:
    places = _places(600)
    ctx = _owner_ctx(places, {f"物{p}" for p in _places(3000)})
    line = "宋知远寄" + "、".join("一盒" + p + "点心" for p in places)
    body, things = "宋知远拿出一张点心。" * 3000, checks._things_of(ctx)
    told, calls = _counted(lambda: [checks._owner_only(ctx, p, line, body, lambda: things) for p in places])
    assert told == [False] * len(places)  # only a new 点心 in the prose: not the one the line tells of
    assert calls < 200 * len(places) + 20 * 3000  # each walked the prose's 3,000 点心 (and tried 3,000 things)
    assert checks._owner_only(ctx, places[1], line, "宋知远拿出一张点心。宋知远吃了口点心。")


def test_a_terms_forms_are_found_as_one_pattern_finds_them() -> None:
    rng = random.Random(54)
    for _ in range(3000):
        words = ["".join(rng.choice("ABZ") for _ in range(rng.randint(1, 4))) for _ in range(rng.randint(1, 4))]
        line = "".join(rng.choice("ABZ的") for _ in range(rng.randint(0, 20)))
        assert checks._leftmost_longest(words, line) == [m.end() for m in re.finditer(alternation(words), line)]
        starting = checks._Starting(words + [""] * rng.randint(0, 1))
        for k in range(len(line) + 1):
            assert starting.at(line, k) == any(line.startswith(w, k) for w in starting.words)


def test_a_tellings_places_meet_the_prose_paragraphs_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """K2's place inside a telling (checks._place_of_a_telling): each of a line's places read every paragraph's pairs
    again (4,000 places: 264 s at the draft cap); the paragraphs' pairs are now read once a prose (a line within
    :data:`checks.TELLING_LINE_MAX`)."""
    places = _places(40)
    ctx = _owner_ctx(places, set())
    line = "宋知远说去年在" + "、".join(places) + "找到了那口旧箱子"
    body = "\n".join(["宋知远说去年找到了那口旧箱子，就在河边。"] + ["风很大。"] * 300)
    read: list[str] = []
    original = checks._content_grams
    monkeypatch.setattr(checks, "_content_grams", lambda text: read.append(text) or original(text))
    found = [checks._place_of_a_telling(ctx, p, line, body) for p in places]
    assert len(set(found)) == 1
    assert read and len(read) <= len(places) + 301  # each place its line's rest, the prose's 301 paragraphs once


def test_a_contract_line_longer_than_any_telling_is_not_read_as_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """A line over :data:`checks.TELLING_LINE_MAX` (thousands of places: each read against the whole line, places x
    line — 23 s at the draft cap after the paragraphs were read once) is not read as a telling: nothing of it is read
    and its places must be named, as on any line; the same telling within the cap is still met."""
    places = _places(200)
    ctx = _owner_ctx(places, set())
    body = "宋知远说去年找到了那口旧箱子，就在河边的老屋后头。"
    long_line = "宋知远说去年在" + "、".join(places) + "找到了那口旧箱子"
    assert len(long_line) > checks.TELLING_LINE_MAX
    read: list[str] = []
    original = checks._content_grams
    monkeypatch.setattr(checks, "_content_grams", lambda text: read.append(text) or original(text))
    assert [checks._place_of_a_telling(ctx, p, long_line, body) for p in places] == [False] * len(places)
    assert read == []
    short_line = "宋知远说去年在" + places[0] + "找到了那口旧箱子，就在河边的老屋后头"
    assert checks._place_of_a_telling(ctx, places[0], short_line, body) is True
