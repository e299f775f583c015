"""Chapter drafts (spec §8 step 4): ``工作区/草稿-<label>.md``.

A draft is the prose plus a flat front matter carrying the chapter's proposed moves
(:data:`DRAFT_FIELDS`); any other field the draft carries is the author's and travels into the
chapter's front matter. The model's original is kept in ``工作区/原稿/`` for the golden-line
harvest. A rejected draft is moved to ``工作区/打回稿/`` and stops being a candidate.
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass
from typing import Any

from lwcore.api import LwError

from lw_storyrepo import layout as L
from lw_storyrepo.dialect import quick_meta
from lw_storyrepo.repair import check_document, fix_document
from lw_storyrepo.notices import file_named, note
from lw_storyrepo.repo import StoryRepo, as_list, new_doc
from lw_storyrepo.separation import Context, check_render, record_render
from lw_storyrepo.volumes import check_deadline, check_deadline_ahead
from lw_storyrepo.workspace import REVIEW_FILES, change, drop_reviews, load_state, require_state, write

DRAFT_FIELDS = (
    "标题", "视角", "书内时间", "卷", "卷末", "开启承诺", "推进承诺", "兑付承诺", "弃置承诺",
    "推进说明", "弃置理由", "设定变更", "一句话事件", "在场", "场景",
)
"""Fields settle consumes; every other field of a draft is copied into the chapter."""
LABEL = re.compile(r"[A-Z]")
_DRAFT_NAME = re.compile(r"草稿-([A-Z])\.md")


@dataclass
class Draft:
    label: str
    meta: dict[str, Any]
    body: str
    body_line: int  # 1-based line of the body's first line in the file
    text: str = ""

    def ids(self, key: str) -> list[str]:
        return [str(x).strip() for x in as_list(self.meta.get(key))]

    def line_of(self, needle: str) -> int:
        """The 1-based line of the first front-matter line containing ``needle`` (else 1); the
        front matter is cut out once, not at each of a plan's thousands of refusals."""
        if not needle or "\n" in needle:
            return 1
        at = self._front.find(needle)
        return self._front.count("\n", 0, at) + 1 if at >= 0 else 1

    def column_of(self, line: int, word: str) -> int:
        """The 1-based column of ``word`` in the draft file's 1-based ``line`` (else 1)."""
        lines = self.text.split("\n", line)
        return (lines[line - 1].find(word) + 1 or 1) if 0 < line <= len(lines) and word else 1

    @functools.cached_property
    def _front(self) -> str:
        lines = max(0, self.body_line - 1)
        return "\n".join(self.text.split("\n", lines)[:lines])


def check_label(label: str) -> str:
    if not LABEL.fullmatch(label or ""):
        raise LwError(f"草稿标签 {label!r} 不合法", expected="A、B、C…（单个大写字母）")
    return label


def draft_labels(repo: StoryRepo) -> list[str]:
    try:
        names = os.listdir(repo.p(L.工作区))
    except OSError:
        return []
    return sorted(m.group(1) for name in names if (m := _DRAFT_NAME.fullmatch(name)))


DRAFT_MAX_CHARS = 60_000
"""The longest draft taken: a chapter is a few thousand characters; far past this the checks'
time would be the draft's to set, not the author's."""


def check_size(text: str, rel: str) -> None:
    if len(text) > DRAFT_MAX_CHARS:
        raise LwError(f"草稿有 {len(text)} 个字符，超过一章草稿的上限 {DRAFT_MAX_CHARS}", file=rel,
                      expected="一章的正文；太长就拆成几章")


def read_draft(repo: StoryRepo, label: str, *, original: bool = False) -> Draft:
    rel = L.draft_file(check_label(label), original=original)
    path = repo.p(rel)
    if not path.is_file():
        raise LwError(f"找不到草稿 {label}", file=rel)
    text = repo.text(path)
    check_size(text, rel)
    check_document(text, rel)
    meta, body = quick_meta(text, rel)
    body_line = text[: len(text) - len(body)].count("\n") + 1
    return Draft(label, meta, body, body_line, text)


