"""The classes the seventeenth round read (issue 30: 位置 and 状态), found missed on the development books
连续性-盲评十六 and 十七 (both by other writers than the older sets) and kept because each gained there with no false
alarm anywhere, written here at a forestry camp of the 1960s — other words than the labelled drafts: the right
sentence next to each wrong one.

- two places the world says are linked by telegram and long-distance calls (只能拍电报、打长途) are a journey apart:
  someone whose card puts them at the other end acting beside the point of view was not seen before;
- a sighting today told by 碰到/遇到, the far place said in another sentence of the same quote (去那边的车票) not
  where the sighting was;
- a name called before 你 (守仁，你到了哈尔滨…) takes nobody anywhere: the journey is the listener's, to come;
- a state's bar on boarding (不许上红旗号) broken by 上了红旗号; a part that can do nothing doing it after a 把
  clause (两只手把那捆树苗一抄).
"""

from __future__ import annotations

from typing import Any

from lw_storyrepo.continuity import far_places
from lw_storyrepo.forbidden import forbidden_of

import continuity_helpers

CARDS: dict[str, dict[str, Any]] = {
    "白守仁": {"姓名": "白守仁", "状态": "在世", "位置": "青松林场"},
    "邹大年": {"姓名": "邹大年", "状态": "在世", "位置": "哈尔滨"},
    "葛春生": {"姓名": "葛春生", "状态": "停职", "位置": "青松林场"},
    "牛二": {"姓名": "牛二", "状态": "手伤", "位置": "青松林场"},
}
ALIASES = {**{name: name for name in CARDS}, "守仁": "白守仁", "邹场长": "邹大年", "老邹": "邹大年", "春生": "葛春生"}
PLACES = {"青松林场", "哈尔滨", "红旗号", "场部"}
LORE = ("青松林场在小兴安岭的山沟里，场部在青松林场的沟口。邹大年去了哈尔滨，月底才回。青松林场和哈尔滨之间只能拍电报、"
        "打长途。葛春生放排出了事，停了职，不许上红旗号。牛二的手叫锯拉伤了，两只手什么也拿不了。")
TEXTS = {"白守仁": "伐木工。", "邹大年": "场长。", "葛春生": "放排工，停职。", "牛二": "伐木工，手伤。"}
GENDER = {"白守仁": "他", "邹大年": "他", "葛春生": "他", "牛二": "他"}


def findings(body: str, lore: str = LORE) -> list[str]:
    world = continuity_helpers.world_of(CARDS, ALIASES, PLACES, TEXTS, lore, GENDER, far=True)
    return [f.message for f in continuity_helpers.findings(body, world, "白守仁", "1963年11月2日", ["白守仁", "葛春生", "牛二"])]


def test_places_linked_by_telegram_and_long_distance_calls_are_far() -> None:
    assert "哈尔滨" in far_places([LORE], PLACES)
    assert "哈尔滨" not in far_places(["邹大年去了哈尔滨，月底才回。"], PLACES)  # nothing says how far
    here = findings("屋里生着火。\n\n老邹正站在火炉跟前，两只手烤着火，一声不吭。")
    assert [m for m in here if "邹大年" in m and "哈尔滨" in m]
    assert not [m for m in findings("屋里生着火。\n\n守仁接起长途电话，老邹在那头咳了两声。") if "邹大年" in m]


def test_a_sighting_told_by_pengdao_in_its_own_sentence() -> None:
    seen = findings("“去哈尔滨的车票买好了。还有，我今天一早在场部门口碰到邹场长了。”春生说。")
    assert [m for m in seen if "邹大年" in m and "今天" in m]
    there = findings("“我今天一早在哈尔滨碰到邹场长了。”春生说。")  # seen at his far place
    assert not [m for m in there if "邹大年" in m]


def test_a_name_called_before_you_takes_nobody_anywhere() -> None:
    told = findings("“守仁，你到了哈尔滨，替我问老邹好。”春生说。\n\n葛春生蹲在炉子边上抽烟。")
    assert not [m for m in told if "葛春生" in m and "位置" in m]


def test_a_boat_barred_and_hands_that_hold_nothing() -> None:
    assert forbidden_of(CARDS, TEXTS, LORE, ALIASES, PLACES)["葛春生"].places == frozenset({"红旗号"})
    assert [m for m in findings("春生踩着跳板上了红旗号，解开了缆绳。") if "葛春生" in m and "红旗号" in m]
    assert not [m for m in findings("春生站在岸上，望着红旗号。") if "葛春生" in m and "状态" in m]
    assert [m for m in findings("牛二一听，两只手把那捆树苗一抄，扛起来就走。") if "牛二" in m and "用不了" in m]
    assert not [m for m in findings("牛二两只手吊在胸前，站在一边看。") if "牛二" in m and "状态" in m]


def test_an_aside_names_no_far_end_and_the_towns_own_places_are_near() -> None:
    lore = LORE.replace("打长途。", "打长途（场部有一部手摇电话）。").replace("场部在青松林场的沟口。", "")
    assert "场部" not in far_places([lore], PLACES) and "哈尔滨" in far_places([lore], PLACES)
    # both ends of the line are far from each other; the point of view in 场部 (a place of its own town that no
    # journey is known to) is near those at home
    home = findings("守仁走进了场部。\n\n春生蹲在炉子边上抽烟，一声不吭。", lore)
    assert not [m for m in home if "葛春生" in m and "位置" in m]
