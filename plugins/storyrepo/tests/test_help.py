"""``lw story … --help`` follows the locale as the messages do (``--locale``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``): every subcommand's help is English for an English reader (Chinese
only inside «», the book's own names) and Chinese for a Chinese reader (ASCII only where the
spec keeps it: commands, options, file names, commit prefixes). ``lw --help`` still lists
``story`` without importing the plugin's command module.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from lw_storyrepo import i18n
from lw_storyrepo.cli import story

LW = str(Path(sys.executable).with_name("lw"))
LOCALE_VARS = ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")


def _walk(command: click.Command, path: tuple[str, ...] = ()):
    yield path, command
    if isinstance(command, click.Group):
        for name in sorted(command.commands):
            yield from _walk(command.commands[name], (*path, name))


COMMANDS = dict(_walk(story))


def _help(path: tuple[str, ...], *, locale: str | None = None, lang: str | None = None) -> str:
    env = {k: None for k in LOCALE_VARS} | ({"LANG": lang} if lang else {})
    args = (["--locale", locale] if locale else []) + [*path, "--help"]
    result = CliRunner().invoke(story, args, prog_name="lw story", env=env)
    assert result.exit_code == 0, result.output
    return result.output


def _wide(char: str) -> bool:
    """A character an English reader cannot be asked to read: Chinese, full-width forms."""
    return unicodedata.east_asian_width(char) in "WF"


def _ascii_words_allowed(path: tuple[str, ...]) -> set[str]:
    """The ASCII a Chinese help may hold (spec §2: ASCII is for machine protocols only)."""
    allowed = {"lw", "story", "Story", "Repo", "v7", "v6", "git", "init", "commit", "fix", "retcon", "vol", "NN",
               "front", "matter", "JSON", "main", "book.yaml", ".gitignore", ".story-system", ".cache", "index.db", ".md",
               "LW_LOCALE", "LC_ALL", "LC_MESSAGES", "LANG", "what-if"}
    for _p, command in COMMANDS.items():
        allowed.add(command.name or "")
        for param in command.params:
            allowed.update(param.opts)
            allowed.update(str(c) for c in getattr(param.type, "choices", ()))
    return allowed | {"-h", "--help"}


@pytest.mark.parametrize("path", list(COMMANDS), ids=lambda p: " ".join(p) or "story")
def test_english_help_has_no_chinese_but_the_books_quoted_names(path: tuple[str, ...]) -> None:
    text = _help(path, locale="en")
    assert text.startswith(f"Usage: lw story{''.join(' ' + p for p in path)} [OPTIONS]") and "\nOptions:\n" in text
    unquoted = re.sub(r"«[^»]*»", "", text)
    assert [line for line in unquoted.splitlines() if any(_wide(c) for c in line)] == [], text
    assert "..." not in "".join(line for line in text.splitlines() if line.startswith("  ") and not line.startswith("   "))


@pytest.mark.parametrize("path", list(COMMANDS), ids=lambda p: " ".join(p) or "story")
def test_chinese_help_has_no_untranslated_english(path: tuple[str, ...]) -> None:
    text = _help(path, locale="zh")
    assert text.startswith(f"用法：lw story{''.join(' ' + p for p in path)} [选项]") and "\n选项：\n" in text
    words = re.findall(r"-{1,2}[A-Za-z][A-Za-z0-9-]*|\.?[A-Za-z][A-Za-z0-9_.-]*[A-Za-z0-9_]|[A-Za-z]", text)
    stray = sorted({w for w in words if w not in _ascii_words_allowed(path)})
    assert stray == [], text


@pytest.mark.parametrize("path", [p for p, c in COMMANDS.items() if isinstance(c, click.Group)],
                         ids=lambda p: " ".join(p) or "story")
@pytest.mark.parametrize("locale", ["en", "zh"])
def test_every_subcommand_summary_fits_its_line(path: tuple[str, ...], locale: str) -> None:
    text = _help(path, locale=locale)
    listed = text.split("\nCommands:\n" if locale == "en" else "\n命令：\n")[1]
    rows = [line for line in listed.splitlines() if line.strip()]
    assert len(rows) == len(COMMANDS[path].commands)  # type: ignore[attr-defined]
    assert all(not row.endswith("...") and row.split()[1] for row in rows), listed


def test_help_options_show_the_spelling_of_the_readers_language() -> None:
    english, chinese = _help(("init",), locale="en"), _help(("init",), locale="zh")
    assert "  --title TEXT " in english and "--书名" not in english and "[required]" in english
    assert "  --书名, --title 文本 " in chinese and "[必填]" in chinese
    assert "Usage: lw story secret set [OPTIONS] SID FIELD VALUE\n" in _help(("secret", "set"), locale="en")
    assert "用法：lw story secret set [选项] 信息差编号 {读者已知|知情人|关键词} 值\n" in _help(("secret", "set"), locale="zh")


@pytest.mark.parametrize("lang, expected", [("en_US.UTF-8", "en"), ("zh_CN.UTF-8", "zh"), ("C", "en"), (None, "en")])
def test_help_follows_the_environment_without_the_option(lang: str | None, expected: str) -> None:
    text = _help(("draft",), lang=lang)
    assert text.startswith("Usage: lw story draft [OPTIONS] LABEL FILE|-\n" if expected == "en" else
                           "用法：lw story draft [选项] 标签 文件|-\n")


def test_help_leaves_the_messages_locale_as_it_was() -> None:
    _help(("draft",), locale="en")
    _help((), locale="en")
    assert i18n.current() == "zh"  # the library's language again: nothing outlives the invocation


def _lw(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in LOCALE_VARS}
    proc = subprocess.run([LW, *args], capture_output=True, env=base | (env or {}))
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode())


def test_the_real_lw_story_help_in_both_locales() -> None:
    r = _lw("story", "--locale", "en", "--help", env={"LANG": "zh_CN.UTF-8"})
    assert r.returncode == 0 and r.stdout.startswith("Usage: lw story [OPTIONS]") and "  -h, --help " in r.stdout
    assert _lw("story", "--help", "--locale", "en", env={"LANG": "zh_CN.UTF-8"}).stdout == r.stdout  # either order
    r = _lw("story", "draft", "--help", env={"LANG": "en_US.UTF-8"})
    assert r.stdout.startswith("Usage: lw story draft [OPTIONS] LABEL FILE|-\n\n  Submit a draft (front matter and prose).\n")
    r = _lw("story", "draft", "-h", env={"LANG": "zh_CN.UTF-8"})
    assert r.stdout.startswith("用法：lw story draft [选项] 标签 文件|-\n\n  提交一份草稿（front matter + 正文）。\n")
    r = _lw("story", "draft", "--help", env={"LC_ALL": "C.UTF-8", "LANG": "zh_CN.UTF-8"})
    assert r.stdout.startswith("Usage: lw story draft")  # LC_ALL wins, as for the messages
    r = _lw("story", "--locale", "zh", "retcon", "--help", env={"LANG": "en_US.UTF-8"})
    assert r.stdout.startswith("用法：lw story retcon [选项] 章号\n") and "--原因, --reason 文本" in r.stdout


def test_lw_help_lists_story_lazily(tmp_path: Path) -> None:
    code = ("import sys\nfrom lwcore.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "print('LOADED', sorted(m for m in sys.modules if m.startswith('lw_storyrepo.')))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ, LW_HOME=str(tmp_path), LANG="zh_CN.UTF-8"))
    assert re.search(r"^  story +Story Repo v7: a web novel as a git repository", proc.stdout, re.M), proc.stdout
    loaded = proc.stdout.rsplit("LOADED", 1)[1]
    assert "lw_storyrepo.cli" not in loaded and "lw_storyrepo.clihelp" not in loaded and "lw_storyrepo.i18n" not in loaded


def _usage_error(args: list[str], locale: str) -> str:
    result = CliRunner().invoke(story, ["--locale", locale, *args], prog_name="lw story",
                                env={k: None for k in LOCALE_VARS})
    assert result.exit_code == 2, result.output  # click's usage-error code, in both languages
    return result.output


REQUIRED = [p for p, c in COMMANDS.items() if not isinstance(c, click.Group)
            and any(isinstance(q, click.Argument) and q.required for q in c.params)]


@pytest.mark.parametrize("path", REQUIRED, ids=lambda p: " ".join(p))
def test_a_missing_argument_is_said_in_the_readers_language(path: tuple[str, ...]) -> None:
    chinese, english = _usage_error([*path], "zh"), _usage_error([*path], "en")
    assert chinese.startswith(f"用法：lw story {' '.join(path)} [选项]")
    assert f"试试「lw story {' '.join(path)} --help」看帮助。" in chinese and "\n错误：缺少参数「" in chinese
    words = re.findall(r"-{1,2}[A-Za-z][A-Za-z0-9-]*|\.?[A-Za-z][A-Za-z0-9_.-]*[A-Za-z0-9_]|[A-Za-z]", chinese)
    assert sorted({w for w in words if w not in _ascii_words_allowed(path)}) == [], chinese
    assert english.startswith(f"Usage: lw story {' '.join(path)} [OPTIONS]") and "Error: Missing argument '" in english


@pytest.mark.parametrize("args, chinese", [
    (["nosuch"], "错误：没有命令「nosuch」。"),
    (["pick", "--draftt", "A"], "错误：没有选项「--draftt」。"),
    (["reject", "--draftt=A", "理由"], "错误：没有选项「--draftt」。"),
    (["pick", "A", "B", "C"], "错误：多出了参数（B C）"),
    (["check", "--book"], "错误：选项「--book」后面要给一个值。"),
    (["secret", "set", "S-001", "来历", "x"], "错误：「{读者已知|知情人|关键词}」的值无效：「来历」不在可选值里：'读者已知', '知情人', '关键词'。"),
    (["init", "书"], "错误：缺少选项「--书名 / --title」。"),
    (["promise", "new", "x"], "错误：缺少选项「--类型 / --type」。"),
])
def test_click_usage_errors_are_chinese_for_a_chinese_reader(args: list[str], chinese: str) -> None:
    assert chinese in _usage_error(args, "zh")
    assert "Error: " in _usage_error(args, "en")


def test_a_usage_error_through_the_real_lw_follows_lang_and_json() -> None:
    r = _lw("story", "reject", env={"LANG": "zh_CN.UTF-8"})
    assert r.returncode == 2 and r.stderr.endswith("错误：缺少参数「理由」。\n") and "Usage" not in r.stderr
    r = _lw("story", "--json", "reject", env={"LANG": "zh_CN.UTF-8"})
    assert r.returncode == 2 and '"message": "缺少参数「理由」。"' in r.stdout and '"code": "usage"' in r.stdout
    r = _lw("story", "reject", env={"LANG": "en_US.UTF-8"})
    assert r.returncode == 2 and r.stderr.endswith("Error: Missing argument 'REASON'.\n")
