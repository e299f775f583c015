"""Settle (spec §8 step 8): every file the chapter's commit carries, computed, then one commit.

:func:`plan_chapter` is the single place that knows what settle would refuse. The checks run
it dry on every draft (:func:`refusals`), so a draft settle would refuse never reaches the
author; the acceptance runs it again on the text the author accepted; :func:`settle` runs it
for real and hands the files to :func:`lw_storyrepo.atomic.apply_and_commit`.

The commit: the chapter (its front matter: the contract, the promise moves, the setting changes,
the one-line event and who was present -- the chapter's own settle record, which a retcon diffs --
plus any field the draft carries that the format does not name), promise files (front matter + a 履历 line),
characters and info gaps changed by 设定变更, new info gaps, new roster names, a timeline row,
the chapter summary, golden lines, and the emptied workspace.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from lwcore.api import LwError

from lw_storyrepo import layout as L
from lw_storyrepo.acceptcard import Acceptance, read_acceptance
from lw_storyrepo.atomic import apply_and_commit
from lw_storyrepo.changes import apply_changes, check_name
from lw_storyrepo.checks import ERROR, CheckContext, Finding, contract_findings
from lw_storyrepo.counting import word_count
from lw_storyrepo.dialect import Doc, RepairNeeded, parse_doc, quick_meta
from lw_storyrepo.drafts import DRAFT_FIELDS, Draft, draft_labels, read_draft
from lw_storyrepo.faults import fault
from lw_storyrepo.findings import one_line
from lw_storyrepo.golden import harvest_golden
from lw_storyrepo.health import run_if_due
from lw_storyrepo.notices import note
from lw_storyrepo.markdown import append_history, append_row, replace_row, section, set_section, table_rows_at
from lw_storyrepo.repo import Item, StoryRepo, as_list, new_doc
from lw_storyrepo.volumes import deadline_behind, draft_volume, ends_volume
from lw_storyrepo.workspace import kept_workspace, require_state

SUMMARY_MAX = 200
CHAPTER_KEYS = ("章号", "标题", "卷", "视角", "书内时间", "字数", "开启承诺", "推进承诺", "兑付承诺", "弃置承诺", "合同", "合同修订",
                "豁免承诺结转", "卷末", "设定变更", "一句话事件", "在场")
RECORDED = ("设定变更", "一句话事件", "在场")
"""Draft fields settle applies and also records in the chapter's front matter (its settle
record, spec §4.1), so a retcon can tell what the chapter changed and carry a change through."""


NO_PROMISE_MOVED = ("本章没有开启/推进/兑付任何承诺：在草稿的开启承诺、推进承诺或兑付承诺里写上承诺编号（新的先 lw story "
                    "promise draft …，再交稿）；豁免只在 decide 之前勾选才算，现在勾不算，不动承诺就只能 lw story abort，"
                    "在新决策卡上勾选并写理由")
"""Settle's refusal of a chapter that moves no promise, with the answers the author still has."""


@dataclass
class Refusal:
    message: str
    needle: str = ""  # text that locates the problem in the draft's front matter


@dataclass
class SettlePlan:
    number: int
    title: str
    changes: dict[str, bytes | None] = field(default_factory=dict)
    message: str = ""
    opened: list[str] = field(default_factory=list)
    advanced: list[str] = field(default_factory=list)
    paid: list[str] = field(default_factory=list)
    abandoned: list[str] = field(default_factory=list)
    settings: list[str] = field(default_factory=list)
    errors: list[Refusal] = field(default_factory=list)


def _notes(values: list[Any]) -> dict[str, str]:
    out: dict[str, str] = {}
    for v in values:
        m = re.match(r"^\s*([PS]-\d{3,})\s*[：:—\-]+\s*(.+)$", str(v))
        if m:
            out[m.group(1)] = m.group(2).strip()
    return out


def _unfiled_promise(pid: str, drafted: dict[str, tuple[str, Doc]]) -> str:
    """Why a promise listed under 开启承诺 has no drafted file: an id without one, or a short
    title where its id belongs (the id ``promise draft`` printed)."""
    titled = [item_id for item_id, (title, _doc) in drafted.items() if pid in (title, L.safe_title(title))]
    if titled:
        return f"开启承诺写的是短题「{pid}」：要写承诺的编号 {titled[0]}（lw story promise draft 给出的编号）"
    if re.fullmatch(r"P-\d{3,}", pid):
        return f"开启承诺 {pid} 还没有起草：没有 工作区/新承诺/{pid}-*.md（lw story promise draft 短题 … 会给出编号）"
    return (f"开启承诺「{pid}」不是承诺编号：先 lw story promise draft {pid} …，"
            "再在「开启承诺」里写它给出的编号（如 P-001）")


