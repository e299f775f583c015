"""The golden-line harvest (金句库, spec §6.2).

At settle, a paragraph the author changed by more than 30% against the model's original is
kept, with its chapter, in ``文风/金句库/<场景>.md`` (20 per scene; older ones go to
``文风/金句库/归档/``) as a few-shot sample for later renders of the same kind of scene.
"""

from __future__ import annotations

import difflib
import re

from lw_storyrepo import layout as L
from lw_storyrepo.markdown import ensure_newline
from lw_storyrepo.repo import StoryRepo

KEEP = 20
THRESHOLD = 0.30
SCENES = (
    ("战斗", ("剑", "刀", "拳", "掌", "杀", "斩", "血", "招", "攻", "战")),
    ("情感", ("泪", "哭", "心疼", "想念", "喜欢", "温柔", "怀里", "抱", "心口", "眼眶")),
)


def paragraphs(text: str) -> list[str]:
    return [p.strip() for p in text.splitlines() if p.strip() and not p.lstrip().startswith("#")]


def scene_of(paragraph: str) -> str:
    if "“" in paragraph or "「" in paragraph:
        return "对白"
    for scene, words in SCENES:
        if sum(paragraph.count(w) for w in words) >= 2:
            return scene
    return "叙事"


_ENTRY = re.compile(r"^##\s*(\S(?:[^\n]*\S)?|\s(?=\n))\s*\n(.*?)(?=^##\s|\Z)", re.M | re.S)
r"""One entry of a golden-line file: its heading (the first line with words after ``##``, its blanks trimmed) and
the text up to the next ``##``. The heading ends at its last non-blank (or is the one blank before a line end when
nothing follows ``##`` but blanks): the lazy ``(.+?)\s*\n`` it replaces read a heading's run of blanks again from
each of them (the square of its length, twenty seconds for a line of the cap's blanks); the matches are the lazy
pattern's."""


def golden_entries(text: str) -> list[tuple[str, str]]:
    """``(heading, paragraph)`` of each entry of a golden-line file."""
    return [(m.group(1).strip(), m.group(2).strip()) for m in _ENTRY.finditer(text)]


def harvest_golden(repo: StoryRepo, n: int, original: str, final: str, changes: dict[str, bytes | None]) -> list[str]:
    """Add the author's rewritten paragraphs of chapter ``n`` to ``changes``; returns them."""
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
            best = max((difflib.SequenceMatcher(None, o, new, autojunk=False).ratio() for o in a[i1:i2]), default=0.0)
            if 1.0 - best > THRESHOLD:
                picked.append(new)
    by_scene: dict[str, list[str]] = {}
    for para in picked:
        by_scene.setdefault(scene_of(para), []).append(para)
    for scene, paras in by_scene.items():
        rel = f"{L.金句库}/{scene}.md"
        entries = golden_entries(repo.text_or(rel)) + [(f"第{n}章", p) for p in paras]
        keep, old = entries[-KEEP:], entries[:-KEEP]
        changes[rel] = (f"# 金句库：{scene}\n\n" + "".join(f"## {h}\n{p}\n\n" for h, p in keep)).encode("utf-8")
        if old:
            arel = f"{L.金句库}/归档/{scene}.md"
            atext = repo.text_or(arel, f"# 金句库归档：{scene}\n\n")
            changes[arel] = (ensure_newline(atext) + "".join(f"## {h}\n{p}\n\n" for h, p in old)).encode("utf-8")
    return picked
