"""The board state machine (spec §10): one entry point, and "continue".

:func:`decide_next` checks, in order, and stops at the first hit:

0. a source file fails to parse or validate -> repair cards (deterministic full-width fixes are
   applied and reported; they then show up as hand edits);
1. unsettled hand edits in 定稿/大纲/文风/book.yaml -> propose a ``fix(…)`` commit (a change to
   an accepted chapter: ``retcon``);
2. an unfinished chapter transaction -> resume at its stage;
3. the last settled chapter ends its volume (or a volume review is under way) -> volume review;
4. the chapter number reached a health-check period (every 50) -> health report;
5. otherwise -> brief the next chapter.

Before deciding, an interrupted settle is recovered (:func:`lw_storyrepo.atomic.recover`).
:func:`advance` then runs the step when it is script work.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from lw_storyrepo import layout as L
from lw_storyrepo.acceptcard import summary_written
from lw_storyrepo.atomic import recover, recovered_earlier
from lw_storyrepo.card import brief
from lw_storyrepo.contextpack import pack
from lw_storyrepo.dialect import RepairCard
from lw_storyrepo.handedits import accepted_changes, hand_edits, propose_fix_message, retcon_chapter, stale_summaries
from lw_storyrepo.health import PERIOD, health_report, report_file
from lw_storyrepo.repair import scan
from lw_storyrepo.repo import StoryRepo, as_int
from lw_storyrepo.review import failed, run_checks, verdict
from lw_storyrepo.volume_review import volume_review
from lw_storyrepo.volumes import ends_volume, volume_closed
from lw_storyrepo.workspace import STAGE_NAMES, load_state

HINTS = {
    "brief": "作者：看 工作区/决策卡.md，采纳 / 改卡（手改或 lw story card edit）/ 选备选，然后 lw story decide（选备选：--alt；模型可用 story_edit_decision_card 填提案）",
    "decided": "脚本：组装上下文包（lw story 会直接做）",
    "packed": "模型：在干净上下文里渲染草稿（lw story prompt render；story_submit_draft 提交）；作者在终端交稿：lw story draft A 文件",
    "drafted": "脚本：机检（lw story 会直接做）",
    "checked": "模型：三镜头评审，各自新鲜上下文（lw story prompt lens --lens 读者/编辑/事实；story_submit_review）；作者在终端交评审：lw story review 读者 文件",
    "reviewed": "作者：看 工作区/验收卡.md（可改草稿和章摘要），lw story accept，lw story reject 理由，或选备选 lw story pick 标签",
    "accepted": "作者：这一章已验收、还没结转（结转被中断或被拒）：lw story settle 再结转一次",
}
NO_SUMMARY_HINT = ("模型：写章摘要（≤200 字，lw story prompt summary；story_submit_summary）；作者在终端："
                   "lw story summary \"…\"（或写进验收卡「章摘要」段）；有了章摘要才能 lw story accept")
"""The hint of the stage 作者验收 while the acceptance card has no summary (spec §4.6, §8 step 7:
the summary is in the card before the author accepts)."""
SUMMARY_STEP = "写章摘要"
"""The name of the next step at the stage 作者验收 while the card has no summary: accept is refused
until it is there, so the board names the summary, not the acceptance."""


def _step_name(repo: StoryRepo, stage: str) -> str:
    """The next step's name at ``stage`` (the summary first, when the reviewed card has none)."""
    if stage == "reviewed" and not summary_written(repo):
        return SUMMARY_STEP
    return STAGE_NAMES.get(stage, stage)


@dataclass
class Next:
    state: int
    name: str
    message: str
    cards: list[RepairCard] = field(default_factory=list)
    fixed: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    stage: str | None = None
    recovered: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "state": self.state, "name": self.name, "message": self.message,
            "cards": [c.to_json() for c in self.cards], "fixed": self.fixed, "files": self.files,
            "stage": self.stage, "recovered": self.recovered, "detail": self.detail,
        }


def _back_to_rendering(repo: StoryRepo) -> dict[str, Any]:
    """What the render must read after drafts were sent back: the failed check reports (a
    draft the checks refused) and the author's reasons (a draft the author rejected)."""
    detail: dict[str, Any] = {}
    folder = repo.p(L.评审报告)
    if folder.is_dir():
        failed_reports = {m.group(1): L.check_report(m.group(1)) for path in sorted(folder.glob("机检-*.md"))
                          if (m := re.fullmatch(r"机检-([A-Z])\.md", path.name)) and "不过关" in repo.text(path)}
        if failed_reports:
            detail["reports"] = failed_reports
    if repo.p(L.打回记录).is_file():
        detail["rejections"] = L.打回记录
    return detail


