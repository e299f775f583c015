"""The classes the nineteenth round read (issue 30: false alarms on the dead, contract misses), found on the four
fresh development books 连续性-盲评十六 to 十九 (four writers) and kept because each gained on two of them or is a plain
reading with no loss anywhere, written here at a road-maintenance squad (道班) on the 青藏公路 in the 1960s — other
words than the labelled drafts: the right sentence next to each wrong one.

- a paragraph set in a dead person's lifetime (老班长在的时候说过：…) or after their death (老班长下葬以后，…) tells
  no act or voice of theirs in the scene; a couple of years back (前两年) is as past as 两年前; a form of the dead that
  ends someone else's longer name (班长 of 副班长) is that one there;
- a handover never told plainly — its giving words negated, wished or put off (却没递过来, 原想…交给你, 过两天…带给你)
  — while the holder stows the thing (往棉袄兜里一揣) or puts the handover off (改日, 落在…里了) is a warning that asks,
  whatever the prose calls the thing; a line's thing told by a place it is not (一包格尔木捎来的药) is read so too;
- a contract place the prose names, besides a wish or a plan, only as what its sentence tells of (纳赤台逢五赶集;
  沱沱河在五道梁西边，…: where it lies says nothing of reaching it), or in an errand given in words (“去纳赤台买两袋面…”),
  is not reached: a warning that asks.
"""

from __future__ import annotations

from typing import Any

from lw_storyrepo.checks import ERROR, WARN, CheckContext, contract_findings, dwellers_of
from lw_storyrepo.continuity import World
from lw_storyrepo.drafts import Draft

import continuity_helpers

CARDS: dict[str, dict[str, Any]] = {
    "石大勇": {"姓名": "石大勇", "状态": "在世", "位置": "五道梁"},
    "贺长山": {"姓名": "贺长山", "状态": "已死", "位置": "五道梁"},
    "葛存福": {"姓名": "葛存福", "状态": "在世", "位置": "五道梁"},
}
ALIASES = {**{name: name for name in CARDS}, "大勇": "石大勇", "老班长": "贺长山", "班长": "贺长山", "老葛": "葛存福",
           "副班长": "葛存福"}
PLACES = {"五道梁", "沱沱河", "纳赤台", "格尔木"}
LORE = "五道梁道班在青藏公路边上。贺长山是老班长，去年冬天死在了风火山的雪里。"
TEXTS = {"石大勇": "养路工。", "贺长山": "老班长，已死。", "葛存福": "养路工。"}
GENDER = {"石大勇": "他", "贺长山": "他", "葛存福": "他"}


def findings(body: str) -> list[str]:
    world = continuity_helpers.world_of(CARDS, ALIASES, PLACES, TEXTS, LORE, GENDER, far=True)
    return [f.message for f in continuity_helpers.findings(body, world, "石大勇", "1962年10月3日", ["石大勇", "葛存福"])
            if "贺长山" in f.message]


def test_the_dead_in_their_lifetime_or_after_their_death() -> None:
    assert findings("大勇拿起铁锹。老班长在的时候说过：“路是养出来的，不是修出来的。”") == []
    assert findings("老班长有一顶狗皮帽子，走到哪里戴到哪里。老班长下葬以后，东西收拾出来，偏偏少了那顶帽子。") == []
    assert findings("前两年大勇也在沟口等过老班长，老班长回来总会塞给他一块冻硬的馍。") == []
    # the dead speaking or acting now, with no such time said
    assert findings("大勇拿起铁锹。老班长说：“路是养出来的，不是修出来的。”")
    assert findings("门帘一掀，老班长推门走了进来，拍了拍身上的雪。")


def test_a_form_of_the_dead_inside_another_ones_longer_name() -> None:
    assert findings("门帘一掀，副班长推门走了进来，拍了拍身上的雪。") == []  # 副班长 is 葛存福, not 班长
    assert findings("门帘一掀，班长推门走了进来，拍了拍身上的雪。")


def contract(line: str, body: str) -> list[tuple[str, str]]:
    aliases = {**ALIASES, **{p: p for p in PLACES}}
    world = World(CARDS, dict(aliases), PLACES, set(), ("普通人",), None, {}, {})
    meta: dict[str, Any] = {"设定变更": [], "推进承诺": []}
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), set(), world=world, people=set(CARDS),
                       dwellers=dwellers_of(CARDS)).for_draft(meta)
    return [(f.severity, f.message) for f in contract_findings({"合同": [line]}, Draft("A", meta, body, 5), ctx)
            if f.severity in (ERROR, WARN)]


def test_a_handover_withheld_by_its_holder() -> None:
    line = "葛存福把一包格尔木捎来的药交给石大勇"
    kept = ("老葛从车上跳下来，手里捏着一个牛皮纸包。\n“大勇，格尔木捎来的。”老葛把纸包翻过来看了看，却没递过来。\n"
            "“你先说，那天夜里你在哪？”\n老葛把纸包往棉袄兜里一揣，跳上车走了。")
    assert [s for s, _m in contract(line, kept)] == [WARN]
    put_off = "“大勇，格尔木的药我原想今天交给你。”老葛拍了拍脑门，“坏了，落在道班抽屉里了。改日。”"
    assert [s for s, _m in contract(line, put_off)] == [WARN]
    given = "老葛从车上跳下来，把一个牛皮纸包递给大勇：“格尔木捎来的，收好。”大勇接过来，揣进了棉袄兜里。"
    assert contract(line, given) == []
    asked = "老葛从车上跳下来，手里捏着一个格尔木来的牛皮纸包，说改天再来喝酒。大勇接过纸包，点了点头。"
    assert contract(line, asked) == []  # put off is something else: the parcel is taken


def test_a_contract_place_the_sentence_only_tells_of() -> None:
    line = "石大勇去纳赤台买面"
    told = "纳赤台逢五赶集，今天初五。大勇本想去纳赤台，推着车出了道班，走了半里路就被老葛喊了回去。"
    assert [s for s, m in contract(line, told) if "纳赤台" in m] == [WARN]
    opens = "纳赤台在五道梁北边，隔着一道梁。大勇一早推车出门，晌午就在集上买了两袋面。"
    assert contract(line, opens) == []  # the scene opens on the place it describes: nothing says it is not reached
    errand = "老葛塞给大勇五块钱：“去纳赤台买两袋面，要白的。”大勇还没出门，老葛又把他叫住了。"
    assert [s for s, m in contract(line, errand) if "纳赤台" in m] == [WARN]
    reached = "纳赤台逢五赶集，今天初五。大勇一早就到了纳赤台，在集上买了两袋面。"
    assert contract(line, reached) == []
