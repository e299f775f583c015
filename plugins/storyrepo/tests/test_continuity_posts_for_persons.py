"""A post or rank standing for a person (issue 30, rk3's round at stop 62).

Three readings, each a shape rather than the words of one book:

- A far person named by a bare post the cards give him alone (书记, 指导员: an alias with no surname) who holds a thing in
  the scene (``POST + V着 + …的N``) and then acts (坐在…, 点点头): he is here, though his card puts him a journey away
  (:data:`lw_storyrepo.continuity.HOLDING_CLAUSE` lets the later clauses be his). Another holder of the post is not he:
  a deputy, an acting one, a predecessor or a successor (副/代/前/原/新 + the post; 老 + the post is the holder himself) or another unit's
  (二连的指导员: :func:`lw_storyrepo.continuity._another_holder`).
- A rank followed by the time it was held (还是R的时候, 当R那会儿, 做R那阵子, 当R时，…) is no statement of the rank now,
  whatever time word stands before it (:data:`lw_storyrepo.ranks.HELD_WHEN`).
- ``“NAME，R…”`` — a vocative and then another's rank as the subject of the next clause — is no roster entry
  (``NAME，R，…``): a roster's rank closes its entry (:data:`lw_storyrepo.ranks.ENTRY_END`).
- A rank glued before a name in a roster written out (…，R NAME；…，R NAME，…, entries divided by ； or 、), quoted as it is
  copied or read out, states the rank (:func:`lw_storyrepo.ranks.roster_entry`); a rank before a name alone in a quote
  may still be a courtesy.

Every sentence here is written for this file; none comes from a labelled draft.
"""

from __future__ import annotations

from typing import Any

import pytest

from lw_storyrepo.continuity import World
from lw_storyrepo.findings import Finding

import continuity_helpers

TODAY = "1962年10月8日"


def _camp(body: str) -> list[Finding]:
    """The findings about 刘德海 of ``body`` told by 王铁生 at the lumber camp, where 刘德海 — the camp's 书记, far off in
    哈尔滨 — is called by his post alone."""
    cards: dict[str, dict[str, Any]] = {
        "王铁生": {"姓名": "王铁生", "状态": "在世", "位置": "青松林场"},
        "孙桂芝": {"姓名": "孙桂芝", "状态": "在世", "位置": "青松林场"},
        "刘德海": {"姓名": "刘德海", "状态": "在世", "位置": "哈尔滨"},
    }
    aliases = {**{n: n for n in cards}, "书记": "刘德海", "刘书记": "刘德海", "桂芝": "孙桂芝", "铁生": "王铁生"}
    world = World(cards, aliases, {"青松林场", "哈尔滨"}, far=frozenset({"哈尔滨"}),
                  gender={"王铁生": "他", "孙桂芝": "她", "刘德海": "他"})
    out = continuity_helpers.findings(body, world, "王铁生", TODAY, ["王铁生", "孙桂芝"])
    return [f for f in out if f.message.startswith("刘德海")]


# --- the far one named by his post alone, holding a thing and acting here (位置) ---

@pytest.mark.parametrize("body", [
    "书记攥着那顶磨秃了边的狗皮帽子，坐在火炉边上，见铁生进来，冲他点点头。",
    # sibling verbs no book wrote
    "书记叼着一根没点着的卷烟，蹲在门口，看着铁生劈柴。",
    "书记披着一件洗白了的旧棉袄，站在窗户底下，半天没出声。",
    "门一开，书记坐在火炉边上，冲铁生点点头。",  # the guards' own sentence with the bare post
])
def test_a_far_one_named_by_his_post_holding_a_thing_and_acting_here_fires(body: str) -> None:
    found = _camp(body)
    assert len(found) == 1, found
    assert "「哈尔滨」" in found[0].message


@pytest.mark.parametrize("body", [
    "门一开，副书记坐在火炉边上，冲铁生点点头。",  # a deputy
    "门一开，新书记坐在火炉边上，冲铁生点点头。",  # a successor
    "门一开，代书记坐在火炉边上，冲铁生点点头。",  # an acting one
    "门一开，二队的书记坐在火炉边上，冲铁生点点头。",  # another unit's
    "门一开，隔壁林场书记蹲在门口，看着铁生劈柴。",
    "桂芝说：“去年冬天书记攥着那顶帽子，坐在火炉边上，冲我点点头。”",  # told in speech
    "书记攥着的那顶狗皮帽子，挂在火炉边上。",  # the thing he holds is the subject, not he
])
def test_another_holder_of_the_post_or_no_act_of_his_stays_silent(body: str) -> None:
    assert _camp(body) == []


# --- a rank said with the time it was held; a vocative before another's rank (境界) ---

