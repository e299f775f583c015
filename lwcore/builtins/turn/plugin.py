"""Hooks of the built-in ``turn`` plugin: ``lw turn``, the turn's own tools and prompt
segments (the room's state as the keeper's model reads it), the room schema."""

from __future__ import annotations

from typing import Any

from lwcore.contributions import (
    CommandRef, DocumentType, PromptSegment, Register, RoomCommand, SchemaRef, ToolSpec, TurnContext,
)
from lwcore.hookspecs import hookimpl


@hookimpl
def lw_cli(register: Register[CommandRef]) -> None:
    register(CommandRef("turn", "lwcore.builtins.turn.turn_command:turn", "Play one keeper turn in a room."))
    register(CommandRef("room", "lwcore.builtins.turn.room_cli:room",
                        "The rooms of the data dir by name, and the keeper's message controls."))


@hookimpl
def lw_tools(register: Register[ToolSpec]) -> None:
    from lwcore.turn.toolspecs import TURN_TOOLS

    for spec in TURN_TOOLS:
        register(spec)


@hookimpl
def lw_prompt_segments(turn: TurnContext) -> list[PromptSegment]:
    """The kernel's own state as segments (:mod:`lwcore.turn.segments`): the keeper's rules,
    the rulepack's expertise, sheets, variables, the story so far, the recent history."""
    from lwcore.turn.segments import state_segments

    return state_segments(turn)


@hookimpl
def lw_schemas(register: Register[SchemaRef]) -> None:
    register(SchemaRef("room", "lwcore.turn.room:RoomFile", "room.yaml (a room folder of the turn pipeline)"))


@hookimpl
def lw_room_commands(register: Register[RoomCommand]) -> None:
    here = "lwcore.builtins.turn.room_commands"
    register(RoomCommand("help", f"{here}:help_command", who="anyone",
                         description={"en": "list the commands you can run here", "zh": "列出你在这里能用的命令"}))
    register(RoomCommand("phase", f"{here}:phase_command", who="keeper", usage="[NAME|none]",
                         description={"en": "show or set the room's phase (prep, play …)", "zh": "查看或设置房间阶段（prep、play……）"}))
    register(RoomCommand("rule", f"{here}:rule_command", who="keeper", usage="[VARIANT|none]",
                         description={"en": "show or switch the room's house-rule variant of its rule system",
                                      "zh": "查看或切换本房间规则系统的房规"}))
    register(RoomCommand("r", f"{here}:roll_command", who="anyone", usage="[EXPR]",
                         description={"en": "roll dice with the engine for the table (.r 3d6)",
                                      "zh": "用引擎掷骰，全桌可见（.r 3d6）"}))
    register(RoomCommand("recap", f"{here}:recap_command", who="anyone",
                         description={"en": "the story so far", "zh": "前情提要"}))
    register(RoomCommand("chronicle", f"{here}:chronicle_command", who="anyone", usage="[N]",
                         description={"en": "the last chronicle entries", "zh": "最近的编年史条目"}))
    register(RoomCommand("threads", f"{here}:threads_command", who="keeper", usage="[all]",
                         description={"en": "the open threads (keeper)", "zh": "未了的线索（守秘人）"}))
    register(RoomCommand("var", f"{here}:var_command", who="keeper", usage="list | expose PREFIX|* | hide PREFIX|*",
                         description={"en": "variables and what players see of the variable tree",
                                      "zh": "变量，以及玩家能看到变量树的哪些部分"}))
    register(RoomCommand("dice", f"{here}:dice_command", who="anyone", fallback=True,
                         description={"en": "the rule system's dot commands (.ra, .sc …)", "zh": "规则系统的点命令（.ra、.sc……）"}))


def _summary_v2(data: dict[str, Any]) -> dict[str, Any]:
    from lwcore.turn.chronicle import summary_v2

    return summary_v2(data)


@hookimpl
def lw_document_types(register: Register[DocumentType]) -> None:
    p, c = "lwcore.turn.projections", "lwcore.turn.chronicle"
    register(DocumentType("sheet", f"{p}:project_sheet", storage="derived",
                          description={"en": "a character sheet (sheets/*.yaml)"}))
    register(DocumentType("variable", f"{p}:project_variable", storage="derived",
                          description={"en": "a module variable (variables.yaml)"}))
    register(DocumentType("event", f"{p}:project_event", storage="derived",
                          description={"en": "a history entry (history.jsonl)"}))
    register(DocumentType("mvu", f"{p}:project_mvu", description={"en": "an imported MVU variable tree"}))
    register(DocumentType("note", f"{p}:keeper_only", description={"en": "a keeper note (keeper-only)"}))
    register(DocumentType("chronicle", f"{p}:project_chronicle", f"{c}:validate_chronicle", storage="log",
                          description={"en": "what the table did, turn by turn (keeper annotations private)"}))
    register(DocumentType("campaign_summary", f"{p}:project_summary", f"{c}:validate_summary",
                          schema_version=2, migrations={1: _summary_v2},
                          description={"en": "the story so far (folded chronicle)"}))
    register(DocumentType("thread", f"{p}:keeper_only", f"{c}:validate_thread",
                          description={"en": "an open loop (keeper-only)"}))
