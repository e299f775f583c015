"""Continuity against the cards (spec §4.2) and the timeline: five planted errors are caught, each
naming the card field and quoting the sentence; the same drafts written right pass.

The table is the whole domain of the check: for every field (境界, 持有, 状态, 位置, 书内时间) a
planted error and the ways a draft legitimately does the same thing (an event, a setting change,
a handover, a memory, a journey, a flashback).
"""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from lw_storyrepo import layout as L
from lw_storyrepo.checks import CheckContext, check_draft, voices
from lw_storyrepo.cli import story
from lw_storyrepo.continuity import World, book_time, check_continuity, earlier, rank, stages_of, DEFAULT_STAGES
from lw_storyrepo.drafts import Draft

CARDS = {
    "林晚": {"姓名": "林晚", "别名": ["晚晚"], "状态": "在世", "位置": "青云宗", "境界": "筑基七层", "持有": ["青霜剑"]},
    "沈砚": {"姓名": "沈砚", "状态": "在世", "位置": "青云宗", "境界": "金丹初期", "持有": ["玄阶令牌"]},
    "云娘": {"姓名": "云娘", "状态": "已死", "位置": "落霞谷"},
    "大长老": {"姓名": "大长老", "状态": "封印", "位置": "镇妖塔"},
}
ALIASES = {"林晚": "林晚", "晚晚": "林晚", "沈砚": "沈砚", "云娘": "云娘", "大长老": "大长老"}
PLACES = {"青云宗", "落霞谷", "镇妖塔", "北境雪原"}
ITEMS = {"青霜剑", "玄阶令牌", "九转丹"}


def findings(body: str, meta: dict | None = None, last: tuple[int, str] | None = (3, "大历1023年冬月初五")):
    ctx = CheckContext(dict(ALIASES), [], [], [], 0, set(ALIASES), set(ITEMS),
                       world=World(CARDS, ALIASES, PLACES, ITEMS, DEFAULT_STAGES, last)).for_draft(meta or {})
    lines = body.split("\n")
    world = ctx.world
    world.aliases = ctx.aliases
    return check_continuity(world, meta or {}, lines, 10, voices(ctx, lines), ctx.names_re())


PLANTED = [
    ("境界", "林晚不过筑基三层的修为，却硬接了这一掌。", {}, "林晚 的境界是「筑基七层」（角色卡·境界），正文写成「筑基三层」"),
    ("境界", "林晚运转功法。", {"设定变更": ["林晚.境界=筑基五层"]}, "林晚 的境界从「筑基七层」（角色卡·境界）降到「筑基五层」"),
    ("持有", "林晚拔出玄阶令牌，迎风一晃。", {}, "林晚 的持有里没有「玄阶令牌」（角色卡·持有：青霜剑）（它在沈砚的持有里）"),
    ("持有", "晚晚服下九转丹，脸色好了些。", {}, "林晚 的持有里没有「九转丹」"),
    ("状态", "云娘叹道：“晚晚，你长大了。”", {}, "云娘 的状态是「已死」（角色卡·状态），正文里却在说话或想事"),
    ("状态", "大长老冷笑道：“你们谁也走不了。”", {}, "大长老 的状态是「封印」（角色卡·状态）"),
    ("位置", "林晚站在落霞谷的断崖边。", {}, "林晚 在「青云宗」（角色卡·位置），本章没有写他到「落霞谷」去"),
    ("书内时间", "林晚醒了。", {"书内时间": "大历1023年冬月初三"}, "书内时间「大历1023年冬月初三」早于第 3 章的「大历1023年冬月初五」"),
    ("书内时间", "林晚醒了。", {"书内时间": "大历1023年十月十二"}, "早于第 3 章"),
]


@pytest.mark.parametrize("field, body, meta, expected", PLANTED, ids=[f"{p[0]}-{i}" for i, p in enumerate(PLANTED)])
def test_a_planted_continuity_error_is_caught_with_field_and_sentence(field: str, body: str, meta: dict, expected: str) -> None:
    found = findings(body, meta)
    assert any(expected in f.message for f in found), [f.message for f in found]
    hit = next(f for f in found if expected in f.message)
    assert field in hit.message or field == "书内时间"
    assert hit.excerpt and (hit.excerpt in body or hit.excerpt.split(": ", 1)[-1] in str(meta) or "=" in hit.excerpt)


