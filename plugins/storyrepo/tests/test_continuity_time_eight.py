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
"""

from __future__ import annotations

import pytest

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
