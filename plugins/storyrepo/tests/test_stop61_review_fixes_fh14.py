"""R61's H14-1, fixed at stop 61 (fh14): the cards' address form of the point of view is the card only where the
point of view could be the one saying it (issue 30).

H14 made each form the cards quote the point of view calling someone by (汪小川叫他“程师傅”) a name of the 持有 readers.
The reviewer showed it read too where nobody means the card: a form that is a bare title or kin word (师傅, 大哥) is
every speaker's own master or brother and narration's any tradesman (修表师傅拿起怀表); and another speaker's words
(“我大哥昨天借走了那块怀表”) are theirs. Now a form of address and kin characters alone, with no character of the card's
name, is no name of the card; a kept form is read only in narration or the point of view's own words, and never after an
owner or pointing word (我/他/的/那 + the form).

Kept: H14's catches (程师傅 with a surname two cards share; 驼叔, a nickname with no surname) — in
test_continuity_holdings_fourteen.py, run with this file. Every sentence here is the reviewer's or written for this file,
in the same brickworks of our own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from story_cli import held_messages

WORLD = "一九六二年秋，河口砖窑。窑场、泥塘、晒坯场、工棚都在河口，算一处地方。\n"
BARE = "汪小川叫他“师傅”，有时也叫他“大哥”。"  # the reviewer's cards: bare title and kin word
SPECIFIC = "汪小川叫他“程师傅”，有时也叫他“驼叔”。"  # H14's cards


def _cards(relation: str) -> dict[str, tuple[list[str], str, str, str]]:
    return {
        "汪小川": (["小川"], "十七岁，砖窑的学徒。", "程守义是他师傅。", "铁锹"),
        "程守义": (["老程", "程把式"], "五十岁，窑上的把式，背有点驼。", relation, "墨斗"),
        "程秀英": (["秀英", "程嫂"], "三十岁，伙房做饭的，女的。", "汪小川叫她“秀英嫂”。", "顶针"),
        "鲁长贵": (["老鲁", "鲁会计"], "四十岁，窑场的会计。怀表是铜壳的。", "汪小川叫他“鲁会计”。", "怀表"),
    }


def _held(tmp_path: Path, relation: str, body: str) -> list[str]:
    """The 持有 messages of ``lw story check`` on ``body``, a chapter of the brickworks told by 汪小川 with everyone in
    the scene, 程守义's card quoting ``relation``."""
    return held_messages(tmp_path / "河口", WORLD, "河口", _cards(relation), "窑场", "一九六二年十月九日", "汪小川在窑场干活",
                         body)



@pytest.mark.parametrize("body", [
    # the reviewer's: a tradesman of narration, another speaker's own brother
    "晌午歇工。修表师傅拿起怀表，对着光看了看。小川蹲在一边喝水。",
    "晌午歇工。秀英嫂说：“我大哥昨天借走了那块怀表，说今天还。”小川蹲在一边喝水。",
    # a bare title with nothing before it is still anyone's
    "晌午歇工。师傅拿起怀表，对着光看了看。小川蹲在一边喝水。",
])
def test_a_bare_title_or_kin_word_is_nobodys_name(tmp_path: Path, body: str) -> None:
    assert _held(tmp_path, BARE, body) == [], body


@pytest.mark.parametrize("body", [
    # another speaker's words: theirs, not the point of view's
    "晌午歇工。秀英嫂说：“驼叔从怀里掏出那块铜壳的怀表瞅了瞅，说要去场部。”小川蹲在一边喝水。",
    # an owner or pointing word before the form: someone's own
    "晌午歇工。修坯的那程师傅从腰上解下那块铜壳的怀表，看了一眼。小川蹲在一边喝水。",
])
def test_a_specific_form_is_the_card_only_in_the_point_of_views_words(tmp_path: Path, body: str) -> None:
    assert _held(tmp_path, SPECIFIC, body) == [], body


def test_the_point_of_views_narration_still_reads_the_form(tmp_path: Path) -> None:
    body = "晌午歇工。驼叔抽完一袋烟，从怀里掏出那块铜壳的怀表瞅了瞅。小川蹲在一边喝水。"
    found = _held(tmp_path, SPECIFIC, body)
    assert any(m.startswith("程守义") and "「怀表」" in m for m in found), found
