"""Hook implementations of the tavern plugin. Light: nothing heavy is imported here."""

from __future__ import annotations

from lwcore.contributions import CommandRef, PackValidator, Register, SchemaRef
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


@hookimpl
def lw_pack_validators(register: Register[PackValidator]) -> None:
    kinds = "lw_tavern.pack_kinds"
    register(PackValidator("cards", f"{kinds}:validate_card",
                           description={"en": "character and world cards (SillyTavern JSON, *.lorecard.json)",
                                        "zh": "人物卡与世界卡（酒馆 JSON、*.lorecard.json）"}))
    register(PackValidator("worldbooks", f"{kinds}:validate_worldbook",
                           description={"en": "world books (world info, character_book)", "zh": "世界书"}))
    register(PackValidator("presets", f"{kinds}:validate_preset",
                           description={"en": "chat-completion presets", "zh": "补全预设"}))
