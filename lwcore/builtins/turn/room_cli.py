"""``lw room``: the rooms of the data dir by name (:mod:`lwcore.rooms`) -- list, create, rename,
archive, restore -- and the keeper's message controls on a room (:mod:`lwcore.turn.controls`):

- ``lw room rewind ROOM --to N``: the room as it was just before turn ``N`` (every file);
- ``lw room edit ROOM [--turn N] TEXT``: the keeper's narration of a turn (default: the last)
  replaced, marked edited for everyone;
- ``lw room alternatives ROOM``: the last turn's replies kept by ``lw turn ROOM --regenerate``;
- ``lw room choose ROOM NUMBER``: make one of them the reply in the room.

Stopping a turn in flight is Ctrl-C in the terminal playing it (nothing of it is written), or the
keeper's Stop at the web table. Every command that takes ``ROOM`` takes a name or a path."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import click

from lwcore.cli.common import ROOM, echo_json, state
from lwcore.errors import LwError
from lwcore.turn import controls


@click.group("room")
def room() -> None:
    """The rooms kept in the data dir, by name.

    \b
    lw room list                                the rooms (--archived: the archived ones too)
    lw room create NAME --example fog-harbor    a copy of a bundled example room
    lw room create NAME --from FOLDER           a copy of a room folder
    lw room create NAME --system SYSTEM --player Ann --player Bo
                                                an empty room on a rule system
    lw room create NAME --system SYSTEM --card FILE
                                                ... with a world card imported by its keeper
    lw room create NAME --system SYSTEM --module ID
                                                ... playing an installed pack's module
    lw room rename OLD NEW | archive NAME | restore NAME
    lw room profile ROOM [PROFILE | --none]     the provider profile the room plays on
    lw room rewind ROOM --to N | edit ROOM [--turn N] TEXT | alternatives ROOM | choose ROOM N
                                                the keeper's message controls (regenerate:
                                                lw turn ROOM --regenerate)

    Then `lw turn NAME …`, `lw serve NAME` and every command taking ROOM find it by name.

    \b
    Examples:
      lw room create harbor --example fog-harbor
      lw room create blank --system SYSTEM --player Ann
      lw room list
      lw turn harbor --as p1 --say ".r 1d6"
      lw room rewind harbor --to 1
      lw room rename blank spare
      lw room archive spare
      lw room list --archived
      lw room restore spare
    """


@room.command("list")
@click.option("--archived", is_flag=True, help="List the archived rooms too.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def list_command(ctx: click.Context, archived: bool, as_json: bool) -> None:
    """The rooms of the data dir."""
    from lwcore.rooms import list_rooms, rooms_root

    data_dir = state(ctx).kernel.data_dir
    rooms = list_rooms(data_dir, archived=archived)
    if as_json:
        echo_json([entry.as_json() for entry in rooms])
        return
    if not rooms:
        click.echo(f"no rooms in {rooms_root(data_dir)} (lw room create NAME --example fog-harbor)")
        return
    width = max(len(entry.name) for entry in rooms)
    for entry in rooms:
        if entry.problem:
            click.echo(f"{entry.name:<{width}}  (cannot be read: {entry.problem})")
            continue
        mark = "  [archived]" if entry.archived else ""
        click.echo(f"{entry.name:<{width}}  {entry.system:<6}  {entry.players} player(s)  turn {entry.turns}"
                   f"  {entry.title}{mark}")


def _examples(example_source: Path) -> dict[str, Path]:
    root = example_source.parent
    return {p.name: p for p in sorted(root.iterdir()) if (p / "room.yaml").is_file()} if root.is_dir() else {}


def _other_example(example_source: Path, name: str, examples: dict[str, Path]) -> str:
    """What to give instead of ``--example NAME`` that names no example room: the room folder
    an example of that name ships (``examples/NAME/room/``, a pack's table) when there is one,
    else the example rooms and ``--from``."""
    listed = " | ".join(examples) or "(none installed)"
    inside = {p.name: p for p in example_source.parent.iterdir()} if example_source.parent.is_dir() else {}
    table = inside[name] / "room" if name in inside else None
    if table is not None and (table / "room.yaml").is_file():
        return f"--from {table} (the table example {name!r} ships), or --example {listed}"
    return f"--example {listed}, or a room folder of your own: --from FOLDER"


@room.command("create")
@click.argument("name")
@click.option("--example", default=None, help="Copy a bundled example room (fog-harbor).")
@click.option("--from", "source", default=None, type=click.Path(file_okay=False, path_type=Path),
              help="Copy this room folder.")
@click.option("--system", default=None, help="An empty room on this rule system (lw rulepack list).")
@click.option("--player", "players", multiple=True, help="A player of the empty room (repeat for each).")
@click.option("--title", default=None, help="The room's title.")
@click.option("--locale", default="en", show_default=True, help="The room's locale (an empty room).")
@click.option("--card", default=None, type=click.Path(dir_okay=False, path_type=Path),
              help="Import this world card (or world book) as the keeper, into the new room.")
@click.option("--module", "module", default=None, help="Start this installed module in the new room.")
@click.pass_context
def create_command(ctx: click.Context, name: str, example: str | None, source: Path | None, system: str | None,
                   players: tuple[str, ...], title: str | None, locale: str, card: Path | None,
                   module: str | None) -> None:
    """Create the room NAME in the data dir; nothing is written unless all of it worked."""
    from lwcore.builtins.turn.turn_command import example_source
    from lwcore.rooms import create_room
    from lwcore.turn.pipeline import run_turn
    from lwcore.turn.room import Room

    kernel = state(ctx).kernel
    chosen = [x for x in (example, source, system) if x]
    if len(chosen) != 1:
        raise LwError("a new room comes from one of --example, --from or --system")
    if example:
        examples = _examples(example_source())
        if example not in examples:
            raise LwError(f"no bundled example room {example!r}", expected=_other_example(example_source(), example, examples))
        source = examples[example]
    if system:
        from lwcore.rules import engine_for

        if engine_for(kernel).find(system) is None:
            raise LwError(f"rule system {system!r} is not installed", expected="lw rulepack list")
    replies: list[str] = []

    def prepare(folder: Path) -> None:
        if card is not None:
            if not card.is_file():
                raise LwError("no such file", file=card)
            (folder / "cards").mkdir(exist_ok=True)
            copy = folder / "cards" / card.name
            shutil.copyfile(card, copy)
            try:
                replies.append(_as_keeper(run_turn, Room.load(folder, kernel), f".import cards/{card.name} world"))
            except LwError as exc:
                if exc.file is not None and Path(exc.file) == copy:
                    exc.file = str(card)  # the operator's file, not the staging copy
                raise
        if module is not None:
            replies.append(_as_keeper(run_turn, Room.load(folder, kernel), f".module start {module}"))

    path = create_room(kernel.data_dir, name, source=source, system=system, title=title, locale=locale,
                       players=players, phase="prep" if module else None, prepare=prepare)
    click.echo(f"created room {name} ({path})")
    for reply in replies:
        click.echo(reply)
    click.echo(f"next: lw turn {name}")


def _as_keeper(run_turn: Any, room: Any, line: str) -> str:
    """Run the room command ``line`` as the room's keeper; its reply text."""
    result = run_turn(room.kernel, room.path, line, actor=room.file.keeper.id)
    if result.command is None:
        raise LwError(f"{line.split()[0]} is not a room command here (is the plugin that provides it enabled?)")
    return str(result.command.reply.text)


@room.command("rename")
@click.argument("old")
@click.argument("new")
@click.pass_context
def rename_command(ctx: click.Context, old: str, new: str) -> None:
    """Rename the room OLD to NEW (waits for a turn in progress to finish)."""
    from lwcore.rooms import rename_room

    path = rename_room(state(ctx).kernel.data_dir, old, new)
    click.echo(f"renamed {old} to {new} ({path})")


@room.command("archive")
@click.argument("name")
@click.pass_context
def archive_command(ctx: click.Context, name: str) -> None:
    """Put the room NAME away (kept whole; lw room restore NAME brings it back)."""
    from lwcore.rooms import archive_room

    archive_room(state(ctx).kernel.data_dir, name)
    click.echo(f"archived {name} (lw room restore {name} brings it back)")


@room.command("restore")
@click.argument("name")
@click.pass_context
def restore_command(ctx: click.Context, name: str) -> None:
    """Bring the archived room NAME back."""
    from lwcore.rooms import restore_room

    path = restore_room(state(ctx).kernel.data_dir, name)
    click.echo(f"restored {name} ({path})")


@room.command("profile")
@click.argument("folder", metavar="ROOM", type=ROOM)
@click.argument("name", required=False)
@click.option("--none", "clear", is_flag=True, help="The room names no profile any more.")
@click.pass_context
def profile_cmd(ctx: click.Context, folder: Path, name: str | None, clear: bool) -> None:
    """Show or set the provider profile ROOM plays on (its room.yaml's profile:): a profile of
    the data dir or a plugin's preset (lw provider list). lw turn ROOM --say and lw serve ROOM
    then play on it with no further options."""
    from lwcore import profiles
    from lwcore.turn.room import Room, room_lock

    kernel = state(ctx).kernel
    if name is not None and clear:
        raise LwError("name a profile or give --none, not both")
    if name is None and not clear:
        with room_lock(folder, shared=True):
            current = Room.load(folder, kernel).file.profile
        click.echo(current if current else "no profile: lw room profile ROOM NAME names one (lw provider list)")
        return
    if name is not None:
        # read for showing only: an unadopted preset may be named; a turn on it says how to adopt it
        profiles.load(kernel.data_dir, name, profiles.presets_of(kernel), to_send=False)
    with room_lock(folder):
        room = Room.load(folder, kernel)
        room.file.profile = name
        room.mark("room")
        room.save()
    click.echo(f"the room plays on profile {name}" if name else "the room names no profile")


@room.command("rewind")
@click.argument("folder", metavar="ROOM", type=ROOM)
@click.option("--to", "turn", required=True, type=int, help="Go back to just before this turn.")
@click.pass_context
def rewind_cmd(ctx: click.Context, folder: Path, turn: int) -> None:
    """Put ROOM back as it was just before turn N: every file, history and chronicle included."""
    now = controls.rewind(state(ctx).kernel, folder, turn)
    click.echo(f"rewound to before turn {turn}: the room is at turn {now}")


@room.command("edit")
@click.argument("folder", metavar="ROOM", type=ROOM)
@click.argument("text")
@click.option("--turn", type=int, default=None, help="The turn whose narration to replace (default: the last).")
@click.pass_context
def edit_cmd(ctx: click.Context, folder: Path, text: str, turn: int | None) -> None:
    """Replace the keeper's narration of a turn with TEXT (players see it marked edited)."""
    done = controls.edit(state(ctx).kernel, folder, turn, text)
    click.echo(f"turn {done}'s narration replaced (marked edited)")


@room.command("alternatives")
@click.argument("folder", metavar="ROOM", type=ROOM)
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
@click.argument("folder", metavar="ROOM", type=ROOM)
@click.argument("number", type=int)
@click.pass_context
def choose_cmd(ctx: click.Context, folder: Path, number: int) -> None:
    """Make the last turn's reply NUMBER (lw room alternatives) the one in the room."""
    controls.choose(state(ctx).kernel, folder, number)
    click.echo(f"reply {number} is the last turn's now")
