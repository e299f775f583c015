"""Setting changes (设定变更): ``林晚.位置=北境雪原``, ``林晚.持有+玄阶令牌``, ``S-021.知情人+林晚``.

One line changes one field of a character card or an info gap. Fields the format names have a
type and a value of another type is refused (never guessed): ``最后变更章`` takes a whole
number, ``读者已知`` true or false (是/否 too, it is a yes/no field), a list field takes ``+``
and ``-``. Any other field is the author's own: ``=`` stores the text as text (``是`` stays
the word 是, written quoted), ``+``/``-`` keep it a list.

:func:`apply_changes` is the one place lines take effect: settle applies a draft's lines with
it, and :func:`revise_changes` (a retcon of a settled chapter) undoes the lines the chapter no
longer has and applies its new ones through it too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from lwcore.api import LwError

from lw_storyrepo import layout as L
from lw_storyrepo.dialect import Doc, parse_doc, plain
from lw_storyrepo.findings import clipped
from lw_storyrepo.repo import WHOLE_MAX, StoryRepo, as_int, as_list, new_doc

CHARACTER_FIELDS: dict[str, type] = {"姓名": str, "别名": list, "状态": str, "位置": str, "境界": str, "持有": list,
                                     "最后变更章": int}
SECRET_FIELDS: dict[str, type] = {"知情人": list, "读者已知": bool, "登记章": int, "关键词": list}
YES = ("true", "是", "真", "yes", "已知")
NO = ("false", "否", "假", "no", "未知")
SECRET_ID = re.compile(r"S-\d{3,}")
RESTORE = "<-"
"""The op of an undo that puts a field's earlier value back (never written in a file)."""
ABSENT: Any = object()
"""An earlier value that was no value: restoring it removes the field."""

CHANGE = re.compile(r"^\s*(?P<who>[^.。=+\-\s](?:[^.。=]*[^.。=\s])?)\s*[.。]\s*(?P<field>[^=+\-\s]+?)\s*(?P<op>[=+\-])\s*"
                    r"(?P<value>.*?\S|.)\s*$")
r"""One line of a draft's 设定变更 (林晚.持有+演示U盘, S-021.知情人+林晚): who (no dot, no ``=``, its blanks
trimmed), field, op and value (its blanks trimmed). The one reader of the line for settle and every check. In
linear time: who and value end at a non-blank, so no run of blanks is read again from each of its characters (the
lazy ``[^.。=]*?\s*`` and ``.+?\s*$`` it replaces read a line of tens of thousands of blanks for minutes); the
matches are the lazy pattern's, character for character."""


@dataclass(frozen=True)
class Change:
    who: str
    field: str
    op: str  # "=", "+", "-", or RESTORE (an undo: ``prior`` goes back)
    value: str
    text: str
    prior: Any = ABSENT


def parse_change(text: str) -> Change:
    m = CHANGE.match(text)
    if not m:
        raise LwError(f"设定变更「{text}」看不懂", expected="角色.字段=值、角色.持有+物品、S-021.知情人+角色")
    return Change(m.group("who"), m.group("field"), m.group("op"), m.group("value"), text.strip())


def check_name(name: str) -> str:
    """A character's or entity's name, refused when it cannot be its own file name."""
    if len(name) > L.TITLE_MAX and L.safe_title(name) == name[:L.TITLE_MAX]:
        # too long for its card's file name, and nothing else wrong: said so, not blamed on characters it lacks (A18)
        raise LwError(f"名字「{clipped(name)}」不能用：有 {len(name)} 个字，名字最多 {L.TITLE_MAX} 个字（它是卡片的文件名）")
    if not name.strip() or L.safe_title(name) != name:
        raise LwError(f"名字「{clipped(name)}」不能用：名字里不能有 / \\ : * ? \" < > |、控制字符或首尾的点和空格，"
                      "也不能是 Windows 的设备名（CON、NUL…）")
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
        if raw.isdecimal():
            n = as_int(raw)
            if n is not None:
                return n
            raise LwError(f"设定变更「{clipped(line)}」：「{field}」是整数字段，最大 {WHOLE_MAX}")
        raise LwError(f"设定变更「{clipped(line)}」：「{field}」是整数字段，「{clipped(raw)}」不是整数")
    if kind is bool:
        low = raw.strip().lower()
        if low in YES:
            return True
        if low in NO:
            return False
        raise LwError(f"设定变更「{line}」：「{field}」只能是 true 或 false（是/否）")
    return raw


