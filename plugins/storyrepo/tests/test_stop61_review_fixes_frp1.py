"""R61's findings on RP1's reports-here round (stop 61), narrowed by the frp1 fixer.

Every sentence here is the outside reader's own (R61 on RP1: RP1-1 … RP1-10) or a sibling written for this file; none
comes from a labelled draft. Each case is silent (or caught, for a lost catch) with the fix, and was not before it.
"""

from __future__ import annotations

import pytest

from lw_storyrepo.continuity import far_places
from lw_storyrepo.findings import Finding

import continuity_helpers

TODAY = "1962年10月8日"


def _camp(body: str, who: str = "刘德海", heard: dict[str, str] | None = None) -> list[Finding]:
    """The findings about ``who`` of ``body`` told by 王铁生 at the lumber camp (刘德海 far in 哈尔滨, 赵老栓 dead)."""
    world = continuity_helpers.lumber_camp(with_dead=True)
    if heard:
        world.heard = heard
    out = continuity_helpers.findings(body, world, "王铁生", TODAY, ["王铁生", "孙桂芝"])
    return [f for f in out if f.message.startswith(who)]


# --- RP1-1 / RP1-4: the gap after the person holds the person's kin, thing or sender ---

@pytest.mark.parametrize("body, who", [
    ("桂芝掀开门帘：“铁生，刚才老刘媳妇来工棚找你，让你回个话。”", "刘德海"),
    ("桂芝掀开门帘：“铁生，刚刚老刘家的来场部替你领了饭票。”", "刘德海"),
    ("桂芝掀开门帘：“晌午赵老栓他闺女来库房找你，说是要领她爹的东西。”", "赵老栓"),
    ("桂芝掀开门帘：“刚才赵老栓的棺材抬到场部了，你去搭把手。”", "赵老栓"),
    ("桂芝掀开门帘：“晌午赵老栓的遗像在灵堂里挂起来了。”", "赵老栓"),
    ("桂芝抹着眼泪：“今早赵老栓的骨灰送到场部了。”", "赵老栓"),
    ("桂芝掀开门帘：“刚才赵老栓的箱子送到库房了。”", "赵老栓"),
    ("桂芝掀开门帘：“今早老刘的信到场部了，你去取。”", "刘德海"),
    ("桂芝掀开门帘：“晌午老刘的包裹寄到场部了。”", "刘德海"),
    ("桂芝掀开门帘：“晌午老刘捎的东西到场部了。”", "刘德海"),
    ("桂芝掀开门帘：“早上老刘那口子来场部哭了一鼻子。”", "刘德海"),
    ("桂芝掀开门帘：“晌午老刘的外甥来队部报到了。”", "刘德海"),
    ("桂芝掀开门帘：“老刘晌午托的人来场部送了两斤糖。”", "刘德海"),  # RP1-4
])
def test_rp1_1_the_persons_kin_or_thing_is_not_the_person(body: str, who: str) -> None:
    assert [f for f in _camp(body, who) if "今天在这边" in f.message] == []


# --- RP1-8: a habit told in mourning ---

@pytest.mark.parametrize("body", [
    "桂芝抹着眼泪：“往常晌午赵老栓都在库房里点锯条，雷打不动。”",
    "桂芝抹着眼泪：“平时晌午赵老栓都上库房点锯条。”",
    "桂芝抹着眼泪：“赵老栓往常晌午都在库房里点锯条，雷打不动。”",  # the time after the person
    "桂芝抹着眼泪：“赵老栓晌午总在库房里点锯条，他一走，没人管了。”",
])
def test_rp1_8_a_habit_of_the_dead_is_no_report_of_today(body: str) -> None:
    assert [f for f in _camp(body, "赵老栓") if "今天在这边" in f.message] == []


# --- RP1-3: 去/回/进 say going somewhere; only a place of here is here ---

@pytest.mark.parametrize("body", [
    "桂芝拆开哈尔滨的来信看了半天。\n桂芝说：“老刘今早去厂里报了到，分在锻工车间。”",
    "桂芝掀开门帘：“老刘今早去医院拍了片子，没啥大事。”",
    "桂芝掀开门帘：“老刘晌午去厂里上班了。”",
])
def test_rp1_3_going_to_a_place_not_of_here_is_no_report_of_here(body: str) -> None:
    assert _camp(body) == []


