"""Hook implementations of the panels plugin. Light: nothing heavy is imported here."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from lwcore.api import (
    CommandRef,
    DocumentType,
    PackValidator,
    PanelRenderer,
    Register,
    RoomCommand,
    SchemaRef,
    hookimpl,
)

_P = "lw_panels.projection"


@hookimpl
def lw_schemas(register: Register[SchemaRef]) -> None:
    register(SchemaRef("ui-panels", "lw_panels.model:PanelsFile", "ui/panels.yaml: a pack's named panels (tiers 1 and 2)"))
    register(SchemaRef("ui-presentation", "lw_panels.presentation:KitFile",
                       "ui/presentation.yaml: a pack's presentation kit (version 2)"))


@hookimpl
def lw_cli(register: Register[CommandRef]) -> None:
    register(CommandRef("panels", "lw_panels.cli:panels", "Module UI panels: render, check, kit."))
    register(CommandRef("serve", "lw_panels.serve.command:serve", "A local web table for a room (loopback)."))
    register(CommandRef("seat", "lw_panels.serve.seats:seat", "The web table's seat links: list, rotate, revoke, add."))


@hookimpl
def lw_room_commands(register: Register[RoomCommand]) -> None:
    register(RoomCommand("panels", "lw_panels.commands:panels_command", who="anyone", usage="list | enable PACK | disable PACK",
                         description={"en": "the packs dressing this table; the keeper switches them on and off",
                                      "zh": "为本桌布置界面的包；守秘人负责开关"}))


@hookimpl
def lw_document_types(register: Register[DocumentType]) -> None:
    register(DocumentType("panel_packs", f"{_P}:project_packs", f"{_P}:validate_packs",
                          description={"en": "the packs whose panels are on in the room (.panels enable)"}))
    payloads = "lw_panels.payloads"
    register(DocumentType("panel_payload", f"{payloads}:project_payload", f"{payloads}:validate_payload",
                          description={"en": "a hook's emitPanel payload, for the viewers of that panel"}))


@hookimpl
def lw_pack_validators(register: Register[PackValidator]) -> None:
    kinds = "lw_panels.pack_kinds"
    register(PackValidator("panels", f"{kinds}:validate_panels", enable=f"{kinds}:enable",
                           description={"en": "module UI panels (ui/panels.yaml)", "zh": "模组 UI 面板（ui/panels.yaml）"}))
    register(PackValidator("presentation", f"{kinds}:validate_presentation", enable=f"{kinds}:enable",
                           description={"en": "a presentation kit (ui/presentation.yaml)",
                                        "zh": "演出资料包（ui/presentation.yaml）"}))


@hookimpl
def lw_panel_renderers(register: Register[PanelRenderer]) -> None:
    register(PanelRenderer("panel", ("text", "html"), "lw_panels.renderer:render"))


@hookimpl
def lw_diagnostics(kernel: Any) -> Iterable[str]:
    from lw_panels.load import cached_pack
    from lw_panels.packs import pack_homes
    from lwcore.api import LwError

    lines = []
    for home in pack_homes(kernel).values():
        try:
            pack = cached_pack(kernel, home)
        except LwError as exc:
            lines.append(f"pack {home.label}: {str(exc).splitlines()[0]}")
            continue
        if pack.panels or pack.kit is not None:
            lines.append(f"pack {home.label}: {len(pack.panels)} panels" + (", a presentation kit" if pack.kit else ""))
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        lines.append("lw serve needs the serve extra's packages: pip install starlette uvicorn")
    return lines
