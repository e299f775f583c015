"""Hostile input, an eighteenth look (A18, stop 58): the readers of the book's own files the checks load (世界观 and the
cards' text, read for where places lie), and stop 57's readers.

- Which places a world says are one place (:func:`continuity.places_inside`: 甲镇和乙镇算一处地方) found each list's
  clause by searching back and forth for every clause mark from the list (a mark the world never writes, say ``！``, was
  searched for to the world's end, and back to its start, at every list), and searched the whole rest of the clause for
  a denial: a 世界观 of 20,000 one-place words in one clause took minutes. The clause ends and the denials are read once
  and looked up; a clause's second list starts after its first.
- Whether a sentence says the family home it names is here (:data:`continuity.HOME_HERE`: 这里就是沧州老家) searched
  the sentence from its start at each home: a sentence of thousands of X老家 was the square of its length. It is read
  once (:func:`wordsre.first_end`).
- The world's readers cut the world's text into pieces of every length the book's places have: places of hundreds of
  lengths (a 名册 or a card's 位置 of a paragraph) made loading the checks the product of the two, and the setting
  line's places (:func:`continuity._own_places`) cut every position of that line at each of them. The world is read for
  places of at most :data:`checks.PLACE_CHARS_MAX` characters; a longer 位置 is still its card's place.

- Whether the prose gives up the act a contract line's thing is used for (:func:`checks.act_given_up`: 某某用怀表给某某
  掐时辰 … 算了，不掐了) cut the whole prose into words again for each such line: a contract of hundreds of them beside a
  60,000-character prose took over two minutes. The prose is cut once (:func:`checks._word_bounds`), and each act's
  giving up read once (:func:`checks._given_up`).
- Whether a place of a contract line is in a question the line reports (:func:`checks._reported_question`: 某某说他问过
  …到省城要几个钟头) cut the line from its start up to each place: a line of thousands of places each asked after was
  the square of the line. The saying word is looked for within :data:`checks.REPORTED_REACH` characters.

Each is read through its result and its work (characters a pattern or a search is given), never timed."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

import pytest

from continuity_helpers import Counted
from story_cli import hand_in, lw, new_book

from lw_storyrepo import checks, continuity, propernouns
from lw_storyrepo import layout as L
from lw_storyrepo.checks import CheckContext
from lw_storyrepo.repo import StoryRepo


class _SearchedText(str):
    """A world's text counting in :attr:`read` the characters each ``find`` or ``rfind`` of it is given."""

    read = 0

    def find(self, sub: str, start: Any = None, end: Any = None) -> int:  # type: ignore[override]
        _SearchedText.read += (len(self) if end is None else min(end, len(self))) - (start or 0)
        return str.find(self, sub, start, end)

    def rfind(self, sub: str, start: Any = None, end: Any = None) -> int:  # type: ignore[override]
        _SearchedText.read += (len(self) if end is None else min(end, len(self))) - (start or 0)
        return str.rfind(self, sub, start, end)


@pytest.mark.parametrize("unit", ["算一处", "算一处地方\n"])
def test_a_world_of_thousands_of_one_place_words_reads_its_clauses_once(unit: str, monkeypatch: pytest.MonkeyPatch) -> None:
    denied = Counted(continuity.ONE_PLACE_DENIED)
    monkeypatch.setattr(continuity, "ONE_PLACE_DENIED", denied)
    _SearchedText.read = 0
    world = _SearchedText("甲镇和乙镇" + unit * 3000)
    inside = continuity.places_inside(world, ["甲镇", "乙镇"])
    assert inside == {"甲镇": {"乙镇"}, "乙镇": {"甲镇"}}
    assert _SearchedText.read + denied.read <= 4 * len(world)  # each list searching the clause: 3,000 times more


def test_one_place_lists_read_as_before() -> None:
    places = ["甲镇", "乙镇", "丙镇", "丁镇", "戊镇", "己镇"]
    world = ("甲镇、乙镇和丙镇算一处地方。丁镇和戊镇不算一处地方。\n"
             "马厩和帐篷算一处地方！己镇和甲镇看作一块地方吗？")
    assert continuity.places_inside(world, places) == {"甲镇": {"乙镇", "丙镇"}, "乙镇": {"甲镇", "丙镇"},
                                                     "丙镇": {"甲镇", "乙镇"}}
    # two lists in one clause: each is its own
    two = continuity.places_inside("甲镇和乙镇算一处地方，丙镇和丁镇算一处地方", places)
    assert two == {"甲镇": {"乙镇"}, "乙镇": {"甲镇"}, "丙镇": {"丁镇"}, "丁镇": {"丙镇"}}