GOOD = [
    "林晚修为尽失，跌回筑基三层，咬牙站了起来。",  # an event explains the fall
    "林晚早已是筑基七层，这一掌接得稳稳当当。",
    "沈砚把玄阶令牌递给林晚。林晚接过玄阶令牌，握紧了玄阶令牌。",  # handed over first
    "林晚拔出青霜剑，剑光如雪。",
    "林晚想起云娘临终时说：“活下去。”",  # a memory
    "梦里，云娘叹道：“晚晚，你长大了。”",
    "林晚来到落霞谷。林晚站在落霞谷的断崖边。",  # she went there
    "林晚站在青云宗的山门前。",
    "信中，大长老写道：“你们谁也走不了。”",
]


@pytest.mark.parametrize("body", GOOD)
def test_the_same_things_written_right_pass(body: str) -> None:
    assert findings(body, {"书内时间": "大历1023年冬月初六"}) == []


def test_setting_changes_make_a_change_legitimate() -> None:
    assert findings("林晚站在北境雪原。", {"设定变更": ["林晚.位置=北境雪原"]}) == []
    assert findings("林晚拔出玄阶令牌。", {"设定变更": ["林晚.持有+玄阶令牌"]}) == []
    assert findings("云娘叹道：“我回来了。”", {"设定变更": ["云娘.状态=在世"]}) == []
    assert findings("林晚醒了。", {"书内时间": "大历1023年冬月初三", "倒叙": True}) == []


def test_a_speaker_missing_from_the_present_list_is_a_warning() -> None:
    found = findings("沈砚道：“走。”", {"在场": ["林晚"]})
    assert [(f.severity, f.message) for f in found] == [("warn", "沈砚 不在本章的在场名单（林晚），正文里却在说话")]


@pytest.mark.parametrize("a, b, before", [
    ("大历1023年冬月初三", "大历1023年冬月初五", True),
    ("大历1023年冬月初五", "大历1023年冬月初三", False),
    ("1023冬月初三", "1023腊月初一", True),
    ("冬月初五", "冬月十二", True),
    ("冬月廿一", "冬月十二", False),
    ("第3日", "第12日", True),
    ("大历1024年正月", "大历1023年腊月廿九", False),
    ("大历1023年", "大历1023年冬月初三", False),  # a field left out: not surely earlier
    ("天启三年春", "大历1023年冬月", False),  # another era: not comparable
    ("", "冬月初三", False),
    ("某日", "冬月初三", False),
])
def test_in_book_times_compare_only_when_surely_ordered(a: str, b: str, before: bool) -> None:
    assert earlier(a, b) is before


def test_realm_ranks_follow_the_world_or_the_usual_ladder() -> None:
    assert rank("筑基七层", DEFAULT_STAGES) > rank("筑基三层", DEFAULT_STAGES) > rank("练气九层", DEFAULT_STAGES)
    assert rank("金丹初期", DEFAULT_STAGES) > rank("筑基十层", DEFAULT_STAGES)
    assert rank("结丹后期", DEFAULT_STAGES) > rank("金丹初期", DEFAULT_STAGES)
    stages = stages_of("# 世界观\n\n## 力量体系\n淬体 ＜ 开脉 ＜ 通玄 ＜ 化神\n")
    assert stages == ("淬体", "开脉", "通玄", "化神")
    assert rank("通玄一重", stages) > rank("开脉九重", stages)
    assert book_time("第12日") == ("", (None, None, 12))


def test_continuity_through_lw_story_check(book) -> None:
    """The book's own cards: 林晚 holds 青霜剑 only; a draft has her wield 玄阶令牌 and be three
    levels lower; ``lw story check`` reports both with the card field and the sentence."""
    path = book.p(f"{L.角色}/林晚.md")
    path.write_text(path.read_text(encoding="utf-8").replace("持有:", "境界: 筑基七层\n持有:"), encoding="utf-8")
    elder = book.p(f"{L.角色}/大长老.md")
    elder.write_text(elder.read_text(encoding="utf-8").replace("状态: 在世\n", "状态: 在世\n持有:\n  - 玄阶令牌\n"), encoding="utf-8")
    book.git.commit_paths([f"{L.角色}/林晚.md", f"{L.角色}/大长老.md"], "fix(设定): 林晚.境界\n")
    runner = CliRunner()
    invoke = lambda *a: runner.invoke(story, ["--locale", "zh", *a, "-C", str(book.root)], catch_exceptions=False).output
    invoke()
    invoke("card", "edit", "--合同", "P-001 推进")
    invoke("decide")
    invoke()
    draft = book.root.parent / "d.md"
    draft.write_text("---\n标题: 雪夜\n推进承诺:\n  - P-001\n---\n林晚祭出玄阶令牌，挡在身前。\n林晚不过筑基四层，却毫不退让。\n",
                     encoding="utf-8")
    invoke("draft", "A", str(draft))
    out = invoke("check")
    assert "林晚 的持有里没有「玄阶令牌」（角色卡·持有：青霜剑）（它在大长老的持有里）" in out and "林晚祭出玄阶令牌，挡在身前。" in out
    assert "林晚 的境界是「筑基七层」（角色卡·境界），正文写成「筑基四层」" in out
    assert re.search(r"✗ \[连贯\] 第 6 行", out)


