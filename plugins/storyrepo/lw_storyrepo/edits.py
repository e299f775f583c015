"""Structured changes outside a chapter, shared by the ``lw story`` CLI and the model tools.

Invariant 9 (对话即编辑器): every structured field of the book can be changed by one sentence,
through a tool and the same command by hand (:mod:`lw_storyrepo.toolspecs` lists both). Each edit
validates its input (wrong types are refused, never guessed), writes in the dialect
(round-trip: unknown fields and comments kept), and commits atomically as ``fix(…)``.
"""

from __future__ import annotations

import re
from typing import Any

from lwcore.api import LwError

from lw_storyrepo import layout as L
from lw_storyrepo.atomic import apply_and_commit, recover
from lw_storyrepo.board import rule_proposals
from lw_storyrepo.changes import SECRET_FIELDS, apply_changes, check_name, typed
from lw_storyrepo.findings import clipped, one_line
from lw_storyrepo.markdown import append_history, append_row, replace_row, section, set_section, table_rows_at
from lw_storyrepo.notices import file_named
from lw_storyrepo.repo import StoryRepo, as_int, as_list, new_doc
from lw_storyrepo.settle import sync_aliases
from lw_storyrepo.stylepatterns import banned_pattern
from lw_storyrepo.volumes import check_deadline, check_deadline_ahead


def _commit(repo: StoryRepo, changes: dict[str, bytes | None], message: str) -> dict[str, Any]:
    recover(repo.root)
    sync_aliases(repo, changes, [])  # a card's 别名 and its 名册 row stay in step
    commit = apply_and_commit(repo.root, changes, message)
    return {"commit": commit, "message": message.splitlines()[0], "files": sorted(changes)}


# --- promises ----------------------------------------------------------------------------------

PROMISE_FIELDS = ("类型", "强度", "兑付期限", "最后推进章")
PROMISE_TEXTS = ("描述", "兑付计划")


def abandon_promise(repo: StoryRepo, pid: str, reason: str) -> dict[str, Any]:
    reason = one_line(reason)  # a line of the history and of the commit: a new line would start another
    if not reason:
        raise LwError("弃置承诺必须写原因", expected="理由：改走暗线")
    item = repo.promise(pid)
    if str(item.meta.get("状态", "进行")) != "进行":
        raise LwError(f"{pid} 状态是「{item.meta.get('状态')}」，不能弃置")
    doc = repo.load_doc(item.path)
    doc.set("状态", "已弃置")
    doc.body = append_history(doc.body, f"第{repo.last_chapter()}章后：弃置——原因：{reason.strip()}")
    return _commit(repo, {repo.rel(item.path): doc.dump().encode("utf-8")},
                   f"fix(承诺): 弃置 {pid}——{reason.strip()}\n\n承诺: -{pid}\n")


def _promise_fields(type: str, strength: str, plan: str, deadline: str | None) -> None:
    if type not in L.PROMISE_TYPES:
        raise LwError(f"承诺类型「{type}」不对", expected="|".join(L.PROMISE_TYPES))
    if strength not in L.STRENGTHS:
        raise LwError(f"强度「{strength}」不对", expected="高|中|低")
    if not plan.strip():
        raise LwError("开新承诺必须有兑付计划")
    if strength == "高" and not (deadline or "").strip():
        raise LwError("强度为高的承诺必须填兑付期限", expected="第7卷 或 第200章")
    check_deadline(deadline)


def create_promise(repo: StoryRepo, title: str, type: str, strength: str, plan: str, description: str = "",
                   deadline: str | None = None) -> dict[str, Any]:
    _promise_fields(type, strength, plan, deadline)
    check_deadline_ahead(repo, deadline)
    title = one_line(title)  # the commit's subject
    pid = repo.next_id("P")
    n = repo.last_chapter()
    doc = new_doc({"类型": type, "强度": strength, "状态": "进行", "开启章": n, "兑付期限": deadline or None,
                   "最后推进章": n},
                  f"## 描述\n{description.strip()}\n\n## 兑付计划\n{plan.strip()}\n\n## 履历\n- 第{n}章后：开启（对话登记）\n")
    rel = file_named(title, f"{L.承诺}/{pid}-{L.safe_title(title)}.md")
    result = _commit(repo, {rel: doc.dump().encode("utf-8")}, f"fix(承诺): 开启 {pid} {title}\n\n承诺: +{pid}\n")
    result["id"] = pid
    return result