def _drafted_items(repo: StoryRepo, folder: str, prefix: str, plan: SettlePlan) -> dict[str, tuple[str, Doc]]:
    """Promises or info gaps drafted in the workspace: id -> (short title, doc)."""
    out: dict[str, tuple[str, Doc]] = {}
    base = repo.p(folder)
    if not base.is_dir():
        return out
    for path in sorted(base.glob("*.md")):
        rel = repo.rel(path)
        m = L.ITEM_FILE.match(path.name)
        if not m or not m.group(1).startswith(prefix + "-"):
            plan.errors.append(Refusal(f"{rel}：文件名应为 {prefix}-NNN-短题.md"))
            continue
        try:
            doc, _ = parse_doc(repo.text(path), rel)
        except LwError as exc:
            plan.errors.append(Refusal(str(exc)))
            continue
        out[m.group(1)] = (m.group(2), doc)
    return out


def commit_message(n: int, title: str, opened: list[str], advanced: list[str], paid: list[str],
                   abandoned: list[str], settings: list[str], exemption: str | None) -> str:
    marks = [f"+{p}" for p in opened] + [f"~{p}" for p in advanced if p not in opened] + [f"${p}" for p in paid]
    marks += [f"-{p}" for p in abandoned]
    # a draft's new line must not start a line of the message (a forged trailer or 打回 line)
    title, exemption, settings = one_line(title), one_line(exemption or ""), [one_line(s) for s in settings]
    lines = [f"ch({n}): {title}", ""]
    lines.append("承诺: " + (" ".join(marks) if marks else "无"))
    if exemption:
        lines.append(f"豁免: {exemption}")
    if settings:
        lines.append("设定: " + "; ".join(settings))
    return "\n".join(lines) + "\n"


