"""Repair cards (spec §10 state 0): every source file that does not read, located.

:func:`scan` parses and type-checks every source file. Full-width colons and commas in
structural positions are fixed on the spot and reported (they then show up as hand edits to
settle); anything else becomes a :class:`~lw_storyrepo.dialect.RepairCard` with the line, the
lines around it and a proposed fix. The model may propose an intent-preserving fix of a whole
file (:func:`propose_repair`), which the author confirms (:func:`accept_repair`). Nothing here
ever raises out of a broken file.
"""

from __future__ import annotations

import datetime
import re
from pathlib import Path
from typing import Any

from lwcore.api import LwError, atomic_write_text

from lw_storyrepo import layout as L
from lw_storyrepo.dialect import (RepairCard, RepairNeeded, auto_fix, context_lines, fast_flat, plain,
                                  split_front_matter, yaml_load)
from lw_storyrepo.cache import save_scan_stamps, scan_stamps
from lw_storyrepo.notices import note
from lw_storyrepo.repo import WHOLE_MAX, StoryRepo, as_int

BOOL_FIELDS = {"读者已知", "卷末"}
INT_FIELDS = {"章号", "卷", "字数", "最后变更章", "登记章", "开启章", "最后推进章", *L.BOOK_INT_FIELDS}
LIST_FIELDS = {"别名", "持有", "知情人", "关键词", "开启承诺", "推进承诺", "兑付承诺", "弃置承诺", "合同", "禁词", "禁句式", "口癖",
               "设定变更", "在场", "推进说明", "弃置理由"}
TEXT_FIELDS = {"书名", "类型", "标题", "视角", "书内时间", "姓名", "状态", "位置", "境界", "兑付期限", "强度", "豁免承诺结转",
               "一句话事件", "场景"}
ENUMS = {"类型": L.PROMISE_TYPES, "强度": L.STRENGTHS, "状态": L.PROMISE_STATES}
YES = {"是", "是的", "对", "真", "yes", "y", "有", "已知"}
NO = {"否", "不是", "错", "假", "no", "n", "无", "没有", "未知"}
REPAIR_DIR = "工作区/修复提议"


def _key_line(text: str, key: str, offset: int) -> int | None:
    for n, line in enumerate(text.split("\n"), start=1):
        if re.match(rf"^{re.escape(key)}\s*[:：]", line):
            return n + offset
    return None


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _date_text(value: datetime.date) -> str:
    """A YAML date (2024-10-13, 2024-10-13 08:30:00) as the book writes its in-book time: 2024年10月13日 (08:30)."""
    day = f"{value.year}年{value.month}月{value.day}日"
    if isinstance(value, datetime.datetime) and (value.hour, value.minute, value.second) != (0, 0, 0):
        return f"{day} {value.hour:02d}:{value.minute:02d}"
    return day


def validate(rel: str, meta: dict[str, Any], fm: str, offset: int) -> list[RepairCard]:
    """Type checks of the fields the system consumes; unknown fields are never an error."""
    cards = []
    is_promise = rel.startswith(L.承诺 + "/")
    fm_lines = fm.split("\n")

    def card(key: str, problem: str, proposal: str, fixed_line: str | None) -> RepairCard:
        line = _key_line(fm, key, offset)
        fixed = None
        if fixed_line is not None and line is not None:
            lines = list(fm_lines)
            lines[line - offset - 1] = fixed_line
            fixed = "\n".join(lines)
        return RepairCard(rel, line, problem, context_lines(fm, (line - offset) if line else None, offset=offset),
                          proposal, False, fixed)

    for key, value in meta.items():
        if key in BOOL_FIELDS and not isinstance(value, bool):
            text = str(value).strip().lower() if _scalar(value) else ""
            guess = "true" if text in YES else "false" if text in NO else None
            shown = value if _scalar(value) else "（结构）"
            if guess:
                cards.append(card(key, f"「{key}」应是 true 或 false，写成了「{shown}」", f"{key}: {guess}", f"{key}: {guess}"))
            else:
                cards.append(card(key, f"「{key}」应是 true 或 false，写成了「{shown}」", f"{key}: true（或 false）", None))
        elif rel == L.BOOK_FILE and key in L.BOOK_INT_FIELDS and isinstance(value, int) and not isinstance(value, bool) \
                and value <= 0:
            cards.append(card(key, f"「{key}」应是正整数，写成了「{value}」", f"{key}: {L.BOOK_DEFAULTS[key]}", None))
        elif key in INT_FIELDS and isinstance(value, int) and not isinstance(value, bool) and as_int(value) is None:
            cards.append(card(key, f"「{key}」应是不超过 {WHOLE_MAX} 的整数", f"{key}: 数字", None))
        elif key in INT_FIELDS and value is not None and not (isinstance(value, int) and not isinstance(value, bool)):
            digits = re.sub(r"[^\d]", "", str(value)) if _scalar(value) else ""
            if digits and len(digits) <= 9:
                cards.append(card(key, f"「{key}」应是整数，写成了「{value}」", f"{key}: {int(digits)}", f"{key}: {int(digits)}"))
            else:
                cards.append(card(key, f"「{key}」应是整数", f"{key}: 数字", None))
        elif key in LIST_FIELDS and value is not None and not isinstance(value, list):
            if not _scalar(value):
                cards.append(card(key, f"「{key}」应是列表（一行一条「  - 条目」）", f"{key}:\n  - 条目", None))
                continue
            items = [i for i in re.split(r"[，,、]", str(value)) if i.strip()]
            proposal = f"{key}:\n" + "\n".join(f"  - {i.strip()}" for i in items)
            cards.append(card(key, f"「{key}」应是列表（一行一条「  - 条目」），写成了一行「{value}」", proposal, proposal))
        elif key in LIST_FIELDS and isinstance(value, list) and not all(_scalar(v) for v in value):
            cards.append(card(key, f"「{key}」的条目应是一行文字，不能再嵌套", f"{key}:\n  - 条目", None))
        elif key in TEXT_FIELDS and isinstance(value, datetime.date):
            # 书内时间: 2024-10-13 — YAML reads a date there, not the line the author wrote (no list, no nesting): the
            # date as the book writes one (what the in-book time reads), any other field's quoted (A18, stop 58)
            said = str(value)
            text = _date_text(value) if key == "书内时间" else f'"{said}"'
            cards.append(card(key, f"「{key}」写成了「{said}」，读出来是日期，不是一行文字", f"{key}: {text}", f"{key}: {text}"))
        elif key in TEXT_FIELDS and not _scalar(value):
            cards.append(card(key, f"「{key}」应是一行文字，不能是列表或嵌套", f"{key}: 文字", None))
        elif is_promise and key in ENUMS and value is not None and str(value) not in ENUMS[key]:
            cards.append(card(key, f"「{key}」的值「{value}」不在 {'|'.join(ENUMS[key])} 里", f"{key}: {ENUMS[key][0]}", None))
    return cards


