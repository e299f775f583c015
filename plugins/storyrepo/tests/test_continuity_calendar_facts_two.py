"""The thirty-first continuity round (issue 30, task T2 at stop 52): time on books nobody read, the calendar's facts.

Written here in books none of the sets use (a 1936 Shanghai print shop, a 绍兴 river port, a 2013 forestry station):
the wrong sentence next to the right one and near misses.

- a dated event's own day restated otherwise (阿爸是今年二月十二日夜里没的): the one day the world and the card give
  someone, against the day a 是-stressed date says for an event of theirs (a going of the dead or lost, or one sharing
  a character with the dated event); a date in brackets after another is the same day in the other calendar;
- days to a dated coming: a date opening its clause is said of the clause before (the sentence's topic), a lunar
  count within one month is exact, an event's days left are read without 离 (秋试只剩两天了), a past word after the
  count leaves it a count;
- a festival on a day counted from today (前日重阳) in a lunar book;
- the scene's day opening narration with a comma and dawn's or dusk's light (九月初八，天刚亮，…).
"""

from __future__ import annotations

import sys
from types import FrameType
from typing import Any, Callable

from lw_storyrepo import continuity as continuity_module
from lw_storyrepo.continuity import EVENT_LEFT, FEAST_ON_DAY, RESTATED, World, dated_events, dated_subjects, places_inside

import continuity_helpers

Book = tuple[dict[str, dict[str, Any]], dict[str, str], str, dict[str, str]]

PRINT_SHOP: Book = (
    {"沈小梅": {"姓名": "沈小梅", "状态": "在世", "位置": "上海"},
     "沈伯涛": {"姓名": "沈伯涛", "状态": "已死", "位置": "上海"}},
    {"沈小梅": "沈伯涛的女儿，排字房的学徒。",
     "沈伯涛": "排字房的老师傅，民国二十五年三月九日夜里在排字房倒下，没救过来。"},
    "民国二十五年秋天，上海闸北的一家印刷所。",
    {"老沈": "沈伯涛", "沈师傅": "沈伯涛", "小梅": "沈小梅"})
RIVER_PORT: Book = (
    {"陈阿九": {"姓名": "陈阿九", "状态": "在世", "位置": "明州"},
     "周大郎": {"姓名": "周大郎", "状态": "失踪", "位置": "不明"},
     "韩世安": {"姓名": "韩世安", "状态": "在世", "位置": "临安"}},
    {"陈阿九": "码头上的脚夫。", "周大郎": "撑船的，绍兴五年五月初六夜里撑船出了港，再没回来。",
     "韩世安": "明州的知州。"},
    "绍兴五年秋，明州码头。知州韩世安八月里去了临安，九月十五坐船回州，全城都等着这一天。九月二十日州学秋试开考。",
    {"大郎": "周大郎", "阿九": "陈阿九", "韩知州": "韩世安"})
STATION: Book = (
    {"林岚": {"姓名": "林岚", "状态": "在世", "位置": "林场"},
     "韩德厚": {"姓名": "韩德厚", "状态": "在世", "位置": "林场"}},
    {"林岚": "护林站的技术员。", "韩德厚": "老护林员，二〇一三年一月九日（腊月二十八）一早上山巡林，在山上过的年。"},
    "二〇一三年冬，长白山下的护林站。",
    {"老韩": "韩德厚", "小林": "林岚"})


def continuity(body: str, now: str, book: Book) -> list[str]:
    """The 书内时间 findings of ``body`` told by the book's first card at ``now`` (:func:`continuity_helpers.findings`)."""
    cards, texts, lore, aliases = book
    world = World(cards, {**{name: name for name in cards}, **aliases}, set(), set(), ("普通人",), None,
                  places_inside(lore, ()), {}, dated=dated_events([lore, *texts.values()]),
                  dated_by=dated_subjects(lore, texts))
    return [f.message for f in continuity_helpers.findings(body, world, next(iter(cards)), now) if "书内时间" in f.message]


def shop(body: str) -> list[str]:
    return continuity(body, "民国二十五年十月十二日", PRINT_SHOP)


def port(body: str, now: str = "绍兴五年九月初十") -> list[str]:
    return continuity(body, now, RIVER_PORT)


def station(body: str) -> list[str]:
    return continuity(body, "二〇一三年三月二日", STATION)


