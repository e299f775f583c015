"""The context pack (上下文包, spec §8 step 3): everything the render reads, and nothing else.

盘面 + 合同 + 事实切片 (the promises and characters the contract and the board name) + 信息差边界
(who may not say or think what) + 近章结尾 + 风格锚点 (banned words, quirks, golden lines) +
反复读清单. Written to ``工作区/上下文包.md`` and kept for the audit.
"""

from __future__ import annotations

import re

from lw_storyrepo import layout as L
from lw_storyrepo.board import compute_board
from lw_storyrepo.dialect import quick_meta
from lw_storyrepo.golden import golden_entries
from lw_storyrepo.repo import StoryRepo, as_list
from lw_storyrepo.workspace import require_state, save_state, write

ID_RE = re.compile(r"\b([PS]-\d{3,})\b")
RECENT = 3


def pack(repo: StoryRepo) -> str:
    """Assemble ``工作区/上下文包.md`` (stage ``packed``)."""
    state = require_state(repo, "decided", "packed")
    n = int(state["章号"])
    board = compute_board(repo, n)
    contract = [str(c) for c in as_list(state.get("合同"))]
    out = [f"# 上下文包：第 {n} 章", "", "## 盘面", *board.lines(), "", "## 合同", *(f"- {c}" for c in contract)]
    if state.get("豁免"):
        out.append(f"- （作者豁免承诺结转：{state['豁免']}）")
    if state.get("卷末"):
        out.append("- （作者定：本章为卷末章）")
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
    aliases = repo.aliases(chars)
    mentioned = {aliases[a] for a in aliases if a in text}
    recent = repo.chapter_files()[-RECENT:]
    for num, _path in recent:
        pov = repo.chapter_meta(num).get("视角")
        if pov:
            mentioned.add(aliases.get(str(pov), str(pov)))
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
    for num, path in recent:
        _meta, body = quick_meta(repo.text(path), repo.rel(path))
        out.append(f"### 第 {num} 章结尾\n{body.strip()[-300:]}")
    style = repo.style()
    out += ["", "## 风格锚点"]
    if style.banned_words:
        out.append("- 禁词：" + "、".join(style.banned_words))
    if style.banned_patterns:
        out.append("- 禁句式：" + "、".join(style.banned_patterns))
    out += [f"- 口癖：{q}" for q in style.quirks]
    golden = repo.p(L.金句库)
    if golden.is_dir():
        for path in sorted(golden.glob("*.md")):
            for head, para in golden_entries(repo.text(path))[-2:]:
                out.append(f"- 金句（{path.stem}，{head}）：{para}")
    out += ["", "## 反复读清单", "- 合同每一条都要在正文落地", "- 信息差边界：不知情的角色不得说出或想到关键词",
            "- 新专名须在名册登记或在验收卡确认"]
    write(repo, L.上下文包, "\n".join(out) + "\n")
    state["阶段"] = "packed"
    save_state(repo, state)
    return L.上下文包
