"""``lw schema NAME``: print the JSON Schema of a file format."""

from __future__ import annotations

import click

from lwcore.cli.common import echo_json, state
from lwcore.contributions import resolve
from lwcore.errors import LwError


@click.command()
@click.argument("name", required=False)
@click.pass_context
def schema(ctx: click.Context, name: str | None) -> None:
    """Print the JSON Schema of NAME (without NAME: list the known schemas)."""
    schemas = state(ctx).kernel.schemas
    if name is None:
        for key, ref in sorted(schemas.items()):
            click.echo(f"{key}\t{ref.description}")
        return
    if name not in schemas:
        raise LwError(f"unknown schema {name!r}", expected="one of: " + ", ".join(sorted(schemas)))
    model = resolve(schemas[name].model)
    echo_json(model.model_json_schema())
