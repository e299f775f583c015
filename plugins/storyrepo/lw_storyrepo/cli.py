"""``lw story …``: one entry point (``lw story`` = next step) and the explicit subcommands.

Only click is imported at module level; everything else is imported inside the commands.
"""

from __future__ import annotations

import functools
import json
import sys
from typing import Any, Callable

import click


def _repo(path: str | None) -> Any:
    from lw_storyrepo.repo import StoryRepo

    return StoryRepo.find(path)


def _emit(data: Any, as_json: bool) -> None:
    """Print ``data``: a string as is (unless ``as_json``), anything else as indented JSON."""
    if isinstance(data, str) and not as_json:
        click.echo(data)
    else:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))


def cards_guard(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A broken source file prints its repair card (never a traceback) and exits 1."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from lw_storyrepo.dialect import RepairNeeded

        try:
            return fn(*args, **kwargs)
        except RepairNeeded as exc:
            click.echo(exc.card.render(), err=True)
            sys.exit(1)

    return wrapper


book_option = click.option("--book", "-C", "book", default=None, help="书的目录（默认：当前目录向上找 book.yaml）")
json_option = click.option("--json", "as_json", is_flag=True, help="输出 JSON")


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
        from lwcore.errors import LwError

        raise LwError("Python 没有以 UTF-8 模式运行，无法处理中文路径", expected="PYTHONUTF8=1 或 UTF-8 的 locale")
    env = dict(os.environ, PYTHONUTF8="1", LW_STORY_REEXEC="1")
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable, *sys.orig_argv[1:]], env)


@click.group("story", invoke_without_command=True)
@book_option
@json_option
@click.pass_context
def story(ctx: click.Context, book: str | None, as_json: bool) -> None:
    """Story Repo v7：一本书即一个 git 仓库。不带子命令 = 盘面状态机的下一步。"""
    ensure_utf8_mode()
    if ctx.invoked_subcommand is None:
        ctx.invoke(next_cmd, book=book, as_json=as_json)


@story.command("init")
@click.argument("directory")
@click.option("--书名", "--title", "title", required=True)
@click.option("--类型", "--genre", "genre", default="")
@click.option("--每章目标字数", "--words", "words", type=int, default=3000)
@click.option("--卷规模", "--volume-size", "volume_size", type=int, default=40)
def init_cmd(directory: str, title: str, genre: str, words: int, volume_size: int) -> None:
    """建库：全中文目录树、book.yaml、.gitignore、git init 与首个 commit。"""
    from pathlib import Path

    from lw_storyrepo.repo import init_book

    repo = init_book(Path(directory), title, genre, target_words=words, volume_size=volume_size)
    click.echo(f"已建库：{repo.root}")


def _render_next(step: Any) -> str:
    lines = []
    if step.recovered:
        lines.append(f"（上次中断的结转已{'回滚' if step.recovered == 'rolled-back' else '收尾'}）")
    for f in step.fixed:
        lines.append(f"已自动修复：{f}")
    lines.append(f"[{step.state}] {step.message}")
    for card in step.cards:
        lines.append(card.render())
    for f in step.files:
        lines.append(f"  {f}")
    if step.detail.get("hint"):
        lines.append("  " + step.detail["hint"])
    if step.state == 1:
        lines.append("  结转：lw story fix（或 -m 写说明）；改的是已接受的事实就走 lw story retcon 章号 --原因 …")
    if step.state == 0:
        lines.append("  采纳建议：lw story repair --apply；或让模型提议修复：lw story prompt repair")
    return "\n".join(lines)


@story.command("next")
@book_option
@json_option
@cards_guard
def next_cmd(book: str | None, as_json: bool) -> None:
    """判定下一步（修复 → 手改结转 → 继续事务 → 卷复盘 → 体检 → 新章 brief）并执行脚本步骤。"""
    from lw_storyrepo.flow import advance

    step = advance(_repo(book))
    _emit(step.to_json() if as_json else _render_next(step), False)