_Lists = dict[int, tuple[Any, set[str]]]
"""The lists one :func:`apply_changes` edits, by identity: the list and the text of its items."""


def _edit(doc: Doc, change: Change, kind: type | None, lists: _Lists | None = None,
          unwritten: dict[int, tuple[Doc, str]] | None = None) -> None:
    """Apply one line to ``doc``. With ``lists`` and ``unwritten`` (one apply of many lines), a
    list the lines grow or shrink is written back in the dialect once, at the end
    (:func:`_write_lists`), and its items are looked up in a set: a front matter of thousands
    of 持有+ lines re-read and re-wrote the whole list at each line, the square of its length."""
    current = doc.meta.get(change.field)
    if change.op == RESTORE:
        if change.prior is ABSENT:
            doc.meta.pop(change.field, None)
        else:
            doc.set(change.field, change.prior)
        return
    if change.op == "=":
        if kind is list or (kind is None and isinstance(current, list)):
            raise LwError(f"设定变更「{change.text}」：「{change.field}」是列表，用 + 加入、- 移出")
        doc.set(change.field, typed(change.field, kind or str, change.value, change.text))
        return
    if kind not in (list, None) or (kind is None and current is not None and not isinstance(current, list)):
        raise LwError(f"设定变更「{change.text}」：「{change.field}」是单值字段，用 = 改")
    known = lists.get(id(current)) if lists is not None and isinstance(current, list) else None
    items = known[1] if known is not None else {str(x) for x in as_list(current)}
    if lists is not None and isinstance(current, list) and known is None:
        lists[id(current)] = (current, items)
    if change.op == "+":
        if change.value in items:
            return
        if isinstance(current, list) and hasattr(current, "append"):
            current.append(change.value)  # the author's list keeps its comments
            items.add(change.value)
            if unwritten is None:
                doc.set(change.field, current)
            else:
                unwritten[id(current)] = (doc, change.field)
        else:
            doc.set(change.field, [str(x) for x in as_list(current)] + [change.value])
        return
    if change.value not in items:
        raise LwError(f"设定变更「{change.text}」：{change.who} 的 {change.field} 里没有「{change.value}」")
    if isinstance(current, list):
        for x in [x for x in current if str(x) == change.value]:
            current.remove(x)
        items.discard(change.value)
        if unwritten is not None and len(current):
            unwritten[id(current)] = (doc, change.field)
            return
        if unwritten is not None:
            unwritten.pop(id(current), None)
        doc.set(change.field, current if len(current) else None)


def _write_lists(unwritten: dict[int, tuple[Doc, str]]) -> None:
    """Write the lists :func:`_edit` grew or shrank back in the dialect, once each."""
    for doc, field in unwritten.values():
        doc.set(field, doc.meta.get(field))


def _current(repo: StoryRepo, rel: str, changes: dict[str, bytes | None]) -> Doc:
    """A file as this plan has it so far: its planned bytes, else the file on disk."""
    planned = changes.get(rel)
    if planned is not None:
        return parse_doc(planned.decode("utf-8"), rel)[0]
    return repo.load_doc(rel)


def _exists(repo: StoryRepo, rel: str, changes: dict[str, bytes | None]) -> bool:
    return changes.get(rel) is not None or (rel not in changes and repo.p(rel).is_file())


