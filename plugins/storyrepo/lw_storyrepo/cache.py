"""The derived cache ``.cache/index.db`` (spec §11): SQLite, rebuilt from the source files.

It is the only persistent derivative; deleting it never changes an answer. It is rebuilt on
the first query and whenever the sources changed (a signature over every source file's path,
size, mtime and inode: the system's own writes replace files, so they always change it). The rebuilder reads only 定稿/大纲/文风 and book.yaml, so it doubles as a
reference implementation of the format.

Tables (machine domain, English names): ``chapters``, ``promises``, ``secrets``,
``knowers``, ``entities``, ``timeline``, ``presence``, ``fingerprints``, ``meta``, and
``scanned`` (the source files the repair scan found clean, by size/mtime/inode: a start
re-parses only what changed; :func:`scan_stamps`). Nothing else is ever written under
``.cache/``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
from pathlib import Path
from typing import Any

from lwcore.api import LwError, load_json

from lw_storyrepo import layout as L
from lw_storyrepo.board import strong_hook
from lw_storyrepo.dialect import quick_meta
from lw_storyrepo.findings import clipped
from lw_storyrepo.fingerprint import fingerprint
from lw_storyrepo.repo import StoryRepo, as_int, as_list
from lw_storyrepo.sources import decode, read_bytes
from lw_storyrepo.volumes import Volumes, closed_volumes

SCHEMA_VERSION = "2"
SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE chapters (num INTEGER PRIMARY KEY, title TEXT, volume INTEGER, pov TEXT, book_time TEXT,
  words INTEGER, opened TEXT, advanced TEXT, paid TEXT, contract TEXT, strong_hook INTEGER, path TEXT, extra TEXT);
CREATE TABLE promises (id TEXT PRIMARY KEY, title TEXT, type TEXT, strength TEXT, state TEXT, opened INTEGER,
  deadline TEXT, deadline_chapter INTEGER, last INTEGER, has_plan INTEGER, path TEXT, extra TEXT);
CREATE TABLE secrets (id TEXT PRIMARY KEY, title TEXT, reader_knows INTEGER, registered INTEGER, keywords TEXT,
  path TEXT, extra TEXT);
CREATE TABLE knowers (secret TEXT, name TEXT);
CREATE TABLE entities (name TEXT, canonical TEXT, kind TEXT, first INTEGER, source TEXT);
CREATE TABLE characters (name TEXT PRIMARY KEY, state TEXT, location TEXT, realm TEXT, holds TEXT, last INTEGER, extra TEXT);
CREATE TABLE timeline (chapter INTEGER, book_time TEXT, event TEXT);
CREATE TABLE presence (chapter INTEGER, name TEXT);
CREATE TABLE fingerprints (chapter INTEGER PRIMARY KEY, data TEXT);
CREATE TABLE scanned (rel TEXT PRIMARY KEY, stamp TEXT);
CREATE INDEX knowers_name ON knowers(name);
CREATE INDEX presence_name ON presence(name);
"""


