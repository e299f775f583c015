"""One person at two places at one time (issue 30, P4 at stop 56): the narration keeps someone at place A over a
stretch (那天晚上，X一直坐在车间门口…) or at the very moment, and then, at the same time (同一天晚上, 同一时间, 与此同时),
has them at a place B unrelated to A, with no going told between. Three new authors wrote it (U11, U12, U13 of stops
55–56, their own books) and the checks were silent; the reader is ``continuity._two_at_once``, its rows general Chinese
(a same-time marker, a stretch, being at a place, a going). Silent for two different people, a place inside the other or
a room of a building, a memory, dream, call, letter or plan, a going told, another day.

Every sentence here is written for this file in other genres and periods (a Song county yamen, a Mars relay ship, a
1930s Shanghai godown, a lighthouse off Zhoushan through ``lw story check``); none comes from a labelled draft.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import continuity_helpers
from lw_storyrepo.continuity import World, far_places, places_inside
from lw_storyrepo.findings import Finding

from story_cli import hand_in, lw


def _world(cards: dict[str, dict[str, Any]], aliases: dict[str, str], places: set[str], lore: str,
           gender: dict[str, str]) -> World:
    return World(cards, {**{n: n for n in cards}, **aliases}, places, set(), ("普通人",), None, places_inside(lore, places),
                 gender, far=far_places([lore], places))


YAMEN = ({n: {"姓名": n, "状态": "在世", "位置": "县衙"} for n in ("沈知县", "钱师爷")}, {"沈大人": "沈知县"},
         {"县衙", "明州", "后堂"}, "后堂在县衙。明州离县城一百多里。", {"沈知县": "他", "钱师爷": "他"})
SHIP = ({n: {"姓名": n, "状态": "在世", "位置": "中继船"} for n in ("陈舟", "伊万")}, {},
        {"中继船", "控制舱", "火星基地", "温室"}, "控制舱在中继船。温室在火星基地。", {"陈舟": "她", "伊万": "他"})
GODOWN = ({n: {"姓名": n, "状态": "在世", "位置": "码头"} for n in ("周福生", "阿香")}, {"老周": "周福生"},
          {"码头", "货栈", "南京路", "办公室"}, "货栈在码头。", {"周福生": "他", "阿香": "她"})


def _two_at_once(body: str, book: tuple[Any, ...], pov: str) -> list[Finding]:
    return [f for f in continuity_helpers.findings(body, _world(*book), pov, "1936年5月4日", list(book[0]))
            if "同一时间正文却又在" in f.message]


@pytest.mark.parametrize(("book", "pov", "body", "who", "there"), [
    (YAMEN, "钱师爷", "那天夜里，沈知县一直坐在县衙后堂批公文，直到五更也没起身。\n\n同一天夜里，沈大人在明州的酒楼上听曲。",
     "沈知县", "明州"),
    (SHIP, "伊万", "凌晨三点，陈舟在控制舱里核对燃料读数。与此同时，她在火星基地的温室里给番茄浇水。", "陈舟", "火星基地"),
    (GODOWN, "阿香", "那天下午，老周一直在码头的货栈里点货，一步也没离开。\n\n同一天下午，周福生在南京路的绸布庄里挑料子。",
     "周福生", "南京路"),
    (GODOWN, "阿香", "那天下午，老周一直在码头上点货。\n\n与此同时，周福生正在南京路的绸布庄里挑料子。", "周福生", "南京路"),
])
def test_one_person_at_two_places_at_once_fires(book: tuple[Any, ...], pov: str, body: str, who: str,
                                                there: str) -> None:
    """By name, alias or a 他/她 of the last one named; the card field 位置 and the same-time sentence as evidence."""
    found = _two_at_once(body, book, pov)
    assert len(found) == 1, found
    assert found[0].subject is not None and found[0].subject.field == "位置" and found[0].subject.who == who
    assert f"「{there}」" in found[0].message and found[0].excerpt.startswith(("同一", "与此同时", "凌晨")), found[0]


@pytest.mark.parametrize(("book", "body"), [
    # two different people
    (YAMEN, "那天夜里，沈知县一直坐在县衙后堂批公文。\n\n同一天夜里，钱师爷在明州的酒楼上听曲。"),
    # a place inside the other (世界观: 货栈在码头), a room of a building
    (GODOWN, "那天下午，老周一直在码头上点货。\n\n同一天下午，周福生在货栈里挑料子。"),
    (GODOWN, "那天下午，老周一直在码头上点货。\n\n同一天下午，周福生在办公室里打算盘。"),
    # a dream, a plan, a call, a letter
    (GODOWN, "那天下午，老周一直在码头上点货。\n\n同一天下午，周福生梦见自己在南京路挑料子。"),
    (GODOWN, "那天下午，老周一直在码头上点货。\n\n同一天下午，周福生打算在南京路挑料子。"),
    (SHIP, "凌晨三点，陈舟在控制舱里核对燃料读数。与此同时，她在电话里说伊万在火星基地。"),
    (YAMEN, "那天夜里，沈知县一直坐在县衙后堂批公文。\n\n同一天夜里，沈大人在信里说自己在明州。"),
    # a going told, another day, a stretch and then a day part only (no stretch at A)
    (GODOWN, "那天下午，老周一直在码头上点货。后来他坐黄包车去了南京路。\n\n同一天下午，周福生在南京路挑料子。"),
    (GODOWN, "那天下午，老周扔下账本，坐车去了南京路。\n\n同一时间，周福生在南京路挑料子。"),
    (YAMEN, "那天夜里，沈知县一直坐在县衙后堂批公文。\n\n第二天夜里，同一时间，沈大人在明州的酒楼上听曲。"),
    (YAMEN, "那天下午，沈知县在县衙后堂批公文。\n\n同一天夜里，沈大人在明州的酒楼上听曲。"),
    # R56B: only adverbs stand between the person and being at B — a denial, another sent, their kin, the person the
    # object of another's clause, a condition say nothing of where they are
    (GODOWN, "那天下午，老周一直在码头上点货。\n\n与此同时，周福生不在南京路，绸布庄没人看。"),
    (GODOWN, "那天下午，老周一直在码头上点货。\n\n与此同时，周福生让伙计在南京路守着铺子。"),
    (GODOWN, "那天下午，老周一直在码头上点货。\n\n与此同时，周福生派人在南京路守着铺子。"),
    (GODOWN, "那天下午，老周一直在码头上点货。\n\n与此同时，周福生家老大在南京路接人。"),
    (GODOWN, "那天下午，老周一直在码头上点货。\n\n同一时间，老周媳妇在南京路等车。"),
    (GODOWN, "那天下午，老周一直在码头上点货。\n\n与此同时，谁也没想到周福生在南京路还存着两箱料子。"),
    (GODOWN, "那天下午，老周一直在码头上点货。\n\n与此同时，周福生要是在南京路就好了。"),
])
def test_the_near_misses_stay_silent(book: tuple[Any, ...], body: str) -> None:
    pov = next(n for n in book[0] if n not in body) if any(n not in body for n in book[0]) else list(book[0])[-1]
    assert not _two_at_once(body, book, pov), body


DRAFT = """---
标题: 灯
视角: 阿海
书内时间: 1962年8月9日
一句话事件: 台风夜守灯
在场:
  - 阿海
  - 郑德福
---

那天夜里，郑德福一直守在灯塔顶上擦灯罩，一步也没有离开。
同一天夜里，郑德福在定海的小饭馆里喝酒，喝到半夜。
阿海在灯塔下面听了一夜的风。
"""


def test_through_lw_story_check(tmp_path: Path) -> None:
    """A book set up as an author does, the draft handed in and checked: the finding reaches the author."""
    root = tmp_path / "灯"
    lw(root, "init", str(root), "--书名", "灯", "--类型", "年代", "--每章目标字数", "200")
    lw(root, "character", "set", "阿海", "位置", "灯塔")
    lw(root, "character", "set", "郑德福", "位置", "灯塔")
    lw(root, "character", "set", "林秀", "位置", "定海")
    lw(root)  # brief
    lw(root, "card", "edit", "--合同", "台风夜守灯")
    lw(root, "decide")
    lw(root)  # pack
    hand_in(root, DRAFT)
    found = json.loads(lw(root, "check", "--json"))["A"]
    ours = [f for f in found if "同一时间正文却又在「定海」" in f["message"]]
    assert len(ours) == 1 and ours[0]["line"] >= 1 and "郑德福" in ours[0]["message"], found
