"""All-or-nothing application of a set of file changes plus one git commit.

:func:`apply_and_commit` takes ``{path: bytes | None}`` (``None`` deletes) and a message:

1. a journal is written in ``.git/lw-txn/`` first (the old bytes of every path, the old
   HEAD), made valid by one atomic rename of ``journal.json``;
2. the files are written (each atomically) and deleted;
3. one ``git commit`` of exactly those paths (private index, one ref update);
4. the journal is removed.

Any failure before the commit exists restores every path from the journal and re-raises, so
the working tree is exactly as before. A process killed at any point leaves the journal;
:func:`recover` (run at the start of every ``lw story`` command) rolls back when HEAD did not
move, or finishes up when the commit exists. Either the commit exists or the tree is as
before.

``LW_STORY_FAULT=<step>[@raise|@kill|@oserror]`` injects a fault at a named step (tests).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
from pathlib import Path
from typing import Any

from lwcore.api import LwError, atomic_write_bytes, confine, read_json

from lw_storyrepo.faults import fault
from lw_storyrepo.gitops import Git
from lw_storyrepo.notices import note, pending

JOURNAL_DIR = "lw-txn"
_BACKUP = re.compile(r"\d+\.bak")
"""A backup's name in the journal's folder, as :func:`apply_and_commit` names it (``3.bak``)."""
_HEAD = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
PATH_PARTS_MAX = 64
"""The most folders and file a journal's path holds: no file of a book lies deeper, and resolving where a deeper path
leads costs the square of its depth (A12, stop 53)."""


def write_file(path: Path, data: bytes) -> None:
    """One working-tree write: temp file + rename, so a reader never sees half a file.

    No fsync here (git does not fsync the tree either); durability comes from the journal,
    which is fsynced before the first working-tree file is touched. A seam for disk-error
    injection in tests.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_of(path)
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
        fault("temp-written")  # the temp file is whole, the path not yet replaced: a kill leaves the temp
        os.replace(tmp, path)
    except BaseException:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise


def temp_of(path: Path) -> Path:
    """The temp file :func:`write_file` writes ``path`` through (``.name.lw-tmp`` beside it): a kill between its
    write and its rename leaves it, and a recovery removes it (:func:`_clear_temps`)."""
    return path.with_name(f".{path.name}.lw-tmp")


def _clear_temps(root: Path, journal: dict) -> None:
    """Remove the temp files a killed transaction's writes left beside the journal's paths, so the book
    holds none of the settle's debris (the board would take one for the author's hand edit)."""
    for entry in journal["entries"]:
        tmp = temp_of(root / entry["path"])
        if tmp.is_file():
            tmp.unlink()


def delete_file(path: Path) -> None:
    path.unlink()


def _journal(root: Path) -> Path:
    return root / ".git" / JOURNAL_DIR


def apply_and_commit(root: Path, changes: dict[str, bytes | None], message: str,
                     keep: tuple[list[str], str] | None = None) -> str:
    """Apply ``changes`` (repo-relative posix path -> bytes or None) and commit them.

    ``keep``: ``(paths, message)`` of files to keep in the history first (a tracked workspace's
    drafts, which ``changes`` deletes): they are committed as they are now in a commit of their
    own, the parent of this one; the branch still moves once, from the old HEAD to this commit.
    """
    root = Path(root)
    git = Git(root)
    jdir = _journal(root)
    if (jdir / "journal.json").exists():
        raise LwError("上一次结转没有收尾，请先运行 lw story（会自动恢复）")
    old_head = git.head()
    parent_commit = git.snapshot(keep[0], keep[1], old_head) if keep and keep[0] else None
    fault("archived")  # the archive commit exists, on no branch yet: a kill here changes nothing
    paths = sorted(changes)
    for rel in paths:  # every path stays in the book, whatever links it holds
        confine(root, rel, what="path")
    real_index = git.index_clean(old_head)
    # 1. journal
    if jdir.exists():
        shutil.rmtree(jdir)
    jdir.mkdir(parents=True)
    entries = []
    created_dirs: list[str] = []
    for i, rel in enumerate(paths):
        path = root / rel
        existed = path.is_file()
        if existed:
            (jdir / f"{i}.bak").write_bytes(path.read_bytes())
        entries.append({"path": rel, "existed": existed, "backup": f"{i}.bak" if existed else None})
        parent = path.parent
        missing = []
        while not parent.exists() and parent != root:
            missing.append(parent)
            parent = parent.parent
        for d in missing:
            r = d.relative_to(root).as_posix()
            if r not in created_dirs:
                created_dirs.append(r)
    journal = {"old_head": old_head, "message": message, "entries": entries, "created_dirs": created_dirs,
               "real_index": real_index}
    try:
        fault("journal")
        atomic_write_bytes(jdir / "journal.json", json.dumps(journal, ensure_ascii=False).encode("utf-8"))
    except BaseException:
        shutil.rmtree(jdir, ignore_errors=True)  # nothing in the tree was touched yet
        raise
    # 2.-3. apply and commit; roll back on any failure before the commit exists
    try:
        for n, rel in enumerate(paths, start=1):
            data = changes[rel]
            path = root / rel
            if data is None:
                if path.exists():
                    delete_file(path)
            else:
                write_file(path, data)
            fault(f"write:{n}")
        _prune_empty_dirs(root, [rel for rel in paths if changes[rel] is None])
        fault("written")
        fault("commit")
        git.commit_paths(paths, message, old_head=old_head, sync_index=False, real_index=real_index,
                         parent_commit=parent_commit)
    except BaseException:
        head = _head_safe(git)
        if head is None or head == old_head:
            _rollback(root, journal)
            raise
        # the commit exists although something after it failed: keep it
    fault("committed")
    _finish(root, paths, sync=not real_index)
    new_head = git.head()
    assert new_head is not None
    return new_head


