"""Structured changes outside a chapter, shared by the ``lw story`` CLI and the model tools.

Invariant 9 (对话即编辑器): every one of these is reachable from one sentence through a tool;
each validates its input, writes in the dialect (round-trip: unknown fields and comments
kept) and commits atomically as ``fix(…)``. :data:`EDITS` maps each edit to the CLI command
and the tool that expose it (a test holds the two in step).
"""

from __future__ import annotations

import re
from typing import Any

from lwcore.errors import LwError

from lw_storyrepo import repo as R
from lw_storyrepo.atomic import apply_and_commit, recover
from lw_storyrepo.repo import StoryRepo, as_list

EDITS = {
    "abandon_promise": ("promise abandon", "story_abandon_promise"),
    "create_promise": ("promise new", "story_create_promise"),
    "set_promise": ("promise set", "story_set_promise"),
    "move_character": ("character move", "story_move_character"),
    "set_character": ("character set", "story_set_character"),
    "register_secret": ("secret new", "story_register_secret"),
    "add_knower": ("secret tell", "story_add_knower"),
    "register_entity": ("entity add", "story_register_entity"),
    "add_style_rule": ("style add", "story_add_style_rule"),
    "edit_decision_card": ("card edit", "story_edit_decision_card"),
}


def _commit(repo: StoryRepo, changes: dict[str, bytes | None], message: str) -> dict[str, Any]:
    recover(repo.root)
    commit = apply_and_commit(repo.root, changes, message)
    return {"commit": commit, "message": message.splitlines()[0], "files": sorted(changes)}


def abandon_promise(repo: StoryRepo, pid: str, reason: str) -> dict[str, Any]:
    if not reason.strip():
        raise LwError("弃置承诺必须写原因", expected="理由：改走暗线")
    item = repo.promise(pid)
    if str(item.meta.get("状态", "进行")) != "进行":
        raise LwError(f"{pid} 状态是「{item.meta.get('状态')}」，不能弃置")
    from lw_storyrepo.txn import append_history

    doc = R.load_doc(item.path, repo)
    doc.set("状态", "已弃置")
    n = repo.last_chapter()
    doc.body = append_history(doc.body, f"第{n}章后：弃置——原因：{reason.strip()}")
    return _commit(repo, {repo.rel(item.path): doc.dump().encode("utf-8")},
                   f"fix(承诺): 弃置 {pid}——{reason.strip()}\n\n承诺: -{pid}\n")


def create_promise(repo: StoryRepo, title: str, type: str, strength: str, plan: str, description: str = "",
                   deadline: str | None = None) -> dict[str, Any]:
    if type not in R.PROMISE_TYPES:
        raise LwError(f"承诺类型「{type}」不对", expected="|".join(R.PROMISE_TYPES))
    if strength not in R.STRENGTHS:
        raise LwError(f"强度「{strength}」不对", expected="高|中|低")
    if not plan.strip():
        raise LwError("开新承诺必须有兑付计划")
    if strength == "高" and not (deadline or "").strip():
        raise LwError("强度为高的承诺必须填兑付期限", expected="第7卷 或 第200章")
    pid = repo.next_id("P")
    n = repo.last_chapter()
    doc = R.new_doc({"类型": type, "强度": strength, "状态": "进行", "开启章": n, "兑付期限": deadline or None,
                     "最后推进章": n},
                    f"## 描述\n{description.strip()}\n\n## 兑付计划\n{plan.strip()}\n\n## 履历\n- 第{n}章后：开启（对话登记）\n")
    rel = f"{R.承诺}/{pid}-{R.safe_title(title)}.md"
    result = _commit(repo, {rel: doc.dump().encode("utf-8")}, f"fix(承诺): 开启 {pid} {title}\n\n承诺: +{pid}\n")
    result["id"] = pid
    return result


PROMISE_FIELDS = ("类型", "强度", "兑付期限", "最后推进章")