def target(repo: StoryRepo, change: Change, pending: dict[str, tuple[str, Doc]] | None = None) -> tuple[str, type | None]:
    """The file ``change`` edits (a character card, an info gap) and its field's type (None:
    the author's own field). ``pending``: info gaps drafted in this chapter."""
    if SECRET_ID.fullmatch(change.who):
        if pending and change.who in pending:
            return pending[change.who][0], SECRET_FIELDS.get(change.field)
        return repo.rel(repo.secret(change.who).path), SECRET_FIELDS.get(change.field)
    if change.field == "姓名":
        raise LwError(f"设定变更「{change.text}」：姓名是角色卡的正名，不能这样改")
    name = check_name(repo.canonical_noted(change.who))  # an alias names its card, and that is said
    _no_case_twin(repo, name)
    return repo.rel(repo.character_path(name)), CHARACTER_FIELDS.get(change.field)


def apply_changes(repo: StoryRepo, chapter: int | None, lines: Sequence[str | Change], changes: dict[str, bytes | None],
                  log: list[str], pending_secrets: dict[str, tuple[str, Doc]] | None = None,
                  refused: list[tuple[str, LwError]] | None = None) -> list[str]:
    """Apply setting-change lines into ``changes`` (repo-relative path -> new bytes).

    ``pending_secrets`` are info gaps drafted in this chapter (id -> (path, doc)); a change
    naming one edits that draft. ``chapter`` stamps 最后变更章 on characters (never lowering
    it: a retcon of an early chapter keeps a later chapter's stamp). Returns the names of
    characters the lines created. ``refused``, when given, receives ``(line, error)`` for each
    line that cannot apply, and the other lines apply as if it were absent; without it the
    first such line raises. Each file is read and written once, however many lines edit it.
    """
    pending = pending_secrets or {}
    docs: dict[str, Doc] = {}
    created: list[str] = []
    lists: _Lists = {}
    unwritten: dict[int, tuple[Doc, str]] = {}
    for item in lines:
        try:
            change = item if isinstance(item, Change) else parse_change(item)
            rel, kind = target(repo, change, pending)
            secret = SECRET_ID.fullmatch(change.who) is not None
            made = None
            if rel in docs:
                doc = docs[rel]
            elif secret and change.who in pending:
                doc = pending[change.who][1]
            elif _exists(repo, rel, changes):
                doc = _current(repo, rel, changes)
            else:
                made = rel.rsplit("/", 1)[-1][:-3]
                doc = new_doc({"姓名": made}, "## 设定\n\n## 关系\n")
            # a refused line leaves no trace: _edit refuses before it edits, and the stamp is
            # either on a file only this line opened (dropped with it) or already this chapter's
            if chapter is not None and not secret and (as_int(doc.get("最后变更章")) or 0) <= chapter:
                doc.set("最后变更章", chapter)
            _edit(doc, change, kind, lists, unwritten)
        except LwError as exc:
            if refused is None:
                raise
            refused.append((item.text if isinstance(item, Change) else str(item), exc))
            continue
        docs.setdefault(rel, doc)
        if made is not None:
            created.append(made)
        log.append(change.text)
    _write_lists(unwritten)
    for rel, doc in docs.items():
        changes[rel] = doc.dump().encode("utf-8")
    return created


# --- a retcon of a settled chapter's setting changes ----------------------------------------------


def _value_of(change: Change, kind: type | None) -> Any:
    return typed(change.field, kind or str, change.value, change.text)


def _holds(current: Any, value: Any) -> bool:
    """Whether a field's ``current`` value is ``value`` (what an ``=`` line set)."""
    current = plain(current)
    if isinstance(value, bool) or isinstance(value, int) or current is None:
        return current == value
    return str(current) == str(value)


