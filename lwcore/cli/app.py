"""The ``lw`` click group, which plugins extend through the ``lw_cli`` hook.

Importing this module imports click and nothing heavy; the kernel is booted only by the
commands that need it (``lwcore.cli.main`` imports it for every command but ``--version``). Errors a user can cause print one located line and exit 1; anything
unexpected prints one line (a traceback only with ``LW_DEBUG=1``) and exits 2.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from lwcore import __version__
from lwcore.cli.common import state
from lwcore.errors import LwError
from lwcore.i18n import kernel_text
from lwcore.io.terminal import guarded, json_safe, terminal_safe


class LwGroup(click.Group):
    """Every subcommand comes from a plugin's ``lw_cli`` hook -- the kernel's own built-in
    plugins (``plugins``, ``doctor``, ``roll`` …) exactly like any other.

    ``lw --help`` lists the names the enabled plugins' manifests declare (no plugin code is
    imported for that); a command is imported when it runs. A plugin whose ``lw_cli`` hook
    fails contributes nothing and never breaks ``lw --help`` or another command.
    """

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command with stdout and stderr guarded: nothing any command prints drives the
        operator's terminal (:mod:`lwcore.io.terminal`: content is printed, never obeyed)."""
        with guarded():
            return super().invoke(ctx)

    def _registry(self, ctx: click.Context, *, quiet: bool = True) -> Any:
        """The contributed commands; for ``--help`` (``quiet``) a kernel that cannot boot
        lists none, for running a command its error is the answer."""
        try:
            return state(ctx).kernel.cli_commands
        except Exception:  # noqa: BLE001 - a broken data dir must not break --help
            if not quiet:
                raise
            return {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        names = set(super().list_commands(ctx))
        try:
            records = [r for r in state(ctx).kernel.plugins if r.usable and r.provides("cli")]
        except Exception:  # noqa: BLE001
            return sorted(names)
        for record in records:
            if record.manifest is not None:  # a usable record always has its manifest
                names.update(record.manifest.cli_commands)
        if any(r.manifest is not None and not r.manifest.cli_commands for r in records):
            names.update(self._registry(ctx))
        return sorted(names)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """``lw --help``'s command list, taking a lazy command's help from its ``CommandRef``
        (so the help imports no command module)."""
        from lwcore.contributions import CommandRef

        registry = self._registry(ctx)
        rows = []
        for name in self.list_commands(ctx):
            entry = self.commands.get(name) or registry.get(name)
            if isinstance(entry, CommandRef):
                rows.append((name, entry.help))
            elif isinstance(entry, click.Command) and not entry.hidden:
                rows.append((name, entry.get_short_help_str(formatter.width - 6 - len(name))))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            return command
        contributed = state(ctx).kernel.cli_command(cmd_name)
        if contributed is None:
            return None
        from lwcore.contributions import CommandRef, resolve

        if isinstance(contributed, CommandRef):
            contributed = resolve(contributed.command)
        if not isinstance(contributed, click.Command):
            return None
        self.add_command(contributed, cmd_name)
        return contributed


@click.group(cls=LwGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="lw", message="%(prog)s %(version)s")
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=str),
    default=None,
    help="Data dir (default: $LW_HOME, then the platform user data dir).",
)
@click.pass_context
def lw(ctx: click.Context, data_dir: str | None) -> None:
    """Loreweaver: a plugin-host kernel for AI game masters and their neighbours."""
    state(ctx)  # the invocation's state (already made if resolving the subcommand needed it)


def wants_json(argv: list[str]) -> bool:
    """Whether the command line asks for JSON output (``--json`` before a ``--`` separator)."""
    return "--json" in (argv[: argv.index("--")] if "--" in argv else argv)


def fail(payload: dict[str, Any], text: str, code: int, *, as_json: bool) -> None:
    """Report a failure and exit: with ``--json``, ``{"error": {...}}`` on stdout (so a
    script reading stdout always gets JSON; ``location`` is always there, ``""`` when the
    error has none); otherwise one line on stderr."""
    if as_json:
        import json

        click.echo(json_safe(json.dumps({"error": {"message": "", "location": "", **payload}}, ensure_ascii=False)))
    else:
        click.echo(terminal_safe(text), err=True)
    sys.exit(code)


def usage_location(exc: click.ClickException) -> str:
    """Where a usage error is: the option or argument it is about (``--bonus``,
    ``PLUGIN_ID``), else the command line it was given to (``lw plugins list``)."""
    param = getattr(exc, "param", None)
    if isinstance(param, click.Option):
        return max(param.opts, key=lambda opt: (opt.startswith("--"), len(opt)))
    if isinstance(param, click.Parameter):
        return param.human_readable_name
    option = getattr(exc, "option_name", None)
    if option:
        return str(option)
    ctx = getattr(exc, "ctx", None)
    return ctx.command_path if ctx is not None else "lw"


def error_line(exc: LwError) -> str:
    """``error: file: message (expected …)`` in the language the message is written in
    (``exc.locale``; English when the raiser did not localize it), never two languages."""
    if not exc.locale:
        return f"error: {exc}"
    text = f"{exc.location}: {exc.message}" if exc.location else exc.message
    if exc.expected:
        text = kernel_text("cli.error_expected", exc.locale, text=text, expected=exc.expected)
    return kernel_text("cli.error", exc.locale, text=text)


def run(args: list[str]) -> None:
    """Run ``lw`` on ``args`` and turn every failure into an exit code.

    Exit codes: 0 done, 1 bad input or a refused action (a located message), 2 a usage
    error or an internal error (a bug: one line, a traceback only with ``LW_DEBUG=1``),
    130 interrupted. With ``--json``, errors are JSON on stdout too:
    ``{"error": {"message", "location", "code", …}}`` -- ``location`` is the file (and line,
    column) of an input error, the option or argument of a usage error (code ``usage``), ``""``
    when there is none.
    """
    with guarded():  # usage errors and failures too (click prints them after the group's run)
        _run(args)


def _run(args: list[str]) -> None:
    as_json = wants_json(args)
    try:
        result = lw.main(args=args, prog_name="lw", standalone_mode=False)
    except click.exceptions.Abort as exc:
        if isinstance(exc.__cause__, KeyboardInterrupt):  # click turns a Ctrl-C into an Abort
            fail({"message": "interrupted", "code": "interrupted"}, "Interrupted.", 130, as_json=as_json)
        fail({"message": "aborted", "code": "aborted"}, "Aborted.", 1, as_json=as_json)
    except click.ClickException as exc:
        if as_json:
            fail({"message": exc.format_message(), "location": usage_location(exc), "code": "usage"}, "",
                 exc.exit_code, as_json=True)
        exc.show()
        sys.exit(exc.exit_code)
    except LwError as exc:
        payload = exc.to_json() | {"location": exc.location}
        payload["code"] = exc.code or "invalid"
        fail(payload, error_line(exc), 1, as_json=as_json)
    except (KeyboardInterrupt, BrokenPipeError):
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001 - the last line of defence: no tracebacks
        if os.environ.get("LW_DEBUG"):
            raise
        fail(
            {"message": f"{type(exc).__name__}: {exc}", "code": "internal"},
            f"internal error: {type(exc).__name__}: {exc} (LW_DEBUG=1 shows the traceback)",
            2,
            as_json=as_json,
        )
    sys.exit(result if isinstance(result, int) else 0)
