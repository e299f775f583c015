"""The volume review (卷复盘, spec §9): audit → candidates → the author's ticks → ``vol(NN)``.

1. :func:`volume_review` writes ``工作区/卷复盘.md``: the promise audit of the volume (opened
   — from chapter 0 for the first volume —, closed, paid after their deadline (迟兑付), overdue,
   still open).
2. The model proposes 3–5 foreshadowing candidates (:func:`propose_candidates`), each quoting a
   far node of 总纲 verbatim; they are listed in the review as ``- [ ]`` lines.
3. The author ticks the ones to keep (in the file, or :func:`tick`).
4. :func:`volume_commit` files the volume summary, the next volume's outline and a promise file
   for every ticked candidate (plus any promise drafted in ``工作区/新承诺/``) in one commit,
   which closes the volume.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from lwcore.api import LwError

from lw_storyrepo import layout as L
from lw_storyrepo.atomic import apply_and_commit, recover
from lw_storyrepo.dialect import parse_doc
from lw_storyrepo.markdown import section, set_section
from lw_storyrepo.notices import file_named
from lw_storyrepo.repo import Item, StoryRepo, as_int, new_doc
from lw_storyrepo.volumes import Volumes, check_deadline, check_deadline_ahead, volume_closed
from lw_storyrepo.workspace import kept_workspace, load_state, remove, write

CANDIDATES = "伏笔机会（勾选 = 生成承诺文件）"
SUMMARY_MAX = 500
_CANDIDATE = re.compile(r"^\s*[-*]\s*\[([ xX✓√]?)\]\s*(.+)$")
_CLOSING = re.compile(r"第(\d+)章后?：(兑付|弃置)")


@dataclass
class Candidate:
    title: str
    type: str
    strength: str
    deadline: str
    plan: str
    anchor: str
    ticked: bool = False

    def line(self) -> str:
        cells = [self.title, self.type, self.strength, self.deadline or "无期限", self.plan, f"总纲：{self.anchor}"]
        return f"- [{'x' if self.ticked else ' '}] " + "｜".join(c.replace("｜", "|") for c in cells)


def parse_candidate(line: str) -> Candidate | None:
    m = _CANDIDATE.match(line)
    if not m:
        return None
    cells = [c.strip() for c in m.group(2).split("｜")]
    if len(cells) != 6:
        return None
    title, kind, strength, deadline, plan, anchor = cells
    return Candidate(title, kind, strength, "" if deadline == "无期限" else deadline, plan,
                     re.sub(r"^总纲[：:]", "", anchor).strip(), m.group(1).strip() != "")


def current_volume(repo: StoryRepo) -> tuple[int, int, int]:
    """``(volume, first chapter, last chapter)`` of the volume under review (the last one written).

    The first volume starts at chapter 0, so promises opened before chapter 1 count in it."""
    volumes = Volumes.of(repo)
    last = volumes.last()
    if last is None:
        raise LwError("还没有任何定稿章节，不能卷复盘")
    volume = last[1]
    if volume_closed(repo, volume):
        raise LwError(f"第 {volume} 卷已复盘（{L.卷摘要}/{L.volume_name(volume)}.md）")
    first, end = volumes.span(volume) or (last[0], last[0])
    if volume == 1 or volumes.span(volume - 1) is None:
        first = 0
    return volume, first, end


def _closed_at(item: Item) -> int | None:
    found = [int(m.group(1)) for m in _CLOSING.finditer(item.section("履历"))]
    return found[-1] if found else as_int(item.meta.get("最后推进章"))


def volume_audit(repo: StoryRepo, volume: int, start: int, end: int) -> dict[str, list[str]]:
    volumes = Volumes.of(repo)
    opened, closed, overdue, late, open_now = [], [], [], [], []
    for item in repo.promises():
        m = item.meta
        label = f"{item.id} {item.title}"
        if start <= (as_int(m.get("开启章"), -1) or 0) <= end:
            opened.append(label)
        state = str(m.get("状态", "进行"))
        if state in ("已兑付", "已弃置"):
            at = _closed_at(item)
            if at is not None and start <= at <= end:
                closed.append(f"{label}（{state}）")
                due = volumes.deadline(m.get("兑付期限"))
                if state == "已兑付" and due is not None and at > due:
                    late.append(f"{label}（期限第 {due} 章，第 {at} 章才兑付，迟 {at - due} 章）")
        else:
            open_now.append(label)
            due = volumes.deadline(m.get("兑付期限"))
            if due is not None and due <= end:
                overdue.append(f"{label}（期限第 {due} 章）")
    return {"本卷开启": opened, "本卷收束": closed, "迟兑付": late, "已过期": overdue, "未兑付": open_now}


def no_chapter_in_progress(repo: StoryRepo) -> None:
    """A volume ends between chapters: refused while a chapter transaction is open (its brief counted it in this volume,
    and ``vol commit`` would file the promises it drafted in 工作区/新承诺/ as the volume's). The board never reviews a
    volume then (an unfinished transaction comes first); ``lw story vol`` and ``vol commit`` by hand could."""
    state = load_state(repo)
    if state is not None:
        raise LwError(f"第 {state['章号']} 章的事务进行中，不能在这里结束本卷", file=L.事务,
                      expected="先把这一章写完结转（它算在本卷里，可在草稿写「卷末: true」），或 lw story abort 放弃它，再 lw story vol")


def volume_review(repo: StoryRepo) -> str:
    """Write the audit of the volume just written (``工作区/卷复盘.md``); refused while a chapter is in progress."""
    no_chapter_in_progress(repo)
    volume, start, end = current_volume(repo)
    audit = volume_audit(repo, volume, start, end)
    lines = [f"# 卷复盘：{L.volume_name(volume)}（第 {max(start, 1)}–{end} 章）", ""]
    for key, values in audit.items():
        lines.append(f"## {key}（{len(values)}）")
        lines.extend(f"- {v}" for v in values)
        lines.append("")
    lines += [f"## {CANDIDATES}", "（待模型提出 3–5 个本卷可埋、N 卷后响的候选，每个须引用总纲的具体远期节点）", "",
              "## 下一步", "- 模型写卷摘要（≤500 字）：story_volume_commit",
              f"- 与作者对谈产出 大纲/卷纲/{L.volume_name(volume + 1)}.md",
              "- 作者勾选伏笔机会（lw story vol tick 序号…），然后入册：lw story vol commit"]
    write(repo, L.卷复盘, "\n".join(lines) + "\n")
    return L.卷复盘


def _review_text(repo: StoryRepo) -> str:
    if not repo.p(L.卷复盘).is_file():
        raise LwError("没有进行中的卷复盘", expected="先 lw story vol")
    return repo.text(L.卷复盘)


def candidates(repo: StoryRepo) -> list[Candidate]:
    return [c for line in section(_review_text(repo), CANDIDATES).splitlines() if (c := parse_candidate(line))]


def propose_candidates(repo: StoryRepo, items: list[dict[str, Any]]) -> list[str]:
    """The model's 3–5 foreshadowing candidates, each anchored in 总纲 (quoted verbatim)."""
    text = _review_text(repo)
    if not 3 <= len(items) <= 5:
        raise LwError(f"伏笔机会要 3–5 个，给了 {len(items)} 个")
    outline = repo.text_or(L.总纲)
    made = []
    for item in items:
        anchor = str(item.get("anchor") or "").strip()
        if len(anchor) < 2 or anchor not in outline:
            raise LwError(f"候选「{item.get('title')}」引用的总纲节点「{anchor}」在 大纲/总纲.md 里找不到",
                          expected="原样引用总纲里的一句远期节点")
        if item.get("strength") == "高" and not item.get("deadline"):
            raise LwError(f"候选「{item.get('title')}」强度为高，必须有兑付期限")
        check_deadline(str(item.get("deadline") or "") or None)
        check_deadline_ahead(repo, str(item.get("deadline") or "") or None)
        if item.get("type") not in L.PROMISE_TYPES or item.get("strength") not in L.STRENGTHS:
            raise LwError(f"候选「{item.get('title')}」的类型或强度不对",
                          expected=f"类型 {'|'.join(L.PROMISE_TYPES)}，强度 高|中|低")
        made.append(Candidate(str(item["title"]), str(item["type"]), str(item["strength"]),
                              str(item.get("deadline") or ""), str(item["plan"]), anchor))
    write(repo, L.卷复盘, set_section(text, CANDIDATES, "\n".join(c.line() for c in made)))
    return [c.title for c in made]


def tick(repo: StoryRepo, numbers: list[int]) -> list[str]:
    """The author ticks candidates by their 1-based number; returns the ticked titles."""
    text = _review_text(repo)
    found = candidates(repo)
    if not found:
        raise LwError("卷复盘还没有伏笔候选，没有可勾选的", file=L.卷复盘,
                      expected="先写 3–5 个候选：lw story vol candidates --candidate …（模型用 story_propose_foreshadowing）")
    for n in numbers:
        if not 1 <= n <= len(found):
            raise LwError(f"没有第 {n} 个候选", expected=f"1–{len(found)}")
        found[n - 1].ticked = True
    write(repo, L.卷复盘, set_section(text, CANDIDATES, "\n".join(c.line() for c in found)))
    return [c.title for c in found if c.ticked]


def next_outline_missing(repo: StoryRepo, volume: int) -> str | None:
    """What to say after ``vol(NN)`` of ``volume`` when the next volume has no 卷纲 yet (none was given with the
    commit nor written before): its name and the command that writes one; ``None`` when it exists. Nothing is
    refused: a book may start its next volume with no outline, but the author is told, never left to find out."""
    name = L.volume_name(volume + 1)
    if repo.p(f"{L.卷纲}/{name}.md").is_file():
        return None
    return f"{name}还没有卷纲：lw story outline set {name} 主线 \"…\"（或 vol commit 时给 --outline 文件）"


def unpicked_candidates(repo: StoryRepo) -> str | None:
    """What to say after ``vol(NN)`` when it files no foreshadowing promise although a review is in progress:
    its candidates were never given or were refused (``vol candidates`` is all or nothing), or none was
    ticked; ``None`` when one is ticked or no review is in progress. Read before the commit, which empties
    the review. Nothing is refused (a volume may end with no new promise), but the author is told, never left
    to believe a refused ``vol candidates`` went in."""
    if not repo.p(L.卷复盘).is_file():
        return None
    found = candidates(repo)
    if not found:
        return "卷复盘里没有伏笔候选（没交过，或交的被拒了），这次入册没有生成伏笔承诺；要补一条就 lw story promise new 短题 …"
    if not any(c.ticked for c in found):
        return f"{len(found)} 个伏笔候选一个都没勾选，这次入册没有生成伏笔承诺"
    return None


def volume_commit(repo: StoryRepo, summary: str, outline: str | None = None) -> str:
    """``vol(NN)``: the volume summary, the next outline, the promises the author picked.

    Only a volume review in progress is committed (``工作区/卷复盘.md``, written by ``lw story vol`` or by the board
    when a volume ends): without one, the volume has not ended and nothing changes (a ``vol commit`` typed in the
    middle of a volume used to end it there, with no audit, and file the chapter's drafted promises as opened)."""
    recover(repo.root)
    no_chapter_in_progress(repo)
    volume, _start, end = current_volume(repo)
    if not repo.p(L.卷复盘).is_file():
        raise LwError(f"没有进行中的卷复盘，vol commit 没有入册：{L.volume_name(volume)}还没结束",
                      expected="本卷到此结束就先 lw story vol（写出本卷审计），再 vol commit；不是就接着写下一章")
    summary = summary.strip()
    if not summary:
        raise LwError("卷摘要不能为空")
    if len(summary) > SUMMARY_MAX:
        raise LwError(f"卷摘要 {len(summary)} 字，超过 {SUMMARY_MAX} 字上限")
    changes: dict[str, bytes | None] = {
        f"{L.卷摘要}/{L.volume_name(volume)}.md": f"# {L.volume_name(volume)} 卷摘要\n\n{summary}\n".encode("utf-8")
    }
    if outline and outline.strip():
        changes[f"{L.卷纲}/{L.volume_name(volume + 1)}.md"] = (outline.strip() + "\n").encode("utf-8")
    added: list[str] = []
    np_dir = repo.p(L.新承诺)
    if np_dir.is_dir():
        for path in sorted(np_dir.glob("*.md")):
            m = L.ITEM_FILE.match(path.name)
            if not m:
                continue
            rel = repo.rel(path)
            doc, _ = parse_doc(repo.text(path), rel)
            if not section(doc.body, "兑付计划"):
                raise LwError(f"{rel} 没有「## 兑付计划」")
            if str(doc.get("强度")) == "高" and not doc.get("兑付期限"):
                raise LwError(f"{rel} 强度为高，必须填兑付期限")
            doc.set("状态", "进行")
            doc.set("开启章", end)
            doc.set("最后推进章", end)
            changes[f"{L.承诺}/{path.name}"] = doc.dump().encode("utf-8")
            changes[rel] = None
            added.append(m.group(1))
    picked = [c for c in candidates(repo) if c.ticked]
    for c in picked:
        pid = repo.next_id("P", added)
        doc = new_doc({"类型": c.type, "强度": c.strength, "状态": "进行", "开启章": end, "兑付期限": c.deadline or None,
                       "最后推进章": end},
                      f"## 描述\n{c.title}（总纲：{c.anchor}）\n\n## 兑付计划\n{c.plan}\n\n## 履历\n"
                      f"- 第{end}章：开启（{L.volume_name(volume)}复盘·伏笔机会）\n")
        changes[file_named(c.title, f"{L.承诺}/{pid}-{L.safe_title(c.title)}.md")] = doc.dump().encode("utf-8")
        added.append(pid)
    changes[L.卷复盘] = None
    message = f"vol({volume:02d}): {L.volume_name(volume)}复盘\n"
    if added:
        message += "\n承诺: " + " ".join(f"+{p}" for p in added) + "\n"
    kept = kept_workspace(repo, changes, f"draft(vol{volume:02d}): {L.volume_name(volume)}复盘的工作稿存档")
    commit = apply_and_commit(repo.root, changes, message, kept)
    remove(repo, L.卷复盘)
    return commit
