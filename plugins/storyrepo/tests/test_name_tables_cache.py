"""The new-name check's tables kept across processes (:mod:`lw_storyrepo.nametables`): what a
process reads from the file is exactly what a cold build gives; a bad file of any kind is
rebuilt, silently; a folder that cannot be written is no error; the key follows every input;
a write killed before its rename leaves no file a reader would take."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest
from story_cli import hand_in, new_book

from lw_storyrepo import nametables
from lw_storyrepo.nametables import FILE_NAME, NameTables, name_tables, tables_key
from lw_storyrepo.propernouns import _Lexicon

PLUGIN = Path(__file__).resolve().parents[1]
SMALL = NameTables({"沈": 3, "沈砚": 2, "砚": 0}, 6, {"沈砚": "nr", "走进": "v"}, {"砚": 0.75, "翥": 0.5},
                   frozenset({"沈砚"}))


def digest(tables: NameTables, freq: dict[str, int], total: int) -> str:
    """One digest of the tables and of jieba's own FREQ/total (floats by repr: exact)."""
    parts = [sorted(tables.freq.items()), tables.total, sorted(tables.tags.items()),
             sorted((c, repr(s)) for c, s in tables.given.items()), sorted(tables.famous),
             sorted(freq.items()), total]
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()


@pytest.fixture(scope="module")
def cold(tmp_path_factory: pytest.TempPathFactory) -> tuple[_Lexicon, Path]:
    """A lexicon whose tables were built cold (an empty folder) and written to that folder."""
    folder = tmp_path_factory.mktemp("name-tables")
    lex = _Lexicon(cache_dir=folder)
    assert (folder / FILE_NAME).is_file()
    return lex, folder


def builder(tables: NameTables) -> tuple[Callable[[], NameTables], list[int]]:
    calls: list[int] = []

    def build() -> NameTables:
        calls.append(1)
        return tables
    return build, calls


