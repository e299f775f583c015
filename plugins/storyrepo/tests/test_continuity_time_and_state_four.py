"""The forty-second continuity round (issue 30, task T4 at stop 55): 书内时间 and 状态, the newest books' misses.

连续性-盲评三十六 and 三十七 (blind last stop, development since) missed a day gone in an entry written in the scene, a
festival by its folk name counted from today, days counted down to an event named by its doer, and the dead said to
have done a thing this noon by a verb the table did not hold. Read as facts of the calendar and of the card, not of the
books' words:

- an entry brought in by a clause writing it now (…在新的一页上写下： / …一笔一画地写：) is an entry, quoted or not, and
  the other clauses of that paragraph (翻开那本工簿, 翻一摞旧班报: someone's other doings) no longer tell it old
  (:data:`ENTRY_INTRO`); the pool's class (二十六, 三十四, 三十五) now also in 三十六 and 三十七;
- a festival by its folk name (七月半, 八月节, 二月二) in :data:`LUNAR_FEAST_DAYS`, a numeral after it a longer date;
- a countdown's event named by its leading words, three characters or more, when every dated event holding them falls
  on one day (离检尺组上山只剩三天了 for a card's 十二月十五日陪林业局检尺组上老熊沟验收);
- after 还 or 又 any doing of the dead lately (你爹晌午还蹲在马棚门口), not a being or a having (还好好的, 还是, 还有);
- a rank's title on a surname goes to the surname's one ranked bearer, another bearer holding no rank at all
  (方墨师 of the 伙计 方伯安, whose father 方德润 carries no 境界).

Written here in books none of the sets use: a 1958 railway halt, a 乾隆 pawnshop, a 2010 cargo ship, a 嘉靖 village, a
2021 rural clinic, a 民国 tea boat and a 1980s opera troupe.
"""

from __future__ import annotations

from typing import Any

from lw_storyrepo.continuity import ENTRY_HEAD, FEAST_ON_DAY, World, dated_events, dated_subjects, dates_of_death, \
    places_inside, told_of
from lw_storyrepo.ranks import ladders_of

import continuity_helpers

HALT: dict[str, dict[str, Any]] = {
    "苏映红": {"姓名": "苏映红", "状态": "在世", "位置": "小站"},
    "郝长林": {"姓名": "郝长林", "状态": "在世", "位置": "小站"},
}


def timed(body: str, now: str, lore: str = "", texts: dict[str, str] | None = None) -> list[str]:
    """The 书内时间 findings of ``body`` told by 苏映红 at ``now`` in a book whose 世界观 is ``lore``."""
    world = World(HALT, {n: n for n in HALT}, set(), set(), ("普通人",), None, places_inside(lore, ()),
                  {"苏映红": "她", "郝长林": "他"}, dated=dated_events([lore, *(texts or {}).values()]),
                  dated_by=dated_subjects(lore, texts or {}))
    return [f.message for f in continuity_helpers.findings(body, world, "苏映红", now) if "书内时间" in f.message]


def test_an_entry_brought_in_by_a_clause_writing_it_now_fires_unquoted() -> None:
    # a 1958 railway halt's duty log: the page before turned over in the same paragraph, the entry unquoted
    assert timed("夜班，苏映红翻过前一页，拧开钢笔，在新的一页上写下：\n\n一九五八年三月四日，阴。慢车晚点十二分钟。\n\n"
                 "郝长林在炉子边烤手。", "一九五八年三月六日")
    # a 乾隆 pawnshop's book, its kind named before the colon
    assert timed("打烊以后，苏映红把当簿摊开，提笔写：\n\n乾隆四十年六月初二，收羊皮袄一件，当钱八百文。\n\n写完吹干了墨。",
                 "乾隆四十年六月初五")
    # a 2010 cargo ship's log in Arabic numerals, its old pages read by another in the paragraph before
    assert timed("郝长林在海图桌另一头翻着旧日志。苏映红看了看表，在航海日志上写道：\n\n2010年8月3日，晴，东北风四级。"
                 "航速十一节。\n\n写完她合上本子。", "二〇一〇年八月五日 星期四")
    assert ENTRY_HEAD.match("2010年8月3日，晴。") is not None


