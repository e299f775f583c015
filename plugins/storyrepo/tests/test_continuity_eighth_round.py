"""The classes the eighth round added (issue 30), tuned on 连续性-盲评十一 (a palace) and written here in a
hospital, a farm village, an office, a sect, a school and a ship — other words than the labelled drafts: the
right sentence next to each wrong one.

- a memory told by a past year (去年这个时候, 三年前): the dead speak in it, not in the scene;
- a walk-on with no card (a doctor the roster names by surname and post) speaking is nobody 在场 is kept for;
- a place written right after a larger one (住在青云宗执法堂) lies in it, read from the cards too;
- a contract person the prose points at unnamed (那个姑娘), in a paragraph telling the rest of the line;
- a ladder of ranks on a line of its own in any section is the world's stages; a rank of one character
  counts only as a word of its own; a rank after the person's own title (not the surname) higher than
  the card is asked about;
- a mute speaking aloud in a voice the text names; house arrest (禁足) holds like a quarantine;
- a lunar festival said to be today (今儿是小年) on another day.
"""

from __future__ import annotations

from lw_storyrepo.checks import ERROR, WARN, CheckContext, contract_findings, voices
from lw_storyrepo.continuity import World, check_continuity, dates_of_death, places_inside, stages_of
from lw_storyrepo.forbidden import forbidden_of
from lw_storyrepo.drafts import Draft

CARDS = {
    "许宁": {"姓名": "许宁", "状态": "在世", "位置": "仁和医院"},
    "苏晴": {"姓名": "苏晴", "状态": "在世", "位置": "仁和医院"},
    "王主任": {"姓名": "王主任", "状态": "已死", "位置": "仁和医院"},
    "郑川": {"姓名": "郑川", "状态": "失声", "位置": "仁和医院"},
    "周小满": {"姓名": "周小满", "状态": "禁足", "位置": "宿舍"},
    "陈舟": {"姓名": "陈舟", "状态": "在世", "位置": "食堂"},
}
ALIASES = {**{name: name for name in CARDS}, "老王": "王主任", "老郑": "郑川", "小满": "周小满", "刘大夫": "刘大夫"}
PLACES = {"仁和医院", "食堂", "护士站", "宿舍"}


def continuity(body: str, meta: dict | None = None, cards: dict | None = None, stages: tuple[str, ...] = ("普通人",),
               aliases: dict | None = None) -> list[str]:
    meta = meta or {"视角": "许宁", "书内时间": "十月十三日", "在场": ["许宁", "苏晴"]}
    names = dict(aliases or ALIASES)
    world = World(cards or CARDS, names, PLACES, set(), stages, None, places_inside("", PLACES),
                  {name: "他" for name in CARDS} | {"苏晴": "她", "许宁": "她"},
                  bars=forbidden_of(cards or CARDS, {}, "", names, PLACES))
    ctx = CheckContext(names, [], [], [], 0, set(names), set(), world=world,
                       people=set(CARDS) | {"刘大夫"}).for_draft(meta)
    world.aliases, world.indirect = ctx.aliases, ctx.kin_words
    lines = body.split("\n")
    return [f.message for f in check_continuity(world, meta, lines, 1, voices(ctx, lines), ctx.names_re())]


def about(field: str, found: list[str]) -> list[str]:
    return [m for m in found if field in m]


def test_the_dead_speak_in_a_memory_told_by_a_past_year() -> None:
    assert about("状态", continuity("许宁站在护士站边上。老王端着茶杯笑她：“小许，你写个病历也要数标点？”"))
    assert not about("状态", continuity("许宁站在护士站边上。去年这个时候，老王还端着茶杯笑她：“小许，你写个病历也要数标点？”"))
    assert not about("状态", continuity("许宁站在护士站边上。三年前，老王头一回带她查房，只说：“多看，少说。”"))


def test_a_walk_on_with_no_card_outside_the_cast_is_no_finding() -> None:
    assert not continuity("许宁把病历递过去。\n\n“先住院观察。”刘大夫扶了扶眼镜，“明天再说。”")
    assert about("在场名单", continuity("许宁把病历递过去。\n\n“先住院观察。”陈舟扶了扶眼镜，“明天再说。”"))