def set_promise(repo: StoryRepo, pid: str, field: str, value: str) -> dict[str, Any]:
    if field not in PROMISE_FIELDS:
        raise LwError(f"不能用这个命令改「{field}」", expected="、".join(PROMISE_FIELDS) + "（状态请用弃置/章事务）")
    if field == "类型" and value not in R.PROMISE_TYPES:
        raise LwError(f"承诺类型「{value}」不对", expected="|".join(R.PROMISE_TYPES))
    if field == "强度" and value not in R.STRENGTHS:
        raise LwError(f"强度「{value}」不对", expected="高|中|低")
    item = repo.promise(pid)
    doc = R.load_doc(item.path, repo)
    from lw_storyrepo.txn import coerce

    doc.set(field, coerce(value) if field == "最后推进章" else value)
    if str(doc.get("强度")) == "高" and not doc.get("兑付期限"):
        raise LwError("强度为高的承诺必须有兑付期限")
    return _commit(repo, {repo.rel(item.path): doc.dump().encode("utf-8")}, f"fix(承诺): {pid}.{field}={value}\n")


def set_character(repo: StoryRepo, name: str, field: str, value: str, op: str = "=") -> dict[str, Any]:
    if op not in ("=", "+", "-"):
        raise LwError(f"未知操作 {op!r}", expected="= + -")
    if not field or re.search(r"[\s.=+]", field):
        raise LwError(f"字段名「{field}」不合法")
    from lw_storyrepo.txn import apply_setting_changes

    changes: dict[str, bytes | None] = {}
    log: list[str] = []
    line = f"{name}.{field}{op}{value}"
    new = apply_setting_changes(repo, None, [line], changes, log)
    msg = f"fix(设定): {line}\n"
    if new:
        roster = repo.p(R.名册)
        text = R.read_text(roster) if roster.is_file() else "# 名册\n\n" + R.ROSTER_HEADER
        if name not in {r["正名"] for r in repo.roster()}:
            from lw_storyrepo.txn import ensure_newline

            changes[R.名册] = (ensure_newline(text) + R.table_line([name, "", "人物", str(repo.last_chapter() or "")])).encode("utf-8")
    return _commit(repo, changes, msg)


def move_character(repo: StoryRepo, name: str, location: str) -> dict[str, Any]:
    if name not in repo.aliases() and not repo.character_path(name).is_file():
        raise LwError(f"没有角色「{name}」", expected="角色卡的姓名或名册里的别名")
    return set_character(repo, name, "位置", location)


def register_secret(repo: StoryRepo, title: str, knowers: list[str], keywords: list[str], content: str,
                    reader_knows: bool = False) -> dict[str, Any]:
    if not keywords:
        raise LwError("信息差至少要有一个关键词（泄密扫描用）")
    sid = repo.next_id("S")
    doc = R.new_doc({"知情人": knowers, "读者已知": reader_knows, "登记章": repo.last_chapter(), "关键词": keywords},
                    f"## 内容\n{content.strip()}\n")
    rel = f"{R.信息差}/{sid}-{R.safe_title(title)}.md"
    result = _commit(repo, {rel: doc.dump().encode("utf-8")}, f"fix(设定): 信息差+{sid} {title}\n\n设定: 信息差+{sid}\n")
    result["id"] = sid
    return result


def add_knower(repo: StoryRepo, sid: str, name: str) -> dict[str, Any]:
    item = repo.secret(sid)
    canonical = repo.aliases().get(name, name)
    doc = R.load_doc(item.path, repo)
    current = [str(x) for x in as_list(doc.get("知情人"))]
    if canonical in current:
        raise LwError(f"{canonical} 已经是 {sid} 的知情人")
    seq = doc.meta.get("知情人")
    if hasattr(seq, "append"):
        seq.append(canonical)
        doc.set("知情人", seq)
    else:
        doc.set("知情人", current + [canonical])
    return _commit(repo, {repo.rel(item.path): doc.dump().encode("utf-8")}, f"fix(设定): {sid}.知情人+{canonical}\n")


ENTITY_KINDS = ("人物", "地点", "组织", "物品", "功法", "其他")


