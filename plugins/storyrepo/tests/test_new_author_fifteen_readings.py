"""Two false alarms a new author met on good chapters (stop 58, FU1), shown here in other books and words:

- a numeral and 号 before a thing counted by number (三号窑, 五号井, 七号船: ``continuity.SERIAL_NOUNS``), or a run of
  them (三号到六号), is a serial number, not today's day of the month — and no new name spans the run (窑到六号);
  a day said to be today is still read (今天三号，…; 今天三号晚上; 今天三号房租到期; 从今天三号到十号);
- a sentence that puts someone away at their card's own place (玉兰带着孩子留在镇江) is not them being here; the same
  person acting here is still a 位置 hint.
"""

from __future__ import annotations

from typing import Any

import pytest

from lw_storyrepo.checks import CheckContext, voices
from lw_storyrepo.continuity import World, check_continuity, far_places, journeys, places_inside
from lw_storyrepo.propernouns import find_new_nouns

CARDS = {
    "陆文清": {"姓名": "陆文清", "状态": "在世", "位置": "上海"},
    "周阿福": {"姓名": "周阿福", "状态": "在世", "位置": "上海"},
    "钟玉兰": {"姓名": "钟玉兰", "状态": "在世", "位置": "汉口"},
}
ALIASES = {**{name: name for name in CARDS}, "阿福": "周阿福", "玉兰": "钟玉兰"}
PLACES = {"上海", "汉口", "窑厂"}
LORE = "窑厂在上海。汉口在长江上游，从上海坐船要走七八天。"


def continuity(body: str, now: str = "1962年5月20日") -> list[str]:
    meta: dict[str, Any] = {"视角": "陆文清", "书内时间": now, "设定变更": [], "在场": ["陆文清", "周阿福"]}
    world = World(CARDS, dict(ALIASES), PLACES, set(), ("学徒", "师傅"), None, places_inside(LORE, PLACES),
                  {"陆文清": "他", "周阿福": "他", "钟玉兰": "她"},
                  far=far_places([LORE], PLACES), journey=journeys([LORE], PLACES))
    ctx = CheckContext(dict(ALIASES), [], [], [], 0, set(ALIASES), set(), world=world, people=set(CARDS)).for_draft(meta)
    world.aliases, world.indirect = ctx.aliases, ctx.kin_words
    lines = body.split("\n")
    return [f.message for f in check_continuity(world, meta, lines, 1, voices(ctx, lines), ctx.names_re())]


def day_said(body: str) -> list[str]:
    return [m for m in continuity(body) if "书内时间" in m]


@pytest.mark.parametrize("serial", [
    "陆文清把账本一合：“阿福，今天三号窑到六号窑归你看火，别让火头塌了。”",
    "陆文清把账本一合：“阿福，今天三号到六号归你看火，别让火头塌了。”",
    "队长说：“今天五号井归你下，带足了灯。”",
    "码头上喊：“明天七号船先卸，八号船等着。”",
    "陆文清说：“今天三号线、五号线都停电，去别处装车。”",
    "护士说：“今天十二号床要换药，你去盯着。”",
])
def test_a_numbered_thing_is_no_day_of_the_month(serial: str) -> None:
    assert day_said(serial) == []


@pytest.mark.parametrize("day", [
    "陆文清把账本一合：“今天三号，该发工钱了。”",
    "陆文清说：“今天三号晚上窑厂开会。”",
    "陆文清说：“今天三号房租该交了。”",
    "陆文清说：“从今天三号到十号，窑厂歇工。”",
    "陆文清说：“明天就是十二号了，窑要封。”",
])
def test_a_day_of_the_month_said_of_today_is_still_read(day: str) -> None:
    assert day_said(day), day


def test_no_new_name_spans_a_run_of_numbered_things() -> None:
    for line in ("陆文清说：“今天三号窑到六号窑归你看火。”", "队长说：“二号车到六号车今天都要检修。”"):
        assert [n.name for n in find_new_nouns(line, set(ALIASES)) if "号" in n.name] == [], line
    # a vehicle's own name with a number is still a new name
    assert "开拓者三号" in [n.name for n in find_new_nouns("他们登上了开拓者三号，直奔月球。开拓者三号很快进入轨道。", set())]


def place_hints(body: str) -> list[str]:
    return [m for m in continuity(body) if "来到这里" in m]


def test_a_person_at_their_card_s_own_place_is_not_here() -> None:
    assert place_hints("钟玉兰带着两个孩子留在汉口，守着老屋；陆文清和阿福开着窑，一天也不敢歇。") == []
    assert place_hints("玉兰守在汉口的铺子里，一封信也没寄来。陆文清添了一把柴。") == []
    # the same person acting here is still caught
    assert place_hints("钟玉兰带着两个孩子坐在炕沿上，陆文清和阿福开着窑，一天也不敢歇。")
    assert place_hints("钟玉兰带着两个孩子守在窑门口，陆文清和阿福开着窑，一天也不敢歇。")
    assert place_hints("钟玉兰留在汉口的信搁在桌上。她坐在炕沿上，陆文清添了一把柴。")