def _prune_empty_dirs(root: Path, deleted: list[str]) -> None:
    """Remove folders emptied by deletions (never a top-level folder such as 工作区/)."""
    parents = sorted({Path(rel).parent for rel in deleted}, key=lambda p: len(p.parts), reverse=True)
    for parent in parents:
        while len(parent.parts) >= 2:
            try:
                (root / parent).rmdir()
            except OSError:
                break
            parent = parent.parent


def _head_safe(git: Git) -> str | None:
    try:
        return git.head()
    except Exception:  # noqa: BLE001
        return None


def _rollback(root: Path, journal: dict) -> None:
    jdir = _journal(root)
    for entry in journal["entries"]:
        path = root / entry["path"]
        if entry["existed"]:
            data = (jdir / entry["backup"]).read_bytes()
            if not path.is_file() or path.read_bytes() != data:
                atomic_write_bytes(path, data)
        elif path.exists():
            path.unlink()
    _clear_temps(root, journal)
    if journal.get("real_index"):
            Git(root).reset_paths(journal["old_head"], [e["path"] for e in journal["entries"]])
    for rel in sorted(journal.get("created_dirs", []), key=len, reverse=True):
        d = root / rel
        try:
            d.rmdir()
        except OSError:
            pass
    shutil.rmtree(jdir, ignore_errors=True)


def _finish(root: Path, paths: list[str], *, sync: bool = True) -> None:
    if sync:
        payload = "\0".join(paths).encode("utf-8") + b"\0"
        Git(root).run("update-index", "--add", "--remove", "-z", "--stdin", input=payload, check=False)
    shutil.rmtree(_journal(root), ignore_errors=True)


RECOVERED = {"rolled-back": "上次中断的结转已回滚（书恢复到结转之前）", "finished": "上次中断的结转已收尾（提交已在，文件补齐）"}


def recover_before_reading(root: Path) -> str | None:
    """What every command does before it reads the book: an interrupted settle (a journal in
    ``.git/lw-txn/``) is rolled back or finished first, and said (:mod:`lw_storyrepo.notices`),
    so no command ever reads a half-applied chapter."""
    done = recover(root)
    if done:
        note(RECOVERED[done])
    return done


def recovered_earlier() -> str | None:
    """What :func:`recover_before_reading` did earlier in this command (``"rolled-back"``,
    ``"finished"``), read from its notice; None when nothing was recovered."""
    said = pending()
    return next((done for done, text in RECOVERED.items() if text in said), None)


