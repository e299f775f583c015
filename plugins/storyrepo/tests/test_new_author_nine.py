"""What a ninth new author met writing a 1963 青海 剪毛队 book through ``lw story`` (helper U9, stop 52; the cases
are in /work/notes/u9/cases.md), mended and held here through the CLI:

- a rank written lower than the card with no demotion (二舅如今不过是个组长, card 队长) was caught, but its finding stood
  at the sentence's start and carried no 「；答：」 answers — the demotion finding of the rank reader was made with no
  subject: it now stands at the rank and ends with the card field's answers, like every other 境界 finding;
- ``card edit`` run before the board wrote the next card said only 「只有在 brief 阶段…才能改决策卡」, with no chapter in
  progress at all; after ``decide`` the same words never named ``amend``: the first now says to run the brief, the
  second names ``amend`` (zh and en);
- a settle killed between a file's temp write and its rename was rolled back by the next command, but the temp file
  (``.时间线.md.lw-tmp``) stayed in the book and the board proposed committing it as the author's hand edit: a
  recovery now removes the temp files of the journal's paths.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from lw_storyrepo import atomic, layout as L

from story_cli import hand_in, lw, new_book

LW = str(Path(sys.executable).with_name("lw"))

WORLD = """# 世界观

## 世界规则

一九六三年的青海湖北岸，刚察县的人民公社组了一支剪毛队，每年六月到各个牧业队剪羊毛。

## 力量体系

剪毛队里的位分：学徒工 < 剪毛手 < 组长 < 队长。
"""

DRAFT = """---
标题: 哈尔盖的秤
视角: 韩秀兰
书内时间: 一九六三年六月初二
开启承诺:
  - P-001
一句话事件: 韩秀兰随剪毛队到哈尔盖
在场:
  - 韩秀兰
  - 马德贵
