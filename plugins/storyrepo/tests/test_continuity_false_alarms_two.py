"""Continuity false alarms, second round (issue 30, F2 at stop 59): the dead, the absent and ranks told of a time
gone by.

Read as facts of writing from the development pool's false alarms, not the books' words:

- a rank said of a stretch of time named as gone (老贺那阵子还是个观测员: :data:`lw_storyrepo.ranks.GONE_SPANS`) or on a
  remembered day before it in its sentence (那天早上，鲁提领掀开马厩的帘子; 可是那天早上进马厩的鲁提领:
  :data:`lw_storyrepo.ranks.THAT_DAY`) is the rank held then, not a claim on the card's now — in both rank readers;
- a day named by a loss (出事那天, 下葬那天, 落水那夜: :data:`lw_storyrepo.continuity.LOSS_DAY`) tells a time gone by: the
  dead acting, the absent speaking, the far in the scene on such a line are a remembered scene.

Written here in a book none of the sets use: a ferry crossing on the 嘉陵江 in 1931, with a ladder of its own.
"""

from __future__ import annotations

from typing import Any

from lw_storyrepo.continuity import World, places_inside, told_of
from lw_storyrepo.ranks import ladders_of

import continuity_helpers

PLACES = {"老鹳渡", "重庆"}
LADDER = "## 力量体系\n学徒 ＜ 船工 ＜ 舵手 ＜ 船老大\n"
CARDS: dict[str, dict[str, Any]] = {
    "陈水生": {"姓名": "陈水生", "状态": "在世", "位置": "老鹳渡", "境界": "学徒"},
    "龚满仓": {"姓名": "龚满仓", "状态": "在世", "位置": "老鹳渡", "境界": "舵手"},
    "石大桥": {"姓名": "石大桥", "状态": "在世", "位置": "老鹳渡", "境界": "船老大"},
    "廖青山": {"姓名": "廖青山", "状态": "已死", "位置": "老鹳渡"},
    "罗二喜": {"姓名": "罗二喜", "状态": "在世", "位置": "重庆", "境界": "船工"},
}
ALIASES = {**{n: n for n in CARDS}, "老龚": "龚满仓", "水生": "陈水生", "石老大": "石大桥", "廖师傅": "廖青山",
           "罗二": "罗二喜"}
GENDER = {n: "他" for n in CARDS}


def findings(body: str, present: list[str] | None = None) -> list[str]:
    """The continuity findings of ``body`` told by 陈水生 on 1931年6月3日, with ``present`` in the scene (all the living of
    the crossing by default)."""
    ranks = [str(c["境界"]) for c in CARDS.values() if c.get("境界")]
    world = World(CARDS, dict(ALIASES), PLACES, set(), tuple(LADDER.split("\n")[1].split(" ＜ ")), None,
                  places_inside("", PLACES), GENDER, ladders=ladders_of(LADDER, ranks), told=told_of({}, CARDS))
    scene = ["陈水生", "龚满仓", "石大桥"] if present is None else present
    return [f.message.split("；答")[0] for f in continuity_helpers.findings(body, world, "陈水生", "1931年6月3日", scene,
                                                                          changes=[])]


def about(messages: list[str], who: str) -> list[str]:
    return [m for m in messages if m.startswith(f"{who} ")]


# --- a rank of a time gone by ------------------------------------------------------------------------------------

def test_a_rank_said_now_below_the_card_fires() -> None:
    assert about(findings("石老大把缆绳一甩：“这船老龚掌不了，老龚不过是个船工。”"), "龚满仓")
    assert about(findings("老龚还是个船工，掌不得舵。"), "龚满仓")


def test_a_rank_of_a_stretch_named_as_gone_is_held_then() -> None:
    assert not about(findings("“那是老廖的老账了。”石老大说，“老龚那阵子还是个船工，哪管得了账。”"), "龚满仓")
    assert not about(findings("老龚那些年还是个船工，天天在滩上拉纤。"), "龚满仓")


def test_a_rank_on_a_remembered_day_is_held_then() -> None:
    assert not about(findings("那天早上，龚船工掀开舱门的草帘子，一身的水。"), "龚满仓")
    assert not about(findings("可是那天夜里守在跳板边的龚船工，一身的水。"), "龚满仓")
    # the day word alone: 那天井 is a courtyard, no day — the rank there is now
    assert about(findings("石老大指着那天井说，老龚不过是个船工。"), "龚满仓")