def test_a_place_written_right_after_a_larger_one_lies_in_it() -> None:
    places = {"青云宗", "执法堂", "藏经阁", "后山"}
    assert places_inside("林晓住在青云宗执法堂，管着宗门的刑名。", places) == {"执法堂": {"青云宗"}}
    assert places_inside("青云宗的藏经阁在后山。", places) == {"藏经阁": {"青云宗", "后山"}}
    assert places_inside("青云宗，执法堂，藏经阁：三处都要巡。", places) == {}


def contract_errors(line: str, body: str, gender: str = "她") -> list[str]:
    aliases = {"林小满": "林小满", "小满": "林小满", "护士长": "护士长"}
    world = World({"林小满": {"姓名": "林小满"}}, aliases, set(), set(), ("普通人",), gender={"林小满": gender})
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), set(), world=world, people={"林小满", "护士长"}).for_draft({})
    found = contract_findings({"合同": [line]}, Draft("A", {}, body, 5), ctx)
    return [f.message for f in found if f.severity == ERROR and "林小满" in f.message]


def test_a_contract_person_pointed_at_unnamed_where_the_line_is_told() -> None:
    line = "护士长悄悄说病历柜里林小满那一页被人撕掉了"
    told = "护士长看了看四周，压低了声音：“你打听的那个姑娘，病历柜里原该有她一页，可那一页早叫人撕了。”"
    assert contract_errors(line, told) == []
    # the same pointing words where nothing else of the line is told: she is not there
    assert contract_errors(line, "护士长说，那个姑娘早就出院了。\n\n病历柜锁着。") != []
    # words that cannot be her (a young man for a woman the card makes 她)
    assert contract_errors(line, told.replace("那个姑娘", "那个小子")) != []
    assert contract_errors(line, told.replace("那个姑娘", "那个小子"), gender="他") == []


def ranks(body: str, card_rank: str, world_text: str, aliases: dict | None = None, pov: str = "林晓") -> list[str]:
    cards = {"林晓": {"姓名": "林晓", "状态": "在世", "位置": "食堂", "境界": card_rank},
             "许宁": {"姓名": "许宁", "状态": "在世", "位置": "食堂"}}
    names = aliases or {"林晓": "林晓", "许宁": "许宁"}
    meta = {"视角": pov, "书内时间": "十月十三日"}
    return about("境界", continuity(body, meta, cards, stages_of(world_text), names))


def test_a_ladder_on_a_line_of_its_own_in_any_section() -> None:
    office = "## 单位\n科员 ＜ 副科 ＜ 正科 ＜ 副处 ＜ 正处\n\n升一级要熬三年。"
    assert stages_of(office) == ("科员", "副科", "正科", "副处", "正处")
    assert stages_of("## 单位\n张三＜李四，办事不分先后。") == stages_of("")  # a comparison is no ladder
    assert ranks("许宁看着窗外。林晓如今不过是个科员，说话没有分量。", "正科", office)
    assert not ranks("许宁看着窗外。林晓如今不过是个正科，说话没有分量。", "正科", office)


def test_a_one_character_rank_counts_only_as_a_word() -> None:
    ship = "## 船上\n卒 ＜ 伍长 ＜ 什长 ＜ 校 ＜ 将\n"
    assert ranks("许宁回头。林晓如今不过是个卒，谁都能踢他一脚。", "什长", ship)
    assert not ranks("许宁回头。林晓，卒子们都听他的。", "什长", ship)
    assert not ranks("许宁回头。将士们都看着林晓。", "什长", ship)


def test_a_rank_after_the_persons_own_title_higher_than_the_card_is_asked() -> None:
    sect = "## 道门\n道童 ＜ 道人 ＜ 真人 ＜ 天师\n"
    aliases = {"林晓": "林晓", "青霞道人": "林晓", "许宁": "许宁"}
    found = ranks("许宁迎上去：“青霞真人怎么亲自来了！”", "道人", sect, aliases, pov="许宁")
    assert found and "封号" in found[0]
    assert not ranks("许宁迎上去：“青霞道人怎么亲自来了！”", "道人", sect, aliases, pov="许宁")
    # the surname and a higher rank is courtesy (林真人 for a 道人), as before
    assert not ranks("许宁迎上去：“林真人怎么亲自来了！”", "道人", sect, aliases, pov="许宁")


