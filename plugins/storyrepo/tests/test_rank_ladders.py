"""The generic rank reader (issue 30, lw_storyrepo.ranks): a ladder read from the world in whatever notation
the book uses, a person bound to a rank by genre-independent frames, and the verdict against the card's 境界.

Eight small books none of the labelled sets uses — an army unit, a hospital, a university, a civil-service
office, a game guild, a martial-arts school, a restaurant kitchen, a police station — each with its ladder in
another notation, and per frame the wrong sentence next to right ones (said of the past, a hypothesis, an
ordinary word, another ladder, an event the draft tells, a negation, a rumour).
"""

from __future__ import annotations

import pytest

from lw_storyrepo.checks import ERROR, WARN, CheckContext, voices
from lw_storyrepo.continuity import World, check_continuity
from lw_storyrepo.ranks import Ladder, ladders_of

# --- ladders in many notations ---------------------------------------------------------------------

LADDERS = [
    ("## 军衔\n列兵 ＜ 上等兵 ＜ 下士 ＜ 中士 ＜ 上士\n", ("列兵", "上等兵", "下士", "中士", "上士")),
    ("## 职称\n主任 > 副主任 > 主治 > 住院医\n", ("住院医", "主治", "副主任", "主任")),
    ("## 职称\n讲师 → 副教授 → 教授\n", ("讲师", "副教授", "教授")),
    ("## 职级\n从高到低：处长 → 副处长 → 科长 → 科员\n", ("科员", "科长", "副处长", "处长")),
    ("## 功名\n功名从低到高依次为童生、秀才、举人、进士。\n", ("童生", "秀才", "举人", "进士")),
    ("## 职务\n厨房里从高到低依次是行政总厨、主厨、领班、帮厨。\n", ("帮厨", "领班", "主厨", "行政总厨")),
    ("## 段位\n腰带从低到高：\n1. 白带\n2. 黄带\n3. 绿带\n4. 黑带\n", ("白带", "黄带", "绿带", "黑带")),
    ("## 警衔\n| 警衔 | 说明 |\n|---|---|\n| 警员 | 新人 |\n| 警司 | 骨干 |\n| 警督 | 带队 |\n", ("警员", "警司", "警督")),
    ("## 设定\n公司的职级从P4到P10，P4是校招生。\n", tuple(f"P{n}" for n in range(4, 11))),
    ("## 等级\n公会等级 L1–L5。\n", ("L1", "L2", "L3", "L4", "L5")),
    ("## 官制\n官分一品…九品。\n", ("九品", "八品", "七品", "六品", "五品", "四品", "三品", "二品", "一品")),
    ("## 等级\n一级到五级，数字越小越高。\n", ("五级", "四级", "三级", "二级", "一级")),
    ("## 等级\n一级到五级。\n", ("一级", "二级", "三级", "四级", "五级")),
    ("## 等级\n冒险者分 S/A/B/C/D 级。\n", ("D级", "C级", "B级", "A级", "S级")),
]


@pytest.mark.parametrize(("world", "rungs"), LADDERS)
def test_a_ladder_in_any_notation_lowest_first(world: str, rungs: tuple[str, ...]) -> None:
    assert rungs in [x.rungs for x in ladders_of(world)]


def test_several_ladders_coexist_and_prose_lists_are_none() -> None:
    world = "## 职级\n技术线 P4–P8；管理线从低到高依次为主管、经理、总监。\n\n## 地理\n城东有东市、西市、南市。\n"
    assert [x.rungs for x in ladders_of(world)] == [("P4", "P5", "P6", "P7", "P8"), ("主管", "经理", "总监")]
    assert ladders_of("## 地理\n城东有东市、西市、南市。\n") == ()


# --- the check ---------------------------------------------------------------------------------------

