"""The whole ``lw`` command tree, walked once per test session.

:func:`commands` boots one kernel on a throwaway data dir (never the developer's) and
resolves every subcommand the enabled plugins declare -- the kernel's built-ins and every
bundled plugin's -- down to the leaves, the way ``lw`` itself resolves them.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from dataclasses import dataclass
from functools import cache

import click


@dataclass(frozen=True)
class Entry:
    """One command: its words after ``lw`` (``("pack", "build")``), the click command, and
    its help as ``lw … --help`` prints it."""

    path: tuple[str, ...]
    command: click.Command
    help: str

    @property
    def name(self) -> str:
        return " ".join(("lw", *self.path))

    def option(self, flag: str) -> click.Option | None:
        return next((p for p in self.command.params if isinstance(p, click.Option) and flag in p.opts), None)


@cache
def commands() -> tuple[Entry, ...]:
    """Every command and group under ``lw`` (``lw`` itself first), depth first."""
    from lwcore.cli import lw
    from lwcore.cli.common import CliState

    home = tempfile.mkdtemp(prefix="lw-cli-tree-")
    atexit.register(shutil.rmtree, home, ignore_errors=True)
    root = click.Context(lw, info_name="lw", obj=CliState(home), terminal_width=100, max_content_width=100)
    found: list[Entry] = []

    def walk(command: click.Command, path: tuple[str, ...], ctx: click.Context) -> None:
        found.append(Entry(path, command, command.get_help(ctx)))
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                assert sub is not None, f"lw {' '.join(path)} lists {name!r} but cannot resolve it"
                walk(sub, (*path, name), click.Context(sub, info_name=name, parent=ctx))

    walk(lw, (), root)
    return tuple(found)


@cache
def declared_commands() -> frozenset[str]:
    """The top-level command names the enabled plugins' manifests declare."""
    from lwcore.kernel import Kernel

    home = tempfile.mkdtemp(prefix="lw-cli-tree-")
    atexit.register(shutil.rmtree, home, ignore_errors=True)
    kernel = Kernel(data_dir=home)
    return frozenset(name for record in kernel.plugins if record.usable and record.provides("cli")
                     for name in record.manifest.cli_commands)  # type: ignore[union-attr]
