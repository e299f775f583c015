"""Holdings, H15's round (issue 30, stop 61): a 他/她 whose antecedent is the point of view's called form of a card.

- **A pronoun carries the lead of the sentence before.** The point of view's own thing in a 他's hands after a paragraph
  whose last sentence opens on no name may be the point of view's own use (H4). A last sentence that opens on a pronoun
  (雷伯摇摇头。他把缆绳盘好…) now carries the lead of the sentence before it, so the 他 after it is 雷伯, not the point
  of view.
- **A pronoun points back to the cards' address form.** H14 made the form the cards quote for the point of view
  (桂小满叫他“雷伯”, 叫他“瘸叔”) a name of the 持有 readers, but a pronoun still could not stand for it: the world's
  :attr:`~lw_storyrepo.continuity.World.indirect` words are "a mention, never a pronoun's antecedent" (meant for kin
  words like 娘亲), and the called forms are among them. So ``雷伯在船头收缆绳。⏎他从舱里摸出那只…望远镜`` named nobody
  to the 持有 readers. Now, **for the 持有 readers only**, the forms :func:`lw_storyrepo.continuity._called_unread`
  keeps (with fh14's guards: no bare title or kin word) are antecedents; the other fields' readers are unchanged.

No reading: a pronoun when the called form was said only in someone's quoted words; the card's own thing; a pronoun with
two people of its gender named before it (no guess); a bare title the cards quote (师傅) as antecedent.

Written in a ferry landing of our own (not the labelled drafts' words): 桂小满 (a girl) tells it; 雷有福 (雷伯 / 瘸叔 to
her) holds a 缆绳钩, 庞守财 (庞会计) a 望远镜, 严德顺 (师傅 to her) a 算盘.
"""

from __future__ import annotations

from pathlib import Path

from story_cli import HeldCard, held_messages

WORLD = "一九五八年夏，柳湾渡口。渡船、码头、售票棚、货栈都在柳湾，算一处地方。\n"
CARDS = {
    "桂小满": (["小满"], "十六岁，渡口卖票的，女的。", "雷有福看着她长大。", "票夹"),
    "雷有福": (["老雷", "雷艄公"], "五十五岁，渡船的艄公，腿有点瘸。", "桂小满叫他“雷伯”，背地里也叫他“瘸叔”。", "缆绳钩"),
    "庞守财": (["老庞"], "四十岁，渡口的会计。望远镜是黄铜壳的。", "桂小满叫他“庞会计”。", "望远镜"),
    "严德顺": (["老严"], "六十岁，货栈的老把式。", "桂小满叫他“师傅”。", "算盘"),
}


def _held(tmp_path: Path, body: str, cards: dict[str, HeldCard] = CARDS) -> list[str]:
    """The 持有 messages of ``lw story check`` on ``body``, a chapter of the landing told by 桂小满, everyone there."""
    return held_messages(tmp_path / "柳湾", WORLD, "柳湾", cards, "渡口", "一九五八年七月三日", "桂小满在渡口卖票", body)


def _by(found: list[str], who: str, thing: str) -> bool:
    return any(m.startswith(who) and f"「{thing}」" in m for m in found)


def test_a_pronoun_after_the_cards_address_form_is_that_card(tmp_path: Path) -> None:
    body = ("太阳偏西了。雷伯在船头收缆绳，回头朝小满喊了一嗓子。\n\n"
            "他从舱板底下摸出那只黄铜壳的望远镜，朝对岸瞅了半天。")
    assert _by(_held(tmp_path, body), "雷有福", "望远镜"), body


def test_a_nickname_the_cards_quote_is_read_the_same(tmp_path: Path) -> None:
    # held out per word: 瘸叔 holds no surname and no character of the card's name
    body = ("太阳偏西了。瘸叔一颠一颠地上了跳板，蹲在船尾抽烟。\n\n"
            "他抽完烟，掏出那只黄铜壳的望远镜看了看对岸。")
    assert _by(_held(tmp_path, body), "雷有福", "望远镜"), body


def test_no_reading_of_a_form_said_only_in_quoted_words(tmp_path: Path) -> None:
    body = ("太阳偏西了。庞会计的婆娘在岸上喊：“雷伯回来没有？”\n\n"
            "他从舱板底下摸出那只黄铜壳的望远镜，朝对岸瞅了半天。")
    assert not _by(_held(tmp_path, body), "雷有福", "望远镜")


def test_no_reading_of_the_cards_own_thing_or_a_bare_title(tmp_path: Path) -> None:
    own = "太阳偏西了。雷伯在船头站了一会儿。\n\n他从舱板底下摸出缆绳钩，把船拢到码头边上。"
    assert _held(tmp_path / "own", own) == []
    # 师傅 is a title anyone is called by: no antecedent of the 持有 readers (fh14's guard)
    title = "太阳偏西了。师傅在货栈门口坐着。\n\n他从怀里掏出那只黄铜壳的望远镜看了看。"
    assert not _by(_held(tmp_path / "title", title), "严德顺", "望远镜")


def test_no_guess_between_two_men_named_before(tmp_path: Path) -> None:
    # the last sentence opens on no one (雷伯和老严… would be its subject's: the existing reading, not a guess)
    body = ("太阳偏西了，码头上只剩雷伯和老严两个人。\n\n"
            "他从怀里掏出那只黄铜壳的望远镜，朝对岸瞅了半天。")
    found = _held(tmp_path, body)
    assert not _by(found, "雷有福", "望远镜") and not _by(found, "严德顺", "望远镜"), found


# the same landing told by a boy: the point of view's own thing, a 他 that might be him (H4's guard)
HIS = {**CARDS, "桂小满": (["小满"], "十六岁，渡口卖票的小伙子。", "雷有福看着他长大。", "票夹")}


def test_a_pronoun_led_sentence_carries_the_lead_before_it(tmp_path: Path) -> None:
    body = ("太阳偏西了。小满把钱数了两遍。雷伯摇摇头。他把缆绳盘好，说：“风大了。”\n\n"
            "他掏出那只旧牛皮票夹翻了翻：“今天就到这儿。”")
    assert _by(_held(tmp_path, body, HIS), "雷有福", "票夹"), body


def test_no_reading_where_no_name_leads_before_the_pronoun(tmp_path: Path) -> None:
    # H4's own silence kept: the sentence before the pronoun's opens on no one
    body = ("太阳偏西了。雷伯早回家了。江上起了风，他把缆绳盘好。\n\n"
            "他掏出那只旧牛皮票夹翻了翻。")
    assert _held(tmp_path, body, HIS) == []
