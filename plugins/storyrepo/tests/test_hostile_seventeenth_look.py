"""Hostile input, a seventeenth look (A17, stop 57): readers that asked a pattern of a sentence's whole text before each
of its matches, and the name-tables cache.

- What a card says one calls another (:func:`kinship.address_book`) looked for the last person named before each
  叫“…” from the sentence's start: a card of one 60,000-character sentence of 林知夏叫他“小许”， took 76 s to load.
  The sentence's names are read once (:class:`kinship._NamedBefore`).
- Whether 叫 follows a kind of thing (:data:`propernouns.HEADED`, ``…$``) was asked of the line's whole text before each
  叫X: a line of thousands of 那人叫阿福， spent 3.6 s of a 4 s check searching. It is asked of :data:`HEADED_REACH` of them.
- Whether a rank's name before it is compared (:data:`continuity.LIKE`, ``…$``) was asked of the sentence up to that
  name, for each rank of the sentence; it is asked of :data:`continuity.LOOK_BACK` characters.
- Whether a day of the coming months is a plan (:data:`continuity.COMING` before it) searched the sentence up to each
  such day; :func:`wordsre.first_end` reads where the first plan word ends once a sentence.
- Who speaks a quote after the one person of its line's own sentence (林知夏看着他。“好。”) gathered every person the
  line names outside its quotes again at each quote (:func:`checks._attributed`): a line of thousands took 43 s at the
  draft cap. They are gathered once a line (:func:`checks._people_outside_quotes`).
- Whether a rank the point of view aims at (下个月就要考主治) is in the sentence's first clause and outside quotes
  (:func:`ranks._bind`) searched the sentence up to each rank: a sentence of thousands took 5 s of searches. The first
  pause and quote are read once a sentence (:func:`wordsre.first_end`).
- Whether a trade's noun stands before 小X/阿X (:func:`propernouns._person_noun_before`, its last three characters read)
  was given a copy of the line up to each.
- A name-tables file nested too deep for the JSON reader (a RecursionError, no ValueError) failed every command that
  checks a draft's new names; it is a bad file like any other: the tables are built.

Each is read through its result and its work (characters a pattern is given), never timed."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

import continuity_helpers
from continuity_helpers import Counted

from lw_storyrepo import checks, continuity, kinship, nametables, propernouns, ranks
from lw_storyrepo.checks import CheckContext, dwellers_of
from lw_storyrepo.continuity import World, told_of
from lw_storyrepo.wordsre import first_end


def _last_other_by_rescan(names_re: re.Pattern[str], aliases: dict[str, str], me: str, sentence: str, at: int) -> str | None:
    """What address_book read before A17: the sentence up to ``at`` searched again."""
    named = [n for n in names_re.finditer(sentence[:at]) if aliases[n.group()] != me]
    others = [aliases[n.group()] for n in named if sentence[n.end():n.end() + 1] != "的"] or [aliases[n.group()] for n in named]
    return others[-1] if others else None


def test_the_last_one_named_before_a_call_is_the_one_the_rescan_found() -> None:
    """Names overlapping (王大, 王大锤, 大锤), owners (王大锤的) and the card's own, at every place of random sentences."""
    rng = random.Random(5717)
    aliases = {"王大": "王大", "王大锤": "王大锤", "大锤": "大锤", "锤子": "锤子", "许砚": "许砚", "小许": "许砚"}
    names_re = re.compile("|".join(sorted(aliases, key=len, reverse=True)))
    pieces = ["王大", "王大锤", "大锤", "锤子", "许砚", "小许", "的", "叫", "，", "他", "王"]
    for _ in range(300):
        sentence = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 14)))
        before = kinship._NamedBefore(names_re, aliases, "许砚", sentence)
        for at in range(len(sentence) + 1):
            assert before.last_other(at) == _last_other_by_rescan(names_re, aliases, "许砚", sentence, at), (sentence, at)


class _Counting(Counted):
    """:class:`Counted`, doing whatever else the pattern does (its ``match``: a few characters at one place)."""

    def __getattr__(self, name: str) -> Any:
        return getattr(self.pattern, name)


