"""``lw prompt``: batch compilation and directory handles. Imports only click at top level."""

from __future__ import annotations

import click

from lwcore.api import batch_option


@click.group("prompt")
def prompt() -> None:
    """Compile prompts (narraeon format) and work with directory handles."""


@prompt.command("compile", epilog="""\b
Examples:
  echo '{"provider": "chat_completions", "messages": [{"role": "player_input", "markdown": "hi"}]}' | lw prompt compile --batch -
  lw schema narraeon-compile-request""")
@batch_option(required=True)
def compile_command(batch: str) -> None:
    """Compile each request line; print one response line each, in order (canonical JSON).

    Every line gets one answer, exactly as in ``lw check --batch``: a compilation, or
    {"error": {"message", "line", "column", "byte", "file", "expected", "code"}} for a line
    that is blank, not UTF-8, not JSON, too large or deep, or a request that fails (code:
    invalid_request, unsupported_provider, prompt_role_order_unsupported …); the other lines
    are unaffected. Responses are flushed whenever the input is waited for, so a host can
    keep one process and exchange lines with it. The exit status is 1 when any line failed.
    """
    from lwcore.api import exit_batch
    from lw_narraeon.canonical import js_json
    from lw_narraeon.compiler import REQUEST_LIMITS, compile_one

    exit_batch(batch, lambda _number, request: (compile_one(request).to_json(), False), encode=js_json,
               limits=REQUEST_LIMITS)


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
