"""A Story Repo on disk and its readers (layout: :mod:`lw_storyrepo.layout`).

Everything here reads the source files directly (the cache in :mod:`lw_storyrepo.cache` is an
accelerator for queries only). Every read goes through :mod:`lw_storyrepo.sources`, so a file
that is not UTF-8 is a located error wherever it is read. Only regular files count as sources:
a symbolic link inside the book is never followed out of it.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lwcore.api import LwError, confine

from lw_storyrepo import layout as L
from lw_storyrepo.dialect import Doc, auto_fix, fast_flat, new_map, parse_doc, plain, quick_meta, yaml_load
from lw_storyrepo.gitops import Git
from lw_storyrepo.markdown import section, table_rows
from lw_storyrepo.notices import note
from lw_storyrepo.numerals import DIGITS_MAX
from lw_storyrepo.sources import decode, read_bytes, read_text


def as_list(value: Any) -> list[Any]:
    """A front-matter value as a list (None and ``""`` are empty; a scalar is one item)."""
    if value is None or value == "":
        return []
    if isinstance(value, (list, tuple)):
        return [v for v in value if v is not None and v != ""]
    return [value]


WHOLE_MAX = 10 ** DIGITS_MAX - 1
"""The largest whole number a field holds (a chapter, a volume, a count): nine digits, far inside
what the cache's SQLite stores and what ``int()`` reads — the same nine digits
:data:`~lw_storyrepo.numerals.DIGITS_MAX` lets a Chinese numeral spell."""


def as_int(value: Any, default: int | None = None) -> int | None:
    """An int field's value, or ``default`` for anything that is not a whole number within
    ±:data:`WHOLE_MAX`: ``²`` and ``①`` (digits ``int()`` cannot read), a run of thousands of
    digits and a number past nine digits are not one."""
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value if -WHOLE_MAX <= value <= WHOLE_MAX else default
    if isinstance(value, str):
        text = value.strip()
        if text.isdecimal() and len(text) <= len(str(WHOLE_MAX)):
            return int(text)
    return default


@dataclass
class Item:
    """A one-record-per-file item: a promise (P-…) or an info gap (S-…)."""

    id: str
    title: str
    path: Path
    meta: dict[str, Any]
    body: str

    def section(self, name: str) -> str:
        return section(self.body, name)


@dataclass
class Style:
    banned_words: list[str] = field(default_factory=list)
    banned_patterns: list[str] = field(default_factory=list)
    quirks: list[str] = field(default_factory=list)


_HEAD_BYTES = 8192
_FENCE_END = re.compile(rb"\r?\n---\r?\n")
_LIST_ITEM = re.compile(r"\s*[-*]\s*(.*\S)")


class StoryRepo:
    """A book on disk."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root).resolve()
        self._prefix = str(self.root) + os.sep
        self._chapters: tuple[int, list[tuple[int, str]]] | None = None
        self._cards: dict[str, tuple[tuple[int, int, int, int], str, dict[str, Any] | None]] = {}
        """Character card file name -> (stat key, text, front matter): :meth:`cards`."""

    # -- discovery -------------------------------------------------------------------------

    @classmethod
    def find(cls, start: Path | str | None = None) -> StoryRepo:
        here = Path(start or os.getcwd()).resolve()
        for candidate in (here, *here.parents):
            if (candidate / L.BOOK_FILE).is_file():
                return cls(candidate)
        raise LwError(f"{here} 不在任何 Story Repo 里（找不到 book.yaml）", expected="先运行 lw story init")

    def p(self, rel: str) -> Path:
        return self.root / rel

    def rel(self, path: Path | str) -> str:
        """Repository-relative posix path (fast path for paths built from ``root``)."""
        s = os.fspath(path)
        if s.startswith(self._prefix):
            rel = s[len(self._prefix):]
            return rel.replace(os.sep, "/") if os.sep != "/" else rel
        p = Path(path)
        return p.resolve().relative_to(self.root).as_posix() if p.is_absolute() else p.as_posix()

    @property
    def git(self) -> Git:
        return Git(self.root)

    def inside(self, rel: str) -> Path:
        """``rel`` as a path that stays inside the book once symbolic links are resolved
        (a link planted in the book never makes it read or write a file elsewhere)."""
        try:
            return confine(self.root, rel, what="路径")
        except LwError as exc:
            raise LwError("指向书外（符号链接或 ..），不读也不写", file=rel,
                          expected="书里的普通文件") from exc

    def text(self, path: Path | str) -> str:
        """A file of the book as text; errors name it by its path inside the book."""
        rel = self.rel(path) if isinstance(path, Path) else path
        real = self.inside(rel)
        name = rel[len(L.角色) + 1:] if rel.startswith(L.角色 + "/") else ""
        if name and "/" not in name and name.endswith(".md"):  # a card: read once per command (:meth:`cards`)
            return self._card(rel, name, real)[1]
        return read_text(real, rel)

    def _card(self, rel: str, name: str, path: Path) -> tuple[tuple[int, int, int, int], str, dict[str, Any] | None]:
        """One card's text through the :meth:`cards` cache (read when new or changed; its
        front matter parsed only when :meth:`cards` asks: a broken card still reads as text)."""
        st = os.stat(path)
        key = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)  # ctime: os.utime cannot set it back
        hit = self._cards.get(name)
        if hit is None or hit[0] != key:
            hit = self._cards[name] = (key, read_text(path, rel), None)
        return hit

    def text_or(self, rel: str, default: str = "") -> str:
        """:meth:`text` of ``rel``, or ``default`` when there is no such file."""
        path = self.p(rel)
        return self.text(rel) if path.is_file() or path.is_symlink() else default

    def load_doc(self, path: Path | str) -> Doc:
        """A front-matter document for a round-trip write (comments, key order, unknown keys kept)."""
        rel = self.rel(path) if isinstance(path, Path) else path
        doc, _fixes = parse_doc(self.text(rel), rel)
        return doc

    # -- book.yaml -------------------------------------------------------------------------

    def book(self) -> dict[str, Any]:
        """book.yaml with defaults for what it leaves out (a wrong-typed number: the default;
        the repair scan reports it)."""
        text = self.text(L.BOOK_FILE)
        data = fast_flat(text)
        if data is None:
            fixed, _ = auto_fix(text)
            data = plain(yaml_load(fixed, file=L.BOOK_FILE))
        out = dict(L.BOOK_DEFAULTS)
        out.update({k: v for k, v in data.items() if v is not None})
        for key in L.BOOK_INT_FIELDS:
            value = as_int(out.get(key))
            out[key] = value if value is not None and value > 0 else L.BOOK_DEFAULTS[key]
        return out

    # -- chapters --------------------------------------------------------------------------

    def chapter_names(self) -> list[tuple[int, str]]:
        """``(number, file name)`` of the settled chapters, sorted; listed again only when the
        folder changed (its mtime), since a settle asks several times."""
        folder = self._prefix + L.正文
        try:
            stamp = os.stat(folder).st_mtime_ns
        except OSError:
            return []
        if self._chapters is not None and self._chapters[0] == stamp:
            return self._chapters[1]
        try:
            entries = list(os.scandir(folder))
        except OSError:
            return []
        found = []
        for e in entries:
            m = L.CHAPTER_FILE.match(e.name)
            if m and e.is_file(follow_symlinks=False):
                found.append((int(m.group(1)), e.name))
        found.sort()
        self._chapters = (stamp, found)
        return found

    def chapter_files(self) -> list[tuple[int, Path]]:
        folder = self.p(L.正文)
        return [(n, folder / name) for n, name in self.chapter_names()]

    def last_chapter(self) -> int:
        names = self.chapter_names()
        return names[-1][0] if names else 0

    def chapter_path(self, number: int) -> Path | None:
        prefix = f"{number:04d}-"
        for n, name in self.chapter_names():
            if n == number and name.startswith(prefix):
                return self.p(L.正文) / name
        return None

    def chapter_meta(self, number: int) -> dict[str, Any]:
        """A settled chapter's front matter (only the head of the file is read)."""
        path = self.chapter_path(number)
        if path is None:
            return {}
        rel = self.rel(path)
        with open(path, "rb") as handle:
            head = handle.read(_HEAD_BYTES)
        m = _FENCE_END.search(head, 3)
        if head.startswith(b"---") and m:
            return quick_meta(decode(head[: m.end()], rel), rel)[0]
        return quick_meta(decode(read_bytes(path, rel), rel), rel)[0]

    def chapter(self, number: int) -> tuple[dict[str, Any], str]:
        path = self.chapter_path(number)
        if path is None:
            raise LwError(f"第 {number} 章不存在")
        return quick_meta(self.text(path), self.rel(path))

    # -- items (promises, info gaps) -----------------------------------------------------

    def _items(self, folder: str) -> list[Item]:
        try:
            entries = sorted(os.scandir(self._prefix + folder), key=lambda e: e.name)
        except OSError:
            return []
        out = []
        for entry in entries:
            m = L.ITEM_FILE.match(entry.name)
            if not m or not entry.is_file(follow_symlinks=False):
                continue
            path = Path(entry.path)
            rel = f"{folder}/{entry.name}"
            meta, body = quick_meta(read_text(path, rel), rel)
            out.append(Item(m.group(1), m.group(2), path, meta, body))
        return out

    def promises(self) -> list[Item]:
        return self._items(L.承诺)

    def secrets(self) -> list[Item]:
        return self._items(L.信息差)

    def item_path(self, folder: str, item_id: str) -> Path | None:
        base = self.p(folder)
        if not base.is_dir():
            return None
        for name in sorted(os.listdir(base)):
            if name.startswith(item_id + "-") and name.endswith(".md"):
                return base / name
        return None

    def _item(self, folder: str, item_id: str, what: str) -> Item:
        path = self.item_path(folder, item_id)
        if path is None:
            raise LwError(f"找不到{what} {item_id}", expected=f"{folder}/{item_id}-短题.md")
        meta, body = quick_meta(self.text(path), self.rel(path))
        m = L.ITEM_FILE.match(path.name)
        return Item(item_id, m.group(2) if m else path.stem, path, meta, body)

    def promise(self, pid: str) -> Item:
        return self._item(L.承诺, pid, "承诺")

    def secret(self, sid: str) -> Item:
        return self._item(L.信息差, sid, "信息差")

    def next_id(self, prefix: str, extra: tuple[str, ...] | list[str] = ()) -> str:
        """The next free ``P-NNN``/``S-NNN`` (``extra``: ids drafted but not filed yet)."""
        folder = {"P": L.承诺, "S": L.信息差}[prefix]
        numbers = [0]
        base = self.p(folder)
        names = list(os.listdir(base)) if base.is_dir() else []
        names += [f"{e}-x.md" for e in extra]
        for name in names:
            m = L.ITEM_FILE.match(name)
            if m and m.group(1).startswith(prefix + "-"):
                numbers.append(int(m.group(1)[2:]))
        return f"{prefix}-{max(numbers) + 1:03d}"

    # -- characters, roster, timeline, style --------------------------------------------------

    def character_path(self, name: str) -> Path:
        return self.p(L.角色) / f"{L.safe_title(name)}.md"

    def canonical(self, name: str) -> str:
        """A name or alias -> its canonical name; a card named exactly so needs no scan."""
        if self.character_path(name).is_file():
            return name
        return self.aliases().get(name, name)

    def canonical_noted(self, name: str) -> str:
        """:meth:`canonical`, saying so when an alias is written as its canonical name (an
        automatic fix is never silent: :mod:`lw_storyrepo.notices`)."""
        canonical = self.canonical(name)
        if canonical != name:
            note(f"「{name}」是「{canonical}」的别名：记为正名「{canonical}」")
        return canonical

    def cards(self) -> list[tuple[str, str, dict[str, Any]]]:
        """``(file name, text, front matter)`` of every character card (regular ``*.md`` files
        of the cards' folder, links skipped), by file name.

        A command asks for the cards several times (the checks' context, the kinship forms,
        settle's contract check): each file is read and parsed once per :class:`StoryRepo`,
        and again only when it changed on disk (its inode, size or modification time: every
        write of the book is a rename of a new file, an editor's save changes the time). The
        front matter is the caller's copy."""
        folder = self._prefix + L.角色
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            return []
        if os.path.islink(folder):
            self.inside(L.角色)  # a folder linked out of the book is never read
        cache, kept = self._cards, {}
        out: list[tuple[str, str, dict[str, Any]]] = []
        for entry in entries:
            if not entry.name.endswith(".md") or not entry.is_file(follow_symlinks=False):
                continue
            st = entry.stat(follow_symlinks=False)
            key = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)  # ctime: os.utime cannot set it back
            hit = cache.get(entry.name)
            rel = f"{L.角色}/{entry.name}"
            if hit is None or hit[0] != key:
                hit = (key, read_text(Path(entry.path), rel), None)
            meta = hit[2]
            if meta is None:
                meta = quick_meta(hit[1], rel)[0]
                hit = (key, hit[1], meta)
            kept[entry.name] = hit
            out.append((entry.name, hit[1], dict(meta)))
        self._cards = kept
        return out

    def characters(self) -> dict[str, dict[str, Any]]:
        """Character name (姓名, else the file's name) -> the card's front matter."""
        out: dict[str, dict[str, Any]] = {}
        for file_name, _text, meta in self.cards():
            name = meta.get("姓名")
            out[str(name) if isinstance(name, (str, int)) and str(name).strip() else file_name[:-3]] = meta
        return out

    def roster(self) -> list[dict[str, Any]]:
        out = []
        for cells in table_rows(self.text_or(L.名册)):
            cells = (cells + ["", "", "", ""])[:4]
            if not cells[0]:
                continue
            out.append({
                "正名": cells[0],
                "别名": [a for a in L.LIST_SPLIT.split(cells[1]) if a],
                "类型": cells[2],
                "首现章": as_int(cells[3]),
            })
        return out

    def ignored_names(self) -> list[str]:
        """Words the author said are no proper nouns (名册's 非专名 list, one ``- word`` a line, its blanks trimmed;
        the checks skip them). Read line by line: a pattern over the whole section let each line of a run of
        blank lines read the whole run again (the square of its length, two minutes for a section of tens of
        thousands of blank lines before a line of prose)."""
        items = section(self.text_or(L.名册), L.IGNORE_SECTION)
        return [m.group(1) for m in map(_LIST_ITEM.match, items.split("\n")) if m]

    def timeline(self) -> list[dict[str, Any]]:
        out = []
        for cells in table_rows(self.text_or(L.时间线)):
            cells = (cells + ["", "", "", ""])[:4]
            out.append({
                "章": as_int(cells[0]),
                "书内时间": cells[1],
                "事件": cells[2],
                "在场": [a for a in L.LIST_SPLIT.split(cells[3]) if a],
            })
        return out

    def aliases(self, characters: dict[str, dict[str, Any]] | None = None,
                roster: list[dict[str, Any]] | None = None) -> dict[str, str]:
        """Every known name or alias -> its canonical name (character cards, then roster)."""
        out: dict[str, str] = {}
        for name, meta in (self.characters() if characters is None else characters).items():
            out[name] = name
            for alias in as_list(meta.get("别名")):
                out.setdefault(str(alias), name)
        for row in self.roster() if roster is None else roster:
            out.setdefault(row["正名"], row["正名"])
            for alias in row["别名"]:
                out.setdefault(alias, row["正名"])
        return out

    def style(self) -> Style:
        path = self.p(L.风格宪法)
        if not path.is_file():
            return Style()
        meta, _ = quick_meta(self.text(path), L.风格宪法)
        return Style(
            [str(x) for x in as_list(meta.get("禁词"))],
            [str(x) for x in as_list(meta.get("禁句式"))],
            [str(x) for x in as_list(meta.get("口癖"))],
        )

    # -- source files (for repair scans and the cache signature) -----------------------------

    def source_files(self) -> list[Path]:
        return [self.p(rel) for rel, _st in self.source_stats()]

    def source_stats(self) -> list[tuple[str, os.stat_result | None]]:
        """``(repo-relative path, stat)`` of book.yaml and every .md under 定稿/大纲/文风
        (regular files only: a symbolic link is not a source)."""
        out: list[tuple[str, os.stat_result | None]] = []
        try:
            out.append((L.BOOK_FILE, os.stat(self._prefix + L.BOOK_FILE)))
        except OSError:
            out.append((L.BOOK_FILE, None))

        def walk(rel: str) -> None:
            try:
                entries = sorted(os.scandir(self._prefix + rel), key=lambda e: e.name)
            except OSError:
                return
            for e in entries:
                child = f"{rel}/{e.name}"
                if e.is_dir(follow_symlinks=False):
                    walk(child)
                elif e.name.endswith(".md") and e.is_file(follow_symlinks=False):
                    out.append((child, e.stat(follow_symlinks=False)))

        for top in L.SOURCE_ROOTS:
            walk(top)
        return out


def new_doc(fields: dict[str, Any], body: str) -> Doc:
    """A new front-matter document in the dialect (risky values quoted, lists in blocks)."""
    doc = Doc(new_map(), body)
    for key, value in fields.items():
        doc.set(key, value)
    return doc
