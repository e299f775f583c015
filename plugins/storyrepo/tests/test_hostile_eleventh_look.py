"""Hostile input, an eleventh look: stop 52's calendar readers (a day restated with 是…的, days left before a dated
event, dates with bracketed asides on the cards) and the quoting of findings.

Four classes made a check grow with the product of two things the author controls, each read here through its work
(calls through the profiler, lines read), never timed; the figures are in bench/story_hostile.py (``eleventh_``):

- thousands of findings on one line without a full stop (a 50,000-character line of 靖波下水只剩三天了，): each finding's
  quote searched the rest of the line for its sentence's end (:func:`lw_storyrepo.findings.in_view`, ``at_words``): 4 s
  at the draft cap; now the line's sentence ends are read once.
- a card of thousands of dates with a bracketed aside (十月初八（腊月十七）回城、…): each date was tried against every
  aside (``_dates_in``), and each date's clause searched back to its start (``dated_subjects``; a card without a comma
  kept a copy of the text before each date): 7.7 s; now one bisect each, the clause ends read once, a clause kept whole
  up to ``SAID_MAX`` characters.
- a card of thousands of dated events beside a draft restating a day, counting days left or days to a coming thousands
  of times: each count read every event (``_date_restated``, ``_since_going``, ``_world_event``, ``_come_in_days``):
  3–5 s; now each one's days once per check, the events holding words through an index, and a draft's first
  ``COMINGS_READ`` comings read.

The code each replaces is kept here as the specification.

A journal of an interrupted settle (``.git/lw-txn/journal.json``) someone else wrote stopped every command on a
traceback (an entry that is no object, a path that is a number, no old head), and its recovery removed a file outside
the book (a path ``../../x`` or through a link out of it, not there before the settle) or copied one into it (a backup
``../../x``): it is now read as :func:`lw_storyrepo.atomic.apply_and_commit` writes it, or refused, located."""

from __future__ import annotations

import cProfile
import json
import pstats
import re
from pathlib import Path
from typing import Callable, TypeVar

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st
from click.testing import CliRunner

from lw_storyrepo import continuity, findings
from lw_storyrepo.continuity import (COMINGS_READ, DATED, LUNAR_DATED, SAID_MAX, World, _countdown, _date_restated,
                                     _dates_in, _world_event, dated_events, dated_subjects)
from lw_storyrepo.atomic import recover
from lw_storyrepo.cli import story
from lw_storyrepo.findings import at_words, in_view
from lw_storyrepo.gitops import Git
from lw_storyrepo.repo import StoryRepo
from lwcore.api import LwError

T = TypeVar("T")


def _counted(fn: Callable[[], T]) -> tuple[T, int]:
    """``fn()`` and the calls it made (Python functions, builtins and each step of a generator)."""
    profile = cProfile.Profile()
    result = profile.runcall(fn)
    return result, sum(row[1] for row in pstats.Stats(profile).stats.values())  # type: ignore[attr-defined]


_SENTENCE_END = re.compile(r"[。！？!?…]+[”’」』）)]*")


def _old_in_view(excerpt: str, line: str, column: int) -> str:
    """in_view before the eleventh look: the sentence's end searched on the line per finding."""
    start = line.find(excerpt) if excerpt else -1
    if start < 0:
        return excerpt
    stop, rest = start + len(excerpt), line.rstrip()
    if stop >= len(rest) or _SENTENCE_END.match(line, stop) or _SENTENCE_END.search(excerpt[-1:]):
        return excerpt
    at = max(column - 1, stop)
    end = m.end() if (m := _SENTENCE_END.search(line, at)) else len(rest)
    shown = min(end, at + 20)
    middle = line[stop:at] if at - stop <= 60 else "…" + line[at - 10:at]
    return excerpt + middle + line[at:shown] + ("…" if shown < end else "")


def _old_at_words(line: str, column: int, words: str) -> int:
    if not words or column < 1:
        return column
    end = m.end() if (m := _SENTENCE_END.search(line, column - 1)) else len(line)
    at = line.find(words, column - 1, end)
    return at + 1 if at >= 0 else column


_LINE = st.text(alphabet="林许砚。！？!?…”’」』）)，a \t", max_size=40)


@settings(max_examples=400, deadline=None)
@given(_LINE, st.integers(-1, 45), st.integers(0, 40), st.integers(0, 40), st.text(alphabet="林许。”", max_size=3))
def test_a_findings_quote_and_place_are_as_before(line: str, column: int, i: int, j: int, words: str) -> None:
    excerpt = line[min(i, j):max(i, j)]
    assert in_view(excerpt, line, column) == _old_in_view(excerpt, line, column)
    assert at_words(line, column, words) == _old_at_words(line, column, words)


