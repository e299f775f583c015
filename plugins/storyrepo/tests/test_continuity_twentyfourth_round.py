"""The classes of false alarm the twenty-fourth round read (issue 30, C23 at stop 49), found on the development books
连续性-盲评二十四 (a salt well) and 二十五 (a county film team) and fixed as general readings, written here in other
genres — a sect, a city newsroom, a palace, a spaceship, a farm — with other words than the labelled drafts: three
sentences that raised the false alarm and must not, and two that must still fire, for each.

- a day counted in order (第二天下午才找到人) is when, not how long: it makes no place a journey away (14 of 二十五's 24);
- a quoted line's own punctuation is where it breaks, not words it asks for (“船要开了，莫回头” written 船要开了……莫回头,
  “那晚我要是……” written 那晚我要是——): on both books;
- a place or a body is named by a part of its own name: its kind of two characters or more after a name that tells it
  (水库 of 龙潭水库, 稽核所 of 盐务稽核所), when the book's own text says it alone and no other name the book knows ends
  so, or the name without a two-character kind (枫木 of 枫木大队): on both books;
- the dead in a clause opened on 以前/从前, or in what they did for a lifetime (用了一辈子的: a list after its colon is
  no voice of theirs), are not in the scene;
- a barred hand that is itself raised or put somewhere (手举得老高, 手举在胸前) handles nothing;
- a thing told by who left it, a word of its looks after the measure (师父留下的那块旧怀表), is no use of theirs;
- a 他 in someone's quoted words (“他手里提着一盏马灯”) is not the speaker: no guess who holds the thing.
"""

from __future__ import annotations

from typing import Any

from lw_storyrepo.checks import ERROR, WARN, CheckContext, contract_findings, dwellers_of
from lw_storyrepo.continuity import World, far_places, journeys
from lw_storyrepo.drafts import Draft
from lw_storyrepo.forbidden import forbidden_of
from lw_storyrepo.names import present

import continuity_helpers


def test_a_day_counted_in_order_is_no_journey() -> None:
    places = ["落霞谷", "青云宗", "滨江码头", "慈宁宫", "天剑宗", "栖霞山", "雁城", "滨江"]
    for sentence, place in (("师弟下山历练走散了，第三天傍晚才在落霞谷找到他。", "落霞谷"),
                            ("陈默在滨江码头摔了一跤，第二天一早才被人送回家。", "滨江码头"),
                            ("太后在慈宁宫病倒，第十二天才下得了床。", "慈宁宫")):
        assert place not in far_places([sentence], places), sentence
        assert place not in journeys([sentence], places), sentence
    assert "天剑宗" in far_places(["天剑宗在东海边上，离栖霞山要走三天。"], places)
    assert "雁城" in far_places(["雁城离滨江坐火车要一天。"], places)
    assert journeys(["天剑宗在东海边上，离栖霞山要走三天。"], places) == {"天剑宗": 3}


def test_a_quoted_lines_own_punctuation_is_where_it_breaks() -> None:
    assert present("师兄，快走，别回头", "他嘶声喊：“师兄……快走！别回头——”")
    assert present("氧气只剩三成。撤离", "舱内广播一字一顿：“氧气——只剩三成，撤离。”")
    assert present("我要是早点来……", "她攥着衣角：“我要是早点来——”")
    assert not present("师兄，快走", "“师兄留下，快别走。”")  # other words
    assert not present("我要是早点来……", "“我要是晚点来……”")


CARDS: dict[str, dict[str, Any]] = {
    "周岚": {"姓名": "周岚", "状态": "在世", "位置": "江城"},
    "陈默": {"姓名": "陈默", "状态": "在世", "位置": "江城"},
}
PLACES = {"江城", "红旗水库", "青禾大队", "海关缉私局", "南门老街"}
BOOK = "红旗水库在江城北边，水库上游是青禾大队。周岚跑海关缉私局的线，缉私局的人都认得她。南门老街在江城南边。"


def contract(line: str, body: str, places: set[str] = PLACES) -> list[tuple[str, str]]:
    aliases = {**{n: n for n in CARDS}, **{p: p for p in places}}
    world = World(CARDS, dict(aliases), places, set(), ("普通人",), None, {}, {})
    meta = {"设定变更": [], "推进承诺": [], "视角": "周岚"}
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), set(), world=world, people=set(CARDS),
                       dwellers=dwellers_of(CARDS), book_text=BOOK).for_draft(meta)
    return [(f.severity, f.message) for f in contract_findings({"合同": [line]}, Draft("A", meta, body, 5), ctx)
            if f.severity in (ERROR, WARN)]


def test_a_place_or_a_body_by_a_part_of_its_own_name() -> None:
    assert contract("周岚去红旗水库采访", "周岚到了水库，坝上风大得站不住人。") == []
    assert contract("周岚去海关缉私局交材料", "一早周岚就进了缉私局，把材料递进窗口。") == []
    assert contract("陈默去青禾大队送化肥", "拖拉机开到青禾，陈默把化肥卸在晒场边上。") == []
    assert contract("周岚去红旗水库采访", "周岚在报社改了一天稿子。") != []  # no part of it named
    # a tail the book's own text never says alone (老街 of 南门老街) is no name of the place
    assert contract("周岚去南门老街买菜", "周岚在家里择菜。老街的菜贵，她没去。") != []
    # another name the book knows ends with the same kind: 水库 tells neither
    assert contract("周岚去红旗水库采访", "周岚到了水库，坝上风大得站不住人。", PLACES | {"东风水库"}) != []


