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

Three readers of a draft grew with the product of two things the author controls (figures in bench/story_hostile.py,
``twelfth_``): a pronoun's antecedent read the paragraphs before it again for each pronoun (and walked the whole draft
back to find them); a contract line of thousands of places searched the whole draft for each (``names.present``) and
read the rest of the line again for each (``checks._only_telling``).

Each is read through its result and its work (calls of ``os.lstat``, calls made, characters searched), never timed."""

from __future__ import annotations

import cProfile
import json
import os
import pstats
import re
from pathlib import Path
from typing import Any, Callable, TypeVar

import pytest

from lw_storyrepo import atomic, checks, continuity, names
from lw_storyrepo.atomic import PATH_PARTS_MAX, recover
from lw_storyrepo.gitops import Git
from lw_storyrepo.repo import StoryRepo
from lwcore.api import LwError

T = TypeVar("T")


def _counted(fn: Callable[[], T]) -> tuple[T, int]:
    """``fn()`` and the calls it made (Python functions, builtins and each step of a generator)."""
    profile = cProfile.Profile()
    result = profile.runcall(fn)
    return result, sum(row[1] for row in pstats.Stats(profile).stats.values())  # type: ignore[attr-defined]


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
    assert "不是书里的文件" in str(_refused(root))


def test_a_path_thousands_of_folders_deep_is_refused_before_it_is_resolved(book: StoryRepo,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    root = Path(book.root)
    deep = "/".join(["d"] * 2000) + "/x.md"
    _journal(root, [{"path": deep, "existed": False}] * 50 + [{"path": "大纲/x.md", "existed": False}])
    looks: list[object] = []
    lstat = os.lstat
    monkeypatch.setattr(os, "lstat", lambda *a, **k: looks.append(a) or lstat(*a, **k))
    assert f"比 {PATH_PARTS_MAX} 层还深" in str(_refused(root))
    assert len(looks) < 50  # resolving it would look at each of its 2,000 folders


def test_a_path_deep_in_backslashes_is_refused_by_its_depth(book: StoryRepo) -> None:
    """A journal written on Windows parts its path with backslashes: counted too, not looked up as one long name."""
    root = Path(book.root)
    _journal(root, [{"path": "\\".join(["d"] * 2000) + "\\x.md", "existed": False}])
    assert f"比 {PATH_PARTS_MAX} 层还深" in str(_refused(root))


def test_a_path_as_deep_as_allowed_still_rolls_back(book: StoryRepo) -> None:
    root = Path(book.root)
    rel = "/".join(["大纲"] + ["d"] * (PATH_PARTS_MAX - 2)) + "/x.md"
    assert len(Path(rel).parts) == PATH_PARTS_MAX
    (root / rel).parent.mkdir(parents=True)
    (root / rel).write_text("written by the killed settle", encoding="utf-8")
    _journal(root, [{"path": rel, "existed": False}])
    assert recover(root) == "rolled-back" and not (root / rel).exists()
    assert atomic.JOURNAL_DIR not in os.listdir(root / ".git")


# A pronoun's antecedent (continuity._antecedent): the paragraphs before the pronoun's were read again for each pronoun
# of a line — the draft's every line walked back to find the nearest four (a draft of 20,000 short lines of 他), and
# the paragraph before read whole (a 30,000-character line naming people before a line of thousands of 他: 112 s at the
# draft cap). Now the nearest paragraphs are walked back to and each paragraph is read once per names and aliases.

def _world() -> tuple[continuity.World, re.Pattern[str]]:
    cards = {"许砚": {"姓名": "许砚"}, "顾衡": {"姓名": "顾衡"}}
    return (continuity.World(cards=cards, aliases={"许砚": "许砚", "顾衡": "顾衡"}, gender={"许砚": "他", "顾衡": "她"}),
            re.compile("许砚|顾衡"))


def _pronouns(lines: list[str]) -> list[tuple[int, int]]:
    return [(i, m.start() + 1) for i, line in enumerate(lines) for m in re.finditer("他", line)]


def test_thousands_of_pronouns_after_a_long_paragraph_read_it_once(monkeypatch: pytest.MonkeyPatch) -> None:
    world, names = _world()
    lines = ["许砚顾衡" * 7500, "他掏出旧怀表，" * 300]
    read: list[int] = []
    original = continuity._read_names
    monkeypatch.setattr(continuity, "_read_names", lambda n, w, text: read.append(len(text)) or original(n, w, text))
    found = [continuity._antecedent(names, lines, i, col, world) for i, col in _pronouns(lines)]
    assert found == ["许砚"] * 300  # 他: of the two named there, the one of his gender
    assert sum(n for n in read if n > continuity.ANTECEDENT_REACH) == len(lines[0])  # the paragraph before, once


def test_a_pronoun_on_each_of_thousands_of_lines_walks_back_to_its_nearest_paragraphs() -> None:
    world, names = _world()
    lines = ["顾衡说许砚来了。"] + ["他掏出旧怀表。", ""] * 3000
    at = _pronouns(lines)
    found, calls = _counted(lambda: [continuity._antecedent(names, lines, i, col, world) for i, col in at])
    assert found[:4] == ["许砚"] * 4 and set(found[4:]) == {None}  # carried back at most CARRIED_SPAN paragraphs
    assert calls < 120 * len(at)  # each walked the whole draft back (thousands of calls per pronoun)


# A contract line of thousands of places (seven_contract_place_line): each place's name was searched for in the whole
# draft (names.present, about 1 ms at the cap), a product of the contract's length and the draft's. Now a text asked
# of more than PAIRS_AFTER times has its pairs of characters read once, and only a term whose pairs are all there is
# searched for.

class _Scanned(str):
    """A text that counts the characters its substring searches read."""

    read = 0

    def __contains__(self, term: object) -> bool:
        _Scanned.read += len(self)
        return super().__contains__(term)  # type: ignore[operator]


def test_thousands_of_terms_asked_of_one_draft_search_it_only_for_those_it_may_hold() -> None:
    places = ["".join(chr(0x4E00 + (i * 7919 + j * 104729) % 20000) for j in range(2)) + "城" for i in range(4000)]
    draft = _Scanned("林知夏推开值班室的门，许砚正趴在桌上写病历。" * 2500 + places[7] + "，" + places[3999][:1] + "……" + places[3999][1:])
    _Scanned.read = 0
    found = [names.present(p, draft) for p in places]
    assert [p for p, hit in zip(places, found) if hit] == [places[7], places[3999]]  # whole, and broken by a pause (寒……潭)
    assert _Scanned.read < 200 * len(draft)  # each of 4,000 places searched the 55,000-character draft two or three times


def test_thousands_of_places_on_one_contract_line_each_read_where_it_stands() -> None:
    places = ["".join(chr(0x4E00 + (i * 7919 + j * 104729) % 20000) for j in range(2)) + "城" for i in range(3000)]
    line = "许砚去" + "、".join(places) + "，带一盒" + places[5] + "的点心"
    told, calls = _counted(lambda: [checks._only_telling(p, line) for p in places])
    assert told == [False] * 3000  # 去…、…: where someone goes (the sixth said once so, once as where 点心 is from)
    assert checks._only_telling(places[5], "带一盒" + places[5] + "的点心，" + places[5] + "那场雨")
    assert calls < 40 * len(places)  # a pattern looked up (compiled) for each, the rest of the line copied at each
