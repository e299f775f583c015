"""Stop 57's fixes of R57's F4, F4b, F4c, F6 and F7 (P5's round narrowed): the reviewer's own counter-example
sentences, through ``lw story check``, and the catches the round was built for kept."""
import json
from pathlib import Path

import pytest

from lw_storyrepo import layout as L
from lw_storyrepo.continuity import far_places, prose_places
from story_cli import Card, checked_chapter, hand_in, lw

WORLD = ("一九五六年秋，江南。周家渡是运河边上的一个小镇，渡口、茶馆、米行都在镇上。"
         "湖州离周家渡两百多里，要坐一天的航船。\n")
MOTHER = {
    "周阿福": ("周阿福", ["阿福"], "周家渡", "二十岁，在渡口撑船。", "沈秀英是他娘。"),
    "沈秀英": ("沈秀英", ["娘", "周家嫂子"], "湖州", "四十五岁，周阿福的娘。回湖州娘家照看病重的老娘，年前回不来。",
             "周阿福叫她“娘”，镇上的人叫她“周家嫂子”。"),
    "钱小梅": ("钱小梅", ["小梅"], "周家渡", "十八岁，茶馆老板的女儿。", "周阿福叫她“小梅”。"),
}
AUNT = {
    "周阿福": ("周阿福", ["阿福"], "周家渡", "二十岁，在渡口撑船。", "周桂兰是他姑姑。"),
    "周桂兰": ("周桂兰", ["姑", "姑姑"], "湖州", "四十五岁，周阿福的姑姑。嫁到湖州，年前回不来。", "周阿福叫她“姑”。"),
}



def _ferry(tmp_path: Path, body: str, cards: dict[str, Card], dead: str = "") -> list[dict[str, object]]:
    """The findings of ``lw story check`` on ``body`` as 周阿福's chapter in the ferry town's book (``dead``'s card
    已死)."""
    return checked_chapter(tmp_path / "渡口", WORLD, cards, "渡口买米",
                           "标题: 米\n视角: 周阿福\n书内时间: 一九五六年十月三日\n一句话事件: 渡口买米\n在场:\n  - 周阿福", body,
                           dead)


def _there(found: list[dict[str, object]], who: str) -> list[str]:
    return [str(f["message"]) for f in found if who in str(f["message"]) and "在场" in str(f["message"])]


@pytest.mark.parametrize("body", [
    "阿福买完米出来，看见娘舅蹲在米行门口抽烟。",  # F4: 娘舅, his maternal uncle
    "阿福靠在船头，恍惚看见娘站在河埠头上喊他。",  # imagined
    "阿福闭上眼，仿佛又看见娘坐在灯下纳鞋底。",
    "阿福盼着一抬头就看见娘站在渡口。",  # wished
    "阿福要是能看见娘站在渡口就好了。",
    "阿福没看见娘站在渡口，心里空落落的。",  # denied
    "阿福买完米出来。娘舅蹲在米行门口抽烟，冲他招手。",  # F4c: no sighting word at all
    "阿福把船撑到渡口。娘舅家的表哥站在岸上喊他。",
])
def test_an_away_mother_is_not_there_when_the_sighting_is_not_of_her_or_not_of_the_scene(tmp_path: Path,
                                                                                         body: str) -> None:
    assert _there(_ferry(tmp_path, body, MOTHER), "沈秀英") == []


def test_an_away_mother_seen_in_the_scene_is_still_caught(tmp_path: Path) -> None:
    """The catch P5 was built for (位置-3 of 三十八, 四十, 四十一: 他看见娘站在…)."""
    assert _there(_ferry(tmp_path, "阿福看见娘站在台阶底下。", MOTHER), "沈秀英")


@pytest.mark.parametrize("body, caught", [("阿福买完米出来，看见姑娘站在茶馆门口。", False),
                                          ("阿福买完米出来，看见姑站在茶馆门口。", True)])
def test_a_girl_is_not_the_aunt(tmp_path: Path, body: str, caught: bool) -> None:
    """F4: 姑娘 (a girl) after 看见 is not 姑; 看见姑站在… still is."""
    assert bool(_there(_ferry(tmp_path, body, AUNT), "周桂兰")) == caught