def test_a_mute_speaks_only_in_writing_or_signs() -> None:
    said = continuity("许宁走进病房。\n\n“许护士，”老郑压低了嗓子说，“那天的针不是我扎的。”")
    assert about("说不了话", said)
    assert not about("说不了话", continuity("许宁走进病房。\n\n老郑在纸上写：“那天的针不是我扎的。”"))
    assert not about("说不了话", continuity("许宁走进病房，老郑坐在床边。\n\n“那天的针，是你扎的？”\n\n“不是我扎的。”"))


def test_house_arrest_holds_like_a_quarantine_until_lifted() -> None:
    meta = {"视角": "许宁", "书内时间": "十月十三日"}
    walked_in = "中午的食堂人挤人。小满端着餐盘在许宁对面坐下：“我出来透透气。”"
    assert about("禁足", continuity(walked_in, meta))
    assert not about("禁足", continuity("教导处解了小满的禁足。" + walked_in, meta))


def test_a_lunar_festival_said_to_be_today_on_another_day() -> None:
    def said(body: str, now: str) -> list[str]:
        return about("对不上", continuity(body, {"视角": "许宁", "书内时间": now}))

    village = "许宁把灶台擦了一遍。今儿是小年，村里家家户户都在祭灶。"
    assert said(village, "腊月初九")
    assert not said(village, "腊月二十三")
    assert not said("许宁把灶台擦了一遍。今儿是小年的前一天，村里家家户户都在扫房。", "腊月二十二")
    assert said("许宁推开窗。今天是中秋，月饼还没蒸好。", "八月初三")
    assert not said("许宁推开窗。今天是中秋，月饼还没蒸好。", "八月十五")


def test_the_top_rank_of_the_worlds_own_ladder_names_its_one_holder() -> None:
    from lw_storyrepo.checks import top_rank_names
    from lw_storyrepo.continuity import DEFAULT_STAGES

    ship = ("水手", "舵手", "大副", "船长")
    assert top_rank_names({"老周": {"境界": "船长"}, "阿七": {"境界": "水手"}}, ship) == {"船长": "老周"}
    assert top_rank_names({"老周": {"境界": "船长"}, "老吴": {"境界": "船长"}}, ship) == {}  # two captains: no name
    assert top_rank_names({"老周": {"境界": "大副"}}, ship) == {}
    # a rank that ends one of its one holder's aliases is how they are called (周大副: 大副 is him)
    assert top_rank_names({"老周": {"境界": "大副", "别名": ["周大副"]}}, ship) == {"大副": "老周"}
    assert top_rank_names({"老周": {"境界": "大副", "别名": ["周大副"]}, "老吴": {"境界": "大副"}}, ship) == {}
    assert top_rank_names({"林晓": {"境界": DEFAULT_STAGES[-1]}}, DEFAULT_STAGES) == {}  # the default ladder names nobody


HOLD_CARDS = {"许宁": {"姓名": "许宁", "状态": "在世", "位置": "食堂", "持有": []},
              "苏晴": {"姓名": "苏晴", "状态": "在世", "位置": "食堂", "持有": ["银壳怀表"]}}


def test_a_thing_worn_with_a_measure_word_and_its_looks_between() -> None:
    def held(body: str) -> list[str]:
        names = {"许宁": "许宁", "苏晴": "苏晴"}
        world = World(HOLD_CARDS, names, PLACES, {"银壳怀表"}, ("普通人",), None, {}, {"许宁": "她", "苏晴": "她"})
        meta = {"视角": "苏晴", "书内时间": "十月十三日"}
        ctx = CheckContext(names, [], [], [], 0, set(names), {"银壳怀表"}, world=world, people=set(names)).for_draft(meta)
        world.aliases, world.indirect = ctx.aliases, ctx.kin_words
        lines = body.split("\n")
        return about("持有", [f.message for f in check_continuity(world, meta, lines, 1, voices(ctx, lines), ctx.names_re())])

    assert held("许宁今天穿一件灰呢子大衣，胸前挂着一块刻着船锚的银壳怀表，表链亮得晃眼。")
    assert not held("许宁今天穿一件灰呢子大衣，胸前挂着一块刻着船锚的铜壳怀表，表链亮得晃眼。")
    assert not held("许宁今天穿一件灰呢子大衣，看着苏晴胸前那块刻着船锚的银壳怀表。")


def test_someone_placed_today_is_placed() -> None:
    assert about("护士站", continuity("许宁低着头。苏晴说，陈舟今儿一早在护士站骂了半天人。"))
    assert not about("护士站", continuity("许宁低着头。苏晴说，陈舟今儿一早在食堂骂了半天人。"))


