"""A person of the cards reported here — the place words and times RP1 did not read (issue 30, RP2 at stop 62).

Stop 61's RP1 read ``WHO + a time of today gone + 在/来/上/到… + a place of here + an act``. The books blind at stop 61 wrote
the same report
- with a time later today said first, a schedule or notice told as fact (今晚七点X在饭堂…): the person is set to be here
  today (:data:`lw_storyrepo.continuity.LATER_TODAY`);
- as a coming back to the place of here by its name, yesterday or today (X昨儿个回了<the book's town>:
  :data:`lw_storyrepo.continuity.CAME_TO`);
- of the listener's kin by a one-character word (你爹刚才在…门口打听你: :data:`lw_storyrepo.continuity.LISTENER`).
And the cards that make someone away: a dated coming up to the scene ahead (才上来, 才过来) keeps them away until then, as a
dated return does (:data:`lw_storyrepo.continuity.BACK_ON`); a letter counted alone (隔些日子寄一封来) is a rare contact
(:data:`lw_storyrepo.continuity.RARE_CONTACT`); a place inside a far region is far.

Every sentence here is written for this file; none comes from a labelled draft.
"""

from __future__ import annotations

from typing import Any

import pytest

from lw_storyrepo import continuity
from lw_storyrepo.continuity import World, dated_subjects, far_places
from lw_storyrepo.findings import Finding

import continuity_helpers

TODAY = "1962年10月8日"


_camp = continuity_helpers.camp_findings


# --- a schedule: a time later today, said first (位置 for the far, 状态 for the dead) ---

@pytest.mark.parametrize("body", [
    "桂芝贴出一张条子：“通知：今晚七点老刘在场部给二工段讲安全。”",
    "桂芝掀开门帘：“今天下午三点刘德海到库房验一批原木。”",  # sibling words no book wrote
    "桂芝掀开门帘：“今夜老刘在咱们车间里值班，你去给他送个饭。”",  # no hour: a place said as ours
    "桂芝贴出一张条子：“一、各工段早六点上工。二、今儿晚上八点半刘德海在食堂开大会。”",  # an item of a list (、)
])
def test_a_far_one_set_to_act_here_later_today_fires(body: str) -> None:
    found = _camp(body)
    assert len(found) == 1, found
    assert "「哈尔滨」" in found[0].message and "今天在这边" in found[0].message


@pytest.mark.parametrize("body", [
    "桂芝掀开门帘：“老刘今晚在厂里加班，回不来。”",  # his own evening over there: the time after the name
    "桂芝掀开门帘：“今晚七点老刘要在场部讲话，听说又改了。”",  # a plan with a modal
    "桂芝掀开门帘：“明晚七点老刘在场部给二工段讲安全。”",  # another day
    "桂芝掀开门帘：“今晚七点老刘在哈尔滨的厂里开会。”",  # the far place itself
    "桂芝掀开门帘：“今晚七点老刘在电话里跟你说。”",  # no place a body stands in
    "桂芝掀开门帘：“今晚七点老刘媳妇在场部等你。”",  # his wife, not he
    # r62-2: his own evening over there, the time first — no hour, no place of here; a coming denied; a question
    "桂芝掀开门帘：“今晚老刘在厂里值夜班，回不来。”",
    "桂芝掀开门帘：“今晚七点老刘在厂里值夜班，回不来。”",
    "桂芝掀开门帘：“今晚七点老刘在食堂里唱戏？”",
    # r62-7: an hour is no place of here: his own work unit
    "桂芝掀开门帘：“今晚七点老刘在厂里开会。”",
    "桂芝掀开门帘：“今晚八点老刘在车间里交班。”",
])
def test_a_schedule_elsewhere_or_of_another_or_not_fact_is_silent(body: str) -> None:
    assert _camp(body) == []


@pytest.mark.parametrize("body", [
    "桂芝掀开门帘：“今晚赵老栓在灵棚里过最后一夜，明早出殡。”",
    "桂芝掀开门帘：“今夜赵老栓在咱们库房里停一宿，谁也别去。”",
    "桂芝贴出一张条子：“今晚七点赵老栓在场部开追悼会。”",
])
def test_a_schedule_of_the_dead_is_their_funerals_and_silent(body: str) -> None:
    """r62-1: a plan about the dead later today (lying in state, a memorial) is no act of theirs."""
    assert _camp(body, "赵老栓") == []


