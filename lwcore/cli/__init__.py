"""The ``lw`` command line: a click group that plugins extend through the ``lw_cli`` hook.

Importing this module imports click and nothing heavy; the kernel is booted only by the
commands that need it. Errors a user can cause print one located line and exit 1; anything
unexpected prints one line (a traceback only with ``LW_DEBUG=1``) and exits 2.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from lwcore import __version__
from lwcore.cli.common import CliState, state


class LwGroup(click.Group):
    """Built-in commands first; then commands contributed by enabled ``cli`` plugins.

    Plugin command names come from manifests (no import) where declared; a plugin whose
    ``lw_cli`` hook fails contributes nothing and never breaks ``lw --help``.
    """

    def _plugin_commands(self, ctx: click.Context) -> dict[str, Any]:
        try:
            registry = state(ctx).kernel.cli_commands
        except Exception:  # noqa: BLE001 - a broken data dir must not break --help
            return {}
        taken = set(self.commands) | set(BUILTIN_COMMANDS)
        return {name: cmd for name, cmd in registry.items() if name not in taken}

    def list_commands(self, ctx: click.Context) -> list[str]:
        names = set(super().list_commands(ctx)) | set(BUILTIN_COMMANDS)
        try:
            kernel = state(ctx).kernel
            declared = [
                c
                for r in kernel.plugins
                if r.usable and r.provides("cli")
                for c in r.manifest.commands  # type: ignore[union-attr]
            ]
            undeclared = any(
                r.usable and r.provides("cli") and not r.manifest.commands  # type: ignore[union-attr]
                for r in kernel.plugins
            )
        except Exception:  # noqa: BLE001
            return sorted(names)
        names.update(declared)
        if undeclared:
            names.update(self._plugin_commands(ctx))
        return sorted(names)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in BUILTIN_COMMANDS and cmd_name not in self.commands:
            from lwcore.contributions import resolve

            self.add_command(resolve(BUILTIN_COMMANDS[cmd_name]), cmd_name)
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            return command
        return self._plugin_commands(ctx).get(cmd_name)


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
    ctx.obj = CliState(data_dir)


BUILTIN_COMMANDS: dict[str, str] = {
    "plugins": "lwcore.cli.plugins_cmd:plugins",
    "doctor": "lwcore.cli.doctor:doctor",
    "schema": "lwcore.cli.schema:schema",
    "roll": "lwcore.cli.rules_cmd:roll",
    "check": "lwcore.cli.rules_cmd:check",
    "rulepack": "lwcore.cli.rules_cmd:rulepack",
    "turn": "lwcore.cli.turn_cmd:turn",
    "cmd": "lwcore.cli.cmd_cmd:cmd",
}
"""Built-in command name -> ``"module:attribute"``, imported only when the command runs (or
for ``--help``), so ``lw --version`` imports click and nothing else."""


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: run ``lw`` and turn every failure into an exit code."""
    from lwcore.errors import LwError

    try:
        result = lw.main(args=argv, prog_name="lw", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(1)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except LwError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    except (KeyboardInterrupt, BrokenPipeError):
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001 - the last line of defence: no tracebacks
        if os.environ.get("LW_DEBUG"):
            raise
        click.echo(f"internal error: {type(exc).__name__}: {exc} (LW_DEBUG=1 shows the traceback)", err=True)
        sys.exit(2)
    sys.exit(result if isinstance(result, int) else 0)
