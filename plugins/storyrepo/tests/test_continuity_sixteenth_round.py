"""The classes the sixteenth round read (issue 30: the contract and 泄密), found on two development books or more and
kept because each gained on them, written here in a county puppet troupe of the 1980s — other words than the
labelled drafts: the right sentence next to each wrong one.

- a place or a body the prose calls by the kind its name ends with, the way its own people do (团里, 咱们团, 仓库里),
  when no other name the book knows ends with that kind, meets a contract line;
- a contract line that names someone only as the owner of a thing (找到老郑的胡琴), or a place only as where a
  thing comes from (捎一包桐城点心), is met when the prose writes the thing; a place the line names only to tell of
  something else (桐城那场) and the prose does not name is a warning that asks, never an error;
- a place of an info gap's keywords that no public text of the book names (the town a runaway went to, there only in
  the gap and the roster) gives the gap away said alone or in a list, by someone who does not know it.
"""

from __future__ import annotations

from typing import Any

from lw_storyrepo.checks import ERROR, WARN, CheckContext, contract_findings, dwellers_of, leak_and_waste, voices
from lw_storyrepo.continuity import World
from lw_storyrepo.drafts import Draft

CARDS: dict[str, dict[str, Any]] = {
    "郑秋生": {"姓名": "郑秋生", "状态": "在世", "位置": "红星木偶剧团", "持有": ["胡琴"]},
    "苗小禾": {"姓名": "苗小禾", "状态": "在世", "位置": "县城"},
    "石满仓": {"姓名": "石满仓", "状态": "失踪", "位置": "县城"},
}
ALIASES = {**{name: name for name in CARDS}, "老郑": "郑秋生", "小禾": "苗小禾", "满仓": "石满仓"}
PLACES = {"红星木偶剧团", "县城", "桐城", "道具仓库", "龙江"}
THINGS = {"胡琴"}


def contract(line: str, body: str, places: set[str] | None = None) -> list[tuple[str, str]]:
    places = PLACES if places is None else places
    aliases = {**ALIASES, **{p: p for p in places}}
    world = World(CARDS, dict(aliases), places, set(THINGS), ("普通人",), None, {}, {})
    meta: dict[str, Any] = {"设定变更": [], "推进承诺": ["P-001", "P-002"]}
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), set(THINGS), world=world, people=set(CARDS),
                       dwellers=dwellers_of(CARDS)).for_draft(meta)
    return [(f.severity, f.message) for f in contract_findings({"合同": [line]}, Draft("A", meta, body, 5), ctx)
            if f.severity in (ERROR, WARN) and "承诺" not in f.message]


def test_a_body_called_by_its_kind_the_way_its_people_do() -> None:
    line = "P-001 推进：小禾听说红星木偶剧团跑了的那个提线的去了南边"
    assert contract(line, "“咱们团跑了个提线的。”小禾说，“就是年前那个。”") == []
    assert contract(line, "小禾蹲在团里后门口，听人说年前跑了的那个提线的去了南边。") == []
    assert [s for s, _m in contract(line, "小禾听人说年前跑了的那个提线的去了南边。")] == [ERROR]  # not there at all
    # a kind some other known name ends with tells neither (红旗歌舞团 is a troupe too)
    assert contract(line, "“咱们团跑了个提线的。”小禾说。", PLACES | {"红旗歌舞团"})
    assert contract(line, "小禾在一个剧团里跑龙套。")  # 剧团 is no 团 of theirs


def test_a_place_called_by_its_kind_of_two_characters() -> None:
    line = "小禾去道具仓库找木偶头"
    assert contract(line, "仓库里一股樟脑味。小禾踮起脚，从架子顶上搬下一只木箱。") == []
    assert contract(line, "小禾在家里找了一晚上。")


def test_a_line_naming_someone_only_as_the_owner_of_a_thing() -> None:
    line = "P-002 推进：在后台找到老郑的胡琴"
    assert contract(line, "小禾在后台的箱子底下摸到那把胡琴，琴弦断了一根。") == []
    owned = "P-002 推进：在后台找到满仓的烟袋"  # a thing no card holds: its own words in the prose
    assert contract(owned, "小禾在后台的箱子底下摸到了，烟袋的铜锅都锈了。") == []
    assert contract(owned, "小禾在后台转了一圈，什么也没找到。")  # neither the thing nor the man
    assert contract(owned, "小禾在集上买了一根烟袋。")  # one brought in as new: any pipe, not his
    assert contract("郑秋生出场，在后台找到满仓的烟袋", "小禾在后台摸到一杆烟袋。")  # the line asks him in


def test_a_place_only_telling_of_something_else() -> None:
    line = "P-002 推进：小禾的娘说要给老郑捎一包桐城点心"
    assert contract(line, "娘说，等开春了，给老郑捎一包点心去，他爱吃那口。") == []  # the sweets told
    match = "P-002 推进：老郑问小禾桐城那场有没有把握"
    assert [s for s, _m in contract(match, "老郑问小禾：“礼拜六那一场，有把握没有？”")] == [WARN]  # asked, not refused
    assert [s for s, _m in contract("小禾去桐城", "小禾在家里收拾箱子。")] == [ERROR]  # a place to reach


SECRETS = [("S-001", {"郑秋生"}, False, ["龙江", "改名"])]


def leaks(text: str, public: str = "") -> list[tuple[str, str]]:
    aliases = {**ALIASES, **{p: p for p in PLACES}}
    world = World(CARDS, dict(aliases), PLACES, set(THINGS), ("普通人",), None, {}, {})
    ctx = CheckContext(aliases, SECRETS, [], [], 0, set(aliases), set(THINGS), world=world, people=set(CARDS),
                       public_words=frozenset(k for _s, _k, _r, kws in SECRETS for k in kws if k in public))
    lines = text.split("\n")
    return [(f.severity, f.message) for f in leak_and_waste(ctx, lines, 1, {}, set(), "苗小禾", list(voices(ctx, lines)))
            if f.kind == "泄密"]


def test_a_place_no_public_text_names_gives_the_gap_away_alone() -> None:
    said = "“满仓跑之前问过我外头哪儿缺人。”小禾说，“我就随口说了几个地方，桐城、县城，还有龙江。”"
    assert leaks(said)  # 龙江 is only the gap's: 小禾 does not know it
    assert leaks("小禾想：满仓是不是去了龙江？")
    assert leaks("“满仓跑之前问过我外头哪儿缺人。”小禾说，“我就随口说了桐城。”") == []  # no keyword
    # a place the book's public text names is said every day: one keyword alone tells nothing
    assert leaks(said, public="龙江边上有个码头，剧团年年去那儿演。") == []
    assert leaks("“满仓去了龙江，改名了。”郑秋生说。") == []  # the knower
