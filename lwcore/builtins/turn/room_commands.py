"""The built-in ``turn`` plugin's room commands: ``.help``, ``.phase``, ``.rule``, and the room's
rule system's dot commands (``.ra 侦查``, ``.sc 1/1d6`` …) answered against the typer's own sheet
with the room's house-rule variant.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Any

from lwcore.contributions import CommandReply, localized
from lwcore.errors import LwError
from lwcore.rules import engine_for
from lwcore.rules.commands import CommandError, find_command
from lwcore.rules.dice import roll
from lwcore.rules.player_edits import check_player_edit
from lwcore.rules.sheet import Sheet
from lwcore.i18n import kernel_catalogue
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
    t = kernel_catalogue().bind(ctx.locale)
    lines = [t("help.head")]
    for command in sorted(commands_for(ctx.kernel, ctx.room, ctx.actor), key=lambda c: c.name):
        if command.fallback:
            continue
        usage = f" {command.usage}" if command.usage else ""
        lines.append(f"  .{command.name}{usage} — {command.describe(ctx.locale)}")
    words = sorted(ctx.room.rule_system.model.commands or {})
    if words:
        lines.append(t("help.rule_words", words=" ".join(f".{w}" for w in words)))
    return CommandReply("\n".join(lines))


def phase_command(ctx: CommandContext) -> CommandReply:
    """``.phase`` shows the room's phase; ``.phase NAME`` sets it (``prep``, ``play`` …);
    ``.phase none`` clears it. Phase tools follow the phase."""
    t = kernel_catalogue().bind(ctx.locale)
    if not ctx.args:
        return CommandReply(t("phase.show", phase=ctx.room.file.phase or t("none.paren")))
    name = ctx.args.split()[0].lower()
    if name == "none":
        ctx.room.file.phase = None
    elif PHASE.match(name):
        ctx.room.file.phase = name
    else:
        raise LwError(f"{ctx.args!r} is not a phase name", expected="a word like prep or play, or none")
    ctx.room.mark("room")
    said = t.said("phase.set", phase=ctx.room.file.phase or t.said("none.paren"))
    return CommandReply(said.render(ctx.locale), audience="all", said=said.to_json())


CLEAR_VARIANT = ("none", "default", "off")
"""Words that take the room back to the rulepack's own ladder (a variant of that name wins)."""


def _variant_line(pack: Any, name: str, locale: str) -> str:
    spec = pack.model.resolution.variants.get(name) if pack.model.resolution else None
    about = [t for t in (getattr(spec, "label", None), getattr(spec, "description", None)) if t]
    shown = [t if isinstance(t, str) else localized(t, locale) for t in about]
    return f"{name}" + (f" — {'; '.join(shown)}" if shown else "")


