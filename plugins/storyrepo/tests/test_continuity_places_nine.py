"""An away relative the point of view calls by a one-character kin word, seen here (issue 30, P5 at stop 57).

A card gives its character the kin word the point of view calls them by as a name (别名: 娘, 妈) and puts them far away
(位置: their home village, days off); the narration then has the point of view see them here —
他看见娘站在街口…, 瞧见妈蹲在井台边上 — with no journey told. Three development books (连续性-盲评三十八, 四十, 四十一) wrote
it this way and the checks were silent: the one-character word was no name of the card's in the chapter (only kin words
of two characters were), and after a sighting word (:data:`lw_storyrepo.continuity.SIGHTED`) it was read as the tail of
another word; the seer's own match (他…站) passed over the one seen. The readings are general: the kin characters are
:data:`lw_storyrepo.kinship.ONE_CHARACTER` (from the kinship forms), the sighting words the table the witness reading
already used. Silent for a dream, a memory, a photograph, someone who came back, and a chapter told by someone who is
not their child.

Every sentence here is written for this file (a 1950s Jiangnan ferry town, a 1970s Shaanxi coal pit); none comes from a
labelled draft.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lw_storyrepo import layout as L
from lw_storyrepo.continuity import far_places, prose_places
from lw_storyrepo.kinship import ONE_CHARACTER

from story_cli import checked_chapter, hand_in, lw

WORLD = ("一九五六年秋，江南。周家渡是运河边上的一个小镇，渡口、茶馆、米行都在镇上。"
         "湖州离周家渡两百多里，要坐一天的航船。\n")
CARDS = {
    "周阿福": ("周阿福", ["阿福"], "周家渡", "二十岁，在渡口撑船。", "沈秀英是他娘。"),
    "沈秀英": ("沈秀英", ["娘", "周家嫂子"], "湖州", "四十五岁，周阿福的娘。回湖州娘家照看病重的老娘，年前回不来。",
             "周阿福叫她“娘”，镇上的人叫她“周家嫂子”。"),
    "钱小梅": ("钱小梅", ["小梅"], "周家渡", "十八岁，茶馆老板的女儿。", "周阿福叫她“小梅”。"),
}



def _checked(tmp_path: Path, body: str, pov: str = "周阿福") -> list[dict[str, object]]:
    """The findings of ``lw story check`` on ``body`` as a chapter told by ``pov`` in the ferry town's book."""
    found = checked_chapter(tmp_path / "渡口", WORLD, CARDS, "渡口买米",
                            f"标题: 米\n视角: {pov}\n书内时间: 一九五六年十月三日\n一句话事件: 渡口买米\n在场:\n  - {pov}", body)
    return [f for f in found if "沈秀英" in str(f["message"]) and "在场" in str(f["message"])]


def test_the_kin_characters_are_the_one_character_forms() -> None:
    """娘 and 爹 are kinship forms of one character; 妈, 爸, 姐 the first of a doubled form (妈妈); no name's character."""
    assert {"娘", "爹", "妈", "爸", "姐", "哥"} <= ONE_CHARACTER
    assert not {"周", "英", "小", "老"} & ONE_CHARACTER


@pytest.mark.parametrize("body", [
    "阿福撑船回到渡口，系好缆绳，上街去买米。\n\n米行门口人多，他看见娘站在台阶底下，正跟伙计讲价钱。",
    "阿福挑着米往回走。过了石桥，他瞧见娘蹲在河埠头上洗衣裳，一下一下地捶。",
    # across a crowd is in sight: no voice through a wall
    "阿福买完米出来，隔着街上的人群，他看见娘站在茶馆门口。",
])
def test_an_away_mother_seen_here_fires(tmp_path: Path, body: str) -> None:
    """The card's 位置 and the point of view's place named; the sentence of the sighting as the evidence."""
    found = _checked(tmp_path, body)
    assert len(found) == 1, found
    assert "「湖州」" in str(found[0]["message"]) and "娘" in str(found[0]["excerpt"]), found


@pytest.mark.parametrize(("body", "pov"), [
    # a dream, a memory, a photograph
    ("阿福靠在船头打了个盹，梦见娘站在河埠头上喊他回家吃饭。", "周阿福"),
    ("阿福想起去年秋天，娘站在河埠头上喊他回家吃饭。", "周阿福"),
    ("阿福回到屋里，看见娘的照片还摆在桌上。", "周阿福"),
    # a journey told: she came back
    ("晌午头上，娘坐航船从湖州回来了。阿福在渡口看见娘站在船头上。", "周阿福"),
    # told by someone who is not her child: 娘 is the teller's own mother, no card
    ("小梅在茶馆门口择菜，看见娘站在灶台边上烧水。", "钱小梅"),
])
def test_the_near_misses_stay_silent(tmp_path: Path, body: str, pov: str) -> None:
    assert _checked(tmp_path, body, pov) == []