def test_a_letter_made_yesterday_at_a_place_days_away() -> None:
    def far(body: str) -> list[str]:
        places = PLACES | {"北山农场"}
        meta = {"视角": "许宁", "书内时间": "十月十三日"}
        world = World(CARDS, dict(ALIASES), places, set(), ("普通人",), None, {}, {}, journey={"北山农场": 5.0})
        ctx = CheckContext(dict(ALIASES), [], [], [], 0, set(ALIASES), set(), world=world, people=set(CARDS)).for_draft(meta)
        world.aliases, world.indirect = ctx.aliases, ctx.kin_words
        lines = body.split("\n")
        return about("路上的日子不够", [f.message for f in check_continuity(world, meta, lines, 1, voices(ctx, lines), ctx.names_re())])

    assert far("邮递员把信递给许宁：“这是昨儿夜里才在北山农场写好的。”")
    assert far("邮递员把信递给许宁：“这是昨儿夜里才在农场写好的。”")  # the far place by its kind alone
    assert not far("邮递员把信递给许宁：“这是五天前在北山农场写好的。”")
    assert not far("邮递员把信递给许宁：“这是昨儿夜里才在食堂写好的。”")


def test_a_contract_place_named_only_as_a_wish_or_a_route() -> None:
    aliases = {"许宁": "许宁", "护士长": "护士长", "药房": "药房", "花园": "花园"}
    world = World({"许宁": {"姓名": "许宁"}}, aliases, {"药房", "花园"}, set(), ("普通人",))
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), set(), world=world, people={"许宁", "护士长"}).for_draft({})

    def asked(body: str) -> list[str]:
        found = contract_findings({"合同": ["许宁去药房"]}, Draft("A", {}, body, 5), ctx)
        return [f.message for f in found if f.severity in (ERROR, WARN) and "药房" in f.message]

    assert asked("许宁想去药房拿药，刚走到花园就被护士长叫了回去。")
    assert asked("从病房到药房，要穿过花园。许宁走到花园，被护士长拦下了。")
    assert not asked("许宁想去药房拿药。她穿过花园，推开了药房的门。")
    assert not asked("许宁到了药房，拿了药。")
    assert not asked("从病房到药房，许宁走了十分钟。")  # a route travelled, not one told ahead


def test_years_said_passed_since_a_death_the_card_dates() -> None:
    cards = {**CARDS, "王主任": {"姓名": "王主任", "状态": "已死", "位置": "仁和医院"}}
    died = dates_of_death(cards, {"王主任": "内科主任，一辈子没结婚。2019年3月在值班室突发心梗去世。"})[0]
    assert died == {"王主任": ("", 2019, 3)}

    def said(body: str) -> list[str]:
        meta = {"视角": "许宁", "书内时间": "2020年5月10日"}
        world = World(cards, dict(ALIASES), PLACES, set(), ("普通人",), None, {}, {}, died=died)
        ctx = CheckContext(dict(ALIASES), [], [], [], 0, set(ALIASES), set(), world=world, people=set(cards)).for_draft(meta)
        world.aliases, world.indirect = ctx.aliases, ctx.kin_words
        lines = body.split("\n")
        return about("书内时间", [f.message for f in check_continuity(world, meta, lines, 1, voices(ctx, lines), ctx.names_re())])

    assert said("许宁站在值班室门口。一晃三年多了，老王那只搪瓷缸子还摆在窗台上。")
    assert not said("许宁站在值班室门口。一晃一年多了，老王那只搪瓷缸子还摆在窗台上。")
    assert not said("许宁站在值班室门口。一晃三年多了，那只搪瓷缸子还摆在窗台上。")  # no dead named: since what?


def test_a_rank_that_names_its_one_holder_still_ranks_after_another_surname() -> None:
    ship = "## 船上\n水手 ＜ 舵手 ＜ 大副 ＜ 船长\n"
    aliases = {"林晓": "林晓", "许宁": "许宁", "大副": "许宁"}  # 许宁 is the one 大副: the word names her
    assert ranks("许宁推开舱门：“林大副，船长叫你。”", "船长", ship, aliases, pov="许宁")
    assert not ranks("许宁推开舱门：“林船长，大副叫你。”", "船长", ship, aliases, pov="许宁")