---
　　六月初二一早，韩秀兰把大剪子用油布包好，跟着二舅上了去哈尔盖的马车，一路上颠得骨头都要散了。
　　{line}
　　傍晚过秤，她记得自己那一垛少说有四十斤，秤杆上却只报了三十二斤。她看了二舅一眼，二舅低头卷烟，什么也没说。
"""


def brigade(tmp_path: Path, *, decided: bool = True) -> Path:
    """The book as the author set it up: the ladder in 世界观.md, 马德贵 a 队长 called 二舅; chapter 1's card
    written (and, when ``decided``, decided and packed with P-001 drafted)."""
    return new_book(tmp_path / "草原剪毛队", WORLD,
                    (("韩秀兰", "位置", "刚察"), ("韩秀兰", "境界", "剪毛手"), ("马德贵", "位置", "刚察"),
                     ("马德贵", "境界", "队长"), ("马德贵", "别名", "二舅", "--op", "+")),
                    contract=("韩秀兰跟着二舅去哈尔盖", "P-001 开启：秤上少了的羊毛") if decided else (),
                    promise=("少了的羊毛", "--类型", "悬念", "--强度", "中", "--兑付计划", "第5章揭晓") if decided else ())


def test_a_demotion_finding_stands_at_the_rank_and_ends_with_its_answers(tmp_path: Path) -> None:
    root = brigade(tmp_path)
    hand_in(root, DRAFT.format(line="说起来，二舅如今不过是个组长，队里的事早轮不到他一个人拍板，可那杆秤还是他说了算。"))
    found = [f for f in json.loads(lw(root, "check", "--json"))["A"] if "境界" in str(f["message"])]
    assert len(found) == 1, found
    message = str(found[0]["message"])
    assert "马德贵 的境界是「队长」" in message and "更低的「组长」" in message, message
    assert "；答：" in message and "lw story character set 马德贵 境界 组长" in message, message
    assert "设定变更写「马德贵.境界=组长」" in message and message.count("马德贵.境界=组长") == 1, message
    row = (root / L.draft_file("A")).read_text(encoding="utf-8").split("\n")[int(found[0]["line"]) - 1]
    assert row[int(found[0]["column"]) - 1:].startswith("组长"), (found[0], row)
    report = (root / L.check_report("A")).read_text(encoding="utf-8")
    assert f"第 {found[0]['line']} 行第 {found[0]['column']} 列" in report, report


def test_card_edit_before_the_brief_says_to_run_it_and_after_decide_names_amend(tmp_path: Path) -> None:
    root = brigade(tmp_path, decided=False)
    (root / L.事务).unlink()  # as after an accept: no chapter in progress, the board has not written the next card
    for locale, words in (("zh", "先运行 lw story brief"), ("en", "run lw story brief first")):
        out = lw(root, "card", "edit", "--合同", "韩秀兰去问过秤的事", ok=False, locale=locale)
        assert words in out, out
    lw(root)  # the board writes the card: now it can be edited
    lw(root, "card", "edit", "--合同", "韩秀兰去问过秤的事", "--合同", "P-001 开启：秤上少了的羊毛")
    lw(root, "decide")
    out = lw(root, "card", "edit", "--合同", "韩秀兰去公社", ok=False)
    assert "只有在 brief 阶段" in out and "lw story amend --原因 … --合同 …" in out, out
    english = lw(root, "card", "edit", "--合同", "韩秀兰去公社", ok=False, locale="en")
    assert "lw story amend --reason … --contract …" in english, english


def _accept_killed_at(tmp_path: Path, step: str) -> Path:
    """The chapter passed, reviewed and summarised, then ``lw story accept`` killed at the fault point ``step``."""
    root = brigade(tmp_path)
    hand_in(root, DRAFT.format(line="她剪了一上午，手腕酸得抬不起来，河湾里三千多只羊挤成一片灰白，风里全是羊膻味。"))
    lw(root)  # checks: A passed
    for lens in ("读者", "编辑", "事实"):
        review = root.parent / f"{lens}.md"
        review.write_text("通过。开局清楚。\n", encoding="utf-8")
        lw(root, "review", lens, str(review))
    lw(root, "summary", "韩秀兰随二舅的剪毛队到哈尔盖，傍晚过秤少了八斤。")
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES")}
    here = str(Path(atomic.__file__).resolve().parents[1])  # the code under test, whatever PYTHONPATH says
    env.update({"LANG": "zh_CN.UTF-8", "LW_STORY_FAULT": f"{step}@kill",
                "PYTHONPATH": os.pathsep.join([here, *filter(None, [env.get("PYTHONPATH")])])})
    proc = subprocess.run([LW, "story", "accept"], cwd=root, capture_output=True, env=env, timeout=120)
    assert proc.returncode != 0, proc.stdout.decode("utf-8", "replace")
    return root


def test_a_settle_killed_between_a_temp_write_and_its_rename_leaves_no_temp_file(tmp_path: Path) -> None:
    root = _accept_killed_at(tmp_path, "temp-written")
    assert list(root.rglob("*.lw-tmp")), "the kill should leave the temp file it cut short"
    board = lw(root)
    assert "上次中断的结转已回滚" in board and "fix(" not in board, board
    assert not list(root.rglob("*.lw-tmp"))
    assert "结转" in board and "lw story settle" in board, board
    assert lw(root, "settle").startswith("已结转")


def test_a_recovery_that_finishes_a_settle_removes_the_temp_files_too(tmp_path: Path) -> None:
    """R52: killed after the commit, the settle is finished by the next start — and a temp file a killed write left
    beside one of the journal's paths is removed on that path as on the rollback's."""
    root = _accept_killed_at(tmp_path, "committed")
    journal = json.loads((root / ".git" / atomic.JOURNAL_DIR / "journal.json").read_text(encoding="utf-8"))
    left = atomic.temp_of(root / journal["entries"][0]["path"])
    left.write_bytes(b"cut short")  # as a write killed between its temp and its rename leaves it
    assert atomic.recover(root) == "finished"
    assert not left.exists() and not list(root.rglob("*.lw-tmp"))
