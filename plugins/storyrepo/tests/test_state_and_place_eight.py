"""A witness who says they met an away person at a place, with no time said (issue 30, S2 at stop 59).

A card puts someone a journey away (位置: a far city, back months later); someone in the scene reports having just met
them near here — 我在食堂门口碰见铁生了 — and no journey back is told. The witness reading
(:func:`lw_storyrepo.continuity._present_far`) caught a sighting only with a time of today before it
(今儿一早在大栅栏口上瞧见…了: 连续性-盲评十四, 十五, 十六, 十七); 连续性-盲评四十四 wrote the same report with no time at all, the
perfective 了 after the one seen saying it is lately. The reading now takes a sighting at a place, done
(:data:`lw_storyrepo.continuity.SIGHTED_AT`), silent for a meeting of any time (碰见过), a time gone in the sentence
(:data:`lw_storyrepo.continuity.SIGHTED_LONG_AGO`), a place no body stands in (梦里, 电视上:
:data:`lw_storyrepo.continuity.SIGHTED_NOWHERE`), the far place itself, and someone near.

Every sentence here is written for this file (a 1960s forest farm in the northeast); none comes from a labelled draft.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from story_cli import checked_chapter

WORLD = ("一九六三年冬，小兴安岭。青松岭林场在山沟里，食堂、小卖部、工段、贮木场都在场部。"
         "哈尔滨离青松岭六百多里，要坐一天一夜的火车。\n")
CARDS = {
    "赵铁柱": ("赵铁柱", ["铁柱"], "青松岭", "十九岁，林场的伐木工。", "赵铁生是他哥。"),
    "赵铁生": ("赵铁生", ["铁生", "哥"], "哈尔滨", "二十四岁，赵铁柱的哥。在哈尔滨学开拖拉机，开春才回林场。",
             "赵铁柱叫他“哥”。"),
    "孙巧云": ("孙巧云", ["巧云"], "青松岭", "二十岁，食堂的炊事员。", "赵铁柱叫她“巧云”。"),
}


def _checked(tmp_path: Path, body: str) -> list[dict[str, object]]:
    """The findings about 赵铁生 being here in ``lw story check`` of ``body``, told by 赵铁柱 at the farm."""
    found = checked_chapter(tmp_path / "林场", WORLD, CARDS, "赵铁柱到食堂打饭",
                            "标题: 饭\n视角: 赵铁柱\n书内时间: 一九六三年十二月五日\n一句话事件: 赵铁柱到食堂打饭\n在场:\n"
                            "  - 赵铁柱\n  - 孙巧云", body)
    return [f for f in found if "赵铁生" in str(f["message"]) and "「哈尔滨」" in str(f["message"])]


@pytest.mark.parametrize("body", [
    "铁柱端着饭盒进了食堂。巧云从窗口探出头来：“铁柱，我在小卖部门口碰见铁生了，背着个帆布包，说先去工段转一圈。”",
    "铁柱刚坐下，巧云就凑过来：“跟你说，我在贮木场那边遇见你哥了！穿着一身新棉袄。”",
])
def test_a_sighting_at_a_place_with_no_time_fires(tmp_path: Path, body: str) -> None:
    """The card's far place named; the witness's sentence as the evidence."""
    found = _checked(tmp_path, body)
    assert len(found) == 1, found
    assert "见到了赵铁生" in str(found[0]["message"]) and "在" in str(found[0]["excerpt"]), found


@pytest.mark.parametrize("body", [
    # a meeting of any time, a time gone, the far place itself
    "巧云从窗口探出头来：“铁柱，我在小卖部门口碰见过铁生，那还是他走以前。”",
    "巧云从窗口探出头来：“去年我在小卖部门口碰见铁生了，他说想去学开拖拉机。”",
    "巧云从窗口探出头来：“上回我在小卖部门口碰见铁生了，他说想去学开拖拉机。”",
    "巧云从窗口探出头来：“我舅上个月在哈尔滨火车站碰见铁生了，说他胖了。”",
    # a dream, a screen
    "巧云从窗口探出头来：“我夜里在梦里看见铁生了，开着拖拉机。”",
    "巧云从窗口探出头来：“我在报纸上看见铁生了，照片上戴着大红花。”",
    # someone near
    "铁柱从窗口探出头来：“巧云，我在小卖部门口碰见队长了，他叫你去一趟。”",
])
def test_the_near_misses_stay_silent(tmp_path: Path, body: str) -> None:
    assert _checked(tmp_path, body) == []


# Carrying a load is a body's act (:data:`lw_storyrepo.continuity.CARRYING`): the dead do none of it in the scene.
DEAD_CARDS = {
    "赵铁柱": CARDS["赵铁柱"],
    "孙巧云": CARDS["孙巧云"],
    "马老蔫": ("马老蔫", ["老蔫", "马师傅"], "青松岭", "林场的老伐木工，前年冬天在山上叫倒木砸死了。", "赵铁柱叫他“马师傅”。"),
}


def _dead_acting(tmp_path: Path, body: str) -> list[dict[str, object]]:
    """The findings of 马老蔫 (已死) acting in ``lw story check`` of ``body``, told by 赵铁柱 at the farm."""
    found = checked_chapter(tmp_path / "林场", WORLD, DEAD_CARDS, "赵铁柱上山",
                            "标题: 山\n视角: 赵铁柱\n书内时间: 一九六三年十二月五日\n一句话事件: 赵铁柱上山\n在场:\n"
                            "  - 赵铁柱\n  - 孙巧云", body, dead="马老蔫")
    return [f for f in found if "马老蔫" in str(f["message"]) and "已死" in str(f["message"])]


@pytest.mark.parametrize("body", [
    "天刚亮，工段门口就有了人声。马老蔫扛着一捆油锯链子从坡底下一步一步爬上来。",
    "铁柱正劈柴，老蔫挑着两桶热水过了桥，倒进锅里又回去了。",
    "巧云在窗口打饭，马师傅背着一卷麻绳排在队尾，跟前头的人唠嗑。",
])
def test_the_dead_carrying_a_load_fires(tmp_path: Path, body: str) -> None:
    found = _dead_acting(tmp_path, body)
    assert len(found) == 1, found


@pytest.mark.parametrize("body", [
    # a memory, someone else carrying, the dead carried by another, behind someone's back
    "铁柱想起前年冬天，马老蔫扛着一捆油锯链子从坡底下爬上来的样子。",
    "天刚亮，巧云扛着一捆油锯链子从坡底下一步一步爬上来，说马老蔫的坟该添土了。",
    "铁柱背着马老蔫那把旧油锯上了山。",
    "巧云背着人把一碗饺子供在马老蔫的坟前。",
])
def test_the_near_misses_of_carrying_stay_silent(tmp_path: Path, body: str) -> None:
    assert _dead_acting(tmp_path, body) == []