def signature(repo: StoryRepo) -> str:
    """A digest of every source file's (path, size, mtime, inode) plus the schema version."""
    parts = [SCHEMA_VERSION]
    for rel, st in repo.source_stats():
        if st is not None:
            parts.append(f"{rel}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}")
    return hashlib.blake2b("\n".join(parts).encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()


_ENC = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _j(value: Any) -> str:
    if not value:
        return "[]" if isinstance(value, list) else "{}" if isinstance(value, dict) else _ENC.encode(value)
    return _ENC.encode(value)


CHAPTER_KEYS = frozenset({"章号", "标题", "卷", "视角", "书内时间", "字数", "开启承诺", "推进承诺", "兑付承诺", "合同"})
_PLAIN_ITEM = re.compile(r'^[^"\\\x00-\x1f\x7f\u2028\u2029]*$')


def _jl(value: Any) -> str:
    """JSON of a front-matter list of scalars (fast path for plain strings)."""
    if value is None or value == "":
        return "[]"
    items = value if isinstance(value, list) else [value]
    strs = [str(x) for x in items if x is not None and x != ""]
    if all(_PLAIN_ITEM.match(x) for x in strs):
        return '["' + '","'.join(strs) + '"]' if strs else "[]"
    return _ENC.encode(strs)


def db_path(repo: StoryRepo) -> Path:
    return repo.p(f"{L.CACHE}/index.db")


def scan_stamps(repo: StoryRepo) -> dict[str, str]:
    """The repair scan's memory (``scanned``): path -> stamp of the files found clean. Read
    straight from the file, never rebuilding the index for it; anything odd means none."""
    path = db_path(repo)
    if not path.is_file():
        return {}
    try:
        con = sqlite3.connect(path)
        try:
            rows = con.execute("SELECT rel, stamp FROM scanned").fetchall()
        finally:
            con.close()
    except sqlite3.Error:
        return {}
    return {str(rel): str(stamp) for rel, stamp in rows}


def save_scan_stamps(repo: StoryRepo, stamps: dict[str, str]) -> None:
    """Remember the files the repair scan found clean (only saves time; failures are ignored)."""
    path = db_path(repo)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        con = sqlite3.connect(path)
        try:
            con.execute("CREATE TABLE IF NOT EXISTS scanned (rel TEXT PRIMARY KEY, stamp TEXT)")
            con.execute("DELETE FROM scanned")
            con.executemany("INSERT INTO scanned VALUES (?,?)", sorted(stamps.items()))
            con.commit()
        finally:
            con.close()
    except (OSError, sqlite3.Error):
        pass
    legacy = repo.p(f"{L.CACHE}/scan.json")  # what older versions kept beside the index
    if legacy.is_file():
        try:
            legacy.unlink()
        except OSError:
            pass


def rebuild(repo: StoryRepo, sig: str | None = None) -> Path:
    """Rebuild the whole index from the source files (into a temp file, then rename); the
    repair scan's memory is carried over."""
    sig = sig or signature(repo)
    scanned = scan_stamps(repo)
    target = db_path(repo)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f"index.{os.getpid()}.tmp")
    if tmp.exists():
        tmp.unlink()
    con = sqlite3.connect(tmp)
    try:
        con.execute("PRAGMA journal_mode=OFF")
        con.execute("PRAGMA synchronous=OFF")
        con.executescript(SCHEMA)
        book = repo.book()
        size = book["卷规模"]
        chapters, fps = [], []
        known = CHAPTER_KEYS
        folder = str(repo.p(L.正文)) + os.sep
        for num, name in repo.chapter_names():
            rel = f"{L.正文}/{name}"
            meta, body = quick_meta(decode(read_bytes(folder + name, rel), rel), rel)
            get = meta.get
            chapters.append((
                num, str(get("标题") or name[5:-3]), as_int(get("卷")), str(get("视角") or ""),
                str(get("书内时间") or ""), as_int(get("字数")),
                _jl(get("开启承诺")), _jl(get("推进承诺")), _jl(get("兑付承诺")), _jl(get("合同")),
                1 if strong_hook(meta) else 0, rel,
                _j({k: v for k, v in meta.items() if k not in known}) if len(meta) > len(known) or any(k not in known for k in meta) else "{}",
            ))
            fps.append((num, _j(fingerprint(body))))
        con.executemany("INSERT INTO chapters VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", chapters)
        con.executemany("INSERT INTO fingerprints VALUES (?,?)", fps)
        volumes = Volumes(((c[0], c[2] or 1) for c in reversed(chapters)), size, closed_volumes(repo))
        rows = []
        for item in repo.promises():
            m = item.meta
            known = {"类型", "强度", "状态", "开启章", "兑付期限", "最后推进章"}
            rows.append((
                item.id, item.title, str(m.get("类型") or ""), str(m.get("强度") or ""), str(m.get("状态") or "进行"),
                as_int(m.get("开启章")), None if m.get("兑付期限") is None else str(m.get("兑付期限")),
                volumes.deadline(m.get("兑付期限")), as_int(m.get("最后推进章")),
                1 if item.section("兑付计划") else 0, repo.rel(item.path), _j({k: v for k, v in m.items() if k not in known}),
            ))
        con.executemany("INSERT INTO promises VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", rows)
        characters = repo.characters()
        roster = repo.roster()
        aliases = repo.aliases(characters, roster)
        srows, krows = [], []
        for item in repo.secrets():
            m = item.meta
            known = {"知情人", "读者已知", "登记章", "关键词"}
            srows.append((item.id, item.title, 1 if m.get("读者已知") is True else 0, as_int(m.get("登记章")),
                          _j([str(k) for k in as_list(m.get("关键词"))]), repo.rel(item.path),
                          _j({k: v for k, v in m.items() if k not in known})))
            for k in as_list(m.get("知情人")):
                krows.append((item.id, aliases.get(str(k), str(k))))
        con.executemany("INSERT INTO secrets VALUES (?,?,?,?,?,?,?)", srows)
        con.executemany("INSERT INTO knowers VALUES (?,?)", krows)
        erows, crows = [], []
        for name, m in characters.items():
            erows.append((name, name, "人物", None, "角色卡"))
            for a in as_list(m.get("别名")):
                erows.append((str(a), name, "人物", None, "角色卡"))
            known = {"姓名", "状态", "位置", "境界", "持有", "最后变更章", "别名"}
            crows.append((name, str(m.get("状态") or ""), str(m.get("位置") or ""), str(m.get("境界") or ""),
                          _j([str(x) for x in as_list(m.get("持有"))]), as_int(m.get("最后变更章")),
                          _j({k: v for k, v in m.items() if k not in known})))
        for row in roster:
            erows.append((row["正名"], row["正名"], row["类型"], row["首现章"], "名册"))
            for a in row["别名"]:
                erows.append((a, row["正名"], row["类型"], row["首现章"], "名册"))
        con.executemany("INSERT INTO entities VALUES (?,?,?,?,?)", erows)
        con.executemany("INSERT INTO characters VALUES (?,?,?,?,?,?,?)", crows)
        trows, prows = [], []
        for row in repo.timeline():
            trows.append((row["章"], row["书内时间"], row["事件"]))
            for name in row["在场"]:
                prows.append((row["章"], aliases.get(name, name)))
        con.executemany("INSERT INTO timeline VALUES (?,?,?)", trows)
        con.executemany("INSERT INTO presence VALUES (?,?)", prows)
        con.executemany("INSERT INTO meta VALUES (?,?)", [
            ("signature", sig), ("schema", SCHEMA_VERSION), ("book", _j(book)),
            ("last_chapter", str(chapters[-1][0] if chapters else 0)),
        ])
        con.executemany("INSERT INTO scanned VALUES (?,?)", sorted(scanned.items()))
        con.commit()
    finally:
        con.close()
    os.replace(tmp, target)
    return target


