"""PS4's round (stop 63): a person of the cards acting in the narration where the card says he cannot be — away
(位置) or dead (状态), one shape, the card picking the field. Three rows of grammar, each an open class guarded by
context: getting down from a mount or a vehicle (``ALIGHTING``), a hand holding a thing now (``HOLDING_NOW``), and
the narration putting someone at a place of here (``NARRATED_AT``); and ``WALKED_IN_FROM`` read with 上 and 下来
(从岸上下来). Every sentence here is this file's own, in the lumber camp of :func:`continuity_helpers.lumber_camp`
(王铁生 the point of view at 青松林场, 刘德海 far in 哈尔滨, 赵老栓 dead) — none is a development set's."""

from __future__ import annotations

import re

import pytest

import continuity_helpers
from lw_storyrepo import continuity
from lw_storyrepo.continuity import ALIGHTING, HOLDING_NOW, NARRATED_AT


def _far(body: str) -> list[str]:
    return [f.message for f in continuity_helpers.camp_findings(body) if "本章没有写刘德海" in f.message]


def _dead(body: str) -> list[str]:
    return [f.message for f in continuity_helpers.camp_findings(body, "赵老栓") if "状态" in f.message]


@pytest.mark.parametrize("body", [
    "傍晚，老刘跳下马车，拍了拍身上的雪。",
    "刘德海翻身下了爬犁，冲王铁生摆摆手。",  # 爬犁: a sibling no book wrote
    "天擦黑，老刘下了自行车，推着进了院子。",  # 自行车: another sibling
    "院门外一阵马蹄响。老刘滚下马来，拍了拍帽子上的雪。",  # 门外 says where the mount stopped, no voice through a door
    "院门外，老刘攥着狗皮帽子站在雪地里。",  # a door of here: the body outside it is here
])
def test_getting_down_from_a_mount_or_a_vehicle_puts_the_far_one_here(body: str) -> None:
    assert _far(body), body


@pytest.mark.parametrize("body", [
    "老刘叼着半截烟卷，一声不吭。",  # 叼着: a sibling no book wrote
    "刘德海攥着一把钥匙，脸色发青。",  # 攥着: another
    "老刘举着马灯朝锯口照了照。",
])
def test_a_hand_holding_a_thing_now_puts_the_far_one_here(body: str) -> None:
    assert _far(body), body


@pytest.mark.parametrize("body", [
    "老刘在楞场边上码原木，一根一根码得齐齐整整。",
    "天刚亮，刘德海就在工棚后头劈柴了。",
    "天不亮，老刘就在讲堂上坐定了。",  # 讲堂: a place, no speech (讲 of telling only)
    "老刘从坡上下来，裤腿上全是雪。",  # WALKED_IN_FROM with 上 and 下来
])
def test_the_narration_putting_the_far_one_at_a_place_of_here(body: str) -> None:
    assert _far(body), body


@pytest.mark.parametrize("body", [
    "老刘在哈尔滨的厂里加班，一个月没写信了。",  # the far place itself
    "老刘在家里腌酸菜，王铁生想着就咽了口唾沫。",  # their own home
    "王铁生想，老刘这会儿怕是在工棚里喝酒吧。",  # a guess
    "往常老刘总在楞场上码原木。",  # a habit
    "那年老刘在楞场上码原木，一根一根码得齐整。",  # a memory
    "老刘在楞场上码了三十年原木。",  # a span of years: a life, not now
    "孙桂芝说，老刘在锯房门口劈柴，劈得可卖力了。",  # told by someone, not seen (说 and a comma)
    "跟老刘在楞场上码过原木的人都调走了。",  # someone else's act
    "老刘拄着的那根拐杖还靠在门边。",  # a thing, closed by 的
    "老刘下车间去了，这是王铁生听孙桂芝说的去年的事。",  # 下车间: a workshop, no mount
    "王铁生跳下马车，拍了拍身上的雪。",  # the point of view, not the far one
    "电话里老刘说他刚跳下马车，冻得直哆嗦。",  # a call: the far one's own place
    "门外老刘的嗓门一声比一声高：“铁生，开门！”",  # a voice through a door, no body seen
])
def test_the_near_misses_stay_silent(body: str) -> None:
    assert not _far(body), body