def rule_command(ctx: CommandContext) -> CommandReply:
    """``.rule`` shows the room's rule system, its house-rule variant and the variants its
    rulepack declares; ``.rule VARIANT`` switches the room to one (``.rule none``: the pack's
    own ladder). Keeper only (the kernel enforces it). The choice is ``variant:`` in
    ``room.yaml`` (its comments kept), used by every check made in the room from then on --
    the dot commands' and the model's -- and the switch is told to the table."""
    t = kernel_catalogue().bind(ctx.locale)
    room, pack = ctx.room, ctx.room.rule_system
    names = pack.variants
    word = ctx.args.strip()
    if not word:
        current = room.file.variant
        lines = [t("rule.show", system=room.file.system,
                   variant=_variant_line(pack, current, ctx.locale) if current else t("rule.none"))]
        if names:
            lines.append(t("rule.variants"))
            lines += [f"{'*' if n == current else ' '} {_variant_line(pack, n, ctx.locale)}" for n in names]
        else:
            lines.append(t("rule.no_variants", pack=pack.id))
        return CommandReply("\n".join(lines))
    chosen = next((n for n in names if n == word), None) or next((n for n in names if n.casefold() == word.casefold()), None)
    if chosen is None and word.casefold() not in CLEAR_VARIANT:
        shown = word if len(word) <= 40 else word[:40] + "…"
        close = difflib.get_close_matches(word, names, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise LwError(f"{pack.id} has no variant {shown!r}{hint}",
                      expected="one of: " + (", ".join(names) or "(none declared)") + ", or none", code="unknown")
    if chosen == room.file.variant:
        return CommandReply(t("rule.same", variant=chosen or t("none.word")))
    before = room.file.variant
    room.file.variant = chosen
    if chosen is None:
        room.file.model_fields_set.discard("variant")  # the key leaves room.yaml
    room.mark("room")
    was = before or t.said("none.word")
    if chosen is None:
        said = t.said("rule.cleared", was=was, pack=pack.id)
    else:
        lines = {lang: _variant_line(pack, chosen, lang) for lang in kernel_catalogue().languages}
        said = t.said("rule.set", variant={**lines, ctx.locale: _variant_line(pack, chosen, ctx.locale)}, was=was)
    return CommandReply(said.render(ctx.locale), audience="all", said=said.to_json(), data={"kind": "rule", "system": pack.id, "variant": chosen,
                                                    "was": before})


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
    pack = ctx.room.rule_system
    text = "." + line.lstrip()[1:].lstrip()
    try:
        _, command_spec, _ = find_command(pack, text)
    except CommandError:
        return None
    sheet = ctx.room.sheets.get(member.id)
    setting = command_spec.action == "set_stats"
    fresh = sheet is None and setting  # a member's first .st starts their sheet (kept only if it changes)
    if fresh:
        sheet = Sheet(pack, name=member.name or member.id)
    # a player's .st is held to the rulepack: it runs on a copy, kept only when it passes
    bounded = sheet is not None and not ctx.keeper and setting
    work = sheet.copy() if bounded and sheet is not None else sheet
    result = engine_for(ctx.kernel).command(pack.id, text, sheet=work, rng=ctx.rng, locale=ctx.locale,
                                            variant=ctx.room.file.variant)
    if bounded and result.sheet_changed and sheet is not None and work is not None:
        check_player_edit(sheet, work, locale=ctx.locale)
        sheet = work
    if result.sheet_changed and sheet is not None:
        ctx.room.sheets[member.id] = sheet
        if fresh:
            member.sheet = new_sheet_path(ctx.room.path, member.id)
            ctx.room.mark("room")
        ctx.room.mark(f"sheet:{member.id}")
    who = (sheet.name if sheet is not None else None) or member.name or member.id
    ctx.rolled.extend(rolled(pack, result, who=who, member=member.id, locale=ctx.locale))
    return CommandReply(f"{who}: {result.text}", audience="all", data=result.to_json())


def rolled(pack: Any, result: Any, *, who: str, member: str, locale: str) -> list[dict[str, Any]]:
    """The ``dice_rolled`` payloads of one dot command's result (:class:`lwcore.rules.commands.
    CommandResult`), shaped as a turn's check and subsystem events are (a hook reads
    ``roll.kind``, ``roll.skill``, ``roll.success`` alike from a ``.ra`` and from the keeper's
    model): a check each (``.ra 3#…`` repeats: each), a subsystem (``.sc``) once, the dice of
    a ``.st hp-1d3`` each, a character's creation (a ``make_char`` command) once; nothing for what rolled
    nothing (``.st 力量50``, ``.st show``)."""
    data = result.data if isinstance(result.data, dict) else {}
    base = {"character": who, "member": member}
    out: list[dict[str, Any]] = []
    if result.action == "check":
        for one in data.get("results", [data]) if "repeat" in data else [data]:
            check = one.get("check") or {}
            stat = one.get("stat")
            event = {"kind": "check", **base, "skill": stat,
                     "skill_label": pack.display_name(stat, locale) if stat else "", "value": one.get("value"),
                     **{k: v for k, v in check.items() if k != "system"}}
            if check.get("rank") is not None:
                event["rank_label"] = pack.label(check["rank"], locale)
            if one.get("roll_only"):
                event.update(roll_only=True, total=one.get("total"), success=None)
            if one.get("reason"):
                event["reason"] = one["reason"]
            out.append(event)
    elif result.action == "set_stats":
        out += [{"kind": "roll", **base, "stat": r.get("name"), "expr": r.get("expr"), "total": r.get("total"),
                 "faces": r.get("faces")} for r in data.get("rolls") or ()]
    elif result.action == "make_char":
        out.append({"kind": "roll", **base, "command": result.command, "sheets": data.get("sheets", [])})
    elif result.action not in ("show",):  # a subsystem the pack runs (.sc, .ti, .en …)
        out.append({"kind": "subsystem", **base, "command": result.command,
                    **{k: v for k, v in data.items() if k != "system"}, "text": result.text})
    return out


def new_sheet_path(room_path: Path, member_id: str) -> str:
    """Where a member without a sheet gets one: ``sheets/<member id>.yaml`` (the id made
    safe for a file name), ``-2``, ``-3`` … after it when that file is taken."""
    safe = re.sub(r"[^\w.-]+", "-", member_id, flags=re.UNICODE).strip(".-")[:64] or "member"
    rel, n = f"sheets/{safe}.yaml", 1
    while (room_path / rel).exists():
        n += 1
        rel = f"sheets/{safe}-{n}.yaml"
    return rel


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
    ctx.rolled.append({"kind": "roll", "character": who, "member": ctx.actor.id, **result.to_json()})
    return CommandReply(f"{who}: {result}", audience="all", data={"kind": "roll", **result.to_json()})


def recap_command(ctx: CommandContext) -> CommandReply:
    """``.recap``: the story so far, as the typer may see it."""
    t = kernel_catalogue().bind(ctx.locale)
    doc = chronicle.summary(ctx.room)
    view = project(ctx.room, doc, viewer_of(ctx.room, ctx.actor)) if doc is not None else None
    if not view or not view.get("text"):
        return CommandReply(t("recap.empty"))
    text = t("recap.head", turn=view.get("through_turn", 0)) + "\n" + view["text"]
    if view.get("keeper"):
        text += "\n" + t("recap.keeper", text=view["keeper"])
    return CommandReply(text)


def chronicle_command(ctx: CommandContext) -> CommandReply:
    """``.chronicle [N]``: the last N chronicle entries (default 10) as the typer may see them."""
    t = kernel_catalogue().bind(ctx.locale)
    count = 10
    if ctx.args:
        if not ctx.args.isdigit() or not 1 <= int(ctx.args) <= 200:
            raise LwError(f"{ctx.args!r} is not a count", expected="a whole number from 1 to 200")
        count = int(ctx.args)
    views = project_all(ctx.room, chronicle.recent(ctx.room, count), viewer_of(ctx.room, ctx.actor))
    if not views:
        return CommandReply(t("chronicle.empty"))
    return CommandReply("\n".join(chronicle.entry_line(view, ctx.locale) for _, view in views))


def threads_command(ctx: CommandContext) -> CommandReply:
    """``.threads [all]``: the open loops (with ``all``, the resolved ones too)."""
    t = kernel_catalogue().bind(ctx.locale)
    wanted = ("open", "resolved") if ctx.args.strip().lower() == "all" else ("open",)
    views = [v for _, v in project_all(ctx.room, ctx.room.documents.all(chronicle.THREAD), viewer_of(ctx.room, ctx.actor))
             if v.get("status") in wanted]
    if not views:
        return CommandReply(t("threads.empty"))
    return CommandReply("\n".join(
        f"- [{v['status']}] {v['label']}" + (f": {v['notes']}" if v.get("notes") else "") for v in views))


def var_command(ctx: CommandContext) -> CommandReply:
    """``.var list`` | ``.var expose PREFIX|*`` | ``.var hide PREFIX|*``: what players see of the
    room's MVU variable tree (nothing until the keeper exposes it). ``list`` shows every
    declared variable and every leaf of the tree (an imported card's leaves come with their
    description) marked exposed or hidden."""
    t = kernel_catalogue().bind(ctx.locale)
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
            mark = t("var.keeper_only") if var.get("keeper_only") else t("var.player_visible")
            lines.append(f"{var.get('id')} = {var.get('value')}  [{mark}]")
        for leaf in view.get("leaves", ()):
            mark = t("var.exposed") if leaf["exposed"] else t("var.hidden")
            line = f"{leaf['path']} = {leaf['value']}"
            if leaf.get("description"):
                line = t("var.about", text=line, about=leaf["description"])
            lines.append(f"{line}  [{mark}]")
        if exposed:
            lines.append(t("var.prefixes", prefixes=", ".join(exposed)))
        return CommandReply("\n".join(lines) or t("var.empty"))
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
    return CommandReply(t("var.players_see", prefixes=", ".join(exposed) or t("none.paren")))
