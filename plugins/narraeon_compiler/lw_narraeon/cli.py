"""``lw prompt``: batch compilation and directory handles. Imports only click at top level."""

from __future__ import annotations

import sys

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
    help="JSON lines of requests ('-' reads stdin); one JSON line out per request.",
)
def compile_command(batch: str) -> None:
    """Compile each request line; print one response line each (in order).

    A line that is not JSON, or a request that fails, gives {"error": {"code", "message"}}
    on its line; the other lines are unaffected. Blank lines are skipped. Each response is
    flushed at once, so a host can keep one process and exchange lines with it.
    """
    import json

    from lwcore.errors import LwError
    from lw_narraeon.canonical import js_json
    from lw_narraeon.compiler import compile_request

    if batch == "-":
        stream = sys.stdin.buffer
        close = False
    else:
        try:
            stream = open(batch, "rb")  # noqa: SIM115
        except OSError as exc:
            raise LwError(f"cannot read batch file: {exc.strerror or exc}", file=batch) from None
        close = True
    out = sys.stdout.buffer
    try:
        for number, raw in enumerate(stream, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                response = {"error": {"code": "invalid_request", "message": f"line {number}: not UTF-8 (byte {exc.start})"}}
            else:
                if not line.strip():
                    continue
                try:
                    request = json.loads(line)
                except ValueError as exc:
                    response = {"error": {"code": "invalid_request", "message": f"line {number}: invalid JSON: {exc}"}}
                else:
                    response = compile_request(request)
            out.write(js_json(response).encode("utf-8"))
            out.write(b"\n")
            out.flush()  # hosts may talk to a long-running process line by line
    finally:
        if close:
            stream.close()


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