def test_a_card_sentence_of_thousands_of_calls_reads_its_names_once(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[Counted] = []
    compile_ = re.compile

    def counted(pattern: str, flags: int = 0) -> Any:
        made.append(_Counting(compile_(pattern, flags)))
        return made[-1]

    monkeypatch.setattr(kinship.re, "compile", counted)
    aliases = {"林知夏": "林知夏", "许砚": "许砚", "小许": "许砚"}
    card = "## 设定\n" + "林知夏叫他“小许”，" * 3000 + "\n"
    book = kinship.address_book({"许砚": card}, aliases, {})
    assert book == {"林知夏": {"小许": "许砚"}}
    assert sum(c.read for c in made) <= 3 * len(card)  # the sentence once (a rescan per call: 4,000 times more)


def test_a_line_of_thousands_of_jiao_asks_headed_of_a_few_characters(monkeypatch: pytest.MonkeyPatch) -> None:
    headed = Counted(propernouns.HEADED)
    monkeypatch.setattr(propernouns, "HEADED", headed)
    line = "那人叫阿福，" * 2000
    propernouns.find_new_nouns("有一个组织，叫守夜人。\n" + line + "\n", ["林知夏"])
    assert 0 < headed.read <= propernouns.HEADED_REACH * (2000 + 1)


def test_headed_reads_as_before_with_its_reach() -> None:
    for before in ("有一个组织，", "匕首", "起了个名字，", "他", "", "组织，，", "一个网友"):
        for text in (before, "前面还有很多字" * 20 + before):
            whole = propernouns.HEADED.search(text) is not None
            assert (propernouns.HEADED.search(text[max(0, len(text) - propernouns.HEADED_REACH):]) is not None) == whole


STAGES = ("实习医生", "住院医", "主治", "副主任", "主任")


def _ward() -> World:
    cards: dict[str, dict[str, Any]] = {
        "许砚": {"姓名": "许砚", "状态": "在世", "位置": "医院", "境界": "主治", "持有": []},
        "林知夏": {"姓名": "林知夏", "状态": "在世", "位置": "医院", "持有": []}}
    return World(cards, {p: p for p in cards}, {"医院"}, set(), STAGES, None, {}, {"许砚": "他", "林知夏": "她"},
                 told=told_of({}, cards))


def test_a_sentence_of_thousands_of_ranks_asks_like_of_a_few_characters(monkeypatch: pytest.MonkeyPatch) -> None:
    like = Counted(continuity.LIKE)
    monkeypatch.setattr(continuity, "LIKE", like)
    body = "许砚如今不过是个实习医生，" * 2000 + "许砚点头。"
    found = [f for f in continuity_helpers.findings(body, _ward(), "林知夏", "2024年10月13日", ["林知夏", "许砚"])
             if "境界" in f.message]
    assert found  # 主治 said a 实习医生
    assert 0 < like.read <= continuity.LOOK_BACK * 2000


def test_a_rank_after_a_comparison_is_still_the_subject_s() -> None:
    body = "许砚跟林知夏一样，还是个实习医生。"
    found = [f.message for f in continuity_helpers.findings(body, _ward(), "林知夏", "2024年10月13日", ["林知夏", "许砚"])
             if "境界" in f.message]
    assert found and all(m.startswith("许砚") for m in found)


def test_first_end_is_where_a_prefix_first_holds_a_match() -> None:
    rng = random.Random(57)
    patterns = [re.compile(p) for p in ("等到|等|到了|要", "之前|前夕|下个月", "ab|b", "a+b", "x?", "(?!)", "b(?=c)?")]
    for _ in range(400):
        text = "".join(rng.choice("等到了要之前夕下个月abcx") for _ in range(rng.randint(0, 12)))
        for pattern in patterns:
            brute = next((x for x in range(len(text) + 1) if pattern.search(text[:x])), len(text) + 1)
            assert first_end(pattern, text) == brute, (pattern.pattern, text)


def test_a_sentence_of_thousands_of_days_ahead_reads_the_plan_words_once(monkeypatch: pytest.MonkeyPatch) -> None:
    coming = Counted(continuity.COMING)
    monkeypatch.setattr(continuity, "COMING", coming)
    body = "十一月三日那天就来了，" * 2000 + "许砚点头。"
    found = [f for f in continuity_helpers.findings(body, _ward(), "林知夏", "2024年10月13日", ["林知夏", "许砚"])]
    assert any("十一月三日" in f.message for f in found)  # a day of the months ahead told as past
    assert 0 < coming.read <= 4 * len(body)


def test_a_plan_word_before_the_day_still_silences_it() -> None:
    said = [f.message for f in continuity_helpers.findings("等到十一月三日那天就来了。", _ward(), "林知夏", "2024年10月13日",
                                                           ["林知夏", "许砚"]) if "十一月三日" in f.message]
    assert said == []


@pytest.mark.parametrize("body", ["[" * 200_000, '{"format": "2", "key": "k", "x": ' + '{"a": ' * 100_000 + "1" + "}" * 100_001])
def test_a_name_tables_file_nested_too_deep_is_rebuilt(tmp_path: Path, body: str) -> None:
    tables = nametables.NameTables({"林": 3}, 3, {"林": "nr"}, {"知": 0.5}, frozenset({"林则徐"}))
    (tmp_path / nametables.FILE_NAME).write_text(body, encoding="utf-8")
    assert nametables.name_tables(lambda: tables, "k", tmp_path) == tables
    assert nametables.name_tables(lambda: pytest.fail("read from the file"), "k", tmp_path) == tables  # rewritten


def test_a_line_of_thousands_of_quotes_gathers_its_people_once(monkeypatch: pytest.MonkeyPatch) -> None:
    cards: dict[str, dict[str, object]] = {"许砚": {"位置": "省城"}, "林知夏": {"位置": "省城"}}
    aliases = {"许砚": "许砚", "林知夏": "林知夏"}
    world = World(cards, dict(aliases), set(), set(), ("普通人",), None, {}, {})
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), set(), world=world, people=set(cards),
                       dwellers=dwellers_of(cards)).for_draft({})
    asked = 0
    is_person = CheckContext.is_person

    def counted(self: CheckContext, name: str) -> bool:
        nonlocal asked
        asked += 1
        return is_person(self, name)

    monkeypatch.setattr(CheckContext, "is_person", counted)
    line = "林知夏看着他。“好。”" * 2000
    said = [v for v in checks.voices(ctx, [line]) if v.speaker is not None]
    assert len(said) == 2000 and {v.speaker for v in said} == {"林知夏"}
    assert asked <= 20 * 2000  # a few a quote (gathering the line's 2,000 names at each: 4 million)


