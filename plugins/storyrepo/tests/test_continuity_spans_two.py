"""The eleventh time round's readings (issue 30, task t11 at stop 62): 书内时间 against a span since a dated death said in
any unit, and against a coming on a day ahead said of one named by surname and post.

连续性-盲评五十 and 五十一 (blind last stop, development since) missed a span since a death said in weeks (a squad leader
"gone only a week" forty-seven days on), and a coming said the next day of an officer named by his surname and post, set off
by a comma (the timeline dates his coming nine days on, naming him by post and full name). Read as grammar, not as the
books' words:

- a count since a death (:data:`DAYS_PASSED`) is said in any unit of :data:`SPAN_UNITS` (天, 礼拜, 星期, 周, 旬, 月, 年) or
  a span of :data:`MONTHS_AS_DAYS` (半拉月, 个把礼拜, 年把), after any verb of dying (:data:`DEATH_VERBS`, :data:`DYING`:
  牺牲, 殁, 咽气; not 去了, r62-2), under a bound (不到, 还不到) or not; a span before a clause telling another event by it is still
  one up to today when the clauses after tell the dead one's trace as it still is (:data:`STILL_AS_IT_WAS`);
- a comer named by surname and post (戴稽查 in the book; here 韩督察, 聂股长) is the one the book introduces by that post
  before a full name of the surname (:func:`_posted_surname`), with or without a comma before the day word
  (:data:`COME_ON_DAY`).

Written here in a book none of the sets use: the time rounds' 民国 cannery (:func:`continuity_helpers.cannery_time`), its
dead 老聂 gone on 正月初九.
"""

from __future__ import annotations

import pytest

from lw_storyrepo.continuity import DAYS_PASSED, World, _span_days, arrivals_of

import continuity_helpers

LORE = "县里的督察韩振声民国二十年十月二十日坐船来罐头厂查账。"
"""The cannery's dated coming: the county's inspector 韩振声, by post and full name, on the 20th of the tenth month."""


def timed(body: str, now: str, lore: str = continuity_helpers.CANNERY_LORE) -> list[str]:
    """The 书内时间 findings of ``body`` told by 柯满 at the cannery at ``now``."""
    return [f.message for f in continuity_helpers.cannery_time(body, now, lore)]


@pytest.mark.parametrize("said, days", [
    ("老聂没了才一个礼拜", 7), ("老聂走了俩星期", 14), ("老聂殁了不到一旬", 10), ("老聂牺牲还不到一年", 365),
    ("老聂死了一年半", 547), ("老聂没了半拉月", 15), ("老聂殁了个把礼拜", 7), ("老聂走了两个多月", 60), ("老聂死了三周", 21),
])
def test_a_span_in_any_unit_is_read_as_days(said: str, days: int) -> None:
    m = DAYS_PASSED.search(said)
    assert m is not None and _span_days(m) == days


@pytest.mark.parametrize("body, now", [
    # the books' unit (礼拜) and siblings no book uses (星期, 周, 旬, a year), after the books' verbs and others (殁, 牺牲)
    ("老聂没了才一个礼拜，锅炉房冷冷清清的。", "民国二十年二月十九"),
    ("老聂走了才俩星期，柯满还不敢进锅炉房。", "民国二十年三月初九"),
    ("老聂殁了不到一旬，韦先生就病倒了，他的茶缸也还摆在窗台上。", "民国二十年二月十九"),
    ("老聂牺牲还不到一年，厂里就把他忘了，他的工牌也还挂在门后。", "民国二十一年三月初九"),
    ("聂师傅咽气才三周，柯满夜夜梦见他。", "民国二十年四月初一"),
    ("老聂死了一年多，罐头厂换了三个锅炉工。", "民国二十年五月初一"),
    # a span before a clause telling another event by it, the dead one's trace still as it was after (the book's shape)
    ("老聂没了才一个礼拜，锅炉就换了人烧，连炉门上的手印都还是他的样子。", "民国二十年二月十九"),
])
def test_a_span_since_a_dated_death_the_days_do_not_allow_fires(body: str, now: str) -> None:
    assert any("老聂死于1月9日" in m for m in timed(body, now))


