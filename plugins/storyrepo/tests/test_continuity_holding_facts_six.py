"""Holdings as facts, sixth round (issue 30, H7 at stop 55): givings with no 把, and another's thing in someone's words.

A holder who takes a thing in hand (掏出, 拿出, 拿起, 解下: :data:`lw_storyrepo.giving.HOLD_OUT_VERBS`) and hands it on
in the same clause or the next, with no other subject between (拿出铜扳手，递给阿爸; 拿起马灯递过去), gives it away as
surely as with 把: using it later, with no taking back, is a 持有 finding — also when the use is a clause of its own
(…蹲下去，用它…). Silent when it comes back (接回, 还给, 要回 — said with the thing or not), when it is another one
(另一…, 又摸出一只…) or the giver has more than one (两只…), when the user is the one it went to, when only a part of it is given (递给他一支) or it is held out to be looked
at (递给他看). And in someone's words, 我拿了你那把… is the speaker using the one spoken to's thing (H7).

Written in genres and periods of our own (a Song herb shop, a space station, a village school), not the labelled drafts' words.
"""

from __future__ import annotations

from typing import Any

import continuity_helpers
from lw_storyrepo.continuity import World, told_of

CARDS: dict[str, dict[str, Any]] = {
    "林掌柜": {"姓名": "林掌柜", "状态": "在世", "位置": "药铺", "持有": ["戥子"]},
    "罗工": {"姓名": "罗工", "状态": "在世", "位置": "药铺", "持有": ["万用表"]},
    "阿桂": {"姓名": "阿桂", "状态": "在世", "位置": "药铺", "持有": ["手电筒"]},
}
TEXTS = {"林掌柜": "林掌柜开药铺。", "罗工": "罗工修机器。", "阿桂": "阿桂教书。"}
KNOWN = {"林掌柜": "他", "罗工": "他", "阿桂": "她"}
GAVE_AWAY = "交到别人手里"


def _held(body: str, viewpoint: str = "阿桂", changes: list[str] | None = None) -> list[str]:
    aliases = {n: n for n in CARDS}
    items = {str(x) for card in CARDS.values() for x in card.get("持有", [])}
    world = World(CARDS, dict(aliases), {"药铺"}, items, (), None, {}, dict(KNOWN), told=told_of(TEXTS, CARDS))
    return [f.message for f in continuity_helpers.findings(body, world, viewpoint, "1986年3月2日", list(CARDS),
                                                           items=items, changes=changes)
            if f.subject is not None and f.subject.field == "持有"]


def test_a_giving_with_no_ba_then_used_by_its_giver_fires() -> None:
    assert any("林掌柜" in m and "戥子" in m and GAVE_AWAY in m
               for m in _held("林掌柜从柜台底下摸出戥子，递给学徒小满。\n林掌柜拿起戥子称了三钱当归。"))
    assert any("罗工" in m and "万用表" in m and GAVE_AWAY in m
               for m in _held("舱门开了，罗工拿起万用表递过去。\n罗工用万用表量了量舱壁的电压。"))
    # the use a clause with no subject of its own: 用 right before the thing
    assert any("阿桂" in m and "手电筒" in m and GAVE_AWAY in m
               for m in _held("阿桂从背包里掏出手电筒，交给了值日生。\n阿桂蹲下去，用手电筒照了照讲台底下。"))


def test_handed_on_with_le_to_a_pronoun_or_a_name_fires_even_with_its_setting_change() -> None:
    assert any("林掌柜" in m and "戥子" in m and GAVE_AWAY in m
               for m in _held("罗工进了门。林掌柜只好把戥子交给了他。\n林掌柜拿起戥子称了三钱当归。"))
    # the draft's own 设定变更 writes the handover: the giver has it no more
    assert any("阿桂" in m and "手电筒" in m and GAVE_AWAY in m
               for m in _held("阿桂把手电筒交给了罗工。\n阿桂蹲下去，用手电筒照了照讲台底下。",
                              changes=["阿桂.持有-手电筒", "罗工.持有+手电筒"]))


def test_it_comes_back_or_another_one_or_the_receiver_uses_it_stays_silent() -> None:
    assert _held("阿桂从背包里掏出手电筒，递给罗工。罗工照了照，又还给了她。\n阿桂用手电筒照了照讲台底下。") == []
    assert _held("阿桂拿起手电筒递过去。\n下课后，阿桂接回手电筒，用手电筒照了照讲台底下。") == []
    assert _held("阿桂拿起手电筒递给罗工。\n阿桂从抽屉里摸出另一只手电筒，照了照讲台底下。") == []
    assert _held("阿桂拿起手电筒递给罗工。\n罗工用手电筒照了照讲台底下。") == []
    # the giver holds two: one more brought out (又摸出一只), or more than one said (两只)
    assert _held("阿桂拿起手电筒递给罗工。\n阿桂又摸出一只手电筒，照了照讲台底下。") == []
    assert _held("阿桂的抽屉里有两只手电筒。阿桂拿起手电筒递给罗工。\n阿桂用手电筒照了照讲台底下。") == []


