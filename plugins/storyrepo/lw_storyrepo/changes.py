"""Setting changes (设定变更): ``林晚.位置=北境雪原``, ``林晚.持有+玄阶令牌``, ``S-021.知情人+林晚``.

One line changes one field of a character card or an info gap. Fields the format names have a
type and a value of another type is refused (never guessed): ``最后变更章`` takes a whole
number, ``读者已知`` true or false (是/否 too, it is a yes/no field), a list field takes ``+``
and ``-``. Any other field is the author's own: ``=`` stores the text as text (``是`` stays
the word 是, written quoted), ``+``/``-`` keep it a list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from lwcore.errors import LwError

from lw_storyrepo import layout as L
from lw_storyrepo.dialect import Doc, parse_doc
from lw_storyrepo.repo import StoryRepo, as_list, new_doc

CHARACTER_FIELDS: dict[str, type] = {"姓名": str, "别名": list, "状态": str, "位置": str, "境界": str, "持有": list,
                                     "最后变更章": int}
SECRET_FIELDS: dict[str, type] = {"知情人": list, "读者已知": bool, "登记章": int, "关键词": list}
YES = ("true", "是", "真", "yes", "已知")
NO = ("false", "否", "假", "no", "未知")
SECRET_ID = re.compile(r"S-\d{3,}")

_CHANGE = re.compile(r"^\s*(?P<who>[^.。=+\-\s][^.。=]*?)\s*[.。]\s*(?P<field>[^=+\-\s]+?)\s*(?P<op>[=+\-])\s*(?P<value>.+?)\s*$")


@dataclass(frozen=True)
class Change:
    who: str
    field: str
    op: str
    value: str
    text: str


def parse_change(text: str) -> Change:
    m = _CHANGE.match(text)
    if not m:
        raise LwError(f"设定变更「{text}」看不懂", expected="角色.字段=值、角色.持有+物品、S-021.知情人+角色")
    return Change(m.group("who"), m.group("field"), m.group("op"), m.group("value"), text.strip())


def check_name(name: str) -> str:
    """A character's or entity's name, refused when it cannot be its own file name."""
    if not name.strip() or L.safe_title(name) != name:
        raise LwError(f"名字「{name}」不能用：名字里不能有 / \\ : * ? \" < > | 或首尾的点和空格")
    return name


def _no_case_twin(repo: StoryRepo, name: str) -> None:
    """A new card must not differ from an existing one by letter case only: on Windows and
    macOS both names are the same file."""
    folder = repo.p(L.角色)
    if folder.is_dir():
        want = L.safe_title(name)
        twin = next((p.stem for p in folder.glob("*.md") if p.stem != want and p.stem.casefold() == want.casefold()), None)
        if twin is not None:
            raise LwError(f"角色「{name}」和已有的「{twin}」只差大小写：在 Windows 和 macOS 上是同一个文件",
                          expected=f"用「{twin}」，或换一个名字")


def typed(field: str, kind: type, raw: str, line: str) -> Any:
    """``raw`` as a value of ``kind`` (int, bool or str), or a refusal naming the line."""
    if kind is int:
        if re.fullmatch(r"\d+", raw):
            return int(raw)
        raise LwError(f"设定变更「{line}」：「{field}」是整数字段，「{raw}」不是整数")
    if kind is bool:
        low = raw.strip().lower()
        if low in YES:
            return True
        if low in NO:
            return False
        raise LwError(f"设定变更「{line}」：「{field}」只能是 true 或 false（是/否）")
    return raw


def _edit(doc: Doc, change: Change, kind: type | None) -> None:
    current = doc.meta.get(change.field)
    if change.op == "=":
        if kind is list or (kind is None and isinstance(current, list)):
            raise LwError(f"设定变更「{change.text}」：「{change.field}」是列表，用 + 加入、- 移出")
        doc.set(change.field, typed(change.field, kind or str, change.value, change.text))
        return
    if kind not in (list, None) or (kind is None and current is not None and not isinstance(current, list)):
        raise LwError(f"设定变更「{change.text}」：「{change.field}」是单值字段，用 = 改")
    items = [str(x) for x in as_list(current)]
    if change.op == "+":
        if change.value in items:
            return
        if isinstance(current, list) and hasattr(current, "append"):
            current.append(change.value)  # the author's list keeps its comments
            doc.set(change.field, current)
        else:
            doc.set(change.field, items + [change.value])
        return
    if change.value not in items:
        raise LwError(f"设定变更「{change.text}」：{change.who} 的 {change.field} 里没有「{change.value}」")
    if isinstance(current, list):
        for x in list(current):
            if str(x) == change.value:
                current.remove(x)
        doc.set(change.field, current if len(current) else None)


def _current(repo: StoryRepo, rel: str, changes: dict[str, bytes | None]) -> Doc:
    """A file as this plan has it so far: its planned bytes, else the file on disk."""
    planned = changes.get(rel)
    if planned is not None:
        return parse_doc(planned.decode("utf-8"), rel)[0]
    return repo.load_doc(rel)


def apply_changes(repo: StoryRepo, chapter: int | None, lines: list[str], changes: dict[str, bytes | None],
                  log: list[str], pending_secrets: dict[str, tuple[str, Doc]] | None = None) -> list[str]:
    """Apply setting-change lines into ``changes`` (repo-relative path -> new bytes).

    ``pending_secrets`` are info gaps drafted in this chapter (id -> (path, doc)); a change
    naming one edits that draft. ``chapter`` stamps 最后变更章 on characters. Returns the
    names of characters the lines created.
    """
    pending = pending_secrets or {}
    docs: dict[str, Doc] = {}
    created: list[str] = []
    for text in lines:
        change = parse_change(text)
        if SECRET_ID.fullmatch(change.who):
            kind = SECRET_FIELDS.get(change.field)
            if change.who in pending:
                rel, doc = pending[change.who]
                docs[rel] = doc
            else:
                item = repo.secret(change.who)
                rel = repo.rel(item.path)
                if rel not in docs:
                    docs[rel] = _current(repo, rel, changes)
                doc = docs[rel]
        else:
            if change.field == "姓名":
                raise LwError(f"设定变更「{change.text}」：姓名是角色卡的正名，不能这样改")
            kind = CHARACTER_FIELDS.get(change.field)
            name = check_name(repo.canonical(change.who))
            _no_case_twin(repo, name)
            path = repo.character_path(name)
            rel = repo.rel(path)
            if rel not in docs:
                if changes.get(rel) is not None or path.is_file():
                    docs[rel] = _current(repo, rel, changes)
                else:
                    docs[rel] = new_doc({"姓名": name}, "## 设定\n\n## 关系\n")
                    created.append(name)
            doc = docs[rel]
            if chapter is not None:
                doc.set("最后变更章", chapter)
        _edit(doc, change, kind)
        log.append(change.text)
    for rel, doc in docs.items():
        changes[rel] = doc.dump().encode("utf-8")
    return created