class BrokenSources(LwError):
    """Source files do not read; ``cards`` locate each problem (spec §10 state 0)."""

    def __init__(self, cards: list[RepairCard]) -> None:
        first = cards[0]
        more = f"（另有 {len(cards) - 1} 处）" if len(cards) > 1 else ""
        super().__init__(f"{first.problem}{more}", file=first.file, line=first.line,
                         expected="先修好：lw story repair（或 lw story 看修复卡）", code="repair")
        self.cards = cards


def require_readable(repo: StoryRepo) -> StoryRepo:
    """``repo``, once every source file reads and has the types the system consumes.

    Every command that works with a book's contents asks this first, so a broken file is one
    located refusal (its repair card) rather than a wrong answer or a crash somewhere deeper.
    Nothing is written: the deterministic full-width fixes are left to ``lw story``.
    """
    cards, _fixed = scan(repo, apply_fixes=False)
    if cards:
        raise BrokenSources(cards)
    return repo


def check_document(text: str, rel: str) -> None:
    """Refuse (:class:`RepairNeeded`) a front-matter document that does not parse or whose
    consumed fields have the wrong type (a draft, a file the author hands over)."""
    fm, _body, first = split_front_matter(text)
    if fm is None:
        return
    meta = fast_flat(fm)
    if meta is None:
        meta = plain(yaml_load(auto_fix(fm, line_offset=first - 1)[0], file=rel, line_offset=first - 1))
    cards = validate(rel, meta, fm, first - 1)
    if cards:
        raise RepairNeeded(cards[0])


def fix_document(text: str, rel: str) -> str:
    """``text`` with the deterministic full-width fixes of its front matter applied (a draft,
    a file handed over), each fix said (:mod:`lw_storyrepo.notices`); unchanged otherwise."""
    fm, _body, first = split_front_matter(text)
    if fm is None or "\r\n" in fm:
        return text
    new_fm, fixes = auto_fix(fm, line_offset=first - 1)
    for f in fixes:
        note(f"{rel} {f}")
    return _rebuild(text, rel, new_fm) if fixes else text


def _stamps(repo: StoryRepo) -> dict[str, str]:
    return {rel: f"{st.st_size}:{st.st_mtime_ns}:{st.st_ino}" for rel, st in repo.source_stats() if st is not None}




def scan(repo: StoryRepo, *, apply_fixes: bool = True) -> tuple[list[RepairCard], list[str]]:
    """Parse and validate every source file. Returns (cards, reports of auto-fixes applied).

    Files already found clean are remembered in ``.cache/index.db`` (its ``scanned`` table, the
    one derivative) by (size, mtime, inode), so a start re-parses only what changed (deleting
    .cache/ only costs a full re-scan).
    """
    stamps = _stamps(repo)
    known = scan_stamps(repo)
    todo = {rel for rel, stamp in stamps.items() if known.get(rel) != stamp}
    if not todo:
        return [], []
    cards, fixed = _scan(repo, apply_fixes=apply_fixes, only=todo)
    bad = {c.file for c in cards} | {f.split(" ", 1)[0] for f in fixed}
    clean = {rel: stamp for rel, stamp in stamps.items() if rel not in bad}
    save_scan_stamps(repo, clean)  # only saves time
    return cards, fixed


