"""Ranks and holdings, H11's round (issue 30, stop 58): four ways of writing good text the readers took for a slip.

- **A stage followed by 们 is a group** (冲挑夫们一摆手): the people of that stage, nobody's rank
  (:data:`lw_storyrepo.ranks.GROUP_OF`) — 冲 before it is a preposition, not a striving for the stage.
- **A stage reached** (才熬上, 刚当上, 终于升到…: :data:`lw_storyrepo.ranks.REACHED`) says someone is at it, not below it;
  a time to come or a not-yet (还没熬上, 明年才升到) still says below.
- **A past told in someone's words** (“…的时候，他还是个挑夫”, “后来他当了灶头”: :func:`lw_storyrepo.ranks.told_back`):
  the stage is of then, not the card's now; the same words as the narration's present, or a time to come (等…的时候),
  are read as before.
- **A quote opened inside a sentence** (韩老三站起来，…，“去，把你那根扁担拿来…”) was read as words said, not acts of
  the name the sentence opens with, and is **withdrawn** (the lead, stop 58): it lost a blind book's holdings catch, since
  a card's own thing told in its words (“我那杆…”) is the same way of writing; the subject's clauses are read as before.

Written in a salt works of our own, not the labelled drafts' words.
"""

from __future__ import annotations

from typing import Any

from continuity_helpers import findings
from lw_storyrepo.continuity import World, told_of

PLACE = "盐场"


def _found(body: str, field: str) -> list[str]:
    """The ``field`` findings of ``body`` in a salt works: 柳根 (挑夫, holds 扁担), 石大成 (大成; 灶头, holds 铜秤) and
    韩老三 (总灶, holds 账簿), all there; the ladder 挑夫 ＜ 灶丁 ＜ 灶头 ＜ 总灶; told by 柳根."""
    cards: dict[str, dict[str, Any]] = {
        "柳根": {"姓名": "柳根", "状态": "在世", "位置": PLACE, "持有": ["扁担"], "境界": "挑夫"},
        "石大成": {"姓名": "石大成", "状态": "在世", "位置": PLACE, "持有": ["铜秤"], "境界": "灶头"},
        "韩老三": {"姓名": "韩老三", "状态": "在世", "位置": PLACE, "持有": ["账簿"], "境界": "总灶"},
    }
    items = {str(x) for card in cards.values() for x in card.get("持有", [])}
    aliases = {"柳根": "柳根", "石大成": "石大成", "大成": "石大成", "韩老三": "韩老三"}
    world = World(cards, aliases, {PLACE}, items, ("挑夫", "灶丁", "灶头", "总灶"), None, {},
                  {n: "他" for n in cards}, told=told_of({n: n + "在盐场。" for n in cards}, cards))
    return [f.message for f in findings(body, world, "柳根", "1931年9月2日", list(cards), items=items)
            if f.subject is None or f.subject.field == field or field in f.message]


def test_a_stage_followed_by_men_is_a_group_not_a_rank() -> None:
    assert _found("石大成回头冲挑夫们一摆手。", "境界") == []
    assert _found("韩老三朝灶丁们喊了一嗓子。", "境界") == []
    assert any("石大成" in m and "挑夫" in m for m in _found("石大成还是个挑夫。", "境界"))


def test_a_stage_reached_is_no_stage_below() -> None:
    assert _found("“大成，”韩老三看着他，“挑了五年担子才熬上灶头，往后要稳当些。”", "境界") == []
    assert _found("韩老三熬了十年，终于当上总灶。", "境界") == []
    # not yet reached: below it, where the card holds a higher one
    assert any("之下" in m for m in _found("“大成，”韩老三看着他，“你还没熬上灶头，莫急。”", "境界"))


def test_a_rank_of_a_past_told_in_speech_is_of_then() -> None:
    assert _found("“你爹教我烧灶的时候，大成还是个挑夫，我也是。”韩老三说，“后来他当了灶头。”", "境界") == []
    assert _found("“后来大成还是个挑夫，一挑就是三年。”韩老三说。", "境界") == []
    # the same words of now, or of a time to come, are read as before
    for body in ("“大成如今还是个挑夫。”韩老三说。", "“等开春的时候，大成还是个挑夫。”韩老三说。"):
        assert any("石大成" in m and "挑夫" in m for m in _found(body, "境界")), body


def test_a_thing_in_words_opened_inside_a_sentence_is_still_read() -> None:
    """A card's own thing in its words is a holdings claim (“我拿扁担挑水去”), and the plain act is read as ever. The
    price H11 kept (a thing of the listener's asked for in the subject's words, “去，把你那根扁担拿来”, read as the
    subject's) is gone with H12's round; the speaker's own thing said as theirs (“把我那根扁担拿来”) is still read."""
    assert any(m.startswith("韩老三") and "扁担" in m
               for m in _found("韩老三站起来，拍了拍手上的灰，“我拿扁担挑水去。”", "持有"))
    # H12's round (stop 59) pays the price back: the clauses of a quote opened after the lead are skipped while it is open,
    # so the listener's thing asked for is nobody's use; the speaker's own thing said as theirs (把我那根扁担拿来) is read
    # by the own-thing reading instead
    assert not any(m.startswith("韩老三") and "扁担" in m
                   for m in _found("韩老三站起来，拍了拍手上的灰，“去，把你那根扁担拿来，我给你换根绳。”", "持有"))
    assert any(m.startswith("韩老三") and "扁担" in m
               for m in _found("韩老三站起来，拍了拍手上的灰，“去，把我那根扁担拿来，我教你挑。”", "持有"))
    assert any(m.startswith("韩老三") and "扁担" in m
               for m in _found("韩老三站起来，拍了拍手上的灰，拿起扁担看了看。", "持有"))


def test_a_thing_named_as_a_shape_is_not_used() -> None:
    assert _found("韩老三在地上画了个扁担形的记号，又看了一遍。", "持有") == []
    assert _found("韩老三盯着那个铜秤样的印子看了半天。", "持有") == []
    # the thing itself, not its shape
    assert any(m.startswith("韩老三") and "铜秤" in m for m in _found("韩老三拿起铜秤看了半天。", "持有"))
