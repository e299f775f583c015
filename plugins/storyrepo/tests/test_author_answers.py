"""What an author reads in a check report and from the CLI (brief X47), through ``lw story``:

- each finding stands where its offending words are (line and column in the draft file);
- a 状态, 持有 or named-speaker 泄密 finding names the answers the author has, and they are true:
  the 设定变更 lines it names clear it;
- the 结转 finding and ``decide`` tell the truth about the exemption tick (before ``decide`` only);
- ``check --json`` gives each draft's verdict, and a second ``check`` says to submit a new draft;
- a wrong promise type is told apart from a wrong strength, ``fix`` says its commit's subject,
  ``query`` names its fields in the reader's language;
- the board, after a hand edit of an accepted chapter, names the retcon that takes it, not a
  ``fix`` that would refuse it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from lw_storyrepo import layout as L
from lw_storyrepo import verdict
from lw_storyrepo.answers import ANSWER_MARK, answered
from lw_storyrepo.findings import ERROR, Finding, Subject
from lw_storyrepo.repo import StoryRepo
from lw_storyrepo.samples import to_reviewed

from story_cli import hand_in, lw

DRAFT = """---
标题: 夜
视角: 林晚
书内时间: {when}
{moves}一句话事件: 林晚在青石镇过夜
在场:
  - 林晚
  - 周伯
  - 苏婉
{changes}---

