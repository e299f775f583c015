"""The decision card (决策卡, spec §7): brief, the author's three actions, the frozen contract.

``工作区/决策卡.md`` has four fixed sections: 盘面 (computed), 提案, 合同, 备选. The author
adopts it (采纳: :func:`decide`), edits it (改卡: by hand or :func:`edit_card`), or takes the
alternative (选备选: ``decide(alternative=True)``, whose contract is the ticked-box lines of the
备选 section). Two ticks in 备选 are the author's alone, never the model's: the promise
exemption (with its reason) and 本章为卷末章.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from lwcore.api import LwError

from lw_storyrepo import layout as L
from lw_storyrepo.board import Board, compute_board
from lw_storyrepo.drafts import draft_labels
from lw_storyrepo.findings import one_line, visible
from lw_storyrepo.health import run_if_due
from lw_storyrepo.repo import StoryRepo
from lw_storyrepo.workspace import load_state, require_state, save_state, write

EXEMPT = "本章豁免承诺结转"
VOLUME_END = "本章为卷末章"
AUTHOR_TICKS = (EXEMPT, VOLUME_END)
_BOX = re.compile(r"^\s*[-*]\s*\[([ xX✓√]?)\]\s*(.+)$")
_ITEM = re.compile(r"^\s*[-*]\s*(?:\[[ xX✓√]?\]\s*)?(.+)$")


def brief(repo: StoryRepo) -> str:
    """Write the decision card for the next chapter (stage ``brief``)."""
    if load_state(repo) is not None:
        raise LwError("工作区已有进行中的章事务", expected="lw story 继续，或 lw story abort 放弃")
    run_if_due(repo)  # a 50th chapter's health check is never skipped by briefing directly
    board = compute_board(repo)
    write(repo, L.决策卡, render_card(board))
    save_state(repo, {"章号": board.chapter, "阶段": "brief"})
    return L.决策卡


def default_contract(board: Board) -> list[str]:
    contract = [f"推进 {pid}（节奏债：{idle} 章未推进）" for pid, _t, idle in board.debts[:2]]
    contract += [f"推进或兑付 {pid}（期限第 {due} 章）" for pid, _t, due in board.due[:2]]
    if board.weak_hooks >= max(1, board.weak_limit - 1):
        contract.append("结尾强钩")
    return contract


def render_card(board: Board, proposal: str = "", contract: list[str] | None = None, alternatives: str = "",
                alternative_contract: list[str] | None = None, ticks: list[str] | None = None) -> str:
    lines = [f"# 决策卡：第 {board.chapter} 章", "## 盘面（脚本生成）", *board.lines(), "## 提案"]
    lines.append(proposal or "（待模型提案：用 story_edit_decision_card 填写本章方案）")
    lines.append("## 合同（拍板即生效）")
    lines.extend(f"- [ ] {c}" for c in (default_contract(board) if contract is None else contract))
    lines.append("## 备选")
    lines.append(alternatives or "（待模型提出备选方案及代价）")
    lines.extend(f"- [ ] {c}" for c in alternative_contract or [])
    lines.extend(ticks or [f"- [ ] {EXEMPT}（理由：）", f"- [ ] {VOLUME_END}（卷复盘随后进行）"])
    return "\n".join(lines) + "\n"


@dataclass
class Card:
    sections: dict[str, str]
    contract: list[str]
    exemption: str | None  # the reason, when the author ticked the exemption with one
    exemption_ticked: bool
    volume_end: bool = False
    alternative_contract: list[str] = field(default_factory=list)
    author_ticks: list[str] = field(default_factory=list)  # the two tick lines as written

    @property
    def alternative_text(self) -> str:
        return "\n".join(ln for ln in self.sections.get("备选", "").splitlines()
                         if not _BOX.match(ln)).strip()


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
    contract = [m.group(1).strip() for line in contract_text.splitlines() if (m := _ITEM.match(line)) and m.group(1).strip()]
    card = Card(sections, contract, None, False)
    for line in sections.get("备选", "").splitlines():
        m = _BOX.match(line)
        if not m:
            continue
        ticked, item = m.group(1).strip() != "", m.group(2).strip()
        if item.startswith(EXEMPT):
            card.author_ticks.append(line)
            card.exemption_ticked = ticked
            r = re.search(r"理由\s*[：:]\s*([^）)]*)", item)
            if ticked and r and r.group(1).strip():
                card.exemption = r.group(1).strip()
        elif item.startswith(VOLUME_END):
            card.author_ticks.append(line)
            card.volume_end = ticked
        else:
            card.alternative_contract.append(item)
    return card


_NAMES_A_PROMISE = re.compile(r"P-\d|承诺")
NO_PROMISE_IN_CONTRACT = ("合同没有提到任何承诺，决策卡上也没有勾「本章豁免承诺结转」：草稿仍须开启、推进或兑付一条承诺"
                          "（lw story promise draft …）；豁免只在 decide 之前勾选才算，不动承诺就只能 lw story abort，"
                          "在新决策卡上勾选并写理由")
"""Said after ``decide`` (:func:`names_no_promise`): settle refuses a chapter that moves no
promise, and the tick can no longer be made."""


def decide(repo: StoryRepo, *, alternative: bool = False) -> dict[str, Any]:
    """The author adopts the card (or its alternative): the contract is frozen (stage ``decided``)."""
    state = require_state(repo, "brief")
    card = parse_card(repo.text(L.决策卡))
    if card.exemption_ticked and not card.exemption:
        raise LwError("勾了「本章豁免承诺结转」但没写理由", file=L.决策卡, expected="（理由：纯番外）")
    contract = card.alternative_contract if alternative else card.contract
    if not contract:
        where = "备选段没有合同条目" if alternative else "合同段是空的"
        raise LwError(where, file=L.决策卡, expected="至少一条「- [ ] 合同断言」")
    state.update({"阶段": "decided", "合同": contract})
    if alternative:
        state["采纳"] = "备选"
    if card.exemption:
        state["豁免"] = card.exemption
    if card.volume_end:
        state["卷末"] = True
    save_state(repo, state)
    return state


def names_no_promise(state: dict[str, Any]) -> bool:
    """Whether a decided contract names no promise and no exemption was ticked: the draft must
    still move one, and :data:`NO_PROMISE_IN_CONTRACT` tells the author so at ``decide``."""
    return not state.get("豁免") and not any(_NAMES_A_PROMISE.search(str(line)) for line in state.get("合同") or [])


def edit_card(repo: StoryRepo, proposal: str | None = None, contract: list[str] | None = None,
              alternatives: str | None = None, alternative_contract: list[str] | None = None, *,
              by_model: bool = True) -> dict[str, Any]:
    """Rewrite sections of the decision card (workspace: no commit). The author's two ticks
    are kept as they are; the model can never write them."""
    state = require_state(repo)  # no chapter in progress: run the brief first
    if state.get("阶段") != "brief":
        raise LwError("只有在 brief 阶段（作者拍板前）才能改决策卡",
                      expected=CARD_FROZEN if state.get("阶段") in AMENDABLE else None)
    if by_model:
        for text in [proposal or "", alternatives or "", *(contract or []), *(alternative_contract or [])]:
            if any(tick in text for tick in AUTHOR_TICKS):
                raise LwError("豁免承诺结转和卷末章只能由作者在决策卡上勾选，模型不能代勾")
    old = parse_card(repo.text(L.决策卡))
    board = compute_board(repo, int(state["章号"]))
    text = render_card(
        board,
        proposal if proposal is not None else old.sections.get("提案", ""),
        contract if contract is not None else old.contract,
        alternatives if alternatives is not None else old.alternative_text,
        alternative_contract if alternative_contract is not None else old.alternative_contract,
        old.author_ticks or None,
    )
    write(repo, L.决策卡, text)
    return {"file": L.决策卡, "contract": parse_card(text).contract}


AMENDABLE = ("decided", "packed", "drafted", "checked", "reviewed")
CARD_FROZEN = "决策卡已拍板，合同冻结：改合同走 lw story amend --原因 … --合同 …（整份新合同）"
"""What ``card edit`` after ``decide`` answers: the frozen contract changes by ``amend``."""
REASON_MAX = 500
"""An amendment's reason is a line of the commit message: at most this many characters."""


