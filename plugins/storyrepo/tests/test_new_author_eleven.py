"""Stop 54's new author (U11): a 1994 广西 sugar mill (a 榨季, a dead 钳工, a 厂长 with a secret), written through
``lw story`` as an author would, and the tool's faults that hurt on the way, each with its fix:

- a draft the checks sent back could not be rejected with a reason (``reject`` said the stage was wrong and to run
  the board, which only asked for a new draft): the reason was lost for the next draft;
- a promise given a deadline already behind the book (``--兑付期限 第1章`` in chapter 3) was taken silently, and
  the board's overdue count named it at once (``promise new``, ``promise draft``, the volume's candidates, and
  settle — so the checks — for a drafted promise edited by hand);
- ``vol tick 1`` before any candidate said «没有第 1 个候选» and expected «1–0»;
- the English board listed drafts as «passed: A、B、C、G» (the kernel joined a list in the reader's way only
  when an item was itself translated; labels and ids are now joined too).
"""

from __future__ import annotations

from pathlib import Path

from lw_storyrepo import layout as L

from story_cli import hand_in, lw, new_book, subjects

WORLD = """# 世界观

## 世界规则

一九九四年，广西扶绥县的国营甘蔗糖厂。每年冬天开榨，榨季一百二十天，机器日夜不停。

## 力量体系

钳工等级由低到高：学徒、三级钳工、二级钳工、一级钳工、八级钳工。

## 地理

榨糖车间与厂部办公楼同在厂区内，相隔三百米。
"""

DRAFT = """---
标题: 开榨
视角: 韦小燕
书内时间: {when}
开启承诺:
  - P-001
一句话事件: 韦小燕进榨糖车间当学徒
在场:
  - 韦小燕
  - 韦德福
---
十一月二十日，糖厂开榨。天还没亮，厂区的大烟囱已经冒起白烟，甘蔗车一辆接一辆排到大门外。
韦小燕跟着阿爸走进榨糖车间。压榨机轰隆隆地转，地面都在抖，她得扯着嗓子说话才听得见自己。
“站到黄线外面。”韦德福把她往后拉了一把，“机器不认人，手伸进去就出不来。”
她点点头，看着阿爸蹲下去，一颗一颗地紧压榨辊下面的螺栓，每紧一颗，就用耳朵贴着机壳听一听。
"""


def sugar_mill(tmp_path: Path) -> Path:
    """Two cards and an info gap; chapter 1 decided and packed with P-001 drafted."""
    return new_book(tmp_path / "甘蔗压榨季", WORLD,
                    (("韦德福", "位置", "榨糖车间"), ("韦德福", "境界", "二级钳工"), ("韦德福", "别名", "阿爸", "--op", "+"),
                     ("韦小燕", "位置", "榨糖车间"), ("韦小燕", "境界", "学徒")),
                    contract=("韦小燕进榨糖车间", "P-001 开启：覃三是怎么死的"),
                    promise=("覃三之死", "--类型", "悬念", "--强度", "中", "--兑付计划", "第6章揭晓"))


def test_a_draft_the_checks_sent_back_can_be_rejected_with_its_reason(tmp_path: Path) -> None:
    root = sugar_mill(tmp_path)
    lw(root, "workspace", "track")
    for label in "AB":  # both sent back: chapter 1 opens no promise
        hand_in(root, DRAFT.format(when="1994年11月20日").replace("  - P-001\n", ""), label)
    board = lw(root, locale="en")  # the board's list of labels in English: «A, B», not «A、B»
    assert "(passed: none; sent back: A, B)" in board, board
    out = lw(root, "reject", "境界写错了", "--draft", "A")
    assert "打回稿" in out, out
    assert "境界写错了" in (root / L.打回记录).read_text(encoding="utf-8")
    assert not (root / L.draft_file("A")).exists() and (root / L.draft_file("B")).exists()
    assert "reject(1): 打回草稿A" in subjects(root)
    english = lw(root, "reject", "wrong rank", "--draft", "B", locale="en")
    assert "打回稿" in english, english
    hand_in(root, DRAFT.format(when="1994年11月20日"))
    assert "过：A" in lw(root)