def _in_book(root: Path, base: Path, rel: Any, jfile: Path, what: str) -> None:
    """Refuse (:class:`LwError`) a journal's path that is not a file's or folder's inside the book (``base``, the
    book's folder with its links resolved): deeper than :data:`PATH_PARTS_MAX`, one the system cannot look up (a
    name too long, a loop of links), outside the book once ``..`` and links are resolved (:func:`confine`), the
    book's folder itself, or inside ``.git``."""
    if isinstance(rel, str) and (rel.count("/") >= PATH_PARTS_MAX or rel.count("\\") >= PATH_PARTS_MAX):
        raise LwError(f"{what} {rel[:60]!r}… 不是书里的文件（比 {PATH_PARTS_MAX} 层还深）", file=jfile)
    inside = confine(root, rel, file=jfile, what=what).relative_to(base).parts
    for path in (root / rel, temp_of(root / rel)):  # the file and the temp file a killed write left beside it
        try:
            os.lstat(path)
        except (FileNotFoundError, NotADirectoryError):
            pass  # a file the settle was to create
        except OSError as exc:  # the recovery's own look at it would stop on a traceback
            raise LwError(f"{what} {rel[:60]!r} 不是书里的文件（{exc.strerror}）", file=jfile) from None
    if not inside or inside[0] == ".git":
        raise LwError(f"{what} {rel!r} 不是书里的文件", file=jfile)


def _valid_journal(root: Path, journal: Any, jfile: Path) -> dict[str, Any]:
    """``journal`` as :func:`apply_and_commit` writes it, else :class:`LwError` (located at ``jfile``): its old head a
    commit's name or null, each entry's path a file of the book (:func:`_in_book`), a backup for each that existed
    named as the journal names them (a regular file of its own folder, there), each created folder in the book. A
    journal someone else wrote never has a recovery remove, write or read a file outside the book, nor stop on a
    traceback (A11, stop 52) or wait on a pipe (A12, stop 53)."""
    base = Path(os.path.realpath(root))
    if not isinstance(journal, dict) or not isinstance(journal.get("entries"), list) or "old_head" not in journal:
        raise LwError("不是结转日志（要有 old_head 和 entries 列表）", file=jfile)
    head = journal["old_head"]
    if head is not None and not (isinstance(head, str) and _HEAD.fullmatch(head)):
        raise LwError(f"old_head {str(head)[:60]!r} 不是提交名", file=jfile)
    for entry in journal["entries"]:
        if not isinstance(entry, dict) or not isinstance(entry.get("existed"), bool):
            raise LwError(f"条目 {str(entry)[:60]!r} 不是日志条目", file=jfile)
        _in_book(root, base, entry.get("path"), jfile, "path")
        backup = entry.get("backup")
        if entry["existed"] and not (isinstance(backup, str) and _BACKUP.fullmatch(backup)):
            raise LwError(f"backup {str(backup)[:60]!r} 不是日志自己的备份", file=jfile)
        if entry["existed"]:
            confine(jfile.parent, str(backup), file=jfile, what="backup")  # no link out of the journal's folder
            try:  # a pipe would stall the rollback's read of it, a missing one stop it half done
                regular = stat.S_ISREG(os.lstat(jfile.parent / str(backup)).st_mode)
            except OSError:
                regular = False
            if not regular:
                raise LwError(f"backup {backup!r} 不是日志文件夹里的文件", file=jfile)
    dirs = journal.get("created_dirs", [])
    if not isinstance(dirs, list):
        raise LwError("created_dirs 不是列表", file=jfile)
    for rel in dirs:
        _in_book(root, base, rel, jfile, "created_dirs")
    return journal


def recover(root: Path) -> str | None:
    """Finish or undo an interrupted transaction. Returns ``"rolled-back"``, ``"finished"`` or None."""
    root = Path(root)
    jdir = _journal(root)
    if not jdir.exists():
        return None
    jfile = jdir / "journal.json"
    if not jfile.exists():
        # killed while writing the journal: nothing in the tree was touched yet
        shutil.rmtree(jdir, ignore_errors=True)
        return "rolled-back"
    try:
        journal = _valid_journal(root, read_json(jfile), jfile)  # a regular file, bounded: no pipe nor device read
    except LwError as exc:  # its own words (through the catalogues) where it says: the journal, a line of it
        raise LwError(f"上次结转的日志读不出来（{exc.message}）", file=exc.file or jfile, line=exc.line, column=exc.column,
                      expected="git status 确认工作区后，删除 .git/lw-txn/ 再运行 lw story") from None
    except OSError as exc:
        raise LwError(f"上次结转的日志读不出来（{exc}）", file=jfile,
                      expected="git status 确认工作区后，删除 .git/lw-txn/ 再运行 lw story") from None
    head = Git(root).head()
    if head == journal["old_head"]:
        _rollback(root, journal)
        tmp_index = root / ".git" / "lw-settle.index"
        if tmp_index.exists():
            tmp_index.unlink()
        return "rolled-back"
    _clear_temps(root, journal)
    _finish(root, [e["path"] for e in journal["entries"]])
    return "finished"