@pytest.mark.parametrize("text", ["", "  ", "林。 \t ", "。\u3000", "a b", "“好。”  “"])
def test_the_solid_character_before_is_the_stripped_text_s_last(text: str) -> None:
    for at in range(len(text) + 1):
        assert checks._solid_before(text, at) == text[:at].rstrip()[-1:]


@pytest.mark.parametrize("unit", ["下个月就要考主治", "自己还要考主治，"])
def test_a_sentence_of_thousands_of_ranks_aimed_at_reads_its_pauses_once(unit: str, monkeypatch: pytest.MonkeyPatch) -> None:
    pause, quote = Counted(ranks.PAUSE), Counted(ranks.OPEN_QUOTE)
    monkeypatch.setattr(ranks, "PAUSE", pause)
    monkeypatch.setattr(ranks, "OPEN_QUOTE", quote)
    body = unit * 2000 + "。"
    found = [f for f in continuity_helpers.findings(body, _ward(), "许砚", "2024年10月13日", ["林知夏", "许砚"])
             if "境界" in f.message]
    assert found  # 许砚 is a 主治 already
    assert 0 < pause.read + quote.read <= 4 * len(body)



def test_a_line_of_thousands_of_pet_names_gives_the_trade_reader_a_few_characters(monkeypatch: pytest.MonkeyPatch) -> None:
    given: list[str] = []
    reader = propernouns._person_noun_before

    def counted(lex: Any, before: str) -> bool:
        given.append(before)
        return reader(lex, before)

    monkeypatch.setattr(propernouns, "_person_noun_before", counted)
    propernouns.find_new_nouns("化妆师小鹿，" * 2000 + "\n", ["林知夏"])
    assert given and max(map(len, given)) <= 8  # a few characters (the line up to each 小X: 12,000)

