"""Mechanical checks and lens reviews (spec §8 steps 5–6).

:func:`check` of a draft = the mechanical checks of :mod:`lw_storyrepo.checks` plus every
reason settle would refuse it (:func:`lw_storyrepo.settle.refusals`), one report per draft in
``工作区/评审报告/机检-<label>.md``. Drafts that fail go back to rendering without bothering
the author; the first passing draft is chosen. Three lens reviews of the chosen draft (each
in a fresh context) and the chapter summary then make the acceptance card.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from lwcore.api import LwError

from lw_storyrepo import layout as L
from lw_storyrepo.acceptcard import write_acceptance
from lw_storyrepo.answers import answered
from lw_storyrepo.checks import ERROR, CheckContext, Finding, check_draft, render_findings
from lw_storyrepo.drafts import Draft, draft_labels, read_draft
from lw_storyrepo.findings import at_words, in_view
from lw_storyrepo.repo import StoryRepo
from lw_storyrepo.separation import Context, check_review
from lw_storyrepo.settle import SUMMARY_MAX, refusals
from lw_storyrepo.workspace import (LENSES, change, drop_reviews, load_state, require_state, reviews_complete, save_state, write)


def check(repo: StoryRepo, state: dict[str, Any], draft: Draft, ctx: CheckContext | None = None) -> list[Finding]:
    """Every finding on ``draft``: mechanical checks, then what settle would refuse; each standing at
    the words it is about (:func:`_in_place`) and with the author's answer when the checks know one
    (:func:`lw_storyrepo.answers.answered`)."""
    ctx = ctx or CheckContext.load(repo)
    findings = check_draft(repo, draft, state, ctx)
    seen = {f.message for f in findings}
    findings += [f for f in refusals(repo, state, draft, ctx) if f.message not in seen]
    lines = draft.text.split("\n")
    return answered([_in_place(f, lines[f.line - 1]) if 0 < f.line <= len(lines) else f for f in findings])


def _in_place(f: Finding, line: str) -> Finding:
    """``f`` standing at the words it is about on its draft ``line`` (:func:`lw_storyrepo.findings.at_words`)
    and quoting them (:func:`lw_storyrepo.findings.in_view`): one place for the report, ``check --json`` and
    the lenses."""
    column = at_words(line, f.column, f.subject.what if f.subject else "")
    return replace(f, column=column, excerpt=in_view(f.excerpt, line, column))


def failed(findings: list[Finding]) -> bool:
    return any(f.severity == ERROR for f in findings)


def verdict(findings: list[Finding]) -> dict[str, Any]:
    """A draft's verdict as ``--json`` gives it: ``passed`` (no error: it may be chosen) or
    ``sent-back`` (打回, rendered again), with its count of errors and of hints."""
    errors = sum(f.severity == ERROR for f in findings)
    return {"verdict": "sent-back" if errors else "passed", "errors": errors, "hints": len(findings) - errors}


def write_report(repo: StoryRepo, label: str, findings: list[Finding]) -> str:
    """The check report of one draft (rewritten only when it changed)."""
    rel = L.check_report(label)
    text = render_findings(label, findings)
    if repo.text_or(rel) != text:
        write(repo, rel, text)
    return rel


def run_checks(repo: StoryRepo) -> dict[str, list[Finding]]:
    """Check every draft. Stage: back to rendering when none passes; else the lens reviews
    (or the acceptance, when the chosen draft still passes and its reviews are all in). Refused
    while no draft was submitted since the last check sent them all back: nothing new to check."""
    if (load_state(repo) or {}).get("阶段") == "packed":
        raise LwError("没有待检的新稿：上次机检把草稿都打回了（或还没交稿），章事务在「模型渲染草稿」",
                      expected="交一份新稿再检：lw story draft A 文件（只改了角色卡、世界观或工作区的承诺、信息差文件，原稿再交一次即可；"
                               "机检报告在 工作区/评审报告/）")
    state = require_state(repo, "drafted", "checked", "reviewed")
    ctx = CheckContext.load(repo)
    results: dict[str, list[Finding]] = {}
    for label in draft_labels(repo):
        findings = check(repo, state, read_draft(repo, label), ctx)
        results[label] = findings
        write_report(repo, label, findings)
    passing = [label for label, fs in results.items() if not failed(fs)]
    state["过检"] = passing
    if state.get("选稿") not in passing:
        chosen, n = state.get("选稿"), state["章号"]
        change(repo, None, drop_reviews(state), None, f"draft({n}): 第{n}章草稿{chosen}复检不过前的评审存档",
               f"check({n}): 草稿{chosen}复检不过，评审作废\n")
    if not passing:
        state["阶段"] = "packed"
        save_state(repo, state)
        return results
    state.setdefault("选稿", passing[0])
    if reviews_complete(repo):
        state["阶段"] = "reviewed"
        write_acceptance(repo, state, ctx=ctx)  # saves the state
    else:
        state["阶段"] = "checked"
        save_state(repo, state)
    return results


def submit_review(repo: StoryRepo, lens: str, text: str, context: Context | None = None) -> str:
    """One lens review of the chosen draft; the third one writes the acceptance card.

    ``context``: the conversation the review comes from, when the plugin can see it (a model
    tool; None for ``lw story review``). A review from the conversation that wrote a draft of
    the chapter, or that gave another lens's review, is refused (写评分离 enforced:
    :func:`lw_storyrepo.separation.check_review`)."""
    state = require_state(repo, "checked", "reviewed")
    lens = lens.replace("镜头", "")
    if lens not in LENSES:
        raise LwError(f"未知镜头 {lens!r}", expected="读者、编辑、事实")
    if not text.strip():
        raise LwError("评审是空的", expected="第一句是给作者的一句话结论")
    check_review(repo, state, lens, context)
    rel = L.lens_file(lens)
    write(repo, rel, text.strip() + "\n")
    if reviews_complete(repo):
        state["阶段"] = "reviewed"
        write_acceptance(repo, state)  # saves the state
    else:
        save_state(repo, state)
    return rel


def submit_summary(repo: StoryRepo, text: str) -> str:
    state = require_state(repo, "checked", "reviewed", "accepted")
    text = text.strip()
    if not text:
        raise LwError("章摘要是空的")
    if len(text) > SUMMARY_MAX:
        raise LwError(f"章摘要 {len(text)} 字，超过 {SUMMARY_MAX} 字上限")
    write(repo, L.章摘要稿, text + "\n")
    if repo.p(L.验收卡).is_file():
        write_acceptance(repo, state, summary=text)
    return L.章摘要稿
