"""Who says a quote after a chain of clauses (L1, stop 57): the chain's subject, not the one walked to, spoken with or
touched (:data:`lw_storyrepo.checks.OBJECT_BEFORE_NAME`); a pronoun leading the quote stands for the last person of its
gender named before it when the paragraph's subject is of the other (:meth:`_LineMarks.last_of_gender`). Three new
authors' books (U12, U13, U14) lost a leak this way. The sentences are this file's own."""

from __future__ import annotations

from lw_storyrepo.checks import ERROR, WARN, CheckContext, leak_and_waste, voices
from lw_storyrepo.continuity import World

PEOPLE = {"秦月": "她", "韦长庚": "他", "老包": "他"}
SECRET = [("S-001", {"老包"}, False, ["银元"])]


def ctx_of(genders: bool = True) -> CheckContext:
    aliases = {n: n for n in PEOPLE}
    world = World({n: {"姓名": n} for n in PEOPLE}, dict(aliases), set(), set(), (), None, {}, PEOPLE if genders else {})
    return CheckContext(aliases, SECRET, [], [], 0, set(aliases), set(), world=world, people=set(PEOPLE)).for_draft({})


def said(text: str, genders: bool = True) -> list[tuple[str, str]]:
    return [(v.speaker, v.words) for v in voices(ctx_of(genders), text.split("\n")) if v.speaker]


def leaks(text: str) -> list[tuple[str, str]]:
    return [(f.severity, f.message.split(" ")[0]) for f in leak_and_waste(ctx_of(), text.split("\n"), 1) if f.kind == "泄密"]


def test_the_one_walked_to_spoken_with_or_touched_does_not_speak() -> None:
    for text in ("秦月收起账本，走到韦长庚身边，低声说：“箱底压的是银元。”",
                 "秦月凑到韦长庚跟前说：“箱底压的是银元。”",
                 "秦月跑到韦长庚面前，喘着气问：“箱底压的是银元？”",
                 "秦月拍了拍韦长庚的肩，说：“箱底压的是银元。”",
                 "秦月和韦长庚说：“箱底压的是银元。”",
                 "秦月推着韦长庚往外走，一边说：“箱底压的是银元。”"):
        assert said(text, genders=False) == [("秦月", text[text.index("“") + 1:-1])], text
        assert leaks(text) == [(ERROR, "秦月")], text


def test_a_knower_walking_to_another_speaks_silently_and_the_one_walked_to_answers_in_his_own_clause() -> None:
    assert leaks("老包走到秦月身边，压低声音说：“箱底压的是银元。”") == []  # the knower speaks
    assert leaks("老包走到秦月身边，秦月压低声音说：“箱底压的是银元。”") == [(ERROR, "秦月")]  # a chain of two subjects
    assert leaks("秦月走到老包身边，老包压低声音说：“箱底压的是银元。”") == []  # the one walked to answers, named
    assert leaks("秦月走到老包身边，说：“今天风大。”") == []  # nothing given away


def test_a_pronoun_leading_the_quote_is_the_last_person_of_its_gender() -> None:
    before = "韦长庚把箱子重新钉好，钉得手心发红。\n"
    for lead in ("她压低了声音说：", "她说："):
        text = before + f"天一亮，秦月就来找他。镇上的骡子都借光了，她得回娘家去借。{lead}“箱底压的是银元吧？”"
        assert said(text) == [("秦月", "箱底压的是银元吧？")], lead
        assert leaks(text) == [(WARN, "秦月")], lead  # a guessed speaker: a hint, no redraft forced
    # the pronoun of the subject's own gender stays the subject's: 他 is 韦长庚, the knower is not named
    assert said(before + "天一亮，秦月来找他。他压低了声音说：“箱底的东西别碰。”") == [("韦长庚", "箱底的东西别碰。")]
    # no card gives a gender: the subject carries on as before
    assert said(before + "天一亮，秦月来找他。她说：“走吧。”", genders=False) == [("韦长庚", "走吧。")]
