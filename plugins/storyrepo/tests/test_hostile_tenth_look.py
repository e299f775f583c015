"""Hostile input, a tenth look: stop 51's readers (a card's state as one table, holdings as identities, the calendar's
facts, rank claims, names by role and settlements by land feature).

One class made a check grow with the product of two things the author controls: a card holding thousands of things
of one kind (…表) beside a draft telling thousands of 那块…表 — each description was scored against every thing of the
kind (:func:`lw_storyrepo.continuity._identified`: 29 s at the draft cap, 17× from a quarter of it; all of one mark,
那块甲表, 22 s). The things of a kind are now bit sets under their marks (:class:`~lw_storyrepo.continuity._Marked`),
a description a few set operations per mark it says. The scoring it replaces is kept here as the specification; the
work is counted (calls, through the profiler), never timed. The figures are in bench/story_hostile.py (``tenth_``).

A ladder of hundreds of rungs beside a draft of thousands of titles (X境许砚) escaped and joined every rung at each
title read (:func:`lw_storyrepo.continuity.rank` built its pattern per call): 3.5 s at the cap; now once per ladder.
Stop 50's chain-head lines (a line of thousands of 金城航运队, 8× from a quarter of the cap to the cap): each organisation
said in full searched the whole text for its short form (``propernouns._said_alone``); now one pass reads every short
form said alone."""

from __future__ import annotations

import cProfile
import pstats
import re
from typing import Callable, TypeVar

from hypothesis import given, settings
from hypothesis import strategies as st

from lw_storyrepo import propernouns
from lw_storyrepo.continuity import _PHASE, MARK_CLASSES, SAME_STAGE, THREAD, _Identity, _Marked, _number, _words, rank

T = TypeVar("T")


def _counted(fn: Callable[[], T]) -> tuple[T, int]:
    """``fn()`` and the calls it made (Python functions, builtins and each step of a generator)."""
    profile = cProfile.Profile()
    result = profile.runcall(fn)
    return result, sum(row[1] for row in pstats.Stats(profile).stats.values())  # type: ignore[attr-defined]


def _old_best(ones: list[_Identity], told: str) -> str | None:
    """The scoring before the tenth look: every thing of the kind scored against the description."""
    def marks(one: _Identity) -> int:
        if any(row and (set(THREAD.sub("", told)) & set(every)) - row for row, every in zip(one.rows, MARK_CLASSES)):
            return 0
        return len(_words(told) & one.words) + len(set(told) & one.letters)

    scored = sorted(((marks(one), one.thing) for one in ones), reverse=True)
    if scored[0][0] < 1 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return scored[0][1]


_ALPHABET = "甲乙丙铜银红白竹纹"
_MARKS = st.text(alphabet=_ALPHABET, min_size=1, max_size=3)


@st.composite
def _identities(draw: st.DrawFn) -> list[_Identity]:
    count = draw(st.integers(1, 6))
    out = []
    for i in range(count):
        words = frozenset(w for w in draw(st.lists(_MARKS, max_size=4)))
        letters = frozenset(draw(st.text(alphabet=_ALPHABET, max_size=3)))
        said = set(letters).union(*words)
        out.append(_Identity(f"物{i}", words, letters, tuple(frozenset(row) & said for row in MARK_CLASSES)))
    return out


@settings(max_examples=800, deadline=None)
@given(ones=_identities(), told=st.text(alphabet=_ALPHABET + "的旧", min_size=1, max_size=8))
def test_the_thing_a_description_marks_is_the_one_every_thing_scored_would_give(ones: list[_Identity], told: str) -> None:
    assert _Marked(ones).best(told) == _old_best(ones, told)


def _kind_of(count: int, shared: str) -> list[_Identity]:
    return [_Identity(f"{shared}{chr(0x4E00 + i)}表", frozenset(), frozenset(shared + chr(0x4E00 + i)),
                      (frozenset(), frozenset())) for i in range(count)]


def test_thousands_of_things_of_one_mark_cost_each_description_no_walk_over_them() -> None:
    small, large = _kind_of(100, "甲"), _kind_of(4000, "甲")
    tolds = [f"甲{chr(0x4E00 + i)}" for i in range(0, 4000, 10)] + ["甲"] * 50

    def run(ones: list[_Identity]) -> list[str | None]:
        marked = _Marked(ones)
        return [marked.best(t) for t in tolds]

    few, few_calls = _counted(lambda: run(small))
    many, many_calls = _counted(lambda: run(large))
    assert many[0] == "甲一表" and many[-1] is None and many[1] == f"甲{chr(0x4E00 + 10)}表"  # the one marked; 那块甲表: a tie
    assert few[-1] is None
    # building the index is linear in the things; each description a few operations whatever their number
    assert many_calls - few_calls < 20 * (4000 - 100) + 5000, (few_calls, many_calls)


