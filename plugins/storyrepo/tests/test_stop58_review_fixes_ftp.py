"""The outside reader's counter-examples to T7's and P6's rounds (issue 30, the ftp fixers at stop 58; R58's report).

Each sentence is the reviewer's own, written for a book of theirs, not the corpus's.

- T7-a: a festival counted back in days (中秋过了才三天，…) is the ordinary way to tell a *past* event's distance from a
  festival; the reading rested on two books and is dropped (no 书内时间 finding on it, whatever the in-book day). T8's
  round (stop 59, ``test_continuity_time_eight.py``) reads the count again where it opens the chapter or a scene with
  the scene's present after it (T7's own 中秋过了才三天，月饼还剩半盒… is such a sentence, now a catch there); the reviewer's
  two sentences, someone going away after the count, stay silent here.
- T7-b: the owner before a comer's 的 tells two parties of one noun apart: 县里的检查组 is not the 省里检查组 the book
  dates (:func:`lw_storyrepo.continuity._comes_in`); an owner the event's words name, or none, still matches.
- P6-a: a sender between the person and the coming (托人来找过你, 派人来叫你) is someone else's coming
  (:data:`lw_storyrepo.continuity.SENT_SOMEONE`).
- P6-b: a day of the month with its own doing (七月二十号就要交茶了，…) is a deadline, no telling of that day: the
  placement after it is now (:func:`lw_storyrepo.continuity._another_days_at`).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lw_storyrepo.continuity import CAME_HERE, _NOT_SENT_GAP, _another_days_at, _comes_in

from test_continuity_place_six import _placed
from test_continuity_time_seven import timed


@pytest.mark.parametrize("body, now", [
    ("中秋过了才三天，二叔就回了关外。", "光绪十年腊月初八"),
    ("元宵过了才三天，他就跟着商队出了口，一走就是大半年。", "光绪十年八月初十"),
])
def test_a_festival_counted_back_in_days_is_no_finding(body: str, now: str) -> None:
    assert timed(body, now) == []


@pytest.mark.parametrize("body", ["卞玉珍说：“县里的检查组明天就到，先查账。”", "卞玉珍说：“公社的检查组大后天就来。”",
                                  "“盐务局的检查组明天就来，”卞玉珍说。"])
def test_a_comer_of_another_owner_is_not_the_dated_one(body: str) -> None:
    # the lore dates 省里检查组 on 八月二十日; today is the fourteenth
    assert timed(body) == []


def test_a_comer_of_the_same_owner_or_none_is_still_the_dated_one() -> None:
    assert timed("卞玉珍说：“省里的检查组明天就到，先查账。”")
    assert timed("卞玉珍拨着算盘说：“检查组大后天就到了，盐坨得赶紧苫好。”")
    assert _comes_in("场长带场部验收组到七连过磅", "场部的验收组")
    assert not _comes_in("场长带场部验收组到七连过磅", "团部的验收组")
    assert _comes_in("验收组到七连过磅", "团部的验收组")  # the event names no owner


@pytest.mark.parametrize("body", ["程桂香说：“大根晌午托人来找过你，叫你去林场一趟。”",
                                  "程桂香说：“大根今天早上派人来叫你，说林场缺人。”"])
def test_a_messenger_sent_is_not_the_person_come(tmp_path: Path, body: str) -> None:
    assert _placed(tmp_path, body) == []


def test_the_person_come_without_a_sender_still_fires(tmp_path: Path) -> None:
    found = _placed(tmp_path, "程桂香说：“大根晌午来找过你，叫你去林场一趟。”")
    assert len(found) == 1 and "今天来过这边" in str(found[0]["message"]), found


def test_a_deadline_date_earlier_in_the_sentence_does_not_hide_a_placing(tmp_path: Path) -> None:
    found = _placed(tmp_path, "七月二十号就要交茶了，大根还在屯溪的码头上扛包。")
    assert len(found) == 1 and "「屯溪」" in str(found[0]["message"]), found


def test_a_day_setting_the_time_still_spans_what_follows() -> None:
    today = ("", 1963, 7, 9)
    sentence = "五月初五晚上，马把头在南市请我听戏。"
    assert _another_days_at(sentence, today) == [(0, len(sentence))]
    sentence = "七月二十号就要交茶了，大根还在屯溪的码头上扛包。"
    assert _another_days_at(sentence, today) == [(0, sentence.index("，"))]
    assert _another_days_at("七月九日一早，桂香嫂在上海。", today) == []


def test_a_comer_of_another_owner_doing_the_dated_doing_is_not_the_dated_one() -> None:
    # the dated event's own doing (到盐场验收) said of another owner's 检查组
    assert timed("卞玉珍说：“县里的检查组明天就到盐场验收，先查账。”") == []
    assert timed("卞玉珍说：“检查组明天就到盐场验收，先查账。”")


def test_the_sender_table_reads_senders_only() -> None:
    gap = re.compile(rf"大根晌午{_NOT_SENT_GAP}(?:{CAME_HERE})")
    for sent in ("托人来找过你", "托了个人来问过你", "派了两个人来叫你", "打发小的来问过你", "叫人来找过你"):
        assert gap.match("大根晌午" + sent) is None, sent
    for came in ("到派出所来找过你", "来找过你", "赶到"):
        assert gap.match("大根晌午" + came), came
