"""``lw story`` speaks the reader's language (``--locale``, ``LC_ALL``/``LC_MESSAGES``/``LANG``);
the book's own files stay Chinese whatever the locale."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

import lw_storyrepo
from lw_storyrepo import layout as L
from lw_storyrepo.i18n import CATALOG, catalogued, locale_from, tr
from lw_storyrepo.samples import DRAFT, to_reviewed

LW = str(Path(sys.executable).with_name("lw"))
SOURCE = Path(lw_storyrepo.__file__).parent
NOT_MESSAGES = {"fixtures.py", "samples.py", "prompts.py", "i18n.py", "settle.py", "checks.py"}  # book content


def _template(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return (_template(node.left) or "{}") + (_template(node.right) or "{}")
    if isinstance(node, ast.IfExp):
        return None  # both branches are messages of their own
    return None


def messages_in_the_code() -> list[tuple[str, int, str]]:
    """Every Chinese message the code raises or prints: LwError texts and expectations, repair
    card problems and proposals, the state machine's lines, what the CLI says, the notices of
    what the system did by itself."""
    found = []
    for path in sorted(SOURCE.glob("*.py")):
        if path.name in NOT_MESSAGES:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            args: list[ast.AST] = []
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name in ("LwError", "GitError"):
                    args = node.args[:1]
                elif name == "RepairCard":
                    args = node.args[2:3] + node.args[4:5]
                elif name == "card" and path.name == "repair.py":
                    args = node.args[1:2]
                elif name == "Next":
                    args = node.args[2:3]
                elif name in ("say", "tr", "_confirm", "_emit") and path.name == "cli.py":
                    args = node.args[:1]
                elif name == "note":  # what the system did by itself, said after the command
                    args = node.args[:1]
                args += [k.value for k in node.keywords if k.arg in ("expected", "problem", "proposal")]
            elif isinstance(node, ast.Assign) and any(getattr(t, "id", "") in ("HINTS", "STAGE_NAMES", "AMENDED_NEXT") for t in node.targets):
                args = list(node.value.values)  # type: ignore[attr-defined]
            elif isinstance(node, ast.Assign) and any(getattr(t, "attr", "") == "message" for t in node.targets):
                args = [node.value]
            for arg in args:
                for branch in ([arg.body, arg.orelse] if isinstance(arg, ast.IfExp) else [arg]):
                    text = _template(branch)
                    if text and any("\u4e00" <= c <= "\u9fff" for c in text):
                        found.append((path.name, node.lineno, text))
    return found


def test_every_message_of_the_code_has_an_english_entry() -> None:
    missing = [f"{file}:{line} {text!r}" for file, line, text in messages_in_the_code() if not catalogued(text)]
    assert missing == []
    assert len(messages_in_the_code()) > 150


def test_the_catalog_translates_its_own_entries_whole() -> None:
    """Each entry wins over the more general ones for its own text, every value is used."""
    for zh, en in CATALOG:
        values = [f"值{i}" for i in range(zh.count("{}"))]
        assert tr(zh.format(*values), "en") == en.format(*values), zh
        assert all(f"{{{i}}}" in en for i in range(len(values))), zh


@pytest.mark.parametrize("env, explicit, expected", [
    ({"LANG": "zh_CN.UTF-8"}, None, "zh"), ({"LC_ALL": "C.UTF-8", "LANG": "zh_CN.UTF-8"}, None, "en"),
    ({"LW_LOCALE": "zh", "LANG": "C.UTF-8"}, None, "zh"), ({"LW_LOCALE": "zh-CN", "LC_ALL": "en_US.UTF-8"}, None, "zh"),
    ({"LW_LOCALE": "zh"}, "en", "en"), ({"LW_LOCALE": "en", "LANG": "zh_CN.UTF-8"}, None, "en"),
    ({"LC_MESSAGES": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"}, None, "zh"), ({}, None, "en"), ({"LANG": "C"}, None, "en"),
    ({"LANG": "en_US.UTF-8"}, "zh", "zh"), ({"LANG": "zh_CN.UTF-8"}, "en", "en"),
])
def test_the_locale_follows_the_option_then_the_environment(env: dict[str, str], explicit: str | None, expected: str) -> None:
    assert locale_from(env, explicit) == expected


def _lw(*args: str, lang: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")}
    if lang:
        env["LANG"] = lang
    proc = subprocess.run([LW, "story", *args], capture_output=True, env=env)
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode())


def test_lw_story_speaks_the_shells_language_as_lw_pack_and_lw_seat_do(book) -> None:
    """LW_LOCALE, then LC_ALL/LC_MESSAGES/LANG (:func:`lwcore.api.pick_locale`); --locale wins."""
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")}
    for extra, args, chinese in (({"LW_LOCALE": "zh_CN", "LANG": "C.UTF-8"}, (), True),
                                 ({"LW_LOCALE": "zh_CN"}, ("--locale", "en"), False),
                                 ({"LANG": "C.UTF-8"}, (), False)):
        proc = subprocess.run([LW, "story", *args, "query", "chapters", "-C", str(book.root)], capture_output=True,
                              env={**env, **extra})
        out = proc.stdout.decode() + proc.stderr.decode()
        assert proc.returncode == 0, out
        assert out.strip() == ("（无）" if chinese else "(none)"), (extra, out)  # no chapter settled yet


def test_errors_follow_the_locale(book) -> None:
    r = _lw("retcon", "1", "--原因", "x", "-y", "-C", str(book.root), lang="zh_CN.UTF-8")
    assert r.returncode == 1 and r.stderr == "错误：没有可入册的修改：先改好定稿/大纲里的文件，再运行 retcon\n"
    r = _lw("retcon", "1", "--原因", "x", "-y", "-C", str(book.root), lang="en_US.UTF-8")
    assert r.returncode == 1 and r.stderr == "error: nothing to commit: edit the files in 定稿/大纲 first, then retcon\n"
    r = _lw("--locale", "en", "promise", "set", "P-001", "强度", "极高", "-C", str(book.root), lang="zh_CN.UTF-8")
    assert r.stderr == "error: strength «极高» is not valid (expected 高|中|低)\n"
    r = _lw("--locale", "en", "--json", "promise", "set", "P-009", "强度", "高", "-C", str(book.root))
    assert r.returncode == 1 and '"message": "promise P-009 not found"' in r.stdout


def test_status_lines_and_repair_cards_follow_the_locale_and_the_book_stays_chinese(book) -> None:
    r = _lw("-C", str(book.root), lang="en_US.UTF-8")
    assert r.stdout.startswith("[5] new chapter brief: chapter 1, decision card written; next step «the author decides")
    card = book.text(L.决策卡)
    assert card.startswith("# 决策卡：第 1 章\n## 盘面（脚本生成）\n") and "new chapter" not in card
    lin = book.p(f"{L.角色}/林晚.md")
    lin.write_text(lin.read_text(encoding="utf-8").replace("最后变更章: 0", "最后变更章: 第三章"), encoding="utf-8")
    r = _lw("query", "due", "-C", str(book.root), lang="en_US.UTF-8")
    assert r.returncode == 1
    assert "repair card: 定稿/设定/角色/林晚.md line 9\nproblem: «最后变更章» should be a whole number\n" in r.stderr
    r = _lw("query", "due", "-C", str(book.root), lang="zh_CN.UTF-8")
    assert "修复卡：定稿/设定/角色/林晚.md 第 9 行\n问题：「最后变更章」应是整数\n" in r.stderr


def test_after_a_draft_fails_the_checks_lw_story_names_the_report_to_read(book) -> None:
    to_reviewed(book)
    from lw_storyrepo import drafts, verdict

    verdict.reject(book, "开头太慢")
    drafts.submit_draft(book, "B", DRAFT.replace("  - S-001.知情人+林晚\n", ""))  # 林晚 now leaks S-001
    r = _lw("-C", str(book.root), lang="zh_CN.UTF-8")
    assert "已机检（过：无；打回：B）；下一步「模型渲染草稿」" in r.stdout
    assert "  草稿 B 没过机检，读：工作区/评审报告/机检-B.md\n" in r.stdout
    assert "  作者打回的理由：工作区/评审报告/打回.md\n" in r.stdout
    r = _lw("-C", str(book.root), lang="en_US.UTF-8")  # and again, on the next start
    assert "  draft B failed the checks, read: 工作区/评审报告/机检-B.md\n" in r.stdout
    assert "泄密" in book.text(L.check_report("B"))
