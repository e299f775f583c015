"""The class the twenty-sixth round read (issue 30, task C25 at stop 50), learned from the pool of development books —
a scene's own day said otherwise, in 连续性-盲评二十 (a Song academy), 二十四 (a 1936 salt town), 二十六 (a Yuan post
station) and 二十七 (a 1992 electronics plant) — and written here in a Tang temple fair, a 1965 geology team and a
2008 clinic: other words than theirs, the right sentence next to each wrong one.

- today's day written the old way, without 日 or 号, where its clause ends (今儿是初十，…);
- a clause of narration opening on an earlier day of the month, with 的 before the part of the day or with its sky
  (七月十八日的日头, 三月十六的晚上), not only at a paragraph's start;
- a written date's weekday in brackets, 星期 or 周 (二〇〇八年三月五日（周四）).

Not read: a date someone says (in quotes), a day remembered (记得), a later day (a plan), a count (今天十五个人).

And 位置 (连续性-盲评二十, 二十一, 二十七): someone whose card puts them far away said by another, in a quote, to have
come here today — a time of today and a coming or a sitting here (老彭早上在我这里坐了一个钟头, 杜山长今早回来了,
老细今朝十点已经到咗) — written here at a 1930s Harbin bakery, a Qing river dock and a 2015 start-up: not a coming
planned, denied or waited for (今天要过来, 今天没来).
"""

from __future__ import annotations

from typing import Any

from lw_storyrepo.answers import ANSWER_MARK, answered
from lw_storyrepo.checks import CheckContext, voices
from lw_storyrepo.continuity import World, check_continuity, far_places, places_inside

import continuity_helpers

CARDS: dict[str, dict[str, Any]] = {
    "裴九娘": {"姓名": "裴九娘", "状态": "在世", "位置": "大慈恩寺"},
    "贺兰": {"姓名": "贺兰", "状态": "在世", "位置": "大慈恩寺"},
}
ALIASES = {**{name: name for name in CARDS}, "九娘": "裴九娘"}
PLACES = {"大慈恩寺", "勘探队", "门诊部"}


def timed(body: str, now: str) -> list[tuple[int, str]]:
    names = dict(ALIASES)
    world = World(CARDS, names, PLACES, set(), ("普通人",), None, places_inside("", PLACES),
                  {"裴九娘": "她", "贺兰": "他"})
    return [(f.line, f.message) for f in continuity_helpers.findings(body, world, "裴九娘", now, ["裴九娘", "贺兰"])
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


FAR_CARDS: dict[str, dict[str, Any]] = {
    "伊万": {"姓名": "伊万", "状态": "在世", "位置": "哈尔滨"},
    "谢廖沙": {"姓名": "谢廖沙", "状态": "在世", "位置": "上海"},
}
FAR_ALIASES = {**{name: name for name in FAR_CARDS}, "老谢": "谢廖沙", "谢掌柜": "谢廖沙"}
FAR_PLACES = {"哈尔滨", "上海"}
FAR_LORE = "上海离哈尔滨三千里，坐火车要走四天。谢廖沙去上海进面粉了。"


def placed(body: str, with_answers: bool = False) -> list[str]:
    meta = {"视角": "伊万", "书内时间": "一九三三年十月五日", "在场": ["伊万"]}
    world = World(FAR_CARDS, dict(FAR_ALIASES), FAR_PLACES, set(), ("普通人",), None, places_inside(FAR_LORE, FAR_PLACES),
                  {"伊万": "他", "谢廖沙": "他"}, far=far_places([FAR_LORE], FAR_PLACES))
    ctx = CheckContext(dict(FAR_ALIASES), [], [], [], 0, set(FAR_ALIASES), set(), world=world,
                       people=set(FAR_CARDS)).for_draft(meta)
    world.aliases, world.indirect = ctx.aliases, ctx.kin_words
    lines = body.split("\n")
    found = check_continuity(world, meta, lines, 1, voices(ctx, lines), ctx.names_re())
    return [f.message for f in (answered(found) if with_answers else found) if "谢廖沙" in f.message and "位置" in f.message]


def test_someone_far_said_to_have_come_here_today() -> None:
    assert placed("伊万揉着面。\n\n“老谢上午在我这里喝了两杯茶，”面包房的女工说，“问你好。”")
    assert placed("伊万揉着面。\n\n码头上的脚夫擦着汗道：“谢掌柜晌午坐着划子过来，卸了三船货。”")
    assert placed("伊万揉着面。\n\n“谢廖沙今早十点就到了，车停在楼下。”前台的姑娘说。")
    assert not placed("伊万揉着面。\n\n“老谢今天要过来，你把账本收好。”女工说。")  # a plan
    assert not placed("伊万揉着面。\n\n“老谢今天没来，他在上海。”女工说。")  # denied
    assert not placed("伊万揉着面。\n\n“老谢今天一早在那里开会，电报刚到。”女工说。")  # there, not here


def test_a_far_one_reported_here_today_is_answered_as_the_other_place_findings() -> None:
    # R50's nit (stop 50): the report carried no author's answer; the 位置 answer names the scene's place
    found = placed("伊万揉着面。\n\n“老谢上午在我这里喝了两杯茶，”面包房的女工说，“问你好。”", with_answers=True)
    assert found and ANSWER_MARK in found[0] and "谢廖沙.位置=哈尔滨" in found[0]


def test_a_meeting_or_an_and_so_on_is_no_coming_put_off() -> None:
    # R50's nit (stop 50): the 会 of 开会 and the 等 of 等等 are words of their own, not 会 (will) or 等 (wait)
    assert placed("伊万揉着面。\n\n“老谢早上开会来了，在我这里坐了半天。”女工说。")
    assert placed("伊万揉着面。\n\n“老谢上午带着面粉等等过来了。”女工说。")
    assert not placed("伊万揉着面。\n\n“老谢早上会过来，你把账本收好。”女工说。")  # will come: a plan
    assert not placed("伊万揉着面。\n\n“老谢上午等船过来，还在上海。”女工说。")  # waiting for a boat


PLANT = "一九九二年十月八日"


def test_the_surname_zhou_after_a_date_is_no_weekday() -> None:
    # the outside reviewer's finding 3 (stop 50): 周 before more name characters is the surname 周
    assert not timed("一九九二年十月八日，周一鸣骑车到了县里。", PLANT)
    assert not timed("十月八日，周日新骑车到了县里。", PLANT)
    assert timed("一九九二年十月八日（周一）", PLANT)
    assert timed("一九九二年十月八日，周一。", PLANT)


def test_a_past_day_told_as_past_is_no_scene_day() -> None:
    # the outside reviewer's finding 4 (stop 50): after a time gone, a report or a memory the date is no scene's day
    assert not timed("上礼拜，十月三日的晚上，他们吵了一架。", PLANT)
    assert not timed("报纸上说，十月三日的晚上有流星雨。", PLANT)
    assert not timed("日记里写着，十月三日夜里风很大。", PLANT)
    assert timed("风刮过河滩，十月三日的太阳，沉进了釜溪河。", PLANT)  # narration setting the scene on another day


def test_a_bare_say_before_a_date_tells_no_report() -> None:
    # F2's TOLD_BEFORE narrowed (stop 51): 说也奇怪 tells no report; a report says where it was read or that it was told before
    assert timed("说也奇怪，十月三日的夜里，河滩上起了雾。", PLANT)
    assert not timed("老周早说过，十月三日的晚上要变天。", PLANT)
    assert not timed("他上回讲，十月三日的晚上有人来过。", PLANT)