# --- a coming back to the place of here by its name (位置) ---

@pytest.mark.parametrize("body", [
    "桂芝掀开门帘：“老刘昨儿个回了青松林场，在他表哥家住着。”",
    "桂芝掀开门帘：“刘德海昨天回了青松林场，说是来看看你。”",  # sibling words no book wrote
    "桂芝拿着信念：“铁生：老刘今早回了青松林场，捎了两斤糖给你。”",
])
def test_the_far_one_said_come_back_to_the_place_of_here_fires(body: str) -> None:
    found = _camp(body)
    assert len(found) == 1, found
    assert "「哈尔滨」" in found[0].message


@pytest.mark.parametrize("body", [
    "桂芝掀开门帘：“老刘昨儿个回了哈尔滨，说厂里有事。”",  # his own place
    "桂芝掀开门帘：“老刘去年回了青松林场一趟。”",  # a year gone
    "桂芝掀开门帘：“老刘昨天没回青松林场，车坏在半路了。”",  # a denial
    "桂芝掀开门帘：“老刘昨天来信说月底回青松林场。”",  # news of a coming, not a coming (HEARSAY)
    "桂芝掀开门帘：“老刘昨天捎话讲过两天到青松林场。”",
    # r62-4: a thing or another sent there, not a coming
    "桂芝掀开门帘：“老刘昨天寄回青松林场一包木耳。”",
    "桂芝掀开门帘：“老刘昨天发到青松林场的那车木料，今早卸完了。”",
    "桂芝掀开门帘：“老刘今早把他闺女送回青松林场了，自己又坐车走了。”",
])
def test_a_return_told_elsewhere_denied_or_as_news_is_silent(body: str) -> None:
    assert _camp(body) == []


# --- the listener's kin by a one-character word (你爹) ---

def _home(body: str, who: str = "王德顺") -> list[Finding]:
    """The findings about ``who`` of ``body`` told by 王铁生 at the lumber camp: 王德顺 his father (爹) far in 哈尔滨, 王大娘
    his mother (娘) dead, 李小虎 (小虎) and 孙桂芝 (桂芝) at the camp."""
    cards: dict[str, dict[str, Any]] = {
        "王铁生": {"姓名": "王铁生", "状态": "在世", "位置": "青松林场"},
        "孙桂芝": {"姓名": "孙桂芝", "状态": "在世", "位置": "青松林场"},
        "李小虎": {"姓名": "李小虎", "状态": "在世", "位置": "青松林场"},
        "王德顺": {"姓名": "王德顺", "状态": "在世", "位置": "哈尔滨"},
        "王大娘": {"姓名": "王大娘", "状态": "已死", "位置": "青松林场"},
    }
    world = World(cards, {**{n: n for n in cards}, "爹": "王德顺", "娘": "王大娘", "桂芝": "孙桂芝", "小虎": "李小虎",
                          "铁生": "王铁生"}, {"青松林场", "哈尔滨"}, far=frozenset({"哈尔滨"}),
                  gender={"王铁生": "他", "孙桂芝": "她", "李小虎": "他", "王德顺": "他", "王大娘": "她"})
    out = continuity_helpers.findings(body, world, "王铁生", TODAY, ["王铁生", "孙桂芝", "李小虎"],
                                      kin_of_pov={"王铁生": {"爹": "王德顺", "娘": "王大娘"}})
    return [f for f in out if f.message.startswith(who)]


@pytest.mark.parametrize("body", [
    "桂芝掀开门帘：“铁生，你爹刚才在场部门口打听你。”",
    "桂芝掀开门帘：“铁生，晌午你爹来食堂找过你。”",  # sibling words no book wrote
    "桂芝掀开门帘：“铁生，您爹才刚在库房后头等你呢。”",
    # the point of view named as the one come in, the speaker after him
    "收了工，铁生回到工棚，桂芝正坐在铺上缝扣子，见他进来就说：“你爹晌午上食堂找你来着。”",
])
def test_the_listeners_kin_reported_here_today_fires(body: str) -> None:
    found = _home(body)
    assert len(found) == 1, found
    assert "「哈尔滨」" in found[0].message


