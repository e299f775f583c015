"""``lw plugins …``: list, inspect, enable, disable and scaffold plugins."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from lwcore.cli.common import confirm, echo_json, state
from lwcore.cli.listing import contributions, listing
from lwcore.errors import LwError
from lwcore.plugins import PluginRecord
from lwcore.settings import PluginSettings

PRIVILEGE_WARNING = (
    "This is third-party code. It runs with your privileges: it can read and write your "
    "files, use your network and your API keys. Enable it only if you trust its source."
)


def trust_card(record: PluginRecord, facts: dict[str, Any] | None = None) -> str:
    """The plain-text card shown before enabling a plugin (and by ``plugins info``);
    ``facts`` are :func:`lwcore.trust.content_facts` (what its content does)."""
    m = record.manifest
    lines = [f"Plugin {record.id} {m.version if m else '?'}"]
    if record.distribution:
        lines.append(f"  distribution: {record.distribution} {record.dist_version or ''}".rstrip())
    if m:
        lines += [
            f"  tier:         {m.tier}{' (bundled with Loreweaver)' if record.bundled else ''}",
            f"  provides:     {', '.join(m.provides) or '(nothing)'}",
            f"  needs:        {', '.join(m.needs) or '(nothing)'}",
        ]
        if m.cli_commands:
            lines.append(f"  cli_commands: {', '.join('lw ' + c for c in m.cli_commands)}")
        description = m.description.get("en") or next(iter(m.description.values()), "")
        if description:
            lines.append(f"  description:  {description}")
    if facts and m and "rulepacks" in m.provides:
        scripts = facts["rules_scripts"]
        lines.append(f"  rules script: {'yes: ' + '; '.join(scripts) if scripts else 'no'}"
                     + (" (outcomes decided by JS in the sandbox)" if scripts else ""))
    for preset in (facts or {}).get("provider_presets", ()):
        lines.append(f"  provider preset: {preset}")
    lines.append(f"  source:       {record.source}")
    if record.location:
        lines.append(f"  location:     {record.location}")
    if m and m.tier == "code" and not record.bundled:
        lines.append(f"  WARNING: {PRIVILEGE_WARNING}")
    return "\n".join(lines)


def find(plugin_id: str) -> PluginRecord:
    kernel = state(click.get_current_context()).kernel
    try:
        return kernel.plugin(plugin_id)
    except KeyError:
        known = ", ".join(sorted({r.id for r in kernel.plugins})) or "none"
        raise LwError(f"no plugin with id {plugin_id!r}", expected=f"one of: {known}") from None


@click.group()
def plugins() -> None:
    """List, inspect, enable and disable plugins."""


@plugins.command("list")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per plugin.")
@click.option("--all", "show_all", is_flag=True, help="Also show contributions and conflicts.")
@click.pass_context
def list_plugins(ctx: click.Context, as_json: bool, show_all: bool) -> None:
    """Every discovered plugin with its status (enabled, disabled, error) and the reason."""
    click.echo(listing(state(ctx).kernel, as_json=as_json, show_all=show_all))


@plugins.command("info")
@click.argument("plugin_id")
@click.option("--json", "as_json", is_flag=True)
def info(plugin_id: str, as_json: bool) -> None:
    """The trust card, status, errors, refused hooks and contributions of one plugin."""
    kernel = state(click.get_current_context()).kernel
    kernel.load_all()
    record = find(plugin_id)
    from lwcore.trust import content_facts

    facts = content_facts(kernel, record)
    data = record.to_json() | {"contributions": contributions(kernel, record.id)} | facts
    if as_json:
        echo_json(data)
        return
    click.echo(trust_card(record, facts))
    click.echo(f"  status:       {record.status}")
    if record.reason:
        click.echo(f"  reason:       {record.reason}")
    for refused in record.refused:
        click.echo(f"  refused hook: {refused}")
    for registry, keys in data["contributions"].items():
        click.echo(f"  {registry}: {', '.join(keys)}")


@plugins.command("enable")
@click.argument("plugin_id")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation (non-interactive use).")
@click.pass_context
def enable(ctx: click.Context, plugin_id: str, yes: bool) -> None:
    """Enable a plugin (third-party code plugins show a trust card and ask first)."""
    kernel = state(ctx).kernel
    record = find(plugin_id)
    if record.manifest is None:
        raise LwError(f"plugin {plugin_id!r} cannot be enabled: {record.reason}")
    needs_trust = record.manifest.tier == "code" and not record.bundled
    if needs_trust:
        from lwcore.trust import content_facts

        click.echo(trust_card(record, content_facts(kernel, record)))
        confirm("Enable it?", yes=yes)
    if "LW_PLUGINS" in kernel.env and needs_trust:
        click.echo("note: LW_PLUGINS is set and decides which third-party plugins load", err=True)
    _persist(ctx, record, enable=True)


@plugins.command("disable")
@click.argument("plugin_id")
@click.option("--yes", is_flag=True, help="Accepted for symmetry; disabling never asks.")
@click.pass_context
def disable(ctx: click.Context, plugin_id: str, yes: bool) -> None:
    """Disable a plugin (persisted in the data dir; bundled plugins too)."""
    _persist(ctx, find(plugin_id), enable=False)


def _persist(ctx: click.Context, record: PluginRecord, *, enable: bool) -> None:
    """Save the operator's choice for ``record`` and report the plugin's resulting status."""
    settings = PluginSettings.load(state(ctx).kernel.data_dir)
    (settings.enable if enable else settings.disable)(record.id)
    settings.save()
    record = state(ctx).reboot().plugin(record.id)
    click.echo(f"{record.id}: {record.status}")


@plugins.command("new")
@click.argument("plugin_id")
@click.option("--dir", "directory", required=True, type=click.Path(file_okay=False, path_type=Path))
def new(plugin_id: str, directory: Path) -> None:
    """Write a complete third-party plugin distribution into DIR (pip install DIR)."""
    from lwcore.builtins.host.scaffold import install_hint, write_plugin

    written = write_plugin(plugin_id, directory)
    for path in written:
        click.echo(f"wrote {path}")
    click.echo(f"next: {install_hint(directory)} && lw plugins enable {plugin_id}")
