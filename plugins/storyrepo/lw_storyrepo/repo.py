"""A Story Repo on disk: the layout of spec §2, its readers and its writers.

Everything here reads the source files directly (the cache in ``cache.py`` is only an
accelerator for queries). All IO is explicit UTF-8.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lwcore.errors import LwError

from lw_storyrepo import SPEC_VERSION
from lw_storyrepo.dialect import Doc, new_map, parse_doc, quick_meta, yaml_dump, yaml_load

# --- layout ------------------------------------------------------------------------------------

定稿 = "定稿"
正文 = "定稿/正文"
设定 = "定稿/设定"
角色 = "定稿/设定/角色"
信息差 = "定稿/设定/信息差"
世界观 = "定稿/设定/世界观.md"
时间线 = "定稿/设定/时间线.md"
名册 = "定稿/设定/名册.md"
章摘要 = "定稿/记忆/章摘要"
卷摘要 = "定稿/记忆/卷摘要"
大纲 = "大纲"
总纲 = "大纲/总纲.md"
卷纲 = "大纲/卷纲"
承诺 = "大纲/承诺"
文风 = "文风"
风格宪法 = "文风/风格宪法.md"
金句库 = "文风/金句库"
工作区 = "工作区"
决策卡 = "工作区/决策卡.md"
上下文包 = "工作区/上下文包.md"
验收卡 = "工作区/验收卡.md"
事务 = "工作区/事务.yaml"
评审报告 = "工作区/评审报告"
原稿 = "工作区/原稿"
新承诺 = "工作区/新承诺"
新信息差 = "工作区/新信息差"
CACHE = ".cache"
SOURCE_ROOTS = (定稿, 大纲, 文风)

TIMELINE_HEADER = "| 章 | 书内时间 | 一句话事件 | 在场 |\n|----|----------|------------|------|\n"
ROSTER_HEADER = "| 正名 | 别名 | 类型 | 首现章 |\n|------|------|------|--------|\n"

BOOK_DEFAULTS: dict[str, Any] = {
    "spec_version": SPEC_VERSION,
    "书名": "",
    "类型": "",
    "每章目标字数": 3000,
    "卷规模": 40,
    "文体基线起": 1,
    "文体基线止": 30,
    "高承诺最大搁置章数": 10,
    "连续弱钩上限": 3,
    "关键章稿数": 3,
}
BOOK_COMMENTS = {
    "卷规模": "参考值，不是硬约束",
    "文体基线起": "文体指纹基线章区间，作者可改",
    "高承诺最大搁置章数": "超过亮\"节奏债\"",
    "关键章稿数": "卷首/转折/高潮章 best-of-N",
}

PROMISE_TYPES = ("伏笔", "悬念", "冲突", "关系线", "立旗", "爽点铺垫")
STRENGTHS = ("高", "中", "低")
PROMISE_STATES = ("进行", "已兑付", "已弃置")
CHAPTER_FILE = re.compile(r"^(\d{4,})-(.+)\.md$")
ITEM_FILE = re.compile(r"^([PS]-\d{3,})-(.+)\.md$")
LIST_SPLIT = re.compile(r"\s*[,，、/]\s*")


def chapter_filename(number: int, title: str) -> str:
    return f"{number:04d}-{safe_title(title)}.md"


def safe_title(title: str) -> str:
    cleaned = re.sub(r'[\\/:*?"<>|\r\n\t]', "", title).strip().strip(".") or "无题"
    return cleaned[:40]


def volume_name(volume: int) -> str:
    return f"第{volume:02d}卷"


def as_list(value: Any) -> list[Any]:
    if value is None or value == "":
        return []
    if isinstance(value, (list, tuple)):
        return [v for v in value if v is not None and v != ""]
    return [value]


def as_int(value: Any, default: int | None = None) -> int | None:
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        m = re.search(r"\d+", value)
        if m and value.strip().isdigit():
            return int(m.group())
    return default


def read_text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


# --- markdown tables --------------------------------------------------------------------------


def table_rows(text: str) -> list[list[str]]:
    """The data rows of the first Markdown table in ``text`` (header and rule skipped)."""
    rows: list[list[str]] = []
    seen_header = False
    for line in text.splitlines():
        s = line.strip()
        if not s.startswith("|"):
            if rows or seen_header:
                if s:
                    continue
            continue
        cells = [c.strip() for c in s.strip("|").split("|")]
        if not seen_header:
            seen_header = True
            continue
        if all(re.fullmatch(r":?-{2,}:?", c or "--") for c in cells):
            continue
        rows.append(cells)
    return rows


def table_line(cells: list[str]) -> str:
    return "| " + " | ".join(c.replace("|", "｜").replace("\n", " ") for c in cells) + " |\n"


# --- records ----------------------------------------------------------------------------------


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


def section(body: str, name: str) -> str:
    m = re.search(rf"^##\s*{re.escape(name)}\s*$(.*?)(?=^##\s|\Z)", body, re.M | re.S)
    return m.group(1).strip() if m else ""


@dataclass
class Style:
    banned_words: list[str] = field(default_factory=list)
    banned_patterns: list[str] = field(default_factory=list)
    quirks: list[str] = field(default_factory=list)


class StoryRepo:
    """A book on disk."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root).resolve()
        self._prefix = str(self.root) + os.sep

    # -- discovery -------------------------------------------------------------------------

    @classmethod
    def find(cls, start: Path | str | None = None) -> StoryRepo:
        here = Path(start or os.getcwd()).resolve()
        for candidate in (here, *here.parents):
            if (candidate / "book.yaml").is_file():
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
    def git(self) -> Any:
        from lw_storyrepo.gitops import Git

        return Git(self.root)

    # -- book.yaml -------------------------------------------------------------------------

    def book(self) -> dict[str, Any]:
        path = self.p("book.yaml")
        text = read_text(path)
        from lw_storyrepo.dialect import auto_fix, fast_flat, plain

        data = fast_flat(text)
        if data is None:
            fixed, _ = auto_fix(text)
            data = plain(yaml_load(fixed, file="book.yaml"))
        out = dict(BOOK_DEFAULTS)
        out.update({k: v for k, v in data.items() if v is not None})
        for key in ("每章目标字数", "卷规模", "文体基线起", "文体基线止", "高承诺最大搁置章数", "连续弱钩上限", "关键章稿数"):
            value = as_int(out.get(key))
            out[key] = value if value is not None else BOOK_DEFAULTS[key]
        return out

    # -- chapters --------------------------------------------------------------------------

    def chapter_files(self) -> list[tuple[int, Path]]:
        folder = self.p(正文)
        found = []
        if folder.is_dir():
            for name in os.listdir(folder):
                m = CHAPTER_FILE.match(name)
                if m:
                    found.append((int(m.group(1)), name))
        found.sort()
        return [(n, folder / name) for n, name in found]

    def last_chapter(self) -> int:
        folder = self.p(正文)
        best = 0
        if folder.is_dir():
            for name in os.listdir(folder):
                m = CHAPTER_FILE.match(name)
                if m:
                    best = max(best, int(m.group(1)))
        return best

    def chapter_path(self, number: int) -> Path | None:
        folder = self.p(正文)
        if not folder.is_dir():
            return None
        prefix = f"{number:04d}-"
        for name in os.listdir(folder):
            if name.startswith(prefix) and name.endswith(".md"):
                return folder / name
        return None

    def chapter_meta(self, number: int) -> dict[str, Any]:
        path = self.chapter_path(number)
        if path is None:
            return {}
        meta, _ = quick_meta(read_text(path), self.rel(path))
        return meta

    def chapter(self, number: int) -> tuple[dict[str, Any], str]:
        path = self.chapter_path(number)
        if path is None:
            raise LwError(f"第 {number} 章不存在")
        return quick_meta(read_text(path), self.rel(path))

    # -- items (promises, info gaps) -----------------------------------------------------

    def _items(self, folder: str) -> list[Item]:
        base = self.p(folder)
        out = []
        if not base.is_dir():
            return out
        for entry in sorted(os.scandir(base), key=lambda e: e.name):
            m = ITEM_FILE.match(entry.name)
            if not m:
                continue
            path = Path(entry.path)
            meta, body = quick_meta(read_text(path), self.rel(path))
            out.append(Item(m.group(1), m.group(2), path, meta, body))
        return out

    def promises(self) -> list[Item]:
        return self._items(承诺)

    def secrets(self) -> list[Item]:
        return self._items(信息差)

    def item_path(self, folder: str, item_id: str) -> Path | None:
        base = self.p(folder)
        if not base.is_dir():
            return None
        for name in sorted(os.listdir(base)):
            if name.startswith(item_id + "-") and name.endswith(".md"):
                return base / name
        return None

    def promise(self, pid: str) -> Item:
        path = self.item_path(承诺, pid)
        if path is None:
            raise LwError(f"找不到承诺 {pid}", expected=f"大纲/承诺/{pid}-短题.md")
        meta, body = quick_meta(read_text(path), self.rel(path))
        return Item(pid, ITEM_FILE.match(path.name).group(2), path, meta, body)  # type: ignore[union-attr]

    def secret(self, sid: str) -> Item:
        path = self.item_path(信息差, sid)
        if path is None:
            raise LwError(f"找不到信息差 {sid}", expected=f"定稿/设定/信息差/{sid}-短题.md")
        meta, body = quick_meta(read_text(path), self.rel(path))
        return Item(sid, ITEM_FILE.match(path.name).group(2), path, meta, body)  # type: ignore[union-attr]

    def next_id(self, prefix: str, extra: list[str] = ()) -> str:  # type: ignore[assignment]
        folder = {"P": 承诺, "S": 信息差}[prefix]
        numbers = [0]
        base = self.p(folder)
        names = list(os.listdir(base)) if base.is_dir() else []
        names += [f"{e}-x.md" for e in extra]
        for name in names:
            m = ITEM_FILE.match(name)
            if m and m.group(1).startswith(prefix + "-"):
                numbers.append(int(m.group(1)[2:]))
        return f"{prefix}-{max(numbers) + 1:03d}"

    # -- characters, roster, timeline, style --------------------------------------------------

    def character_path(self, name: str) -> Path:
        return self.p(角色) / f"{safe_title(name)}.md"

    def canonical(self, name: str) -> str:
        """A name or alias -> its canonical name; a card named exactly so needs no scan."""
        if self.character_path(name).is_file():
            return name
        return self.aliases().get(name, name)

    def characters(self) -> dict[str, dict[str, Any]]:
        base = self.p(角色)
        out: dict[str, dict[str, Any]] = {}
        if not base.is_dir():
            return out
        for entry in sorted(os.scandir(base), key=lambda e: e.name):
            if not entry.name.endswith(".md"):
                continue
            path = Path(entry.path)
            meta, _ = quick_meta(read_text(path), self.rel(path))
            name = str(meta.get("姓名") or entry.name[:-3])
            out[name] = meta
        return out

    def roster(self) -> list[dict[str, Any]]:
        path = self.p(名册)
        if not path.is_file():
            return []
        out = []
        for cells in table_rows(read_text(path)):
            cells = (cells + ["", "", "", ""])[:4]
            if not cells[0]:
                continue
            out.append({
                "正名": cells[0],
                "别名": [a for a in LIST_SPLIT.split(cells[1]) if a],
                "类型": cells[2],
                "首现章": as_int(cells[3]),
            })
        return out

    def timeline(self) -> list[dict[str, Any]]:
        path = self.p(时间线)
        if not path.is_file():
            return []
        out = []
        for cells in table_rows(read_text(path)):
            cells = (cells + ["", "", "", ""])[:4]
            out.append({
                "章": as_int(cells[0]),
                "书内时间": cells[1],
                "事件": cells[2],
                "在场": [a for a in LIST_SPLIT.split(cells[3]) if a],
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
        path = self.p(风格宪法)
        if not path.is_file():
            return Style()
        meta, _ = quick_meta(read_text(path), self.rel(path))
        return Style(
            [str(x) for x in as_list(meta.get("禁词"))],
            [str(x) for x in as_list(meta.get("禁句式"))],
            [str(x) for x in as_list(meta.get("口癖"))],
        )

    # -- source files (for repair scans and the cache signature) -----------------------------

    def source_files(self) -> list[Path]:
        return [self.p(rel) for rel, _st in self.source_stats()]

    def source_stats(self) -> list[tuple[str, os.stat_result | None]]:
        """``(repo-relative path, stat)`` of book.yaml and every .md under 定稿/大纲/文风."""
        out: list[tuple[str, os.stat_result | None]] = []
        try:
            out.append(("book.yaml", os.stat(self._prefix + "book.yaml")))
        except OSError:
            out.append(("book.yaml", None))

        def walk(rel: str) -> None:
            try:
                entries = sorted(os.scandir(self._prefix + rel), key=lambda e: e.name)
            except OSError:
                return
            for e in entries:
                child = f"{rel}/{e.name}"
                if e.is_dir(follow_symlinks=False):
                    walk(child)
                elif e.name.endswith(".md"):
                    out.append((child, e.stat()))

        for top in SOURCE_ROOTS:
            walk(top)
        return out


# --- documents with round-trip writes ---------------------------------------------------------


def load_doc(path: Path, repo: StoryRepo | None = None) -> Doc:
    rel = repo.rel(path) if repo else str(path)
    doc, _fixes = parse_doc(read_text(path), rel)
    return doc


def new_doc(fields: dict[str, Any], body: str) -> Doc:
    doc = Doc(new_map(), body)
    for key, value in fields.items():
        doc.set(key, value)
    return doc


def render_book(values: dict[str, Any]) -> str:
    data = new_map()
    for key, value in values.items():
        data[key] = value
        if key in BOOK_COMMENTS:
            data.yaml_add_eol_comment(BOOK_COMMENTS[key], key, column=20)
    return yaml_dump(data)


# --- init -------------------------------------------------------------------------------------


def init_book(directory: Path, title: str, genre: str, *, target_words: int = 3000, volume_size: int = 40) -> StoryRepo:
    """Create the Chinese tree of §2, book.yaml, .gitignore, ``git init`` and a first commit."""
    from lw_storyrepo.gitops import Git

    directory = Path(directory)
    if (directory / "book.yaml").exists():
        raise LwError(f"{directory} 已经是一本书（book.yaml 已存在）")
    if not title.strip():
        raise LwError("书名不能为空", expected="--书名 示例书名")
    directory.mkdir(parents=True, exist_ok=True)
    files: dict[str, str] = {}
    values = dict(BOOK_DEFAULTS)
    values.update({"书名": title, "类型": genre, "每章目标字数": target_words, "卷规模": volume_size})
    files["book.yaml"] = render_book(values)
    files[".gitignore"] = ".cache/\n工作区/\n"
    files[世界观] = "# 世界观\n\n## 世界规则\n\n## 力量体系\n"
    files[时间线] = "# 时间线\n\n" + TIMELINE_HEADER
    files[名册] = "# 名册\n\n" + ROSTER_HEADER
    files[总纲] = "# 总纲\n\n## 主题\n\n## 金手指\n\n## 结局承诺\n"
    style = new_doc({"禁词": [], "禁句式": [], "口癖": []}, "## 铁律\n\n## 节奏偏好\n\n## 来自否决的规则\n")
    files[风格宪法] = style.dump()
    keep = [正文, 角色, 信息差, 章摘要, 卷摘要, 卷纲, 承诺, 金句库]
    for rel in keep:
        files[f"{rel}/.gitkeep"] = ""
    for rel, text in files.items():
        path = directory / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    (directory / 工作区).mkdir(exist_ok=True)
    git = Git(directory)
    if not (directory / ".git").exists():
        git.run("init", "-q")
    git.run("config", "core.quotepath", "false")
    git.commit_paths(sorted(files), f"init: {title}\n\nspec_version: {SPEC_VERSION}\n")
    return StoryRepo(directory)
