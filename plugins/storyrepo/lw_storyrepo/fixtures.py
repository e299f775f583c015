"""Generated books and a scripted "model" for tests and benchmarks (deterministic, seeded)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from lw_storyrepo import layout as L
from lw_storyrepo import tools
from lw_storyrepo.board import compute_board
from lw_storyrepo.card import decide, edit_card
from lw_storyrepo.drafts import submit_draft
from lw_storyrepo.handedits import commit_fix
from lw_storyrepo.machine import advance
from lw_storyrepo.review import submit_review, submit_summary
from lw_storyrepo.verdict import accept
from lw_storyrepo.workspace import LENSES, load_state, write
from lw_storyrepo.markdown import table_line
from lw_storyrepo.newbook import init_book
from lw_storyrepo.repo import StoryRepo, new_doc
from lw_storyrepo.volumes import reference_position

SURNAMES = "林萧苏沈顾陆叶秦楚韩谢温江白唐柳宋许程魏方陈周吴郑王"
GIVEN = "晚川寒舟青岚若雪墨言清歌无涯云起星河长风思远明月听雨流光惊鸿"
PLACES = ("北境雪原", "青云宗", "天机阁", "落霞谷", "镇妖塔", "玄武城", "断魂崖", "望月楼")
WORDS = ("风雪", "长剑", "灯火", "山门", "旧案", "密信", "铜铃", "残卷", "寒潭", "令牌", "古井", "药香")
VERBS = ("看着", "想起", "握住", "走过", "推开", "听见", "记得", "放下", "追上", "望向")
ITEMS = ("青霜剑", "玄阶令牌", "九转丹", "镇魂铃", "赤霄剑", "龙纹佩")
"""What generated characters hold: named things the generated prose never handles (the prose's
words are common nouns; a card holding 令牌 would make every 握住令牌 a continuity error)."""


def names(n: int, rng: random.Random) -> list[str]:
    out: list[str] = []
    seen: set[str] = set()
    while len(out) < n:
        name = rng.choice(SURNAMES) + rng.choice(GIVEN) + (rng.choice(GIVEN) if rng.random() < 0.3 else "")
        if name not in seen:
            seen.add(name)
            out.append(name)
    return out


def prose(rng: random.Random, people: list[str], length: int) -> str:
    lines = []
    total = 0
    while total < length:
        a, b = rng.choice(people), rng.choice(people)
        kind = rng.random()
        if kind < 0.3:
            line = f"{a}道：“{rng.choice(WORDS)}的事，{rng.choice(VERBS)}{rng.choice(WORDS)}再说。”"
        elif kind < 0.5:
            line = f"“{rng.choice(WORDS)}还在{rng.choice(PLACES)}吗？”{b}问。"
        else:
            line = (f"{a}{rng.choice(VERBS)}{rng.choice(WORDS)}，{rng.choice(VERBS)}{b}，"
                    f"{rng.choice(PLACES)}的{rng.choice(WORDS)}{rng.choice(('渐渐冷了', '忽明忽暗', '无声落下'))}。")
        lines.append(line)
        total += len(line)
    return "\n".join(lines) + "\n"


def make_book(root: Path, *, chapters: int = 300, promises: int = 60, characters: int = 30, secrets: int = 20,
              volume_size: int = 40, words: int = 400, seed: int = 7, title: str = "生成之书") -> StoryRepo:
    """Write a whole book straight to disk (as if settled chapter by chapter), one commit."""
    rng = random.Random(seed)
    repo = init_book(Path(root), title, "玄幻", target_words=words, volume_size=volume_size)
    people = names(characters, rng)
    files: dict[str, str] = {}
    for name in people:
        files[f"{L.角色}/{name}.md"] = new_doc({
            "姓名": name, "别名": [name[1:] + "儿"] if rng.random() < 0.3 else [], "状态": "在世",
            "位置": rng.choice(PLACES), "境界": f"筑基{rng.randint(1, 9)}层", "持有": [rng.choice(ITEMS)],
            "最后变更章": rng.randint(0, chapters),
        }, "## 设定\n生成角色。\n").dump()
    roster = repo.text(L.名册)
    for name in people:
        roster += table_line([name, "", "人物", str(rng.randint(1, max(1, chapters)))])
    for place in PLACES:
        roster += table_line([place, "", "地点", "1"])
    files[L.名册] = roster
    for i in range(1, secrets + 1):
        knowers = rng.sample(people, k=min(len(people), rng.randint(1, 3)))
        kws = [f"{w}{i}号" for w in rng.sample(("血书", "密令", "真凶", "旧约", "禁术", "遗诏"), k=3)]
        files[f"{L.信息差}/S-{i:03d}-秘密{i}.md"] = new_doc({
            "知情人": knowers, "读者已知": rng.random() < 0.3, "登记章": rng.randint(0, chapters), "关键词": kws,
        }, f"## 内容\n秘密 {i}。\n").dump()
    for i in range(1, promises + 1):
        opened = rng.randint(0, max(0, chapters - 1))
        strength = rng.choice(L.STRENGTHS)
        state = rng.choice(("进行", "进行", "进行", "已兑付", "已弃置"))
        last = rng.randint(opened, max(opened, chapters))
        deadline = f"第{rng.randint(1, chapters // volume_size + 3)}卷" if strength == "高" or rng.random() < 0.5 else None
        files[f"{L.承诺}/P-{i:03d}-承诺{i}.md"] = new_doc({
            "类型": rng.choice(L.PROMISE_TYPES), "强度": strength, "状态": state, "开启章": opened,
            "兑付期限": deadline, "最后推进章": last,
        }, f"## 描述\n承诺 {i}。\n\n## 兑付计划\n第{rng.randint(1, 9)}卷兑付。\n\n## 履历\n- 第{opened}章：开启\n").dump()
    timeline = repo.text(L.时间线)
    for n in range(1, chapters + 1):
        ctitle = f"{rng.choice(PLACES)}{rng.choice(WORDS)}"
        present = rng.sample(people, k=min(len(people), 2))
        pids = [f"P-{rng.randint(1, max(1, promises)):03d}"]
        body = prose(rng, people[: max(2, min(len(people), 12))], words)
        contract = [f"{pids[0]} 推进"] + (["结尾强钩"] if rng.random() < 0.5 else [])
        volume, position = reference_position(n, volume_size)
        fields = {"章号": n, "标题": ctitle, "卷": volume, "视角": present[0], "书内时间": f"第{n}日",
                  "字数": len(body), "开启承诺": [], "推进承诺": pids, "兑付承诺": [], "合同": contract}
        if position == volume_size:  # the author ended every volume at the reference size
            fields["卷末"] = True
            if n < chapters:  # ... and reviewed it before writing on
                files[f"{L.卷摘要}/{L.volume_name(volume)}.md"] = f"# {L.volume_name(volume)} 卷摘要\n\n第{volume}卷。\n"
        files[f"{L.正文}/{L.chapter_filename(n, ctitle)}"] = new_doc(fields, "\n" + body).dump()
        files[f"{L.章摘要}/{n:04d}.md"] = f"# 第{n}章 {ctitle}\n\n{present[0]}在{ctitle}。\n"
        timeline += table_line([str(n), f"第{n}日", f"{present[0]}与{present[1]}在{ctitle}", ", ".join(present)])
    files[L.时间线] = timeline
    for rel, text in files.items():
        path = repo.p(rel)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    repo.git.run("add", "-A", "--", *L.SOURCE_ROOTS)
    repo.git.run("commit", "-q", "--no-verify", "-m", f"init: 生成 {chapters} 章")
    return repo


class ScriptedModel:
    """Stands in for the host's model (and the author's routine clicks): answers every model
    step through the same tools, accepts what passes, ends a volume at the reference size."""

    def __init__(self, seed: int = 1) -> None:
        self.rng = random.Random(seed)

    def run_chapter(self, repo: StoryRepo, *, open_new: bool = False, leak: bool = False) -> str:
        """Drive one full chapter transaction through the state machine; returns the commit."""
        ctx = {"story_root": str(repo.root)}
        for _ in range(12):
            step = advance(repo)
            if step.state == 1:
                commit_fix(repo)
                continue
            if step.state == 3:
                tools.volume_commit(tools.VolumeCommitArgs(summary="本卷摘要。"), ctx)
                continue
            if step.state in (4, 0):
                continue
            state = load_state(repo)
            assert state is not None
            stage = state["阶段"]
            if stage == "brief":
                target = self._pick(repo)
                edit_card(repo, "推进主线", [f"{target} 推进：主线前进", "结尾强钩"], "B 方案：过渡章")
                board = compute_board(repo)
                if board.position >= board.volume_size:  # the author ends the volume at the reference size
                    card = repo.text(L.决策卡).replace("- [ ] 本章为卷末章", "- [x] 本章为卷末章")
                    write(repo, L.决策卡, card)
                decide(repo)
            elif stage == "packed":
                n = int(state["章号"])
                target = [str(x) for x in state["合同"] if str(x).startswith("P-")][0].split()[0]
                opened = []
                if open_new:
                    res = tools.new_promise_draft(tools.NewPromiseDraftArgs(
                        title=f"新线{n}", type="伏笔", strength="中", plan="两卷后回收"), ctx)
                    opened = [res["id"]]
                people = sorted(repo.characters())[:6] or ["无名"]
                body = prose(self.rng, people, repo.book()["每章目标字数"])
                if leak:
                    sec = repo.secrets()[0]
                    outsider = next(p for p in sorted(repo.characters()) if p not in [str(k) for k in sec.meta.get("知情人") or []])
                    kws = [str(k) for k in sec.meta["关键词"]]
                    body += f"{outsider}道：“{kws[0]}和{kws[1]}，我都知道了。”\n"
                meta = ("---\n标题: 第" + str(n) + "章\n视角: " + people[0] + "\n书内时间: 第" + str(n) + "日\n"
                        + ("开启承诺:\n" + "".join(f"  - {p}\n" for p in opened) if opened else "")
                        + f"推进承诺:\n  - {target}\n推进说明:\n  - {target}：主线前进\n"
                        + f"设定变更:\n  - {people[0]}.位置=第{n}处\n一句话事件: {people[0]}前行\n在场:\n  - {people[0]}\n---\n")
                submit_draft(repo, "A", meta + body)
            elif stage == "checked":
                for lens in LENSES:
                    submit_review(repo, lens, f"{lens}：可以。")
            elif stage == "reviewed":
                submit_summary(repo, "主角前行，主线推进。")
                return accept(repo)
        raise AssertionError("chapter did not settle")

    def _pick(self, repo: StoryRepo) -> str:
        board = compute_board(repo)
        if board.debts:
            return board.debts[0][0]
        open_ids = [p.id for p in repo.promises() if str(p.meta.get("状态", "进行")) == "进行"]
        return self.rng.choice(open_ids)


def tree_snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` except ``.git/`` -> bytes (for 'exactly as before' checks)."""
    out = {}
    for path in sorted(Path(root).rglob("*")):
        rel = path.relative_to(root).as_posix()
        if rel == ".git" or rel.startswith(".git/") or not path.is_file():
            continue
        out[rel] = path.read_bytes()
    return out


def dir_snapshot(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in Path(root).rglob("*") if p.is_dir() and ".git" not in p.parts}


def git_state(repo: StoryRepo) -> dict[str, Any]:
    return {"head": repo.git.head(), "status": repo.git.out("status", "--porcelain=v1", "--ignored", "-uall")}
