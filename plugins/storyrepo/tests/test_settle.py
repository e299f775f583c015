"""The chapter transaction and its settle: one atomic commit or the tree exactly as before."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from lw_storyrepo import atomic, golden, settle, verdict, workspace
from lw_storyrepo import card as decision
from lw_storyrepo import layout as R
from lw_storyrepo.fixtures import dir_snapshot, git_state, tree_snapshot
from lw_storyrepo.samples import DRAFT, to_reviewed
from lwcore.errors import LwError


def tick(repo, noun):
    card = repo.p(R.验收卡)
    card.write_text(card.read_text(encoding="utf-8").replace(f"- [ ] {noun}", f"- [x] {noun}"), encoding="utf-8")


def test_full_transaction_settles_in_one_commit(book):
    to_reviewed(book)
    tick(book, "萧无涯")
    draft = book.p("工作区/草稿-A.md")
    draft.write_text(draft.read_text(encoding="utf-8").replace("她握紧了玄阶令牌。", "她把那枚冰凉的玄阶令牌攥进掌心，指节发白，一夜未眠。"), encoding="utf-8")
    head_before = book.git.head()
    commit = verdict.accept(book)
    assert book.git.out("rev-parse", "HEAD~1").strip() == head_before
    message = book.git.out("log", "-1", "--format=%B")
    assert message == (
        "ch(1): 北境的雪\n\n"
        "承诺: +P-003 ~P-001\n"
        "设定: 林晚.位置=北境雪原; 林晚.持有+玄阶令牌; S-001.知情人+林晚; 名册+萧无涯\n\n"
    )
    files = set(book.git.out("show", "--name-only", "--format=", commit).split())
    assert files == {
        "定稿/正文/0001-北境的雪.md", "大纲/承诺/P-001-灭门真凶.md", "大纲/承诺/P-003-神秘老者来历.md",
        "定稿/设定/角色/林晚.md", "定稿/设定/信息差/S-001-灭门真凶.md", "定稿/设定/名册.md", "定稿/设定/时间线.md",
        "定稿/记忆/章摘要/0001.md", "文风/金句库/叙事.md",
    }
    chapter = book.p("定稿/正文/0001-北境的雪.md").read_text(encoding="utf-8")
    assert chapter.startswith("---\n章号: 1\n标题: 北境的雪\n卷: 1\n视角: 林晚\n")
    assert "合同:\n  - P-001 推进：林晚得到血书\n  - P-003 开启：神秘老者来历\n  - 结尾强钩\n" in chapter
    assert "开启承诺:\n  - P-003\n推进承诺:\n  - P-001\n" in chapter
    p1 = book.p("大纲/承诺/P-001-灭门真凶.md").read_text(encoding="utf-8")
    assert "最后推进章: 1\n" in p1 and p1.endswith("- 第0章：开启\n- 第1章：推进——林晚得到血书\n")
    p3 = book.p("大纲/承诺/P-003-神秘老者来历.md").read_text(encoding="utf-8")
    assert "状态: 进行\n开启章: 1\n" in p3 and "- 第1章：开启" in p3
    lin = book.p("定稿/设定/角色/林晚.md").read_text(encoding="utf-8")
    assert "位置: 北境雪原" in lin and "  - 玄阶令牌\n" in lin and "星座: 天蝎   # 作者自定义字段" in lin
    assert "最后变更章: 1" in lin
    assert "| 1 | 大历1023年冬月初三 | 林晚于北境得血书 | 林晚, 神秘老者 |" in book.p(R.时间线).read_text(encoding="utf-8")
    assert "| 萧无涯 |  | 人物 | 1 |" in book.p(R.名册).read_text(encoding="utf-8")
    assert "一夜未眠" in book.p("文风/金句库/叙事.md").read_text(encoding="utf-8")
    assert list(book.p(R.工作区).iterdir()) == []
    assert book.git.out("status", "--porcelain", "--ignored", "-uall") == ""


def test_settle_works_when_the_workspace_is_tracked(book):
    book.p(".gitignore").write_text(".cache/\n", encoding="utf-8")
    book.git.commit_paths([".gitignore"], "fix(配置): 工作区入 git\n")
    to_reviewed(book)
    ws = sorted(book.rel(p) for p in book.p(R.工作区).rglob("*") if p.is_file())
    book.git.commit_paths(ws, "wip: 草稿史\n")
    verdict.accept(book)
    assert book.git.out("ls-files", "工作区") == ""
    assert book.git.out("status", "--porcelain", "-uall") == ""
    deleted = book.git.out("show", "--no-renames", "--name-status", "--format=", "HEAD")
    assert "D\t工作区/草稿-A.md" in deleted


def test_exemption_is_the_authors_and_needs_a_reason(book):
    draft = DRAFT.replace("开启承诺:\n  - P-003\n推进承诺:\n  - P-001\n推进说明:\n  - P-001：林晚得到血书\n", "")
    with pytest.raises(AssertionError):
        to_reviewed(book, draft=draft, contract=["纯番外"], new_promise=False)  # checks refuse: no promise touched
    workspace.clear(book)
    to_reviewed(book, draft=draft, contract=["纯番外"], exemption="纯番外", new_promise=False)
    verdict.accept(book)
    message = book.git.out("log", "-1", "--format=%B")
    assert "承诺: 无\n豁免: 纯番外\n" in message
    assert "豁免承诺结转: 纯番外" in book.p("定稿/正文/0001-北境的雪.md").read_text(encoding="utf-8")


def test_model_cannot_grant_the_exemption(book):
    decision.brief(book)
    with pytest.raises(LwError, match="作者"):
        decision.edit_card(book, contract=["本章豁免承诺结转（理由：偷懒）"])
    card = book.p(R.决策卡).read_text(encoding="utf-8")
    book.p(R.决策卡).write_text(card.replace("- [ ] 本章豁免承诺结转（理由：）", "- [x] 本章豁免承诺结转（理由：）"), encoding="utf-8")
    with pytest.raises(LwError, match="理由"):
        decision.decide(book)


@pytest.mark.parametrize("mutate, error", [
    (lambda b: (b.p(R.新承诺) / "P-003-神秘老者来历.md").write_text("---\n类型: 悬念\n强度: 中\n---\n## 描述\n无计划\n", encoding="utf-8"), "兑付计划"),
    (lambda b: (b.p(R.新承诺) / "P-003-神秘老者来历.md").write_text("---\n类型: 悬念\n强度: 高\n---\n## 兑付计划\n有\n", encoding="utf-8"), "兑付期限"),
    (lambda b: b.p("工作区/草稿-A.md").write_text(DRAFT.replace("推进承诺:\n  - P-001\n", "推进承诺:\n  - P-001\n弃置承诺:\n  - P-002\n"), encoding="utf-8"), "原因"),
    (lambda b: b.p("工作区/草稿-A.md").write_text(DRAFT.replace("推进承诺:\n  - P-001\n", "推进承诺:\n  - P-009\n"), encoding="utf-8"), "P-009"),
])
def test_promise_rules_are_hard_checks_and_change_nothing(book, mutate, error):
    to_reviewed(book)
    mutate(book)
    before, state = tree_snapshot(book.root), git_state(book)
    with pytest.raises(LwError, match=error):
        verdict.accept(book)
    after = tree_snapshot(book.root)
    report = after.pop(R.check_report("A")).decode("utf-8")  # the re-check names the problem; nothing else moves
    before.pop(R.check_report("A"))
    assert error in report and "不过关" in report
    assert after == before and git_state(book)["head"] == state["head"]


def test_abandon_with_reason_in_a_chapter(book):
    draft = DRAFT.replace("推进承诺:\n  - P-001\n", "推进承诺:\n  - P-001\n弃置承诺:\n  - P-002\n弃置理由:\n  - P-002：改走暗线\n")
    to_reviewed(book, draft=draft)
    verdict.accept(book)
    assert "承诺: +P-003 ~P-001 -P-002\n" in book.git.out("log", "-1", "--format=%B")
    p2 = book.p("大纲/承诺/P-002-旧约.md").read_text(encoding="utf-8")
    assert "状态: 已弃置" in p2 and "第1章：弃置——原因：改走暗线" in p2


# --- fault injection -----------------------------------------------------------------------------

STEPS = ["planned", "journal", "write:1", "write:4", "written", "commit", "tree", "ref"]


def _prepared(book):
    to_reviewed(book)
    state = workspace.load_state(book)
    state["阶段"] = "accepted"
    workspace.save_state(book, state)
    return tree_snapshot(book.root), dir_snapshot(book.root), git_state(book)


def _assert_untouched(book, snap):
    files, dirs, state = snap
    assert tree_snapshot(book.root) == files
    assert dir_snapshot(book.root) == dirs
    assert git_state(book) == state
    assert not (book.root / ".git" / atomic.JOURNAL_DIR).exists()


@pytest.mark.parametrize("step", STEPS)
def test_raise_at_each_step_leaves_the_tree_as_before(book, monkeypatch, step):
    snap = _prepared(book)
    monkeypatch.setenv("LW_STORY_FAULT", f"{step}@raise")
    with pytest.raises(RuntimeError, match="injected"):
        settle.settle(book)
    _assert_untouched(book, snap)
    monkeypatch.delenv("LW_STORY_FAULT")
    settle.settle(book)  # and it settles fine afterwards
    assert book.git.out("status", "--porcelain", "-uall") == ""


def test_disk_error_mid_write_rolls_back(book, monkeypatch):
    snap = _prepared(book)
    real = atomic.write_file
    calls = []

    def flaky(path, data):
        calls.append(path)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        real(path, data)

    monkeypatch.setattr(atomic, "write_file", flaky)
    with pytest.raises(OSError):
        settle.settle(book)
    _assert_untouched(book, snap)


def test_injected_enospc_rolls_back(book, monkeypatch):
    snap = _prepared(book)
    monkeypatch.setenv("LW_STORY_FAULT", "write:2@oserror")
    with pytest.raises(OSError):
        settle.settle(book)
    _assert_untouched(book, snap)


@pytest.mark.parametrize("dirty", [False, True], ids=["clean-index", "author-staged-something"])
@pytest.mark.parametrize("failing", ["read-tree", "update-index", "write-tree", "commit-tree", "update-ref"])
def test_git_failure_rolls_back(book, monkeypatch, tmp_path, failing, dirty):
    if dirty:  # the author staged an unrelated edit: settle must neither commit nor unstage it
        outline = book.p("大纲/总纲.md")
        outline.write_text(outline.read_text(encoding="utf-8") + "\n新想法。\n", encoding="utf-8")
        book.git.run("add", "--", "大纲/总纲.md")
    snap = _prepared(book)
    wrapper = tmp_path / "坏git"
    wrapper.write_text(
        "#!/bin/sh\nfor a in \"$@\"; do\n  if [ \"$a\" = \"%s\" ]; then echo 'fatal: injected' >&2; exit 128; fi\ndone\nexec git \"$@\"\n" % failing,
        encoding="utf-8",
    )
    wrapper.chmod(0o755)
    monkeypatch.setenv("LW_STORY_GIT", str(wrapper))
    if failing == "read-tree" and not dirty:
        settle.settle(book)  # the clean-index path never reads a tree into a private index
        monkeypatch.delenv("LW_STORY_GIT")
        assert book.git.out("status", "--porcelain", "-uall") == ""
        return
    with pytest.raises(LwError, match="injected"):
        settle.settle(book)
    monkeypatch.delenv("LW_STORY_GIT")
    _assert_untouched(book, snap)
    if dirty:
        settle.settle(book)
        assert book.git.out("status", "--porcelain", "-uall") == "M  大纲/总纲.md\n"
        assert "大纲/总纲.md" not in book.git.out("show", "--name-only", "--format=", "HEAD")


SETTLE = "import sys; from lw_storyrepo.repo import StoryRepo; from lw_storyrepo.settle import settle; settle(StoryRepo(sys.argv[1]))"


@pytest.mark.parametrize("dirty", [False, True], ids=["clean-index", "author-staged-something"])
@pytest.mark.parametrize("step", ["journal", "write:1", "write:5", "written", "commit", "tree", "ref"])
def test_killed_process_is_rolled_back_on_next_start(book, step, dirty):
    if dirty:
        outline = book.p("大纲/总纲.md")
        outline.write_text(outline.read_text(encoding="utf-8") + "\n新想法。\n", encoding="utf-8")
        book.git.run("add", "--", "大纲/总纲.md")
    snap = _prepared(book)
    env = dict(os.environ, LW_STORY_FAULT=f"{step}@kill")
    proc = subprocess.run([sys.executable, "-c", SETTLE, str(book.root)], env=env, capture_output=True)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.decode("utf-8", "replace")
    from lw_storyrepo.machine import decide_next

    from lw_storyrepo.atomic import recover

    assert recover(book.root) == "rolled-back"  # what every start does first
    _assert_untouched(book, snap)
    step_now = decide_next(book)
    assert (step_now.state, step_now.stage) == ((1, None) if dirty else (2, "accepted"))


def test_killed_after_the_commit_is_finished_on_next_start(book):
    _prepared(book)
    head = book.git.head()
    env = dict(os.environ, LW_STORY_FAULT="committed@kill")
    proc = subprocess.run([sys.executable, "-c", SETTLE, str(book.root)], env=env, capture_output=True)
    assert proc.returncode == -signal.SIGKILL
    assert book.git.head() != head
    assert atomic.recover(book.root) == "finished"
    assert book.git.out("status", "--porcelain", "-uall") == ""
    assert book.git.out("log", "-1", "--format=%s") == "ch(1): 北境的雪\n"


def test_golden_lines_keep_twenty_per_scene_and_archive_the_rest(book):
    changes: dict = {}
    old = "\n".join(f"林晚看着远方的第{i}座山。" for i in range(25))
    new = "\n".join(f"林晚把目光投向更远处，第{i}座山在暮色里只剩一道灰线。" for i in range(25))
    picked = golden.harvest_golden(book, 7, old, new, changes)
    assert len(picked) == 25
    kept = changes["文风/金句库/叙事.md"].decode("utf-8")
    assert kept.count("## 第7章") == 20 and "第24座山" in kept and "第4座山" not in kept
    archived = changes["文风/金句库/归档/叙事.md"].decode("utf-8")
    assert archived.count("## 第7章") == 5 and "第0座山" in archived
    assert golden.harvest_golden(book, 8, old, old, {}) == []  # unchanged paragraphs are not harvested