def test_a_part_given_a_showing_or_another_subject_stays_silent() -> None:
    # 递给他看: held out to be looked at; 递给…一支: a part of it — its holder keeps it
    assert _held("罗工掏出万用表，递给阿桂看。\n罗工用万用表量了量电压。") == []
    assert _held("林掌柜拿出戥子，递给小满一包当归。\n林掌柜拿起戥子称了三钱。") == []
    # another subject hands something on: not the holder's giving
    assert _held("罗工拿出万用表，她递给罗工一杯水。\n罗工用万用表量了量电压。") == []
    # in someone's words: told, not done here
    assert _held("“罗工拿出万用表递给了她。”林掌柜说。\n罗工用万用表量了量电压。") == []


def test_another_s_thing_in_someone_s_words_by_you_fires() -> None:
    assert any("阿桂" in m and "万用表" in m
               for m in _held("罗工在床上翻了个身。\n“我拿了你那只万用表，线是通的，你再睡会儿吧。”阿桂说。"))
    assert any("林掌柜" in m and "手电筒" in m
               for m in _held("阿桂推门进来。\n“阿桂你那只手电筒我用了，我拿阿桂你那只手电筒照过后院，耗子洞就在墙根。”林掌柜说。"))


def test_a_question_or_the_speaker_s_own_thing_in_words_stays_silent() -> None:
    # a question of the clause itself: no use done
    assert _held("“我拿你那只万用表干什么？”阿桂说。") == []
    # the speaker's own thing, lent out by words: no use by another
    assert _held("“你拿我那只万用表量一量。”罗工说。") == []


def _three_held(body: str) -> list[str]:
    return [f.message for f in continuity_helpers.three_holders(body, "中山站")
            if f.subject is not None and f.subject.field == "持有"]


def test_another_thing_or_a_part_handed_after_taking_one_up_stays_silent() -> None:
    # R55: 拿起/取下 X then 递给: what is handed is the thing named after X (旁边的火柴, 罩子) or a measure of another
    # thing (一碗姜汤) — X stays in its holder's hand
    assert _three_held("老周拿起煤油灯旁边的火柴，递给苏禾。\n老周提着煤油灯出了门。") == []
    assert _three_held("老周拿起煤油灯，递给苏禾一碗姜汤。\n老周提着煤油灯出了门。") == []
    assert _three_held("老周取下煤油灯罩子，递给苏禾擦。\n老周提着煤油灯出了门。") == []
    assert _three_held("老周把煤油灯旁边的火柴递给苏禾。\n老周提着煤油灯出了门。") == []
    # the thing itself taken up and handed: still a giving
    assert _three_held("老周拿起煤油灯，递给苏禾。\n老周提着煤油灯出了门。") != []


def test_a_word_ending_in_yong_is_no_use() -> None:
    # R55: 专用, 借用 are words of their own, not 用 the instrument of a clause with no subject
    assert _three_held("老周把煤油灯递给苏禾。\n老周叹了口气，专用煤油灯的灯芯早烧完了。") == []
    assert _three_held("老周把煤油灯递给苏禾。\n老周叹了口气，借用煤油灯的光写字。") == []
    assert _three_held("老周把煤油灯递给苏禾。\n老周蹲下去，用煤油灯照了照。") != []


def test_a_taking_back_of_another_thing_or_to_another_keeps_the_giving() -> None:
    # R55: 苏禾把钱又还给了老周 names another thing; a taking back of none, to another giver, is not this one's
    assert _three_held("老周把煤油灯递给苏禾。\n苏禾把钱又还给了老周。\n老周提着煤油灯出了门。") != []
    assert _three_held("老周把煤油灯递给苏禾。\n苏禾看了看，又还给了阿满。\n老周提着煤油灯出了门。") != []
    # a taking back naming no thing, to its giver or to a pronoun: the thing given away
    assert _three_held("老周把煤油灯递给苏禾。\n苏禾看了看，又还给了老周。\n老周提着煤油灯出了门。") == []
    assert _three_held("老周把煤油灯递给苏禾。\n苏禾看了看，又还给了他。\n老周提着煤油灯出了门。") == []


def test_a_question_in_a_later_clause_of_someone_s_words_keeps_the_use() -> None:
    # SPOKEN_AFTER_NOT_DONE reads a question or 呢 in the thing's own clause only: one after a comma asks something else
    assert any("阿桂" in m and "万用表" in m
               for m in _held("罗工在床上翻了个身。\n“我拿了你那只万用表量过了，线是通的，你还没起炕呢。”阿桂说。"))
    assert any("阿桂" in m and "万用表" in m
               for m in _held("罗工在床上翻了个身。\n“我拿了你那只万用表量过了，你看看，通没通？”阿桂说。"))
