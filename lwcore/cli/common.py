"""Shared pieces of the ``lw`` commands: the per-invocation state and JSON output."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from lwcore.datadir import resolve_data_dir
from lwcore.errors import LwError
from lwcore.io.terminal import json_safe

if TYPE_CHECKING:
    from lwcore.kernel import Kernel


class CliState:
    """Per-invocation state: the data dir option and a lazily booted kernel."""

    def __init__(self, data_dir: str | None) -> None:
        self.data_dir = data_dir
        self._kernel: Kernel | None = None

    @property
    def kernel(self) -> Kernel:
        if self._kernel is None:
            from lwcore.kernel import Kernel

            self._kernel = Kernel(data_dir=self.data_dir)
        return self._kernel

    def reboot(self) -> Kernel:
        self._kernel = None
        return self.kernel


def state(ctx: click.Context) -> CliState:
    """The invocation's :class:`CliState`: one per ``lw`` run, made from the root's parsed
    ``--data-dir`` the first time anything asks (resolving a subcommand asks before the group's
    own callback runs), so the kernel is booted once, for the right data dir."""
    root = ctx.find_root()
    if not isinstance(root.obj, CliState):
        root.obj = CliState(root.params.get("data_dir"))
    return root.obj


def echo_json(value: Any) -> None:
    """Print ``value`` as indented UTF-8 JSON (control and bidi characters escaped as ``\\uXXXX``:
    :func:`lwcore.io.terminal.json_safe`, the same data)."""
    import json

    click.echo(json_safe(json.dumps(value, ensure_ascii=False, indent=2, default=str)))


YES = frozenset({"y", "yes"})


def confirm(question: str, *, yes: bool, pipe: bool = True) -> None:
    """Ask ``question`` and go on only on a yes; :class:`LwError` otherwise (nothing done).

    ``--yes`` (``yes=True``) answers for the operator. The answer is one line read from
    standard input: typed at a terminal, or piped (``echo y | lw …``) when ``pipe`` allows it.
    With no line to read (stdin closed or empty) the refusal says how to confirm.
    """
    import sys

    if yes:
        return
    stdin = sys.stdin
    if stdin is None or (not pipe and not stdin.isatty()):
        raise LwError("refusing without a confirmation: not a terminal", expected="--yes")
    click.echo(f"{question} [y/N] ", nl=False)
    line = stdin.readline()
    if not line:
        click.echo("")
        raise LwError("refusing without a confirmation: nothing to read on stdin",
                      expected="--yes, or a 'y' piped in (echo y | …)")
    if not stdin.isatty():
        click.echo(line.rstrip("\n"))  # show what the pipe answered
    if line.strip().lower() not in YES:
        raise LwError(f"not confirmed (answered {line.strip()[:20]!r}); nothing was changed")


class RoomParam(click.ParamType):
    """A ``ROOM`` argument: a room folder's path, or the name of a room of the data dir
    (:func:`lwcore.rooms.resolve_room`), converted to the folder's :class:`~pathlib.Path`."""

    name = "room"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from lwcore.rooms import resolve_room

        if isinstance(value, Path):
            return value
        explicit = state(ctx).data_dir if ctx is not None else None
        return resolve_room(str(value), resolve_data_dir(explicit, os.environ))


ROOM = RoomParam()
"""The click type of every command's ``ROOM`` argument."""
