"""The guardrails of issue 30, each tested through ``lw story`` (the click group in-process, or
the ``lw`` executable in a subprocess where a process has to die).

- no ``accept`` before the three lens reviews and the acceptance card (写评分离; each review from a
  fresh context: ``test_separation.py``);
- the board says a draft failed the checks only when it did;
- every automatic fix is reported;
- every command recovers an interrupted settle before it reads the book;
- a retcon updates the chapter summary too;
- the volume audit flags late payoffs;
- a tracked workspace keeps the draft history (settle, the volume review, abort: a kill between its
  archive and its clearing leaves a whole book);
- ``outline set`` takes values starting with ``- ``;
- ``.cache/index.db`` is the only derivative;
- 卡点强度 is the strength of the unpaid promises at the chapter's end (spec §5);
- the 50-chapter health check triggers by itself.
"""

from __future__ import annotations

import re

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from lw_storyrepo import layout as L
from lw_storyrepo.board import hook_strength
from lw_storyrepo.fixtures import make_book, tree_snapshot
from lw_storyrepo.repo import Item, StoryRepo
from lw_storyrepo.samples import DRAFT, to_reviewed

from story_cli import hand_in, lw

LW = str(Path(sys.executable).with_name("lw"))


def lw_process(book: StoryRepo, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k not in ("LW_STORY_FAULT", "LC_ALL", "LC_MESSAGES")}
    full.update({"LANG": "zh_CN.UTF-8", "LW_STORY_DATE": "2026-01-01T00:00:00+0000", **(env or {})})
    proc = subprocess.run([LW, "story", *args], cwd=book.root, capture_output=True, env=full, timeout=120)
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode("utf-8", "replace"),
                                       proc.stderr.decode("utf-8", "replace"))


def to_checked(book: StoryRepo, draft: str = DRAFT) -> None:
    """brief → decide → pack → draft → checks (stage 三镜头评审), through lw story."""
    lw(book)  # brief
    lw(book, "card", "edit", "--合同", "P-001 推进：林晚得到血书", "--合同", "P-003 开启：神秘老者来历")
    lw(book, "decide")
    lw(book)  # pack
    book.p(L.新承诺).mkdir(parents=True, exist_ok=True)
    (book.p(L.新承诺) / "P-003-神秘老者来历.md").write_text(
        "---\n类型: 悬念\n强度: 中\n---\n## 描述\n老者是谁\n\n## 兑付计划\n第三卷揭晓\n", encoding="utf-8")
    hand_in(book, draft)
    out = lw(book)  # checks
    assert "已机检（过：A；打回：无）" in out, out


def review(book: StoryRepo, lenses: tuple[str, ...] = ("读者", "编辑", "事实")) -> None:
    for lens in lenses:
        path = book.root.parent / f"{lens}.md"
        path.write_text(f"{lens}：可以。\n", encoding="utf-8")
        lw(book, "review", lens, str(path))


# --- 写评分离 ----------------------------------------------------------------------------------------


def test_no_accept_before_the_lens_reviews_and_the_acceptance_card(book: StoryRepo) -> None:
    to_checked(book)
    head = book.git.head()
    out = lw(book, "accept", ok=False)
    assert "还没有三镜头评审，不能验收：缺读者镜头、编辑镜头、事实镜头" in out
    assert "三镜头评审" in lw(book, "settle", ok=False)  # settle is no back door either
    review(book, ("读者", "编辑"))
    assert "缺事实镜头" in lw(book, "accept", ok=False)
    assert book.git.head() == head and not book.p(L.验收卡).exists()
    review(book, ("事实",))
    assert book.p(L.验收卡).is_file()
    lw(book, "summary", "林晚抵达北境雪原，得到灭门血书。")
    assert "已结转" in lw(book, "accept")
    assert book.git.head() != head


def test_an_emptied_lens_review_blocks_the_accept(book: StoryRepo) -> None:
    to_reviewed(book)
    book.p(L.lens_file("编辑")).write_text("\n", encoding="utf-8")
    head = book.git.head()
    assert "还没有三镜头评审，不能验收：缺编辑镜头" in lw(book, "accept", ok=False)
    assert book.git.head() == head


def test_a_deleted_acceptance_card_blocks_the_accept(book: StoryRepo) -> None:
    to_reviewed(book)
    book.p(L.验收卡).unlink()
    assert "还没有验收卡，不能验收" in lw(book, "accept", ok=False)


# --- the board ------------------------------------------------------------------------------------------


def test_the_board_says_a_draft_failed_only_when_it_did(book: StoryRepo) -> None:
    to_checked(book)
    assert "没过机检" not in lw(book)
    # a second draft that fails (a banned word), the first one still passing
    lw(book, "style", "add", "禁词", "寒意刺骨", "--出处", "作者")
    path = book.root.parent / "B.md"
    path.write_text(DRAFT.replace("风雪扑面。", "风雪扑面，寒意刺骨。"), encoding="utf-8")
    lw(book, "draft", "B", str(path))
    out = lw(book)
    assert "草稿 B 没过机检，读：工作区/评审报告/机检-B.md" in out and "草稿 A 没过机检" not in out, out


# --- automatic fixes --------------------------------------------------------------------------------------


def test_a_full_width_colon_in_a_draft_is_fixed_and_said(book: StoryRepo) -> None:
    to_checked(book)
    path = book.root.parent / "B.md"
    path.write_text(DRAFT.replace("标题: 北境的雪", "标题：北境的雪"), encoding="utf-8")
    out = lw(book, "draft", "B", str(path))
    assert "已自动处理：工作区/草稿-B.md 第 2 行：键后的全角冒号「：」已改为半角「: 」" in out
    assert "标题: 北境的雪\n" in book.p(L.draft_file("B")).read_text(encoding="utf-8")


