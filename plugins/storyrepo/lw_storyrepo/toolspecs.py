"""The one table of storyrepo's model tools: name, argument model, handler, descriptions, and the
``lw story`` command that does the same by hand (invariant 9: the model and the author reach
every structured change by the same path).

Import-light on purpose (no pydantic, no YAML): the plugin's hook registers the tools from it
as lazy references (``lw_storyrepo.tools:<model>``) without importing :mod:`lw_storyrepo.tools`.
"""

from __future__ import annotations

from typing import NamedTuple


class ToolRow(NamedTuple):
    name: str
    model: str  # the pydantic argument model in lw_storyrepo.tools
    handler: str  # the handler function in lw_storyrepo.tools
    en: str
    zh: str
    command: str | None  # the `lw story` command that does the same by hand


TOOLS: tuple[ToolRow, ...] = (
    ToolRow("story_next", "NextArgs", "next_step",
            "Decide and run the next step of the story board state machine", "判定盘面状态机的下一步并执行脚本步骤", "next"),
    ToolRow("story_abandon_promise", "AbandonPromiseArgs", "abandon_promise",
            "Abandon a promise, with a required reason", "弃置一条承诺（理由必填）", "promise abandon"),
    ToolRow("story_create_promise", "CreatePromiseArgs", "create_promise",
            "Open a new promise (payoff plan required)", "开一条新承诺（兑付计划必填）", "promise new"),
    ToolRow("story_set_promise", "SetPromiseArgs", "set_promise",
            "Change a promise field (type, strength, deadline, last advanced chapter)", "改承诺字段（类型/强度/兑付期限/最后推进章）",
            "promise set"),
    ToolRow("story_set_promise_text", "SetPromiseTextArgs", "set_promise_text",
            "Rewrite a promise's description or payoff plan", "改承诺的描述或兑付计划", "promise text"),
    ToolRow("story_move_character", "MoveCharacterArgs", "move_character",
            "Move a character to a location", "移动角色位置", "character move"),
    ToolRow("story_set_character", "SetCharacterArgs", "set_character",
            "Set, add to or remove from a character field", "改角色卡字段（= 设值，+ 加入列表，- 移出列表）", "character set"),
    ToolRow("story_register_secret", "RegisterSecretArgs", "register_secret",
            "Register an info gap (secret)", "登记信息差", "secret new"),
    ToolRow("story_add_knower", "AddKnowerArgs", "add_knower",
            "A character learns a secret", "角色得知某信息差", "secret tell"),
    ToolRow("story_set_secret", "SetSecretArgs", "set_secret",
            "Change an info gap: whether readers know it, add or remove a knower or a keyword",
            "改信息差：读者已知、加减知情人、加减关键词", "secret set"),
    ToolRow("story_register_entity", "RegisterEntityArgs", "register_entity",
            "Register a name in the roster", "名册登记专名", "entity add"),
    ToolRow("story_set_alias", "SetAliasArgs", "set_alias",
            "Add or remove an alias of a roster entry or a character", "给名册条目或角色加减别名", "entity alias"),
    ToolRow("story_ignore_names", "IgnoreNamesArgs", "ignore_names",
            "Words the new-name check must stop reporting (they are no proper nouns)", "非专名：机检不再提示这些词",
            "entity ignore"),
    ToolRow("story_set_timeline", "SetTimelineArgs", "set_timeline",
            "Correct a timeline row's one-line event or who was present", "改时间线某章的一句话事件或在场", "timeline set"),
    ToolRow("story_edit_outline", "EditOutlineArgs", "edit_outline",
            "Replace or add one section of the master outline or a volume outline", "改总纲或卷纲的一段", "outline set"),
    ToolRow("story_add_style_rule", "AddStyleRuleArgs", "add_style_rule",
            "Add a banned word/pattern or a voice quirk, with its source", "风格宪法加禁词/禁句式/口癖（带出处）", "style add"),
    ToolRow("story_edit_decision_card", "EditDecisionCardArgs", "edit_decision_card",
            "Fill the decision card's proposal, contract or alternatives (never the author's ticks)",
            "填写决策卡的提案/合同/备选（不能代作者勾选）", "card edit"),
    ToolRow("story_submit_draft", "SubmitDraftArgs", "submit_draft",
            "Submit a rendered chapter draft", "提交渲染好的草稿", "draft"),
    ToolRow("story_new_promise_draft", "NewPromiseDraftArgs", "new_promise_draft",
            "Draft a promise this chapter opens", "为本章要开的承诺起草文件", "promise draft"),
    ToolRow("story_new_secret_draft", "NewSecretDraftArgs", "new_secret_draft",
            "Draft an info gap this chapter registers", "为本章要登记的信息差起草文件", "secret draft"),
    ToolRow("story_submit_review", "SubmitReviewArgs", "submit_review",
            "Submit one lens review", "提交一个镜头的评审", "review"),
    ToolRow("story_submit_summary", "SubmitSummaryArgs", "submit_summary",
            "Submit the chapter summary (<=200 chars)", "提交章摘要（≤200 字）", "summary"),
    ToolRow("story_propose_foreshadowing", "ProposeCandidatesArgs", "propose_candidates",
            "Propose 3-5 foreshadowing candidates for the volume review, each quoting the master outline",
            "卷复盘：提 3-5 个伏笔机会（须引用总纲远期节点）", "vol candidates"),
    ToolRow("story_volume_commit", "VolumeCommitArgs", "volume_commit",
            "Commit the volume review", "卷复盘入册", "vol commit"),
    ToolRow("story_propose_repair", "ProposeRepairArgs", "propose_repair",
            "Propose an intent-preserving fix for a broken file (the author confirms)",
            "为读不进来的文件提出保留意图的修复（待作者确认）", "repair propose"),
    ToolRow("story_query", "QueryArgs", "query",
            "Query due promises, rhythm debt, who knows what, who was present", "查询到期承诺、节奏债、谁知道什么、谁在场", "query"),
)
