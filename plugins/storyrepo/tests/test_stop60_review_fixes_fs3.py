"""The reviewer's findings on S3's 状态 round (stop 60, fixer fs3): S3-1 … S3-6, each the reviewer's own sentences.

- S3-6: a faculty's act is a trace made any day (亲手写下的那张字条) only when the act is writing — legs and hands leave none
  (老周从床上站起来的那一瞬间 is a bedridden one on his feet); the trace is read over the rest of the verb phrase (写下的,
  提笔写的), and one told new (今天早上) still counts;
- S3-1: the dead man's household, kin and belongings (洛桑家里, 老洛媳妇, 洛桑他儿子, 老洛屋里), a word waited for (一句话),
  the reduplicated wait (等老洛等了) and another's hope (还等着, 总说) are no act of his to come;
- S3-2: a list closed by a head count is the people there only after a being-there frame (就剩, 只有…), and not as owners
  (两个人的铺盖) nor in a past deed (两个人挖的);
- S3-4: 念 piece by piece of a prayer or a verse (念经, 念六字真言) is reciting, not reading;
- S3-5: one finding a person a quote for the act to come, the quote-wide words read once a quote;
- S3-3: a thing brought up to the face to smell, touch or pray over is no looking; 辨 (风向) is no sight.
"""

from __future__ import annotations

from typing import Any

import pytest

from lw_storyrepo.continuity import World, places_inside
from lw_storyrepo.forbidden import forbidden_of

import continuity_helpers

PLACES = {"盐井", "芒康"}
CARDS: dict[str, dict[str, Any]] = {
    "扎西": {"姓名": "扎西", "状态": "在世", "位置": "盐井"},
    "洛桑": {"姓名": "洛桑", "状态": "已死", "位置": "盐井"},
    "德吉": {"姓名": "德吉", "状态": "失明", "位置": "盐井"},
    "次仁": {"姓名": "次仁", "状态": "失踪", "位置": "不明"},
    "卓玛": {"姓名": "卓玛", "状态": "在世", "位置": "盐井"},
    "老周": {"姓名": "老周", "状态": "瘫痪", "位置": "盐井"},
}
TEXTS = {
    "扎西": "十七岁，晒盐的后生。",
    "洛桑": "扎西的师傅，盐田的把头，去年冬天在江边背卤水摔下了崖。",
    "德吉": "管盐账的老阿妈，今年开春两只眼睛全看不见了，认不得字，也写不了字；摸、听、说话都不碍事。",
    "次仁": "赶骡车往芒康送盐的车夫，三月里出了门再没回来。",
    "卓玛": "扎西的姐姐，晒盐。",
    "老周": "盐井的老账房，前年中风瘫在床上，站不起来，也下不了床。",
}
ALIASES = {**{n: n for n in CARDS}, "洛桑师傅": "洛桑", "老洛": "洛桑", "德吉阿妈": "德吉", "阿妈": "德吉",
           "次仁大哥": "次仁", "大个子": "次仁"}
GENDER = {"扎西": "他", "洛桑": "他", "德吉": "她", "次仁": "他", "卓玛": "她", "老周": "他"}


def findings(body: str) -> list[str]:
    world = World(CARDS, dict(ALIASES), PLACES, set(), ("普通人",), None, places_inside("", PLACES), GENDER,
                  bars=forbidden_of(CARDS, TEXTS, "", ALIASES, PLACES))
    return [f.message for f in continuity_helpers.findings(body, world, "扎西", "1962年10月8日", list(CARDS))]


def fired(body: str, who: str) -> bool:
    return any(m.startswith(f"{who} 的状态") for m in findings(body))


# S3-6: the trace exemption is writing's alone, read over the verb phrase
@pytest.mark.parametrize("body, who", [
    ("老周从床上站起来的那一瞬间，屋里的人都愣住了。", "老周"),
    ("德吉阿妈今天早上亲手写下的那张字条还压在碗底下。", "德吉"),
    ("德吉阿妈提起笔，在纸上写下了一行字。", "德吉"),
])
def test_a_barred_act_that_leaves_no_old_trace_is_caught(body: str, who: str) -> None:
    assert fired(body, who)