def plan_chapter(repo: StoryRepo, state: dict[str, Any], draft: Draft, acceptance: Acceptance | None = None, *,
                 dry: bool = False, ctx: CheckContext | None = None) -> SettlePlan:
    """Everything the settle of ``draft`` writes, and every reason it would refuse.

    ``dry``: for the checks — no summary is needed yet, no golden lines are harvested, the
    workspace is not emptied. The plan's ``errors`` are empty when settle would go through.
    """
    n = int(state["章号"])
    title = str(draft.meta.get("标题") or "").strip()
    plan = SettlePlan(n, title)
    errors = plan.errors
    if repo.chapter_path(n) is not None:
        errors.append(Refusal(f"第 {n} 章已在定稿中（定稿只增不改；要改设定请走 retcon）"))
    elif n != repo.last_chapter() + 1:
        errors.append(Refusal(f"章号 {n} 与定稿不连续（最后一章是 {repo.last_chapter()}）"))
    if not title:
        errors.append(Refusal("草稿 front matter 缺「标题」"))
    summary = ""
    if not dry:
        acc = acceptance or Acceptance()
        summary = acc.summary or repo.text_or(L.章摘要稿).strip()
        if not summary:
            errors.append(Refusal("章摘要缺失（验收卡「章摘要」段，≤200 字）"))
        elif len(summary) > SUMMARY_MAX:
            errors.append(Refusal(f"章摘要 {len(summary)} 字，超过 {SUMMARY_MAX} 字"))
    try:
        volume = draft_volume(repo, draft.meta.get("卷"))
    except LwError as exc:
        errors.append(Refusal(exc.message, "卷"))
        volume = 1
    opened, advanced, paid, abandoned = (draft.ids(k) for k in ("开启承诺", "推进承诺", "兑付承诺", "弃置承诺"))
    adv_notes = _notes(as_list(draft.meta.get("推进说明")))
    ab_notes = _notes(as_list(draft.meta.get("弃置理由")))
    new_promises = _drafted_items(repo, L.新承诺, "P", plan)
    if not (opened or advanced or paid) and not state.get("豁免"):
        key = next((k for k in ("开启承诺", "推进承诺", "兑付承诺") if k in draft.meta), "")
        errors.append(Refusal(NO_PROMISE_MOVED, f"{key}:" if key else "---"))  # the empty key, else the front matter
    for pid in opened:
        if pid not in new_promises:
            errors.append(Refusal(_unfiled_promise(pid, new_promises), pid))
            continue
        short, doc = new_promises[pid]
        if repo.item_path(L.承诺, pid) is not None:
            errors.append(Refusal(f"承诺编号 {pid} 已被占用", pid))
        if not section(doc.body, "兑付计划"):
            errors.append(Refusal(f"新承诺 {pid} 没有「## 兑付计划」（开新承诺必须有兑付计划）", pid))
        if str(doc.get("强度")) == "高" and not doc.get("兑付期限"):
            errors.append(Refusal(f"新承诺 {pid} 强度为高，必须填兑付期限", pid))
        if doc.get("类型") and str(doc.get("类型")) not in L.PROMISE_TYPES:
            errors.append(Refusal(f"新承诺 {pid} 的类型「{doc.get('类型')}」不在 {'|'.join(L.PROMISE_TYPES)}", pid))
        behind = deadline_behind(repo, doc.get("兑付期限"))
        if behind is not None:
            errors.append(Refusal(f"新承诺 {pid} 的兑付期限「{doc.get('兑付期限')}」（第 {behind[0]} 章）已经过了："
                                  f"最早在第 {behind[1]} 章兑付，改 {L.新承诺}/{pid}-{short}.md 里的兑付期限，"
                                  "再把草稿交一次（lw story draft A 文件，原文不变也行）", pid))
    existing: dict[str, Item] = {}
    for pid in dict.fromkeys(advanced + paid + abandoned):
        if pid in opened:
            continue
        try:
            item = repo.promise(pid)
        except LwError as exc:
            errors.append(Refusal(exc.message, pid))
            continue
        if str(item.meta.get("状态", "进行")) != "进行":
            errors.append(Refusal(f"承诺 {pid} 状态是「{item.meta.get('状态')}」，不能再结转", pid))
        existing[pid] = item
    for pid in abandoned:
        if not ab_notes.get(pid):
            errors.append(Refusal(f"弃置 {pid} 必须写原因（弃置理由：- {pid}：原因）", pid))
    # a refusal is always the draft check's own reading (CheckContext.load: cards' posts, forms of address,
    # keepers, places), so settle refuses exactly what ``lw story check`` sends back; without a loaded context,
    # a first pass with the names alone (no card read) lets a contract that is met through without loading it
    if ctx is None:
        aliases = {p[:-3]: p[:-3] for p in _card_names(repo)}
        aliases.update(repo.aliases({}, repo.roster()))
        light = CheckContext.for_contract(aliases)
        if any(f.severity == ERROR for f in contract_findings(state, draft, light.for_draft(draft.meta))):
            ctx = CheckContext.load(repo)
    found = [] if ctx is None else [f for f in contract_findings(state, draft, ctx.for_draft(draft.meta))
                                    if f.severity == ERROR]
    errors.extend(Refusal(f.message) for f in found)

    changes = plan.changes
    # promises
    for pid in opened:
        if pid not in new_promises:
            continue
        ptitle, doc = new_promises[pid]
        for key, default in (("类型", "伏笔"), ("强度", "中"), ("状态", "进行")):
            if not doc.get(key):
                doc.set(key, default)
        doc.set("开启章", n)
        if "兑付期限" not in doc.meta:
            doc.set("兑付期限", None)
        doc.set("最后推进章", n)
        doc.body = append_history(doc.body, f"第{n}章：开启" + (f"——{adv_notes[pid]}" if pid in adv_notes else ""))
        changes[f"{L.承诺}/{pid}-{L.safe_title(ptitle)}.md"] = doc.dump().encode("utf-8")
    for pid, item in existing.items():
        try:
            doc = repo.load_doc(item.path)
        except LwError as exc:
            errors.append(Refusal(str(exc), pid))
            continue
        if pid in paid:
            doc.set("状态", "已兑付")
            doc.set("最后推进章", n)
            line = f"第{n}章：兑付" + (f"——{adv_notes[pid]}" if pid in adv_notes else "")
        elif pid in abandoned:
            doc.set("状态", "已弃置")
            line = f"第{n}章：弃置——原因：{ab_notes.get(pid, '')}"
        else:
            doc.set("最后推进章", n)
            line = f"第{n}章：推进" + (f"——{adv_notes[pid]}" if pid in adv_notes else "")
        doc.body = append_history(doc.body, line)
        changes[repo.rel(item.path)] = doc.dump().encode("utf-8")
    # info gaps drafted in this chapter, then the setting changes (which may name them)
    secrets: dict[str, tuple[str, Doc]] = {}
    for sid, (stitle, doc) in _drafted_items(repo, L.新信息差, "S", plan).items():
        if repo.item_path(L.信息差, sid) is not None:
            errors.append(Refusal(f"信息差编号 {sid} 已被占用", sid))
            continue
        secrets[sid] = (f"{L.信息差}/{sid}-{L.safe_title(stitle)}.md", doc)
    settings_log: list[str] = []
    new_characters: list[str] = []
    refused: list[tuple[str, LwError]] = []  # one pass over the lines: each file read and written once
    new_characters += apply_changes(repo, n, [str(x) for x in as_list(draft.meta.get("设定变更"))], changes,
                                    settings_log, secrets, refused)
    errors += [Refusal(exc.message, line) for line, exc in refused]
    for sid, (rel, doc) in secrets.items():
        doc.set("登记章", n)
        for key in ("知情人", "关键词"):
            if key not in doc.meta:
                doc.set(key, [])
        if "读者已知" not in doc.meta:
            doc.set("读者已知", False)
        changes[rel] = doc.dump().encode("utf-8")
        settings_log.append(f"信息差+{sid}")
    # roster: names the author confirmed on the acceptance card, and new characters
    confirmed = acceptance.confirmed if acceptance else []
    kinds = {noun: acceptance.kinds.get(noun, "其他") for noun in confirmed} if acceptance else {}
    # the people of 在场 (and the point of view) the book does not know yet are registered too:
    # they count as known to the checks, so they must reach the roster (health: no orphans)
    present = [str(x).strip() for x in as_list(draft.meta.get("在场")) + as_list(draft.meta.get("视角"))]
    known = ctx.aliases if ctx is not None else aliases
    newcomers = [p for p in dict.fromkeys(present)  # a card's alias is no newcomer
                 if p and p not in known and p not in new_characters and (ctx is not None or repo.canonical(p) == p)]
    for name in newcomers:
        try:
            check_name(name)
        except LwError as exc:
            errors.append(Refusal(f"在场「{name}」：{exc.message}", name))
    roster_text, known = add_to_roster(repo, n, new_characters + newcomers, confirmed, kinds, changes, settings_log)
    sync_aliases(repo, changes, settings_log)
    roster_text = written.decode("utf-8") if (written := changes.get(L.名册)) else roster_text
    ignored = repo.ignored_names()
    not_names = [w for w in (acceptance.ignored if acceptance else []) if w not in ignored and w not in known]
    if not_names:
        roster_text = set_section(roster_text, L.IGNORE_SECTION, "\n".join(f"- {w}" for w in ignored + not_names))
        settings_log.append("非专名+" + "、".join(not_names))
        changes[L.名册] = roster_text.encode("utf-8")
    # timeline
    tl_text = repo.text_or(L.时间线, "# 时间线\n\n" + L.TIMELINE_HEADER)
    changes[L.时间线] = append_row(tl_text, timeline_cells(n, draft.meta, repo.canonical if dry else repo.canonical_noted)
                                   ).encode("utf-8")
    # the chapter itself
    changes[f"{L.正文}/{L.chapter_filename(n, title or '无题')}"] = chapter_text(
        state, draft, volume, opened, advanced, paid, abandoned).encode("utf-8")
    if dry:
        return plan
    if title and L.safe_title(title) != title:
        note(f"标题「{title}」不能原样做文件名：文件名写作 {L.chapter_filename(n, title)}")
    changes[f"{L.章摘要}/{n:04d}.md"] = f"# 第{n}章 {title}\n\n{summary}\n".encode("utf-8")
    try:
        original = read_draft(repo, draft.label, original=True)
        harvest_golden(repo, n, original.body, draft.body, changes)
    except LwError:
        pass  # no original kept (a hand-made draft): nothing to compare with
    ws = repo.p(L.工作区)
    if ws.is_dir():
        for dirpath, _dirs, files in os.walk(ws):
            for name in files:
                changes[repo.rel(Path(dirpath) / name)] = None
    plan.opened, plan.advanced, plan.paid, plan.abandoned = opened, advanced, paid, abandoned
    plan.settings = settings_log
    plan.message = commit_message(n, title, opened, advanced, paid, abandoned, settings_log, state.get("豁免"))
    for record in as_list(state.get("合同修订")):  # the author amended the frozen contract: why stays in git
        plan.message += f"合同修订: {str(record).split('（原：')[0]}\n"
    reasons = [ln[2:].strip().replace("|", "｜") for ln in repo.text_or(L.打回记录).splitlines() if ln.startswith("- ")]
    if reasons:  # rejection reasons stay in git history (for the three-strikes style rules)
        plan.message += "打回: " + " | ".join(reasons) + "\n"
    return plan


