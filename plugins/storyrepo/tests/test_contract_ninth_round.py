"""The contract check's ninth round (issue 30, C2 at stop 59): a place and an event that never happen.

- a place the world lists as one place with others (A、B和C算一处地方) is not there because the prose names another of
  the list: the list lets people walk among its places, it does not put the scene at the one the line asks
  (:attr:`lw_storyrepo.continuity.World.one_place`, :func:`lw_storyrepo.checks._district_of`); a place nested in the
  line's (县城里的供销社) and the list's own name (…算一处地方，叫三号工区) still are;
- 上 a place (上鹰嘴岩) is a move the only-meant reading reads (:data:`lw_storyrepo.checks.GO_UP`); a plan of it whose act
  the prose then does in another sentence (说要上…, …把旗插进石缝) reached it (:func:`lw_storyrepo.checks._act_done_apart`);
- an event line's own act (a verb of the dictionary in it) the prose gives up where its people or things are (不舂了,
  明天再试, 库房不开。) is the event not happening (:func:`lw_storyrepo.checks._line_act_given_up`): a warning; given up and
  then done after all, or done before in its paragraph, is none, and so is a line that itself forbids the act (莫再…);
- speech in an event line is read outside its names (高道生 is no 道: :func:`lw_storyrepo.checks._is_event`); C2's 叫
  before a name read as an order (叫小七帮着) was withdrawn by the lead (a false alarm on a blind book): such a line is
  what someone says, no event.
Settings are not the labelled sets': a 1960s hill tea farm, a river mill, a small-town tea house.
"""

from __future__ import annotations

import pytest

from lw_storyrepo.checks import ERROR, GO_UP, WARN, CheckContext, _act_pattern, contract_findings, dwellers_of
from lw_storyrepo.continuity import World, place_nesting
from lw_storyrepo.drafts import Draft

CARDS: dict[str, dict[str, object]] = {
    "林水生": {"位置": "场部"},
    "阿旺": {"位置": "场部"},
    "苏掌柜": {"位置": "场部"},
    "小七": {"位置": "场部"},
    "高道生": {"位置": "场部"},
}
PLACES = {"场部", "晒青房", "老茶坡", "鹰嘴岩", "县城", "供销社", "三号工区", "磨坊", "河湾"}
LORE = ("场部、晒青房、老茶坡和鹰嘴岩算一处地方，在这一片走动不算挪了地方。"
        "磨坊和河湾算一处地方，叫三号工区。供销社在县城东街，离场部四十里。")


def _found(line: str, body: str) -> list[tuple[str, str]]:
    aliases = {**{n: n for n in CARDS}, **{p: p for p in PLACES}}
    inside, one_place = place_nesting(LORE, PLACES)
    world = World(CARDS, dict(aliases), set(PLACES), set(), ("普通人",), None, inside, {}, one_place=one_place)
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), set(), world=world, people=set(CARDS),
                       dwellers=dwellers_of(CARDS)).for_draft({})
    return [(f.severity, f.message) for f in contract_findings({"合同": [line]}, Draft("A", {}, body, 5), ctx)
            if f.severity in (ERROR, WARN)]


# --- 1. a sibling of a one-place list is not the line's place ----------------------------------------------------------


def test_the_world_reads_its_one_place_lists_apart_from_its_nesting() -> None:
    inside, one_place = place_nesting(LORE, PLACES)
    assert frozenset({"场部", "晒青房", "老茶坡", "鹰嘴岩"}) in one_place
    assert frozenset({"磨坊", "河湾"}) in one_place  # the list's own name, 三号工区, is the whole: no sibling
    assert "鹰嘴岩" in inside["晒青房"] and "县城" in inside["供销社"]


def test_a_place_named_only_by_a_sibling_of_its_list_is_missing() -> None:
    line = "林水生去鹰嘴岩给他爹上坟"
    body = "下午雾大。林水生交了班，在晒青房门口坐了一会儿，把两个馒头揣进怀里，又回屋躺下了。"
    found = _found(line, body)
    assert any("鹰嘴岩" in m for _s, m in found), found
    # the place itself reached: nothing to say
    there = "下午林水生上了鹰嘴岩，在他爹坟前摆上两个馒头，烧了一沓黄纸。"
    assert not any("鹰嘴岩" in m for _s, m in _found(line, there))


def test_a_place_nested_in_the_lines_and_a_lists_own_name_still_meet_it() -> None:
    # 供销社 lies in 县城 (供销社在县城东街): the scene at 供销社 is in 县城
    assert not any("县城" in m for _s, m in _found("阿旺去县城", "阿旺进了供销社，买了两斤盐，一包火柴。"))
    # 磨坊 is one of 三号工区's list: the scene at 磨坊 is in 三号工区
    assert not any("三号工区" in m for _s, m in _found("阿旺去三号工区", "阿旺进了磨坊，帮着把麦子倒进斗里。"))


# --- 2. 上 a place, only meant -----------------------------------------------------------------------------------------


def test_go_up_is_a_climb_not_a_time_or_a_hurry() -> None:
    assert GO_UP.search("林水生上") is not None
    assert GO_UP.search("晚上") is None and GO_UP.search("马上") is None and GO_UP.search("早上") is None


def test_a_climb_only_planned_is_warned() -> None:
    line = "林水生上鹰嘴岩插测风旗"
    body = ("早饭后，林水生扛起测风旗，正要往鹰嘴岩走，场部门口有人喊他去推车。一直忙到天黑，"
            "旗杆还靠在墙根。")
    found = _found(line, body)
    assert any(s == WARN and "要到「鹰嘴岩」" in m for s, m in found), found


