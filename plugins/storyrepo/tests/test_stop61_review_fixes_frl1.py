"""R61's findings on RL1's role-line reading (issue 30, frl1 at stop 61), each a narrowing of
:func:`lw_storyrepo.continuity._document_actors` / :func:`lw_storyrepo.continuity._barred_post`.

- RL1-5: the card's bar reaches only the act right after the bar word (不能下井只能在井口值班 bars 下井, not 值班), and
  words of wish or need (巴不得, 恨不得, 少不了) bar nothing.
- RL1-2: a dated record after a death that names the dead *because* of the death (抚恤, 遇难, 烈士, 殉职) holds no post.
- RL1-1: an old book read aloud (去年的值班簿, 旧账, 抄件, 发黄的旧值班簿) — its bare day is no day of this month.
- RL1-3: a list naming the bedridden *as* laid up (伤员, 病号饭, 休息, 轮休, 养伤) is no post they cannot hold.

Every sentence here is the reviewer's probe sentence (R61, written for the review) or written for this file; none comes
from a labelled draft. The world is continuity_helpers' cannery (老聂 dead 民国二十年正月初九) with 周长根 the stoker.
"""

from __future__ import annotations

from typing import Any

import pytest

from lw_storyrepo.continuity import World, dates_of_death
from lw_storyrepo.findings import Finding

import continuity_helpers as C

MID_MONTH = "民国二十年正月十五"
LATER = "民国二十年三月十五"


def _found(body: str, now: str, zhou: str = "锅炉工，去年冬天烫伤了腿，卧床不起。", zhou_state: str = "卧床") -> list[Finding]:
    """The document findings (状态 or 位置 of a record) of ``body`` told by 柯满 at ``now``, 周长根's card ``zhou``."""
    cards: dict[str, dict[str, Any]] = {k: dict(v) for k, v in C.CANNERY.items()}
    cards["周长根"] = {"姓名": "周长根", "状态": zhou_state, "位置": "罐头厂"}
    texts = {**C.CANNERY_TEXTS, "周长根": zhou}
    died, days = dates_of_death(cards, texts)
    world = World(cards, {**{n: n for n in cards}, "聂师傅": "老聂"}, {"罐头厂"}, set(), ("普通人",), None, {},
                  {"柯满": "他", "韦先生": "他", "老聂": "他", "周长根": "他"}, died=died, died_day=days, texts=texts)
    return [f for f in C.findings(body, world, "柯满", now, ["柯满", "韦先生"]) if "文书" in f.message]


# --- RL1-5: the bar is the act right after the bar word ---

CAN_ONLY = "锅炉工，腿伤了不能下井只能在井口值班。"


@pytest.mark.parametrize(("card", "body"), [
    (CAN_ONLY, "韦先生念今天的派工单：“今日值班：周长根。”"),
    ("锅炉工，闲不住，巴不得天天值班。", "韦先生念今天的派工单：“今日值班：周长根。”"),
    ("锅炉工，恨不得天天守着锅炉值夜。", "韦先生念今天的派工单：“今日值夜：周长根。”"),
    ("锅炉工，记账是一把好手，少不了他记录锅炉读数。", "韦先生念今天的派工单：“今日记录：周长根。”"),
])
def test_a_post_the_card_allows_or_wishes_for_is_not_barred(card: str, body: str) -> None:
    assert _found(body, MID_MONTH, card, "在世") == []


@pytest.mark.parametrize(("card", "body"), [
    (CAN_ONLY, "韦先生念今天的派工单：“今日下井：周长根。”"),
    ("锅炉工，耳朵背，不能接电话，也不能值班。", "韦先生念今天的派工单：“今日值班：周长根。”"),
    ("锅炉工，耳朵背，不能接电话、值班。", "韦先生念今天的派工单：“今日值班：周长根。”"),
    # V不了O bars VO
    ("锅炉工，耳朵背，接不了电话。", "韦先生念今天的派工单：“今日接电话：周长根。”"),
])
def test_the_act_right_after_the_bar_is_still_barred(card: str, body: str) -> None:
    found = _found(body, MID_MONTH, card, "在世")
    assert len(found) == 1 and found[0].severity == "error" and found[0].subject.field == "状态", found


# --- RL1-2: a record of the death is no post of the dead ---

