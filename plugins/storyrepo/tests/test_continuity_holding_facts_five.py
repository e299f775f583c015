"""Holdings as facts, fifth round (issue 30, H6 at stop 54): a thing given away, then used by its giver.

A holder who gives a thing to another within the draft (把马灯递给老郑, 把铜印塞进他手里: a verb of handing or tossing of
:mod:`lw_storyrepo.giving`, or a putting verb before someone's hand) no longer has it: using it in a later sentence, with
no taking back between (接过, 要回, 还给…), is a 持有 finding, whatever the cards say at the chapter's start. Silent when
it comes back, when the use is of another one (另一盏), when the user is the one it went to, and when the giving is not
done (没把, 想把) or the thing only put away (塞进口袋里).

Written in genres and periods of our own (a Tang post station, a school lab, a mountain hut), not the labelled drafts' words.
"""

from __future__ import annotations

import continuity_helpers


def _held(body: str, viewpoint: str = "阿满") -> list[str]:
    return [f.message for f in continuity_helpers.three_holders(body, "驿站", viewpoint)
            if f.subject is not None and f.subject.field == "持有"]


def test_a_thing_given_away_then_used_by_its_giver_fires() -> None:
    assert any("老周" in m and "驿符" in m and "交到别人手里" in m
               for m in _held("老周把驿符交给了阿满，叮嘱她路上小心。\n天亮时，老周掏出驿符给守关的兵丁看了看。"))
    assert any("苏禾" in m and "秒表" in m and "交到别人手里" in m
               for m in _held("下课前，苏禾把秒表递给课代表，让他去器材室登记。\n第二节课开始，苏禾按下秒表，小车从斜面上滑了下来。"))
    # a putting verb before another's hand, the giver's own clause after a comma
    assert any("老周" in m and "煤油灯" in m and "交到别人手里" in m
               for m in _held("老周想了想，把煤油灯塞进阿满手里。\n走到半山腰，风大了。老周提着煤油灯照了照路。"))


def test_it_comes_back_or_another_one_or_another_user_stays_silent() -> None:
    assert _held("老周把煤油灯递给阿满。阿满照完了，又把煤油灯还给了他。\n老周提着煤油灯照了照路。") == []
    assert _held("老周把煤油灯递给阿满。\n半夜里，老周接过煤油灯，提着煤油灯照了照路。") == []
    assert _held("老周把煤油灯递给阿满。\n老周提着另一盏煤油灯照了照路。") == []
    assert _held("老周把煤油灯递给阿满。\n阿满提着煤油灯照了照路。") == []


def test_no_giving_done_stays_silent() -> None:
    assert _held("老周没把煤油灯交给阿满。\n老周提着煤油灯照了照路。") == []
    assert _held("苏禾把秒表塞进口袋里。\n苏禾按下秒表，小车滑了下来。") == []
    # in someone's words: a giving told, not done here
    assert _held("“老周把煤油灯交给阿满了。”苏禾说。\n老周提着煤油灯照了照路。") == []


def test_a_thing_put_into_its_holders_own_arms_or_palm_stays_silent() -> None:
    # R54: 怀里/掌心 with no other's hand named is the holder's own — an INTO_HANDS giving needs 他手里, 阿满怀里
    assert _held("老周把驿符塞进怀里，出了门。\n天亮时，老周掏出驿符给守关的兵丁看了看。") == []
    assert _held("苏禾把秒表按在掌心里掂了掂。\n苏禾按下秒表，小车滑了下来。") == []
    assert _held("老周把驿符塞进自己怀里。\n老周掏出驿符给兵丁看了看。") == []
    # another's arms named: a giving still
    assert any("老周" in m and "驿符" in m and "交到别人手里" in m
               for m in _held("老周把驿符塞进阿满怀里。\n天亮时，老周掏出驿符给守关的兵丁看了看。"))


def test_taken_over_again_or_set_down_near_its_giver_stays_silent() -> None:
    # R54: 拿过 by the giver is a taking back; a thing set down by the receiver is within the giver's reach
    assert _held("老周把煤油灯递给阿满。阿满照完了路，老周伸手拿过煤油灯。\n老周提着煤油灯照了照路。") == []
    assert _held("老周把煤油灯递给阿满。阿满照完了，把煤油灯搁在老周脚边。\n老周提着煤油灯照了照路。") == []
    assert _held("老周把煤油灯递给阿满。阿满照完了，放下煤油灯走了。\n老周提着煤油灯照了照路。") == []
    # in the giving's own sentence too; a putting into another's hand is no setting down
    assert _held("老周把煤油灯递给阿满，阿满照完了，把煤油灯放在桌上。\n老周提着煤油灯照了照路。") == []
    assert any("老周" in m and "煤油灯" in m and "交到别人手里" in m
               for m in _held("老周把煤油灯放到阿满手上。\n老周提着煤油灯照了照路。"))
