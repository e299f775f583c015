"""The class of 状态 miss the twenty-fifth round read (issue 30, C24 at stop 50) from the pool of development books — a
faculty the card's own words take away, with no part of the body named the way the older reading needs (右手…拿不了):
sight (什么也看不见，认不得字; 两眼缠着纱布，看不见东西) broken by reading a written thing, legs (站不起来也走不了路) by
running or jumping (hands, 什么都拿不得 → 抄起扁担, tried and dropped: a false alarm on 连续性-盲评二十七). Written here in other genres — a space station, a Ming
workshop, a sect, a city hospital — with other words than the labelled drafts: three sentences that must fire and two
near-misses that must not, for each faculty.

And the dead and the missing doing in the scene what no phrase of the older list says (爬上驾驶台, 牵着青骡转了出来,
低着头把板插进架子, 翻了个身): a way of moving with where to, a posture held, turning over, leading a beast.
"""

from __future__ import annotations

from typing import Any

from lw_storyrepo.continuity import World, places_inside
from lw_storyrepo.forbidden import forbidden_of

import continuity_helpers

CARDS: dict[str, dict[str, Any]] = {
    "沈知远": {"姓名": "沈知远", "状态": "在世", "位置": "天枢站"},
    "白露": {"姓名": "白露", "状态": "眼伤", "位置": "天枢站"},
    "顾铁牛": {"姓名": "顾铁牛", "状态": "烫伤", "位置": "天枢站"},
    "阿蛮": {"姓名": "阿蛮", "状态": "腿伤", "位置": "天枢站"},
    "陆守一": {"姓名": "陆守一", "状态": "已死", "位置": "天枢站"},
    "阿青": {"姓名": "阿青", "状态": "失踪", "位置": "不明"},
}
ALIASES = {**{name: name for name in CARDS}, "小白": "白露", "铁牛": "顾铁牛", "蛮子": "阿蛮", "沈工": "沈知远", "陆伯": "陆守一"}
PLACES = {"天枢站", "医疗舱"}
TEXTS = {"沈知远": "站长。",
         "白露": "领航员。舱壁的焊光灼了眼，两眼缠着纱布，什么也看不见，认不得字。耳朵灵。",
         "顾铁牛": "炉工。两只手叫铁水烫了，裹着药布，什么都拿不得。腿脚照样利索。",
         "阿蛮": "学徒。从脚手架上摔下来，右腿上了夹板，站不起来也走不了路，嘴巴闲不住。",
         "陆守一": "老站长。", "阿青": "补给员。"}
GENDER = {"沈知远": "他", "白露": "她", "顾铁牛": "他", "阿蛮": "他", "陆守一": "他", "阿青": "她"}


def findings(body: str) -> list[str]:
    world = World(CARDS, dict(ALIASES), PLACES, set(), ("普通人",), None, places_inside("", PLACES), GENDER,
                  bars=forbidden_of(CARDS, TEXTS, "", ALIASES, PLACES))
    return [f.message for f in continuity_helpers.findings(body, world, "沈知远", "2131年3月2日", list(CARDS))]


def barred(body: str, who: str) -> bool:
    return any(who in m and "状态" in m for m in findings(body))


def test_the_faculties_are_read_from_the_cards_own_words() -> None:
    bars = forbidden_of(CARDS, TEXTS, "", ALIASES, PLACES)
    # the faculties are one table since S1 at stop 51 (Bars.faculties, told of the card strictly); hands are a row of it
    assert {words for words, _doing in bars["白露"].faculties} >= {"什么也看不见"}
    assert {words for words, _doing in bars["顾铁牛"].faculties} == {"什么都拿不得"}
    assert {words for words, _doing in bars["阿蛮"].faculties} == {"站不起来"}
    assert "沈知远" not in bars and not bars.get("陆守一")
    # 拿不了主意 is no hand; a state that forbids nothing reads no bar
    assert not forbidden_of({"甲": {"姓名": "甲", "状态": "停职"}}, {"甲": "他遇事拿不了主意。"}, "", {"甲": "甲"}, set())["甲"].moves
    # a leg that cannot bear a load on the shoulder (扛不得, 挑不得) leaves the hands free: no hand bar
    assert not forbidden_of({"乙": {"姓名": "乙", "状态": "腿伤"}}, {"乙": "摔了腿，扛不得，挑不得。"}, "", {"乙": "乙"}, set())


def test_a_blind_one_reading_a_written_thing() -> None:
    assert barred("小白扶着舱壁摸到控制台前，把屏幕上的航标号一个一个念了出来。", "白露")
    assert barred("白露接过值班日志，凑到灯下，一行一行看下去。", "白露")
    assert barred("白露把沈工留下的字条展开，低头读了起来。", "白露")
    assert not barred("沈工把航标号一个一个念给小白听。", "白露")  # someone else reads to her
    assert not barred("小白认不得字，只好等沈工来念。", "白露")  # the bar said again, not broken


def test_burnt_hands_are_a_faculty_bar_told_of_the_card_strictly() -> None:
    # hands were tried and dropped here (a take-up a clause away went to the wrong card on 连续性-盲评二十七); S1 at stop
    # 51 brought them back with the act the card's only when its clause's subject is the card
    assert barred("铁牛一看炉口堵了，抄起墙角的火钳就往里捅。", "顾铁牛")
    assert not barred("铁牛回头看了一眼炉口，阿福已经低下头，又抄起了火钳。", "顾铁牛")  # an unknown name leads


def test_a_broken_leg_running_or_jumping() -> None:
    assert barred("蛮子从铺上跳下来，光着脚跑到舱门口张望。", "阿蛮")
    assert barred("阿蛮一听有人喊，一溜烟追到了走廊尽头。", "阿蛮")
    assert barred("阿蛮蹦下担架，扑到窗前。", "阿蛮")
    assert not barred("阿蛮躺在铺上，沈工跑到舱门口替他张望。", "阿蛮")  # another runs
    assert not barred("蛮子想跑到门口去看，腿一动就疼得龇牙。", "阿蛮")  # a wish, not done


def test_the_dead_and_the_missing_moving_in_the_scene() -> None:
    assert barred("陆伯背着手，一级一级爬上了舷梯。", "陆守一")
    assert barred("陆伯牵着那条老狗，从走廊拐角转了出来。", "陆守一")
    assert barred("阿青低着头，把最后一箱药搬进了医疗舱。", "阿青")
    assert barred("对面的铺上，阿青翻了个身，嘟囔着问几点了。", "阿青")
    assert not barred("沈工想起陆伯当年爬上桅杆的样子。", "陆守一")  # a memory
    assert not barred("舱壁上还留着陆伯走过的脚印。", "陆守一")  # a path walked, no act


def test_someone_else_reading_for_the_blind_one() -> None:
    # the outside reviewer's finding 5 (stop 50): a causative or a 念给…听 makes the reader someone else
    assert not barred("小白叫沈工把信读完。", "白露")
    assert not barred("小白坐在床上，让人把门牌上的字念给她听。", "白露")
    assert not barred("小白坐在床上，有人把门牌上的字念给她听。", "白露")
    assert barred("小白坐在床上，把门牌上的字一个一个念了出来。", "白露")


def test_a_course_of_life_is_no_move() -> None:
    # the outside reviewer's finding 6 (stop 50): 走上 an abstract noun is no body moving
    assert not barred("陆伯走上了绝路，这是谁也想不到的。", "陆守一")
    assert not barred("阿青走上了一条歧途。", "阿青")
    assert barred("陆伯走上了舷梯，回头看了一眼。", "陆守一")
