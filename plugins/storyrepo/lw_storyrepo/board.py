"""The board (盘面): everything the decision card shows that a script can count (spec §5, §7)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence, Union

from lw_storyrepo import layout as L
from lw_storyrepo.repo import Item, StoryRepo, as_int, as_list
from lw_storyrepo.volumes import Volumes

STRONG_HOOK = "强钩"


def strong_hook(meta: dict[str, Any]) -> bool:
    """The contract of a chapter asserts a strong hook at its end (a line saying ``强钩``)."""
    return any(STRONG_HOOK in str(line) for line in as_list(meta.get("合同")))


@dataclass
class Board:
    chapter: int
    volume: int
    position: int
    volume_size: int
    debts: list[tuple[str, str, int]] = field(default_factory=list)  # (id, title, idle chapters)
    weak_hooks: int = 0  # 连续弱钩: the last chapters in a row whose end is a weak hook (:func:`weak_hook`)
    due: list[tuple[str, str, int]] = field(default_factory=list)  # (id, title, deadline chapter)
    overdue: list[tuple[str, str, int]] = field(default_factory=list)
    open_promises: int = 0
    weak_limit: int = 3
    hook_strength: str = ""  # 卡点强度 of the last chapter (spec §5): see :func:`hook_strength`
    hook_promises: list[str] = field(default_factory=list)  # the unpaid promises its end leaves
    rule_proposals: list[tuple[str, list[int]]] = field(default_factory=list)

    @property
    def chase_risk(self) -> int:
        """追读风险 = 节奏债数量 + 连续弱钩计数 (spec §5, derived, never stored)."""
        return len(self.debts) + self.weak_hooks

    def lines(self) -> list[str]:
        out = [f"- 位置：第 {self.volume} 卷 {self.position}/{self.volume_size} 章"
               + ("（已到卷规模参考值：本章可为卷末，在决策卡勾选）" if self.position >= self.volume_size else "")]
        if self.debts:
            out.append("- 节奏债：" + "、".join(f"{pid}（高，{idle} 章未推进）" for pid, _t, idle in self.debts))
        else:
            out.append("- 节奏债：无")
        warn = f"（已达上限 {self.weak_limit}，本章需要强钩）" if self.weak_hooks >= self.weak_limit else ""
        out.append(f"- 连续弱钩：{self.weak_hooks} 章{warn}")
        out.append(f"- 追读风险：{self.chase_risk}（节奏债 {len(self.debts)} + 连续弱钩 {self.weak_hooks}）")
        if self.chapter > 1:
            if self.hook_strength:
                out.append(f"- 卡点强度：{self.hook_strength}（上一章章尾未兑付：{'、'.join(self.hook_promises)}）")
            else:
                out.append("- 卡点强度：无（上一章章尾没有未兑付的承诺）")
        if self.due:
            out.append("- 到期承诺：" + "、".join(f"{pid}（第 {d} 章前）" for pid, _t, d in self.due))
        if self.overdue:
            out.append("- 已过期承诺：" + "、".join(f"{pid}（期限第 {d} 章）" for pid, _t, d in self.overdue))
        out.append(f"- 进行中承诺：{self.open_promises} 条")
        for reason, chapters in self.rule_proposals:
            where = "/".join(str(c) for c in chapters)
            out.append(f"- 提议入宪：「{reason}」（出处：第 {where} 章三次否决）→ 作者确认：lw story style add 禁词|禁句式 … --出处 \"第 {where} 章三次否决\"")
        return out


RANK = {"高": 3, "中": 2, "低": 1}


Promises = Union[Sequence[Item], Mapping[str, Item]]
"""The book's promises, as a list or by id (a board reading many chapters indexes them once)."""


def _hooks(chapter_meta: dict[str, Any], promises: Promises, *, still_open: bool) -> list[tuple[int, str]]:
    moved = {str(x) for key in ("开启承诺", "推进承诺") for x in as_list(chapter_meta.get(key))}
    moved -= {str(x) for key in ("兑付承诺", "弃置承诺") for x in as_list(chapter_meta.get(key))}
    by_id = promises if isinstance(promises, Mapping) else {i.id: i for i in promises}
    found = [by_id[pid] for pid in sorted(moved) if pid in by_id]
    return [(RANK.get(str(i.meta.get("强度")), 0), i.id) for i in found
            if not still_open or str(i.meta.get("状态", "进行")) == "进行"]


