"""A person of the cards reported acting here today, whichever field their card makes it (issue 30, RP1 at stop 61).

Stop 60's P3 read a report of an away person as ``WHO + a time of today + 在PLACE + an act`` (你姐晌午在队部门口找你). The
books blind at stop 60 wrote the same report with a coming or going to the place (来账房替你领过工钱, 上食堂找你来着) and of a
missing person (刚刚在煤堆边上问我讨一根针): one shape — a person of the cards, a time of today (before or after them), any
way of reaching a place of here (在/来/上/到/去/进/回: :data:`lw_storyrepo.continuity.REPORTED_MOVES`) and any act. The card
picks the field: away (位置) or dead/missing (状态, :func:`lw_storyrepo.continuity._reported_held`).

A card that says someone sends letters at intervals (隔些日子寄一封信来) or comes home only at a feast (过年才回来一趟) puts
them a journey away (:data:`lw_storyrepo.continuity.FAR_WORDS`), as 过年也回不来 did.

Every sentence here is written for this file; none comes from a labelled draft.
"""

from __future__ import annotations

import pytest

from lw_storyrepo.continuity import far_places

import continuity_helpers

_camp = continuity_helpers.camp_findings


# --- the card: letters at intervals, a feast-only return ---

@pytest.mark.parametrize("text", [
    "前几年去兰州修铁路，隔些日子寄一封信来。",
    "在兰州的车辆段当钳工，隔三差五托人捎信回来。",  # sibling words no book wrote
    "在兰州的车辆段当钳工，春节才回来一趟。",
    "在兰州的车辆段当钳工，逢年过节才回家。",
])
def test_a_card_of_letters_at_intervals_or_a_feast_only_return_makes_its_place_far(text: str) -> None:
    assert "兰州" in far_places([text], {"兰州", "石料场"})


@pytest.mark.parametrize("text", [
    "在兰州的车辆段当钳工，隔些日子来场里转转。",  # visits, no letter
    "在兰州的车辆段当钳工，过年才放假。",  # a feast, no return
    "在兰州的车辆段当钳工。",
])
def test_a_card_of_visits_or_of_nothing_keeps_its_place_near(text: str) -> None:
    assert "兰州" not in far_places([text], {"兰州", "石料场"})


# --- a report of the far one here today, any way of reaching the place (位置) ---

@pytest.mark.parametrize("body", [
    "桂芝掀开门帘：“铁生，老刘晌午来工棚替你领了饭票。”",
    "桂芝掀开门帘：“老刘刚才上食堂找你来着，等了半天，说明儿再来。”",  # a plan after the report does not undo it
    "桂芝掀开门帘：“老刘头晌到场部门口转了一圈。”",
    "桂芝掀开门帘：“晌午老刘在库房里点锯条呢。”",  # the time before the person (P3-6)
    # sibling words no book wrote
    "桂芝掀开门帘：“老刘才刚进咱们仓房拿了两把斧子。”",  # 去/回/进 with a place of here only (frp1, R61's RP1-3)
    "桂芝掀开门帘：“刘德海下午去青松林场的贮木场看了一趟原木。”",
])
def test_a_report_of_the_far_one_reaching_a_place_here_today_fires(body: str) -> None:
    found = _camp(body)
    assert len(found) == 1, found
    assert "「哈尔滨」" in found[0].message and "今天在这边" in found[0].message


@pytest.mark.parametrize("body", [
    "桂芝掀开门帘：“老刘晌午去省城开会了。”",  # a town by its kind
    "桂芝掀开门帘：“老刘晌午回家里腌酸菜去了。”",  # his own home
    "桂芝掀开门帘：“老刘晌午到哈尔滨站上了车。”",  # the far place
    "桂芝掀开门帘：“老刘晌午要来工棚找你。”",  # a plan
    "桂芝掀开门帘：“老刘晌午没来工棚，你别等了。”",  # a denial
    "桂芝掀开门帘：“昨天晌午老刘来工棚找过你。”",  # another day before the report
    "桂芝掀开门帘：“老刘晌午托人来工棚捎了个话。”",  # a sender
    "桂芝掀开门帘：“去年老刘晌午来工棚找过你一回。”",  # a time gone
    "桂芝掀开门帘：“老刘晌午上火车走的，这会儿早到哈尔滨了。”",  # a journey
    "桂芝掀开门帘：“老刘今天在厂里加班，顾不上写信。”",  # his own work over there (P3-1)
])
def test_a_report_of_the_far_one_elsewhere_or_not_today_stays_silent(body: str) -> None:
    assert _camp(body) == []


