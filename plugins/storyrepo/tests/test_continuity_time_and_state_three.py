"""The thirty-ninth continuity round (issue 30, task T3 at stop 54): a written entry dated another day.

A log, a ledger or a diary written in the scene opens its entry on the day it is written; a draft that heads tonight's
entry with a day gone (“一九五六年九月十九日，晴，…” written on the 21st) puts the chapter on another day. Read as a fact of
the calendar, not of a book's words (:data:`ENTRY_HEAD`, :data:`WRITTEN_NOW`, :data:`NOT_WRITTEN_NOW`): the pool's three
books with it (连续性-盲评二十六's post-station log, 三十四's gold ledger, 三十五's field book) each held out is caught by the
rows of the other two. Written here in books none of the sets use: a 1930s Shanghai pharmacy, a 道光 salt works, a 2003
weather station.

Two 状态 readings of the same books: the dead said in someone's quote to have done a thing in the last few days
(:data:`LATELY`: 你爹前儿后晌还在我这儿喝了二两烧酒, 三十四; 许组长早上来伙房打开水, 三十五 — the rows written knowing
both, so not counted as carried; 十九's 俞先生在楼下问我, no time said, is another form), silent for one dead this month;
and a card's 拿不住东西 in the hands row (三十四's card words: a fit), with a 他 before the card named later in its
sentence read as another (他…端起粥，喂小石头喝完了: the false alarm the row first raised on 三十四's 好-4).
"""

from __future__ import annotations

from typing import Any

from lw_storyrepo.continuity import ENTRY_HEAD, World, dates_of_death, places_inside
from lw_storyrepo.forbidden import forbidden_of

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


# a 咸丰 river town's ferry: the old ferryman dead since last winter, his apprentice's hands scalded
STATE_CARDS: dict[str, dict[str, Any]] = {
    "周水生": {"姓名": "周水生", "状态": "在世", "位置": "柳林渡"},
    "周老舵": {"姓名": "周老舵", "状态": "已死", "位置": "柳林渡"},
    "阿福": {"姓名": "阿福", "状态": "烫伤", "位置": "柳林渡"},
    "何二嫂": {"姓名": "何二嫂", "状态": "在世", "位置": "柳林渡"},
}
STATE_TEXTS = {"周老舵": "咸丰五年腊月初八夜里，渡船在河心翻了，他淹死了。",
               "阿福": "十五岁，渡口的小伙计。正月里熬桐油烫了两只手，缠着布，一个月之内拿不住东西。"}
STATE_ALIASES = {**{n: n for n in STATE_CARDS}, "老舵": "周老舵", "你爹": "周老舵", "福儿": "阿福"}
STATE_LORE = "咸丰六年春天，运河边的柳林渡。"


def state_said(body: str, now: str = "咸丰六年二月初六") -> list[str]:
    died, days = dates_of_death(STATE_CARDS, STATE_TEXTS)
    world = World(STATE_CARDS, dict(STATE_ALIASES), {"柳林渡"}, set(), ("普通人",), None,
                  places_inside(STATE_LORE, {"柳林渡"}), {"周水生": "他", "周老舵": "他", "阿福": "他", "何二嫂": "她"},
                  died=died, died_day=days, bars=forbidden_of(STATE_CARDS, STATE_TEXTS, STATE_LORE, STATE_ALIASES, {"柳林渡"}))
    return [f.message for f in continuity_helpers.findings(body, world, "周水生", now, ["周水生", "阿福", "何二嫂"])
            if "状态" in f.message]


def test_the_dead_said_to_have_acted_in_the_last_days_fires() -> None:
    assert any("这几天" in m for m in state_said("何二嫂一边择菜一边说：“你爹昨儿个还来我这儿买了两斤豆腐。”"))
    assert state_said("何二嫂压低了嗓子：“老舵今早又在渡口坐了半晌，我亲眼看见的。”")
    assert state_said("“周老舵前天后晌还跟我说，桐油得换新的。”何二嫂说。")


def test_the_dead_of_a_past_told_of_or_dead_this_month_is_silent() -> None:
    # a memory of his lifetime: no days said, a time gone
    assert not state_said("何二嫂一边择菜一边说：“你爹在的时候，常来我这儿买豆腐。”")
    # two days after his death (腊月初八): the day before yesterday he was alive
    assert not state_said("何二嫂一边择菜一边说：“你爹前天还来我这儿买了两斤豆腐。”", "咸丰五年腊月初十")
    assert state_said("何二嫂一边择菜一边说：“你爹前天还来我这儿买了两斤豆腐。”")  # the same words two months on


def test_hands_that_cannot_hold_a_thing_and_the_pronoun_before_the_card() -> None:
    assert state_said("阿福两只手抓住缆绳，咬着牙往岸上拽。")
    # someone else feeds him: the 他 leading the sentence is not the card named after the act
    assert not state_said("阿福坐在船头晒太阳。\n\n他把信揣进怀里，端起那半碗粥，一勺一勺地喂阿福喝完了。")