def chapter_one(tmp_path: Path) -> Path:
    """The sugar mill with chapter 1 accepted."""
    root = sugar_mill(tmp_path)
    hand_in(root, DRAFT.format(when="1994年11月20日"))
    lw(root)  # checks: A passed
    for lens in ("读者", "编辑", "事实"):
        (root.parent / "评.md").write_text("可以收。", encoding="utf-8")
        lw(root, "review", lens, str(root.parent / "评.md"))
    lw(root, "summary", "开榨日韦小燕随父进车间当学徒。")
    lw(root, "accept")
    return root


def test_a_promise_deadline_already_behind_the_book_is_refused(tmp_path: Path) -> None:
    root = chapter_one(tmp_path)
    out = lw(root, "promise", "new", "厂长的债", "--类型", "悬念", "--强度", "高", "--兑付期限", "第1章",
             "--兑付计划", "厂长还债", ok=False)
    assert "兑付期限「第1章」（第 1 章）已经过了：新承诺最早在第 2 章兑付" in out, out
    english = lw(root, "promise", "new", "厂长的债", "--类型", "悬念", "--强度", "高", "--兑付期限", "1",
                 "--兑付计划", "厂长还债", ok=False, locale="en")
    assert "deadline «1» (chapter 1) is already past: a new promise is paid in chapter 2 at the earliest" in english
    assert "P-002" in lw(root, "promise", "new", "厂长的债", "--类型", "悬念", "--强度", "高", "--兑付期限", "第2章",
                         "--兑付计划", "厂长还债")
    lw(root)  # brief of chapter 2
    lw(root, "card", "edit", "--合同", "黄厂长来车间", "--合同", "推进 P-001：断销")
    lw(root, "decide")
    lw(root)  # pack
    out = lw(root, "promise", "draft", "旧账", "--类型", "悬念", "--强度", "高", "--兑付期限", "第1章",
             "--兑付计划", "还", ok=False)
    assert "已经过了" in out, out
    assert "P-003" in lw(root, "promise", "draft", "旧账", "--类型", "悬念", "--强度", "高", "--兑付期限", "第1卷",
                         "--兑付计划", "还")
    drafted = next((root / L.新承诺).glob("P-003-*.md"))  # the author edits the deadline by hand: settle refuses it
    drafted.write_text(drafted.read_text(encoding="utf-8").replace("兑付期限: 第1卷", "兑付期限: 第1章"), encoding="utf-8")
    hand_in(root, DRAFT.format(when="1994年11月22日").replace("标题: 开榨", "标题: 旧账").replace("P-001", "P-003"))
    lw(root)  # checks: sent back
    report = (root / L.check_report("A")).read_text(encoding="utf-8")
    assert "新承诺 P-003 的兑付期限「第1章」（第 1 章）已经过了：最早在第 2 章兑付" in report, report


def test_ticking_before_any_candidate_says_to_write_them_and_a_past_deadline_is_no_candidate(tmp_path: Path) -> None:
    root = chapter_one(tmp_path)
    lw(root, "vol")  # the author ends volume 1 here
    out = lw(root, "vol", "tick", "1", ok=False)
    assert "卷复盘还没有伏笔候选" in out and "lw story vol candidates" in out and "1–0" not in out, out
    english = lw(root, "vol", "tick", "1", ok=False, locale="en")
    assert "has no foreshadowing candidates yet" in english, english
    lw(root, "outline", "set", "总纲", "结局承诺", "榨季最后一天，黄厂长认下覃三的死。")
    node = "总纲：榨季最后一天，黄厂长认下覃三的死。"
    out = lw(root, "vol", "candidates", "--candidate", f"旧账｜悬念｜高｜第1章｜认账｜{node}",
             "--candidate", f"停机｜悬念｜中｜第3卷｜停机｜{node}", "--candidate", f"大会｜冲突｜中｜第3卷｜认账｜{node}",
             ok=False)
    assert "已经过了" in out, out