# --- the same report of the dead (状态) ---

@pytest.mark.parametrize("body", [
    "桂芝掀开门帘：“赵老栓刚刚在工棚门口问我讨了一根针。”",
    "桂芝掀开门帘：“赵老栓晌午来库房借了一把锯。”",  # (借走了 reads as a death told: DEATH_TOLD's 走了)
    "桂芝掀开门帘：“晌午赵老栓上食堂打了一壶开水。”",
])
def test_a_report_of_the_dead_acting_here_today_fires_on_the_state(body: str) -> None:
    found = [f for f in _camp(body, "赵老栓") if "状态" in f.message]
    assert found, _camp(body, "赵老栓")
    assert "「已死」" in found[0].message


@pytest.mark.parametrize("body", [
    "桂芝掀开门帘：“我记得赵老栓那年晌午常在工棚门口补鞋。”",  # a memory, a time gone
    "桂芝掀开门帘：“昨晚我梦见赵老栓刚刚在工棚门口补鞋。”",  # a dream
    "桂芝掀开门帘：“赵老栓的侄子晌午来库房借走了一把锯。”",  # another person
    "桂芝掀开门帘：“去年赵老栓晌午来库房借过一把锯。”",
])
def test_a_report_of_the_dead_told_as_memory_dream_or_another_stays_silent(body: str) -> None:
    assert [f for f in _camp(body, "赵老栓") if "今天在这边做事" in f.message] == []


# --- the far one walking into the scene from a part of here (位置) ---

@pytest.mark.parametrize("body", [
    "正说着，老刘拄着根棍子从锯房后头一瘸一拐地过来了，冲铁生点点头。",
    "九点来钟，戴狗皮帽子的老刘背着手从工棚那头踱过来，挨个看锯台。",  # described before the name
    # sibling words no book wrote
    "歇晌的工夫，刘德海叼着烟袋从场部院门口晃过来。",
    "一身油渍的刘德海从库房里头慢慢走来。",
])
def test_the_far_one_walking_in_from_a_part_of_here_fires(body: str) -> None:
    found = _camp(body)
    assert len(found) == 1, found
    assert "「哈尔滨」" in found[0].message and "在场" in found[0].message


@pytest.mark.parametrize("body", [
    "桂芝说，老刘从哈尔滨那边过来得坐两天火车。",  # the far place itself
    "铁生想起老刘从锯房后头一瘸一拐地过来的样子。",  # a memory
    "铁生盼着戴狗皮帽子的老刘哪天从工棚那头踱过来。",  # a wish, the description no clause opener
    "老刘的侄子从锯房后头一瘸一拐地过来了。",  # another person
    "正说着，老刘从老家那边捎了信过来。",  # his home, a letter
])
def test_the_far_one_walking_in_from_elsewhere_or_not_in_the_scene_stays_silent(body: str) -> None:
    assert _camp(body) == []


@pytest.mark.parametrize("body", [
    "桂芝叹了口气：“出事那年，第二天一早，赵老栓就躺在工棚门口了。”",  # a day of a story told
    "桂芝叹了口气：“次日晌午赵老栓还在库房里点锯条。”",
])
def test_a_report_of_another_day_told_as_a_story_stays_silent(body: str) -> None:
    assert [f for f in _camp(body, "赵老栓") if "今天在这边做事" in f.message] == []


def test_a_report_of_the_dead_in_the_telling_of_the_death_stays_silent() -> None:
    body = "桂芝抹着眼泪：“赵老栓刚刚还在工棚门口跟我说话，一转眼就咽了气。”"
    assert [f for f in _camp(body, "赵老栓") if "今天在这边做事" in f.message] == []


def test_a_report_on_a_date_is_of_that_day() -> None:
    body = "桂芝叹了口气：“初二下午，赵老栓拿这个押在我这里，借了三块钱。”"
    assert [f for f in _camp(body, "赵老栓") if "今天在这边做事" in f.message] == []
