"""``lw turn``: compile one keeper turn, optionally apply a reply, show the player view."""

from __future__ import annotations

import random
import shutil
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import click

from lwcore.builtins.turn.report import print_intro, print_turn
from lwcore.cli.common import ROOM, echo_json, state
from lwcore.errors import LwError
from lwcore.io.safe_json import read_json
from lwcore.live import CallOptions, TextDelta, calling
from lwcore.turn import connection as live_turn
from lwcore.turn import controls
from lwcore.turn.provider import protocol_of_reply, provider_for
from lwcore.turn.room import Room, room_lock, shown_to
from lwcore.turn.room_commands import is_command
from lwcore.turn.view import render_text, view_for
import lwcore

EXAMPLE_ROOM = "fog-harbor"
"""The bundled example room (``examples/<name>/`` in the source tree)."""


def example_source() -> Path:
    """The example room's folder: inside the package in a wheel install, else the checkout's."""
    package = Path(lwcore.__file__).resolve().parent
    shipped = package / "examples" / EXAMPLE_ROOM
    return shipped if shipped.is_dir() else package.parent / "examples" / EXAMPLE_ROOM


def example_room(data_dir: Path, *, fresh: bool) -> Path:
    """The working copy of the example room in the data dir (copied on first use or when
    ``fresh``), so a turn never writes into the source tree."""
    source = example_source()
    if not (source / "room.yaml").is_file():
        raise LwError("the bundled example room is not available in this installation", file=source)
    target = data_dir / "rooms" / EXAMPLE_ROOM
    if fresh and target.exists():
        shutil.rmtree(target)
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(source, target, ignore=shutil.ignore_patterns("replies", "README*"))
    return target


def _read_reply(path: str, kernel: Any, provider: str | None) -> tuple[Any, str]:
    """A recorded model reply and its protocol (``provider``, else the one installed adapter
    that recognizes its shape); refused, located to the file, when it is no reply at all."""
    reply = read_json(path)
    if not isinstance(reply, dict):
        raise LwError(f"a model reply is a JSON object, not {type(reply).__name__}", file=path, line=1)
    protocol = provider or protocol_of_reply(kernel, reply)
    if protocol is None:
        raise LwError("cannot tell which provider protocol the reply is in", file=path,
                      expected="--provider " + " | ".join(sorted(kernel.provider_adapters)))
    try:
        provider_for(kernel, protocol).parse(reply)
    except LwError as exc:
        raise LwError(exc.message, file=path, expected=exc.expected) from None
    return reply, protocol


@click.command(epilog="""\b
Examples (the bundled example room; examples/ is in the source checkout):
  lw turn
  lw turn --as p2 --view
  lw turn --say ".help"
  lw turn --say ".ra 侦查" --seed 3
  lw turn --say "我去码头查看那艘空船。"
  lw turn --say "我去码头查看那艘空船。" --json
  lw turn --fresh --say "我去码头查看那艘空船。" --reply examples/fog-harbor/replies/turn1.chat_completions.json --seed 5
  lw turn --fresh --say "I search the pier." --as p2 --reply examples/fog-harbor/replies/turn1.chat_completions.json --seed 5 --json
  lw turn --say "我去码头查看那艘空船。" --dry-run
  lw turn --say "我去码头查看那艘空船。" --endpoint http://localhost:8080/v1/chat/completions --model local   # online, no profile: the path says Chat Completions

\b
A room whose room.yaml names a provider profile (profile: NAME; lw provider add)
plays on it: lw turn ROOM --say TEXT (--profile NAME for another one). A live turn
(a profile or --endpoint) streams: narration is printed as it arrives when stdout is
a terminal (--stream / --no-stream decide; --json never streams).

\b
The keeper's message controls: lw turn ROOM --regenerate plays the last turn again
from the state before it (the earlier reply kept: lw room alternatives, lw room
choose); lw room edit, lw room rewind --to N; Ctrl-C stops a turn in flight.

\b
A turn writes to its room: play an explicit ROOM on a copy of examples/fog-harbor,
never on the checkout's own (the bundled room is a copy in the data dir; --fresh
starts it over).""")
@click.argument("room", required=False, type=ROOM)
@click.option("--say", "say", default=None, help="What the acting member says this turn.")
@click.option("--as", "actor", default=None, help="Member id or name acting (default: the first player).")
@click.option("--provider", "--protocol", "provider", default=None, help="Provider protocol (default: the profile's, the one an --endpoint path implies, the room's provider:, else the first installed adapter; lw plugins list --all shows them).")
@click.option("--profile", "profile_name", default=None, help="Play on this provider profile (default: the room's profile:; lw provider list).")
@click.option("--dry-run", is_flag=True, help="Compile the turn only, even when the room names a profile: nothing is sent or written.")
@click.option("--stream/--no-stream", "stream", default=None, help="Print narration as it arrives (default: when stdout is a terminal).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object: payload, tools, cache figures (and results).")
@click.option("--payload", is_flag=True, help="Also print the whole provider request (the report shows a summary).")
@click.option("--reply", "reply_file", default=None, type=click.Path(dir_okay=False, path_type=str),
              help="Apply a recorded model reply (JSON) to the room.")
