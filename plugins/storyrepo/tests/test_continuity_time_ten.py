"""The tenth time round's readings (issue 30, task T10 at stop 61): 书内时间 against a coming said on a day ahead by a
comer the draft names by description, and against a span of months since a dated death.

连续性-盲评四十八 and 四十九 (blind last stop, development since) missed a coming said 明朝/后天 of a comer the cards do not
name: the people of a body (a bureau's men, whose inspection party the world dates a week on) and a visitor named by his
surname and a title, a city before it (the world dates his coming with the manager ten days on); and a death's span said in
half a month (才半个月) four months after it. Read as grammar, not as the books' words:

- a body's people (:data:`PEOPLE_SENT` after the body and 的, 来的, 派来的) are the body: any party of it the world dates
  coming (a 检查组 of the 建设局) is theirs;
- a surname with an address or a title (:data:`SURNAME_ADDRESS`), a place of the book or words with 的 before it, names a
  person of that surname: a card's when one card has it, else a name the dated event gives right before the coming;
- a month or half said since a death (半个月, 个把月, 两个多月: :data:`MONTHS_AS_DAYS`, a month thirty days) is a count of
  days said loosely (:data:`MONTH_SLACK`).

Written here in a book none of the sets use: the time rounds' 民国 cannery (:func:`continuity_helpers.cannery_time`).
"""

from __future__ import annotations

import pytest

from lw_storyrepo.continuity import DAYS_PASSED, MONTHS_AS_DAYS, World, _described_comer

import continuity_helpers

LORE = ("民国二十年十月二十日县建设局派检查组到罐头厂查锅炉。省城永丰号的黄守义在上海办货，十月十八日坐船回县里订货。"
        "民国二十年十月二十二日商会验货组到罐头厂验货。")
"""The cannery's dated comings: the 建设局's inspection party on the 20th, 黄守义 (no card) back on the 18th, the 商会's
party on the 22nd."""


def timed(body: str, now: str) -> list[str]:
    """The 书内时间 findings of ``body`` told by 柯满 at the cannery at ``now`` with :data:`LORE`'s comings dated."""
    return [f.message for f in continuity_helpers.cannery_time(body, now, LORE)]


@pytest.mark.parametrize("body", [
    "韦先生把算盘一推：“县建设局的人后天就来查锅炉了，炉膛给我掏干净。”",
    "“建设局派来的同志明天就到，”韦先生说，“账本都摆齐。”",
    "“建设局那边的干部大后天就下来，锅炉房先刷一遍。”",
])
def test_a_bodys_people_coming_on_another_day_than_its_party_fires(body: str) -> None:
    assert any("建设局派检查组到罐头厂" in m and "10月20日" in m for m in timed(body, "民国二十年十月十三日"))


@pytest.mark.parametrize("body", [
    "韦先生说：“省城的黄先生明天就到，货单要誊一份。”",
    "“黄老板大后天就回来，”韦先生说，“你把样罐擦亮。”",
    "“永丰号的黄掌柜后天就到了。”",
])
def test_a_titled_surname_coming_on_another_day_than_the_event_naming_that_surname_fires(body: str) -> None:
    assert any("坐船回县里订货" in m and "10月18日" in m for m in timed(body, "民国二十年十月十二日"))


@pytest.mark.parametrize("body, now", [
    # the day right: the party comes on the 20th, the man on the 18th
    ("“县建设局的人大后天就来查锅炉了。”", "民国二十年十月十七日"),
    ("“省城的黄先生明天就到。”", "民国二十年十月十七日"),
    # a body the world dates no coming of; a surname no event names; people of no body
    ("“税局的人明天就到。”", "民国二十年十月十三日"),
    ("“林先生明天就到。”", "民国二十年十月十三日"),
    ("“那个人明天就到，客人后天就到。”", "民国二十年十月十三日"),
    # words before the surname that are neither a place nor end in 的 (that one; 御史老爷-like offices)
    ("“那位黄先生明天就到。”", "民国二十年十月十三日"),
    # the coming told as gone by (前天就来过了) is no day ahead
    ("“建设局的人前天就来过了。”", "民国二十年十月十三日"),
])
def test_a_described_comer_on_the_right_day_or_none_named_is_silent(body: str, now: str) -> None:
    assert timed(body, now) == []


@pytest.mark.parametrize("body, now", [
    # not …，锅炉房就又生了火: a span before a clause telling another event by it is the time to that event (ft10, stop 61)
    ("老聂出事才半个月，锅炉房的门还锁着。", "民国二十年五月初一"),
    ("聂师傅走了两个多月，柯满还常梦见他。", "民国二十年正月二十"),
    ("老聂死了个把月了，锅炉房没人敢进。", "民国二十年六月初一"),
])
def test_months_since_a_dated_death_the_days_do_not_allow_fire(body: str, now: str) -> None:
    assert any("老聂死于1月9日" in m for m in timed(body, now))


@pytest.mark.parametrize("body, now", [
    ("老聂走了三个月，锅炉房的门还锁着。", "民国二十年四月初十"),
    ("老聂出事才半个月，锅炉房就又生了火。", "民国二十年正月二十四"),
    ("聂师傅走了两个多月，柯满还常梦见他。", "民国二十年三月二十"),
    # someone else's going, a journey of months, a month no death is counted from
    ("韦先生的儿子走了半个月了。", "民国二十年五月初一"),
    ("老聂当年走了半个月的山路才到县里。", "民国二十年五月初一"),
    ("砚台里的墨，从没有一个月浓淡一样。", "民国二十年五月初一"),
])
def test_months_since_a_death_the_days_allow_or_no_death_counted_are_silent(body: str, now: str) -> None:
    assert timed(body, now) == []


def test_a_month_said_loosely_is_read_as_days() -> None:
    m = DAYS_PASSED.search("出事才半个月")
    assert m is not None and MONTHS_AS_DAYS[m.group("months")] == 15
    m = DAYS_PASSED.search("走了两个多月")
    # t11's round (stop 62): one count grammar for every unit (天, 礼拜, 月, 年…): the count is "n", the 多 after 个 "more2"
    assert m is not None and (m.group("n"), m.group("more2"), m.group("unit")) == ("两", "多", "月")
    assert DAYS_PASSED.search("走了两个月的路") is None


def test_a_titled_surname_two_people_share_names_no_one() -> None:
    cards = {"黄守义": {"姓名": "黄守义", "状态": "在世"}, "黄德明": {"姓名": "黄德明", "状态": "在世"},
             "柯满": {"姓名": "柯满", "状态": "在世"}}
    world = World(cards, {n: n for n in cards}, {"罐头厂", "上海"})
    assert _described_comer(world, "黄先生") is None
    one = World({"黄守义": cards["黄守义"]}, {"黄守义": "黄守义", "黄老板": "黄守义"}, {"罐头厂", "上海"})
    for who in ("黄先生", "上海黄先生", "永丰号的黄先生"):
        found = _described_comer(one, who)
        assert found is not None and found.pattern == "黄守义"
    # words before the surname that are neither a place of the book nor end in 的: no description read
    assert _described_comer(one, "省城黄先生") is None and _described_comer(one, "那位黄先生") is None