def _resume(repo: StoryRepo, state: dict[str, Any], recovered: str | None) -> Next:
    stage = str(state.get("阶段"))
    n = state.get("章号")
    detail: dict[str, Any] = {"chapter": n, "hint": HINTS.get(stage, "")}
    if stage == "reviewed" and not summary_written(repo):
        detail["hint"] = NO_SUMMARY_HINT
    if stage == "packed":
        detail.update(_back_to_rendering(repo))
    return Next(2, "resume", f"第 {n} 章事务进行中：下一步「{_step_name(repo, stage)}」", stage=stage,
                recovered=recovered, detail=detail)


def decide_next(repo: StoryRepo, *, apply_fixes: bool = True) -> Next:
    recovered = recover(repo.root) or recovered_earlier()  # the CLI and the tools recover first
    cards, fixed = scan(repo, apply_fixes=apply_fixes)
    if cards:
        return Next(0, "repair", f"{len(cards)} 处需要修复", cards=cards, fixed=fixed, recovered=recovered)
    edits = hand_edits(repo)
    if edits:
        facts = accepted_changes(repo, edits)
        message = "发现未结转的手改，结转吗？建议：" + propose_fix_message(edits)
        if facts:  # fix refuses these: the board names the one command that takes them
            message = f"发现未结转的手改，改动了已接受的章节（定稿只增不改）：入册走 lw story retcon {retcon_chapter(facts)} --原因 …"
        return Next(1, "hand-edits", message, fixed=fixed, files=edits, recovered=recovered,
                    detail={"message": propose_fix_message(edits), "retcon": facts,
                            "summaries": [] if facts else stale_summaries(repo, edits)})
    state = load_state(repo)
    if state is not None:
        return _resume(repo, state, recovered)
    last = repo.last_chapter()
    if repo.p(L.卷复盘).is_file():
        return Next(3, "volume-review", "卷复盘进行中：勾选伏笔机会（lw story vol tick 序号），写卷摘要后入册（lw story vol commit --summary 文件）", recovered=recovered,
                    files=[L.卷复盘])
    if last:
        meta = repo.chapter_meta(last)
        volume = as_int(meta.get("卷")) or 1
        if ends_volume(meta) and not volume_closed(repo, volume):
            return Next(3, "volume-review", f"{L.volume_name(volume)}刚结束：卷复盘", recovered=recovered,
                        detail={"volume": volume})
    if last and last % PERIOD == 0 and not repo.p(report_file(last)).is_file():
        return Next(4, "health", f"第 {last} 章：体检", recovered=recovered, detail={"chapter": last})
    return Next(5, "brief", f"新章 brief：第 {last + 1} 章", recovered=recovered, detail={"chapter": last + 1})


def advance(repo: StoryRepo) -> Next:
    """Decide, then run the step when it is script work (brief, pack, checks, health, audit)."""
    step = decide_next(repo)
    did = None
    if step.state == 2 and step.stage == "decided":
        pack(repo)
        did = "pack"
    elif step.state == 2 and step.stage == "drafted":
        results = run_checks(repo)
        did = "checks"
        step.detail["checks"] = {k: [f.to_json() for f in v] for k, v in results.items()}
        step.detail["verdicts"] = {k: verdict(v) for k, v in results.items()}
        # only the drafts that failed are named as failed; every report is in "checks"
        step.detail["reports"] = {k: L.check_report(k) for k, v in results.items() if failed(v)}
    elif step.state == 3 and not step.files:
        step.files = [volume_review(repo)]
        step.detail["did"] = "volume-audit"
    elif step.state == 4:
        step.files = [health_report(repo)]
        step.detail["did"] = "health"
    elif step.state == 5:
        step.files = [brief(repo)]
        did = "brief"
    if did:
        state = load_state(repo) or {}
        stage = str(state.get("阶段"))
        next_name = _step_name(repo, stage)
        if did == "brief":
            step.message = f"新章 brief：第 {state.get('章号')} 章，已生成决策卡；下一步「{next_name}」"
        elif did == "pack":
            step.message = f"第 {state.get('章号')} 章：已组装上下文包；下一步「{next_name}」"
        else:
            passed = [k for k, v in results.items() if not failed(v)]
            sent_back = [k for k, v in results.items() if failed(v)]
            # after ``amend`` the author is told the checks read the revised contract (they always do once it is revised)
            against = "，按修订后的合同" if state.get("合同修订") else ""
            step.message = (f"第 {state.get('章号')} 章：已机检（过：{'、'.join(passed) or '无'}；"
                            f"打回：{'、'.join(sent_back) or '无'}）{against}；下一步「{next_name}」")
            if stage == "packed":
                step.detail.update(_back_to_rendering(repo))
        step.stage = stage
        step.detail.update({"did": did, "hint": HINTS.get(stage, "")})
        if stage == "reviewed" and not summary_written(repo):
            step.detail["hint"] = NO_SUMMARY_HINT
    return step