def test_an_alias_written_as_its_canonical_name_is_said(book: StoryRepo) -> None:
    to_reviewed(book)
    lw(book, "accept")
    out = lw(book, "timeline", "set", "1", "在场", "晚晚、神秘老者")
    assert "已自动处理：「晚晚」是「林晚」的别名：记为正名「林晚」" in out
    assert "| 1 | 大历1023年冬月初三 | 林晚于北境得血书 | 林晚, 神秘老者 |" in book.p(L.时间线).read_text(encoding="utf-8")


def test_a_setting_change_through_an_alias_is_said(book: StoryRepo) -> None:
    out = lw(book, "character", "set", "晚晚", "位置", "北境雪原")
    assert "已自动处理：「晚晚」是「林晚」的别名：记为正名「林晚」" in out, out
    assert book.characters()["林晚"]["位置"] == "北境雪原" and not book.p(f"{L.角色}/晚晚.md").exists()


def test_text_corrected_in_the_acceptance_card_is_said_when_taken(book: StoryRepo) -> None:
    to_reviewed(book)
    card = book.p(L.验收卡)
    card.write_text(card.read_text(encoding="utf-8").replace("风雪扑面。", "风雪扑面，寒意刺骨。"), encoding="utf-8")
    out = lw(book, "accept")
    assert "已自动处理：验收卡里改过的正文已写回 工作区/草稿-A.md" in out
    assert "寒意刺骨" in book.chapter(1)[1]


def test_new_names_left_unmarked_at_accept_are_said(book: StoryRepo) -> None:
    """[ ] on the acceptance card means a slip to fix; accepted anyway, those names stay out of the
    roster, and the author is told which (a name marked [x] or [-] is not)."""
    to_reviewed(book, DRAFT.replace("风雪扑面。", "风雪扑面，玄冥教的人追了上来。"))
    card = book.p(L.验收卡)
    card.write_text(card.read_text(encoding="utf-8").replace("- [ ] 萧无涯", "- [-] 萧无涯"), encoding="utf-8")
    out = lw(book, "accept")
    assert "已自动处理：验收卡上没勾的新专名没有登记进名册（[ ] 算笔误）：玄冥教；" in out, out
    assert "萧无涯" not in out.split("没勾的新专名")[1]


def test_a_title_that_cannot_be_a_file_name_is_said(book: StoryRepo) -> None:
    to_reviewed(book, DRAFT.replace("标题: 北境的雪", "标题: 北境/雪"))
    out = lw(book, "accept")
    assert "已自动处理：标题「北境/雪」不能原样做文件名：文件名写作 0001-北境雪.md" in out
    assert book.chapter_path(1).name == "0001-北境雪.md"


def test_a_promise_or_info_gap_title_that_cannot_be_a_file_name_is_said(book: StoryRepo) -> None:
    out = lw(book, "promise", "new", "甲/乙", "--类型", "伏笔", "--强度", "低", "--兑付计划", "随后")
    assert "已自动处理：短题「甲/乙」不能原样做文件名：文件名写作 大纲/承诺/P-003-甲乙.md" in out, out
    out = lw(book, "secret", "new", "丙:丁", "--关键词", "丙", "--内容", "丙是丁")
    assert "已自动处理：短题「丙:丁」不能原样做文件名：文件名写作 定稿/设定/信息差/S-003-丙丁.md" in out, out
    assert "已自动处理" not in lw(book, "promise", "new", "旧账", "--类型", "伏笔", "--强度", "低", "--兑付计划", "随后")


def test_replacing_the_reviewed_draft_says_its_reviews_are_dropped(book: StoryRepo) -> None:
    to_reviewed(book)
    path = book.root.parent / "A2.md"
    path.write_text(DRAFT.replace("风雪扑面。", "风雪扑面，她没有停。"), encoding="utf-8")
    out = lw(book, "draft", "A", str(path))
    assert ("已自动处理：草稿 A 换了新稿：为旧稿写的评审、验收卡和章摘要已作废（工作区/评审报告/读者镜头.md、"
            "工作区/评审报告/编辑镜头.md、工作区/评审报告/事实镜头.md、工作区/验收卡.md、工作区/章摘要.md）") in out, out
    assert not book.p(L.验收卡).exists()
    assert "已自动处理" not in lw(book, "draft", "A", str(path))  # nothing left to drop: nothing said


# --- recovery before reading ----------------------------------------------------------------------------


@pytest.mark.parametrize("command", [["query", "chapters"], ["query", "present", "1"], ["brief"], ["health"]])
def test_every_command_recovers_an_interrupted_settle_before_it_reads(book: StoryRepo, command: list[str]) -> None:
    to_reviewed(book)
    before = {k: v for k, v in tree_snapshot(book.root).items() if not k.startswith((L.工作区 + "/", L.CACHE + "/"))}
    head = book.git.head()
    killed = lw_process(book, "accept", env={"LW_STORY_FAULT": "write:4@kill"})
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert book.p("定稿/正文/0001-北境的雪.md").exists() or book.p(L.名册).read_bytes() != before.get(L.名册)  # half-applied
    proc = lw_process(book, *command)
    assert "上次中断的结转已回滚" in proc.stdout + proc.stderr, (proc.stdout, proc.stderr)
    assert "北境的雪" not in proc.stdout  # it never read the half-applied chapter
    after = {k: v for k, v in tree_snapshot(book.root).items() if not k.startswith((L.工作区 + "/", L.CACHE + "/"))}
    assert after == before and book.git.head() == head
    assert not (book.root / ".git" / "lw-txn").exists()


