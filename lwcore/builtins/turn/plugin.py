"""Hooks of the built-in ``turn`` plugin: ``lw turn``, the turn's own tools, the room schema."""

from __future__ import annotations

from lwcore.contributions import CommandRef, Register, SchemaRef, ToolSpec
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
