"""``.panels``: which packs dress this table, and the keeper's switch.

- ``.panels`` / ``.panels list`` (anyone): the installed packs with panels or a presentation
  kit, whether each is on here, and the panels *you* receive (a player never learns of a
  keeper panel from it);
- ``.panels enable <packId>`` (keeper): switch a pack's panels and kit on -- installed is not
  enabled. The pack is checked first, against this room: any panel that players receive and
  that names a keeper-only variable, or says one's value, refuses the whole pack, each
  problem at its file and line;
- ``.panels disable <packId>`` (keeper).

``.panels`` itself is open to every member (the list is); the two switches check for the
keeper here, since one command word carries both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lw_panels import leaks
from lw_panels.load import cached_pack
from lw_panels.manifest import manifest, room_packs, withheld
from lw_panels.messages import MESSAGES
from lw_panels.packs import find_home, pack_homes
from lw_panels.projection import audience_of, enabled_packs, set_enabled
from lw_panels.variables import keeper_only
from lwcore.api import CommandReply, LwError, LwErrors, localized, viewer_of

if TYPE_CHECKING:
    from lwcore.api import CommandContext

USAGE = "list | enable PACK | disable PACK"


def panels_command(ctx: CommandContext) -> CommandReply:
    words = ctx.args.split()
    verb = words[0].lower() if words else "list"
    if verb == "list" and len(words) <= 1:
        return _list(ctx)
    if verb in ("enable", "disable"):
        if not ctx.keeper:
            raise LwError(f".panels {verb} is for the keeper only", code="forbidden")
        if len(words) != 2:
            raise LwError(f".panels {verb} takes one pack id", expected=f".panels {verb} PACK")
        return _enable(ctx, words[1]) if verb == "enable" else _disable(ctx, words[1])
    raise LwError(f".panels {ctx.args}: unknown", expected=f".panels {USAGE}")


def _enable(ctx: CommandContext, pack_id: str) -> CommandReply:
    t = MESSAGES.bind(ctx.locale)
    home = find_home(ctx.kernel, pack_id)
    pack = cached_pack(ctx.kernel, home)
    if not pack.panels and pack.kit is None:
        raise LwError(f"pack {home.label} has no panels and no presentation kit")
    problems = leaks.problems(pack.panels, keeper_only(ctx.room))
    if problems:
        raise problems[0] if len(problems) == 1 else LwErrors(problems)
    if not set_enabled(ctx.room, pack_id, True):
        return CommandReply(t("panels.already_on", pack=home.label))
    said = t.said("panels.on", pack=home.label)
    return CommandReply(said.render(ctx.locale), audience="all", said=said.to_json())


def _disable(ctx: CommandContext, pack_id: str) -> CommandReply:
    t = MESSAGES.bind(ctx.locale)
    if not set_enabled(ctx.room, pack_id, False):
        current = enabled_packs(ctx.room)
        raise LwError(f"pack {pack_id!r} is not on here", expected="one of: " + (", ".join(current) or "(none)"))
    said = t.said("panels.off", pack=pack_id)
    return CommandReply(said.render(ctx.locale), audience="all", said=said.to_json())


def _list(ctx: CommandContext) -> CommandReply:
    t = MESSAGES.bind(ctx.locale)
    viewer = viewer_of(ctx.room, ctx.actor)
    enabled = enabled_packs(ctx.room)
    packs = room_packs(ctx.room)
    mine = {panel.ref for panel in manifest(ctx.room, viewer, packs)}
    held = {panel.ref: problems for panel, problems in withheld(ctx.room, packs)} if ctx.keeper else {}
    lines = []
    for pack_id, home in sorted(pack_homes(ctx.kernel).items()):
        on = pack_id in enabled
        state = t("panels.state_on") if on else t("panels.state_off")
        try:
            pack = cached_pack(ctx.kernel, home)
        except LwError as exc:
            detail = f": {exc}" if ctx.keeper else ""
            lines.append(t("panels.cannot_load", pack=home.label, detail=detail))
            continue
        if not pack.panels and pack.kit is None:
            continue
        kit = t("panels.kit") if pack.kit is not None else ""
        shown = [p for p in pack.panels if p.ref in mine or ctx.keeper]
        count = len(shown)
        lines.append(t("panels.row_one" if count == 1 else "panels.row_many", pack=home.label, state=state, count=count, kit=kit))
        for panel in shown:
            title = panel.title if isinstance(panel.title, str) else localized(panel.title, ctx.locale)
            extra = f", {audience_of(panel)}" if ctx.keeper else ""
            lines.append(f"  {panel.ref}: {title} ({panel.slot}, tier {panel.tier}{extra})")
            for problem in held.get(panel.ref, []) if on else []:
                lines.append(t("panels.withheld", problem=problem))
    for pack_id, error in packs.problems:
        if ctx.keeper:
            lines.append(f"{pack_id}: {error}")
    if not lines:
        return CommandReply(t("panels.none_installed"))
    return CommandReply("\n".join(lines))
