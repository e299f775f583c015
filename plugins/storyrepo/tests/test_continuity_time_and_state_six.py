"""The forty-sixth continuity round's time readings (issue 30, task T6 at stop 57): 书内时间, the field caught least on
books nobody here wrote, and a 书内时间 false alarm.

连续性-盲评三十二, 三十五, 三十八 and 四十一 missed a dead one's going told again on a day other than their card's: a day
opening the telling and the dead named a clause or two later, the clause stressing when (去年…那天，…，爹就是…走的 / …落的
水), or the dead named first with 是 and a longer stretch after the date (爹是四月十八那天后半晌压在…的); 三十二's card
dated its death on a day's afternoon (四月十二后半晌), which read as a bound (十二后). 三十八 alarmed on a season word that
opens a given name (今天轮到秋生). Read as facts of writing, not the books' words:

- a day the prose opens a telling on, then a dead or lost one named with a going of theirs in a clause stressing when
  (:data:`DAY_OF_GOING`, :data:`GOING_FOCUS`, :data:`GOING`, :data:`MISHAP`), is a restatement of their day
  (:func:`_going_on_day`);
- 后 after a date is a bound only when no part of the day follows (后半晌, 后晌, 后半夜: :data:`_NO_BOUND`);
- a season's character that opens a name or a given name of the book's is no season (:func:`_said_today`).

Written here in books none of the sets use: a 1958 reservoir works, a 嘉庆 salt barge crew and a 1931 tea plantation.
"""

from __future__ import annotations

import re
from typing import Any

from lw_storyrepo import continuity
from lw_storyrepo.continuity import DAY_OF_GOING, GOING_FOCUS, LUNAR_DATED, World, dated_events, dated_subjects, \
    dates_of_death, places_inside

import continuity_helpers

Book = tuple[dict[str, dict[str, Any]], dict[str, str], str, dict[str, str]]

# a 1958 reservoir works: the viewpoint's father drowned on 六月十一日 the year before
DAM: Book = (
    {"石春生": {"姓名": "石春生", "状态": "在世", "位置": "水库工地"},
     "石老根": {"姓名": "石老根", "状态": "已死", "位置": "水库工地"},
     "邱大姐": {"姓名": "邱大姐", "状态": "在世", "位置": "水库工地"}},
    {"石春生": "十九岁，民工连的记工员。",
     "石老根": "石春生的爹，一九五七年六月十一日夜里导流洞进水，他没能爬出来。",
     "邱大姐": "伙房的炊事员。"},
    "一九五八年，一座山里的水库工地。",
    {"爹": "石老根", "老根叔": "石老根", "春生": "石春生"})
# a 嘉庆 salt barge crew: the lost boatman went over the side on 腊月初九后半夜
BARGE: Book = (
    {"冬生": {"姓名": "冬生", "状态": "在世", "位置": "盐船"},
     "彭老大": {"姓名": "彭老大", "状态": "失踪", "位置": "不明"},
     "贾账房": {"姓名": "贾账房", "状态": "在世", "位置": "盐船"}},
    {"冬生": "船上的小伙计。",
     "彭老大": "盐船的驾长，嘉庆九年腊月初九后半夜在峡口落了水，再没找着。",
     "贾账房": "盐号派在船上的账房。"},
    "嘉庆十年，川江上的一条盐船。",
    {"老大": "彭老大"})


def timed(body: str, now: str, book: Book) -> list[str]:
    """The 书内时间 findings of ``body`` told by the book's first card at ``now``."""
    cards, texts, lore, aliases = book
    died, days = dates_of_death(cards, texts)
    world = World(cards, {**{name: name for name in cards}, **aliases}, set(), set(), ("普通人",), None,
                  places_inside(lore, ()), {}, dated=dated_events([lore, *texts.values()]),
                  dated_by=dated_subjects(lore, texts), died=died, died_day=days)
    return [f.message for f in continuity_helpers.findings(body, world, next(iter(cards)), now) if "书内时间" in f.message]


def dam(body: str) -> list[str]:
    return timed(body, "一九五八年五月二十日", DAM)


def barge(body: str) -> list[str]:
    return timed(body, "嘉庆十年三月初六", BARGE)