def connect(repo: StoryRepo) -> sqlite3.Connection:
    """An open connection to a fresh index (rebuilt first when missing or stale)."""
    path = db_path(repo)
    sig = signature(repo)
    if path.is_file():
        try:
            con = sqlite3.connect(path)
            row = con.execute("SELECT value FROM meta WHERE key='signature'").fetchone()
            if row and row[0] == sig:
                return con
            con.close()
        except sqlite3.DatabaseError:
            pass
    rebuild(repo, sig)
    return sqlite3.connect(path)


# --- queries -----------------------------------------------------------------------------------------


def _book(con: sqlite3.Connection) -> dict[str, Any]:
    return load_json(con.execute("SELECT value FROM meta WHERE key='book'").fetchone()[0], "index.db")


def _last(con: sqlite3.Connection) -> int:
    return int(con.execute("SELECT value FROM meta WHERE key='last_chapter'").fetchone()[0])


def query(repo: StoryRepo, kind: str, arg: str | None = None, *, within: int | None = None) -> list[dict[str, Any]]:
    """Answer one query from the index. Kinds: due, debt, knows, present, chapters, promises.

    ``knows``/``present`` of a name the book has nowhere, and ``present`` of a chapter not settled,
    raise :class:`LwError` (a typo is told, never answered as someone who knows nothing)."""
    con = connect(repo)
    try:
        book = _book(con)
        last = _last(con)
        current = last + 1
        if kind in ("due", "到期"):
            horizon = within if within is not None else max(3, book["卷规模"] // 4)
            rows = con.execute(
                "SELECT id, title, strength, deadline, deadline_chapter, last FROM promises "
                "WHERE state='进行' AND deadline_chapter IS NOT NULL AND deadline_chapter - ? <= ? "
                "ORDER BY deadline_chapter, id", (current, horizon)).fetchall()
            return [{"id": r[0], "title": r[1], "strength": r[2], "deadline": r[3], "deadline_chapter": r[4],
                     "last": r[5], "overdue": r[4] < current} for r in rows]
        if kind in ("debt", "节奏债"):
            rows = con.execute(
                "SELECT id, title, COALESCE(last, opened, 0) FROM promises WHERE state='进行' AND strength='高' "
                "AND ? - COALESCE(last, opened, 0) > ? ORDER BY ? - COALESCE(last, opened, 0) DESC, id",
                (current, book["高承诺最大搁置章数"], current)).fetchall()
            return [{"id": r[0], "title": r[1], "last": r[2], "idle": current - r[2]} for r in rows]
        if kind in ("knows", "谁知道"):
            if not arg:
                raise LwError("谁知道什么：给一个信息差编号（S-021）或一个角色名")
            if arg.upper().startswith("S-"):
                rows = con.execute("SELECT name FROM knowers WHERE secret=? ORDER BY name", (arg.upper(),)).fetchall()
                reader = con.execute("SELECT reader_knows FROM secrets WHERE id=?", (arg.upper(),)).fetchone()
                if reader is None:
                    raise LwError(f"找不到信息差 {arg}")
                return [{"secret": arg.upper(), "name": r[0]} for r in rows] + (
                    [{"secret": arg.upper(), "name": "（读者）"}] if reader[0] else [])
            canonical = _person(con, arg)
            rows = con.execute(
                "SELECT s.id, s.title, EXISTS(SELECT 1 FROM knowers k WHERE k.secret=s.id AND k.name=?) "
                "FROM secrets s ORDER BY s.id", (canonical,)).fetchall()
            return [{"name": canonical, "secret": r[0], "title": r[1], "knows": bool(r[2])} for r in rows]
        if kind in ("present", "在场"):
            if not arg:
                raise LwError("谁在场：给一个章号或一个角色名")
            chapter = as_int(arg)
            if chapter is not None or arg.strip().isdigit():
                if chapter is None or not 1 <= chapter <= last:  # told, never answered as a chapter nobody was in
                    raise LwError(f"没有入册的第 {clipped(arg.strip())} 章",
                                  expected=f"已入册的章号：1 到 {last}" if last else "还没有入册的章")
                rows = con.execute("SELECT name FROM presence WHERE chapter=? ORDER BY rowid", (chapter,)).fetchall()
                return [{"chapter": chapter, "name": r[0]} for r in rows]
            canonical = _person(con, arg)
            rows = con.execute("SELECT chapter FROM presence WHERE name=? ORDER BY chapter", (canonical,)).fetchall()
            return [{"name": canonical, "chapter": r[0]} for r in rows]
        if kind in ("chapters", "章节"):
            rows = con.execute("SELECT num, title, volume, pov, words FROM chapters ORDER BY num").fetchall()
            return [{"num": r[0], "title": r[1], "volume": r[2], "pov": r[3], "words": r[4]} for r in rows]
        if kind in ("promises", "承诺"):
            rows = con.execute("SELECT id, title, type, strength, state, opened, deadline, last FROM promises ORDER BY id").fetchall()
            return [dict(zip(("id", "title", "type", "strength", "state", "opened", "deadline", "last"), r)) for r in rows]
        raise LwError(f"未知查询 {kind!r}", expected="due、debt、knows、present、chapters、promises")
    finally:
        con.close()


def _canonical(con: sqlite3.Connection, name: str) -> str:
    row = con.execute("SELECT canonical FROM entities WHERE name=? LIMIT 1", (name,)).fetchone()
    return row[0] if row else name


def _person(con: sqlite3.Connection, name: str) -> str:
    """``name``'s canonical name, refusing a name the book has nowhere — no card, roster row,
    alias, info gap's knower or chapter's 在场 — so a typo is told, never answered as someone
    who knows nothing and was never present."""
    canonical = _canonical(con, name)
    if con.execute("SELECT 1 FROM entities WHERE name=? OR canonical=? UNION SELECT 1 FROM characters WHERE name=? "
                   "UNION SELECT 1 FROM knowers WHERE name=? UNION SELECT 1 FROM presence WHERE name=? LIMIT 1",
                   (name, canonical, canonical, canonical, canonical)).fetchone() is None:
        raise LwError(f"书里没有叫「{clipped(name)}」的人", expected="角色卡的姓名，或名册里的名字、别名")
    return canonical
