"""The kernel's own model-facing tools (plugin id ``lwcore``), as cheap lazy references.

Imported by the kernel when the tool registry is built; it imports nothing heavy. The
argument models and handlers live in :mod:`lwcore.turn.tools`.
"""

from __future__ import annotations

from lwcore.contributions import ToolSpec

_T = "lwcore.turn.tools"

KERNEL_TOOLS: tuple[ToolSpec, ...] = (
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
        name="loss_check",
        description={
            "en": "Roll a loss check of a rule-system subsystem that declares a loss (listed in "
            "the prompt): the engine grades a roll against the character's stat, rolls the "
            "success or failure part of the loss (e.g. 0/1d6) and lowers the stat.",
            "zh": "做规则系统里声明了损失的子系统的损失检定（提示中列出）：引擎对角色的该项数值做检定，"
            "按成功或失败掷损失的对应部分（如 0/1d6），并扣减数值。",
        },
        args_model=f"{_T}:LossCheckArgs",
        handler=f"{_T}:loss_check",
    ),
)
"""Prepended to the tool registry by the kernel, before any plugin's tools."""