@pytest.mark.parametrize("body, now", [
    # the days right: a week on the 16th, a ten-day on the 19th, two weeks on the 24th
    ("老聂没了才一个礼拜，锅炉房冷冷清清的。", "民国二十年正月十六"),
    ("老聂殁了不到一旬，韦先生就病倒了。", "民国二十年正月十八"),
    ("老聂走了才俩星期，柯满还不敢进锅炉房。", "民国二十年正月二十四"),
    # a span before a clause telling another event by it, nothing of today after: the time to that event (ft10, stop 61)
    ("老聂没了才一个礼拜，锅炉就换了人烧。", "民国二十年二月十九"),
    # someone else's going; a journey of weeks; a span after the death (一个礼拜后) is the day of another event
    ("韦先生的儿子走了一个礼拜了。", "民国二十年二月十九"),
    ("老聂走了一个礼拜的山路。", "民国二十年二月十九"),
    ("老聂没了一个礼拜后，锅炉房才开门。", "民国二十年二月十九"),
    # told as remembered
    ("柯满想起那年老聂的师父没了才一个礼拜，厂里就开了工。", "民国二十年二月十九"),
    # years closed by 了 are the year reading's: one finding, not two
])
def test_a_span_the_days_allow_or_no_span_to_today_is_silent(body: str, now: str) -> None:
    assert timed(body, now) == []


def test_years_closed_by_le_are_told_once() -> None:
    found = [m for m in timed("老聂走了快两年了，锅炉房还锁着。", "民国二十年五月初一") if "老聂" in m]
    assert len(found) == 1


@pytest.mark.parametrize("body", [
    "韦先生把账本一拍：“韩督察，明天就到，账本要齐。”",
    "“韩督察大后天就到了，炉膛给我掏干净。”",
    "韦先生说：“韩督察，后天就来查账了。”",
])
def test_a_comer_by_surname_and_post_coming_on_another_day_than_the_book_dates_fires(body: str) -> None:
    assert any("10月20日" in m for m in timed(body, "民国二十年十月十三日", LORE))


@pytest.mark.parametrize("body, now", [
    # the day right
    ("“韩督察，明天就到，账本要齐。”", "民国二十年十月十九日"),
    # a post the book gives no one of that surname; a surname the post names no one of
    ("“韩科长，明天就到，账本要齐。”", "民国二十年十月十三日"),
    ("“周督察，明天就到，账本要齐。”", "民国二十年十月十三日"),
    # a leaving, not a coming
    ("“韩督察，明天就走。”", "民国二十年十月十三日"),
])
def test_a_comer_by_surname_and_post_on_the_right_day_or_no_one_is_silent(body: str, now: str) -> None:
    assert timed(body, now, LORE) == []


ARRIVAL_LORE = "民国二十年九月初三，车队拉着学徒到罐头厂。"
"""The cannery's dated coming of the company (no card named) on 九月初三."""


def arrived(body: str, now: str, lore: str = ARRIVAL_LORE, texts: dict[str, str] | None = None) -> list[str]:
    """The 书内时间 findings of ``body`` told by 柯满 at the cannery at ``now``, the world's comings read from ``lore`` and
    the cards' ``texts`` (the cannery's by default)."""
    texts = {**continuity_helpers.CANNERY_TEXTS, **(texts or {})}
    cards = continuity_helpers.CANNERY
    aliases = {**{n: n for n in cards}, "聂师傅": "老聂"}
    world = World(cards, aliases, {"罐头厂", "罐头厂码头"}, set(), ("普通人",), None, {},
                  {"柯满": "他", "韦先生": "他", "老聂": "他"},
                  arrived=arrivals_of(lore, texts, {"罐头厂", "罐头厂码头"}, set(aliases), aliases), texts=texts)
    return [f.message for f in continuity_helpers.findings(body, world, "柯满", now, ["柯满", "韦先生"])
            if "书内时间" in f.message]


@pytest.mark.parametrize("body", [
    "“娘：我们到罐头厂半个多月了，天天洗罐子。儿柯满。”",
    "韦先生叹口气：“咱们来罐头厂才三天啦，你就想家？”",
    "“大伙进罐头厂一个多礼拜了，还没领过工钱。”",
    "“咱到罐头厂都一个月了。”",
])
def test_a_span_since_the_companys_dated_arrival_the_days_do_not_allow_fires(body: str) -> None:
    assert any("到罐头厂是9月3日" in m for m in arrived(body, "民国二十年九月初五" if "一个" in body or "半个" in body
                                                     else "民国二十年九月二十五"))


@pytest.mark.parametrize("body, now", [
    # the days right: two days on the 5th, half a month and more on the 20th, a week and more on the 12th
    ("“我们到罐头厂两天了。”", "民国二十年九月初五"),
    ("“我们到罐头厂半个多月了。”", "民国二十年九月二十"),
    ("“大伙进罐头厂一个多礼拜了。”", "民国二十年九月十二"),
    # not the company: one person of them (我), another (他们), the owner's coming (dated of no card, but not said of 我们)
    ("“我到罐头厂两年了。”", "民国二十年九月初五"),
    ("“他们到罐头厂半个月了。”", "民国二十年九月初五"),
    # a place no coming of the company is dated to
    ("“我们到县城半个多月了。”", "民国二十年九月初五"),
    # told as past; no 了 closing the span (a time to another event: 到罐头厂三天就病了)
    ("“想起那年我们到罐头厂半个月了才领到工钱。”", "民国二十年九月初五"),
    ("“我们到罐头厂三天就病了。”", "民国二十年十月初五"),
])
def test_a_span_since_an_arrival_the_days_allow_or_not_the_companys_is_silent(body: str, now: str) -> None:
    assert arrived(body, now) == []