def set_promise(repo: StoryRepo, pid: str, field: str, value: str) -> dict[str, Any]:
    if field not in PROMISE_FIELDS:
        raise LwError(f"不能用这个命令改「{field}」", expected="、".join(PROMISE_FIELDS) + "（状态请用弃置/章事务）")
    if field == "类型" and value not in L.PROMISE_TYPES:
        raise LwError(f"承诺类型「{value}」不对", expected="|".join(L.PROMISE_TYPES))
    if field == "强度" and value not in L.STRENGTHS:
        raise LwError(f"强度「{value}」不对", expected="高|中|低")
    item = repo.promise(pid)
    doc = repo.load_doc(item.path)
    if field == "兑付期限":
        check_deadline(value)
    doc.set(field, typed(field, int, value, f"{pid}.{field}={value}") if field == "最后推进章" else value)
    if str(doc.get("强度")) == "高" and not doc.get("兑付期限"):
        raise LwError("强度为高的承诺必须有兑付期限")
    return _commit(repo, {repo.rel(item.path): doc.dump().encode("utf-8")}, f"fix(承诺): {pid}.{field}={value}\n")


def set_promise_text(repo: StoryRepo, pid: str, part: str, text: str) -> dict[str, Any]:
    """Rewrite a promise's 描述 or 兑付计划 (the 履历 is append-only and never rewritten)."""
    if part not in PROMISE_TEXTS:
        raise LwError(f"不能改「{part}」", expected="描述、兑付计划（履历只增不改）")
    if not text.strip():
        raise LwError(f"{part}不能为空")
    item = repo.promise(pid)
    doc = repo.load_doc(item.path)
    doc.body = set_section(doc.body, part, text.strip())
    return _commit(repo, {repo.rel(item.path): doc.dump().encode("utf-8")}, f"fix(承诺): {pid} 改{part}\n")


# --- characters ------------------------------------------------------------------------------------


def set_character(repo: StoryRepo, name: str, field: str, value: str, op: str = "=") -> dict[str, Any]:
    if op not in ("=", "+", "-"):
        raise LwError(f"未知操作 {op!r}", expected="= + -")
    if not field or re.search(r"[\s.=+:：]", field):
        raise LwError(f"字段名「{field}」不合法")
    if not value.strip():
        raise LwError("值不能为空")
    check_name(name)
    name = repo.canonical_noted(name)  # the commit names the card it changes, not the alias typed
    changes: dict[str, bytes | None] = {}
    line = f"{name}.{field}{op}{value}"
    created = apply_changes(repo, None, [line], changes, [])
    if created and created[0] not in {r["正名"] for r in repo.roster()}:
        changes[L.名册] = append_row(repo.text_or(L.名册, "# 名册\n\n" + L.ROSTER_HEADER),
                                     [created[0], "", "人物", str(repo.last_chapter() or "")]).encode("utf-8")
    return _commit(repo, changes, f"fix(设定): {line}\n")


def move_character(repo: StoryRepo, name: str, location: str) -> dict[str, Any]:
    if name not in repo.aliases() and not repo.character_path(name).is_file():
        raise LwError(f"没有角色「{name}」", expected="角色卡的姓名或名册里的别名")
    return set_character(repo, name, "位置", location)


# --- info gaps -------------------------------------------------------------------------------------


def register_secret(repo: StoryRepo, title: str, knowers: list[str], keywords: list[str], content: str,
                    reader_knows: bool = False) -> dict[str, Any]:
    if not [k for k in keywords if k.strip()]:
        raise LwError("信息差至少要有一个关键词（泄密扫描用）")
    if not content.strip():
        raise LwError("信息差要写内容")
    title = one_line(title)  # the commit's subject
    sid = repo.next_id("S")
    doc = new_doc({"知情人": [repo.canonical_noted(k) for k in knowers], "读者已知": reader_knows, "登记章": repo.last_chapter(),
                   "关键词": keywords}, f"## 内容\n{content.strip()}\n")
    rel = file_named(title, f"{L.信息差}/{sid}-{L.safe_title(title)}.md")
    result = _commit(repo, {rel: doc.dump().encode("utf-8")}, f"fix(设定): 信息差+{sid} {title}\n\n设定: 信息差+{sid}\n")
    result["id"] = sid
    return result


def set_secret(repo: StoryRepo, sid: str, field: str, value: str, op: str = "=") -> dict[str, Any]:
    """读者已知=是/否, 知情人+/-名字, 关键词+/-词 on an info gap."""
    if field not in SECRET_FIELDS or field == "登记章":
        raise LwError(f"不能用这个命令改信息差的「{field}」", expected="读者已知、知情人、关键词")
    if not re.fullmatch(r"S-\d{3,}", sid):
        raise LwError(f"信息差编号 {sid!r} 不对", expected="S-021")
    if field == "知情人":
        value = repo.canonical_noted(value)
    repo.secret(sid)
    changes: dict[str, bytes | None] = {}
    line = f"{sid}.{field}{op}{value}"
    apply_changes(repo, None, [line], changes, [])
    return _commit(repo, changes, f"fix(设定): {line}\n")


