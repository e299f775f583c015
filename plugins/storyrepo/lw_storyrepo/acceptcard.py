"""The acceptance card (验收卡, spec §8 step 7): what the author reads before accepting.

验收卡 = 草稿 + 三句话评审 + 待确认新专名 + 章摘要, plus the other drafts that passed the
checks (选备选). The draft's text is in the card itself, between two markers: the author may
correct it right there (or in the draft file — not both); at acceptance the card's text wins
when it was edited. The summary may be edited in the card too.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from lw_storyrepo import layout as L
from lw_storyrepo.checks import CheckContext, new_proper_nouns
from lw_storyrepo.drafts import Draft, draft_labels, read_draft
from lw_storyrepo.repo import StoryRepo
from lw_storyrepo.workspace import LENSES, save_state, write

DRAFT_START = "<!-- 草稿正文开始：可在此直接改，接受时以此为准 -->"
DRAFT_END = "<!-- 草稿正文结束 -->"
NO_SUMMARY = "（待模型生成，≤200 字）"
NOUNS_HEADING = "待确认新专名（[x] 登记进名册；[-] 不是专名，以后不再提示；[ ] 笔误，请改稿）"


def body_digest(body: str) -> str:
    return hashlib.blake2b(body.strip("\n").encode("utf-8"), digest_size=12).hexdigest()


@dataclass
class Acceptance:
    confirmed: list[str] = field(default_factory=list)  # [x]: into the roster
    ignored: list[str] = field(default_factory=list)  # [-]: no name, never reported again
    kinds: dict[str, str] = field(default_factory=dict)
    summary: str = ""
    body: str | None = None  # the draft text as the card shows it now


def section_of(text: str, prefix: str) -> str:
    m = re.search(rf"^##\s*{re.escape(prefix)}[^\n]*\n(.*?)(?=^##\s|^{re.escape(DRAFT_START)}|\Z)", text, re.M | re.S)
    return m.group(1).strip() if m else ""


_NOUN_LINE = re.compile(r"^\s*[-*]\s*\[([^\]]*)\]\s*([^（(\s]+)(?:[（(]([^）)]*)[）)])?")


def parse_acceptance(text: str) -> Acceptance:
    acc = Acceptance()
    for line in section_of(text, "待确认新专名").splitlines():
        m = _NOUN_LINE.match(line)
        if m:
            acc.kinds[m.group(2)] = m.group(3) or "其他"
            mark = m.group(1).strip()
            if mark in ("x", "X", "✓", "√"):
                acc.confirmed.append(m.group(2))
            elif mark in ("-", "－", "~", "～"):
                acc.ignored.append(m.group(2))
    summary = section_of(text, "章摘要")
    acc.summary = "" if summary.startswith("（待模型生成") else summary
    start, end = text.find(DRAFT_START), text.find(DRAFT_END)
    if 0 <= start < end:
        acc.body = text[start + len(DRAFT_START):end].strip("\n")
    return acc


def read_acceptance(repo: StoryRepo) -> Acceptance | None:
    path = repo.p(L.验收卡)
    return parse_acceptance(repo.text(path)) if path.is_file() else None


def first_sentence(repo: StoryRepo, lens: str) -> str:
    text = repo.text_or(L.lens_file(lens))
    return next((ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")), "")


def write_acceptance(repo: StoryRepo, state: dict[str, Any], label: str | None = None,
                     draft: Draft | None = None, summary: str | None = None, ctx: CheckContext | None = None) -> str:
    """Write the card for the chosen draft (``state`` gets 选稿 and the text's digest, saved).
    ``ctx``: the book's check context when the caller has it (else loaded).

    The summary shown is ``summary`` when given (the model just wrote one), else the one the
    author may have corrected in the old card, else ``工作区/章摘要.md``.
    """
    label = label or state.get("选稿") or (draft_labels(repo) or ["A"])[0]
    draft = draft or read_draft(repo, label)
    old = read_acceptance(repo)
    lines = [f"# 验收卡：第 {state['章号']} 章 · 草稿 {label}", "", "## 三句话评审"]
    for lens in LENSES:
        lines.append(f"- {lens}：{first_sentence(repo, lens) or '（未评审）'}")
    lines += ["", f"## {NOUNS_HEADING}"]
    for noun, kind, _line in new_proper_nouns(repo, draft, ctx):
        mark = "x" if old and noun in old.confirmed else "-" if old and noun in old.ignored else " "
        lines.append(f"- [{mark}] {noun}（{kind}）")
    if summary is None:
        summary = (old.summary if old else "") or repo.text_or(L.章摘要稿).strip()
    lines += ["", "## 章摘要", summary or NO_SUMMARY]
    others = [x for x in state.get("过检") or [] if x != label]
    if others:
        lines += ["", "## 备选稿（选备选：lw story pick 标签；换稿后三镜头重评）"]
        lines += [f"- 草稿 {x}：机检通过（{L.check_report(x)}）" for x in others]
    lines += ["", f"## 草稿 {label}（{L.draft_file(label)}）", DRAFT_START, draft.body.strip("\n"), DRAFT_END]
    write(repo, L.验收卡, "\n".join(lines) + "\n")
    state["选稿"] = label
    state["验收稿"] = body_digest(draft.body)
    save_state(repo, state)
    return L.验收卡


def summary_written(repo: StoryRepo) -> bool:
    """Whether the acceptance card carries the chapter summary settle files (spec §4.6)."""
    card = read_acceptance(repo)
    return card is not None and bool(card.summary.strip())
