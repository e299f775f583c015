"""Hostile input, a nineteenth look (A19, stop 59): stop 58's readings fed their worst cases at the draft's cap and
beside books of thousands of names, things and bars.

- The acts of a trade a card bars (:data:`forbidden.BARRED_ACT`: 上不得船，拉不得纤; S1, stop 58) were read without end:
  a card's paragraph of thousands of 上不得X made thousands of patterns, each compiled and searched for in every line of
  the draft — 10,000 bars beside a 60,000-character draft took 39 s. One person's words are read for at most
  :data:`forbidden.BARRED_ACTS_MAX` of them, the first the book says.
- The guard that keeps a person's name from being found inside a longer noun (:func:`propernouns.not_inside_longer`:
  老板 in 老板娘; K7, stop 58) was a lookbehind for each name a dictionary noun of a head begins, compiled into every
  pattern of names and tried wherever a name met its head, and each place head's words were read again for each name: a
  名册 of 4,000 dictionary words as people beside a draft at the cap of them took minutes. The guard holds at most
  :data:`propernouns.LONGER_GUARD_MAX` names, and a head's words are read once.
- An act a barred card may not do (状态: 上不得船, 站不起来) was asked of each barred person at every place it stands
  in the draft whether it is told of them (``continuity._told_of``), named near or not: a book of a thousand cards each
  barring it beside a draft of such acts was the product of the two (a tenth of the cap: 21 s). It is asked only of
  those whose name stands within the span ``_told_of`` reads (or who alone is named in the paragraph, for a 他).

Each is read through its result and its work (patterns made, characters read), never timed."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import continuity_helpers
from story_cli import hand_in, lw, new_book

from lw_storyrepo import continuity, forbidden, propernouns
from lw_storyrepo import layout as L
from lw_storyrepo.continuity import World, places_inside
from lw_storyrepo.forbidden import forbidden_of


def _things(k: int) -> list[str]:
    """``k`` two-character things, each new."""
    return ["".join(chr(0x4E00 + (i * 7919 + j * 104729) % 20000) for j in range(2)) for i in range(k)]


CARD: dict[str, Any] = {"姓名": "韦大锅", "状态": "腕伤", "位置": "普洱"}


def _bars(text: str) -> forbidden.Bars:
    return forbidden_of({"韦大锅": CARD}, {"韦大锅": text}, "", {"韦大锅": "韦大锅", "老韦": "韦大锅"}, {"普洱"})["韦大锅"]


def test_a_card_of_thousands_of_barred_acts_is_read_for_a_few() -> None:
    text = "他上不得船，拉不得纤。" + "".join(f"上不得{t}，拉不得{t}。" for t in _things(3000))
    acts = _bars(text).acts
    assert len(acts) == forbidden.BARRED_ACTS_MAX  # each of the 6,002 a pattern searched in every line of a draft
    assert [words for words, _ in acts[:2]] == ["上不得船", "拉不得纤"]  # the first the card says, read as before


def test_a_card_of_a_few_barred_acts_reads_them_all() -> None:
    acts = _bars("他上不得马，牵不得骡子，茶篓更驮不得，渡船也上不得，摘不了茶；他扛不得，搬不得东西。").acts
    assert [words for words, _ in acts] == ["上不得马", "牵不得骡子", "茶篓更驮不得", "渡船也上不得", "摘不了茶"]


def test_a_card_of_thousands_of_bars_is_checked_through_lw_story(tmp_path: Path) -> None:
    """The whole of ``lw story check`` on a card barring thousands of acts: the card's first bar is still caught, the
    check answers (no time asserted), never a traceback."""
    root = new_book(tmp_path / "书", "# 世界观\n\n普洱在南边。\n", (("韦大锅", "位置", "普洱"), ("韦大锅", "状态", "腕伤")),
                    contract=("韦大锅在普洱",))
    card = root / L.角色 / "韦大锅.md"
    card.write_text(card.read_text(encoding="utf-8") + "\n他上不得船。" + "".join(f"拉不得{t}，" for t in _things(3000)) + "\n",
                    encoding="utf-8")
    lw(root, "fix")
    hand_in(root, "---\n标题: 试\n视角: 韦大锅\n---\n" + "韦大锅在普洱歇脚，天亮了。\n韦大锅一步跨上船来。\n")
    out = lw(root, "check")
    assert "Traceback" not in out and "上不得船" in out


def _dictionary_names(k: int) -> list[str]:
    """``k`` two-character dictionary words each of which a dictionary noun of a head begins (龙骨 of 龙骨山)."""
    lex = propernouns.lexicon()
    return sorted({w[:2] for w in lex.freq if len(w) == 3 and w[-1] in propernouns.LONGER_WORD_HEADS})[:k]


def test_a_roster_of_thousands_of_dictionary_words_makes_a_guard_of_a_few(monkeypatch: pytest.MonkeyPatch) -> None:
    """K7's guard (stop 58) on people who are thousands of dictionary words: each name with its head was a lookbehind
    compiled into every pattern of names and tried wherever a name met its head; each place head's words were read
    again for every name before it."""
    names = _dictionary_names(3000)
    real = propernouns._Lexicon.words_after
    asked: list[str] = []

    def counted(self: Any, head: str) -> list[str]:
        asked.append(head)
        return real(self, head)

    monkeypatch.setattr(propernouns._Lexicon, "words_after", counted)
    propernouns._longer_after.cache_clear()
    guard = propernouns.not_inside_longer(names)
    assert guard.count("(?<=") == propernouns.LONGER_GUARD_MAX  # one for each of thousands
    assert len(asked) == len(set(asked)) <= len(propernouns.PLACE_HEADS)  # each head once, not once per name


def test_the_guard_reads_as_before_for_a_book_of_people() -> None:
    people = ["老板", "石头", "冯大", "阿福"]
    pattern = re.compile(f"(?:老板|石头|冯大|阿福){propernouns.not_inside_longer(people)}")
    found = [m.group() for m in pattern.finditer("老板娘来了。石头缝里。老板说：石头路过，阿福道：好。")]
    assert found == ["老板", "石头", "阿福"]


def _barred_world(k: int) -> tuple[World, list[str]]:
    """A book of ``k`` boatmen each barred from boarding and hauling (上不得船，拉不得纤), and 岩温 telling it."""
    people = ["伤" + t for t in _things(k)]
    cards = {"岩温": {"姓名": "岩温", "状态": "在世", "位置": "普洱"},
             **{p: {"姓名": p, "状态": "腕伤", "位置": "普洱"} for p in people}}
    texts = {p: "他上不得船，拉不得纤。" for p in people}
    aliases = {n: n for n in cards}
    world = World(cards, dict(aliases), {"普洱"}, set(), ("普通人",), None, places_inside("", {"普洱"}),
                  {n: "他" for n in cards}, bars=forbidden_of(cards, texts, "", aliases, {"普洱"}))
    return world, people


def test_hundreds_of_barred_cards_read_an_act_for_the_one_it_is_told_of(monkeypatch: pytest.MonkeyPatch) -> None:
    """The acts of a trade and the faculties are read strictly of the one named (continuity's ``_told_of``): a book of
    hundreds of barred cards read each act in the draft once for each of them, named or not."""
    real = continuity._told_of
    asked: list[str] = []

    def counted(world: World, narration: str, at: int, who: str, *args: Any) -> bool:
        asked.append(who)
        return real(world, narration, at, who, *args)

    monkeypatch.setattr(continuity, "_told_of", counted)
    world, people = _barred_world(300)
    acts = "艄公拽了一把纤绳，摸上船来。\n" * 200
    body = acts + f"{people[7]}拽了一把纤绳。\n"
    found = [f.message for f in continuity_helpers.findings(body, world, "岩温", "1948年5月10日", ["岩温", *people])]
    assert [m for m in found if "的状态" in m] == [f"{people[7]} 的状态是「腕伤」（角色卡·状态），按设定拉不得纤，正文里却这样做了"]
    assert len(asked) <= 2  # each of 400 acts asked for each of 300 people: 120,000 times


def test_a_barred_act_is_told_of_its_one_by_a_pronoun_as_before() -> None:
    world, people = _barred_world(3)
    found = continuity_helpers.findings(f"{people[1]}走过来。他拽了一把纤绳。\n", world, "岩温", "1948年5月10日", ["岩温", *people])
    assert [f.message for f in found if "的状态" in f.message] == [
        f"{people[1]} 的状态是「腕伤」（角色卡·状态），按设定拉不得纤，正文里却这样做了"]


class _ItemsCounted(dict):  # type: ignore[type-arg]
    """A book's aliases counting how often all of them are walked (:meth:`items`)."""

    walks = 0

    def items(self):  # type: ignore[no-untyped-def]
        _ItemsCounted.walks += 1
        return super().items()


def test_a_book_of_hundreds_of_barred_cards_walks_its_names_once() -> None:
    """Whether a card's clause names someone else (then its bar is theirs) built every other name of the book again for
    each barred person: a book of thousands of cards was the square of them before any draft was read."""
    people = ["伤" + t for t in _things(500)]
    cards = {p: {"姓名": p, "状态": "腕伤", "位置": "普洱"} for p in people}
    aliases = _ItemsCounted({**{p: p for p in people}, "老幺": people[1]})
    _ItemsCounted.walks = 0
    bars = forbidden_of(cards, {p: "他上不得船。老幺拉不得纤。" for p in people}, "", aliases, {"普洱"})
    assert _ItemsCounted.walks <= 2  # once for each of the 500: 501
    assert [words for words, _ in bars[people[0]].acts] == ["上不得船"]  # 老幺's clause is another's
    assert [words for words, _ in bars[people[1]].acts] == ["上不得船", "拉不得纤"]  # 老幺 is people[1]'s own name
