"""``lw story …``: one entry point (``lw story`` = next step) and the explicit subcommands.

Only click (and the help's translation, :mod:`lw_storyrepo.clihelp`) is imported at module
level; each command imports the book code it needs when it runs (this module is the plugin's
CLI boundary). Help texts are Chinese here and follow the reader's locale like the messages. Files named on the command line (drafts,
reviews, summaries) are read through :mod:`lw_storyrepo.sources`: a file that is not UTF-8 is a
located error, never a traceback.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Callable

import click

from lw_storyrepo import layout as L
from lw_storyrepo.atomic import recover_before_reading
from lw_storyrepo.clihelp import LocalizedGroup, remember_locale, usage_said
from lw_storyrepo.dialect import RepairNeeded
from lw_storyrepo.findings import clipped, visible
from lw_storyrepo.i18n import current, set_locale, tr
from lw_storyrepo.nametables import use_data_dir
from lw_storyrepo.notices import drain
from lw_storyrepo.repair import BrokenSources, require_readable
from lw_storyrepo.repo import StoryRepo
from lw_storyrepo.sources import read_input
from lwcore.api import LwError, cli_state, echo_json


def _repo(path: str | None, *, readable: bool = True) -> Any:
    """The book at or above ``path``; with ``readable``, refused while a source file is broken."""
    repo = StoryRepo.find(path)
    recover_before_reading(repo.root)  # never read a half-applied settle (a kill mid-way)
    return require_readable(repo) if readable else repo


def say(text: str, *, err: bool = False, nl: bool = True) -> None:
    """Print a message in the reader's language (the book's own words stay as they are)."""
    click.echo(tr(text), err=err, nl=nl)


_JSON_OUT: list[bool] = []
"""Set while a command has printed JSON: what the system did by itself is then said on stderr,
so stdout stays one JSON document."""


def _emit(data: Any, as_json: bool) -> None:
    """Print ``data``: a string as a message (unless ``as_json``), anything else as indented JSON."""
    if isinstance(data, str) and not as_json:
        say(data)
    else:
        _JSON_OUT.append(True)
        echo_json(data)  # the kernel's: control characters escaped, never sent raw to a terminal


def _item_id(_ctx: click.Context, _param: click.Parameter, value: str) -> str:
    """A promise's or info gap's id as the book files it: ``p-002`` is ``P-002`` (as ``query knows s-001`` reads it)."""
    return value.upper() if L.ITEM_ID.match(value.upper()) else value


def _read_input(name: str) -> str:
    """A file named on the command line (``-`` = stdin) as text, refused when not UTF-8."""
    return read_input(name)


def _show_repairs(exc: Exception) -> None:
    """A broken source file: print its repair card(s) (never a traceback), exit 1."""
    cards = getattr(exc, "cards", None)
    for card in cards or [exc.card]:  # type: ignore[attr-defined]  # a repair error carries .cards or .card
        click.echo(card.render(), err=True)
    if cards:  # source files: the repair flow; a workspace file or an input: fix it and retry
        say("先修好这些源文件：lw story repair（--apply 采纳建议），或 lw story prompt repair 让模型提议", err=True)
    sys.exit(1)


def _say_notices(*, err: bool) -> None:
    """Every automatic fix or recovery of this command (:mod:`lw_storyrepo.notices`), said."""
    for text in drain():
        say(f"已自动处理：{text}", err=err)


class StoryGroup(LocalizedGroup):
    """``lw story``: repair cards are shown whole, and every error and every help is said in
    the reader's language (with ``--json`` the kernel prints an error as JSON, translated all
    the same)."""

    group_class = LocalizedGroup

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        remember_locale(ctx, args, list(self.commands))
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            raise usage_said(exc, ctx) from None

    def invoke(self, ctx: click.Context) -> Any:
        drain()
        _JSON_OUT.clear()
        try:
            result = super().invoke(ctx)
            _say_notices(err=bool(_JSON_OUT))
            return result
        except click.UsageError as exc:  # a subcommand's arguments (click parses them here)
            raise usage_said(exc, ctx) from None
        except (RepairNeeded, BrokenSources) as exc:
            _say_notices(err=True)
            _show_repairs(exc)
        except LwError as exc:
            _say_notices(err=True)
            message, expected = tr(exc.message), tr(exc.expected) if exc.expected else None
            if "--json" in sys.argv or current() == "en":
                raise LwError(message, file=exc.file, line=exc.line, column=exc.column, expected=expected,
                              byte=exc.byte, code=exc.code) from None
            where = f"{exc.location}：" if exc.location else ""
            click.echo(f"错误：{where}{message}" + (f"（应为：{expected}）" if expected else ""), err=True)
            sys.exit(1)
        finally:
            set_locale("zh")  # the library's own language again (an embedding host, the next invocation)


TEXT_ARGS = {"ignore_unknown_options": True}
"""Commands whose arguments carry free text (a reason, a value, a title, a rule): a value starting
with "-" (a Markdown list item such as ``- 第一卷收束``, a pattern such as ``-{3,}``) is the text,
never taken for an option."""
book_option = click.option("--book", "-C", "book", default=None, help="书的目录（默认：当前目录向上找 book.yaml）")
json_option = click.option("--json", "as_json", is_flag=True, help="输出 JSON")
FILE = click.argument("file", metavar="FILE|-")


YES = ("y", "yes", "是", "是的", "好", "确认", "对")


def _confirm(question: str) -> None:
    """Ask on the terminal (or read one line from a pipe: ``echo y | lw story …``); anything but
    a yes refuses, and nothing has been changed."""
    say(question + " [y/N] ", nl=False)
    line = sys.stdin.readline() if sys.stdin is not None else ""
    if not line:
        click.echo("")
        raise LwError("没有确认，什么也没改（标准输入没有回答）", expected="--yes，或从管道给出 y（echo y | …）")
    if not sys.stdin.isatty():
        click.echo(line.rstrip("\n"))
    if line.strip().lower() not in YES:
        raise LwError("没有确认，什么也没改")


def ensure_utf8_mode() -> None:
    """Spec §2.1: entries run with PYTHONUTF8=1 and never depend on the system locale.

    Under a C/POSIX locale with ``PYTHONUTF8=0`` Python decodes argv and file names as ASCII,
    so Chinese paths and options cannot work; re-execute this same command in UTF-8 mode
    (the original argv bytes are restored through surrogateescape).
    """
    import os

    if sys.flags.utf8_mode or sys.getfilesystemencoding().lower().replace("-", "") == "utf8":
        return
    if os.environ.get("LW_STORY_REEXEC") == "1" or "pytest" in sys.modules or not getattr(sys, "orig_argv", None):
        raise LwError("Python 没有以 UTF-8 模式运行，无法处理中文路径", expected="PYTHONUTF8=1 或 UTF-8 的 locale")
    env = dict(os.environ, PYTHONUTF8="1", LW_STORY_REEXEC="1")
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable, *sys.orig_argv[1:]], env)


@click.group("story", cls=StoryGroup, invoke_without_command=True)
@book_option
@json_option
@click.option("--locale", type=click.Choice(["zh", "en"]), default=None,
              help="提示与帮助的语言（默认随终端：LW_LOCALE/LC_ALL/LC_MESSAGES/LANG；书里的文件永远是中文）")
@click.pass_context
def story(ctx: click.Context, book: str | None, as_json: bool, locale: str | None) -> None:
    """Story Repo v7：一本书即一个 git 仓库。

    不带子命令 = 盘面状态机的下一步（同 lw story next）。"""
    import os

    from lw_storyrepo.i18n import locale_from, set_locale

    set_locale(locale_from(os.environ, locale))
    ensure_utf8_mode()
    use_data_dir(cli_state(ctx).data_dir)  # the new-name check's tables live in lw's --data-dir too
    if ctx.invoked_subcommand is None:
        ctx.invoke(next_cmd, book=book, as_json=as_json)


@story.command("init")
@click.argument("directory")
@click.option("--书名", "--title", "title", required=True, help="书名（写进 book.yaml）")
@click.option("--类型", "--genre", "genre", default="", help="题材（玄幻、都市……）")
@click.option("--每章目标字数", "--words", "words", type=int, default=3000, help="每章目标字数（默认 3000）")
@click.option("--卷规模", "--volume-size", "volume_size", type=int, default=40,
              help="卷规模：每卷大约多少章，只是参考值（默认 40）")
def init_cmd(directory: str, title: str, genre: str, words: int, volume_size: int) -> None:
    """建库：在目录里建一本新书。

    全中文目录树、book.yaml、.gitignore、git init 与首个 commit，全有或全无。"""
    from lw_storyrepo.newbook import init_book

    repo = init_book(directory, title, genre, target_words=words, volume_size=volume_size)
    say(f"已建库：{repo.root}")
    say("下一步：先写角色卡（lw story character set 名字 位置 …）和 定稿/设定/世界观.md（检查只认卡上写了的），"
        "再在书里运行 lw story（它写第 1 章的决策卡）")


def _stale_summary(n: int, words: list[str]) -> str:
    """What ``lw story`` and ``lw story fix`` say of a hand edit of chapter ``n`` that changed ``words`` its
    summary still says (:func:`lw_storyrepo.handedits.stale_summaries`): fix leaves the summary, retcon carries it."""
    said = "」「".join(words)
    return tr(f"  第 {n} 章的章摘要还写着正文改掉的「{said}」：lw story fix 只结转正文，摘要照旧；"
              f"要摘要跟着改就走 lw story retcon {n} --原因 …")


def _render_next(step: Any) -> str:
    lines = [tr(f"已自动修复：{f}") for f in step.fixed]  # a recovery is said with the other notices
    lines.append(f"[{step.state}] {tr(step.message)}")
    lines += [card.render() for card in step.cards]
    lines += [f"  {f}" for f in step.files]
    for label, report in (step.detail.get("reports") or {}).items():
        lines.append(tr(f"  草稿 {label} 没过机检，读：{report}"))
    if step.detail.get("rejections"):
        lines.append(tr(f"  作者打回的理由：{step.detail['rejections']}"))
    if step.detail.get("hint"):
        lines.append("  " + tr(step.detail["hint"]))
    if step.state == 1:
        if not step.detail.get("retcon"):  # else the message names the retcon: fix would refuse
            lines.append(tr("  结转：lw story fix（或 -m 写说明）；改的是已接受的章节就走 lw story retcon 章号 --原因 …"))
        lines += [tr(f"  须 retcon：{r}") for r in step.detail.get("retcon") or []]
        lines += [_stale_summary(n, words) for n, words in step.detail.get("summaries") or []]
    if step.state == 0:
        lines.append(tr("  采纳建议：lw story repair --apply；或让模型提议修复：lw story prompt repair"))
    return "\n".join(lines)


@story.command("next")
@book_option
@json_option
def next_cmd(book: str | None, as_json: bool) -> None:
    """判定下一步，脚本的步骤直接做。

    顺序：修复 → 手改结转 → 继续事务 → 卷复盘 → 体检 → 新章 brief。有源文件要修复时退出码为 1。"""
    from lw_storyrepo.machine import advance

    step = advance(_repo(book, readable=False))
    if as_json:
        _emit(step.to_json(), True)
    else:
        click.echo(_render_next(step))
    if step.state == 0:
        sys.exit(1)


@story.group("repair", invoke_without_command=True)
@book_option
@click.option("--apply", "apply", is_flag=True, help="采纳每张卡的建议修复")
@click.option("--accept", "accept_file", default=None, metavar="FILE", help="采纳模型对这个文件的修复提议")
@click.pass_context
def repair_cmd(ctx: click.Context, book: str | None, apply: bool, accept_file: str | None) -> None:
    """列出修复卡；有未修复的卡时退出码为 1。

    全角冒号/逗号已自动修复，只报不问。"""
    if ctx.invoked_subcommand is not None:
        return
    from lw_storyrepo.repair import accept_repair, apply_card, scan

    repo = _repo(book, readable=False)
    if accept_file:
        accept_repair(repo, accept_file)
        say(f"已采纳修复提议：{accept_file}")
    cards, fixed = scan(repo)
    for f in fixed:
        say(f"已自动修复：{f}")
    left = 0
    for card in cards:
        click.echo(card.render())
        if apply and apply_card(repo, card):
            say("  → 已按建议修复")
        else:
            left += 1
    if not cards and not fixed:
        say("所有源文件都能读。")
    if left:
        sys.exit(1)


@repair_cmd.command("propose")
@click.argument("source")
@FILE
@book_option
def repair_propose(source: str, file: str, book: str | None) -> None:
    """为读不进来的源文件提出修复。

    来源：那个源文件；文件：整份修好的文件（- 为标准输入）；待 repair --accept 确认。"""
    from lw_storyrepo.repair import propose_repair

    click.echo(propose_repair(_repo(book, readable=False), source, _read_input(file)))


@story.command("brief")
@book_option
def brief_cmd(book: str | None) -> None:
    """生成决策卡（工作区/决策卡.md）。"""
    from lw_storyrepo.card import brief

    click.echo(brief(_repo(book)))


@story.command("decide")
@click.option("--alt", "--备选", "alternative", is_flag=True, help="选备选：采纳备选段的合同")
@book_option
def decide_cmd(alternative: bool, book: str | None) -> None:
    """作者拍板：决策卡的合同固化。

    --alt：采纳备选方案的合同。"""
    from lw_storyrepo.card import NO_PROMISE_IN_CONTRACT, decide, names_no_promise

    state = decide(_repo(book), alternative=alternative)
    say("合同已固化：\n" + "\n".join(f"- {shown(c)}" for c in state["合同"]))
    if names_no_promise(state):
        say(NO_PROMISE_IN_CONTRACT)


AMENDED_NEXT = {
    "drafted": "下一步：lw story 按新合同重新机检已交的草稿（机检报告此前仍是旧合同的）",
    "decided": "下一步：lw story 组装上下文包，草稿交上来时按新合同机检",
    "packed": "下一步：交稿（lw story draft A 文件），按新合同机检",
}
"""What an amended contract means for the drafts, by the stage the amendment leaves: the checks
run at the next ``lw story``, never by ``amend`` itself (spec §8 step 4)."""


def shown(line: object) -> str:
    """A contract line as the terminal shows it: its start (findings.clipped), control characters escaped."""
    return visible(clipped(str(line)))


@story.command("amend")
@click.option("--原因", "--reason", "reason", required=True, help="为什么改合同（记进章节与 commit）")
@click.option("--合同", "--contract", "contract", multiple=True, required=True, help="新合同的一条断言（可重复；给出完整的新合同）")
@book_option
def amend_cmd(reason: str, contract: tuple[str, ...], book: str | None) -> None:
    """作者修订已固化的合同（代替 abort）。

    给出完整的新合同与原因；草稿按新合同重新机检，原因记进章节 front matter 与 commit。"""
    from lw_storyrepo.card import amend

    result = amend(_repo(book), reason, list(contract))
    say("合同已修订：\n" + "\n".join(f"- {shown(c)}" for c in result["合同"]))
    say(AMENDED_NEXT.get(result["阶段"], AMENDED_NEXT["packed"]))


@story.command("pack")
@book_option
def pack_cmd(book: str | None) -> None:
    """组装上下文包（工作区/上下文包.md）。"""
    from lw_storyrepo.contextpack import pack

    click.echo(pack(_repo(book)))


@story.command("draft")
@click.argument("label")
@FILE
@book_option
def draft_cmd(label: str, file: str, book: str | None) -> None:
    """提交一份草稿（front matter + 正文）。

    成为 工作区/草稿-标签.md；文件为 - 时读标准输入。"""
    from lw_storyrepo.drafts import submit_draft

    click.echo(submit_draft(_repo(book), label, _read_input(file)))


@story.command("check")
@book_option
@json_option
def check_cmd(book: str | None, as_json: bool) -> None:
    """机检每一份草稿。

    报告写进 工作区/评审报告/机检-*.md。"""
    from lw_storyrepo.checks import render_findings
    from lw_storyrepo.review import failed, run_checks, verdict

    results = run_checks(_repo(book))
    if as_json:  # each draft's findings under its label, as before; the verdicts beside them
        _emit({**{k: [f.to_json() for f in v] for k, v in results.items()},
               "verdicts": {k: verdict(v) for k, v in results.items()}}, True)
        return
    for label, findings in results.items():
        click.echo(render_findings(label, findings))
        say(f"（报告：{L.check_report(label)}）")
    sent_back = [k for k, v in results.items() if failed(v)]
    if sent_back and len(sent_back) == len(results):
        say(f"没有草稿过检（打回：{'、'.join(sent_back)}）：章事务回到「模型渲染草稿」，改好后交新稿（lw story draft A 文件）再检")
    elif sent_back:
        say(f"打回：{'、'.join(sent_back)}；过检的草稿进入镜头评审")


@story.command("review")
@click.argument("lens")
@FILE
@book_option
def review_cmd(lens: str, file: str, book: str | None) -> None:
    """提交一个镜头评审。

    镜头：读者/编辑/事实；文件为 - 时读标准输入。"""
    from lw_storyrepo.review import submit_review

    click.echo(submit_review(_repo(book), lens, _read_input(file)))


@story.command("summary", context_settings=TEXT_ARGS)
@click.argument("text")
@book_option
def summary_cmd(text: str, book: str | None) -> None:
    """提交章摘要（≤200 字）。"""
    from lw_storyrepo.review import submit_summary

    click.echo(submit_summary(_repo(book), text))


@story.command("accept")
@click.option("--draft", "label", default=None, help="接受哪一稿（默认：评审过的那一稿）")
@book_option
def accept_cmd(label: str | None, book: str | None) -> None:
    """作者验收：复检，然后原子结转。

    可先改草稿或验收卡里的正文再接受。"""
    from lw_storyrepo.verdict import accept

    say(f"已结转：{accept(_repo(book), label)}")


@story.command("reject", context_settings=TEXT_ARGS)
@click.argument("reason")
@click.option("--draft", "label", default=None, help="打回哪一稿（默认：选中的那一稿）")
@book_option
def reject_cmd(reason: str, label: str | None, book: str | None) -> None:
    """打回这一稿，理由留给下一稿。

    这一稿和它的评审、验收卡、章摘要作废，回到渲染。"""
    from lw_storyrepo.verdict import reject

    where = reject(_repo(book), reason, label)
    say(f"已打回（原稿留在 {where}）。")


@story.command("pick")
@click.argument("label")
@book_option
def pick_cmd(label: str, book: str | None) -> None:
    """选备选：换成另一份通过机检的草稿。

    三镜头重新评审。"""
    from lw_storyrepo.verdict import pick

    pick(_repo(book), label)
    say(f"已换成草稿 {label}：等三镜头评审。")


@story.command("settle")
@book_option
def settle_cmd(book: str | None) -> None:
    """（已验收时）原子结转。"""
    from lw_storyrepo.settle import settle

    say(f"已结转：{settle(_repo(book))}")


@story.command("abort")
@book_option
def abort_cmd(book: str | None) -> None:
    """放弃进行中的章事务（清空工作区）。

    工作区被 git 跟踪时（.gitignore 里删掉了 工作区/），先把草稿与评审存档为一次 commit，再清空。"""
    from lw_storyrepo.workspace import abort

    done = abort(_repo(book, readable=False))
    if done is None:
        say("已清空工作区。")
    else:
        say(f"工作区受 git 跟踪：草稿与评审已存档（{done[0][:10]}），再清空工作区（{done[1][:10]}）。")


@story.group("workspace")
def workspace_grp() -> None:
    """工作区（草稿、评审、报告所在）。"""


@workspace_grp.command("track")
@book_option
def workspace_track(book: str | None) -> None:
    """让 git 跟踪工作区（一次 commit）。

    从 .gitignore 删掉 工作区/ 并提交；此后结转、打回、选备选、换稿、放弃清掉的草稿与评审，都先存档为一次 draft 提交。"""
    from lw_storyrepo.workspace import track

    commit = track(_repo(book))
    if commit is None:
        say("工作区本来就受 git 跟踪，没有改动。")
    else:
        say(f"工作区已受 git 跟踪：.gitignore 已提交（{commit[:10]}）；草稿与评审被清掉前都会先存档。")


@story.command("fix")
@click.option("-m", "--message", default=None, help="commit 说明（默认：系统提议的 fix(…) 说明）")
@click.argument("paths", nargs=-1)
@book_option
def fix_cmd(message: str | None, paths: tuple[str, ...], book: str | None) -> None:
    """把手改结转为 fix(…) commit。

    手改指定稿/大纲/文风里的修改；已接受的章节要走 retcon。给出路径时只结转这些文件。"""
    from lw_storyrepo.handedits import commit_fix, edits_in_scope, stale_summaries

    repo = _repo(book)
    stale = stale_summaries(repo, edits_in_scope(repo, list(paths) or None))
    commit = commit_fix(repo, message, list(paths) or None)
    _emit(repo.git.out("log", "-1", "--format=%s", commit).strip(), False)  # the subject, as every other edit says
    for n, words in stale:  # committed as asked; the summary it leaves is said, with the one command that carries it
        click.echo(_stale_summary(n, words).strip())


@story.command("retcon")
@click.argument("chapter", type=int)
@click.option("--原因", "--reason", "reason", required=True, help="为什么改（写进 commit）")
@click.option("--摘要", "--summary", "summary", default=None,
              help="本章的新摘要（≤200 字）；改了正文或一句话事件而没手改章摘要时必填")
@click.option("--yes", "-y", is_flag=True, help="不再询问确认")
@book_option
def retcon_cmd(chapter: int, reason: str, summary: str | None, yes: bool, book: str | None) -> None:
    """显式 retcon：入册对已接受章节的修改。

    原因写进 commit；同步设定、时间线、承诺与章摘要；作者确认。"""
    from lw_storyrepo.handedits import plan_retcon, retcon

    repo = _repo(book)
    plan = plan_retcon(repo, chapter, reason, summary)
    if not yes:
        say("将以 retcon 入册这些修改：")
        say("\n".join(f"  {rel}" for rel in plan.edited))
        if plan.synced:
            say("并同步：" + "；".join(plan.synced))
        _confirm(f"确认 retcon({chapter})：{reason}？")
    say(f"已入册 retcon({chapter})：{retcon(repo, chapter, reason, plan)}")


@story.group("vol", invoke_without_command=True)
@book_option
@click.pass_context
def vol_grp(ctx: click.Context, book: str | None) -> None:
    """卷复盘：生成本卷审计。

    作者也可以随时用它结束本卷。"""
    if ctx.invoked_subcommand is None:
        from lw_storyrepo.volume_review import volume_review

        click.echo(volume_review(_repo(book)))


@vol_grp.command("candidates")
@click.option("--候选", "--candidate", "items", multiple=True, required=True,
              help="一个候选（共 3–5 个），六段以「｜」分隔：短题｜类型｜强度｜兑付期限｜兑付计划｜总纲：节点；类型：伏笔/悬念/冲突/关系线/立旗/爽点铺垫，强度：高/中/低")
@book_option
def vol_candidates(items: tuple[str, ...], book: str | None) -> None:
    """写入 3–5 个伏笔机会。

    每个须原样引用总纲的远期节点。"""
    from lwcore.api import LwError

    from lw_storyrepo.volume_review import parse_candidate, propose_candidates

    parsed = []
    for item in items:
        c = parse_candidate(f"- [ ] {item}")
        if c is None:
            raise LwError(f"候选「{item}」看不懂", expected="短题｜类型｜强度｜兑付期限｜兑付计划｜总纲：节点")
        parsed.append({"title": c.title, "type": c.type, "strength": c.strength, "deadline": c.deadline,
                       "plan": c.plan, "anchor": c.anchor})
    say("\n".join(propose_candidates(_repo(book), parsed)))


@vol_grp.command("tick")
@click.argument("numbers", type=int, nargs=-1, required=True)
@book_option
def vol_tick(numbers: tuple[int, ...], book: str | None) -> None:
    """作者按序号勾选伏笔机会。"""
    from lw_storyrepo.volume_review import tick

    say("已勾选：" + "、".join(tick(_repo(book), list(numbers))))


@vol_grp.command("commit")
@click.option("--summary", "summary_file", required=True, metavar="FILE|-", help="卷摘要文件（- 为标准输入）")
@click.option("--outline", "outline_file", default=None, metavar="FILE|-", help="下卷卷纲文件（- 为标准输入）")
@book_option
def vol_commit(summary_file: str, outline_file: str | None, book: str | None) -> None:
    """卷复盘入册 vol(NN)。

    卷摘要、下卷卷纲，勾选的伏笔机会生成承诺文件。"""
    from lw_storyrepo.volume_review import current_volume, next_outline_missing, unpicked_candidates, volume_commit

    repo = _repo(book)
    outline = _read_input(outline_file) if outline_file else None
    volume = current_volume(repo)[0]
    unpicked = unpicked_candidates(repo)
    say(f"已入册 vol({volume:02d})：{volume_commit(repo, _read_input(summary_file), outline)}")
    for line in (unpicked, next_outline_missing(repo, volume)):
        if line:
            say(line)


@story.command("health")
@book_option
def health_cmd(book: str | None) -> None:
    """体检：文体漂移、承诺坏账、时间线孤儿。

    报告进工作区，不入册。"""
    from lw_storyrepo.health import health_report

    click.echo(health_report(_repo(book)))


@story.command("whatif")
@click.argument("action", type=click.Choice(["start", "merge", "drop", "list"]))
@click.argument("name", required=False)
@click.option("--base", default="main", help="推演从哪个分支开始、merge 回哪个分支（默认 main）")
@book_option
def whatif_cmd(action: str, name: str | None, base: str, book: str | None) -> None:
    """分支未来：推演另一条线。

    start 开 git 分支 what-if/名字，推演后 merge 或 drop；list 列出。"""
    from lw_storyrepo.whatif import whatif

    say(whatif(_repo(book), action, name, base))


QUERY_KEYS = {"id": "编号=", "title": "短题=", "type": "类型=", "strength": "强度=", "state": "状态=", "opened": "开启章=",
              "deadline": "兑付期限=", "deadline_chapter": "期限章=", "last": "最近章=", "overdue": "逾期=", "idle": "搁置章数=",
              "secret": "信息差=", "name": "角色=", "knows": "知情=", "chapter": "章号=", "num": "章号=", "volume": "卷=",
              "pov": "视角=", "words": "字数="}
"""How ``query`` names a row's fields on screen (``tr`` gives back the English keys ``--json`` uses)."""


