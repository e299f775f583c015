"""Documents quoted inside a draft: a duty line, a ledger entry, a dated piece (issue 30, D1 at stop 59).

Writers vary dialogue and narration with documents — a log's page, a receipt, a ledger read out, a notice on a
door, a letter written tonight — and the errors planted inside them went unseen: the readers of 位置 and 状态 read
narration (a quote is someone's words), and a document's own date was read only as a log entry with its year.
Development books wrote it this way: a duty field of a log or minutes (``…；校对：NAME``, ``主持人：NAME``), a foot
``…，NAME经手。`` or ``NAME亲书于…`` naming someone far away by their card (连续性-盲评二十一, 三十一, 四十二, 四十四);
a dyer's ledger read out whose entry of today has a dead man dyeing (四十五); a letter written in the scene signed with
another day (四十三), a notice in hand issued on a later day (四十五). Letters and notices signed or issued on their own
day stand in more books, read or written, and right (十九, 四十一, 四十二, 盲评七).

The readings (:func:`lw_storyrepo.continuity._document_actors`, :func:`lw_storyrepo.continuity._document_days`):
what a document dated the in-book day itself records as done — a duty field (:data:`~lw_storyrepo.continuity.DUTY`),
a name with its own act after it (:data:`~lw_storyrepo.continuity.SIGNED_AFTER`), a name opening an entry of a quoted
ledger — was done that day where the document was made; a piece written now carries its own day at its foot, a notice
in hand was issued by today. Silent for another day, another year, someone a document is sent to, a letter's close, a
date and a signing word in narration, a letter read, a date heading a letter home (the day it tells of), a notice
whose date is in its body.

Every sentence here is written for this file (a 1962 Heilongjiang lumber camp); none comes from a labelled draft.
"""

from __future__ import annotations

from lw_storyrepo.continuity import World
from lw_storyrepo.findings import Finding

import continuity_helpers

TODAY = "1962年10月8日"


def _world() -> World:
    """The camp's book: 王铁生 (the point of view) and 孙桂芝 at 青松林场, 刘德海 far off in 哈尔滨, 赵老栓 dead."""
    return continuity_helpers.lumber_camp(nicknames=False, with_dead=True)


def _found(body: str, date: str = TODAY) -> list[Finding]:
    """The 位置, 状态 and 书内时间 findings of ``body`` told by 王铁生 on ``date``, 孙桂芝 beside him."""
    out = continuity_helpers.findings(body, _world(), "王铁生", date, ["王铁生", "孙桂芝"])
    return [f for f in out if any(w in f.message for w in ("位置", "状态", "书内时间"))]


def _about(found: list[Finding], who: str, field: str) -> list[Finding]:
    return [f for f in found if f.message.startswith(who) and field in f.message]


# --- a duty line: the one written there did it, where and when the document was made ---

def test_a_duty_field_of_todays_log_puts_someone_far_away_here() -> None:
    found = _found("铁生把交班本翻到最后一页，看见底下已经签好了：“十月八日夜班，值班：孙桂芝；复核：刘德海。”")
    hit = _about(found, "刘德海", "位置")
    assert hit and "复核：刘德海" in hit[0].excerpt and "哈尔滨" in hit[0].message
    assert not _about(found, "孙桂芝", "位置")  # the one on duty here is where her card puts her


def test_a_form_laid_out_line_by_line_is_one_document() -> None:
    body = "孙桂芝念，铁生记。\n\n一九六二年十月八日下午，伐木二队班组会。\n地点：工棚。\n主持人：刘德海。\n出席：孙桂芝、王铁生。"
    assert _about(_found(body), "刘德海", "位置")


def test_a_receipt_handled_today_by_someone_far_away() -> None:
    found = _found("场部的通讯员送来一张收条：\n\n“今收到青松林场红松款三百元整。十月八日，刘德海经手。”")
    assert _about(found, "刘德海", "位置")


def test_a_dead_man_on_a_duty_line_today() -> None:
    found = _found("铁生凑过去看：“十月八日，清点：赵老栓、孙桂芝。”")
    hit = _about(found, "赵老栓", "状态")
    assert hit and hit[0].severity == "error"


