"""The classes the twenty-third round read (issue 30: misses), found on the development books 连续性-盲评二十四 (a
1936 salt well) and 二十五 (a 1975 county film team), each shown here in other genres and periods — a Taipei
bookshop in 民国三十八年, a Kyoto inn in 昭和, a Dalian shipyard in 1962, a Harbin hospital in 1983 — with two
near-misses that must not fire:

- an era that counts Gregorian years (民国, 昭和, 平成) gives the in-book day its weekday (今天礼拜一 on a Sunday);
- today said to be a day of the month with 都 (今天都十三号了 on the 11th);
- days said passed since a death the card dates to the day (师父走了整整十天, eighteen days after);
- a rank the narration puts before someone's alias as a title (山匠蒋烟杆, 副队长覃胖子) says what he is: higher than
  his card is a warning, as a rank said of him is — in someone's mouth it stays a courtesy;
- a rank set beside 他 (他一个学徒，哪里轮得到…) is his, and lower than his card a slip; the 他 is the one named
  before who has a rank (the dead master he remembers has none);
- a ladder line led by its label and a colon (井上手艺人的等第：学徒 ＜ 帮手 …) keeps its lowest rung; with that rung
  read, two ways a good draft says it (on 连续性-盲评十八 and 二十) are read too: a rank of a month gone by (四月里我还是个粗使)
  and a rank whose clause opens on a pronoun after another's name (人家沈老九是内舍生，你是外舍生) is not the name's.
"""

from __future__ import annotations

from typing import Any

from lw_storyrepo.checks import CheckContext, voices
from lw_storyrepo.continuity import World, check_continuity, dates_of_death, stages_of


def check(cards: dict[str, dict[str, Any]], aliases: dict[str, str], body: str, meta: dict[str, Any],
          stages: tuple[str, ...] = ("普通人",), **more: Any) -> list[tuple[str, str]]:
    names = {**{n: n for n in cards}, **aliases}
    world = World(cards, dict(names), set(), set(), stages, None, {}, {n: "他" for n in cards}, **more)
    meta = {"设定变更": [], "在场": list(cards), **meta}
    ctx = CheckContext(dict(names), [], [], [], 0, set(names), set(), world=world, people=set(cards)).for_draft(meta)
    world.aliases, world.indirect = ctx.aliases, ctx.kin_words
    lines = body.split("\n")
    return [(f.severity, f.message) for f in check_continuity(world, meta, lines, 1, voices(ctx, lines), ctx.names_re())]


def said(findings: list[tuple[str, str]], word: str) -> list[str]:
    return [m for _s, m in findings if word in m]


BOOKSHOP = {"沈慕文": {"姓名": "沈慕文", "状态": "在世", "位置": "台北"}}


def test_an_era_of_gregorian_years_gives_the_day_its_weekday() -> None:
    # 民国三十八年十一月六日 is 1949-11-06, a Sunday; 昭和十年四月一日 is 1935-04-01, a Monday
    def day(body: str, now: str) -> list[str]:
        return said(check(BOOKSHOP, {}, body, {"视角": "沈慕文", "书内时间": now}), "对不上")
    assert day("沈慕文掸了掸柜台上的灰：“今天礼拜三，书商要来收账。”", "民国三十八年十一月六日")
    assert day("女将拉开纸门：“今天是星期五，客人都要早走。”", "昭和十年四月一日")
    assert day("护士长翻了翻本子：“明天就是星期四了，查房提前。”", "平成三年七月一日")  # a Monday: tomorrow is Tuesday
    # near-misses: the weekday the date is, and a reign no table counts
    assert day("沈慕文掸了掸柜台上的灰：“今天礼拜天，书商不来。”", "民国三十八年十一月六日") == []
    assert day("掌柜的说：“今天礼拜三。”", "光绪二十六年五月初三") == []
    # 以前的账 is a thing, not a clause told as gone: the weekday is still read (stop 49's outside read)
    assert day("沈慕文翻开账本：“今天礼拜三，以前的账一笔勾销。”", "民国三十八年十一月六日")


SHIPYARD = {"郑小满": {"姓名": "郑小满", "状态": "在世", "位置": "大连"}}


def test_today_said_with_du_is_a_day_of_the_month() -> None:
    def day(body: str) -> list[str]:
        return said(check(SHIPYARD, {}, body, {"视角": "郑小满", "书内时间": "1962年5月3日"}), "对不上")
    assert day("车间主任一进门就嚷：“今天都八号了，龙骨还没铺完！”")
    assert day("小满掰着指头算：今天都已经十号了，信还没到。")
    assert day("老焊工叹气：“今天都二十号了吧？我这记性。”")
    # near-misses: today's own day, and a day named by what is on it
    assert day("车间主任一进门就嚷：“今天都三号了，龙骨还没铺完！”") == []
    assert day("车间主任说：“今天都是八号的活，明天再说。”") == []


HOSPITAL = {
    "许明哲": {"姓名": "许明哲", "状态": "在世", "位置": "哈尔滨"},
    "顾德昌": {"姓名": "顾德昌", "状态": "已死", "位置": "哈尔滨"},
}
HOSPITAL_TEXTS = {"顾德昌": "外科老主任。1983年4月2日夜里在手术台边倒下去世，年六十一。"}


