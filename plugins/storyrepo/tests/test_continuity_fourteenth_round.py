"""The classes the fourteenth round read (issue 30: 状态 and the contract), found missed on the development books
连续性-盲评十四 and 十五 and kept because each caught on both, written here at a small mountain railway station —
other words than the labelled drafts: the right sentence next to each wrong one.

- what a state forbids, as the book words it (the card's text or a 世界观 sentence naming the person): a place
  barred (不许进信号楼) entered, a part that cannot do a thing (左手什么也提不起) doing it;
- a contract place named only as an errand someone is sent on, a wish the clause before says, or seen from afar
  is not reached;
- a handover whose thing is last put back in a pocket did not happen;
- precision: the dead quoted in a habit of theirs before (以前…总是那句话) are no voice now; a handover to one whose card already holds the thing needs no setting change (a flashback tells
  how they got it); a contract line that itself bars the move asks for no arrival; a name that owns what a colon
  lists (是老站长的字：…) says nothing; the one a thought calls with a kin word after
  their name (大马哥，…) does not say it.
"""

from __future__ import annotations

from typing import Any

from lw_storyrepo.checks import ERROR, WARN, CheckContext, contract_findings, dwellers_of, voices
from lw_storyrepo.continuity import World, check_continuity, places_inside
from lw_storyrepo.drafts import Draft
from lw_storyrepo.forbidden import forbidden_of

CARDS: dict[str, dict[str, Any]] = {
    "贺青山": {"姓名": "贺青山", "状态": "在世", "位置": "红岩站", "持有": ["值班日志"]},
    "方桂芝": {"姓名": "方桂芝", "状态": "停职", "位置": "红岩站"},
    "刘石头": {"姓名": "刘石头", "状态": "骨折", "位置": "红岩站"},
    "老站长": {"姓名": "老站长", "状态": "已死", "位置": "红岩站"},
    "马道长": {"姓名": "马道长", "状态": "在世", "位置": "红岩站", "持有": ["调令"]},
}
ALIASES = {**{name: name for name in CARDS}, "桂芝姐": "方桂芝", "石头": "刘石头"}
PLACES = {"红岩站", "信号楼", "道班", "县城"}
LORE = ("红岩站是山里的一个小站，信号楼在红岩站的站台北头。方桂芝出了扳错道岔的事，被停了职：停职期间不许进信号楼，"
        "站台上也不行；她可以待在家属院。刘石头的左手砸断了，打着石膏，左手什么也提不起，只能用右手干点轻活。")
TEXTS = {"方桂芝": "扳道员，停职在家。", "刘石头": "养路工，左手打着石膏。", "贺青山": "值班员。", "老站长": "已故。",
         "马道长": "道班的班长。"}
GENDER = {"贺青山": "他", "方桂芝": "她", "刘石头": "他", "老站长": "他", "马道长": "他"}


def world_of() -> World:
    world = World(CARDS, dict(ALIASES), PLACES, {"值班日志", "调令"}, ("普通人",), None, places_inside(LORE, PLACES),
                  GENDER)
    world.bars = forbidden_of(CARDS, TEXTS, LORE, ALIASES, PLACES)
    return world


def continuity(body: str, changes: list[str] | None = None) -> list[str]:
    meta = {"视角": "贺青山", "书内时间": "1976年3月9日", "在场": ["贺青山", "刘石头"], "设定变更": changes or []}
    world = world_of()
    ctx = CheckContext(dict(ALIASES), [], [], [], 0, set(ALIASES), set(), world=world, people=set(CARDS)).for_draft(meta)
    world.aliases, world.indirect = ctx.aliases, ctx.kin_words
    lines = body.split("\n")
    return [f.message for f in check_continuity(world, meta, lines, 1, voices(ctx, lines), ctx.names_re())
            if "状态" in f.message]


def test_the_bars_are_read_from_the_sentences_naming_the_person() -> None:
    bars = forbidden_of(CARDS, TEXTS, LORE, ALIASES, PLACES)
    assert bars["方桂芝"].places == frozenset({"信号楼"}) and bars["方桂芝"].parts == ()
    assert [part for part, _uses in bars["刘石头"].parts] == ["左手"] and not bars["刘石头"].places
    assert "贺青山" not in bars and "马道长" not in bars  # no state, no bar
    assert forbidden_of({"方桂芝": {"状态": "在世"}}, TEXTS, LORE, ALIASES, PLACES) == {}  # an ordinary state


def test_a_barred_place_entered() -> None:
    assert continuity("天擦黑，桂芝姐推开门进了信号楼，把围巾往下一拉。")
    assert continuity("方桂芝一低头走进了信号楼。")
    assert continuity("桂芝姐站在家属院门口，朝信号楼那边望了一眼。") == []  # looking at it, not in it
    assert continuity("方桂芝想进信号楼，又不敢。") == []  # a wish
    assert continuity("“不许进信号楼！”贺青山喊。") == []  # said, not done
    assert continuity("方桂芝进了信号楼。", ["方桂芝.状态=在世"]) == []  # reinstated
    assert continuity("贺青山跟着方桂芝的话头想下去，自己进了信号楼。") == []  # someone else enters