DEAD_CARDS: dict[str, dict[str, Any]] = {
    "林晚": {"姓名": "林晚", "状态": "在世", "位置": "青云宗"},
    "沈砚": {"姓名": "沈砚", "状态": "已死", "位置": "青云宗"},
}


def _continuity(cards: dict[str, dict[str, Any]], aliases: dict[str, str], body: str, *, bars: dict[str, Any] | None = None,
                cast: list[str] | None = None) -> list[str]:
    places = {"青云宗"}
    world = World(cards, dict(aliases), places, set(), ("普通人",), None, {}, {n: "他" for n in cards}, bars=bars or {})
    return [f.message for f in continuity_helpers.findings(body, world, "林晚", "1998年3月2日", cast or ["林晚"])]


def test_the_dead_in_a_clause_told_as_before() -> None:
    aliases = {"林晚": "林晚", "沈砚": "沈砚", "师尊": "沈砚"}

    def dead(body: str) -> list[str]:
        return [m for m in _continuity(DEAD_CARDS, aliases, body) if "已死" in m]
    assert dead("林晚走到洞口。以前她练到半夜就要等师尊，师尊不点头，不许回去歇；如今没人等她了。") == []
    assert dead("林晚推开石门。从前师尊站在崖边吐纳，她就在旁边磨墨。") == []
    # a list after the colon of a lifetime's things is no voice of theirs
    assert dead("林晚打开药箱。里头的东西都是师尊用了一辈子的：一杆铜秤，一只药碾，一本翻烂了的方子。") == []
    assert dead("林晚推开石门。师尊从蒲团上站起来，朝她招了招手。")
    assert dead("林晚收拾包袱。出发以前，师尊拍了拍她的肩膀。")  # 以前 after 出发: a moment of the scene


def test_a_barred_hand_raised_is_no_handling() -> None:
    cards: dict[str, dict[str, Any]] = {
        "林晚": {"姓名": "林晚", "状态": "在世", "位置": "青云宗"},
        "赵小满": {"姓名": "赵小满", "状态": "烫伤", "位置": "青云宗"},
    }
    aliases = {"林晚": "林晚", "赵小满": "赵小满", "小满": "赵小满"}
    text = "赵小满两只手在灶上烫伤了，缠满了纱布：手里什么都拿不得，提不得桶，端不得碗。"
    bars = forbidden_of(cards, {"赵小满": text}, "", aliases, {"青云宗"})
    assert bars["赵小满"].parts

    def hands(body: str) -> list[str]:
        return [m for m in _continuity(cards, aliases, body, bars=bars, cast=["林晚", "赵小满"]) if "烫伤" in m]
    assert hands("林晚进了院子。小满蹦起来，两只缠着纱布的手举得老高：“师姐回来啦！”") == []
    assert hands("林晚进了院子。小满跟在后头，两只手缠着布举在胸前，一路小跑。") == []
    assert hands("林晚进了院子。小满蹲在门槛上，两只手撑在膝盖上喘气。") == []
    assert hands("林晚进了院子。小满手里提着一桶水，晃晃悠悠地走过来。")
    assert hands("林晚进了院子。小满两只手端起一碗粥，递到她跟前。")
    # a handling verb before 得/在 still handles: only a part held somewhere is a posture (stop 49's outside read)
    assert hands("林晚进了院子。小满两只手端得稳稳的，一碗粥递到她跟前。")
    assert hands("林晚进了院子。小满手里拿得满满的，全是柴火。")
    assert hands("林晚进了院子。小满两只手背在身后，晃了过来。") == []


HOLDERS: dict[str, dict[str, Any]] = {
    "周岚": {"姓名": "周岚", "状态": "在世", "位置": "江城", "持有": ["怀表"]},
    "陈默": {"姓名": "陈默", "状态": "在世", "位置": "江城", "持有": ["钢笔"]},
}


def _held(body: str) -> list[str]:
    aliases = {n: n for n in HOLDERS}
    world = World(HOLDERS, dict(aliases), {"江城"}, {"怀表", "钢笔"}, ("普通人",), None, {}, {"周岚": "她", "陈默": "他"})
    return [f.message for f in continuity_helpers.findings(body, world, "周岚", "1998年3月2日", ["周岚", "陈默"],
                                                           items={"怀表", "钢笔"})
            if "怀表" in f.message]


def test_a_thing_told_by_who_left_it_with_its_looks_between() -> None:
    assert _held("周岚摸了摸口袋里陈默留下的那块旧怀表，表壳冰凉。") == []
    assert _held("周岚擦了擦陈默捡起的那块破怀表。") == []
    assert _held("周岚解开手帕，里面是陈默摔碎的那块旧怀表。") == []
    assert _held("陈默掏出那块怀表看了看时间。")
    assert _held("陈默握着那块旧怀表，一言不发。")


def test_a_pronoun_in_someones_words_is_not_the_speaker() -> None:
    assert _held("陈默吐了口烟，“他手里攥着一块怀表，我看得清清楚楚。”") == []
    assert _held("陈默压低声音：“他掏出一块怀表，看了三回。”") == []
    assert _held("“昨天夜里，”陈默说，“他握着一块怀表，在门口站了半天。”") == []
    assert _held("陈默点了根烟。他掏出那块怀表看了看。")
    assert _held("陈默说：“走吧。”他掏出那块怀表看了看。")