@pytest.mark.parametrize("body", [
    "桂芝掀开门帘：“老刘晌午去青松林场的库房拿了两把斧子。”",  # the scene's own place named
    "桂芝掀开门帘：“老刘才刚进咱们库房拿了两把斧子。”",  # ours
    "桂芝掀开门帘：“老刘晌午来工棚替你领了饭票。”",  # 来: a coming here, as before
])
def test_rp1_3_going_to_a_place_of_here_still_fires(body: str) -> None:
    assert [f for f in _camp(body) if "今天在这边" in f.message]


# --- RP1-7: letters at intervals / a feast-only visit make only the person's own place far, and not a near one ---

@pytest.mark.parametrize("text, places", [
    ("孙大娘住在山下屯子，就隔一道岭，隔三差五托人捎封信来问闺女好。", {"山下屯子"}),
    ("孙大娘住在山下屯子，离青松林场不过三里地，地里活多，逢年过节才来看闺女。", {"山下屯子", "青松林场"}),
    ("孙大娘住在镇上，年底才来青松林场结一回账。", {"青松林场"}),
    ("老赵住在镇上，不识字，只写信也写不成。", {"镇上"}),
])
def test_rp1_7_a_near_place_or_the_place_come_to_is_not_far(text: str, places: set[str]) -> None:
    assert not far_places([text], {"山下屯子", "青松林场", "镇上", "县城"}) & places


@pytest.mark.parametrize("text", [
    "在兰州的车辆段当钳工，隔三差五托人捎信回来。",
    "在兰州的车辆段当钳工，春节才回来一趟。",
    "在兰州的车辆段当钳工，逢年过节才回家。",
    "前几年去兰州修铁路，隔些日子寄一封信来。",
])
def test_rp1_7_the_persons_own_far_place_stays_far(text: str) -> None:
    assert "兰州" in far_places([text], {"兰州", "石料场"})


# --- RP1-2: a day named before the time-first report ---

@pytest.mark.parametrize("body", [
    "桂芝掀开门帘：“铁生，下礼拜一上午老刘来场部开会，你准备准备。”",
    "桂芝掀开门帘：“铁生，下礼拜上午老刘来场部开会，你准备准备。”",
    "桂芝掀开门帘：“铁生，月底上午老刘来场部开会，你准备准备。”",
    "桂芝掀开门帘：“过两天晌午老刘来工棚看你，你把铺收拾收拾。”",
])
def test_rp1_2_a_day_before_the_time_is_not_today(body: str) -> None:
    assert _camp(body) == []


# --- RP1-5: the person's household walking in ---

@pytest.mark.parametrize("body", [
    "老刘家小子从库房后头跑过来，喊铁生去吃饭。",
    "抱着孩子的老刘媳妇从场部那头走过来。",
    "戴着红头巾的老刘闺女推门走了进来。",
    "穿着蓝布褂子的老刘家小子推门进来了。",
    "背着书包的老刘孙子跑进了工棚。",
])
def test_rp1_5_the_persons_household_walking_in_is_not_the_person(body: str) -> None:
    assert _camp(body) == []


# --- RP1-9: the household's title of the dead is not the dead after the death ---

def test_rp1_9_a_title_of_the_dead_is_not_the_dead() -> None:
    body = "桂芝掀开门帘：“师傅晌午在库房里等你，新调来的那位。”"
    assert [f for f in _camp(body, "赵老栓", heard={"师傅": "赵老栓"}) if "今天在这边" in f.message] == []


# --- RP1-10: a seeming ---

@pytest.mark.parametrize("body", [
    "桂芝脸都白了：“赵老栓刚才好像在库房里咳嗽了两声。”",
    "桂芝脸都白了：“赵老栓刚才似乎在库房里咳嗽了两声。”",
])
def test_rp1_10_a_seeming_is_no_report(body: str) -> None:
    assert [f for f in _camp(body, "赵老栓") if "今天在这边" in f.message] == []


# --- RP1-6: a numbered place of here is no date (a catch lost vs stop 60) ---

@pytest.mark.parametrize("body", [
    "桂芝掀开门帘：“老刘晌午在三号库房点锯条呢。”",
    "桂芝掀开门帘：“老刘晌午在二号工棚点锯条呢。”",
])
def test_rp1_6_a_numbered_place_of_here_still_fires(body: str) -> None:
    assert [f for f in _camp(body) if "今天在这边" in f.message]


def test_rp1_6_a_date_still_makes_the_report_of_that_day() -> None:
    body = "桂芝叹了口气：“十号晌午，赵老栓拿这个押在我这里，借了三块钱。”"
    assert [f for f in _camp(body, "赵老栓") if "今天在这边" in f.message] == []
