"""Where a person can be, as facts (issue 30, P2 at stop 52): someone the draft itself sends away — at a place the
world says is a journey away (陈掌柜正在马尼拉的码头上接船), gone to one (黄九这几天回泉州老家上坟去了), or away on a journey
of days with no place named (老周出差去了, 卢百户押送军饷往大同去了) — is not in the scene later in the same draft, acting,
calling to the point of view or speaking beside a quote, unless it tells them coming back
(:data:`lw_storyrepo.continuity.CAME_BACK`). One table of going (``GONE_TO``, ``AWAY_FOR``, ``STILL_THERE``) and of
presence (``ACTS``, ``TO_SOMEONE``, ``SAYS``), read by the 位置 reader of the card's own place (``_present_far``).

Written here in other genres and periods than the labelled drafts — a 1950s county grain station and a Ming frontier
fort — sentences that must fire and near-misses that must not: a letter or a dispatch from the one away, the one away
spoken of, remembered or quoted, the one away coming back with an arrival verb, a going still to come, a time there,
the point of view taken along, a place near.
"""

from __future__ import annotations

from typing import Any

import pytest

from lw_storyrepo.checks import CheckContext, voices
from lw_storyrepo.continuity import World, check_continuity, far_places, places_inside

CARDS: dict[str, dict[str, Any]] = {
    "苏明远": {"姓名": "苏明远", "状态": "在世", "位置": "粮站"},
    "葛长顺": {"姓名": "葛长顺", "状态": "在世", "位置": "粮站"},
    "田桂芬": {"姓名": "田桂芬", "状态": "在世", "位置": "粮站"},
    "欧阳铁": {"姓名": "欧阳铁", "状态": "在世", "位置": "粮站"},
}
ALIASES = {**{name: name for name in CARDS}, "老葛": "葛长顺", "桂芬": "田桂芬", "铁子": "欧阳铁"}
PLACES = {"粮站", "省城", "库房", "镇上"}
LORE = "粮站在清水镇的东头。省城离清水镇三百多里，坐汽车要走一天。库房在粮站后院。"
GENDER = {"苏明远": "他", "葛长顺": "他", "田桂芬": "她", "欧阳铁": "他"}


FORT_CARDS: dict[str, dict[str, Any]] = {
    "沈千户": {"姓名": "沈千户", "状态": "在世", "位置": "镇虏堡"},
    "卢百户": {"姓名": "卢百户", "状态": "在世", "位置": "镇虏堡"},
    "韩夜不收": {"姓名": "韩夜不收", "状态": "在世", "位置": "镇虏堡"},
}
FORT_ALIASES = {**{name: name for name in FORT_CARDS}, "老卢": "卢百户", "韩老三": "韩夜不收"}
FORT_PLACES = {"镇虏堡", "大同", "宣府", "烽火台"}
FORT_LORE = "镇虏堡在长城脚下。大同离镇虏堡二百多里，快马也要走两天；宣府更远。烽火台在堡北的山梁上。"
FORT_GENDER = {"沈千户": "他", "卢百户": "他", "韩夜不收": "他"}


def findings(body: str, fort: bool = False) -> list[str]:
    cards, aliases, places, lore, gender, pov = (FORT_CARDS, FORT_ALIASES, FORT_PLACES, FORT_LORE, FORT_GENDER, "沈千户") \
        if fort else (CARDS, ALIASES, PLACES, LORE, GENDER, "苏明远")
    meta = {"视角": pov, "书内时间": "1956年10月3日", "在场": list(cards)}
    world = World(cards, dict(aliases), places, set(), ("普通人",), None, places_inside(lore, places), gender,
                  far=far_places([lore], places))
    ctx = CheckContext(dict(aliases), [], [], [], 0, set(aliases), set(), world=world, people=set(cards)).for_draft(meta)
    world.aliases, world.indirect = ctx.aliases, ctx.kin_words
    lines = body.split("\n")
    return [f.message for f in check_continuity(world, meta, lines, 1, voices(ctx, lines), ctx.names_re())
            if "本章前文写" in f.message]