def amend(repo: StoryRepo, reason: str, contract: list[str]) -> dict[str, Any]:
    """The author amends the frozen contract (instead of aborting the chapter): ``contract`` is
    the whole new contract, ``reason`` is required (one line: runs of white space become one
    space, control and bidi characters are written as ``\\uXXXX``; at most :data:`REASON_MAX`
    characters) and recorded — in the transaction, then in
    the chapter's front matter (``合同修订``) and its commit message. Drafts are checked again
    against the new contract (the stage goes back to 机检 once drafts exist; the lens reviews
    stay when the chosen draft still passes). The author's act, never a model tool."""
    state = require_state(repo, *AMENDABLE)
    reason = visible(one_line(reason or ""))  # one line, nothing a terminal acts on
    if not reason:
        raise LwError("改合同必须写原因", expected='lw story amend --原因 "改走暗线" --合同 …')
    if len(reason) > REASON_MAX:
        raise LwError(f"改合同的原因太长：{len(reason)} 字，最多 {REASON_MAX} 字", expected="一句话说清为什么改")
    lines = [c.strip() for c in contract if c and c.strip()]
    if not lines:
        raise LwError("新合同是空的", expected="至少一条 --合同 断言")
    old = [str(c) for c in state.get("合同") or []]
    if lines == old:
        raise LwError("新合同和现在的一样，没有改动",
                      expected="改动至少一条 --合同；amend 改不了承诺和豁免：要动承诺就在草稿的开启/推进/兑付承诺里写上它的编号")
    record = f"{reason}（原：{'｜'.join(old)} → 新：{'｜'.join(lines)}）"
    state["合同"] = lines
    state["合同修订"] = [*(state.get("合同修订") or []), record]
    if state.get("阶段") in ("packed", "checked", "reviewed") and draft_labels(repo):
        state["阶段"] = "drafted"  # the drafts there are checked again (a draft sent back may pass now)
    save_state(repo, state)
    return {"合同": lines, "合同修订": record, "阶段": state["阶段"]}