def test_a_family_home_at_a_place_is_away() -> None:
    """A place said as someone's family home (X老家, X的娘家) is one they went back to from the book's place, a
    journey; not a home whose place follows it (娘家在…, 原籍米脂), nor a place merely named."""
    places = {"榆林", "铜川", "米脂", "矿上", "王家沟"}
    assert far_places(["他娘在陕北榆林老家种地。"], places) == {"榆林"}
    assert far_places(["腊月里她回了铜川的娘家，正月十五以后才来。"], places) == {"铜川"}
    assert far_places(["她娘家在王家沟，就在矿上东边。", "赵叔原籍米脂。", "榆林的羊肉好吃。"], places) == frozenset()


def test_an_away_mother_at_her_home_village_fires(tmp_path: Path) -> None:
    """The world says no distance; her card puts her in her family home (在…老家): the pit's son sees her here."""
    cards = {"李军": ("李军", ["小李"], "矿上", "十九岁，采煤工。", "张桂花是他妈。"),
             "张桂花": ("张桂花", ["妈"], "米脂", "李军的妈。在米脂老家种地，带着两个小的。", "李军叫她“妈”。")}
    found = checked_chapter(tmp_path / "矿", "一九七五年冬，陕北一座煤矿。井口、澡堂、食堂都在矿上。\n", cards, "下井",
                            "标题: 井\n视角: 李军\n书内时间: 一九七五年十二月三日\n一句话事件: 下井\n在场:\n  - 李军",
                            "李军下了班，从澡堂出来。妈蹲在食堂门口剥蒜，一瓣一瓣地剥。")
    ours = [f for f in found if "张桂花" in f["message"] and "「米脂」" in f["message"]]
    assert len(ours) == 1 and "妈蹲在" in ours[0]["excerpt"], found


def test_places_the_world_prose_sets_by_bearing_and_distance() -> None:
    """A place set from another by a bearing and a counted distance is a place of the book, both of them; not a place
    inside another (…的大山里), a bearing from an unnamed town (城东南), a pronoun's (这里在…), nor one with no distance."""
    assert prose_places(["盐场在海州东南九十多里。", "省城在县城以北约三百公里，坐汽车要一天。"]) == {
        "盐场", "海州", "省城", "县城"}
    assert prose_places(["矿洞在黑石岭西坡的林子里。", "关帝庙在城西北二里。", "这里在山东面五里。", "码头在镇东。"]) == set()


SALT = "一九三二年，海州的盐场。晒盐的滩地、盐垛和账房都在盐场上。南京在海州西南六百多里，坐火车要一天一夜。\n"


@pytest.mark.parametrize(("body", "fires"), [
    ("宋掌柜这几天在南京打官司，盐场的账都压在小满身上。\n\n晌午，宋掌柜蹲在盐垛边上，抓起一把盐看成色。", True),
    ("宋掌柜前天回南京去了。\n\n晌午，宋掌柜蹲在盐垛边上，抓起一把盐看成色。", True),
    # a journey back told, a memory of there, someone else here
    ("宋掌柜前天回南京去了。\n\n晌午，宋掌柜坐火车从南京赶回来了，蹲在盐垛边上，抓起一把盐看成色。", False),
    ("宋掌柜这几天在南京打官司。\n\n晌午，老陈蹲在盐垛边上，抓起一把盐看成色。", False),
])
def test_someone_sent_to_a_place_of_the_world_prose_and_here(tmp_path: Path, body: str, fires: bool) -> None:
    """南京 is named only in the world's prose (no card there, no roster row): the draft sends someone there and then
    has them here, with no journey back told."""
    root = tmp_path / "盐"
    lw(root, "init", str(root), "--书名", "盐", "--类型", "年代", "--每章目标字数", "200")
    (root / L.世界观).write_text(SALT, encoding="utf-8")
    lw(root, "fix")
    for name in ("宋掌柜", "小满", "老陈"):
        lw(root, "character", "set", name, "位置", "盐场")
    lw(root)  # brief
    lw(root, "card", "edit", "--合同", "晒盐")
    lw(root, "decide")
    lw(root)  # pack
    hand_in(root, f"---\n标题: 盐\n视角: 小满\n书内时间: 1932年6月2日\n一句话事件: 晒盐\n在场:\n  - 小满\n---\n\n{body}\n")
    found = [f for f in json.loads(lw(root, "check", "--json"))["A"]
             if "「海州」" not in f["message"] and "南京" in f["message"] and "在场" in f["message"]]
    assert (len(found) == 1 and "宋掌柜" in found[0]["message"]) if fires else found == [], found
