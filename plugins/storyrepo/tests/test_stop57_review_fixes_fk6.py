"""The outside reader's findings on K6's round (stop 57), narrowed (FK6): F9 (an act given up), F12 (a place in the
words a promise line reports), F13 (a clause led by a given name that is an ordinary word), F10 (a pronoun's beat of the
other gender). The counter-example sentences are the reviewer's own; the catches of the round are pinned by the scorer.
"""

from __future__ import annotations

import pytest

from lw_storyrepo.checks import CheckContext, act_given_up, voices
from lw_storyrepo.continuity import World

from test_contract_false_alarms_six import CARDS, ITEMS, PLACES, _found, _speakers


@pytest.mark.parametrize("act, body", [
    # 收 of 收拾 is no telling of 收听 (F9)
    ("收听天气预报", "天刚亮，郑守灯从挎包里掏出收音机，拧开，七点那一档正播天气预报，说午后有大风。他听完，关了，"
                    "说：“明天再来收拾这破天线。”"),
    # stopping after the act is done is no giving it up
    ("收听天气预报", "从头到尾听了一遍天气预报，说午后有大风。听完了，他说：“行了，不听了，关了吧。”"),
    # a next time after the act is done
    ("写家信", "他拧开笔帽，一笔一画写了满满一页，封好口。“改天再写一封给二叔。”"),
    ("掐时辰", "他掐了个时辰，一分不差。阿旺说：“明天你还给我掐。”"),
])
def test_an_act_done_then_a_word_sharing_a_character_or_a_next_time_is_not_given_up(act: str, body: str) -> None:
    assert act_given_up(act, body) is None


def test_the_reviewers_done_act_says_nothing_through_the_contract() -> None:
    body = ("天刚亮，郑守灯从挎包里掏出收音机，拧开，七点那一档正播天气预报，说午后有大风。他听完，关了，"
            "说：“明天再来收拾这破天线。”")
    assert not any("推迟或作罢" in m for m in _found("郑守灯用收音机收听天气预报", body))


@pytest.mark.parametrize("act, body, given_up", [
    # done on another day, told in another paragraph, then given up now: still given up
    ("收听天气预报", "“前天夜里他借去听了一夜。”\n\n他把收音机塞回挎包：“不听了，看天吧。”", "不听了"),
    ("写家信", "他拧开笔帽试了试，嫌纸糙，又拧了回去：“改天拿好纸来写。”", "改天拿好纸来写"),
])
def test_an_act_given_up_is_still_read(act: str, body: str, given_up: str) -> None:
    off = act_given_up(act, body)
    assert off is not None and off.group() == given_up


BODY = "阿旺收拾了包袱，说明天一早去省城。夜里风大，他坐在船头补网。"


@pytest.mark.parametrize("line", [
    "阿旺听说水生病了，去省城看他",
    "阿旺说服了林水生，一起去省城",
    "阿旺知道消息后去省城报信",
    "阿旺叫上林水生去省城",
    "阿旺去省城",
])
def test_a_move_line_with_a_saying_word_before_the_place_is_still_warned(line: str) -> None:
    assert any("只说了要去" in m for m in _found(line, BODY)), line


def test_a_question_the_line_reports_still_asks_no_arrival() -> None:
    body = "阿旺蹲在船头补网，忽然说：“水生哥走前问过我，从渔业社搭车到省城要几个钟头，带多少干粮。”"
    found = _found("P-001 推进：阿旺说水生哥走前问过他，从渔业社搭车到省城要几个钟头", body, promise=True)
    assert not any("只说了要去" in m for m in found), found


def _two(cast: dict[str, dict[str, object]], body: str) -> list[tuple[str | None, str]]:
    aliases = {n: n for n in cast}
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), set(), people=set(cast)).for_draft({"在场": list(cast)})
    return [(v.speaker, v.words) for v in voices(ctx, body.split("\n")) if "“" not in v.words and v.speaker]


def test_a_given_name_that_is_an_ordinary_word_leads_no_turn() -> None:
    said = _two({"刘长江": {}, "阿旺": {}}, "“讲了。”阿旺说。\n\n长江上起了雾，船老大探出头来问：“前头是哪个码头？”")
    assert ("刘长江", "前头是哪个码头？") not in said, said


def test_a_given_name_no_dictionary_knows_still_leads_its_turn() -> None:
    body = "“你跟站里讲了没有？”\n\n“讲了。”阿旺说。\n\n守灯想了半天，问：“那条船，是哪里来的？”\n\n“南边的岛。”"
    said = _speakers(["郑守灯", "阿旺"], body)
    assert ("郑守灯", "那条船，是哪里来的？") in said, said


def _gendered(body: str) -> list[tuple[str | None, str]]:
    cards = {**CARDS, "林水生": {**CARDS["林水生"], "性别": "男"}, "阿秀": {"位置": "渔业社", "性别": "女"}}
    aliases = {**{n: n for n in cards}, **{p: p for p in PLACES}}
    world = World(cards, dict(aliases), PLACES, set(ITEMS), ("普通人",), None, {}, {})
    world.gender.update({"林水生": "他", "阿秀": "她"})
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), set(ITEMS), world=world, people=set(cards))
    ctx = ctx.for_draft({"在场": ["林水生", "阿秀", "阿旺"]})
    return [(v.speaker, v.words) for v in voices(ctx, body.split("\n")) if "“" not in v.words and v.speaker]


def test_a_pronoun_beat_of_the_other_gender_is_not_the_turns() -> None:
    said = _gendered("“走吧。”林水生推开舱门，“潮要退了。”她摇摇头，“网还没补完。”")
    assert ("林水生", "网还没补完。") not in said, said


def test_a_pronoun_beat_of_the_turns_gender_goes_on_it() -> None:
    said = _gendered("“走吧。”林水生推开舱门，“潮要退了。”他回头看了一眼，“网别忘了。”")
    assert ("林水生", "网别忘了。") in said, said