def test_json_output_stays_json_when_a_recovery_is_said(book: StoryRepo) -> None:
    import json

    to_reviewed(book)
    killed = lw_process(book, "accept", env={"LW_STORY_FAULT": "write:4@kill"})
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    proc = lw_process(book, "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["recovered"] == "rolled-back"
    assert "已自动处理：上次中断的结转已回滚" in proc.stderr


def test_the_prompt_segments_recover_an_interrupted_settle_before_they_read(book: StoryRepo, tmp_path: Path) -> None:
    from lwcore.contributions import TurnContext
    from lwcore.kernel import Kernel

    to_reviewed(book)
    before = {k: v for k, v in tree_snapshot(book.root).items() if not k.startswith((L.工作区 + "/", L.CACHE + "/"))}
    killed = lw_process(book, "accept", env={"LW_STORY_FAULT": "write:4@kill"})
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert (book.root / ".git" / "lw-txn").exists()
    turn = TurnContext(extra={"story_root": str(book.root), "story_step": "render"})
    segments = [s.value for s in Kernel(data_dir=tmp_path / "data").prompt_segments(turn).segments
                if s.plugin_id == "storyrepo"]
    assert segments[0].text.startswith("（已自动处理：上次中断的结转已回滚（书恢复到结转之前））\n\n")
    assert not (book.root / ".git" / "lw-txn").exists()
    after = {k: v for k, v in tree_snapshot(book.root).items() if not k.startswith((L.工作区 + "/", L.CACHE + "/"))}
    assert after == before


# --- retcon and the summary --------------------------------------------------------------------------------


def test_a_retcon_of_the_prose_updates_the_chapter_summary(book: StoryRepo) -> None:
    to_reviewed(book)
    lw(book, "accept")
    rel = "定稿/正文/0001-北境的雪.md"
    path = book.p(rel)
    path.write_text(path.read_text(encoding="utf-8").replace("一言不发。", "开口说出了当年灭门那一夜的真相。"), encoding="utf-8")
    head = book.git.head()
    out = lw(book, "retcon", "1", "--原因", "老者开口", "-y", ok=False)
    assert "retcon 改了第 1 章的正文，章摘要也要跟着改" in out and book.git.head() == head
    lw(book, "retcon", "1", "--原因", "老者开口", "--摘要", "林晚抵达北境，神秘老者说出灭门真相。", "-y")
    summary = book.p(f"{L.章摘要}/0001.md").read_text(encoding="utf-8")
    assert summary == "# 第1章 北境的雪\n\n林晚抵达北境，神秘老者说出灭门真相。\n"
    message = book.git.out("log", "-1", "--format=%B")
    assert message.startswith("retcon(1): 老者开口") and "章摘要 0001 已更新" in message
    assert set(book.git.out("show", "--name-only", "--format=", "HEAD").split()) >= {rel, f"{L.章摘要}/0001.md"}
    # the prose changes again and the author gives the same summary: it still holds, said so, not rewritten
    path.write_text(path.read_text(encoding="utf-8").replace("真相。", "真相，声音沙哑。", 1), encoding="utf-8")
    lw(book, "retcon", "1", "--原因", "老者嗓音\n打回: 伪造", "--摘要", "林晚抵达北境，神秘老者说出灭门真相。", "-y")
    message = book.git.out("log", "-1", "--format=%B")
    assert message.startswith("retcon(1): 老者嗓音 打回: 伪造\n")  # the reason is the subject, one line
    assert "章摘要 0001 作者确认照旧" in message and "已更新" not in message, message
    assert set(book.git.out("show", "--name-only", "--format=", "HEAD").split()) == {rel}


def test_a_retcon_of_the_title_alone_renames_the_summary_heading(book: StoryRepo) -> None:
    to_reviewed(book)
    lw(book, "accept")
    path = book.p("定稿/正文/0001-北境的雪.md")
    path.write_text(path.read_text(encoding="utf-8").replace("标题: 北境的雪", "标题: 雪夜"), encoding="utf-8")
    lw(book, "retcon", "1", "--原因", "改题", "-y")
    assert book.p(f"{L.章摘要}/0001.md").read_text(encoding="utf-8").startswith("# 第1章 雪夜\n")


# --- the volume audit ---------------------------------------------------------------------------------------


def test_the_volume_audit_flags_a_late_payoff(book: StoryRepo) -> None:
    # a deadline before the first chapter, written by hand (lw story refuses one that names no chapter)
    path = next(book.p("大纲/承诺").glob("P-002-*.md"))
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"兑付期限: .*\n", "兑付期限: 第0章\n", text) if "兑付期限:" in text else text.replace("---\n", "---\n兑付期限: 第0章\n", 1)
    path.write_text(text, encoding="utf-8")
    book.git.commit_paths([str(path.relative_to(book.root))], "fix(承诺): P-002 期限\n")
    draft = DRAFT.replace("推进承诺:\n  - P-001\n", "推进承诺:\n  - P-001\n兑付承诺:\n  - P-002\n")
    to_reviewed(book, draft)
    lw(book, "accept")
    lw(book, "vol")
    audit = book.p(L.卷复盘).read_text(encoding="utf-8")
    assert "## 迟兑付（1）\n- P-002 旧约（期限第 0 章，第 1 章才兑付，迟 1 章）\n" in audit, audit


def test_a_deadline_that_names_no_chapter_is_refused(book: StoryRepo) -> None:
    """兑付期限 -1 / 0 / 下卷 would be read as some other chapter or as none: refused, nothing written."""
    head = book.git.out("rev-parse", "HEAD")
    for wrong in ("-1", "0", "下卷", "第0章"):
        refused = lw(book, "promise", "set", "P-002", "兑付期限", wrong, ok=False)
        assert "兑付期限" in refused and "看不懂" in refused, refused
    assert book.git.out("rev-parse", "HEAD") == head
    lw(book, "promise", "set", "P-002", "兑付期限", "第3卷")


# --- a tracked workspace ----------------------------------------------------------------------------------------


def track_workspace(book: StoryRepo) -> None:
    """The author opts in (spec §7): one command, one commit, git left clean."""
    assert "工作区已受 git 跟踪" in lw(book, "workspace", "track")
    assert book.p(".gitignore").read_text(encoding="utf-8") == ".cache/\n"
    assert book.git.out("status", "--porcelain", "-uall") == ""