@story.command("query")
@click.argument("kind", type=click.Choice(["due", "debt", "knows", "present", "chapters", "promises"]))
@click.argument("arg", required=False)
@book_option
@json_option
def query_cmd(kind: str, arg: str | None, book: str | None, as_json: bool) -> None:
    """查询（派生缓存）。

    due 到期承诺，debt 节奏债，knows 谁知道什么（给信息差编号或角色名），present 谁在场（给章号或角色名），chapters 章节，promises 承诺。"""
    from lw_storyrepo import cache

    rows = cache.query(_repo(book), kind, arg)
    if as_json:
        _emit(rows, True)
        return
    for row in rows:  # no Python None on screen
        click.echo("  ".join(tr(QUERY_KEYS.get(k, f"{k}=")) + ("—" if v is None else str(v)) for k, v in row.items()))
    if not rows:
        say("（无）")


@story.command("rebuild")
@book_option
def rebuild_cmd(book: str | None) -> None:
    """从源文件全量重建 .cache/index.db。"""
    from lw_storyrepo import cache

    click.echo(str(cache.rebuild(_repo(book))))


@story.command("prompt")
@click.argument("step", type=click.Choice(["repair", "proposal", "render", "lens", "summary", "volume"]))
@click.option("--lens", default=None, help="镜头评审的镜头：读者/编辑/事实")
@book_option
def prompt_cmd(step: str, lens: str | None, book: str | None) -> None:
    """打印某个模型步骤的提示词。"""
    from lw_storyrepo import prompts

    click.echo(prompts.build(_repo(book, readable=step != "repair"), step, lens))


