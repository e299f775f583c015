"""Hook implementations of the storyrepo plugin. Kept light: no pydantic, no YAML, no git here.

Tools and schemas are registered as lazy references (``"lw_storyrepo.tools:Model"``); the CLI
group lives in ``lw_storyrepo.cli`` (click only at import time).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lwcore.contributions import PromptSegment, SchemaRef, ToolSpec, TurnContext
from lwcore.hookspecs import hookimpl

# name -> (args model, handler, en, zh); mirrors lw_storyrepo.tools.TOOLS without importing it
_TOOLS = (
    ("story_next", "NextArgs", "next_step", "Decide and run the next step of the story board state machine", "判定盘面状态机的下一步并执行脚本步骤"),
    ("story_abandon_promise", "AbandonPromiseArgs", "abandon_promise", "Abandon a promise, with a required reason", "弃置一条承诺（理由必填）"),
    ("story_create_promise", "CreatePromiseArgs", "create_promise", "Open a new promise (payoff plan required)", "开一条新承诺（兑付计划必填）"),
    ("story_set_promise", "SetPromiseArgs", "set_promise", "Change a promise field", "改承诺字段"),
    ("story_move_character", "MoveCharacterArgs", "move_character", "Move a character to a location", "移动角色位置"),
    ("story_set_character", "SetCharacterArgs", "set_character", "Set, add to or remove from a character field", "改角色卡字段"),
    ("story_register_secret", "RegisterSecretArgs", "register_secret", "Register an info gap (secret)", "登记信息差"),
    ("story_add_knower", "AddKnowerArgs", "add_knower", "A character learns a secret", "角色得知某信息差"),
    ("story_register_entity", "RegisterEntityArgs", "register_entity", "Register a name in the roster", "名册登记专名"),
    ("story_add_style_rule", "AddStyleRuleArgs", "add_style_rule", "Add a banned word/pattern or a voice quirk", "风格宪法加禁词/禁句式/口癖"),
    ("story_edit_decision_card", "EditDecisionCardArgs", "edit_decision_card", "Fill the decision card (never the exemption)", "填写决策卡（不能豁免）"),
    ("story_submit_draft", "SubmitDraftArgs", "submit_draft", "Submit a rendered chapter draft", "提交渲染好的草稿"),
    ("story_new_promise_draft", "NewPromiseDraftArgs", "new_promise_draft", "Draft a promise this chapter opens", "为本章要开的承诺起草文件"),
    ("story_new_secret_draft", "NewSecretDraftArgs", "new_secret_draft", "Draft an info gap this chapter registers", "为本章要登记的信息差起草文件"),
    ("story_submit_review", "SubmitReviewArgs", "submit_review", "Submit one lens review", "提交一个镜头的评审"),
    ("story_submit_summary", "SubmitSummaryArgs", "submit_summary", "Submit the chapter summary (<=200 chars)", "提交章摘要（≤200 字）"),
    ("story_volume_commit", "VolumeCommitArgs", "volume_commit", "Commit the volume review", "卷复盘入册"),
    ("story_propose_repair", "ProposeRepairArgs", "propose_repair", "Propose an intent-preserving fix for a broken file (the author confirms)", "为读不进来的文件提出保留意图的修复（待作者确认）"),
    ("story_query", "QueryArgs", "query", "Query due promises, rhythm debt, who knows what, who was present", "查询到期承诺、节奏债、谁知道什么、谁在场"),
)

_SCHEMAS = (
    ("story-book", "Book", "Story Repo v7 book.yaml"),
    ("story-chapter", "Chapter", "Story Repo v7 chapter front matter"),
    ("story-character", "Character", "Story Repo v7 character card front matter"),
    ("story-secret", "Secret", "Story Repo v7 info gap front matter"),
    ("story-promise", "Promise", "Story Repo v7 promise front matter"),
    ("story-style", "StyleConstitution", "Story Repo v7 style constitution front matter"),
    ("story-draft", "Draft", "Story Repo v7 workspace draft front matter"),
)


@hookimpl
def lw_tools(register: Any) -> None:
    for name, model, handler, en, zh in _TOOLS:
        register(ToolSpec(
            name=name,
            description={"en": en, "zh": zh},
            args_model=f"lw_storyrepo.tools:{model}",
            handler=f"lw_storyrepo.tools:{handler}",
            # Book-editing tools: a game room never sees them unless a feature asks (B.2).
            gated=True,
        ))


@hookimpl
def lw_schemas(register: Any) -> None:
    for name, model, description in _SCHEMAS:
        register(SchemaRef(name=name, model=f"lw_storyrepo.models:{model}", description=description))


@hookimpl
def lw_cli(register: Any) -> None:
    from lw_storyrepo.cli import story

    register(story)


@hookimpl
def lw_prompt_segments(turn: TurnContext) -> list[PromptSegment] | None:
    """The prompt of the current model step when the turn runs inside a book.

    ``turn.extra``: ``story_root`` (else ``turn.cwd``), ``story_step`` (proposal, render,
    lens, summary, volume; default: inferred from the workspace stage), ``story_lens``.
    """
    root = turn.extra.get("story_root") or turn.cwd
    if root is None or not (Path(root) / "book.yaml").is_file():
        return None
    from lw_storyrepo import prompts
    from lw_storyrepo.repo import StoryRepo

    repo = StoryRepo(Path(root))
    step = turn.extra.get("story_step") or prompts.step_for(repo)
    if not step:
        return None
    text = prompts.build(repo, str(step), turn.extra.get("story_lens"))
    return [PromptSegment(name=f"storyrepo.{step}", text=text, slot="context", order=50)]