def test_tracking_the_workspace_commits_the_gitignore_even_after_a_hand_edit(book: StoryRepo) -> None:
    book.p(".gitignore").write_text(".cache/\n", encoding="utf-8")  # deleted by hand: never committed by anything
    assert " M .gitignore" in book.git.out("status", "--porcelain")
    lw(book, "workspace", "track")
    assert book.git.out("log", "--format=%s", "-1").strip() == "fix(配置): 工作区入 git"
    assert book.git.out("status", "--porcelain", "-uall") == ""
    head = book.git.head()
    assert "本来就受 git 跟踪" in lw(book, "workspace", "track") and book.git.head() == head


@pytest.mark.parametrize("line", ["工作区/*", "/工作区/**", "**/工作区/", "/工作区"])
def test_tracking_the_workspace_takes_the_usual_spellings_of_its_ignore_line(book: StoryRepo, line: str) -> None:
    book.p(".gitignore").write_text(f".cache/\n{line}\n", encoding="utf-8")
    book.git.run("commit", "-q", "-am", "ignore spelled by hand")
    assert book.git.ignored("工作区/草稿A.md")
    lw(book, "workspace", "track")
    assert book.p(".gitignore").read_text(encoding="utf-8") == ".cache/\n"
    assert not book.git.ignored("工作区/草稿A.md")
    assert book.git.out("status", "--porcelain", "-uall") == ""


def test_tracking_a_workspace_another_rule_ignores_says_so(book: StoryRepo) -> None:
    (book.root / ".git" / "info").mkdir(exist_ok=True)
    (book.root / ".git" / "info" / "exclude").write_text("工作区/\n", encoding="utf-8")
    assert "另有一条忽略规则盖住了它" in lw(book, "workspace", "track", ok=False)
    assert "另有一条忽略规则盖住了它" in lw(book, "workspace", "track", ok=False)  # said again, not "tracked"


def reject_and_redraw(book: StoryRepo, lenses: tuple[str, ...] = ("读者", "编辑", "事实")) -> None:
    """A chapter with a rejected draft, a second draft and its reviews (what settle or abort empties)."""
    to_checked(book)
    lw(book, "reject", "开头太慢")
    path = book.root.parent / "B.md"
    path.write_text(DRAFT.replace("风雪扑面。", "风雪扑面，她没有停。"), encoding="utf-8")
    lw(book, "draft", "B", str(path))
    lw(book)
    review(book, lenses)


REJECTED = ["reject(1): 打回草稿A", "draft(1): 第1章打回草稿A前的存档"]
"""What the reject of :func:`reject_and_redraw` adds to a tracked workspace's history."""


def test_a_tracked_workspace_keeps_the_draft_history(book: StoryRepo) -> None:
    track_workspace(book)
    reject_and_redraw(book)
    lw(book, "summary", "林晚抵达北境雪原，得到灭门血书。")
    lw(book, "accept")
    subjects = book.git.out("log", "--format=%s", "-5").splitlines()
    assert subjects == ["ch(1): 北境的雪", "draft(1): 第1章的草稿与评审存档", *REJECTED, "fix(配置): 工作区入 git"]
    kept = set(book.git.out("ls-tree", "-r", "--name-only", "HEAD~1", "--", L.工作区).split())
    assert {"工作区/草稿-B.md", "工作区/打回稿/草稿-A-1.md", "工作区/评审报告/打回.md", "工作区/验收卡.md",
            "工作区/评审报告/读者镜头.md", "工作区/决策卡.md"} <= kept
    assert "她没有停" in book.git.out("show", "HEAD~1:工作区/草稿-B.md")
    assert book.git.out("ls-tree", "-r", "--name-only", "HEAD", "--", L.工作区) == ""
    assert list(book.p(L.工作区).iterdir()) == [] and book.git.out("status", "--porcelain", "-uall") == ""


def test_a_tracked_workspace_keeps_the_volume_review(book: StoryRepo) -> None:
    track_workspace(book)
    to_reviewed(book, DRAFT.replace("一句话事件:", "卷末: true\n一句话事件:"))
    lw(book, "accept")
    assert "卷复盘" in lw(book)  # the audit, written into the workspace
    lw(book, "outline", "set", "总纲", "结局承诺", "第七卷宗门大会")
    lw(book, "vol", "candidates", "--候选", "血书残页｜伏笔｜中｜无期限｜第二卷呈堂｜总纲：第七卷宗门大会",
       "--候选", "旧剑｜伏笔｜低｜无期限｜卷二拔剑｜总纲：第七卷宗门大会",
       "--候选", "足迹｜悬念｜低｜无期限｜下卷追查｜总纲：第七卷宗门大会")
    lw(book, "vol", "tick", "2")
    summary = book.root.parent / "卷摘要.md"
    summary.write_text("第一卷：林晚北上。", encoding="utf-8")
    lw(book, "vol", "commit", "--summary", str(summary))
    assert book.git.out("log", "--format=%s", "-2").splitlines() == [
        "vol(01): 第01卷复盘", "draft(vol01): 第01卷复盘的工作稿存档"]
    kept = book.git.out("show", f"HEAD~1:{L.卷复盘}")
    assert "## 迟兑付" in kept and "- [x] 旧剑｜伏笔｜低" in kept
    assert book.git.out("status", "--porcelain", "-uall") == "" and not book.p(L.卷复盘).exists()


def test_an_ignored_workspace_adds_no_commit(book: StoryRepo) -> None:
    to_reviewed(book)
    lw(book, "accept")
    assert book.git.out("log", "--format=%s", "-2").splitlines() == ["ch(1): 北境的雪", "fix(设定): 种子"]


