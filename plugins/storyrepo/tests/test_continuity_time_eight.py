"""书内时间, the eighth round (issue 30, task T8 at stop 59).

A festival counted back in days (端午过了才两天，…) where it sets the scene: the narration's first sentence of the
chapter's first paragraph, or of the first paragraph after a scene break, with the scene's present after the count
(:data:`lw_storyrepo.continuity.FEAST_COUNTED`, :func:`lw_storyrepo.continuity._feast_counted`). The in-book day must be
that many days after the festival's: a lunar book's festivals by :data:`LUNAR_FEAST_DAYS`, a Gregorian book's by
:data:`SOLAR_FEAST_DAYS`. The way of writing of three books (连续性-盲评五, 四十二, 四十四); the sentences here are this
file's own, in T7's 盐场 book (``test_continuity_time_seven.timed``).

Silent: the right day; the count told as backstory (someone going away after it, R58's counter-examples to T7's
reading, or 后来), a count not opening a scene, a count in someone's words, a sentence told outside the now (想起, 去年),
a festival of the other calendar.

And a grave marker's date (:data:`lw_storyrepo.continuity.GRAVE_DATED`: 先考某公某某之墓，某年某月某日卒) against the
death the buried one's card dates (:func:`lw_storyrepo.continuity.dates_of_death`): the way of writing of five books
(连续性-盲评十三, 十四, 三十五, 三十六, 四十一), two of them dated. Silent on the card's day (a day's slack), a marker of
another dead or of no one the book knows, a date of raising the stone, a marker without a date.
"""

from __future__ import annotations

from typing import Any

import pytest

from lw_storyrepo import continuity
from lw_storyrepo.continuity import World, dates_of_death

import continuity_helpers
from test_continuity_time_seven import timed

LUNAR_NOW = "光绪十年五月十五"
SOLAR_NOW = "一九六三年八月十四日 星期三"


@pytest.mark.parametrize("body, now", [
    ("端午过了才两天，河沿上的龙舟还没拖上岸，潘海生蹲在船边刮漆。", LUNAR_NOW),
    ("重阳刚过去三天，院里的菊花还开着，卞玉珍端了一盆搬进屋。", "光绪十年九月二十"),
    ("元旦过去才五天，盐滩上结了一层薄冰，潘海生踩上去咯吱咯吱响。", SOLAR_NOW),
    ("劳动节过了才四天，场部门口的标语还没揭下来。", SOLAR_NOW),
    # T7's own sentence (stop 58), which the ftp fixers' round silenced with the reading: the scene's present
    ("中秋过了才三天，月饼还剩半盒，卞玉珍说留着待客。", "光绪十年八月初十"),
])
def test_a_festival_counted_in_days_opening_the_chapter_on_another_day(body: str, now: str) -> None:
    found = timed(body, now)
    assert len(found) == 1 and "对不上" in found[0], found


def test_a_festival_counted_after_a_scene_break() -> None:
    body = "卞玉珍把账本合上，吹了灯。\n\n＊＊＊\n\n重阳刚过去三天，院里的菊花还开着。"
    found = timed(body, "光绪十年九月二十")
    assert len(found) == 1 and "重阳刚过去三天" in found[0], found


@pytest.mark.parametrize("body, now", [
    ("端午过了才两天，河沿上的龙舟还没拖上岸。", "光绪十年五月初七"),  # the right day
    ("腊八过了才三天，河沿上的冰还没化。", "光绪十年腊月十一"),
    ("元旦过去才五天，盐滩上结了一层薄冰。", "一九六三年一月六日"),
    ("重阳过了两天，院里的菊花还开着。", "光绪十年九月十一"),  # within its month: exact
    ("除夕过了才三天，门上的对联还红着。", "光绪十一年正月初三"),  # last year's 除夕, a day either way across the month
])
def test_the_right_day_is_silent(body: str, now: str) -> None:
    assert timed(body, now) == []


@pytest.mark.parametrize("body", [
    # backstory told by its distance from a festival: someone going away, or what came later
    "腊八过了才五天，三叔就去了县城，一走就是半个月。",
    "端午过了才两天，他爹就离开了盐场。",
    "重阳过了才三天，表哥就动身回了江北。",
    "清明过了才三天，后来的事谁也说不清。",
    # not the chapter's or a scene's opening
    "潘海生推门进来。\n\n端午过了才两天，河沿上的龙舟还没拖上岸。",
    # in someone's words, or told outside the now
    "“端午过了才两天，龙舟还没拖上岸呢。”卞玉珍说。",
    "端午过了才两天，潘海生想起那年河沿上的龙舟。",
    "端午过了才两天，去年的龙舟还没拖上岸。",
    # a question, not a count said
    "端午过了才两天？",
    # a festival of the other calendar: 国庆 in a lunar book
    "国庆节过去才三天，山上就下了霜。",
])
def test_backstory_and_near_misses_are_silent(body: str) -> None:
    assert timed(body, LUNAR_NOW) == []