def test_a_dated_events_own_day_restated_otherwise() -> None:
    # the cards: 沈伯涛 民国二十五年三月九日夜里倒下 (dead); 周大郎 绍兴五年五月初六夜里出了港 (lost)
    assert shop("小梅数着日子：老沈是三月七日夜里没的，到今天七个月了。")
    assert shop("“沈师傅出事是三月十九日。”账房先生说。")
    assert port("阿九蹲在船头发呆。大郎是今年四月初六夜里不见的，他记得清清楚楚。")
    # an event sharing a character with the dated one (上山巡林 and 上的山), of someone alive
    assert station("小林翻着巡山簿，老韩是一月十二日上的山。")
    # near misses: the right day; another year; a question; another kind of event; a lunar date in a Gregorian book
    assert not shop("小梅数着日子：老沈是三月九日夜里没的，到今天七个月了。")
    assert not shop("老沈是去年三月七日没的。")
    assert not port("大郎是五月十六走的吗？")
    assert not shop("老沈是三月七日来的信。")
    assert not shop("老沈是腊月十七没的。")


def test_the_restated_date_reads_the_day_and_its_event() -> None:
    m = RESTATED.search("阿玛是去年冬月十七进的山，那天雪大")
    assert m is not None and (m.group("year"), m.group("month"), m.group("day"), m.group("then")) == \
        ("去年", "冬", "十七", "进的山")
    assert RESTATED.search("是三月七日的事情多") is None  # 的 that opens a noun phrase closes no 是…的


def test_a_date_in_brackets_after_another_is_the_same_day() -> None:
    said = dated_subjects("", {"韩德厚": "二〇一三年一月九日（腊月二十八）一早上山巡林"})
    assert [(on, what) for _said, what, on in said] == [((1, 9), "一早上山巡林")]
    said = dated_subjects("", {"老额": "十二月十七（腊月十七）一早进老爷岭"})
    assert [(on, what) for _said, what, on in said] == [((12, 17), "一早进老爷岭")]


def test_days_to_a_dated_coming_by_the_sentences_topic_and_an_events_days_left() -> None:
    # the world: 知州韩世安八月里去了临安，九月十五坐船回州 — five days after 初十; 九月二十日州学秋试开考
    assert port("“后天知州就回来了，码头得先扫干净。”")
    assert port("大后天知州就回来了。")  # 3 for 5 in one lunar month: exact, no month's length to allow for
    assert port("秋试只剩两天了，到那时候谁也帮不了他。")
    assert port("可是秋试只剩三天了。")
    # near misses: the right counts; what someone has is no event's days left; a past word before the count
    assert not port("再过五天知州就回来了。")
    assert not port("秋试只剩十天了。")
    assert not port("我们还剩三天的粮。")
    assert not port("那时秋试只剩两天了。")
    assert EVENT_LEFT.search("秋试还有两天") is None


def test_a_festival_on_a_day_counted_from_today() -> None:
    assert port("阿九娘念叨：“前日重阳，你也没回来。”")
    assert port("“明天就是重阳了。”")
    assert port("“明天中秋，月饼还没做。”", now="绍兴五年八月十三")
    # near misses: the right day; the day before a festival is no festival
    assert not port("“昨天过重阳，你也没回来。”")
    assert not port("“后天就是中秋。”", now="绍兴五年八月十三")
    assert not port("“昨天是重阳的前一天。”")
    m = FEAST_ON_DAY.search("前日重阳，你也没回来")
    assert m is not None and m.groups() == ("前日", "重阳")


def test_the_scenes_day_opening_narration_with_dawns_light() -> None:
    assert port("九月初八，天刚亮，码头上就挤满了人。")
    assert port("九月初五，天擦黑，阿九才收工。")
    assert port("九月初九，天还没亮，阿九就出了门。")
    # near misses: today itself; a day remembered
    assert not port("九月初十，天刚亮，码头上就挤满了人。")
    assert not port("阿九想起九月初八，天刚亮，码头上就挤满了人。")


def test_a_day_word_beside_a_festivals_thing_is_no_festivals_day() -> None:
    # R52's finding 1: on 九月初十, a festival's thing (粥, 月饼, 登高), the Ming (明朝) and a question put no festival on a day
    assert not port("锅里还剩着前天腊八粥。")
    assert not port("明天中秋月饼就不好卖了。")
    assert not port("听说明朝重阳登高要插茱萸。")
    assert not port("明天是中秋吗？")
    # still: a linking verb, or the festival closing its clause
    assert port("明天是中秋。")
    assert port("前天腊八，锅里还剩着粥。")


def test_a_shared_time_of_day_makes_no_same_event() -> None:
    # R52's finding 2: 夜里 shared with the card's 三月九日夜里在排字房倒下 is no sign of the same event
    assert not shop("老沈是三月十日夜里回的家。")
    assert not shop("老沈是三月十日早上回的家。")
    # still: a character of the event's own (倒下)
    assert shop("老沈是三月十日夜里倒下的。")


FERRY: Book = (
    {"阿福": {"姓名": "阿福", "状态": "在世", "位置": "渡口"},
     "阿福嫂": {"姓名": "阿福嫂", "状态": "已死", "位置": "渡口"}},
    {"阿福": "渡口撑船的。", "阿福嫂": "阿福的媳妇，民国二十五年三月九日夜里没的。"},
    "民国二十五年秋天，一个渡口。",
    {})


