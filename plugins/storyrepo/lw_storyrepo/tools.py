"""Model-facing tools (invariant 9, 对话即编辑器): pydantic argument models and handlers.

The table of tools (names, descriptions, the matching ``lw story`` command) is
:data:`lw_storyrepo.toolspecs.TOOLS`. Each handler receives the validated model and the host's
context; the book is found from ``ctx`` (a mapping or object with ``story_root`` or ``cwd``),
else the current directory. The conversation a call comes from (the room of a kernel turn, a
host's ``story_context``) is recorded with drafts and lens reviews, and a review from the
conversation that rendered the chapter is refused (写评分离: :mod:`lw_storyrepo.separation`).
Author-only actions (拍板 decide, 验收 accept, retcon, the
promise exemption, the volume end) are deliberately not tools: the model proposes, the author
decides (spec §7, decision 5).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from lw_storyrepo import cache, card, drafts, edits, repair, review, volume_review
from lw_storyrepo.atomic import recover_before_reading
from lw_storyrepo.machine import advance
from lw_storyrepo.notices import drain
from lw_storyrepo.toolspecs import TOOLS
from lw_storyrepo.repo import StoryRepo
from lw_storyrepo.separation import context_of

PromiseType = Literal["伏笔", "悬念", "冲突", "关系线", "立旗", "爽点铺垫"]
Strength = Literal["高", "中", "低"]


def _repo(ctx: Any, *, readable: bool = True) -> StoryRepo:
    """The book of the host's context; with ``readable``, refused while a source file is broken."""
    repo = None
    for key in ("story_root", "cwd"):
        value = ctx.get(key) if isinstance(ctx, dict) else getattr(ctx, key, None)
        if value:
            repo = StoryRepo.find(Path(value))
            break
    repo = repo or StoryRepo.find()
    recover_before_reading(repo.root)  # never read a half-applied settle (a kill mid-way)
    return repair.require_readable(repo) if readable else repo


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class NextArgs(_Args):
    """No arguments: decide the next step of the board state machine and run script steps."""


class AbandonPromiseArgs(_Args):
    id: str = Field(pattern=r"^P-\d{3,}$", description="承诺编号，如 P-031")
    reason: str = Field(min_length=1, description="弃置原因（必填，留痕）")


class CreatePromiseArgs(_Args):
    title: str = Field(min_length=1, max_length=40, description="短题")
    type: PromiseType
    strength: Strength
    plan: str = Field(min_length=1, description="兑付计划（必填）")
    description: str = ""
    deadline: str | None = Field(None, description="兑付期限：第7卷 或 第200章；强度高时必填")


class SetPromiseArgs(_Args):
    id: str = Field(pattern=r"^P-\d{3,}$")
    field: Literal["类型", "强度", "兑付期限", "最后推进章"]
    value: str = Field(min_length=1)


class SetPromiseTextArgs(_Args):
    id: str = Field(pattern=r"^P-\d{3,}$")
    part: Literal["描述", "兑付计划"]
    text: str = Field(min_length=1)


class MoveCharacterArgs(_Args):
    name: str = Field(min_length=1, description="正名或别名")
    location: str = Field(min_length=1)


class SetCharacterArgs(_Args):
    name: str = Field(min_length=1)
    field: str = Field(min_length=1, description="字段：状态/位置/境界/持有/别名/… 或作者自定义字段")
    op: Literal["=", "+", "-"] = "="
    value: str = Field(min_length=1)


class RegisterSecretArgs(_Args):
    title: str = Field(min_length=1, max_length=40)
    knowers: list[str] = Field(default_factory=list, description="知情人（正名）")
    keywords: list[str] = Field(min_length=1, description="泄密扫描用关键词")
    content: str = Field(min_length=1)
    reader_knows: bool = False


class AddKnowerArgs(_Args):
    id: str = Field(pattern=r"^S-\d{3,}$")
    name: str = Field(min_length=1)


class SetSecretArgs(_Args):
    id: str = Field(pattern=r"^S-\d{3,}$")
    field: Literal["读者已知", "知情人", "关键词"]
    op: Literal["=", "+", "-"] = "="
    value: str = Field(min_length=1, description="读者已知：是/否；知情人：名字；关键词：词")


class RegisterEntityArgs(_Args):
    name: str = Field(min_length=1)
    kind: Literal["人物", "地点", "组织", "物品", "功法", "其他"] = "其他"
    aliases: list[str] = Field(default_factory=list)
    first: int | None = None


class SetAliasArgs(_Args):
    name: str = Field(min_length=1, description="正名（或已有别名）")
    alias: str = Field(min_length=1)
    op: Literal["+", "-"] = "+"


