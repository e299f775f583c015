"""A scripted ten-chapter author session from a fresh book, through ``lw story`` only.

The author (and the model, through the commands that mirror its tools) sets the book up,
writes ten chapters (two drafts rejected, one chapter exempted, a volume ended by the author
and reviewed with a foreshadowing candidate ticked), hand-edits a card, retcons a settled
chapter, tries a what-if branch and merges it. The git log then reads as spec §8 says: one
``ch(N): 标题`` commit per chapter whose body is the promise moves and the setting changes,
``vol``/``retcon``/``fix``/``merge`` for the rest, nothing else.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from lw_storyrepo import layout as L
from lw_storyrepo.cli import story
from lw_storyrepo.repo import StoryRepo


class Author:
    def __init__(self, root: Path, tmp: Path) -> None:
        self.root, self.tmp = root, tmp
        self.runner = CliRunner()

    def __call__(self, *args: str, input: str | None = None) -> str:
        command = list(args) if args and args[0] == "init" else [*args, "-C", str(self.root)]
        result = self.runner.invoke(story, ["--locale", "zh", *command],
                                    input=input, catch_exceptions=False)
        assert result.exit_code == 0, (args, result.output)
        return result.output

    def file(self, name: str, text: str) -> str:
        path = self.tmp / name
        path.write_text(text, encoding="utf-8")
        return str(path)

    @property
    def repo(self) -> StoryRepo:
        return StoryRepo(self.root)

    def edit(self, rel: str, old: str, new: str) -> None:
        path = self.root / rel
        text = path.read_text(encoding="utf-8")
        assert old in text, (rel, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")


def draft(n: int, title: str, moves: str, body: str, extra: str = "") -> str:
    return (f"---\n标题: {title}\n视角: 林晚\n书内时间: 冬月初{n}\n{moves}{extra}一句话事件: {title}\n在场:\n  - 林晚\n---\n"
            f"{body}\n")


BODY = "林晚踏雪而行，风从山口灌进来，{x}。她没有回头，只把剑握得更紧了些，脚印很快被新雪盖住。"


def chapter(author: Author, n: int, title: str, contract: list[str], moves: str, body: str, *,
            reject: str | None = None, extra: str = "", exempt: str | None = None, volume_end: bool = False,
            new_promise: tuple[str, ...] | None = None) -> None:
    out = author()  # the board machine: brief
    assert f"新章 brief：第 {n} 章" in out, out
    author("card", "edit", "--提案", f"第{n}章：{title}", *sum((["--合同", c] for c in contract), []))
    if exempt:
        author.edit(L.决策卡, "- [ ] 本章豁免承诺结转（理由：）", f"- [x] 本章豁免承诺结转（理由：{exempt}）")
    if volume_end:
        author.edit(L.决策卡, "- [ ] 本章为卷末章", "- [x] 本章为卷末章")
    author("decide")
    assert "已组装上下文包；下一步「模型渲染草稿」" in author()
    if new_promise:
        author("promise", "draft", *new_promise)
    if reject:
        author("draft", "A", author.file(f"{n}-A.md", draft(n, title, moves, body.replace("。", "，天很冷。", 1), extra)))
        assert "已机检（过：A；打回：无）" in author()  # the checks pass; the author still says no
        for lens in ("读者", "编辑", "事实"):
            author("review", lens, author.file("评审.md", f"{lens}：这一稿平平。"))
        author("reject", reject)
    label = "B" if reject else "A"
    author("draft", label, author.file(f"{n}-{label}.md", draft(n, title, moves, body, extra)))
    out = author()
    assert f"已机检（过：{label}；打回：无）；下一步「三镜头评审」" in out, out
    for lens in ("读者", "编辑", "事实"):
        author("review", lens, author.file("评审.md", f"{lens}：第{n}章可以。"))
    author("summary", f"第{n}章：{title}。")
    assert "已结转" in author("accept")


def test_ten_chapters_from_a_fresh_book(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "书架" / "北境的雪"
    author = Author(root, tmp_path)
    author("init", str(root), "--书名", "北境的雪", "--类型", "玄幻", "--每章目标字数", "60", "--卷规模", "5")
    # the author's setting, one sentence at a time
    author("character", "set", "林晚", "状态", "在世")
    author("character", "set", "大长老", "状态", "在世")
    author("secret", "new", "灭门真凶", "--关键词", "灭门", "--关键词", "血书", "--知情人", "大长老", "--内容", "灭门真凶是大长老。")
    author("promise", "new", "灭门真凶", "--类型", "悬念", "--强度", "高", "--兑付计划", "第二卷揭穿", "--兑付期限", "第2卷")
    author("style", "add", "禁词", "眸子一缩", "--出处", "作者开书时定")
    advance = "推进承诺:\n  - P-001\n推进说明:\n  - P-001：{note}\n"

    chapter(author, 1, "雪夜", ["P-001 推进：林晚想起旧事"], advance.format(note="林晚想起旧事"), BODY.format(x="雪夜无声"),
            extra="设定变更:\n  - 林晚.位置=北境\n")
    chapter(author, 2, "山口", ["P-001 推进：林晚上山"], advance.format(note="林晚上山"), BODY.format(x="山口风急"),
            reject="开头太慢")
    chapter(author, 3, "番外·旧梦", ["林晚梦见母亲"], "", BODY.format(x="林晚梦见母亲在灯下"), exempt="纯番外")
    chapter(author, 4, "来客", ["P-001 推进：大长老来访", "开新承诺：来客身份"],
            "开启承诺:\n  - P-002\n" + advance.format(note="大长老来访"),
            "大长老推门而入。" + BODY.format(x="来客不速"),
            new_promise=("来客身份", "--类型", "悬念", "--强度", "中", "--兑付计划", "第二卷揭晓"))
    chapter(author, 5, "卷终", ["P-001 推进：雪停"], advance.format(note="雪停"), BODY.format(x="雪终于停了"),
            reject="结尾没有钩子", volume_end=True)
    # volume 1 ends where the author said (卷规模 5 is only the reference): the review, a ticked candidate
    out = author()
    assert "第01卷刚结束：卷复盘" in out, out
    author("outline", "set", "总纲", "结局承诺", "第七卷宗门大会，真凶伏诛。")
    author("vol", "candidates", "--候选", "血书残页｜伏笔｜中｜无期限｜第二卷呈堂｜总纲：第七卷宗门大会",
           "--候选", "旧剑｜伏笔｜低｜无期限｜卷二拔剑｜总纲：真凶伏诛", "--候选", "雪中足迹｜悬念｜低｜无期限｜下卷追查｜总纲：第七卷宗门大会")
    author("vol", "tick", "1")
    author("vol", "commit", "--summary", author.file("卷摘要.md", "第一卷：林晚踏雪北上，大长老来访。"))
    # a hand edit of a card, settled as fix(设定)
    author.edit(f"{L.角色}/林晚.md", "状态: 在世", "状态: 在世\n口头禅: \"是\"")
    assert "发现未结转的手改" in author()
    author("fix")
    chapter(author, 6, "北上", ["P-001 推进：北上"], advance.format(note="北上"), BODY.format(x="北上的路很长"))
    assert author.repo.chapter(6)[0]["卷"] == 2
    # retcon: chapter 3 happened a day later; the timeline follows
    author.edit("定稿/正文/0003-番外·旧梦.md", "书内时间: 冬月初3", "书内时间: 冬月初四")
    author("retcon", "3", "--原因", "旧梦移到初四", input="y\n")
    assert "| 3 | 冬月初四 | 番外·旧梦 | 林晚 |" in author.repo.text(L.时间线)
    # a what-if: three chapters of outline on a branch, read, merged
    author("whatif", "start", "暗线")
    author("outline", "set", "第2卷", "推演", "大长老收林晚为徒，三章后反目。")
    author("whatif", "merge", "暗线")
    for n, title in ((7, "古城"), (8, "夜探"), (9, "对峙"), (10, "血书")):
        chapter(author, n, title, [f"P-001 推进：{title}"], advance.format(note=title), BODY.format(x=f"{title}之夜"))

    repo = author.repo
    subjects = repo.git.out("log", "--reverse", "--topo-order", "--format=%s").splitlines()
    assert subjects == [
        "init: 北境的雪",
        "fix(设定): 林晚.状态=在世", "fix(设定): 大长老.状态=在世", "fix(设定): 信息差+S-001 灭门真凶",
        "fix(承诺): 开启 P-001 灭门真凶", "fix(文风): 禁词+眸子一缩",
        "ch(1): 雪夜", "ch(2): 山口", "ch(3): 番外·旧梦", "ch(4): 来客", "ch(5): 卷终",
        "fix(大纲): 总纲 改「结局承诺」", "vol(01): 第01卷复盘", "fix(设定): 手改结转 林晚",
        "ch(6): 北上", "retcon(3): 旧梦移到初四",
        "fix(大纲): 第02卷 改「推演」", "merge(暗线): 采纳推演分支",
        "ch(7): 古城", "ch(8): 夜探", "ch(9): 对峙", "ch(10): 血书",
    ]
    body = {n: repo.git.out("log", "-1", "--format=%B", f"--grep=^ch({n}):") for n in range(1, 11)}
    assert body[1] == "ch(1): 雪夜\n\n承诺: ~P-001\n设定: 林晚.位置=北境\n\n"
    assert body[2] == "ch(2): 山口\n\n承诺: ~P-001\n打回: 开头太慢\n\n"
    assert body[3] == "ch(3): 番外·旧梦\n\n承诺: 无\n豁免: 纯番外\n\n"
    assert body[4] == "ch(4): 来客\n\n承诺: +P-002 ~P-001\n\n"
    assert body[5] == "ch(5): 卷终\n\n承诺: ~P-001\n打回: 结尾没有钩子\n\n"
    assert all(body[n] == f"ch({n}): {t}\n\n承诺: ~P-001\n\n" for n, t in ((6, "北上"), (7, "古城"), (10, "血书")))
    assert repo.git.out("log", "-1", "--format=%B", "--grep=^vol(01)") == "vol(01): 第01卷复盘\n\n承诺: +P-003\n\n"
    assert repo.git.out("log", "-1", "--format=%B", "--grep=^retcon(3)").startswith(
        "retcon(3): 旧梦移到初四\n\n文件: 定稿/正文/0003-番外·旧梦.md\n同步: 时间线 3.书内时间=冬月初四")
    # what the commits made
    assert [n for n, _ in repo.chapter_files()] == list(range(1, 11))
    assert [repo.chapter(n)[0]["卷"] for n in (5, 6, 10)] == [1, 2, 2] and repo.chapter(5)[0]["卷末"] is True
    p1 = repo.promise("P-001")
    assert p1.meta["最后推进章"] == 10 and p1.body.count("：推进") == 9
    assert repo.promise("P-003").title == "血书残页" and repo.characters()["林晚"]["口头禅"] == "是"
    assert repo.git.out("status", "--porcelain", "-uall") == "" and list(repo.p(L.工作区).iterdir()) == []
    assert repo.git.out("branch", "--list", "what-if/*") == ""
