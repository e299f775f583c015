"""Stop 57's new author (U14): a 1943 caravan (马帮) on the 滇藏 tea-horse road (a 大锅头 who dies at the 溜索 over
the 澜沧江 and hands his 令旗 on, a young 二锅头 who gives his late father's 铜铃 away, a 副官 with gold hidden in the
seventh load), written through ``lw story`` as an author would, and the tool's faults that hurt on the way, each with
its fix:

- a ``kill -9`` while a command rewrote ``工作区/事务.yaml`` (the kernel's atomic write: a temp file, then a rename)
  left its temp file, ``工作区/.事务.yaml.wa4izuwb.tmp``, in the workspace; no command removed it, and in a tracked
  workspace the next settle archived it into the book's history as if it were a draft (``draft(N)`` listed it among
  its 文件). A killed write's temp file is now left out of every archive, and the settle or abort that empties the
  workspace still deletes it;
- ``lw story vol candidates --help`` named the six parts of a candidate but not the values its 类型 and 强度 take: an
  author who wrote 情感 learnt them only from the refusal (``promise draft --help`` lists them). The help lists them.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from lw_storyrepo import layout as L

from story_cli import hand_in, lw, new_book, subjects

WORLD = """# 世界观

## 世界规则

民国三十二年，滇藏茶马古道。马帮从丽江大研镇出发，经中甸、德钦，溜索过澜沧江到盐井。

## 力量体系

赶马人 < 二锅头 < 锅头 < 大锅头
"""

DRAFT = """---
标题: 驮铃
视角: 和远山
书内时间: 民国三十二年三月初六
开启承诺:
  - P-001
一句话事件: 马帮离开丽江
在场:
  - 和远山
  - 木占鳌
---
鸡叫头遍，和远山把最后一捆茶砖塞进驮架，用牛皮绳勒紧。头骡站在一旁，脖子上的铜铃一动也不动。
木占鳌从堂屋里走出来，背着手，旱烟杆插在腰带上。“第七驮捆紧些，路上不许拆。”他说。
和远山回头看了一眼，第七驮的驮子比别的都捆得紧，外面裹了两层油布，像是怕雨，又像是怕人。
四十二匹骡马一齐动起来。铜铃响了，叮当，叮当，一声比一声远。
"""

DEBRIS = ".事务.yaml.wa4izuwb.tmp"
"""What a kill between the kernel's temp write of 事务.yaml and its rename leaves in the workspace (the name seen)."""


def caravan(tmp_path: Path) -> Path:
    """Two cards, the workspace tracked; chapter 1 decided and packed with P-001 drafted, its draft checked (it
    passes)."""
    root = new_book(tmp_path / "驮铃", WORLD,
                    (("和远山", "位置", "丽江大研镇"), ("和远山", "境界", "赶马人"),
                     ("木占鳌", "位置", "丽江大研镇"), ("木占鳌", "境界", "大锅头")),
                    extra=(("workspace", "track"),),
                    contract=("木占鳌叮嘱第七驮不许拆", "P-001 开启：第七驮里装的是什么"),
                    promise=("第七驮", "--类型", "悬念", "--强度", "中", "--兑付计划", "第5章揭晓"))
    hand_in(root, DRAFT)
    assert "过：A" in lw(root), lw(root)  # the checks: A passes
    return root


def archived(root: Path, subject: str) -> str:
    """The 文件 line and the file list of the newest commit whose subject starts with ``subject``."""
    commit = subprocess.run(["git", "log", "--format=%H", f"--grep=^{subject}"], cwd=root, capture_output=True,
                            text=True, check=True).stdout.split()[0]
    return subprocess.run(["git", "show", "--name-only", "--format=%B", commit], cwd=root, capture_output=True,
                          text=True, check=True).stdout


def test_a_killed_writes_temp_file_is_deleted_by_the_settle_and_never_archived(tmp_path: Path) -> None:
    root = caravan(tmp_path)
    for lens in ("读者", "编辑", "事实"):
        (tmp_path / "评.md").write_text("可以收。第七驮是钩子。", encoding="utf-8")
        lw(root, "review", lens, str(tmp_path / "评.md"))
    lw(root, "summary", "马帮离开丽江，木占鳌叮嘱第七驮不许拆。")
    (root / L.工作区 / DEBRIS).write_text("章号: 1\n阶段: accepted\n", encoding="utf-8")  # the kill's leftover
    assert "已结转" in lw(root, "accept")
    assert subjects(root)[:2] == ["ch(1): 驮铃", "draft(1): 第1章的草稿与评审存档"]
    kept = archived(root, "draft(1)")
    assert "草稿-A.md" in kept and "事务.yaml" in kept and DEBRIS not in kept, kept  # the drafts kept, not the debris
    assert DEBRIS not in archived(root, "ch(1)")
    assert not (root / L.工作区 / DEBRIS).exists()
    status = subprocess.run(["git", "status", "--porcelain"], cwd=root, capture_output=True, text=True, check=True)
    assert status.stdout == "", status.stdout  # the book is clean: nothing of the kill is left to commit


def test_a_killed_writes_temp_file_is_not_archived_by_abort_either(tmp_path: Path) -> None:
    root = caravan(tmp_path)
    (root / L.工作区 / DEBRIS).write_text("章号: 1\n阶段: checked\n", encoding="utf-8")
    lw(root, "abort")
    assert subjects(root)[:2] == ["abort(1): 放弃第1章的事务，清空工作区", "draft(1): 第1章的草稿与评审存档（放弃）"]
    kept = archived(root, "draft(1)")
    assert "草稿-A.md" in kept and DEBRIS not in kept, kept
    assert not (root / L.工作区 / DEBRIS).exists()


def test_a_workspace_file_named_like_a_temp_but_not_one_is_archived(tmp_path: Path) -> None:
    root = caravan(tmp_path)
    for name in (".事务.yaml.tmp", "草稿.wa4izuwb.tmp.md"):  # no eight-character stem, or not ending .tmp: the author's
        (root / L.工作区 / name).write_text("作者自己的笔记", encoding="utf-8")
    lw(root, "abort")
    kept = archived(root, "draft(1)")
    assert ".事务.yaml.tmp" in kept and "草稿.wa4izuwb.tmp.md" in kept, kept


def test_vol_candidates_help_names_the_types_and_strengths(tmp_path: Path) -> None:
    root = caravan(tmp_path)
    said = "".join(lw(root, "vol", "candidates", "--help").split())  # click wraps the help: read it unwrapped
    assert "类型：伏笔/悬念/冲突/关系线/立旗/爽点铺垫" in said and "强度：高/中/低" in said, said
    english = " ".join(lw(root, "vol", "candidates", "--help", locale="en").split())
    assert "«爽点铺垫»" in english and "the strength «高», «中» or «低»" in english, english