class IgnoreNamesArgs(_Args):
    words: list[str] = Field(min_length=1, description="不是专名的词，如 雪下、那支")


class SetTimelineArgs(_Args):
    chapter: int = Field(ge=1)
    field: Literal["一句话事件", "在场"]
    value: str = Field(min_length=1, description="在场：名字用逗号或顿号分隔")


class EditOutlineArgs(_Args):
    target: str = Field(min_length=1, description="总纲，或卷号：第3卷")
    part: str = Field(min_length=1, max_length=40, description="段名，如 结局承诺")
    text: str = Field(min_length=1)


class AddStyleRuleArgs(_Args):
    kind: Literal["禁词", "禁句式", "口癖"]
    text: str = Field(min_length=1)
    source: str = Field("", description="出处，如：第 89/103/121 章三次否决（留空：按系统的入宪提议）")


class EditDecisionCardArgs(_Args):
    proposal: str | None = None
    contract: list[str] | None = None
    alternatives: str | None = None
    alternative_contract: list[str] | None = Field(None, description="备选方案的合同条目（作者选备选时生效）")


class SubmitDraftArgs(_Args):
    label: str = Field("A", pattern=r"^[A-Z]$")
    text: str = Field(min_length=1, description="草稿全文：平铺 front matter（标题、视角、承诺结转、设定变更…）+ 正文")


class NewPromiseDraftArgs(_Args):
    """A promise this chapter opens: written to 工作区/新承诺/ and filed at settle."""

    title: str = Field(min_length=1, max_length=40)
    type: PromiseType
    strength: Strength
    plan: str = Field(min_length=1)
    description: str = ""
    deadline: str | None = None


class NewSecretDraftArgs(_Args):
    title: str = Field(min_length=1, max_length=40)
    knowers: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(min_length=1)
    content: str = Field(min_length=1)
    reader_knows: bool = False


class SubmitReviewArgs(_Args):
    lens: Literal["读者", "编辑", "事实"]
    text: str = Field(min_length=1, description="第一句是给作者的一句话结论")


class SubmitSummaryArgs(_Args):
    text: str = Field(min_length=1, max_length=200, description="章摘要，≤200 字")


class Candidate(_Args):
    title: str = Field(min_length=1, max_length=40)
    type: PromiseType
    strength: Strength
    plan: str = Field(min_length=1)
    anchor: str = Field(min_length=2, description="总纲里的远期节点，原样引用")
    deadline: str | None = None


class ProposeCandidatesArgs(_Args):
    candidates: list[Candidate] = Field(min_length=3, max_length=5)


class VolumeCommitArgs(_Args):
    summary: str = Field(min_length=1, max_length=500)
    outline: str | None = None


class ProposeRepairArgs(_Args):
    file: str = Field(min_length=1, description="修复卡上的文件（仓库内相对路径）")
    text: str = Field(min_length=1, description="修好的整份文件：只改格式，不改内容")


class QueryArgs(_Args):
    kind: Literal["due", "debt", "knows", "present", "chapters", "promises"]
    arg: str | None = None


# --- handlers ---------------------------------------------------------------------------------------


def next_step(args: NextArgs, ctx: Any = None) -> dict[str, Any]:
    return advance(_repo(ctx, readable=False)).to_json()


def abandon_promise(args: AbandonPromiseArgs, ctx: Any = None) -> dict[str, Any]:
    return edits.abandon_promise(_repo(ctx), args.id, args.reason)


def create_promise(args: CreatePromiseArgs, ctx: Any = None) -> dict[str, Any]:
    return edits.create_promise(_repo(ctx), args.title, args.type, args.strength, args.plan, args.description,
                                args.deadline)


def set_promise(args: SetPromiseArgs, ctx: Any = None) -> dict[str, Any]:
    return edits.set_promise(_repo(ctx), args.id, args.field, args.value)


def set_promise_text(args: SetPromiseTextArgs, ctx: Any = None) -> dict[str, Any]:
    return edits.set_promise_text(_repo(ctx), args.id, args.part, args.text)


def move_character(args: MoveCharacterArgs, ctx: Any = None) -> dict[str, Any]:
    return edits.move_character(_repo(ctx), args.name, args.location)


def set_character(args: SetCharacterArgs, ctx: Any = None) -> dict[str, Any]:
    return edits.set_character(_repo(ctx), args.name, args.field, args.value, args.op)


def register_secret(args: RegisterSecretArgs, ctx: Any = None) -> dict[str, Any]:
    return edits.register_secret(_repo(ctx), args.title, args.knowers, args.keywords, args.content, args.reader_knows)


def add_knower(args: AddKnowerArgs, ctx: Any = None) -> dict[str, Any]:
    return edits.add_knower(_repo(ctx), args.id, args.name)