def _company(body: str, who: str = "高满囤") -> list[Finding]:
    """The 境界 findings about ``who`` of ``body`` told by 刘二牛 in a company whose ladder is 新兵 < 驾驶员 < 副班长 <
    班长 < 排长; 高满囤 is a 副班长, 马大全 a 班长."""
    cards: dict[str, dict[str, Any]] = {
        "刘二牛": {"姓名": "刘二牛", "状态": "在世", "位置": "兵站", "境界": "新兵"},
        "高满囤": {"姓名": "高满囤", "状态": "在世", "位置": "兵站", "境界": "副班长"},
        "马大全": {"姓名": "马大全", "状态": "在世", "位置": "兵站", "境界": "班长"},
    }
    aliases = {**{n: n for n in cards}, "高副班长": "高满囤", "满囤": "高满囤", "马班长": "马大全", "大全": "马大全", "二牛": "刘二牛"}
    world = World(cards, aliases, {"兵站"}, set(), ("新兵", "驾驶员", "副班长", "班长", "排长"),
                  gender={n: "他" for n in cards})
    out = continuity_helpers.findings(body, world, "刘二牛", TODAY, list(cards))
    return [f for f in out if f.message.startswith(who) and "境界" in f.message]


@pytest.mark.parametrize("body", [
    "高副班长忽然说：“我入冬以前还是驾驶员的时候，跟你们马班长跑过一趟拉萨。”",
    "高副班长忽然说：“我还当驾驶员那会儿，一个人开一台车。”",  # sibling words no book wrote
    "高副班长忽然说：“我做驾驶员那阵子，夜里从不熄火。”",
    "高副班长忽然说：“我当驾驶员时，连长就骂过我。”",
])
def test_a_rank_said_with_the_time_it_was_held_is_silent(body: str) -> None:
    assert _company(body) == []


@pytest.mark.parametrize("body", [
    "二牛掀开门帘：“高副班长，班长叫你去车场听听九号车。”",
    "二牛掀开门帘：“高副班长，排长要查铺了。”",  # sibling rank no book wrote
])
def test_a_vocative_then_another_ones_rank_is_silent(body: str) -> None:
    assert _company(body) == []


@pytest.mark.parametrize("body", [
    "高副班长忽然说：“我现在还是驾驶员，车号都没换。”",
    "花名册上写着：高满囤，驾驶员，九号车。",
])
def test_the_rank_now_still_fires(body: str) -> None:
    assert len(_company(body)) == 1


@pytest.mark.parametrize(("who", "body"), [
    ("高满囤", "二牛照着连部的单子念：“九号车，驾驶员二牛；十号车，班长满囤，管油料。”"),
    ("马大全", "二牛照着连部的单子念：“九号车，排长大全；十号车，副班长满囤。”"),  # sibling ranks no book wrote
])
def test_a_rank_before_a_name_in_a_roster_written_out_states_it(who: str, body: str) -> None:
    assert len(_company(body, who)) == 1


@pytest.mark.parametrize(("who", "body"), [
    ("马大全", "二牛在门口喊：“排长大全，连长叫你！”"),  # a courtesy in an address, no roster
    ("高满囤", "二牛照着连部的单子念：“九号车，副班长满囤；十号车，班长大全。”"),  # the roster right
])
def test_a_rank_before_a_name_as_an_address_or_right_stays_silent(who: str, body: str) -> None:
    assert _company(body, who) == []


# --- the outside reader's findings on this round (r62) ---

@pytest.mark.parametrize("body", [
    "花名册上写着：高满囤，驾驶员（九号车）。",
    "点名册上：高满囤，驾驶员（九号车）；马大全，班长（八号车）。",
    "花名册上写着：高满囤，驾驶员兼炊事员。",
])
def test_a_roster_entry_closed_by_a_note_or_a_second_post_still_fires(body: str) -> None:
    """r62-1: a roster's rank closed by a bracket or 兼 is still its entry (the vocative guard asks for a quote's opening)."""
    assert len(_company(body)) == 1


def test_ones_own_numbered_unit_is_no_other_unit() -> None:
    """r62-2: 咱们一队书记 is our own unit's holder of the post — the card's person may be he."""
    assert len(_camp("门一开，咱们一队书记坐在火炉边上，冲铁生点点头。")) == 1


@pytest.mark.parametrize("body", [
    "书记捧着搪瓷缸的样子，跟着就浮了上来，坐在火炉边上，一口一口吹着热气。",
    "书记叼着烟袋的模样，一下子又浮上来，坐在炕沿上，眯着眼冲铁生笑。",
])
def test_a_held_clause_closed_on_a_look_is_a_picture_not_the_person(body: str) -> None:
    """r62-3: X V着 O 的样子/模样 puts X inside a subject of memory; its later clauses are not his acts."""
    assert _camp(body) == []


def test_a_list_of_ranks_and_names_called_together_is_no_roster() -> None:
    """r62 (second look): a call to two by rank and name (…，连长叫你们俩…) is vocatives, not a roster's entries."""
    found = _company("二牛掀开门帘喊：“班长满囤、排长大全，连长叫你们俩过去一趟。”")
    assert not any("更高的「班长」" in f.message and "正文写成" in f.message for f in found), found
