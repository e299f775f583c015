"""The class the twenty-sixth round read (issue 30, task C25 at stop 50), learned from the pool of development books —
a scene's own day said otherwise, in 连续性-盲评二十 (a Song academy), 二十四 (a 1936 salt town), 二十六 (a Yuan post
station) and 二十七 (a 1992 electronics plant) — and written here in a Tang temple fair, a 1965 geology team and a
2008 clinic: other words than theirs, the right sentence next to each wrong one.

- today's day written the old way, without 日 or 号, where its clause ends (今儿是初十，…);
- a clause of narration opening on an earlier day of the month, with 的 before the part of the day or with its sky
  (七月十八日的日头, 三月十六的晚上), not only at a paragraph's start;
- a written date's weekday in brackets, 星期 or 周 (二〇〇八年三月五日（周四）).

Not read: a date someone says (in quotes), a day remembered (记得), a later day (a plan), a count (今天十五个人).
"""

from __future__ import annotations

from typing import Any

from lw_storyrepo.checks import CheckContext, voices
from lw_storyrepo.continuity import World, check_continuity, places_inside

CARDS: dict[str, dict[str, Any]] = {
    "裴九娘": {"姓名": "裴九娘", "状态": "在世", "位置": "大慈恩寺"},
    "贺兰": {"姓名": "贺兰", "状态": "在世", "位置": "大慈恩寺"},
}
ALIASES = {**{name: name for name in CARDS}, "九娘": "裴九娘"}
PLACES = {"大慈恩寺", "勘探队", "门诊部"}


def timed(body: str, now: str) -> list[tuple[int, str]]:
    meta = {"视角": "裴九娘", "书内时间": now, "在场": ["裴九娘", "贺兰"]}
    names = dict(ALIASES)
    world = World(CARDS, names, PLACES, set(), ("普通人",), None, places_inside("", PLACES),
                  {"裴九娘": "她", "贺兰": "他"})
    ctx = CheckContext(names, [], [], [], 0, set(names), set(), world=world, people=set(CARDS)).for_draft(meta)
    world.aliases, world.indirect = ctx.aliases, ctx.kin_words
    lines = body.split("\n")
    return [(f.line, f.message) for f in check_continuity(world, meta, lines, 1, voices(ctx, lines), ctx.names_re())
            if "书内时间" in f.message or "星期" in f.message or "时间倒流" in f.message]


TANG = "开元十二年三月十八"
FIELD = "一九六五年七月二十日"
CLINIC = "二〇〇八年三月五日 星期三"


def test_today_said_the_old_way_without_its_day_word() -> None:
    assert timed("九娘推开窗。今儿是初十，庙会的棚子一早就搭起来了。", TANG)
    assert timed("贺兰搓着手说：“今日十五，香客不多。”", TANG)
    assert not timed("九娘推开窗。今儿是十八，庙会的棚子一早就搭起来了。", TANG)  # the day it is
    assert not timed("九娘推开窗。今天十五个挑夫上山，棚子一早就搭起来了。", TANG)  # a count, no day


def test_a_clause_of_narration_opening_on_an_earlier_day() -> None:
    found = timed("雨停了，队里的人都出了帐篷。\n\n风一阵一阵刮过戈壁，七月十八日的日头，晒得石头发烫。", FIELD)
    assert found and found[0][0] == 3
    assert timed("九娘点上灯。\n\n三月十六的晚上，寺门口还挂着灯笼。", TANG)
    assert not timed("风一阵一阵刮过戈壁。“七月十八日的夜里，你在哪儿？”队长问。", FIELD)  # said, not the scene's day
    assert not timed("他还记得，七月十八日的夜里下过一场雹子。", FIELD)  # a day remembered
    assert not timed("风一阵一阵刮过戈壁，七月二十二日的早上就要交图。", FIELD)  # a later day: a plan


def test_a_written_dates_weekday_in_brackets() -> None:
    assert timed("护士站的白板上写着：\n\n排班表　二〇〇八年三月五日（周四）", CLINIC)
    assert timed("墙上贴着通知：二〇〇八年三月五日（星期五）全天停诊。", CLINIC)
    assert not timed("护士站的白板上写着：\n\n排班表　二〇〇八年三月五日（周三）", CLINIC)
    assert not timed("护士站的白板上写着：\n\n排班表　二〇〇八年三月五日（值班：贺兰）", CLINIC)
