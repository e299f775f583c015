"""Hook implementations of the skills plugin. Light: handlers and models are lazy references."""

from __future__ import annotations

from collections.abc import Iterable

from lwcore.api import (
    CommandRef,
    HookScript,
    PackValidator,
    PromptSegment,
    Register,
    RoomCommand,
    SchemaRef,
    ToolSpec,
    TurnContext,
    hookimpl,
)

_T = "lw_skills.turn"
_F = "lw_skills.forge"

TOOLS = (
    ToolSpec(
        name="read_skill_reference",
        description={
            "en": "Read one reference file of a skill enabled in this room (the skill's prompt lists them).",
            "zh": "读取本房间已启用技能的一份参考资料（技能提示里列出了它们）。",
        },
        args_model=f"{_T}:ReferenceArgs",
        handler=f"{_T}:read_reference",
        gated=True,
    ),
    ToolSpec(
        name="generate_skill",
        description={
            "en": "Write a new keeper skill (a whole SKILL.md, optional references) into the data dir after checking it "
            "with the skill reader. Only when the keeper asks for a new skill.",
            "zh": "在用技能读取器校验之后，把一个新的守秘人技能（完整的 SKILL.md，可带参考资料）写入数据目录。仅在守秘人要求新技能时使用。",
        },
        args_model=f"{_F}:GenerateSkillArgs",
        handler=f"{_F}:generate_skill",
        gated=True,
        keeper_only=True,
    ),
    ToolSpec(
        name="generate_rulepack",
        description={
            "en": "Write a new rule system (a rulepack as YAML) into the data dir after the rules engine loads it "
            "(resolution, subsystems, commands, expertise all checked). Only when the keeper asks for a new system.",
            "zh": "规则引擎加载通过（resolution、subsystems、commands、expertise 全部校验）之后，把一个新规则系统（YAML 规则包）写入数据目录。仅在守秘人要求新系统时使用。",
        },
        args_model=f"{_F}:GenerateRulepackArgs",
        handler=f"{_F}:generate_rulepack",
        gated=True,
        keeper_only=True,
    ),
    ToolSpec(
        name="generate_module",
        description={
            "en": "Write a new module (title, player-facing premise, keeper notes, an optional prep setup script) as an "
            "installed pack after its setup is checked against this room. Only when the keeper asks for a new module.",
            "zh": "在准备脚本对照本房间校验通过之后，把一个新模组（标题、给玩家的引子、守秘人笔记、可选的准备脚本）作为已安装的包写入。仅在守秘人要求新模组时使用。",
        },
        args_model=f"{_F}:GenerateModuleArgs",
        handler=f"{_F}:generate_module",
        gated=True,
        keeper_only=True,
    ),
)


@hookimpl
def lw_tools(register: Register[ToolSpec]) -> None:
    for spec in TOOLS:
        register(spec)


@hookimpl
def lw_prompt_segments(turn: TurnContext) -> Iterable[PromptSegment] | None:
    from lw_skills.turn import segments

    return segments(turn)


@hookimpl
def lw_turn_scripts(turn: TurnContext) -> Iterable[HookScript] | None:
    from lw_skills.turn import scripts

    return scripts(turn)


@hookimpl
def lw_room_commands(register: Register[RoomCommand]) -> None:
    register(RoomCommand(
        "skill", "lw_skills.commands:skill_command", who="anyone",
        who_by_word={"enable": "keeper", "disable": "keeper"}, usage="list | show ID | enable ID | disable ID",
        description={"en": "the keeper skills; the keeper enables and disables them",
                     "zh": "守秘人技能；守秘人可启用、停用"},
    ))


@hookimpl
def lw_cli(register: Register[CommandRef]) -> None:
    register(CommandRef("skill", "lw_skills.cli:skill", "Keeper skills: list, show, enable and disable them in rooms."))


@hookimpl
def lw_schemas(register: Register[SchemaRef]) -> None:
    register(SchemaRef("skill", "lw_skills.skillfile:SkillFrontmatter", "SKILL.md frontmatter (a keeper skill)"))


@hookimpl
def lw_pack_validators(register: Register[PackValidator]) -> None:
    register(PackValidator("skills", "lw_skills.pack:validate", lands_in="skills", enable="lw_skills.pack:enable",
                           description={"en": "keeper skills (SKILL.md folders)", "zh": "守秘人技能（SKILL.md 文件夹）"}))


@hookimpl
def lw_diagnostics(kernel: object) -> Iterable[str] | None:
    from lw_skills.catalog import catalog_for

    catalog = catalog_for(kernel)  # type: ignore[arg-type]  # hooks hand plugins the kernel as object
    lines = [f"{len(catalog.skills())} skills discovered ({catalog.user_dir} and plugin folders)"]
    lines += [f"skill problem: {p}" for p in catalog.problems()]
    lines += [f"skill warning: {s.id}: {w}" for s in catalog.skills().values() for w in s.warnings]
    return lines
