"""The workspace (工作区/, spec §7) and the chapter transaction's state file.

``工作区/事务.yaml`` holds the stage, the chapter number, the frozen contract, an exemption the
author granted, the chosen draft. The workspace is pre-ratchet: it may be lost, tracked by git
or not; settle empties it in the same commit either way.

A stage belongs to what produced it: when a draft is rejected or replaced, everything that
was produced for it (lens reviews, the acceptance card, the summary, the choice) is dropped by
:func:`drop_reviews`, so nothing of a rejected draft can reach a settle.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

from lwcore.api import LwError, atomic_write_text

from lw_storyrepo import layout as L
from lw_storyrepo.atomic import apply_and_commit
from lw_storyrepo.dialect import fast_flat, new_map, plain, yaml_dump, yaml_load
from lw_storyrepo.repo import StoryRepo

STAGES = ("brief", "decided", "packed", "drafted", "checked", "reviewed", "accepted")
STAGE_NAMES = {
    "brief": "等作者拍板决策卡",
    "decided": "组装上下文包",
    "packed": "模型渲染草稿",
    "drafted": "机检",
    "checked": "三镜头评审",
    "reviewed": "作者验收",
    "accepted": "结转",
}
LENSES = ("读者", "编辑", "事实")
WRITE_DEBRIS = re.compile(r"\..+\.[a-z0-9_]{8}\.tmp")
"""The name of the temp file an atomic write of a workspace file goes through (the kernel's ``atomic_write_text``:
``.事务.yaml.wa4izuwb.tmp``, the target's name, eight random characters): a kill between its write and its rename
leaves it. It is no draft, review or card: a settle or an abort deletes it with the rest of the workspace but never
archives it (:func:`kept_workspace`), so a tracked workspace's history holds none (U14, stop 57)."""


def load_state(repo: StoryRepo) -> dict[str, Any] | None:
    """The transaction state, or None when no chapter is in progress."""
    path = repo.p(L.事务)
    if not path.is_file():
        return None
    text = repo.text(path)
    data = fast_flat(text)
    if data is None:
        data = plain(yaml_load(text, file=L.事务))
    stage = data.get("阶段")
    if stage not in STAGES or not isinstance(data.get("章号"), int) or isinstance(data.get("章号"), bool):
        raise LwError("工作区的事务文件坏了（阶段或章号不对）", file=L.事务,
                      expected="lw story abort 放弃本章事务后重来")
    return data


def state_text(state: dict[str, Any]) -> str:
    """The state file's text (empty values left out)."""
    data = new_map()
    for key, value in state.items():
        if value is not None and not (isinstance(value, list) and not value):
            data[key] = value
    return yaml_dump(data)


def save_state(repo: StoryRepo, state: dict[str, Any]) -> None:
    atomic_write_text(repo.p(L.事务), state_text(state))


def require_state(repo: StoryRepo, *stages: str) -> dict[str, Any]:
    """The state, refusing when there is none or its stage is not one of ``stages``."""
    state = load_state(repo)
    if state is None:
        raise LwError("工作区没有进行中的章事务", expected="先运行 lw story brief")
    if stages and state.get("阶段") not in stages:
        current = STAGE_NAMES.get(str(state.get("阶段")), state.get("阶段"))
        raise LwError(
            f"章事务当前阶段是「{current}」，不能做这一步",
            expected=f"{'、'.join(STAGE_NAMES[s] for s in stages)}阶段才能做；先运行 lw story，它做完「{current}」或说出这一步怎么做",
        )
    return state


def write(repo: StoryRepo, rel: str, text: str) -> Path:
    """Write a workspace file atomically (UTF-8, no BOM), never through a link out of the book."""
    repo.inside(rel)
    path = repo.p(rel)
    if path.is_symlink():
        path.unlink()  # a link inside the book is replaced, never written through
    atomic_write_text(path, text)
    return path


def remove(repo: StoryRepo, rel: str) -> bool:
    """Delete a workspace file if it exists. Returns whether it did."""
    try:
        repo.p(rel).unlink()
    except FileNotFoundError:
        return False
    return True


REVIEW_FILES = (*(L.lens_file(lens) for lens in LENSES), L.验收卡, L.章摘要稿)
"""What is made for the chosen draft: dropped with it (:func:`drop_reviews`)."""


def drop_reviews(state: dict[str, Any]) -> list[str]:
    """Forget everything produced for the chosen draft: lens reviews (and the contexts they
    came from), acceptance card, summary and the choice itself (``state`` is updated, not
    saved). Returns the files to delete, for :func:`change`."""
    for key in ("选稿", "验收稿", "评审上下文"):  # 评审上下文: lw_storyrepo.separation
        state.pop(key, None)
    return list(REVIEW_FILES)


def change(repo: StoryRepo, state: dict[str, Any] | None, drops: list[str] | tuple[str, ...],
           writes: dict[str, str] | None, archive: str, message: str) -> tuple[str, str] | None:
    """Every change of the workspace that drops something of it goes through here (abort,
    reject, pick, a redraft, checks that drop the reviews): delete ``drops``, write ``writes``
    (the text of a dropped file replaced counts as dropped) and save ``state`` (when given).

    A tracked workspace (spec §7: 工作区/ deleted from .gitignore, its history kept by git)
    loses nothing: the files dropped are committed first as they are (``archive``, a
    ``draft(N)`` subject), the change on top of it as ``message`` -- one journaled transaction
    (:func:`lw_storyrepo.atomic.apply_and_commit`): a kill leaves the book and its workspace
    as before, or both commits made and the change applied, once the next command recovered.
    Returns ``(archive commit, commit)`` then; None when the workspace is ignored (or nothing
    of it is dropped) and the change was simply made.
    """
    writes = dict(writes or {})
    dropped = [rel for rel in drops if os.path.lexists(repo.p(rel))]
    dropped += [rel for rel, text in writes.items() if rel not in dropped and os.path.lexists(repo.p(rel))
                and (repo.p(rel).is_symlink() or repo.text(rel) != text)]
    changes: dict[str, bytes | None] = {rel: None for rel in dropped}
    kept = kept_workspace(repo, changes, archive)
    if state is not None:
        writes[L.事务] = state_text(state)
    if kept is None:
        for rel in dropped:
            remove(repo, rel)
        for rel, text in writes.items():
            write(repo, rel, text)
        _prune(repo, dropped)
        return None
    changes.update({rel: text.encode("utf-8") for rel, text in writes.items()})
    commit = apply_and_commit(repo.root, changes, message, kept)
    _prune(repo, dropped)
    return repo.git.out("rev-parse", f"{commit}^").strip(), commit


def _prune(repo: StoryRepo, dropped: list[str]) -> None:
    """Remove the workspace folders a change left empty (工作区/原稿/ once its only draft is
    rejected); 工作区 itself stays. Writing a file makes its folder again."""
    top = repo.p(L.工作区)
    for folder in sorted({repo.p(rel).parent for rel in dropped}, key=lambda p: len(p.parts), reverse=True):
        if folder != top and top in folder.parents:
            try:
                folder.rmdir()
            except OSError:
                pass  # not empty (or already gone)


def kept_workspace(repo: StoryRepo, changes: dict[str, bytes | None], subject: str) -> tuple[list[str], str] | None:
    """``(paths, message)`` of the workspace files a commit of ``changes`` empties, to commit
    first when the author tracks the workspace (spec §7: 工作区/ deleted from .gitignore, the
    history kept by git), a killed write's temp file left out (:data:`WRITE_DEBRIS`); None when the workspace is
    ignored or nothing of it is emptied. A
    symbolic link among them (never archived or followed) or a directory where a file should be
    is refused by its path in the book before anything changes."""
    emptied = sorted(rel for rel, data in changes.items()
                     if data is None and rel.startswith(L.工作区 + "/") and os.path.lexists(repo.p(rel))
                     and not WRITE_DEBRIS.fullmatch(rel.rsplit("/", 1)[-1]))
    if not emptied or _ignores_workspace(repo) or repo.git.ignored(emptied[0]):
        return None
    for rel in emptied:
        if repo.p(rel).is_symlink():  # its target is no draft of the book: refused, never followed
            raise LwError("工作区受 git 跟踪，里面却有符号链接：不存档也不跟随它", file=rel,
                          expected="删掉这个链接（工作区里只放普通文件），再运行同一条命令")
        if not repo.p(rel).is_file():  # a directory where a draft or a review should be: git cannot archive it
            raise LwError("工作区受 git 跟踪，这里该是文件却是目录：不存档它", file=rel,
                          expected="删掉或挪走这个目录（工作区里只放普通文件），再运行同一条命令")
    return emptied, f"{subject}\n\n文件: " + "; ".join(emptied) + "\n"


IGNORE_LINES = frozenset(lead + "工作区" + tail for lead in ("", "/", "**/") for tail in ("", "/", "/*", "/**"))
"""The .gitignore lines that keep the workspace out of git (a new book has ``工作区/``; authors
also write ``/工作区/*``, ``**/工作区/`` and the like). Another rule that covers it is named by
:func:`track`'s refusal instead."""


def _ignores_workspace(repo: StoryRepo) -> bool:
    """The usual case read without asking git: .gitignore has the line the book was made with."""
    lines = {ln.strip() for ln in repo.text_or(".gitignore").splitlines()}
    return bool(lines & IGNORE_LINES)


TRACK_MESSAGE = "fix(配置): 工作区入 git\n\n草稿、评审与报告被清掉前先存档为 draft(N) commit（spec §7）。\n"


def track(repo: StoryRepo) -> str | None:
    """``lw story workspace track``: the author keeps the workspace's history in git (spec §7).

    The workspace lines leave .gitignore and .gitignore is committed alone, in one commit
    (:func:`lw_storyrepo.atomic.apply_and_commit`), so git is left clean -- also when the
    author already deleted the line by hand. Returns the commit; None when the committed
    .gitignore already tracks the workspace and nothing changed.
    """
    text = repo.text_or(".gitignore")
    lines = [ln for ln in text.splitlines() if ln.strip() not in IGNORE_LINES]
    new = "".join(ln + "\n" for ln in lines)
    head = repo.git.head()
    committed = repo.git.run("show", f"{head}:.gitignore", check=False).stdout if head else b""
    commit = None
    if new.encode("utf-8") != committed or new != text:
        commit = apply_and_commit(repo.root, {".gitignore": new.encode("utf-8")}, TRACK_MESSAGE)
    if repo.git.ignored(L.事务):
        raise LwError("工作区仍被 git 忽略：另有一条忽略规则盖住了它", file=".gitignore",
                      expected="删掉盖住 工作区/ 的那条规则（也看 .git/info/exclude），再 lw story workspace track")
    return commit


def reviews_complete(repo: StoryRepo) -> bool:
    return all(repo.p(L.lens_file(lens)).is_file() for lens in LENSES)


def workspace_files(repo: StoryRepo) -> list[str]:
    """Every file in the workspace (book-relative, sorted)."""
    ws = repo.p(L.工作区)
    return sorted(repo.rel(Path(dirpath) / name) for dirpath, _dirs, files in os.walk(ws) for name in files)


def abort(repo: StoryRepo) -> tuple[str, str] | None:
    """Drop the unfinished transaction (``lw story abort``): the workspace is emptied.

    A tracked workspace (spec §7) keeps its history, as a settle keeps it (:func:`change`):
    what is in it is committed first as ``draft(N): 第N章的草稿与评审存档（放弃）``, then
    emptied in an ``abort(N)`` commit on top. Returns ``(archive commit, abort commit)``
    then; None when the workspace is ignored (or empty) and was simply cleared.
    """
    try:
        state = load_state(repo)
    except LwError:
        state = None  # a broken state file is a reason to abort: the number is then unknown
    n = state.get("章号") if state else None
    what = f"第{n}章的草稿与评审存档（放弃）" if n else "工作区存档（放弃）"
    message = f"abort({n}): 放弃第{n}章的事务，清空工作区\n" if n else "abort: 清空工作区\n"
    done = change(repo, None, workspace_files(repo), None, f"draft({n}): {what}" if n else f"draft: {what}", message)
    clear(repo)  # folders left empty
    return done


def clear(repo: StoryRepo) -> None:
    """Empty the workspace on disk (no commit: see :func:`abort`)."""
    ws = repo.p(L.工作区)
    if not ws.is_dir():
        return
    for entry in list(os.scandir(ws)):
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path)
        else:
            os.unlink(entry.path)
