"""``lw doctor``: the data dir, Python, and every plugin's status with the reason for errors."""

from __future__ import annotations

import click

from lwcore import __version__
from lwcore.cli.common import state
from lwcore.plugins import python_summary


@click.command()
@click.option("--strict", is_flag=True, help="Exit 1 when any plugin is in error.")
@click.pass_context
def doctor(ctx: click.Context, strict: bool) -> int:
    """Check the installation: data dir, Python, plugins, registry conflicts."""
    kernel = state(ctx).kernel
    kernel.load_all()
    click.echo(f"lwcore {__version__}")
    click.echo(python_summary())
    exists = "exists" if kernel.data_dir.is_dir() else "not created yet"
    click.echo(f"data dir: {kernel.data_dir} ({exists})")
    if kernel.settings_problem:
        click.echo(f"settings: {kernel.settings_problem}")
    records = kernel.plugins
    counts = {s: sum(1 for r in records if r.status == s) for s in ("enabled", "disabled", "error")}
    click.echo(
        f"plugins: {len(records)} found, {counts['enabled']} enabled, "
        f"{counts['disabled']} disabled, {counts['error']} in error"
    )
    for record in records:
        mark = {"enabled": "ok ", "disabled": "off", "error": "ERR"}[record.status]
        version = record.manifest.version if record.manifest else "?"
        click.echo(f"  [{mark}] {record.id} {version} ({record.source})")
        for error in record.errors:
            click.echo(f"        error: {error}")
        if record.status == "disabled" and record.disabled_reason:
            click.echo(f"        {record.disabled_reason}")
        for refused in record.refused:
            click.echo(f"        refused hook: {refused}")
    for conflict in kernel.conflicts:
        click.echo(f"conflict: {conflict}")
    for plugin_id, line in kernel.diagnostics():
        click.echo(f"{plugin_id}: {line}")
    return 1 if strict and counts["error"] else 0
