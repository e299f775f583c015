"""The chapter transaction (spec §8): brief → decide → pack → drafts → checks → lens reviews
→ acceptance → settle.

Workspace state lives in ``工作区/事务.yaml`` (stage, chapter number, the frozen contract, an
exemption granted by the author, the chosen draft). The workspace is pre-ratchet: it may be
lost, tracked or not (§7); settle empties it in the same commit either way.

A draft is ``工作区/草稿-<label>.md``: the prose plus a flat front matter with the chapter's
proposed moves (see :data:`DRAFT_FIELDS`); the model's original is kept in
``工作区/原稿/`` for the golden-line harvest.
"""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lwcore.errors import LwError

from lw_storyrepo import repo as R
from lw_storyrepo.board import Board, compute_board, volume_of
from lw_storyrepo.dialect import Doc, new_map, parse_doc, quick_meta, yaml_dump
from lw_storyrepo.repo import StoryRepo, as_list, read_text

STAGES = ("brief", "decided", "packed", "drafted", "checked", "reviewed", "accepted")
STAGE_NAMES = {
    "brief": "等作者拍板决策卡",
    "decided": "组装上下文包",
    "packed": "模型渲染草稿",
    "drafted": "机检",
    "checked": "三镜头评审",
    "reviewed": "作者验收",
    "accepted": "结转",
}
LENSES = ("读者", "编辑", "事实")
DRAFT_FIELDS = (
    "标题", "视角", "书内时间", "开启承诺", "推进承诺", "兑付承诺", "弃置承诺",
    "推进说明", "弃置理由", "设定变更", "一句话事件", "在场", "场景",
)
EXEMPT = "本章豁免承诺结转"
SUMMARY_MAX = 200
GOLDEN_KEEP = 20
GOLDEN_THRESHOLD = 0.30
ID_RE = re.compile(r"\b([PS]-\d{3,})\b")


# --- workspace state ---------------------------------------------------------------------------


def load_state(repo: StoryRepo) -> dict[str, Any] | None:
    path = repo.p(R.事务)
    if not path.is_file():
        return None
    meta, _ = quick_meta("---\n" + read_text(path) + "---\n", R.事务)
    return meta


def save_state(repo: StoryRepo, state: dict[str, Any]) -> None:
    data = new_map()
    for key, value in state.items():
        data[key] = value if not (isinstance(value, list) and not value) else None
    from lwcore.io.atomic import atomic_write_text

    atomic_write_text(repo.p(R.事务), yaml_dump(data))


def require_state(repo: StoryRepo, *stages: str) -> dict[str, Any]:
    state = load_state(repo)
    if state is None:
        raise LwError("工作区没有进行中的章事务", expected="先运行 lw story brief")
    if stages and state.get("阶段") not in stages:
        raise LwError(
            f"章事务当前阶段是「{STAGE_NAMES.get(state.get('阶段'), state.get('阶段'))}」，不能做这一步",
            expected="、".join(STAGE_NAMES[s] for s in stages),
        )
    return state


def _write(repo: StoryRepo, rel: str, text: str) -> Path:
    from lwcore.io.atomic import atomic_write_text

    path = repo.p(rel)
    atomic_write_text(path, text)
    return path


# --- 1. brief ------------------------------------------------------------------------------------


def brief(repo: StoryRepo) -> Path:
    """Write the decision card for the next chapter (stage ``brief``)."""
    if load_state(repo) is not None:
        raise LwError("工作区已有进行中的章事务", expected="lw story 继续，或 lw story abort 放弃")
    board = compute_board(repo)
    _write(repo, R.决策卡, render_card(board))
    save_state(repo, {"章号": board.chapter, "阶段": "brief"})
    return repo.p(R.决策卡)


def render_card(board: Board, proposal: str = "", contract: list[str] | None = None, alternatives: str = "") -> str:
    if contract is None:
        contract = []
        for pid, _title, idle in board.debts[:2]:
            contract.append(f"推进 {pid}（节奏债：{idle} 章未推进）")
        for pid, _title, due in board.due[:2]:
            contract.append(f"推进或兑付 {pid}（期限第 {due} 章）")
        if board.weak_hooks >= max(1, board.weak_limit - 1):
            contract.append("结尾强钩")
    lines = [f"# 决策卡：第 {board.chapter} 章", "## 盘面（脚本生成）", *board.lines(), "## 提案"]
    lines.append(proposal or "（待模型提案：用 story_edit_decision_card 填写本章方案）")
    lines.append("## 合同（拍板即生效）")
    lines.extend(f"- [ ] {c}" for c in contract)
    lines.append("## 备选")
    lines.append(alternatives or "（待模型提出备选方案及代价）")
    lines.append(f"- [ ] {EXEMPT}（理由：）")
    return "\n".join(lines) + "\n"


