"""Hostile input, a third look: numbers no field can hold and text a commit message must not carry raw.

Each class here once ended in a traceback (``internal error``) or reached git raw: digits ``int()``
cannot read (``²``, ``①``), runs of thousands of digits (past ``int()``'s 4300-digit limit), numbers past
what the cache's SQLite stores, a hexadecimal number too long to print, and control, bidi and line
characters in a draft's title or a setting change reaching the commit message."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lwcore.api import LwError
from lw_storyrepo import layout as L, ranks
from lw_storyrepo.changes import typed
from lw_storyrepo.checks import CheckContext
from lw_storyrepo.continuity import book_time, earlier
from lw_storyrepo.dialect import fast_flat
from lw_storyrepo.repo import WHOLE_MAX, StoryRepo, as_int
from lw_storyrepo.samples import DRAFT, to_reviewed
from lw_storyrepo.volumes import Volumes

from story_cli import lw

DIGITS = "0123456789０１２３²³¹①⑴٣〇零一二两三四五六七八九十百千"
LONG = "1" * 5000


def _snapshot(book: StoryRepo) -> dict[str, bytes]:
    return {str(p.relative_to(book.root)): p.read_bytes() for p in sorted(book.root.rglob("*"))
            if p.is_file() and ".git" not in p.parts and ".cache" not in p.parts}


# --- whole numbers ---------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=DIGITS + " -+x", max_size=12) | st.integers(-10 ** 30, 10 ** 30) | st.text(max_size=12))
def test_an_int_field_reads_a_whole_number_within_nine_digits_or_nothing(value: object) -> None:
    n = as_int(value)
    assert n is None or -WHOLE_MAX <= n <= WHOLE_MAX
    if isinstance(value, str) and value.strip().isdecimal() and len(value.strip()) <= 9:
        assert n == int(value)


def test_digits_int_cannot_read_and_thousands_of_digits_are_no_number() -> None:
    assert [as_int(v) for v in ("²", "①", "⑴", LONG, str(WHOLE_MAX + 1), 10 ** 20, "٣", " 12 ")] == \
        [None, None, None, None, None, None, 3, 12]


UNITS, SHAPES = ["1", "一", "〇", "٣", "十"], ["第{}日", "第{}天", "{}年冬月初三", "大历1023年冬月初{}", "大历{}年"]


@pytest.mark.parametrize("unit", UNITS)
@pytest.mark.parametrize("shape", SHAPES)
def test_an_in_book_time_of_thousands_of_digits_reads_or_is_none(unit: str, shape: str) -> None:
    text = shape.format(unit * 5000)
    book_time(text)
    earlier(text, "第2日")


@settings(max_examples=60, deadline=None)
@given(unit=st.sampled_from(UNITS), n=st.integers(1, 60), shape=st.sampled_from(SHAPES))
def test_an_in_book_time_of_any_digit_run_reads_or_is_none(unit: str, n: int, shape: str) -> None:
    text = shape.format(unit * n)
    book_time(text)
    earlier(text, "第2日")


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 6000), sign=st.sampled_from(["", "-", "+"]))
def test_the_flat_reader_leaves_a_number_past_int_s_limit_to_the_full_reader(n: int, sign: str) -> None:
    meta = fast_flat(f"最后变更章: {sign}{'7' * n}\n")
    assert meta is None or meta["最后变更章"] == int(sign + "7" * n)


def test_a_setting_change_of_thousands_of_digits_is_refused_with_the_limit() -> None:
    with pytest.raises(LwError, match=str(WHOLE_MAX)):
        typed("最后变更章", int, LONG, "林晚.最后变更章=" + LONG)
    assert typed("最后变更章", int, "12", "林晚.最后变更章=12") == 12


def test_a_deadline_of_thousands_of_digits_is_no_chapter() -> None:
    volumes = Volumes(iter([]), 40)
    assert volumes.deadline(f"第{LONG}卷") is None and volumes.deadline(LONG) is None
    assert volumes.deadline(10 ** 20) is None and volumes.deadline("第2卷") == 80


def test_the_cli_refuses_numbers_past_nine_digits_and_changes_nothing(book: StoryRepo) -> None:
    before = _snapshot(book)
    out = lw(book, "character", "set", "林晚", "最后变更章", LONG, ok=False)
    assert "最后变更章" in out and str(WHOLE_MAX) in out and len(out) < 2000
    assert "最后变更章" in lw(book, "character", "set", "林晚", "最后变更章", "9" * 20, ok=False)
    assert "兑付期限" in lw(book, "promise", "set", "P-001", "兑付期限", f"第{LONG}卷", ok=False)
    assert _snapshot(book) == before
    for arg in ("²", "9" * 20, LONG):  # a chapter no book has: refused, located and short (U10, stop 53: it
        out = lw(book, "query", "present", arg, ok=False)  # answered 「（无）」 as if nobody had been in it)
        assert "internal error" not in out and "没有入册的第" in out and len(out) < 2000, out[:300]


@pytest.mark.parametrize("line", ["最后变更章: " + "9" * 20, "最后变更章: 0x" + "f" * 20, "星座: 0x" + "f" * 5000,
                                  "最后变更章: " + LONG])
def test_a_card_holding_a_number_past_what_the_book_stores_is_a_located_repair(book: StoryRepo, line: str) -> None:
    rel = f"{L.角色}/林晚.md"
    text = book.p(rel).read_text(encoding="utf-8")
    text = text.replace("星座: 天蝎   # 作者自定义字段\n", "").replace("最后变更章: 0\n", line + "\n")
    book.p(rel).write_text(text, encoding="utf-8")
    for command in (("query", "due"), ("rebuild",), ("brief",)):
        out = lw(book, *command, ok=False)
        assert f"{rel} 第 9 行" in out or f"{rel}:9" in out or f"{rel} line 9" in out, (command, out[:300])
    problem = next(line for line in lw(book, "query", "due", ok=False).splitlines() if line.startswith("问题："))
    assert len(problem) < 200  # the value clipped, never thousands of digits
    out = lw(book, "query", "due", ok=False)  # the fix names numbers, never YAML's anchors, tags and keys
    assert "锚点" not in out and ("整数不超过九位" in out or f"不超过 {WHOLE_MAX} 的整数" in out), out


# --- what a commit message carries -----------------------------------------------------------------

RAW = ("\x1b", "\u202e", "\x00", "\x7f", "\u2028")


def _message(book: StoryRepo) -> str:
    return book.git.out("log", "-1", "--format=%B")


def test_a_draft_s_title_and_setting_changes_reach_the_commit_as_visible_lines(book: StoryRepo) -> None:
    draft = DRAFT.replace("标题: 北境的雪", '标题: "北境\\e[31m的雪\\u202e\\nSigned-off-by: 某人"') \
        .replace("  - 林晚.位置=北境雪原", '  - "林晚.位置=北境\\e[2J雪原"')
    to_reviewed(book, draft)
    lw(book, "accept")
    message = _message(book)
    assert message.startswith("ch(1): 北境\\u001b[31m的雪\\u202e Signed-off-by: 某人\n"), message[:120]
    assert not any(c in message for c in RAW) and "\nSigned-off-by" not in message
    assert "林晚.位置=北境\\u001b[2J雪原" in message


@pytest.mark.parametrize("value", ["北境\x1b[2J雪原", "北境\u202e雪原", "北境\x7f雪原"])
def test_a_value_set_from_the_command_line_reaches_the_commit_escaped(book: StoryRepo, value: str) -> None:
    lw(book, "character", "set", "林晚", "位置", value)
    message = _message(book)
    assert message.startswith("fix(设定): 林晚.位置=北境\\u") and not any(c in message for c in RAW)
    assert book.git.out("reflog", "-1", "--format=%gs").strip().isprintable()


# --- a world's rank ladders ------------------------------------------------------------------------


class _Counting:
    """A compiled pattern that counts the searches of text longer than ``long``."""

    def __init__(self, pattern: re.Pattern[str], long: int, seen: Counter[str]) -> None:
        self.pattern, self.long, self.seen = pattern, long, seen

    def search(self, text: str, *args: int) -> re.Match[str] | None:
        if len(text) > self.long:
            self.seen[self.pattern.pattern[:8]] += 1
        return self.pattern.search(text, *args)


@pytest.mark.parametrize("unit, held", [("一品到九品，A1-A9，", None), ("| 境界 | 说明 |\n|--|--|\n| 练气 | a |\n| 筑基 | b |\n\n", None),
                                        ("实习医生、住院医、主治、副主任\n", ["主治", "住院医", "主任"]),
                                        ("1. 练气\n2. 筑基\n3. 金丹\n\n", None)])
def test_a_world_saying_a_ladder_a_thousand_times_reads_its_section_once_and_finds_it_once(
        monkeypatch: pytest.MonkeyPatch, unit: str, held: list[str] | None) -> None:
    """Each range, table, list and line once searched its whole section again for the ladder's direction, and
    each ladder a card holds was compared with every line's: a 世界观 of 60 000 characters took minutes."""
    seen: Counter[str] = Counter()
    for name in ("NUMBER_HIGHER", "DOWNWARD", "UPWARD"):
        monkeypatch.setattr(ranks, name, _Counting(getattr(ranks, name), 5000, seen))
    ranks._top_said.cache_clear()
    ranks._stated_down.cache_clear()
    once, many = "## 力量体系\n" + unit, "## 力量体系\n" + unit * 1000
    assert ranks.ladders_of(many, held) == ranks.ladders_of(once, held) != ()
    assert max(seen.values(), default=0) <= 1, seen


