"""An away person reported here today by any act, and a document's role line naming them on duty (issue 30, P3 at stop 60).

A card puts someone a journey away; the draft then has them here with no journey told, in two ways stop 59's readings
read only by the few words the pool had used:

- **a report**: someone in the scene says the away one was at a place of here today doing something — any act, not
  only a sighting or a coming (连续性-盲评四十六 你姐晌午在队部门口找你, 四十七 侬阿姐刚刚在后门口寻侬; the same way of writing
  in 三十, 三十三, 三十四 and 十一: 今早在衙门里还问起你, 今早亲自在障里坐着…). The person, a time of today, 在, a place and
  an act (:data:`lw_storyrepo.continuity.REPORTED_AT`); silent for their home or the road, a call or a paper, a far
  place, another day, a sender, a negation, someone near. A witness's meeting at a place is read by any resultative of
  reaching a body (瞅见, 找着, 接到: :data:`lw_storyrepo.continuity.MET`), not the mind's, the ear's or speech's.
- **a role line**: a document of today (dated so, or by a word: 今朝…, 今天的派工单) with a label and the names it holds
  (四十六 发料人：…, 四十七 今朝高柜：…; stop 59's duty table read 二十一's 主持人, 二十五's 放映员, 四十四's 校对): any label
  is a post held where and when the document is made (:data:`lw_storyrepo.continuity.ROLE_LABEL`) but a field of
  sending, dating, placing, absence, kin or saying (:data:`lw_storyrepo.continuity.ROLE_LABEL_NOT`), and not in a
  letter.

Also: a world that says someone cannot come back even by a feast (过年也回不来) puts them a journey away, and a name
closed by 的 in the clause before a colon (对着老刘的账…：“…”) owns a thing; it does not speak.

Every sentence here is written for this file (a 1962 Heilongjiang lumber camp); none comes from a labelled draft.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lw_storyrepo.checks import CheckContext, voices
from lw_storyrepo.continuity import World, far_places
from lw_storyrepo.findings import Finding

import continuity_helpers
from story_cli import checked_chapter

TODAY = "1962年10月8日"


def _world() -> World:
    """The camp's book: 王铁生 (the point of view) and 孙桂芝 at 青松林场, 刘德海 (老刘) far off in 哈尔滨."""
    return continuity_helpers.lumber_camp()


def _found(body: str) -> list[Finding]:
    """The findings about 刘德海 of ``body`` told by 王铁生 on the day, 孙桂芝 beside him."""
    out = continuity_helpers.findings(body, _world(), "王铁生", TODAY, ["王铁生", "孙桂芝"])
    return [f for f in out if f.message.startswith("刘德海")]


# --- a report: the away one at a place of here today, doing anything ---

@pytest.mark.parametrize("body", [
    "桂芝掀开门帘：“铁生，老刘晌午在工棚门口等你，说有话跟你讲。”",
    "桂芝掀开门帘：“刘德海刚才在食堂后头喊你呢，嗓门可大。”",
    "桂芝掀开门帘：“老刘今儿一早在贮木场问过你两回。”",
    # sibling acts no development book wrote
    "桂芝掀开门帘：“老刘头晌在场部门口转悠了半天。”",
    "桂芝掀开门帘：“老刘下午亲自在库房里点了一遍锯条。”",
])
def test_a_report_of_the_away_one_at_a_place_here_today_fires(body: str) -> None:
    found = _found(body)
    assert len(found) == 1, found
    assert "「哈尔滨」" in found[0].message and "今天在这边" in found[0].message and "在" in found[0].excerpt


@pytest.mark.parametrize("body", [
    # their home, the road, a far place, a paper
    "桂芝掀开门帘：“老刘晌午在家里腌酸菜呢，他媳妇捎话来说的。”",
    "桂芝掀开门帘：“老刘晌午在路上，明天才能到。”",
    "桂芝掀开门帘：“老刘晌午在哈尔滨给场部拍了个电报。”",
    "桂芝掀开门帘：“老刘今早在报上登了一篇稿子。”",
    # another day, a time gone
    "桂芝掀开门帘：“昨天晌午老刘在工棚门口等你，你不在。”",
    "桂芝掀开门帘：“去年老刘晌午在工棚门口等过你一回。”",
    # a sender, a negation, a now that is where his card keeps him
    "桂芝掀开门帘：“老刘晌午托人在工棚门口等你。”",
    "桂芝掀开门帘：“老刘晌午没在工棚门口等你，你别瞎跑。”",
    "桂芝掀开门帘：“老刘眼下在厂里学开拖拉机。”",
    # someone near
    "老刘的信还压在枕头底下。桂芝掀开门帘：“我晌午在工棚门口等你半天了。”",
])
def test_the_near_misses_of_a_report_stay_silent(body: str) -> None:
    assert _found(body) == []


@pytest.mark.parametrize("body", [
    "桂芝掀开门帘：“我在小卖部门口瞅见老刘了，背着个帆布包。”",
    "桂芝掀开门帘：“我在贮木场后头找着老刘了，他叫你过去。”",
])
def test_a_meeting_at_a_place_by_any_verb_of_reaching_fires(body: str) -> None:
    found = _found(body)
    assert len(found) == 1, found
    assert "见到了刘德海" in found[0].message


@pytest.mark.parametrize("body", [
    "桂芝掀开门帘：“我在广播里听到老刘了，说他评上了先进。”",
    "桂芝掀开门帘：“我在会上提到老刘了，场长点了头。”",
    "桂芝掀开门帘：“我在小卖部门口碰见过老刘，那还是他走以前。”",
])
def test_a_meeting_of_the_mind_the_ear_or_speech_stays_silent(body: str) -> None:
    assert _found(body) == []