@pytest.mark.parametrize("body", ["阿福闭上眼，仿佛又看见娘坐在灯下纳鞋底。", "阿福买完米出来，看见娘舅蹲在米行门口抽烟。"])
def test_a_dead_mother_imagined_or_an_uncle_is_no_error(tmp_path: Path, body: str) -> None:
    """F4b: the sighting's edge is the sighting reader's alone; the 状态 reader does not take 娘 after 看见."""
    found = _ferry(tmp_path, body, MOTHER, dead="沈秀英")
    assert [f for f in found if "沈秀英" in str(f["message"])] == []


@pytest.mark.parametrize("text, places", [
    ("老周在井台北边十几米的地方挖坑", {"井台"}),
    ("大家在村子西边二里地的河滩上扎营", set()),
    ("第二天在镇子东边十里的地方歇脚", set()),
    ("队伍在县城东南三十里处宿营", {"县城"}),
    ("日军在上海以北几十公里登陆", {"上海"}),
    ("小屋在河的东边五十米", set()),
    ("府城在青窑镇以东八十里", {"府城", "青窑镇"}),  # the reading's own row, kept
    ("李文山在府城以东八十里", {"府城"}),  # a card's name ending as a place does
    ("南京在海州西南六百多里", {"南京", "海州"}),  # a city's name, set from a place
    ("宋掌柜在账房东边二十米", set()),
])
def test_a_person_or_a_day_before_a_bearing_is_no_place(text: str, places: set[str]) -> None:
    """F6: of the two the prose sets apart, no card, no one and no day is a place, and one of them ends as a place's
    name does."""
    assert prose_places([text], {"李文山"}) == places


def _book(tmp_path: Path, world: str, people: list[tuple[str, str]], pov: str, body: str) -> list[str]:
    root = tmp_path / "b"
    lw(root, "init", str(root), "--书名", "b", "--类型", "年代", "--每章目标字数", "200")
    (root / L.世界观).write_text(world, encoding="utf-8")
    lw(root, "fix")
    for name, place in people:
        lw(root, "character", "set", name, "位置", place)
    lw(root)
    lw(root, "card", "edit", "--合同", "干活")
    lw(root, "decide")
    lw(root)
    hand_in(root, f"---\n标题: 盐\n视角: {pov}\n书内时间: 1932年6月2日\n一句话事件: 干活\n在场:\n  - {pov}\n---\n\n{body}\n")
    return [str(f["message"]) for f in json.loads(lw(root, "check", "--json"))["A"] if f.get("severity") != "info"]


def test_a_card_named_before_a_bearing_is_no_place_of_the_book(tmp_path: Path) -> None:
    """F6 end to end: 老陈在账房东边二十米搭了个窝棚 does not make 老陈 a place 宋掌柜 must be said to go to."""
    found = _book(tmp_path, "一九三二年，海州的盐场。晒盐的滩地、盐垛和账房都在盐场上。老陈在账房东边二十米搭了个窝棚。\n",
                  [("宋掌柜", "盐场"), ("小满", "盐场"), ("老陈", "盐场")], "小满",
                  "晌午，宋掌柜在老陈那儿坐了一会儿，抓起一把盐看成色。")
    assert [m for m in found if "「老陈」" in m] == []


WORLD_CANGZHOU = "一九四六年冬，沧州。林家三代住在沧州老家，城里的杂货铺是林家开的。"


@pytest.mark.parametrize("sentence", ["这里就是沧州老家。", "他们一家住在沧州老家，三代没挪过窝。", "林秀在沧州老家教书。"])
def test_the_books_own_town_is_no_family_home_away(sentence: str) -> None:
    """F7: the setting line's town (一九四六年冬，沧州。) or a home said to be here is not far."""
    assert far_places([WORLD_CANGZHOU, sentence], ["沧州", "杂货铺"]) == frozenset()


def test_a_family_home_away_from_the_setting_is_still_far() -> None:
    """The catch P5 was built for (位置-2 of 三十九: 杨秀珍在四川天全老家)."""
    world = "# 世界观\n\n## 设定\n一九八八年秋天，柯洛养护段第九道班守着三十公里路。杨秀珍在四川天全老家。"
    assert "天全" in far_places([world], ["柯洛", "天全", "九道班"])


def test_the_books_own_town_end_to_end(tmp_path: Path) -> None:
    """F7 end to end: 林老栓 in 沧州, the book's town, beside 林秀 in its shop, is no one far away."""
    found = _book(tmp_path, WORLD_CANGZHOU + "\n", [("林秀", "杂货铺"), ("林老栓", "沧州")], "林秀",
                  "林秀在铺子里理货。林老栓蹲在门口抽烟，一声不吭。")
    assert [m for m in found if "林老栓" in m and "很远" in m] == []
