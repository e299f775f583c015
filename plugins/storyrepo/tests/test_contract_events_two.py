"""The contract check's events and places, second round (issue 30, stop 62, c5).

- A place a contract line names only as what a thing or a person comes from or belongs to (某地来的邮袋, 某地寄来的信,
  某地的图纸, 给某地的某某打电话) is not a place the draft must reach: the line asks the thing here
  (checks._only_modifies). A place gone to or been at (去某地的人, 上某地的铺子, 在某地的家) and a spot of the place
  (某地的井场, 某地的库房里) are still asked.
- A led event (A带B…, A领B…, A引着B…) whose act's object the prose never writes is warned; a person inside the act is
  whose its object is (看某某留下的铺盖), not where it is told; after 的 the object is a noun whatever its tag
  (checks._led_act_untold).
- An event line of one person acting with or for another (A教B…, A陪B…, A替B…) whose thing is nowhere and whose
  act's object is nowhere either is named as the event, not the thing (checks._act_untold): a finding about the
  event line, the thing named inside it.

Settings are not the labelled sets': a coastal salt works, a county printing house, a mountain forestry station.
"""

from __future__ import annotations

import pytest

from lw_storyrepo.checks import ERROR, WARN, CheckContext, contract_findings, dwellers_of
from lw_storyrepo.continuity import World
from lw_storyrepo.drafts import Draft

CARDS: dict[str, dict[str, object]] = {
    "孙大有": {"位置": "盐场", "持有": ["焊枪"]},
    "小吴": {"位置": "盐场"},
    "钱秀芝": {"位置": "盐场"},
    "马老四": {"位置": "盐场"},
    "韩小菊": {"位置": "盐场", "状态": "失踪"},
}
PLACES = {"盐场", "省城", "青口", "东滩", "南岭", "北沟"}
ITEMS = {"焊枪"}
ALIASES = {**{n: n for n in CARDS}, **{p: p for p in PLACES}, "菊子": "韩小菊", "焊枪": "焊枪"}


def _found(line: str, body: str) -> list[tuple[str, str]]:
    world = World(CARDS, dict(ALIASES), PLACES, set(ITEMS), ("普通人",), None, {}, {})
    ctx = CheckContext(dict(ALIASES), [], [], [], 0, set(ALIASES), set(ITEMS), world=world, people=set(CARDS),
                       dwellers=dwellers_of(CARDS)).for_draft({})
    return [(f.severity, f.message) for f in contract_findings({"合同": [line]}, Draft("A", {}, body, 5), ctx)
            if f.severity in (ERROR, WARN)]


SALT = ("天擦亮，孙大有和小吴一前一后进了盐场的仓房。小吴把一麻包粗盐扛上板车，孙大有在门口点了支烟，"
        "说起去年秋天潮水漫过堤的事。钱秀芝来喊吃饭，三个人拍拍身上的盐末，走了。")


@pytest.mark.parametrize("line, place, body", [
    ("小吴跟孙大有到仓房接省城来的盐包", "省城", SALT),    # 某地来的 + a thing: where it comes from, always
    ("孙大有在仓房拆开一封青口寄来的信", "青口", SALT),     # 某地寄来的 (a sibling verb of sending: 寄)
    ("孙大有在仓房看东滩捎来的盐样", "东滩", SALT),         # 捎来的: a sibling no book of the pool writes after a place
    # 某地的 + a thing the prose writes (the map): the line is told by its thing
    ("小吴在仓房描南岭的地形图", "南岭", SALT + "小吴趴在板车上，一笔一笔描那张地形图。"),
    ("孙大有在仓房给省城的钱秀芝打电话", "省城", SALT),     # 某地的 + a person the prose names
])
def test_a_place_only_modifying_a_thing_is_not_asked(line: str, place: str, body: str) -> None:
    assert not [m for _s, m in _found(line, body) if f"「{place}」" in m], _found(line, body)


@pytest.mark.parametrize("line, place", [
    ("孙大有修南岭的水闸", "南岭"),
    ("钱秀芝替小吴挖北沟的排水渠", "北沟"),
    ("孙大有把东滩的盐垛苫好", "东滩"),
    ("孙大有和小吴扛着东滩的木桩回了盐场", "东滩"),
    ("孙大有给青口的老丈人拜年", "青口"),
    ("小吴在仓房描南岭的地形图", "南岭"),
])
def test_a_place_before_a_thing_the_prose_never_writes_is_still_asked(line: str, place: str) -> None:
    """r62-1: 某地的 + a thing the prose does not write — the act may be done at the place: asked as before (a warning)."""
    assert any(f"「{place}」" in m for _s, m in _found(line, SALT)), _found(line, SALT)