@dataclass
class Card:
    sections: dict[str, str]
    contract: list[str]
    exemption: str | None  # the reason, when the author ticked the exemption with one
    exemption_ticked: bool


def parse_card(text: str) -> Card:
    sections: dict[str, str] = {}
    current = None
    buf: list[str] = []
    for line in text.splitlines():
        if line.startswith("## "):
            if current is not None:
                sections[current] = "\n".join(buf).strip()
            current = line[3:].strip()
            buf = []
        elif current is not None:
            buf.append(line)
    if current is not None:
        sections[current] = "\n".join(buf).strip()
    contract_text = next((v for k, v in sections.items() if k.startswith("合同")), "")
    contract = []
    for line in contract_text.splitlines():
        m = re.match(r"^\s*[-*]\s*(\[[ xX✓√]?\]\s*)?(.+)$", line)
        if m and m.group(2).strip():
            contract.append(m.group(2).strip())
    exemption = None
    ticked = False
    for line in text.splitlines():
        m = re.match(r"^\s*[-*]\s*\[[xX✓√]\]\s*" + EXEMPT + r"(.*)$", line)
        if m:
            ticked = True
            r = re.search(r"理由\s*[：:]\s*([^）)]*)", m.group(1))
            if r and r.group(1).strip():
                exemption = r.group(1).strip()
    return Card(sections, contract, exemption, ticked)


# --- 2. decide -----------------------------------------------------------------------------------


def decide(repo: StoryRepo) -> dict[str, Any]:
    """The author adopts the card: the contract section is frozen (stage ``decided``)."""
    state = require_state(repo, "brief")
    card = parse_card(read_text(repo.p(R.决策卡)))
    if card.exemption_ticked and not card.exemption:
        raise LwError("勾了「本章豁免承诺结转」但没写理由", file=R.决策卡, expected="（理由：纯番外）")
    if not card.contract:
        raise LwError("合同段是空的", file=R.决策卡, expected="至少一条「- [ ] 合同断言」")
    state.update({"阶段": "decided", "合同": card.contract})
    if card.exemption:
        state["豁免"] = card.exemption
    save_state(repo, state)
    return state


# --- 3. pack ------------------------------------------------------------------------------------


def pack(repo: StoryRepo) -> Path:
    """Assemble ``工作区/上下文包.md`` (stage ``packed``)."""
    state = require_state(repo, "decided", "packed")
    n = int(state["章号"])
    board = compute_board(repo, n)
    contract = [str(c) for c in as_list(state.get("合同"))]
    out = [f"# 上下文包：第 {n} 章", "", "## 盘面", *board.lines(), "", "## 合同", *(f"- {c}" for c in contract)]
    if state.get("豁免"):
        out.append(f"- （作者豁免承诺结转：{state['豁免']}）")
    # fact slices: promises named in the contract or in debt/due, and the characters named
    named = set(ID_RE.findall(" ".join(contract))) | {d[0] for d in board.debts} | {d[0] for d in board.due}
    out += ["", "## 事实切片", "### 承诺"]
    for item in repo.promises():
        if item.id in named:
            m = item.meta
            out.append(f"- {item.id} {item.title}（{m.get('类型')}，强度{m.get('强度')}，{m.get('状态')}，"
                       f"最后推进第{m.get('最后推进章')}章，期限{m.get('兑付期限') or '无'}）")
            plan = item.section("兑付计划")
            if plan:
                out.append(f"  兑付计划：{plan.splitlines()[0]}")
    text = " ".join(contract)
    chars = repo.characters()
    aliases = repo.aliases()
    mentioned = {aliases[a] for a in aliases if a in text}
    recent = [repo.chapter_meta(num) for num, _ in repo.chapter_files()[-3:]]
    for meta in recent:
        if meta.get("视角"):
            mentioned.add(aliases.get(str(meta["视角"]), str(meta["视角"])))
    out.append("### 角色")
    for name in sorted(mentioned):
        meta = chars.get(name)
        if not meta:
            continue
        fields = "；".join(f"{k}：{'、'.join(map(str, as_list(v))) if isinstance(v, list) else v}"
                          for k, v in meta.items() if k != "姓名" and v not in (None, []))
        out.append(f"- {name}：{fields}")
    out += ["", "## 信息差边界"]
    all_names = sorted(chars)
    for item in repo.secrets():
        knowers = {aliases.get(str(k), str(k)) for k in as_list(item.meta.get("知情人"))}
        ignorant = [c for c in all_names if c not in knowers]
        reader = "读者已知" if item.meta.get("读者已知") is True else "读者未知"
        out.append(f"- {item.id} {item.title}（{reader}）知情人：{'、'.join(sorted(knowers)) or '无'}；"
                   f"不知情者不得说出或想到：{'、'.join(map(str, as_list(item.meta.get('关键词'))))}")
        if ignorant and len(ignorant) <= 8:
            out.append(f"  不知情：{'、'.join(ignorant)}")
    out += ["", "## 近章结尾"]
    for num, path in repo.chapter_files()[-3:]:
        _meta, body = quick_meta(read_text(path))
        tail = body.strip()[-300:]
        out.append(f"### 第 {num} 章结尾\n{tail}")
    style = repo.style()
    out += ["", "## 风格锚点"]
    if style.banned_words:
        out.append("- 禁词：" + "、".join(style.banned_words))
    if style.banned_patterns:
        out.append("- 禁句式：" + "、".join(style.banned_patterns))
    for q in style.quirks:
        out.append(f"- 口癖：{q}")
    golden = repo.p(R.金句库)
    if golden.is_dir():
        for path in sorted(golden.glob("*.md")):
            entries = golden_entries(read_text(path))[-2:]
            for head, para in entries:
                out.append(f"- 金句（{path.stem}，{head}）：{para}")
    out += ["", "## 反复读清单", "- 合同每一条都要在正文落地", "- 信息差边界：不知情的角色不得说出或想到关键词",
            "- 新专名须在名册登记或在验收卡确认"]
    _write(repo, R.上下文包, "\n".join(out) + "\n")
    state["阶段"] = "packed"
    save_state(repo, state)
    return repo.p(R.上下文包)