def test_a_style_rule_is_one_line_and_its_source_one_line_of_the_commit(book: StoryRepo) -> None:
    before = _snapshot(book)
    out = lw(book, "style", "add", "禁词", "风雪\nSigned-off-by: 某人", ok=False)
    assert "只能是一行" in out and _snapshot(book) == before
    lw(book, "style", "add", "禁词", "风雪", "--出处", "作者\nSigned-off-by: 某人\n## 铁律")
    message, style = _message(book), book.p(L.风格宪法).read_text(encoding="utf-8")
    assert "\nSigned-off-by" not in message and "出处: 作者 Signed-off-by: 某人 ## 铁律" in message
    assert "- 禁词：风雪（出处：作者 Signed-off-by: 某人 ## 铁律）" in style and style.count("\n## 铁律") == 1


def test_a_reason_or_a_title_given_on_the_command_line_is_one_line_of_the_commit(book: StoryRepo) -> None:
    forged = "改走暗线\nSigned-off-by: 某人"
    lw(book, "promise", "abandon", "P-002", "--reason", forged)
    assert "\nSigned-off-by" not in _message(book) and "改走暗线 Signed-off-by: 某人" in _message(book)
    assert "原因：改走暗线 Signed-off-by: 某人\n" in next(book.p(L.承诺).glob("P-002-*.md")).read_text(encoding="utf-8")
    lw(book, "promise", "new", forged, "--type", "悬念", "--strength", "低", "--plan", "第三卷揭晓")
    assert _message(book).startswith("fix(承诺): 开启 P-003 改走暗线 Signed-off-by: 某人\n")


@pytest.mark.parametrize("pattern", ["(林+)+$", "(\\w*)*。", "(风雪{2,})+x"])
def test_a_banned_pattern_that_backtracks_exponentially_is_refused_or_skipped(book: StoryRepo, pattern: str) -> None:
    """(林+)+$ against thirty 林 and a 。 takes minutes in Python's engine; a model's tool can add a rule."""
    before = _snapshot(book)
    assert "(X+)+" in lw(book, "style", "add", "禁句式", pattern, ok=False) and _snapshot(book) == before
    rel = L.风格宪法
    book.p(rel).write_text(book.p(rel).read_text(encoding="utf-8").replace("禁句式:\n", f"禁句式:\n  - '{pattern}'\n", 1),
                           encoding="utf-8")
    assert CheckContext.load(book).banned_patterns == [(pattern, None)]  # a hand-written one is not run
    lw(book, "style", "add", "禁句式", "^(风雪|大雪)+")
