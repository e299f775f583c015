"""Hostile input, a sixth look: the readers of the continuity rounds thirteen to seventeen.

Each class here once made the checks of one draft, or the load of a book, grow with the square of a
line or of the book: a 世界观 line of thousands of 五里…远 tried each journey word against every walk it
holds (82 s at the draft cap); a line of thousands of acts a barred hand does read the line up to each
for who does it (33 s); a line of thousands of quotes read the whole line before each for words
written, reported or mimicked; a card of thousands of aliases, or thousands of bars over thousands of
places, looked for each alias or place in every 世界观 sentence; a contract of hundreds of places read
every name of the book for each by its home kind. The figures are in bench/story_hostile.py (the
``six_`` cases); these tests pin what the faster readers must still find."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from typing import Any

from lw_storyrepo import continuity
from lw_storyrepo.checks import ERROR, WARN, CheckContext, contract_findings, dwellers_of, voices
from lw_storyrepo.continuity import FAR_SPAN, World, check_continuity, far_places, journeys, places_inside
from lw_storyrepo.drafts import Draft
from lw_storyrepo.forbidden import forbidden_of

CARDS: dict[str, dict[str, Any]] = {
    "贺青山": {"姓名": "贺青山", "状态": "在世", "位置": "红岩站"},
    "方桂芝": {"姓名": "方桂芝", "状态": "停职", "位置": "红岩站"},
    "刘石头": {"姓名": "刘石头", "状态": "骨折", "位置": "红岩站"},
    "老站长": {"姓名": "老站长", "状态": "已死", "位置": "红岩站"},
}
ALIASES = {**{name: name for name in CARDS}, "石头": "刘石头"}
PLACES = {"红岩站", "信号楼", "县城"}
LORE = "信号楼在红岩站的站台北头。方桂芝停职期间不许进信号楼。刘石头的左手砸断了，左手什么也提不起。"
GENDER = {"贺青山": "他", "方桂芝": "她", "刘石头": "他", "老站长": "他"}


def _state_findings(body: str, marker: str = "按设定") -> list[tuple[int, int, str]]:
    world = World(CARDS, dict(ALIASES), PLACES, set(), ("普通人",), None, places_inside(LORE, PLACES), GENDER)
    world.bars = forbidden_of(CARDS, {}, LORE, ALIASES, PLACES)
    meta = {"视角": "贺青山", "书内时间": "1976年3月9日", "在场": ["贺青山", "刘石头"]}
    ctx = CheckContext(dict(ALIASES), [], [], [], 0, set(ALIASES), set(), world=world, people=set(CARDS)).for_draft(meta)
    world.aliases, world.indirect = ctx.aliases, ctx.kin_words
    lines = body.split("\n")
    return [(f.line, f.column, f.message) for f in check_continuity(world, meta, lines, 1, voices(ctx, lines), ctx.names_re())
            if marker in f.message]


@settings(max_examples=300, deadline=None)
@given(cuts=st.lists(st.integers(0, 60), max_size=12, unique=True), at=st.integers(-5, 70))
def test_a_position_is_looked_up_among_spans_and_neighbours_as_tried_against_each(cuts: list[int], at: int) -> None:
    cuts.sort()
    spans = [(a, b) for a, b in zip(cuts[::2], cuts[1::2])]
    assert continuity._within(spans, [a for a, _ in spans], at) == any(a <= at < b for a, b in spans)
    assert list(continuity._near(cuts, at)) == [k for k, j in enumerate(cuts) if abs(j - at) <= FAR_SPAN]


def test_a_world_line_of_thousands_of_walks_still_reads_the_far_place_near_its_journey() -> None:
    places = ["日内瓦", "青石镇", "陈家村"]
    line = "五里远" * 3000 + "。日内瓦离这里坐飞机要一天，" + "和" * 50 + "，青石镇离陈家村五里"
    assert far_places([line], places) == frozenset({"日内瓦"})
    assert far_places(["青石镇离陈家村五里，" + "五里" * 2000], places) == frozenset()


def test_a_world_line_of_thousands_of_places_each_a_journey_away_keeps_each_its_days() -> None:
    places = [f"{chr(0x4E00 + i)}{chr(0x5E00 + i)}城" for i in range(1500)]
    line = "，".join("和" * 30 + p + "三天" * (i % 2) for i, p in enumerate(places))
    days = journeys([line], places)
    assert {p for i, p in enumerate(places) if i % 2} == set(days) and set(days.values()) == {3.0}
    assert far_places([line], places) == frozenset(p for i, p in enumerate(places) if i % 2)


def test_a_line_of_thousands_of_acts_by_others_still_finds_the_barred_one_at_its_end() -> None:
    others = "贺青山左手提起水桶，" * 3000
    found = _state_findings(others + "石头左手一把提起扳手。")
    assert [(line, column) for line, column, _ in found] == [(1, len(others) + 3)] and "左手用不了" in found[0][2]
    assert _state_findings(others + "方桂芝一低头走进了信号楼。")
    assert _state_findings(others) == []


def test_the_subject_of_an_act_far_along_a_line_keeps_its_rules() -> None:
    assert _state_findings("石头看着" + "我左手提起水桶，" * 2000) == []  # 我 between: told of the narrator
    assert _state_findings("贺青山看了石头一眼，" + "他左手提起水桶，" * 2000) == []  # 他 leads to the sentence's 贺青山
    assert _state_findings("石头看了贺青山一眼，" + "他左手提起水桶，" * 2000)  # 他 leads to 石头
    assert _state_findings("贺青山跟石头，" + "左手提起水桶，" * 2000) == []  # after 跟: an object, 贺青山 does it


def test_a_line_of_thousands_of_quotes_still_reads_each_voice_for_words_written_reported_or_mimicked() -> None:
    def dead(body: str) -> list[tuple[int, int, str]]:
        return _state_findings(body, "老站长 的状态")

    for quotes in ("“好。”贺青山说。" * 3000, "“好”贺青山说，" * 3000):
        found = dead(quotes + "老站长背着手走进来，说：“开机吧。”")
        assert [(line, column) for line, column, _ in found] == [(1, len(quotes) + 13)]
        assert dead(quotes + "最后一页是老站长写的：三月，云多，不宜观测。") == []
        assert dead(quotes + "方桂芝学着老站长的样子，背着手踱了两步，“他说：‘先得坐得住。’”贺青山笑了。") == []


def test_a_card_of_thousands_of_aliases_and_a_world_of_thousands_of_places_still_give_each_bar() -> None:
    coined = [f"{chr(0x4E00 + i)}{chr(0x5E00 + i)}" for i in range(3000)]
    aliases = {**ALIASES, **{f"石{w}": "刘石头" for w in coined}, **{f"桂{w}": "方桂芝" for w in coined}}
    places = {*PLACES, *(f"{w}城" for w in coined)}
    lore = "".join(f"{w}城在北边。" for w in coined) + f"石{coined[-1]}不许进{coined[7]}城的{coined[9]}城。" \
        + f"桂{coined[5]}和石{coined[5]}都不许进信号楼。桂{coined[0]}的右手什么也拿不了。"
    bars = forbidden_of(CARDS, {}, lore, aliases, places)
    assert bars["刘石头"].places == frozenset({f"{coined[7]}城"})  # the first place of the bar, one person named
    assert [part for part, _ in bars["方桂芝"].parts] == ["右手"] and not bars["方桂芝"].places  # two named: no bar read


def _contract(lines: list[str], body: str, places: set[str]) -> list[tuple[str, str]]:
    aliases = {**ALIASES, **{p: p for p in places}}
    world = World(CARDS, dict(aliases), places, set(), ("普通人",), None, {}, {})
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), set(), world=world, people=set(CARDS),
                       dwellers=dwellers_of(CARDS)).for_draft({})
    return [(f.severity, f.message) for f in contract_findings({"合同": lines}, Draft("A", {}, body, 5), ctx)
            if f.severity in (ERROR, WARN)]


def test_a_contract_of_many_places_against_a_book_of_thousands_still_reads_each_by_its_home_kind() -> None:
    coined = [f"{chr(0x4E00 + i)}{chr(0x5E00 + i)}城" for i in range(3000)]
    places = {*PLACES, *coined, "红星木偶剧团"}
    lines = ["贺青山听说红星木偶剧团跑了个提线的", *(f"贺青山去{p}" for p in coined[:40])]
    body = "“咱们团跑了个提线的。”贺青山说。" + "".join(f"贺青山到了{p}。" for p in coined[:40])
    assert _contract(lines, body, places) == []
    # a kind another known name ends with tells neither (红旗歌舞团 is a troupe too)
    assert [s for s, m in _contract(lines, body, places | {"红旗歌舞团"}) if "红星木偶剧团" in m] == [ERROR]
    assert [s for s, m in _contract(lines, body.replace("咱们团", "咱们"), places) if "红星木偶剧团" in m] == [ERROR]