@pytest.mark.parametrize("body", [
    "桂芝掀开门帘：“铁生，我爹刚才在场部门口打听你。”",  # the speaker's own father
    "桂芝掀开门帘：“铁生，你爹昨天在场部门口打听你。”",  # another day
    "桂芝掀开门帘：“铁生，你爹刚才在哈尔滨打来电话。”",  # the far place
    "桂芝掀开门帘：“铁生，你娘舅刚才在场部门口打听你。”",  # no kin word of the cards
    # r62-3: another listener — called, spoken to, or the point of view speaking
    "桂芝掀开门帘：“小虎，你爹刚才在场部门口打听你。”",
    "桂芝掀开门帘，冲小虎说：“你爹刚才在场部门口打听你。”",
    "铁生对小虎说：“你爹晌午在食堂门口找你呢。”",
    "铁生低声说：“你爹晌午在食堂门口找你呢。”",  # the point of view speaking
])
def test_another_kin_another_day_or_the_far_place_is_silent(body: str) -> None:
    assert _home(body) == []


@pytest.mark.parametrize("body", [
    "桂芝冲小虎说：“你娘刚才在食堂门口找你呢。”",
    "小虎问桂芝：“您娘晌午在食堂里等您呢。”",
    "“你娘刚才在食堂门口找你呢。”桂芝对小虎说。",  # r62-9: the tag after the quote
])
def test_the_listeners_dead_mother_when_the_listener_is_another_is_silent(body: str) -> None:
    """r62-3: 你娘 said to another is not the point of view's dead mother."""
    assert _home(body, "王大娘") == []


def test_the_point_of_views_dead_mother_reported_here_is_a_state_finding() -> None:
    found = _home("桂芝掀开门帘：“铁生，你娘刚才在食堂门口找你呢。”", "王大娘")
    assert len(found) == 1 and "已死" in found[0].message, found


# --- the cards: a dated coming up, a letter counted alone, a place inside a far region ---

def _dated_camp(text: str) -> World:
    """The lumber camp with 刘德海's card text ``text`` (its dated events read) and 哈尔滨 no far place of the world."""
    world = continuity_helpers.lumber_camp()
    texts = {"刘德海": text}
    return World(world.cards, world.aliases, world.places, far=frozenset(), gender=world.gender,
                 dated_by=dated_subjects("", texts), last_time=(1, TODAY))


@pytest.mark.parametrize("text", [
    "刘德海在哈尔滨，十月二十日才上来。",
    "刘德海在哈尔滨，十月二十日才过来。",  # a sibling no book wrote
])
def test_a_dated_coming_up_ahead_keeps_the_card_away_until_then(text: str) -> None:
    world = _dated_camp(text)
    out = continuity_helpers.findings("桂芝掀开门帘：“晌午老刘在场部门口找你。”", world, "王铁生", TODAY,
                                      ["王铁生", "孙桂芝"])
    assert [f for f in out if f.message.startswith("刘德海")], out


@pytest.mark.parametrize("text", [
    "刘德海在哈尔滨，十月二十日才来信。",  # a letter, no coming
    "刘德海在哈尔滨，十月五日才上来。",  # the day is gone: he may be here
])
def test_a_dated_letter_or_a_coming_gone_keeps_nobody_away(text: str) -> None:
    world = _dated_camp(text)
    out = continuity_helpers.findings("桂芝掀开门帘：“晌午老刘在场部门口找你。”", world, "王铁生", TODAY,
                                      ["王铁生", "孙桂芝"])
    assert [f for f in out if f.message.startswith("刘德海")] == []


@pytest.mark.parametrize("text", [
    "在兰州的车辆段当钳工，隔些日子寄一封来。",
    "在兰州的车辆段当钳工，隔三差五捎一封回去。",  # a sibling no book wrote
])
def test_a_letter_counted_alone_at_intervals_makes_the_place_far(text: str) -> None:
    assert "兰州" in far_places([text], {"兰州", "石料场"})