# --- a role line of a document of today ---

@pytest.mark.parametrize("body", [
    "铁生接过出库单，上头写着：“十月八日，锯条十根，领料人：王铁生，看秤：刘德海。”",
    "铁生抬头看墙上的水牌：“今日跟车：刘德海；掌勺：孙桂芝。”",
    "铁生翻开今天的派工单，上面写着：“跟车：刘德海、孙桂芝。”",
])
def test_a_role_line_of_todays_document_puts_the_away_one_here(body: str) -> None:
    found = _found(body)
    assert len(found) == 1, found
    assert "文书却记着刘德海在这里做事" in found[0].message


@pytest.mark.parametrize("body", [
    # a field of sending, absence, kin, a note, a saying
    "铁生接过单子，上头写着：“十月八日，收件人：刘德海。”",
    "铁生接过单子，上头写着：“十月八日，请假人：刘德海。”",
    "铁生接过单子，上头写着：“十月八日，出差：刘德海。”",
    "铁生接过单子，上头写着：“十月八日，备注：刘德海。”",
    "铁生接过表格，上头写着：“十月八日，父亲：刘德海。”",
    "铁生接过单子，上头写着：“十月八日，场长说：刘德海回来再议。”",
    # another day, no document, a letter
    "铁生接过出库单，上头写着：“九月三日，锯条十根，看秤：刘德海。”",
    "铁生想起今天本该刘德海跟车，心里空落落的。",
    "铁生拆开哈尔滨寄来的信：“今日跟车：刘德海。”",
])
def test_the_near_misses_of_a_role_line_stay_silent(body: str) -> None:
    assert _found(body) == []


# --- a name closed by 的 before a colon owns a thing; it does not speak ---

def test_a_name_owning_what_the_speaker_handles_is_no_voice() -> None:
    body = "铁生对着老刘的账本一行一行算，算完了，眉头拧成了疙瘩：“差出三百斤。”"
    assert [f for f in _found(body) if "说话" in f.message] == []


def test_a_name_owning_words_before_a_colon_still_speaks_them() -> None:
    """老刘的信上只有一句：“…” — the words the name owns are its own: the voice stays theirs (its card far, a letter)."""
    world = _world()
    ctx = CheckContext(dict(world.aliases), [], [], [], 0, set(world.aliases), set(), world=world, people=set(world.cards),
                       kin_of_pov={}).for_draft({"视角": "王铁生", "书内时间": TODAY, "在场": ["王铁生"]})
    for line, who in (("老刘的信上只有一句：“锯条的账，回去再对。”", "刘德海"),
                      ("老刘的嗓子哑得厉害：“锯条的账，回去再对。”", "刘德海"),
                      ("天黑了，老刘的心往下一沉：“锯条的账，回去再对。”", "刘德海"),
                      ("铁生对着老刘的账本一行一行算，算完了：“差出三百斤。”", None),
                      ("铁生在底下掏出小本子，对着老刘的账本一行一行算，算完了，眉毛拧成了一个疙瘩：“差出三百斤。”", None)):
        said = [v.speaker for v in voices(ctx, [line]) if "账" in v.words or "斤" in v.words]
        assert who is None and "刘德海" not in said or who in said, (line, said)


# --- a world that says someone is not back even by a feast ---

@pytest.mark.parametrize("text", ["刘德海在哈尔滨学开拖拉机，过年也回不来。", "刘德海在哈尔滨学习，春节都回不来。"])
def test_not_back_even_by_a_feast_is_a_journey_away(text: str) -> None:
    assert "哈尔滨" in far_places([text], {"青松林场", "哈尔滨"})


def test_back_by_a_feast_is_no_journey() -> None:
    assert "哈尔滨" not in far_places(["刘德海在哈尔滨学习，过年就回来。"], {"青松林场", "哈尔滨"})


# --- through ``lw story check``: an away sister the point of view's card calls 姐, reported by her kin form ---

WORLD = ("一九六二年秋，黑龙江。青松林场在山沟里，工棚、食堂、小卖部都在场部。"
         "刘秀兰在哈尔滨纺织厂上班，过年也回不来。\n")
CARDS = {
    "刘铁生": ("刘铁生", ["铁生"], "青松林场", "十九岁，林场的伐木工。", "刘秀兰是他姐。"),
    "刘秀兰": ("刘秀兰", ["姐", "秀兰"], "哈尔滨", "二十四岁，刘铁生的姐。在哈尔滨纺织厂上班。", "刘铁生的姐，铁生叫她“姐”。"),
    "孙桂芝": ("孙桂芝", ["桂芝"], "青松林场", "二十岁，食堂的炊事员。", "刘铁生叫她“桂芝”。"),
}


def test_a_sister_reported_by_the_listeners_kin_word_fires(tmp_path: Path) -> None:
    found = checked_chapter(tmp_path / "林场", WORLD, CARDS, "刘铁生到食堂打饭",
                            "标题: 饭\n视角: 刘铁生\n书内时间: 一九六二年十月八日\n一句话事件: 刘铁生到食堂打饭\n在场:\n"
                            "  - 刘铁生\n  - 孙桂芝",
                            "铁生端着饭盒进了食堂。桂芝从窗口探出头来：“铁生，你姐晌午在小卖部门口等你，拎着一兜苹果。”")
    about = [f for f in found if str(f["message"]).startswith("刘秀兰") and "「哈尔滨」" in str(f["message"])]
    assert len(about) == 1, found