def hook_strength(chapter_meta: dict[str, Any], promises: Promises, *, still_open: bool = True) -> tuple[str, list[str]]:
    """卡点强度 = 章尾未兑付承诺的强度 (spec §5): the strongest of the promises a chapter opens or
    advances and leaves unpaid at its end, with their ids; ``("", [])`` when its end leaves none.
    Promises it pays or abandons, and promises it never touched, are no hook. With
    ``still_open`` (the last chapter) a promise paid or abandoned since is no hook either; an
    earlier chapter's hook is what its end left, whatever came after."""
    hooks = _hooks(chapter_meta, promises, still_open=still_open)
    if not hooks:
        return "", []
    best = max(rank for rank, _id in hooks)
    return {3: "高", 2: "中", 1: "低", 0: "未定"}[best], sorted(pid for rank, pid in hooks if rank == best)


def weak_hook(chapter_meta: dict[str, Any], promises: Promises) -> bool:
    """A chapter ends on a weak hook (spec §5, 连续弱钩 derived from 卡点强度) unless its end leaves
    a 高 promise unpaid (卡点强度 高) or its contract asserts a strong hook (``强钩``)."""
    if strong_hook(chapter_meta):
        return False
    return hook_strength(chapter_meta, promises, still_open=False)[0] != "高"


def promise_debt(item_meta: dict[str, Any], current: int, max_idle: int) -> int | None:
    """Idle chapters when a promise is a rhythm debt (高, 进行, idle > max), else None."""
    if str(item_meta.get("强度")) != "高" or str(item_meta.get("状态", "进行")) != "进行":
        return None
    last = as_int(item_meta.get("最后推进章")) or as_int(item_meta.get("开启章")) or 0
    idle = current - last
    return idle if idle > max_idle else None


def compute_board(repo: StoryRepo, chapter: int | None = None, *, promises: list[Item] | None = None) -> Board:
    book = repo.book()
    size = book["卷规模"]
    last = repo.last_chapter()
    chapter = chapter if chapter is not None else last + 1
    volumes = Volumes.of(repo, size)
    volume, position = volumes.current()
    board = Board(chapter, volume, position, size, weak_limit=book["连续弱钩上限"])
    promises = promises if promises is not None else repo.promises()
    for item in promises:
        meta = item.meta
        if str(meta.get("状态", "进行")) != "进行":
            continue
        board.open_promises += 1
        idle = promise_debt(meta, chapter, book["高承诺最大搁置章数"])
        if idle is not None:
            board.debts.append((item.id, item.title, idle))
        due = volumes.deadline(meta.get("兑付期限"))
        if due is not None:
            if due < chapter:
                board.overdue.append((item.id, item.title, due))
            elif due - chapter <= max(3, size // 4):
                board.due.append((item.id, item.title, due))
    files = repo.chapter_files()
    if files:
        board.hook_strength, board.hook_promises = hook_strength(repo.chapter_meta(files[-1][0]), promises)
    by_id = {i.id: i for i in promises}
    for number, _path in reversed(files):
        if not weak_hook(repo.chapter_meta(number), by_id):
            break
        board.weak_hooks += 1
        if board.weak_hooks >= 50:
            break
    board.debts.sort(key=lambda d: -d[2])
    try:
        board.rule_proposals = rule_proposals(repo)
    except Exception:  # noqa: BLE001 - a proposal is a courtesy; never block a brief
        board.rule_proposals = []
    return board


def _norm(reason: str) -> str:
    return re.sub(r"[\s，。！？、；：,.!?;:“”\"'（）()]", "", reason)


def rule_proposals(repo: StoryRepo, strikes: int = 3) -> list[tuple[str, list[int]]]:
    """Rejection reasons repeated in ``strikes`` chapters (from the ch() commit messages) that
    the style constitution does not mention yet: 三次同类否决 → 系统提议 → 作者确认."""
    log = repo.git.out("log", "--format=%x1e%s%n%b", "--grep=^打回: ", "-n", "2000")
    seen: dict[str, tuple[str, set[int]]] = {}
    for entry in log.split("\x1e"):
        m = re.match(r"ch\((\d+)\)", entry)
        r = re.search(r"^打回: (.+)$", entry, re.M)
        if not m or not r:
            continue
        for reason in r.group(1).split(" | "):
            key = _norm(reason)
            if key:
                seen.setdefault(key, (reason.strip(), set()))[1].add(int(m.group(1)))
    constitution = _norm(repo.text_or(L.风格宪法))
    out = []
    for key, (reason, chapters) in seen.items():
        if len(chapters) >= strikes and key not in constitution:
            out.append((reason, sorted(chapters)))
    return sorted(out, key=lambda x: x[1])