@pytest.mark.parametrize("body", [
    "赵老栓跳下爬犁，朝锯房走去。",
    "赵老栓攥着一把锉刀，蹲在锯台边上。",
])
def test_the_same_shapes_for_the_dead_are_state_findings(body: str) -> None:
    assert _dead(body), body


@pytest.mark.parametrize("body", [
    "赵老栓在天上保佑你们呢。",  # where only the dead are
    "去年赵老栓在锯房里磨锯条。",  # a memory
    "赵老栓在锯房里磨了三十年锯条。",  # the narrated place is not read for the dead (its pool cost), nor a span of years
    "赵老栓已经躺在锯房门口的草席上了。",  # a body put somewhere
    "王铁生想，赵老栓要是还在锯房里磨锯条就好了。",  # a wish
])
def test_the_dead_near_misses_stay_silent(body: str) -> None:
    assert not _dead(body), body


def test_the_rows_are_grammar_not_the_books_words() -> None:
    """Each row reads a class: any mount of its table, any hand verb of its class; not the 的 of a thing."""
    alight, hold, at = re.compile(ALIGHTING), re.compile(HOLDING_NOW), re.compile(NARRATED_AT.replace("WHO", "老刘"))
    assert alight.search("滚下驴") and alight.search("下了轿子") and not alight.search("下车间") and not alight.search("下马威")
    assert hold.search("擎着") and hold.search("捏着") and not hold.search("拄着的")
    assert at.search("老刘正在锅炉房里添煤") and at.search("老刘叉着腰在锅炉房门口骂人") and not at.search("老刘家的在锅炉房里")
    assert not at.search("老刘搁在锅炉房里")


def _camp_with(text: str) -> list[str]:
    """The far one's findings in a camp where 刘德海's card puts him at 伊春 — a known place no sentence of the world
    links to a journey — his card's text ``text``."""
    cards = {"王铁生": {"姓名": "王铁生", "状态": "在世", "位置": "青松林场"},
             "刘德海": {"姓名": "刘德海", "状态": "在世", "位置": "伊春"}}
    texts = {"王铁生": "青松林场的伐木工。", "刘德海": text}
    world = continuity_helpers.world_of(cards, {"王铁生": "王铁生", "刘德海": "刘德海", "老刘": "刘德海"},
                                        {"青松林场", "伊春"}, texts, gender={"王铁生": "他", "刘德海": "他"})
    world.texts = texts  # the cards' free text, as the checks give it
    out = continuity_helpers.findings("傍晚，老刘跳下马车，拍了拍身上的雪。", world, "王铁生", "1962年10月8日")
    return [f.message for f in out if "本章没有写刘德海" in f.message]


@pytest.mark.parametrize("text", [
    "九月里押着木材去了伊春，入冬才回。",
    "在伊春贮木场干活，腊月里才回来。",  # 腊月里才回来: a sibling time word
    "腿脚不好，从没到过青松林场。",
    "伊春那边离不开人，年前不回。",
])
def test_a_card_telling_its_person_away_makes_its_place_far(text: str) -> None:
    assert _camp_with(text), text


@pytest.mark.parametrize("text", [
    "在伊春贮木场干活。",  # where he works, no absence told
    "那年入冬才回，如今早不跑伊春了。",  # a time gone
    "刚才回来过一趟。",  # 刚才, no later time
])
def test_a_card_telling_no_absence_leaves_its_place_near(text: str) -> None:
    assert not _camp_with(text), text


