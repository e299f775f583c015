"""Hooks of the built-in ``host`` plugin: its commands and the manifest schema."""

from __future__ import annotations

from lwcore.contributions import CommandRef, Register, SchemaRef
from lwcore.hookspecs import hookimpl

_HERE = "lwcore.builtins.host"


@hookimpl
def lw_cli(register: Register[CommandRef]) -> None:
    register(CommandRef("plugins", f"{_HERE}.plugins_cmd:plugins", "List, inspect, enable and disable plugins."))
    register(CommandRef("doctor", f"{_HERE}.doctor:doctor", "Check the installation: data dir, Python, plugins."))
    register(CommandRef("schema", f"{_HERE}.schema_cmd:schema", "Print the JSON Schema of a file format."))


@hookimpl
def lw_schemas(register: Register[SchemaRef]) -> None:
    register(SchemaRef("plugin-manifest", "lwcore.manifest_schema:PluginManifest", "lw-plugin.toml"))
    register(SchemaRef("ui-block", "lwcore.ui.blocks:UIBlock",
                       "a tier-0 UI block (meter, stat, badge, text, divider, choices, image): emitUI and panels"))
