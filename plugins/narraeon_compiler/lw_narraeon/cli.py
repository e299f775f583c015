"""``lw prompt``: batch compilation and directory handles. Imports only click at top level."""

from __future__ import annotations

import click


@click.group("prompt")
def prompt() -> None:
    """Compile prompts (narraeon format) and work with directory handles."""


@prompt.command("compile")
@click.option(
    "--batch",
    "batch",
    required=True,
    metavar="FILE|-",
    help="JSON lines of requests ('-' reads stdin); one JSON line out per request; exit 1 if any failed.",
)
def compile_command(batch: str) -> None:
    """Compile each request line; print one response line each (in order).

    A line that is not UTF-8 or not JSON, or a request that fails, gives
    {"error": {"code", "message", "line"}} on its line; the other lines are unaffected.
    Blank lines are skipped. Responses are flushed whenever the input is waited for, so a
    host can keep one process and exchange lines with it. The exit status is 1 when any
    line failed.
    """
    from lwcore.cli.batch import run_batch
    from lwcore.errors import LwError
    from lw_narraeon.canonical import js_json
    from lw_narraeon.compiler import compile_request

    def answer(_number: int, request: object) -> tuple[dict[str, object], bool]:
        response = compile_request(request)
        return response, "error" in response

    def refused(error: LwError, number: int, _file: str | None) -> dict[str, object]:
        return {"error": {"code": "invalid_request", "message": f"line {number}: {error}", "line": number}}

    code = run_batch(batch, answer, on_error=refused, encode=js_json)
    if code:
        click.get_current_context().exit(code)


@prompt.group("dir-handle")
def dir_handle() -> None:
    """Encode directories as @dir- handles, or parse handles back."""


@dir_handle.command("encode")
@click.argument("values", nargs=-1, required=True)
def encode_command(values: tuple[str, ...]) -> None:
    """Print the handle of each DIRECTORY ("" is the root), one per line."""
    from lw_narraeon.dirhandles import encode_dir_handle

    for value in values:
        click.echo(encode_dir_handle(value))


@dir_handle.command("parse")
@click.argument("values", nargs=-1, required=True)
def parse_command(values: tuple[str, ...]) -> None:
    """Print the directory of each canonical HANDLE, one per line (the root is an empty line)."""
    from lw_narraeon.dirhandles import parse_dir_handle

    for value in values:
        click.echo(parse_dir_handle(value))
