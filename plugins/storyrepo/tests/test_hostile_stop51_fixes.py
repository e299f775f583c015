"""Stop 51's outside reader (R51) on the calendar as facts (continuity.py) and the rank claims (ranks.py): each input
that once took seconds is now read in work linear in its length, counted (a pattern's searches, through the profiler),
never timed; and the findings it gave are the ones it gives."""

from __future__ import annotations

import cProfile
import pstats
from typing import Callable, TypeVar

import pytest

from lw_storyrepo import ranks

import continuity_helpers

T = TypeVar("T")


CALENDAR = continuity_helpers.round_file("test_continuity_calendar_facts")
continuity, timed = CALENDAR.continuity, CALENDAR.timed


def _searches(fn: Callable[[], T]) -> tuple[T, int]:
    """``fn()`` and how many times it called a compiled pattern's ``search`` (the quadratic readers R51 found called
    it once per match, each over the whole prefix). ``fn`` runs once first, unprofiled: the first reading of a book
    builds the world's cached tables, searches of its own that the file run alone would count (it failed alone, and
    passed after any test that had read a book)."""
    fn()
    profile = cProfile.Profile()
    result = profile.runcall(fn)
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    return result, sum(row[1] for key, row in stats.items() if "search" in key[2] and "Pattern" in key[2])


def test_months_since_told_thousands_of_times_in_one_line_is_read_once_per_sentence() -> None:
    # R51 1: "走了一个月"×6000 took 12 s, "老葛走了一个月"×3000 gave 3000 findings
    found, calls = _searches(lambda: timed(continuity("走了一个月" * 6000)))
    assert not found and calls < 200
    found, calls = _searches(lambda: timed(continuity("老葛走了一个月" * 3000)))
    assert len(found) == 1 and calls < 200


RANKS = continuity_helpers.round_file("test_continuity_rank_facts")


def test_thousands_of_titles_in_one_open_quote_are_each_read_over_a_window(monkeypatch: pytest.MonkeyPatch) -> None:
    # R51 2: "“何主笔，"×10000 took 3 s: the whole prefix searched, the line counted and rewritten, per title
    spans = continuity_helpers.Counted(ranks.NOT_A_CLAIM_BEFORE)
    monkeypatch.setattr(ranks, "NOT_A_CLAIM_BEFORE", spans)
    # one hint, once: the first “何主笔， opens a quote as its vocative (stop 57); the others stand inside the open quote
    assert [severity for severity, _message in RANKS.found("报馆", "“何主笔，" * 10000)] == ["warn"]
    assert 0 < spans.read < 40 * 10000  # a few characters per title, not the 50,000 before the last
    assert RANKS.found("报馆", "天刚亮。“老主笔何平来了。”葛书年说着，把一沓稿子拍在桌上。") == []  # the window still sees 老
