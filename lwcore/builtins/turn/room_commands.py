"""The built-in ``turn`` plugin's room commands: ``.help``, ``.phase``, and the room's rule
system's dot commands (``.ra 侦查``, ``.sc 1/1d6`` …) answered against the typer's own sheet.
"""

from __future__ import annotations

import re

from lwcore.contributions import CommandReply
from lwcore.errors import LwError
from lwcore.rules import engine_for
from lwcore.rules.commands import CommandError, find_command
from lwcore.rules.dice import roll
from lwcore.rules.player_edits import check_player_edit
from lwcore.rules.errors import DiceError
from lwcore.turn import chronicle
from lwcore.turn import tree as variable_tree
from lwcore.turn.documents import Document, keeper_viewer, project, project_all, viewer_of
from lwcore.turn.projections import variable_document
from lwcore.turn.room_commands import CommandContext, commands_for

_TARGET = re.compile(r"\s+@(\S+)\s*$")
PHASE = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")


def help_command(ctx: CommandContext) -> CommandReply:
    """``.help``: the commands this member may run here."""
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
    name a member's sheet with a trailing ``@name``). Declines words the pack does not know.
    A player's ``.st`` is held to the rulepack (:func:`lwcore.rules.player_edits.check_player_edit`:
    known stats, within their bounds); the keeper's is not."""
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
        _, command_spec, _ = find_command(pack, text)
    except CommandError:
        return None
    sheet = ctx.room.sheets.get(member.id)
    # a player's .st is held to the rulepack: it runs on a copy, kept only when it passes
    bounded = sheet is not None and not ctx.keeper and command_spec.action == "set_stats"
    work = sheet.copy() if bounded and sheet is not None else sheet
    result = engine_for(ctx.kernel).command(pack.id, text, sheet=work, rng=ctx.rng, locale=ctx.locale)
    if bounded and result.sheet_changed and sheet is not None and work is not None:
        check_player_edit(sheet, work, locale=ctx.locale)
        ctx.room.sheets[member.id] = work
        sheet = work
    if result.sheet_changed and sheet is not None:
        ctx.room.mark(f"sheet:{member.id}")
    who = (sheet.name if sheet is not None else None) or member.name or member.id
    return CommandReply(f"{who}: {result.text}", audience="all", data=result.to_json())


def roll_command(ctx: CommandContext) -> CommandReply:
    """``.r EXPR``: roll a dice expression with the engine, for the table to see (``.r 3d6``,
    ``.r 1d100``; without EXPR: ``1d100``). The typer's name comes with it."""
    expr = " ".join(ctx.args.split()) or "1d100"
    try:
        result = roll(expr, ctx.rng)
    except DiceError as exc:
        raise LwError(f"cannot roll {expr!r}: {exc}") from None
    sheet = ctx.room.sheets.get(ctx.actor.id)
    who = (sheet.name if sheet is not None else None) or ctx.actor.name or ctx.actor.id
    return CommandReply(f"{who}: {result}", audience="all", data={"kind": "roll", **result.to_json()})


def recap_command(ctx: CommandContext) -> CommandReply:
    """``.recap``: the story so far, as the typer may see it."""
    zh = ctx.locale.startswith("zh")
    doc = chronicle.summary(ctx.room)
    view = project(ctx.room, doc, viewer_of(ctx.room, ctx.actor)) if doc is not None else None
    if not view or not view.get("text"):
        return CommandReply("还没有前情提要。" if zh else "No story so far yet.")
    text = ("前情提要（至第 {t} 回合）：\n" if zh else "The story so far (through turn {t}):\n").format(
        t=view.get("through_turn", 0)) + view["text"]
    if view.get("keeper"):
        text += ("\n守秘人旁注：" if zh else "\nKeeper margin: ") + view["keeper"]
    return CommandReply(text)


