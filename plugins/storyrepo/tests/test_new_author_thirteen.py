"""Stop 56's new author (U13): a 乾隆 景德镇 imperial kiln (a 把桩师傅 who hands his 窑钥匙 to his son, a dead kiln master
called 老七, a 督陶官 with a secret about the kiln that fell), written through ``lw story`` as an author would, and the
tool's faults that hurt on the way, each with its fix:

- ``accept`` before the lens reviews, in English, said «missing 读者镜头、编辑镜头、事实镜头 (expected have the model
  review …)»: the Chinese list mark stayed and the expectation was no phrase; the lenses are now named in English beside
  the word the commands take, joined by commas, and the expectation is a noun phrase;
- ``vol commit --summary`` typed in the middle of a volume (the next chapter's brief written, no ``lw story vol``) ended
  the volume there with no audit and committed ``vol(02)`` (it would also have filed the chapter's drafted promises as
  opened by the volume): a volume review in progress is now required, and nothing changes without one; ``lw story vol``
  itself, typed while a chapter is in progress, is refused too (abort the chapter or finish it first).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lw_storyrepo import layout as L
from lw_storyrepo import tools
from lwcore.api import LwError

from story_cli import accept_chapter, hand_in, lw, new_book, subjects

SUMMARY = "程守业说出督陶官的限期。"
"""The summary each chapter of this book is accepted with."""

WORLD = """# 世界观

## 世界规则

乾隆年间的景德镇御窑厂，烧造贡瓷。浮梁县在景德镇东北十几里。京城在景德镇以北两千多里。

## 力量体系

学徒 < 坯工 < 画工 < 把桩师傅
"""

DRAFT = """---
标题: 祭红
视角: 程砚
书内时间: 乾隆二十年三月初五
开启承诺:
  - P-001
一句话事件: 督陶官限期烧出祭红釉
在场:
  - 程砚
  - 程守业
---
天还没亮，程砚就蹲在坯房门口揉泥。泥是前一天从浮梁运来的高岭土，掺了水，要揉上三百下才肯服帖。
窑门那边传来脚步声。程砚抬头，看见爹提着一盏马灯走过来，腰间的窑钥匙叮当作响。
“宫里要一对祭红釉的玉壶春瓶，年底之前送到京城。”程守业说，“烧不出来，这一窑的人都别想过年。”
程砚伸手摸了摸料房里的缸沿，灰很厚，底下的釉却还是红的，红得像刚凝住的血。
"""


def kiln(tmp_path: Path) -> Path:
    """Two cards; chapter 1 decided and packed with P-001 drafted, its draft checked (it passes)."""
    root = new_book(tmp_path / "窑火", WORLD,
                    (("程守业", "位置", "御窑厂"), ("程守业", "境界", "把桩师傅"), ("程守业", "持有", "窑钥匙", "--op", "+"),
                     ("程守业", "别名", "爹", "--op", "+"), ("程砚", "位置", "御窑厂"), ("程砚", "境界", "坯工")),
                    contract=("程守业说出限期", "P-001 开启：祭红釉瓶能否年底烧成"),
                    promise=("祭红釉瓶", "--类型", "悬念", "--强度", "中", "--兑付计划", "第6章开窑"))
    hand_in(root, DRAFT)
    assert "A" in lw(root)  # the checks: A passes
    return root


def test_accept_before_the_reviews_names_the_missing_lenses_in_english(tmp_path: Path) -> None:
    root = kiln(tmp_path)
    said = lw(root, "accept", ok=False, locale="en")
    assert "missing 读者 (reader), 编辑 (editor), 事实 (facts)" in said, said
    assert "、" not in said and "expected have" not in said, said
    review = tmp_path / "读者.md"
    review.write_text("可以收。开篇直入限期。\n", encoding="utf-8")
    lw(root, "review", "读者", str(review))
    said = lw(root, "accept", ok=False, locale="en")
    assert "missing 编辑 (editor), 事实 (facts)" in said and "读者 (reader)" not in said, said
    assert "缺编辑镜头、事实镜头" in lw(root, "accept", ok=False)  # the Chinese is as it was


def test_vol_commit_in_the_middle_of_a_volume_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    root = kiln(tmp_path)
    accept_chapter(root, SUMMARY)
    lw(root)  # the brief of chapter 2: volume 1 goes on
    lw(root, "card", "edit", "--合同", "程守业试烧第一窑", "--合同", "P-002 开启：督陶官的账")
    lw(root, "decide")
    lw(root)  # pack
    lw(root, "promise", "draft", "督陶官的账", "--类型", "悬念", "--强度", "中", "--兑付计划", "第4章")  # chapter 2's
    before = subjects(root)
    summary = root.parent / "卷摘要.md"
    summary.write_text("第一卷：限期。", encoding="utf-8")
    for args in (("vol", "commit", "--summary", str(summary)), ("vol",)):  # the volume does not end mid-chapter
        said = lw(root, *args, ok=False)
        assert "第 2 章的事务进行中，不能在这里结束本卷" in said and "lw story abort" in said, said
        assert "chapter 2 is in progress, the volume cannot end here" in lw(root, *args, ok=False, locale="en")
    with pytest.raises(LwError, match="第 2 章的事务进行中"):  # the model's tool: the same refusal
        tools.volume_commit(tools.VolumeCommitArgs(summary="第一卷：限期。"), {"story_root": str(root)})
    assert subjects(root) == before and not (root / L.卷摘要 / "第01卷.md").exists() and not (root / L.卷复盘).exists()
    assert any((root / L.新承诺).glob("*.md"))  # the chapter's drafted promise stays the chapter's
    lw(root, "abort")
    before = subjects(root)
    said = lw(root, "vol", "commit", "--summary", str(summary), ok=False)  # between chapters, but no review yet
    assert "没有进行中的卷复盘，vol commit 没有入册：第01卷还没结束" in said and "先 lw story vol" in said, said
    english = lw(root, "vol", "commit", "--summary", str(summary), ok=False, locale="en")
    assert "no volume review is in progress, vol commit filed nothing: 第01卷 has not ended" in english, english
    assert subjects(root) == before and not (root / L.卷摘要 / "第01卷.md").exists()
    lw(root, "vol")  # the author ends volume 1 here
    assert "已入册 vol(01)" in lw(root, "vol", "commit", "--summary", str(summary))
    assert subjects(root)[0] == "vol(01): 第01卷复盘"