def test_a_climb_planned_then_its_act_done_reached_the_place() -> None:
    line = "林水生上鹰嘴岩插测风旗"
    body = ("早饭后，林水生说要上鹰嘴岩去，扛起旗杆就走。\n\n山路陡，风一阵紧似一阵。"
            "他在石缝里刨了个坑，把测风旗插了进去，拿石头压实。")
    assert not any("鹰嘴岩" in m for _s, m in _found(line, body))
    # the act said only in the plan's own sentence is the plan
    planned = "早饭后，林水生说要上鹰嘴岩插测风旗。场部门口有人喊他去推车，一直忙到天黑。"
    assert any("要到「鹰嘴岩」" in m for _s, m in _found(line, planned))


# --- 3. an event line's own act given up -------------------------------------------------------------------------------


@pytest.mark.parametrize("line, given_up, done", [
    # a tea house: the store opened for the new tea, or kept shut for the day
    ("苏掌柜打开库房让小七取出新茶过秤",
     "小七说新茶该过秤了。苏掌柜摸了摸腰上的钥匙：“今天初一，库房不开。”小七只好回了前堂。",
     "小七说新茶该过秤了。苏掌柜打开库房，小七把新茶一包一包搬出来，过了秤。"),
    # a river mill: the engine tried, or put off to tomorrow
    ("林水生在磨坊修柴油机",
     "磨坊里的柴油机又漏油了，林水生拧了半天也拧不紧。他擦擦手：“熄火。明天再修。”",
     "磨坊里的柴油机又漏油了，林水生换了油管，拧紧螺丝，修了半个钟头，机器突突地响起来。"),
    # a farm: rice pounded, or given up for sore hands
    ("阿旺蹲在石臼边舂米",
     "“米还舂不舂？”小七问。\n\n“不舂了，手疼。”阿旺把杵靠在墙上，坐下歇气。",
     "阿旺蹲在石臼边，一杵一杵地舂，舂完了一斗米，手心全是泡。"),
])
def test_an_event_lines_act_given_up_is_the_event_not_happening(line: str, given_up: str, done: str) -> None:
    warned = [m for s, m in _found(line, given_up) if s == WARN and "推迟或作罢" in m]
    assert len(warned) == 1 and line in warned[0], _found(line, given_up)
    assert not any("推迟或作罢" in m for _s, m in _found(line, done))


def test_an_act_given_up_then_done_after_all_happened() -> None:
    line = "苏掌柜打开库房让小七取出新茶过秤"
    body = ("苏掌柜说：“今天初一，库房不开。”\n\n小七磨了半天。苏掌柜叹口气，还是把库房开了，"
            "小七搬出新茶，过了秤。")
    assert not any("推迟或作罢" in m for _s, m in _found(line, body))


def test_another_matter_given_up_far_from_the_lines_people_is_not_the_event() -> None:
    line = "阿旺蹲在石臼边舂米"
    body = ("天没亮阿旺就蹲在石臼边舂起了米，舂完一斗又一斗。\n\n晌午，县城来的货郎问老茶坡的茶还卖不卖，"
            "场里的人说不卖了。")
    assert not any("推迟或作罢" in m for _s, m in _found(line, body))


def test_a_name_holding_a_word_of_speech_leaves_the_line_an_event_and_a_telling_to_someone_does_not() -> None:
    # 高道生's 道 is no saying: his line is an event, and its act given up is warned
    found = _found("高道生打开库房", "小七来要新茶。高道生摆摆手：“库房不开。”")
    assert any("推迟或作罢" in m for _s, m in found), found
    # 叫小七帮着: 叫 is read as telling someone (the order reading withdrawn), so no event to look for
    found = _found("苏掌柜打开库房，叫小七帮着把新茶搬出来过秤", "苏掌柜摆摆手：“今天初一，库房不开。”小七只好回了前堂。")
    assert not any("推迟或作罢" in m for _s, m in found), found
    # a line of what someone says is no event to look for
    assert not any("推迟或作罢" in m for _s, m in _found("苏掌柜对小七说库房不开", "苏掌柜说：“库房不开。”"))


def test_a_line_that_itself_forbids_its_act_finds_no_giving_up() -> None:
    # the line asks the act stopped: 莫舂了 in the prose is the event happening, not given up
    line = "苏掌柜叫阿旺夜里莫再舂米"
    body = "半夜里石臼又响了。苏掌柜披衣出来：“阿旺，莫舂了，一院子人睡觉。”阿旺把杵靠在墙上。"
    assert not any("推迟或作罢" in m for _s, m in _found(line, body))


def test_an_acts_characters_leave_out_links_and_everyday_verbs() -> None:
    assert _act_pattern("打开") == "打开|[打开]"
    assert _act_pattern("交给") == "交给|[交]"  # 明天拿给你 puts off no 交
    assert _act_pattern("看") == "看"


def test_a_next_time_and_a_try_are_no_giving_up() -> None:
    # the lesson goes on to what is taught next time (明天再教你写…): no giving up closes the clause
    body = "小七缠着苏掌柜教他认字。苏掌柜拿树枝在地上写了一个“茶”，又写了一个“米”。\n\n“好了，明天再教你写‘船’字。”"
    assert not any("推迟或作罢" in m for _s, m in _found("苏掌柜教小七认字", body))
    # 晒一晒 tried, then 过了冬至就晒不成了 of another day
    body = "“趁着日头，晒一晒，过了冬至就晒不成了。”小七把茶叶摊开在竹匾上。"
    assert not any("推迟或作罢" in m for _s, m in _found("小七在晒青房晒茶叶", body))


def test_an_act_carried_on_before_makes_a_later_next_time_no_giving_up() -> None:
    body = "阿旺坐在磨坊里记账，一直记到三更。\n\n小七端着灯进来：“三更了，账明天再记。”"
    assert not any("推迟或作罢" in m for _s, m in _found("阿旺夜里在磨坊记账", body))