# --- what the labelled drafts taught (issue 30) -------------------------------------------------------------

CARDS2 = {
    **CARDS,
    "沈砚": {**CARDS["沈砚"], "位置": "青云宗"},
}


@pytest.mark.parametrize("body, expected", [
    ("林晚不过是个练气弟子。", "林晚 的境界是「筑基七层」（角色卡·境界），正文写成「练气」"),
    ("林晚面前的不过是个练气弟子。", None),  # someone else is
    ("她如今不过是个练气。", None),  # nobody named before: no guess
    ("林晚退了一步。\n她不过筑基三层，却硬接了这一掌。", "林晚 的境界是「筑基七层」（角色卡·境界），正文写成「筑基三层」"),
    ("沈砚退了一步，林晚看着他。\n她不过筑基三层，却硬接了这一掌。", None),  # 她: which one? no guess
    ("林晚转动着指间的玄阶令牌。", "林晚 的持有里没有「玄阶令牌」"),
    ("林晚看着沈砚手里的玄阶令牌。", None),  # seen, not used
    ("林晚想起了玄阶令牌。", None),
    ("沈砚负手立在落霞谷的崖边。", "沈砚 在「青云宗」（角色卡·位置），本章没有写他到「落霞谷」去"),
    ("林晚把青霜剑放在桌上，捏碎了一颗九转丹。", "林晚 的持有里没有「九转丹」"),  # the sentence's subject
    ("林晚把青霜剑放在桌上，沈砚捏碎了一颗九转丹。", "沈砚 的持有里没有「九转丹」"),  # his clause, not hers
])
def test_pronouns_bare_ranks_actions_and_stays(body: str, expected: str | None) -> None:
    found = [f.message for f in findings(body, {"书内时间": "大历1023年冬月初六"})]
    if expected is None:
        assert not [m for m in found if "境界" in m or "持有" in m or "位置" in m], found
    else:
        assert any(expected in m for m in found), found
        assert len([m for m in found if "持有" in m]) <= 1, found


def test_a_bare_rank_said_of_someone_is_compared_by_stage() -> None:
    found = [f.message for f in findings("林晚如今只是个练气。")]
    assert any("正文写成「练气」" in m for m in found), found
    assert findings("林晚已是筑基。") == []  # the same stage, no level said: not lower


def test_a_flashback_is_held_to_its_setting_changes_only() -> None:
    body = "梦里没有。云娘叹道：“晚晚，你长大了。”\n那时林晚还只是练气三层。\n林晚站在落霞谷。"
    assert findings(body, {"书内时间": "大历1001年", "倒叙": True}) == []
    assert findings("那时林晚还只是练气三层。") == []  # a sentence set in the past


def test_places_nest_by_the_world_and_pronouns_need_one_candidate() -> None:
    from lw_storyrepo.continuity import places_inside

    inside = places_inside("青云宗坐落在北境雪原，落霞谷在青云宗后山；镇妖塔位于落霞谷深处。", PLACES)
    assert inside["落霞谷"] == {"青云宗", "北境雪原"} and "落霞谷" in inside["镇妖塔"]
    ctx = CheckContext(dict(ALIASES), [], [], [], 0, set(ALIASES), set(ITEMS),
                       world=World(CARDS, ALIASES, PLACES, ITEMS, DEFAULT_STAGES, None, inside))
    lines = ["林晚站在落霞谷的断崖边。"]
    assert check_continuity(ctx.world, {}, lines, 1, voices(ctx, lines), ctx.names_re()) == []
    two = ["沈砚和林晚并肩而行。", "她拔出玄阶令牌。"]
    assert check_continuity(ctx.world, {}, two, 1, voices(ctx, two), ctx.names_re()) == []  # 她: which one? no guess
    gendered = World(CARDS, ALIASES, PLACES, ITEMS, DEFAULT_STAGES, None, inside, {"林晚": "她", "沈砚": "他"})
    found = check_continuity(gendered, {}, two, 1, voices(ctx, two), ctx.names_re())
    assert [f.message.split("（")[0] for f in found] == ["林晚 的持有里没有「玄阶令牌」"]