@story.command("migrate")
@click.argument("source")
@click.argument("target")
@click.option("--书名", "--title", "title", default=None, help="书名（默认：从 v6 项目读出）")
def migrate_cmd(source: str, target: str, title: str | None) -> None:
    """把 v6 项目一次性迁移为 v7 的书。

    来源是 v6 项目，目标是新书的目录；全有或全无，v6 目录只把 .story-system 设为只读。"""
    from lw_storyrepo.migrate import migrate

    say(migrate(source, target, title=title))


# --- structured edits (each is also a model tool: lw_storyrepo.toolspecs) --------------------------


@story.group("promise")
def promise_grp() -> None:
    """承诺：弃置 / 新开 / 起草 / 改字段 / 改文字。"""


@promise_grp.command("abandon")
@click.argument("pid", callback=_item_id)
@click.option("--原因", "--reason", "reason", required=True, help="弃置的原因")
@book_option
def promise_abandon(pid: str, reason: str, book: str | None) -> None:
    """弃置一条承诺（立即入册）。

    必须写原因；commit 为 fix(承诺)。"""
    from lw_storyrepo import edits

    _emit(edits.abandon_promise(_repo(book), pid, reason)["message"], False)


def _promise_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    for option in reversed((
        click.option("--类型", "--type", "type_", required=True, help="类型：伏笔/悬念/冲突/关系线/立旗/爽点铺垫"),
        click.option("--强度", "--strength", "strength", required=True, help="强度：高/中/低"),
        click.option("--兑付计划", "--plan", "plan", required=True, help="兑付计划（开新承诺必须有）"),
        click.option("--兑付期限", "--deadline", "deadline", default=None, help="兑付期限：第7卷 或 第200章（强度为高时必填）"),
        click.option("--描述", "--description", "description", default="", help="描述"),
    )):
        fn = option(fn)
    return fn


