"""The contract check's false alarms, third round (issue 30, K2 at stop 54): how the prose tells a handover.

A contract line that hands a held thing over (甲把罗盘交给乙) asks for the handover; settle moves 持有 by the draft's
设定变更 alone (spec §8), so a handover the prose tells and keeps must be declared there. Two readings of the prose
decide what is said when the draft declares nothing (:func:`lw_storyrepo.checks._handover_told`):

- given and taken back (递过去 … 收回, 还给): a handover for a moment, nobody's 持有 changes — nothing to declare, no
  finding;
- never given (the holder touches the thing and lets it be): the event the line asks is missing, and the finding says
  so as an event of the contract, not as a 设定变更 left out.

The verbs are one table of general Chinese (:data:`lw_storyrepo.giving.TAKE_BACK_VERBS` beside the giving verbs).
Settings are not the labelled sets': a Song-dynasty tea house, a 1930s print shop, a space station, a village school.
"""

from __future__ import annotations

import pytest

from lw_storyrepo import giving
from lw_storyrepo.checks import ERROR, WARN, CheckContext, contract_findings, dwellers_of
from lw_storyrepo.continuity import World
from lw_storyrepo.drafts import Draft

CARDS: dict[str, dict[str, object]] = {
    "柳三娘": {"位置": "汴京", "持有": ["青瓷茶盏"]},
    "周先生": {"位置": "上海", "持有": ["铅字盘"]},
    "韩舰长": {"位置": "天宫站", "持有": ["门禁卡"]},
    "李老师": {"位置": "石门村", "持有": ["铜哨"]},
    "阿丑": {"位置": "汴京"}, "小顾": {"位置": "上海"}, "林工": {"位置": "天宫站"}, "二妮": {"位置": "石门村"},
}
ALIASES = {n: n for n in CARDS}
PLACES = {"汴京", "上海", "天宫站", "石门村"}
ITEMS = {"青瓷茶盏", "铅字盘", "门禁卡", "铜哨"}


def _contract(line: str, body: str, changes: list[str] | None = None) -> list[tuple[str, str]]:
    aliases = {**ALIASES, **{p: p for p in PLACES}}
    world = World(CARDS, dict(aliases), PLACES, set(ITEMS), ("普通人",), None, {}, {})
    meta = {"设定变更": changes or []}
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), set(ITEMS), world=world, people=set(CARDS),
                       dwellers=dwellers_of(CARDS)).for_draft(meta)
    return [(f.severity, f.message) for f in contract_findings({"合同": [line]}, Draft("A", meta, body, 5), ctx)
            if f.severity in (ERROR, WARN)]


@pytest.mark.parametrize("line, body", [
    # a Song tea house: the cup is handed over to be looked at and taken back
    ("柳三娘把青瓷茶盏递给阿丑看", "柳三娘从柜里捧出那只青瓷茶盏，递给阿丑：“你看这釉色。”阿丑看了半天。"
                           "柳三娘把茶盏收回柜里，落了锁。"),
    # a 1930s print shop: the tray goes over, and comes back with a word of thanks
    ("周先生把铅字盘交给小顾排版", "周先生端出铅字盘交给小顾：“排这一页，排错一个字重来。”"
                          "小顾排完，把铅字盘还给了周先生。"),
    # a space station: the card goes over in the airlock and back in the same breath
    ("韩舰长把门禁卡递给林工开舱", "韩舰长摘下门禁卡递过去，林工刷开舱门，随手又把门禁卡递还给他。"),
    # the receiver giving it back, and a return done after a wait (等…还给了)
    ("李老师把铜哨交给二妮", "李老师把铜哨交给二妮。二妮吹了两声，把铜哨递还给李老师。"),
    ("周先生把铅字盘交给小顾排版", "周先生把铅字盘交给小顾。等排完了，小顾把铅字盘还给了周先生。"),
    # the tea house again: shown across the counter, then put back where it came from (checks.TAKEN_BACK)
    ("柳三娘把青瓷茶盏递给阿丑看", "柳三娘把青瓷茶盏递过去，阿丑只看了一眼。她把茶盏揣回了怀里。"),
])
def test_a_thing_handed_over_for_a_moment_needs_no_change_of_holder(line: str, body: str) -> None:
    assert _contract(line, body) == []


@pytest.mark.parametrize("line, body", [
    # a village school: the teacher touches the whistle and keeps it — the handover never happens
    ("李老师把铜哨交给二妮", "李老师的手摸到胸前那只铜哨，捏了捏，又放开了。二妮等了一会儿，低头走了。"),
    # the print shop: the tray is named, worked on by its holder, never given
    ("周先生把铅字盘交给小顾排版", "周先生自己端着铅字盘，一个字一个字地排，小顾在旁边看着。"),
    # the space station: the card never leaves its holder
    ("韩舰长把门禁卡递给林工开舱", "韩舰长把门禁卡攥在手心里，自己刷开了舱门，林工跟在后头。"),
])
def test_a_handover_the_prose_never_tells_is_the_event_missing(line: str, body: str) -> None:
    found = _contract(line, body)
    assert [s for s, _ in found] == [WARN]
    assert found[0][1].startswith(f"合同里的事件「{line}」正文里找不到")  # what the line asks is what is missing


