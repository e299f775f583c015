"""A person's gender is one reading for every check (stop 59): their own card's word (:attr:`World.gender`), else the
relations their card states (:attr:`World.kin_gender`, 汪小根的姐 → 她) — :meth:`World.pronoun_of`. The speaker of a
quote led by a pronoun (:meth:`lw_storyrepo.checks._LineMarks.first_of_gender`) and a pronoun's referent
(:func:`lw_storyrepo.checks._referent`) read it as continuity does: a card that says a woman only by her relations makes her
the line's first woman. The sentences are this file's own."""

from __future__ import annotations

from lw_storyrepo.checks import CheckContext, voices
from lw_storyrepo.continuity import World

PEOPLE = {"秦月": "她", "韦长庚": "他", "老包": "他"}


def said(text: str, own: dict[str, str], kin: dict[str, str]) -> list[tuple[str, str]]:
    aliases = {n: n for n in PEOPLE}
    world = World({n: {"姓名": n} for n in PEOPLE}, dict(aliases), set(), set(), (), None, {}, own, kin_gender=kin)
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), set(), world=world, people=set(PEOPLE)).for_draft({})
    return [(v.speaker, v.words) for v in voices(ctx, text.split("\n")) if v.speaker]


BEFORE = "韦长庚把箱子重新钉好，钉得手心发红。\n"
LINE = BEFORE + "天一亮，秦月就来找他。镇上的骡子都借光了，她得回娘家去借。她压低了声音说：“箱底压的是银元吧？”"


def test_the_world_reads_a_gender_by_the_card_s_word_else_by_its_relations() -> None:
    world = World(gender={"秦月": "她"}, kin_gender={"秦月": "他", "韦长庚": "他"})
    assert world.pronoun_of("秦月") == "她"  # the card's own word first
    assert world.pronoun_of("韦长庚") == "他"  # else its relations'
    assert not world.pronoun_of("老包")  # neither says


def test_a_woman_known_by_her_relations_alone_speaks_the_quote_her_pronoun_leads() -> None:
    assert said(LINE, PEOPLE, {}) == [("秦月", "箱底压的是银元吧？")]
    assert said(LINE, {}, PEOPLE) == [("秦月", "箱底压的是银元吧？")]  # the same, the genders from relations only
    assert said(LINE, {}, {}) != [("秦月", "箱底压的是银元吧？")]  # no card says: no guess between two


def test_a_pronoun_of_the_other_gender_never_stands_for_a_person_known_by_relations() -> None:
    text = BEFORE + "天一亮，秦月来找他。他压低了声音说：“箱底的东西别碰。”"
    assert said(text, PEOPLE, {}) == said(text, {}, PEOPLE) == [("韦长庚", "箱底的东西别碰。")]