def test_a_dead_ones_going_told_on_another_day_after_the_day_fires() -> None:
    # the day opening the telling, the dead named in the next clause, 就是…的 stressing when
    assert dam("春生蹲在洞口。去年六月十四日夜里，爹就是在这个导流洞里没的。")
    # two clauses on, the 的 closing the clause (是 left out)
    assert barge("“冬生，去年腊月十二那天，船过峡口，你老大落的水。”贾账房说。")
    # the day in an earlier clause of its own, the dead stressed by 就是 and that day
    assert dam("那场暴雨是去年六月十八日下半夜下起来的，爹就是那天夜里没的。")


def test_the_right_day_another_one_or_no_stress_is_silent() -> None:
    # the card's own day
    assert not dam("去年六月十一日夜里，爹就是在这个导流洞里没的。")
    # another year than the card's
    assert not dam("前年六月十四日夜里，爹就是在这个导流洞里没的。")
    # someone alive on that day
    assert not dam("去年六月十四日夜里，邱大姐就是在这个伙房里烧的饭。")
    # no stress on when: a doing of that day beside a remembered going
    assert not dam("六月十四日那天，春生去给爹上坟，爹走了快一年了。")
    # a question
    assert not dam("去年六月十四日夜里，爹就是在这个洞里没的？")
    # a bound, not a day
    assert DAY_OF_GOING.search("六月十四日以前") is None
    assert GOING_FOCUS.search("就是在这个导流洞里没的") and not GOING_FOCUS.search("在洞里干活")


def test_a_dead_one_named_first_with_a_longer_stretch_after_the_date_fires() -> None:
    assert dam("春生想着那天的事：爹是六月十四日那天后半夜叫水困在洞里的，三天后才捞上来。")
    assert not dam("春生想着那天的事：爹是六月十一日那天后半夜叫水困在洞里的，三天后才捞上来。")


def test_a_part_of_the_day_after_a_date_is_no_bound() -> None:
    said = dated_subjects("", {"彭老大": BARGE[1]["彭老大"]})
    assert [on for _said, _what, on in said] == [(12, 9)]
    assert barge("老大是去年腊月十九后半夜落的水，冬生记得。")
    assert not barge("老大是去年腊月初九后半夜落的水，冬生记得。")
    m = LUNAR_DATED.search("腊月十二后晌进城")
    assert m is not None and m.group("what") == "后晌进城"
    assert LUNAR_DATED.search("腊月十二后再说话") is None  # still a bound
    # an afternoon shared with the card's event is no sign of the same event (an alive one's day of another doing)
    assert not barge("贾账房是去年腊月十二后半夜回的家。")


# a 1931 tea plantation, in spring: one of the pickers is called by her given name 秋菊, another's name is 冬梅
TEA: dict[str, dict[str, Any]] = {
    "周秋菊": {"姓名": "周秋菊", "状态": "在世", "位置": "茶山"},
    "冬梅": {"姓名": "冬梅", "状态": "在世", "位置": "茶山"},
}


def tea(body: str) -> list[str]:
    world = World(TEA, {n: n for n in TEA}, {"茶山"}, set(), ("普通人",), None, {}, {"周秋菊": "她", "冬梅": "她"})
    return [f.message for f in continuity_helpers.findings(body, world, "冬梅", "民国二十年四月九日")
            if "书内时间" in f.message]


def test_a_season_word_opening_a_name_is_no_season() -> None:
    # a given name (秋菊 of 周秋菊) and a whole name (冬梅) after a time word
    assert not tea("采茶要两个人换着背篓，今天轮到秋菊。")
    assert not tea("今天是冬梅看茶棚。")
    # still: a season said now that the date is not
    assert tea("今天已是深秋，山上的茶树都落了叶。")


def test_a_line_of_thousands_of_days_and_no_clauses_end_is_read_in_linear_work() -> None:
    cards, texts, lore, aliases = DAM
    died, days = dates_of_death(cards, texts)
    world = World(cards, {**{name: name for name in cards}, **aliases}, set(), set(), ("普通人",), None,
                  places_inside(lore, ()), {}, dated=dated_events([lore, *texts.values()]),
                  dated_by=dated_subjects(lore, texts), died=died, died_day=days)
    line = "去年六月十四日爹就是没的" * 3000
    names = continuity_helpers.Counted(re.compile("石老根|爹"))
    found = continuity._going_on_day(world, names, "一九五八年五月二十日", [(0, 1, line)], 1)  # type: ignore[arg-type]
    assert len(found) == 1  # one finding a person a sentence
    assert names.read <= 10 * len(line)  # each day reads a window of GOING_REACH, not the rest of the line
