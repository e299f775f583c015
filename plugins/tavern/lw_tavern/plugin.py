"""Hook implementations of the tavern plugin. Light: nothing heavy is imported here."""

from __future__ import annotations

from typing import Any

from lwcore.api import (
    CommandRef,
    DocumentType,
    HookScript,
    PackValidator,
    PromptSegment,
    Register,
    ReplyEdit,
    RoomCommand,
    SchemaRef,
    ToolSpec,
    TurnContext,
    hookimpl,
)

_ROOM = "lw_tavern.room"


@hookimpl
def lw_schemas(register: Register[SchemaRef]) -> None:
    register(SchemaRef("lorecard", "lw_tavern.lorecard:Lorecard", "Loreweaver native card (*.lorecard.json, format v1)"))
    register(SchemaRef("tavern-preset", "lw_tavern.preset:ChatPreset", "SillyTavern chat-completion preset"))
    register(SchemaRef("tavern-worldinfo-entry", "lw_tavern.worldbook.model:WorldEntry",
                       "SillyTavern world-info entry (world-info file names)"))
    register(SchemaRef("tavern-worldinfo-settings", "lw_tavern.worldbook.model:WorldSettings",
                       "World-info activation settings (a room's worldbook:)"))


@hookimpl
def lw_cli(register: Register[CommandRef]) -> None:
    register(CommandRef("tavern", "lw_tavern.cli:tavern", "SillyTavern material: world books, cards, presets."))


@hookimpl
def lw_pack_validators(register: Register[PackValidator]) -> None:
    kinds = "lw_tavern.pack_kinds"
    register(PackValidator("cards", f"{kinds}:validate_card", enable=f"{_ROOM}.imports:enable_cards",
                           description={"en": "character and world cards (SillyTavern JSON, *.lorecard.json)",
                                        "zh": "人物卡与世界卡（酒馆 JSON、*.lorecard.json）"}))
    register(PackValidator("worldbooks", f"{kinds}:validate_worldbook",
                           description={"en": "world books (world info, character_book)", "zh": "世界书"}))
    register(PackValidator("presets", f"{kinds}:validate_preset", lands_in="presets",
                           description={"en": "chat-completion presets", "zh": "补全预设"}))


@hookimpl
def lw_document_types(register: Register[DocumentType]) -> None:
    from lw_tavern.room.documents import document_types

    for kind in document_types():
        register(kind)


@hookimpl
def lw_prompt_segments(turn: TurnContext, ctx: Any) -> list[PromptSegment]:
    """The room's world book (activated this turn), enabled presets and companions."""
    from lw_tavern.room.prompt import turn_segments

    return turn_segments(turn, ctx)


@hookimpl
def lw_reply_text(turn: TurnContext, text: str, ctx: Any) -> ReplyEdit | None:
    """MagVarUpdate's commands: read, the blocks cut from the narration, made by the engine."""
    from lw_tavern.room.reply import reply_edit

    try:
        sandbox = ctx.sandbox()
    except Exception:  # noqa: BLE001 - no sandbox capability: values MVU reads with its libraries stay text
        sandbox = False
    return reply_edit(text, turn.room, sandbox or None)


@hookimpl
def lw_turn_scripts(turn: TurnContext) -> list[HookScript]:
    """The hook scripts of the room's world imports."""
    from lw_tavern.room.scripts import scripts

    return scripts(turn.room) if turn.room is not None else []


@hookimpl
def lw_room_commands(register: Register[RoomCommand]) -> None:
    here = f"{_ROOM}.commands"
    register(RoomCommand("import", f"{here}:import_command", who="anyone",
                         usage="<file|packId/path> [pc|companion|world] [@member]",
                         description={"en": "import a card: your character (pc), a companion, or the keeper's world",
                                      "zh": "导入一张卡：你的角色（pc）、同伴，或守秘人的世界（world）"}))
    register(RoomCommand("pc", f"{here}:pc_command", who="anyone", usage="list | claim <n|name> | release [n|name]",
                         description={"en": "the pregen roster: list, claim one, give it back",
                                      "zh": "预设角色池：查看、认领、释放"}))
    register(RoomCommand("lore", f"{here}:lore_command", who="keeper",
                         usage="constant [on|off <handle>] | greeting [n]",
                         description={"en": "the world's constant entries (list, switch off or on) and greetings",
                                      "zh": "世界的常驻条目（查看、关闭或重新打开）与开场白"}))
    register(RoomCommand("preset", f"{here}:preset_command", who="anyone",
                         usage="list | import <file|packId/path> | enable <id> | disable <id>",
                         description={"en": "chat-completion presets: the library, and what this room uses",
                                      "zh": "补全预设：预设库，以及本房间启用了哪些"}))


@hookimpl
def lw_tools(register: Register[ToolSpec]) -> None:
    here = f"{_ROOM}.tools"
    register(ToolSpec("set_stat", {"en": "Set a leaf of the room's variable tree (the path must exist).",
                                   "zh": "设置房间变量树上的一个叶子（路径必须已存在）。"},
                      f"{here}:SetStat", f"{here}:set_stat", gated=True))
    register(ToolSpec("adjust_stat", {"en": "Add to a number in the room's variable tree.",
                                      "zh": "给房间变量树上的一个数加减。"},
                      f"{here}:AdjustStat", f"{here}:adjust_stat", gated=True))
    register(ToolSpec("get_stat", {"en": "Read a value of the room's variable tree.", "zh": "读取房间变量树上的值。"},
                      f"{here}:GetStat", f"{here}:get_stat", gated=True))
