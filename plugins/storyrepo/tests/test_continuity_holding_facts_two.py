"""Holdings as facts, second round (issue 30, H3 at stop 52): whose hands a held thing is in.

1. A pronoun after a named one whose gender no card tells is not the point of view's: the pronoun does not rule the
   named one out, so the point of view (whose gender is known) is no likelier and nobody is guessed — the general
   shape of stop 52's false 持有 alarms (another's glasses, fan, amulet put in the hero's hands).
2. In someone's words, 我 using a thing an owner word names (我拿X那只…, 我用我那把…: 拿/用 + the thing as the
   instrument of an act) is the speaker using it: the speaker's card must hold it.

Written in genres and periods of our own (a sect, a starship, a coal barge, a county newsroom), not the labelled drafts'
words: sentences that must fire and near-misses that must not.
"""

from __future__ import annotations

from typing import Any

import continuity_helpers
from lw_storyrepo.continuity import World, told_of

CARDS: dict[str, dict[str, Any]] = {
    "周野": {"姓名": "周野", "别名": ["小周"], "状态": "在世", "位置": "驳船", "持有": ["罗盘"]},
    "韩松": {"姓名": "韩松", "别名": ["老韩", "韩舵工"], "状态": "在世", "位置": "驳船", "持有": ["烟斗", "铁算盘"]},
    "沈砚": {"姓名": "沈砚", "别名": ["沈师兄"], "状态": "在世", "位置": "驳船", "持有": ["青铜酒葫芦", "战术手电"]},
}
TEXTS = {
    "周野": "罗盘是祖上传下来的。",
    "韩松": "烟斗是海柳木的，斗身上箍着一道铜圈。铁算盘的横梁上有一道裂口。",
    "沈砚": "青铜酒葫芦是师父传下的，葫芦腰上刻着北斗七星。战术手电的尾盖磨得发白。",
}
KNOWN = {"周野": "他", "沈砚": "他"}
"""The genders the cards tell: 韩松's card tells none."""


def _held(body: str, gender: dict[str, str] = KNOWN, cards: dict[str, dict[str, Any]] = CARDS) -> list[str]:
    aliases = {n: n for n in cards} | {str(a): n for n, card in cards.items() for a in card.get("别名", [])}
    items = {str(x) for card in cards.values() for x in card.get("持有", [])}
    world = World(cards, dict(aliases), {"驳船"}, items, ("普通人",), None, {}, dict(gender),
                  told=told_of(TEXTS, cards))
    return [f.message for f in continuity_helpers.findings(body, world, "周野", "1998年3月2日", list(cards), items=items)
            if "的持有里没有" in f.message]


def test_a_pronoun_after_one_of_untold_gender_is_not_the_point_of_views() -> None:
    # the alarm's shape: the holder named, then a pronoun using the holder's thing — no guess between him and the viewpoint
    assert _held("老韩拿着货单进了舱，叫伙计把账本拿出来。账本摊在舱板上，他磕了磕烟斗，一页一页往下翻。") == []
    assert _held("“小周，过来。”老韩的声音从舵楼里传来。他一直靠在舵轮边上，叼着那只烟斗，看着他们卸煤。") == []
    assert _held("老韩坐在舱口，面前摊着一张货单。\n“小周，上头有话给你。”他拨了拨铁算盘，“你站着听。”") == []
    # near-misses that still fire: the viewpoint alone in the paragraph, or the named one of the other gender
    assert _held("周野一个人进了舱。舱门关上了，他叼着那只烟斗，一页一页往下翻。")
    assert _held("老韩拿着账本进了舱。舱门关上了，他叼着那只烟斗，一页一页往下翻。", {**KNOWN, "韩松": "她"})
    assert _held("周野拿着那只烟斗进了舱，一页一页往下翻。")
    # the point of view's own untold gender rules no one out: the one of the pronoun's gender named with them acts
    assert _held("沈砚提着马灯走在前头，周野跟在后面。\n他掏出那只烟斗，在舱板上磕了磕。", {"沈砚": "他"})


def test_in_someones_words_i_using_an_owners_thing_is_the_speaker() -> None:
    assert any("青铜酒葫芦" in m for m in _held("周野笑着说：“昨夜我拿沈师兄那只青铜酒葫芦打了半壶酒。”"))
    assert any("战术手电" in m for m in _held("“刚才我用沈砚的战术手电照过舱底了，没有水。”周野说。"))
    assert any("铁算盘" in m for m in _held("沈砚说：“我拿我那把铁算盘算过了，差三百两。”"))  # his, he says: the card says 韩松's
    # near-misses: the holder speaking of his own; a use denied; 我 as owner with no speaker the text names
    assert _held("韩松说：“我拿我那把铁算盘算过了，差三百两。”") == []
    assert _held("周野说：“我没拿沈师兄那只青铜酒葫芦。”") == []
    assert _held("“我拿我那把铁算盘算过了，差三百两。”") == []



def test_no_gender_told_on_the_named_one_or_the_point_of_view_is_no_guess() -> None:
    # R52: two candidates whose genders are unknown, the point of view's included — nobody is chosen
    assert _held("老韩提着马灯走在前头。\n他掏出那只罗盘，看了看方向。", {}) == []
    assert _held("老韩提着马灯走在前头，周野跟在后面。他掏出那只罗盘，看了看方向。", {}) == []
    # near-miss that still fires: the named one's gender told, the point of view's not
    assert _held("老韩提着马灯走在前头。\n他掏出那只罗盘，看了看方向。", {"韩松": "他"})


def test_in_someones_words_i_taking_an_owners_thing_with_no_act_is_silent() -> None:
    # R52: a plan, a fetch, a question, a return, and the owner's 的 on another noun — no use of the thing told
    assert _held("周野说：“我要拿沈师兄的青铜酒葫芦去打酒。”") == []
    assert _held("周野说：“我去拿沈师兄的青铜酒葫芦来。”") == []
    assert _held("周野说：“我拿沈师兄的青铜酒葫芦干什么？”") == []
    assert _held("周野说：“我拿沈师兄的青铜酒葫芦还给他了。”") == []
    assert _held("周野说：“我用沈师兄的法子看了看那只青铜酒葫芦。”") == []
    # near-misses that still fire: the act done, with a time word before the verb and the thing's looks after the owner
    assert _held("周野说：“我后来拿沈师兄的青铜酒葫芦打了半壶酒。”")
    assert _held("周野说：“我拿沈师兄那只刻着北斗的青铜酒葫芦打了半壶酒。”")


def test_the_guards_of_the_speakers_use_and_the_pronoun_each_hold_a_near_miss() -> None:
    """R52: each guard has a sentence that goes wrong without it."""
    # a place word after the speaker's length (我在屋里用…) is no place told of a name: 我 is the speaker
    assert _held("“我在屋里用沈砚的战术手电照过舱底了，没有水。”周野说。")
    # 我 as the owner: a speaker the turn-taking guessed (沈砚) will not do; another's name as the owner: it will (周野)
    assert _held("沈砚问：“算过了吗？”\n周野说：“还没有。”\n“我拿我那把铁算盘算过了，差三百两。”") == []
    assert _held("沈砚问：“酒呢？”\n周野说：“打了。”\n沈砚说：“打了多少？”\n“我拿沈师兄那只青铜酒葫芦打了半壶酒。”")
    # the point of view's untold gender alone makes no doubt: the one of the pronoun's gender acts, whatever the lead
    assert _held("周野跟在后面，沈砚提着马灯走在前头。\n他掏出那只烟斗，在舱板上磕了磕。", {"沈砚": "他"})
