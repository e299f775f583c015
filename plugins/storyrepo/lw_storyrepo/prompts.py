"""Prompt segments for the model steps: proposal, render, the three lenses, summary, volume.

The model belongs to the host; the plugin assembles the prompt and names the tool the model
answers with. Render and review must run in separate, fresh contexts (写评分离): each
segment is self-contained and never includes another step's output except the files the
spec says it reads.
"""

from __future__ import annotations

from lw_storyrepo import layout as L
from lw_storyrepo.drafts import draft_labels
from lw_storyrepo.repair import scan
from lw_storyrepo.repo import StoryRepo
from lw_storyrepo.workspace import load_state

LENS_BRIEF = {
    "读者": "你是读者镜头：只回答爽不爽、哪一段想划走、结尾想不想点下一章。不评文笔好坏。",
    "编辑": "你是编辑镜头：只看结构与商业性——节奏、爽点兑现、卡点、与合同的对应。不评文笔好坏。",
    "事实": "你是事实镜头：只解释机检报告里的每条发现（是真问题还是误报、怎么改），不做别的评判。",
}


def step_for(repo: StoryRepo) -> str | None:
    state = load_state(repo)
    if state is None:
        return None
    return {"brief": "proposal", "packed": "render", "checked": "lens", "reviewed": "summary"}.get(str(state.get("阶段")))


def build(repo: StoryRepo, step: str, lens: str | None = None) -> str:
    state = load_state(repo) or {}
    n = state.get("章号", repo.last_chapter() + 1)
    book = repo.book()
    if step == "repair":
        cards, _ = scan(repo, apply_fixes=False)
        parts = ["下面的源文件读不进来。逐个提出保留作者意图的修复：只改格式（冒号、缩进、列表、类型），"
                 "不改内容；用 story_propose_repair 提交整份修好的文件，等作者确认。"]
        for card in cards:
            parts.append(card.render())
            parts.append("```\n" + repo.text_or(card.file) + "\n```")
        return "\n\n".join(parts)
    if step == "proposal":
        return (f"为《{book['书名']}》第 {n} 章写提案。读下面的决策卡盘面，给出本章方案（推进哪些承诺、是否开新承诺、"
                "结尾钩子），把合同写成可验收的断言；再给一个备选方案并写明代价。用 story_edit_decision_card 提交。"
                "不得勾选豁免——那是作者的权力。\n\n" + repo.text_or(L.决策卡))
    if step == "render":
        drafts = book["关键章稿数"] if n % book["卷规模"] in (0, 1) else 1
        rejects = repo.text_or(L.打回记录)
        return (f"在干净的上下文里渲染《{book['书名']}》第 {n} 章（目标 {book['每章目标字数']} 字，"
                f"{'写 ' + str(drafts) + ' 稿（A/B/C）' if drafts > 1 else '一稿'}）。只依据下面的上下文包。"
                "草稿以平铺 front matter 开头：标题、视角、书内时间、开启承诺/推进承诺/兑付承诺（块列表，写编号）、"
                "推进说明（P-031：说明）、设定变更（林晚.位置=北境雪原）、一句话事件、在场。新承诺先用 "
                "story_new_promise_draft 起草，新信息差用 story_new_secret_draft；草稿用 story_submit_draft 提交。\n\n"
                + repo.text_or(L.上下文包) + (f"\n\n## 上次打回的原因\n{rejects}" if rejects else ""))
    if step == "lens":
        lens = lens or "读者"
        label = state.get("选稿") or (draft_labels(repo) or ["A"])[0]
        extra = repo.text_or(L.check_report(label)) if lens == "事实" else ""
        return (LENS_BRIEF[lens] + "第一句话是给作者的一句话结论。用 story_submit_review 提交（lens=" + lens + "）。"
                "这一步要在新的对话里做：写过本章草稿、或交过别的镜头评审的对话交来的评审会被拒绝（写评分离）。\n\n"
                + repo.text_or(L.draft_file(label)) + ("\n\n" + extra if extra else ""))
    if step == "summary":
        label = state.get("选稿") or (draft_labels(repo) or ["A"])[0]
        return ("为这一章写 ≤200 字的章摘要：发生了什么、谁知道了什么、承诺怎么动了。它是长程记忆的源头，"
                "只写正文里确实发生的事。用 story_submit_summary 提交。\n\n" + repo.text_or(L.draft_file(label)))
    if step == "volume":
        return ("写本卷卷摘要（≤500 字：主线推进、关系变化、未兑付承诺清单），再和作者对谈下卷卷纲；"
                "提 3-5 个伏笔机会，每个须引用总纲的具体远期节点。用 story_volume_commit 提交。\n\n"
                + repo.text_or(L.卷复盘) + "\n\n" + repo.text_or(L.总纲))
    return ""