def add_knower(repo: StoryRepo, sid: str, name: str) -> dict[str, Any]:
    canonical = repo.canonical_noted(name)
    if canonical in [str(x) for x in as_list(repo.secret(sid).meta.get("知情人"))]:
        raise LwError(f"{canonical} 已经是 {sid} 的知情人")
    return set_secret(repo, sid, "知情人", canonical, "+")


# --- roster ----------------------------------------------------------------------------------------


def register_entity(repo: StoryRepo, name: str, kind: str = "其他", aliases: list[str] | None = None,
                    first: int | None = None) -> dict[str, Any]:
    check_name(name)
    if kind not in L.ENTITY_KINDS:
        raise LwError(f"类型「{kind}」不对", expected="、".join(L.ENTITY_KINDS))
    known = repo.aliases()
    for n in [name, *(aliases or [])]:
        if n in known:
            raise LwError(f"「{n}」已在名册/角色卡中（正名：{known[n]}）——防同人异名/同名异人")
        if "|" in n or "、" in n or "," in n or "，" in n:
            raise LwError(f"「{n}」里有名册的分隔符（| 、 , ，）")
    text = repo.text_or(L.名册, "# 名册\n\n" + L.ROSTER_HEADER)
    row = [name, "、".join(aliases or []), kind, str(first if first is not None else repo.last_chapter())]
    return _commit(repo, {L.名册: append_row(text, row).encode("utf-8")}, f"fix(设定): 名册+{name}\n")


def set_alias(repo: StoryRepo, name: str, alias: str, op: str = "+") -> dict[str, Any]:
    """Add or remove an alias of a roster entry or a character (the card's 别名)."""
    if op not in ("+", "-"):
        raise LwError(f"未知操作 {op!r}", expected="+ 或 -")
    alias = alias.strip()
    if not alias or any(sep in alias for sep in "|、,，/"):
        raise LwError(f"别名「{alias}」不合法（不能为空，不能含 | 、 , ，/）")
    known = repo.aliases()
    canonical = known.get(name, name)
    if op == "+" and alias in known:
        raise LwError(f"「{alias}」已被 {known[alias]} 占用——防同人异名/同名异人")
    if op == "-" and known.get(alias) != canonical:
        raise LwError(f"{canonical} 没有别名「{alias}」")
    if repo.character_path(canonical).is_file():
        changes: dict[str, bytes | None] = {}
        apply_changes(repo, None, [f"{canonical}.别名{op}{alias}"], changes, [])
        return _commit(repo, changes, f"fix(设定): {canonical}.别名{op}{alias}\n")
    text = repo.text_or(L.名册)
    for index, cells in table_rows_at(text):
        if cells and cells[0] == canonical:
            cells = (cells + ["", "", "", ""])[:4]
            current = [a for a in L.LIST_SPLIT.split(cells[1]) if a]
            cells[1] = "、".join(current + [alias] if op == "+" else [a for a in current if a != alias])
            return _commit(repo, {L.名册: replace_row(text, index, cells).encode("utf-8")},
                           f"fix(设定): 名册 {canonical} 别名{op}{alias}\n")
    raise LwError(f"名册和角色卡里都没有「{name}」", expected="先 lw story entity add")


def ignore_names(repo: StoryRepo, words: list[str]) -> dict[str, Any]:
    """Words the checks keep calling new names that are none (雪下, 那支): never reported again.
    Kept in 名册.md's 非专名 list, so the author sees and edits them with the roster."""
    words = [w.strip() for w in words if w.strip()]
    if not words:
        raise LwError("要忽略哪些词？", expected="lw story entity ignore 雪下 那支")
    for w in words:
        if "\n" in w or w.startswith("#") or len(w) > 20:
            raise LwError(f"「{w[:20]}」不是一个词")
    known = repo.aliases()
    clash = [w for w in words if w in known]
    if clash:
        raise LwError(f"「{'、'.join(clash)}」已在名册/角色卡里，是专名", expected="名册里没有的词")
    current = repo.ignored_names()
    added = [w for w in dict.fromkeys(words) if w not in current]
    if not added:
        raise LwError("这些词已在非专名列表里")
    text = repo.text_or(L.名册, "# 名册\n\n" + L.ROSTER_HEADER)
    text = set_section(text, L.IGNORE_SECTION, "\n".join(f"- {w}" for w in current + added))
    return _commit(repo, {L.名册: text.encode("utf-8")}, f"fix(设定): 非专名+{'、'.join(added)}\n")


# --- timeline, outlines ----------------------------------------------------------------------------

TIMELINE_FIELDS = {"一句话事件": 2, "在场": 3}