@promise_grp.command("new", context_settings=TEXT_ARGS)
@click.argument("title")
@_promise_options
@book_option
def promise_new(title: str, type_: str, strength: str, plan: str, deadline: str | None, description: str,
                book: str | None) -> None:
    """登记一条新承诺（立即入册）。

    commit 为 fix(承诺)。"""
    from lw_storyrepo import edits

    _emit(edits.create_promise(_repo(book), title, type_, strength, plan, description, deadline)["message"], False)


@promise_grp.command("draft", context_settings=TEXT_ARGS)
@click.argument("title")
@_promise_options
@book_option
def promise_draft(title: str, type_: str, strength: str, plan: str, deadline: str | None, description: str,
                  book: str | None) -> None:
    """为本章要开的承诺起草。

    写进 工作区/新承诺/，结转时入册。"""
    from lw_storyrepo.drafts import draft_promise

    pid = draft_promise(_repo(book), title, type_, strength, plan, description, deadline)
    say(f"{pid}（在草稿 front matter 的「开启承诺」里写 {pid}）")


@promise_grp.command("set", context_settings=TEXT_ARGS)
@click.argument("pid", callback=_item_id)
@click.argument("field")
@click.argument("value")
@book_option
def promise_set(pid: str, field: str, value: str, book: str | None) -> None:
    """改承诺的一个字段（立即入册）。

    字段：类型、强度、兑付期限、最后推进章；状态走弃置或章事务。"""
    from lw_storyrepo import edits

    _emit(edits.set_promise(_repo(book), pid, field, value)["message"], False)


