"""Leaks and holdings, seventh round (issue 30, K7 at stop 58): one cut of a contract line for all its readers; a
person's name not found inside a longer word.

- the contract readers of a line (the words an event says, :func:`lw_storyrepo.checks.word_pairs`; the act a thing is
  used for, :func:`lw_storyrepo.checks.act_given_up`; a place in reported words,
  :func:`lw_storyrepo.checks._reported_question`) share the line's segmented runs: a run is cut once, and the cut is
  the one each reader made alone;
Settings are not the labelled sets': a night market's noodle stall, a river ferry, a mountain quarry.
"""

from __future__ import annotations

from lw_storyrepo.checks import _reported_question, act_given_up, word_pairs
from lw_storyrepo.propernouns import lexicon


def test_a_contract_lines_runs_are_cut_once_for_all_its_readers() -> None:
    line = "阿强给渡口送午饭"
    cuts: dict[str, tuple[int, ...]] = {}
    alone = word_pairs("给渡口送午饭")
    assert word_pairs("给渡口送午饭", cuts) == alone
    assert "给渡口送午饭" in cuts  # the run is kept, cut once for the line's other readers
    kept = dict(cuts)
    body = "天黑了，阿强说今天不送了，明天再送。"
    shared, alone_off = act_given_up("送午饭", body, cuts), act_given_up("送午饭", body)
    assert shared is not None and alone_off is not None and shared.span() == alone_off.span()
    assert all(cuts[run] == ends for run, ends in kept.items())  # a run already cut is not cut again
    assert lexicon().boundaries(line, cuts=cuts) == lexicon().boundaries(line)
    asked = "老周说他问过坐船到县城要几个钟头"
    at = asked.find("县城")
    assert _reported_question(asked, at, "县城", cuts) == _reported_question(asked, at, "县城") is True
