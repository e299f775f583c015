"""The twenty-ninth continuity round (issue 30, task T1 at stop 51): the book's calendar as facts, not forms.

Written here in books none of the sets use (a 1958 logging camp in the 大兴安岭, a 光绪 tea house, a 同治 river
town): the wrong sentence next to the right one and a near miss.

- a coming said on a day ahead by its calendar word (:data:`AHEAD_DAYS`: 明天 1, 后天 2, 大后天 3) is read as a
  count of days like 再过三天, against the day the world or the comer's card dates their coming, however that
  sentence words the event (跟检查团一起进山: the one day the book gives the comer);
- months or years said passed since someone dead or lost went (老葛走了，到今天整整五个月了), against the one day
  their card gives them in the in-book year (the old way's day read whole after 初, a festival's name after it read
  past: 七月初七七夕那夜);
- the day of the month said for today or a day ahead by the old way's bare day, a 了 before its clause ends
  (明日就是初十了): the in-book day plus the day word must be that day.
"""

from __future__ import annotations

from typing import Any

from lw_storyrepo.continuity import (AHEAD_DAYS, COME_IN, World, dated_events, dated_subjects,
                                     places_inside)

import continuity_helpers

CARDS: dict[str, dict[str, Any]] = {
    "郝春林": {"姓名": "郝春林", "状态": "在世", "位置": "白桦沟林场", "持有": ["弯把锯"]},
    "秦振邦": {"姓名": "秦振邦", "状态": "在世", "位置": "加格达奇", "持有": ["公文包"]},
    "葛长山": {"姓名": "葛长山", "状态": "失踪", "位置": "不明"},
}
TEXTS = {"郝春林": "二十六岁，林场的油锯手。",
         "秦振邦": "林业局的党委书记，人称秦书记，十二月十二日跟检查团一起进山查冬运，这之前在加格达奇。",
         "葛长山": "林场的老把头，一九五八年八月十五日夜里一个人进山找参，再没回来。"}
LORE = "一九五八年冬天，大兴安岭的白桦沟林场，山里只通运材的小火车。"
ALIASES = {**{name: name for name in CARDS}, "秦书记": "秦振邦", "老秦": "秦振邦", "小郝": "郝春林", "老葛": "葛长山"}
PLACES = {"白桦沟林场", "加格达奇"}
NOW = "一九五八年十二月五日 星期五"


def continuity(body: str, now: str = NOW) -> list[tuple[int, str]]:
    names = dict(ALIASES)
    world = World(CARDS, names, PLACES, {"弯把锯", "公文包"}, ("普通人",), None,
                  places_inside(LORE, PLACES), {"郝春林": "他", "秦振邦": "他"},
                  dated=dated_events([LORE, *TEXTS.values()]), dated_by=dated_subjects(LORE, TEXTS))
    return [(f.line, f.message) for f in continuity_helpers.findings(body, world, "郝春林", now)]


def timed(found: list[tuple[int, str]]) -> list[tuple[int, str]]:
    return [(line, m) for line, m in found if "书内时间" in m]


def test_the_calendar_words_for_days_ahead() -> None:
    assert (AHEAD_DAYS["明天"], AHEAD_DAYS["后天"], AHEAD_DAYS["大后天"]) == (1, 2, 3)
    m = COME_IN.search("大后天，秦书记就到了")
    assert m is not None and m.group("word") == "大后天" and m.group("who") == "秦书记"


def test_a_coming_on_a_day_ahead_against_the_day_the_card_gives_the_comer() -> None:
    # the card: 十二月十二日跟检查团一起进山 — seven days after the in-book day
    assert timed(continuity("郝春林把油锯擦了又擦：“后天秦书记就到了，锯链得换新的。”"))
    assert timed(continuity("队长在饭堂里喊：“明天秦书记就来了，都把铺收拾利索！”"))
    assert timed(continuity("大后天，秦书记就到了，小火车得先把道清出来。"))
    # near misses: the right count; a coming the book dates for nobody
    assert not timed(continuity("郝春林把油锯擦了又擦：“还有七天秦书记就到了，锯链得换新的。”"))
    assert not timed(continuity("“后天小郝就回来了，锯链等他来换。”"))
    # a day the book gives the comer that is gone by is no coming (老葛's card: 八月十五日夜里进山)
    assert not timed(continuity("“明天老葛就回来了。”郝春林说梦话似的。"))
    # a day word never names a day of the coming year: an event gone by this year is not its coming
    assert not timed(continuity("“明天老葛就进山找参。”"))
    # R51 5: nor is it a coming a count of days could mean next year (再过五天 to 八月十五 is no 253 days)
    assert not timed(continuity("“再过五天老葛就回来了。”郝春林说梦话似的。"))


def test_the_old_ways_bare_day_before_a_closing_le() -> None:
    assert timed(continuity("掌柜的拨着算盘：“明日就是初十了，茶钱还没收齐。”", now="光绪六年腊月初八"))
    assert timed(continuity("“后天就是二十了，船还不来。”", now="同治三年八月十六"))
    assert timed(continuity("“今儿就十五了，月饼还没做。”", now="同治三年八月十三"))
    # near misses: the right day; a year of age is no day
    assert not timed(continuity("掌柜的拨着算盘：“明日就是初九了，茶钱还没收齐。”", now="光绪六年腊月初八"))
    assert not timed(continuity("“他今年就二十了，该说亲了。”", now="同治三年八月十六"))


def test_months_since_a_lost_one_went_against_the_day_the_card_gives() -> None:
    # the card: 一九五八年八月十五日夜里…再没回来 — three months and a half before the in-book day
    assert timed(continuity("老葛走了，到今天整整五个月了，谁也不提他。"))
    assert timed(continuity("“老葛不见了也快一年了。”郝春林说。"))
    assert timed(continuity("葛长山失踪都两年多了，他那把斧子还挂在墙上。"))
    # near misses: the right count; someone neither dead nor lost
    assert not timed(continuity("老葛走了，到今天整整四个月了，谁也不提他。"))
    assert not timed(continuity("小郝走了两个月了，锯还在这儿。"))


def test_the_old_ways_day_after_chu_and_before_a_festival_is_read_whole() -> None:
    assert dated_events(["三月初八一早，被人发现倒在井边"]) == {"一早": (3, 8)}
    assert dated_events(["七月初七七夕那夜从庙里不见了"]) == {"那夜从庙里不见了": (7, 7)}


def test_a_report_is_said_where_it_was_read_and_a_day_word_is_a_whole_word() -> None:
    # R51 4: 上/里说 after a written source is a report; 马上说 and 心里说 are no report
    assert not timed(continuity("报上说，十二月三日晚上，秦书记来过白桦沟林场。"))
    assert timed(continuity("郝春林心里说，十二月三日晚上，秦书记来过白桦沟林场。"))
    assert timed(continuity("郝春林马上说，十二月三日晚上，秦书记来过白桦沟林场。"))
    # 后天 inside 以后天天 and in 后天的努力 (acquired, not the day after tomorrow) is no day ahead
    assert COME_IN.search("以后天天秦书记就来了。") is None
    assert COME_IN.search("先天不足，后天的努力秦书记就看得见。") is None
    assert COME_IN.search("后天秦书记就来了。") is not None
