"""The new-name check's tables (:class:`lw_storyrepo.propernouns._Lexicon`), kept across processes.

Building them cold takes seconds: jieba's word frequencies and tags are parsed from its
dictionary, then the given-name scores and the dictionary's famous people are derived. A
process that finds a fresh copy in ``<data dir>/plugins-data/storyrepo/name-tables.json``
reads it instead (a fraction of the time); any other process builds them and writes the file.

Contract:

- **one path**: :func:`name_tables` always gets the tables from the caller's ``build``; the
  file only stands in for that call, and holds exactly what it returned (tests compare them);
- **keyed** by a digest of every input (:func:`tables_key`): jieba's version and dictionary,
  ngender's ``charfreq.csv``, the source of the modules whose code derives the tables, and
  :data:`FORMAT`. A changed input is a stale file, rebuilt;
- **a safe format**: JSON, checked field by field; nothing in it is ever run;
- **bounded read** (:data:`MAX_BYTES`), **atomic write** (a temporary file in the same folder,
  fsynced, then renamed: a reader sees the old file or the whole new one);
- a missing, corrupt, truncated, oversized, stale or unreadable file, or a folder that cannot be
  written, is never an error: the tables are built and the author's command goes on;
- **no litter**: a write killed before its rename leaves a temporary file; the next write removes
  every one of this file's temporaries older than :data:`STALE_SECONDS` (a younger one may be
  another process's write in progress);
- **the folder**: the one a caller names, else the data dir ``lw --data-dir`` named for this
  process (:func:`use_data_dir`), else ``$LW_HOME``'s or the platform's.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from lwcore.api import LwError, plugin_data_dir, read_bytes, resolve_data_dir

from lw_storyrepo.faults import fault

PLUGIN_ID = "storyrepo"
FILE_NAME = "name-tables.json"
FORMAT = "2"
"""The file's layout; the tests tie it to :class:`NameTables`' fields."""
MAX_BYTES = 64_000_000
"""Bound on the bytes read from the file (it has about 12 MB)."""
SOURCE_MAX_BYTES = 20_000_000
"""Bound on each input hashed into the key (jieba's dictionary has about 5 MB)."""
STALE_SECONDS = 3600
"""A temporary file older than this is a killed write's, removed by the next write (a write takes
about a second)."""

_data_dir: Path | None = None


@dataclass(frozen=True)
class NameTables:
    """``freq``: jieba's word (and word-prefix) frequencies, its ``FREQ``; ``total``: its
    ``total`` (the dictionary's lines summed: a word listed twice counts twice); ``tags``: its word
    tags (``jieba.posseg``'s ``word_tag_tab``); ``given``: each character's given-name score;
    ``famous``: the dictionary's people who could be someone in a story."""

    freq: dict[str, int]
    total: int
    tags: dict[str, str]
    given: dict[str, float]
    famous: frozenset[str]


def use_data_dir(data_dir: str | Path | None) -> None:
    """Keep the tables under ``data_dir`` (the ``lw --data-dir`` of this process; None: the
    default) from now on in this process."""
    global _data_dir
    _data_dir = None if data_dir is None else Path(data_dir)


def default_dir() -> Path:
    """The plugin's data folder: under :func:`use_data_dir`'s data dir, else ``$LW_HOME``'s or
    the platform's."""
    return plugin_data_dir(resolve_data_dir(_data_dir, os.environ), PLUGIN_ID)


def charfreq_path() -> Path:
    """ngender's ``charfreq.csv`` (found, never imported), or a located LwError."""
    spec = importlib.util.find_spec("ngender")
    if spec is None or not spec.submodule_search_locations:
        raise LwError("缺少 ngender 包（新专名检查的名字用字表）：请运行 make setup")
    return Path(next(iter(spec.submodule_search_locations))) / "charfreq.csv"


def tables_key(inputs: Iterable[Path], version: str) -> str:
    """A digest of :data:`FORMAT`, ``version`` and the bytes of every file in ``inputs``."""
    digest = hashlib.sha256(f"{FORMAT}\0{version}\0".encode())
    for path in inputs:
        data = read_bytes(path, max_bytes=SOURCE_MAX_BYTES)
        digest.update(f"{path.name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def name_tables(build: Callable[[], NameTables], key: str, folder: Path | None = None) -> NameTables:
    """The tables ``build`` returns: read from ``folder``'s file when it holds them under
    ``key``, else built and written there (a write that fails is skipped)."""
    path = (default_dir() if folder is None else folder) / FILE_NAME
    tables = _read(path, key)
    if tables is None:
        tables = build()
        _write(path, key, tables)
    return tables


def _read(path: Path, key: str) -> NameTables | None:
    """The tables in ``path`` under ``key``, or None (missing, unreadable, too big, not JSON or nested too deep,
    not the layout, another key)."""
    try:
        data = json.loads(read_bytes(path, max_bytes=MAX_BYTES))
    except (LwError, OSError, ValueError, RecursionError):  # RecursionError: nested deeper than the reader goes (A17)
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("key") != key:
        return None
    return _tables(data)


def _tables(data: dict[str, Any]) -> NameTables | None:
    try:
        freq_words, tag_words, given_chars, famous = (
            _lines(data[k]) for k in ("freq_words", "tag_words", "given_chars", "famous"))
        tag_tags = _lines(data["tag_tags"])
        counts, scores, total = data["freq_counts"], data["given_scores"], data["total"]
    except (KeyError, TypeError):
        return None
    if not (type(total) is int and isinstance(counts, list) and isinstance(scores, list)
            and len(counts) == len(freq_words) and len(tag_tags) == len(tag_words)
            and len(scores) == len(given_chars)
            and set(map(type, counts)) <= {int} and set(map(type, scores)) <= {float}):
        return None
    # values jieba and the scores can take: a positive total (jieba takes its log), no negative count, scores in
    # [0, 1] — a file with the right key but other values (planted or edited) is rebuilt, never a crash (R56B)
    if total <= 0 or any(c < 0 for c in counts) or not all(0.0 <= s <= 1.0 for s in scores) \
            or not all(freq_words) or not all(tag_words) or not all(given_chars):
        return None
    return NameTables(dict(zip(freq_words, counts)), total, dict(zip(tag_words, tag_tags)),
                      dict(zip(given_chars, scores)), frozenset(famous))


def _lines(value: object) -> list[str]:
    if not isinstance(value, str):
        raise TypeError("not a string")
    return value.split("\n") if value else []


def _write(path: Path, key: str, tables: NameTables) -> None:
    """``tables`` into ``path`` under ``key``, atomically; skipped (silently) when the folder
    cannot be written or a word holds a line break (the layout could not say it)."""
    words = [*tables.freq, *tables.tags, *tables.given, *tables.famous]
    if any("\n" in w or not w for w in words):
        return
    body = json.dumps({
        "format": FORMAT, "key": key,
        "freq_words": "\n".join(tables.freq), "freq_counts": list(tables.freq.values()),
        "total": tables.total,
        "tag_words": "\n".join(tables.tags), "tag_tags": "\n".join(tables.tags.values()),
        "given_chars": "\n".join(tables.given), "given_scores": list(tables.given.values()),
        "famous": "\n".join(sorted(tables.famous)),
    }, ensure_ascii=False).encode("utf-8")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _sweep(path)
        # a new file of a name nobody can predict (O_EXCL): never a file or link someone placed there (R56B)
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        tmp = Path(name)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(body)
                handle.flush()
                os.fsync(handle.fileno())
            fault("name_tables.rename")
            os.replace(tmp, path)
        finally:
            if tmp.exists():
                tmp.unlink()
    except OSError:
        return


def _sweep(path: Path, now: float | None = None) -> None:
    """Remove ``path``'s temporaries (``.<name>.*.tmp``, plain files only) older than
    :data:`STALE_SECONDS`; one that cannot be removed is left."""
    limit = (time.time() if now is None else now) - STALE_SECONDS
    for tmp in path.parent.glob(f".{path.name}.*.tmp"):
        try:
            if tmp.is_file() and not tmp.is_symlink() and tmp.lstat().st_mtime < limit:
                tmp.unlink()
        except OSError:
            continue