# --- 4. drafts -------------------------------------------------------------------------------------


def draft_path(repo: StoryRepo, label: str) -> Path:
    return repo.p(f"{R.工作区}/草稿-{label}.md")


def submit_draft(repo: StoryRepo, label: str, text: str) -> Path:
    """Store a rendered draft (front matter with moves + prose) as ``草稿-<label>.md``."""
    state = require_state(repo, "packed", "drafted", "checked", "reviewed")
    if not re.fullmatch(r"[A-Z]", label):
        raise LwError(f"草稿标签 {label!r} 不合法", expected="A、B、C…（单个大写字母）")
    parse_doc(text, f"草稿-{label}.md")  # raises a repair card when the front matter is broken
    _write(repo, f"{R.工作区}/草稿-{label}.md", text)
    _write(repo, f"{R.原稿}/草稿-{label}.md", text)
    state["阶段"] = "drafted"
    save_state(repo, state)
    return draft_path(repo, label)


def draft_labels(repo: StoryRepo) -> list[str]:
    ws = repo.p(R.工作区)
    if not ws.is_dir():
        return []
    return sorted(m.group(1) for name in os.listdir(ws) if (m := re.fullmatch(r"草稿-([A-Z])\.md", name)))


@dataclass
class Draft:
    label: str
    meta: dict[str, Any]
    body: str
    body_line: int  # 1-based line of the body's first line in the file

    def ids(self, key: str) -> list[str]:
        return [str(x).strip() for x in as_list(self.meta.get(key))]


def read_draft(repo: StoryRepo, label: str, *, original: bool = False) -> Draft:
    path = repo.p(f"{R.原稿 if original else R.工作区}/草稿-{label}.md")
    if not path.is_file():
        raise LwError(f"找不到草稿 {label}", file=repo.rel(path))
    text = read_text(path)
    meta, body = quick_meta(text, repo.rel(path))
    body_line = text[: len(text) - len(body)].count("\n") + 1
    return Draft(label, meta, body, body_line)


# --- 5./6. checks and lens reviews ---------------------------------------------------------------


def run_checks(repo: StoryRepo) -> dict[str, list[Any]]:
    """Mechanical checks of every draft; reports go to ``工作区/评审报告/机检-<label>.md``."""
    from lw_storyrepo.checks import check_draft, render_findings

    state = require_state(repo, "drafted", "checked", "reviewed")
    results: dict[str, list[Any]] = {}
    for label in draft_labels(repo):
        draft = read_draft(repo, label)
        findings = check_draft(repo, draft, state)
        results[label] = findings
        _write(repo, f"{R.评审报告}/机检-{label}.md", render_findings(label, findings))
    passing = [label for label, fs in results.items() if not any(f.severity == "error" for f in fs)]
    state["阶段"] = "checked" if passing else "packed"
    if passing and not state.get("选稿"):
        state["选稿"] = passing[0]
    save_state(repo, state)
    return results


def submit_review(repo: StoryRepo, lens: str, text: str) -> Path:
    state = require_state(repo, "checked", "reviewed")
    lens = lens.replace("镜头", "")
    if lens not in LENSES:
        raise LwError(f"未知镜头 {lens!r}", expected="读者、编辑、事实")
    path = _write(repo, f"{R.评审报告}/{lens}镜头.md", text.strip() + "\n")
    if all(repo.p(f"{R.评审报告}/{name}镜头.md").is_file() for name in LENSES):
        state["阶段"] = "reviewed"
        save_state(repo, state)
        write_acceptance(repo)
    return path


