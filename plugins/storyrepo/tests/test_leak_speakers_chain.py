"""Who says a quote after a chain of clauses (L1, stop 57): the chain's subject, not the one walked to, spoken with or
touched (:data:`lw_storyrepo.checks.OBJECT_BEFORE_NAME`); a pronoun leading the quote stands for the last person of its
gender named first in its line when the paragraph's subject is of the other (:meth:`_LineMarks.first_of_gender`). Three new
authors' books (U12, U13, U14) lost a leak this way. The sentences are this file's own."""

from __future__ import annotations

from pathlib import Path

from lw_storyrepo import layout as L
from lw_storyrepo.checks import ERROR, WARN, CheckContext, leak_and_waste, voices
from lw_storyrepo.continuity import World

from story_cli import hand_in, lw, new_book

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


def test_a_pronoun_leading_the_quote_is_the_first_person_of_its_gender_in_the_line() -> None:
    before = "韦长庚把箱子重新钉好，钉得手心发红。\n"
    for lead in ("她压低了声音说：", "她说："):
        text = before + f"天一亮，秦月就来找他。镇上的骡子都借光了，她得回娘家去借。{lead}“箱底压的是银元吧？”"
        assert said(text) == [("秦月", "箱底压的是银元吧？")], lead
        assert leaks(text) == [(WARN, "秦月")], lead  # a guessed speaker: a hint, no redraft forced
    # the pronoun of the subject's own gender stays the subject's: 他 is 韦长庚, the knower is not named
    assert said(before + "天一亮，秦月来找他。他压低了声音说：“箱底的东西别碰。”") == [("韦长庚", "箱底的东西别碰。")]
    # the line's first man, its subject, not a man named after him as a bystander (R57's pool run)
    text = "秦月问：“镇上怎么讲？”\n韦长庚四下看了看，老包正蹲在门口抽烟。他压低声音：“箱底压的是银元。”"
    assert said(text) == [("秦月", "镇上怎么讲？"), ("韦长庚", "箱底压的是银元。")]
    # no card gives a gender: the subject carries on as before
    assert said(before + "天一亮，秦月来找他。她说：“走吧。”", genders=False) == [("韦长庚", "走吧。")]


WORLD = """# 世界观

## 世界规则

民国年间的川西盐道，背夫从自流井背盐上山。
"""

CHAPTER = """---
标题: 盐包
视角: 韦长庚
书内时间: 民国二十六年四月初二
一句话事件: 韦长庚钉好箱子
在场:
  - 韦长庚
  - 秦月
---
韦长庚把箱子重新钉好，钉得手心发红。

天一亮，秦月就来找他。镇上的骡子都借光了，她得回娘家去借。{lead}“箱底压的是银元吧？”
"""


def test_through_lw_story_the_pronoun_of_a_woman_card_is_her(tmp_path: Path) -> None:
    root = new_book(tmp_path / "盐道", WORLD, (("韦长庚", "位置", "自流井"), ("秦月", "位置", "自流井"),
                                              ("老包", "位置", "自流井")),
                    extra=(("secret", "new", "箱底", "--关键词", "银元", "--知情人", "老包", "--内容", "箱底压着银元"),),
                    contract=("韦长庚钉好箱子",))
    for name, text in (("秦月", "她是盐店老板的女儿，嫁到镇上三年。"), ("韦长庚", "他是背夫，老包的徒弟。")):
        card = root / L.角色 / f"{name}.md"
        card.write_text(card.read_text(encoding="utf-8") + f"\n{text}\n", encoding="utf-8")
    lw(root, "fix")
    for name, lead in (("A", "她压低了声音说："), ("B", "她说：")):
        hand_in(root, CHAPTER.format(lead=lead), name)
        lw(root)  # the checks (the short chapter is sent back for its length: the leak is a hint of its own)
        report = next(root.rglob(f"机检-{name}.md")).read_text(encoding="utf-8")
        assert "· [泄密]" in report and "秦月 不是 S-001 的知情人，却说出/想到了「银元」" in report, report


def test_a_doubled_adverb_or_a_name_alone_keeps_its_speaker() -> None:
    assert said("偏偏秦月说：“箱底压的是银元。”", genders=False) == [("秦月", "箱底压的是银元。")]
    assert said("秦月低着头，慢慢说：“箱底压的是银元。”", genders=False) == [("秦月", "箱底压的是银元。")]
    assert said("秦月找到韦长庚，韦长庚说：“箱底压的是银元。”", genders=False) == [("韦长庚", "箱底压的是银元。")]
