"""Holdings, H14's round (issue 30, stop 61): who handles the thing — the point of view's address form from the cards.

- **The cards' own address form is a name of the 持有 readers.** A card's relations quote what the point of view calls
  its person (汪小川叫他“程师傅”, 叫他“驼叔”); the check reads that form as the card in the point of view's chapter, but
  the book's names pattern (built from the cards' aliases) does not hold it, so a sentence it leads (程师傅从腰上解下…,
  驼叔从怀里掏出…) named nobody to the 持有 readers: whoever used another's thing there was never read. Those forms
  are now names of the 持有 readers (:func:`lw_storyrepo.continuity._called_unread`), whatever their shape — a surname
  and an address word (程师傅, even where two cards share the surname: the card's quote decides, not the surname) or a
  nickname with no surname (驼叔).

No reading: the card's own thing in that person's hands; the point of view's form for someone else's use of their own
thing; a form no card quotes for the point of view (a surname shared by two cards and an address word the cards never
quote is nobody, as before).

Written in a brickworks of our own (not the labelled drafts' words): 汪小川 tells it; 程守义 (程师傅 / 驼叔 to him)
holds a 墨斗, 程秀英 (a woman of the same surname) a 顶针, 鲁长贵 a 怀表.
"""

from __future__ import annotations

from pathlib import Path

from story_cli import held_messages

WORLD = "一九六二年秋，河口砖窑。窑场、泥塘、晒坯场、工棚都在河口，算一处地方。\n"
CARDS = {
    "汪小川": (["小川"], "十七岁，砖窑的学徒。", "程守义是他师傅。", "铁锹"),
    "程守义": (["老程", "程把式"], "五十岁，窑上的把式，背有点驼。", "汪小川叫他“程师傅”，有时也叫他“驼叔”。", "墨斗"),
    "程秀英": (["秀英", "程嫂"], "三十岁，伙房做饭的，女的。", "汪小川叫她“秀英嫂”。", "顶针"),
    "鲁长贵": (["老鲁", "鲁会计"], "四十岁，窑场的会计。怀表是铜壳的。", "汪小川叫他“鲁会计”。", "怀表"),
}


def _held(tmp_path: Path, body: str) -> list[str]:
    """The 持有 messages of ``lw story check`` on ``body``, a chapter of the brickworks told by 汪小川 with everyone in
    the scene."""
    return held_messages(tmp_path / "河口", WORLD, "河口", CARDS, "窑场", "一九六二年十月九日", "汪小川在窑场干活", body)


def _by(found: list[str], who: str, thing: str) -> bool:
    return any(m.startswith(who) and f"「{thing}」" in m for m in found)


def test_the_cards_address_form_leads_a_use_of_anothers_thing(tmp_path: Path) -> None:
    # 程 is two cards' surname: no surname reading names him; the card's quote 汪小川叫他“程师傅” does
    body = "晌午歇工。程师傅擦了一把汗，从腰上解下那块铜壳的怀表，看了一眼，又揣回去。小川蹲在一边喝水。"
    found = _held(tmp_path, body)
    assert _by(found, "程守义", "怀表"), found


def test_a_form_with_no_surname_is_read_the_same(tmp_path: Path) -> None:
    # held out per word: 驼叔 has no surname at all — a nickname the card quotes
    body = "晌午歇工。驼叔抽完一袋烟，从怀里掏出那块铜壳的怀表瞅了瞅。小川蹲在一边喝水。"
    assert _by(_held(tmp_path, body), "程守义", "怀表"), body


def test_no_reading_of_their_own_thing(tmp_path: Path) -> None:
    body = "晌午歇工。程师傅擦了一把汗，从工具箱里掏出墨斗，在砖坯上弹了一道线。小川蹲在一边喝水。"
    assert _held(tmp_path, body) == []


def test_no_reading_of_a_memory_a_refusal_or_the_holders_own_use(tmp_path: Path) -> None:
    body = ("晌午歇工。小川想起去年程师傅借过鲁会计的怀表。程师傅没去碰那块怀表，只说：“几点了？”"
            "鲁会计从怀里掏出怀表看了看：“十二点半。”")
    assert _held(tmp_path, body) == []