def submit_draft(repo: StoryRepo, label: str, text: str, context: Context | None = None) -> str:
    """Store a rendered draft as ``草稿-<label>.md`` (stage ``drafted``: checks come next).

    Replacing the chosen draft drops the reviews written for its old text. ``context``: the
    conversation it was written in, when the plugin can see it (a model tool); recorded, so
    no lens review comes from there (写评分离, :mod:`lw_storyrepo.separation`).
    """
    state = require_state(repo, "packed", "drafted", "checked", "reviewed")
    check_label(label)
    check_size(text, L.draft_file(label))
    check_render(repo, state, label, context)
    check_document(text, L.draft_file(label))  # a broken front matter is a repair card, not a draft
    text = fix_document(text, L.draft_file(label))  # full-width colons and commas, fixed and said
    drops: list[str] = []
    if state.get("选稿") == label:
        made = [rel for rel in REVIEW_FILES if repo.p(rel).is_file()]
        drops = drop_reviews(state)
        if made:
            note(f"草稿 {label} 换了新稿：为旧稿写的评审、验收卡和章摘要已作废（{'、'.join(made)}）")
    record_render(state, label, context)
    state["阶段"] = "drafted"
    n = state["章号"]
    change(repo, state, drops, {L.draft_file(label): text, L.draft_file(label, original=True): text},
           f"draft({n}): 第{n}章草稿{label}换新稿前的存档", f"redraft({n}): 草稿{label}换了新稿\n")
    return L.draft_file(label)


def retire(repo: StoryRepo, label: str) -> tuple[str, list[str], dict[str, str]]:
    """A rejected draft goes to ``工作区/打回稿/`` (numbered); it is no longer a candidate.
    Returns where it goes, the files to drop and the file to write, for
    :func:`lw_storyrepo.workspace.change`."""
    folder = repo.p(L.打回稿)
    n = 1
    while (folder / f"草稿-{label}-{n}.md").exists():
        n += 1
    rel = f"{L.打回稿}/草稿-{label}-{n}.md"
    drops = [L.draft_file(label), L.draft_file(label, original=True), L.check_report(label)]
    return rel, drops, {rel: repo.text(L.draft_file(label))}


# --- promises and info gaps this chapter files -------------------------------------------------------


def _pending_ids(repo: StoryRepo, folder: str) -> list[str]:
    try:
        names = os.listdir(repo.p(folder))
    except OSError:
        return []
    return [m.group(1) for name in names if (m := L.ITEM_FILE.match(name))]


def _draft_item(repo: StoryRepo, folder: str, prefix: str, title: str, fields: dict[str, Any], body: str) -> str:
    if not title.strip():
        raise LwError("短题不能为空")
    item_id = repo.next_id(prefix, _pending_ids(repo, L.新承诺 if prefix == "P" else L.新信息差))
    write(repo, file_named(title, f"{folder}/{item_id}-{L.safe_title(title)}.md"), new_doc(fields, body).dump())
    return item_id


def draft_promise(repo: StoryRepo, title: str, type: str, strength: str, plan: str, description: str = "",
                  deadline: str | None = None) -> str:
    """A promise this chapter (or the running volume review) opens: ``工作区/新承诺/P-NNN-短题.md``."""
    if not (load_state(repo) is None and repo.p(L.卷复盘).is_file()):
        require_state(repo, "packed", "drafted", "checked", "reviewed")
    if type not in L.PROMISE_TYPES:
        raise LwError(f"承诺类型「{type}」不对", expected=f"承诺的类型只能是 {'|'.join(L.PROMISE_TYPES)}")
    if strength not in L.STRENGTHS:
        raise LwError(f"强度「{strength}」不对", expected="承诺的强度只能是 高|中|低")
    if not plan.strip():
        raise LwError("开新承诺必须有兑付计划")
    if strength == "高" and not (deadline or "").strip():
        raise LwError("强度为高的承诺必须填兑付期限", expected="--兑付期限 第7卷 或 --兑付期限 第200章")
    check_deadline(deadline)
    check_deadline_ahead(repo, deadline)
    return _draft_item(repo, L.新承诺, "P", title, {"类型": type, "强度": strength, "兑付期限": deadline or None},
                       f"## 描述\n{description}\n\n## 兑付计划\n{plan}\n\n## 履历\n")


def draft_secret(repo: StoryRepo, title: str, knowers: list[str], keywords: list[str], content: str,
                 reader_knows: bool = False) -> str:
    """An info gap this chapter registers: ``工作区/新信息差/S-NNN-短题.md``."""
    require_state(repo, "packed", "drafted", "checked", "reviewed")
    if not [k for k in keywords if k.strip()]:
        raise LwError("信息差至少要有一个关键词（泄密扫描用）")
    if not content.strip():
        raise LwError("信息差要写内容")
    return _draft_item(repo, L.新信息差, "S", title,
                       {"知情人": [repo.canonical_noted(k) for k in knowers], "读者已知": reader_knows, "关键词": keywords},
                       f"## 内容\n{content}\n")
