"""A document's post line naming a person of the cards, read for the field their card gives (issue 30, RL1 at stop 61).

Stop 60's P3 read a role line of a document of today (发料人：葛福林, 今朝高柜：蒋朝奉) for the away person only (位置).
The same line, naming someone the cards say cannot do it, is a 状态 error:

- **a post the card bars**: the card's own clause says they cannot do the post's act (不能接电话 against 接电话人：…;
  上不了观测场 against 观测：…: :data:`lw_storyrepo.continuity.POST_BAR`, :func:`lw_storyrepo.continuity._barred_post`), or
  their state keeps them from every post (卧床, 重伤, 在押, 住院: :data:`lw_storyrepo.continuity.NO_POST_STATES`);
- **the dead on a day since their death**: a record headed by a day — a bare day of the in-book month included (初六夜班，
  …: :data:`lw_storyrepo.continuity.BARE_DAY`) — with a role glued to a name (司炉周某: :data:`lw_storyrepo.continuity.GLUED_ROLE`)
  or a label, on a day after the death their card dates and no later than the in-book day.

Silent: a post the card does not bar, a day before the death, a day to come, an absence or a sending label, a verb or
a rite before the name (看见…, 祭奠…), words spoken rather than written.

Every sentence here is written for this file (a 1962 Heilongjiang lumber camp); none comes from a labelled draft.
"""

from __future__ import annotations

from typing import Any

import pytest

from lw_storyrepo.continuity import World, dates_of_death
from lw_storyrepo.findings import Finding

import continuity_helpers

TODAY = "1962年10月8日"
CARDS: dict[str, dict[str, Any]] = {
    "王铁生": {"姓名": "王铁生", "状态": "在世", "位置": "青松林场"},
    "孙桂芝": {"姓名": "孙桂芝", "状态": "在世", "位置": "青松林场"},
    "马长福": {"姓名": "马长福", "状态": "耳聋", "位置": "青松林场"},
    "于春生": {"姓名": "于春生", "状态": "卧床", "位置": "青松林场"},
    "赵老栓": {"姓名": "赵老栓", "状态": "已死", "位置": "青松林场"},
    "刘德海": {"姓名": "刘德海", "状态": "在世", "位置": "哈尔滨"},
}
TEXTS = {
    "马长福": "油锯震坏了两只耳朵，年底以前听不见，不能接电话、打信号，上不了楞场；手上的活不碍事，在工棚里磨锯。",
    "于春生": "九月里叫倒木砸了腰，躺在炕上。",
    "赵老栓": "1962年6月3日夜里在三号楞场叫滚木砸死，埋在后山。",
    "王铁生": "林场的青年工人。", "孙桂芝": "林场食堂的炊事员。", "刘德海": "林场的老工人，在哈尔滨学开拖拉机。",
}


def _found(body: str, who: str) -> list[Finding]:
    """The findings about ``who`` of ``body`` told by 王铁生 on the day, 孙桂芝 beside him."""
    died, days = dates_of_death(CARDS, TEXTS)
    world = World(dict(CARDS), {n: n for n in CARDS}, {"青松林场", "哈尔滨"}, died=died, died_day=days, texts=dict(TEXTS),
                  gender={n: "他" for n in CARDS}, far=frozenset({"哈尔滨"}))
    out = continuity_helpers.findings(body, world, "王铁生", TODAY, ["王铁生", "孙桂芝"])
    return [f for f in out if f.message.startswith(who) and "文书" in f.message]


# --- a post the card bars, in a document of today ---

@pytest.mark.parametrize("body", [
    "铁生翻开电话记录本，上头写着：“十月八日上午十点，场部来电话，明天停电。接电话人：马长福。”",
    # sibling labels no development book wrote: the act the card bars, with or without a holder's word
    "铁生翻开今天的派工单，上面写着：“打信号：马长福；看秤：孙桂芝。”",
    "铁生接过记录，上头写着：“十月八日，楞场：马长福。”",
])
def test_a_post_the_card_bars_is_a_state_error(body: str) -> None:
    found = _found(body, "马长福")
    assert len(found) == 1, found
    assert found[0].severity == "error" and found[0].subject.field == "状态" and "耳聋" in found[0].message