def chronicle_command(ctx: CommandContext) -> CommandReply:
    """``.chronicle [N]``: the last N chronicle entries (default 10) as the typer may see them."""
    zh = ctx.locale.startswith("zh")
    count = 10
    if ctx.args:
        if not ctx.args.isdigit() or not 1 <= int(ctx.args) <= 200:
            raise LwError(f"{ctx.args!r} is not a count", expected="a whole number from 1 to 200")
        count = int(ctx.args)
    views = project_all(ctx.room, chronicle.recent(ctx.room, count), viewer_of(ctx.room, ctx.actor))
    if not views:
        return CommandReply("编年史还是空的。" if zh else "The chronicle is empty.")
    return CommandReply("\n".join(chronicle.entry_line(view, zh) for _, view in views))


def threads_command(ctx: CommandContext) -> CommandReply:
    """``.threads [all]``: the open loops (with ``all``, the resolved ones too)."""
    zh = ctx.locale.startswith("zh")
    wanted = ("open", "resolved") if ctx.args.strip().lower() == "all" else ("open",)
    views = [v for _, v in project_all(ctx.room, ctx.room.documents.all(chronicle.THREAD), viewer_of(ctx.room, ctx.actor))
             if v.get("status") in wanted]
    if not views:
        return CommandReply("没有未了的线索。" if zh else "No open threads.")
    return CommandReply("\n".join(
        f"- [{v['status']}] {v['label']}" + (f": {v['notes']}" if v.get("notes") else "") for v in views))


def var_command(ctx: CommandContext) -> CommandReply:
    """``.var list`` | ``.var expose PREFIX|*`` | ``.var hide PREFIX|*``: what players see of the
    room's MVU variable tree (nothing until the keeper exposes it). ``list`` shows every
    declared variable and every leaf of the tree (an imported card's leaves come with their
    description) marked exposed or hidden."""
    zh = ctx.locale.startswith("zh")
    action, _, rest = ctx.args.partition(" ")
    action, prefix = action.lower(), rest.strip()
    doc = ctx.room.documents.get("mvu", "mvu") or Document("mvu", "mvu", {"tree": {}, "exposed": []})
    exposed = list(doc.data.get("exposed") or [])
    if action in ("", "list"):
        keeper = keeper_viewer(ctx.room)
        view = project(ctx.room, doc, keeper) or {}
        lines = []
        for var_def in ctx.room.variables.variables:
            var = project(ctx.room, variable_document(var_def), keeper) or {}
            mark = ("守秘人专属" if zh else "keeper only") if var.get("keeper_only") else ("玩家可见" if zh else "player-visible")
            lines.append(f"{var.get('id')} = {var.get('value')}  [{mark}]")
        for leaf in view.get("leaves", ()):
            mark = ("公开" if zh else "exposed") if leaf["exposed"] else ("未公开" if zh else "hidden")
            about = f"（{leaf['description']}）" if zh and leaf.get("description") else (
                f" ({leaf['description']})" if leaf.get("description") else "")
            lines.append(f"{leaf['path']} = {leaf['value']}{about}  [{mark}]")
        if exposed:
            lines.append(("已公开前缀：" if zh else "exposed prefixes: ") + ", ".join(exposed))
        return CommandReply("\n".join(lines) or ("没有变量。" if zh else "No variables."))
    if action not in ("expose", "hide") or not prefix:
        raise LwError(f"unknown .var action {ctx.args!r}", expected=".var list | .var expose PREFIX|* | .var hide PREFIX|*")
    if prefix != "*":
        try:
            variable_tree.parse_path(prefix)
        except variable_tree.TreeError as exc:
            raise LwError(f"{prefix!r} is not a variable path: {exc.message}",
                          expected="keys joined by dots, e.g. 主角.好感") from None
    if action == "expose":
        if prefix not in exposed:
            exposed.append(prefix)
    else:
        if "*" in exposed and prefix != "*":
            raise LwError("everything is exposed (*): run .var hide * first, then expose what players may see")
        exposed = [p for p in exposed if not (prefix == "*" or p == prefix or p.startswith(prefix + "."))]
    ctx.room.documents.put(Document("mvu", "mvu", {**doc.data, "exposed": exposed}, meta=doc.meta))
    shown = ", ".join(exposed) or ("（无）" if zh else "(none)")
    return CommandReply(("玩家可见的前缀：" if zh else "players now see: ") + shown)