def test_abort_of_a_tracked_workspace_archives_the_drafts_first(book: StoryRepo) -> None:
    track_workspace(book)
    reject_and_redraw(book, ("读者", "编辑"))
    head = book.git.head()
    out = lw(book, "abort")
    assert "草稿与评审已存档" in out and "再清空工作区" in out, out
    subjects = book.git.out("log", "--format=%s", "-3").splitlines()
    assert subjects == ["abort(1): 放弃第1章的事务，清空工作区", "draft(1): 第1章的草稿与评审存档（放弃）", REJECTED[0]]
    assert book.git.out("rev-parse", "HEAD~2").strip() == head
    kept = set(book.git.out("ls-tree", "-r", "--name-only", "HEAD~1", "--", L.工作区).split())
    assert {"工作区/草稿-B.md", "工作区/打回稿/草稿-A-1.md", "工作区/评审报告/打回.md", "工作区/决策卡.md",
            "工作区/评审报告/读者镜头.md", "工作区/评审报告/编辑镜头.md", "工作区/事务.yaml"} <= kept
    assert "她没有停" in book.git.out("show", "HEAD~1:工作区/草稿-B.md")
    assert book.git.out("ls-tree", "-r", "--name-only", "HEAD", "--", L.工作区) == ""
    assert list(book.p(L.工作区).iterdir()) == [] and book.git.out("status", "--porcelain", "-uall") == ""
    assert "决策卡" in lw(book)  # the next chapter starts afresh


def test_abort_of_a_tracked_workspace_with_a_broken_state_file_still_archives(book: StoryRepo) -> None:
    track_workspace(book)
    to_checked(book)
    book.p(L.事务).write_text("阶段: 不存在\n", encoding="utf-8")  # what abort is for
    out = lw(book, "abort")
    assert "草稿与评审已存档" in out, out
    assert book.git.out("log", "--format=%s", "-2").splitlines() == ["abort: 清空工作区", "draft: 工作区存档（放弃）"]
    assert "阶段: 不存在" in book.git.out("show", f"HEAD~1:{L.事务}")
    assert book.git.out("status", "--porcelain", "-uall") == ""


def test_abort_of_an_ignored_workspace_adds_no_commit(book: StoryRepo) -> None:
    to_checked(book)
    head = book.git.head()
    assert "已清空工作区。" in lw(book, "abort")
    assert book.git.head() == head and list(book.p(L.工作区).iterdir()) == []


@pytest.mark.parametrize("step", ["archived", "write:2", "ref", "committed"])
def test_a_kill_between_the_archive_and_the_abort_leaves_a_whole_book(book: StoryRepo, step: str) -> None:
    track_workspace(book)
    reject_and_redraw(book, ("读者", "编辑"))
    head = book.git.head()
    before = {k: v for k, v in tree_snapshot(book.root).items() if not k.startswith(L.CACHE + "/")}
    killed = lw_process(book, "abort", env={"LW_STORY_FAULT": f"{step}@kill"})
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    proc = lw_process(book, "query", "chapters")
    assert proc.returncode == 0, proc.stderr
    if book.git.head() == head:  # the abort did not happen: the book and its workspace as before
        assert {k: v for k, v in tree_snapshot(book.root).items() if not k.startswith(L.CACHE + "/")} == before
        assert step in ("archived", "write:2", "ref")
    else:  # it did: both commits, the workspace empty
        assert step == "committed" and "上次中断的结转已收尾" in proc.stdout + proc.stderr
        assert book.git.out("log", "--format=%s", "-2").splitlines()[1] == "draft(1): 第1章的草稿与评审存档（放弃）"
        assert book.git.out("ls-tree", "-r", "--name-only", "HEAD", "--", L.工作区) == ""
    assert book.git.out("status", "--porcelain", "-uall", "--", ".", ":!工作区") == ""
    assert not (book.root / ".git" / "lw-txn").exists()
    lw(book, "abort")  # and the author can abort again: the archive is made once, on the branch
    assert book.git.out("log", "--format=%s", "-3").splitlines()[:2] == [
        "abort(1): 放弃第1章的事务，清空工作区", "draft(1): 第1章的草稿与评审存档（放弃）"]
    assert book.git.out("status", "--porcelain", "-uall") == ""


def ls(book: StoryRepo, rev: str) -> set[str]:
    return set(book.git.out("ls-tree", "-r", "--name-only", rev, "--", L.工作区).split())


def test_reject_of_a_tracked_workspace_archives_what_it_drops(book: StoryRepo) -> None:
    track_workspace(book)
    to_checked(book)
    review(book)
    lw(book, "summary", "林晚抵达北境雪原，得到灭门血书。")
    head = book.git.head()
    lw(book, "reject", "开头太慢")
    assert book.git.out("log", "--format=%s", "-2").splitlines() == REJECTED
    assert book.git.out("rev-parse", "HEAD~2").strip() == head  # the branch moved once
    dropped = {"工作区/草稿-A.md", "工作区/原稿/草稿-A.md", "工作区/评审报告/机检-A.md", "工作区/验收卡.md",
               "工作区/章摘要.md", *(f"工作区/评审报告/{lens}镜头.md" for lens in ("读者", "编辑", "事实"))}
    assert dropped <= ls(book, "HEAD~1")
    assert "风雪扑面。" in book.git.out("show", "HEAD~1:工作区/草稿-A.md")
    assert not dropped & ls(book, "HEAD") and "工作区/打回稿/草稿-A-1.md" in ls(book, "HEAD")
    assert "理由: 开头太慢" in book.git.out("log", "-1", "--format=%b")
    assert not any(book.p(rel).exists() for rel in dropped)
    assert "模型渲染草稿" in lw(book)  # the chapter goes on: back to rendering


@pytest.mark.parametrize("tracked", [False, True])
def test_a_reject_of_the_only_draft_leaves_no_empty_folder_and_the_next_draft_makes_it_again(book: StoryRepo, tracked: bool) -> None:
    if tracked:
        track_workspace(book)
    to_checked(book)
    assert book.p("工作区/原稿/草稿-A.md").is_file()
    lw(book, "reject", "开头太慢")
    assert not book.p("工作区/原稿").exists()  # its only file went with the draft
    assert book.p("工作区/评审报告/打回.md").is_file() and book.p("工作区").is_dir()
    path = book.root.parent / "B.md"
    path.write_text(DRAFT.replace("风雪扑面。", "风雪扑面，她没有停。"), encoding="utf-8")
    lw(book, "draft", "B", str(path))
    assert book.p("工作区/原稿/草稿-B.md").is_file()