def check(body: str, world_text: str, ranks: dict[str, str], meta: dict | None = None,
          aliases: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """(severity, message) of the 境界 findings of ``body``; 许宁 is the point of view, 路人 has no card."""
    cards = {name: {"姓名": name, "状态": "在世", "位置": "营地", "境界": rank} for name, rank in ranks.items()}
    cards.setdefault("许宁", {"姓名": "许宁", "状态": "在世", "位置": "营地"})
    names = aliases or {name: name for name in cards}
    meta = meta or {"视角": "许宁", "书内时间": "十月十三日"}
    world = World(cards, dict(names), {"营地"}, set(), ("普通人",), None, {}, {n: "他" for n in cards} | {"许宁": "她"},
                  ladders=ladders_of(world_text, list(ranks.values())))
    ctx = CheckContext(dict(names), [], [], [], 0, set(names), set(), world=world, people=set(cards)).for_draft(meta)
    world.aliases, world.indirect = ctx.aliases, ctx.kin_words
    lines = body.split("\n")
    return [(f.severity, f.message) for f in check_continuity(world, meta, lines, 1, voices(ctx, lines), ctx.names_re())
            if "境界" in f.message]


def errors(*args, **kwargs) -> list[str]:
    return [m for s, m in check(*args, **kwargs) if s == ERROR]


ARMY = "## 军衔\n列兵 ＜ 上等兵 ＜ 下士 ＜ 中士 ＜ 上士\n"
HOSPITAL = "## 职称\n主任 > 副主任 > 主治 > 住院医\n"
UNIVERSITY = "## 职称\n讲师 → 副教授 → 教授\n"
OFFICE = "## 职级\n从高到低：处长、副处长、科长、科员。\n"
GUILD = "## 公会\n公会等级 L1–L6，L6 是会长亲卫。\n"
DOJO = "## 段位\n道场的腰带从低到高：\n1. 白带\n2. 黄带\n3. 绿带\n4. 蓝带\n5. 黑带\n"
KITCHEN = "## 后厨\n| 岗位 | 做什么 |\n|---|---|\n| 学徒 | 洗切 |\n| 帮厨 | 配菜 |\n| 领班 | 管一条线 |\n| 主厨 | 定菜单 |\n"
POLICE = "## 警衔\n警员 ＜ 警司 ＜ 警督 ＜ 警监\n\n## 职务\n科员 ＜ 副所长 ＜ 所长\n"
COURT = "## 品级\n官分九品，一品最高：一品…九品。\n"

# (world, the card's ranks, the wrong sentence, right sentences)
CASES = [
    # narration: X如今/还/只/不过是(个)R
    (ARMY, {"赵刚": "中士"}, "许宁看着操场。赵刚如今不过是个列兵，没人听他的。",
     ["许宁看着操场。三年前，赵刚不过是个列兵，没人听他的。",
      "许宁看着操场。要是赵刚还是个列兵，谁会听他的？",
      "许宁看着操场。赵刚早不是列兵了，连长都让他三分。",
      "许宁看着操场。赵刚被撸成列兵以后，没人听他的。"]),
    # X这个R
    (HOSPITAL, {"顾衡": "副主任"}, "许宁把病历递过去。顾衡这个住院医，倒管起排班来了。",
     ["许宁把病历递过去。顾衡这个副主任，倒管起排班来了。",
      "许宁把病历递过去。顾衡当年这个住院医，倒管起排班来了。"]),
    # 身为R的X
    (UNIVERSITY, {"沈舟": "教授"}, "许宁推门进来。身为讲师的沈舟只能坐在最后一排。",
     ["许宁推门进来。身为教授的沈舟只能坐在最后一排。",
      "许宁推门进来。那时身为讲师的沈舟只能坐在最后一排。"]),
    # a register line: X，R / X（R）
    (OFFICE, {"刘明": "处长"}, "许宁念着名单：刘明，科员；王芳，科员。",
     ["许宁念着名单：刘明，处长；王芳，科员。",
      "许宁念着名单：去年的名单上，刘明，科员。"]),
    (GUILD, {"老猫": "L5"}, "许宁翻着公会名册。老猫（L2）上线了。",
     ["许宁翻着公会名册。老猫（L5）上线了。",
      "许宁翻着公会名册。路人（L2）上线了。"]),
    # R：X、Y
    (DOJO, {"陈实": "黑带", "周游": "绿带"}, "许宁看着墙上的名牌。黄带：陈实、周游。",
     ["许宁看着墙上的名牌。黑带：陈实。绿带：周游。"]),
    # a title built from a rank: R + name, surname + R
    (KITCHEN, {"马良": "主厨"}, "许宁端着盘子：“帮厨马良，三号桌的汤呢？”",
     ["许宁端着盘子：“主厨马良，三号桌的汤呢？”",
      "许宁端着盘子：“马主厨，三号桌的汤呢？”"]),
    (POLICE, {"韩冬": "警督"}, "许宁敲了敲门：“韩警员，所里叫你。”",
     ["许宁敲了敲门：“韩警督，所里叫你。”",
      "许宁敲了敲门：“韩所长，所里叫你。”"]),
    # comparison: X跟你一样是R
    (ARMY, {"赵刚": "上士"}, "许宁笑了：“赵刚跟你一样是下士，神气什么。”",
     ["许宁笑了：“赵刚跟你一样是上士，神气什么。”",
      "许宁笑了：“万一赵刚跟你一样是下士，神气什么。”"]),
    # with a pronoun for the person
    (HOSPITAL, {"顾衡": "主任"}, "许宁看了顾衡一眼。他如今只是个主治，说话没分量。",
     ["许宁看了顾衡一眼。他如今已是主任，说话有分量。",
      "许宁看了顾衡一眼。听说他如今只是个主治，说话没分量。"]),
    # a downward-numbered ladder (一品 the top)
    (COURT, {"周廷": "三品"}, "许宁躬身行礼。周廷如今不过是个七品，见了谁都得作揖。",
     ["许宁躬身行礼。周廷如今已是三品，见了谁都不必作揖。",
      "许宁躬身行礼。这茶叫作七品，周廷说是三品的味道。"]),
]


@pytest.mark.parametrize(("world", "card", "wrong", "right"), CASES)
def test_the_wrong_rank_next_to_the_right_sentences(world: str, card: dict[str, str], wrong: str, right: list[str]) -> None:
    found = errors(wrong, world, card)
    assert found and "角色卡·境界" in found[0]
    for sentence in right:
        assert errors(sentence, world, card) == [], sentence


def test_a_rank_is_compared_within_its_own_ladder() -> None:
    card = {"韩冬": "警督、副所长"}
    assert errors("许宁看着韩冬。韩冬如今不过是个科员，却敢顶撞所长。", POLICE, card)
    assert not errors("许宁看着韩冬。韩冬如今不过是个副所长，却敢顶撞所长。", POLICE, card)
    assert not errors("许宁看着韩冬。韩冬如今不过是个警督，却敢顶撞所长。", POLICE, card)


def test_a_step_said_against_anothers_card() -> None:
    card = {"赵刚": "中士", "孙勇": "下士"}
    assert errors("许宁看着两人。赵刚比孙勇低一级，见了面得先敬礼。", ARMY, card)
    assert not errors("许宁看着两人。赵刚比孙勇高一级，见了面孙勇得先敬礼。", ARMY, card)


def test_a_higher_rank_in_narration_is_a_warning_and_an_address_is_courtesy() -> None:
    found = check("许宁抬头。沈舟如今已是教授，说话没人敢驳。", UNIVERSITY, {"沈舟": "副教授"})
    assert [s for s, _m in found] == [WARN]
    assert check("许宁抬头：“沈教授，您来了。”", UNIVERSITY, {"沈舟": "副教授"}) == []


def test_a_setting_change_or_an_event_explains_a_lower_rank() -> None:
    body = "许宁看着操场。赵刚如今不过是个列兵，没人听他的。"
    meta = {"视角": "许宁", "书内时间": "十月十三日", "设定变更": ["赵刚.境界=列兵"]}
    assert not errors(body, ARMY, {"赵刚": "中士"}, meta=meta)
    assert not errors("赵刚上个月被降级了。" + body, ARMY, {"赵刚": "中士"})


def test_ordinary_words_are_no_ranks() -> None:
    world = "## 等级\n一级到五级。\n"
    assert errors("许宁看着阿福。阿福如今不过是个一级，说话没分量。", world, {"阿福": "四级"})
    assert not errors("许宁看着阿福。阿福的手艺一级棒，谁都夸。", world, {"阿福": "四级"})
    assert not errors("许宁看着阿福。阿福比去年高一级，说话有分量了。", world, {"阿福": "四级"})


# --- through `lw story check` (checkscore builds the book with init, settles chapter 1, checks each draft) ---

PROMISE = "---\n类型: 悬念\n强度: 中\n状态: 进行\n开启章: 0\n兑付期限: 第1卷\n最后推进章: 0\n---\n## 描述\n{0}\n\n## 兑付计划\n第一卷末揭晓。\n\n## 履历\n- 第0章：开启\n"
CARD = "---\n姓名: {0}\n状态: 在世\n位置: {1}\n境界: {2}\n最后变更章: 0\n---\n## 设定\n{3}\n"
CHAPTER = ("---\n标题: {0}\n视角: {1}\n书内时间: {2}\n推进承诺:\n  - P-001\n推进说明:\n  - P-001：{0}\n一句话事件: {0}\n在场:\n"
           "  - {1}\n  - {3}\n---\n{4}\n")


def labelled_book(folder, world: str, place: str, cards: list[tuple[str, str, str]], promise: str, first: str,
                  drafts: dict[str, tuple[str, list[dict[str, str]]]], pov: str, other: str) -> None:
    import json

    (folder / "书/定稿/设定/角色").mkdir(parents=True)
    (folder / "书/大纲/承诺").mkdir(parents=True)
    (folder / "书/定稿/设定/世界观.md").write_text(world, encoding="utf-8")
    (folder / "书/大纲/承诺/P-001-旧事.md").write_text(PROMISE.format(promise), encoding="utf-8")
    for name, rank, about in cards:
        (folder / f"书/定稿/设定/角色/{name}.md").write_text(CARD.format(name, place, rank, about), encoding="utf-8")
    (folder / "第1章.md").write_text(CHAPTER.format("开场", pov, "2024年3月1日", other, first), encoding="utf-8")
    labels = {"书": {"每章目标字数": 40, "名册": [[place, "地点"]],
                    "第1章": {"文件": "第1章.md", "合同": ["P-001 推进：开场"]}}, "草稿": {}}
    for file, (body, planted) in drafts.items():
        (folder / file).write_text(CHAPTER.format("第二天", pov, "2024年3月2日", other, body), encoding="utf-8")
        labels["草稿"][file] = {"合同": ["P-001 推进：第二天"], "应报": planted}
    (folder / "标注.json").write_text(json.dumps(labels, ensure_ascii=False), encoding="utf-8")


def test_lw_story_check_on_a_university_with_an_arrow_ladder(tmp_path) -> None:
    from lw_storyrepo.checkscore import score

    world = "# 世界观\n\n## 设定\n2023 年的江州大学历史系。\n\n## 职称\n助教 → 讲师 → 副教授 → 教授\n\n## 地理\n江州大学在江州城西。\n"
    book = tmp_path / "set"
    book.mkdir()
    labelled_book(book, world, "江州大学", [("沈舟", "教授", "历史系教授，男，五十岁。"), ("许宁", "讲师", "历史系讲师，女，三十岁。")],
                  "系里的旧档案少了一页。", "沈舟在系办公室翻档案。许宁站在门口等他。\n\n“少了一页。”沈舟说。",
                  {"错.md": ("许宁在走廊里碰见沈舟。沈舟如今不过是个讲师，系里开会都坐在最后一排。",
                             [{"类": "连贯", "字段": "境界", "句": "不过是个讲师"}]),
                   "好.md": ("许宁在走廊里碰见沈舟。沈舟当年不过是个讲师，系里开会都坐在最后一排。", [])},
                  "许宁", "沈舟")
    result = score(book, tmp_path / "work")
    assert result.missed == [] and result.caught == {"连贯": 1}
    assert result.false_alarms == []


def test_lw_story_check_on_a_civil_service_office_listed_from_the_top(tmp_path) -> None:
    from lw_storyrepo.checkscore import score

    world = "# 世界观\n\n## 设定\n2019 年的临川市财政局。\n\n## 职级\n从高到低依次是局长、处长、科长、科员。\n\n## 地理\n财政局在临川市中心。\n"
    book = tmp_path / "set"
    book.mkdir()
    labelled_book(book, world, "财政局", [("刘明", "处长", "预算处处长，男，四十五岁。"), ("许宁", "科员", "预算处科员，女，二十六岁。")],
                  "预算表上多出一笔钱。", "刘明把预算表摊在桌上。许宁站在一边。\n\n“这笔钱哪来的？”刘明说。",
                  {"错.md": ("许宁把报表送进去。“刘科长，表我放这儿了。”",
                             [{"类": "连贯", "字段": "境界", "句": "刘科长"}]),
                   "好.md": ("许宁把报表送进去。“刘处长，表我放这儿了。”", [])},
                  "许宁", "刘明")
    result = score(book, tmp_path / "work")
    assert result.missed == [] and result.caught == {"连贯": 1}
    assert result.false_alarms == []


COMPANY = "## 职级\n技术线职级从P4到P10；管理线从低到高依次为组长、经理、总监。\n"
TEA_HOUSE = "## 茶坊\n店里的人从低到高依次是：小厮、茶博士、掌柜。\n"

MORE = [
    # a code rank with an adverb and no copula, a rank field, a rank before 的 + name, a register with 一个
    (COMPANY, {"林晓": "P7"}, "许宁打开周报。林晓才P5，就敢在群里拍板。",
     ["许宁打开周报。林晓刚入职那年才P5，就敢在群里拍板。", "许宁打开周报。林晓才P7，就敢在群里拍板。"]),
    (COMPANY, {"林晓": "P7"}, "许宁打开周报。林晓的职级是P5，工资卡在那儿。",
     ["许宁打开周报。林晓的职级是P7，工资卡在那儿。", "许宁打开周报。如果林晓的职级是P5，工资卡在那儿。"]),
    (COMPANY, {"林晓": "P7"}, "许宁打开周报。P5的林晓也来开会了。",
     ["许宁打开周报。P7的林晓也来开会了。"]),
    (COMPANY, {"林晓": "总监"}, "许宁打开周报。林晓，一个小小的组长，居然敢顶撞老板。",
     ["许宁打开周报。林晓，一个小小的总监，居然敢顶撞老板。", "许宁打开周报。林晓，P5，居然敢顶撞老板。"]),
    # the rank is someone else's, or said of the past of a career
    (COMPANY, {"林晓": "总监"}, "许宁打开周报。林晓不过是个组长，说话没人听。",
     ["许宁打开周报。林晓是组长的上司，说话没人听。", "许宁打开周报。林晓是组长出身，说话没人听。",
      "许宁打开周报。林晓当组长时，说话没人听。"]),
    # a surname and the tail of a long rank (王博士 for a 茶博士)
    (TEA_HOUSE, {"王顺": "掌柜"}, "许宁端上茶盏：“王博士，东家叫你。”",
     ["许宁端上茶盏：“王掌柜，东家叫你。”", "许宁端上茶盏：“博士，东家叫你。”"]),
]


@pytest.mark.parametrize(("world", "card", "wrong", "right"), MORE)
def test_more_frames_next_to_the_right_sentences(world: str, card: dict[str, str], wrong: str, right: list[str]) -> None:
    found = errors(wrong, world, card)
    assert found and "角色卡·境界" in found[0]
    for sentence in right:
        assert errors(sentence, world, card) == [], sentence


def test_a_rank_that_is_also_a_word_said_with_a_possessive_is_the_word() -> None:
    palace = "## 位分\n答应 ＜ 常在 ＜ 贵人 ＜ 嫔 ＜ 妃\n"
    assert errors("许宁低头。林晚如今不过是个贵人，见了谁都要行礼。", palace, {"林晚": "妃"})
    assert not errors("许宁低头。林晚是她的贵人，见了谁都护着她。", palace, {"林晚": "妃"})


def test_a_sentence_of_thousands_of_ranks_is_read_fast() -> None:
    import time

    body = "许宁看着赵刚。赵刚如今不过是个列兵" + "，列兵" * 5000 + "。"
    start = time.perf_counter()
    found = errors(body, ARMY, {"赵刚": "中士"})
    assert found and time.perf_counter() - start < 2.0


def test_acting_as_a_rank_and_the_point_of_view_thinking_of_herself() -> None:
    assert errors("许宁看着台上。赵刚以列兵的身份站在最后一排。", ARMY, {"赵刚": "中士"})
    assert not errors("许宁看着台上。赵刚以中士的身份站在最后一排。", ARMY, {"赵刚": "中士"})
    assert errors("许宁放下碗。怪不得没人理她，自己在连里，还是个列兵。", ARMY, {"许宁": "中士"})
    assert not errors("许宁放下碗。怪不得没人理她，自己在连里，早不是列兵了。", ARMY, {"许宁": "中士"})
    assert not errors("许宁放下碗。怪不得没人理她，自己刚进连那年，还是个列兵。", ARMY, {"许宁": "中士"})


def test_a_rank_said_of_another_in_the_same_sentence_is_theirs() -> None:
    card = {"顾衡": "主任"}
    assert not errors("顾衡头也没抬：“从今天起你是主治，急诊那边我另外找人。”", HOSPITAL, card)
    assert not errors("顾衡头也没抬，“从今天起你是主治。”", HOSPITAL, card)
    assert errors("许宁没抬头。顾衡眼下还是个主治，急诊那边轮不到他。", HOSPITAL, card)


def test_a_ladder_told_in_prose_by_the_cards_values() -> None:
    world = "## 功名\n县试府试都过了才算童生，院试中了是秀才，乡试中了是举人，会试再中便是进士。\n"
    assert ("童生", "秀才", "举人") in [x.rungs for x in ladders_of(world, ["童生", "秀才", "举人"])]
    card = {"林文远": "举人"}
    assert errors("许宁看着他。林文远如今不过是个秀才，见了县令也得作揖。", world, card | {"阿福": "童生", "许宁": "秀才"})
    assert not errors("许宁看着他。林文远当年不过是个秀才，见了县令也得作揖。", world, card | {"阿福": "童生", "许宁": "秀才"})
    # a line of the geography that names two values is no ladder
    assert ladders_of("## 地理\n秀才巷在举人街东头。\n", ["秀才", "举人"]) == ()


def test_levels_registers_and_likenesses() -> None:
    sect = "## 境界\n炼气 ＜ 筑基 ＜ 金丹 ＜ 元婴\n"
    assert errors("许宁看着他。顾长风，筑基圆满，站在最前。", sect, {"顾长风": "金丹初期"})
    assert not errors("许宁看着他。顾长风，金丹初期，站在最前。", sect, {"顾长风": "金丹初期"})
    assert errors("许宁看着台上。顾长风以筑基七层的修为硬接了三掌。", sect, {"顾长风": "金丹初期"})
    palace = "## 位分\n答应 ＜ 常在 ＜ 贵人 ＜ 嫔 ＜ 妃\n"
    assert errors("许宁翻开名册：景福宫，嫔位，韩令仪。", palace, {"韩令仪": "妃"})
    assert not errors("许宁翻开名册：景福宫，妃位，韩令仪。", palace, {"韩令仪": "妃"})
    troupe = "## 位分\n学徒 ＜ 龙套 ＜ 二路 ＜ 头牌\n"
    assert errors("许宁笑了。赵大个跟三宝一样，还是学徒。", troupe, {"赵大个": "二路", "三宝": "学徒"})
    assert not errors("许宁笑了。赵大个跟三宝不一样，早不是学徒了。", troupe, {"赵大个": "二路", "三宝": "学徒"})
    assert errors("许宁笑了。赵大个不过是个跑龙套的。", troupe, {"赵大个": "二路"})
    # a rank that names its one holder is still a rank where a register gives it to someone
    assert not errors("许宁回头：“你是四级工了，带着徒弟呢。”", "## 力量体系\n学徒工 ＜ 三级工 ＜ 四级工 ＜ 车间主任\n",
                      {"韩德厚": "车间主任"})


def test_a_rank_said_short() -> None:
    team = "## 职务\n队员 ＜ 副队长 ＜ 队长\n"
    # 陆队 for a 队长 is the address of a 队长: said of a 队员 it raises nobody; 陆队 for a 副队长 is courtesy too
    assert not errors("许宁喊了一声：“陆队，车来了。”", team, {"陆野": "队长"})
    works = "## 力量体系\n学徒工 ＜ 三级工 ＜ 四级工 ＜ 五级工\n"
    assert errors("许宁看着赵铁军。赵铁军下个月就要考四级了。", works, {"赵铁军": "四级工"})
    assert not errors("许宁看着赵铁军。赵铁军下个月就要考五级了。", works, {"赵铁军": "四级工"})
    assert not errors("许宁看着赵铁军。赵铁军的手艺比去年高一级了。", works, {"赵铁军": "四级工"})


def test_a_register_higher_than_the_card_is_a_warning_and_a_surname_with_shi_is_the_person() -> None:
    letters = "## 等级\nF级 ＜ E级 ＜ D级 ＜ C级\n"
    found = check("登记员念道：“队员唐果，D级，念力系。”", letters, {"唐果": "E级"})
    assert [s for s, _m in found] == [WARN]
    assert check("登记员念道：“队员唐果，E级，念力系。”", letters, {"唐果": "E级"}) == []
    palace = "## 位分\n答应 ＜ 常在 ＜ 贵人 ＜ 嫔 ＜ 妃\n"
    assert errors("内务府的人念着单子：“景福宫，嫔位，韩氏，红箩炭三百斤。”", palace, {"韩令仪": "妃"})
    # the place before the rank is a name the book knows, not the one ranked
    assert errors("内务府的人念着单子：“景福宫，嫔位，韩氏，红箩炭三百斤。”", palace, {"韩令仪": "妃"},
                  aliases={"韩令仪": "韩令仪", "许宁": "许宁", "景福宫": "景福宫"})
    assert not errors("内务府的人念着单子：“景福宫，妃位，韩氏，红箩炭三百斤。”", palace, {"韩令仪": "妃"})


def test_a_level_within_the_same_rung() -> None:
    sect = "## 力量体系\n- 淬体\n- 通脉\n- 凝元\n- 归真\n"
    card = {"林晚": "通脉五重"}
    assert errors("许宁看着林晚。林晚不过通脉三重的修为，这一夹却稳得像铁钳。", sect, card)
    assert not errors("许宁看着林晚。林晚不过通脉五重的修为，这一夹却稳得像铁钳。", sect, card)
    assert not errors("许宁看着林晚。林晚早已不是通脉三重的修为了。", sect, card)
    assert errors("许宁看着林晚。林晚如今还是凝元初期。", sect, {"林晚": "凝元后期"})
    assert errors("林晚合上书。我如今不过通脉三重，这话倒也没说错。", sect, card, meta={"视角": "林晚", "书内时间": "十月十三日"})


def test_a_rank_in_a_things_name_is_no_ones_rank() -> None:
    letters = "## 等级\nF级 ＜ E级 ＜ D级 ＜ C级\n"
    assert errors("许宁看着唐果。唐果如今不过是个D级罢了。", letters, {"唐果": "C级"})
    assert not errors("许宁看着唐果。唐果手里的不过是个D级晶核。", letters, {"唐果": "C级"})
    assert not errors("许宁看着唐果。唐果还是D级晶核的主人。", letters, {"唐果": "C级"})
    assert errors("许宁看着顾衡。顾衡还是个主治医师。", HOSPITAL, {"顾衡": "主任"})


def test_a_line_saying_who_is_what_is_no_ladder() -> None:
    held = ["车间主任", "工段长", "七级工"]
    assert ladders_of("## 人物\n韩德厚是车间主任，马国庆是工段长，周大海是七级工。\n", held) == ()
    assert ladders_of("## 厂里\n七级工往上是工段长，再往上是车间主任。\n", held)[0].rungs == ("七级工", "工段长", "车间主任")


def test_frames_of_a_farming_family_and_an_office() -> None:
    exams = "## 功名\n童生 → 秀才 → 举人 → 进士\n"
    card = {"林文远": "举人"}
    assert errors("许宁端上茶。林文远一介秀才，哪里见过这阵仗。", exams, card)
    assert not errors("许宁端上茶。林文远一介举人，哪里见过这阵仗。", exams, card)
    assert not errors("许宁端上茶。林文远去年才中了秀才，哪里见过这阵仗。", exams, card)
    assert errors("许宁端上茶：“林秀才，您请坐。”", exams, card)
    company = "## 职级\nP4–P9\n"
    assert errors("许宁翻着表。老周还卡在P5，涨薪没他的份。", company, {"老周": "P7"})
    assert not errors("许宁翻着表。老周还卡在P7，涨薪没他的份。", company, {"老周": "P7"})
    assert errors("许宁翻着表。老周P5，涨薪没他的份。", company, {"老周": "P7"})
    assert not errors("许宁翻着表。老周在P5组里带新人。", company, {"老周": "P7"})


def test_a_step_said_in_the_past_or_of_another_clause_is_none() -> None:
    card = {"赵刚": "中士", "孙勇": "下士"}
    assert not errors("许宁看着两人。当年赵刚比孙勇低一级，见了面得先敬礼。", ARMY, card)
    assert not errors("许宁看着赵刚，孙勇比他高一级的事谁都知道。", ARMY, card)


def test_a_topic_then_its_rank_and_the_point_of_view_aiming_at_a_rank() -> None:
    troupe = "## 位分\n学徒 ＜ 龙套 ＜ 二路 ＜ 头牌\n"
    assert errors("许宁叹气。如今的赵大个，不过是个跑龙套的。", troupe, {"赵大个": "二路"})
    works = "## 力量体系\n学徒工 ＜ 三级工 ＜ 四级工 ＜ 五级工\n"
    meta = {"视角": "赵铁军", "书内时间": "十月十三日"}
    assert errors("下个月就要考四级了，理论那一门他心里没底。", works, {"赵铁军": "四级工"}, meta=meta)
    assert not errors("下个月就要考五级了，理论那一门他心里没底。", works, {"赵铁军": "四级工"}, meta=meta)
    assert not errors("许宁说：“下个月就要考四级了。”", works, {"赵铁军": "四级工"}, meta=meta)