def test_an_entry_made_up_for_a_day_gone_a_letter_or_no_entry_is_silent() -> None:
    # the introducing clause says it is made up for a gone day
    assert not timed("苏映红拧开钢笔，在本子上补记：\n\n一九五八年三月四日，阴。慢车晚点十二分钟。\n\n郝长林在炉子边烤手。",
                     "一九五八年三月六日")
    # a letter: its date is the day it tells of
    assert not timed("苏映红趴在桌上，在信纸上写下：\n\n一九五八年三月四日，我们这里下了雪。\n\n写完她封了口。",
                     "一九五八年三月六日")
    # today's own day, unquoted: right
    assert not timed("夜班，苏映红在新的一页上写下：\n\n一九五八年三月六日，阴。慢车晚点十二分钟。\n\n郝长林在炉子边烤手。",
                     "一九五八年三月六日")
    # a paragraph opening on a date without a clause bringing it in: narration
    assert not timed("一九五八年三月四日，阴。那天慢车晚点十二分钟。\n\n苏映红写完信，吹灭了灯。", "一九五八年三月六日")


def test_a_festival_by_its_folk_name_on_a_day_counted_from_today_fires() -> None:
    assert timed("郝长林往灶里添了把柴：“后天就是七月半了，纸钱还没买。”", "嘉靖十二年七月初十")
    assert timed("“明天过八月节，你早点回家。”苏映红说。", "嘉靖十二年八月初十")
    assert timed("后天就是二月二，郝长林说要去剃头。", "嘉靖十二年正月二十")


def test_a_festival_by_its_folk_name_on_its_day_or_a_longer_date_is_silent() -> None:
    assert not timed("郝长林往灶里添了把柴：“后天就是七月半了，纸钱还没买。”", "嘉靖十二年七月十三")
    assert FEAST_ON_DAY.search("明天就是三月三十，该交租了。") is None  # 三月三十, no 三月三
    assert not timed("明天就是三月三十，该交租了。", "嘉靖十二年三月二十")


CLINIC_LORE = "二〇二一年冬，山里的卫生院。"
CLINIC_TEXTS = {"郝长林": "卫生院院长。十一月二十日陪县里的巡诊医疗队进山义诊。",
                "苏映红": "卫生院的护士。"}


def test_days_counted_down_to_an_event_named_by_its_doer_fire() -> None:
    # the card dates the medical team's coming on the 20th: ten days off, not three
    assert timed("苏映红把药柜锁上：“离巡诊医疗队进村只剩三天了。”", "二〇二一年十一月十日", CLINIC_LORE, CLINIC_TEXTS)
    assert timed("离巡诊医疗队上山只剩两天，药还没到。", "二〇二一年十一月十日", CLINIC_LORE, CLINIC_TEXTS)


def test_days_counted_down_right_or_to_an_event_of_two_days_are_silent() -> None:
    assert not timed("苏映红把药柜锁上：“离巡诊医疗队进村只剩三天了。”", "二〇二一年十一月十七日", CLINIC_LORE,
                     CLINIC_TEXTS)
    # the leading words held by events of two days (进山 on the 20th, 下山 on the 28th): which one is not said
    two = {**CLINIC_TEXTS, "苏映红": "卫生院的护士。十一月二十八日跟巡诊医疗队下山。"}
    assert not timed("离巡诊医疗队到村只剩三天了。", "二〇二一年十一月十日", CLINIC_LORE, two)
    assert timed("离巡诊医疗队进村只剩三天了。", "二〇二一年十一月十日", CLINIC_LORE, two)  # 进 is the 20th's


# a 民国 tea boat on the 运河: the old boatman dead since last spring
BOAT: dict[str, dict[str, Any]] = {
    "阿桂": {"姓名": "阿桂", "状态": "在世", "位置": "茶船"},
    "老艄公": {"姓名": "老艄公", "状态": "已死", "位置": "茶船"},
    "钱嫂": {"姓名": "钱嫂", "状态": "在世", "位置": "茶船"},
}
BOAT_TEXTS = {"老艄公": "民国十九年三月初二夜里在船上病故。", "阿桂": "艄公的女儿。"}
BOAT_ALIASES = {**{n: n for n in BOAT}, "你爹": "老艄公", "老船头": "老艄公"}