def scan_file(repo: StoryRepo, rel: str, *, apply_fixes: bool = True) -> tuple[list[RepairCard], list[str]]:
    """Parse and validate one source file (see :func:`scan`)."""
    cards: list[RepairCard] = []
    fixed: list[str] = []
    path = repo.p(rel)
    try:
        text = repo.text(path)
    except LwError as exc:
        cards.append(RepairCard(rel, exc.line, exc.message, [], exc.expected or "用 UTF-8（无 BOM）另存"))
        return cards, fixed
    crlf = "\r\n" in text  # a file saved on Windows: read as LF, fixes written back with CRLF
    text = text.replace("\r\n", "\n")
    if rel == L.BOOK_FILE:
        fm, offset = text, 0
    else:
        fm, _body, first = split_front_matter(text)
        if fm is None:
            return cards, fixed
        offset = first - 1
    meta = fast_flat(fm)
    if meta is None:
        new_fm, fixes = auto_fix(fm, line_offset=offset)
        try:
            meta = plain(yaml_load(new_fm, file=rel, line_offset=offset))
        except RepairNeeded as exc:
            c = exc.card
            if c.fixed_text is not None:
                c.fixed_text = _crlf(_rebuild(text, rel, c.fixed_text), crlf)
            cards.append(c)
            return cards, fixed
        if fixes:
            fixed.extend(f"{rel} {f}" for f in fixes)
            if apply_fixes:
                atomic_write_text(path, _crlf(_rebuild(text, rel, new_fm), crlf))
                fm = new_fm
    for c in validate(rel, meta, fm, offset):
        if c.fixed_text is not None:
            c.fixed_text = _crlf(_rebuild(text, rel, c.fixed_text), crlf)
        cards.append(c)
    return cards, fixed


def _crlf(text: str, crlf: bool) -> str:
    return text.replace("\n", "\r\n") if crlf else text


def _scan(repo: StoryRepo, *, apply_fixes: bool = True, only: set[str] | None = None) -> tuple[list[RepairCard], list[str]]:
    cards: list[RepairCard] = []
    fixed: list[str] = []
    for rel, _st in repo.source_stats():
        if only is None or rel in only:
            c, f = scan_file(repo, rel, apply_fixes=apply_fixes)
            cards += c
            fixed += f
    return cards, fixed


def _rebuild(original: str, rel: str, new_fm: str) -> str:
    if rel == L.BOOK_FILE:
        return new_fm if new_fm.endswith("\n") else new_fm + "\n"
    _fm, body, _ = split_front_matter(original)
    fm_fixed = new_fm if new_fm.endswith("\n") else new_fm + "\n"
    return f"---\n{fm_fixed}---\n{body}"


def apply_card(repo: StoryRepo, card: RepairCard) -> bool:
    """The author confirmed a card: write its proposed fix. Returns False when it has none."""
    if card.fixed_text is None:
        return False
    atomic_write_text(repo.p(card.file), card.fixed_text)
    return True


def _source(repo: StoryRepo, rel: str) -> str:
    """``rel`` when it names a source file of the book (never the workspace, git or outside)."""
    sources = {r for r, _st in repo.source_stats()}
    if rel not in sources:
        raise LwError(f"没有源文件 {rel}", expected="修复卡上的文件（仓库内相对路径）")
    return rel


def proposal_path(repo: StoryRepo, rel: str) -> Path:
    return repo.p(f"{REPAIR_DIR}/{rel.replace('/', '~')}")


def propose_repair(repo: StoryRepo, rel: str, text: str) -> str:
    """The model's intent-preserving fix for a broken file, kept for the author to confirm."""
    _source(repo, rel)
    if rel != L.BOOK_FILE and split_front_matter(text)[0] is None:
        raise LwError("提议的文件必须以 front matter（--- … ---）开头")
    fm = text if rel == L.BOOK_FILE else split_front_matter(text)[0] or ""
    yaml_load(fm, file=rel)  # a proposal that does not parse is refused (RepairNeeded)
    path = proposal_path(repo, rel)
    atomic_write_text(path, text)
    return repo.rel(path)


def accept_repair(repo: StoryRepo, rel: str) -> None:
    """The author confirms the model's proposal: it replaces the file (a fix commit follows)."""
    _source(repo, rel)
    path = proposal_path(repo, rel)
    if not path.is_file():
        raise LwError(f"{rel} 没有待确认的修复提议")
    atomic_write_text(repo.p(rel), repo.text(path))
    path.unlink()
