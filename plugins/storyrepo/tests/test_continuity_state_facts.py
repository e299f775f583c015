"""A card's 状态 as facts with consequences (issue 30, S1 at stop 51): one table (:data:`lw_storyrepo.forbidden.FACULTIES`)
of what a state rules out, read from the card's own 状态 word and its own clauses — legs that cannot stand (站不起、走不得;
下不了地) rule out getting up and walking, not only running; hands that can hold nothing (两手缠满了布…什么都拿不得) rule
out taking things up; deaf ears rule out hearing; a mind out (昏迷) rules out any act; 失明 as a 状态 word says sight is
gone by itself — each act the card's only when its clause's subject is the card (a name, an alias, or a 他/她 of a
paragraph naming no one else): a hand act after an unknown name is nobody's. And the dead and the missing riding.

Written here in other genres and periods than the labelled drafts — a river town's dye works in the 1930s, a colony
ship, a Tang post station, a county hospital — three sentences that must fire and two near-misses that must not, per
reading.
"""

from __future__ import annotations

from typing import Any

import pytest

from lw_storyrepo import continuity
from lw_storyrepo.checks import CheckContext, voices
from lw_storyrepo.continuity import KNEW, check_continuity
from lw_storyrepo.forbidden import forbidden_of

import continuity_helpers

CARDS: dict[str, dict[str, Any]] = {
    "程砚秋": {"姓名": "程砚秋", "状态": "在世", "位置": "染坊"},
    "褚大有": {"姓名": "褚大有", "状态": "腿伤", "位置": "染坊"},
    "窦三姑": {"姓名": "窦三姑", "状态": "烫伤", "位置": "染坊"},
    "葛聋子": {"姓名": "葛聋子", "状态": "耳聋", "位置": "染坊"},
    "温若兰": {"姓名": "温若兰", "状态": "昏迷", "位置": "染坊"},
    "蒋盲儿": {"姓名": "蒋盲儿", "状态": "失明", "位置": "染坊"},
    "柴老七": {"姓名": "柴老七", "状态": "腿伤", "位置": "染坊"},
    "鲁万山": {"姓名": "鲁万山", "状态": "已死", "位置": "染坊"},
    "符二": {"姓名": "符二", "状态": "失踪", "位置": "不明"},
}
ALIASES = {**{name: name for name in CARDS}, "大有": "褚大有", "三姑": "窦三姑", "老葛": "葛聋子", "若兰": "温若兰",
           "盲儿": "蒋盲儿", "老七": "柴老七", "鲁掌柜": "鲁万山", "砚秋": "程砚秋", "符二哥": "符二"}
PLACES = {"染坊", "晒场"}
TEXTS = {"程砚秋": "染坊的账房。",
         "褚大有": "挑夫。上个月从码头跳板上摔下来，两条腿都断了，躺在后院厢房里：站不起、走不得。",
         "窦三姑": "染匠。揭染缸时叫蒸汽燎了，两手缠满了布，什么都拿不得。",
         "葛聋子": "看门的。早年放炮崩坏了耳朵，如今什么也听不见。",
         "温若兰": "东家的女儿。", "蒋盲儿": "拉二胡的。",
         "柴老七": "晒工。扭了脚踝，拄着拐杖，一时走不得路，也跑不得。",
         "鲁万山": "老掌柜。", "符二": "伙计。"}
GENDER = {"程砚秋": "他", "褚大有": "他", "窦三姑": "她", "葛聋子": "他", "温若兰": "她", "蒋盲儿": "他", "柴老七": "他",
          "鲁万山": "他", "符二": "他"}


def findings(body: str) -> list[str]:
    world = continuity_helpers.world_of(CARDS, ALIASES, PLACES, TEXTS, "", GENDER)
    return [f.message for f in continuity_helpers.findings(body, world, "程砚秋", "1934年5月2日", list(CARDS))]


def barred(body: str, who: str) -> bool:
    return any(who in m and "状态" in m for m in findings(body))


def test_the_table_is_read_from_the_cards_own_state_word_and_clauses() -> None:
    bars = forbidden_of(CARDS, TEXTS, "", ALIASES, PLACES)
    assert {words for words, _doing in bars["褚大有"].faculties} == {"站不起"}  # the first words of a row
    assert {words for words, _doing in bars["窦三姑"].faculties} == {"什么都拿不得"}
    assert {words for words, _doing in bars["葛聋子"].faculties} == {"耳聋"}  # the 状态 word first
    assert {words for words, _doing in bars["温若兰"].faculties} == {"昏迷"}
    assert {words for words, _doing in bars["蒋盲儿"].faculties} == {"失明"}
    # a crutch leaves walking: only running and jumping are ruled out (走不得路 read by the second legs row)
    assert [words for words, _doing in bars["柴老七"].faculties] == ["走不得路"]
    # another's clause is not the card's (她娘看不见 in the card's text); the other hand works (右手…拿不得)
    other = forbidden_of({"甲": {"姓名": "甲", "状态": "眼伤"}, "乙": {"姓名": "乙", "状态": "在世"}},
                         {"甲": "乙娘瞎了，甲天天念报给她听。"}, "", {"甲": "甲", "乙娘": "乙"}, set())
    assert not other.get("甲") or not other["甲"].faculties
    one = forbidden_of({"丙": {"姓名": "丙", "状态": "烫伤"}}, {"丙": "右手叫油烫了，什么都拿不得。"}, "", {"丙": "丙"}, set())
    assert "丙" not in one  # UNABLE_PART has no part-less 拿不得 either: nothing barred