def set_secret(args: SetSecretArgs, ctx: Any = None) -> dict[str, Any]:
    return edits.set_secret(_repo(ctx), args.id, args.field, args.value, args.op)


def register_entity(args: RegisterEntityArgs, ctx: Any = None) -> dict[str, Any]:
    return edits.register_entity(_repo(ctx), args.name, args.kind, args.aliases, args.first)


def set_alias(args: SetAliasArgs, ctx: Any = None) -> dict[str, Any]:
    return edits.set_alias(_repo(ctx), args.name, args.alias, args.op)


def ignore_names(args: IgnoreNamesArgs, ctx: Any = None) -> dict[str, Any]:
    return edits.ignore_names(_repo(ctx), args.words)


def set_timeline(args: SetTimelineArgs, ctx: Any = None) -> dict[str, Any]:
    return edits.set_timeline(_repo(ctx), args.chapter, args.field, args.value)


def edit_outline(args: EditOutlineArgs, ctx: Any = None) -> dict[str, Any]:
    return edits.edit_outline(_repo(ctx), args.target, args.part, args.text)


def add_style_rule(args: AddStyleRuleArgs, ctx: Any = None) -> dict[str, Any]:
    return edits.add_style_rule(_repo(ctx), args.kind, args.text, args.source)


def edit_decision_card(args: EditDecisionCardArgs, ctx: Any = None) -> dict[str, Any]:
    return card.edit_card(_repo(ctx), args.proposal, args.contract, args.alternatives, args.alternative_contract,
                          by_model=True)


def submit_draft(args: SubmitDraftArgs, ctx: Any = None) -> dict[str, Any]:
    return {"file": drafts.submit_draft(_repo(ctx), args.label, args.text, context_of(ctx))}


def new_promise_draft(args: NewPromiseDraftArgs, ctx: Any = None) -> dict[str, Any]:
    pid = drafts.draft_promise(_repo(ctx), args.title, args.type, args.strength, args.plan, args.description,
                               args.deadline)
    return {"id": pid, "hint": f"在草稿 front matter 的「开启承诺」里写 {pid}"}


def new_secret_draft(args: NewSecretDraftArgs, ctx: Any = None) -> dict[str, Any]:
    sid = drafts.draft_secret(_repo(ctx), args.title, args.knowers, args.keywords, args.content, args.reader_knows)
    return {"id": sid, "hint": f"本章登记 {sid}；角色得知用「设定变更: {sid}.知情人+名字」"}


def submit_review(args: SubmitReviewArgs, ctx: Any = None) -> dict[str, Any]:
    return {"file": review.submit_review(_repo(ctx), args.lens, args.text, context_of(ctx))}


def submit_summary(args: SubmitSummaryArgs, ctx: Any = None) -> dict[str, Any]:
    return {"file": review.submit_summary(_repo(ctx), args.text)}


def propose_candidates(args: ProposeCandidatesArgs, ctx: Any = None) -> dict[str, Any]:
    titles = volume_review.propose_candidates(_repo(ctx), [c.model_dump() for c in args.candidates])
    return {"candidates": titles, "hint": "作者勾选：lw story vol tick 序号…"}


def volume_commit(args: VolumeCommitArgs, ctx: Any = None) -> dict[str, Any]:
    repo = _repo(ctx)
    volume = volume_review.current_volume(repo)[0]
    unpicked = volume_review.unpicked_candidates(repo)
    result: dict[str, Any] = {"commit": volume_review.volume_commit(repo, args.summary, args.outline)}
    missing = volume_review.next_outline_missing(repo, volume)
    if missing:
        result["hint"] = missing
    if unpicked:  # no foreshadowing promise filed: said apart from the outline's hint
        result["foreshadowing"] = unpicked
    return result


def propose_repair(args: ProposeRepairArgs, ctx: Any = None) -> dict[str, Any]:
    path = repair.propose_repair(_repo(ctx, readable=False), args.file, args.text)
    return {"file": path, "hint": f"作者确认：lw story repair --accept {args.file}"}


def query(args: QueryArgs, ctx: Any = None) -> dict[str, Any]:
    return {"rows": cache.query(_repo(ctx), args.kind, args.arg)}


def _with_notices(handler: Any) -> Any:
    """A tool handler whose result also carries what the system fixed or recovered on its own
    (``notices``, :mod:`lw_storyrepo.notices`): the model is told as the author is."""

    @functools.wraps(handler)
    def wrapper(args: Any, ctx: Any = None) -> Any:
        drain()
        result = handler(args, ctx)
        notes = drain()
        if notes and isinstance(result, dict):
            result = {**result, "notices": notes}
        return result

    return wrapper


for _row in TOOLS:
    globals()[_row.handler] = _with_notices(globals()[_row.handler])
