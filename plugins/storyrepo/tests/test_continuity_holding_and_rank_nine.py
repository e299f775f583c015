"""Holdings, H10's round (issue 30, stop 57): who holds or uses a thing, three ways of writing the reader misread.

- **The one seen or known of acts, not the seer.** A name right after a verb of seeing or knowing (看见, 知道, 听说…:
  :data:`lw_storyrepo.continuity.SEES_A_CLAUSE`) leads a clause of its own: 阿满知道老周拿着秒表 is 老周's use, never
  阿满's. A remembering (想起老周拿着…) stays no act of now.
- **A surname and an address word are the one card of that surname.** 周叔, 周师傅, 周大叔 call the one card whose name
  has the surname 周 (:func:`lw_storyrepo.continuity.surname_addressed`), when no card's name or alias reads there;
  two cards of one surname name nobody, and a word of the other gender (周婶 of a man) names nobody.
- **我 in someone's words with more verbs, and with no owner word.** 我开着…, 我提着…, 我借你那根… (the verbs of
  :data:`lw_storyrepo.continuity.SPOKEN_USE_VERBS`) say the speaker used the thing; with no owner word at all, only a
  speaker the text names counts (the holder may be the one speaking), and a plan, a fetch, an order to another is no use.

Written in a lighthouse and harbour of our own (the holdings rounds' book of three and a book of our own), not the
labelled drafts' words.
"""

from __future__ import annotations

from typing import Any

from continuity_helpers import findings, three_holders
from lw_storyrepo.continuity import World, told_of

PLACE = "灯塔"


def _held(body: str) -> list[str]:
    return [f.message for f in three_holders(body, PLACE) if f.subject is not None and f.subject.field == "持有"]


def _surnamed(body: str, *, second_zhou: bool = False) -> list[str]:
    """The 持有 findings of ``body`` in a book of 林满 (铜望远镜), 周德山 (a man: 煤油灯) and 苏禾 (a woman: 秒表), all at
    the lighthouse; with ``second_zhou`` a second card of the surname 周 (周玉芬, a woman: 驿符)."""
    cards: dict[str, dict[str, Any]] = {
        "林满": {"姓名": "林满", "状态": "在世", "位置": PLACE, "持有": ["铜望远镜"]},
        "周德山": {"姓名": "周德山", "状态": "在世", "位置": PLACE, "持有": ["煤油灯"]},
        "苏禾": {"姓名": "苏禾", "状态": "在世", "位置": PLACE, "持有": ["秒表"]},
    }
    texts = {"林满": "林满守塔。", "周德山": "周德山是驿丞。", "苏禾": "苏禾教物理。"}
    gender = {"林满": "她", "周德山": "他", "苏禾": "她"}
    if second_zhou:
        cards["周玉芬"] = {"姓名": "周玉芬", "状态": "在世", "位置": PLACE, "持有": ["驿符"]}
        texts["周玉芬"], gender["周玉芬"] = "周玉芬管邮包。", "她"
    items = {str(x) for card in cards.values() for x in card.get("持有", [])}
    world = World(cards, {n: n for n in cards}, {PLACE}, items, (), None, {}, gender, told=told_of(texts, cards))
    return [f.message for f in findings(body, world, "林满", "1931年9月2日", list(cards), items=items)
            if f.subject is not None and f.subject.field == "持有"]


def test_the_one_seen_or_known_of_is_the_user_not_the_seer() -> None:
    for body in ("阿满知道老周拿着秒表。", "阿满看见老周拿起秒表按了一下。", "阿满听说老周拿着秒表在码头上转。",
                 "阿满一抬头，瞧见老周拿起秒表掐了一下。"):
        found = _held(body)
        assert any(m.startswith("老周") and "秒表" in m for m in found), (body, found)
        assert not any(m.startswith("阿满") for m in found), (body, found)


def test_a_seen_use_by_its_holder_or_a_remembered_one_stays_silent() -> None:
    assert _held("阿满看见苏禾拿起秒表掐了一下。") == []  # its holder
    assert _held("阿满知道老周提着煤油灯出去了。") == []
    assert _held("阿满想起老周拿着秒表站在码头上的样子。") == []  # remembered


def test_a_surname_and_an_address_word_are_the_one_card_of_the_surname() -> None:
    for body in ("周叔拿起秒表掐了一下。", "周师傅从兜里摸出秒表看了看。", "周大叔拿着秒表往码头走。",
                 "林满看见周叔拿起秒表掐了一下。"):
        found = _surnamed(body)
        assert any(m.startswith("周德山") and "秒表" in m for m in found), (body, found)
    assert any(m.startswith("苏禾") and "煤油灯" in m for m in _surnamed("苏大姐拿起煤油灯往外走。"))


def test_a_surname_form_of_its_holder_another_gender_or_two_cards_stays_silent() -> None:
    assert _surnamed("周叔拿起煤油灯往外走。") == []  # his own
    assert _surnamed("周婶拿起秒表掐了一下。") == []  # 婶 is no man's word: someone else
    assert _surnamed("周叔拿起秒表掐了一下。", second_zhou=True) == []  # two cards of 周: nobody told apart
    assert _surnamed("王叔拿起秒表掐了一下。") == []  # no card of 王: a walk-on


def test_i_in_someone_s_words_with_more_verbs_and_no_owner_word() -> None:
    for body, who, thing in (("“我开着秒表去场部拉了一车石头。”老周说。", "老周", "秒表"),
                             ("“我借你那只秒表，掐了两回。”老周对苏禾说。", "老周", "秒表"),
                             ("“我提着那盏煤油灯出去看了看。”苏禾说。", "苏禾", "煤油灯"),
                             ("“今早我拎着铜望远镜上了塔。”老周说。", "老周", "铜望远镜")):
        found = _held(body)
        assert any(m.startswith(who) and thing in m for m in found), (body, found)


def test_i_in_someone_s_words_its_holder_a_plan_or_another_s_act_stays_silent() -> None:
    assert _held("“我提着那盏煤油灯出去看了看。”老周说。") == []  # its holder speaking
    assert _held("“我要拿秒表去掐。”老周说。") == []  # a plan
    assert _held("“我叫他拿着秒表。”老周说。") == []  # another's act
    assert _held("“我去拿秒表来。”老周说。") == []  # a fetch
    assert _held("“我拿秒表掐了一下。”苏禾说。") == []