def test_pick_of_a_tracked_workspace_archives_the_reviews_it_drops(book: StoryRepo) -> None:
    track_workspace(book)
    to_checked(book)
    path = book.root.parent / "B.md"
    path.write_text(DRAFT.replace("风雪扑面。", "风雪扑面，她没有停。"), encoding="utf-8")
    lw(book, "draft", "B", str(path))
    assert "已机检（过：A、B；打回：无）" in lw(book)
    review(book)
    lw(book, "pick", "B")
    assert book.git.out("log", "--format=%s", "-2").splitlines() == [
        "pick(1): 改选草稿B，三镜头重评", "draft(1): 第1章改选草稿B前的评审存档"]
    assert "读者：可以。" in book.git.out("show", "HEAD~1:工作区/评审报告/读者镜头.md")
    assert {"工作区/验收卡.md", "工作区/评审报告/事实镜头.md"} <= ls(book, "HEAD~1")
    assert not book.p(L.验收卡).exists() and not ls(book, "HEAD") & {"工作区/验收卡.md", "工作区/评审报告/读者镜头.md"}


def test_a_redraft_in_a_tracked_workspace_archives_the_old_text(book: StoryRepo) -> None:
    track_workspace(book)
    to_checked(book)
    review(book)
    path = book.root.parent / "A2.md"
    path.write_text(DRAFT.replace("风雪扑面。", "风雪扑面，她没有停。"), encoding="utf-8")
    lw(book, "draft", "A", str(path))
    assert book.git.out("log", "--format=%s", "-2").splitlines() == [
        "redraft(1): 草稿A换了新稿", "draft(1): 第1章草稿A换新稿前的存档"]
    old = book.git.out("show", "HEAD~1:工作区/草稿-A.md")
    assert "风雪扑面。" in old and "她没有停" not in old
    assert "读者：可以。" in book.git.out("show", "HEAD~1:工作区/评审报告/读者镜头.md")
    assert "她没有停" in book.p(L.draft_file("A")).read_text(encoding="utf-8")
    head = book.git.head()
    lw(book, "draft", "A", str(path))  # the same text again drops nothing: no commit
    lw(book, "draft", "C", str(path))  # nor does a new draft
    assert book.git.head() == head


def test_a_draft_that_stops_passing_in_a_tracked_workspace_keeps_its_reviews(book: StoryRepo) -> None:
    track_workspace(book)
    to_checked(book)
    review(book)
    lw(book, "style", "add", "禁词", "风雪扑面", "--出处", "作者")
    lw(book, "check")
    assert book.git.out("log", "--format=%s", "-2").splitlines() == [
        "check(1): 草稿A复检不过，评审作废", "draft(1): 第1章草稿A复检不过前的评审存档"]
    assert "工作区/验收卡.md" in ls(book, "HEAD~1") and not book.p(L.验收卡).exists()


@pytest.mark.parametrize("command", [["reject", "开头太慢"], ["pick", "B"], ["draft", "A"]])
def test_an_ignored_workspace_drops_without_a_commit(book: StoryRepo, command: list[str]) -> None:
    to_checked(book)
    path = book.root.parent / "B.md"
    path.write_text(DRAFT.replace("风雪扑面。", "风雪扑面，她没有停。"), encoding="utf-8")
    lw(book, "draft", "B", str(path))
    lw(book)
    review(book)
    head = book.git.head()
    lw(book, *command, *([str(path)] if command[0] == "draft" else []))
    assert book.git.head() == head and not book.p(L.验收卡).exists()


@pytest.mark.parametrize("step", ["archived", "write:2", "ref", "committed"])
def test_a_kill_during_a_reject_of_a_tracked_workspace_leaves_a_whole_book(book: StoryRepo, step: str) -> None:
    track_workspace(book)
    to_checked(book)
    review(book)
    head = book.git.head()
    before = {k: v for k, v in tree_snapshot(book.root).items() if not k.startswith(L.CACHE + "/")}
    killed = lw_process(book, "reject", "开头太慢", env={"LW_STORY_FAULT": f"{step}@kill"})
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    proc = lw_process(book, "query", "chapters")
    assert proc.returncode == 0, proc.stderr
    if book.git.head() == head:  # the reject did not happen: the book and its workspace as before
        assert {k: v for k, v in tree_snapshot(book.root).items() if not k.startswith(L.CACHE + "/")} == before
        assert step in ("archived", "write:2", "ref")
        lw(book, "reject", "开头太慢")
    else:  # it did, whole: both commits, the draft retired, the state saved with it
        assert step == "committed" and "上次中断的结转已收尾" in proc.stdout + proc.stderr
    assert book.git.out("log", "--format=%s", "-2").splitlines() == REJECTED
    assert not book.p(L.draft_file("A")).exists() and book.p(f"{L.打回稿}/草稿-A-1.md").is_file()
    assert "阶段: packed" in book.p(L.事务).read_text(encoding="utf-8")
    assert not (book.root / ".git" / "lw-txn").exists()
    assert book.git.out("status", "--porcelain", "-uall", "--", ".", ":!工作区") == ""


