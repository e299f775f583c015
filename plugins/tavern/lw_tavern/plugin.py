"""Hook implementations of the tavern plugin. Light: nothing heavy is imported here."""

from __future__ import annotations

from lwcore.contributions import CommandRef, Register, SchemaRef
from lwcore.hookspecs import hookimpl


@hookimpl
def lw_schemas(register: Register[SchemaRef]) -> None:
    register(SchemaRef("lorecard", "lw_tavern.lorecard:Lorecard", "Loreweaver native card (*.lorecard.json, format v1)"))
    register(SchemaRef("tavern-preset", "lw_tavern.preset:ChatPreset", "SillyTavern chat-completion preset"))
    register(SchemaRef("tavern-worldinfo-entry", "lw_tavern.worldbook.model:WorldEntry",
                       "SillyTavern world-info entry (world-info file names)"))
    register(SchemaRef("tavern-worldinfo-settings", "lw_tavern.worldbook.model:WorldSettings",
                       "World-info activation settings"))


@hookimpl
def lw_cli(register: Register[CommandRef]) -> None:
    register(CommandRef("tavern", "lw_tavern.cli:tavern", "SillyTavern material: world books, cards, presets."))
