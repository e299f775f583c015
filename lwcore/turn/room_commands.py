"""Commands typed in a room (``.var list``, ``.pc claim 2``, ``.ra 侦查``): one mechanism.

A line that starts with ``.`` (or the full-width ``。``) is a room command, not something the
keeper's model sees. :func:`run_room_command`:

1. parses the command word and its arguments;
2. finds the command: a registered :class:`RoomCommand` by word, else the registered
   ``fallback`` commands in priority order (a rule system's dot commands: the first that
   does not decline with ``None`` answers);
3. **checks who may run it** (``keeper`` | ``player`` | ``anyone``; a command may give the
   first word of its arguments its own runner, ``who_by_word``: ``.skill`` lists for anyone,
   ``.skill enable`` is the keeper's) -- the kernel does this, never the plugin;
4. calls the handler with a :class:`CommandContext`; saves the room parts it marked changed
   (one transaction, under the room lock the caller holds); records a reply meant for the
   table (``audience`` ``all`` or ``keeper``) in the history.

The model has no way in: the turn pipeline never dispatches a model's tool call here.
"""

from __future__ import annotations

import os
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lwcore.contributions import CommandReply, RoomCommand, resolve
from lwcore.errors import SECRET_REFUSAL, LwError, LwErrors
from lwcore.plugins import describe_exception
from lwcore.sandbox.budget import ensure as ensure_budget
from lwcore.turn.context import turn_context
from lwcore.turn.events import CommandRan, Event, TreeChanged, VariableChanged
from lwcore.turn.hook_runtime import TurnHooks
from lwcore.turn.projections import recorded_audience
from lwcore.turn.room import HistoryEntry, Member, Room
from lwcore.turn.tools import ToolContext

if TYPE_CHECKING:
    from lwcore.kernel import Kernel

_COMMAND = re.compile(r"^\s*[.。]\s*([A-Za-z][A-Za-z0-9_-]*)?(.*)$", re.S)


def parse(text: str) -> tuple[str, str] | None:
    """``(word, args)`` of a command line, ``None`` when ``text`` is not one (``word`` is
    lower-cased; it may be empty for a bare ``.`` or a line like ``.3d6``)."""
    match = _COMMAND.match(text)
    if match is None:
        return None
    return (match.group(1) or "").lower(), match.group(2).strip()


def is_command(text: str) -> bool:
    return parse(text) is not None


@dataclass
class CommandContext(ToolContext):
    """What a room command's handler gets: the tool context (room, acting member, whether
    that is the keeper, locale, the turn's random source) plus the typed ``word``, the
    ``args`` after it and the whole ``line``."""

    word: str = ""
    args: str = ""
    line: str = ""
    rolled: list[dict[str, Any]] = field(default_factory=list)
    """What the command rolled, one ``dice_rolled`` payload per roll (``{"kind": "check", …}``
    as a check tool's event, ``{"kind": "roll", "expr", "total", …}``): each fires once in the
    room's hooks after the command (:func:`_fire_rolls`)."""


@dataclass
class CommandRun:
    """The outcome of one room command: which command (``name``, from ``plugin_id``), the
    reply, and the files written."""

    name: str
    plugin_id: str
    reply: CommandReply
    written: list[Any] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "command": self.name,
            "plugin": self.plugin_id,
            "text": self.reply.text,
            "audience": recorded_audience(self.reply) or "actor",
            "data": dict(self.reply.data) if self.reply.data else None,
        }


def may_run(command: RoomCommand, room: Room, member: Member, args: str = "") -> bool:
    """Whether ``member`` may run ``command`` with ``args`` in ``room``."""
    who = command.who_for(args)
    return who == "anyone" or (who == "keeper") == room.is_keeper(member)


def commands_for(kernel: Kernel, room: Room, member: Member) -> list[RoomCommand]:
    """The named commands ``member`` may run here (what ``.help`` lists)."""
    return [c for c in kernel.room_commands.values() if may_run(c, room, member)]


def run_room_command(
    kernel: Kernel, room: Room, member: Member, text: str, *, rng: random.Random | None = None
) -> CommandRun:
    """Run the command line ``text`` typed by ``member`` (see the module docstring).

    :class:`LwError` when the line names no command, when the member may not run it, or
    when the command refuses its arguments; nothing is written then. A member who is not
    the keeper reads every such error as :func:`for_player` gives it: never a path of the
    server, never what only the keeper may see.
    """
    try:
        return _run(kernel, room, member, text, rng)
    except LwError as exc:
        if room.is_keeper(member):
            raise
        raise for_player(exc, {room.path: "", kernel.data_dir: "<data dir>"}) from None


