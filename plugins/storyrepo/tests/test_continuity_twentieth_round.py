"""The forms the twentieth round read (issue 30, task C19), tuned on 连续性-盲评二十 (a Southern Song academy),
连续性-盲评二十一 (a county supply co-op) and a new user's lighthouse book, written here at a mountain weather
station — other words than theirs: the right sentence next to each wrong one.

- a remembered day of the dead (最后那天, 临出门前, a paragraph opening on 那天夜里) or a habit of their
  lifetime counted (骂过好几回): their words and doings there are not the scene's;
- a thing its holder hands over or brings out (把风速计递给她, 从怀里掏出记录本) is anyone's in the scene after;
- a memory word inside someone's quoted words (明天记得去换) is no memory: the dead walking in and
  speaking around it are still found.
"""

from __future__ import annotations

from typing import Any

from lw_storyrepo.continuity import World, places_inside
from lw_storyrepo.forbidden import forbidden_of

import continuity_helpers

CARDS: dict[str, dict[str, Any]] = {
    "林溪": {"姓名": "林溪", "状态": "在世", "位置": "鹰嘴岭气象站", "持有": ["风速计"]},
    "许青": {"姓名": "许青", "状态": "在世", "位置": "鹰嘴岭气象站", "持有": ["记录本"]},
    "樊守林": {"姓名": "樊守林", "状态": "已故", "位置": "后山"},
}
ALIASES = {**{name: name for name in CARDS}, "老樊": "樊守林", "樊师傅": "樊守林", "小许": "许青"}
PLACES = {"鹰嘴岭气象站", "后山", "观测场"}
ITEMS = {"风速计", "记录本"}


def continuity(body: str) -> list[str]:
    names = dict(ALIASES)
    world = World(CARDS, names, PLACES, set(ITEMS), ("普通人",), None, places_inside("", PLACES),
                  {"林溪": "她", "许青": "她", "樊守林": "他"},
                  bars=forbidden_of(CARDS, {}, "", names, PLACES))
    return [f.message for f in continuity_helpers.findings(body, world, "林溪", "十一月三日", ["林溪", "许青"])]


def about(field: str, found: list[str]) -> list[str]:
    return [m for m in found if field in m]


def test_the_dead_speak_on_a_remembered_last_day() -> None:
    assert about("状态", continuity("林溪坐在值班室里。樊师傅拍了拍她的肩，说：“丫头，风向标歪了就去扶正。”"))
    assert not about("状态", continuity(
        "林溪坐在值班室里，又想起樊师傅最后那天的样子。樊师傅拍了拍她的肩，说：“丫头，风向标歪了就去扶正。”"))
    assert not about("状态", continuity(
        "林溪坐在值班室里，一夜没睡。\n\n那天夜里，樊师傅临出门前拍了拍她的肩，说：“丫头，风向标歪了就去扶正。”"))


def test_the_dead_in_a_habit_of_their_lifetime() -> None:
    assert about("状态", continuity("许青的字总往右斜。樊师傅笑了，说这毛病改不掉。"))
    assert not about("状态", continuity("许青的字总往右斜，樊师傅为这个骂过好几回。后来樊师傅也笑了，说这毛病改不掉。"))


def test_a_thing_its_holder_hands_over_is_the_scenes() -> None:
    assert about("持有", continuity("许青举起风速计，对着山口看了半天。"))
    assert not about("持有", continuity("林溪把风速计递给许青。许青举起风速计，对着山口看了半天。"))
    assert not about("持有", continuity("许青从怀里掏出记录本，“今天的数你来填。”\n\n林溪翻开记录本，一行一行往下抄。"))
    # brought out by someone who does not hold it, it is still not theirs to hand on
    assert about("持有", continuity("林溪从柜子里掏出记录本，翻开记录本，一行一行往下抄。"))


def test_a_memory_word_in_quoted_words_is_no_memory() -> None:
    found = continuity("门响了一声。老樊提着水壶走上来，把壶往桌上一放，说：“丫头，明天记得去换温度计。”")
    assert about("状态", found)