def test_a_card_telling_its_person_away_leaves_a_place_holding_the_point_of_view_near() -> None:
    """r63-19: a card at a town whose region holds the point of view's camp, its text telling an absence: the card's
    word is read only at a place related in no way to the point of view's — the town holding the camp stays near."""
    cards = {"王铁生": {"姓名": "王铁生", "状态": "在世", "位置": "青松林场"},
             "刘德海": {"姓名": "刘德海", "状态": "在世", "位置": "伊春"}}
    texts = {"王铁生": "青松林场的伐木工。", "刘德海": "在伊春贮木场烧锅炉，年前走不开。"}
    world = continuity_helpers.world_of(cards, {"王铁生": "王铁生", "刘德海": "刘德海", "老刘": "刘德海"},
                                        {"青松林场", "伊春"}, texts, "青松林场在伊春。", {"王铁生": "他", "刘德海": "他"})
    world.texts = texts
    body = "傍晚，老刘跳下马车，拍了拍身上的雪。"
    assert not [f for f in continuity_helpers.findings(body, world, "王铁生", "1962年10月8日") if "本章没有写刘德海" in f.message]


@pytest.mark.parametrize("text", [
    "伊春的庄稼汉，没上过学，一辈子种地。",  # 没上过学: schooling, no absence
    "他没上过战场，是个文书，住在伊春。",
    "在外头打了十年工，前不久才回到伊春。",  # a coming home just done
])
def test_r63_14_a_card_of_schooling_or_a_return_done_tells_no_absence(text: str) -> None:
    """r63-14: 没上过 and 前不久才回到 on a card are no word of absence."""
    assert not _camp_with(text), text


@pytest.mark.parametrize("body", [
    "王铁生坐在炕沿上抽烟。刘德海在厂里当技术员，每月往家寄二十块钱。",  # r63-12: a standing role
    "王铁生把信念给桂芝听。刘德海在车间里管着三台机床，忙得脚不沾地。",  # r63-12: a letter read out
    "桂芝说，刘德海还在车间里上班，一时半会回不来。",  # r63-12: told, and he cannot come
    "桂芝说，家里的开销全靠刘德海一个人撑着。",  # r63-13: a charge borne
    "刘德海从领导岗位上退下来以后，身子骨一天不如一天。",  # r63-15: retired
    "孙桂芝熬的是刘德海从长白山上采下来的草药。",  # r63-15: a thing brought down once
])
def test_r63_12_13_15_news_roles_and_set_phrases_of_the_far_one_stay_silent(body: str) -> None:
    """r63-12, r63-13, r63-15: the reviewer's counter-examples."""
    assert not _far(body), body


@pytest.mark.parametrize("body", [
    "王铁生跪在灵前。赵老栓静静地躺在堂屋的门板上，脸上盖着黄纸。",  # r63-11: a wake
    "赵老栓葬在工棚后头的坡上，王铁生每年都去烧纸。",  # r63-11: a grave
    "赵老栓就留下马车一挂、骡子两头，王铁生一直替他喂着。",  # r63-16: 留下马车, a legacy
    "这份工分是赵老栓拿着命换来的。",  # r63-16: an idiom of a past deed
])
def test_r63_11_16_the_dead_put_somewhere_or_leaving_things_stay_silent(body: str) -> None:
    """r63-11, r63-16: the reviewer's counter-examples for the dead."""
    assert not _dead(body), body


@pytest.mark.parametrize("body", [
    "王铁生进了屋。刘德海在灶房里做饭，满屋子都是油烟。",  # 做 of 做饭
    "王铁生进了院子。刘德海在当院里劈柴，一斧子下去，木头裂成两半。",  # 当 of 当院
    "王铁生推开院门。刘德海正在院里劈柴。王铁生简直不敢相信自己的眼睛。",  # 信 of 相信
])
def test_r63_32_the_role_and_news_words_are_words_not_characters(body: str) -> None:
    """r63-32 (after the freeze): 做饭, 当院, 相信 are no role or news; the far one at a place of here is read."""
    assert _far(body), body


def test_r63_20_a_line_of_one_sentence_reads_each_sentence_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """r63-20: thousands of matches of the narrated place in one sentence read the sentence's verdict once, not once a
    match (the work counted in characters, no clock)."""
    counted = continuity_helpers.Counted(continuity.NARRATED_NOT_NOW)
    monkeypatch.setattr(continuity, "NARRATED_NOT_NOW", counted)
    body = "刘德海在锯房门口劈柴，" * 2000
    continuity_helpers.camp_findings(body)
    assert 0 < counted.read <= 2 * len(body)