@pytest.mark.parametrize("body, meta, expected", [
    ("林晚趴在桌上，拧开玄阶令牌的暗格。", {}, "林晚 的持有里没有「玄阶令牌」"),  # a verb ending in 开 uses it
    ("落霞谷里，林晚正坐在石头上发呆。", {}, "林晚 在「青云宗」（角色卡·位置），本章没有写他到「落霞谷」去"),  # a place opens the sentence
    ("在落霞谷的崖边，沈砚正蹲着看那行字。", {}, "沈砚 在「青云宗」（角色卡·位置），本章没有写他到「落霞谷」去"),
    ("青云宗里，林晚正坐在石头上发呆。", {}, None),  # where her card has her
    ("落霞谷里，林晚正坐在石头上发呆。", {"设定变更": ["林晚.位置=落霞谷"]}, None),
])
def test_a_thing_opened_and_a_person_placed_by_the_sentence_s_opening_place(body: str, meta: dict, expected: str | None) -> None:
    found = [f.message for f in findings(body, {"书内时间": "大历1023年冬月初六", **meta})]
    if expected is None:
        assert not [m for m in found if "持有" in m or "位置" in m], found
    else:
        assert any(expected in m for m in found), found


def test_a_call_carries_a_voice_for_a_few_paragraphs_and_no_further() -> None:
    """Someone not in 在场 who speaks over a call (电话, 对讲机, a face on a 屏幕) named in their
    paragraph or the few before it is not said to be there; five paragraphs later they are."""
    call = "屏幕亮了，那头是沈砚。\n林晚点了点头。\n“还好。”林晚说。\n沈砚道：“当心。”"
    assert findings(call, {"在场": ["林晚"], "书内时间": "大历1023年冬月初六"}) == []
    later = "屏幕亮了，那头是沈砚。\n" + "林晚点了点头。\n" * 5 + "沈砚道：“当心。”"
    assert [f.message for f in findings(later, {"在场": ["林晚"], "书内时间": "大历1023年冬月初六"})] == [
        "沈砚 不在本章的在场名单（林晚），正文里却在说话"]


def test_whose_it_was_the_point_of_view_pronouns_past_blank_lines_and_overheard_voices() -> None:
    """A verb closed by 的 before a thing says whose it was (云娘留下的青霜剑), not a use; a
    pronoun opening a paragraph stands for the one named in the paragraph before, past the blank
    line, never for a name said in a quote; the point of view is not held to its card's 位置; a
    voice overheard through a wall or a door is no one in the room."""
    now = {"书内时间": "大历1023年冬月初六"}
    assert findings("沈砚看着云娘留下的青霜剑。", now) == []
    assert findings("沈砚握着林晚的青霜剑。", now) != []  # his own hand on it: a use
    found = [f.message for f in findings("林晚独自坐着。\n\n她拔出玄阶令牌。", now)]
    assert any(m.startswith("林晚 的持有里没有「玄阶令牌」") for m in found), found
    assert findings("沈砚独自坐着。\n\n“晚晚，你来了。”她拔出玄阶令牌。", now) == []  # 晚晚 is spoken to
    assert findings("林晚站在落霞谷的断崖边。", {**now, "视角": "林晚"}) == []
    assert findings("沈砚站在落霞谷的断崖边。", {**now, "视角": "林晚"}) != []
    overheard = "林晚贴着墙，隔着板壁听见有人说话。\n沈砚的声音传过来：“当心。”"
    assert findings(overheard, {**now, "在场": ["林晚"]}) == []
    assert findings("林晚贴着墙。\n沈砚道：“当心。”", {**now, "在场": ["林晚"]}) != []


def test_a_worlds_names_of_a_person_follow_its_aliases() -> None:
    """The inverted aliases (:meth:`World.names_of`, built once for the rules that ask every card's
    names) are never those of an older aliases dict: a world given a draft's aliases — by
    ``replace`` or by assignment — answers with them."""
    from dataclasses import replace

    world = World(CARDS, ALIASES, PLACES, ITEMS, DEFAULT_STAGES, None)
    assert world.names_of("林晚") == ["林晚", "晚晚"] and world.names_of("无名") == []
    drafted = replace(world, aliases={**ALIASES, "阿晚": "林晚"})
    assert drafted.names_of("林晚") == ["林晚", "晚晚", "阿晚"]
    assert world.names_of("林晚") == ["林晚", "晚晚"]
    world.aliases = {**ALIASES, "晚丫头": "林晚"}
    assert world.names_of("林晚") == ["林晚", "晚晚", "晚丫头"]