def stated(body: str, now: str = "民国二十年九月初六") -> list[str]:
    died, days = dates_of_death(BOAT, BOAT_TEXTS)
    world = World(BOAT, dict(BOAT_ALIASES), {"茶船"}, set(), ("普通人",), None, places_inside("民国二十年，运河上的茶船。", {"茶船"}),
                  {"阿桂": "她", "老艄公": "他", "钱嫂": "她"}, died=died, died_day=days)
    return [f.message for f in continuity_helpers.findings(body, world, "阿桂", now, ["阿桂", "钱嫂"]) if "状态" in f.message]


def test_the_dead_said_to_have_done_anything_lately_after_hai_fires() -> None:
    assert stated("钱嫂一边擦桌子一边说：“你爹晌午还蹲在船头补网呢。”")
    assert stated("“老船头今早还哼了两句小调。”钱嫂说。")
    assert stated("钱嫂压低了声音：“老艄公昨儿又摇着橹往闸口去了，我亲眼看见的。”")


def test_the_dead_said_well_or_the_same_lately_is_silent() -> None:
    # how a death is told: 还好好的 the day before
    assert not stated("钱嫂抹着眼泪：“你爹前天还好好的，谁想得到。”", "民国十九年三月初三")
    assert not stated("钱嫂一边擦桌子一边说：“你爹在的时候，晌午总蹲在船头补网。”")


# a 1980s county opera troupe: the ladder 学员 < 演员 < 台柱 < 团长; the 演员 韩小云's father 韩师傅 keeps the
# props and carries no rank, nor does the visiting critic 贾先生
TROUPE_LADDER = "## 职级\n学员 ＜ 演员 ＜ 台柱 ＜ 团长\n"
TROUPE: dict[str, dict[str, Any]] = {
    "韩小云": {"姓名": "韩小云", "状态": "在世", "位置": "剧团", "境界": "演员", "持有": []},
    "韩守田": {"姓名": "韩守田", "状态": "在世", "位置": "剧团", "持有": []},
    "贾一鸣": {"姓名": "贾一鸣", "状态": "在世", "位置": "剧团", "境界": "学员", "持有": []},
    "贾秋生": {"姓名": "贾秋生", "状态": "在世", "位置": "剧团", "境界": "演员", "持有": []},
}


def ranked(body: str, texts: dict[str, str] | None = None) -> list[str]:
    world = World(TROUPE, {p: p for p in TROUPE}, {"剧团"}, set(), ("学员", "演员", "台柱", "团长"), None, {},
                  {p: "她" if p == "韩小云" else "他" for p in TROUPE},
                  ladders=ladders_of(TROUPE_LADDER, ["学员", "演员"]), told=told_of({}, TROUPE), texts=texts or {})
    return [f.message for f in continuity_helpers.findings(body, world, "韩小云", "一九八三年三月三日", list(TROUPE), changes=[])
            if "境界" in f.message]


def test_a_title_on_a_surname_whose_other_bearer_holds_no_rank_is_the_ranked_one_s() -> None:
    # 韩 is the surname of the 演员 and of her unranked father: 韩台柱 can only be hers
    assert ranked("锣鼓还没响。韩台柱一早就进了化妆间，对着镜子勾脸。")
    assert ranked("散了戏，韩团长把行头一件件叠好，锁进箱子。")
    assert ranked("天还没亮，韩台柱已经在后台压腿了。")


def test_a_title_on_a_surname_of_two_ranked_bearers_or_the_card_s_own_is_silent() -> None:
    assert not ranked("锣鼓还没响。贾台柱一早就进了化妆间，对着镜子勾脸。")  # 贾: two ranked, which one is not said
    assert not ranked("锣鼓还没响。韩演员一早就进了化妆间，对着镜子勾脸。")  # the card's own rung


# R55 on T4: the outside reader's counter-examples (a South Pole station, a steppe camp, a hospital) and the guards

