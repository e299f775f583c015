"""The classes the thirteenth round read (issue 30, task C12: 持有 and 境界 on books nobody here wrote), tuned on
连续性-盲评十五 (a restaurant kitchen), 十四 (an opera troupe) and 十二/十三 and kept only where they caught on two books
or were a plain reading with no new alarm; written here in a bakery, other words than the labelled drafts: the wrong
sentence next to the right ones.

- a card naming a held thing in its two parts (后院一间仓库，钥匙是… for 仓库钥匙): its looks are told there;
- a thing brought out unnamed (掏出一样东西) and then said to be a held thing (——是… / 是…。): used by who brought it;
- a person's gender from the other names their card gives (禾妹儿 / 勇哥) when its text says both 他 and 她;
- a quote calling its listener by a character of their given name and a word of address (禾姐), the rank said as
  reached later in the quote, after the speaker's 他说: the listener's.
"""

from __future__ import annotations

from lw_storyrepo.checks import ERROR, WARN
from lw_storyrepo.continuity import World, told_of
from lw_storyrepo.kinship import alias_gender
from lw_storyrepo.ranks import ladders_of

import continuity_helpers

LADDER = "## 店规\n学徒 ＜ 揉面工 ＜ 烤炉工 ＜ 点心师\n"
CARDS = {
    "苏小禾": {"姓名": "苏小禾", "别名": ["禾妹儿", "苏二"], "状态": "在世", "位置": "面包房", "境界": "烤炉工",
            "持有": ["擀面杖"]},
    "方大勇": {"姓名": "方大勇", "别名": ["勇哥"], "状态": "在世", "位置": "面包房", "境界": "学徒", "持有": ["搪瓷饭盒"]},
    "钱有福": {"姓名": "钱有福", "状态": "在世", "位置": "面包房", "持有": ["仓库钥匙"]},
}
TEXTS = {
    "苏小禾": "擀面杖是她外婆留下的枣木擀面杖。她叫他“勇哥”，他叫她“禾姐”。",
    "方大勇": "搪瓷饭盒是白底红花的，盖上磕掉了一块瓷。",
    "钱有福": "后院有一间砖砌的仓库，钥匙是一把生了锈的长柄铁钥匙，拴着一截红绳。",
}
ALIASES = {"苏小禾": "苏小禾", "禾妹儿": "苏小禾", "苏二": "苏小禾", "方大勇": "方大勇", "勇哥": "方大勇",
           "钱有福": "钱有福", "老板": "钱有福"}
GENDER = {name: alias_gender(card.get("别名", [])) for name, card in CARDS.items()}


def findings(body: str) -> list[tuple[str, str]]:
    world = World(CARDS, dict(ALIASES), {"面包房"}, {"擀面杖", "搪瓷饭盒", "仓库钥匙"},
                  ("学徒", "揉面工", "烤炉工", "点心师"), None, {}, dict(GENDER),
                  ladders=ladders_of(LADDER, ["烤炉工", "学徒"]), told=told_of(TEXTS, CARDS))
    return [(f.severity, f.message)
            for f in continuity_helpers.findings(body, world, "苏小禾", "五月初五", ["苏小禾", "方大勇", "钱有福"])]


def about(body: str, field: str, severity: str = ERROR) -> list[str]:
    return [m for s, m in findings(body) if s == severity and field in m]


def test_a_card_naming_a_thing_in_two_parts_tells_its_looks() -> None:
    assert "长柄" in told_of(TEXTS, CARDS)["仓库钥匙"]
    assert about("方大勇从围裙兜里摸出一把生了锈的长柄铁钥匙，去开后院的门。", "仓库钥匙")
    assert not about("钱有福从腰上摸出一把生了锈的长柄铁钥匙，去开后院的门。", "持有")  # his own
    assert not about("方大勇从围裙兜里摸出一把钥匙，去开后院的门。", "持有")  # a key, any key


def test_a_thing_brought_out_unnamed_then_said_to_be_a_held_thing() -> None:
    assert about("方大勇从柜子底下掏出一样东西，搁在案板上——是老板那把生了锈的长柄铁钥匙。", "持有")
    assert about("方大勇从柜子底下掏出一样东西，搁在案板上。\n\n是老板那把生了锈的长柄铁钥匙。", "持有")
    assert not about("钱有福从柜子底下掏出一样东西，搁在案板上——是他那把生了锈的长柄铁钥匙。", "持有")
    assert not about("方大勇从柜子底下掏出一样东西，搁在案板上——是一袋面粉。", "持有")


def test_a_persons_gender_from_the_other_names_on_their_card() -> None:
    assert alias_gender(["禾妹儿", "苏二"]) == "她" and alias_gender(["勇哥"]) == "他"
    assert alias_gender(["小何"]) == "" and alias_gender(["禾妹儿", "勇哥"]) == ""
    body = "苏小禾把烤盘推进炉子。勇哥在的时候，她什么都不用管。说到底她跟方大勇一样，还是个学徒。"
    assert about(body, "境界")  # 她 is 苏小禾, the one woman named
    assert not about(body.replace("还是个学徒", "还是个烤炉工"), "境界")


def test_a_listener_called_by_a_character_of_her_given_name() -> None:
    assert about("方大勇凑过来：“禾姐，莫急。”他说，“你都上点心师了，还怕这一炉？”", "境界", WARN)
    assert not about("方大勇凑过来：“禾姐，莫急。”他说，“你都上烤炉工了，还怕这一炉？”", "境界", WARN)
    assert not about("方大勇凑过来：“禾姐，莫急。”他说，“等你上了点心师，可别忘了我。”", "境界", WARN)  # a wish
    assert not about("方大勇凑过来：“小姐，莫急。”他说，“你都上点心师了？”", "境界", WARN)  # 小姐 is anyone
