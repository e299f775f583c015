"""书内时间, the seventh round (issue 30, task T7 at stop 58).

Written here in a book none of the sets use (a 盐场 on the coast in 一九六三年): the wrong sentence next to the right one
and the near misses.

- a coming said on a day ahead with the comer **before** the day word (检查组大后天就到了, 站长明天就回盐场): the comer read
  as :data:`COME_IN`'s is, against the one day the book gives that coming — found, when no event is said of the comer,
  by the comer named inside the dated event's own words right before a coming (八月二十日省里检查组到盐场验收 for
  检查组; a leading part of the comer, 检查组 of 检查组长, or the words after its last 的 when the event names that owner or none, 检查组 of 省里的检查组);
  a coming said on a day ahead is silent when it is the dated day, when the comer leaves (明天就走), when the comer is
  someone the book dates no coming for, when the date named is gone by, and when the sentence is told as past;
- (a festival counted back in days, 中秋过了才三天, was read here too and dropped by the ftp fixers' round of stop 58: a
  past event told by its distance from a festival is ordinary backstory; see ``test_stop58_review_fixes_ftp.py``;
  read again, narrower, by T8 at stop 59: ``test_continuity_time_eight.py``);
- an entry written now on a new page of a book, whatever the book is called (在晒盐册新的一页上写下：…), heads with
  today.
"""

from __future__ import annotations

from typing import Any

from lw_storyrepo.continuity import COME_ON_DAY, World, dated_events, dated_subjects, places_inside

import continuity_helpers

CARDS: dict[str, dict[str, Any]] = {
    "潘海生": {"姓名": "潘海生", "状态": "在世", "位置": "盐场", "持有": ["盐耙"]},
    "卞玉珍": {"姓名": "卞玉珍", "状态": "在世", "位置": "盐场", "持有": ["算盘"]},
    "侯德林": {"姓名": "侯德林", "状态": "在世", "位置": "县城", "持有": ["公文包"]},
}
TEXTS = {"潘海生": "二十岁，盐场的晒盐工。",
         "卞玉珍": "盐场的会计。",
         "侯德林": "盐场的站长，人称侯站长，在县城开会，八月十八日回盐场。"}
LORE = "一九六三年夏天，海边的盐场。八月二十日省里检查组到盐场验收盐坨，全场都盯着这一天。"
ALIASES = {**{name: name for name in CARDS}, "侯站长": "侯德林", "小潘": "潘海生"}
PLACES = {"盐场", "县城"}
NOW = "一九六三年八月十四日 星期三"


def timed(body: str, now: str = NOW) -> list[str]:
    """The 书内时间 findings of ``body`` told by 潘海生 in the salt works' book on ``now``."""
    world = World(CARDS, dict(ALIASES), PLACES, {"盐耙", "算盘", "公文包"}, ("普通人",), None,
                  places_inside(LORE, PLACES), {"潘海生": "他", "卞玉珍": "她", "侯德林": "他"},
                  dated=dated_events([LORE, *TEXTS.values()]), dated_by=dated_subjects(LORE, TEXTS))
    found = continuity_helpers.findings(body, world, "潘海生", now, ["潘海生", "卞玉珍"])
    return [f.message for f in found if "书内时间" in f.message]


def test_the_comer_before_the_day_word_is_read() -> None:
    m = COME_ON_DAY.search("卞玉珍说：“检查组大后天就到了，盐坨得苫好。”")
    assert m is not None and (m.group("who"), m.group("word"), m.group("verb")) == ("检查组", "大后天", "到")
    m = COME_ON_DAY.search("“侯站长明儿个就回盐场。”")
    assert m is not None and (m.group("who"), m.group("word")) == ("侯站长", "明儿")
    assert COME_ON_DAY.search("“侯站长明天就走。”") is None  # a leaving, not a coming


def test_a_coming_named_in_the_dated_event_on_another_day() -> None:
    # the lore: 八月二十日省里检查组到盐场验收 — six days after the fourteenth, not three
    assert timed("卞玉珍拨着算盘说：“检查组大后天就到了，盐坨得赶紧苫好。”")
    assert timed("“省里的检查组明天就来，”卞玉珍说。")  # the owner the event's words name (盐务局的 is another's: R58)
    assert timed("“检查组同志明天就到了。”")  # the comer's leading part named in the event's words  # the comer after its 的 named in the event's words


def test_a_coming_of_the_one_a_card_dates_on_another_day() -> None:
    # the card: 侯站长 八月十八日回盐场 — four days after the fourteenth, not one
    assert timed("卞玉珍说：“侯站长明天就回来了，账得对齐。”")


def test_the_dated_day_itself_is_silent() -> None:
    assert not timed("卞玉珍说：“检查组大后天就到了。”", "一九六三年八月十七日 星期六")
    assert not timed("卞玉珍说：“侯站长明天就回来了。”", "一九六三年八月十七日 星期六")


def test_a_leaving_an_undated_comer_a_gone_day_or_a_past_telling_is_silent() -> None:
    assert not timed("卞玉珍说：“侯站长明天就走，县里还有会。”")  # a leaving
    assert not timed("卞玉珍说：“俺表哥明天就到了，来帮着晒盐。”")  # nobody the book dates a coming for
    assert not timed("卞玉珍说：“检查组明天就到了。”", "一九六三年八月二十五日 星期日")  # their day is gone by
    assert not timed("那年卞玉珍说过，检查组大后天就到了，结果一等就是半个月。")  # told as past (那年)


def test_an_entry_on_a_new_page_of_a_book_of_any_name_heads_with_today() -> None:
    # 晒盐册 names no kind ENTRY_KIND knew before; the new page begun is a kept book's
    assert timed("潘海生在晒盐册新的一页上写下：一九六三年八月十二日。底下记了三垛盐的斤数。")
    assert timed("潘海生翻到晒盐册最新一页，写上：一九六三年八月十一日，又记了一行斤数。")


def test_a_new_page_with_today_an_old_page_or_a_letter_is_silent() -> None:
    assert not timed("潘海生在晒盐册新的一页上写下：一九六三年八月十四日。底下记了三垛盐的斤数。")
    assert not timed("潘海生翻到晒盐册前头的一页，上面写着：一九六三年八月十二日。")  # read, not written now
    assert not timed("潘海生在信纸新的一页上写下：一九六三年八月十二日。那天的事他要跟家里说清楚。")  # a letter
