"""The thirty-ninth continuity round (issue 30, task T3 at stop 54): a written entry dated another day.

A log, a ledger or a diary written in the scene opens its entry on the day it is written; a draft that heads tonight's
entry with a day gone (“一九五六年九月十九日，晴，…” written on the 21st) puts the chapter on another day. Read as a fact of
the calendar, not of a book's words (:data:`ENTRY_HEAD`, :data:`WRITTEN_NOW`, :data:`NOT_WRITTEN_NOW`): the pool's three
books with it (连续性-盲评二十六's post-station log, 三十四's gold ledger, 三十五's field book) each held out is caught by the
rows of the other two. Written here in books none of the sets use: a 1930s Shanghai pharmacy, a 道光 salt works, a 2003
weather station.
"""

from __future__ import annotations

from typing import Any

from lw_storyrepo.continuity import ENTRY_HEAD, World, places_inside

import continuity_helpers

CARDS: dict[str, dict[str, Any]] = {
    "沈砚秋": {"姓名": "沈砚秋", "状态": "在世", "位置": "济生药房"},
    "顾伯年": {"姓名": "顾伯年", "状态": "在世", "位置": "济生药房"},
}
PLACES = {"济生药房"}
LORE = "民国二十二年冬天，上海法租界的济生药房。"


def timed(body: str, now: str) -> list[str]:
    world = World(CARDS, {n: n for n in CARDS}, PLACES, set(), ("普通人",), None, places_inside(LORE, PLACES),
                  {"沈砚秋": "她", "顾伯年": "他"})
    return [f.message for f in continuity_helpers.findings(body, world, "沈砚秋", now) if "书内时间" in f.message]


def test_the_head_of_an_entry_is_its_full_date() -> None:
    m = ENTRY_HEAD.match("“道光十六年三月初七，晴，卤水九十担。”")
    assert m is not None and m.group("date") == "道光十六年三月初七"
    assert ENTRY_HEAD.match("“三月初七，晴。”") is None  # no year: which year's is not said
    assert ENTRY_HEAD.match("他说道光十六年三月初七就到了。") is None  # no entry: narration


def test_an_entry_written_now_headed_with_a_day_gone_fires() -> None:
    # a 1930s pharmacy's sales book, written on the 12th and headed with the 10th
    assert timed("打烊以后，沈砚秋在柜台上摊开流水簿，蘸了墨写：\n\n"
                 "“民国二十二年十二月十日，阴。售阿司匹林三瓶，鱼肝油一听，收洋四元二角。”\n\n"
                 "顾伯年在后头数钱。", "民国二十二年十二月十二日")
    # a 道光 salt works' ledger, the writing told after it
    assert timed("“道光十六年三月初五，晴，南风。卤水九十担，煎盐六百斤。”\n\n"
                 "沈砚秋一笔一笔记进灶簿，吹干了墨。", "道光十六年三月初七")
    # a 2003 weather station's log
    assert timed("夜班，沈砚秋先填日子和天气：\n\n“二〇〇三年七月二日，多云，东南风三级。二十时气温二十六度。”\n\n"
                 "窗外起了风。", "二〇〇三年七月四日 星期五")


def test_an_entry_of_today_of_a_gone_day_told_or_of_a_day_to_come_is_silent() -> None:
    # today's own day: right
    assert not timed("打烊以后，沈砚秋在柜台上摊开流水簿，蘸了墨写：\n\n"
                     "“民国二十二年十二月十二日，阴。售阿司匹林三瓶。”\n\n顾伯年在后头数钱。", "民国二十二年十二月十二日")
    # an old entry read, not written: 翻开 and 旧 beside it
    assert not timed("沈砚秋翻开去年的旧流水簿，找到那一页：\n\n“民国二十二年十二月十日，阴。售阿司匹林三瓶。”\n\n"
                     "她看了很久。", "民国二十二年十二月十二日")
    # the day to come on a notice written now (an invitation names a later day)
    assert not timed("沈砚秋在红纸上写：\n\n“民国二十二年十二月二十日，本号开张三周年，敬请光临。”\n\n顾伯年贴到门上。",
                     "民国二十二年十二月十二日")