def test_a_sentence_of_thousands_of_homes_asks_here_once(monkeypatch: pytest.MonkeyPatch) -> None:
    here = Counted(continuity.HOME_HERE)
    monkeypatch.setattr(continuity, "HOME_HERE", here)
    sentence = "滨江城老家，" * 3000
    far = continuity.far_places(["沧州城在北边。", sentence], ["沧州城", "滨江城"])
    assert far == {"滨江城"}
    assert 0 < here.read <= 4 * len(sentence)  # from the sentence's start at each home: 1,500 times more


@pytest.mark.parametrize(("texts", "far"), [
    (["沧州城在北边。", "这里就是滨江城老家。"], set()),
    (["沧州城在北边。", "他回了滨江城老家。"], {"滨江城"}),
    (["沧州城在北边。", "他回了沧州城老家。"], set()),  # the setting line's own town
    (["沧州城。他回了沧州城老家。"], set()),
    (["他回了沧州城老家，这里是滨江城。"], {"沧州城"}),
])
def test_homes_read_as_before(texts: list[str], far: set[str]) -> None:
    assert continuity.far_places(texts, ["沧州城", "滨江城"]) == far


def _places_read(monkeypatch: pytest.MonkeyPatch) -> list[set[str]]:
    """The places each of the world's readers is given when the checks load (recorded, then read as before)."""
    given: list[set[str]] = []
    for name in ("place_nesting", "far_places", "journeys", "haunts_of"):
        real = getattr(checks, name)

        def recording(first: Any, places: Iterable[str], real: Any = real) -> Any:
            given.append(set(places))
            return real(first, places)

        monkeypatch.setattr(checks, name, recording)
    return given


