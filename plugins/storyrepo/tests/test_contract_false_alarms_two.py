"""The contract check's false alarms, second round (issue 30, K1 at stop 53): a place met by a spot in it.

A contract line may name a place with a spot in it right after its name (厂署秤房, 码头 of a harbour town, the north
end of a post); the draft set at that spot names the spot and never the place again — the way people talk once
they are there. The spot is read from the line itself (two characters after the place's name that end in a word of
:data:`lw_storyrepo.checks.SPOT_ENDS`: a room, a gate, a side, a yard …), never from a list of one book's words;
the prose must name it as one it knows (not 一座… brought in new) and not as another known place's (城南码头).

Settings are not the labelled sets': a boarding school, a lighthouse, a film studio, a temple fair.
"""

from __future__ import annotations

import pytest

from lw_storyrepo.checks import ERROR, WARN, CheckContext, contract_findings, dwellers_of
from lw_storyrepo.continuity import World
from lw_storyrepo.drafts import Draft

CARDS: dict[str, dict[str, object]] = {"宋知远": {"位置": "省城"}, "白露": {"位置": "省城"}, "老葛": {"位置": "省城"}}
ALIASES = {"宋知远": "宋知远", "白露": "白露", "老葛": "老葛"}
PLACES = {"育英中学", "灯塔岛", "东风电影厂", "城南", "省城", "城隍庙"}


def _contract(line: str, body: str, places: set[str] = PLACES) -> list[tuple[str, str]]:
    aliases = {**ALIASES, **{p: p for p in places}}
    world = World(CARDS, dict(aliases), places, set(), ("普通人",), None, {}, {})
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), set(), world=world, people=set(CARDS),
                       dwellers=dwellers_of(CARDS)).for_draft({})
    return [(f.severity, f.message) for f in contract_findings({"合同": [line]}, Draft("A", {}, body, 5), ctx)
            if f.severity in (ERROR, WARN)]


@pytest.mark.parametrize("line, body", [
    # a boarding school of the 1950s: the line names its yard, the prose is in the yard
    ("宋知远在育英中学操场上教白露骑车", "操场上没有人。宋知远扶着车后座，白露一蹬，车子歪歪扭扭冲了出去。"),
    # a lighthouse: the line names its landing, the keeper talks of it
    ("老葛说灯塔岛码头那夜停过一条没挂灯的船",
     "老葛往炉子里添了块煤：“那夜我下去看过，码头上停着一条船，一盏灯都没点。”宋知远没接话。"),
    # a film studio: the line names a room of it, the scene is in that room
    ("白露去东风电影厂剪辑室找宋知远要片子", "剪辑室里一股醋酸味。白露敲了敲门框：“宋老师，那盘片子剪好了没有？”"),
])
def test_a_place_met_by_the_spot_the_line_names_in_it_is_there(line: str, body: str) -> None:
    assert _contract(line, body) == []


@pytest.mark.parametrize("line, body", [
    # the spot is brought in as a new one: any playground, not the school's
    ("宋知远在育英中学操场上教白露骑车", "宋知远路过一个操场，停下来看了一会儿孩子们踢球。"),
    # the spot is another known place's: 城南码头 is not the island's landing
    ("老葛说灯塔岛码头那夜停过一条没挂灯的船", "老葛说：“那夜城南码头上停着一条船。”宋知远没接话。"),
])
def test_a_spot_brought_in_new_or_of_another_place_does_not_bring_the_place(line: str, body: str) -> None:
    assert [s for s, _ in _contract(line, body)] in ([ERROR], [WARN])


def test_words_after_a_place_that_name_no_spot_in_it_do_not_bring_it() -> None:
    """卖酒, 看戏 after the place's name are acts, not spots: the place must still be named."""
    assert [s for s, _ in _contract("白露到城隍庙看戏", "白露挤在人堆里看了半出戏，天黑了才回家。")] == [ERROR]


def test_a_spot_only_set_out_for_is_no_arrival() -> None:
    """The spot stands for the place only where the scene is: named only on the way there or as a plan, it is not."""
    for body in ("白露出门要去剪辑室，走到半路下起了雨，又折了回去。", "宋知远说：“明天你就去剪辑室拿片子。”白露点点头，回了宿舍。"):
        found = _contract("白露在东风电影厂剪辑室等宋知远", body)
        assert [s for s, m in found if "「东风电影厂」" in m] == [ERROR], found


