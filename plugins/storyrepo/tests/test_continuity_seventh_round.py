"""The classes the seventh round added (issue 30), tuned on 连续性-盲评十 (a survivors' base) and written
here in a hospital and a sect, other words than the labelled drafts: the right sentence next to each wrong one.

- the dead in a habit told (每次…都) or in what they had long known (早就知道): memory, not the scene;
- a visit to the quarantined goes on past a scene's ten paragraphs, until the visitor leaves;
- a radio (电台) carries a far voice like a phone;
- a keyword that is a roster entry of no person, place or thing (a gang, an order) and that no public text
  says is the secret's own word: a non-knower saying it leaks it;
- a question right after a turn answered without words (摇头) is the asker pressing on;
- a ladder of letter grades (F阶 ＜ E阶 ＜ …) is the world's stages, and a grade said higher than the card
  is asked about (a breakthrough never recorded, or a slip), lower one an error as before;
- the power of the powerless seen at work (一道冰墙从地上拔起来), not one standing there;
- a card's relation sentence reads a name followed by 的 as an owner (X是Y的妻子，他叫…: X is called);
- a place named by a known place and its kind (城南药库) is met by its kind alone when it is the only one.
"""

from __future__ import annotations

from lw_storyrepo.checks import WARN, CheckContext, _by_its_kind_in_region, leak_and_waste, voices
from lw_storyrepo.continuity import World, check_continuity, far_places, haunts_of, journeys, places_inside, stages_of

CARDS = {
    "许宁": {"姓名": "许宁", "状态": "在世", "位置": "仁和医院", "持有": ["听诊器"]},
    "王主任": {"姓名": "王主任", "状态": "已死", "位置": "仁和医院"},
    "郑川": {"姓名": "郑川", "状态": "隔离", "位置": "隔离病房"},
    "陈舟": {"姓名": "陈舟", "状态": "在世", "位置": "海州"},
    "苏晴": {"姓名": "苏晴", "状态": "在世", "位置": "仁和医院"},
}
ALIASES = {**{name: name for name in CARDS}, "老王": "王主任", "老郑": "郑川", "陈院长": "陈舟", "晴姐": "苏晴",
           "青衣会": "青衣会", "城南": "城南", "城南药库": "城南药库"}
PLACES = {"仁和医院", "隔离病房", "海州", "食堂", "护士站", "城南", "城南药库"}
ITEMS = {"听诊器"}
LORE = "隔离病房在仁和医院。海州在北边，离仁和医院一千多里，车要走半个多月。"


def world_and_ctx(meta: dict, secrets: list | None = None, cards: dict | None = None,
                  stages: tuple[str, ...] = ("普通人",)) -> tuple[World, CheckContext]:
    world = World(cards or CARDS, dict(ALIASES), PLACES, ITEMS, stages, None, places_inside(LORE, PLACES),
                  {name: "他" for name in CARDS} | {"苏晴": "她", "许宁": "她"},
                  far=far_places([LORE], PLACES), journey=journeys([LORE], PLACES), haunts=haunts_of({}, PLACES))
    ctx = CheckContext(dict(ALIASES), secrets or [], [], [], 0, set(ALIASES), set(ITEMS), world=world,
                       people=set(CARDS)).for_draft(meta)
    world.aliases, world.indirect = ctx.aliases, ctx.kin_words
    return world, ctx


def continuity(body: str, cards: dict | None = None, stages: tuple[str, ...] = ("普通人",)) -> list[str]:
    meta = {"视角": "许宁", "书内时间": "十月十三日", "在场": ["许宁", "苏晴"]}
    world, ctx = world_and_ctx(meta, cards=cards, stages=stages)
    lines = body.split("\n")
    return [f.message for f in check_continuity(world, meta, lines, 1, voices(ctx, lines), ctx.names_re())]


def about(field: str, found: list[str]) -> list[str]:
    return [m for m in found if field in m]


def test_the_dead_in_a_habit_told_or_in_what_they_had_long_known() -> None:
    assert about("状态", continuity("许宁推开门。老王站在护士站边上，一个一个点名，点完了才让交班。"))
    assert not about("状态", continuity("许宁推开门。每次交班，老王都站在护士站边上，一个一个点名，点完了才让交班。"))
    assert about("状态", continuity("许宁回头看了一眼。老王站在走廊尽头，知道那台手术会出事。"))
    assert not about("状态", continuity("许宁回头看了一眼走廊。老王早就知道那台手术会出事——这个念头扎进了她心里，拔不出来。"))


