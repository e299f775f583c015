"""``.pack install <ref>``: the keeper installs a pack from the table (see :mod:`lwcore.pack.room`)."""

from __future__ import annotations

from lwcore.contributions import CommandReply
from lwcore.errors import LwError
from lwcore.turn.room_commands import CommandContext

USAGE = ".pack install <https://… | gh:owner/repo[@tag] | a path on the server>"


def pack_command(ctx: CommandContext) -> CommandReply:
    """Keeper-only (the kernel enforces it): install, switch on in this room, answer with the
    trust card, one risk line and what each kind switched on. The reply is keeper-only."""
    from lwcore.pack.room import install_in_room

    word, _, ref = ctx.args.partition(" ")
    if word.lower() != "install" or not ref.strip():
        raise LwError(f"usage: {USAGE}")
    lines = install_in_room(ctx.kernel, ctx.room, ctx.actor, ref.strip(), locale=ctx.locale)
    return CommandReply("\n".join(lines), audience="keeper")