def test_legs_that_cannot_stand_getting_up_or_walking() -> None:
    assert barred("天一亮，大有就掀开被子下了床，扶着墙一步一步挪到门口。", "褚大有")  # a river town
    assert barred("褚大有听见外头吵，一瘸一拐地走到晒场边上看热闹。", "褚大有")
    assert barred("程砚秋进了厢房。褚大有已经起身了，正坐在床沿上系鞋带，他站起来走出了门。", "褚大有")
    assert not barred("褚大有想下床，试了两回，腿一沾地就疼得直冒汗。", "褚大有")  # a wish, a failure
    assert not barred("程砚秋把褚大有背起来，几步走到晒场上。", "褚大有")  # another carries him


def test_hands_that_hold_nothing_taking_things_up() -> None:
    assert barred("三姑一听缸里翻了花，抄起竹竿就去搅。", "窦三姑")
    assert barred("窦三姑弯下腰，把地上那匹布抱起来，搭到了竹架上。", "窦三姑")
    assert barred("她走到缸边，接过程砚秋手里的木瓢，舀了一瓢。", "窦三姑") is False  # 程砚秋 named: the 她 is not hers alone
    assert barred("窦三姑走到缸边，接过木瓢，舀了一瓢水。", "窦三姑")
    assert not barred("窦三姑回头看了一眼缸，阿桂已经低下头，又拿起了木瓢。", "窦三姑")  # an unknown name leads
    assert not barred("窦三姑举起两只缠着布的手，给程砚秋看。", "窦三姑")  # the hands raised, nothing handled


def test_deaf_ears_hearing_a_sound() -> None:
    assert barred("老葛正打盹，听见门环响了三下，起身去开门。", "葛聋子")
    assert barred("葛聋子侧耳在门缝上听了半天，听出是东家的脚步。", "葛聋子")
    assert barred("夜里起了风，葛聋子听到后院有人在翻墙。", "葛聋子")
    assert not barred("程砚秋敲了半天门，老葛什么也没听见，照旧睡着。", "葛聋子")
    assert not barred("程砚秋听见门环响，叫老葛去开门。", "葛聋子")  # the hearer is someone else


def test_a_mind_out_doing_anything() -> None:
    assert barred("温若兰睁开眼，看了程砚秋一会儿，又闭上了。", "温若兰")
    assert barred("若兰点了点头，示意他坐下。", "温若兰")
    assert barred("温若兰从床上坐起来，拿过茶碗喝了一口。", "温若兰")
    assert not barred("程砚秋守在床边，温若兰一动不动，只有胸口微微起伏。", "温若兰")
    assert not barred("程砚秋替若兰掖了掖被角，转身出去了。", "温若兰")


def test_blind_as_a_state_word_reading() -> None:
    assert barred("盲儿把墙上贴的告示一个字一个字念了出来。", "蒋盲儿")
    assert barred("蒋盲儿拿过账本，一行一行看下去。", "蒋盲儿")
    assert barred("蒋盲儿接过那封信，读了起来。", "蒋盲儿")
    assert not barred("程砚秋把告示念给盲儿听。", "蒋盲儿")  # read to him
    assert not barred("蒋盲儿摸着琴弦，拉了一段《二泉映月》。", "蒋盲儿")  # no sight needed


def test_a_crutch_leaves_walking() -> None:
    assert not barred("柴老七拄着拐，一步一步走到晒场边上。", "柴老七")
    assert barred("柴老七丢了拐，一溜烟跑到晒场那头。", "柴老七")


def test_the_dead_and_the_missing_riding() -> None:
    assert barred("鲁掌柜骑着那头黑驴从街口过来，朝染坊这边招了招手。", "鲁万山")
    assert barred("坡上，符二骑着一匹瘦马，朝码头扬了扬鞭子。", "符二")
    assert barred("符二哥骑上马，头也不回地往北去了。", "符二")
    assert not barred("程砚秋想起鲁掌柜生前骑着那头黑驴去收账的样子。", "鲁万山")  # a memory
    assert not barred("鲁掌柜骑的那头黑驴还拴在后院。", "鲁万山")  # his donkey, no act


def test_what_the_dead_or_missing_knew_asked_is_no_voice() -> None:
    # KNEW, read at a voice given to the dead or the missing: a knowing the point of view asks about, not words now
    assert KNEW.match("符二哥怎么知道，染坊会有今天？")
    assert KNEW.match("鲁掌柜三月里就知道那批布要坏？")
    assert KNEW.match("老掌柜如何料到这一天？")
    assert not KNEW.match("符二哥推门进来，说：“我知道了。”")  # a voice, the knowing in the quote
    assert not KNEW.match("鲁掌柜说，今天的布不许晒。")


