"""Ranks, frk2 (issue 30, stop 61): the outside reader's RK2 findings on rk2's round, each with the reviewer's own
sentences in the boat yard of ``test_continuity_rank_ten`` (葛水生 小工, 严阿福 木匠, 房德厚 领作, 鲍启明 坞主; ladder
小工 ＜ 木匠 ＜ 领作 ＜ 坞主; told by 葛水生).

- **RK2-1**: 你是R？ (a bare or 啊/呀 question closing the rank's clause) and 你以为你是R / 谁说你是R / 别以为你是R (the
  sarcastic rebuke, the denial) are no claim of the listener's rank.
- **RK2-2**: the turn before gives its speaker as the listener only when this line's narration names one card at most
  (its own speaker) and hands nothing to a pronoun.
- **RK2-4**: 等你都当上R了 (a time to come) and 你都当上R了？ (surprise) are no rank now.
- **RK2-3**: a verb-copy span followed by 后来 + any doing, 那会儿/那时 or 一直…到 is a back-story.
- **RK2-5**: a pronoun looked at is the point of view only when read back to the one who looks (the last name before
  the look); read back to another the narration names, it is that one.
"""

from __future__ import annotations

from test_continuity_rank_ten import _found, _said

T = "“这根龙骨我来定。”阿福把墨斗一放。\n\n"


def test_rk2_1_a_rhetorical_you_are_r_is_no_claim() -> None:
    for quote in ("“你是领作？”", "“你是领作?”", "“你是领作呀？”", "“你是领作啊？轮得到你定？”", "“你是领作？笑死人了。”",
                  "“你以为你是领作？轮得到你派活？”", "“你还真以为你是领作了？”",
                  "“谁说你是领作了？”", "“谁跟你说你是领作的？”", "“别以为你是领作，大伙就得听你的。”"):
        assert not _found(T + quote), quote
    assert not _found("阿福把墨斗一放，房德厚瞪了他一眼：“你以为你是领作？”")
    # the question read in the line: a second sentence of the quote, an indented line
    assert not _found(T + "“你看看这船。你是领作？”")
    assert not _found(T + "  “你看看这船。你是领作？”")
    assert _said(_found(T + "“你看看这船。你是小工，我来定。”"), "严阿福", "小工")


def test_rk2_1_the_claims_rk2_was_built_for_still_bind() -> None:
    turn = "“我去给阿福递根缆绳。”房德厚站起来。\n\n"
    assert _said(_found(turn + "“你是木匠，这活儿不归你管。”"), "房德厚", "木匠")
    assert _said(_found("船台边上，老船工瞪了房德厚一眼：“你是木匠，这活儿不归你管，上那边歇着去。”"), "房德厚", "木匠")


def test_rk2_2_a_line_turned_to_someone_else_takes_no_listener_from_the_turn_before() -> None:
    assert not _found("“我腰疼，补不了。”阿福说。\n\n“你是小工，你去。”房德厚把锤子塞给了水生。")
    assert not _found("“我腰疼，补不了。”阿福说。\n\n“那就歇着。”房德厚转过身，把锤子塞进水生手里，“你是小工，你去。”")
    assert not _found("“这活儿我不干。”阿福把刨子一扔。\n\n“你一个小工，也配挑活？”鲍启明冲着刚进门的水生骂道。")
    assert not _found("“我腰疼，补不了。”阿福说。\n\n“你是小工，你去。”房德厚把锤子塞给了他。")
    # the line's own speaker alone named: the turn before's speaker is still the one spoken to (rk2's case)
    assert _said(_found("“我腰疼，补不了。”阿福说。\n\n“你是小工，你去。”房德厚抬手朝外一指。"), "严阿福", "小工")


def test_rk2_4_you_have_risen_to_r_of_a_time_to_come_or_asked_is_no_rank_now() -> None:
    assert not _found(T + "“等你都当上领作了，我也老了。”")
    assert not _found(T + "“你都当上领作了？我咋不知道。”")
    # rk2's own case still binds
    assert _said(_found("“德厚哥，莫怕。”他拍了拍缆桩，“你都当上木匠了，哪个还敢嚼舌头？”"), "房德厚", "木匠")


def test_rk2_3_a_verb_copy_span_then_a_time_gone_is_a_back_story() -> None:
    assert not _found("房德厚做木匠做了三年，后来跟着鲍启明学看图。")
    assert not _found("房德厚做木匠做了三年，那会儿坞里还只有两条船台。")
    assert not _found("房德厚做木匠做了三年，一直做到民国二十年。")
    # the span served till now still binds
    assert _said(_found("房德厚做木匠做了三年，刨子推得比谁都平。"), "房德厚", "木匠")


def test_rk2_5_a_pronoun_looked_at_read_back_to_another_than_the_looker_is_that_one() -> None:
    # 他 is 阿福 (房德厚 looks): 阿福's rank (木匠) said, no finding; not 葛水生's (the point of view)
    said = _found("阿福把墨斗一放，房德厚瞪了他一眼：“你是领作，这活儿归你。”")
    assert not _said(said, "葛水生", "领作") and _said(said, "严阿福", "领作")
    assert not _said(_found("阿福把墨斗一放，房德厚瞪了他一眼：“你是木匠，这活儿归你。”"), "葛水生", "木匠")
    # rk2's own: 他 read back to the one looking is the point of view, the looker named in an earlier clause too
    assert _said(_found("鲍启明瞪了他一眼：“你是木匠，这活儿不归你管。”"), "葛水生", "木匠")
    assert _said(_found("鲍启明放下碗，瞪了他一眼：“你是木匠，这活儿不归你管。”"), "葛水生", "木匠")
