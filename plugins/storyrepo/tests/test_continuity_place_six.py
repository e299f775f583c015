"""An away relative said by another to have come here today to see the point of view (issue 30, P6 at stop 58).

Two ways of writing the development books used and the checks passed over:

- a visit told by its purpose — someone far away reported, in another's words, to have come today *to find*, *to see*,
  *to ask* the point of view (今早来找过你, 晌午来看过你): the report reading
  (:data:`lw_storyrepo.continuity.CAME_HERE`) knew 来过, 过来, 回来 but not a coming named by what it came for
  (:data:`lw_storyrepo.continuity.VISIT_FOR`; 连续性-盲评四十, 四十二; the same writing of someone near in 三十四 stays
  silent). Yesterday's visit ended (R56), a plan, a letter or a call bring no one.
- a card stating its relation with the one kin character a child or a younger sibling uses (X的姐, X的哥, X的妈,
  X的爸: eight development books, :data:`lw_storyrepo.kinship.ONE_CHARACTER_RELATIONS`): the relation was not read,
  so 你姐, 我哥 named nobody. Read only where the character ends its phrase (的姐妹, 的哥们 are other words).
- a false alarm: someone placed somewhere in a telling that opens on another day of the month (五月初五晚上，X在Y…,
  八月二十号傍晚，…; a quote's dated past in 连续性-盲评十二, 十五, 十九, 二十四, 三十一, 三十四, 三十七, 四十) was read as where
  they are now (:func:`lw_storyrepo.continuity._another_days_at`). The in-book date itself, or no date, is now.

Every sentence here is written for this file (a 1963 皖南 tea town); none comes from a labelled draft.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lw_storyrepo.continuity import CAME_BEFORE, CAME_HERE
from lw_storyrepo.kinship import relations, relation_gender

from story_cli import checked_chapter

WORLD = ("一九六三年夏，皖南。屯溪是新安江边上的一个小城，茶厂、码头、老街都在城里。"
         "上海离屯溪坐汽车再换轮船要走两天；黄山林场在深山里，离屯溪坐运木头的卡车要一天。\n")
CARDS = {
    "汪小根": ("汪小根", ["小根"], "屯溪", "十九岁，在茶厂拣茶。", "汪秀兰、汪大根是他的姐和哥。"),
    "汪秀兰": ("汪秀兰", ["秀兰"], "上海", "汪小根的姐，二十四岁，在上海一家印染厂当挡车工，过年才回屯溪。",
             "汪小根管她叫姐。"),
    "汪大根": ("汪大根", ["大根"], "黄山林场", "汪小根的哥，二十七岁，在黄山林场伐木。", "汪小根管他叫哥。"),
    "程桂香": ("程桂香", ["桂香嫂"], "屯溪", "三十岁，老街茶行的老板娘。", "汪小根叫她“桂香嫂”。"),
}



def _placed(tmp_path: Path, body: str) -> list[dict[str, object]]:
    """The 位置 findings of ``lw story check`` on ``body``, a chapter told by 汪小根 with 程桂香 in the scene."""
    found = checked_chapter(tmp_path / "屯溪", WORLD, CARDS, "茶行交茶",
                            "标题: 茶\n视角: 汪小根\n书内时间: 一九六三年七月九日\n一句话事件: 茶行交茶\n在场:\n"
                            "  - 汪小根\n  - 程桂香", body)
    return [f for f in found if f["kind"] == "连贯" and "位置" in str(f["message"])]


def test_a_card_s_one_character_relation_is_read() -> None:
    """X的姐 / X的哥 / X的妈 / X的爸 give the kin forms (你姐, 我哥…) and the gender; 的姐妹, 的哥们 and 的妈妈 are no
    such relation (the doubled form is not this table's)."""
    (before, forms), = relations("二十四岁，汪小根的姐，在上海做工。")
    assert before.endswith("汪小根") and {"你姐", "我姐", "姐姐"} <= forms
    (_, brother), = relations("汪小根的哥，在林场伐木。")
    assert {"你哥", "哥哥"} <= brother
    assert {"你妈", "妈妈"} <= relations("许二的妈，在乡下。")[0][1]
    assert {"你爸", "爸爸"} <= relations("许二的爸，在乡下。")[0][1]
    assert relation_gender("二十四岁，汪小根的姐。", {"汪小根"}) == "她"
    for other in ("她跟着同厂的姐妹去了上海。", "他是汪小根的哥们。", "老街上的姑娘都认得她。"):
        assert relations(other) == [], other


@pytest.mark.parametrize("visit", ["今天一早来找过你", "晌午来看过你", "今早到茶厂来问过你", "上午来寻你"])
def test_a_visit_told_by_its_purpose_is_a_coming(visit: str) -> None:
    """The report reading's coming words hold a visit named by what it came for; yesterday's is a visit that ended."""
    assert re.search(rf"(?:{CAME_HERE})", visit)
    assert re.search(rf"(?:{CAME_BEFORE})", "昨天来找过你") and re.search(rf"(?:{CAME_BEFORE})", "昨儿来看过你")


@pytest.mark.parametrize("body", [
    # the sister by the kin word the card's relation gives (你姐), come today to find him
    "小根挑着茶篓进了茶行。桂香嫂一边过秤一边说：“你姐今天一早到茶行来找过你，你不在，她坐了一会儿走了。”",
    # the brother by his name, come at noon to see him
    "秤完了茶，桂香嫂递给小根一碗水：“大根晌午来看过你，给你捎了两斤笋干。”",
])
def test_an_away_relative_said_to_have_come_today_fires(tmp_path: Path, body: str) -> None:
    found = _placed(tmp_path, body)
    assert len(found) == 1, found
    assert "今天来过这边" in str(found[0]["message"]), found


@pytest.mark.parametrize("body", [
    # yesterday's visit ended; a plan; a letter; someone near; a memory of another year; the journey told
    "小根挑着茶篓进了茶行。桂香嫂说：“你姐昨天来找过你，坐了一会儿就赶车回上海了。”",
    "小根挑着茶篓进了茶行。桂香嫂说：“你姐今天要来找你，说是下午的车。”",
    "小根挑着茶篓进了茶行。桂香嫂说：“你姐今天来信了，说过年回来看你。”",
    "小根挑着茶篓进了茶行。桂香嫂说：“今早有个收茶的来找过你。”",
    "小根想起前年秋天，姐从上海回来，一早就到茶行来找他。",
    "晌午秀兰坐轮船从上海回来了。桂香嫂说：“你姐今天一早到茶行来找过你。”",
])
def test_no_visit_today_is_silent(tmp_path: Path, body: str) -> None:
    assert _placed(tmp_path, body) == []


def _moved(tmp_path: Path, body: str) -> list[dict[str, object]]:
    """The findings of :func:`_placed` that place 程桂香 (屯溪 on her card) somewhere her card does not."""
    return [f for f in _placed(tmp_path, body) if "程桂香" in str(f["message"]) and "本章没有写" in str(f["message"])]


@pytest.mark.parametrize("body", [
    # placed there on a day of the month other than the in-book date's (一九六三年七月九日): where she was that day
    "小根蹲在茶行门口歇脚，跟账房说：“六月初三那天，桂香嫂在上海给我扯了一块蓝布。”",
    "小根说：“五月二十号傍晚，桂香嫂在上海码头上等船，我姐看见的。”",
])
def test_someone_placed_on_another_day_is_no_placing_now(tmp_path: Path, body: str) -> None:
    assert _moved(tmp_path, body) == []


@pytest.mark.parametrize("body", [
    "小根蹲在茶行门口歇脚，跟账房说：“桂香嫂在上海给我扯了一块蓝布。”",
    # the in-book date itself is now
    "小根蹲在茶行门口歇脚，跟账房说：“七月九日一早，桂香嫂在上海给我扯了一块蓝布。”",
])
def test_someone_placed_today_elsewhere_still_fires(tmp_path: Path, body: str) -> None:
    found = _moved(tmp_path, body)
    assert len(found) == 1 and "「上海」" in str(found[0]["message"]), found
