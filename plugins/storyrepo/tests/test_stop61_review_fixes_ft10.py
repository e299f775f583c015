"""The review of T10's time round (stop 61, R61's T10 findings), each counter-example a test: T10-1 (a span since a
death that measures to a later event told right after it — …就改嫁了, 半个月后 — is no count up to today), T10-2 (a
described comer — a body's people, a titled surname — is the dated party only on the dated errand, and a titled
surname only with nothing, a place of the book or the dated event's own words before it), T10-3 (the far-letter
reading of :func:`_too_soon` still reads its own SENT_FROM words).

Written in the time rounds' 民国 cannery (:func:`continuity_helpers.cannery_time`) and the fifth round's tailor's shop."""

from __future__ import annotations

import pytest

import continuity_helpers
from test_continuity_fifth_round import about, continuity
from test_continuity_time_ten import timed

AFTER_THE_DEATH = "民国二十年十月二十二日"
"""Nine months after 老聂's death (正月初九): no span of a month or half is right till now."""


@pytest.mark.parametrize("body", [
    "韦先生叹了口气：“老聂走了才半个月，厂里就换了新司炉。”",
    "老聂死了三个多月，他媳妇就改嫁了。",
    "老聂走了个把月，厂里才把他的铺盖卷寄回乡下。",
    "老聂出事半个月后，厂里来了新司炉。",
    "老聂死了两个月以后，他媳妇才搬走。",
    "老聂死了才十天，他媳妇就回了娘家。",
    "老聂死了十天后，他媳妇就回了娘家。",
])
def test_a_span_since_a_death_measured_to_a_later_event_is_silent(body: str) -> None:
    assert [f.message for f in continuity_helpers.cannery_time(body, AFTER_THE_DEATH)] == []


@pytest.mark.parametrize("body", [
    # the span closing its clause, or the sentence, or a clause of what still holds: a count up to today
    "老聂出事才半个月，柯满走到锅炉房门口腿还是软的。",
    "老聂死了三个多月了，他媳妇就改嫁了。",
    "老聂走了两个多月。",
    # a rebuke to the one spoken to: what they did is of today
    "韦先生拍了桌子：“老聂走了才半个月，你就把他的车位让给别人？”",
])
def test_a_span_since_a_death_up_to_today_still_fires(body: str) -> None:
    assert any("老聂死于1月9日" in f.message for f in continuity_helpers.cannery_time(body, AFTER_THE_DEATH))


@pytest.mark.parametrize("body", [
    "韦先生说：“建设局的人明天就来收电灯费，钱先备好。”",
    "韦先生说：“修水管的黄师傅明天就来，你给他打下手。”",
    "韦先生说：“隔壁的黄师傅明天就来借梯子。”",
    "韦先生说：“黄老板明天就来借梯子。”",
])
def test_a_described_comer_on_another_errand_or_described_as_someone_else_is_silent(body: str) -> None:
    assert timed(body, "民国二十年十月十三日") == []


@pytest.mark.parametrize("body, event", [
    ("韦先生把算盘一推：“县建设局的人后天就来查锅炉了，炉膛给我掏干净。”", "县建设局派检查组到罐头厂"),
    ("“建设局那边的干部大后天就下来，锅炉房先刷一遍。”", "县建设局派检查组到罐头厂"),
    ("韦先生说：“省城的黄先生明天就到，货单要誊一份。”", "坐船回县里订货"),
    ("“永丰号的黄掌柜后天就回来订货了。”", "坐船回县里订货"),
    ("“黄老板大后天就回来，”韦先生说，“你把样罐擦亮。”", "坐船回县里订货"),
])
def test_a_described_comer_on_the_dated_errand_or_none_said_still_fires(body: str, event: str) -> None:
    assert any(event in m for m in timed(body, "民国二十年十月十三日"))


@pytest.mark.parametrize("body", [
    "阿福递过一封信，说：“这是阿九昨儿夜里才在汉口写下的。”",
    "钱老板拆开信看了看：“这信是昨天才在汉口寄出的。”",
])
def test_a_letter_written_yesterday_far_away_fires(body: str) -> None:
    assert about("位置", continuity(body))


def test_a_letter_written_long_ago_far_away_is_silent() -> None:
    assert not about("位置", continuity("阿福递过一封信，说：“这是阿九半个月前在汉口写下的。”"))