# --- a day named by a loss ---------------------------------------------------------------------------------------

def test_the_dead_acting_in_the_scene_fires() -> None:
    assert about(findings("雾还没散。廖师傅推开舱门走了出来，蹲在船头抽烟。"), "廖青山")


def test_the_dead_acting_on_a_day_named_by_a_loss_is_a_remembered_scene() -> None:
    assert not about(findings("廖师傅下葬那天，也是这样的雾。是老龚带着大伙儿抬的，廖师傅走到船头那回，谁也没拦住。"),
                     "廖青山")
    assert not about(findings("廖师傅落水那夜，廖师傅推开舱门走了出去，再没回来。"), "廖青山")


def test_the_absent_speaking_fires_and_on_a_day_named_by_a_loss_is_remembered() -> None:
    assert about(findings("罗二蹲在跳板上，一路都在骂娘：“这船谁掌的舵？”"), "罗二喜")
    assert not about(findings("码头出事那天罗二被抬回来，一路都在骂娘：“这船谁掌的舵？”"), "罗二喜")


def test_a_day_to_come_or_a_day_of_no_loss_stays_in_the_scene() -> None:
    # 开船那天 is no loss (a day of the trade, ahead as often as gone): the reading holds
    assert about(findings("开船那天，廖师傅推开舱门走了出来。"), "廖青山")


def test_the_day_the_dead_or_the_missing_went_is_gone() -> None:
    assert not about(findings("廖师傅走那夜，蹲在水生床跟前，说的最后一句话是：往后莫下滩。"), "廖青山")


# --- a remembered scene carried into the next paragraph -----------------------------------------------------------

def test_the_quote_after_a_paragraph_opening_a_remembered_day_is_said_then() -> None:
    assert not about(findings("水生削着篙头，手慢了下来。那天傍晚，廖师傅也是蹲在这个地方。\n\n“水生，莫怕水。”廖师傅说。"),
                     "廖青山")
    assert not about(findings("码头出事那天，是老龚带着大伙儿把人抬回来的。\n\n“一个就一个吧。”罗二说，“到了那边再找。”"),
                     "罗二喜")
    # a word for now inside a clause places the memory (蹲在水生现在蹲的地方), it does not end it
    assert not about(findings("那天傍晚，廖师傅就蹲在水生现在蹲的地方。\n\n“水生，莫怕水。”廖师傅说。"), "廖青山")


def test_without_the_remembered_day_or_back_to_now_the_voice_is_read() -> None:
    assert about(findings("水生削着篙头，手慢了下来。廖师傅的坟就在对岸。\n\n“水生，莫怕水。”廖师傅说。"), "廖青山")
    assert about(findings("水生削着篙头。那天傍晚，廖师傅也蹲在这里。如今船头只剩他一个。\n\n“水生，莫怕水。”廖师傅说。"),
                 "廖青山")
    # the remembered day inside someone's words is no scene opened: the quote after it is said now
    assert about(findings("石老大说：“那天傍晚，就是在这里。”\n\n“水生，莫怕水。”廖师傅说。"), "廖青山")
    # two paragraphs on, the scene is now again
    assert about(findings("那天傍晚，廖师傅也是蹲在这个地方。\n\n水生站起来。\n\n“水生，莫怕水。”廖师傅说。"), "廖青山")


# --- a call begun by taking up the receiver -----------------------------------------------------------------------

CALL = ("邮电所的柜台后面挂着一台摇把子机子。\n\n水生{took}，贴在耳朵上，沙沙地响。\n\n“喂？”\n\n“是我。”\n\n“哪个？”\n\n"
        "“这个月的工钱发齐了没有？”\n\n{between}“还有哪个，罗二！”罗二吼，“船到了没有？”")


def test_the_far_voice_after_the_receiver_is_taken_up_is_on_the_call() -> None:
    assert not about(findings(CALL.format(took="接过听筒", between="")), "罗二喜")
    assert not about(findings(CALL.format(took="一把抓起了电话", between="")), "罗二喜")


def test_the_far_voice_with_no_receiver_taken_or_after_it_is_put_down_is_in_the_scene() -> None:
    assert about(findings(CALL.format(took="站在柜台边上", between="")), "罗二喜")
    assert about(findings(CALL.format(took="接过听筒", between="水生把听筒放回去，转过身。\n\n")), "罗二喜")
    assert about(findings(CALL.format(took="拿起电话簿", between="")), "罗二喜")  # a book of numbers, no call