def test_a_place_inside_a_far_region_is_far() -> None:
    world = continuity_helpers.lumber_camp()
    cards = {**world.cards, "刘德海": {"姓名": "刘德海", "状态": "在世", "位置": "五常"}}
    inside = World(cards, world.aliases, {"青松林场", "五常", "黑龙江南部"}, far=frozenset({"黑龙江南部"}),
                   gender=world.gender, inside={"五常": {"黑龙江南部"}})
    found = continuity_helpers.findings("桂芝掀开门帘：“晌午老刘在场部门口找你。”", inside, "王铁生", TODAY,
                                        ["王铁生", "孙桂芝"])
    assert [f for f in found if f.message.startswith("刘德海") and "「五常」" in f.message], found
    nowhere = World(cards, world.aliases, {"青松林场", "五常", "黑龙江南部"}, far=frozenset({"黑龙江南部"}),
                    gender=world.gender)
    assert [f for f in continuity_helpers.findings("桂芝掀开门帘：“晌午老刘在场部门口找你。”", nowhere, "王铁生", TODAY,
                                                   ["王铁生", "孙桂芝"]) if f.message.startswith("刘德海")] == []



@pytest.mark.parametrize("inside", [
    {"五常": {"黑龙江南部"}, "青松林场": {"黑龙江南部"}},  # the point of view's place in the same far region
    {"五常": {"黑龙江南部"}, "松林": {"黑龙江南部"}},  # a known place its name holds in it (青松林场 by 松林)
])
def test_a_far_region_the_point_of_view_is_in_too_is_no_distance(inside: dict[str, set[str]]) -> None:
    """The lead's pool run after the merges (stop 62): RP2's far region read a card inside a far 长安 or 深圳 as far from a
    point of view in the same city (连续性-盲评三 好-5, 七 合同-兑付-1 sent back for someone who walked in): a region
    the point of view is in, by its place's nesting or a known place its name holds, is no distance."""
    world = continuity_helpers.lumber_camp()
    cards = {**world.cards, "刘德海": {"姓名": "刘德海", "状态": "在世", "位置": "五常"}}
    near = World(cards, world.aliases, {"青松林场", "五常", "黑龙江南部", "松林"}, far=frozenset({"黑龙江南部"}),
                 gender=world.gender, inside=inside)
    assert [f for f in continuity_helpers.findings("桂芝掀开门帘：“晌午老刘在场部门口找你。”", near, "王铁生", TODAY,
                                                   ["王铁生", "孙桂芝"]) if f.message.startswith("刘德海")] == []

# --- R61's leftovers: a bare room entered; a year's end of business ---

@pytest.mark.parametrize("body", [
    "桂芝掀开门帘：“老刘才刚进仓房拿了两把斧子。”",
    "桂芝掀开门帘：“老刘晌午进库里取了一捆绳子。”",  # a sibling no book wrote
])
def test_the_far_one_entering_a_bare_room_today_fires(body: str) -> None:
    found = _camp(body)
    assert len(found) == 1 and "「哈尔滨」" in found[0].message, found


@pytest.mark.parametrize("body", [
    "桂芝掀开门帘：“老刘晌午进了病房，大夫说要开刀。”",  # a ward
    "桂芝掀开门帘：“老刘晌午进城买药去了。”",  # a town
    "桂芝掀开门帘：“老刘晌午进了牢房。”",
    "桂芝掀开门帘：“老刘今早进了牛棚，这回怕是出不来了。”",  # r62-6
])
def test_entering_a_ward_a_cell_or_a_town_is_silent(body: str) -> None:
    assert _camp(body) == []


@pytest.mark.parametrize("body", [
    "桂芝抹着眼泪：“赵老栓上午抬进了库房，明天下葬。”",
    "桂芝抹着眼泪：“赵老栓上午进了停尸房。”",
])
def test_the_dead_carried_into_a_room_is_silent(body: str) -> None:
    """r62-5: the dead body taken into a room is no act of the dead."""
    assert _camp(body, "赵老栓") == []


def test_a_years_end_of_business_keeps_a_town_near_and_a_going_home_makes_it_far() -> None:
    assert "镇上" not in far_places(["孙大娘住在镇上，年底才来青松林场结一回账。"], {"镇上", "青松林场"})
    assert "兰州" in far_places(["在兰州的车辆段当钳工，年底才回来一趟。"], {"兰州", "青松林场"})


def test_the_hour_of_the_scene_is_still_read() -> None:
    """r62-8: the schedule's hour (SCHEDULE_HOUR) is its own name; the clock of the scene's time keeps its own."""
    assert continuity._hour("今天早上八点", False) == 8.0
    assert continuity._hour("昨儿夜里十点", False) == 22.0
