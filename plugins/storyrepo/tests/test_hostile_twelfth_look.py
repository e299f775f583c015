"""Hostile input, a twelfth look: the journal of an interrupted settle (``.git/lw-txn/journal.json``) read by every
command's recovery (:func:`lw_storyrepo.atomic.recover`), and stop 52's readers.

A journal someone else wrote, or a disk left it, still stopped the recovery — and with it every ``lw story`` command:

- a journal that is a named pipe waited for a writer for ever; one linking to ``/dev/zero`` read until memory ran out
  (a ``MemoryError``): it is now read as a regular file of bounded size (``read_json``), refused located otherwise;
- a backup the journal names that is not there (an internal ``FileNotFoundError`` half-way through the rollback) or is
  a pipe (the rollback waited for ever): each backup is now a regular file of the journal's folder, looked at first;
- a path with a name longer than the system allows (an internal ``OSError``, ``File name too long``), or thousands of
  folders deep (resolving it costs the square of its depth: a journal of such paths ran for minutes): refused, located,
  beyond :data:`~lw_storyrepo.atomic.PATH_PARTS_MAX` parts before anything is resolved.

Each is read through its result and its work (calls of ``os.lstat``), never timed."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from lw_storyrepo import atomic
from lw_storyrepo.atomic import PATH_PARTS_MAX, recover
from lw_storyrepo.gitops import Git
from lw_storyrepo.repo import StoryRepo
from lwcore.api import LwError


def _journal(root: Path, entries: list[dict[str, Any]]) -> Path:
    jdir = root / ".git" / "lw-txn"
    jdir.mkdir(parents=True)
    (jdir / "journal.json").write_text(json.dumps({"old_head": Git(root).head(), "entries": entries}), encoding="utf-8")
    return jdir


def _refused(root: Path) -> LwError:
    with pytest.raises(LwError) as refused:
        recover(root)
    assert refused.value.file is not None and Path(refused.value.file).name == "journal.json"
    return refused.value


def _book_files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file() and ".git" not in p.parts}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_journal_that_is_a_pipe_is_refused_not_waited_on(book: StoryRepo) -> None:
    root = Path(book.root)
    jdir = root / ".git" / "lw-txn"
    jdir.mkdir(parents=True)
    os.mkfifo(jdir / "journal.json")
    assert "regular file" in str(_refused(root))


def test_a_journal_linking_to_a_device_is_refused_not_read_without_end(book: StoryRepo) -> None:
    root = Path(book.root)
    jdir = root / ".git" / "lw-txn"
    jdir.mkdir(parents=True)
    (jdir / "journal.json").symlink_to("/dev/zero")
    assert "regular file" in str(_refused(root))


@pytest.mark.parametrize("pipe", [False, True])
def test_a_backup_not_there_or_a_pipe_is_refused_before_anything_is_rolled_back(book: StoryRepo, pipe: bool) -> None:
    root = Path(book.root)
    before = _book_files(root)
    (root / "book.yaml").write_text("changed by the killed settle", encoding="utf-8")
    jdir = _journal(root, [{"path": "大纲/x.md", "existed": False, "backup": None},
                           {"path": "book.yaml", "existed": True, "backup": "1.bak"}])
    (root / "大纲" / "x.md").write_text("written by the killed settle", encoding="utf-8")
    if pipe:
        os.mkfifo(jdir / "1.bak")
    assert "1.bak" in str(_refused(root))
    after = _book_files(root)  # nothing removed nor written half-way: the author decides
    assert after["大纲/x.md"] == "written by the killed settle".encode() and after["book.yaml"] != before["book.yaml"]


def test_a_backup_that_is_there_still_rolls_back(book: StoryRepo) -> None:
    root = Path(book.root)
    kept = (root / "book.yaml").read_bytes()
    jdir = _journal(root, [{"path": "book.yaml", "existed": True, "backup": "0.bak"}])
    (jdir / "0.bak").write_bytes(kept)
    (root / "book.yaml").write_text("changed by the killed settle", encoding="utf-8")
    assert recover(root) == "rolled-back" and (root / "book.yaml").read_bytes() == kept


@pytest.mark.parametrize("path", ["a" * 300, "大纲/" + "章" * 100 + ".md", "大纲/" + "b" * 250])
def test_a_path_whose_name_the_system_cannot_look_up_is_refused_located(book: StoryRepo, path: str) -> None:
    root = Path(book.root)
    _journal(root, [{"path": path, "existed": False}])
    assert "no file of the book" in str(_refused(root))


def test_a_path_thousands_of_folders_deep_is_refused_before_it_is_resolved(book: StoryRepo,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    root = Path(book.root)
    deep = "/".join(["d"] * 2000) + "/x.md"
    _journal(root, [{"path": deep, "existed": False}] * 50 + [{"path": "大纲/x.md", "existed": False}])
    looks: list[object] = []
    lstat = os.lstat
    monkeypatch.setattr(os, "lstat", lambda *a, **k: looks.append(a) or lstat(*a, **k))
    assert f"deeper than {PATH_PARTS_MAX}" in str(_refused(root))
    assert len(looks) < 50  # resolving it would look at each of its 2,000 folders


def test_a_path_as_deep_as_allowed_still_rolls_back(book: StoryRepo) -> None:
    root = Path(book.root)
    rel = "/".join(["大纲"] + ["d"] * (PATH_PARTS_MAX - 2)) + "/x.md"
    assert len(Path(rel).parts) == PATH_PARTS_MAX
    (root / rel).parent.mkdir(parents=True)
    (root / rel).write_text("written by the killed settle", encoding="utf-8")
    _journal(root, [{"path": rel, "existed": False}])
    assert recover(root) == "rolled-back" and not (root / rel).exists()
    assert atomic.JOURNAL_DIR not in os.listdir(root / ".git")