def test_a_dated_event_is_said_of_exactly_its_owner() -> None:
    # R52's finding 3: 阿福 borrows no day of 阿福嫂's
    assert not continuity("阿福是三月十日夜里没的。", "民国二十五年十月十二日", FERRY)
    assert continuity("阿福嫂是三月十日夜里没的。", "民国二十五年十月十二日", FERRY)


def test_days_left_to_someone_elses_event_are_their_own() -> None:
    # R52's finding 4: 阿九's going home is not 韩世安's 坐船回州 (九月十五)
    assert not port("阿九回州只剩三天了。")
    # still: the event's own owner, and no one named
    assert port("韩知州回州只剩三天了。")
    assert port("回州只剩三天了。")


def _lines_run(text: str) -> int:
    """The lines of continuity.py run to read ``text``'s dates (a measure of work, not of time)."""
    run = 0

    def local(frame: FrameType, event: str, _arg: Any) -> Callable[..., Any] | None:
        nonlocal run
        run += event == "line"
        return local

    def calls(frame: FrameType, _event: str, _arg: Any) -> Callable[..., Any] | None:
        return local if frame.f_code.co_filename == continuity_module.__file__ else None

    before = sys.gettrace()  # a coverage tracer, if any, is put back
    sys.settrace(calls)
    try:
        list(continuity_module._dates_in(text))
    finally:
        sys.settrace(before)
    return run


def test_the_dates_in_brackets_are_read_in_linear_work() -> None:
    # R52's finding 5: each date was checked against every bracket (quadratic); four times the dates, about four times the work
    one = "二月十日（正月十七）夜里出了门，"
    assert [(month, day) for _m, month, day in continuity_module._dates_in(one * 2)] == [(2, 10), (2, 10)]
    small, large = _lines_run(one * 100), _lines_run(one * 400)
    assert 0 < large < 5 * small


PRINT_SHOP_TWO_DAYS: Book = (
    PRINT_SHOP[0], {**PRINT_SHOP[1], "沈伯涛": "排字房的老师傅，民国二十五年三月一日进了排字房，三月九日夜里在排字房倒下。"},
    PRINT_SHOP[2], PRINT_SHOP[3])


def test_the_guards_of_a_restated_day_and_a_festivals_day() -> None:
    # R52's finding 7, a near miss per guard. _RESTATED_HEAD: more words between the one named and 是 tell another's event
    assert not shop("老沈带的徒弟进排字房是三月七日。")
    # the book gives someone exactly one day: two days, and which is meant no check can say
    assert not continuity("老沈是三月七日进的门。", "民国二十五年十月十二日", PRINT_SHOP_TWO_DAYS)
    # FEAST_ON_DAY's 1 <= on <= 29: a day past the month's end is another month's
    assert not port("“明天就是春节了。”", now="绍兴五年腊月三十")
    assert not port("“昨天是除夕。”", now="绍兴六年正月初一")
    # its look-behind: 大前天 is three days back, not 前天
    assert not port("“大前天是重阳。”", now="绍兴五年九月十二")
    # the words after the festival that make it a time around the festival, not the festival's day
    for said in ("明天是中秋以前最后一个集。", "明天是中秋之后头一个集。", "明天赶上中秋前后人多。", "明天是中秋那一集最热闹。"):
        assert not port(said, now="绍兴五年八月初十"), said


LOST_FERRY: Book = (
    {"阿福": {"姓名": "阿福", "状态": "失踪", "位置": "不明"},
     "阿福嫂": {"姓名": "阿福嫂", "状态": "失踪", "位置": "不明"}},
    {"阿福": "渡口撑船的。", "阿福嫂": "阿福的媳妇，民国二十五年三月九日夜里出了门，再没回来。"},
    "民国二十五年秋天，一个渡口。",
    {})


def test_the_months_since_a_going_are_counted_from_exactly_its_owners_day() -> None:
    # R52's finding 3, its other reader (_since_going): 阿福 borrows no day of 阿福嫂's
    assert not continuity("阿福走了两个月了。", "民国二十五年十月十二日", LOST_FERRY)
    assert continuity("阿福嫂走了两个月了。", "民国二十五年十月十二日", LOST_FERRY)


def test_days_left_to_an_event_naming_its_owner_are_its_owners() -> None:
    # the event names its owner itself (知州韩世安…坐船回州 said, 韩知州回船 the world's): 韩知州 is the event's
    book = (RIVER_PORT[0], RIVER_PORT[1], "绍兴五年秋，明州码头。九月十五韩知州回船，全城都等着这一天。", RIVER_PORT[3])
    assert continuity("韩知州回船只剩三天了。", "绍兴五年九月初十", book)