def _card_names(repo: StoryRepo) -> list[str]:
    try:
        return [n for n in os.listdir(repo.p(L.角色)) if n.endswith(".md")]
    except OSError:
        return []


def add_to_roster(repo: StoryRepo, n: int, characters: list[str], confirmed: list[str], kinds: dict[str, str],
                  changes: dict[str, bytes | None], log: list[str]) -> tuple[str, set[str]]:
    """Rows for the names not in 名册 yet: ``confirmed`` (acceptance card, of ``kinds``) and the
    ``characters`` setting changes created (人物), first seen in chapter ``n``. Returns the
    roster text (also put in ``changes`` when it grew) and every name it knows."""
    rel = L.名册
    planned = changes.get(rel)
    roster_text = planned.decode("utf-8") if planned is not None else repo.text_or(rel, "# 名册\n\n" + L.ROSTER_HEADER)
    known = {row["正名"] for row in repo.roster()}
    added = []
    for noun in confirmed + characters:
        if noun not in known:
            kind = "人物" if noun in characters else kinds.get(noun, "其他")
            roster_text = append_row(roster_text, [noun, "", kind, str(n)])
            known.add(noun)
            added.append(noun)
    if added:
        log.append("名册+" + "、".join(added))
        changes[rel] = roster_text.encode("utf-8")
    return roster_text, known