@pytest.mark.parametrize("command", ["abort", "accept", "reject"])
def test_a_link_in_a_tracked_workspace_is_refused_by_name(book: StoryRepo, command: str) -> None:
    track_workspace(book)
    to_checked(book)
    review(book)
    lw(book, "summary", "林晚抵达北境雪原，得到灭门血书。")
    outside = book.root.parent / "外面.md"
    outside.write_text("书外的文件\n", encoding="utf-8")
    link = L.验收卡 if command == "reject" else "工作区/链接.md"  # reject drops the card: a link in its place
    if command == "reject":
        (book.root / link).unlink()
    (book.root / link).symlink_to(outside)
    head = book.git.head()
    before = {k: v for k, v in tree_snapshot(book.root).items() if k != L.事务}
    proc = lw_process(book, *([command, "开头太慢"] if command == "reject" else [command]), env={"LANG": "en_US.UTF-8"})
    said = proc.stdout + proc.stderr
    assert proc.returncode == 1 and link in said and "symbolic link" in said, said
    assert str(book.root) not in said and str(book.root.parent) not in said and "Traceback" not in said
    assert not re.search(r"[\u4e00-\u9fff]", said.replace(link, "")), said
    assert book.git.head() == head and outside.read_text(encoding="utf-8") == "书外的文件\n"
    assert {k: v for k, v in tree_snapshot(book.root).items() if k != L.事务} == before
    assert link in lw(book, command, *(["开头太慢"] if command == "reject" else []), ok=False)
    (book.root / link).unlink()  # the author deletes the link: the same command goes through
    if command == "reject":
        lw(book, "reject", "开头太慢")
    else:
        lw(book, command)
    assert book.git.out("status", "--porcelain", "-uall", "--", ".", ":!工作区") == ""


def test_a_directory_where_a_tracked_workspace_file_should_be_is_refused_by_name(book: StoryRepo) -> None:
    track_workspace(book)
    to_checked(book)
    review(book, ("编辑",))
    odd = L.lens_file("编辑")
    book.p(odd).unlink()
    (book.p(odd) / "里面.md").parent.mkdir()
    (book.p(odd) / "里面.md").write_text("作者放错的东西\n", encoding="utf-8")
    head = book.git.head()
    for env, words in (({"LANG": "en_US.UTF-8"}, "a directory stands where a file should be"), ({"LANG": "zh_CN.UTF-8"}, "却是目录")):
        proc = lw_process(book, "reject", "开头太慢", env=env)
        said = proc.stdout + proc.stderr
        assert proc.returncode == 1 and odd in said and words in said, said
        assert "git" not in said.replace("tracked by git", "").replace("受 git 跟踪", ""), said  # no raw git output
        assert str(book.root) not in said and "Traceback" not in said
        assert book.git.head() == head
    shutil.rmtree(book.p(odd))  # the author moves it away: the same command goes through
    lw(book, "reject", "开头太慢")
    assert book.git.out("log", "--format=%s", "-2").splitlines() == REJECTED


# --- outline set ----------------------------------------------------------------------------------------------------


def test_outline_set_takes_a_value_starting_with_a_dash(book: StoryRepo) -> None:
    lw(book, "outline", "set", "总纲", "主题", "- 复仇\n- 成长")
    lw(book, "outline", "set", "第2卷", "主线", "-- 北上")
    assert "## 主题\n- 复仇\n- 成长\n" in book.p(L.总纲).read_text(encoding="utf-8")
    assert "## 主线\n-- 北上\n" in book.p(f"{L.卷纲}/第02卷.md").read_text(encoding="utf-8")


def test_every_free_text_argument_takes_a_value_starting_with_a_dash(book: StoryRepo) -> None:
    to_checked(book)
    lw(book, "reject", "--draftt", ok=False)  # a mistyped option is never taken for the reason
    lw(book, "reject", "--原因", ok=False)
    lw(book, "reject", "- 开头太慢")
    assert "- - 开头太慢\n" in book.p(L.打回记录).read_text(encoding="utf-8")
    lw(book, "abort")
    lw(book, "character", "set", "林晚", "口头禅", "- 本姑娘")
    lw(book, "character", "move", "林晚", "-北境-")
    lw(book, "style", "add", "禁句式", "-{3,}", "--出处", "作者")
    lw(book, "promise", "new", "-旧账-", "--类型", "伏笔", "--强度", "低", "--兑付计划", "- 第二卷")
    lw(book, "secret", "new", "-暗号-", "--关键词", "-暗号-", "--内容", "- 暗号是雪", "--知情人", "林晚")
    card = book.characters()["林晚"]
    assert card["口头禅"] == "- 本姑娘" and card["位置"] == "-北境-"
    assert "  - \"-{3,}\"\n" in book.p(L.风格宪法).read_text(encoding="utf-8")
    assert "- 第二卷" in book.promise("P-003").body and book.promise("P-003").title == "-旧账-"
    lw(book, "character", "set", "林晚", "口头禅", "x", "--没有这个选项", ok=False)  # still no silent typo


# --- the one derivative ----------------------------------------------------------------------------------------------


def test_index_db_is_the_only_derivative(book: StoryRepo) -> None:
    for command in (["next"], ["query", "chapters"], ["repair"], ["rebuild"], ["health"]):
        lw(book, *command)
        assert sorted(p.name for p in book.p(L.CACHE).iterdir()) == ["index.db"], command
    import sqlite3

    con = sqlite3.connect(book.p(f"{L.CACHE}/index.db"))
    scanned = {row[0] for row in con.execute("SELECT rel FROM scanned")}
    con.close()
    assert L.BOOK_FILE in scanned and f"{L.角色}/林晚.md" in scanned
    import shutil

    shutil.rmtree(book.p(L.CACHE))
    assert "（无）" in lw(book, "query", "chapters")


# --- 卡点强度 ---------------------------------------------------------------------------------------------------------


def _item(pid: str, strength: str, state: str = "进行") -> Item:
    return Item(pid, pid, Path(pid), {"强度": strength, "状态": state}, "")


