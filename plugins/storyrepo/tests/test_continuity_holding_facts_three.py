"""Holdings as facts, third round (issue 30, H4 at stop 53): another's thing put in the wrong hands — false alarms first.

1. A post one card holds (its 境界: 护士长, 大副, 镖头) names that card's person in prose; said after a surname that is
   not theirs (孙护士长, 陈大副) it names another man of the post, or one who held it once — nobody the cards tell
   apart, so no one's hands: silent. The post alone, or after the holder's own surname, still names the holder.

Written in genres and periods of our own (a county hospital, a tea clipper, an escort agency), not the labelled drafts'
words: sentences that must fire and near-misses that must not.
"""

from __future__ import annotations

from typing import Any

import continuity_helpers
from lw_storyrepo.continuity import World, told_of

CARDS: dict[str, dict[str, Any]] = {
    "林晓": {"姓名": "林晓", "别名": ["小林"], "状态": "在世", "位置": "县医院", "境界": "实习生", "持有": ["听诊器"]},
    "周梅": {"姓名": "周梅", "别名": ["周护士长", "护士长"], "状态": "在世", "位置": "县医院", "境界": "护士长",
           "持有": ["药柜钥匙"]},
    "韩定远": {"姓名": "韩定远", "别名": ["韩大副", "大副"], "状态": "在世", "位置": "县医院", "境界": "大副",
            "持有": ["黄铜六分仪"]},
    "顾长风": {"姓名": "顾长风", "别名": ["顾镖头", "镖头"], "状态": "在世", "位置": "县医院", "境界": "镖头",
            "持有": ["乌木镖旗"]},
}
TEXTS = {
    "林晓": "听诊器是毕业时老师送的，胶管上缠着一圈白胶布。",
    "周梅": "药柜钥匙拴在她腰间，铜的。",
    "韩定远": "黄铜六分仪是船东给的。",
    "顾长风": "乌木镖旗是镖局的旗。",
}
KNOWN = {"林晓": "她", "周梅": "她", "韩定远": "他", "顾长风": "他"}


def _held(body: str) -> list[str]:
    aliases = {n: n for n in CARDS} | {str(a): n for n, card in CARDS.items() for a in card.get("别名", [])}
    items = {str(x) for card in CARDS.values() for x in card.get("持有", [])}
    world = World(CARDS, dict(aliases), {"县医院"}, items, ("实习生", "护士长", "大副", "镖头"), None, {}, dict(KNOWN),
                  told=told_of(TEXTS, CARDS))
    return [f.message for f in continuity_helpers.findings(body, world, "林晓", "1983年4月2日", list(CARDS), items=items)
            if "的持有里没有" in f.message]


def test_a_post_after_another_surname_is_not_the_posts_holder() -> None:
    # the alarm's shape: another surname before the post one card holds — another man of the post, no one's hands
    assert _held("交班的时候，孙护士长从抽屉里取出那只听诊器，挂在脖子上。") == []
    assert _held("风停了，陈大副拔出乌木镖旗，插在船头。") == []
    assert _held("押车的王镖头举起那架黄铜六分仪，对着太阳量了量。") == []
    # the post alone, or after the holder's own surname: the holder, who does not hold these things — still fires
    assert any("周梅" in m and "听诊器" in m for m in _held("护士长从抽屉里取出那只听诊器，挂在脖子上。"))
    assert any("韩定远" in m and "乌木镖旗" in m for m in _held("风停了，韩大副拔出乌木镖旗，插在船头。"))
    assert any("顾长风" in m and "黄铜六分仪" in m for m in _held("押车的镖头举起那架黄铜六分仪，对着太阳量了量。"))


def test_a_name_not_a_post_after_a_surname_like_character_still_fires() -> None:
    # near-misses: not a post (a name of the card), a word before the post that is no surname
    assert any("周梅" in m for m in _held("周梅拿起那只听诊器，挂在脖子上。"))
    assert any("周梅" in m for m in _held("老护士长从抽屉里取出那只听诊器，挂在脖子上。"))
