"""The classes the twelfth round fixed (issue 30: 位置, 状态, 时间 and the contract), found missed on several
development books (连续性-盲评八, 十, 十二, 十三, 十四), written here on a lighthouse island and its harbour town —
other words than the labelled drafts: the right sentence next to each wrong one.

- a far place opening a sentence and the place it lies in (补给站在北边的鹰嘴岛，…坐三天船) are both as far; a
  place it is only measured from (码头在县城东面十里) is not;
- the road from a place timed to the hour when the setting out says one (昨晚, 今天早上七点) and the narration
  gives the scene's clock (上午九点);
- a mute's words the narration calls a voice (他的声音从对讲机里传出来) are spoken, whatever else the paragraph
  writes;
- days counted down to an event the world dates (离开海只剩三天 when 开海 is ten days off);
- a weekday said today against the one the in-book time writes after its date, in a calendar no table counts
  (民国 years);
- a witness who saw today, near here, someone whose card puts them far (今天一早在码头上碰见老严了);
- a contract line that sends someone to a place (去卫生院看阿婆) is not met by the one living there reached only
  by phone or only missed: the contract asks the visit.
"""

from __future__ import annotations

from lw_storyrepo.checks import ERROR, WARN, CheckContext, contract_findings, dwellers_of
from lw_storyrepo.continuity import World, dated_events, far_places, journeys, places_inside
from lw_storyrepo.drafts import Draft

import continuity_helpers

CARDS = {
    "林舟": {"姓名": "林舟", "状态": "在世", "位置": "灯塔岛"},
    "老严": {"姓名": "老严", "状态": "在世", "位置": "鹰嘴岛"},
    "阿婆": {"姓名": "阿婆", "状态": "住院", "位置": "卫生院"},
}
ALIASES = {name: name for name in CARDS}
PLACES = {"灯塔岛", "鹰嘴岛", "补给站", "县城", "码头", "卫生院"}
LORE = "补给站在北边的鹰嘴岛，离灯塔岛要坐三天船。码头在县城东面十里，走路一个钟头。开海定在五月二十日，渔船一齐出港。"


def continuity(body: str, when: str = "1978年5月10日", lore: str = LORE) -> list[str]:
    names = dict(ALIASES)
    world = World(CARDS, names, PLACES, set(), ("普通人",), None, places_inside(lore, PLACES),
                  {"林舟": "他", "老严": "他", "阿婆": "她"})
    world.far, world.journey, world.dated = far_places([lore], PLACES), journeys([lore], PLACES), dated_events([lore])
    return [f.message for f in continuity_helpers.findings(body, world, "林舟", when, ["林舟", "老严"])]


def test_a_far_place_and_the_place_it_lies_in_are_as_far() -> None:
    away = journeys([LORE], PLACES)
    assert (away["补给站"], away["鹰嘴岛"]) == (3, 3) and "县城" not in away
    assert "县城" not in far_places([LORE], PLACES)  # the town the harbour is measured from
    late = "林舟在灯塔上擦镜片。老严推门进来，说：“我昨天才从鹰嘴岛动身。”"
    assert [m for m in continuity(late) if "路上的日子不够" in m]
    assert not [m for m in continuity(late.replace("昨天", "半个月前")) if "路上的日子不够" in m]


def test_the_road_timed_to_the_hour() -> None:
    lore = "省城离灯塔岛要坐六个钟头的车。"
    places = PLACES | {"省城"}
    assert journeys([lore], places)["省城"] == 0.25
    said = "老严推门进来，说：“我今天早上七点才从省城坐车出发。”"
    early = "上午九点，林舟在灯塔上擦镜片。\n\n" + said
    evening = "傍晚七点，林舟在灯塔上擦镜片。\n\n" + said

    def too_soon(body: str) -> list[str]:
        world_places = set(PLACES)
        PLACES.add("省城")
        try:
            return [m for m in continuity(body, lore=lore) if "路上的日子不够" in m]
        finally:
            PLACES.clear()
            PLACES.update(world_places)

    assert [m for m in too_soon(early) if "6个钟头" in m]
    assert too_soon(evening) == []
    assert too_soon(said) == []  # no clock for the scene: the day's end