def submit_summary(repo: StoryRepo, text: str) -> Path:
    require_state(repo, "checked", "reviewed", "accepted")
    text = text.strip()
    if len(text) > SUMMARY_MAX:
        raise LwError(f"章摘要 {len(text)} 字，超过 {SUMMARY_MAX} 字上限")
    _write(repo, f"{R.工作区}/章摘要.md", text + "\n")
    if repo.p(R.验收卡).is_file():
        write_acceptance(repo)
    return repo.p(f"{R.工作区}/章摘要.md")


def write_acceptance(repo: StoryRepo, label: str | None = None) -> Path:
    """验收卡 = 草稿 + 三句话评审 + 待确认新专名 + 章摘要."""
    from lw_storyrepo.checks import new_proper_nouns

    state = require_state(repo)
    label = label or state.get("选稿") or (draft_labels(repo) or ["A"])[0]
    draft = read_draft(repo, label)
    old = parse_acceptance(read_text(repo.p(R.验收卡))) if repo.p(R.验收卡).is_file() else None
    lines = [f"# 验收卡：第 {state['章号']} 章 · 草稿 {label}", "", "## 三句话评审"]
    for lens in LENSES:
        path = repo.p(f"{R.评审报告}/{lens}镜头.md")
        first = ""
        if path.is_file():
            first = next((ln.strip() for ln in read_text(path).splitlines() if ln.strip() and not ln.startswith("#")), "")
        lines.append(f"- {lens}：{first or '（未评审）'}")
    lines += ["", "## 待确认新专名（勾选 = 登记进名册；不勾 = 笔误，请改稿）"]
    for noun, kind, _line in new_proper_nouns(repo, draft):
        ticked = old is not None and noun in old["confirmed"]
        lines.append(f"- [{'x' if ticked else ' '}] {noun}（{kind}）")
    summary_file = repo.p(f"{R.工作区}/章摘要.md")
    summary = read_text(summary_file).strip() if summary_file.is_file() else (old["summary"] if old else "")
    lines += ["", "## 章摘要", summary or "（待模型生成，≤200 字）", "", "## 草稿", f"见 工作区/草稿-{label}.md"]
    _write(repo, R.验收卡, "\n".join(lines) + "\n")
    state["选稿"] = label
    save_state(repo, state)
    return repo.p(R.验收卡)


def parse_acceptance(text: str) -> dict[str, Any]:
    confirmed = []
    sec = section_of(text, "待确认新专名")
    for line in sec.splitlines():
        m = re.match(r"^\s*[-*]\s*\[[xX✓√]\]\s*([^（(\s]+)(?:[（(]([^）)]*)[）)])?", line)
        if m:
            confirmed.append(m.group(1))
    kinds = {}
    for line in sec.splitlines():
        m = re.match(r"^\s*[-*]\s*\[[^\]]*\]\s*([^（(\s]+)(?:[（(]([^）)]*)[）)])?", line)
        if m:
            kinds[m.group(1)] = m.group(2) or "其他"
    summary = section_of(text, "章摘要")
    if summary.startswith("（待模型生成"):
        summary = ""
    return {"confirmed": confirmed, "kinds": kinds, "summary": summary}


def section_of(text: str, prefix: str) -> str:
    m = re.search(rf"^##\s*{re.escape(prefix)}[^\n]*\n(.*?)(?=^##\s|\Z)", text, re.M | re.S)
    return m.group(1).strip() if m else ""


def accept(repo: StoryRepo, label: str | None = None) -> str:
    """The author accepts (optionally after editing the draft): settle immediately."""
    state = require_state(repo, "checked", "reviewed", "accepted")
    if label:
        if label not in draft_labels(repo):
            raise LwError(f"没有草稿 {label}")
        state["选稿"] = label
    if not repo.p(R.验收卡).is_file():
        save_state(repo, state)
        write_acceptance(repo, state.get("选稿"))
        state = require_state(repo)
    state["阶段"] = "accepted"
    save_state(repo, state)
    return settle(repo)


def reject(repo: StoryRepo, reason: str) -> None:
    """打回: back to rendering, with the reason on file for the next draft."""
    state = require_state(repo, "drafted", "checked", "reviewed", "accepted")
    path = repo.p(f"{R.评审报告}/打回.md")
    old = read_text(path) if path.is_file() else "# 打回记录\n"
    _write(repo, f"{R.评审报告}/打回.md", old + f"- {reason}\n")
    state["阶段"] = "packed"
    save_state(repo, state)