@story.command("repair")
@book_option
@click.option("--apply", "apply", is_flag=True, help="采纳每张卡的建议修复")
@click.option("--accept", "accept_file", default=None, help="采纳模型对该文件的修复提议")
@cards_guard
def repair_cmd(book: str | None, apply: bool, accept_file: str | None) -> None:
    """列出修复卡（全角冒号/逗号已自动修复，只报不问）。"""
    from lw_storyrepo.flow import accept_repair, apply_card, scan

    repo = _repo(book)
    if accept_file:
        accept_repair(repo, accept_file)
        click.echo(f"已采纳修复提议：{accept_file}")
    cards, fixed = scan(repo)
    for f in fixed:
        click.echo(f"已自动修复：{f}")
    for card in cards:
        click.echo(card.render())
        if apply and apply_card(repo, card):
            click.echo("  → 已按建议修复")
    if not cards and not fixed:
        click.echo("所有源文件都能读。")


@story.command("brief")
@book_option
def brief_cmd(book: str | None) -> None:
    """生成 工作区/决策卡.md。"""
    from lw_storyrepo import txn

    click.echo(str(txn.brief(_repo(book))))


@story.command("decide")
@book_option
def decide_cmd(book: str | None) -> None:
    """作者拍板：决策卡合同段固化。"""
    from lw_storyrepo import txn

    state = txn.decide(_repo(book))
    click.echo("合同已固化：\n" + "\n".join(f"- {c}" for c in state["合同"]))


@story.command("pack")
@book_option
def pack_cmd(book: str | None) -> None:
    """组装 工作区/上下文包.md。"""
    from lw_storyrepo import txn

    click.echo(str(txn.pack(_repo(book))))


@story.command("draft")
@click.argument("label")
@click.argument("file", type=click.File("rb"))
@book_option
@cards_guard
def draft_cmd(label: str, file: Any, book: str | None) -> None:
    """提交草稿（front matter + 正文）为 工作区/草稿-LABEL.md。"""
    from lw_storyrepo import txn

    click.echo(str(txn.submit_draft(_repo(book), label, file.read().decode("utf-8"))))


@story.command("check")
@book_option
@json_option
def check_cmd(book: str | None, as_json: bool) -> None:
    """机检每一份草稿。"""
    from lw_storyrepo import txn
    from lw_storyrepo.checks import render_findings

    results = txn.run_checks(_repo(book))
    if as_json:
        _emit({k: [f.to_json() for f in v] for k, v in results.items()}, True)
    else:
        for label, findings in results.items():
            click.echo(render_findings(label, findings))


@story.command("review")
@click.argument("lens")
@click.argument("file", type=click.File("rb"))
@book_option
def review_cmd(lens: str, file: Any, book: str | None) -> None:
    """提交一个镜头评审（读者/编辑/事实）。"""
    from lw_storyrepo import txn

    click.echo(str(txn.submit_review(_repo(book), lens, file.read().decode("utf-8"))))


@story.command("summary")
@click.argument("text")
@book_option
def summary_cmd(text: str, book: str | None) -> None:
    """提交章摘要（≤200 字）。"""
    from lw_storyrepo import txn

    click.echo(str(txn.submit_summary(_repo(book), text)))


@story.command("accept")
@click.option("--draft", "label", default=None)
@book_option
@cards_guard
def accept_cmd(label: str | None, book: str | None) -> None:
    """作者验收（可先改草稿再接受）：立即原子结转。"""
    from lw_storyrepo import txn

    click.echo(f"已结转：{txn.accept(_repo(book), label)}")


@story.command("reject")
@click.argument("reason")
@book_option
def reject_cmd(reason: str, book: str | None) -> None:
    """打回：回到渲染，理由留给下一稿。"""
    from lw_storyrepo import txn

    txn.reject(_repo(book), reason)
    click.echo("已打回。")


@story.command("settle")
@book_option
@cards_guard
def settle_cmd(book: str | None) -> None:
    """（已验收时）原子结转。"""
    from lw_storyrepo import txn

    click.echo(txn.settle(_repo(book)))


@story.command("abort")
@book_option
def abort_cmd(book: str | None) -> None:
    """放弃进行中的章事务（清空工作区）。"""
    from lw_storyrepo import txn

    txn.abort(_repo(book))
    click.echo("已清空工作区。")


@story.command("fix")
@click.option("-m", "--message", default=None)
@book_option
def fix_cmd(message: str | None, book: str | None) -> None:
    """把定稿/大纲/文风的手改结转为 fix(…) commit。"""
    from lw_storyrepo.flow import commit_fix

    click.echo(commit_fix(_repo(book), message))


