"""The clause or sentence around an offset (mn1, stop 64): one helper for what the checks read before and after a
word, the window's edge when no mark falls inside the reach."""

from __future__ import annotations

import re

from lw_storyrepo.findings import FULL_WIDTH_STOP, span_end, span_start

COMMA = re.compile("[，。]")


def test_a_sentence_is_read_from_the_stop_before_to_the_stop_after() -> None:
    body = "天黑了。他把灯吹灭，躺下睡了。鸡叫了。"
    at = body.index("灯")
    assert body[span_start(FULL_WIDTH_STOP, body, at):span_end(FULL_WIDTH_STOP, body, at)] == "他把灯吹灭，躺下睡了"
    assert body[span_start(COMMA, body, at):span_end(COMMA, body, at)] == "他把灯吹灭"


def test_a_reach_stops_the_reading_at_its_edge_when_no_mark_falls_inside() -> None:
    body = "她一边走一边数着路边的槐树一棵两棵三棵" + "。"
    at = body.index("三")
    assert span_start(FULL_WIDTH_STOP, body, at, 4) == at - 4
    assert span_start(FULL_WIDTH_STOP, body, 2, 40) == 0  # the text's start, not a negative offset
    assert span_end(FULL_WIDTH_STOP, body, 0, 5) == 5
    assert span_end(FULL_WIDTH_STOP, body, at, 40) == len(body) - 1  # the stop, inside the reach
    assert span_end(FULL_WIDTH_STOP, "没有句号", 1, 40) == len("没有句号")  # the text's end, not past it


def test_the_mark_at_the_offset_itself_belongs_to_what_follows() -> None:
    body = "走吧。好。"
    assert span_start(FULL_WIDTH_STOP, body, 2) == 0  # the stop at 2 is not before 2
    assert span_end(FULL_WIDTH_STOP, body, 2) == 2  # and ends the sentence that holds 2
    assert span_start(FULL_WIDTH_STOP, body, 3) == 3
