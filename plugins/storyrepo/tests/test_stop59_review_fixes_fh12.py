"""Stop 59's review fixes of H12's own-thing reading (fixer fh12, R59's H12-1): 我那只X where the words say it is
elsewhere, lost, asked back, in the card holder's hands, or the 我 is another's (an inner ‘…’ quote, a mimicry).

The sentences are the reviewer's own (R59), told in the holdings rounds' lighthouse (苏禾 holds 秒表 on her card); the
claims H12 was built for (我手上这只…, 我兜里那只…, 把我那只…拿来) stay caught. And T8's festival count (R59's T8-2, T8-3):
a count that is the subject of a 是-sentence names another day; a chapter's first paragraph under its heading, and a
scene after a spaced or ornament break, are read.
"""

from __future__ import annotations

import pytest

from test_continuity_time_eight import LUNAR_NOW, timed
from test_holdings_twelfth_round import _by, _held

NOT_IN_HAND = (
    "老周说：“我那只秒表啊，早当了。”",
    "老周说：“我那只秒表，早叫人偷了。”",
    "老周说：“我那只秒表，给苏禾了。”",
    "老周说：“谁瞧见我那只秒表了？”",
    "老周说：“我那只秒表哪儿去了？”",
    "老周说：“我那只秒表找不着了。”",
    "老周说：“我那只秒表在苏禾手里。”",
    "老周说：“我那只秒表搁在苏禾那儿修着。”",
    "老周说：“我那只秒表，苏禾替我收着呢。”",
    "老周说：“苏禾，把我那只秒表还我。”",
    "老周说：“苏禾，我那只秒表你用完了没有？”",
    "老周说：“你手上那只秒表，原本是我那只秒表。”",
    "老周说：“我那只秒表，我也好些年没见着了。”",
)
ANOTHERS_I = (
    "老周说：“苏禾老念叨‘我那只秒表’，耳朵都听出茧子了。”",
    "老周学着苏禾的腔调：“我那只秒表，一秒都不差！”",
)
CLAIMED = (
    "老周说：“莫看我手上这只秒表，掐得比钟还准。”",
    "老周拍了拍口袋，说：“我兜里那只秒表，一秒都不差。”",
    "老周说：“我那只上了弦的秒表，今早又慢了两秒。”",
    "老周说：“去，把我那只秒表拿来！”",
)


@pytest.mark.parametrize("body", NOT_IN_HAND)
def test_my_thing_said_to_be_elsewhere_lost_or_asked_back_is_no_claim(body: str) -> None:
    found = _held(body)
    assert not _by(found, "老周", "秒表"), (body, found)


@pytest.mark.parametrize("body", ANOTHERS_I)
def test_another_ones_i_repeated_or_mimicked_is_no_claim_of_the_speaker(body: str) -> None:
    found = _held(body)
    assert not _by(found, "老周", "秒表"), (body, found)


@pytest.mark.parametrize("body", CLAIMED)
def test_my_thing_in_hand_or_fetched_is_still_a_claim(body: str) -> None:
    found = _held(body)
    assert _by(found, "老周", "秒表"), (body, found)


@pytest.mark.parametrize("body", (
    "老周站起来，拍拍裤子上的灰，「去，把你那只秒表拿来，我给你换根链子。」",
    "老周说：“苏禾，把那只秒表还我。”",
))
def test_a_quote_in_corner_marks_or_opened_in_the_leads_clause_is_no_act_of_the_lead(body: str) -> None:
    found = _held(body)
    assert not _by(found, "老周", "秒表"), (body, found)


def test_the_lead_still_acts_after_the_quote_closes() -> None:
    found = _held("老周站起来，「走，」拿起秒表就出了门。")
    assert _by(found, "老周", "秒表"), found


@pytest.mark.parametrize(("body", "now"), (
    ("重阳过了三天，便是娘的忌日。", "光绪十年九月初一"),
    ("中秋过了三天，才是姚家娶亲的日子。", "光绪十年八月初一"),
))
def test_a_festival_count_naming_another_day_is_no_today(body: str, now: str) -> None:
    assert timed(body, now) == [], body


@pytest.mark.parametrize("body", (
    "# 第三章 龙舟\n\n端午过了才两天，河沿上的龙舟还没拖上岸。",
    "第三章\n\n端午过了才两天，河沿上的龙舟还没拖上岸。",
    "卞玉珍吹了灯。\n\n……\n\n端午过了才两天，河沿上的龙舟还没拖上岸。",
    "卞玉珍吹了灯。\n\n◆\n\n端午过了才两天，河沿上的龙舟还没拖上岸。",
    "卞玉珍吹了灯。\n\n* * *\n\n端午过了才两天，河沿上的龙舟还没拖上岸。",
))
def test_a_festival_count_under_a_heading_or_after_any_break_is_read(body: str) -> None:
    assert any("端午过了才两天" in m for m in timed(body, LUNAR_NOW)), body


def test_a_festival_count_after_a_plain_paragraph_stays_unread() -> None:
    assert timed("卞玉珍吹了灯。\n\n端午过了才两天，河沿上的龙舟还没拖上岸。", LUNAR_NOW) == []
