"""The outside reader's counter-examples to C2's contract round (stop 59), each narrowed (fc2): an act given up by one
character of a two-character act, an act done before and a next time put off, an act done apart by someone else or at
another place. The sentences are the reviewer's own."""
from __future__ import annotations

from test_contract_ninth_round import _found

PLANT = "林水生上鹰嘴岩插测风旗"
GONE = "早饭后，林水生扛起测风旗，正要往鹰嘴岩走，场部门口有人喊他去推车。"


def _put_off(found: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [f for f in found if "推迟或作罢" in f[1]]


# --- C2-1: one character of a two-character act ------------------------------------------------------------------------


def test_a_fight_stopped_does_not_give_up_the_storeroom_opened() -> None:
    body = "天刚亮，苏掌柜打开了库房，一担担茶叶往外搬。\n\n晌午，阿旺和小七在院里扭打起来，苏掌柜一跺脚：“别打了！”两人这才撒手。"
    assert _put_off(_found("苏掌柜打开库房", body)) == []


# --- C2-2: the act done before, a next time put off ---------------------------------------------------------------------


def test_an_act_done_in_an_earlier_paragraph_makes_a_later_giving_up_a_next_time() -> None:
    for line, body in [
        ("阿旺炒青", "阿旺在锅前炒青，一直忙到半夜。\n\n第二天，苏掌柜说：“阿旺，今天不炒了，歇一天。”"),
        ("阿旺炒青", "阿旺炒青炒了一宿，手上烫起了泡。\n\n天亮了，苏掌柜说：“不炒了，歇着吧。”"),
        ("小七给林水生送信", "小七把信交到林水生手里。\n\n林水生看完，对小七说：“回信明天再送。”"),
    ]:
        assert _put_off(_found(line, body)) == [], body


# --- C2-3: an act done apart reaches the place only when it is the line's own ------------------------------------------


def test_the_act_done_at_another_place_or_by_another_does_not_reach_the_place() -> None:
    assert _found(PLANT, GONE + "一直忙到天黑，旗杆还靠在墙根。")  # the catch kept
    assert _found(PLANT, GONE + "一直忙到天黑，他只好把旗插在场部门口的土堆上。")
    assert _found(PLANT, GONE + "小七在菜地里插秧苗，一直忙到天黑。")


def test_a_noun_the_act_begins_is_no_act_told_done_and_the_giving_up_is_still_read() -> None:
    # 碾槽 is a trough, nothing ground yet: the later 不碾了 still gives the line's act up; 碾了 told before does not
    assert _put_off(_found("阿旺蹬药碾碾川芎", "阿旺把一筐川芎倒进碾槽。\n\n“川芎不碾了，歇一会儿。”阿旺说。"))
    assert not _put_off(_found("阿旺蹬药碾碾川芎", "阿旺把一筐川芎碾了，倒进筐里。\n\n“川芎不碾了，歇一会儿。”阿旺说。"))
    # one character of the act with the line's thing in its clause still gives it up (经藏不开 kind)
    assert _put_off(_found("苏掌柜打开库房", "小七来要新茶。苏掌柜摆摆手：“今天初一，库房不开。”"))