林晚在青石镇的客栈里过夜，窗外的雨下了整整一夜，她想着心事，久久没有睡着，灯花落了又落。
周伯推门进来，说道：“你别怕，我来看看你。”
苏婉站在门边，没有说话，看着林晚拔出青霜剑，在灯下细细擦拭，剑光映着她的脸。
苏婉道：“那封血书是师父所写，我早就知道了。”
店里的伙计说起，那个叫石敢当的汉子昨夜醉酒失足，摔进了河里。
"""
ANSWERS = "设定变更:\n  - 周伯.状态=在世\n  - 林晚.持有+青霜剑\n  - S-001.知情人+苏婉\n"


def new_book(tmp_path: Path, contract: str = "林晚在青石镇过夜") -> tuple[Path, str]:
    """A book with a dead 周伯, 苏婉 holding 青霜剑 and an info gap only 林晚 knows; chapter 1
    decided on ``contract`` and packed. Returns the book and what ``decide`` said."""
    root = tmp_path / "书"
    lw(root, "init", str(root), "--书名", "书", "--类型", "玄幻", "--每章目标字数", "200")
    for who in ("林晚", "周伯", "苏婉"):
        lw(root, "character", "set", who, "位置", "青石镇")
    lw(root, "character", "set", "周伯", "状态", "已故")
    lw(root, "character", "set", "苏婉", "持有", "青霜剑", "--op", "+")
    lw(root, "secret", "new", "血书", "--关键词", "血书", "--关键词", "师父所写", "--知情人", "林晚", "--内容", "血书是师父写的")
    lw(root)  # brief
    lw(root, "card", "edit", "--合同", contract)
    decided = lw(root, "decide")
    lw(root)  # pack
    return root, decided


def submit(root: Path, *, when: str = "大历元年春", moves: str = "", changes: str = "", check: bool = True) -> str:
    hand_in(root, DRAFT.format(when=when, moves=moves, changes=changes))
    return lw(root, "check") if check else ""


def findings(root: Path) -> list[dict]:
    return json.loads(lw(root, "check", "--json"))["A"]


def draft_lines(root: Path) -> list[str]:
    return (root / L.draft_file("A")).read_text(encoding="utf-8").split("\n")


def where(lines: list[str], words: str, after: str = "") -> tuple[int, int]:
    """(line, column), 1-based, of ``words`` on the first draft line holding ``after`` and them."""
    i = next(i for i, line in enumerate(lines) if words in line and after in line)
    return i + 1, lines[i].index(words, lines[i].index(after) if after else 0) + 1


def test_findings_stand_where_their_words_are(tmp_path: Path) -> None:
    root, _ = new_book(tmp_path)
    submit(root, moves="开启承诺: []\n", check=False)
    lines = draft_lines(root)
    found = findings(root)
    at = {(f["kind"], f["message"][:4]): (f["line"], f["column"]) for f in found}
    assert at[("新专名", "新专名「")] == where(lines, "石敢当"), found
    held = next(f for f in found if "的持有里没有「青霜剑」" in f["message"])
    assert (held["line"], held["column"]) == where(lines, "青霜剑", "林晚拔出"), held
    length = next(f for f in found if f["kind"] == "字数")
    assert (length["line"], length["column"]) == where(lines, "林晚在青石镇的客栈"), length  # the prose, not the blank line
    moved = next(f for f in found if f["kind"] == "结转")
    assert (moved["line"], moved["column"]) == where(lines, "开启承诺:"), moved  # the empty key, not line 1


def test_each_finding_names_an_answer_the_author_has_and_it_is_true(tmp_path: Path) -> None:
    root, _ = new_book(tmp_path)
    submit(root, check=False)
    answered = [f for f in findings(root) if f["kind"] in ("连贯", "泄密")]
    assert len(answered) == 3 and all("；答：" in f["message"] for f in answered), answered
    report = (root / L.check_report("A")).read_text(encoding="utf-8")
    assert "设定变更写「周伯.状态=…」" in report and "lw story character set 周伯 状态" in report, report
    assert "设定变更写「林晚.持有+青霜剑」" in report and "lw story character set 林晚 持有 青霜剑 --op +" in report, report
    assert "设定变更写「S-001.知情人+苏婉」" in report and "lw story secret tell S-001 苏婉" in report, report
    # the answers are true: the 设定变更 lines they name clear the findings
    submit(root, changes=ANSWERS, check=False)
    left = [f["message"] for f in findings(root) if f["kind"] in ("连贯", "泄密")]
    assert not left, left
    assert "；答：" not in (root / L.check_report("A")).read_text(encoding="utf-8")


def test_an_answer_is_made_from_what_the_finding_is_about_not_from_its_words() -> None:
    reworded = [Finding("连贯", ERROR, "已故的周伯开口了", 3, subject=Subject("状态", "周伯")),
                Finding("连贯", ERROR, "林晚手里本没有那把剑", 4, subject=Subject("持有", "林晚", "青霜剑")),
                Finding("泄密", ERROR, "苏婉说出了血书的来历", 5, subject=Subject("知情人", "苏婉", "S-001"))]
    out = answered(reworded)
    assert [f.message.split(ANSWER_MARK)[0] for f in out] == [f.message for f in reworded], out
    assert "设定变更写「周伯.状态=…」" in out[0].message and "lw story character set 周伯 状态" in out[0].message
    assert "设定变更写「林晚.持有+青霜剑」" in out[1].message and "character set 林晚 持有 青霜剑 --op +" in out[1].message
    assert "设定变更写「S-001.知情人+苏婉」" in out[2].message and "lw story secret tell S-001 苏婉" in out[2].message
    assert [f.subject for f in out] == [f.subject for f in reworded]  # an answered finding keeps what it is about
    assert answered(out) == out  # and is not answered twice
    # the words the checks use, without the data: no answer is read back out of them
    bare = [Finding("连贯", ERROR, "周伯 的状态是「已故」（角色卡·状态），正文里却在说话或想事", 3),
            Finding("连贯", ERROR, "林晚 的持有里没有「青霜剑」（角色卡·持有：无），正文却写林晚用它", 4),
            Finding("泄密", ERROR, "苏婉 不是 S-001 的知情人，却说出/想到了「血书」", 5)]
    assert answered(bare) == bare


def test_the_advice_on_a_chapter_moving_no_promise_is_true(tmp_path: Path) -> None:
    root, decided = new_book(tmp_path)
    assert "豁免只在 decide 之前勾选才算" in decided, decided
    report = submit(root)
    assert "现在勾不算" in report and "豁免须作者在决策卡勾选" not in report, report
    # a tick made after decide is indeed not read: the finding stays
    card = root / L.决策卡
    card.write_text(card.read_text(encoding="utf-8").replace("- [ ] 本章豁免承诺结转（理由：）",
                                                             "- [x] 本章豁免承诺结转（理由：纯番外）"), encoding="utf-8")
    submit(root, check=False)
    assert [f for f in findings(root) if f["kind"] == "结转"]
    same = lw(root, "amend", "--原因", "豁免", "--合同", "林晚在青石镇过夜", ok=False)
    assert "没有改动" in same and "开启/推进/兑付承诺里写上它的编号" in same, same
    # a contract naming a promise draws no warning
    _root, quiet = new_book(tmp_path / "二", contract="P-001 开启：血书之谜")
    assert "豁免只在 decide 之前" not in quiet, quiet


def test_check_gives_each_drafts_verdict_and_says_to_submit_again(tmp_path: Path) -> None:
    root, _ = new_book(tmp_path)
    submit(root, check=False)
    out = json.loads(lw(root, "check", "--json"))
    assert out["verdicts"] == {"A": {"verdict": "sent-back", "errors": 4, "hints": 2}}, out["verdicts"]
    assert isinstance(out["A"], list)  # the findings stay under the draft's label
    again = lw(root, "check", ok=False)
    assert "没有待检的新稿" in again and "lw story draft A 文件" in again, again
    submit(root, check=False)
    text = lw(root)  # the board runs the checks and names the verdicts too
    assert "打回：A" in text, text


def test_promise_type_fix_subject_and_query_keys(tmp_path: Path) -> None:
    root, _ = new_book(tmp_path)
    args = ("promise", "draft", "血书之谜", "--兑付计划", "第三章揭晓", "--兑付期限", "第5章")
    bad_type = lw(root, *args, "--类型", "悬疑", "--强度", "高", ok=False)
    assert "类型「悬疑」不对" in bad_type and "强度「高」" not in bad_type, bad_type
    bad_strength = lw(root, *args, "--类型", "悬念", "--强度", "极高", ok=False)
    assert "强度「极高」不对" in bad_strength and "类型「悬念」" not in bad_strength, bad_strength
    lw(root, "promise", "new", "旧账", "--类型", "悬念", "--强度", "中", "--兑付计划", "第九章")
    (root / "book.yaml").write_text((root / "book.yaml").read_text(encoding="utf-8").replace("每章目标字数: 200", "每章目标字数: 180"),
                                    encoding="utf-8")
    fixed = lw(root, "fix").strip()
    assert re.fullmatch(r"fix\([^)]+\): .+", fixed), fixed  # the subject, not a bare hash
    zh = lw(root, "query", "promises")
    assert "编号=P-001" in zh and "短题=旧账" in zh and "id=" not in zh, zh
    en = lw(root, "query", "promises", locale="en")
    assert "id=P-001" in en and "title=旧账" in en, en


def test_the_time_finding_stands_on_the_drafts_time(tmp_path: Path) -> None:
    root, _ = new_book(tmp_path, contract="P-001 开启")
    lw(root, "promise", "draft", "血书之谜", "--类型", "悬念", "--强度", "中", "--兑付计划", "第三章揭晓")
    out = submit(root, when="大历三年五月", moves="开启承诺:\n  - P-001\n", changes=ANSWERS)
    assert "结论：通过" in out, out
    for lens in ("读者", "编辑", "事实"):
        path = root.parent / f"{lens}.md"
        path.write_text(f"{lens}：可以。\n", encoding="utf-8")
        lw(root, "review", lens, str(path))
    lw(root, "summary", "林晚在青石镇过夜。")
    assert "已结转" in lw(root, "accept")
    lw(root)  # brief of chapter 2
    lw(root, "card", "edit", "--合同", "推进 P-001")
    lw(root, "decide")
    lw(root)  # pack
    submit(root, when="大历三年二月", moves="推进承诺:\n  - P-001\n", check=False)
    time = next(f for f in findings(root) if "时间倒流" in f["message"])
    assert (time["line"], time["column"]) == where(draft_lines(root), "书内时间:"), time
    assert "倒叙: true" in time["message"]


CH1 = "定稿/正文/0001-北境的雪.md"


def _settled(book: StoryRepo) -> Path:
    to_reviewed(book)
    verdict.accept(book)
    return book.root


def test_the_board_names_the_retcon_a_hand_edited_chapter_needs(book: StoryRepo) -> None:
    root = _settled(book)
    chapter = root / CH1
    chapter.write_text(chapter.read_text(encoding="utf-8").replace("林晚踏入北境雪原，风雪扑面。", "林晚踏入北境雪原，风雪扑面，天地间白茫茫的一片。"),
                       encoding="utf-8")
    for locale, says, never in (("zh", "lw story retcon 1 --原因", "结转：lw story fix"),
                                ("en", "lw story retcon 1 --reason", "suggested: fix(")):
        board = lw(root, locale=locale)
        assert says in board and never not in board, board
    lw(root, "fix", ok=False)  # what the board no longer suggests: fix refuses an accepted chapter
    lw(root, "retcon", "1", "--原因", "多写一句雪", "--摘要", "林晚抵达北境雪原，得到灭门血书，遇见神秘老者。", "-y")


def test_a_length_error_says_the_bounds_that_made_it_one(tmp_path: Path) -> None:
    root, _ = new_book(tmp_path)  # 每章目标字数 200
    path = root.parent / "草稿.md"
    path.write_text(DRAFT.format(when="大历元年春", moves="", changes="").split("林晚在青石镇的客栈")[0] + "林晚睡了。\n",
                    encoding="utf-8")
    lw(root, "draft", "A", str(path))
    length = next(f["message"] for f in findings(root) if f["kind"] == "字数")
    assert length == "字数 5，目标 200（差距过大：须在 100–400 字之间，即目标的一半到两倍）", length