def test_the_world_is_read_for_places_of_a_few_characters(book: StoryRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    long_places = ["甲" * k + "城" for k in range(1, 400)]
    book.p(L.名册).write_text("# 名册\n\n" + L.ROSTER_HEADER + "".join(f"| {p} |  | 地点 | 1 |\n" for p in long_places),
                             encoding="utf-8")
    world = book.p(L.世界观)
    world.write_text(world.read_text(encoding="utf-8") + "\n" + "甲" * 30_000 + "城在北边。\n甲甲城和甲甲甲城算一处地方。\n",
                     encoding="utf-8")
    given = _places_read(monkeypatch)
    ctx = CheckContext.load(book)
    assert len(given) == 4 and all(max(map(len, places)) <= checks.PLACE_CHARS_MAX for places in given)
    assert ctx.world is not None and long_places[-1] in ctx.world.places  # still a place to the other checks
    assert {"甲甲城", "甲甲甲城"} <= ctx.world.inside.get("甲甲城", set()) | {"甲甲城"}


def test_a_long_place_of_a_world_of_thousands_of_lines_is_checked_through_lw_story(tmp_path: Path) -> None:
    """The whole of ``lw story check`` on a book whose 世界观 holds thousands of one-place lists of places of dozens of
    lengths: it answers (the hang guard, no time asserted) with the checks' findings, never a traceback."""
    places = ["乙" * k + "镇" for k in range(1, 80)]
    world = ("# 世界观\n\n" + "".join(f"{places[i % 79]}和乙镇算一处" for i in range(1500)) + "\n"
             + "乙乙镇老家，" * 3000 + "\n")
    root = new_book(tmp_path / "书", world, (("林岚", "位置", "乙镇"),), contract=("林岚回了乙乙镇",))
    (root / L.名册).write_text("# 名册\n\n" + L.ROSTER_HEADER + "".join(f"| {p} |  | 地点 | 1 |\n" for p in places),
                               encoding="utf-8")  # by hand: ``entity add`` refuses a name this long
    lw(root, "fix")
    hand_in(root, "---\n标题: 试\n视角: 林岚\n---\n林岚回了乙乙镇老家。\n")
    out = lw(root, "check")
    assert "Traceback" not in out


def _cut_counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The lengths of the texts the lexicon is asked to cut into words, recorded as it cuts them."""
    given: list[int] = []
    real = propernouns._Lexicon.boundaries

    def counted(self: Any, line: str, *args: Any, **kwargs: Any) -> set[int]:
        given.append(len(line))
        return real(self, line, *args, **kwargs)

    monkeypatch.setattr(propernouns._Lexicon, "boundaries", counted)
    checks._word_bounds.cache_clear()
    checks._given_up.cache_clear()
    return given


def test_hundreds_of_acts_given_up_cut_the_prose_once(monkeypatch: pytest.MonkeyPatch) -> None:
    given = _cut_counted(monkeypatch)
    body = "许砚掏出旧怀表看了看。\n" * 2000 + "算了，不掐了。\n"
    offs = [checks.act_given_up(f"掐时辰{i}", body) for i in range(300)]
    assert all(off is not None and off.group() == "不掐了" for off in offs)
    assert sum(given) <= 2 * len(body) + 300 * 10  # the prose once (each line cutting it: 300 times)


def test_an_act_done_after_all_is_not_given_up() -> None:
    assert checks.act_given_up("掐时辰", "他说不掐了。\n过了一会儿，他又掐了个时辰。") is None
    assert checks.act_given_up("写信", "他写了一页，改天再写一封。") is None
    off = checks.act_given_up("写信", "他拿起笔。改天再写吧。")
    assert off is not None and off.group().startswith("改天")


def test_a_contract_line_of_thousands_of_places_asked_after_cuts_a_reach_each(monkeypatch: pytest.MonkeyPatch) -> None:
    given = _cut_counted(monkeypatch)
    places = [f"{chr(0x4E00 + i * 7 % 20000)}{chr(0x5E00 + i)}城" for i in range(3000)]
    line = "林知夏说她问过许砚" + "".join(f"到{p}要几个钟头，" for p in places)
    reported = [checks._reported_question(line, line.index(p), p) for p in places]
    assert all(reported[:10])  # the saying word within reach: each of the first ten places is in the question reported
    assert sum(given) <= checks.REPORTED_REACH * len(places)  # from the line's start at each: 60 times more


@pytest.mark.parametrize(("line", "term", "reported"), [
    ("阿旺说他问过搭车到省城要几个钟头", "省城", True),
    ("阿旺知道消息后去省城", "省城", False),
    ("阿旺去省城看病", "省城", False),
    ("阿旺去省城要几个钟头", "省城", False),
])
def test_a_reported_question_reads_as_before(line: str, term: str, reported: bool) -> None:
    assert checks._reported_question(line, line.index(term), term) is reported


@pytest.mark.parametrize(("written", "proposed"), [
    ("书内时间: 2024-10-13", "书内时间: 2024年10月13日"),
    ("书内时间: 2024-10-13 08:30:00", "书内时间: 2024年10月13日 08:30"),
    ("标题: 2024-10-13", '标题: "2024-10-13"'),
])
def test_a_date_yaml_reads_in_the_front_matter_is_named_a_date(tmp_path: Path, written: str, proposed: str) -> None:
    """书内时间: 2024-10-13 is a date to YAML, not the line the author wrote: the draft is refused, located, with the
    date as the book writes one — not told it is 'a list or nested' (what any other value that is no line of text is)."""
    root = new_book(tmp_path / "书", "# 世界观\n\n青石镇在北边。\n", (("林晚", "位置", "青石镇"),), contract=("林晚在青石镇过夜",))
    draft = tmp_path / "草稿.md"
    title = "" if written.startswith("标题") else "标题: 试\n"
    draft.write_text(f"---\n{title}视角: 林晚\n{written}\n---\n林晚在青石镇住了一夜。\n", encoding="utf-8")
    out = lw(root, "draft", "A", str(draft), ok=False)
    assert "读出来是日期" in out and proposed in out and "列表或嵌套" not in out


@pytest.mark.parametrize(("name", "said"), [
    ("乙" * 120 + "镇", "有 121 个字，名字最多 40 个字"),
    ("CON", "Windows 的设备名"),
    ("林/晚", "名字里不能有"),
])
def test_a_name_refused_says_why(tmp_path: Path, name: str, said: str) -> None:
    """A name too long for its card's file (a 名册 place of a paragraph) was refused for characters it does not have: the
    refusal says the length it has and the most allowed; the name shown clipped."""
    root = new_book(tmp_path / "书", "# 世界观\n\n青石镇在北边。\n", ())
    out = lw(root, "entity", "add", name, "--类型", "地点", ok=False)
    assert said in out and "Traceback" not in out and len(out) < 400
