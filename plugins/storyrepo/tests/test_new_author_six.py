"""What a sixth new author met writing a 1962 lighthouse book through ``lw story`` (helper U6, stop 49;
the cases are in /work/notes/u6/cases.md), mended and held here through the CLI:

- after a kill during a settle was rolled back, the board said 「脚本：结转」, a script step that
  ``lw story`` never runs: the hint is the author's command, ``lw story settle``;
- ``lw story settle`` and ``lw story retcon`` printed a bare commit hash where ``accept`` says
  「已结转：…」: each says what it committed;
- ``lw story amend`` said only 「合同已修订」 while the check reports on disk were still the old
  contract's: it says what happens to the drafts next;
- with the three lens reviews in and no summary, the board named the next step 「作者验收」 while
  ``accept`` is refused: it names 「写章摘要」.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from lw_storyrepo import layout as L
from lw_storyrepo.cli import story
from lw_storyrepo.fixtures import make_book
from lw_storyrepo.repo import StoryRepo
from lw_storyrepo.samples import DRAFT, NEW_PROMISE, to_reviewed
from lw_storyrepo.workspace import LENSES

from story_cli import hand_in, lw

LW = str(Path(sys.executable).with_name("lw"))


def killed_accept(book: StoryRepo) -> None:
    """``lw story accept`` killed (SIGKILL) in the middle of its settle, the journal written."""
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES")}
    env.update({"LANG": "zh_CN.UTF-8", "LW_STORY_FAULT": "write:4@kill"})
    proc = subprocess.run([LW, "story", "accept"], cwd=book.root, capture_output=True, env=env, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.decode("utf-8", "replace")
    assert (book.root / ".git" / "lw-txn").exists()


def test_after_a_killed_settle_the_board_gives_the_author_the_settle_and_settle_says_what_it_did(book: StoryRepo) -> None:
    to_reviewed(book)
    head = book.git.head()
    killed_accept(book)
    out = lw(book)  # recovers first (rolled back), then names the step
    assert "上次中断的结转已回滚" in out and "下一步「结转」" in out, out
    assert "作者：这一章已验收、还没结转" in out and "lw story settle 再结转一次" in out and "脚本：结转" not in out, out
    assert book.git.head() == head  # the board does not settle by itself
    assert "lw story settle runs it again" in lw(book, locale="en")
    out = lw(book, "settle")
    assert book.git.head() != head and out == f"已结转：{book.git.head()}\n", out
    assert book.git.out("log", "-1", "--format=%s").startswith("ch(1): ")


def test_retcon_says_what_it_committed(book: StoryRepo) -> None:
    to_reviewed(book)
    assert "已结转" in lw(book, "accept")
    path = book.p("定稿/正文/0001-北境的雪.md")
    path.write_text(path.read_text(encoding="utf-8").replace("一言不发。", "开口说出了当年灭门那一夜的真相。"), encoding="utf-8")
    out = lw(book, "retcon", "1", "--原因", "老者开口", "--摘要", "林晚抵达北境，神秘老者说出灭门真相。", "-y")
    assert out == f"已入册 retcon(1)：{book.git.head()}\n", out
    path.write_text(path.read_text(encoding="utf-8").replace("灭门那一夜的真相", "灭门那一夜的详情"), encoding="utf-8")
    out = lw(book, "retcon", "1", "--原因", "措辞", "-y", locale="en")
    assert out == f"retcon(1) committed: {book.git.head()}\n", out


def test_amend_says_what_happens_to_the_drafts(book: StoryRepo) -> None:
    to_reviewed(book)
    contract = ("--合同", "P-001 推进：林晚得到血书", "--合同", "P-003 开启：神秘老者来历")
    out = lw(book, "amend", "--原因", "结尾强钩交给下一章", *contract)
    assert "合同已修订" in out and "下一步：lw story 按新合同重新机检已交的草稿" in out, out
    assert "已机检（过：A；打回：无）" in lw(book)  # the next lw story checks them again, as it said
    out = lw(book, "amend", "--原因", "再改一次", *contract, "--合同", "结尾强钩", locale="en")
    assert "next: lw story checks the drafts again against the new contract" in out, out


def test_amend_before_any_draft_says_the_next_draft_is_checked_against_it(book: StoryRepo) -> None:
    lw(book)  # brief
    lw(book, "card", "edit", "--合同", "P-001 推进：林晚得到血书")
    lw(book, "decide")
    out = lw(book, "amend", "--原因", "先写血书", "--合同", "P-001 推进：林晚读到血书")
    assert "下一步：lw story 组装上下文包，草稿交上来时按新合同机检" in out, out
    lw(book)  # pack
    out = lw(book, "amend", "--原因", "再改", "--合同", "P-001 推进：林晚收起血书")
    assert "下一步：交稿（lw story draft A 文件），按新合同机检" in out, out


def test_the_board_names_the_summary_as_the_next_step_while_it_is_missing(book: StoryRepo) -> None:
    lw(book)  # brief
    lw(book, "card", "edit", "--合同", "P-001 推进：林晚得到血书", "--合同", "P-003 开启：神秘老者来历")
    lw(book, "decide")
    lw(book)  # pack
    book.p(L.新承诺).mkdir(parents=True, exist_ok=True)
    (book.p(L.新承诺) / "P-003-神秘老者来历.md").write_text(NEW_PROMISE, encoding="utf-8")
    hand_in(book, DRAFT)
    assert "已机检（过：A；打回：无）" in lw(book)
    for lens in LENSES:
        (book.root.parent / "r.md").write_text(f"{lens}：可以。", encoding="utf-8")
        lw(book, "review", lens, str(book.root.parent / "r.md"))
    out = lw(book)
    assert "下一步「写章摘要」" in out and "下一步「作者验收」" not in out, out
    assert "next step «write the chapter summary»" in lw(book, locale="en")
    assert "验收卡上还没有章摘要" in lw(book, "accept", ok=False)  # the step it named is the one missing
    lw(book, "summary", "林晚抵达北境雪原，得到灭门血书。")
    assert "下一步「作者验收」" in lw(book)


def test_init_says_what_to_do_next(tmp_path: Path) -> None:
    """``init`` said only 「已建库」; a new author learnt from the README alone that the checks need cards first."""
    root = tmp_path / "孤岛灯火"
    result = CliRunner().invoke(story, ["--locale", "zh", "init", str(root), "--书名", "孤岛灯火"], catch_exceptions=False)
    assert result.exit_code == 0 and f"已建库：{root}" in result.output, result.output
    assert "下一步：先写角色卡（lw story character set 名字 位置 …）" in result.output and "再在书里运行 lw story" in result.output
    result = CliRunner().invoke(story, ["--locale", "en", "init", str(tmp_path / "二"), "--书名", "二"], catch_exceptions=False)
    assert "next: write the character cards (lw story character set NAME 位置 …)" in result.output, result.output


def test_retcon_refuses_a_chapter_number_the_edits_do_not_touch(tmp_path: Path) -> None:
    """``lw story retcon 2`` committed an edit of chapter 3 as ``retcon(2)``: the number is the edited chapter's."""
    repo = make_book(tmp_path / "书", chapters=3, promises=3, characters=3, secrets=1)
    rel = next(str(p.relative_to(repo.root)) for p in repo.p(L.正文).glob("0003-*.md"))
    path = repo.p(rel)
    path.write_text(path.read_text(encoding="utf-8") + "夜深了。\n", encoding="utf-8")
    head = repo.git.head()
    out = lw(repo, "retcon", "2", "--原因", "夜深", "-y", ok=False)
    assert "这次改的是第 3 章，不是第 2 章" in out and "lw story retcon 3 --原因 …" in out and rel in out, out
    assert repo.git.head() == head
    result = CliRunner().invoke(story, ["--locale", "en", "retcon", "2", "--原因", "夜深", "-y", "-C", str(repo.root)])
    said = str(result.exception)  # English errors go to the kernel's printer (lw), raised here
    assert "the edits change chapter 3, not chapter 2" in said and "lw story retcon 3 --reason …" in said, said
    out = lw(repo, "retcon", "3", "--原因", "夜深", "--摘要", "夜深了。", "-y")
    assert out == f"已入册 retcon(3)：{repo.git.head()}\n" and repo.git.out("log", "-1", "--format=%s") == "retcon(3): 夜深\n"


def test_pick_when_every_draft_was_sent_back_says_so(book: StoryRepo) -> None:
    """``pick B`` with every draft sent back said only that the stage was wrong («模型渲染草稿»)."""
    lw(book)  # brief
    lw(book, "card", "edit", "--合同", "P-001 推进：林晚得到血书")
    lw(book, "decide")
    lw(book)  # pack
    hand_in(book, DRAFT.replace("  - P-001\n", "  - P-009\n"), "B")  # a promise nobody drafted
    assert "打回：B" in lw(book)
    out = lw(book, "pick", "B", ok=False)
    assert "草稿 B 没有通过机检，这一章还没有过检的草稿可选：读 工作区/评审报告/机检-B.md" in out, out
    assert "lw story draft A 文件" in out and "不能做这一步" not in out, out
