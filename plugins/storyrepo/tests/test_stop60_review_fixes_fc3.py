"""The stop-60 reviewer's counter-examples to c3's contract round (fc3): a showing said with 让…看 or 出示 is still
refused by a thing put back (C3-2), and a condition waited for, then 再说, about another matter after the line's event is
told done puts nothing off (C3-1). The sentences are the reviewer's own (a hydrological station, a lighthouse, a ferry)."""

from __future__ import annotations

import pytest

from test_contract_fifteenth_round import event_findings


# --- C3-2: a showing said with another verb, put back -------------------------------------------------------------------


@pytest.mark.parametrize("line, body", [
    ("吕秋生让温德才看船票", "温师傅在跳板边上等着。吕秋生掏出船票，捏了半天，又把船票塞回了口袋里，一句话也没说。"),
    ("柯秀兰向包主任出示介绍信", "柯大姐摸出介绍信，看了看包主任的脸色，又把介绍信揣回了怀里。"),
])
def test_a_showing_said_with_any_verb_of_showing_is_refused_by_a_put_back(line: str, body: str) -> None:
    warned = event_findings(line, body)
    assert len(warned) == 1 and "拒绝、没有或没做成" in warned[0], warned


def test_a_looking_after_is_no_showing_a_put_back_refuses() -> None:
    line = "包主任让温德才看守器材库"
    body = "温师傅在器材库里看守了一夜，天亮时把钥匙塞回了口袋里。"
    assert event_findings(line, body) == []


# --- C3-1: 等…再说 about another matter after the event is done ---------------------------------------------------------


@pytest.mark.parametrize("line, body", [
    ("柯秀兰爬上灯塔给信号灯换灯泡",
     "柯大姐爬上灯塔，给信号灯换了新灯泡，擦干净了玻璃罩。下来的时候，包主任问她工钱的事，柯大姐摆摆手：“等月底再说。”"),
    ("柯秀兰爬上灯塔给信号灯换灯泡",
     "柯大姐爬上灯塔，给信号灯换了新灯泡。老吕在底下喊她吃饭，她说：“等我把玻璃罩擦完再说。”"),
    ("吕秋生替温德才抄水文记录",
     "吕秋生趴在桌上，一笔一笔把今天的水位抄进记录本，抄到天黑。温师傅要请他喝酒，老吕笑笑：“等汛期过了再说。”"),
])
def test_another_matter_put_off_after_the_event_is_done_puts_nothing_off(line: str, body: str) -> None:
    assert event_findings(line, body) == []


@pytest.mark.parametrize("before", ["柯大姐没换灯泡，", "柯大姐想换灯泡，", ""])
def test_an_event_not_yet_done_before_its_putting_off_is_still_put_off(before: str) -> None:
    line = "柯秀兰爬上灯塔给信号灯换灯泡"
    body = (f"{before}柯大姐提着新灯泡走到灯塔底下，雨下得正紧，铁梯子滑得站不住脚。她仰头看了看：“等雨停了再说。”"
            "她把灯泡揣进兜里，回了值班室。")
    warned = event_findings(line, body)
    assert len(warned) == 1 and "推迟或作罢了（等雨停了再说）" in warned[0], warned


def test_an_event_waited_for_before_its_putting_off_is_still_put_off() -> None:
    # the act told in a sentence that waits for it (只等…就…) is not the act done
    line = "吕秋生替温德才抄水文记录"
    body = ("吕秋生坐在桌前，只等温师傅把水位报上来，就抄水文记录。天黑了，温师傅还没回来，电话也打不通。"
            "老吕把记录本合上：“等明天再说。”")
    warned = event_findings(line, body)
    assert len(warned) == 1 and "推迟或作罢了" in warned[0], warned


def test_an_act_word_not_told_done_before_its_putting_off_is_still_put_off() -> None:
    # the line's act word said as a name of the matter (抄水文记录的事), not told done
    line = "吕秋生替温德才抄水文记录"
    body = "温师傅问起抄水文记录的事。老吕摆摆手：“等明天再说。”"
    warned = event_findings(line, body)
    assert len(warned) == 1 and "推迟或作罢了" in warned[0], warned