def test_a_lunar_festival_in_a_gregorian_book_is_left_to_the_months_reading() -> None:
    # no day of 端午 in a Gregorian year without a calendar of the moon: only the months reading (FEAST_NOW) may speak
    assert timed("端午过了才两天，河沿上的龙舟还没拖上岸。", SOLAR_NOW) == []


GRAVE_CARDS: dict[str, dict[str, Any]] = {
    "姚青禾": {"姓名": "姚青禾", "状态": "在世", "位置": "窑镇", "持有": ["泥刀"]},
    "姚怀德": {"姓名": "姚怀德", "状态": "已死", "位置": "窑镇", "持有": []},
    "庞秋菊": {"姓名": "庞秋菊", "状态": "已死", "位置": "窑镇", "持有": []},
}
GRAVE_TEXTS = {"姚青禾": "姚怀德的孙子，窑上的学徒。",
               "姚怀德": "窑上的老把桩。同治九年三月十二夜里窑顶塌了，他死在窑里。",
               "庞秋菊": "姚青禾的奶奶。一九五六年十月病逝。"}


def graves(body: str, now: str = "同治十年清明") -> list[str]:
    """The findings of ``body`` told by 姚青禾 at the kiln town on ``now``, in a book whose two dead are dated."""
    died, days = dates_of_death(GRAVE_CARDS, GRAVE_TEXTS)
    world = World(GRAVE_CARDS, {n: n for n in GRAVE_CARDS}, {"窑镇"}, {"泥刀"}, ("普通人",), None, {},
                  {"姚青禾": "他", "姚怀德": "他", "庞秋菊": "她"}, died=died, died_day=days)
    return [f.message for f in continuity_helpers.findings(body, world, "姚青禾", now) if "墓上" in f.message]


@pytest.mark.parametrize("body", [
    "青禾蹲下来拔草，碑上刻着：先祖姚公怀德之墓，同治九年四月十二卒。",
    "碑上刻着“姚公怀德之墓，同治九年三月二十日”。",
    "青禾认得石碑上的字：姚怀德之墓，同治八年三月十二日。",
])
def test_a_grave_marker_dated_off_the_death(body: str) -> None:
    found = graves(body)
    assert len(found) == 1 and "姚怀德" in found[0], found


@pytest.mark.parametrize("body", [
    "碑上刻着：先祖姚公怀德之墓，同治九年三月十二卒。",  # the card's day
    "碑上刻着：先祖姚公怀德之墓，同治九年三月十三。",  # found the next day: a day's slack
    "碑上刻着：姚公怀德之墓，同治十年清明立。",  # the day the stone was raised
    "碑上刻着：先祖姚公怀德之墓。",  # no date
    "碑上刻着：窑工刘公长顺之墓，同治九年五月。",  # someone the book does not know
    "木牌上写着：庞秋菊同志之墓，一九五六年十月。",  # the other dead, on her month
])
def test_a_grave_marker_on_the_card_or_of_no_death_is_silent(body: str) -> None:
    assert graves(body) == []


def test_the_other_dead_on_another_month() -> None:
    found = graves("木牌上写着：庞秋菊同志之墓，一九五六年七月。")
    assert len(found) == 1 and "庞秋菊" in found[0], found


def test_a_line_of_many_markers_reads_each_marker_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # a hostile draft: one line of a thousand markers of the same dead, among two hundred dead cards; the marker's
    # words are matched against the dead once a draft, and only against those whose name's first character is in them
    cards = {**GRAVE_CARDS, **{f"庞{chr(0x4e00 + k)}{chr(0x4e80 + k)}": {"状态": "已死"} for k in range(200)}}
    died, days = dates_of_death(GRAVE_CARDS, GRAVE_TEXTS)
    world = World(cards, {n: n for n in cards}, {"窑镇"}, set(), ("普通人",), None, {}, {}, died=died, died_day=days)
    asked: list[int] = []
    real = continuity._buried

    def counted(dead: list[str], whom: str) -> str | None:
        asked.append(len(dead))
        return real(dead, whom)

    monkeypatch.setattr(continuity, "_buried", counted)
    found = continuity._grave_dated(world, ["先祖姚公怀德之墓，同治九年四月十二卒；" * 1000], 1)
    assert len(found) == 1000 and asked == [1]  # one reading, of the one 姚 among the dead
