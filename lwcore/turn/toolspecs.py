"""The turn pipeline's own model-facing tools (built-in plugin ``turn``), as cheap lazy references.

Imported by the kernel when the tool registry is built; it imports nothing heavy. The
argument models and handlers live in :mod:`lwcore.turn.tools`.
"""

from __future__ import annotations

from lwcore.contributions import ToolSpec

_T = "lwcore.turn.tools"
_M = "lwcore.turn.memory_tools"
_P = "lwcore.turn.prep"

TURN_TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        name="define_variable",
        description={
            "en": "Declare a named module variable (number/bool/text/enum) with optional bounds, "
            "per-locale labels and player or keeper visibility. Keeper only.",
            "zh": "声明一个具名模组变量（number/bool/text/enum），可带边界、按语言的标签，以及玩家或守秘人可见性。仅守秘人。",
        },
        args_model=f"{_T}:DefineVariableArgs",
        handler=f"{_T}:define_variable",
        keeper_only=True,
    ),
    ToolSpec(
        name="set_variable",
        description={
            "en": "Set a declared module variable. The engine checks the type and clamps numbers "
            "into the declared bounds; the result says the value actually stored.",
            "zh": "设置一个已声明的模组变量。引擎核对类型、把数值拉回声明的边界；结果给出实际存下的值。",
        },
        args_model=f"{_T}:SetVariableArgs",
        handler=f"{_T}:set_variable",
    ),
    ToolSpec(
        name="adjust_variable",
        description={
            "en": "Add a delta (may be negative) to a declared number variable; the engine clamps "
            "the result into the declared bounds.",
            "zh": "给一个已声明的数值变量加上增量（可为负）；引擎把结果拉回声明的边界。",
        },
        args_model=f"{_T}:AdjustVariableArgs",
        handler=f"{_T}:adjust_variable",
    ),
    ToolSpec(
        name="skill_check",
        description={
            "en": "Roll a skill or characteristic check for a character with the room's rule "
            "system. The engine rolls the dice and grades the result; never narrate a number "
            "before this returns.",
            "zh": "用房间的规则系统为一名角色做技能或属性检定。骰子由引擎掷、档位由规则包判定；在结果返回之前不要叙述任何点数。",
        },
        args_model=f"{_T}:SkillCheckArgs",
        handler=f"{_T}:skill_check",
    ),
    ToolSpec(
        name="subsystem_check",
        description={
            "en": "Run a subsystem the room's rule system declares (listed in the prompt; its "
            "command word works too) for a character, e.g. a loss check with loss '0/1d6' and "
            "optional bonus/penalty dice. The engine rolls, applies the rule system's rules and "
            "changes the sheet; the result carries the outcome and any flags.",
            "zh": "为一名角色运行房间规则系统声明的子系统（提示中列出；也可用规则系统的指令词），"
            "如损失检定：loss 写 '0/1d6'，可加奖励/惩罚骰。由引擎掷骰、按规则系统的规则结算并修改角色卡；"
            "结果给出结局与各种标记。",
        },
        args_model=f"{_T}:SubsystemCheckArgs",
        handler=f"{_T}:subsystem_check",
    ),
    ToolSpec(
        name="chronicle_record",
        description={
            "en": "Record what the table just did in the campaign chronicle (past tense; text is public, "
            "keeper is your private note of what the players missed). The engine stamps the turn.",
            "zh": "把牌桌刚刚发生的事记入战役编年史（用过去时；text 公开，keeper 是你私下记下的玩家错过的东西）。回合由引擎标注。",
        },
        args_model=f"{_M}:ChronicleArgs",
        handler=f"{_M}:chronicle_record",
    ),
    ToolSpec(
        name="thread_note",
        description={
            "en": "Open, update or resolve a thread: a loop the story left open (a planted hook, an armed "
            "consequence). Keeper-only; the label is its identity.",
            "zh": "开启、更新或了结一条线索：故事里尚未收束的线头（埋下的伏笔、已触发的后果）。仅守秘人可见；label 即其身份。",
        },
        args_model=f"{_M}:ThreadArgs",
        handler=f"{_M}:thread_note",
    ),
    ToolSpec(
        name="keeper_note",
        description={
            "en": "Keep a private keeper note under a title (empty text removes it). Players never see notes.",
            "zh": "以标题记一条守秘人私人笔记（text 为空则删除）。玩家永远看不到笔记。",
        },
        args_model=f"{_M}:NoteArgs",
        handler=f"{_M}:keeper_note",
    ),
    ToolSpec(
        name="run_prep_plan",
        description={
            "en": "Prep phase, keeper only: run a prep script (JavaScript whose only call is plan(tool, args)) or an "
            "installed pack's script (script_ref '<pack-id>/prep/setup.js'). The whole plan is checked against the room "
            "before anything runs; apply false (the default) previews the operations and changes nothing.",
            "zh": "仅准备阶段、仅守秘人：运行一个准备脚本（JavaScript，唯一可调用的是 plan(工具, 参数)），或已安装包里的脚本"
            "（script_ref 写 '<包id>/prep/setup.js'）。整个计划先对照房间校验、再执行；apply 为 false（默认）只预览操作清单，不改任何东西。",
        },
        args_model=f"{_P}:RunPrepPlanArgs",
        handler=f"{_P}:run_prep_plan",
        keeper_only=True,
        phase="prep",
    ),
)
"""Registered by the built-in ``turn`` plugin (``lwcore.builtins.turn``)."""
