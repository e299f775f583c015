"""Hooks of the built-in ``turn`` plugin: ``lw turn``, the turn's own tools, the room schema."""

from __future__ import annotations

from lwcore.contributions import CommandRef, Register, RoomCommand, SchemaRef, ToolSpec
from lwcore.hookspecs import hookimpl


@hookimpl
def lw_cli(register: Register[CommandRef]) -> None:
    register(CommandRef("turn", "lwcore.builtins.turn.turn_command:turn", "Play one keeper turn in a room."))


@hookimpl
def lw_tools(register: Register[ToolSpec]) -> None:
    from lwcore.turn.toolspecs import TURN_TOOLS

    for spec in TURN_TOOLS:
        register(spec)


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
    register(RoomCommand("dice", f"{here}:dice_command", who="anyone", fallback=True,
                         description={"en": "the rule system's dot commands (.ra, .sc …)", "zh": "规则系统的点命令（.ra、.sc……）"}))