@pytest.mark.parametrize("body", [
    "德吉阿妈亲手写下的那张字条还压在碗底下。",
    "德吉阿妈提笔写的那几个字，歪歪扭扭的。",
    "德吉阿妈亲手写的那个字还贴在门上。",
])
def test_a_blind_ones_old_handwriting_is_no_act(body: str) -> None:
    assert not fired(body, "德吉")


# S3-1: the dead man's household, kin, things; a word waited for; a wait for him; another's hope
@pytest.mark.parametrize("body", [
    "卓玛说：“明天洛桑家里摆席，你早点去帮忙。”",
    "卓玛说：“明儿老洛媳妇过来领东西，你把屋子收拾收拾。”",
    "卓玛说：“等洛桑他儿子从芒康回来，这块田就交给他。”",
    "卓玛说：“回头老洛屋里的东西，你帮着归置归置。”",
    "卓玛说：“她等老洛等了二十年，头发都白了。”",
    "卓玛说：“我们都在等洛桑师傅一句话。”",
    "卓玛叹了口气：“阿妈天天坐在江边，还等着老洛回来呢。”",
    "卓玛叹了口气：“阿妈总说，等老洛回来，就把盐田交给他。”",
])
def test_the_dead_mans_household_and_a_hope_are_no_act_to_come(body: str) -> None:
    assert not fired(body, "洛桑")


@pytest.mark.parametrize("body", [
    "卓玛说：“等老洛回来，就把盐田交给他。”",
    "卓玛说：“明儿老洛过来领东西，你把屋子收拾收拾。”",
    "卓玛说：“等洛桑一回来，就开席。”",
])
def test_the_dead_said_to_act_still_to_come_is_caught(body: str) -> None:
    assert fired(body, "洛桑")


# S3-2: a head count is the people there only after a being-there frame, and owning nothing
@pytest.mark.parametrize("body, who", [
    ("扎西把洛桑、次仁两个人的铺盖卷好，搁到了墙角。", "次仁"),
    ("这口卤井是洛桑和次仁两个人挖的，扎西从小就在井边玩。", "洛桑"),
    ("盐田里的规矩是洛桑和次仁两个人定下的。", "洛桑"),
])
def test_a_list_closed_by_a_count_of_owners_or_a_past_deed_is_no_presence(body: str, who: str) -> None:
    assert not fired(body, who)


def test_a_list_of_the_people_left_here_is_still_read() -> None:
    assert fired("盐田里就剩扎西、次仁和卓玛三个人，各人守着各人的盐池。", "次仁")


# S3-4: reciting by heart is no reading
@pytest.mark.parametrize("body", [
    "德吉阿妈盘腿坐在火塘边，一句一句地念经。",
    "德吉阿妈摸着佛珠，一个字一个字地念六字真言。",
])
def test_reciting_piece_by_piece_is_no_reading(body: str) -> None:
    assert not fired(body, "德吉")


def test_reading_a_letter_line_by_line_is_still_reading() -> None:
    assert fired("德吉阿妈拿着信，一行一行地念下去。", "德吉")


# S3-5: one finding a person a quote, however many acts to come it says
def test_a_long_quote_of_acts_to_come_gives_one_finding() -> None:
    found = [m for m in findings("卓玛说：“" + "等老洛回来再去江边" * 50 + "”") if m.startswith("洛桑 的状态")]
    assert len(found) == 1


# S3-3: smell, touch, prayer and telling the wind are no looking
@pytest.mark.parametrize("body", [
    "德吉阿妈把盐巴凑到眼前闻了闻。",
    "德吉阿妈眯着眼辨了辨风向，说要下雨了。",
    "德吉阿妈把扎西的脸捧在眼前，用手一寸一寸地摸。",
    "德吉阿妈把那串佛珠贴在眼前，嘴里念念有词。",
])
def test_a_thing_brought_to_the_face_for_no_looking_is_silent(body: str) -> None:
    assert not fired(body, "德吉")


@pytest.mark.parametrize("body", [
    "德吉阿妈把信凑到眼前看了半天。",
    "德吉阿妈接过收条，凑到眼前。",
    "德吉阿妈眯着眼把船名认了一遍。",
])
def test_looking_a_thing_over_close_is_still_caught(body: str) -> None:
    assert fired(body, "德吉")
