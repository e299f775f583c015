"""Hand edits (spec §9): ``fix(…)`` commits and the explicit ``retcon`` transaction.

Files are the truth and the author may edit any of them; ``lw story`` notices unsettled edits
in 定稿/大纲/文风/book.yaml and proposes a ``fix(…)`` commit. Accepted chapters are the one
exception (§1.3 定稿只增不改): a change to a settled chapter's front matter (its accepted facts),
a rewrite of its prose beyond a typo, a deleted or hand-made chapter file is refused by
:func:`commit_fix` and goes through :func:`retcon`, which needs a reason, writes it into the
commit, and syncs what it changed (spec §9: 设定/承诺同步) in the same commit: the 设定变更
lines into the character cards and info gaps (:func:`lw_storyrepo.changes.revise_changes`),
书内时间, 一句话事件 and 在场 into the timeline row, the promise moves into the promises,
字数 and the file name into the chapter.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from lwcore.api import LwError

from lw_storyrepo import layout as L
from lw_storyrepo.atomic import apply_and_commit, recover
from lw_storyrepo.changes import revise_changes
from lw_storyrepo.counting import word_count
from lw_storyrepo.dialect import RepairNeeded, quick_meta
from lw_storyrepo.faults import fault
from lw_storyrepo.findings import one_line
from lw_storyrepo.markdown import append_history, append_row, replace_row, table_line, table_rows_at
from lw_storyrepo.repo import StoryRepo, as_int, as_list
from lw_storyrepo.settle import SUMMARY_MAX, add_to_roster, sync_aliases, timeline_cells

WATCHED = (L.定稿, L.大纲, L.文风, L.BOOK_FILE)
TYPO_RUN = 4
"""The longest run of changed characters a typo fix may have."""
TYPO_TOTAL = 10
"""Changed characters a typo fix may have in all (or 1% of the chapter, if more)."""
MOVES = (("开启承诺", "开启"), ("推进承诺", "推进"), ("兑付承诺", "兑付"), ("弃置承诺", "弃置"))


def hand_edits(repo: StoryRepo) -> list[str]:
    return [path for _xy, path in repo.git.status(*WATCHED)]


def _head_text(repo: StoryRepo, rel: str) -> str | None:
    proc = repo.git.run("show", f"HEAD:{rel}", check=False)
    return proc.stdout.decode("utf-8", "replace") if proc.returncode == 0 else None


def _line_edits(old: str, new: str) -> Iterator[tuple[str, str, int, int, int, int] | None]:
    """The one diff walk :func:`typo_only` and :func:`_replaced_runs` share: the text compared line by line,
    then each pair of lines in a block replaced line for line character by character. Yields ``(x, y, p1,
    p2, q1, q2)`` for each run of characters changed within a kept line (``x[p1:p2]`` became ``y[q1:q2]``),
    and ``None`` for a block that adds or removes a line with words in it (blank lines are passed over)."""
    a, b = old.splitlines(), new.splitlines()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if tag != "replace" or i2 - i1 != j2 - j1:
            if any(line.strip() for line in a[i1:i2] + b[j1:j2]):
                yield None  # a line added or removed
            continue
        for x, y in zip(a[i1:i2], b[j1:j2]):
            for op, p1, p2, q1, q2 in difflib.SequenceMatcher(None, x, y, autojunk=False).get_opcodes():
                if op != "equal":
                    yield x, y, p1, p2, q1, q2


def typo_only(old: str, new: str) -> bool:
    """Whether ``new`` differs from ``old`` by typo fixes only (short runs, few characters)."""
    if old == new:
        return True
    changed = 0
    for edit in _line_edits(old, new):
        if edit is None:
            return False
        _x, _y, p1, p2, q1, q2 = edit
        run = max(p2 - p1, q2 - q1)
        if run > TYPO_RUN:
            return False
        changed += run
    return changed <= max(TYPO_TOTAL, len(old) // 100)


def _replaced_runs(old: str, new: str) -> list[tuple[str, str, str, str]]:
    """Each run of characters a typo-sized edit replaced, inserted or deleted, within the lines it kept,
    as ``(left, was, now, right)``: the run before and after, and up to :data:`TYPO_RUN` characters of the
    unchanged text on each side of it (the same in both texts), so a run can be found again elsewhere."""
    out = []
    for edit in _line_edits(old, new):
        if edit is None:
            continue
        x, y, p1, p2, q1, q2 = edit
        left = x[max(0, p1 - TYPO_RUN):p1]
        right = x[p2:p2 + TYPO_RUN]
        while left and not y[:q1].endswith(left):
            left = left[1:]
        while right and not y[q2:].startswith(right):
            right = right[:-1]
        out.append((left, x[p1:p2], y[q1:q2], right))
    return out


def _occurrences(text: str, word: str, most: int = 2) -> int:
    """How many times ``text`` holds ``word``, overlapping ones counted (哈哈 twice in 哈哈哈), up to ``most``."""
    count, at = 0, text.find(word)
    while at >= 0 and count < most:
        count += 1
        at = text.find(word, at + 1)
    return count


def _wordy(run: str) -> int:
    """How many characters of ``run`` are not punctuation or blanks: a context of one character and a comma
    (五， of 二十五，) is no evidence of the place (麻老五，would be rewritten)."""
    return sum(1 for c in run if not c.isspace() and not unicodedata.category(c).startswith("P"))


def follow_runs(text: str, old: str, new: str, unsure: list[str] | None = None) -> tuple[str, list[tuple[str, str]]]:
    """``text`` (a chapter's summary) with the words a typo-sized edit of its chapter (``old`` → ``new``)
    replaced rewritten the same way, in one pass, and the ``(was, now)`` pairs it rewrote. A run is looked
    for with the fewest characters of its unchanged neighbours that make it two characters at least that are
    not punctuation (:func:`_wordy`: 十五 of 二十五，, never 五， alone) and
    that ``text`` holds exactly once, as many on each side first, then more on one side than the other
    (沈阳 → 长春 as it stands; 的 → 地 only inside 慢慢的走; 他 → 她 as 头，他 when 李明 and 王芳 both have
    ，他说), so one changed character never rewrites
    every one of its kind nor a place the edit was not about. A run the text does not hold is left; a run it
    holds only more than once with every context, or that the edit changed two ways, is left too and its
    words appended to ``unsure`` (for the author to mend by hand)."""
    pairs: dict[str, str] = {}
    conflicting: list[str] = []
    for left, was, now, right in _replaced_runs(old, new):
        even = [(min(k, len(left)), min(k, len(right))) for k in range(max(len(left), len(right)) + 1)]
        shapes = even + sorted(((lk, rk) for lk in range(len(left) + 1) for rk in range(len(right) + 1)
                                if (lk, rk) not in even), key=sum)
        ambiguous = ""
        for lk, rk in shapes:
            lc, rc = left[len(left) - lk:], right[:rk]
            found = _occurrences(text, lc + was + rc) if _wordy(lc + was + rc) >= 2 else 0
            if found == 1:
                if pairs.setdefault(lc + was + rc, lc + now + rc) != lc + now + rc:
                    conflicting.append(lc + was + rc)  # 北平 → 奉天 in one line, → 南京 in another
                break
            if found > 1 and not ambiguous:
                ambiguous = lc + was + rc
        else:
            if ambiguous and unsure is not None and ambiguous not in unsure:
                unsure.append(ambiguous)
    for word in conflicting:
        pairs.pop(word, None)
        if unsure is not None and word not in unsure:
            unsure.append(word)
    if not pairs:
        return text, []
    done: dict[str, str] = {}

    def swap(m: re.Match[str]) -> str:
        done[m.group()] = pairs[m.group()]
        return pairs[m.group()]

    pattern = re.compile("|".join(re.escape(w) for w in sorted(pairs, key=len, reverse=True)))
    text = pattern.sub(swap, text)
    return text, [(w, now) for w, now in done.items() if w != now]


def accepted_changes(repo: StoryRepo, paths: list[str]) -> list[str]:
    """Edited chapter files that change what was accepted (retcon only), with the reason."""
    out = []
    for rel in paths:
        if not rel.startswith(L.正文 + "/") or not rel.endswith(".md"):
            continue
        old = _head_text(repo, rel)
        path = repo.p(rel)
        if old is None:
            out.append(f"{rel}（新章节文件：章节只由结转写入）")
            continue
        if not path.is_file():
            out.append(f"{rel}（删除了已接受的章节）")
            continue
        old_meta, old_body = quick_meta(old, rel)
        new_meta, new_body = quick_meta(repo.text(path), rel)
        if old_meta != new_meta:
            out.append(f"{rel}（front matter 是已接受的事实）")
        elif not typo_only(old_body, new_body):
            out.append(f"{rel}（正文改动超出错别字修正）")
    return out



def _follow_summary(lines: list[str], old_body: str, body: str) -> tuple[list[str], str, list[tuple[str, str]], list[str]]:
    """A chapter summary's ``lines`` after a typo-sized edit of its chapter (``old_body`` → ``body``):
    its heading line (``# 第N章 标题``, never rewritten here), the rest with the replaced words
    rewritten (:func:`follow_runs`), the ``(was, now)`` pairs rewritten and the words left as unsure."""
    head = lines[:1] if lines and lines[0].startswith("# ") else []
    unsure: list[str] = []
    rest, followed = follow_runs("\n".join(lines[len(head):]), old_body, body, unsure)
    return head, rest, followed, unsure


def stale_summaries(repo: StoryRepo, paths: list[str]) -> list[tuple[int, list[str]]]:
    """The accepted chapters among ``paths`` that a typo-sized hand edit changed in words their chapter
    summary states (沈阳 → 长春 where the summary says 沈阳), each as ``(chapter, the words the summary
    still says)``: :func:`commit_fix` commits the chapter alone, and only ``lw story retcon`` carries such
    a change into the summary (the same :func:`_follow_summary` the retcon rewrites it with, so the two never
    disagree on which words). Edits that :func:`accepted_changes` refuses, and chapters with no summary,
    are not listed."""
    out = []
    for rel in paths:
        if not rel.startswith(L.正文 + "/") or not rel.endswith(".md") or not repo.p(rel).is_file():
            continue
        old = _head_text(repo, rel)
        if old is None:
            continue
        old_meta, old_body = quick_meta(old, rel)
        new_meta, new_body = quick_meta(repo.text(rel), rel)
        n = _chapter_number(rel, new_meta)
        summary = f"{L.章摘要}/{n:04d}.md" if n else ""
        if not n or old_meta != new_meta or not repo.p(summary).is_file() or not typo_only(old_body, new_body):
            continue
        _head, _rest, followed, unsure = _follow_summary(repo.text(summary).split("\n"), old_body, new_body)
        words = [w for w, _now in followed] + [w for w in unsure if w not in dict(followed)]
        if words:
            out.append((n, words))
    return out


def retcon_chapter(blocked: list[str]) -> str:
    """The chapter number to retcon for ``blocked`` (:func:`accepted_changes`): the first changed chapter's."""
    return next((m.group(1) for b in blocked if (m := re.search(r"/0*(\d+)-", b))), "章号")

def fix_scope(paths: list[str]) -> str:
    def scope(p: str) -> str:
        if p.startswith(L.正文):
            return "正文"
        if p.startswith(L.承诺):
            return "承诺"
        if p.startswith(L.大纲):
            return "大纲"
        if p.startswith(L.文风):
            return "文风"
        if p.startswith(L.记忆):
            return "记忆"
        if p == L.BOOK_FILE:
            return "配置"
        return "设定"

    scopes = [scope(p) for p in paths]
    return max(set(scopes), key=lambda s: (scopes.count(s), s == "设定")) if scopes else "设定"


def propose_fix_message(paths: list[str]) -> str:
    names = [Path(p).stem for p in paths]
    shown = "、".join(names[:5]) + (f" 等 {len(names)} 个文件" if len(names) > 5 else "")
    return f"fix({fix_scope(paths)}): 手改结转 {shown}"


def _in_scope(edited: list[str], paths: list[str] | None) -> list[str]:
    if not paths:
        return edited
    return [p for p in edited if any(p == q or p.startswith(q.rstrip("/") + "/") for q in paths)]


def edits_in_scope(repo: StoryRepo, paths: list[str] | None = None) -> list[str]:
    """The hand edits :func:`commit_fix` would commit: every one, or those under ``paths``."""
    return _in_scope(hand_edits(repo), paths)


def _current(repo: StoryRepo, rels: list[str]) -> dict[str, bytes | None]:
    """Every file under ``rels`` as it is now (None: deleted), folders expanded."""
    out: dict[str, bytes | None] = {}
    for rel in rels:
        full = repo.p(rel)
        if full.is_dir() and not full.is_symlink():
            for f in sorted(full.rglob("*")):
                if f.is_file():
                    out[repo.rel(f)] = repo.inside(repo.rel(f)).read_bytes()
        else:
            out[rel] = repo.inside(rel).read_bytes() if full.is_file() else None
    return out


def commit_fix(repo: StoryRepo, message: str | None = None, paths: list[str] | None = None) -> str:
    """Commit the author's hand edits as ``fix(…)``; accepted chapters are refused (retcon)."""
    recover(repo.root)
    edited = edits_in_scope(repo, paths)
    if not edited:
        raise LwError("没有需要结转的手改")
    blocked = accepted_changes(repo, edited)
    if blocked:
        n = retcon_chapter(blocked)
        raise LwError("这些改动动了已接受的章节，定稿只增不改：" + "；".join(blocked),
                      expected=f"确要改就走 lw story retcon {n} --原因 …；只结转别的文件：lw story fix 路径")
    message = message or propose_fix_message(edited)
    if not re.match(r"^fix\([^)]+\): \S", message):
        message = f"fix({fix_scope(edited)}): {message}"
    return repo.git.commit_paths(list(_current(repo, edited)), message + "\n\n文件: " + "; ".join(edited) + "\n")


# --- retcon ----------------------------------------------------------------------------------------


def _chapter_number(rel: str, meta: dict[str, Any]) -> int | None:
    m = L.CHAPTER_FILE.match(Path(rel).name)
    return as_int(meta.get("章号")) or (int(m.group(1)) if m else None)


def _moves_of(meta: dict[str, Any]) -> dict[str, set[str]]:
    return {word: {str(x) for x in as_list(meta.get(key))} for key, word in MOVES}


def _last_touch(repo: StoryRepo, pid: str, overrides: dict[int, dict[str, Any]]) -> int | None:
    """The last chapter whose front matter opens, advances or pays ``pid``."""
    best = None
    for n, _path in repo.chapter_files():
        meta = overrides.get(n) or repo.chapter_meta(n)
        moves = _moves_of(meta)
        if pid in moves["开启"] | moves["推进"] | moves["兑付"]:
            best = n
    return best


def _sync_promises(repo: StoryRepo, n: int, old: dict[str, Any], new: dict[str, Any], reason: str,
                   overrides: dict[int, dict[str, Any]], changes: dict[str, bytes | None], log: list[str]) -> None:
    before, after = _moves_of(old), _moves_of(new)
    for word in ("开启", "推进", "兑付", "弃置"):
        for pid, added in [(p, True) for p in sorted(after[word] - before[word])] + \
                          [(p, False) for p in sorted(before[word] - after[word])]:
            item = repo.promise(pid)
            doc = repo.load_doc(item.path)
            if word == "兑付":
                doc.set("状态", "已兑付" if added else "进行")
            elif word == "弃置":
                doc.set("状态", "已弃置" if added else "进行")
            elif word == "开启" and added:
                doc.set("开启章", n)
            last = _last_touch(repo, pid, overrides)
            if last is not None and word != "弃置":
                doc.set("最后推进章", last)
            doc.body = append_history(doc.body, f"第{n}章：{'' if added else '撤销'}{word}（retcon：{reason}）")
            changes[repo.rel(item.path)] = doc.dump().encode("utf-8")
            log.append(f"{'+' if added else '-'}{word} {pid}")


def _timeline_row(text: str, n: int) -> tuple[int, list[str]] | None:
    return next(((i, (c + ["", "", "", ""])[:4]) for i, c in table_rows_at(text) if as_int(c[0]) == n), None)


def _insert_row(text: str, n: int, cells: list[str]) -> str:
    """``text`` with a timeline row for chapter ``n`` in chapter order."""
    rows = table_rows_at(text)
    after = [i for i, c in rows if (as_int(c[0]) or 0) > n]
    if not after:
        return append_row(text, cells)
    lines = text.split("\n")
    lines.insert(after[0], table_line(cells).rstrip("\n"))
    return "\n".join(lines)


def _sync_timeline(repo: StoryRepo, n: int, old: dict[str, Any], new: dict[str, Any],
                   changes: dict[str, bytes | None], log: list[str]) -> None:
    """Chapter ``n``'s timeline row after its front matter changed (书内时间, 一句话事件, 在场,
    the title an event defaults to), computed as settle computes it. A cell changes only where
    the chapter's old and new rows differ, so a correction made with ``timeline set`` stays
    unless the retcon changes that very field; a title-derived event changes only while the
    row still shows the old title."""
    was, now = timeline_cells(n, old, repo.canonical), timeline_cells(n, new, repo.canonical)
    if was == now:
        return
    text = written.decode("utf-8") if (written := changes.get(L.时间线)) else \
        repo.text_or(L.时间线, "# 时间线\n\n" + L.TIMELINE_HEADER)
    found = _timeline_row(text, n)
    if found is None:
        text = _insert_row(text, n, now)
        log.append(f"时间线+第{n}章")
    else:
        index, cells = found
        explicit = {1: "书内时间", 2: "一句话事件", 3: "在场"}
        for i, name in explicit.items():
            if was[i] != now[i] and (old.get(name) != new.get(name) or cells[i] == was[i]):
                cells[i] = now[i]
                log.append(f"时间线 {n}.{name}={now[i]}")
        text = replace_row(text, index, cells)
    changes[L.时间线] = text.encode("utf-8")


def _before_chapter(repo: StoryRepo, n: int) -> Callable[[str], dict[str, Any] | None] | None:
    """A file's front matter as it was before chapter ``n`` was settled (the parent of its
    ``ch(n)`` commit; None: no such file then), or None when the history has no ``ch(n)``."""
    commits = repo.git.out("log", "--basic-regexp", f"--grep=^ch({n}): ", "--format=%H", "HEAD").split()
    if not commits:
        return None
    parent = commits[-1] + "^"

    def before(rel: str) -> dict[str, Any] | None:
        proc = repo.git.run("show", f"{parent}:{rel}", check=False)
        if proc.returncode != 0:
            return None
        return quick_meta(proc.stdout.decode("utf-8", "replace"), rel)[0]

    return before


def _later_lines(repo: StoryRepo, n: int, overrides: dict[int, dict[str, Any]]) -> list[tuple[int, str]]:
    """``(chapter, line)`` of the setting changes the chapters after ``n`` record."""
    out = []
    for m, _path in repo.chapter_files():
        if m > n:
            meta = overrides.get(m) or repo.chapter_meta(m)
            out += [(m, str(x)) for x in as_list(meta.get("设定变更"))]
    return out


def _sync_settings(repo: StoryRepo, n: int, rel: str, old: dict[str, Any], new: dict[str, Any],
                   overrides: dict[int, dict[str, Any]], changes: dict[str, bytes | None], log: list[str]) -> None:
    """The chapter's 设定变更 after the retcon, carried into the cards and info gaps (new
    characters into 名册 too), as settle applies them; a line that does not apply is refused,
    located in the chapter file."""
    old_lines = [str(x) for x in as_list(old.get("设定变更"))]
    new_lines = [str(x) for x in as_list(new.get("设定变更"))]
    if old_lines == new_lines:
        return
    try:
        created = revise_changes(repo, n, old_lines, new_lines, changes, log, before=_before_chapter(repo, n),
                                 later=_later_lines(repo, n, overrides))
    except RepairNeeded:
        raise
    except LwError as exc:
        text = written.decode("utf-8") if (written := changes.get(rel)) else repo.text(rel)
        needle = next((line for line in new_lines + old_lines if line in exc.message), "设定变更")
        line = next((i for i, t in enumerate(text.split("\n"), start=1) if needle in t), None)
        raise LwError(exc.message, file=rel, line=line, expected=exc.expected) from None
    add_to_roster(repo, n, created, [], {}, changes, log)
    sync_aliases(repo, changes, log)


@dataclass
class RetconPlan:
    chapter: int
    edited: list[str]
    changes: dict[str, bytes | None]
    synced: list[str]
    message: str


def _sync_summary(repo: StoryRepo, n: int, old_meta: dict[str, Any], new_meta: dict[str, Any], old_body: str,
                  body: str, summary: str | None, edited: list[str], changes: dict[str, bytes | None],
                  log: list[str]) -> None:
    """The chapter summary (记忆/章摘要/NNNN.md) follows the retcon: a new summary given is filed
    (≤200 字; the same text again is the author saying it still holds: said, nothing written); a summary the author edited by hand in the same retcon is taken as it is; a retcon
    that rewrites the prose (beyond a typo) without either is refused (a stale summary would
    mislead every later chapter, spec decision 4); a typo-sized one has the words it replaced rewritten
    in the summary where it says them (:func:`follow_runs`, said in the 同步 line, with a one-line event
    that still says them); a new one-line event without either is said in the commit's 同步 line
    (摘要未改); a new title renames the summary's heading."""
    rel = f"{L.章摘要}/{n:04d}.md"
    title = str(new_meta.get("标题") or "").strip()
    if summary is not None:
        summary = summary.strip()
        if not summary:
            raise LwError("章摘要是空的")
        if len(summary) > SUMMARY_MAX:
            raise LwError(f"章摘要 {len(summary)} 字，超过 {SUMMARY_MAX} 字上限")
        text = f"# 第{n}章 {title}\n\n{summary}\n".encode("utf-8")
        if repo.p(rel).is_file() and repo.p(rel).read_bytes() == text:
            log.append(f"章摘要 {n:04d} 作者确认照旧")  # the same summary given again: it still holds
            return
        changes[rel] = text
        log.append(f"章摘要 {n:04d} 已更新")
        return
    if rel in edited:
        return
    if not typo_only(old_body, body):
        raise LwError(f"retcon 改了第 {n} 章的正文，章摘要也要跟着改",
                      expected=f"--摘要 \"新摘要\"（≤200 字），或手改 {rel} 后再 retcon")
    if old_meta.get("一句话事件") != new_meta.get("一句话事件"):
        log.append(f"章摘要 {n:04d} 未改（一句话事件改了；要改摘要用 --摘要）")
    if not repo.p(rel).is_file():
        return
    lines = repo.text(rel).split("\n")
    head, rest, followed, unsure = _follow_summary(lines, old_body, body)
    if unsure:  # a run the summary says in more than one place: which one the edit meant is the author's call
        log.append(f"章摘要 {n:04d} 未随正文改「{'」「'.join(unsure)}」（摘要里不止一处，认不准是哪一处；"
                   f"要改用 --摘要，或手改 {rel} 一起 retcon）")
    if followed:  # a typo-sized edit that changed a fact the summary states: the summary follows it
        log.append(f"章摘要 {n:04d} 随正文改：" + "、".join(f"{w}→{now}" for w, now in followed))
        event = str(new_meta.get("一句话事件") or "")
        kept = [w for w, _now in followed if w in event]
        if kept and old_meta.get("一句话事件") == new_meta.get("一句话事件"):
            log.append(f"一句话事件仍写「{'、'.join(kept)}」（要改就一起改 front matter 的一句话事件）")
    if head and str(old_meta.get("标题") or "").strip() != title:
        head = [f"# 第{n}章 {title}"]
        log.append(f"章摘要 {n:04d} 标题={title}")
    text = "\n".join(head + rest.split("\n"))
    if text != "\n".join(lines):
        changes[rel] = text.encode("utf-8")


def plan_retcon(repo: StoryRepo, chapter: int, reason: str, summary: str | None = None) -> RetconPlan:
    """Everything ``retcon(chapter)`` commits: the author's edits and what they sync.

    ``summary``: the chapter's new summary (required when the retcon rewrites its prose or its
    one-line event and the summary file was not edited by hand)."""
    reason = one_line(reason or "")  # the commit's subject: a new line would start a line of its own
    if not reason:
        raise LwError("retcon 必须写明原因", expected='lw story retcon 87 --原因 "修正大长老境界设定"')
    recover(repo.root)
    edited = hand_edits(repo)
    if not edited:
        raise LwError("没有可入册的修改：先改好定稿/大纲里的文件，再运行 retcon")
    if repo.chapter_path(chapter) is None:
        raise LwError(f"第 {chapter} 章不存在")
    changes = _current(repo, edited)
    log: list[str] = []
    chapters: list[tuple[str, int, dict[str, Any], dict[str, Any], str, str]] = []
    for rel in edited:
        if not rel.startswith(L.正文 + "/") or not rel.endswith(".md"):
            continue
        old = _head_text(repo, rel)
        if old is None or changes.get(rel) is None:
            raise LwError(f"{rel}：retcon 改的是已接受章节的内容，不增删章节文件")
        old_meta, old_body = quick_meta(old, rel)
        text = repo.text(rel)
        new_meta, body = quick_meta(text, rel)
        n = _chapter_number(rel, new_meta)
        if n is None:
            raise LwError(f"{rel}：认不出章号")
        chapters.append((rel, n, old_meta, new_meta, old_body, body))
    overrides = {n: new for _rel, n, _old, new, _ob, _body in chapters}
    if overrides and chapter not in overrides:  # the commit would say retcon(2) for an edit of chapter 3
        first = min(overrides)
        raise LwError(f"这次改的是第 {'、'.join(str(n) for n in sorted(overrides))} 章，不是第 {chapter} 章：retcon 的章号要是改动的那一章",
                      file=next(rel for rel, n, *_rest in chapters if n == first),
                      expected=f"lw story retcon {first} --原因 …")
    if summary is not None and chapter not in overrides:
        raise LwError(f"给了第 {chapter} 章的新摘要，但这次 retcon 没有改第 {chapter} 章")
    for rel, n, old_meta, new_meta, old_body, body in chapters:
        doc = repo.load_doc(rel)
        if as_int(new_meta.get("字数")) != word_count(body):
            doc.set("字数", word_count(body))
            log.append(f"第{n}章 字数={word_count(body)}")
        new_rel = f"{L.正文}/{L.chapter_filename(n, str(new_meta.get('标题') or '无题'))}"
        changes[rel] = None
        changes[new_rel] = doc.dump().encode("utf-8")
        if new_rel != rel:
            log.append(f"第{n}章 改名 {Path(new_rel).name}")
        _sync_timeline(repo, n, old_meta, new_meta, changes, log)
        known = repo.aliases()
        newcomers = [str(x) for x in as_list(new_meta.get("在场")) if str(x) not in known
                     and str(x) not in [str(y) for y in as_list(old_meta.get("在场"))]]
        add_to_roster(repo, n, newcomers, [], {}, changes, log)  # 在场 names reach the roster, as at settle
        _sync_settings(repo, n, rel, old_meta, new_meta, overrides, changes, log)
        _sync_promises(repo, n, old_meta, new_meta, reason, overrides, changes, log)
        _sync_summary(repo, n, old_meta, new_meta, old_body, body, summary if n == chapter else None, edited,
                      changes, log)
    message = f"retcon({chapter}): {reason}\n\n文件: " + "; ".join(edited) + "\n"
    if log:
        message += "同步: " + "; ".join(log) + "\n"
    return RetconPlan(chapter, edited, changes, log, message)


def retcon(repo: StoryRepo, chapter: int, reason: str, plan: RetconPlan | None = None,
           summary: str | None = None) -> str:
    """Commit edits to settled facts with the reason, syncing settings, timeline, promises and
    the chapter summary (one commit, all or nothing)."""
    plan = plan or plan_retcon(repo, chapter, reason, summary)
    fault("planned")
    return apply_and_commit(repo.root, plan.changes, plan.message)
