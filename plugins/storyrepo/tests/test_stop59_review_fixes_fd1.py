"""Stop 59, fixer fd1: D1's documents round narrowed where the outside read (R59) found it broad.

Every sentence here is the reviewer's own counter-example (or a good line of D1's own tests kept): a run of narration
lines is no form (D1-1), a spoken plan's last clause is no signature (D1-3), 落款 named after a letter read is no
writing done (D1-5), a spoken line or a diary opening on today's date names acts done elsewhere or of the dead (D1-2),
and a letter signed with a lunar day in a Gregorian book is right (D1-4)."""

from __future__ import annotations

from test_continuity_documents import _about, _found


def _documents(body: str) -> list[str]:
    return [f.message for f in _found(body)]


# --- D1-1: lines of narration without a blank line between are no form; a signing act only at a foot ---

def test_narration_lines_without_blank_lines_are_no_form() -> None:
    for body in ("十月八日，天阴，要下雪。\n往年这时候都是赵老栓值夜，今年轮到铁生了。\n铁生裹紧棉袄出了门。",
                 "十月八日，天阴。\n铁生想起刘德海押运木头那年，雪也是这么大。",
                 "一九六二年十月八日，青松林场。\n刘德海押运的那车红松，到现在也没个信儿。"):
        assert not _documents(body), body


def test_a_form_of_short_field_lines_is_still_read() -> None:
    body = "孙桂芝念，铁生记。\n\n一九六二年十月八日下午，伐木二队班组会。\n地点：工棚。\n主持人：刘德海。\n出席：孙桂芝、王铁生。"
    assert _about(_found(body), "刘德海", "位置")
    assert _about(_found("场部的通讯员送来一张收条：\n\n“今收到青松林场红松款三百元整。十月八日，刘德海经手。”"), "刘德海", "位置")


# --- D1-3: a foot only in a quote framed as a document, its signature a name or a closing word ---

def test_a_spoken_plan_ending_on_a_later_day_is_no_notice() -> None:
    for body in ("孙桂芝说：“场部开会定下来了，十月十五，发工资。”",
                 "孙桂芝说：“我问过了，下个月，十一月三号，通车。”"):
        assert not _documents(body), body


def test_a_notice_issued_later_and_a_letter_written_now_still_read() -> None:
    assert [f for f in _found("场部门口贴出一张新通知，铁生挤进去看。\n\n“十月十二日，场部通知：各班组十五日前交齐工具。”")
            if "书内时间" in f.message]
    body = "夜里铁生趴在炕上给娘写信。\n\n“娘：林场活多，我身子好，冬天回去。儿铁生，十月五日。”\n\n写完，他把信折好，塞进枕头底下。"
    assert [f for f in _found(body) if "书内时间" in f.message]


# --- D1-5: DONE_WRITING opens what follows the quote; 落款 alone is a noun; a letter received is not written now ---

def test_a_letter_received_whose_signature_is_looked_at_is_not_written_now() -> None:
    letter = "邮递员送来一封信，铁生拆开看：\n\n“铁生：家里都好，勿念。娘，十月二日。”\n\n"
    for body in (letter + "看那落款，信在路上走了六天。",
                 letter + "落款是娘的名字，字是二舅代写的。",
                 "孙桂芝递过来一张条子：“明早五点出车。刘德海，十月七日。”铁生看了看落款，塞进兜里。"):
        assert not _documents(body), body


def test_a_note_carved_then_done_is_still_read() -> None:
    body = "铁生拿小刀在木牌上刻：\n\n“二号锯停用，锯齿崩了三个，等场部换新的。铁生，十月六日。”\n\n刻完，他把木牌挂回墙上。"
    assert [f for f in _found(body) if "书内时间" in f.message]


# --- D1-2: a ledger entry only in a quote framed as a document; acts at a distance or of the dead refused ---

def test_spoken_lines_opening_on_today_are_no_ledger() -> None:
    for body in ("孙桂芝说：“十月八日，赵老栓周年，咱去坟上看看。”",
                 "孙桂芝说：“十月八日，刘德海生日，咱给他捎包烟去。”",
                 "孙桂芝掰着指头算：“十月八日，刘德海该到哈尔滨了吧？”",
                 "孙桂芝说：“十月八日，刘德海来信说哈尔滨下雪了。”",
                 "“十月八日，刘德海经手的那批货，到今天还没对上账。”孙桂芝说。"):
        assert not _documents(body), body


def test_a_diary_or_log_telling_of_acts_elsewhere_or_of_the_dead_is_silent() -> None:
    for body in ("夜里，铁生在日记本上写：\n\n“十月八日，阴。赵老栓走了整一年，孙桂芝给他烧了纸。”",
                 "夜里，铁生在日记本上写：\n\n“十月八日，晴。刘德海来信，说哈尔滨下雪了。”",
                 "铁生翻开值班日志：“十月八日，刘德海请假回哈尔滨，孙桂芝替班。”"):
        assert not _documents(body), body


def test_a_ledger_read_out_still_puts_its_worker_at_work() -> None:
    body = "场长叫铁生把这两天的锯木账念一遍。\n\n“十月七日，二号锯，孙桂芝锯红松十根。十月八日：一号锯，赵老栓锯红松八根。”"
    hit = _about(_found(body), "赵老栓", "状态")
    assert hit and "赵老栓锯红松八根" in hit[0].excerpt


# --- D1-4: a foot with 初/廿/卅 or 正/冬/腊月 in a Gregorian book is a lunar day: not compared ---

def test_a_lunar_dated_letter_in_a_gregorian_book_is_silent() -> None:
    body = "夜里铁生趴在炕上给娘写信。\n\n“娘：林场活多，我身子好，冬天回去。儿铁生，九月初十。”\n\n写完，他把信折好，塞进枕头底下。"
    assert not _documents(body)


def test_framed_entries_a_form_and_a_foot_still_read() -> None:
    """The narrowing keeps the class: a diary's or a log's entry of an act done here, a form of field lines, a receipt's
    foot, a note in hand signed with a later day."""
    assert _about(_found("夜里，铁生在日记本上写：\n\n“十月八日，晴。刘德海锯了十根红松。”"), "刘德海", "位置")
    assert _about(_found("铁生翻开值班日志：“十月八日，刘德海带班，孙桂芝替班。”"), "刘德海", "位置")
    assert _about(_found("交班本上写着：\n\n十月八日夜班\n值班：孙桂芝\n复核：赵老栓"), "赵老栓", "状态")
    assert [f for f in _found("铁生接过条子：“明早五点出车。刘德海，十月十二日。”") if "书内时间" in f.message]
    assert not _found("孙桂芝说：“十月八日，赵老栓锯红松八根。”")  # spoken, no document's frame