@promise_grp.command("text", context_settings=TEXT_ARGS)
@click.argument("pid", callback=_item_id)
@click.argument("part", type=click.Choice(["描述", "兑付计划"]))
@click.argument("text")
@book_option
def promise_text(pid: str, part: str, text: str, book: str | None) -> None:
    """改承诺的描述或兑付计划（立即入册）。

    段：描述 或 兑付计划；履历只增不改。"""
    from lw_storyrepo import edits

    _emit(edits.set_promise_text(_repo(book), pid, part, text)["message"], False)


@story.group("character")
def character_grp() -> None:
    """角色：移动 / 改字段。"""


@character_grp.command("move", context_settings=TEXT_ARGS)
@click.argument("name")
@click.argument("location")
@book_option
def character_move(name: str, location: str, book: str | None) -> None:
    """把角色移到新的位置（立即入册）。

    改的是角色卡的「位置」。"""
    from lw_storyrepo import edits

    _emit(edits.move_character(_repo(book), name, location)["message"], False)


@character_grp.command("set", context_settings=TEXT_ARGS)
@click.argument("name")
@click.argument("field")
@click.argument("value")
@click.option("--op", type=click.Choice(["=", "+", "-"]), default="=", help="= 设值，+ 加入列表，- 移出列表")
@book_option
def character_set(name: str, field: str, value: str, op: str, book: str | None) -> None:
    """改角色卡的一个字段（立即入册）。

    字段：位置、状态、境界、持有、别名，或作者自己的字段。"""
    from lw_storyrepo import edits

    _emit(edits.set_character(_repo(book), name, field, value, op)["message"], False)