def abort(repo: StoryRepo) -> None:
    """Drop the unfinished transaction (the workspace is pre-ratchet)."""
    import shutil

    ws = repo.p(R.工作区)
    if ws.is_dir():
        for entry in list(ws.iterdir()):
            if entry.is_dir():
                shutil.rmtree(entry)
            else:
                entry.unlink()


# --- 8. settle ------------------------------------------------------------------------------------


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


def _notes(values: list[Any]) -> dict[str, str]:
    out: dict[str, str] = {}
    for v in values:
        m = re.match(r"^\s*([PS]-\d{3,})\s*[：:—\-]+\s*(.+)$", str(v))
        if m:
            out[m.group(1)] = m.group(2).strip()
    return out


def word_count(text: str) -> int:
    """Characters excluding whitespace and Markdown heading marks (web-novel counting)."""
    from lw_storyrepo.fingerprint import nonspace

    return nonspace(text) - text.count("#")


def plan_settle(repo: StoryRepo) -> SettlePlan:
    """Compute every file the settle commit carries; raise LwError on a failed hard check."""
    state = require_state(repo, "accepted", "reviewed", "checked")
    n = int(state["章号"])
    if repo.chapter_path(n) is not None:
        raise LwError(f"第 {n} 章已在定稿中（定稿只增不改；要改设定请走 retcon）")
    if n != repo.last_chapter() + 1:
        raise LwError(f"章号 {n} 与定稿不连续（最后一章是 {repo.last_chapter()}）")
    label = state.get("选稿") or (draft_labels(repo) or [None])[0]
    if not label:
        raise LwError("没有可结转的草稿")
    draft = read_draft(repo, label)
    acc = parse_acceptance(read_text(repo.p(R.验收卡))) if repo.p(R.验收卡).is_file() else {"confirmed": [], "kinds": {}, "summary": ""}
    summary = acc["summary"]
    if not summary and repo.p(f"{R.工作区}/章摘要.md").is_file():
        summary = read_text(repo.p(f"{R.工作区}/章摘要.md")).strip()
    errors: list[str] = []
    if not summary:
        errors.append("章摘要缺失（验收卡「章摘要」段，≤200 字）")
    elif len(summary) > SUMMARY_MAX:
        errors.append(f"章摘要 {len(summary)} 字，超过 {SUMMARY_MAX} 字")
    book = repo.book()
    title = str(draft.meta.get("标题") or "").strip()
    if not title:
        errors.append("草稿 front matter 缺「标题」")
    plan = SettlePlan(n, title)
    opened, advanced, paid, abandoned = (draft.ids(k) for k in ("开启承诺", "推进承诺", "兑付承诺", "弃置承诺"))
    adv_notes = _notes(as_list(draft.meta.get("推进说明")))
    ab_notes = _notes(as_list(draft.meta.get("弃置理由")))
    # new promise files from the workspace
    new_promises: dict[str, tuple[str, Doc]] = {}
    np_dir = repo.p(R.新承诺)
    if np_dir.is_dir():
        for path in sorted(np_dir.glob("*.md")):
            m = R.ITEM_FILE.match(path.name)
            if not m:
                errors.append(f"{repo.rel(path)}：文件名应为 P-NNN-短题.md")
                continue
            doc, _ = parse_doc(read_text(path), repo.rel(path))
            new_promises[m.group(1)] = (m.group(2), doc)
    # promise hard checks
    if not (opened or advanced or paid) and not state.get("豁免"):
        errors.append("本章没有开启/推进/兑付任何承诺（豁免须作者在决策卡勾选并写理由）")
    for pid in opened:
        if pid not in new_promises:
            errors.append(f"开启承诺 {pid} 没有对应的 工作区/新承诺/{pid}-短题.md")
            continue
        ptitle, doc = new_promises[pid]
        if repo.item_path(R.承诺, pid) is not None:
            errors.append(f"承诺编号 {pid} 已被占用")
        if not R.section(doc.body, "兑付计划"):
            errors.append(f"新承诺 {pid} 没有「## 兑付计划」（开新承诺必须有兑付计划）")
        if str(doc.get("强度")) == "高" and not doc.get("兑付期限"):
            errors.append(f"新承诺 {pid} 强度为高，必须填兑付期限")
        if doc.get("类型") and str(doc.get("类型")) not in R.PROMISE_TYPES:
            errors.append(f"新承诺 {pid} 的类型「{doc.get('类型')}」不在 {'|'.join(R.PROMISE_TYPES)}")
    existing: dict[str, R.Item] = {}
    for pid in advanced + paid + abandoned:
        try:
            item = repo.promise(pid)
        except LwError as exc:
            errors.append(exc.message)
            continue
        if str(item.meta.get("状态", "进行")) != "进行":
            errors.append(f"承诺 {pid} 状态是「{item.meta.get('状态')}」，不能再结转")
        existing[pid] = item
    for pid in abandoned:
        if not ab_notes.get(pid):
            errors.append(f"弃置 {pid} 必须写原因（弃置理由：- {pid}：原因）")
    # contract lines naming promises must be honoured by the moves
    from lw_storyrepo.checks import contract_findings

    for f in contract_findings(state, draft):
        errors.append(f.message)
    if errors:
        raise LwError("结转被打回：" + "；".join(errors), expected="修改草稿或决策卡后重试")

    changes = plan.changes
    vol, _pos = volume_of(n, book["卷规模"])
    # chapter file
    contract = [str(c) for c in as_list(state.get("合同"))]
    fm = {
        "章号": n, "标题": title, "卷": vol, "视角": draft.meta.get("视角") or "",
        "书内时间": draft.meta.get("书内时间") or "", "字数": word_count(draft.body),
        "开启承诺": opened, "推进承诺": advanced, "兑付承诺": paid,
    }
    if abandoned:
        fm["弃置承诺"] = abandoned
    fm["合同"] = contract
    if state.get("豁免"):
        fm["豁免承诺结转"] = str(state["豁免"])
    chapter_doc = R.new_doc(fm, draft.body if draft.body.startswith("\n") else "\n" + draft.body)
    changes[f"{R.正文}/{R.chapter_filename(n, title)}"] = chapter_doc.dump().encode("utf-8")
    # promises
    for pid in opened:
        ptitle, doc = new_promises[pid]
        for key, default in (("类型", "伏笔"), ("强度", "中"), ("状态", "进行")):
            if not doc.get(key):
                doc.set(key, default)
        doc.set("开启章", n)
        if "兑付期限" not in doc.meta:
            doc.set("兑付期限", None)
        doc.set("最后推进章", n)
        doc.body = append_history(doc.body, f"第{n}章：开启" + (f"——{adv_notes[pid]}" if pid in adv_notes else ""))
        changes[f"{R.承诺}/{pid}-{R.safe_title(ptitle)}.md"] = doc.dump().encode("utf-8")
    for pid, item in existing.items():
        doc = R.load_doc(item.path, repo)
        if pid in paid:
            doc.set("状态", "已兑付")
            doc.set("最后推进章", n)
            line = f"第{n}章：兑付" + (f"——{adv_notes[pid]}" if pid in adv_notes else "")
        elif pid in abandoned:
            doc.set("状态", "已弃置")
            line = f"第{n}章：弃置——原因：{ab_notes[pid]}"
        else:
            doc.set("最后推进章", n)
            line = f"第{n}章：推进" + (f"——{adv_notes[pid]}" if pid in adv_notes else "")
        doc.body = append_history(doc.body, line)
        changes[repo.rel(item.path)] = doc.dump().encode("utf-8")
    # settings: characters, info gaps, roster, timeline
    settings_log: list[str] = []
    new_characters = apply_setting_changes(repo, n, [str(x) for x in as_list(draft.meta.get("设定变更"))], changes, settings_log)
    ns_dir = repo.p(R.新信息差)
    if ns_dir.is_dir():
        for path in sorted(ns_dir.glob("*.md")):
            m = R.ITEM_FILE.match(path.name)
            if not m or not m.group(1).startswith("S-"):
                raise LwError(f"{repo.rel(path)}：文件名应为 S-NNN-短题.md")
            if repo.item_path(R.信息差, m.group(1)) is not None:
                raise LwError(f"信息差编号 {m.group(1)} 已被占用")
            doc, _ = parse_doc(read_text(path), repo.rel(path))
            doc.set("登记章", n)
            for key in ("知情人", "关键词"):
                if key not in doc.meta:
                    doc.set(key, [])
            if "读者已知" not in doc.meta:
                doc.set("读者已知", False)
            changes[f"{R.信息差}/{path.name}"] = doc.dump().encode("utf-8")
            settings_log.append(f"信息差+{m.group(1)}")
    roster_path = repo.p(R.名册)
    roster_text = read_text(roster_path) if roster_path.is_file() else "# 名册\n\n" + R.ROSTER_HEADER
    known = {row["正名"] for row in repo.roster()}
    added = []
    for noun in acc["confirmed"]:
        if noun not in known:
            kind = acc["kinds"].get(noun, "其他")
            roster_text = ensure_newline(roster_text) + R.table_line([noun, "", kind, str(n)])
            known.add(noun)
            added.append(noun)
    for name in new_characters:
        if name not in known:
            roster_text = ensure_newline(roster_text) + R.table_line([name, "", "人物", str(n)])
            known.add(name)
            added.append(name)
    if added:
        changes[R.名册] = roster_text.encode("utf-8")
        settings_log.append("名册+" + "、".join(added))
    tl_path = repo.p(R.时间线)
    tl_text = read_text(tl_path) if tl_path.is_file() else "# 时间线\n\n" + R.TIMELINE_HEADER
    present = [str(x) for x in as_list(draft.meta.get("在场"))]
    event = str(draft.meta.get("一句话事件") or title)
    tl_text = ensure_newline(tl_text) + R.table_line([str(n), str(draft.meta.get("书内时间") or ""), event, ", ".join(present)])
    changes[R.时间线] = tl_text.encode("utf-8")
    # memory
    changes[f"{R.章摘要}/{n:04d}.md"] = f"# 第{n}章 {title}\n\n{summary}\n".encode("utf-8")
    # golden lines
    try:
        original = read_draft(repo, label, original=True)
        harvest_golden(repo, n, original.body, draft.body, changes)
    except LwError:
        pass
    # empty the workspace
    ws = repo.p(R.工作区)
    if ws.is_dir():
        for dirpath, _dirs, files in os.walk(ws):
            for name in files:
                changes[repo.rel(Path(dirpath) / name)] = None
    plan.opened, plan.advanced, plan.paid, plan.abandoned = opened, advanced, paid, abandoned
    plan.settings = settings_log
    plan.message = commit_message(n, title, opened, advanced, paid, abandoned, settings_log, state.get("豁免"))
    rejects = repo.p(f"{R.评审报告}/打回.md")
    if rejects.is_file():  # rejection reasons stay in git history (for the 3-strikes style rules)
        reasons = [ln[2:].strip().replace("|", "｜") for ln in read_text(rejects).splitlines() if ln.startswith("- ")]
        if reasons:
            plan.message += "打回: " + " | ".join(reasons) + "\n"
    return plan