def test_a_coming_said_of_another_card_is_not_the_companys() -> None:
    """A dated coming naming a card other than the hero's is theirs: the company's span is held to no day of it."""
    lore = "民国二十年九月二十老聂的兄弟聂老大坐船到罐头厂。"
    assert arrived("“我们到罐头厂半个多月了。”", "民国二十年九月二十一", lore, {"老聂": "老聂的兄弟民国二十年九月二十到罐头厂。"}) == []


def test_the_places_own_people_saying_we_came_are_not_the_company() -> None:
    """One of the place (their card names it: the 兵站's cook of the book) saying 我们 means the place's people: their span
    is no span since the company came. The hero saying it, or the narration, is read."""
    texts = {"韦先生": "罐头厂的账房先生，在罐头厂干了十年。"}
    assert arrived("韦先生说：“我们到罐头厂半个多月了。”", "民国二十年九月初五", texts=texts) == []
    assert any("到罐头厂是9月3日" in m for m in arrived("柯满说：“我们到罐头厂半个多月了。”", "民国二十年九月初五", texts=texts))


@pytest.mark.parametrize("lore", [
    "民国二十年九月初三，车队拉着学徒到罐头厂。民国二十年九月初四，邮船到罐头厂码头。",
    "民国二十年九月初三，车队拉着学徒到罐头厂。九月初四，寒潮到罐头厂。",
    "民国二十年九月初三，车队拉着学徒到罐头厂。九月初四，检查组一行三人到罐头厂。",
    "民国二十年九月初三，车队拉着学徒到罐头厂。九月初四，慰问团的演员们到罐头厂演出。",
])
def test_a_dated_coming_of_a_thing_or_another_body_is_not_the_companys(lore: str) -> None:
    """r62-1, r62-5: a coming of a mail boat, a cold wave, an inspection party or a troupe's actors names no company: the company's own dated coming still counts, and
    a coming of theirs alone is read against it."""
    assert any("到罐头厂是9月3日" in m for m in arrived("柯满说：“我们到罐头厂半个多月了。”", "民国二十年九月初五", lore))
    assert arrived("柯满说：“我们到罐头厂半个多月了。”", "民国二十年九月初八", "民国二十年九月初四，邮船到罐头厂码头。") == []


@pytest.mark.parametrize("body, now", [
    ("韦先生叹口气：“老聂去了半个月，天天往家里捎信。”", "民国二十年十月十五日"),
    ("韦先生叹口气：“老聂去了一个礼拜省城，回来就说锅炉不对劲。”", "民国二十年三月十二日"),
])
def test_going_away_is_no_span_since_a_death(body: str, now: str) -> None:
    """r62-2: 去了 is a going away far more often than a death: no span since the death."""
    assert timed(body, now) == []


def test_a_clause_set_off_by_a_comma_is_no_comer() -> None:
    """r62-3: 验货组走了，后天就到省城 — the party left, and reaches another place in two days: no coming of theirs here."""
    assert timed("韦先生说：“验货组走了，后天就到省城。”", "民国二十年十月十五日") == []
    assert timed("韦先生说：“老聂走了，明天就到。”", "民国二十年十月十三日", LORE) == []


def test_months_in_a_one_character_count_are_read() -> None:
    """r62-4: 仨月, 俩月 are months as 三个月 is."""
    assert any("老聂死于1月9日" in m for m in timed("韦先生叹口气：“老聂没了仨月了。”", "民国二十年十月十五日"))
    m = DAYS_PASSED.search("老聂没了俩月")
    assert m is not None and _span_days(m) == 60


@pytest.mark.parametrize("body", [
    "韦先生叹口气：“老聂死了三个多月，他媳妇就改嫁了，俩孩子也还在念书。”",
    "韦先生叹口气：“老聂走了个把月，厂里才把铺盖寄回乡下，他娘至今不知道。”",
])
def test_anothers_present_after_a_measured_span_leaves_it_measured(body: str) -> None:
    """r62-6: after a span measured to another event, someone else's present (the children at school, his mother not
    knowing) is no trace of the dead still as it was: the span stays the time to that event."""
    assert timed(body, "民国二十年十月十五日") == []
