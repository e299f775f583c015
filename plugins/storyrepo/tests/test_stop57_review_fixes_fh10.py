"""R57's findings on H10's round (issue 30, stop 57), narrowed: the reviewer's own sentences, in the three-holders book.

- **F1** 我 + a use verb with no owner word: a refusal (用不着), an inability (背不动), a barter (拿…换你的…) or a choice
  (挑那只…, 别的不要) is no use of the thing by the speaker.
- **F5** surname + address word: the surname starts a word (非常老 is no 常 + 老), and the card's elder called by the
  card's own surname (小军的爹高叔) is not the card.
- **F2** 如今/同时 (a time, not a comparison word) and 一般 (usually) frame no comparison.
- **F3** 看着/望着/盯着/瞅着 and 发现/晓得/觉出 before a name: the one watched acts, not the watcher.
"""

from __future__ import annotations

from typing import Any

from continuity_helpers import findings, three_holders
from lw_storyrepo.continuity import World, told_of

PLACE = "灯塔"


def _held(body: str) -> list[str]:
    return [f.message for f in three_holders(body, PLACE) if f.subject is not None and f.subject.field == "持有"]


def _book(body: str, spec: dict[str, tuple[list[str], str]]) -> list[str]:
    cards: dict[str, dict[str, Any]] = {n: {"姓名": n, "状态": "在世", "位置": PLACE, "持有": h} for n, (h, _g) in spec.items()}
    texts = {n: f"{n}在灯塔。" for n in cards}
    gender = {n: g for n, (_h, g) in spec.items()}
    items = {x for card in cards.values() for x in card["持有"]}
    world = World(cards, {n: n for n in cards}, {PLACE}, items, (), None, {}, gender, told=told_of(texts, cards))
    return [f.message for f in findings(body, world, "林满", "1931年9月2日", list(cards), items=items)
            if f.subject is not None and f.subject.field == "持有"]


def test_f1_a_refusal_an_inability_a_barter_or_a_choice_in_someone_s_words_is_no_use() -> None:
    for body in ("“我用不着老周的煤油灯。”苏禾说。", "“我背不动老周的煤油灯。”苏禾说。",
                 "“我拿这块怀表换你的铜望远镜，行不行？”苏禾对阿满说。", "“我挑那只秒表，别的不要。”老周说。"):
        assert _held(body) == [], body


def test_f1_the_speaker_s_use_is_still_read() -> None:
    found = _held("“我拿了老周的煤油灯。”苏禾说。")
    assert any(m.startswith("苏禾") and "煤油灯" in m for m in found), found


def test_f5_a_surname_inside_a_word_is_nobody() -> None:
    book = {"林满": (["铜望远镜"], "她"), "常顺": (["煤油灯"], "他"), "苏禾": (["秒表"], "她")}
    assert _book("那人看上去非常老，拿起秒表掐了一下。", book) == []
    assert any(m.startswith("常顺") and "秒表" in m for m in _book("常叔拿起秒表掐了一下。", book))


def test_f5_the_card_s_own_father_by_its_surname_is_not_the_card() -> None:
    book = {"林满": (["铜望远镜"], "她"), "高小军": (["煤油灯"], "他"), "苏禾": (["秒表"], "她")}
    assert _book("小军的爹高叔拿起秒表掐了一下。", book) == []
    assert _book("林满管小军的爹叫高叔。高叔拿起秒表掐了一下。", book) == []
    assert _book("高叔是小军他爹。高叔拿起秒表掐了一下。", book) == []
    assert any(m.startswith("高小军") and "秒表" in m for m in _book("高叔拿起秒表掐了一下。", book))  # no parent told


def test_f2_now_and_usually_are_no_comparison() -> None:
    found = _held("如今阿满拿着秒表一般不离手。")
    assert any(m.startswith("阿满") and "秒表" in m for m in found), found


def test_f3_the_one_watched_acts_not_the_watcher() -> None:
    for body in ("阿满看着老周拿起秒表掐了一下。", "阿满望着老周拿起秒表掐了一下。", "阿满发现苏禾拿着秒表。",
                 "阿满晓得苏禾拿着秒表。", "阿满觉出苏禾拿起秒表掐了一下。"):
        found = _held(body)
        assert not any(m.startswith("阿满") for m in found), (body, found)
    found = _held("阿满看着老周拿起秒表掐了一下。")
    assert any(m.startswith("老周") and "秒表" in m for m in found), found
