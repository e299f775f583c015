"""Hostile input, an eighth look: the readers of one front-matter line and of 名册's 非专名 list.

Each class here once made one command grow with the square of one line or one section, all of it text the
author controls: a 设定变更 line of tens of thousands of blanks (the lazy who and value before ``\\s*`` read the
blanks again from each of them: ``lw story check`` > 120 s at the cap); a 书内时间 of the cap with no year (the
year was searched for from each character: > 120 s); a front-matter line of thousands of ``a:[`` and no ``]`` (the
inline-list fixer's lazy head tried each ``:``: ``lw story draft`` 23 s to refuse it); a 非专名 section of tens
of thousands of blank lines before a line of prose (each blank line read the whole run: ``lw story check``
115 s); a golden-line heading of tens of thousands of blanks (the lazy heading before ``\\s*\\n`` read them again
from each: 20 s for settle or pack to read the file). The figures of the checks are in bench/story_hostile.py (the
``eighth_`` cases). The faster readers must give what the lazy patterns gave, match for match (the patterns are kept
here as the specification), and read each line once."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lw_storyrepo import layout as L, repo as repo_module
from lw_storyrepo.changes import CHANGE, parse_change
from lw_storyrepo.continuity import WEEKDAY_AFTER, YEAR, _span, book_time, earlier
from lw_storyrepo.dialect import _FLOW, auto_fix
from lw_storyrepo.golden import _ENTRY, golden_entries
from lw_storyrepo.repo import StoryRepo

CAP = 60_000
LAZY_CHANGE = re.compile(r"^\s*(?P<who>[^.。=+\-\s][^.。=]*?)\s*[.。]\s*(?P<field>[^=+\-\s]+?)\s*(?P<op>[=+\-])\s*(?P<value>.+?)\s*$")
LAZY_YEAR = re.compile(r"([^\d〇零一二三四五六七八九十]*?)([\d〇零一二三四五六七八九十]{1,5})\s*年")
LAZY_WEEKDAY = re.compile(r"[\s，,（(]*(?:星期|礼拜|周)[一二三四五六日天][）)]?\s*$")
LAZY_FLOW = re.compile(r"^(?P<head>[^#]*?:\s*)\[(?P<items>[^\]]*)\]\s*(?P<comment>#.*)?$")
LAZY_ITEMS = re.compile(r"^\s*[-*]\s*(.+?)\s*$", re.M)
LAZY_ENTRY = re.compile(r"^##\s*(.+?)\s*\n(.*?)(?=^##\s|\Z)", re.M | re.S)


def _same(old: re.Match[str] | None, new: re.Match[str] | None) -> None:
    assert (old is None) == (new is None)
    if old is not None and new is not None:
        assert old.span() == new.span() and old.groups() == new.groups()


_CHANGE_TEXT = st.lists(st.sampled_from(["许砚", "S-001", "持有", "知情人", ".", "。", "=", "+", "-", " ", "\t", "\u3000",
                                         "\n", "\r", "旧怀表", "a"]), max_size=14).map("".join)


@settings(max_examples=600, deadline=None)
@given(text=_CHANGE_TEXT)
def test_a_change_line_reads_as_the_lazy_pattern_read_it(text: str) -> None:
    _same(LAZY_CHANGE.match(text), CHANGE.match(text))


def test_a_change_line_of_the_cap_s_blanks_is_read_once() -> None:
    blanks = " " * CAP
    assert CHANGE.match(f"许砚{blanks}x") is None
    change = parse_change(f"  许砚{blanks}.{blanks}持有{blanks}+{blanks}旧{blanks}怀表{blanks}")
    assert (change.who, change.field, change.op, change.value) == ("许砚", "持有", "+", f"旧{blanks}怀表")
    assert CHANGE.match(f"许砚.持有+{blanks}")["value"] == " "  # only blanks: the last of them, as before


_TIME_TEXT = st.lists(st.sampled_from(["1", "2024", "１", "年", "月", "日", "号", "十", "〇", "初三", "大历", "冬月", "星期一", "周日",
                                       "礼拜", "，", ",", "（", "）", " ", "\u3000", "立秋", "上旬", "第", "天", "某"]), max_size=12).map("".join)


@settings(max_examples=600, deadline=None)
@given(text=_TIME_TEXT)
def test_an_in_book_time_s_year_and_weekday_read_as_the_lazy_patterns_read_them(text: str) -> None:
    _same(LAZY_YEAR.search(text), YEAR.search(text))
    _same(LAZY_YEAR.match(text), YEAR.match(text))
    assert LAZY_WEEKDAY.sub("", text) == WEEKDAY_AFTER.sub("", text)


def test_an_in_book_time_of_the_cap_with_no_year_still_reads_what_it_holds() -> None:
    assert book_time("某" * CAP) is None and _span("某" * CAP) is None
    assert book_time("大历" * (CAP // 2) + "1023年冬月初三") == ("大历" * (CAP // 2), (1023, 11, 3))
    assert book_time("2024年10月13日" + "，" * CAP + "星期一") == ("", (2024, 10, 13))
    assert earlier("2024年" + " " * CAP + "立秋", "2024年十月") and not earlier("某" * CAP, "2024年十月")


_FLOW_TEXT = st.lists(st.sampled_from(["a", "标签", ":", ": ", "[", "]", "#", " ", "\t", "，", "、", ": [", "] #注"]),
                      max_size=14).map("".join)


@settings(max_examples=600, deadline=None)
@given(line=_FLOW_TEXT)
def test_an_inline_list_line_reads_as_the_lazy_head_read_it(line: str) -> None:
    _same(LAZY_FLOW.match(line), _FLOW.match(line))


def test_a_front_matter_line_of_thousands_of_unclosed_lists_is_left_as_it_is() -> None:
    line = "x:" + "a:[" * (CAP // 3)
    assert auto_fix(line) == (line, [])
    fixed, notes = auto_fix("a: [x] " * 2000 + "b: [甲，乙]  # 注")
    assert fixed == "a: [x] " * 2000 + "b:  # 注\n  - 甲\n  - 乙" and notes


def _roster(tmp_path: Path, section: str) -> StoryRepo:
    path = tmp_path / L.名册
    path.parent.mkdir(parents=True)
    path.write_text(f"# 名册\n\n{L.ROSTER_HEADER}\n## {L.IGNORE_SECTION}\n{section}\n", encoding="utf-8")
    return StoryRepo(tmp_path)


def test_a_non_name_list_of_thousands_of_blank_lines_reads_each_line_once(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    section = "说明\n- 青石\n" + " \n" * (CAP // 2) + "* 长风 \n\t-  明月  茶园\t\n旁注"
    given_chars: list[int] = []
    real = repo_module._LIST_ITEM

    class Counted:
        def match(self, line: str) -> re.Match[str] | None:
            given_chars.append(len(line))
            return real.match(line)

    monkeypatch.setattr(repo_module, "_LIST_ITEM", Counted())
    assert _roster(tmp_path, section).ignored_names() == ["青石", "长风", "明月  茶园"]
    assert sum(given_chars) <= len(section)  # each character handed to the line pattern once


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(st.sampled_from(["- 甲乙", "* 丙", "-丁", "  - 戊 ", "说明", "", " ", "\t- 己\t", "x - y", "- a b "]),
                      max_size=8))
def test_a_non_name_list_of_items_reads_as_the_pattern_over_the_section_read_it(lines: list[str]) -> None:
    section = "\n".join(lines).strip()
    expected = [m.group(1).strip() for m in LAZY_ITEMS.finditer(section)]
    assert [m.group(1) for m in map(repo_module._LIST_ITEM.match, section.split("\n")) if m] == expected


_GOLDEN_TEXT = st.lists(st.sampled_from(["##", "## ", "#", "\n", " ", "\t", "\u3000", "\r", "标题", "正文", "a"]), max_size=14).map("".join)


@settings(max_examples=600, deadline=None)
@given(text=_GOLDEN_TEXT)
def test_a_golden_line_file_reads_as_the_lazy_heading_read_it(text: str) -> None:
    assert [(m.span(), m.groups()) for m in _ENTRY.finditer(text)] == [(m.span(), m.groups()) for m in LAZY_ENTRY.finditer(text)]


def test_a_golden_heading_of_the_cap_s_blanks_is_read_once() -> None:
    blanks = " " * CAP
    assert golden_entries(f"## 雨夜{blanks}长街\n她撑伞走过。\n\n## 二\n正文二\n") == [(f"雨夜{blanks}长街", "她撑伞走过。"), ("二", "正文二")]
    assert golden_entries("##" + blanks) == [] and golden_entries(f"##{blanks}\n{blanks}") == [("", blanks.strip())]
