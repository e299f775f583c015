"""The plugin's room commands: ``.import``, ``.pc``, ``.preset``, ``.lore``.

- ``.import <file|packId/path> [pc|companion|world] [@member]`` -- anyone imports a person
  (``pc``, the default: their own character; the keeper names the member with ``@member``) or a
  ``companion``; ``world`` is the keeper's only (never a model tool: the model has no way to
  any room command). Files are read inside the room folder, or inside an installed pack by its
  id (``fog-harbor-pack/cards/x.json``). A non-keeper is never shown what a file holds beyond
  their import's own report, nor whether a file exists: every failed import of theirs is one
  refusal (:data:`IMPORT_REFUSED`); the keeper running the same line reads the located error.
- ``.pc list | claim <n|name> | release [n|name]`` -- the pregen roster (players claim and
  release; the keeper may release any claim).
- ``.preset import <file|packId/path> | list | enable <id> | disable <id>`` -- the shared
  preset library and what this room uses (``list`` for anyone, the rest for the keeper).
- ``.lore constant [on|off <handle>]`` -- the keeper's: the world imports' constant entries,
  each with its size, and switching one off (it then fires by its keys) or on again;
  ``.lore greeting [n]`` -- the world cards' greetings, and opening the story with another one
  while nothing was said yet.

The kernel checks who may run each word (all three: anyone) before the handler runs; what a
sub-action needs beyond that (``world``, ``.preset enable`` …) the handler refuses here.
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

from lw_tavern.messages import MESSAGES
from lw_tavern.room import presets, roster
from lw_tavern.room.documents import ENTRY, PACK, PRESET
from lw_tavern.room.imports import KINDS, open_story, resolve_source, run_import, summary
from lw_tavern.worldbook.engine import estimate_tokens
from lwcore.api import CommandReply, Document, LwError, project_all, viewer_of

if TYPE_CHECKING:
    from lwcore.api import CommandContext


IMPORT_REFUSED = "{ref!r} cannot be imported as {kind} here (the keeper can run the same .import to see why)"
"""What a player reads for every failed ``.import`` of theirs: missing, outside the room, not a
card, a card with a problem -- one answer (the keeper gets the located detail)."""


def _words(ctx: CommandContext) -> list[str]:
    try:
        return shlex.split(ctx.args)
    except ValueError as exc:
        raise LwError(f"cannot read the arguments: {exc}", expected="quote a path with spaces in it") from None


def _keeper_only(ctx: CommandContext, what: str) -> None:
    if not ctx.keeper:
        raise LwError(f"{what} is for the keeper only", code="forbidden")


def import_command(ctx: CommandContext) -> CommandReply:
    """``.import <file|packId/path> [pc|companion|world] [@member]``."""
    words = _words(ctx)
    target = next((w[1:] for w in words if w.startswith("@") and len(w) > 1), None)
    words = [w for w in words if not w.startswith("@")]
    if not words or len(words) > 2 or (len(words) == 2 and words[1].lower() not in KINDS):
        raise LwError(f"usage: .import <file|packId/path> [{'|'.join(KINDS)}] [@member]")
    kind = words[1].lower() if len(words) == 2 else "pc"
    if kind == "world":
        _keeper_only(ctx, ".import … world")
    member = None
    if kind == "pc":
        if target is not None and not ctx.keeper:
            raise LwError("only the keeper imports a character for another member (@member)", code="forbidden")
        member = ctx.room.member(target) if target is not None else ctx.actor
        if ctx.room.is_keeper(member):
            raise LwError("the keeper plays no character: name the member with @member")
    try:
        plan = run_import(ctx.room, resolve_source(ctx.kernel, ctx.room, words[0]), kind, member=member)
    except LwError:
        if ctx.keeper:
            raise
        # one refusal whatever went wrong: a player learns neither which files exist nor what
        # a file (perhaps the keeper's) holds; the keeper running the same line sees why
        raise LwError(IMPORT_REFUSED.format(ref=words[0], kind=kind), code="refused") from None
    return CommandReply(summary(plan, locale=ctx.locale, for_keeper=ctx.keeper), audience="keeper" if kind == "world" else "actor")


def pc_command(ctx: CommandContext) -> CommandReply:
    """``.pc list | claim <n|name> | release [n|name]``."""
    t = MESSAGES.bind(ctx.locale)
    action, _, rest = ctx.args.strip().partition(" ")
    action, rest = action.lower() or "list", rest.strip()
    if action == "list":
        views = project_all(ctx.room, roster.roster(ctx.room), viewer_of(ctx.room, ctx.actor))
        if not views:
            return CommandReply(t("pc.empty"))
        lines = []
        for number, (_, view) in enumerate(views, 1):
            holder = str(view.get("claimed_by") or "")
            who = next((m.name or m.id for m in ctx.room.members if m.id == holder), holder)
            state = t("pc.claimed_by", who=who) if holder else t("pc.free")
            blurb = f" — {view['blurb']}" if view.get("blurb") else ""
            lines.append(f"{number}. {view.get('name')}{blurb}{state}")
        return CommandReply("\n".join(lines))
    if action == "claim":
        if ctx.keeper:
            raise LwError("the keeper claims no pregen")
        if not rest:
            raise LwError("usage: .pc claim <n|name>")
        doc = roster.claim(ctx.room, ctx.actor, rest)
        said = t.said("pc.claimed", who=ctx.actor.name or ctx.actor.id, name=doc.data["name"])
        return CommandReply(said.render(ctx.locale), audience="all", said=said.to_json())
    if action == "release":
        member = ctx.actor
        if ctx.keeper:
            if not rest:
                raise LwError("usage (keeper): .pc release <n|name>")
            holder = roster.find(ctx.room, rest).data.get("claimed_by")
            if not holder:
                raise LwError(f"{rest} is not claimed")
            member = ctx.room.member(str(holder))
        elif rest and roster.find(ctx.room, rest).data.get("claimed_by") != member.id:
            raise LwError(f"{rest} is not yours to release", code="forbidden")
        doc = roster.release(ctx.room, member)
        said = t.said("pc.released", name=doc.data["name"])
        return CommandReply(said.render(ctx.locale), audience="all", said=said.to_json())
    raise LwError(f"unknown .pc action {action!r}", expected=".pc list | .pc claim <n|name> | .pc release [n|name]")


def preset_command(ctx: CommandContext) -> CommandReply:
    """``.preset import <file|packId/path> | list | enable <id> | disable <id>``."""
    t = MESSAGES.bind(ctx.locale)
    words = _words(ctx)
    action = words[0].lower() if words else "list"
    enabled = presets.enabled_ids(ctx.room)
    if action == "list":
        library = presets.installed(ctx.kernel)
        lines = [f"{'*' if pid in enabled else ' '} {pid}" for pid in library]
        lines += [t("preset.not_installed", id=pid) for pid in enabled if pid not in library]
        if not lines:
            return CommandReply(t("preset.none"))
        return CommandReply("\n".join(lines + [t("preset.legend")]))
    _keeper_only(ctx, f".preset {action}")
    if len(words) != 2:
        raise LwError(f"usage: .preset {action} <{'file|packId/path' if action == 'import' else 'id'}>")
    if action == "import":
        pid, loaded = presets.install(ctx.kernel, resolve_source(ctx.kernel, ctx.room, words[1]).path)
        lines = [t("preset.installed", id=pid)]
        return CommandReply("\n".join(lines + [f"  ! {w}" for w in loaded.warnings]))
    pid = words[1]
    if action == "enable":
        presets.read_installed(ctx.kernel, pid)  # installed and still valid, or a located refusal
        if pid not in enabled:
            ctx.room.documents.put(Document(pid, PRESET, {"preset": pid}))
        return CommandReply(t("preset.on", id=pid), audience="keeper")
    if action == "disable":
        if not ctx.room.documents.delete(PRESET, pid):
            raise LwError(f"preset {pid!r} is not enabled here", expected=", ".join(enabled) or "(none enabled)")
        return CommandReply(t("preset.off", id=pid), audience="keeper")
    raise LwError(f"unknown .preset action {action!r}", expected=".preset import | list | enable | disable")


def lore_command(ctx: CommandContext) -> CommandReply:
    """``.lore constant [on|off <handle>]``: the constant entries of the keeper's world imports
    (sent every turn, as SillyTavern sends them), each with its size; the keeper switches any
    off (or on again). Keeper only: the list names keeper-only entries."""
    _keeper_only(ctx, ".lore")
    t = MESSAGES.bind(ctx.locale)
    words = _words(ctx)
    if words and words[0].lower() == "greeting":
        return _greeting(ctx, words[1:])
    if not words or words[0].lower() != "constant":
        raise LwError("usage: .lore constant [on|off <handle>] | .lore greeting [n]")
    docs = [d for d in ctx.room.documents.all(ENTRY) if str(d.data.get("pack", "")).startswith("world:")]
    if len(words) == 1:
        lines = []
        for doc in docs:
            entry = doc.data.get("entry") or {}
            was = bool(entry.get("constant")) or bool(entry.get("lw_constant_off"))
            if not was:
                continue
            content = str(entry.get("content") or "")
            state = t("lore.off") if entry.get("lw_constant_off") else t("lore.on")
            lines.append(t("lore.row", state=f"{state:>3}", source=doc.source, comment=entry.get("comment") or "",
                           chars=f"{len(content):,}", tokens=f"{estimate_tokens(content):,}"))
        if not lines:
            return CommandReply(t("lore.none"), audience="keeper")
        return CommandReply("\n".join(lines), audience="keeper")
    if len(words) != 3 or words[1].lower() not in ("on", "off"):
        raise LwError("usage: .lore constant [on|off <handle>]")
    on = words[1].lower() == "on"
    doc = next((d for d in docs if d.source == words[2] or d.id == words[2]), None)
    if doc is None:
        raise LwError(f"no world entry {words[2]!r}", expected="a handle .lore constant lists")
    entry = dict(doc.data.get("entry") or {})
    if not (entry.get("constant") or entry.get("lw_constant_off")):
        raise LwError(f"{words[2]} is not a constant entry", expected="a handle .lore constant lists")
    entry["constant"] = on
    if on:
        entry.pop("lw_constant_off", None)
    else:
        entry["lw_constant_off"] = True
    ctx.room.documents.put(Document(doc.id, ENTRY, {**doc.data, "entry": entry}, meta=dict(doc.meta)))
    return CommandReply(t("lore.sent_again" if on else "lore.not_constant", source=doc.source), audience="keeper")


def _greeting(ctx: CommandContext, words: list[str]) -> CommandReply:
    """``.lore greeting``: the world cards' greetings, numbered (0 the card's own ``first_mes``);
    ``.lore greeting <n>``: open the story with greeting n instead, while nothing was said yet."""
    t = MESSAGES.bind(ctx.locale)
    packs = [d for d in ctx.room.documents.all(PACK) if d.data.get("kind") == "world" and d.data.get("story")]
    greetings: list[tuple[Document, int, str]] = []
    for doc in packs:
        story = doc.data["story"]
        texts = ([story["first_mes"]] if story.get("first_mes") else [""]) + list(story.get("alternate_greetings") or [])
        greetings += [(doc, i, text) for i, text in enumerate(texts) if text]
    if not greetings:
        return CommandReply(t("lore.no_greeting"), audience="keeper")
    if not words:
        lines = [f"{n}. [{doc.data.get('name') or doc.id}{'' if i == 0 else f' #{i}'}] {text.strip()[:120]}"
                 for n, (doc, i, text) in enumerate(greetings)]
        return CommandReply("\n".join(lines + ["(.lore greeting <n>)"]), audience="keeper")
    try:
        chosen = greetings[int(words[0])]
    except (ValueError, IndexError):
        raise LwError(f"no greeting {words[0]!r}", expected=f"0 to {len(greetings) - 1}") from None
    said = [e for e in ctx.room.history.all()
            if e.role in ("player", "keeper") and not (e.data or {}).get("kind") == "opening"]
    if said:
        raise LwError("the story has begun: an opening can only be chosen before anything was said",
                      code="refused")
    doc, index, text = chosen

    class _Plan:
        key = doc.id
        name = str(doc.data.get("name") or "")

    open_story(ctx.room, _Plan, text, index)
    return CommandReply(t("lore.greeting_changed"), audience="keeper")