VISIT_TALK = ["老郑坐在床边，背对着窗户。", "“你来了。”", "“来了。”", "许宁把一袋橘子递进传递口。",
              "老郑没接，只是看着她。", "“护士长还好吗？”", "“不好。”", "沉默了很久。", "“我跟你说一件事。”",
              "“你说。”", "许宁攥紧了手里的笔。", "“那天的针，不是我扎错的。”", "“那是谁？”"]


def test_a_visit_to_the_quarantined_goes_on_until_the_visitor_leaves() -> None:
    visit = "\n\n".join(["下午三点，许宁来到隔离病房的探视窗前，拿起内线电话。", *VISIT_TALK, "老郑摇头。"])
    assert not about("状态", continuity(visit))
    canteen = "\n\n".join(["中午的食堂人挤人，许宁端着餐盘找座位。", *VISIT_TALK, "老郑摇头。"])
    assert about("状态", continuity(canteen))
    left = "\n\n".join(["下午三点，许宁来到隔离病房的探视窗前。", "“你来了。”", "许宁放下电话，走出了那条走廊。",
                        "天黑了。", "食堂里人挤人。", "许宁端着餐盘找座位。", "晴姐冲她招手。",
                        "老郑端着餐盘在她对面坐下。"])
    assert about("状态", continuity(left))


def test_a_radio_carries_a_far_voice() -> None:
    talk = ["“那批药到了没有？”", "“到了。”", "“院里还缺什么？”"]
    assert not about("在场", continuity("\n\n".join(["电台里安静了一下，只剩沙沙声。", *talk[:2],
                                                      "“缺人。”陈院长说，“下个月我再派两个来。”"])))
    assert about("在场", continuity("\n\n".join(["走廊里安静了一下。", *talk[:2], "“缺人。”陈院长说，“下个月我再派两个来。”"])))


SECRET = [("S-001", {"陈舟"}, False, ["顶罪", "青衣会"])]


def leaks(body: str) -> list[str]:
    meta = {"视角": "许宁", "在场": ["许宁", "陈舟"]}
    _world, ctx = world_and_ctx(meta, SECRET)
    return [f.message for f in leak_and_waste(ctx, body.split("\n"), 1, pov="许宁") if f.kind == "泄密"]


def test_a_gang_s_name_no_public_text_says_is_the_secret_s_own_word() -> None:
    assert leaks("晴姐压低了声音：“听说那晚来的是青衣会的人。”")
    assert not leaks("陈院长压低了声音：“那晚来的是青衣会的人。”")  # he knows it
    assert not leaks("晴姐压低了声音：“听说那晚来的是城南的人。”")  # a place: said every day


def test_a_question_after_a_turn_without_words_is_the_asker_pressing_on() -> None:
    opening = ["陈院长放下茶杯，叹了口气。", "“那天夜里，药房失了火。”", "许宁盯着他：“是谁放的？”", "陈院长摇头。"]
    assert leaks("\n\n".join([*opening, "“……是青衣会的人？”"]))  # 许宁 asks again
    assert not leaks("\n\n".join([*opening, "“……是青衣会的人。”"]))  # 陈院长 answers, and he knows


def test_a_place_by_its_kind_alone_when_it_is_the_only_one() -> None:
    _world, ctx = world_and_ctx({})
    assert _by_its_kind_in_region(ctx, "城南药库", "她把领药单送到药库，天已经黑了。")
    assert not _by_its_kind_in_region(ctx, "城南药库", "她把领药单送到药房，天已经黑了。")
    ctx.aliases["北区药库"] = "北区药库"  # two stores the book knows: 药库 alone tells neither
    assert not _by_its_kind_in_region(ctx, "城南药库", "她把领药单送到药库，天已经黑了。")


PALACE = {  # a palace: who calls whom, with another's name as an owner (X的妻子, X的妹妹) in the sentence
    "萧珩": "---\n姓名: 萧珩\n---\n## 关系\n沈蘅是裴远的妻子，他叫“嫂嫂”。\n",
    "萧玥": "---\n姓名: 萧玥\n---\n## 关系\n萧珩的妹妹，叫他“阿兄”。\n",
    "沈蘅": "---\n姓名: 沈蘅\n---\n## 关系\n裴远的妻子。\n",
    "裴远": "---\n姓名: 裴远\n---\n## 关系\n沈蘅的丈夫。\n",
}