def revise_changes(repo: StoryRepo, chapter: int, old_lines: list[str], new_lines: list[str],
                   changes: dict[str, bytes | None], log: list[str], *,
                   before: Callable[[str], dict[str, Any] | None] | None, later: list[tuple[int, str]]) -> list[str]:
    """Carry a retcon of chapter ``chapter``'s 设定变更 (``old_lines`` -> ``new_lines``) into
    the character cards and info gaps: undo each line the chapter no longer has, apply each new
    one (both through :func:`apply_changes`, as settle applies lines). Returns the characters
    the new lines created.

    ``before(rel)``: a file's front matter before the chapter was settled (None: there was no
    such file); ``before`` is None when the history does not tell (then an ``=`` line can be
    replaced but not removed). ``later``: ``(chapter, line)`` the chapters after this one
    record; a later chapter's change of the same field (or list item) wins and is kept, and so
    is a value changed since by hand. Whatever is kept is said in ``log``.
    """
    old = [parse_change(x) for x in old_lines]
    new = [parse_change(x) for x in new_lines]
    targets: dict[Change, tuple[str, type | None]] = {c: target(repo, c) for c in old + new}

    def key(c: Change) -> tuple[str, str, str, str]:
        return targets[c][0], c.field, c.op, c.value

    old_keys, new_keys = {key(c) for c in old}, {key(c) for c in new}
    removed = [c for c in old if key(c) not in new_keys]
    added = [c for c in new if key(c) not in old_keys]
    if not removed and not added:
        return []
    later_keys: list[tuple[int, str, str, str, str]] = []
    for m, line in later:
        try:
            c = parse_change(line)
            later_keys.append((m, target(repo, c)[0], c.field, c.op, c.value))
        except LwError:
            continue  # a later chapter's line that no longer resolves overrides nothing

    def overridden(c: Change) -> int | None:
        """The later chapter that changed what ``c`` changes, if any."""
        rel = targets[c][0]
        for m, l_rel, l_field, l_op, l_value in later_keys:
            if l_rel == rel and l_field == c.field and (l_op == "=" if c.op == "=" else l_value == c.value):
                return m
        return None

    def kept(text: str, why: str) -> None:
        log.append(f"{text} 未同步（{why}）")

    replaced = {(targets[c][0], c.field) for c in added if c.op == "="}
    undo: list[Change] = []
    for c in removed:
        rel, kind = targets[c]
        if c.op == "=" and (rel, c.field) in replaced:
            continue  # the new line sets the field
        if (m := overridden(c)) is not None:
            kept(f"撤销 {c.text}", f"第{m}章又改过")
            continue
        if not _exists(repo, rel, changes):
            continue
        current = _current(repo, rel, changes).meta.get(c.field)
        items = [str(x) for x in as_list(current)]
        earlier = before(rel) if before is not None else None
        if c.op == "+":
            if c.value in items and not (earlier and c.value in [str(x) for x in as_list(earlier.get(c.field))]):
                undo.append(Change(c.who, c.field, "-", c.value, f"撤销 {c.text}"))
        elif c.op == "-":
            if c.value not in items:
                undo.append(Change(c.who, c.field, "+", c.value, f"撤销 {c.text}"))
        elif not _holds(current, _value_of(c, kind)):
            kept(f"撤销 {c.text}", "这个值后来改过")
        elif before is None:
            raise LwError(f"撤销设定变更「{c.text}」要知道第 {chapter} 章之前的值，git 历史里找不到 ch({chapter}) 提交",
                          expected=f"改成一行新值（{c.who}.{c.field}=…）代替删掉这一行")
        else:
            prior = earlier.get(c.field, ABSENT) if earlier is not None else ABSENT
            undo.append(Change(c.who, c.field, RESTORE, "", f"撤销 {c.text}", prior))
    apply: list[Change] = []
    for c in added:
        rel, kind = targets[c]
        if (m := overridden(c)) is not None:
            kept(c.text, f"第{m}章又改过")
            continue
        was = next((o for o in removed if o.op == "=" and targets[o][0] == rel and o.field == c.field), None)
        if was is not None and _exists(repo, rel, changes) and \
                not _holds(_current(repo, rel, changes).meta.get(c.field), _value_of(was, kind)):
            kept(c.text, "这个值后来改过")
            continue
        apply.append(c)
    apply_changes(repo, None, undo, changes, log)
    return apply_changes(repo, chapter, apply, changes, log)