def test_thousands_of_findings_on_one_line_read_its_sentence_ends_once() -> None:
    line = "靖波下水只剩三天了，" * 5000
    findings._sentence_ends.cache_clear()
    quoted = [in_view(line[:60], line, 10 * k + 1) for k in range(3000)]
    placed = [at_words(line, 10 * k + 1, "三天") for k in range(3000)]
    assert findings._sentence_ends.cache_info().misses == 1
    assert quoted[::500] == [_old_in_view(line[:60], line, 10 * k + 1) for k in range(0, 3000, 500)]
    assert all(q.endswith("…") for q in quoted) and placed == [10 * k + 7 for k in range(3000)]


_DATES = st.lists(st.sampled_from(["十月初八", "（腊月十七）", "(星期二)", "11月11日", "回城", "许砚", "，", "。", "、", "下水",
                                   "十八是", "去年", "二月十日", "（", "）", "初"]), max_size=30).map("".join)


def _old_dates_in(text: str) -> list[tuple[tuple[int, int], int, int]]:
    found = [*DATED.finditer(text), *LUNAR_DATED.finditer(text)]
    asides = [m.span("aside") for m in found if m.group("aside")]
    out = []
    for m in found:
        if any(start <= m.start() < end for start, end in asides):
            continue
        month, day = continuity._MONTHS.get(m.group("month") + "月") or continuity._cn_int(m.group("month")), \
            continuity._cn_int(m.group("day"))
        if month is not None and day is not None and 1 <= month <= 12 and 1 <= day <= 31:
            out.append((m.span(), month, day))
    return out


def _old_subjects(text: str) -> list[tuple[str, str, tuple[int, int]]]:
    out = []
    for m, month, day in _dates_in(text):
        start = max(text.rfind(c, 0, m.start()) for c in continuity._CLAUSE_ENDS) + 1
        if start > 0 and text[start - 1] in "，," and not text[start:m.start()].strip():
            start = max(text.rfind(c, 0, start - 1) for c in continuity._CLAUSE_ENDS) + 1
        out.append((text[start:m.start()], m.group("what").strip(), (month, day)))
    return out


@settings(max_examples=400, deadline=None)
@given(_DATES, st.text(alphabet="许砚下水回城十月初八", max_size=6))
def test_dated_events_and_their_subjects_are_as_before(text: str, said: str) -> None:
    assert [(m.span(), month, day) for m, month, day in _dates_in(text)] == _old_dates_in(text)
    if all(len(s) <= SAID_MAX for s, _what, _on in _old_subjects(text)):
        assert list(dated_subjects(text, {})) == _old_subjects(text)
    world = World(dated=dated_events([text, text[3:]]), dated_by=dated_subjects(text, {"许砚": text}))
    assert _world_event(world, said) == next((e for e in sorted(world.dated, key=len) if len(said) >= 2 and said in e), None)
    assert world.dated_of(said) == [e for e in world.dated_by if e[0].startswith(said)]


def test_a_card_of_thousands_of_dates_with_asides_is_read_once() -> None:
    card = "十月初八（腊月十七）回城、" * 3000
    subjects, calls = _counted(lambda: dated_subjects("", {"许砚": card}))
    assert len(subjects) == 3000 and calls < 60 * 3000  # the asides tried per date: 9,000,000
    assert max(len(said) for said, _what, _on in subjects) <= len("许砚") + SAID_MAX + 1  # no copy of the text per date
    assert subjects[-1][0].startswith("许砚十月初八（腊月十七）回城") and subjects[-1][0].endswith("回城、")


def _book_of_events(k: int) -> tuple[World, re.Pattern[str]]:
    events = "许砚十月初八回城。" + "".join(f"许砚十月初{'一二三四五六七八九十'[i % 10]}办事{i}，" for i in range(k))
    card = {"姓名": "许砚", "状态": "在世"}
    return (World(cards={"许砚": card}, aliases={"许砚": "许砚"}, dated=dated_events([events]),
                  dated_by=dated_subjects("", {"许砚": events})), re.compile("许砚"))


def test_a_day_restated_thousands_of_times_reads_the_ones_days_once() -> None:
    world, names = _book_of_events(2000)
    sentences = [(0, 1, "许砚是十月初九回的城，" * 3000)]
    found, calls = _counted(lambda: _date_restated(world, names, "光绪三年十月初五", sentences, 1))
    assert found == [] and calls < 150_000  # the 2,000 events read once, not per each of 3,000 dates (6,000,000)
    one = World(cards=world.cards, aliases=world.aliases, dated_by=dated_subjects("", {"许砚": "许砚十月初八进了城。"}))
    told = _date_restated(one, names, "光绪三年十月初十", [(0, 1, "许砚是十月初九进的城，" * 3000)], 1)
    assert len(told) == 1  # one finding per person per sentence, as before


def test_thousands_of_counts_beside_thousands_of_dated_events_stay_bounded() -> None:
    world, _names = _book_of_events(2000)
    left = [(0, 1, "".join(f"办事{i}只剩三天了，" for i in range(2000)))]
    found, calls = _counted(lambda: _countdown(world, "光绪三年十月初一", left, 1))
    assert found and calls < 400_000  # each count looks its event up through the index, not a scan of 2,000 events
    coming = [(0, 1, "".join(f"再过三天，许砚就回{chr(0x4e00 + i)}了，" for i in range(2000)))]
    reads = []
    original = continuity._come_in_days
    continuity._come_in_days = lambda *a: reads.append(a) or original(*a)  # type: ignore[assignment]
    try:
        _countdown(world, "光绪三年十月初一", coming, 1)
    finally:
        continuity._come_in_days = original
    assert len(reads) == COMINGS_READ