@click.option("--fold-reply", "fold_reply_file", default=None, type=click.Path(dir_okay=False, path_type=str),
              help="A recorded model reply used when the chronicle folds this turn (an --endpoint folds by itself).")
@click.option("--endpoint", default=None, help="Send the payload to this HTTP endpoint and run the tool loop.")
@click.option("--key-env", default=None, help="Environment variable holding the endpoint's key (default: the adapter's).")
@click.option("--model", default=None, help="Model name to put in the request.")
@click.option("--max-steps", default=8, show_default=True, type=click.IntRange(1, 50), help="Tool-loop request limit.")
@click.option("--seed", default=None, type=int, help="Seed the engine's dice (reproducible turns).")
@click.option("--view", is_flag=True, help="Print what --as MEMBER sees (default: the first player; the keeper gets the keeper view, keeper-only values marked).")
@click.option("--fresh", is_flag=True, help="Start the bundled example room over (ignored for an explicit ROOM).")
@click.option("--regenerate", is_flag=True, help="Play the last turn again from the state before it (the same words, "
              "the same member), on the room's profile or --reply FILE; the earlier reply is kept (lw room alternatives).")
@click.pass_context
def turn(
    ctx: click.Context,
    room: str | None,
    say: str | None,
    actor: str | None,
    provider: str | None,
    as_json: bool,
    reply_file: str | None,
    endpoint: str | None,
    key_env: str | None,
    model: str | None,
    max_steps: int,
    seed: int | None,
    view: bool,
    fresh: bool,
    payload: bool,
    fold_reply_file: str | None,
    profile_name: str | None,
    dry_run: bool,
    stream: bool | None,
    regenerate: bool = False,
) -> None:
    """Play one keeper turn in ROOM (default: the bundled example room).

    \b
    lw turn [ROOM]                           what the first player sees (--as MEMBER: theirs)
    lw turn [ROOM] --say TEXT                compile the turn: a summary of the provider request
                                             (--payload: the whole request; --json: as JSON)
    lw turn [ROOM] --say TEXT --reply FILE   apply a recorded model reply (its protocol read from it)
    lw turn [ROOM] --say TEXT --endpoint URL send it and run the tool loop
    lw turn [ROOM] --say TEXT                with a profile (the room's profile:, or --profile):
                                             play on it (--dry-run: compile only)
    lw turn [ROOM] --say ".help"             a room command (.var, .recap, .ra …), no model involved
    """
    from lwcore.io.speech import check_said

    if say is not None:
        check_said(say)  # before anything is printed or read (the turn checks it again)
    if regenerate and (say is not None or dry_run):
        raise LwError("--regenerate plays the last turn's own words again: leave out --say and --dry-run")
    kernel = state(ctx).kernel
    path = Path(room) if room else example_room(kernel.data_dir, fresh=fresh)
    reply, protocol = _read_reply(reply_file, kernel, provider) if reply_file else (None, provider)
    fold_reply = _read_reply(fold_reply_file, kernel, protocol)[0] if fold_reply_file else None
    if reply_file and (endpoint or profile_name):
        raise LwError("give a recorded reply or a live model (--endpoint, --profile), not both")
    if dry_run and (reply_file or endpoint or profile_name):
        raise LwError("--dry-run sends and writes nothing: leave out --reply, --endpoint and --profile")
    live = not dry_run and reply_file is None and (bool(endpoint or profile_name) or live_turn.room_profile(path) is not None)
    named = live_turn.room_profile(path) if dry_run and protocol is None else None
    if named is not None:  # a dry run compiles what the room's profile would be sent: its protocol and model
        from lwcore import profiles

        try:
            chosen = profiles.load(kernel.data_dir, named, profiles.presets_of(kernel))
            protocol, model = chosen.protocol, model or chosen.model
        except LwError as exc:  # compiling needs no connection: say why, compile for the room's default
            click.echo(f"warning: the room's profile {named!r} cannot be used ({exc.message}); compiled for the "
                       "room's default protocol", err=True)
    # a view (nothing said) or a command's reply is the member's own: errors as they may read them
    for_member = say is None or is_command(say)
    if regenerate:
        if reply_file is None and not live:
            raise LwError("--regenerate needs a model: the room's profile, --profile, --endpoint or --reply FILE")
        _play(kernel, path, say="", actor=None, provider=protocol, as_json=as_json, reply=reply, endpoint=endpoint,
              key_env=key_env, model=model, max_steps=max_steps, seed=seed, view=view, payload=payload,
              fold_reply=fold_reply, live=live, profile_name=profile_name, stream=stream, regenerate=True)
        return
    with shown_to(path, actor) if for_member else nullcontext():
        if say is None:
            if reply_file is not None or endpoint:
                raise LwError("--reply and --endpoint need --say TEXT (what the player says)")
            with room_lock(path, shared=True):
                _show_view(view_for(Room.load(path, kernel), actor), as_json)
            return
        _play(kernel, path, say=say, actor=actor, provider=protocol, as_json=as_json, reply=reply, endpoint=endpoint,
              key_env=key_env, model=model, max_steps=max_steps, seed=seed, view=view, payload=payload,
              fold_reply=fold_reply, live=live, profile_name=profile_name, stream=stream)


