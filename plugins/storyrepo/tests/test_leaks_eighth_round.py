"""L2's round (stop 58): a letter read out paragraph by paragraph is its writer's to its end.

A letter read out may close its quote at every paragraph (“冬生：…” / “…姐。”) or go on after the reader stops for a
moment (念到这里，停了停。 / “…” / “…” / 信念完了。). The quote-only paragraphs such a letter encloses — a run that opens
on a read part or just after one and closes on a read part or on a signature naming a person — are the writer's words,
not the reader's: the leak check asks the writer. A listener's reply that closes on neither stays the listener's.
The sentences are this file's own (a 1950s tin mine, a river port in the 1930s, a fishing village)."""

from __future__ import annotations

import pytest

from lw_storyrepo.checks import CheckContext, voices

PEOPLE = {"冬生": "林冬生", "林冬生": "林冬生", "姐": "林冬梅", "冬梅": "林冬梅", "林冬梅": "林冬梅",
          "老周": "周铁山", "周铁山": "周铁山", "阿水": "陈阿水", "陈阿水": "陈阿水", "三叔": "陈德发", "陈德发": "陈德发"}


def _speakers(body: str, cast: list[str], pov: str) -> dict[str, str | None]:
    people = set(PEOPLE.values())
    ctx = CheckContext(dict(PEOPLE), [], [], [], 0, people, set(), people=people).for_draft({"在场": cast, "视角": pov})
    return {v.words: v.speaker for v in voices(ctx, body.split("\n"), letters=True)}


# a tin mine: the letter read paragraph by paragraph, each quote closed, the last signed by an alias (姐)
SIGNED = ("信客捎来一封冬梅的信。冬生把信拆开。\n\n老周凑过来：“念念。”\n\n冬生一个字一个字地念：\n\n"
          "“冬生：家里都好，娘的腿也消肿了。”\n\n“矿上的事你少打听。后山那口废井，千万莫下去。姐。”\n\n老周半天没吭声。")
# a river port: the reading paused by the reader, then two paragraphs more, the reading done after them
PAUSED = ("三叔的信到了。阿水坐在码头石阶上拆开，老周蹲在一边。\n\n阿水念：\n\n“阿水：见字如面。”\n\n"
          "阿水念到这里，停了停。老周把烟袋在石头上磕了磕。\n\n“去年腊月，货栈的账房偷偷把盐运到下游的芦苇荡。”\n\n"
          "“你在码头上嘴紧些，莫跟人讲。”\n\n信念完了。阿水把信叠好，塞进怀里。")


@pytest.mark.parametrize("body, cast, pov, words, writer", [
    (SIGNED, ["林冬生", "周铁山"], "林冬生", "矿上的事你少打听。后山那口废井，千万莫下去。姐。", "林冬梅"),
    (SIGNED, ["林冬生", "周铁山"], "林冬生", "冬生：家里都好，娘的腿也消肿了。", "林冬梅"),
    (PAUSED, ["陈阿水", "周铁山"], "陈阿水", "去年腊月，货栈的账房偷偷把盐运到下游的芦苇荡。", "陈德发"),
    (PAUSED, ["陈阿水", "周铁山"], "陈阿水", "你在码头上嘴紧些，莫跟人讲。", "陈德发"),
])
def test_quote_paragraphs_a_letter_encloses_are_its_writers(body: str, cast: list[str], pov: str, words: str,
                                                            writer: str) -> None:
    assert _speakers(body, cast, pov).get(words) == writer


@pytest.mark.parametrize("body, cast, pov, words", [
    # a listener's lone reply right after the letter, closed by no read part and no signature
    ("信客捎来一封冬梅的信。冬生把信拆开，念：\n\n“冬生：家里都好，娘的腿也消肿了。”\n\n“好事。后山那口废井，你可莫下去。”\n\n"
     "冬生把信折好。", ["林冬生", "周铁山"], "林冬生", "好事。后山那口废井，你可莫下去。"),
    # a kin word after a comma is a call in speech, not a signature
    ("信客捎来一封冬梅的信。冬生把信拆开，念：\n\n“冬生：家里都好，娘的腿也消肿了。”\n\n“后山那口废井，莫下去，姐。”\n\n"
     "冬生把信折好。", ["林冬生", "周铁山"], "林冬生", "后山那口废井，莫下去，姐。"),
    # a signed-looking run far from the letter (three narration paragraphs after it) is speech
    ("信客捎来一封冬梅的信。冬生把信拆开，念：\n\n“冬生：家里都好。”\n\n冬生把信折好。\n\n老周起身去烧水。\n\n"
     "天黑了，矿上的汽笛响了一声。\n\n“后山那口废井，我下去过。姐。”", ["林冬生", "周铁山"], "林冬生", "后山那口废井，我下去过。姐。"),
])
def test_a_reply_the_letter_does_not_enclose_is_not_the_writers(body: str, cast: list[str], pov: str,
                                                                words: str) -> None:
    assert _speakers(body, cast, pov).get(words) != "林冬梅"


def test_a_long_draft_of_lone_quotes_after_a_letter_is_read_once() -> None:
    body = "信客捎来一封冬梅的信。冬生把信拆开，念：\n\n“冬生：家里都好。”\n\n" + "\n\n".join(["“嗯。”"] * 3000) + "\n\n“莫下去。姐。”"
    said = [v for v in voices(CheckContext(dict(PEOPLE), [], [], [], 0, set(PEOPLE.values()), set(),
                                           people=set(PEOPLE.values())).for_draft({"在场": ["林冬生"], "视角": "林冬生"}),
                              body.split("\n"), letters=True) if v.words == "莫下去。姐。"]
    # a run of 3,000 lone quotes is a dialogue, not the letter's (LETTER_RUN_MAX, R58b's finding, stop 58)
    assert all(v.speaker != "林冬梅" for v in said)