def test_a_countdown_to_another_doing_of_a_dated_doer_is_silent() -> None:
    # the ship's leaving is dated, not its coming in: 靠岸 is no 离港
    lore = "二〇三一年冬，南极中山站。二〇三一年十二月二十八日雪龙号补给船离港回国。"
    assert not timed("郝长林搓着手说：“离雪龙号补给船靠岸只剩三天了。”", "二〇三一年十二月十日", lore)
    assert timed("郝长林搓着手说：“离雪龙号补给船离港只剩三天了。”", "二〇三一年十二月十日", lore)  # its own doing


def test_the_dead_done_to_or_owing_lately_is_silent() -> None:
    assert not stated("“你爹昨儿又被老喇嘛念叨起来了。”钱嫂说。")
    assert not stated("“你爹前天还欠着供销社三块钱呢。”钱嫂说。")
    # a having or a lack after 还 (how the dead are remembered), long after the death (no 还好好的 of the day before)
    assert not stated("钱嫂叹了口气：“你爹这两天还有人念着他的好呢。”")
    assert not stated("钱嫂叹了口气：“你爹这两天还没人去坟上烧纸。”")


def test_a_title_on_a_surname_whose_other_bearer_s_card_names_a_post_is_silent() -> None:
    # the father carries no 境界, but his card says he was the troupe's head: 韩团长 may be him
    assert not ranked("散了戏，韩团长把行头一件件叠好，锁进箱子。", {"韩守田": "韩小云的父亲，剧团退休的老团长。"})
    assert ranked("散了戏，韩团长把行头一件件叠好，锁进箱子。", {"韩守田": "韩小云的父亲，管道具的。"})


def test_an_entry_whose_intro_or_next_paragraph_tells_it_old_is_silent() -> None:
    # the clause bringing it in writes it now but makes it up for a gone day
    assert not timed("夜班，苏映红在新的一页上把前天的事补写下来：\n\n一九五八年三月四日，阴。慢车晚点十二分钟。\n\n"
                     "郝长林在炉子边烤手。", "一九五八年三月六日")
    # brought in by a clause writing it now, the paragraph after tells it was a gone day's
    assert not timed("夜班，苏映红在新的一页上写下：\n\n一九五八年三月四日，阴。慢车晚点十二分钟。\n\n"
                     "这一条是前天落下的，她今天才补上。", "一九五八年三月六日")


def test_today_said_by_a_date_opening_on_a_festival_s_name_is_silent() -> None:
    assert not timed("今天是三月三十，该交租了。", "嘉靖十二年三月三十")
    assert not timed("今儿是二月二十，郝长林要去剃头。", "嘉靖十二年二月二十")


# S2 (stop 55): a memory frame is the narration's, never the dead one's own quoted words (U12: 「“撑得住。”铁锁在门口说，
# “比我当年扎的强。”」). Written here in a 1990s mountain school.
SCHOOL: dict[str, dict[str, Any]] = {
    "林老师": {"姓名": "林老师", "状态": "在世", "位置": "学校"},
    "老校长": {"姓名": "老校长", "状态": "已死", "位置": "学校"},
}


def spoken(body: str) -> list[str]:
    """The 状态 findings of ``body`` told by 林老师 in a school whose 老校长 is dead."""
    world = World(SCHOOL, {n: n for n in SCHOOL}, {"学校"}, set(), ("普通人",), None, places_inside("", {"学校"}),
                  {"林老师": "她", "老校长": "他"})
    return [f.message for f in continuity_helpers.findings(body, world, "林老师", "1996年9月1日", ["林老师"])
            if "状态" in f.message]


def test_the_dead_speaking_now_of_their_own_past_fires() -> None:
    assert spoken("“这墙刷得好。”老校长在门口说，“比我当年刷的白。”")
    assert spoken("老校长站在讲台边说：“从前这里只有三张桌子。”")
    assert spoken("“那年发大水，课也没停过。”老校长在窗下说。")


def test_the_dead_speaking_framed_as_a_memory_by_the_narration_is_silent() -> None:
    assert not spoken("林老师想起老校长当年说过：“这墙刷得好。”")
    assert not spoken("当年老校长在门口说：“这墙刷得好。”")
