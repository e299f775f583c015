"""The author's verdict on the chosen draft (spec §7–8): accept, reject, or take another draft.

- :func:`accept` (接受 / 改完接受): the author's corrections (in the draft file or in the card)
  are checked again, the whole settle is planned, and only then does anything change; then the
  chapter is settled in one commit.
- :func:`reject` (打回): the draft stops being a candidate and everything made for it (lens
  reviews, acceptance card, summary, the choice) is dropped; the reason goes to the next render.
- :func:`pick` (选备选): take another draft that passed the checks; it is reviewed afresh.
"""

from __future__ import annotations

from lwcore.api import LwError

from lw_storyrepo import layout as L
from lw_storyrepo.acceptcard import body_digest, read_acceptance, summary_written, write_acceptance
from lw_storyrepo.checks import CheckContext, new_proper_nouns
from lw_storyrepo.drafts import check_label, draft_labels, read_draft, retire
from lw_storyrepo.faults import fault
from lw_storyrepo.notices import note
from lw_storyrepo.review import check, failed, write_report
from lw_storyrepo.settle import chosen_label, commit_plan, plan_settle
from lw_storyrepo.repo import StoryRepo
from lw_storyrepo.workspace import LENSES, change, drop_reviews, load_state, require_state, save_state, write


def _take_card_edits(repo: StoryRepo, state: dict, label: str) -> None:
    """When the author corrected the text in the acceptance card, that text becomes the draft's."""
    acc = read_acceptance(repo)
    recorded = state.get("验收稿")
    if acc is None or acc.body is None or recorded is None or body_digest(acc.body) == recorded:
        return
    draft = read_draft(repo, label)
    if body_digest(draft.body) != recorded:
        raise LwError("验收卡里的正文和草稿文件都改了：只改一处", file=L.验收卡,
                      expected=f"改回其中一处（{L.draft_file(label)} 或验收卡的草稿段）")
    head = draft.text[: len(draft.text) - len(draft.body)]
    write(repo, L.draft_file(label), head + acc.body.strip("\n") + "\n")
    note(f"验收卡里改过的正文已写回 {L.draft_file(label)}")


def require_reviewed(repo: StoryRepo, state: dict) -> None:
    """写评分离 (spec §1.5, §8 steps 6–7): nothing is accepted before the three lens reviews of
    the chosen draft (each saying something) and the acceptance card made from them exist."""
    missing = [lens for lens in LENSES  # a blank file (emptied by hand) is no review either
               if not repo.p(L.lens_file(lens)).is_file() or not repo.text(L.lens_file(lens)).strip()]
    if missing:
        raise LwError("还没有三镜头评审，不能验收：缺" + "、".join(f"{lens}镜头" for lens in missing),
                      expected="先让模型在各自新鲜的上下文里评审（lw story prompt lens --lens 读者；lw story review 读者 FILE）")
    if read_acceptance(repo) is None:
        raise LwError("还没有验收卡，不能验收", file=L.验收卡, expected="三镜头评审交齐后生成验收卡（lw story）")
    if not summary_written(repo):
        raise LwError("验收卡上还没有章摘要，不能验收", file=L.验收卡,
                      expected="lw story summary \"…\"（≤200 字），或模型 story_submit_summary，或写进验收卡「章摘要」段")