def test_a_mute_voice_the_narration_calls_one() -> None:
    CARDS["老严"] = {"姓名": "老严", "状态": "失声", "位置": "灯塔岛"}
    try:
        heard = "“别下来，浪大。”老严的声音从对讲机里传出来，嘶嘶的，像铅笔在纸上刮。"
        assert [m for m in continuity(heard) if "说不了话" in m]
        written = "老严在纸上写：“别下来，浪大。”"
        assert not [m for m in continuity(written) if "说不了话" in m]
    finally:
        CARDS["老严"] = {"姓名": "老严", "状态": "在世", "位置": "鹰嘴岛"}


def test_days_counted_down_to_a_dated_event() -> None:
    lore = "五月二十日开海，渔船一齐出港。"
    assert dated_events([lore]) == {"开海": (5, 20)}
    assert [m for m in continuity("林舟数着日子：离开海只剩三天了。", lore=lore) if "书内时间" in m and "开海" in m]
    assert not [m for m in continuity("林舟数着日子：离开海还有十天。", lore=lore) if "开海" in m]
    assert not [m for m in continuity("林舟数着日子：离开海还有九天。", lore=lore) if "开海" in m]  # a day either way
    assert dated_events(["阿婆5月8日前出不了院。"]) == {}  # a bound, no event


def contract(line: str, body: str) -> list[tuple[str, str]]:
    aliases = {**ALIASES, **{p: p for p in PLACES}}
    world = World(CARDS, dict(aliases), PLACES, set(), ("普通人",), None, {}, {})
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), set(), world=world, people=set(CARDS),
                       dwellers=dwellers_of(CARDS)).for_draft({})
    return [(f.severity, f.message) for f in contract_findings({"合同": [line]}, Draft("A", {}, body, 5), ctx)
            if f.severity in (ERROR, WARN)]


def test_a_visit_asked_is_not_met_by_a_phone_call() -> None:
    line = "林舟去卫生院看阿婆"
    visited = "林舟推开门。阿婆靠在床头，冲他笑了笑。"
    assert contract(line, visited) == []
    called = "林舟本想坐船过去，浪太大。他拨通了电话。\n\n阿婆接了，声音很轻：“别来了。”"
    assert [m for s, m in contract(line, called) if s == WARN and "卫生院" in m]
    missed = "林舟守着灯，心里一直想阿婆。"
    assert [m for s, m in contract(line, missed) if s in (WARN, ERROR) and "卫生院" in m]
    assert contract("阿婆在卫生院等林舟", called) == []  # no visit asked: the one living there brings the place
    assert ERROR not in [s for s, _m in contract(line, called)]


def test_a_weekday_against_the_one_the_in_book_time_writes() -> None:
    when = "民国六十七年五月十日 星期三"
    assert [m for m in continuity("林舟翻开日志：今天礼拜五，该上油了。", when=when) if "书内时间" in m]
    assert not [m for m in continuity("林舟翻开日志：今天礼拜三，该上油了。", when=when) if "书内时间" in m]
    assert not [m for m in continuity("林舟翻开日志：明天礼拜四，该上油了。", when=when) if "书内时间" in m]
    # without the weekday written, 民国 still counts Gregorian years (the twenty-third round): 1978-05-10 was a Wednesday
    assert [m for m in continuity("林舟翻开日志：今天礼拜五，该上油了。", when="民国六十七年五月十日") if "书内时间" in m]
    assert not [m for m in continuity("林舟翻开日志：今天礼拜三，该上油了。", when="民国六十七年五月十日") if "书内时间" in m]


def test_a_witness_saw_the_far_one_here_today() -> None:
    seen = "林舟在灯塔上擦镜片。\n\n阿水跑上来：“我今天一早在码头上碰见老严了，背着个网兜！”"
    assert [m for m in continuity(seen) if "见到了老严" in m]
    by_boat = "林舟在灯塔上擦镜片。\n\n阿水跑上来：“我今天一早在鹰嘴岛碰见老严了，坐船去的。”"
    assert not [m for m in continuity(by_boat) if "见到了老严" in m]  # seen there, where he is
    long_ago = "林舟在灯塔上擦镜片。\n\n阿水说：“去年我在码头上碰见老严，他还年轻。”"
    assert not [m for m in continuity(long_ago) if "见到了老严" in m]