def for_player(error: LwError, places: dict[Path, str]) -> LwError:
    """``error`` as a player may read it. One that may quote keeper-only data (``secret``) is
    :data:`~lwcore.errors.SECRET_REFUSAL` at its file (as the room names it); any other keeps its words, with every absolute path
    inside one of ``places`` (the room folder, the data dir) written from there (``room.yaml``,
    ``<data dir>/presets/x.json``) and any other absolute file left out."""
    if getattr(error, "secret", False):
        error = LwError(SECRET_REFUSAL, file=error.file, code="secret")
    roots = sorted({(str(p), shown) for root, shown in places.items()
                    for p in {Path(root).absolute(), Path(root).resolve()} if str(p) != os.sep},
                   key=lambda pair: -len(pair[0]))

    def scrub(text: str | None) -> str | None:
        if not text:
            return text
        for root, shown in roots:
            text = text.replace(root + os.sep, f"{shown}/" if shown else "")
            text = re.sub(re.escape(root) + r"(?![\w.-])", shown or ".", text)
        return text

    def one(e: LwError) -> LwError:
        file = scrub(e.file)
        if file is not None and Path(file).is_absolute():  # somewhere else on the server: not said
            return LwError(scrub(e.message) or "", expected=scrub(e.expected), code=e.code)
        return LwError(scrub(e.message) or "", file=file, line=e.line, column=e.column, expected=scrub(e.expected),
                       byte=e.byte, code=e.code)

    if isinstance(error, LwErrors):
        return LwErrors([one(e) for e in error.errors])
    return one(error)


def _run(kernel: Kernel, room: Room, member: Member, text: str, rng: random.Random | None) -> CommandRun:
    parsed = parse(text)
    if parsed is None:
        raise LwError("not a room command (a command line starts with '.')")
    word, args = parsed
    registry = kernel.room_commands
    locale = room.locale_of(member)
    ctx = CommandContext(
        kernel=kernel, room=room, actor=member, keeper=room.is_keeper(member), locale=locale,
        rng=rng if rng is not None else random.Random(), word=word, args=args, line=text.strip(),
    )
    candidates: list[RoomCommand] = []
    named = registry.get(word) if word else None
    if named is not None and not named.fallback:
        candidates = [named]
    else:
        candidates = [c for c in registry.values() if c.fallback]
    for command in candidates:
        if not may_run(command, room, member, args):
            if len(candidates) == 1:
                words = args.split(maxsplit=1)
                shown = f".{command.name} {words[0].lower()}" if words and words[0].lower() in command.who_by_word \
                    else f".{command.name}"
                raise LwError(f"{shown} is for the {_who(command.who_for(args))} only", code="forbidden")
            continue
        reply = _call(kernel, command, ctx)
        if reply is None:
            continue
        return _finish(kernel, room, member, command, reply, ctx)
    known = ", ".join(f".{c.name}" for c in commands_for(kernel, room, member) if not c.fallback)
    raise LwError(f"unknown room command .{word}" if word else "unknown room command",
                  expected=f"one of: {known or '(none installed)'} (.help lists them)", code="unknown")


def _who(who: str) -> str:
    return {"keeper": "keeper", "player": "players"}.get(who, "members")


def _call(kernel: Kernel, command: RoomCommand, ctx: CommandContext) -> CommandReply | None:
    plugin_id = kernel.room_commands.origin(command.name)
    try:
        result = resolve(command.handler)(ctx)
    except LwError:
        raise
    except Exception as exc:  # noqa: BLE001 - a plugin's bug must not break the room
        message = f"room command .{command.name} failed: {describe_exception(exc)}"
        kernel.plugin_failed(plugin_id, message)
        raise LwError(f".{command.name} failed (see lw plugins info {plugin_id})", code="plugin") from None
    if result is None or isinstance(result, CommandReply):
        return result
    if isinstance(result, str):
        return CommandReply(result)
    kernel.plugin_failed(plugin_id, f"room command .{command.name} returned {type(result).__name__}")
    raise LwError(f".{command.name} failed (see lw plugins info {plugin_id})", code="plugin")


def _finish(
    kernel: Kernel, room: Room, member: Member, command: RoomCommand, reply: CommandReply, ctx: CommandContext
) -> CommandRun:
    audience = recorded_audience(reply)
    if ctx.rolled:
        ctx.events.extend(_fire_rolls(kernel, room, member, ctx))
    if audience is not None or ctx.events:
        turn = room.turn_number + (0 if audience is None else 1)
        if audience is not None:
            ran = CommandRan(command=command.name, line=ctx.line, result=dict(reply.data) if reply.data else None,
                             audience=audience, summary=reply.text, said=dict(reply.said) if reply.said else None)
            room.record(HistoryEntry.of_event(ran, turn=turn, actor=member.id))
        for event in ctx.events:
            room.record(HistoryEntry.of_event(event, turn=turn))
    written = room.save()
    return CommandRun(command.name, kernel.room_commands.origin(command.name), reply, written)


def _fire_rolls(kernel: Kernel, room: Room, member: Member, ctx: CommandContext) -> list[Event]:
    """Fire ``dice_rolled`` once per roll of ``ctx.rolled`` in the room's hooks (C.1, as a turn
    fires them for its checks), then ``variables_changed`` when a hook changed any; their
    writes are applied (saved with the command). Returns the events to record: the hooks'
    keeper-only logs and variable changes, and what they ``narrate`` (for the table)."""
    with ensure_budget():
        hooks = TurnHooks.start(kernel, room, turn_context(room, member, ctx.line, rng=ctx.rng), ctx.rng)
        try:
            for payload in ctx.rolled:
                hooks.fire("dice_rolled", payload)
            changed = [e.id if isinstance(e, VariableChanged) else e.path
                       for e in hooks.events if isinstance(e, (VariableChanged, TreeChanged))]
            if changed:
                hooks.fire("variables_changed", {"changed": changed})
        finally:
            hooks.close()
    return [*hooks.events, *(Event(kind="hook_narration", audience="all", summary=text) for text in hooks.narrated)]
