"""The built-in ``turn`` plugin's room commands: ``.help``, ``.phase``, and the room's rule
system's dot commands (``.ra 侦查``, ``.sc 1/1d6`` …) answered against the typer's own sheet.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from lwcore.contributions import CommandReply
from lwcore.errors import LwError

if TYPE_CHECKING:
    from lwcore.turn.room_commands import CommandContext

_TARGET = re.compile(r"\s+@(\S+)\s*$")
PHASE = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")


def help_command(ctx: CommandContext) -> CommandReply:
    """``.help``: the commands this member may run here."""
    from lwcore.turn.room_commands import commands_for

    zh = ctx.locale.startswith("zh")
    lines = ["可用的房间命令：" if zh else "Room commands you can run here:"]
    for command in sorted(commands_for(ctx.kernel, ctx.room, ctx.actor), key=lambda c: c.name):
        if command.fallback:
            continue
        usage = f" {command.usage}" if command.usage else ""
        lines.append(f"  .{command.name}{usage} — {command.describe(ctx.locale)}")
    words = sorted(ctx.room.pack.model.commands or {})
    if words:
        lines.append(("规则系统的点命令：" if zh else "Rule-system dot commands: ") + " ".join(f".{w}" for w in words))
    return CommandReply("\n".join(lines))


def phase_command(ctx: CommandContext) -> CommandReply:
    """``.phase`` shows the room's phase; ``.phase NAME`` sets it (``prep``, ``play`` …);
    ``.phase none`` clears it. Phase tools follow the phase."""
    zh = ctx.locale.startswith("zh")
    if not ctx.args:
        current = ctx.room.file.phase or ("（无）" if zh else "(none)")
        return CommandReply(f"阶段：{current}" if zh else f"phase: {current}")
    name = ctx.args.split()[0].lower()
    if name == "none":
        ctx.room.file.phase = None
    elif PHASE.match(name):
        ctx.room.file.phase = name
    else:
        raise LwError(f"{ctx.args!r} is not a phase name", expected="a word like prep or play, or none")
    ctx.room.mark("room")
    shown = ctx.room.file.phase or ("（无）" if zh else "(none)")
    return CommandReply(f"阶段已设为：{shown}" if zh else f"phase set to: {shown}", audience="all")


def dice_command(ctx: CommandContext) -> CommandReply | None:
    """The room's rule-system dot commands, against the typer's own sheet (the keeper may
    name a member's sheet with a trailing ``@name``). Declines words the pack does not know."""
    from lwcore.rules import engine_for
    from lwcore.rules.commands import CommandError, find_command

    line = ctx.line
    target = _TARGET.search(line)
    member = ctx.actor
    if target is not None:
        if not ctx.keeper:
            raise LwError("only the keeper rolls for another member (@name)", code="forbidden")
        member = ctx.room.member(target.group(1))
        line = line[: target.start()]
    pack = ctx.room.pack
    text = "." + line.lstrip()[1:].lstrip()
    try:
        find_command(pack, text)
    except CommandError:
        return None
    sheet = ctx.room.sheets.get(member.id)
    result = engine_for(ctx.kernel).command(pack.id, text, sheet=sheet, rng=ctx.rng, locale=ctx.locale)
    if result.sheet_changed and sheet is not None:
        ctx.room.mark(f"sheet:{member.id}")
    who = (sheet.name if sheet is not None else None) or member.name or member.id
    return CommandReply(f"{who}: {result.text}", audience="all", data=result.to_json())
