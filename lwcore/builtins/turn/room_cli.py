"""``lw room …``: the keeper's message controls on a room folder (:mod:`lwcore.turn.controls`).

- ``lw room rewind ROOM --to N``: the room as it was just before turn ``N`` (every file);
- ``lw room edit ROOM [--turn N] TEXT``: the keeper's narration of a turn (default: the last)
  replaced, marked edited for everyone;
- ``lw room alternatives ROOM``: the last turn's replies kept by ``lw turn ROOM --regenerate``;
- ``lw room choose ROOM NUMBER``: make one of them the reply in the room.

Stopping a turn in flight is Ctrl-C in the terminal playing it (nothing of it is written),
or the keeper's Stop at the web table.
"""

from __future__ import annotations

from pathlib import Path

import click

from lwcore.cli.common import echo_json, state
from lwcore.turn import controls


@click.group("room")
def room() -> None:
    """The keeper's message controls on a room: rewind, edit, alternatives, choose
    (regenerate is lw turn ROOM --regenerate)."""


@room.command("rewind")
@click.argument("folder", metavar="ROOM", type=click.Path(path_type=Path))
@click.option("--to", "turn", required=True, type=int, help="Go back to just before this turn.")
@click.pass_context
def rewind_cmd(ctx: click.Context, folder: Path, turn: int) -> None:
    """Put ROOM back as it was just before turn N: every file, history and chronicle included."""
    now = controls.rewind(state(ctx).kernel, folder, turn)
    click.echo(f"rewound to before turn {turn}: the room is at turn {now}")


@room.command("edit")
@click.argument("folder", metavar="ROOM", type=click.Path(path_type=Path))
@click.argument("text")
@click.option("--turn", type=int, default=None, help="The turn whose narration to replace (default: the last).")
@click.pass_context
def edit_cmd(ctx: click.Context, folder: Path, text: str, turn: int | None) -> None:
    """Replace the keeper's narration of a turn with TEXT (players see it marked edited)."""
    done = controls.edit(state(ctx).kernel, folder, turn, text)
    click.echo(f"turn {done}'s narration replaced (marked edited)")


@room.command("alternatives")
@click.argument("folder", metavar="ROOM", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def alternatives_cmd(ctx: click.Context, folder: Path, as_json: bool) -> None:
    """List the last turn's replies kept by lw turn ROOM --regenerate (* the one in the room)."""
    shown = controls.alternatives(state(ctx).kernel, folder)
    if as_json:
        echo_json([{"number": n, "narration": text, "chosen": chosen} for n, text, chosen in shown])
        return
    if not shown:
        click.echo("the last turn has no other reply (lw turn ROOM --regenerate plays it again)")
    for number, text, chosen in shown:
        click.echo(f"{'*' if chosen else ' '} {number}: {text}")


@room.command("choose")
@click.argument("folder", metavar="ROOM", type=click.Path(path_type=Path))
@click.argument("number", type=int)
@click.pass_context
def choose_cmd(ctx: click.Context, folder: Path, number: int) -> None:
    """Make the last turn's reply NUMBER (lw room alternatives) the one in the room."""
    controls.choose(state(ctx).kernel, folder, number)
    click.echo(f"reply {number} is the last turn's now")