@pytest.mark.parametrize("line, place", [
    ("小吴跟孙大有去省城的盐库交盐", "省城"),             # 去某地的…: a place gone to
    ("孙大有上南岭的林场找人", "南岭"),                  # 上某地的…
    ("小吴在东滩的晒盐池边收盐", "东滩"),                # 在某地的…
    ("孙大有看北沟的老井场", "北沟"),                    # 某地的 + a spot of it (井场): the scene is there
    ("小吴清南岭的边沟", "南岭"),                        # a spot ending on 沟
    ("青口的盐库里堆着新盐", "青口"),                    # the phrase after 的 ends on a place part: where something is
])
def test_a_place_gone_to_been_at_or_a_spot_of_it_is_still_asked(line: str, place: str) -> None:
    assert any(f"「{place}」" in m for _s, m in _found(line, SALT)), _found(line, SALT)


def _led(line: str, body: str) -> list[str]:
    return [m for s, m in _found(line, body) if s == WARN and "要做的事" in m]


@pytest.mark.parametrize("line, head", [
    ("孙大有领小吴到仓房后头看韩小菊留下的箱子", "箱子"),     # 领: a person inside is the owner, not the telling
    ("孙大有引着小吴去看堤上的缺口", "缺口"),          # 引着: a sibling of leading no book of the pool writes
    ("孙大有领着小吴到仓房看马老四落下的铺盖", "铺盖"),        # 铺盖 tagged a verb: after 的 a noun all the same
])
def test_a_led_act_whose_object_is_never_written_is_warned(line: str, head: str) -> None:
    # the owners are named (菊子, 马老四): whose the object is, not the object
    body = SALT + "路上孙大有说，菊子走了快一个月了，马老四前天也回了老家。"
    warned = _led(line, body)
    assert len(warned) == 1 and f"（{head}）" in warned[0], _found(line, body)


@pytest.mark.parametrize("line, body", [
    # the object told
    ("孙大有领小吴到仓房后头看韩小菊留下的箱子", SALT + "仓房后头搁着一只木箱子，是菊子走前留下的，孙大有掀开盖给小吴看。"),
    # the line negates its act
    ("孙大有不领小吴去看韩小菊留下的箱子", SALT),
    # teaching or keeping company alone, with nothing of the line missing: told in other words often, never warned
    ("孙大有教小吴写盐场的月报", SALT),
    ("钱秀芝陪小吴去仓房烧纸", SALT + "小吴在仓房门口蹲下，划了根火柴，把一沓黄纸点着了。"),
])
def test_a_led_act_told_negated_or_of_another_relation_is_silent(line: str, body: str) -> None:
    assert _led(line, body) == [], _found(line, body)


@pytest.mark.parametrize("line", [
    "孙大有教小吴用焊枪接上裂开的铁管",      # 教 (a teaching)
    "钱秀芝替小吴用焊枪补好漏水的铁桶",      # 替: a sibling relation no book of the pool writes so
    "小吴陪孙大有拿焊枪去焊松动的闸门",      # 陪
])
def test_a_taught_act_with_its_thing_and_object_unwritten_is_named_as_the_event(line: str) -> None:
    # the thing (焊枪) is nowhere and the act's object (铁管) is nowhere either: the event never happens, said as such
    found = _found(line, SALT)
    assert len(found) == 1 and found[0][0] == ERROR, found
    assert found[0][1].startswith(f"合同里的事件「{line}」正文里找不到：「焊枪」正文里没有"), found


def test_a_taught_act_whose_object_is_written_names_the_missing_thing_only() -> None:
    # the object told (铁管): the act happened, only the tool is not named — the thing is what is missing
    line = "孙大有教小吴用焊枪接上裂开的铁管"
    found = _found(line, SALT + "小吴蹲在墙根，看孙大有把裂开的铁管对上口，一点点接好。")
    assert len(found) == 1 and found[0][1] == f"合同「{line}」提到「焊枪」，正文里没有", found
