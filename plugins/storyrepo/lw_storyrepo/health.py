"""The health check (体检, spec §9): every 50 chapters, a report in the workspace, never committed.

Style drift (fingerprints of the recent chapters against the baseline range of book.yaml),
bad promises (overdue, 高 without a deadline, no payoff plan, idle for long), timeline orphans
(rows without a chapter, chapters without a row, people present who are nowhere registered).
The author decides: pull the style back, or move the baseline.
"""

from __future__ import annotations

from lw_storyrepo import layout as L
from lw_storyrepo.dialect import quick_meta
from lw_storyrepo.fingerprint import drift, fingerprint, mean
from lw_storyrepo.notices import note
from lw_storyrepo.repo import StoryRepo, as_int
from lw_storyrepo.volumes import Volumes
from lw_storyrepo.workspace import write

PERIOD = 50


def due(repo: StoryRepo) -> bool:
    """Whether the health check is due: the last settled chapter is a multiple of 50 and its
    report has not been written yet."""
    last = repo.last_chapter()
    return bool(last) and last % PERIOD == 0 and not repo.p(report_file(last)).is_file()


def run_if_due(repo: StoryRepo) -> str | None:
    """The health check, by itself (spec §9: 每 50 章自动): written right after the settle of
    every 50th chapter and, should that have been missed (a kill after the commit), by the next
    brief — whichever command the author uses. Returns the report written, if any."""
    if not due(repo):
        return None
    rel = health_report(repo)
    note(f"第 {repo.last_chapter()} 章到了体检周期：体检报告已写进 {rel}")
    return rel


def report_file(chapter: int) -> str:
    return f"{L.工作区}/体检-{chapter:04d}.md"


def health_report(repo: StoryRepo, at: int | None = None) -> str:
    """Write ``工作区/体检-NNNN.md`` for chapter ``at`` (default: the last one)."""
    book = repo.book()
    last = at or repo.last_chapter()
    files = dict(repo.chapter_files())
    base_range = range(book["文体基线起"], book["文体基线止"] + 1)
    recent_range = range(max(1, last - PERIOD + 1), last + 1)

    def prints(chapters: range) -> list[dict[str, float]]:
        out = []
        for n in chapters:
            if n in files:
                _meta, body = quick_meta(repo.text(files[n]), repo.rel(files[n]))
                out.append(fingerprint(body))
        return out

    base, now = mean(prints(base_range)), mean(prints(recent_range))
    lines = [f"# 体检报告：第 {last} 章", "",
             f"## 文体指纹漂移（基线第 {base_range.start}–{base_range.stop - 1} 章 vs 最近 {len(recent_range)} 章）"]
    moved = drift(base, now) if base and now else []
    lines += [f"- {k}：{b:.2f} → {n:.2f}（{r:+.0%}）" for k, b, n, r in moved] or ["- 无明显漂移"]
    lines += ["", "## 承诺坏账"]
    bad = []
    volumes = Volumes.of(repo, book["卷规模"])
    for item in repo.promises():
        m = item.meta
        if str(m.get("状态", "进行")) != "进行":
            continue
        due = volumes.deadline(m.get("兑付期限"))
        if due is not None and due < last:
            bad.append(f"- {item.id} {item.title}：已过兑付期限（第 {due} 章）")
        if str(m.get("强度")) == "高" and not m.get("兑付期限"):
            bad.append(f"- {item.id} {item.title}：强度高却没有兑付期限")
        if not item.section("兑付计划"):
            bad.append(f"- {item.id} {item.title}：没有兑付计划")
        idle = last - (as_int(m.get("最后推进章"), 0) or 0)
        if idle > max(book["高承诺最大搁置章数"] * 3, 30):
            bad.append(f"- {item.id} {item.title}：{idle} 章未推进")
    lines += bad or ["- 无"]
    lines += ["", "## 时间线孤儿"]
    orphans = []
    rows = repo.timeline()
    row_chapters = {r["章"] for r in rows}
    orphans += [f"- 时间线第 {r['章']} 章没有对应章节文件" for r in rows if r["章"] not in files]
    orphans += [f"- 第 {n} 章没有时间线行" for n in files if n not in row_chapters]
    known = set(repo.aliases())
    for r in rows:
        orphans += [f"- 时间线第 {r['章']} 章的在场者「{name}」不在名册/角色卡" for name in r["在场"] if name not in known]
    lines += orphans[:200] or ["- 无"]
    lines += ["", "（体检报告只进工作区，不入册；作者决定回拉文风或更新 book.yaml 的文体基线。）"]
    rel = report_file(last)
    write(repo, rel, "\n".join(lines) + "\n")
    return rel