def test_tables_from_the_file_equal_the_tables_built_cold(cold: tuple[_Lexicon, Path]) -> None:
    lex, folder = cold
    key = tables_key(lex.inputs(), lex.jieba.__version__)
    build, calls = builder(lex.build())
    assert build() == lex.tables and calls == [1]
    read = name_tables(build, key, folder)
    assert calls == [1]  # served by the file
    assert read == lex.tables and read.freq == lex.jieba.dt.FREQ and read.total == lex.jieba.dt.total
    assert list(read.freq) == list(lex.tables.freq) and list(read.tags) == list(lex.tables.tags)
    # a fresh process that reads the file (jieba never loads its dictionary) holds the same tables and
    # gives jieba the same FREQ and total
    code = ("import sys; from pathlib import Path\n"
            "from lw_storyrepo.propernouns import _Lexicon\n"
            "from test_name_tables_cache import digest\n"
            "lex = _Lexicon(cache_dir=Path(sys.argv[1]))\n"
            "print(digest(lex.tables, lex.jieba.dt.FREQ, lex.jieba.dt.total), 'jieba.posseg' in sys.modules)\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(PLUGIN), str(PLUGIN / "tests"), *sys.path]))
    out = subprocess.run([sys.executable, "-c", code, str(folder)], capture_output=True, text=True, env=env,
                         check=True, timeout=300).stdout.split()
    assert out[1] == "False"  # the tags came from the file, not from jieba's tagger
    assert out[0] == digest(lex.tables, lex.jieba.dt.FREQ, lex.jieba.dt.total)


BAD_FILES: dict[str, Callable[[bytes], bytes]] = {
    "truncated": lambda good: good[: len(good) // 2],
    "corrupt": lambda good: b"\x00\xff" + good[2:],
    "empty": lambda good: b"",
    "not an object": lambda good: b"[1, 2, 3]",
    "wrong key": lambda good: good.replace(b'"key": "k"', b'"key": "other"'),
    "wrong format": lambda good: good.replace(f'"format": "{nametables.FORMAT}"'.encode(), b'"format": "0"'),
    "a count not a number": lambda good: good.replace(b'"freq_counts": [3', b'"freq_counts": ["3"'),
    "a field missing": lambda good: good.replace(b'"famous"', b'"famed"'),
    "lengths differ": lambda good: good.replace(b'"given_scores": [', b'"given_scores": [0.5, '),
    # the right layout and key, values no build gives (planted or edited: jieba would take the log of a zero total)
    "a zero total": lambda good: good.replace(b'"total": 6', b'"total": 0'),
    "a negative count": lambda good: good.replace(b'"freq_counts": [3', b'"freq_counts": [-3'),
    "a score above one": lambda good: good.replace(b'"given_scores": [0.75', b'"given_scores": [1.75'),
}


@pytest.mark.parametrize("kind", list(BAD_FILES))
def test_a_bad_file_is_rebuilt_silently(tmp_path: Path, kind: str) -> None:
    build, calls = builder(SMALL)
    assert name_tables(build, "k", tmp_path) == SMALL and calls == [1]
    path = tmp_path / FILE_NAME
    good = path.read_bytes()
    path.write_bytes(BAD_FILES[kind](good))
    assert path.read_bytes() != good
    assert name_tables(build, "k", tmp_path) == SMALL and calls == [1, 1]
    assert path.read_bytes() == good  # written again, whole
    assert name_tables(build, "k", tmp_path) == SMALL and calls == [1, 1]


def test_a_link_planted_in_the_folder_is_never_written_through(tmp_path: Path) -> None:
    """The temporary file is a new one of a name nobody can predict: links planted at the names a writer could use
    (the old ``.name-tables.json.<pid>.tmp``) are left alone, their targets unchanged, and the file is a plain file."""
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    folder = tmp_path / "data"
    folder.mkdir()
    for name in (f".{FILE_NAME}.{os.getpid()}.tmp", f".{FILE_NAME}.tmp"):
        (folder / name).symlink_to(victim)
    build, calls = builder(SMALL)
    assert name_tables(build, "k", folder) == SMALL and calls == [1]
    assert victim.read_text(encoding="utf-8") == "precious"
    assert (folder / FILE_NAME).is_file() and not (folder / FILE_NAME).is_symlink()
    assert name_tables(build, "k", folder) == SMALL and calls == [1]  # and it is read back


def test_an_oversized_file_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build, calls = builder(SMALL)
    name_tables(build, "k", tmp_path)
    monkeypatch.setattr(nametables, "MAX_BYTES", (tmp_path / FILE_NAME).stat().st_size - 1)
    assert name_tables(build, "k", tmp_path) == SMALL and calls == [1, 1]


def test_a_folder_that_cannot_be_written_or_read_still_gives_the_tables(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("x")
    build, calls = builder(SMALL)
    assert name_tables(build, "k", blocked / "data") == SMALL and calls == [1]  # its parent is a file
    (tmp_path / FILE_NAME).mkdir()  # the file's place taken by a folder
    assert name_tables(build, "k", tmp_path) == SMALL and calls == [1, 1]

    def refuse(*args: object) -> None:
        raise PermissionError(13, "read-only file system")
    folder = tmp_path / "read-only"
    monkeypatch.setattr(os, "replace", refuse)
    assert name_tables(build, "k", folder) == SMALL and calls == [1, 1, 1]
    assert not [p for p in folder.iterdir()]  # the temporary file is gone too


def test_the_key_follows_every_input(tmp_path: Path, cold: tuple[_Lexicon, Path]) -> None:
    lex, _ = cold
    inputs = lex.inputs()
    names = [p.name for p in inputs]
    assert names[:2] == ["dict.txt", "charfreq.csv"] and "propernouns.py" in names and "names.py" in names
    copies = []
    for i, path in enumerate(inputs):
        copy = tmp_path / f"{i}-{path.name}"
        copy.write_bytes(path.read_bytes())
        copies.append(copy)
    key = tables_key(copies, "1")
    assert tables_key(copies, "1") == key
    assert tables_key(copies, "2") != key
    for copy in copies:
        data = copy.read_bytes()
        copy.write_bytes(data + b"\n")
        assert tables_key(copies, "1") != key, copy.name
        copy.write_bytes(data)
    assert tables_key(copies, "1") == key


def test_the_format_names_the_tables_fields() -> None:
    # a change to NameTables' fields is a change of the file's layout: bump nametables.FORMAT with it
    assert [f.name for f in dataclasses.fields(NameTables)] == ["freq", "total", "tags", "given", "famous"]
    assert nametables.FORMAT == "2"


KILLED_WRITE = """
import sys
from pathlib import Path
from lw_storyrepo.nametables import NameTables, name_tables
tables = NameTables({"x": int(sys.argv[2])}, 1, {}, {}, frozenset())
name_tables(lambda: tables, sys.argv[3], Path(sys.argv[1]))
"""


def test_a_write_killed_before_its_rename_is_never_read(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(PLUGIN), *sys.path]),
               LW_STORY_FAULT="name_tables.rename@kill")

    def killed_write(count: int, key: str) -> None:
        done = subprocess.run([sys.executable, "-c", KILLED_WRITE, str(tmp_path), str(count), key], env=env,
                              timeout=120)
        assert done.returncode in (-9, 137)

    killed_write(7, "k")
    assert not (tmp_path / FILE_NAME).exists()  # only a temporary file, under another name
    build, calls = builder(SMALL)
    assert name_tables(build, "k", tmp_path) == SMALL and calls == [1]
    good = (tmp_path / FILE_NAME).read_bytes()
    killed_write(9, "k2")  # a rewrite killed: the old file stays whole
    assert (tmp_path / FILE_NAME).read_bytes() == good
    assert name_tables(build, "k", tmp_path) == SMALL and calls == [1]


def test_a_killed_writes_temporary_is_removed_by_the_next_write_once_it_is_old(tmp_path: Path) -> None:
    """A temporary older than STALE_SECONDS is a killed write's: the next write removes it. A younger one (another
    process's write in progress), another file's temporary and a link are left."""
    old, young = tmp_path / f".{FILE_NAME}.dead.tmp", tmp_path / f".{FILE_NAME}.live.tmp"
    other, target = tmp_path / ".other.json.x.tmp", tmp_path / "target"
    for path in (old, young, other, target):
        path.write_bytes(b"x" * 10)
    link = tmp_path / f".{FILE_NAME}.link.tmp"
    link.symlink_to(target)
    long_ago = 1_000_000.0
    for path in (old, other):
        os.utime(path, (long_ago, long_ago))
    os.utime(link, (long_ago, long_ago), follow_symlinks=False)
    nametables._sweep(tmp_path / FILE_NAME, now=long_ago + nametables.STALE_SECONDS + 1)
    assert not old.exists()
    assert young.exists() and other.exists() and link.is_symlink() and target.read_bytes() == b"x" * 10
    os.utime(young, (long_ago, long_ago))
    build, calls = builder(SMALL)
    assert name_tables(build, "k", tmp_path) == SMALL and calls == [1]  # a real write sweeps with the clock's now
    assert not young.exists() and (tmp_path / FILE_NAME).is_file()


def test_lw_data_dir_is_where_the_tables_are_kept(tmp_path: Path) -> None:
    """``lw --data-dir D story …`` keeps the tables in D's plugin folder, never in $LW_HOME's."""
    book = new_book(tmp_path / "书", "# 世界观\n江城。\n", [("沈砚", "境界", "凡人")], contract=["沈砚出场"])
    hand_in(book, "---\n在场: [沈砚]\n---\n沈砚走进茶馆，对掌柜周福说：“来壶茶。”\n")
    data, home = tmp_path / "data", tmp_path / "home"
    env = dict(os.environ, LW_HOME=str(home), HOME=str(home), PYTHONPATH=os.pathsep.join([str(PLUGIN), *sys.path]))
    done = subprocess.run([str(Path(sys.executable).with_name("lw")), "--data-dir", str(data), "story", "--locale",
                           "zh", "check", "-C", str(book)], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 1), done.stderr[-2000:]
    assert (data / "plugins-data" / "storyrepo" / FILE_NAME).is_file()
    assert not list(home.rglob(FILE_NAME))