def _show_view(pv: Any, as_json: bool) -> None:
    if as_json:
        echo_json({"player_view": pv.model_dump(mode="json")})
    else:
        click.echo(render_text(pv))


def _play(
    kernel: Any, path: Path, *, say: str, actor: str | None, provider: str | None, as_json: bool, reply: Any,
    endpoint: str | None, key_env: str | None, model: str | None, max_steps: int, seed: int | None, view: bool,
    payload: bool, fold_reply: Any = None, live: bool = False, profile_name: str | None = None,
    stream: bool | None = None, regenerate: bool = False,
) -> None:
    """One turn through the kernel's one entry point (it takes the room's lock and, for a live
    turn -- a profile, or ``--endpoint`` -- settles the connection on the room it loaded); the
    room is shown before the turn runs, the request and what happened after (read as a
    reader). A live turn streams narration when asked."""
    request = None
    if live and (regenerate or not is_command(say)):
        request = live_turn.LiveRequest(profile=profile_name, endpoint=endpoint, protocol=provider, model=model,
                                        key_env=key_env, warn=_warn)
    streaming = request is not None and not as_json and (stream if stream is not None else sys.stdout.isatty())

    def intro(room: Room, member: Any) -> None:
        if not as_json and not is_command(say):
            print_intro(room, member, say)

    def on_delta(delta: Any) -> None:
        if isinstance(delta, TextDelta):
            _echo_text(delta.text)

    def run(target: Any, said: str, who: str | None) -> Any:
        nonlocal say
        say = said
        return kernel.turn(
            target, said, provider=None if request else provider, actor=who, reply=reply, live=request,
            **({} if request or model is None else {"model": model}),
            max_steps=max_steps, rng=random.Random(seed) if seed is not None else None, fold_reply=fold_reply,
            on_start=intro,
        )

    call = calling(CallOptions(stream=True, on_delta=on_delta)) if streaming else nullcontext()
    with call:
        result = controls.regenerate(kernel, path, run) if regenerate else run(path, say, actor)
    connection = result.connection
    if streaming:
        click.echo("")
    if result.command is not None:
        if as_json:
            echo_json(result.command.to_json())
        else:
            click.echo(result.command.reply.text)
        return
    with room_lock(path, shared=True):  # the views read the room's history as committed
        if as_json:
            out: dict[str, Any] = result.compiled.to_json()
            if connection is not None:
                out["profile"] = connection.profile.name if connection.named else None
            if result.applied is not None:
                out["applied"] = result.applied.to_json()
            if view or result.applied:
                out["player_view"] = result.player_view().model_dump(mode="json")
            echo_json(out)
            return
        print_turn(result.compiled, result.applied, payload=payload)
    for fold in result.folds:
        click.echo(f"the chronicle folded {len(fold.folded)} entries into the story so far "
                   f"(through turn {fold.summary.data['through_turn']})")


def _warn(text: str) -> None:
    click.echo(f"warning: {text}", err=True)


def _echo_text(text: str) -> None:
    click.echo(text, nl=False)
    sys.stdout.flush()