@story.group("secret")
def secret_grp() -> None:
    """信息差：登记 / 起草 / 告知某角色 / 改字段。"""


def _secret_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    for option in reversed((
        click.option("--关键词", "--keyword", "keywords", multiple=True, required=True,
                     help="泄密扫描用的关键词（可重复，至少一个）"),
        click.option("--知情人", "--knower", "knowers", multiple=True, help="知道它的角色（可重复）"),
        click.option("--内容", "--content", "content", required=True, help="信息差的内容"),
        click.option("--读者已知", "--reader-knows", "reader_knows", is_flag=True, help="读者已经知道"),
    )):
        fn = option(fn)
    return fn


@secret_grp.command("new", context_settings=TEXT_ARGS)
@click.argument("title")
@_secret_options
@book_option
def secret_new(title: str, keywords: tuple[str, ...], knowers: tuple[str, ...], content: str, reader_knows: bool,
               book: str | None) -> None:
    """登记一条信息差（立即入册）。

    commit 为 fix(设定)。"""
    from lw_storyrepo import edits

    _emit(edits.register_secret(_repo(book), title, list(knowers), list(keywords), content, reader_knows)["message"], False)


@secret_grp.command("draft", context_settings=TEXT_ARGS)
@click.argument("title")
@_secret_options
@book_option
def secret_draft(title: str, keywords: tuple[str, ...], knowers: tuple[str, ...], content: str, reader_knows: bool,
                 book: str | None) -> None:
    """为本章要登记的信息差起草。

    写进 工作区/新信息差/，结转时入册。"""
    from lw_storyrepo.drafts import draft_secret

    sid = draft_secret(_repo(book), title, list(knowers), list(keywords), content, reader_knows)
    say(f"{sid}（角色得知用「设定变更: {sid}.知情人+名字」）")