@pytest.mark.parametrize("line, body", [
    # given and kept: spec §8 — settle moves 持有 by 设定变更 alone, so the draft must declare it
    ("李老师把铜哨交给二妮", "李老师把铜哨交给二妮：“往后早操归你吹。”二妮攥着铜哨跑了。"),
    # given back only by the other way round first: 还给 before any giving is a giving, not a taking back
    ("柳三娘把青瓷茶盏递给阿丑看", "柳三娘把青瓷茶盏递给阿丑，说往后这只盏就放他那儿，再不要还给她了。"),
    # R54: a return planned, not done, is no taking back
    ("周先生把铅字盘交给小顾排版", "周先生把铅字盘交给小顾。小顾说等这批书排完，再把铅字盘还给先生。"),
    ("周先生把铅字盘交给小顾排版", "周先生把铅字盘交给小顾。小顾接过铅字盘，说明天还。"),
    ("李老师把铜哨交给二妮", "李老师把铜哨交给二妮。二妮攥着铜哨，说过两天要还给李老师。"),
    # R54: the receiver putting it in their own pocket keeps it — a taking back is done by or to the giver
    ("李老师把铜哨交给二妮", "李老师把铜哨交给二妮。二妮把铜哨揣回了怀里，跑了。"),
    ("周先生把铅字盘交给小顾排版", "周先生把铅字盘交给小顾。小顾把铅字盘收回柜里，落了锁。"),
])
def test_a_handover_told_and_kept_still_asks_for_its_change(line: str, body: str) -> None:
    found = _contract(line, body)
    assert [s for s, _ in found] == [WARN] and "设定变更却没有记下它换了人" in found[0][1]


def test_a_declared_handover_says_nothing() -> None:
    assert _contract("李老师把铜哨交给二妮", "李老师把铜哨交给二妮。", ["李老师.持有-铜哨", "二妮.持有+铜哨"]) == []


def test_the_taking_back_verbs_are_one_row_of_the_giving_table() -> None:
    assert {"收回", "递还", "还给"} <= set(giving.TAKE_BACK_VERBS)
    assert "还给" in giving.GIVING_VERBS  # 还给 gives back: a handing too
    assert not set(giving.TAKE_BACK_VERBS) & {"交给", "递给", "接过"}


def test_nothing_else_of_the_line_is_asked_twice() -> None:
    """A line whose person is missing is reported for that, once: the handover is not read on top of it."""
    found = _contract("李老师把铜哨交给二妮", "铜哨响了一声。")
    assert found and all(s == ERROR and "正文里没有" in m for s, m in found)


def test_a_handover_whose_thing_is_nowhere_is_the_event_missing() -> None:
    """The holder and the one it should go to are there, the thing never named: the handover never happens."""
    found = _contract("韩舰长把门禁卡递给林工开舱", "韩舰长站在舱门口，看了林工一眼，转身走了。")
    assert found == [(ERROR, "合同里的事件「韩舰长把门禁卡递给林工开舱」正文里找不到：要交出的「门禁卡」正文里没有")]
    # a line that moves a promise is not read as a handover: its promise is what it asks
    assert not any(m.startswith("合同里的事件") for _, m in _contract("P-001 推进：韩舰长把门禁卡递给林工", "韩舰长和林工站着。"))


TOLD_PLACES = {"汴京", "上海", "天宫站", "石门村", "州桥", "四马路", "二号舱", "后山"}


def _told(line: str, body: str) -> list[tuple[str, str]]:
    aliases = {**ALIASES, **{p: p for p in TOLD_PLACES}}
    world = World(CARDS, dict(aliases), TOLD_PLACES, set(ITEMS), ("普通人",), None, {}, {})
    meta = {"设定变更": [], "推进承诺": ["P-001"]}
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), set(ITEMS), world=world, people=set(CARDS),
                       dwellers=dwellers_of(CARDS)).for_draft(meta)
    return [(f.severity, f.message) for f in contract_findings({"合同": [line]}, Draft("A", meta, body, 5), ctx)
            if f.severity in (ERROR, WARN)]


@pytest.mark.parametrize("line, body", [
    # the tea house: what the cook saw is told, the bridge is only where he saw it
    ("P-001 推进：阿丑说那天夜里在州桥底下看见柳三娘跟一个戴斗笠的人说话，说完那人就往东走了",
     "阿丑压低了嗓子：“那天夜里我看见三娘了，跟一个戴斗笠的人说话。说完那人就往东走了。”柳三娘在柜上擦着茶盏。"),
    # the print shop: the leaflets are told, the street they were found in left out
    ("P-001 推进：小顾告诉周先生，四马路的书摊上昨天出现了一叠没有署名的传单，纸是他们铺子的纸",
     "小顾进门就说：“先生，书摊上昨天出现了一叠传单，没有署名。我摸了摸，纸是咱们铺子的纸。”周先生放下了铅字盘。"),
    # the space station: the leak is told, the module where it was is not named
    ("P-001 推进：林工说上个月在二号舱检修时发现氧气管道的接口被人拧松过半圈",
     "林工把记录板递给韩舰长：“上个月检修的时候我就发现了，氧气管道的接口被人拧松过半圈。”韩舰长没说话。"),
])
def test_a_place_only_in_a_telling_the_prose_tells_need_not_be_named(line: str, body: str) -> None:
    assert _told(line, body) == []


@pytest.mark.parametrize("line, body", [
    # the telling is not there: the step is missing, the place with it
    ("P-001 推进：二妮说她前天在后山看见李老师埋了一个铁盒子", "二妮坐在门槛上剥豆子，李老师在院里扫地。"),
    # the place is where the scene goes, not a detail of a telling
    ("P-001 推进：李老师带二妮去后山看那片被烧过的林子", "李老师和二妮看那片被烧过的林子，林子黑乎乎的，一片叶子都没有。"),
])
def test_a_place_of_a_missing_telling_or_of_the_scene_is_still_asked(line: str, body: str) -> None:
    assert any("后山" in m for _, m in _told(line, body))