def set_timeline(repo: StoryRepo, chapter: int, field: str, value: str) -> dict[str, Any]:
    """Correct a timeline row's 一句话事件 or 在场 (书内时间 is the chapter's: retcon)."""
    if field not in TIMELINE_FIELDS:
        raise LwError(f"不能改时间线的「{field}」", expected="一句话事件、在场（书内时间随章节 retcon 同步）")
    if field == "在场":
        names = [repo.canonical_noted(x) for x in L.LIST_SPLIT.split(value.strip()) if x]
        value = ", ".join(names)
    text = repo.text_or(L.时间线)
    rows = [(i, c) for i, c in table_rows_at(text) if as_int(c[0]) == chapter]
    if not rows:
        raise LwError(f"时间线里没有第 {chapter} 章", file=L.时间线)
    for index, cells in rows:
        cells = (cells + ["", "", "", ""])[:4]
        cells[TIMELINE_FIELDS[field]] = value
        text = replace_row(text, index, cells)
    return _commit(repo, {L.时间线: text.encode("utf-8")}, f"fix(设定): 时间线 {chapter}.{field}={value}\n")


def outline_file(target: str) -> str:
    """``总纲`` -> 大纲/总纲.md; ``第3卷``/``3`` -> 大纲/卷纲/第03卷.md."""
    if target in ("总纲", "总"):
        return L.总纲
    m = re.fullmatch(r"(?:第)?\s*0*(\d{1,3})\s*(?:卷)?", target.strip())
    if not m or int(m.group(1)) < 1:
        raise LwError(f"大纲「{target}」不认识", expected="总纲，或卷号：第3卷")
    return f"{L.卷纲}/{L.volume_name(int(m.group(1)))}.md"


def edit_outline(repo: StoryRepo, target: str, part: str, text: str) -> dict[str, Any]:
    """Replace (or add) one ``## 段`` of 总纲 or of a volume outline."""
    rel = outline_file(target)
    part = part.strip()
    if not part or "\n" in part or part.startswith("#"):
        raise LwError(f"段名「{part}」不合法", expected="一行文字，如 结局承诺")
    old = repo.text_or(rel, f"# {L.volume_name(int(re.sub(r'[^0-9]', '', rel.rsplit('/', 1)[-1])))}\n\n"
                       if rel != L.总纲 else "# 总纲\n\n")
    new = set_section(old, part, text.strip())
    return _commit(repo, {rel: new.encode("utf-8")}, f"fix(大纲): {rel.rsplit('/', 1)[-1][:-3]} 改「{part}」\n")


# --- style ------------------------------------------------------------------------------------------

STYLE_KINDS = ("禁词", "禁句式", "口癖")


def add_style_rule(repo: StoryRepo, kind: str, text: str, source: str = "") -> dict[str, Any]:
    """Add a rule to the style constitution, with its 出处 (spec §6.1: every rule has one).

    Without a source given, a pending proposal from three rejections of a kind is the source
    when there is exactly one (三次同类否决 → 系统提议 → 作者确认); otherwise the author.
    """
    if kind not in STYLE_KINDS:
        raise LwError(f"未知规则类型「{kind}」", expected="、".join(STYLE_KINDS))
    text = text.strip()
    if not text:
        raise LwError("规则内容不能为空")
    if len(text.splitlines()) > 1:  # a check reads a line at a time; a new line would also start one of the commit
        raise LwError(f"规则「{clipped(one_line(text))}」只能是一行", expected="一条规则写一行")
    if kind == "禁句式":
        banned_pattern(text)
    source = one_line(source)
    if not source:
        proposals = rule_proposals(repo)
        if len(proposals) == 1:
            reason, chapters = proposals[0]
            source = f"第 {'/'.join(map(str, chapters))} 章三次否决：{reason}"
        else:
            source = f"作者（第 {repo.last_chapter()} 章后）"
    path = repo.p(L.风格宪法)
    doc = repo.load_doc(path) if path.is_file() else new_doc({}, "## 铁律\n\n## 节奏偏好\n\n## 来自否决的规则\n")
    seq = doc.meta.get(kind)
    if text in [str(x) for x in as_list(seq)]:
        raise LwError(f"{kind}里已有「{text}」")
    if isinstance(seq, list) and hasattr(seq, "append"):
        seq.append(text)
        doc.set(kind, seq)
    else:
        doc.set(kind, [str(x) for x in as_list(seq)] + [text])
    part = "来自否决的规则" if "否决" in source else "铁律"
    entries = section(doc.body, part)
    doc.body = set_section(doc.body, part, (entries + "\n" if entries else "") + f"- {kind}：{text}（出处：{source}）")
    result = _commit(repo, {L.风格宪法: doc.dump().encode("utf-8")}, f"fix(文风): {kind}+{text}\n\n出处: {source}\n")
    result["source"] = source
    return result