@secret_grp.command("tell")
@click.argument("sid", callback=_item_id)
@click.argument("name")
@book_option
def secret_tell(sid: str, name: str, book: str | None) -> None:
    """让一个角色得知信息差（立即入册）。

    加进信息差的知情人。"""
    from lw_storyrepo import edits

    _emit(edits.add_knower(_repo(book), sid, name)["message"], False)


@secret_grp.command("set", context_settings=TEXT_ARGS)
@click.argument("sid", callback=_item_id)
@click.argument("field", type=click.Choice(["读者已知", "知情人", "关键词"]))
@click.argument("value")
@click.option("--op", type=click.Choice(["=", "+", "-"]), default="=", help="= 设值，+ 加入列表，- 移出列表")
@book_option
def secret_set(sid: str, field: str, value: str, op: str, book: str | None) -> None:
    """改信息差的一个字段（立即入册）。

    读者已知 是/否；知情人、关键词用 --op + / --op - 增删。"""
    from lw_storyrepo import edits

    _emit(edits.set_secret(_repo(book), sid, field, value, op)["message"], False)


@story.group("entity")
def entity_grp() -> None:
    """名册：登记 / 别名 / 非专名。"""


@entity_grp.command("add")
@click.argument("name")
@click.option("--类型", "--kind", "kind", default="其他", help="类型：人物/地点/组织/物品/功法/其他（默认 其他）")
@click.option("--别名", "--alias", "aliases", multiple=True, help="别名（可重复）")
@click.option("--首现章", "--first", "first", type=int, default=None, help="首次出现的章号（默认：最后一章）")
@book_option
def entity_add(name: str, kind: str, aliases: tuple[str, ...], first: int | None, book: str | None) -> None:
    """在名册登记一个专名（立即入册）。"""
    from lw_storyrepo import edits

    _emit(edits.register_entity(_repo(book), name, kind, list(aliases), first)["message"], False)