@pytest.mark.parametrize("body", [
    "铁生翻开今天的派工单，上面写着：“跟车：于春生。”",
    "铁生接过出库单，上头写着：“十月八日，锯条十根，领料人：于春生。”",
])
def test_someone_abed_named_to_any_post_of_today_is_a_state_error(body: str) -> None:
    found = _found(body, "于春生")
    assert len(found) == 1, found
    assert found[0].subject.field == "状态" and "卧床" in found[0].message


@pytest.mark.parametrize("body", [
    # a post the card does not bar (his hands work)
    "铁生翻开今天的派工单，上面写着：“磨锯：马长福。”",
    # another day: one to come, one gone by in another year
    "铁生翻开电话记录本，上头写着：“十月十二日上午十点，接电话人：马长福。”",
    "铁生翻开电话记录本，上头写着：“去年十月八日上午十点，接电话人：马长福。”",
    # absence and sending
    "铁生接过单子，上头写着：“十月八日，请假人：于春生。”",
    "铁生接过单子，上头写着：“十月八日，收件人：马长福。”",
])
def test_the_near_misses_of_a_barred_post_stay_silent(body: str) -> None:
    assert _found(body, "马长福") == [] and _found(body, "于春生") == []


# --- the dead on a day since their death: a role glued to a name, a bare day at the head ---

@pytest.mark.parametrize("body", [
    "铁生在值班簿上抄到前天那一行：“初六夜班，看火赵老栓，一夜无事。”",
    # siblings: a bare day with 日, a full date, a shift before the name, a label
    "铁生翻开巡山记录，抄下一行：“五日，巡山赵老栓、孙桂芝，未见火情。”",
    "铁生翻开巡山记录，抄下一行：“十月七日，后半夜赵老栓，未见火情。”",
    "铁生翻开巡山记录，抄下一行：“九月二十日，看火：赵老栓。”",
])
def test_the_dead_on_duty_in_a_record_since_their_death_is_a_state_error(body: str) -> None:
    found = _found(body, "赵老栓")
    assert len(found) == 1, found
    assert found[0].severity == "error" and found[0].subject.field == "状态" and "已死" in found[0].message


@pytest.mark.parametrize("body", [
    # a day before the death; a day to come this month
    "铁生翻到今年五月那一页，抄下一行：“五月二十日夜班，看火赵老栓，一夜无事。”",
    "铁生翻开值班簿，抄下一行：“初十夜班，看火赵老栓。”",
    # a verb or a rite before the name, not a post
    "铁生翻开记录，抄下一行：“初六夜里，看见赵老栓。”",
    "铁生翻开记录，抄下一行：“初六，祭奠赵老栓。”",
    "铁生翻开记录，抄下一行：“初六，顶替赵老栓。”",
    # spoken, not written
    "桂芝说：“初六夜班，看火赵老栓，你信不信？”",
    # a number before a noun is no day
    "铁生翻开记录，抄下一行：“三号楞场，看火赵老栓。”",
])
def test_the_near_misses_of_the_dead_on_duty_stay_silent(body: str) -> None:
    assert _found(body, "赵老栓") == []


# --- the same glued line for the away one: the card's field is 位置 ---

def test_a_role_glued_to_the_away_ones_name_in_todays_record_puts_him_here() -> None:
    found = _found("铁生翻开巡山记录，抄下一行：“十月八日，巡山刘德海，未见火情。”", "刘德海")
    assert len(found) == 1, found
    assert found[0].subject.field == "位置" and "「哈尔滨」" in found[0].message


def test_a_role_glued_to_the_away_ones_name_on_another_day_stays_silent() -> None:
    assert _found("铁生翻开巡山记录，抄下一行：“十月五日，巡山刘德海，未见火情。”", "刘德海") == []
