"""The forms the twenty-first round read (issue 30, task C20), learned from 连续性-盲评二十二 (a Ming observatory) and
连续性-盲评二十三 (a 1996 trawler) together, written here at a salt works on the Bohai coast in 1992 — other words than
theirs: the right sentence next to each wrong one.

- days counted to someone's or something's coming (再过三天，长顺号就到了; 再过六天场长就回来了), read against the
  day the world or the coming one's own card dates it;
- a countdown to a date and what happens on it, a comma before the count (离十四日装船，只剩两天了);
- a year written in Chinese digits (一九九二年) is a Gregorian year, no reign: its days are counted as such;
- a date the prose writes: a Gregorian date with a weekday it is not (a log's head), a paragraph of narration
  opening on an earlier day of the month (十月五日夜里，…), and a reversed in-book day pointed at where the prose
  writes it.
"""

from __future__ import annotations

from typing import Any

from lw_storyrepo.continuity import (World, _lunar, dated_events, dated_subjects, places_inside)

import continuity_helpers

CARDS: dict[str, dict[str, Any]] = {
    "岳宁": {"姓名": "岳宁", "状态": "在世", "位置": "大口河盐场", "持有": ["盐度计"]},
    "庞大海": {"姓名": "庞大海", "状态": "在世", "位置": "天津", "持有": ["搪瓷缸"]},
}
TEXTS = {"岳宁": "二十四岁，盐场的化验员。",
         "庞大海": "五十岁，盐场场长，九月二十一日去天津开会，电报里说定十月九日回场，这之前不在场里。"}
LORE = "一九九二年秋天，渤海边的大口河盐场。运盐的驳船长顺号十月十四日（星期三）靠码头装盐。"
ALIASES = {**{name: name for name in CARDS}, "场长": "庞大海", "老庞": "庞大海", "小岳": "岳宁"}
PLACES = {"大口河盐场", "天津", "码头"}
NOW = "一九九二年十月六日 星期二"


def continuity(body: str, now: str = NOW, last: str | None = None) -> list[tuple[int, str]]:
    names = dict(ALIASES)
    world = World(CARDS, names, PLACES, {"盐度计", "搪瓷缸"}, ("普通人",), (1, last) if last else None,
                  places_inside(LORE, PLACES), {"岳宁": "她", "庞大海": "他"},
                  dated=dated_events([LORE, *TEXTS.values()]), dated_by=dated_subjects(LORE, TEXTS))
    return [(f.line, f.message) for f in continuity_helpers.findings(body, world, "岳宁", now)]


def timed(found: list[tuple[int, str]]) -> list[tuple[int, str]]:
    return [(line, m) for line, m in found if "书内时间" in m or "星期" in m or "时间倒流" in m]


def test_days_counted_to_a_boat_the_world_dates() -> None:
    assert timed(continuity("岳宁数着日子：“再过三天，长顺号就到了。”"))
    assert not timed(continuity("岳宁数着日子：“再过八天，长顺号就到了。”"))


def test_days_counted_to_a_return_the_card_dates() -> None:
    assert timed(continuity("岳宁心里有数，再过六天，场长就从天津回来了。"))
    assert not timed(continuity("岳宁心里有数，再过三天，场长就从天津回来了。"))
    assert not timed(continuity("岳宁心里有数，再过六天，小岳就该换班了。"))  # nothing the book dates


def test_a_countdown_to_a_date_and_its_event() -> None:
    assert timed(continuity("她掰着指头算了算，离十四日装船，只剩两天了。"))
    assert not timed(continuity("她掰着指头算了算，离十四日装船，只剩八天了。"))


def test_a_year_in_chinese_digits_is_no_reign() -> None:
    assert not _lunar(NOW)
    assert _lunar("光绪二十六年十月初六")


def test_a_written_date_with_the_wrong_weekday() -> None:
    assert timed(continuity("她在化验单上写：“一九九二年十月六日，星期四，晴，卤水二十五度。”"))
    assert not timed(continuity("她在化验单上写：“一九九二年十月六日，星期二，晴，卤水二十五度。”"))
    # without a year, a day other than today may be last year's: nothing to say
    assert not timed(continuity("老庞说过，九月二十号，礼拜一，他就动身了。"))


def test_a_scene_opening_on_an_earlier_day() -> None:
    found = timed(continuity("下午她在池边量卤水。\n\n十月五日夜里，起了风，盐坨上的苫布哗哗响。"))
    assert found and found[0][0] == 3
    assert not timed(continuity("下午她在池边量卤水。\n\n十月五日那夜起过一场风，她还记着。"))
    assert not timed(continuity("下午她在池边量卤水。\n\n十月七日夜里，起了风。"))


def test_a_reversed_day_is_pointed_at_where_the_prose_writes_it() -> None:
    found = timed(continuity("天亮前她在值班簿上签了名。\n\n“十月六日夜，无风，岳宁记。”", last="一九九二年十月七日 星期三"))
    assert [line for line, m in found if "时间倒流" in m] == [3]
    found = timed(continuity("天亮前她在值班簿上签了名。", last="一九九二年十月七日 星期三"))
    assert [line for line, m in found if "时间倒流" in m] == [1]