def test_a_quoted_ledger_entry_of_today_is_its_subjects_act() -> None:
    body = "场长叫铁生把这两天的锯木账念一遍。\n\n“十月七日，二号锯，孙桂芝锯红松十根。十月八日：一号锯，赵老栓锯红松八根。”"
    hit = _about(_found(body), "赵老栓", "状态")
    assert hit and "赵老栓锯红松八根" in hit[0].excerpt


def test_another_day_another_year_or_a_date_gone_is_silent() -> None:
    for body in ("铁生翻到前头：“十月二日夜班，值班：孙桂芝；复核：刘德海。”",
                 "铁生翻出一张旧收条：“今收到红松款三百元。一九六一年十月八日，刘德海经手。”",
                 "铁生翻出一张旧收条：“今收到红松款三百元。去年十月八日，刘德海经手。”",
                 "“十月七日，一号锯，赵老栓锯红松八根。”铁生念完，半天没出声。"):
        assert not _found(body), body


def test_one_a_document_is_sent_to_or_a_letters_close_is_silent() -> None:
    for body in ("铁生在包裹单上写：“十月八日，收件人：刘德海。”",
                 "铁生拆开信：“铁生：哈尔滨下雪了，我一切都好。刘德海拜上，十月八日。”",
                 "“十月八日，赵老栓的那把锯还挂在墙上。”孙桂芝说。"):
        assert not [f for f in _found(body) if "位置" in f.message or "状态" in f.message], body


def test_a_date_and_a_signing_word_in_narration_are_no_document() -> None:
    assert not _found("十月八日，刘德海经手的那批红松还堆在河边，铁生看了一眼。")


# --- a document's own day: written now, it carries today ---

def test_a_letter_written_tonight_signed_with_another_day() -> None:
    body = "夜里铁生趴在炕上给娘写信。\n\n“娘：林场活多，我身子好，冬天回去。儿铁生，十月五日。”\n\n写完，他把信折好，塞进枕头底下。"
    hit = [f for f in _found(body) if "书内时间" in f.message]
    assert hit and "十月五日" in hit[0].excerpt


def test_a_note_carved_then_done_signed_with_another_day() -> None:
    body = "铁生拿小刀在木牌上刻：\n\n“二号锯停用，锯齿崩了三个，等场部换新的。铁生，十月六日。”\n\n刻完，他把木牌挂回墙上。"
    assert [f for f in _found(body) if "书内时间" in f.message]


def test_a_notice_in_hand_issued_on_a_later_day() -> None:
    body = "场部门口贴出一张新通知，铁生挤进去看。\n\n“十月十二日，场部通知：各班组十五日前交齐工具。”"
    assert [f for f in _found(body) if "书内时间" in f.message]


def test_todays_letter_an_old_letter_read_and_a_date_in_a_notices_body_are_silent() -> None:
    for body in ("夜里铁生趴在炕上给娘写信。\n\n“娘：林场活多，我身子好。儿铁生，十月八日。”\n\n写完，他把信折好。",
                 "铁生拆开娘上个月的来信，一字一字地念。\n\n“铁生：家里都好，莫挂念。娘，九月二十日。”",
                 "场部门口贴出一张新通知：\n\n“场部通知：十月十二日起停电三天，各班组早做准备。”",
                 "夜里铁生给娘写信：\n\n“十月五日，我们二班进了北沟，一天伐了四十根红松。”\n\n写完，他把信折好。",
                 "“九月初一。”孙桂芝说。"):
        assert not [f for f in _found(body) if "书内时间" in f.message], body


def test_a_long_line_of_dated_duty_fields_is_read_once() -> None:
    """Bounded: thousands of today's duty fields on one line give one finding a person, read in one pass."""
    line = "铁生看见：“" + "十月八日，值班：孙桂芝；复核：刘德海。" * 3000 + "”"
    found = _found(line)
    assert len(_about(found, "刘德海", "位置")) == 1
