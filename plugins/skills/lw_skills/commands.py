"""``.skill`` in a room: ``.skill`` / ``.skill list`` and ``.skill show ID`` for anyone,
``.skill enable ID`` / ``.skill disable ID`` for the keeper (the kernel checks who, through the
command's ``who_by_word``; the room is saved under its lock by the kernel)."""

from __future__ import annotations

from lwcore.api import CommandContext, CommandReply, LwError
from lw_skills.catalog import catalog_for
from lw_skills.listing import list_text, show_text
from lw_skills.messages import MESSAGES
from lw_skills.rooms import disable, enable

USAGE = "list | show ID | enable ID | disable ID"


def skill_command(ctx: CommandContext) -> CommandReply | str:
    words = ctx.args.split()
    action = words[0].lower() if words else "list"
    catalog = catalog_for(ctx.kernel)
    if action == "list" and len(words) <= 1:
        return list_text(catalog, ctx.locale, ctx.room, problems=ctx.keeper)
    if action not in ("show", "enable", "disable") or len(words) != 2:
        raise LwError(f"usage: .skill {USAGE}", code="usage")
    skill_id = words[1]
    if action == "show":
        return show_text(catalog.require(skill_id), catalog, ctx.locale, full=ctx.keeper)
    if action == "enable":
        skill = catalog.require(skill_id)
        done = enable(ctx.room, catalog, skill_id)
        return CommandReply(done.message(skill, ctx.locale), audience="keeper")
    disable(ctx.room, skill_id)
    return CommandReply(MESSAGES.text("skill.disabled", ctx.locale, id=skill_id), audience="keeper")
