"""Hand edits (spec §9): ``fix(…)`` commits and the explicit ``retcon`` transaction.

Files are the truth and the author may edit any of them; ``lw story`` notices unsettled edits
in 定稿/大纲/文风/book.yaml and proposes a ``fix(…)`` commit. Accepted chapters are the one
exception (§1.3 定稿只增不改): a change to a settled chapter's front matter (its accepted facts),
a rewrite of its prose beyond a typo, a deleted or hand-made chapter file is refused by
:func:`commit_fix` and goes through :func:`retcon`, which needs a reason, writes it into the
commit, and syncs what it changed into the timeline and the promises.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lwcore.errors import LwError

from lw_storyrepo import layout as L
from lw_storyrepo.atomic import apply_and_commit, recover
from lw_storyrepo.counting import word_count
from lw_storyrepo.dialect import quick_meta
from lw_storyrepo.markdown import append_history, replace_row, table_rows_at
from lw_storyrepo.repo import StoryRepo, as_int, as_list

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


def typo_only(old: str, new: str) -> bool:
    """Whether ``new`` differs from ``old`` by typo fixes only (short runs, few characters)."""
    if old == new:
        return True
    a, b = old.splitlines(), new.splitlines()
    changed = 0
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if tag != "replace" or i2 - i1 != j2 - j1:
            if any(line.strip() for line in a[i1:i2] + b[j1:j2]):
                return False  # a line added or removed
            continue
        for x, y in zip(a[i1:i2], b[j1:j2]):
            for op, p1, p2, q1, q2 in difflib.SequenceMatcher(None, x, y, autojunk=False).get_opcodes():
                if op == "equal":
                    continue
                run = max(p2 - p1, q2 - q1)
                if run > TYPO_RUN:
                    return False
                changed += run
    return changed <= max(TYPO_TOTAL, len(old) // 100)


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
    edited = _in_scope(hand_edits(repo), paths)
    if not edited:
        raise LwError("没有需要结转的手改")
    blocked = accepted_changes(repo, edited)
    if blocked:
        n = next((m.group(1) for b in blocked if (m := re.search(r"/0*(\d+)-", b))), "章号")
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


def _sync_timeline(repo: StoryRepo, n: int, book_time: str, changes: dict[str, bytes | None], log: list[str]) -> None:
    text = changes[L.时间线].decode("utf-8") if changes.get(L.时间线) else repo.text_or(L.时间线)
    for index, cells in table_rows_at(text):
        if as_int(cells[0]) == n and (cells + [""])[1] != book_time:
            cells = (cells + ["", "", "", ""])[:4]
            cells[1] = book_time
            text = replace_row(text, index, cells)
            log.append(f"时间线 {n}.书内时间={book_time}")
    changes[L.时间线] = text.encode("utf-8")


@dataclass
class RetconPlan:
    chapter: int
    edited: list[str]
    changes: dict[str, bytes | None]
    synced: list[str]
    message: str


def plan_retcon(repo: StoryRepo, chapter: int, reason: str) -> RetconPlan:
    """Everything ``retcon(chapter)`` commits: the author's edits and what they sync."""
    reason = (reason or "").strip()
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
    chapters: list[tuple[str, int, dict[str, Any], dict[str, Any], str]] = []
    for rel in edited:
        if not rel.startswith(L.正文 + "/") or not rel.endswith(".md"):
            continue
        old = _head_text(repo, rel)
        if old is None or changes.get(rel) is None:
            raise LwError(f"{rel}：retcon 改的是已接受章节的内容，不增删章节文件")
        old_meta, _ = quick_meta(old, rel)
        text = repo.text(rel)
        new_meta, body = quick_meta(text, rel)
        n = _chapter_number(rel, new_meta)
        if n is None:
            raise LwError(f"{rel}：认不出章号")
        chapters.append((rel, n, old_meta, new_meta, body))
    overrides = {n: new for _rel, n, _old, new, _body in chapters}
    for rel, n, old_meta, new_meta, body in chapters:
        doc = repo.load_doc(rel)
        if as_int(new_meta.get("字数")) != word_count(body):
            doc.set("字数", word_count(body))
            log.append(f"第{n}章 字数={word_count(body)}")
        new_rel = f"{L.正文}/{L.chapter_filename(n, str(new_meta.get('标题') or '无题'))}"
        changes[rel] = None
        changes[new_rel] = doc.dump().encode("utf-8")
        if new_rel != rel:
            log.append(f"第{n}章 改名 {Path(new_rel).name}")
        if str(old_meta.get("书内时间") or "") != str(new_meta.get("书内时间") or ""):
            _sync_timeline(repo, n, str(new_meta.get("书内时间") or ""), changes, log)
        _sync_promises(repo, n, old_meta, new_meta, reason, overrides, changes, log)
    message = f"retcon({chapter}): {reason}\n\n文件: " + "; ".join(edited) + "\n"
    if log:
        message += "同步: " + "; ".join(log) + "\n"
    return RetconPlan(chapter, edited, changes, log, message)


def retcon(repo: StoryRepo, chapter: int, reason: str, plan: RetconPlan | None = None) -> str:
    """Commit edits to settled facts with the reason, syncing timeline and promises."""
    plan = plan or plan_retcon(repo, chapter, reason)
    return apply_and_commit(repo.root, plan.changes, plan.message)