def sync_aliases(repo: StoryRepo, changes: dict[str, bytes | None], log: list[str]) -> None:
    """The roster's 别名 column follows the character cards: for every card this plan writes,
    its row in 名册 gets the card's 别名 (a row is added, 人物, when the plan changes the card's
    aliases and it has no row yet). One place keeps 名册 and the cards in step for settle, retcon
    and every edit."""
    cards: dict[str, tuple[list[str], bool]] = {}
    for rel, data in changes.items():
        if data is None or not rel.startswith(L.角色 + "/") or not rel.endswith(".md"):
            continue
        meta, _ = quick_meta(data.decode("utf-8"), rel)
        name = str(meta.get("姓名") or rel.rsplit("/", 1)[-1][:-3])
        aliases = [str(a) for a in as_list(meta.get("别名"))]
        before = quick_meta(repo.text(rel), rel)[0] if repo.p(rel).is_file() else {}
        cards[name] = (aliases, aliases != [str(a) for a in as_list(before.get("别名"))])
    if not cards:
        return
    planned = changes.get(L.名册)
    text = planned.decode("utf-8") if planned is not None else repo.text_or(L.名册, "# 名册\n\n" + L.ROSTER_HEADER)
    rows = {cells[0]: (index, (cells + ["", "", "", ""])[:4]) for index, cells in table_rows_at(text) if cells and cells[0]}
    changed = []
    for name, (aliases, edited) in cards.items():
        cell = "、".join(aliases)
        if name in rows:
            index, cells = rows[name]
            if [a for a in L.LIST_SPLIT.split(cells[1]) if a] != aliases:
                cells[1] = cell
                text = replace_row(text, index, cells)
                changed.append(name)
        elif aliases and edited:
            text = append_row(text, [name, cell, "人物", ""])
            changed.append(name)
    if changed:
        changes[L.名册] = text.encode("utf-8")
        log.append("名册别名同步：" + "、".join(changed))


def timeline_cells(n: int, meta: dict[str, Any], name: Callable[[str], str] = str) -> list[str]:
    """Chapter ``n``'s timeline row (§4.4) from a draft's or a settled chapter's front matter:
    章, 书内时间, 一句话事件 (the title when there is none), 在场 — each person as ``name`` gives
    them (settle and retcon: the canonical name, an alias written as its card's name, as
    ``timeline set`` writes it), once."""
    present = list(dict.fromkeys(name(str(x)) for x in as_list(meta.get("在场"))))
    event = str(meta.get("一句话事件") or str(meta.get("标题") or "").strip())
    return [str(n), str(meta.get("书内时间") or ""), event, ", ".join(present)]