def test_days_since_a_death_the_card_dates_to_the_day() -> None:
    died, day = dates_of_death(HOSPITAL, HOSPITAL_TEXTS)
    assert died == {"顾德昌": ("", 1983, 4)} and day == {"顾德昌": 2}
    assert dates_of_death({"老渔": {"状态": "已死"}}, {"老渔": "一九七五年九月二十七日（星期六）夜里船在河心翻了。"})[1] == {"老渔": 27}

    def count(body: str, now: str = "1983年4月20日") -> list[str]:
        return said(check(HOSPITAL, {"老顾": "顾德昌", "主任": "顾德昌"}, body, {"视角": "许明哲", "书内时间": now},
                          died=died, died_day=day), "天")
    assert count("许明哲推开值班室的门。老顾走了整整十天，桌上的茶杯还没人收。")  # eighteen days
    assert count("离主任出事已经三十天了，科里还是乱糟糟的。")
    assert count("主任去世快一个星期了。主任去世快五天了，许明哲还睡不着。")  # 快五天: eighteen is more than five
    # near-misses: the count the dates give, and a journey of days
    assert count("许明哲推开值班室的门。老顾走了整整十八天，桌上的茶杯还没人收。") == []
    assert count("许明哲想起那年，老顾走了十天的山路才到林场。") == []


RIVER_CARDS = {
    "郑小满": {"姓名": "郑小满", "状态": "在世", "位置": "大连", "境界": "二副"},
    "罗大江": {"姓名": "罗大江", "状态": "在世", "位置": "大连", "境界": "水手"},
    "郑老舵": {"姓名": "郑老舵", "状态": "已死", "位置": "大连"},
}
RIVER_NAMES = {"小满": "郑小满", "罗麻杆": "罗大江", "老舵": "郑老舵"}
RIVER_STAGES = ("见习生", "水手", "二副", "大副", "船长")


def ranks(body: str) -> list[tuple[str, str]]:
    return [(s, m) for s, m in check(RIVER_CARDS, RIVER_NAMES, body, {"视角": "郑小满", "书内时间": "1962年5月3日"},
                                     RIVER_STAGES) if "境界" in m]


def test_a_rank_the_narration_puts_before_an_alias() -> None:
    assert ranks("码头上风大，大副罗麻杆蹲在缆桩边抽烟。")
    assert ranks("船长罗麻杆背着手从跳板上走下来。")
    assert [s for s, _m in ranks("天黑以后，二副罗麻杆才回到船上。")] == ["warn"]
    # near-misses: the rank his card holds, and a courtesy in someone's mouth
    assert ranks("码头上风大，水手罗麻杆蹲在缆桩边抽烟。") == []
    assert ranks("小满笑着喊：“大副罗麻杆，过来喝一口！”") == []


def test_a_rank_set_beside_him() -> None:
    assert ranks("小满攥着缆绳。可他又能怎样？他一个见习生，哪里轮得到去问船长的账。")
    assert ranks("老舵当年说过，船不等人。小满心里发凉。他一个见习生，说话谁会听？")  # the dead 老舵 has no rank
    assert ranks("罗麻杆把帽子一摔。他一个见习生，也配管我？")
    # near-misses: a higher rank beside him (a grudge, a courtesy), and 一个 that counts
    assert ranks("罗麻杆把帽子一摔。他一个大副，不会不晓得船离不得人。") == []
    assert ranks("罗麻杆一个人蹲在船头，谁也不理。") == []


def test_a_ladder_line_led_by_its_label() -> None:
    def lore(line: str) -> str:
        return f"# 世界观\n\n## 力量体系\n{line}\n\n卡上「境界」记的就是这个。\n"
    assert stages_of(lore("船厂里的位子：学徒工 ＜ 铆工 ＜ 工段长 ＜ 厂长")) == ("学徒工", "铆工", "工段长", "厂长")
    assert stages_of(lore("旅馆里的位分，从低到高：下女 ＜ 仲居 ＜ 番头 ＜ 女将")) == ("下女", "仲居", "番头", "女将")
    assert stages_of(lore("医院里的职称：住院医 < 主治 < 副主任 < 主任")) == ("住院医", "主治", "副主任", "主任")
    # near-misses: a ladder line with no label, and one whose commas come after its first rung
    assert stages_of(lore("学徒 ＜ 帮手 ＜ 山匠 ＜ 掌班")) == ("学徒", "帮手", "山匠", "掌班")
    assert stages_of(lore("练气 ＜ 筑基 ＜ 金丹 ＜ 元婴，一境九层")) [:4] == ("练气", "筑基", "金丹", "元婴")
    # rungs listed with commas before the first sign are rungs (the label ends at a colon), and a section with no
    # ladder line keeps its own words (stop 49's outside read)
    assert stages_of(lore("外门，内门，真传 → 长老 → 掌门")) == ("外门", "内门", "真传", "长老", "掌门")
    assert stages_of(lore("青铜, 白银, 黄金 > 钻石 > 王者")) == ("青铜", "白银", "黄金", "钻石", "王者")
    assert stages_of(lore("练气，筑基，金丹，元婴\n注：1→9")) == ("练气", "筑基", "金丹", "元婴")


def test_a_lowest_rung_said_of_a_month_gone_by_or_of_another_clause() -> None:
    assert ranks("小满叹了口气：“三月里我还是个见习生，哪轮得到我上驾驶台。”") == []
    assert ranks("小满瞪着他：“人家罗麻杆是水手，你是见习生，轮得到你？”") == []
    assert ranks("罗麻杆是见习生，天天挨骂。")  # the name's own clause: his rank, lower than his card