@pytest.mark.parametrize("moves, expected", [
    ({"推进承诺": ["P-1"]}, ("高", ["P-1"])),
    ({"开启承诺": ["P-2"], "推进承诺": ["P-3"]}, ("中", ["P-2"])),
    ({"推进承诺": ["P-1"], "兑付承诺": ["P-1"]}, ("", [])),
    ({"兑付承诺": ["P-1"]}, ("", [])),
    ({"推进承诺": ["P-4"]}, ("", [])),  # paid since: no hook left open
    ({"推进承诺": ["P-3", "P-5"]}, ("低", ["P-3", "P-5"])),
    ({}, ("", [])),
])
def test_hook_strength_is_the_strongest_unpaid_promise_at_the_chapter_end(moves: dict, expected: tuple) -> None:
    promises = [_item("P-1", "高"), _item("P-2", "中"), _item("P-3", "低"), _item("P-4", "高", "已兑付"), _item("P-5", "低")]
    assert hook_strength(moves, promises) == expected


def test_the_board_shows_the_last_chapters_hook(book: StoryRepo) -> None:
    to_reviewed(book)
    lw(book, "accept")
    lw(book)
    card = book.p(L.决策卡).read_text(encoding="utf-8")
    assert "- 卡点强度：高（上一章章尾未兑付：P-001）" in card


def test_weak_hooks_in_a_row_are_the_chapters_whose_hook_is_weak(book: StoryRepo) -> None:
    """连续弱钩 is derived from 卡点强度 (spec §5: no second mechanism): a chapter whose end leaves
    a 高 promise unpaid is no weak hook, whether or not its contract says 强钩."""
    to_checked(book)  # advances P-001 (高), opens P-003 (中); no contract line says 强钩
    review(book)
    lw(book, "summary", "林晚抵达北境雪原，得到灭门血书。")
    lw(book, "accept")
    lw(book)  # brief of chapter 2
    card = book.p(L.决策卡).read_text(encoding="utf-8")
    assert "- 卡点强度：高（上一章章尾未兑付：P-001）" in card and "- 连续弱钩：0 章" in card, card
    # chapter 2 only advances the weak promise P-002, and no contract line promises a strong hook
    lw(book, "card", "edit", "--合同", "P-002 推进：旧约重提")
    lw(book, "decide")
    lw(book)  # pack
    path = book.root.parent / "二.md"
    path.write_text("---\n标题: 旧约\n视角: 林晚\n书内时间: 大历1023年冬月初五\n推进承诺:\n  - P-002\n"
                    "推进说明:\n  - P-002：旧约重提\n一句话事件: 旧约重提\n在场:\n  - 林晚\n---\n"
                    "林晚坐在灯下，想起那桩旧约，很久没有说话，窗外的雪一直在下。\n", encoding="utf-8")
    lw(book, "draft", "A", str(path))
    assert "已机检（过：A；打回：无）" in lw(book)
    review(book)
    lw(book, "summary", "林晚想起旧约。")
    lw(book, "accept")
    lw(book)  # brief of chapter 3
    card = book.p(L.决策卡).read_text(encoding="utf-8")
    assert "- 卡点强度：低（上一章章尾未兑付：P-002）" in card, card
    assert "- 连续弱钩：1 章" in card and "- 追读风险：1（节奏债 0 + 连续弱钩 1）" in card, card


# --- the health check ----------------------------------------------------------------------------------------------------


def test_the_fiftieth_chapters_health_check_triggers_by_itself(tmp_path: Path) -> None:
    book = make_book(tmp_path / "书", chapters=49, promises=6, characters=4, secrets=2, words=60, volume_size=100, seed=3)
    pid = next(p.id for p in book.promises() if p.meta.get("状态") == "进行")
    lw(book, "brief")  # straight to the brief, never through lw story
    lw(book, "card", "edit", "--合同", f"{pid} 推进")
    lw(book, "decide")
    lw(book, "pack")
    who = sorted(book.characters())[0]
    path = tmp_path / "草稿.md"
    path.write_text(f"---\n标题: 五十\n推进承诺:\n  - {pid}\n---\n{who}站在雪里，看着远处的山，很久没有说话，风从北面吹过来。\n",
                    encoding="utf-8")
    lw(book, "draft", "A", str(path))
    lw(book, "check")
    review(book)
    lw(book, "summary", "第五十章。")
    out = lw(book, "accept")
    assert "第 50 章到了体检周期：体检报告已写进 工作区/体检-0050.md" in out
    assert book.p("工作区/体检-0050.md").read_text(encoding="utf-8").startswith("# 体检报告：第 50 章")
    # missed (deleted, a kill after the commit): the next brief writes it, whatever command the author uses
    book.p("工作区/体检-0050.md").unlink()
    out = lw(book, "brief")
    assert "体检报告已写进 工作区/体检-0050.md" in out and book.p("工作区/体检-0050.md").is_file()


def test_a_what_if_base_that_is_no_branch_is_refused_before_git_sees_it(book: StoryRepo) -> None:
    """``lw story whatif merge|drop --base`` goes back to an existing branch only: a value that
    looks like an option (``--orphan=x``: git would make and switch to a new orphan branch) or
    names no branch is refused, told where, and nothing of the book changes."""
    def state() -> tuple[str, str]:
        return (book.git.out("rev-parse", "--abbrev-ref", "HEAD").strip(),
                book.git.out("for-each-ref", "--format=%(refname:short) %(objectname)", "refs/"))

    lw(book, "whatif", "start", "暗线")
    before = state()
    for action in ("merge", "drop"):
        for base in ("--orphan=x", "-b", "nowhere"):
            proc = lw_process(book, "whatif", action, "暗线", f"--base={base}")
            assert proc.returncode == 1, (base, proc.stdout, proc.stderr)
            assert "--base" in proc.stderr and "不是" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
            assert state() == before, base
    told = lw_process(book, "--locale", "en", "whatif", "merge", "暗线", "--base=nowhere")
    assert told.returncode != 0 and "is not a branch of this book" in told.stderr, told.stderr
    assert "main" in told.stderr and "Traceback" not in told.stderr
    assert "已删除" in lw(book, "whatif", "drop", "暗线", "--base", "main")
    assert book.git.out("rev-parse", "--abbrev-ref", "HEAD").strip() == "main"
