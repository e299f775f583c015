"""The classes the eleventh round read (issue 30, task C10: 境界 and 持有 on books nobody here wrote), tuned on
连续性-盲评十四 (an opera troupe), 十二 (a farming family) and 十三 (a company) and kept only where they caught on
two books or more; written here in a silk-weaving workshop, other words than the labelled drafts: the wrong
sentence next to the right ones.

- a register entry with a field or two between the name and the rank (周芸，苏州人，学徒);
- a pronoun compared with someone and said to be the rank (她跟阿福一样还是个学徒): the pronoun's person;
- a quote calling its listener by name, then the rank said as reached (“芸姐，你都当上总匠了”): the listener's;
- a setting change lowering a rank, the prose telling the demotion as 降 before the new rank (降成了织工);
- a pronoun leading paragraphs that name nobody is carried back to the last paragraph naming someone;
- a held thing told by its owner and its kind (阿福那把梭子) or by the looks its holder's card gives it
  (一只两头包铜、发黄的梭子): the card's thing.
"""

from __future__ import annotations

from lw_storyrepo.checks import ERROR, WARN
from lw_storyrepo.continuity import World, told_of
from lw_storyrepo.ranks import ladders_of

import continuity_helpers

LADDER = "## 坊规\n学徒 ＜ 织工 ＜ 匠师 ＜ 总匠\n"
CARDS = {
    "周芸": {"姓名": "周芸", "状态": "在世", "位置": "绣坊", "境界": "匠师", "持有": ["铜顶针"]},
    "阿福": {"姓名": "阿福", "状态": "在世", "位置": "绣坊", "境界": "学徒", "持有": ["象牙梭"]},
    "钱掌柜": {"姓名": "钱掌柜", "状态": "在世", "位置": "绣坊", "持有": ["账簿"]},
}
TEXTS = {
    "周芸": "周芸的铜顶针是母亲给的。",
    "阿福": "象牙梭是师父传下来的，梭身发黄，两头包铜。",
    "钱掌柜": "账簿是蓝布封皮的，记着坊里的进出。",
}
ALIASES = {"周芸": "周芸", "芸姐": "周芸", "阿福": "阿福", "钱掌柜": "钱掌柜"}


def findings(body: str, changes: list[str] | None = None) -> list[tuple[str, str]]:
    world = World(CARDS, dict(ALIASES), {"绣坊"}, {"铜顶针", "象牙梭", "账簿"}, ("学徒", "织工", "匠师", "总匠"), None, {},
                  {"周芸": "她", "阿福": "他", "钱掌柜": "他"}, ladders=ladders_of(LADDER, ["匠师", "学徒"]),
                  told=told_of(TEXTS, CARDS))
    return [(f.severity, f.message)
            for f in continuity_helpers.findings(body, world, "周芸", "三月初三", ["周芸", "阿福"], changes=changes or [])]


def about(body: str, field: str, severity: str = ERROR, changes: list[str] | None = None) -> list[str]:
    return [m for s, m in findings(body, changes) if s == severity and field in m]


def test_a_register_entry_with_fields_before_the_rank() -> None:
    assert about("周芸翻开名册，一行行念下去：\n\n周芸，苏州人，学徒。\n\n阿福，湖州人，学徒。", "境界")
    assert not about("周芸翻开名册，一行行念下去：\n\n周芸，苏州人，匠师。\n\n阿福，湖州人，学徒。", "境界")
    assert not about("周芸翻开名册：周芸说起苏州的事，学徒们都笑了。", "境界")


def test_a_pronoun_compared_with_someone_is_the_one_ranked() -> None:
    assert about("周芸放下梭子。说到底，她跟阿福一样还是个学徒。", "境界")
    assert not about("周芸放下梭子。说到底，阿福跟她一样还是个学徒。", "境界")  # 阿福 is one
    assert not about("周芸放下梭子。当年，她跟阿福一样还是个学徒。", "境界")  # the past


def test_a_quote_calling_its_listener_then_their_rank_as_reached() -> None:
    assert about("阿福凑过来：“芸姐，你都是总匠了，还怕这点活？”", "境界", WARN)
    assert not about("阿福凑过来：“芸姐，你都是匠师了，还怕这点活？”", "境界", WARN)
    assert not about("阿福凑过来：“芸姐，等你当上总匠，可别忘了我。”", "境界", WARN)  # a wish, not reached


def test_a_demotion_told_by_its_verb_before_the_new_rank() -> None:
    change = ["周芸.境界=织工"]
    assert not about("钱掌柜当着全坊的面，把周芸从匠师降成了织工。", "境界", changes=change)
    assert not about("钱掌柜开口：“从今儿起，她挂织工。”匠师降织工，坊里没人敢吭声。", "境界", changes=change)
    assert about("钱掌柜当着全坊的面，夸了周芸几句。", "境界", changes=change)


def test_a_thing_told_by_its_owner_and_its_kind() -> None:
    assert about("周芸从抽屉里抽出阿福那把梭子，在灯下看了看。", "持有")
    assert not about("阿福从抽屉里抽出自己那把梭子，在灯下看了看。", "持有")
    assert not about("周芸从抽屉里抽出阿福那把剪子，在灯下看了看。", "持有")  # not his thing's kind


def test_a_thing_told_by_the_looks_its_holders_card_gives() -> None:
    assert about("周芸拿起一只两头包铜、梭身发黄的梭子，穿上线。", "持有")
    assert not about("周芸拿起一只发黄的梭子，穿上线。", "持有")  # one word of its looks: any shuttle
    assert not about("阿福拿起一只两头包铜、梭身发黄的梭子，穿上线。", "持有")  # his own


def test_a_pronoun_carried_through_paragraphs_naming_nobody() -> None:
    body = "天黑了，周芸锁上坊门。\n\n巷子里很静，她走一步，灯笼晃一下。\n\n她从袖里摸出阿福那把梭子，对着月光看。"
    assert about(body, "持有")
    his = "天黑了，阿福锁上坊门。\n\n巷子里很静，他走一步，灯笼晃一下。\n\n他从袖里摸出那把两头包铜、梭身发黄的梭子。"
    assert not about(his, "持有")  # his own, carried back to him
    assert about(his.replace("阿福锁上坊门", "周芸锁上坊门").replace("他", "她"), "持有")
