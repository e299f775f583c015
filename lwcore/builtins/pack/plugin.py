"""Hooks of the built-in ``pack`` plugin. Light: everything is given by reference."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from lwcore.contributions import CommandRef, PackValidator, Register, RoomCommand, SchemaRef
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


@hookimpl
def lw_pack_validators(register: Register[PackValidator]) -> None:
    register(PackValidator("prep", f"{_HERE}.prep:validate",
                           description={"en": "prep scripts (JavaScript)", "zh": "备团脚本（JavaScript）"}))


@hookimpl
def lw_room_commands(register: Register[RoomCommand]) -> None:
    register(RoomCommand("pack", f"{_HERE}.room_command:pack_command", who="keeper",
                         description={"en": "install a content pack into this room", "zh": "把内容包装进这个房间"},
                         usage=".pack install <https://… | gh:owner/repo[@tag] | a path on the server>"))


@hookimpl
def lw_diagnostics(kernel: Kernel) -> Iterable[str] | None:
    """Installed packs whose home no longer reads (``None`` when there is nothing to say)."""
    if not (kernel.data_dir / "packs").is_dir():
        return None
    from lwcore.pack.install import installed_packs

    lines = [f"installed pack {p.id}@{p.version}: {p.problem}" for p in installed_packs(kernel) if p.problem]
    return lines or None
