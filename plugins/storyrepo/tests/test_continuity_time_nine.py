"""The ninth time round's readings (issue 30, task T9 at stop 60): 书内时间 against a document's own date, a count of
time since a dated death, and a day named ahead for a coming the world dates.

连续性-盲评四十六 and 四十七 (blind last stop, development since) missed a record filled today dated two days on (a shift
report's 日期： field), a ticket's stub written today ending on a date three days on (a reign's first year, 元年, which
no reading took for a year), 整整一年 since a death seven months old said after 出事 and a comma, and a party of
inspectors coming down (下来) on 大后天 to an inspection the world dates ten days on. Read as facts of writing and of the
calendar, not the books' words:

- 元年 is a reign's year 1 (:func:`book_time`): 乾隆元年, 民国元年, 光绪元年;
- a record's own date (after a form's own label, :data:`DATE_LABELS`, or with the weather after it) written today is
  not a day still to come; a written piece ending on its full date alone (:data:`DATE_FOOT`) is not dated ahead either;
- a count said exactly (:data:`EXACTLY`: 整整, 足足) allows a month's slack, after any verb of a death (:data:`DEATH_VERBS`);
- a coming is any doing that opens on one (:data:`COMING_ACT`: 下来, 下队, 下乡, 赶到, 登门), not only 到/来/回.

Written here in books none of the sets use: a 民国 cannery, a 光绪 customs post, a 公元 1950s surveying team and a
lumber camp.
"""

from __future__ import annotations

import pytest

from lw_storyrepo.continuity import COMING_ACT, DATE_FOOT, book_time

import continuity_helpers

LORE = continuity_helpers.CANNERY_LORE


def timed(body: str, now: str, lore: str = LORE) -> list[str]:
    """The 书内时间 findings of ``body`` told by 柯满 at the cannery at ``now`` (:func:`continuity_helpers.cannery_time`)."""
    return [f.message for f in continuity_helpers.cannery_time(body, now, lore)]


@pytest.mark.parametrize("text, year", [("乾隆元年三月十三", ("乾隆", 1)), ("民国元年五月初三", ("民国", 1)),
                                        ("光绪元年腊月初八", ("光绪", 1)), ("公元1911年10月10日", ("公元", 1911))])
def test_a_reigns_first_year_is_its_year_one(text: str, year: tuple[str, int]) -> None:
    read = book_time(text)
    assert read is not None and (read[0], read[1][0]) == year


@pytest.mark.parametrize("body, now", [
    # a form's own date field filled today with a day two days on (Chinese numerals, a 民国 year)
    ("韦先生把出货单摊在桌上：“往后你来填。”\n\n他一笔一画地写：“日期：民国二十年十月十五日，品名：橘子罐头，二百箱。”",
     "民国二十年十月十三日"),
    # the same field labelled 填表日期, Arabic numerals, a 公元 year
    ("测量队的记录本摊在帐篷里，柯满一笔一画地写：“填表日期：公元1956年8月20日，测站三号，高程四百米。”",
     "公元1956年8月18日"),
    # a log's head with its weather after the date, a day on
    ("柯满翻开值班日志新的一页，端端正正写上：民国二十年十月十四日，晴。底下记锅炉的气压。", "民国二十年十月十三日"),
])
def test_a_record_filled_today_dated_ahead_fires(body: str, now: str) -> None:
    assert any("本章的书内时间" in m for m in timed(body, now))


@pytest.mark.parametrize("body, now", [
    # a receipt written now, its stub ending on its date alone, a 光绪元年 day three days on
    ("韦先生提笔写了收条，撕下来递过去。柯满拿存根登簿，存根上写着：“收关平银二十两，光绪元年腊月十一日。”", "光绪元年腊月初八"),
    ("韦先生写好了货票。柯满念了一遍票根：“橘子罐头二百箱，民国二十年十月十九日。”", "民国二十年十月十三日"),
])
def test_a_piece_ending_on_its_date_alone_dated_ahead_fires(body: str, now: str) -> None:
    assert any("落的日子" in m for m in timed(body, now))
    assert DATE_FOOT.search("收关平银二十两，光绪元年腊月十一日。") is not None


