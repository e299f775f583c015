"""Hooks of the built-in ``rules`` plugin: its commands, schemas, the bundled subsystem kinds and doctor lines."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from lwcore.contributions import CommandRef, PackValidator, Register, SchemaRef, SubsystemKindRef
from lwcore.hookspecs import hookimpl
from lwcore.rules.bundled_kinds import BUNDLED_KINDS

if TYPE_CHECKING:
    from lwcore.kernel import Kernel

_HERE = "lwcore.builtins.rules"


@hookimpl
def lw_cli(register: Register[CommandRef]) -> None:
    register(CommandRef("roll", f"{_HERE}.commands:roll", "Roll a dice expression with the engine."))
    register(CommandRef("check", f"{_HERE}.commands:check", "Make a check with a rule system's rulepack."))
    register(CommandRef("rulepack", f"{_HERE}.commands:rulepack", "Validate, list and show rulepacks."))
    register(CommandRef("cmd", f"{_HERE}.dot_command:cmd", "Run a dot command (.ra, .st …) of a rule system."))


@hookimpl
def lw_schemas(register: Register[SchemaRef]) -> None:
    register(SchemaRef("rulepack", "lwcore.rules.model:Rulepack", "rulepacks/<id>.yaml (a rule system as data)"))
    register(SchemaRef("sheet", "lwcore.rules.sheet:SheetFile", "a character sheet file (lw cmd --sheet)"))


@hookimpl
def lw_pack_validators(register: Register[PackValidator]) -> None:
    register(PackValidator("rulepacks", f"{_HERE}.pack_kind:validate", lands_in="rulepacks",
                           enable=f"{_HERE}.pack_kind:enable",
                           description={"en": "rule systems (rulepack YAML)", "zh": "规则系统（规则包 YAML）"}))


@hookimpl
def lw_subsystem_kinds(register: Register[SubsystemKindRef]) -> None:
    """The bundled kinds, by reference: listing plugins imports none of them."""
    for name in BUNDLED_KINDS:
        register(SubsystemKindRef(name, f"lwcore.rules.kinds.{name}:KIND"))


@hookimpl
def lw_diagnostics(kernel: Kernel) -> Iterable[str]:
    from lwcore.rules import engine_for

    return [str(p) for p in engine_for(kernel).problems()]
