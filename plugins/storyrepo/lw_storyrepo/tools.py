"""Model-facing tools (invariant 9, 对话即编辑器): pydantic argument models and handlers.

Each handler receives the validated model and the host's context; the book is found from
``ctx`` (a mapping or object with ``story_root`` or ``cwd``), else the current directory.
Author-only actions (拍板 decide, 验收 accept, the promise exemption) are deliberately not
tools: the model proposes, the author decides (spec §7, decision 5).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from lw_storyrepo.repo import StoryRepo


def _repo(ctx: Any) -> StoryRepo:
    for key in ("story_root", "cwd"):
        value = ctx.get(key) if isinstance(ctx, dict) else getattr(ctx, key, None)
        if value:
            return StoryRepo.find(Path(value))
    return StoryRepo.find()


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NextArgs(_Args):
    """No arguments: decide the next step of the board state machine and run script steps."""


class AbandonPromiseArgs(_Args):
    id: str = Field(pattern=r"^P-\d{3,}$", description="承诺编号，如 P-031")
    reason: str = Field(min_length=1, description="弃置原因（必填，留痕）")


class CreatePromiseArgs(_Args):
    title: str = Field(min_length=1, max_length=40, description="短题")
    type: Literal["伏笔", "悬念", "冲突", "关系线", "立旗", "爽点铺垫"]
    strength: Literal["高", "中", "低"]
    plan: str = Field(min_length=1, description="兑付计划（必填）")
    description: str = ""
    deadline: str | None = Field(None, description="兑付期限：第7卷 或 第200章；强度高时必填")


class SetPromiseArgs(_Args):
    id: str = Field(pattern=r"^P-\d{3,}$")
    field: Literal["类型", "强度", "兑付期限", "最后推进章"]
    value: str


class MoveCharacterArgs(_Args):
    name: str = Field(min_length=1, description="正名或别名")
    location: str = Field(min_length=1)


class SetCharacterArgs(_Args):
    name: str = Field(min_length=1)
    field: str = Field(min_length=1, description="字段：状态/位置/境界/持有/别名/… 或作者自定义字段")
    op: Literal["=", "+", "-"] = "="
    value: str


class RegisterSecretArgs(_Args):
    title: str = Field(min_length=1, max_length=40)
    knowers: list[str] = Field(default_factory=list, description="知情人（正名）")
    keywords: list[str] = Field(min_length=1, description="泄密扫描用关键词")
    content: str = Field(min_length=1)
    reader_knows: bool = False


class AddKnowerArgs(_Args):
    id: str = Field(pattern=r"^S-\d{3,}$")
    name: str = Field(min_length=1)


class RegisterEntityArgs(_Args):
    name: str = Field(min_length=1)
    kind: Literal["人物", "地点", "组织", "物品", "功法", "其他"] = "其他"
    aliases: list[str] = Field(default_factory=list)
    first: int | None = None


class AddStyleRuleArgs(_Args):
    kind: Literal["禁词", "禁句式", "口癖"]
    text: str = Field(min_length=1)
    source: str = Field("", description="出处，如：第 89/103/121 章三次否决")


class EditDecisionCardArgs(_Args):
    proposal: str | None = None
    contract: list[str] | None = None
    alternatives: str | None = None


class SubmitDraftArgs(_Args):
    label: str = Field("A", pattern=r"^[A-Z]$")
    text: str = Field(min_length=1, description="草稿全文：平铺 front matter（标题、视角、承诺结转、设定变更…）+ 正文")


class NewPromiseDraftArgs(_Args):
    """A promise this chapter opens: written to 工作区/新承诺/ and filed at settle."""

    title: str = Field(min_length=1, max_length=40)
    type: Literal["伏笔", "悬念", "冲突", "关系线", "立旗", "爽点铺垫"]
    strength: Literal["高", "中", "低"]
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
    from lw_storyrepo.flow import advance

    return advance(_repo(ctx)).to_json()


def abandon_promise(args: AbandonPromiseArgs, ctx: Any = None) -> dict[str, Any]:
    from lw_storyrepo import edits

    return edits.abandon_promise(_repo(ctx), args.id, args.reason)


def create_promise(args: CreatePromiseArgs, ctx: Any = None) -> dict[str, Any]:
    from lw_storyrepo import edits

    return edits.create_promise(_repo(ctx), args.title, args.type, args.strength, args.plan, args.description,
                                args.deadline)


def set_promise(args: SetPromiseArgs, ctx: Any = None) -> dict[str, Any]:
    from lw_storyrepo import edits

    return edits.set_promise(_repo(ctx), args.id, args.field, args.value)


def move_character(args: MoveCharacterArgs, ctx: Any = None) -> dict[str, Any]:
    from lw_storyrepo import edits

    return edits.move_character(_repo(ctx), args.name, args.location)


def set_character(args: SetCharacterArgs, ctx: Any = None) -> dict[str, Any]:
    from lw_storyrepo import edits

    return edits.set_character(_repo(ctx), args.name, args.field, args.value, args.op)


def register_secret(args: RegisterSecretArgs, ctx: Any = None) -> dict[str, Any]:
    from lw_storyrepo import edits

    return edits.register_secret(_repo(ctx), args.title, args.knowers, args.keywords, args.content, args.reader_knows)


def add_knower(args: AddKnowerArgs, ctx: Any = None) -> dict[str, Any]:
    from lw_storyrepo import edits

    return edits.add_knower(_repo(ctx), args.id, args.name)


def register_entity(args: RegisterEntityArgs, ctx: Any = None) -> dict[str, Any]:
    from lw_storyrepo import edits

    return edits.register_entity(_repo(ctx), args.name, args.kind, args.aliases, args.first)


def add_style_rule(args: AddStyleRuleArgs, ctx: Any = None) -> dict[str, Any]:
    from lw_storyrepo import edits

    return edits.add_style_rule(_repo(ctx), args.kind, args.text, args.source)


def edit_decision_card(args: EditDecisionCardArgs, ctx: Any = None) -> dict[str, Any]:
    from lw_storyrepo import edits

    return edits.edit_decision_card(_repo(ctx), args.proposal, args.contract, args.alternatives, by_model=True)


def submit_draft(args: SubmitDraftArgs, ctx: Any = None) -> dict[str, Any]:
    from lw_storyrepo import txn

    repo = _repo(ctx)
    path = txn.submit_draft(repo, args.label, args.text)
    return {"file": repo.rel(path)}


def _new_item(repo: StoryRepo, folder: str, prefix: str, title: str, fields: dict[str, Any], body: str) -> str:
    import os

    from lwcore.io.atomic import atomic_write_text

    from lw_storyrepo import repo as R

    base = repo.p(folder)
    pending = [n.split("-", 2)[0] + "-" + n.split("-", 2)[1] for n in (os.listdir(base) if base.is_dir() else [])
               if R.ITEM_FILE.match(n)]
    item_id = repo.next_id(prefix, pending)
    doc = R.new_doc(fields, body)
    atomic_write_text(base / f"{item_id}-{R.safe_title(title)}.md", doc.dump())
    return item_id


def new_promise_draft(args: NewPromiseDraftArgs, ctx: Any = None) -> dict[str, Any]:
    from lw_storyrepo import repo as R
    from lw_storyrepo import txn

    repo = _repo(ctx)
    if not (txn.load_state(repo) is None and repo.p(f"{R.工作区}/卷复盘.md").is_file()):
        txn.require_state(repo, "packed", "drafted", "checked", "reviewed")  # or a volume review
    if args.strength == "高" and not args.deadline:
        from lwcore.errors import LwError

        raise LwError("强度为高的承诺必须填兑付期限")
    pid = _new_item(repo, R.新承诺, "P", args.title,
                    {"类型": args.type, "强度": args.strength, "兑付期限": args.deadline},
                    f"## 描述\n{args.description}\n\n## 兑付计划\n{args.plan}\n\n## 履历\n")
    return {"id": pid, "hint": f"在草稿 front matter 的「开启承诺」里写 {pid}"}


def new_secret_draft(args: NewSecretDraftArgs, ctx: Any = None) -> dict[str, Any]:
    from lw_storyrepo import repo as R
    from lw_storyrepo import txn

    repo = _repo(ctx)
    txn.require_state(repo, "packed", "drafted", "checked", "reviewed")
    sid = _new_item(repo, R.新信息差, "S", args.title,
                    {"知情人": args.knowers, "读者已知": args.reader_knows, "关键词": args.keywords},
                    f"## 内容\n{args.content}\n")
    return {"id": sid}


def submit_review(args: SubmitReviewArgs, ctx: Any = None) -> dict[str, Any]:
    from lw_storyrepo import txn

    repo = _repo(ctx)
    return {"file": repo.rel(txn.submit_review(repo, args.lens, args.text))}


def submit_summary(args: SubmitSummaryArgs, ctx: Any = None) -> dict[str, Any]:
    from lw_storyrepo import txn

    repo = _repo(ctx)
    return {"file": repo.rel(txn.submit_summary(repo, args.text))}


def volume_commit(args: VolumeCommitArgs, ctx: Any = None) -> dict[str, Any]:
    from lw_storyrepo import flow

    return {"commit": flow.volume_commit(_repo(ctx), args.summary, args.outline)}


def propose_repair(args: ProposeRepairArgs, ctx: Any = None) -> dict[str, Any]:
    from lw_storyrepo import flow

    repo = _repo(ctx)
    path = flow.propose_repair(repo, args.file, args.text)
    return {"file": repo.rel(path), "hint": f"作者确认：lw story repair --accept {args.file}"}


def query(args: QueryArgs, ctx: Any = None) -> dict[str, Any]:
    from lw_storyrepo import cache

    return {"rows": cache.query(_repo(ctx), args.kind, args.arg)}


# name -> (args model, handler, en description, zh description)
TOOLS: dict[str, tuple[str, str, str, str]] = {
    "story_next": ("NextArgs", "next_step", "Decide and run the next step of the story board state machine",
                   "判定盘面状态机的下一步并执行脚本步骤"),
    "story_abandon_promise": ("AbandonPromiseArgs", "abandon_promise", "Abandon a promise, with a required reason",
                              "弃置一条承诺（理由必填）"),
    "story_create_promise": ("CreatePromiseArgs", "create_promise", "Open a new promise (payoff plan required)",
                             "开一条新承诺（兑付计划必填）"),
    "story_set_promise": ("SetPromiseArgs", "set_promise", "Change a promise field", "改承诺字段"),
    "story_move_character": ("MoveCharacterArgs", "move_character", "Move a character to a location", "移动角色位置"),
    "story_set_character": ("SetCharacterArgs", "set_character", "Set, add to or remove from a character field",
                            "改角色卡字段（= 设值，+ 加入列表，- 移出列表）"),
    "story_register_secret": ("RegisterSecretArgs", "register_secret", "Register an info gap (secret)", "登记信息差"),
    "story_add_knower": ("AddKnowerArgs", "add_knower", "A character learns a secret", "角色得知某信息差"),
    "story_register_entity": ("RegisterEntityArgs", "register_entity", "Register a name in the roster", "名册登记专名"),
    "story_add_style_rule": ("AddStyleRuleArgs", "add_style_rule", "Add a banned word/pattern or a voice quirk",
                             "风格宪法加禁词/禁句式/口癖"),
    "story_edit_decision_card": ("EditDecisionCardArgs", "edit_decision_card",
                                 "Fill the decision card's proposal, contract or alternatives (never the exemption)",
                                 "填写决策卡的提案/合同/备选（不能豁免）"),
    "story_submit_draft": ("SubmitDraftArgs", "submit_draft", "Submit a rendered chapter draft", "提交渲染好的草稿"),
    "story_new_promise_draft": ("NewPromiseDraftArgs", "new_promise_draft", "Draft a promise this chapter opens",
                                "为本章要开的承诺起草文件"),
    "story_new_secret_draft": ("NewSecretDraftArgs", "new_secret_draft", "Draft an info gap this chapter registers",
                               "为本章要登记的信息差起草文件"),
    "story_submit_review": ("SubmitReviewArgs", "submit_review", "Submit one lens review", "提交一个镜头的评审"),
    "story_submit_summary": ("SubmitSummaryArgs", "submit_summary", "Submit the chapter summary (<=200 chars)",
                             "提交章摘要（≤200 字）"),
    "story_volume_commit": ("VolumeCommitArgs", "volume_commit", "Commit the volume review", "卷复盘入册"),
    "story_propose_repair": ("ProposeRepairArgs", "propose_repair", "Propose an intent-preserving fix for a broken file",
                             "为读不进来的文件提出保留意图的修复（待作者确认）"),
    "story_query": ("QueryArgs", "query", "Query due promises, rhythm debt, who knows what, who was present",
                    "查询到期承诺、节奏债、谁知道什么、谁在场"),
}