@entity_grp.command("alias")
@click.argument("name")
@click.argument("alias")
@click.option("--op", type=click.Choice(["+", "-"]), default="+", help="+ 加别名，- 去掉别名")
@book_option
def entity_alias(name: str, alias: str, op: str, book: str | None) -> None:
    """给名册条目或角色加（+）减（-）别名。"""
    from lw_storyrepo import edits

    _emit(edits.set_alias(_repo(book), name, alias, op)["message"], False)


@entity_grp.command("ignore")
@click.argument("words", nargs=-1, required=True)
@book_option
def entity_ignore(words: tuple[str, ...], book: str | None) -> None:
    """这些词不是专名：机检不再提示。

    记在名册的「非专名」段。"""
    from lw_storyrepo import edits

    _emit(edits.ignore_names(_repo(book), list(words))["message"], False)


@story.group("timeline")
def timeline_grp() -> None:
    """时间线。"""


@timeline_grp.command("set", context_settings=TEXT_ARGS)
@click.argument("chapter", type=int)
@click.argument("field", type=click.Choice(["一句话事件", "在场"]))
@click.argument("value")
@book_option
def timeline_set(chapter: int, field: str, value: str, book: str | None) -> None:
    """改时间线里某章的一行（立即入册）。

    字段：一句话事件 或 在场；书内时间随章节的 retcon 同步。"""
    from lw_storyrepo import edits

    _emit(edits.set_timeline(_repo(book), chapter, field, value)["message"], False)


@story.group("outline")
def outline_grp() -> None:
    """大纲：总纲与卷纲。"""


@outline_grp.command("set", context_settings=TEXT_ARGS)
@click.argument("target")
@click.argument("part")
@click.argument("text")
@book_option
def outline_set(target: str, part: str, text: str, book: str | None) -> None:
    """改总纲或卷纲的一段（立即入册）。

    目标：总纲，或卷号（第3卷）；段：段名，没有就添上。"""
    from lw_storyrepo import edits

    _emit(edits.edit_outline(_repo(book), target, part, text)["message"], False)


@story.group("style")
def style_grp() -> None:
    """风格宪法。"""


@style_grp.command("add", context_settings=TEXT_ARGS)
@click.argument("kind", type=click.Choice(["禁词", "禁句式", "口癖"]))
@click.argument("text")
@click.option("--出处", "--source", "source", default="", help="规则的出处（默认：系统的入宪提议，即三次同类否决）")
@book_option
def style_add(kind: str, text: str, source: str, book: str | None) -> None:
    """往风格宪法加一条规则（立即入册）。

    类型：禁词、禁句式或口癖。"""
    from lw_storyrepo import edits

    result = edits.add_style_rule(_repo(book), kind, text, source)
    _emit(f"{result['message']}（出处：{result['source']}）", False)


@story.group("card")
def card_grp() -> None:
    """决策卡。"""


@card_grp.command("edit")
@click.option("--提案", "--proposal", "proposal", default=None, help="提案段的文字")
@click.option("--合同", "--contract", "contract", multiple=True, help="一条合同断言（可重复）")
@click.option("--备选", "--alternatives", "alternatives", default=None, help="备选段的文字")
@click.option("--备选合同", "--alternative-contract", "alternative_contract", multiple=True,
              help="备选方案的一条合同断言（可重复）")
@book_option
def card_edit(proposal: str | None, contract: tuple[str, ...], alternatives: str | None,
              alternative_contract: tuple[str, ...], book: str | None) -> None:
    """填写决策卡（作者拍板前）。

    提案、合同、备选、备选合同，各用一个选项。"""
    from lw_storyrepo.card import edit_card

    result = edit_card(_repo(book), proposal, list(contract) or None, alternatives, list(alternative_contract) or None,
                       by_model=False)
    _emit(result["file"], False)
