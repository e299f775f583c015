"""Ranks, rk2 (issue 30, stop 61): a rank said by the verb-copy span and a rank said to the person's face, with
sentences of our own in the boat yard of ``test_continuity_rank_ten`` (葛水生 小工, 严阿福 木匠, 房德厚 领作, 鲍启明
坞主; ladder 小工 ＜ 木匠 ＜ 领作 ＜ 坞主; told by 葛水生).

- **The verb-copy span** (做R做了三年, 当R当了五年): rk1's 当了五年R in the other word order — the same verb said
  before the rank and again after it with 了 and a span; the same guards (days are a stint, a rise told after, one
  served under another).
- **A rank said to the listener's face** (你是R, 你一个R, 你都当上R了) where the quote calls no one by name: the
  listener is the one the line's narration turns to or looks at (冲他嚷, 瞪了她一眼), or the one speaker of the turn
  before; a question, a wish, a time to come (以后你是R) is no claim.
"""

from __future__ import annotations

from lw_storyrepo.findings import WARN
from test_continuity_rank_ten import _found, _said, _yard_findings


def test_the_verb_copy_span_is_the_rank_served_till_now() -> None:
    # lower than the card's (房德厚 领作): a warning, as rk1's span served
    body = "房德厚做木匠做了三年，刨子推得比谁都平。"
    assert _said(_found(body), "房德厚", "木匠")
    assert [f.severity for f in _yard_findings(body)] == [WARN]
    # other verbs of serving, other spans (held out per word: 当…当了, 干…干了, 熬…熬了 in no book)
    assert _said(_found("阿福当领作当了两年多，船底的缝都是他看的。"), "严阿福", "领作")
    assert _said(_found("鲍启明干领作干了大半年，说话还是那样慢。"), "鲍启明", "领作")
    assert _said(_found("房德厚在坞里熬小工熬了七八个月，手上的茧还没磨出来。"), "房德厚", "小工")


def test_the_verb_copy_span_of_then_or_of_another_is_no_rank_now() -> None:
    assert not _found("房德厚做木匠做了三年，后来才升的领作。")  # a rise told after: a back-story
    assert not _found("坞里人手紧，房德厚做木匠做了三天，腰都直不起来。")  # days: a stint of that work
    assert not _found("房德厚跟着鲍启明做木匠做了三年。")  # served under another: not 鲍启明's
    assert not _found("房德厚做木匠当了三年，刨子推得比谁都平。")  # two verbs: not the copy


def test_a_rank_said_to_the_one_the_narration_turns_to_is_theirs() -> None:
    assert _said(_found("船台边上，老船工瞪了房德厚一眼：“你是木匠，这活儿不归你管，上那边歇着去。”"), "房德厚", "木匠")
    assert _said(_found("老船工朝着房德厚摆摆手：“你好歹是个木匠，别跟小工抢活。”"), "房德厚", "木匠")


def test_a_rank_said_to_the_speaker_of_the_turn_before_is_theirs() -> None:
    assert _said(_found("“我去给阿福递根缆绳。”房德厚站起来。\n\n“你一个木匠，整天蹲在这里做什么？”"), "房德厚", "木匠")
    assert _said(_found("“我去给阿福递根缆绳。”房德厚站起来。\n\n“你是木匠，这活儿不归你管。”"), "房德厚", "木匠")


def test_a_rise_said_as_done_before_now_to_a_called_listener_is_the_rank_now() -> None:
    # 你都当上R了 after the whole given name and a word of address (德厚哥 for 房德厚)
    assert _said(_found("“德厚哥，莫怕。”他拍了拍缆桩，“你都当上木匠了，哪个还敢嚼舌头？”"), "房德厚", "木匠")


def test_a_rank_said_to_a_face_as_a_question_a_wish_or_a_time_to_come_is_no_claim() -> None:
    turn = "“我去给阿福递根缆绳。”房德厚站起来。\n\n"
    assert not _found(turn + "“你是木匠吗？怎么蹲在这里。”")
    assert not _found(turn + "“你要是木匠就好了，这活儿也不归你管。”")
    assert not _found(turn + "“等你是木匠了，这活儿就不归你管。”")
    assert not _found(turn + "“以后你是木匠，这活儿不归你管。”")
    assert not _found(turn + "“你那时是木匠，这活儿不归你管。”")


def test_a_rank_to_a_face_with_no_listener_told_is_no_finding() -> None:
    # no vocative, no one turned to, the line before no quote: whose rank it is goes unread
    assert not _found("房德厚蹲在船台边上。\n\n“你是木匠，这活儿不归你管。”")
    # the turn before is the same speaker's (named in this line too): not the listener
    assert not _found("“我去递缆绳。”房德厚站起来。\n\n“你是木匠，这活儿不归你管。”房德厚自己嘟囔。")
    # two turned to: no guess
    assert not _found("老船工看看房德厚，又看看阿福：“你是木匠，这活儿不归你管。”")


def test_a_pronoun_looked_at_read_back_to_the_speaker_is_no_listener() -> None:
    # 葛水生 speaks and looks at 他; read back, 他 would be 葛水生 himself (the one named, and the point of view): no guess
    assert not _found("葛水生看着他：“你一个木匠，一句话传出去，坞主就要找你。”")
    # the speaker a card not the point of view: 他, read back to the speaker, is the point of view (葛水生, 小工)
    assert _said(_found("鲍启明瞪了他一眼：“你是木匠，这活儿不归你管。”"), "葛水生", "木匠")
