"""Hostile input, a fourteenth look: stop 54's readers of a contract line and of a draft (figures in
bench/story_hostile.py, ``fourteenth_``).

- A contract line of thousands of places, each telling of a thing (寄一盒X城点心、一盒Y城点心…), was searched for each
  place from its start by several rules (where the place stands, whether it only tells of a thing, whether it is a
  district, a visit, whence someone comes, which of its forms the line holds): each search walked the rest of a
  30,000-character line, 20,000 walks (13 s at the draft cap, 6.5× from half the cap to the cap). A long line is now
  cut once into :class:`~lw_storyrepo.wordsre.Spots` and each place looked up (:func:`~lw_storyrepo.checks._spots`).
- The patterns the dead's and the held's doings are read with (:func:`~lw_storyrepo.continuity._not_so`: seven, of
  everyone's names and the book's things) were compiled for each draft: now once while their sources read the same.

Each is read through its result and its work (the line's cuts), never timed."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

from lw_storyrepo import checks, continuity, wordsre
from lw_storyrepo.checks import ERROR, WARN, CheckContext, contract_findings, dwellers_of
from lw_storyrepo.continuity import World
from lw_storyrepo.drafts import Draft
from lw_storyrepo.wordsre import Spots, alternation, starts_of


def _places(k: int) -> list[str]:
    return [chr(0x4E00 + (i * 7919) % 20000) + chr(0x4E00 + (i * 31) % 20000) + "城" for i in range(k)]


def _contract(lines: list[str], body: str, places: list[str]) -> list[tuple[str, str]]:
    cards: dict[str, dict[str, object]] = {"许砚": {"位置": "省城", "持有": ["旧怀表"]}}
    aliases = {"许砚": "许砚", **{p: p for p in places}}
    world = World(cards, dict(aliases), set(places), {"旧怀表"}, ("普通人",), None, {}, {})
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), {"旧怀表"}, world=world, people=set(cards),
                       dwellers=dwellers_of(cards)).for_draft({})
    return [(f.severity, f.message) for f in contract_findings({"合同": lines}, Draft("A", {}, body, 5), ctx)
            if f.severity in (ERROR, WARN)]


@pytest.mark.parametrize("k", [3, 2000])
def test_a_line_of_thousands_of_places_telling_of_a_thing_is_cut_once(k: int, monkeypatch: pytest.MonkeyPatch) -> None:
    places = _places(k)
    line = "许砚寄" + "、".join("一盒" + p + "点心" for p in places)
    cuts: list[int] = []
    original = Spots._pieces
    monkeypatch.setattr(Spots, "_pieces", lambda self, n: (n in self._cut or cuts.append(n) or True) and original(self, n))
    found = _contract([line], "许砚拿出一张点心。" * 2000 + "许砚把点心递过去。", places)
    assert found == []  # each place only tells where the 点心 is from; the prose gives the 点心 itself
    if k > 3:  # a long line: one cut per length asked (the places' 3, their forms' 2), not a walk of the line per place and rule
        assert sorted(cuts) == [2, 3]
    else:  # a short one is searched as before
        assert cuts == []
    assert [s for s, _ in _contract([line], "许砚坐着发呆。", places)][:1] in ([ERROR], [WARN])


def test_a_long_line_is_read_as_a_short_one() -> None:
    """Random lines over a small alphabet (overlaps, repeats, words longer than the cut): where each word stands, and the
    leftmost-longest ends, as ``str.find`` reads them."""
    rng = random.Random(14)
    for _ in range(400):
        alphabet = "那这城点心一盒ab"[:rng.randint(2, 9)]
        line = "".join(rng.choice(alphabet) for _ in range(rng.choice([20, 300, 700])))
        words = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, wordsre.SPOTS_CUT_MAX + 4))) for _ in range(5)]
        for word in words:
            assert checks._spots(word, line) == list(starts_of(word, line))
            assert checks._every(word, line) == [i for i in range(len(line)) if line.startswith(word, i)]
        found = sorted((at, -len(w)) for w in set(words) for at in range(len(line)) if line.startswith(w, at))
        ends: list[int] = []
        for at, minus in found:
            if not ends or at >= ends[-1]:
                ends.append(at - minus)
        assert checks._leftmost_longest(words, line) == ends
    assert checks._spots("", "城" * 300) == [] and Spots("城" * 300).of("") == []


# The patterns the dead's and the held's doings are read with (continuity._not_so): compiled for each draft of a book of
# thousands of names and things, read again whenever re's cache of 512 had been pushed out (a card of 4,000 things).

def test_the_patterns_of_the_dead_are_compiled_once_a_book(monkeypatch: pytest.MonkeyPatch) -> None:
    things = {"物" + p for p in _places(300)}
    cards = {"陈守礼": {"姓名": "陈守礼", "状态": "已死"}, "许砚": {"姓名": "许砚", "持有": sorted(things)}}
    aliases = {"陈守礼": "陈守礼", "陈伯": "陈守礼", "许砚": "许砚"}
    world = World(cards=cards, aliases=aliases, items=things)
    built: list[str] = []
    original = continuity._lately_pattern
    monkeypatch.setattr(continuity, "_lately_pattern", lambda forms: built.append(forms) or original(forms))
    text = "许砚说：“我就是陈守礼。”\n“陈伯前儿还在我这儿喝了酒。”"

    def found(w: World) -> set[str]:
        return {f.message for f in continuity.check_continuity(w, {}, text.split("\n"), 1, [], re.compile(alternation(w.aliases))) if f.kind == "连贯"}

    first = found(world)
    assert first and all("陈守礼" in m for m in first)  # the dead speaks, and is said to have drunk lately
    for _ in range(3):  # each draft: the same book, its names in another dict (checks.check_draft's replace)
        assert found(replace(world, aliases=dict(aliases))) == first
    assert len(built) == 1  # once a book, not once a draft
    assert found(replace(world, aliases={**aliases, "守礼": "陈守礼"})) == first | set() and len(built) == 2  # new names


# The shorter names of a held thing (checks._tails: 蟒袍 of 金丝蟒袍), asked for each thing a contract line hands over:
# each tail was tried against every name and thing of the book (hundreds of handover lines beside a card of thousands
# of things: lines × things, 80 s of a 180 s check at the draft cap).

def test_the_tails_of_a_thing_are_looked_up_not_tried_against_every_name(monkeypatch: pytest.MonkeyPatch) -> None:
    things = {"物" + p[:2] + "表" for p in _places(2000)} | {"金丝蟒袍", "青铜古镜", "古镜"}
    aliases = {"许砚": "许砚", "小许": "许砚", "蟒袍": "许砚"}
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), things, world=World(items={"家账本"}), people={"许砚"})
    built: list[int] = []
    original = checks._NameEnds.__init__
    monkeypatch.setattr(checks._NameEnds, "__init__", lambda self, names: built.append(1) or original(self, names))
    names = [*aliases, *things, "家账本"]
    for term in sorted(things)[:300] + ["金丝蟒袍", "青铜古镜", "家账本", "无名"]:
        expected = [] if term not in things | {"家账本"} else \
            [tail for tail in (term[k:] for k in range(1, len(term) - 1)) if tail not in aliases
             and not any(n.endswith(tail) and n != term and aliases.get(n, n) != aliases.get(term, term) for n in names)]
        assert checks._tails(ctx, term) == expected
    assert checks._tails(ctx, "金丝蟒袍") == ["丝蟒袍"] and checks._tails(ctx, "青铜古镜") == ["铜古镜"]
    assert checks._tails(ctx, "家账本") == ["账本"]
    assert built == [1]  # the book's names read once, not once a thing asked


def test_a_thing_called_by_its_kind_is_read_of_the_prose_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """checks._by_kind compiled and searched three patterns of a thing's kind for each thing a line named (and counted
    the book's things of that kind anew): now one pass of the prose for every kind (:func:`checks._kinds_said`), read
    as those patterns read it (random proses of their characters)."""
    rng = random.Random(55)
    alphabet = "一两那这子\n，尺表剑" + checks._MEASURE[:6] + "ab"
    for _ in range(500):
        body = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        counted, pointed, brought_in = checks._kinds_said(body)
        for h in set(alphabet):
            e = re.escape(h)
            assert (h in counted) == bool(re.search(rf"{e}子|(?:[一两二三四五六七八九十几半那这每哪整]|^)[{checks._MEASURE}]{e}", body, re.M))
            assert (h in pointed) == bool(re.search(rf"[那这]{e}", body))
            assert (h in brought_in) == bool(re.search(rf"一[{checks._MEASURE}][^，,。！？；;“”\n]{{0,4}}?{e}", body))
    things = {"物" + p for p in _places(2000)} | {"乌木尺"}
    ctx = CheckContext({}, [], [], [], 0, set(), things)
    read: list[str] = []
    original = checks._kinds_said
    monkeypatch.setattr(checks, "_kinds_said", lambda body: read.append(body) or original(body))
    body = "他拿起那把尺看了看。" * 3000
    assert [checks._by_kind(ctx, t, body) for t in ["乌木尺", *sorted(things)[:300]]].count(True) >= 1
    assert checks._by_kind(ctx, "乌木尺", body) and len(read) == 1  # the prose read once for 301 things


def test_entries_far_apart_read_their_nearest_paragraphs() -> None:
    """continuity._entry_dated reads the nearest paragraph with text on each side of an entry (walked by index now, not
    by a copy of every line before it): blank lines between change nothing, and thousands of entries are each read."""
    entry = "“2024年10月12日，晴，北风。”"
    for gap in ("", "\n \n", "\n" * 500):
        lines = ("他在灯下写下：" + gap + "\n" + entry + "\n" + gap + "写完他合上本子。").split("\n")
        assert len(continuity._entry_dated("2024年10月13日", lines, 1)) == 1
        assert continuity._entry_dated("2024年10月12日", lines, 1) == []  # written the day it names
    lines = ("他在灯下写下：\n" + (entry + "\n") * 3000).split("\n")
    assert len(continuity._entry_dated("2024年10月13日", lines, 1)) == 1  # only the first has 写 beside it


def test_the_sentences_naming_a_handed_thing_are_found_not_each_searched(monkeypatch: pytest.MonkeyPatch) -> None:
    """checks._handover_told split the prose into sentences and searched every sentence for every form of the thing,
    once for each handover line (hundreds of lines: lines × the prose); now the prose is split once and each form found
    by ``str.find`` (:func:`checks._sentences_naming`), read as the sentences' own search reads them."""
    rng = random.Random(56)
    alphabet = "表怀旧。！\n…?ab"
    for _ in range(1000):
        body = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 50)))
        forms = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 3))) for _ in range(rng.randint(1, 4))]
        sentences = [m.group() for m in checks.SENTENCE.finditer(body)]
        starts, ends, split = checks._sentences_of(body)
        assert split == sentences
        assert checks._sentences_naming(body, forms, starts, ends) == \
            [k for k, s in enumerate(sentences) if any(f in s for f in forms)]
    things = {"物" + p for p in _places(300)} | {"旧怀表"}
    ctx = CheckContext({"许砚": "许砚", "林知夏": "林知夏"}, [], [], [], 0, {"许砚", "林知夏"}, things, people={"许砚", "林知夏"})
    body = "许砚看了看窗外。" * 4000 + "许砚把旧怀表递给林知夏。"
    split_: list[str] = []
    original = checks._sentences_of
    monkeypatch.setattr(checks, "_sentences_of", lambda prose: split_.append(prose) or original(prose))
    assert [checks._handover_told(ctx, t, body, "许砚", "林知夏") for t in sorted(things)].count(True) == 1
    assert len(split_) == 1  # once a prose, not once a line


def test_a_kind_of_one_character_is_found_in_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """checks._kind_word searched the prose with two patterns of a thing's last character for each thing asked; now the
    prose is read once for every character (:func:`checks._kind_spots`), as those patterns read it."""
    rng = random.Random(57)
    alphabet = "一把那这的子尺表\n剑" + checks._MEASURE[:5]
    for _ in range(1000):
        body = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        after, before_zi = checks._kind_spots(body)
        for h in set(alphabet) - set(checks._KIND_MARKS) - {"子"}:
            e = re.escape(h)
            assert after.get(h, []) == [m.start() + 1 for m in re.finditer(f"(?:[{checks._KIND_MARKS}]){e}", body)]
            assert before_zi.get(h, []) == [m.start() for m in re.finditer(f"{e}子", body)]
    read: list[str] = []
    original = checks._kind_spots
    monkeypatch.setattr(checks, "_kind_spots", lambda prose: read.append(prose) or original(prose))
    body = "他拿起那把尺看了看。" * 3000
    assert checks._kind_word("乌木尺", body) == "尺"
    assert [checks._kind_word("物" + p, body) for p in _places(300)].count(None) >= 290
    assert len(read) == 1  # once a prose, not once a thing