def ensure_newline(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def append_history(body: str, line: str) -> str:
    """Append ``- line`` to the ``## 履历`` section (created at the end when missing)."""
    m = re.search(r"^##\s*履历\s*$", body, re.M)
    if not m:
        return ensure_newline(body.rstrip("\n") + "\n") + f"\n## 履历\n- {line}\n"
    nxt = re.search(r"^##\s", body[m.end():], re.M)
    end = m.end() + nxt.start() if nxt else len(body)
    head, tail = body[:end].rstrip("\n"), body[end:]
    return head + f"\n- {line}\n" + ("\n" + tail if tail else "")


def commit_message(n: int, title: str, opened: list[str], advanced: list[str], paid: list[str],
                   abandoned: list[str], settings: list[str], exemption: str | None) -> str:
    marks = [f"+{p}" for p in opened] + [f"~{p}" for p in advanced if p not in opened] + [f"${p}" for p in paid]
    marks += [f"-{p}" for p in abandoned]
    lines = [f"ch({n}): {title}", ""]
    lines.append("承诺: " + (" ".join(marks) if marks else "无"))
    if exemption:
        lines.append(f"豁免: {exemption}")
    if settings:
        lines.append("设定: " + "; ".join(settings))
    return "\n".join(lines) + "\n"


_CHANGE = re.compile(r"^\s*(?P<who>[^.。=+\-\s][^.。=]*?)\s*[.。]\s*(?P<field>[^=+\-\s]+?)\s*(?P<op>[=+\-])\s*(?P<value>.+?)\s*$")
CHAR_LIST_FIELDS = ("持有", "别名")
SECRET_LIST_FIELDS = ("知情人", "关键词")


def parse_change(text: str) -> tuple[str, str, str, str]:
    m = _CHANGE.match(text)
    if not m:
        raise LwError(f"设定变更「{text}」看不懂", expected="角色.字段=值、角色.持有+物品、S-021.知情人+角色")
    return m.group("who"), m.group("field"), m.group("op"), m.group("value")


def coerce(value: str) -> Any:
    if re.fullmatch(r"-?\d+", value) and not value.startswith("0"):
        return int(value)
    if value.lower() in ("true", "是", "真"):
        return True
    if value.lower() in ("false", "否", "假"):
        return False
    return value


def apply_setting_changes(repo: StoryRepo, n: int | None, lines: list[str], changes: dict[str, bytes | None],
                          log: list[str]) -> list[str]:
    """Apply ``角色.字段=值`` style changes into ``changes`` (character cards, info gaps)."""
    docs: dict[str, Doc] = {}
    for text in lines:
        who, fld, op, value = parse_change(text)
        if re.fullmatch(r"S-\d{3,}", who):
            item = repo.secret(who)
            rel = repo.rel(item.path)
            if rel not in docs:
                docs[rel] = R.load_doc(item.path, repo)
            doc = docs[rel]
            list_field = fld in SECRET_LIST_FIELDS
        else:
            name = repo.canonical(who)
            path = repo.character_path(name)
            rel = repo.rel(path)
            if rel not in docs:
                if rel in changes and changes[rel] is not None:
                    docs[rel], _ = parse_doc(changes[rel].decode("utf-8"), rel)  # type: ignore[union-attr]
                elif path.is_file():
                    docs[rel] = R.load_doc(path, repo)
                else:
                    docs[rel] = R.new_doc({"姓名": name}, "## 设定\n\n## 关系\n")
                    docs[rel].path = "新角色"
            doc = docs[rel]
            list_field = fld in CHAR_LIST_FIELDS
            if n is not None:
                doc.set("最后变更章", n)
        if op == "=":
            doc.set(fld, coerce(value))
        elif list_field or op in "+-":
            items = [str(x) for x in as_list(doc.get(fld))]
            if op == "+":
                if value not in items:
                    items.append(value)
            else:
                if value not in items:
                    raise LwError(f"设定变更「{text}」：{who} 的 {fld} 里没有「{value}」")
                items.remove(value)
            current = doc.meta.get(fld)
            if hasattr(current, "append") and op == "+":
                if value not in [str(x) for x in current]:
                    current.append(value)
                doc.set(fld, current)
            elif hasattr(current, "remove") and op == "-":
                for x in list(current):
                    if str(x) == value:
                        current.remove(x)
                doc.set(fld, current if len(current) else None)
            else:
                doc.set(fld, items)
        log.append(text.strip())
    for rel, doc in docs.items():
        changes[rel] = doc.dump().encode("utf-8")
    return [str(doc.get("姓名")) for doc in docs.values() if doc.path == "新角色"]


# --- golden lines -----------------------------------------------------------------------------------


def paragraphs(text: str) -> list[str]:
    return [p.strip() for p in text.splitlines() if p.strip() and not p.lstrip().startswith("#")]


SCENES = (
    ("战斗", ("剑", "刀", "拳", "掌", "杀", "斩", "血", "招", "攻", "战")),
    ("情感", ("泪", "哭", "心疼", "想念", "喜欢", "温柔", "怀里", "抱", "心口", "眼眶")),
)


def scene_of(paragraph: str) -> str:
    if "“" in paragraph or "「" in paragraph:
        return "对白"
    for scene, words in SCENES:
        if sum(paragraph.count(w) for w in words) >= 2:
            return scene
    return "叙事"


def golden_entries(text: str) -> list[tuple[str, str]]:
    out = []
    for m in re.finditer(r"^##\s*(.+?)\s*\n(.*?)(?=^##\s|\Z)", text, re.M | re.S):
        out.append((m.group(1).strip(), m.group(2).strip()))
    return out


def harvest_golden(repo: StoryRepo, n: int, original: str, final: str, changes: dict[str, bytes | None]) -> list[str]:
    """Paragraphs the author changed by more than 30% go to ``文风/金句库/<场景>.md``."""
    a, b = paragraphs(original), paragraphs(final)
    picked: list[str] = []
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            continue
        for j in range(j1, j2):
            new = b[j]
            if len(new) < 10:
                continue
            olds = a[i1:i2]
            best = max((difflib.SequenceMatcher(None, o, new, autojunk=False).ratio() for o in olds), default=0.0)
            if 1.0 - best > GOLDEN_THRESHOLD:
                picked.append(new)
    by_scene: dict[str, list[str]] = {}
    for para in picked:
        by_scene.setdefault(scene_of(para), []).append(para)
    for scene, paras in by_scene.items():
        rel = f"{R.金句库}/{scene}.md"
        path = repo.p(rel)
        text = read_text(path) if path.is_file() else ""
        entries = golden_entries(text) + [(f"第{n}章", p) for p in paras]
        keep, old = entries[-GOLDEN_KEEP:], entries[:-GOLDEN_KEEP]
        changes[rel] = (f"# 金句库：{scene}\n\n" + "".join(f"## {h}\n{p}\n\n" for h, p in keep)).encode("utf-8")
        if old:
            arel = f"{R.金句库}/归档/{scene}.md"
            apath = repo.p(arel)
            atext = read_text(apath) if apath.is_file() else f"# 金句库归档：{scene}\n\n"
            changes[arel] = (ensure_newline(atext) + "".join(f"## {h}\n{p}\n\n" for h, p in old)).encode("utf-8")
    return picked


def settle(repo: StoryRepo) -> str:
    """Plan, then apply and commit atomically. Returns the new commit id."""
    from lw_storyrepo.atomic import apply_and_commit, fault

    plan = plan_settle(repo)
    fault("planned")
    return apply_and_commit(repo.root, plan.changes, plan.message)
