"""t12's contract round (stop 63): an event line whose thing the prose takes up and puts back.

A contract line asks an act done to or with a thing (open the store, hand over the key, sign the slip); the prose has
the doer reach for the thing — the key, the register, the pen — and put it back (揣回腰间, 搁回抽屉, 又放下了), and tells
the act done nowhere: the event never happens (:func:`lw_storyrepo.checks._line_act_put_back`, a warning). The thing is
a word of the line, its head (坞钥 → 钥匙), or a tool of its act (:data:`lw_storyrepo.checks.ACT_TOOLS`: 开 → 钥匙,
签 → 笔). An act told done before or after the putting back (打开了库房, 递给了小七), a thing put back by another person in
another paragraph, or a putting back of a thing the line has nothing to do with leaves the line as before.
Sentences are this file's own (the tea farm of test_contract_ninth_round), none of the labelled sets'.
"""

from __future__ import annotations

import pytest

from lw_storyrepo.checks import THING_PUT_BACK, WARN
from test_contract_ninth_round import _found


def _put_back(found: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [f for f in found if "拿起又放回" in f[1]]


@pytest.mark.parametrize("line, body", [
    # a key taken out and put back: the store never opened (the tool of 开)
    ("苏掌柜打开库房", "小七要两斤新茶。苏掌柜走到库房门口，从腰里摸出钥匙，在手里掂了掂，又揣回了腰间，转身回了柜台。"),
    # the line's own thing, a sibling verb no book used (搁回)
    ("苏掌柜把账本交给阿旺", "苏掌柜拿起账本，看了阿旺一眼，又把账本搁回了抽屉里。阿旺低头扫地，什么也没问。"),
    # set down again closing its clause, the key named in the line
    ("林水生把晒青房的钥匙交给小七", "天黑前，林水生摸了摸腰上的钥匙，又放下了，只叮嘱小七早点睡。"),
    # a tool of the act (签 → 笔), another sibling (放回)
    ("阿旺在收购单上签字", "阿旺拿起笔，笔尖在单子上停了半天，又把笔放回了笔筒，起身出去了。"),
])
def test_a_thing_taken_up_and_put_back_with_the_act_told_nowhere_is_the_event_missing(line: str, body: str) -> None:
    found = _put_back(_found(line, body))
    assert [severity for severity, _ in found] == [WARN], found


@pytest.mark.parametrize("line, body", [
    # put back, then done after all
    ("苏掌柜打开库房", "苏掌柜摸出钥匙，又揣回了腰间。想了想，他还是把钥匙掏出来，打开了库房。"),
    # done first, the key put back after
    ("苏掌柜打开库房", "苏掌柜打开库房，搬出两袋茶，又把钥匙揣回了腰间。"),
    # the handover done after a moment's doubt
    ("林水生把晒青房的钥匙交给小七", "林水生摸了摸腰上的钥匙，又放下了。临走，他还是把钥匙递给了小七。"),
    # another person puts a key back in another paragraph
    ("苏掌柜打开库房", "苏掌柜在柜台后头算账，算盘打得噼啪响。\n\n傍晚，小七把自家的钥匙挂回了门后。"),
    # a letter read out by a count (念两句) and then put back: the act done, told by its count
    ("苏掌柜念林水生从县城寄来的信", "苏掌柜从袖子里抽出一封信，抖开：“林水生来的，我念两句。”“家里都好，勿念。”他把信折起来，塞回袖子里。"),
    # a thing the line has nothing to do with put back
    ("阿旺在收购单上签字", "阿旺把碗放回灶台，坐到桌边。他在收购单上签了字，交给了苏掌柜。"),
])
def test_the_act_done_or_another_thing_put_back_leaves_the_line_alone(line: str, body: str) -> None:
    assert _put_back(_found(line, body)) == []


def test_the_put_back_grammar_is_open_to_any_hand_verb_and_closed_to_other_returns() -> None:
    for said in ("把钥匙塞回领口", "把本子推回原处", "把旧箭插回壶里", "把烟袋掖回了腰里", "又放下了，", "终究没解下来"):
        assert THING_PUT_BACK.search(said), said
    for said in ("回头看了一眼", "他放回答案", "把零件装回机器", "走回了家", "收回了目光"):
        assert not THING_PUT_BACK.search(said), said


@pytest.mark.parametrize("line, body", [
    ("苏掌柜打开库房", "苏掌柜掏出钥匙，咔哒一声，库房门应声而开。他把钥匙挂回腰间，领着小七进去搬茶。"),
    ("林水生把晒青房的钥匙交给小七", "林水生从腰上解下晒青房的钥匙，小七双手接了过去。林水生又把剩下那串钥匙挂回腰间。"),
    ("林水生把晒青房的钥匙交给小七", "林水生把晒青房的钥匙往小七手里一塞，转身就走。小七把钥匙揣进兜里，把那本旧账放回了柜子。"),
    ("苏掌柜把账本交给阿旺", "苏掌柜把账本往阿旺怀里一推：“拿去吧。”阿旺翻了两页，把账本塞回布包里。"),
    ("阿旺在收购单上签字", "阿旺提起笔，在收购单上歪歪扭扭写下自己的名字，把笔插回了笔筒。"),
    ("阿旺在收购单上签字", "阿旺在收购单上画了押，又把苏掌柜硬塞过来的那笔钱推回去。"),
])
def test_r63_24_25_26_a_tool_put_away_after_a_use_told_otherwise_is_no_reach_given_up(line: str, body: str) -> None:
    """r63-24, r63-25, r63-26: the reviewer's counter-examples — the use told in other words (应声而开, 写下名字), the
    handover told from the receiver's side (接了过去) or by 往…手里一塞, another thing put back."""
    assert _put_back(_found(line, body)) == []