def test_a_statement_or_a_letter_opening_on_its_day_is_no_entry() -> None:
    # R54 on T3: a statement and a letter home open on the day they tell of; no log's, ledger's or diary's kind
    assert not timed("沈砚秋提笔写情况说明：\n\n“民国二十二年十二月十日，本号后门丢了两箱西药。”\n\n顾伯年在旁边看着。",
                     "民国二十二年十二月十四日")
    assert not timed("晚上，沈砚秋趴在柜台上给家里写：\n\n“民国二十二年十二月十日，我们到了上海，一路都好。”\n\n写完她封了口。",
                     "民国二十二年十二月十四日")
    # a letter written on a page torn from a notebook: the notebook is not what it is
    assert not timed("沈砚秋从本子上撕下一页，给家里写信：\n\n“民国二十二年十二月十日，我们到了上海。”\n\n顾伯年替她去寄。",
                     "民国二十二年十二月十四日")
    # the same words in a diary written tonight: an entry
    assert timed("沈砚秋在日记本上写：\n\n“民国二十二年十二月十日，本号后门丢了两箱西药。”\n\n顾伯年在旁边看着。",
                 "民国二十二年十二月十四日")


def test_an_entry_without_a_dated_in_book_time_is_silent() -> None:
    body = "打烊以后，沈砚秋在柜台上摊开流水簿，蘸了墨写：\n\n“民国二十二年十二月十日，阴。售阿司匹林三瓶。”\n\n顾伯年在后头数钱。"
    assert not timed(body, "民国二十二年冬")
    assert not timed(body, "民国二十二年十二月")


def test_a_death_told_is_no_act_of_the_dead() -> None:
    # R54 on T3: 走的, 翻了船, 咽的气, 出的事 — a death reported
    assert not state_said("何二嫂一边择菜一边说：“你爹昨儿在县里医院走的。”")
    assert not state_said("何二嫂抹着眼泪：“老舵昨儿个在河心翻了船，人没捞上来。”")
    assert not state_said("“周老舵前天在渡口出的事。”何二嫂说。")


def test_a_dead_card_without_a_date_of_death() -> None:
    # R54 on T3: a card saying only 已死: silent where the quote may be the death's telling, read as dead before else
    texts = {"阿福": STATE_TEXTS["阿福"]}
    died, days = dates_of_death(STATE_CARDS, texts)
    assert "周老舵" not in died
    world = World(STATE_CARDS, dict(STATE_ALIASES), {"柳林渡"}, set(), ("普通人",), None,
                  places_inside(STATE_LORE, {"柳林渡"}), {"周水生": "他", "周老舵": "他", "阿福": "他", "何二嫂": "她"},
                  died=died, died_day=days, bars=forbidden_of(STATE_CARDS, texts, STATE_LORE, STATE_ALIASES, {"柳林渡"}))

    def lately(body: str) -> list[str]:
        return [f.message for f in continuity_helpers.findings(body, world, "周水生", "咸丰六年二月初六",
                                                               ["周水生", "阿福", "何二嫂"]) if "这几天" in f.message]
    assert not lately("何二嫂一边择菜一边说：“你爹昨儿在县里医院走的。”")
    assert not lately("何二嫂一边择菜一边说：“你爹昨儿个还来我这儿买了两斤豆腐，谁知夜里就咽了气。”")
    assert lately("何二嫂一边择菜一边说：“你爹昨儿个还来我这儿买了两斤豆腐。”")


def test_a_death_lately_is_counted_in_days_across_a_month_s_end() -> None:
    # R54 on T3: dead on 腊月二十九, two days before 正月初一 of the next year; silent like 腊月三十
    texts = {**STATE_TEXTS, "周老舵": "咸丰五年腊月二十九夜里，渡船在河心翻了，他淹死了。"}
    died, days = dates_of_death(STATE_CARDS, texts)
    world = World(STATE_CARDS, dict(STATE_ALIASES), {"柳林渡"}, set(), ("普通人",), None,
                  places_inside(STATE_LORE, {"柳林渡"}), {"周水生": "他", "周老舵": "他", "阿福": "他", "何二嫂": "她"},
                  died=died, died_day=days, bars=forbidden_of(STATE_CARDS, texts, STATE_LORE, STATE_ALIASES, {"柳林渡"}))
    body = "何二嫂一边择菜一边说：“你爹前天还来我这儿买了两斤豆腐。”"

    def lately(now: str) -> list[str]:
        return [f.message for f in continuity_helpers.findings(body, world, "周水生", now, ["周水生", "阿福", "何二嫂"])
                if "这几天" in f.message]
    assert not lately("咸丰五年腊月三十")
    assert not lately("咸丰六年正月初一")
    assert lately("咸丰六年三月初一")  # two months on: he was dead then
    # an in-book time with no month: which days are the last is not said
    assert not lately("咸丰六年")
