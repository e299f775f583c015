"""The reviewer's counter-examples to P3's 位置 round (stop 60, findings P3-1 … P3-10), narrowed by fixer fp3.

The world is the one of ``test_continuity_places_ten.py``: 王铁生 (the point of view) and 孙桂芝 at 青松林场, 刘德海
(老刘) far off in 哈尔滨, the day 1962年10月8日. Every sentence is the reviewer's own, written for the review; none comes
from a labelled draft.
"""

from __future__ import annotations

import re

import pytest

from lw_storyrepo import continuity
from lw_storyrepo.continuity import far_places

from test_continuity_places_ten import TODAY, _found, _world

# --- P3-9: a long quote of many reports is read once per sentence ---

class _Counting:
    """A far-words pattern that counts its searches."""

    def __init__(self) -> None:
        self.searches = 0

    def search(self, text: str) -> None:
        self.searches += 1
        return None


def test_a_long_quote_reads_each_sentence_once() -> None:
    quote = "“" + "老刘晌午在哈尔滨等你" * 300 + "那是昨天的事”"
    reported_at = re.compile(continuity.REPORTED_AT.replace("WHO", "老刘"))
    far = _Counting()
    assert continuity._first_reported_here(_world(), reported_at, quote, far, "青松林场") is None  # type: ignore[arg-type]
    assert far.searches == 1  # one sentence, read once though 300 reports sit in it


def test_a_long_quote_still_finds_its_report() -> None:
    body = "桂芝掀开门帘：“" + "老刘晌午在工棚门口等你。" * 200 + "”"
    assert _found(body)
    body = "桂芝掀开门帘：“" + "老刘晌午在工棚门口等你" * 200 + "那是昨天的事”"
    assert not _found(body)


# --- P3-8: a busy one's 走不开 or 不回 is no journey; only a feast one travels home for is ---

@pytest.mark.parametrize("text, place", [("刘德海在供销社当会计，月底都走不开。", "供销社"),
                                         ("刘德海在场部管账，年底也走不开。", "场部"),
                                         ("刘德海在场部食堂掌勺，过节都不回家。", "场部"),
                                         ("刘德海在供销社当会计，一年四季都不回老家。", "供销社")])
def test_a_busy_one_is_no_journey_away(text: str, place: str) -> None:
    assert place not in far_places([text], {"供销社", "青松林场", "场部"})


@pytest.mark.parametrize("text", ["刘德海在哈尔滨学开拖拉机，过年也回不来。", "刘德海在哈尔滨学习，中秋都回不来。"])
def test_not_back_even_by_a_feast_stays_far(text: str) -> None:
    assert "哈尔滨" in far_places([text], {"青松林场", "哈尔滨"})


# --- P3-10: 当天/当日 is that same day, any day told — no document of today ---

@pytest.mark.parametrize("body", ["铁生翻出去年出事那天的派工单，当天的派工单上写着：“跟车：刘德海。”",
                                  "当天夜里，场部的值班表是这样排的：值班：刘德海。那是三年前的事了。"])
def test_that_same_day_is_no_document_of_today(body: str) -> None:
    assert not _found(body)


# --- P3-4: a document noun of today is a whole word, right before where it is written ---

@pytest.mark.parametrize("body", ["今天桂芝的表情不对，她低声说：“这礼拜本该老刘值班。”",
                                  "今天桂芝单独找我，她说：“这礼拜本该老刘值班。”"])
def test_a_character_of_another_word_is_no_document(body: str) -> None:
    assert not _found(body)


# --- P3-3: a leading 今天 dates a form line only, not a paragraph or a speech ---

@pytest.mark.parametrize("body", ["今天收到一张汇款单，汇款人：刘德海。铁生把单子揣进怀里。",
                                  "桂芝叹了口气：“今天本该老刘值班。他人在哈尔滨，只好我顶上。”"])
def test_a_paragraph_or_a_speech_opening_on_today_is_no_form(body: str) -> None:
    assert not _found(body)


@pytest.mark.parametrize("body", ["铁生抬头看了看墙上：“今日跟车：刘德海；看秤：孙桂芝。”",
                                  "今日跟车：刘德海。",
                                  "铁生一进门，今天的派工单上写着：“跟车：刘德海。”"])
def test_a_form_line_of_today_still_dates_its_roles(body: str) -> None:
    assert _found(body)


# --- P3-1: a bare 今天, the progressive 在, a guess or a town named by its kind is no report of here ---

@pytest.mark.parametrize("body", ["桂芝掀开门帘：“老刘今天在厂里加班，顾不上给家里写信。”",
                                  "桂芝叹了口气：“老刘今天在厂里不知道吃上饭没有。”",
                                  "桂芝掀开门帘：“老刘今儿在学校里考试，咱们替他念叨念叨。”",
                                  "桂芝掀开门帘：“老刘今天在忙着考试，顾不上给家里写信。”",
                                  "桂芝掀开门帘：“老刘今天在宿舍里写家信呢，他媳妇说的。”",
                                  "桂芝摇摇头：“老刘晌午还在省城开会，哪能跑到这儿来。”",
                                  "桂芝掀开门帘：“老刘晌午在忙着考试，顾不上给家里写信。”",
                                  "桂芝叹了口气：“老刘晌午在车间里，不知道吃上饭没有。”"])
def test_no_report_of_here(body: str) -> None:
    assert not _found(body)


@pytest.mark.parametrize("body", ["桂芝掀开门帘：“老刘晌午在工棚门口等你，说有话跟你讲。”",
                                  "桂芝掀开门帘：“老刘今早在青松林场找你。”"])
def test_a_report_of_here_still_fires(body: str) -> None:
    assert _found(body)


# --- P3-2: money, absence, honour and former-holder fields are no post held here ---

@pytest.mark.parametrize("body", ["铁生接过汇款单，上头写着：“十月八日，汇款人：刘德海，金额：二十元。”",
                                  "铁生填好汇款单：“十月八日，收款人：刘德海，汇款人：王铁生。”",
                                  "铁生翻开点名册，上头写着：“十月八日，应到十二人，实到十一人，未到：刘德海。”",
                                  "铁生看场部的通知：“十月八日，表彰：刘德海。”",
                                  "今天场部贴出了光荣榜，先进生产者：刘德海、孙桂芝。",
                                  "铁生接过调令，上头写着：“十月八日，原任检尺员：刘德海，现任检尺员：孙桂芝。”"])
def test_a_field_of_money_absence_honour_or_a_former_holder_is_no_post(body: str) -> None:
    assert not _found(body)


def test_a_post_field_still_fires() -> None:
    assert _found("铁生接过单子，上头写着：“十月八日，领料人：王铁生，发料人：刘德海。”")


# --- P3-5: a name found on a list or reached by a line is no meeting ---

@pytest.mark.parametrize("body", ["桂芝掀开门帘：“我在光荣榜上找着老刘了，他评上了先进。”",
                                  "桂芝掀开门帘：“我在花名册里查到老刘了，他分在三队。”",
                                  "桂芝掀开门帘：“我在邮局联系到老刘了，他说过年回不来。”",
                                  "桂芝掀开门帘：“我在名单上看到老刘了。”"])
def test_a_list_or_a_line_is_no_meeting(body: str) -> None:
    assert not _found(body)


def test_a_meeting_at_a_place_still_fires() -> None:
    assert _found("桂芝掀开门帘：“我在工棚门口找着老刘了。”")