def accept(repo: StoryRepo, label: str | None = None) -> str:
    """The author accepts the chosen draft (after correcting it, if they like): settle now.

    Nothing changes unless the settle goes through: the corrected text is checked again (a
    failure names the report to read) and the settle is planned before the stage moves.
    """
    state = require_state(repo, "checked", "reviewed", "accepted")
    require_reviewed(repo, state)
    chosen = chosen_label(repo, state)
    if label and check_label(label) != chosen:
        raise LwError(f"草稿 {label} 不是评审过的那一稿（{chosen}）",
                      expected=f"先 lw story pick {label}（换稿后三镜头重评），或接受草稿 {chosen}")
    _take_card_edits(repo, state, chosen)
    draft = read_draft(repo, chosen)
    ctx = CheckContext.load(repo)
    findings = check(repo, state, draft, ctx)
    report = write_report(repo, chosen, findings)
    if failed(findings):
        errors = [f"第 {f.line} 行［{f.kind}］{f.message}" for f in findings if f.severity == "error"]
        raise LwError("验收前复检不过关：" + "；".join(errors[:5]) + ("…" if len(errors) > 5 else ""), file=report,
                      expected=f"读 {report}，改好草稿后再 lw story accept")
    card = read_acceptance(repo)
    if card is not None:
        late = [f"{noun}（{kind}）" for noun, kind, _line in new_proper_nouns(repo, draft, ctx) if noun not in card.kinds]
        if late:  # names the author wrote in after the card was made: they are asked about too
            write_acceptance(repo, state, chosen, draft, ctx=ctx)
            raise LwError("验收卡之后正文里又出现了新专名：" + "、".join(late) + "（已加进验收卡）", file=L.验收卡,
                          expected="在验收卡上标记（[x] 登记进名册 / [-] 不是专名 / [ ] 笔误改稿）后再 lw story accept")
    plan = plan_settle(repo, ctx)
    unmarked = [] if card is None else [n for n in card.kinds if n not in card.confirmed and n not in card.ignored
                                        and n in draft.body]
    state = require_state(repo)
    state["阶段"] = "accepted"
    save_state(repo, state)
    fault("planned")
    commit = commit_plan(repo, plan)
    if unmarked:  # [ ] is a slip the author kept: said, since the roster does not know these names
        note(f"验收卡上没勾的新专名没有登记进名册（[ ] 算笔误）：{'、'.join(unmarked)}；下一章还会提示，要登记用 lw story entity add 名字 --类型 类型")
    return commit


def reject(repo: StoryRepo, reason: str, label: str | None = None) -> str:
    """打回 the chosen draft (or ``label``): back to rendering, the reason kept for the next draft.

    A draft the checks sent back (every draft failed: the stage is back at rendering, ``packed``) may be
    rejected too, so that the author's reason is kept for the next one; the stage stays at rendering.
    Returns where the rejected draft was put.
    """
    if not reason.strip():
        raise LwError("打回要写理由", expected="lw story reject \"开头太慢\"")
    current = load_state(repo)
    sent_back = current is not None and current.get("阶段") == "packed" and bool(draft_labels(repo))
    state = current if current is not None and sent_back else require_state(
        repo, "drafted", "checked", "reviewed", "accepted")
    labels = draft_labels(repo)
    label = check_label(label) if label else (state.get("选稿") or (labels[0] if len(labels) == 1 else None))
    if label is None or label not in labels:
        raise LwError("要打回哪一稿？", expected="lw story reject 理由 --draft " + "|".join(labels or ["A"]))
    where, drops, writes = retire(repo, label)
    writes[L.打回记录] = repo.text_or(L.打回记录, "# 打回记录\n") + f"- {reason.strip()}\n"
    if state.get("选稿") == label:
        drops += drop_reviews(state)
    state["过检"] = [x for x in state.get("过检") or [] if x != label]
    state["阶段"] = "drafted" if not sent_back and [x for x in draft_labels(repo) if x != label] else "packed"
    n = state["章号"]
    change(repo, state, drops, writes, f"draft({n}): 第{n}章打回草稿{label}前的存档",
           f"reject({n}): 打回草稿{label}\n\n理由: {reason.strip()}\n")
    return where


def pick(repo: StoryRepo, label: str) -> None:
    """选备选: choose another draft that passed the checks; its lens reviews start afresh."""
    check_label(label)
    state = load_state(repo)
    if state is not None and state.get("阶段") == "packed" and repo.p(L.check_report(label)).is_file():
        # every draft was sent back: say so about this one, not only that the stage is wrong
        raise LwError(f"草稿 {label} 没有通过机检，这一章还没有过检的草稿可选：读 {L.check_report(label)}",
                      file=L.check_report(label), expected="交一份新稿再检：lw story draft A 文件（机检报告在 工作区/评审报告/）")
    state = require_state(repo, "checked", "reviewed")
    if label not in (state.get("过检") or []):
        raise LwError(f"草稿 {label} 没有通过机检（或不存在）", expected="、".join(state.get("过检") or []) or "先机检")
    if state.get("选稿") == label:
        return
    drops = drop_reviews(state)
    state["选稿"] = label
    state["阶段"] = "checked"
    n = state["章号"]
    change(repo, state, drops, None, f"draft({n}): 第{n}章改选草稿{label}前的评审存档",
           f"pick({n}): 改选草稿{label}，三镜头重评\n")
