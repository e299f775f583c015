"""The path and encoding rules that make a book work on Windows (README, "Windows"), checked here.

No Windows machine runs these: each rule is tested on its own (file names Windows refuses,
CRLF files from Windows editors, a byte-order mark, names that differ by case only, path
lengths), and the whole chain runs under ``LC_ALL=C PYTHONUTF8=0``, where Python would decode
Chinese paths as ASCII unless ``lw story`` puts itself in UTF-8 mode.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from lw_storyrepo import edits, verdict
from lw_storyrepo import layout as L
from lw_storyrepo.repair import scan
from lw_storyrepo.samples import LIN, to_reviewed
from lwcore.errors import LwError

LW = str(Path(sys.executable).with_name("lw"))
C_LOCALE = {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0"}


@pytest.mark.parametrize("title, name", [
    ("北境的雪", "北境的雪"),
    ("a:b*c?d", "abcd"),
    ('引"号"<与>|竖线', "引号与竖线"),
    ("路径/分隔\\符", "路径分隔符"),
    ("CON", "_CON"), ("nul.txt", "_nul.txt"), ("com1", "_com1"), ("LPT9", "_LPT9"),
    ("结尾的点. ", "结尾的点"), ("...", "无题"), ("  ", "无题"), ("制表\t换行\n", "制表换行"),
    ("长" * 60, "长" * 40),
])
def test_file_names_are_legal_on_windows(title: str, name: str) -> None:
    assert L.safe_title(title) == name
    assert L.chapter_filename(7, title) == f"0007-{name}.md"


def test_the_deepest_path_a_book_writes_stays_short() -> None:
    """Windows' classic limit is 260 characters; a book's own part stays under 100 of them."""
    longest = max(
        f"{L.信息差}/S-9999-{'长' * L.TITLE_MAX}.md",
        f"{L.承诺}/P-9999-{'长' * L.TITLE_MAX}.md",
        f"{L.正文}/99999-{'长' * L.TITLE_MAX}.md",
        f"{L.角色}/{'长' * L.TITLE_MAX}.md",
        f"{L.金句库}/归档/{'长' * 4}.md",
        f"{L.原稿}/草稿-A.md",
        key=len,
    )
    assert len(longest) < 100


def test_files_saved_with_crlf_and_a_bom_read_and_keep_their_line_endings(book) -> None:
    crlf = "\ufeff" + LIN.replace("位置: 青云宗", "位置：青云宗").replace("\n", "\r\n")  # Notepad: BOM, CRLF, full-width colon
    card = book.p(f"{L.角色}/林晚.md")
    card.write_bytes(crlf.encode("utf-8"))
    cards, fixed = scan(book)
    assert cards == [] and fixed == [f"{L.角色}/林晚.md 第 6 行：键后的全角冒号「：」已改为半角「: 」"]
    text = card.read_bytes().decode("utf-8")
    assert "位置: 青云宗\r\n" in text and "\n" not in text.replace("\r\n", "")  # fixed, still all CRLF
    assert book.characters()["林晚"]["位置"] == "青云宗"
    edits.set_character(book, "林晚", "境界", "筑基")
    text = card.read_bytes().decode("utf-8")
    assert "境界: 筑基\r\n" in text and "\n" not in text.replace("\r\n", "") and "星座: 天蝎   # 作者自定义字段\r\n" in text


def test_a_crlf_draft_settles(book) -> None:
    from lw_storyrepo.samples import DRAFT

    to_reviewed(book, draft=DRAFT.replace("\n", "\r\n"))
    verdict.accept(book)
    meta, body = book.chapter(1)
    assert meta["标题"] == "北境的雪" and "风雪扑面" in body


def test_names_that_differ_only_by_case_are_one_file_on_windows(book) -> None:
    edits.set_character(book, "Alice", "状态", "在世")
    with pytest.raises(LwError, match="只差大小写"):
        edits.set_character(book, "alice", "状态", "失踪")
    edits.set_character(book, "Alice", "状态", "失踪")
    assert book.characters()["Alice"]["状态"] == "失踪"


def test_git_keeps_the_bytes_we_write(book) -> None:
    """core.autocrlf=false for every git call: a CRLF file is committed as it is, and Chinese
    paths are printed as they are (core.quotepath=false)."""
    card = book.p(f"{L.角色}/林晚.md")
    card.write_bytes(LIN.replace("\n", "\r\n").encode("utf-8"))
    from lw_storyrepo.handedits import commit_fix

    commit_fix(book)
    blob = book.git.run("show", f"HEAD:{L.角色}/林晚.md").stdout
    assert blob == LIN.replace("\n", "\r\n").encode("utf-8")
    assert f"{L.角色}/林晚.md" in book.git.out("show", "--name-only", "--format=", "HEAD")


def _lw(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([LW, "story", *args], capture_output=True, env=dict(os.environ, **env))
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode("utf-8", "replace"),
                                       proc.stderr.decode("utf-8", "replace"))


def test_under_a_c_locale_without_utf8_mode_a_crlf_book_builds_queries_and_rebuilds(book) -> None:
    to_reviewed(book)
    verdict.accept(book)
    chapter = book.p("定稿/正文/0001-北境的雪.md")
    chapter.write_bytes(chapter.read_bytes().replace(b"\n", b"\r\n"))
    from lw_storyrepo.handedits import commit_fix

    commit_fix(book)
    for args in (["query", "chapters", "--json"], ["rebuild"], ["health"], ["query", "present", "林晚"]):
        r = _lw(*args, "-C", str(book.root), env=C_LOCALE)
        assert r.returncode == 0 and "Traceback" not in r.stderr, (args, r.stderr)
    assert '"title": "北境的雪"' in _lw("query", "chapters", "--json", "-C", str(book.root), env=C_LOCALE).stdout