def _old_rank(realm: str, stages: tuple[str, ...]) -> tuple[int, int] | None:
    """:func:`rank` before the tenth look: the pattern built and the order listed per call."""
    names = sorted(stages, key=len, reverse=True)
    pattern = re.compile(rf"({'|'.join(map(re.escape, names))})(?:期)?(?:([一二两三四五六七八九十\d]{{1,2}})[层重阶品级段]|"
                         rf"({'|'.join(sorted(_PHASE, key=len, reverse=True))}))?")
    m = pattern.search(realm or "")
    if not m:
        return None
    stage = SAME_STAGE.get(m.group(1), m.group(1))
    order = [SAME_STAGE.get(s, s) for s in stages]
    level = _number(m.group(2)) if m.group(2) else _PHASE.get(m.group(3) or "", 0)
    return order.index(stage), level or 0


_STAGES = ("练气", "筑基", "金丹", "元婴", "化神", "炼虚", "合体", "大乘", "渡劫", "真仙")


@settings(max_examples=400, deadline=None)
@given(stages=st.lists(st.sampled_from(_STAGES + tuple(SAME_STAGE)), min_size=1, max_size=6).map(tuple),
       realm=st.text(alphabet="".join(_STAGES) + "".join(SAME_STAGE) + "期三层初中后大圆满", max_size=8))
def test_a_rank_read_is_the_one_the_pattern_built_per_call_read(stages: tuple[str, ...], realm: str) -> None:
    assert rank(realm, stages) == _old_rank(realm, stages)


def test_thousands_of_titles_beside_hundreds_of_rungs_build_the_ladders_pattern_once() -> None:
    def ladder(k: int) -> tuple[str, ...]:
        return tuple(chr(0x4E00 + i) + chr(0x5E00 + i) + "境" for i in range(k))

    def run(stages: tuple[str, ...]) -> list[tuple[int, int] | None]:
        return [rank(stages[i % len(stages)] + "三层", stages) for i in range(2000)]

    few, few_calls = _counted(lambda: run(ladder(40)))
    many, many_calls = _counted(lambda: run(ladder(400)))
    assert many[399] == (399, 3) and few[39] == (39, 3)
    # compiling the longer pattern once is linear in its rungs; the old way escaped 2000 × 360 rungs more
    assert many_calls - few_calls < 200 * 400, (few_calls, many_calls)


def _old_said_alone(lex: propernouns._Lexicon, text: str, word: str) -> bool:
    """``_said_alone`` before the tenth look: the text searched for the one word."""
    at = text.find(word)
    while at >= 0:
        if not lex.freq.get(text[at + len(word) - 1:at + len(word) + 1]):
            return True
        at = text.find(word, at + 1)
    return False


@settings(max_examples=400, deadline=None)
@given(text=st.text(alphabet="德兴曲艺社队伍金城航运会议，", max_size=40))
def test_the_short_forms_said_alone_are_the_ones_each_searched_for_would_find(text: str) -> None:
    lex = propernouns.lexicon()
    alone = propernouns._said_alone(lex, text)
    shorts = {text[i:i + 3] for i in range(len(text) - 2)} | {"德兴社", "金城队", "航运会"}
    for short in shorts:
        if short[-1] in propernouns.INSTITUTION_ENDS:
            assert (short in alone) == _old_said_alone(lex, text, short), short


def test_a_line_of_thousands_of_organisations_reads_the_text_once_for_their_short_forms() -> None:
    lex = propernouns.lexicon()
    line = "德兴曲艺社，德兴社，" + "金城航运队" * 6000
    profile = cProfile.Profile()
    found = profile.runcall(lambda: list(propernouns._abbreviated_candidates(lex, line)))
    reads = {fn[2]: row[1] for fn, row in pstats.Stats(profile).stats.items()}  # type: ignore[attr-defined]
    assert ("德兴曲艺社", 0) in found
    # the text read once for the short forms, never searched per organisation (a find over the whole line each)
    assert reads.get("_said_alone") == 1 and "<method 'find' of 'str' objects>" not in reads, reads
