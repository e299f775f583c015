"""gp1's round (stop 64): one reading of "who is here now" — a person whose card puts them far away or dead acting in
the narration of the scene, with no coming of theirs told. Four pieces of the one reading, each a rule of Chinese prose:
an act done for someone beside the doer (``ACTED_FOR``: 给他补, 替她擦); an arrival is its own clause's subject's
(:func:`continuity._arrivers`: 他回到通铺，娘给他补袖口 — he came, not she); 拨了 opens a call only with a number or a
phone dialled (拨了拨炭火 is a hand poking a fire, and what follows is the scene); a card's coming "才…上厂 / 进城" is a
coming back on a day ahead (``BACK_ON``); and a place's name heading a thing (库伦机跟前) places no one at the place.
Every sentence here is this file's own, in the lumber camp of :func:`continuity_helpers.lumber_camp` (王铁生 the point
of view at 青松林场, 刘德海 far in 哈尔滨, 赵老栓 dead) — none is a development set's."""

from __future__ import annotations

import re

import pytest

import continuity_helpers
from lw_storyrepo.continuity import ACTED_FOR, BACK_ON, CALL_OPEN, THING_BESIDE, _arrivers


def _far(body: str) -> list[str]:
    return [f.message for f in continuity_helpers.camp_findings(body) if "本章没有写刘德海" in f.message]


def _dead(body: str) -> list[str]:
    return [f.message for f in continuity_helpers.camp_findings(body, "赵老栓") if "状态" in f.message]


@pytest.mark.parametrize("body", [
    "老刘就着马灯给他缝手套，一针一线，缝完了拿牙咬断线头。",
    "王铁生坐在炕沿上。刘德海替他揉着冻僵的脚。",
    "老刘帮我把锯条磨得锃亮。",
])
def test_an_act_acted_for_someone_puts_the_far_one_here(body: str) -> None:
    assert _far(body), body


@pytest.mark.parametrize("body", [
    "老刘给他寄了一包冻梨，王铁生分给了大伙。",  # a thing sent from afar
    "老刘托人给他捎了双棉鞋。",  # sent by another
    "老刘心里替他高兴。",  # a feeling
    "老刘在信里替他说了不少好话。",  # words, in a letter
    "老刘想给他缝一副手套，可哈尔滨离这儿太远了。",  # a wish
    "老刘给他一个月的期限。",  # a count given
    "这是老刘留给他的。",  # the 给 of handing over: the one it reaches
    "十一点四十，老刘给他发了一条短信。",  # sent
    "老刘叫他替她谢谢林场的人。",  # bidden: 他 does it, and it is words
])
def test_an_act_acted_for_someone_from_afar_or_in_the_mind_stays_silent(body: str) -> None:
    assert not _far(body), body


def test_the_rows_are_grammar() -> None:
    acted_for = re.compile(ACTED_FOR)
    assert acted_for.search("给他补") and acted_for.search("替她擦") and acted_for.search("帮我抬")
    assert not acted_for.search("给他寄") and not acted_for.search("替他担心") and not acted_for.search("想给他补")
    assert not acted_for.search("留给他的") and not acted_for.search("送给他当")


def test_an_arrival_is_its_own_clauses_subjects() -> None:
    """他回到工棚，老刘给他缝手套: the pronoun's clause tells the coming, and 老刘 came nowhere."""
    assert _far("天黑以后，他回到工棚，老刘就着马灯给他缝手套。")
    # one who comes in the same sentence, in a clause of no subject of its own, is still the one who comes
    assert not _far("老刘一早动身，傍晚赶回了林场，就着马灯给他缝手套。")
    assert not _far("老刘从哈尔滨赶回来，给他缝手套。")


def test_arrivers_reads_the_clause_subject() -> None:
    anyone = re.compile("老刘|王铁生")
    name = {"老刘": "刘德海", "王铁生": "王铁生"}
    came = lambda c: re.search("回到|赶回", c)  # noqa: E731
    assert _arrivers("他回到工棚，老刘给他缝手套。", came, anyone, name) == set()
    assert _arrivers("老刘一早动身，傍晚赶回了林场。", came, anyone, name) == {"刘德海"}
    assert _arrivers("王铁生回到工棚，老刘给他缝手套。", came, anyone, name) == {"王铁生"}


def test_poking_a_fire_is_no_call() -> None:
    """拨了拨炭火 is a hand at work: the far one seen in the paragraphs after it is seen here."""
    body = "王铁生拿火钩拨了拨炉子里的炭。\n\n火苗蹿了上来。\n\n老刘捧着茶缸站在门口，正朝这边望。"
    assert _far(body), body
    assert not CALL_OPEN.search("拨了拨炭") and not CALL_OPEN.search("拨了两下算盘")
    assert CALL_OPEN.search("拨了一长串号码") and CALL_OPEN.search("拨了他家的电话")


def test_a_call_dialled_still_carries_the_far_one_away() -> None:
    body = "王铁生拨了哈尔滨厂里的电话号码。\n\n老刘在那边咳嗽了两声。"
    assert not _far(body), body


def test_a_card_coming_up_to_a_place_of_its_kind_later_is_a_coming_back() -> None:
    assert BACK_ON.match("才跟委员一起上厂") and BACK_ON.match("才进城") and BACK_ON.match("才回乡下")
    assert not BACK_ON.match("才上厂里的账")  # a 上 of an account: the place goes on, no coming


def test_a_place_heading_a_thing_places_no_one_there() -> None:
    """坐在哈尔滨钟跟前: a clock named by the place, the one beside it here (:func:`continuity._at_own_place`)."""
    assert re.match(THING_BESIDE, "钟跟前") and re.match(THING_BESIDE, "机底下") and not re.match(THING_BESIDE, "，")
    assert _far("老刘坐在哈尔滨钟跟前，拿起锉刀磨锯条。")
    assert not _far("老刘坐在哈尔滨，一个月没写信了。")


@pytest.mark.parametrize("body", [
    "赵老栓就着马灯给他缝手套。",
    "赵老栓替他揉着冻僵的脚。",
])
def test_the_same_act_for_the_dead_is_a_state_finding(body: str) -> None:
    assert _dead(body), body


@pytest.mark.parametrize("body", [
    "那年冬天，赵老栓就着马灯给他缝手套。",  # a memory
    "王铁生想，赵老栓要是还在，准会替他揉脚。",  # a wish
])
def test_the_dead_near_misses_stay_silent(body: str) -> None:
    assert not _dead(body), body
