"""What a new author met on a book made by ``lw story init`` (issue 30's mends), through ``lw story``:

- a promise listed under 开启承诺 by its short title is answered with the id to write, never a
  file that cannot exist;
- the hints name the author's own commands (``lw story draft``, ``lw story review``) beside the
  model's tools;
- after the three lens reviews the board asks for the chapter summary before the acceptance, and
  ``accept`` without one says so (not a settle refusal about drafts and cards).
"""

from __future__ import annotations

from pathlib import Path

from lw_storyrepo import layout as L
from lw_storyrepo.repo import StoryRepo

from story_cli import hand_in, lw

DRAFT = """---
标题: 玄牌
视角: 林晚
书内时间: 大历元年春
开启承诺:
  - {opened}
一句话事件: 林晚得到玄牌
在场:
  - 林晚
---
林晚在山道上拾到一块玄色令牌，她看了很久很久，山风吹过，松涛阵阵，远处传来钟声，她想起了师父的话，把令牌收进怀里。
"""


def new_book(tmp_path: Path) -> Path:
    """A fresh book, chapter 1 briefed, decided (a contract opening a promise) and packed."""
    root = tmp_path / "书"
    lw(root, "init", str(root), "--书名", "书", "--类型", "玄幻", "--每章目标字数", "60")
    lw(root)  # brief
    lw(root, "card", "edit", "--合同", "开启：玄牌之谜")
    lw(root, "decide")
    out = lw(root)  # pack
    assert "lw story draft A 文件" in out, out  # the author's command, beside the model's tool
    assert "P-001" in lw(root, "promise", "draft", "玄牌之谜", "--类型", "悬念", "--强度", "中", "--兑付计划", "第三章揭晓")
    return root


def submit(root: Path, opened: str) -> str:
    hand_in(root, DRAFT.format(opened=opened))
    return lw(root)  # the checks


def test_a_promise_opened_by_its_short_title_is_told_its_id(tmp_path: Path) -> None:
    root = new_book(tmp_path)
    submit(root, "玄牌之谜")
    report = (root / L.check_report("A")).read_text(encoding="utf-8")
    assert "开启承诺写的是短题「玄牌之谜」：要写承诺的编号 P-001" in report, report
    assert "玄牌之谜-短题.md" not in report
    submit(root, "P-009")  # an id nobody drafted
    report = (root / L.check_report("A")).read_text(encoding="utf-8")
    assert "开启承诺 P-009 还没有起草" in report and "P-009-短题.md" not in report, report


def test_the_board_asks_for_the_summary_before_the_acceptance(tmp_path: Path) -> None:
    root = new_book(tmp_path)
    out = submit(root, "P-001")
    assert "已机检（过：A；打回：无）" in out and "lw story review 读者 文件" in out, out
    for lens in ("读者", "编辑", "事实"):
        path = root.parent / f"{lens}.md"
        path.write_text(f"{lens}：可以。\n", encoding="utf-8")
        lw(root, "review", lens, str(path))
    out = lw(root)
    assert "写章摘要" in out and 'lw story summary "…"' in out and "lw story accept，" not in out, out
    head = StoryRepo(root).git.head()
    out = lw(root, "accept", ok=False)
    assert "验收卡上还没有章摘要，不能验收" in out and "修改草稿或决策卡" not in out, out
    assert StoryRepo(root).git.head() == head
    lw(root, "summary", "林晚在山道上拾到玄色令牌。")
    assert "lw story accept" in lw(root) and "写章摘要" not in lw(root)
    assert "已结转" in lw(root, "accept")


def test_the_readme_sends_a_new_author_to_promise_draft_when_it_is_taken(tmp_path: Path) -> None:
    """The README's first steps said to draft chapter 1's promise before the chapter; on a fresh
    book the board waits for the decision card and ``promise draft`` is refused there. The README
    says to run it once the card is decided — where it is taken."""
    root = tmp_path / "书"
    lw(root, "init", str(root), "--书名", "书", "--类型", "玄幻")
    lw(root)  # brief: the card waits for the author
    args = ("promise", "draft", "玄牌之谜", "--类型", "悬念", "--强度", "中", "--兑付计划", "第三章揭晓")
    assert "等作者拍板决策卡" in lw(root, *args, ok=False)
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    first = readme[readme.index("A new author should know"):readme.index("`lw story` speaks the shell's language")]
    assert first.index("lw story decide") < first.index("lw story promise draft"), first
    lw(root, "card", "edit", "--合同", "P-001 开启：玄牌之谜")
    lw(root, "decide")
    lw(root)  # pack
    assert "P-001" in lw(root, *args)
