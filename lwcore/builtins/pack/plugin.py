"""Hooks of the built-in ``pack`` plugin. Light: everything is given by reference."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from lwcore.contributions import (
    CommandRef,
    DocumentType,
    PackValidator,
    PromptSegment,
    Register,
    RoomCommand,
    SchemaRef,
    TurnContext,
)
from lwcore.hookspecs import hookimpl

if TYPE_CHECKING:
    from lwcore.kernel import Kernel

_HERE = "lwcore.builtins.pack"


@hookimpl
def lw_cli(register: Register[CommandRef]) -> None:
    register(CommandRef("pack", f"{_HERE}.commands:pack", "Build, verify, install, list and remove .lwpack packs."))


@hookimpl
def lw_schemas(register: Register[SchemaRef]) -> None:
    register(SchemaRef("lwpack-source", "lwcore.pack.manifest:SourceManifest", "pack.yaml in a pack's source folder"))
    register(SchemaRef("lwpack", "lwcore.pack.manifest:BuiltManifest", "pack.yaml inside a built .lwpack"))
    register(SchemaRef("module", "lwcore.pack.module:ModuleFrontmatter", "module.md frontmatter (a module: .module)"))


@hookimpl
def lw_pack_validators(register: Register[PackValidator]) -> None:
    register(PackValidator("prep", f"{_HERE}.prep:validate",
                           description={"en": "prep scripts (JavaScript)", "zh": "备团脚本（JavaScript）"}))


@hookimpl
def lw_room_commands(register: Register[RoomCommand]) -> None:
    register(RoomCommand("pack", f"{_HERE}.room_command:pack_command", who="keeper",
                         description={"en": "install a content pack into this room", "zh": "把内容包装进这个房间"},
                         usage=".pack install <https://… | gh:owner/repo[@tag] | a path on the server>"))
    register(RoomCommand("module", f"{_HERE}.module_command:module_command", who="anyone",
                         who_by_word={"start": "keeper"}, usage="[list] | show [ID] | start ID",
                         description={"en": "the modules (scenarios) installed; the keeper starts one in this room",
                                      "zh": "已安装的模组（剧本）；守秘人在本房间开始一个"}))


@hookimpl
def lw_document_types(register: Register[DocumentType]) -> None:
    register(DocumentType("module", f"{_HERE}.module_command:project_module",
                          description={"en": "the module this room plays (id, version, title, premise)"}))


@hookimpl
def lw_prompt_segments(turn: TurnContext) -> Iterable[PromptSegment] | None:
    from lwcore.builtins.pack.module_command import segments

    return segments(turn)


@hookimpl
def lw_diagnostics(kernel: Kernel) -> Iterable[str] | None:
    """Installed packs whose home no longer reads (``None`` when there is nothing to say)."""
    if not (kernel.data_dir / "packs").is_dir():
        return None
    from lwcore.pack.install import installed_packs

    lines = [f"installed pack {p.id}@{p.version}: {p.problem}" for p in installed_packs(kernel) if p.problem]
    return lines or None
