"""Hostile input, a nineteenth look (A19, stop 59): stop 58's readings fed their worst cases at the draft's cap and
beside books of thousands of names, things and bars.

- The acts of a trade a card bars (:data:`forbidden.BARRED_ACT`: 上不得船，拉不得纤; S1, stop 58) were read without end:
  a card's paragraph of thousands of 上不得X made thousands of patterns, each compiled and searched for in every line of
  the draft — 10,000 bars beside a 60,000-character draft took 39 s. One person's words are read for at most
  :data:`forbidden.BARRED_ACTS_MAX` of them, the first the book says.

Each is read through its result and its work (patterns made, characters read), never timed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from story_cli import hand_in, lw, new_book

from lw_storyrepo import forbidden
from lw_storyrepo import layout as L
from lw_storyrepo.forbidden import forbidden_of


def _things(k: int) -> list[str]:
    """``k`` two-character things, each new."""
    return ["".join(chr(0x4E00 + (i * 7919 + j * 104729) % 20000) for j in range(2)) for i in range(k)]


CARD: dict[str, Any] = {"姓名": "韦大锅", "状态": "腕伤", "位置": "普洱"}


def _bars(text: str) -> forbidden.Bars:
    return forbidden_of({"韦大锅": CARD}, {"韦大锅": text}, "", {"韦大锅": "韦大锅", "老韦": "韦大锅"}, {"普洱"})["韦大锅"]


def test_a_card_of_thousands_of_barred_acts_is_read_for_a_few() -> None:
    text = "他上不得船，拉不得纤。" + "".join(f"上不得{t}，拉不得{t}。" for t in _things(3000))
    acts = _bars(text).acts
    assert len(acts) == forbidden.BARRED_ACTS_MAX  # each of the 6,002 a pattern searched in every line of a draft
    assert [words for words, _ in acts[:2]] == ["上不得船", "拉不得纤"]  # the first the card says, read as before


def test_a_card_of_a_few_barred_acts_reads_them_all() -> None:
    acts = _bars("他上不得马，牵不得骡子，茶篓更驮不得，渡船也上不得，摘不了茶；他扛不得，搬不得东西。").acts
    assert [words for words, _ in acts] == ["上不得马", "牵不得骡子", "茶篓更驮不得", "渡船也上不得", "摘不了茶"]


def test_a_card_of_thousands_of_bars_is_checked_through_lw_story(tmp_path: Path) -> None:
    """The whole of ``lw story check`` on a card barring thousands of acts: the card's first bar is still caught, the
    check answers (no time asserted), never a traceback."""
    root = new_book(tmp_path / "书", "# 世界观\n\n普洱在南边。\n", (("韦大锅", "位置", "普洱"), ("韦大锅", "状态", "腕伤")),
                    contract=("韦大锅在普洱",))
    card = root / L.角色 / "韦大锅.md"
    card.write_text(card.read_text(encoding="utf-8") + "\n他上不得船。" + "".join(f"拉不得{t}，" for t in _things(3000)) + "\n",
                    encoding="utf-8")
    lw(root, "fix")
    hand_in(root, "---\n标题: 试\n视角: 韦大锅\n---\n" + "韦大锅在普洱歇脚，天亮了。\n韦大锅一步跨上船来。\n")
    out = lw(root, "check")
    assert "Traceback" not in out and "上不得船" in out