@pytest.mark.parametrize("body", [
    "韦先生翻开账簿念道：“正月初十，抚恤：老聂，大洋五十元。”",
    "韦先生翻开账簿念道：“正月初十，遇难：老聂。”",
    "韦先生翻开账簿念道：“初十，烈士老聂，抚恤大洋五十元。”",
    "韦先生翻开值班簿念道：“初十夜班，司炉老聂，锅炉炸后殉职。”",
    "韦先生翻开账簿念道：“初十，工友老聂，殉职。”",
])
def test_a_record_of_the_death_names_the_dead_in_no_post(body: str) -> None:
    assert _found(body, MID_MONTH) == []


def test_the_dead_on_a_shift_after_the_death_is_still_caught() -> None:
    found = _found("韦先生翻开值班簿念道：“初十夜班，司炉老聂，添煤三担。”", MID_MONTH)
    assert len(found) == 1 and found[0].subject.field == "状态" and "老聂" in found[0].message, found


# --- RL1-1: an old book's bare day is not this month's ---

@pytest.mark.parametrize("body", [
    "韦先生翻开去年的值班簿念道：“初十夜班，司炉老聂。”",
    "柯满从箱底翻出一本发黄的旧值班簿，头一页写着：“初十夜班，司炉老聂，添煤三担。”",
    "韦先生翻开旧账念道：“初十夜班，司炉老聂。”",
    "这是去年的旧账。韦先生翻开念道：“初十夜班，司炉老聂。”",
    "韦先生拿出一份抄件念道：“初十夜班，司炉老聂。”",
])
def test_an_old_books_bare_day_is_no_day_since_the_death(body: str) -> None:
    assert _found(body, LATER) == []


def test_this_months_book_still_dates_its_bare_day() -> None:
    found = _found("韦先生翻开值班簿念道：“初十夜班，司炉老聂，添煤三担。”", LATER)
    assert len(found) == 1 and found[0].subject.field == "状态", found


# --- RL1-3: a list of the laid-up is no post ---

@pytest.mark.parametrize("body", [
    "韦先生把今天的点名册翻开：“今日伤员：周长根。”",
    "韦先生念今天的派工单：“今日送饭：柯满；病号饭：周长根。”",
    "韦先生念今天的派工单：“今日休息：周长根。”",
    "韦先生念今天的派工单：“今日轮休：周长根。”",
    "韦先生念今天的点名册：“今日在家养伤：周长根。”",
])
def test_a_list_of_the_laid_up_is_no_post_barred(body: str) -> None:
    assert _found(body, MID_MONTH) == []


@pytest.mark.parametrize("body", [
    "韦先生念今天的派工单：“今日值班：周长根。”",
    "韦先生念今天的派工单：“今日送饭：周长根。”",
])
def test_the_bedridden_on_a_post_of_today_is_still_caught(body: str) -> None:
    found = _found(body, MID_MONTH)
    assert len(found) == 1 and found[0].subject.field == "状态" and "卧床" in found[0].message, found


# --- RL1-6: a bare day that is today is today (a widening, with RL1-1's guard) ---

ROLE_LINES = C.round_file("test_continuity_role_lines")


def test_a_bare_day_that_is_today_puts_the_away_one_here() -> None:
    found = ROLE_LINES._found("桂芝翻开值班簿念道：“八号夜班，司炉刘德海。”", "刘德海")
    assert len(found) == 1 and found[0].subject.field == "位置", found


def test_a_bare_day_that_is_today_holds_the_undated_dead() -> None:
    found = _found("韦先生翻开值班簿念道：“十五日夜班，司炉周长根，添煤三担。”", MID_MONTH, "锅炉工，死在锅炉房。", "已死")
    assert len(found) == 1 and found[0].subject.field == "状态" and "本章当天" in found[0].message, found


@pytest.mark.parametrize("body", [
    "桂芝翻开去年的值班簿念道：“八号夜班，司炉刘德海。”",
    "桂芝翻开值班簿念道：“九号夜班，司炉刘德海。”",
])
def test_a_bare_day_of_an_old_book_or_another_day_stays_silent(body: str) -> None:
    assert ROLE_LINES._found(body, "刘德海") == []


# --- RL1-4: the corner quotes, 初X日 ---

@pytest.mark.parametrize("body", [
    "韦先生翻开值班簿念道：「初十夜班，司炉老聂。」",
    "韦先生翻开值班簿念道：“初十日夜班，司炉老聂。”",
])
def test_the_corner_quotes_and_a_day_with_its_ri_are_read(body: str) -> None:
    found = _found(body, MID_MONTH)
    assert len(found) == 1 and found[0].subject.field == "状态" and "老聂" in found[0].message, found