@pytest.mark.parametrize("body, now", [
    # today's own date, in the field and alone at the foot
    ("他一笔一画地写：“日期：民国二十年十月十三日，品名：橘子罐头，二百箱。”出货单上记着。", "民国二十年十月十三日"),
    ("存根上写着：“收关平银二十两，光绪元年腊月初八日。”", "光绪元年腊月初八"),
    # an old slip, dated before today, read (its date is another reading's, and it is old)
    ("柯满翻出一张旧出货单，日期一栏：民国十九年四月二日。他看了半天。", "民国二十年十月十三日"),
    # a day still to come named by another label (a date to deliver by), or in a plan after a bare colon
    ("韦先生一笔一画地写：“交货日期：民国二十年十月二十日，品名：橘子罐头。”出货单写好了。", "民国二十年十月十三日"),
    ("柯满在本子上记下：民国二十年十月二十二日，验货组来。", "民国二十年十月十三日"),
    # a piece ending on another year's date
    ("存根上写着：“收关平银二十两，光绪二年腊月十一日。”", "光绪元年腊月初八"),
    # a spoken date ending speech, no written piece framed
    ("韦先生说：“验货定了，民国二十年十月二十二日。”", "民国二十年十月十三日"),
])
def test_a_record_of_today_another_year_another_label_or_speech_is_silent(body: str, now: str) -> None:
    assert not timed(body, now)


@pytest.mark.parametrize("body", [
    "离聂师傅出事，整整一年了。柯满盯着锅炉的压力表。",
    "聂师傅走了，足足一年了。",
    "老聂死了整整一年了，锅炉房还是那个样子。",
])
def test_a_count_said_exactly_since_a_death_months_old_fires(body: str) -> None:
    # the death in the first month, now the tenth: nine months, no whole year
    assert any("才9个月" in m for m in timed(body, "民国二十年十月十三日"))


@pytest.mark.parametrize("body, now", [
    # a year and a month on: 整整一年 holds
    ("离聂师傅出事，整整一年了。", "民国二十一年二月初九"),
    # a loose count keeps its half year's slack (快一年, 一年了 without 整整)
    ("聂师傅走了快一年了。", "民国二十年十月十三日"),
    # told of another one, or as a memory in another year
    ("离隔壁厂出事，整整一年了。", "民国二十年十月十三日"),
])
def test_a_count_that_fits_or_is_loose_or_of_no_dead_is_silent(body: str, now: str) -> None:
    assert not [m for m in timed(body, now) if "个月" in m]


@pytest.mark.parametrize("body", [
    "“箱子都码齐，”韦先生说，“验货组大后天就下来了。”",  # the book's own word for it would be 到; 下来 comes down
    "“验货组后天就赶到了，账要对清。”",
    "“大后天验货组就下来，都手脚麻利点。”",
])
def test_a_coming_by_any_verb_of_coming_on_a_day_ahead_fires(body: str) -> None:
    assert any("离那天还有9天" in m for m in timed(body, "民国二十年十月十三日"))


@pytest.mark.parametrize("body", [
    "“验货组下礼拜就下来了。”韦先生说。",  # no day counted
    "“验货组大后天就下来了。”",  # the right day
    "“柯满明天就下乡了。”",  # someone the book dates nothing of
])
def test_a_coming_on_its_day_or_uncounted_or_undated_is_silent(body: str) -> None:
    assert not timed(body, "民国二十年十月十九日" if "大后天" in body else "民国二十年十月十三日")


def test_a_coming_is_any_doing_that_opens_on_one() -> None:
    for doing in ("下来", "下队", "下乡", "赶到", "登门", "到了", "回京"):
        assert COMING_ACT.match(doing), doing
    for doing in ("下棋", "下班", "走了", "出发"):
        assert not COMING_ACT.match(doing), doing
    # a world's event of a party coming down to a unit reads as their coming (下乡 was in no book)
    lore = "民国二十年十月二十二日县里工作组下乡。"
    assert any("离那天还有9天" in m for m in timed("“工作组大后天就下来了。”", "民国二十年十月十三日", lore))
