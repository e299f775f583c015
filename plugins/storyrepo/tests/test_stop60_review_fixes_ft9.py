"""Stop 60's review of T9's 书内时间 round (R60, findings T9-1 and T9-2), narrowed by fixer ft9.

T9-1: a quote ending on a full date alone (:data:`DATE_FOOT`) was read as the day a written piece was made whenever any
word of :data:`DOCUMENT_FRAME` stood before it — 看 of 看了看 before a saying verb included — and a piece whose date is
by its nature a day to come (a promissory note falling due, a ticket, an invitation) was read the same. Now the frame
is the sentence bringing the quote in, naming a writing or a written piece (:data:`PIECE_FRAME`), its last clause no
word of saying (:data:`SPOKEN_INTRO`); no piece naming a due day or a day set (:data:`DUE_WORDS`) nor one of the kinds
dated the day they are used (:data:`DUE_PIECES`) is read; and since a date alone says nothing of who dated it, a later
foot is a warning.

T9-2: a record's own date after its label or with its weather (:func:`_other_day_this_year`) was read as today's record
when the paragraph says it is filled for a day to come (先写明天的安排：…; 把明天的出货单填好). Now a later day is not read
when the paragraph before it names a day or a plan to come (:data:`AHEAD_WORDS`).

ELAPSED (a note of the review, on main before T9): a count opening on no death verb (一晃, 到如今) beside a dead
one named was read as since the death though the sentence counts from another event; now it needs the death told or
mourned in the sentence (:data:`OF_A_DEATH`).

The counter-example sentences are the reviewer's own (a 民国 cannery, not any set's book); the ones marked "ft9" are
mine, siblings of the same shapes.
"""

from __future__ import annotations

import pytest

from lw_storyrepo.findings import ERROR, WARN

import continuity_helpers

NOW = "民国二十年十月十三日"


def timed(body: str, now: str = NOW) -> list[tuple[str, str]]:
    """The 书内时间 findings (severity, message) of ``body`` told by 柯满 at the cannery at ``now``."""
    return [(f.severity, f.message) for f in continuity_helpers.cannery_time(body, now)]


@pytest.mark.parametrize("body", [
    # T9-1 (reviewer): a date closing speech after 看了看 and a saying verb
    "韦先生看了看柯满，说：“验货的日子定下来了，货要在这之前全部装箱封好，民国二十年十月二十日。”",
    # T9-1 (reviewer): a promissory note carries the day it falls due
    "韦先生开了张期票，票上写着：“凭票即付柯满大洋二百元整，到期照付不误，民国二十年十一月一日。”",
    # T9-1 (reviewer's harness): an invitation written today ends on the feast's day
    "韦先生把请帖写好了，请帖上写着：“谨订于十月二十日午刻洁樽候光，民国二十年十月二十日。”",
    # ft9: a ticket carries the day of its sailing (the body long enough to be read)
    "韦先生买了两张船票，船票上写着：“上海至汉口，官舱两位，民国二十年十月十九日。”",
    # ft9: speech after a written piece named in the sentence before (the frame is the quote's own sentence)
    "韦先生把出货单收进抽屉。他想了想，对柯满说：“货要在这之前全部装箱封好，民国二十年十月二十日。”",
    # ft9: a note naming the day it is to be paid back
    "韦先生写了张借条，条上写着：“今借到柯满大洋二十元，十日内归还，民国二十年十月二十三日。”",
])
def test_a_date_closing_speech_or_a_piece_due_ahead_is_no_made_day(body: str) -> None:
    assert not timed(body)


@pytest.mark.parametrize("body, now", [
    # T9's own catches' shapes: a stub written now, dated ahead (光绪元年; a goods ticket's stub read aloud)
    ("韦先生提笔写了收条，撕下来递过去。柯满拿存根登簿，存根上写着：“收关平银二十两，光绪元年腊月十一日。”", "光绪元年腊月初八"),
    ("韦先生写好了货票。柯满念了一遍票根：“橘子罐头二百箱，民国二十年十月十九日。”", NOW),
    # ft9: a receipt written with 写道 (道 after a writing verb is no saying)
    ("柯满在收条上写道：“收到韦先生大洋二十元，民国二十年十月十九日。”", NOW),
])
def test_a_piece_written_now_ending_on_a_later_date_alone_still_warns(body: str, now: str) -> None:
    found = [(s, m) for s, m in timed(body, now) if "落的日子" in m]
    assert found and all(s == WARN for s, _ in found)


@pytest.mark.parametrize("body", [
    # T9-2 (reviewer): the log's entry is tomorrow's plan, said before the colon
    "柯满翻开值班日志，先写明天的安排：民国二十年十月十四日，晴，锅炉检修。",
    # T9-2 (reviewer): a form filled ahead for tomorrow's shipment, the paragraph says so
    "韦先生让柯满先把明天的出货单填好。柯满一笔一画地写：“日期：民国二十年十月十四日，品名：橘子罐头，二百箱。”",
    # ft9: the plan said in the paragraph before a log's head
    "柯满翻开值班日志，把后天的计划先写上：\n\n民国二十年十月十五日，晴，锅炉检修。",
])
def test_a_record_filled_for_a_day_to_come_is_silent(body: str) -> None:
    assert not timed(body)


@pytest.mark.parametrize("body", [
    # T9's catches' shapes stay: a form's own date field filled today with a later day; a log's head with weather
    "韦先生把出货单摊在桌上：“往后你来填。”\n\n他一笔一画地写：“日期：民国二十年十月十五日，品名：橘子罐头，二百箱。”",
    "柯满翻开值班日志新的一页，端端正正写上：民国二十年十月十四日，晴。底下记锅炉的气压。",
    # ft9: an earlier day is read as before, whatever the paragraph plans
    "柯满翻开值班日志，想着明天的安排，写上：民国二十年十月十一日，晴，锅炉检修。",
])
def test_a_record_filled_today_dated_another_day_still_fires(body: str) -> None:
    found = timed(body)
    assert found and all(s == ERROR for s, _ in found)


@pytest.mark.parametrize("body", [
    # ELAPSED (reviewer, pre-existing on main): a count since another event the sentence names, the dead named in it
    "聂师傅带我进厂，一晃就十年了。",
    "聂师傅教我封罐，到如今整整十年了。",
])
def test_a_count_since_another_event_beside_the_dead_is_silent(body: str) -> None:
    assert not timed(body)


@pytest.mark.parametrize("body", [
    # ft9: the same counts beside the death told or mourned still fire (nine months since 老聂 died)
    "聂师傅走后，一晃就两年了。",
    "聂师傅死在锅炉房，到如今整整两年了。",
    "一晃两年多了，聂师傅的灵前，除了柯满，没人来上过香。",
    "离聂师傅出事，整整一年了。",
])
def test_a_count_beside_the_death_still_fires(body: str) -> None:
    assert any("才9个月" in m for _, m in timed(body))