@story.command("retcon")
@click.argument("chapter", type=int)
@click.option("--原因", "--reason", "reason", required=True)
@book_option
def retcon_cmd(chapter: int, reason: str, book: str | None) -> None:
    """显式 retcon 事务：改定稿，原因写进 commit。"""
    from lw_storyrepo.flow import retcon

    click.echo(retcon(_repo(book), chapter, reason))


@story.command("vol")
@click.option("--summary", "summary_file", type=click.File("rb"), default=None)
@click.option("--outline", "outline_file", type=click.File("rb"), default=None)
@book_option
def vol_cmd(summary_file: Any, outline_file: Any, book: str | None) -> None:
    """卷复盘：无参数时生成审计；给 --summary 时入册 vol(NN)。"""
    from lw_storyrepo import flow

    repo = _repo(book)
    if summary_file is None:
        click.echo(str(flow.volume_review(repo)))
        return
    outline = outline_file.read().decode("utf-8") if outline_file else None
    click.echo(flow.volume_commit(repo, summary_file.read().decode("utf-8"), outline))


@story.command("health")
@book_option
def health_cmd(book: str | None) -> None:
    """体检：文体漂移、承诺坏账、时间线孤儿（报告进工作区，不入册）。"""
    from lw_storyrepo import flow

    click.echo(str(flow.health_report(_repo(book))))


@story.command("whatif")
@click.argument("action", type=click.Choice(["start", "merge", "drop", "list"]))
@click.argument("name", required=False)
@click.option("--base", default="main")
@book_option
def whatif_cmd(action: str, name: str | None, base: str, book: str | None) -> None:
    """分支未来：git branch what-if/NAME，推演后 merge 或 drop。"""
    from lw_storyrepo import flow

    click.echo(flow.whatif(_repo(book), action, name, base))


@story.command("query")
@click.argument("kind", type=click.Choice(["due", "debt", "knows", "present", "chapters", "promises"]))
@click.argument("arg", required=False)
@book_option
@json_option
def query_cmd(kind: str, arg: str | None, book: str | None, as_json: bool) -> None:
    """查询（派生缓存）：到期承诺、节奏债、谁知道什么、谁在场。"""
    from lw_storyrepo import cache

    rows = cache.query(_repo(book), kind, arg)
    if as_json:
        _emit(rows, True)
    else:
        for row in rows:
            click.echo("  ".join(f"{k}={v}" for k, v in row.items()))
        if not rows:
            click.echo("（无）")


@story.command("rebuild")
@book_option
def rebuild_cmd(book: str | None) -> None:
    """从源文件全量重建 .cache/index.db。"""
    from lw_storyrepo import cache

    click.echo(str(cache.rebuild(_repo(book))))


@story.command("prompt")
@click.argument("step", type=click.Choice(["repair", "proposal", "render", "lens", "summary", "volume"]))
@click.option("--lens", default=None)
@book_option
def prompt_cmd(step: str, lens: str | None, book: str | None) -> None:
    """打印某个模型步骤的提示词。"""
    from lw_storyrepo import prompts

    click.echo(prompts.build(_repo(book), step, lens))


@story.command("migrate")
@click.argument("source")
@click.argument("target")
@click.option("--书名", "--title", "title", default=None)
def migrate_cmd(source: str, target: str, title: str | None) -> None:
    """一次性迁移 v6 → v7。"""
    from pathlib import Path

    from lw_storyrepo.migrate import migrate

    report = migrate(Path(source), Path(target), title=title)
    click.echo(report)


# --- structured edits (each is also a model tool) ------------------------------------------------


@story.group("promise")
def promise_grp() -> None:
    """承诺：弃置 / 新开 / 改字段。"""


@promise_grp.command("abandon")
@click.argument("pid")
@click.option("--原因", "--reason", "reason", required=True)
@book_option
def promise_abandon(pid: str, reason: str, book: str | None) -> None:
    from lw_storyrepo import edits

    _emit(edits.abandon_promise(_repo(book), pid, reason)["message"], False)