def register_entity(repo: StoryRepo, name: str, kind: str = "其他", aliases: list[str] | None = None,
                    first: int | None = None) -> dict[str, Any]:
    if not name.strip():
        raise LwError("正名不能为空")
    known = repo.aliases()
    for n in [name, *(aliases or [])]:
        if n in known:
            raise LwError(f"「{n}」已在名册/角色卡中（正名：{known[n]}）——防同人异名/同名异人")
    path = repo.p(R.名册)
    text = R.read_text(path) if path.is_file() else "# 名册\n\n" + R.ROSTER_HEADER
    from lw_storyrepo.txn import ensure_newline

    row = R.table_line([name, "、".join(aliases or []), kind, str(first if first is not None else repo.last_chapter())])
    return _commit(repo, {R.名册: (ensure_newline(text) + row).encode("utf-8")}, f"fix(设定): 名册+{name}\n")


STYLE_KINDS = ("禁词", "禁句式", "口癖")


def add_style_rule(repo: StoryRepo, kind: str, text: str, source: str = "") -> dict[str, Any]:
    if kind not in STYLE_KINDS:
        raise LwError(f"未知规则类型「{kind}」", expected="、".join(STYLE_KINDS))
    text = text.strip()
    if not text:
        raise LwError("规则内容不能为空")
    if kind == "禁句式":
        try:
            re.compile(text)
        except re.error as exc:
            raise LwError(f"禁句式「{text}」不是合法的正则：{exc}") from None
    path = repo.p(R.风格宪法)
    doc = R.load_doc(path, repo) if path.is_file() else R.new_doc({}, "## 铁律\n\n## 节奏偏好\n\n## 来自否决的规则\n")
    seq = doc.meta.get(kind)
    if hasattr(seq, "append"):
        if text in [str(x) for x in seq]:
            raise LwError(f"{kind}里已有「{text}」")
        seq.append(text)
        doc.set(kind, seq)
    else:
        doc.set(kind, [str(x) for x in as_list(seq)] + [text])
    if source.strip():
        if "## 来自否决的规则" in doc.body:
            doc.body = doc.body.replace("## 来自否决的规则\n", f"## 来自否决的规则\n- {kind}：{text}（出处：{source.strip()}）\n", 1)
        else:
            doc.body = doc.body.rstrip("\n") + f"\n\n## 来自否决的规则\n- {kind}：{text}（出处：{source.strip()}）\n"
    return _commit(repo, {R.风格宪法: doc.dump().encode("utf-8")}, f"fix(文风): {kind}+{text}\n")


def edit_decision_card(repo: StoryRepo, proposal: str | None = None, contract: list[str] | None = None,
                       alternatives: str | None = None, *, by_model: bool = True) -> dict[str, Any]:
    """Rewrite sections of ``工作区/决策卡.md`` (workspace: no commit). The model can never
    grant the promise exemption: that tick and its reason belong to the author."""
    from lw_storyrepo.board import compute_board
    from lw_storyrepo.txn import EXEMPT, load_state, parse_card, render_card

    state = load_state(repo)
    if state is None or state.get("阶段") != "brief":
        raise LwError("只有在 brief 阶段（作者拍板前）才能改决策卡")
    for text in [proposal or "", alternatives or "", *(contract or [])]:
        if by_model and EXEMPT in text:
            raise LwError("豁免承诺结转只能由作者在决策卡上勾选，模型不能自行豁免")
    path = repo.p(R.决策卡)
    old = parse_card(R.read_text(path))
    board = compute_board(repo, int(state["章号"]))
    keep_exempt = [ln for ln in old.sections.get("备选", "").splitlines() if EXEMPT in ln]
    old_alt = "\n".join(ln for ln in old.sections.get("备选", "").splitlines() if EXEMPT not in ln)
    text = render_card(
        board,
        proposal if proposal is not None else old.sections.get("提案", ""),
        contract if contract is not None else old.contract,
        alternatives if alternatives is not None else old_alt,
    )
    if keep_exempt:
        lines = [ln for ln in text.splitlines() if EXEMPT not in ln]
        text = "\n".join(lines + keep_exempt) + "\n"
    from lwcore.io.atomic import atomic_write_text

    atomic_write_text(path, text)
    return {"file": R.决策卡, "contract": parse_card(text).contract}