def _barred_by_card(text: str, state: str, body: str) -> bool:
    """Whether ``body`` alarms on 甲, a card of ``state`` whose text is ``text`` (R51's minimal inputs)."""
    cards = {"甲": {"姓名": "甲", "状态": state, "位置": "染坊"}, "乙": {"姓名": "乙", "状态": "在世", "位置": "染坊"}}
    aliases = {"甲": "甲", "乙": "乙", "褚大有": "甲", "窦三姑": "甲"}
    meta = {"视角": "乙", "书内时间": "1934年5月2日", "在场": list(cards)}
    world = continuity_helpers.world_of(cards, aliases, PLACES, {"甲": text}, "", {"甲": "他", "乙": "他"})
    ctx = CheckContext(dict(aliases), [], [], [], 0, set(aliases), set(), world=world, people=set(cards)).for_draft(meta)
    world.aliases, world.indirect = ctx.aliases, ctx.kin_words
    lines = body.split("\n")
    return any("甲" in f.message and "状态" in f.message
               for f in check_continuity(world, meta, lines, 1, voices(ctx, lines), ctx.names_re()))


def test_one_reading_a_faculty_the_words_matching_two_rows() -> None:
    # R51 finding 1: 站不起来 matched the legs row and an old running-only row keyed by the words: walking was lost
    bars = forbidden_of({"甲": {"姓名": "甲", "状态": "腿伤"}}, {"甲": "挑夫。两条腿都断了，站不起来。"}, "", {"甲": "甲"}, set())
    assert [words for words, _doing in bars["甲"].faculties] == ["站不起来"]
    assert _barred_by_card("挑夫。两条腿都断了，站不起来。", "腿伤", "褚大有掀开被子下了床，几步走到窗前。")


def test_a_relatives_or_a_past_state_is_not_the_cards_faculty() -> None:
    # R51 finding 2: any clause of the card naming no other card barred the faculty, a relative's or a past one too
    burnt = "染匠。两手缠满了布，什么都拿不得。"
    assert not _barred_by_card(burnt + "她爹瘫痪在床。", "烫伤", "窦三姑站起来。")
    assert not _barred_by_card(burnt + "十年前坠马，昏迷过三天。", "烫伤", "窦三姑点了点头。")
    assert not _barred_by_card(burnt + "她娘早年瞎了。", "烫伤", "窦三姑凑过去，一行一行看下去。")
    assert _barred_by_card(burnt + "她爹瘫痪在床。", "烫伤", "窦三姑接过木瓢，舀了一瓢水。")  # her own hands still
    assert _barred_by_card("她瘫痪在床。", "瘫痪", "窦三姑站起来。")  # she herself, now


def test_what_leaves_a_faculty_whole_speaks_of_the_part() -> None:
    # R51 finding 5: bare 拐, 一手, 一眼 in any card sentence left the faculty whole
    assert _barred_by_card("挑夫。站不起来。拐到码头那年才十六。", "腿伤", "褚大有掀开被子下了床，几步走到窗前。")
    assert _barred_by_card("寡妇，一手把儿子拉扯大。两手缠满了布，什么都拿不得。", "烫伤", "窦三姑接过木瓢，舀了一瓢水。")
    assert _barred_by_card("拉二胡的。一眼望去尽是黑，什么也看不见。", "目盲", "窦三姑凑过去，一行一行看下去。")
    assert not _barred_by_card("挑夫。站不起来，拄着拐杖。", "腿伤", "褚大有几步走到窗前。")  # a crutch still
    assert not _barred_by_card("左手烫了，什么都拿不得。右手还好。", "烫伤", "窦三姑接过木瓢，舀了一瓢水。")  # the other hand


def test_a_thought_of_the_dead_in_the_scene_is_no_knowing_asked() -> None:
    # R51 finding 3: the bare 就 of KNEW silenced in-scene thought of the dead; the knowing asked stays silent
    assert not KNEW.match("鲁万山转身就想到了对策。")
    assert not KNEW.match("鲁万山一听就明白，心里想，这回完了。")
    assert KNEW.match("鲁万山早就知道那批布要坏？")
    assert any("鲁万山" in m for m in findings("鲁万山转身就想到了对策。"))
    assert any("鲁万山" in m for m in findings("鲁万山一听就明白，心里想，这回完了。"))


def test_a_line_of_thousands_of_acts_reads_its_causatives_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # R51 finding 4: CAUSED searched from the clause start for every act: 站起来×8333 on one line, 2.6 s (work counted)
    counted = continuity_helpers.Counted(continuity.CAUSED)
    monkeypatch.setattr(continuity, "CAUSED", counted)
    body = "褚大有" + "站起来" * 8333
    assert any("褚大有" in m for m in findings(body))
    assert counted.read <= 2 * len(body)  # each act read from its clause start: 104 million


def test_the_knowing_asked_read_to_its_question_mark() -> None:
    # R51 finding 3 narrowed KNEW to a question: the question mark may stand past the 16 characters read at a name
    assert not barred("程砚秋心里一紧。符二哥怎么知道，染坊里那批蓝布到了五月里一定会坏？", "符二")
