"""H11's round narrowed (issue 30, stop 58, the second outside reader's findings 1, 2 and 9): three lost catches.

- **A stage just reached is the stage now** (刚当上灶丁, 才熬上灶丁): compared with the card like any stage said, not
  skipped — a reached stage lower than the card is a slip, a higher one a promotion to record.
- **A past told in speech** (:func:`lw_storyrepo.ranks.told_back`) is read in the rank's clause and the one before it, never
  where that clause says now (如今, 现在…); 后来的事 (a noun phrase) tells no past.
- **After a quote closed inside a sentence** (说了句“走”，扛起扁担) the act is the subject's (H11's quote reading was then
  withdrawn by the lead: the clauses of an open quote are read as the subject's too).

The reviewer's own sentences in :mod:`test_rank_and_holdings_eleven`'s salt works (石大成 灶头, 韩老三 总灶, 柳根 挑夫
holds 扁担), not the labelled drafts' words.
"""

from __future__ import annotations

import pytest

from test_rank_and_holdings_eleven import _found


@pytest.mark.parametrize("body", ["石大成刚当上灶丁。", "石大成好不容易才熬上灶丁。"])
def test_a_stage_just_reached_lower_than_the_card_is_a_slip(body: str) -> None:
    assert any("石大成" in m and "灶丁" in m for m in _found(body, "境界")), body


def test_a_stage_reached_higher_than_the_card_is_said() -> None:
    assert any("柳根" in m and "总灶" in m for m in _found("柳根早就当上总灶了。", "境界"))


def test_a_stage_reached_at_the_card_stays_clean() -> None:
    assert _found("“大成，”韩老三看着他，“挑了五年担子才熬上灶头，往后要稳当些。”", "境界") == []
    assert _found("韩老三熬了十年，终于当上总灶。", "境界") == []


@pytest.mark.parametrize("body, said", [
    ("“后来的事你都知道，大成如今是总灶了。”韩老三说。", "总灶"),
    ("“后来嘛，大成现在还是个挑夫。”韩老三说。", "挑夫"),
    ("“开会的时候，大成是总灶，他说了算。”韩老三说。", "总灶"),
])
def test_a_rank_said_of_now_after_a_told_back_word_is_read(body: str, said: str) -> None:
    assert any("石大成" in m and said in m for m in _found(body, "境界")), body


def test_a_past_told_in_speech_stays_of_then() -> None:
    assert _found("“你爹教我烧灶的时候，大成还是个挑夫，我也是。”韩老三说，“后来他当了灶头。”", "境界") == []
    assert _found("“后来大成还是个挑夫，一挑就是三年。”韩老三说。", "境界") == []


@pytest.mark.parametrize("body", [
    "韩老三站起来，说了句“走”，扛起扁担就出了门。",
    "韩老三站起来，在门上贴了个“福”字，扛起扁担就走。",
    "韩老三站起来，念叨着“稳当”两个字，拿起扁担出了门。",
])
def test_the_subjects_act_after_a_closed_quote_is_theirs(body: str) -> None:
    assert any(m.startswith("韩老三") and "扁担" in m for m in _found(body, "持有")), body
