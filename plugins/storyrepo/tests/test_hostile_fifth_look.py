"""Hostile input, a fifth look: a book of thousands of names or places, a contract of many lines.

Each class here once made the checks of one draft grow with the square of the book or of the
contract: the speaker reader looked up the patterns built on a 名册 of thousands of names at every
line (a pattern hashes its whole compiled code as a key), and tried thousands of branches after each
王 of a draft; a contract of hundreds of 「X出场」 lines read who speaks in the whole draft once per
line; a 世界观 of thousands of places was searched once per place for every sentence and card (the
keepers of places, the places in places, the far places); a line of hundreds of quotes was read
whole for 当年/回忆 at each of them. The figures are in bench/story_hostile.py;
these tests pin what the faster readers must still find, and the bounds by counting."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lw_storyrepo import checks, continuity, wordsre
from lw_storyrepo.checks import ERROR, WARN, CheckContext, check_draft, contract_findings, keepers_of, voices
from lw_storyrepo.continuity import far_places, journeys, places_inside
from lw_storyrepo.drafts import Draft
from lw_storyrepo.repo import StoryRepo
from lw_storyrepo.wordsre import FAN_MAX, alternation, found_at

LETTERS = "王林小二三麻子五牌表钥匙]^-\\."
FRAMES = ("({})", "({})说", "({})[^说]{{0,2}}?说", "(?<!王)({})", "(?:{}|他)子")


def _joined(words: set[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) if words else r"(?!)"


def _held(k: int) -> list[str]:
    return ["".join(chr(0x4E00 + (i * 7919 + j * 104729) % 20000) for j in range(3)) for i in range(k)]


@settings(max_examples=300, deadline=None)
@given(words=st.sets(st.text(alphabet=LETTERS, min_size=1, max_size=5), max_size=24),
       text=st.text(alphabet=LETTERS + "说，", max_size=60), frame=st.sampled_from(FRAMES), fan=st.sampled_from([2, 3]))
def test_a_level_told_apart_in_groups_matches_as_the_words_joined_longest_first(
        words: set[str], text: str, frame: str, fan: int) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(wordsre, "FAN_MAX", fan)
        tree = re.compile(frame.format(alternation(words)))
    joined = re.compile(frame.format(_joined(words)))
    assert [m.span() for m in tree.finditer(text)] == [m.span() for m in joined.finditer(text)]


def _widest(pattern: str) -> int:
    """The most branches of one group of ``pattern`` (escapes and character sets skipped)."""
    counts, widest, k = [1], 1, 0
    while k < len(pattern):
        c = pattern[k]
        if c == "\\":
            k += 1
        elif c == "[":
            k = pattern.index("]", k + 1 + (pattern[k + 1] == "\\"))
            while pattern[k - 1] == "\\" and pattern[k - 2] != "\\":
                k = pattern.index("]", k + 1)
        elif c == "(":
            counts.append(1)
        elif c == ")":
            widest = max(widest, counts.pop())
        elif c == "|":
            counts[-1] += 1
        k += 1
    return max(widest, counts[0])


def test_a_roster_of_thousands_under_one_surname_is_tried_in_groups_and_finds_each_name() -> None:
    names = ["王" + x[:2] for x in _held(4000)]
    pattern = alternation(names)
    assert pattern.startswith("王") and "(?=[" in pattern  # the level after 王 is split in groups
    assert _widest(pattern) <= FAN_MAX  # no group lists thousands of branches
    assert _widest(alternation(["王二", "王五", "林晚"])) == 2
    compiled = re.compile(f"({pattern})说")
    text = "".join(f"{n}说，王。" for n in names)
    assert [m.group(1) for m in compiled.finditer(text)] == names
    assert compiled.search("王" + "。" * 10 + names[7][1:] + "说") is None


@settings(max_examples=300, deadline=None)
@given(words=st.sets(st.text(alphabet="王林小二", min_size=1, max_size=4), max_size=10),
       text=st.text(alphabet="王林小二说", max_size=40))
def test_found_at_is_every_start_of_every_word(words: set[str], text: str) -> None:
    expected: dict[int, list[str]] = {}
    for w in sorted(words, key=len, reverse=True):
        for i in range(len(text)):
            if text.startswith(w, i):
                expected.setdefault(i, []).append(w)
    assert found_at(words, text) == expected


def _keepers_by_definition(texts: dict[str, str], places: set[str]) -> dict[str, frozenset[str]]:
    keeper = "(?:" + "|".join(checks.KEEPERS) + ")"
    out: dict[str, set[str]] = {}
    for person, text in texts.items():
        body = checks.free_text(text)
        for place in places:
            if len(place) >= 2 and re.search(re.escape(place) + f"[」』]?的?[大二老]?{keeper}", body):
                out.setdefault(place, set()).add(person)
    return {place: frozenset(people) for place, people in out.items()}


@settings(max_examples=300, deadline=None)
@given(places=st.sets(st.text(alphabet="恒裕当山城", min_size=1, max_size=4), max_size=8),
       bodies=st.lists(st.text(alphabet="恒裕当山城的大二老」』掌柜板娘店东家主，", max_size=40), min_size=1, max_size=3))
def test_the_keepers_read_back_from_their_word_are_the_definition_s(places: set[str], bodies: list[str]) -> None:
    texts = {f"人{i}": body for i, body in enumerate(bodies)}
    assert keepers_of(texts, places) == _keepers_by_definition(texts, places)


def test_a_world_of_thousands_of_places_still_tells_which_lies_in_which_and_which_is_far() -> None:
    places = [x[:2] + "城" for x in _held(3000)]
    world = "".join(f"{p}在{places[i - 1]}以北三百里。" for i, p in enumerate(places[:-3]))
    world += f"四川的{places[-1]}。{places[-2]}离{places[-3]}要走十来天，路远。"
    inside = places_inside(world, [*places, "四川"])
    assert "四川" in inside[places[-1]]
    assert places[5] not in inside  # 以北三百里: beside it, not in it
    assert places[-2] in far_places([world], places) or places[-3] in far_places([world], places)
    assert journeys([world], places)
    cards = {"钱掌柜": f"---\n姓名: 钱掌柜\n---\n## 设定\n{places[9]}的大掌柜，{places[10]}的常客。\n"}
    assert keepers_of(cards, set(places)) == {places[9]: frozenset({"钱掌柜"})}


def _ctx() -> CheckContext:
    aliases = {"林晚": "林晚", "陈默": "陈默", "顾衡": "顾衡"}
    return CheckContext(aliases, [], [], [], 0, set(aliases), set(), people=set(aliases))


def test_a_contract_of_many_appearances_reads_who_speaks_once_and_still_tells_each(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = checks.voices

    def counted(ctx: CheckContext, lines: list[str]) -> Any:
        calls.append(len(lines))
        return real(ctx, lines)

    monkeypatch.setattr(checks, "voices", counted)
    meta = {"推进承诺": ["P-001"], "在场": ["林晚"]}
    contract = [f"顾衡出场，第{i}回" for i in range(300)] + [f"陈默出场，第{i}回" for i in range(300)]
    body = "林晚推开门。\n顾衡说：“我来了。”\n" * 200 + "林晚想起陈默。\n"
    ctx = _ctx().for_draft(meta).reading(body)
    found = contract_findings({"合同": contract}, Draft("A", meta, body, 5), ctx)
    assert len(calls) == 1
    assert not any("顾衡" in f.message for f in found)  # he speaks, named: he is in the chapter
    assert [f.severity for f in found if "陈默" in f.message] == [WARN] * 300  # named only: asked
    gone = contract_findings({"合同": contract[300:]}, Draft("A", meta, "林晚推开门。", 5), _ctx().for_draft(meta))
    assert [f.severity for f in gone] == [ERROR] * 300


def test_the_speaker_reader_looks_its_name_patterns_up_once_per_draft(monkeypatch: pytest.MonkeyPatch) -> None:
    looked: list[object] = []
    real = checks._clauses_of

    def counted(names: re.Pattern[str]) -> Any:
        looked.append(names)
        return real(names)

    monkeypatch.setattr(checks, "_clauses_of", counted)
    names = ["王" + x[:2] for x in _held(2000)]
    aliases = {n: n for n in names} | {"林晚": "林晚"}
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), set(), people=set(aliases))
    lines = [f"{n}说：“我在。”" for n in names] + ["林晚点点头。", "“走吧。”", f"{names[3]}心想，该走了。"]
    said = list(voices(ctx, lines))
    assert len(looked) == 1
    assert [v.speaker for v in said if v.line < len(names) and v.speaker] == names
    assert [v.speaker for v in said if v.line == len(names) + 1] == ["林晚"]  # the beat before a lone quote
    assert any(v.speaker == names[3] and v.line == len(names) + 2 for v in said)  # a thought


def test_a_gap_of_thousands_of_keywords_still_names_its_hits_in_the_list_s_order() -> None:
    words = [x[:2] for x in _held(3000)]
    kws = ["手术", *words, "病历", "手术"]
    ctx = CheckContext({"许砚": "许砚", "顾衡": "顾衡"}, [("S-001", {"顾衡"}, False, kws)], [], [], 0, {"许砚", "顾衡"},
                       set(), people={"许砚", "顾衡"})
    body = f"许砚说：“病历上写着{words[9]}，是手术。”\n顾衡说：“病历和手术。”"
    found = checks.leak_and_waste(ctx, body.split("\n"), 5)
    assert [(f.severity, f.line) for f in found] == [(ERROR, 5)]
    assert f"「手术、{words[9]}、病历、手术」" in found[0].message


def test_a_line_of_hundreds_of_quotes_by_the_dead_is_read_once_for_not_now_and_still_found(
        book: StoryRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    card = book.p("定稿/设定/角色/神秘老者.md")
    card.write_text(card.read_text(encoding="utf-8").replace("状态: 在世", "状态: 已死"), encoding="utf-8")
    line = "神秘老者说：“我在。”" * 500
    searched: list[int] = []
    real = continuity.NOT_NOW

    class Counted:
        def search(self, text: str, *at: int) -> re.Match[str] | None:
            searched.append(len(text))
            return real.search(text, *at)

    monkeypatch.setattr(continuity, "NOT_NOW", Counted())
    said = [f for f in check_draft(book, Draft("A", {"推进承诺": ["P-001"]}, line + "\n林晚点头。", 1))
            if f.kind == "连贯" and "神秘老者" in f.message]
    assert [f.line for f in said] == [1]
    assert searched.count(len(line)) <= 5  # the line read for 当年/回忆 by a few readers, not once per quote (500)
    monkeypatch.undo()
    recalled = "当年，" + line
    assert not [f for f in check_draft(book, Draft("A", {"推进承诺": ["P-001"]}, recalled, 1))
                if f.kind == "连贯" and "神秘老者" in f.message]