@pytest.mark.parametrize("body", [
    "老葛昨天就去了省城，粮站里只剩苏明远一个人过秤。\n\n晌午，老葛蹲在库房门口抽着烟，看苏明远记账。",
    "田桂芬这几天回省城娘家去了。\n\n苏明远把账本合上。桂芬端着一碗面条走过来，放在他手边。",
    "欧阳铁出差去了，说是下个月才回。\n\n苏明远一抬头，铁子站在磅秤旁边，冲他招了招手。",
    "葛长顺正在省城的粮食局里开会。\n\n苏明远转过身，老葛拍了拍他的肩膀。",
    # one gone calling to the point of view (TO_SOMEONE)
    "铁子押送一车公粮进山去了。\n\n苏明远正在过秤，铁子在门口喊他。",
    "老葛前天就去了省城，说是开三天会。\n\n天擦黑，老葛在院子里喊苏明远吃饭。",
    # one gone speaking beside a quote (SAYS)
    "田桂芬回省城娘家去了。\n\n“账对上了没有？”桂芬问。",
    "欧阳铁出差去了。\n\n苏明远还没开口，铁子说：“这一车麦子潮了。”",
])
def test_one_the_draft_sends_away_is_not_in_the_scene(body: str) -> None:
    assert findings(body), body


@pytest.mark.parametrize("body", [
    # a letter from the one away
    "老葛昨天就去了省城。\n\n苏明远拆开老葛的信，信上说他在省城住下了，叫苏明远看好库房。",
    # spoken of, remembered
    "田桂芬这几天回省城娘家去了。\n\n苏明远想起去年桂芬站在磅秤旁边记数的样子。",
    # coming back with an arrival verb
    "欧阳铁出差去了。\n\n傍晚，铁子推门进来，一身的土，把提包往桌上一扔。",
    "葛长顺昨天就去了省城。\n\n下午老葛从省城赶回来了，在库房门口点了点头。",
    # a going still to come
    "老葛明天要去省城开会。\n\n老葛蹲在库房门口抽着烟。",
    # someone else calls; the one gone spoken of
    "老葛去了省城。\n\n桂芬在院子里喊苏明远吃饭。",
    "老葛昨天就去了省城。\n\n苏明远跟桂芬说起老葛，说他在省城准是又喝上了。",
    # what the one gone said before, and a quote of theirs remembered
    "田桂芬回省城娘家去了。\n\n苏明远记得桂芬说过：“账要当天对。”",
    "欧阳铁出差去了。\n\n“铁子说过，这一车麦子潮了。”苏明远说。",
    # a time there, not where one is now
    "老葛在省城的时候学过打算盘。\n\n老葛蹲在库房门口抽着烟。",
    # the point of view taken along
    "老葛和苏明远去了省城。\n\n晌午，老葛蹲在粮食局门口抽着烟。",
    # the place not far
    "老葛去了镇上。\n\n晌午，老葛蹲在库房门口抽着烟。",
])
def test_near_misses_stay_silent(body: str) -> None:
    assert not findings(body), body


@pytest.mark.parametrize("body", [
    "卢百户押送一队军饷往大同去了，沈千户独自守着堡门。\n\n入夜，老卢提着灯笼走过来，冲沈千户点了点头。",
    "韩老三昨天就去了宣府。\n\n“北边的烟又起了。”韩老三说。",
    "老卢这几天还在大同交割粮草。\n\n沈千户刚上城楼，老卢在垛口边拉住他。",
])
def test_a_frontier_fort_sends_them_away_too(body: str) -> None:
    assert findings(body, fort=True), body


@pytest.mark.parametrize("body", [
    "韩老三昨天就去了宣府。\n\n沈千户接过塘报，上面是韩老三的笔迹：宣府无事。",
    "卢百户押送军饷往大同去了。\n\n黄昏，老卢骑马回来，在堡门下了马，冲沈千户点了点头。",
    "韩老三上了烽火台。\n\n韩老三冲沈千户招了招手。",
])
def test_a_frontier_fort_near_misses(body: str) -> None:
    assert not findings(body, fort=True), body
