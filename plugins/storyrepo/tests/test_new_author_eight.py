"""What an eighth new author met writing a 1925 厦门 侨批局 book through ``lw story`` (helper U8, stop 51;
the cases are in /work/notes/u8/cases.md), mended and held here through the CLI:

- ``lw story fix`` of a typo-sized hand edit of an accepted chapter (当了二十元 → 三十元) left the chapter
  summary saying the old words and nothing said so, though the README sends such an edit to ``retcon``:
  the board's proposal and ``fix`` itself now name the words the summary still says and the retcon
  command (zh and en), and a retcon of the same edit carries them (the same rewrite, so the two agree);
- a 境界 finding stood at the start of its sentence (阿叔如今不过是个批脚 at column 1, not at 批脚): a
  finding about a rank, a thing held or a place now stands at those words in the report and
  ``check --json``, and its quote reaches them;
- a 状态 finding on a dead man's remembered line (the checks still take some memories for speech) offered
  the card, the setting change and the rewrite, never the form the checks read as a memory: it names it,
  and that form clears the finding.
"""

from __future__ import annotations

import json
from pathlib import Path

from lw_storyrepo import layout as L

from story_cli import hand_in, lw, new_book

WORLD = """# 世界观

## 世界规则

民国十四年的厦门，南洋华侨把钱和家书一并寄回闽南，叫侨批。批局在鹭江道上收批、解批。

## 力量体系

批局里的位分：学徒 < 批脚 < 水客 < 账房 < 掌柜。
"""

DRAFT = """---
标题: 阿叔的烟斗
视角: 林水生
书内时间: 民国十四年三月初三
推进承诺:
  - P-001
{changes}一句话事件: 林水生去问阿叔
在场:
  - 林水生
  - 黄九
---
　　第二天一早，林水生去了竹树脚，屋里空荡荡的，门槛上还搁着那只烟斗，烟灰冷得发硬。
　　{line}
　　林水生把信揣回怀里，在门外站了半天，才往鹭江道走，脚下的石板路被潮气浸得发黑，一步一滑。
"""

SUMMARY = "林水生在天一批局点批信，发现一封批信写大洋二十元、账簿却抄十二元。陈掌柜盖印派他走同安线。"


def remittance_house(tmp_path: Path) -> Path:
    """The book as the author set it up: the ladder in 世界观.md, 林德茂 a 水客 called 阿叔 and dead,
    黄九 a 批脚 called 九哥; chapter 1 decided and packed, P-001 drafted."""
    return new_book(tmp_path / "鹭江批局", WORLD,
                    (("林水生", "位置", "厦门"), ("林水生", "境界", "批脚"), ("林德茂", "境界", "水客"),
                     ("林德茂", "别名", "阿叔", "--op", "+"), ("林德茂", "状态", "已故"), ("黄九", "境界", "批脚"),
                     ("黄九", "别名", "九哥", "--op", "+")),
                    contract=("林水生去问阿叔", "P-001 开启：少了的批款"),
                    promise=("少了的批款", "--类型", "悬念", "--强度", "中", "--兑付计划", "第5章揭晓"))


def check(root: Path, line: str, changes: str = "") -> list[dict[str, object]]:
    hand_in(root, DRAFT.format(line=line, changes=changes).replace("推进承诺", "开启承诺"))
    return [f for f in json.loads(lw(root, "check", "--json"))["A"] if f["kind"] == "连贯"]


def accepted_chapter(root: Path) -> Path:
    """Chapter 1 accepted with SUMMARY as its summary; its file."""
    check(root, "他在门槛上坐到晌午，阿叔的账本摊在膝盖上，大洋二十元那一行被人划掉了，旁边抄着同安线的批。")
    for lens in ("读者", "编辑", "事实"):
        review = root.parent / f"{lens}.md"
        review.write_text("通过。开局清楚。\n", encoding="utf-8")
        lw(root, "review", lens, str(review))
    lw(root, "summary", SUMMARY)
    lw(root, "accept")
    return next((root / L.正文).glob("0001-*.md"))