def chapter_text(state: dict[str, Any], draft: Draft, volume: int, opened: list[str], advanced: list[str],
                 paid: list[str], abandoned: list[str]) -> str:
    """The settled chapter: front matter in the order of spec §4.1, then the draft's own fields."""
    fm: dict[str, Any] = {
        "章号": int(state["章号"]), "标题": str(draft.meta.get("标题") or "").strip(), "卷": volume,
        "视角": draft.meta.get("视角") or "", "书内时间": draft.meta.get("书内时间") or "", "字数": word_count(draft.body),
        "开启承诺": opened, "推进承诺": advanced, "兑付承诺": paid,
    }
    if abandoned:
        fm["弃置承诺"] = abandoned
    fm["合同"] = [str(c) for c in as_list(state.get("合同"))]
    if state.get("合同修订"):
        fm["合同修订"] = [str(c) for c in as_list(state.get("合同修订"))]
    if state.get("豁免"):
        fm["豁免承诺结转"] = str(state["豁免"])
    if ends_volume(draft.meta) or state.get("卷末"):
        fm["卷末"] = True
    lines = [str(x) for x in as_list(draft.meta.get("设定变更"))]
    if lines:
        fm["设定变更"] = lines
    if draft.meta.get("一句话事件"):
        fm["一句话事件"] = str(draft.meta["一句话事件"])
    present = [str(x) for x in as_list(draft.meta.get("在场"))]
    if present:
        fm["在场"] = present
    doc = new_doc(fm, draft.body if draft.body.startswith("\n") else "\n" + draft.body)
    if any(key not in DRAFT_FIELDS and key not in CHAPTER_KEYS for key in draft.meta):
        own, _ = parse_doc(draft.text, L.draft_file(draft.label))  # round-trip: the author's values as written
        for key, value in own.meta.items():
            if key not in DRAFT_FIELDS and key not in CHAPTER_KEYS:
                doc.meta[key] = value
    return doc.dump()


def refusals(repo: StoryRepo, state: dict[str, Any], draft: Draft, ctx: CheckContext | None = None) -> list[Finding]:
    """What settle would refuse in ``draft``, as check findings located in the draft."""
    try:
        plan = plan_chapter(repo, state, draft, dry=True, ctx=ctx)
    except RepairNeeded as exc:
        return [Finding("结转", ERROR, str(exc), 1)]
    return [Finding("结转", ERROR, r.message, draft.line_of(r.needle)) for r in plan.errors]


def chosen_label(repo: StoryRepo, state: dict[str, Any]) -> str:
    label = state.get("选稿") or next(iter(draft_labels(repo)), None)
    if not label:
        raise LwError("没有可结转的草稿")
    return str(label)


def plan_settle(repo: StoryRepo, ctx: CheckContext | None = None) -> SettlePlan:
    """The plan for the chosen draft; a refusal raises LwError naming every problem."""
    state = require_state(repo, "accepted", "reviewed")
    draft = read_draft(repo, chosen_label(repo, state))
    plan = plan_chapter(repo, state, draft, read_acceptance(repo), ctx=ctx)
    if plan.errors:
        raise LwError("结转被打回：" + "；".join(r.message for r in plan.errors), expected="修改草稿或决策卡后重试")
    return plan


def workspace_kept(repo: StoryRepo, plan: SettlePlan) -> tuple[list[str], str] | None:
    """A tracked workspace keeps its history (spec §7: the author deleted 工作区/ from
    .gitignore): the drafts, rejected drafts, reviews, reports and cards the settle empties are
    committed first as ``draft(N)``, the parent of ``ch(N)``. None when the workspace is ignored."""
    return kept_workspace(repo, plan.changes, f"draft({plan.number}): 第{plan.number}章的草稿与评审存档")


def commit_plan(repo: StoryRepo, plan: SettlePlan) -> str:
    """Apply and commit a settle plan atomically (a tracked workspace kept first); the health
    check follows every 50th chapter. Returns the ``ch(N)`` commit."""
    commit = apply_and_commit(repo.root, plan.changes, plan.message, workspace_kept(repo, plan))
    run_if_due(repo)
    return commit


def settle(repo: StoryRepo) -> str:
    """Plan, then apply and commit atomically. Returns the new commit id. Only a chapter the
    author accepted (``lw story accept``) settles: its stage is 结转 (accepted)."""
    require_state(repo, "accepted")
    plan = plan_settle(repo)
    fault("planned")
    return commit_plan(repo, plan)