@promise_grp.command("new")
@click.argument("title")
@click.option("--类型", "--type", "type_", required=True)
@click.option("--强度", "--strength", "strength", required=True)
@click.option("--兑付计划", "--plan", "plan", required=True)
@click.option("--兑付期限", "--deadline", "deadline", default=None)
@click.option("--描述", "--description", "description", default="")
@book_option
def promise_new(title: str, type_: str, strength: str, plan: str, deadline: str | None, description: str,
                book: str | None) -> None:
    from lw_storyrepo import edits

    _emit(edits.create_promise(_repo(book), title, type_, strength, plan, description, deadline)["message"], False)


@promise_grp.command("set")
@click.argument("pid")
@click.argument("field")
@click.argument("value")
@book_option
def promise_set(pid: str, field: str, value: str, book: str | None) -> None:
    from lw_storyrepo import edits

    _emit(edits.set_promise(_repo(book), pid, field, value)["message"], False)


@story.group("character")
def character_grp() -> None:
    """角色：移动 / 改字段。"""


@character_grp.command("move")
@click.argument("name")
@click.argument("location")
@book_option
def character_move(name: str, location: str, book: str | None) -> None:
    from lw_storyrepo import edits

    _emit(edits.move_character(_repo(book), name, location)["message"], False)


@character_grp.command("set")
@click.argument("name")
@click.argument("field")
@click.argument("value")
@click.option("--op", type=click.Choice(["=", "+", "-"]), default="=")
@book_option
def character_set(name: str, field: str, value: str, op: str, book: str | None) -> None:
    from lw_storyrepo import edits

    _emit(edits.set_character(_repo(book), name, field, value, op)["message"], False)


@story.group("secret")
def secret_grp() -> None:
    """信息差：登记 / 告知某角色。"""


@secret_grp.command("new")
@click.argument("title")
@click.option("--关键词", "--keyword", "keywords", multiple=True, required=True)
@click.option("--知情人", "--knower", "knowers", multiple=True)
@click.option("--内容", "--content", "content", required=True)
@click.option("--读者已知", "--reader-knows", "reader_knows", is_flag=True)
@book_option
def secret_new(title: str, keywords: tuple[str, ...], knowers: tuple[str, ...], content: str, reader_knows: bool,
               book: str | None) -> None:
    from lw_storyrepo import edits

    _emit(edits.register_secret(_repo(book), title, list(knowers), list(keywords), content, reader_knows)["message"], False)


@secret_grp.command("tell")
@click.argument("sid")
@click.argument("name")
@book_option
def secret_tell(sid: str, name: str, book: str | None) -> None:
    from lw_storyrepo import edits

    _emit(edits.add_knower(_repo(book), sid, name)["message"], False)


@story.group("entity")
def entity_grp() -> None:
    """名册。"""


@entity_grp.command("add")
@click.argument("name")
@click.option("--类型", "--kind", "kind", default="其他")
@click.option("--别名", "--alias", "aliases", multiple=True)
@click.option("--首现章", "--first", "first", type=int, default=None)
@book_option
def entity_add(name: str, kind: str, aliases: tuple[str, ...], first: int | None, book: str | None) -> None:
    from lw_storyrepo import edits

    _emit(edits.register_entity(_repo(book), name, kind, list(aliases), first)["message"], False)


@story.group("style")
def style_grp() -> None:
    """风格宪法。"""


@style_grp.command("add")
@click.argument("kind", type=click.Choice(["禁词", "禁句式", "口癖"]))
@click.argument("text")
@click.option("--出处", "--source", "source", default="")
@book_option
def style_add(kind: str, text: str, source: str, book: str | None) -> None:
    from lw_storyrepo import edits

    _emit(edits.add_style_rule(_repo(book), kind, text, source)["message"], False)


@story.group("card")
def card_grp() -> None:
    """决策卡。"""


@card_grp.command("edit")
@click.option("--提案", "--proposal", "proposal", default=None)
@click.option("--合同", "--contract", "contract", multiple=True)
@click.option("--备选", "--alternatives", "alternatives", default=None)
@book_option
def card_edit(proposal: str | None, contract: tuple[str, ...], alternatives: str | None, book: str | None) -> None:
    from lw_storyrepo import edits

    result = edits.edit_decision_card(_repo(book), proposal, list(contract) or None, alternatives, by_model=False)
    _emit(result["file"], False)
