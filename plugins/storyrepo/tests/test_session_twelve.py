"""Twelve chapters from a fresh book through the real ``lw story`` executable, one process per
command, as an author and a model would run it: two drafts the author rejects, one the checks
send back (a continuity error), an exempted chapter, a volume ended and reviewed, a contract
amended, a settle killed half-way (a real SIGKILL, sent by the fault hook of ``faults.py``; the
next command rolls it back, the accept is repeated), a retcon of a settled chapter with its
summary. The git log then reads as spec §8 says.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from lw_storyrepo import layout as L
from lw_storyrepo.repo import StoryRepo

LW = str(Path(sys.executable).with_name("lw"))
BODY = ("林晚踏雪而行，风从山口灌进来，{x}。她没有回头，只把青霜剑握得更紧了些，脚印很快被新雪盖住。"
        "远处的灯火一明一灭，她想起很多年前的冬天，也是这样的雪。")


class Author:
    """Runs ``lw story …`` in the book, a new process each time."""

    def __init__(self, root: Path, tmp: Path) -> None:
        self.root, self.tmp = root, tmp
        self.env = {k: v for k, v in os.environ.items() if k not in ("LW_STORY_FAULT", "LC_ALL", "LC_MESSAGES")}
        self.env.update({"LANG": "zh_CN.UTF-8", "LW_STORY_DATE": "2026-01-01T00:00:00+0000"})

    def run(self, *args: str, fault: str | None = None, ok: bool = True) -> subprocess.CompletedProcess[str]:
        env = dict(self.env, **({"LW_STORY_FAULT": fault} if fault else {}))
        cwd = self.root if self.root.exists() else self.tmp
        proc = subprocess.run([LW, "story", *args], cwd=cwd, env=env, capture_output=True, timeout=300)
        out = subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode("utf-8", "replace"),
                                          proc.stderr.decode("utf-8", "replace"))
        if ok:
            assert out.returncode == 0, (args, out.stdout, out.stderr)
        return out

    def __call__(self, *args: str) -> str:
        return self.run(*args).stdout

    def file(self, name: str, text: str) -> str:
        path = self.tmp / name
        path.write_text(text, encoding="utf-8")
        return str(path)


def draft(n: int, title: str, moves: str, body: str, extra: str = "") -> str:
    return (f"---\n标题: {title}\n视角: 林晚\n书内时间: 大历1023年冬月{n + 1:02d}日\n{moves}{extra}一句话事件: {title}\n"
            f"在场:\n  - 林晚\n---\n{body}\n")


ADVANCE = "推进承诺:\n  - P-001\n推进说明:\n  - P-001：{note}\n"


def review_and_accept(author: Author, n: int, title: str, *, fault: str | None = None) -> None:
    for lens in ("读者", "编辑", "事实"):
        author("review", lens, author.file("评审.md", f"{lens}：第{n}章可以。"))
    author("summary", f"第{n}章：{title}。")
    if fault:
        killed = author.run("accept", fault=fault, ok=False)
        assert killed.returncode == -signal.SIGKILL, killed.stderr
        assert (author.root / ".git" / "lw-txn" / "journal.json").is_file()  # killed mid-settle: half-applied
        return
    assert "已结转" in author("accept")


def chapter(author: Author, n: int, title: str, *, contract: list[str] | None = None, moves: str | None = None,
            body: str | None = None, reject: str | None = None, sent_back: str | None = None, exempt: str | None = None,
            volume_end: bool = False, extra: str = "", fault: str | None = None,
            new_promise: tuple[str, ...] | None = None) -> None:
    out = author()
    assert f"新章 brief：第 {n} 章" in out, out
    contract = contract or [f"P-001 推进：{title}"]
    author("card", "edit", "--提案", f"第{n}章：{title}", *sum((["--合同", c] for c in contract), []))
    card = author.root / L.决策卡
    if exempt:
        card.write_text(card.read_text(encoding="utf-8").replace("- [ ] 本章豁免承诺结转（理由：）",
                                                                f"- [x] 本章豁免承诺结转（理由：{exempt}）"), encoding="utf-8")
    if volume_end:
        card.write_text(card.read_text(encoding="utf-8").replace("- [ ] 本章为卷末章", "- [x] 本章为卷末章"), encoding="utf-8")
    author("decide")
    assert "已组装上下文包" in author()
    if new_promise:
        author("promise", "draft", *new_promise)
    moves = ADVANCE.format(note=title) if moves is None else moves
    body = body or BODY.format(x=f"{title}的夜很长")
    label = "A"
    if sent_back:  # a draft the checks send back: the board names it, and only it
        author("draft", "A", author.file(f"{n}-A.md", draft(n, title, moves, sent_back, extra)))
        out = author()
        assert "打回：A" in out and "草稿 A 没过机检" in out, out
        report = (author.root / L.check_report("A")).read_text(encoding="utf-8")
        assert "林晚 的持有里没有「玄阶令牌」（角色卡·持有：青霜剑）（它在大长老的持有里）" in report, report
        label = "B"
    if reject:  # a draft that passes; the author still says no
        author("draft", label, author.file(f"{n}-{label}.md", draft(n, title, moves, body.replace("。", "，天很冷。", 1), extra)))
        out = author()
        assert f"已机检（过：{label}；" in out and f"草稿 {label} 没过" not in out, out
        for lens in ("读者", "编辑", "事实"):
            author("review", lens, author.file("评审.md", f"{lens}：平平。"))
        author("reject", reject)
        label = chr(ord(label) + 1)
    author("draft", label, author.file(f"{n}-{label}.md", draft(n, title, moves, body, extra)))
    out = author()
    if sent_back:  # the draft the checks sent back is still there, and still named, alone
        assert f"已机检（过：{label}；打回：A）" in out and "草稿 A 没过机检" in out and f"草稿 {label} 没过" not in out, out
    else:
        assert f"已机检（过：{label}；打回：无）" in out and "没过机检" not in out, out
    review_and_accept(author, n, title, fault=fault)


def test_twelve_chapters_from_a_fresh_book_through_lw_story(tmp_path: Path) -> None:
    root = tmp_path / "书架" / "雪夜行"
    author = Author(root, tmp_path)
    author("init", str(root), "--书名", "雪夜行", "--类型", "玄幻", "--每章目标字数", "60", "--卷规模", "6")
    author("character", "set", "林晚", "位置", "青云宗")
    author("character", "set", "林晚", "持有", "青霜剑", "--op", "+")
    author("character", "set", "大长老", "持有", "玄阶令牌", "--op", "+")
    author("secret", "new", "灭门真凶", "--关键词", "灭门", "--关键词", "血书", "--知情人", "大长老", "--内容", "真凶是大长老。")
    author("promise", "new", "灭门真凶", "--类型", "悬念", "--强度", "高", "--兑付计划", "第二卷揭穿", "--兑付期限", "第2卷")
    author("style", "add", "禁词", "眸子一缩", "--出处", "作者开书时定")

    chapter(author, 1, "雪夜")
    chapter(author, 2, "山口", reject="开头太慢")
    chapter(author, 3, "古井", sent_back="林晚拔出玄阶令牌，令牌在雪里发亮。" + BODY.format(x="古井无波"))
    chapter(author, 4, "番外·旧梦", contract=["林晚梦见母亲"], moves="", exempt="纯番外")
    chapter(author, 5, "来客", contract=["P-001 推进：来客", "开新承诺：来客身份"],
            moves="开启承诺:\n  - P-002\n" + ADVANCE.format(note="来客"),
            new_promise=("来客身份", "--类型", "悬念", "--强度", "中", "--兑付计划", "第二卷揭晓"))
    chapter(author, 6, "卷终", reject="开头太慢", volume_end=True)
    out = author()
    assert "第01卷刚结束：卷复盘" in out, out
    author("outline", "set", "总纲", "结局承诺", "- 第七卷宗门大会\n- 真凶伏诛")
    author("vol", "candidates", "--候选", "血书残页｜伏笔｜中｜无期限｜第二卷呈堂｜总纲：第七卷宗门大会",
           "--候选", "旧剑｜伏笔｜低｜无期限｜卷二拔剑｜总纲：真凶伏诛", "--候选", "雪中足迹｜悬念｜低｜无期限｜下卷追查｜总纲：第七卷宗门大会")
    author("vol", "tick", "1")
    author("vol", "commit", "--summary", author.file("卷摘要.md", "第一卷：林晚踏雪北上。"))
    # chapter 7: the settle is killed half-way; the next command (a query) rolls it back first
    before = (root / L.时间线).read_bytes()
    chapter(author, 7, "北上", fault="write:5@kill")
    query = author.run("query", "chapters")
    assert "上次中断的结转已回滚" in query.stdout + query.stderr and "北上" not in query.stdout
    assert (root / L.时间线).read_bytes() == before and not (root / ".git" / "lw-txn").exists()
    assert "已结转" in author("accept")  # the author accepts again: the chapter settles whole
    chapter(author, 8, "夜探", reject="开头太慢")
    # the author amends chapter 9's frozen contract instead of aborting it
    out = author()
    assert "新章 brief：第 9 章" in out
    author("card", "edit", "--合同", "P-001 推进：对峙", "--合同", "P-002 兑付：来客身份")
    author("decide")
    author()
    author("draft", "A", author.file("9-A.md", draft(9, "对峙", ADVANCE.format(note="对峙"), BODY.format(x="对峙无言"))))
    assert "打回：A" in author()
    author("amend", "--原因", "来客身份留到下一卷", "--合同", "P-001 推进：对峙")
    assert "已机检（过：A；打回：无）" in author()
    review_and_accept(author, 9, "对峙")
    for n, title in ((10, "血书"), (11, "雪停"), (12, "启程")):
        chapter(author, n, title)
    # a retcon of chapter 10's prose: its summary follows
    path = next((root / L.正文).glob("0010-*.md"))
    path.write_text(path.read_text(encoding="utf-8").replace("她想起很多年前的冬天，也是这样的雪。",
                                                             "远处的灯火忽然全灭了，血书上的字却亮了起来。"), encoding="utf-8")
    refused = author.run("retcon", "10", "--原因", "灯灭", "-y", ok=False)
    assert "章摘要也要跟着改" in refused.stderr
    author("retcon", "10", "--原因", "灯灭", "--摘要", "第10章：血书现世，灯火全灭。", "-y")

    repo = StoryRepo(root)
    subjects = repo.git.out("log", "--reverse", "--format=%s").splitlines()
    assert subjects == [
        "init: 雪夜行",
        "fix(设定): 林晚.位置=青云宗", "fix(设定): 林晚.持有+青霜剑", "fix(设定): 大长老.持有+玄阶令牌",
        "fix(设定): 信息差+S-001 灭门真凶",
        "fix(承诺): 开启 P-001 灭门真凶", "fix(文风): 禁词+眸子一缩",
        "ch(1): 雪夜", "ch(2): 山口", "ch(3): 古井", "ch(4): 番外·旧梦", "ch(5): 来客", "ch(6): 卷终",
        "fix(大纲): 总纲 改「结局承诺」", "vol(01): 第01卷复盘",
        "ch(7): 北上", "ch(8): 夜探", "ch(9): 对峙", "ch(10): 血书", "ch(11): 雪停", "ch(12): 启程",
        "retcon(10): 灯灭",
    ]
    body = {n: repo.git.out("log", "-1", "--format=%B", f"--grep=^ch({n}):") for n in range(1, 13)}
    assert body[1] == "ch(1): 雪夜\n\n承诺: ~P-001\n\n"
    assert body[2] == "ch(2): 山口\n\n承诺: ~P-001\n打回: 开头太慢\n\n"
    assert body[4] == "ch(4): 番外·旧梦\n\n承诺: 无\n豁免: 纯番外\n\n"
    assert body[5] == "ch(5): 来客\n\n承诺: +P-002 ~P-001\n\n"
    assert body[6] == "ch(6): 卷终\n\n承诺: ~P-001\n打回: 开头太慢\n\n"
    assert body[7] == "ch(7): 北上\n\n承诺: ~P-001\n\n"  # the killed settle left no trace
    assert body[9] == "ch(9): 对峙\n\n承诺: ~P-001\n合同修订: 来客身份留到下一卷\n\n"
    assert repo.git.out("log", "-1", "--format=%B", "--grep=^vol(01)") == "vol(01): 第01卷复盘\n\n承诺: +P-003\n\n"
    retcon = repo.git.out("log", "-1", "--format=%B", "--grep=^retcon(10)")
    assert retcon.startswith("retcon(10): 灯灭\n\n文件: 定稿/正文/0010-血书.md\n") and "章摘要 0010 已更新" in retcon
    # what the commits made
    assert [n for n, _ in repo.chapter_files()] == list(range(1, 13))
    assert [repo.chapter(n)[0]["卷"] for n in (6, 7, 12)] == [1, 2, 2] and repo.chapter(6)[0]["卷末"] is True
    assert repo.chapter(9)[0]["合同"] == ["P-001 推进：对峙"]
    assert repo.text(f"{L.章摘要}/0010.md") == "# 第10章 血书\n\n第10章：血书现世，灯火全灭。\n"
    p1 = repo.promise("P-001")
    assert p1.meta["最后推进章"] == 12 and p1.body.count("：推进") == 11
    assert repo.promise("P-003").title == "血书残页"
    assert repo.git.out("status", "--porcelain", "-uall") == "" and list((root / L.工作区).iterdir()) == []
    assert sorted(p.name for p in (root / L.CACHE).iterdir()) == ["index.db"]