MOON = {"广寒基地", "月海营地", "地球"}
"""A lunar outpost and its camp (R53's counter-examples, stop 53): the spot read after the place's name must be the
place's own, not another's nor anybody's."""


@pytest.mark.parametrize("line, body", [
    # the spot is another known place's, joined to it by 的: the camp's workshop is not the base's
    ("柯望舒去广寒基地机修库等秦岚", "柯望舒在月海营地的机修库里等了一夜，秦岚没有来。"),
    # 门口 is any door's: two characters that each name a spot of any place belong to none
    ("柯望舒回到广寒基地门口等补给车", "柯望舒在月球车里坐了一夜。天亮时秦岚敲了敲门口的舷窗：“走吧。”"),
    # 的 after the place's name joins it to what follows: 的大门 is no spot of the base
    ("柯望舒到广寒基地的大门交接", "柯望舒推开气闸的大门，走进了月海营地。"),
])
def test_a_spot_of_another_place_or_of_any_place_does_not_bring_the_place(line: str, body: str) -> None:
    found = _contract(line, body, MOON)
    assert [s for s, m in found if "「广寒基地」" in m] in ([ERROR], [WARN]), found


@pytest.mark.parametrize("line, body", [
    # the spot named in a clause that names another known place before it: the camp's
    ("柯望舒去广寒基地机修库等秦岚", "柯望舒在月海营地机修库里等了一夜，秦岚没有来。"),
    # a spot not in Chinese characters is no word of the place
    ("柯望舒去广寒基地B2库等秦岚", "柯望舒在B2库里等了一夜，秦岚没有来。"),
    # a spot that is itself a place the book knows is that place, not a part of this one
    ("柯望舒去广寒基地月海营地等秦岚", "秦岚没有来。柯望舒在地球上等了一夜。"),
    # the spot brought in as a new one (一口井): any well, not the base's
    ("柯望舒去广寒基地水井打水", "柯望舒在环形山下找到一口水井，打了一桶水。"),
])
def test_each_guard_on_the_spot_keeps_the_place_asked(line: str, body: str) -> None:
    found = _contract(line, body, MOON)
    assert [s for s, m in found if "「广寒基地」" in m] in ([ERROR], [WARN]), found


def test_a_spot_of_the_place_itself_still_brings_it() -> None:
    """The mends above leave the place's own spot, named as the scene's, standing for it."""
    assert _contract("柯望舒去广寒基地机修库等秦岚", "机修库里冷得像冰窖。柯望舒等了一夜，秦岚没有来。", MOON) == []


def test_a_spot_only_sent_to_or_seen_from_afar_is_no_arrival() -> None:
    """Whether the scene reaches the spot is read once, as :func:`~lw_storyrepo.checks._only_meant` reads a place's
    name (an errand, a sight from afar): 远远看得见机修库 is not being in it."""
    found = _contract("柯望舒去广寒基地机修库等秦岚", "柯望舒远远地已经看得见机修库了，车却陷在了沙里。", MOON)
    assert [s for s, m in found if "「广寒基地」" in m] in ([ERROR], [WARN]), found


def test_a_spot_that_is_a_place_the_world_knows_is_that_place_not_a_part_of_this_one() -> None:
    """北坡 after the base's name, a place the world knows (and no name of the book's aliases: those are read as the
    base's district first), is that place, not the base's slope."""
    places = MOON | {"北坡"}
    aliases = {**ALIASES, **{p: p for p in MOON}}
    world = World(CARDS, dict(aliases), places, set(), ("普通人",), None, {}, {})
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), set(), world=world, people=set(CARDS),
                       dwellers=dwellers_of(CARDS)).for_draft({})
    draft = Draft("A", {}, "秦岚没有来。柯望舒在北坡底下等了一夜。", 5)
    found = [(f.severity, f.message) for f in contract_findings({"合同": ["柯望舒去广寒基地北坡等秦岚"]}, draft, ctx)]
    assert [s for s, m in found if "「广寒基地」" in m] in ([ERROR], [WARN]), found