def test_a_name_named_as_an_owner_is_neither_the_caller_nor_the_called() -> None:
    from lw_storyrepo.checks import relatives
    from lw_storyrepo.kinship import address_book

    aliases = {n: n for n in PALACE}
    book = address_book(PALACE, aliases, relatives(PALACE, aliases), {n: "他" for n in PALACE} | {"萧玥": "她", "沈蘅": "她"})
    assert book["萧珩"] == {"嫂嫂": "沈蘅"}  # not 裴远, the one she is the wife of
    assert book["萧玥"] == {"阿兄": "萧珩"}  # the card's character calls, not 萧珩 whose sister she is


GRADES = "## 力量体系\nF阶 ＜ E阶 ＜ D阶 ＜ C阶 ＜ B阶\n\n猎人协会按阶定级，普通人不记境界，记错了就是错。\n"
GRADED = {**CARDS, "苏晴": {**CARDS["苏晴"], "境界": "C阶"}, "郑川": {**CARDS["郑川"], "状态": "在世", "境界": "D阶"}}


def test_a_ladder_of_letter_grades_is_the_world_s_stages() -> None:
    assert stages_of(GRADES) == ("F阶", "E阶", "D阶", "C阶", "B阶")
    assert stages_of("## 力量体系\n练气 → 筑基 → 金丹\n") == ("练气", "筑基", "金丹")


def test_a_grade_said_other_than_the_card() -> None:
    stages = stages_of(GRADES)
    # a register read out: lower is an error, higher is asked about, the card's own grade is fine
    assert about("境界", continuity("会长照着名册念：“队员晴姐，D阶，念力系。”", GRADED, stages))
    assert about("境界", continuity("会长照着名册念：“队员晴姐，B阶，念力系。”", GRADED, stages))
    assert not about("境界", continuity("会长照着名册念：“队员晴姐，C阶，念力系。”", GRADED, stages))
    # a comparison: 老郑 is D阶 on his card
    assert about("境界", continuity("“老郑跟你一样都是C阶，怎么会输？”许宁问。", GRADED, stages))
    assert not about("境界", continuity("“老郑跟你一样都是D阶，怎么会输？”许宁问。", GRADED, stages))


def test_the_power_of_the_powerless_seen_at_work() -> None:
    spent = {**CARDS, "苏晴": {**CARDS["苏晴"], "状态": "异能尽失"}}
    assert about("状态", continuity("晴姐往前踏了一步，抬手一挥，一道冰墙从地上拔起来，挡在门前。", spent))
    assert about("状态", continuity("晴姐咬着牙，双手一合，一团火球砸进了尸群。", spent))
    assert not about("状态", continuity("晴姐往前踏了一步，抬手一挥，手心里什么也没有冒出来。", spent))
    assert not about("状态", continuity("晴姐站在那道慢慢化开的冰墙旁边，脸色发白。", spent))
    # 她 leading the sentence after one the powerless led is her; after another's, it is not
    assert about("状态", continuity("晴姐的声音像鞭子一样抽过来。她往前踏了一步，抬手一挥，一道冰墙从地上拔起来。", spent))
    assert not about("状态", continuity("晴姐的声音像鞭子一样抽过来。门开了。她往前踏了一步，抬手一挥，一道冰墙从地上拔起来。", spent))


def test_a_higher_stage_said_as_a_courtesy_title_is_no_finding() -> None:
    stages = ("伙计", "掌柜", "东家")
    shop = {**CARDS, "郑川": {**CARDS["郑川"], "状态": "在世", "境界": "伙计"}}
    assert not about("境界", continuity("许宁笑着招呼：“来两斤茶，郑掌柜。”", shop, stages))  # an address flatters
    # but a title opening the quote as its vocative is a claim, whoever speaks: a hint (stop 57; ranks.VOCATIVE_OPENS)
    world, ctx = world_and_ctx({"视角": "许宁", "书内时间": "十月十三日", "在场": ["许宁", "苏晴"]}, cards=shop, stages=stages)
    lines = ["许宁笑着招呼：“郑掌柜，来两斤茶。”"]
    found = [f for f in check_continuity(world, {"视角": "许宁"}, lines, 1, voices(ctx, lines), ctx.names_re()) if "境界" in f.message]
    assert found and all(f.severity == WARN for f in found)
    assert about("境界", continuity("会长照着名册念：“老郑，掌柜，管账。”", shop, stages))  # a register does not


def test_a_later_day_told_as_the_start_of_a_past() -> None:
    # the in-book date is 十月十三日: 十一月 is ahead, so 自打…以后 tells the future as past
    assert about("书内时间", continuity("自打十一月初一病区封闭以后，探视就全停了。"))
    assert not about("书内时间", continuity("自打十月初一病区封闭以后，探视就全停了。"))
    assert not about("书内时间", continuity("等到十一月初一病区封闭以后，探视就全停了。"))