@pytest.mark.parametrize("entries", [
    [1], [{"path": 5, "existed": False}], [{"path": "../../victim", "existed": False}],
    [{"path": "link/victim", "existed": False}], [{"path": ".git/config", "existed": False}],
    [{"path": ".", "existed": False}], [{"path": "大纲/x.md", "existed": True, "backup": "../../../../victim"}],
    [{"path": "大纲/x.md", "existed": True, "backup": "0.bak"}],
])
def test_a_journal_someone_else_wrote_is_refused_located_and_nothing_outside_is_touched(book: StoryRepo,
                                                                                     entries: list[object]) -> None:
    root = Path(book.root)
    outside = root.parent.parent / "victim"
    outside.write_text("keep", encoding="utf-8")
    (root / "link").symlink_to(root.parent.parent, target_is_directory=True)
    jdir = root / ".git" / "lw-txn"
    jdir.mkdir(parents=True)
    (jdir / "0.bak").symlink_to(outside)  # a backup linking out of the journal's folder
    (jdir / "journal.json").write_text(json.dumps({"old_head": Git(root).head(), "entries": entries}), encoding="utf-8")
    with pytest.raises(LwError) as refused:
        recover(root)
    assert refused.value.file is not None and Path(refused.value.file).name == "journal.json"
    assert outside.read_text(encoding="utf-8") == "keep" and not (root / "大纲" / "x.md").exists()


def test_a_journal_without_its_old_head_is_refused(book: StoryRepo) -> None:
    root = Path(book.root)
    (root / ".git" / "lw-txn").mkdir(parents=True)
    (root / ".git" / "lw-txn" / "journal.json").write_text('{"entries": []}', encoding="utf-8")
    with pytest.raises(LwError, match="不是结转日志"):
        recover(root)


@pytest.mark.parametrize("journal, zh, en", [
    ({"entries": []}, "不是结转日志（要有 old_head 和 entries 列表）", "not a journal (it needs old_head and a list of entries)"),
    ({"old_head": "HEAD~1", "entries": []}, "old_head 'HEAD~1' 不是提交名", "old_head 'HEAD~1' is no commit"),
    ({"old_head": None, "entries": [1]}, "条目 '1' 不是日志条目", "entry '1' is no journal entry"),
    ({"old_head": None, "entries": [{"path": ".git/config", "existed": False}]}, "path '.git/config' 不是书里的文件",
     "path '.git/config' is no file of the book"),
    ({"old_head": None, "entries": [{"path": "大纲/x.md", "existed": True, "backup": "x.bak"}]},
     "backup 'x.bak' 不是日志自己的备份", "backup 'x.bak' is no backup of the journal"),
    ({"old_head": None, "entries": [], "created_dirs": "大纲"}, "created_dirs 不是列表", "created_dirs is no list"),
])
def test_a_refused_journal_says_where_and_which_entry_in_chinese_and_english(book: StoryRepo, journal: dict[str, object],
                                                                             zh: str, en: str) -> None:
    root = Path(book.root)
    (root / ".git" / "lw-txn").mkdir(parents=True)
    jfile = root / ".git" / "lw-txn" / "journal.json"
    jfile.write_text(json.dumps(journal), encoding="utf-8")
    said = CliRunner().invoke(story, ["--locale", "zh", "-C", str(root)])
    assert said.exit_code == 1 and f"错误：{jfile}：上次结转的日志读不出来（{zh}）" in said.output
    said = CliRunner().invoke(story, ["--locale", "en", "-C", str(root)])
    refused = said.exception
    assert isinstance(refused, LwError) and refused.file == str(jfile)
    assert refused.message == f"the last settle's journal does not read ({en})"


def test_a_pronoun_on_a_long_line_reads_back_a_paragraphs_reach() -> None:
    world = World(cards={"顾衡": {}, "许砚": {}}, aliases={"顾衡": "顾衡", "许砚": "许砚"}, gender={"许砚": "他"})
    names = re.compile("顾衡|许砚")
    line = "顾衡拿着旧怀表。他推了推眼镜，" * 4000
    col = line.rfind("他") + 1
    who, calls = _counted(lambda: continuity._antecedent(names, [line], 0, col, world))
    assert who == "顾衡" and calls < 3_000  # the last ANTECEDENT_REACH characters, not 4,000 sentences per pronoun
    short = "许砚推门进来。顾衡拿着旧怀表。他推了推眼镜，"
    assert continuity._reach_back(short, len(short)) == short
    assert continuity._antecedent(names, [short], 0, short.rfind("他") + 1, world) is None  # two could: no guess, as before