def test_fix_of_an_edit_the_summary_states_names_the_words_and_the_retcon(tmp_path: Path) -> None:
    root = remittance_house(tmp_path)
    chapter = accepted_chapter(root)
    chapter.write_text(chapter.read_text(encoding="utf-8").replace("大洋二十元那一行", "大洋三十元那一行"), encoding="utf-8")
    board = lw(root)
    assert "fix(正文)" in board and "第 1 章的章摘要还写着正文改掉的「" in board, board
    assert "lw story fix 只结转正文，摘要照旧；要摘要跟着改就走 lw story retcon 1 --原因 …" in board, board
    english = lw(root, locale="en")
    assert "chapter 1's summary still says" in english and "lw story retcon 1 --reason …" in english, english
    # the retcon the board names carries exactly those words (the same rewrite), and says so
    out = lw(root, "retcon", "1", "--原因", "是三十元", answer="y\n")
    assert "随正文改" in out, out
    summary = (root / f"{L.章摘要}/0001.md").read_text(encoding="utf-8")
    assert "大洋三十元" in summary and "大洋二十元" not in summary, summary


def test_fix_commits_the_edit_as_asked_and_says_the_summary_it_left(tmp_path: Path) -> None:
    root = remittance_house(tmp_path)
    chapter = accepted_chapter(root)
    chapter.write_text(chapter.read_text(encoding="utf-8").replace("大洋二十元那一行", "大洋三十元那一行"), encoding="utf-8")
    out = lw(root, "fix")
    assert out.startswith("fix(正文)") and "第 1 章的章摘要还写着正文改掉的「" in out, out
    assert "lw story retcon 1" in out, out
    # a typo the summary never says is committed with nothing more said
    chapter.write_text(chapter.read_text(encoding="utf-8").replace("烟灰冷得发硬", "烟灰冷得发僵"), encoding="utf-8")
    board = lw(root)
    assert "fix(正文)" in board and "章摘要还写着" not in board, board
    assert "章摘要还写着" not in lw(root, "fix")


def test_a_rank_finding_stands_at_the_rank_and_quotes_it(tmp_path: Path) -> None:
    root = remittance_house(tmp_path)
    line = "林水生想起一件怪事。说来也怪，九哥不过是个学徒，掌柜却偏偏把同安、马巷两条线都交给他走。"
    found = check(root, line)
    rank = [f for f in found if "境界" in str(f["message"])]
    assert len(rank) == 1 and "黄九 的境界是「批脚」" in str(rank[0]["message"]), found
    text = (root / L.draft_file("A")).read_text(encoding="utf-8")
    row = text.split("\n")[int(rank[0]["line"]) - 1]  # type: ignore[call-overload]
    assert row[int(rank[0]["column"]) - 1:].startswith("学徒"), (rank[0], row)  # type: ignore[call-overload]
    report = (root / L.check_report("A")).read_text(encoding="utf-8")
    assert f"第 {rank[0]['line']} 行第 {rank[0]['column']} 列" in report, report
    assert "不过是个学徒" in report.split("✗")[1], report  # the quote reaches the rank


def test_a_dead_mans_line_names_the_memory_form_and_that_form_clears_it(tmp_path: Path) -> None:
    root = remittance_house(tmp_path)
    found = check(root, "“有些账不是你一个批脚该算的。”阿叔说。")
    state = [str(f["message"]) for f in found if "已故" in str(f["message"])]
    assert len(state) == 1 and "是回忆、梦或书信就写明（如「想起林德茂说过…」）" in state[0], state
    assert state[0].endswith("都不是就改写这句"), state  # the rewrite stays the last answer
    # the form the answer names is read as a memory: the finding is gone
    assert not [f for f in check(root, "他想起林德茂说过：有些账不是你一个批脚该算的。") if "已故" in str(f["message"])]