def test_a_part_that_cannot_do_a_thing_doing_it() -> None:
    assert continuity("石头嘿嘿一笑，左手一把拎起水桶，往道岔上泼。")
    assert continuity("石头嘿嘿一笑，用右手拎起水桶，往道岔上泼。") == []  # the good hand
    assert continuity("刘石头的左手吊在胸前，右手拎着扳手。") == []  # the broken hand only hangs
    assert continuity("贺青山看了石头一眼，他左手一把抓起信号旗。") == []  # 他 is 贺青山's sentence: not told of 石头


def contract(line: str, body: str, changes: list[str] | None = None) -> list[tuple[str, str]]:
    aliases = {**ALIASES, **{p: p for p in PLACES}}
    world = World(CARDS, dict(aliases), PLACES, {"值班日志", "调令"}, ("普通人",), None, {}, {})
    meta = {"设定变更": changes or []}
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), {"值班日志", "调令"}, world=world, people=set(CARDS),
                       dwellers=dwellers_of(CARDS)).for_draft(meta)
    return [(f.severity, f.message) for f in contract_findings({"合同": [line]}, Draft("A", meta, body, 5), ctx)
            if f.severity in (ERROR, WARN)]


def test_a_place_only_sent_to_wished_or_seen_from_afar_is_not_reached() -> None:
    line = "贺青山去道班送饭"
    reached = "贺青山拎着饭盒进了道班，屋里一股煤烟味。"
    assert contract(line, reached) == []
    sent = "站长叫他去道班送饭。半路上广播响了，他掉头跑回了站台。"
    seen = "贺青山顺着铁轨走，远远地已经看得见道班那根烟囱了，身后有人喊他回去。"
    wished = "贺青山想趁着没车，去道班把饭送了，刚出门就被叫了回去。"
    for body in (sent, seen, wished):
        assert [m for s, m in contract(line, body) if s == WARN and "道班" in m], body


def test_a_handover_put_back_in_a_pocket_did_not_happen() -> None:
    line = "马道长把开工的通知单交给贺青山"
    given = "马道长从兜里摸出一张通知单，递给贺青山：“明天开工。”贺青山接过来看了看。"
    kept = ("马道长从兜里摸出一张通知单，在手里拍了拍：“明天开工。”他把通知单往贺青山面前一递，又没松手。\n\n"
            "外头火车鸣笛，他把通知单塞回了上衣口袋：“回头再说。”")
    assert contract(line, given) == []
    assert [m for s, m in contract(line, kept) if s == WARN and "被拒绝或没有交出" in m]


def test_a_handover_to_one_whose_card_already_holds_it() -> None:
    line = "马道长把值班日志交给贺青山"  # 贺青山's card holds it: the book has it changed hands
    body = "那年冬天，马道长把值班日志交给贺青山，拍了拍他的肩。"
    assert not [m for _s, m in contract(line, body) if "设定变更" in m]
    other = "马道长把调令交给贺青山"  # his own 调令: the change must be recorded
    assert [m for _s, m in contract(other, "马道长把调令交给贺青山。") if "设定变更" in m]


def test_a_contract_line_that_bars_the_move_asks_for_no_arrival() -> None:
    line = "马道长叮嘱贺青山往后不准去县城"
    body = "马道长叮嘱贺青山，往后不准去县城，县城里乱。"
    assert not [m for _s, m in contract(line, body) if "要到「县城」" in m]
    assert [m for _s, m in contract("贺青山去县城", "贺青山想去县城，没去成。") if "要到「县城」" in m]


def test_a_name_that_owns_what_a_colon_lists_says_nothing() -> None:
    assert continuity("贺青山翻开日志，是老站长的字：三月九日，晴，道岔正常。") == []
    assert continuity("老站长敲了敲桌子：三月九日，晴，道岔正常。")  # the dead speaking


def test_a_habit_of_the_dead_before_is_no_voice_now() -> None:
    assert continuity("贺青山擦着信号灯。老站长以前站在他背后看，总是那句话：“灯不亮，车不走。”") == []
    assert continuity("贺青山擦着信号灯。老站长站在他背后看：“灯不亮，车不走。”")  # the dead speaking now


def test_the_one_a_thought_calls_with_a_kin_word_does_not_say_it() -> None:
    saved = CARDS["马道长"]
    CARDS["马道长"] = {"姓名": "马道长", "状态": "失踪", "位置": "红岩站"}
    ALIASES["大马"] = "马道长"
    try:
        assert continuity("贺青山望着铁轨。大马那张脸一下子就在眼前了。他在心里说：大马哥，你到底在哪儿。") == []
        assert continuity("贺青山望着铁轨。大马敲了敲窗：青山，开门。")  # the missing one's own words
    finally:
        CARDS["马道长"] = saved
        del ALIASES["大马"]
