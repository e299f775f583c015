"""Hostile input, a seventh look: the contract's place readers and who speaks a line of quotes.

Each class here once made the checks of one draft grow with the square of a contract or of a line: a
contract line listing every place of a 名册 of thousands read the whole book for each term (the district a
place is named with, a place inside another, a place by its kind, a place by its stem, every other name of
the term: 94 s at the cap); a line of thousands of 他说：“…” read the line up to each pronoun for the last
person named, and up to each quote for the clause leading it (20 s, 18×); a sentence of thousands of things handed
over or used scanned every use read before it at each (30 s, 12×). The figures are in
bench/story_hostile.py (the ``seven_`` cases); these tests pin what the faster readers must still find."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from lw_storyrepo.checks import ERROR, WARN, CheckContext, _LineMarks, _last_clause, contract_findings, dwellers_of, voices
from lw_storyrepo.continuity import World, check_continuity
from lw_storyrepo.drafts import Draft

CARDS: dict[str, dict[str, Any]] = {
    "贺青山": {"姓名": "贺青山", "状态": "在世", "位置": "红岩站"},
    "方桂芝": {"姓名": "方桂芝", "状态": "在世", "位置": "红岩站"},
    "刘石头": {"姓名": "刘石头", "状态": "在世", "位置": "红岩站"},
}
ALIASES = {**{name: name for name in CARDS}, "石头": "刘石头"}
PLACES = {"红岩站", "信号楼", "县城"}

COINED = [f"{chr(0x4E00 + i)}{chr(0x5E00 + i)}城" for i in range(3000)]


def _ctx(places: set[str]) -> CheckContext:
    aliases = {**ALIASES, **{p: p for p in places}}
    world = World(CARDS, dict(aliases), places, set(), ("普通人",), None, {}, {})
    return CheckContext(aliases, [], [], [], 0, set(aliases), set(), world=world, people=set(CARDS),
                        dwellers=dwellers_of(CARDS)).for_draft({})


def _contract(lines: list[str], body: str, places: set[str]) -> list[tuple[str, str]]:
    return [(f.severity, f.message) for f in contract_findings({"合同": lines}, Draft("A", {}, body, 5), _ctx(places))
            if f.severity in (ERROR, WARN)]


def test_one_contract_line_of_thousands_of_places_still_reads_each_place_by_its_district_stem_kind_and_inner_name() -> None:
    known = {"香港", "鸭寮街", "西市济春堂", "济春堂", "城南", "城南医院", "柳园站"}
    places = {*PLACES, *COINED, *known}
    line = "贺青山去" + "、".join(COINED) + "，再去香港鸭寮街、西市济春堂、城南医院和柳园站"
    body = "".join(f"贺青山到了{p}。" for p in COINED) + "他在鸭寮街买了零件，又进了济春堂，把单子送到医院，最后到了柳园。"
    assert _contract([line], body, places) == []
    # each reader still tells: a place the prose names nowhere, by no form, is missing
    found = _contract([line], body.replace(f"贺青山到了{COINED[1234]}。", ""), places)
    assert [s for s, m in found] == [ERROR] and COINED[1234] in found[0][1]
    # 医院 tells 城南医院 only while no other place the book knows is a 医院
    assert [s for s, m in _contract([line], body, places | {"北区医院"}) if "城南医院" in m] == [ERROR]
    # 柳园 tells 柳园站 only while no other name begins with it
    assert [s for s, m in _contract([line], body, places | {"柳园小学"}) if "柳园站" in m] == [ERROR]


def test_variants_are_read_once_and_given_as_a_new_set_each_time() -> None:
    ctx = _ctx({*PLACES, *COINED})
    first = ctx.variants("石头")
    assert {"刘石头", "石头"} <= first
    first.add("我")
    assert "我" not in ctx.variants("石头")  # a caller adding to its set changes no other's
    ctx.aliases["石哥"] = "刘石头"  # a name added in place is seen
    assert "石哥" in ctx.variants("石头")


def _voices(body: str) -> list[tuple[str | None, int]]:
    ctx = _ctx(set(PLACES)).reading(body)
    return [(v.speaker, v.column) for v in voices(ctx, body.split("\n")) if v.speaker is not None]


def test_a_line_of_thousands_of_pronoun_quotes_still_gives_each_to_the_last_person_named() -> None:
    found = _voices("贺青山进了门。" + "他说：“好。”" * 3000)
    assert {who for who, _ in found} == {"贺青山"}
    thought = "他心里说：好。" * 3000
    found = _voices("贺青山进了门。" + thought + "方桂芝进来，她心里说：走吧。")
    assert {who for who, _ in found[:-1]} == {"贺青山"}
    assert found[-1] == ("方桂芝", len("贺青山进了门。" + thought + "方桂芝进来，") + 1)
    # an unnamed speaker's own clause says it is nobody the book knows, after thousands of quotes too
    assert _voices("贺青山说：“来。”" + "“好。”" * 3000 + "老汉点头：“走吧。”")[-1][1] < len("贺青山说：“来。”") + 3 * 3000


_TEXT = st.lists(st.sampled_from(["贺青山", "方桂芝", "石头", "刘石", "他", "她", "说", "：", ":", "“", "”", "。", "！", "」",
                                  " ", "\u3000", "\t", "\n", "，", "老汉", "点头", "好"]), max_size=40).map("".join)


@settings(max_examples=400, deadline=None)
@given(text=_TEXT, cut=st.integers(0, 200))
def test_the_line_marks_read_as_the_whole_text_before_each_position_read_again(text: str, cut: int) -> None:
    ctx = _ctx(set(PLACES))
    names = ctx.names_re()
    assert names is not None
    at = min(cut, len(text))
    marks = _LineMarks(ctx, names, text)
    before = [n.group() for n in names.finditer(text[:at]) if ctx.is_person(n.group()) and n.group() not in ctx.kin_words]
    assert marks.person_before(at) == (before[-1] if before else None)
    clause = _last_clause(text, at)
    lead = re.match(r"([他她])[^。！？“”]*[：:]\s*$", clause.lstrip())
    assert marks.lead(at) == (lead.group(1) if lead else None)
    assert marks.unnamed(at) == (clause.rstrip()[-1:] in ("：", ":") and bool(clause.strip(" ：:")))


HOLDING = {**CARDS, "贺青山": {**CARDS["贺青山"], "持有": ["扳手", "水壶"]}}


def _held(body: str) -> list[tuple[int, int, str]]:
    things = {"扳手", "水壶"}
    world = World(HOLDING, dict(ALIASES), {"红岩站"}, things, ("普通人",), None, {}, {})
    meta = {"视角": "贺青山", "书内时间": "1976年3月9日", "在场": list(CARDS)}
    ctx = CheckContext(dict(ALIASES), [], [], [], 0, set(ALIASES), things, world=world, people=set(CARDS)).for_draft(meta)
    world.aliases, world.indirect = ctx.aliases, ctx.kin_words
    lines = body.split("\n")
    return [(f.line, f.column, f.message) for f in check_continuity(world, meta, lines, 1, voices(ctx, lines), ctx.names_re())
            if "持有" in f.message]


def test_a_sentence_of_thousands_of_handovers_still_reads_each_use_by_its_holder() -> None:
    handed = "贺青山掏出扳手递给方桂芝，" * 3000
    found = [(line, column, message) for line, column, message in _held(handed + "刘石头拿起水壶喝了一口。") if "刘石头" in message]
    assert len(found) == 1 and "水壶" in found[0][2] and found[0][:2] == (1, len(handed) + 6)
    assert not [m for _l, _c, m in _held(handed + "刘石头拿起扳手拧了拧。") if "刘石头" in m]  # handed over: the scene's
