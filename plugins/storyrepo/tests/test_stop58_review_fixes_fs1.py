"""Stop 58's outside reading of S1's 状态 round (R58's bugs 3, 4, 7, 8, 9, 12, 13), narrowed (fs1).

The counter-examples are the reviewer's own sentences, on the reviewer's own book (a 1936 临清 opera troupe): each
was a false alarm (or a lost catch) of S1's readings; each test holds the narrowed reading silent there (or catching
again) while S1's own catches stay (``test_continuity_state_seven.py`` and the pins of 连续性-盲评三十…四十三):

- boarding (上, 登) needs its thing right after the verb as a whole word (上了台, not 上了台阶, 走上前拧亮了台灯), and an
  act after 看着/把 + another is that other's (小凤仙看着师妹上了台);
- a later sentence opening on a remembered day (那天/那日 …) is one only when the day word stands alone (not 那天井,
  那日头), and it silences its own sentence's acts and those after it, not the paragraph's before it;
- done well is the barred verb + 得 + a word of skill or speed (not 得很吃力); a span of time (多久) is no thing;
- a written thing read is a whole word (被单, 书箱 are not);
- no second verb stands between a barred act's verb and its thing (背着手想事);
- 拿不住 said of people (手下…他拿不住) bars no hand;
- walking helped by another (架着/扶着/搀着/背着 someone, 被…架着) is not the card walking.
"""

from __future__ import annotations

from typing import Any

from lw_storyrepo.continuity import World, places_inside
from lw_storyrepo.forbidden import forbidden_of

import continuity_helpers

PLACES = {"临清", "德州"}
CARDS: dict[str, dict[str, Any]] = {
    "小凤仙": {"姓名": "小凤仙", "状态": "倒仓", "位置": "临清"},
    "老孟": {"姓名": "老孟", "状态": "已死", "位置": "临清"},
    "周福": {"姓名": "周福", "状态": "病重", "位置": "临清"},
    "王瞎子": {"姓名": "王瞎子", "状态": "不识字", "位置": "临清"},
    "刘满仓": {"姓名": "刘满仓", "状态": "瘫痪", "位置": "临清"},
    "赵四": {"姓名": "赵四", "状态": "年幼", "位置": "临清"},
    "马主任": {"姓名": "马主任", "状态": "手伤", "位置": "临清"},
    "秋生": {"姓名": "秋生", "状态": "在世", "位置": "临清"},
}
TEXTS = {
    "小凤仙": "戏班的青衣，嗓子倒了仓，上不了台。",
    "老孟": "秋生的师父，去年冬天死了。",
    "周福": "痨病拖了三年，撑不了多久。",
    "王瞎子": "算命的，认不得字。",
    "刘满仓": "瘫在床上两年，下不了地。",
    "赵四": "年纪小，担不了事。",
    "马主任": "新来的主任性子软，手下那几个老油条他拿不住。",
    "秋生": "木匠学徒。",
}
ALIASES = {n: n for n in CARDS}
GENDER = {"小凤仙": "她", "老孟": "他", "周福": "他", "王瞎子": "他", "刘满仓": "他", "赵四": "他", "马主任": "他", "秋生": "他"}


def findings(body: str) -> list[str]:
    world = World(CARDS, dict(ALIASES), PLACES, set(), ("普通人",), None, places_inside("", PLACES), GENDER,
                  bars=forbidden_of(CARDS, TEXTS, "", ALIASES, PLACES))
    return [f.message for f in continuity_helpers.findings(body, world, "秋生", "1936年5月10日", list(CARDS))]


def barred(body: str, who: str) -> bool:
    return any(m.startswith(f"{who} 的状态") for m in findings(body))


def test_boarding_needs_its_thing_as_a_whole_word_right_after_the_verb() -> None:  # bug 3
    assert not barred("小凤仙扶着栏杆，慢慢上了台阶。", "小凤仙")
    assert not barred("小凤仙走上前拧亮了台灯，坐下来对着镜子卸妆。", "小凤仙")
    assert barred("锣鼓一响，小凤仙硬着头皮上了台，张嘴却没有声音。", "小凤仙")


def test_an_act_after_looking_at_or_sending_another_is_the_others() -> None:  # bug 3, R58's side note
    assert not barred("小凤仙看着师妹一个人上了台，眼圈红了。", "小凤仙")
    assert not barred("小凤仙把师妹送上了台，自己躲在幕后。", "小凤仙")


def test_a_remembered_day_is_a_day_word_alone_and_silences_from_its_sentence_on() -> None:  # bug 4
    assert barred("秋生推开门。那天井里的雪还没化，老孟蹲在门槛上抽烟，冲他招了招手。", "老孟")
    assert barred("秋生推开门。那日头正毒，老孟蹲在门槛上抽烟，冲他招了招手。", "老孟")
    assert barred("秋生推开门，老孟蹲在门槛上抽烟。那天的活儿还没干完。", "老孟")
    assert not barred("秋生刨着木头，手慢了下来。那天傍晚，老孟也是蹲在门槛上抽烟，冲他招了招手。", "老孟")


def test_done_well_is_skill_or_speed_and_a_span_of_time_is_no_thing() -> None:  # bug 7
    assert not barred("周福撑着床沿坐起来，撑得很吃力。", "周福")
    assert not {w for w, _doing in forbidden_of(CARDS, TEXTS, "", ALIASES, PLACES).get("周福", _NO).acts}


def test_a_written_thing_is_a_whole_word() -> None:  # bug 8
    assert not barred("王瞎子把被单掀开看了看，又盖了回去。", "王瞎子")
    assert not barred("王瞎子把书箱打开看了看。", "王瞎子")
    assert barred("王瞎子接过告示，把告示从头到尾看了一遍。", "王瞎子")
    assert barred("王瞎子把那本书翻开看了半天，把书看完了。", "王瞎子")


def test_no_second_verb_between_a_barred_act_and_its_thing() -> None:  # bug 9
    assert not barred("赵四背着手想事。", "赵四")


def test_holding_people_is_no_bar_of_the_hand() -> None:  # bug 12
    assert not barred("马主任伸手拿起茶杯喝了一口。", "马主任")
    assert not barred("马主任手里攥着茶杯，半天没说话。", "马主任")


def test_walking_helped_by_another_is_not_the_card_walking() -> None:  # bug 13
    assert not barred("两个后生架着刘满仓一步一步挪到了门口。", "刘满仓")
    assert not barred("刘满仓被两个后生架着，一步一步挪到了门口。", "刘满仓")
    assert barred("刘满仓扶着门框，一步一步挪到了门口。", "刘满仓")


class _NoBars:
    acts: tuple[tuple[str, str], ...] = ()


_NO = _NoBars()
