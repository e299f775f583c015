"""``.module``: the scenarios installed packs hold (:mod:`lwcore.pack.module`), listed, shown and
started in a room.

- ``.module`` / ``.module list`` (anyone): the installed modules, the room's own marked ``*``;
- ``.module show [ID]`` (anyone; the room's module without ID): its title, premise and systems.
  The keeper also reads the keeper's notes, the world cards and world books with the line that
  imports each, the media, and a preview of its setup: the operations planned and checked
  against this room, nothing applied (C.3: "预览免费");
- ``.module start ID`` (keeper, enforced by the kernel): the room plays it. Everything the pack
  brings is switched on as ``.pack install`` does (:func:`lwcore.pack.room.switch_on`: the rule
  system first, then its world card, skills, panels …), the module's ``systems`` are held to
  the system the room then plays, and its setup runs through the prep tool path
  (:func:`lwcore.turn.prep.run_prep_plan`: the whole plan checked first, every operation a
  tool call the keeper could make) -- in the prep phase only, as a prep plan does. All or
  nothing: a refusal anywhere leaves the room as it was. The room records its module (the
  ``module`` document: id, version, title, premise -- what the table may read), the table is
  told the premise, and from the next turn on the keeper's model reads the module's notes
  (a ``module`` prompt segment).
"""

from __future__ import annotations

import json
from typing import Any

from lwcore.contributions import CommandReply, PromptSegment, TurnContext
from lwcore.errors import LwError, LwErrors
from lwcore.i18n import kernel_catalogue, kernel_text
from lwcore.io.text import read_text
from lwcore.pack.module import MAX_MODULE_BYTES, MODULE_FILE, Module, describe, find_module, installed_modules, \
    read_module_text
from lwcore.pack.room import switch_on
from lwcore.turn.documents import Document
from lwcore.turn.prep import PREP, RunPrepPlanArgs, checked_plan, run_prep_plan
from lwcore.turn.room_commands import CommandContext
from lwcore.turn.tools import ToolError

DOC = "module"
USAGE = ".module [list] | show [ID] | start ID"
MAX_OP_CHARS = 160
"""A previewed operation's arguments are cut here (the keeper reads a list, not a dump)."""


def project_module(doc: Document, viewer: Any, room: Any) -> dict[str, Any] | None:
    """The room's module: what anyone at the table may read (id, version, title, premise)."""
    return {k: doc.data.get(k) for k in ("id", "version", "title", "premise", "turn")}


def current(room: Any) -> Document | None:
    return room.documents.get(DOC, DOC)


def module_command(ctx: CommandContext) -> CommandReply:
    """``.module [list] | show [ID] | start ID`` (module docstring)."""
    action, _, rest = ctx.args.strip().partition(" ")
    action, rest = action.lower(), rest.strip()
    if action in ("", "list"):
        if rest:
            raise LwError(f"usage: {USAGE}")
        return _list(ctx)
    if action == "show":
        return _show(ctx, rest)
    if action == "start":
        if not rest:
            raise LwError(f"usage: {USAGE}")
        return _start(ctx, rest)
    raise LwError(f"unknown .module action {action[:40]!r}", expected=USAGE)


def _list(ctx: CommandContext) -> CommandReply:
    t = kernel_catalogue().bind(ctx.locale)
    doc = current(ctx.room)
    mine = doc.data.get("id") if doc is not None else None
    lines = []
    for module in installed_modules(ctx.kernel):
        if module.problem is not None and not ctx.keeper:
            continue  # what cannot be used is the keeper's business
        about = describe(module, ctx.locale)
        mark = "*" if module.id == mine else " "
        line = f"{mark} {module.id} — {about['title']}: {about['premise']}"
        if module.problem is not None:
            line = t("module.unusable", line=line, problem=module.problem.message)
        lines.append(line)
    if mine is not None and mine not in {m.id for m in installed_modules(ctx.kernel)}:
        lines.append(t("module.not_installed", id=mine))
    if not lines:
        return CommandReply(t("module.none"))
    return CommandReply("\n".join([*lines, t("module.list_tail")]))


def _show(ctx: CommandContext, word: str) -> CommandReply:
    t = kernel_catalogue().bind(ctx.locale)
    if not word:
        doc = current(ctx.room)
        if doc is None:
            raise LwError(t("module.no_module"),
                          expected=".module show <id> (.module lists them)")
        word = str(doc.data.get("id"))
    module = find_module(ctx.kernel, word)
    if module.problem is not None:
        if ctx.keeper:
            raise module.problem
        # module.md holds the keeper's notes: a player is not told what is wrong in it
        raise LwError(t("module.cannot_use", id=module.id), code="unusable")
    about = describe(module, ctx.locale)
    lines = [t("module.title", title=about["title"], key=module.key), about["premise"]]
    if module.systems:
        fits = any(ctx.room.rule_system.is_a(s) for s in module.systems)
        lines.append(t("module.systems" if fits else "module.systems_other", systems=", ".join(module.systems),
                       system=ctx.room.file.system))
    if not ctx.keeper:
        return CommandReply("\n".join(lines))
    if module.notes:
        lines += ["", t("module.notes"), module.notes]
    for path in module.worlds:
        lines.append(t("module.world_card", command=f".import {module.id}/{path} world"))
    for path in module.books:
        lines.append(t("module.world_book", command=f".import {module.id}/{path} world"))
    if module.assets:
        lines.append(t("module.media", count=module.assets))
    lines += _setup_preview(ctx, module)
    return CommandReply("\n".join(lines))


def _setup_preview(ctx: CommandContext, module: Module) -> list[str]:
    t = kernel_catalogue().bind(ctx.locale)
    if module.setup is None:
        if len(module.scripts) > 1:
            return [t("module.scripts_preview", scripts=_script_refs(module))]
        return [t("module.no_setup")]
    source = read_text(module.home / module.setup, max_bytes=MAX_MODULE_BYTES)
    try:
        plan, _ = checked_plan(ctx.kernel, ctx.room, source, script=f"{module.id}/{module.setup}")
    except LwError as exc:  # sandboxed JS turned off by the operator
        return [t("module.setup_no_preview", setup=module.setup, message=exc.message)]
    if not plan.ok:
        assert plan.failure is not None
        return [t("module.setup_refused", setup=module.setup, failure=str(plan.failure))]
    lines = [t("module.setup_preview", setup=module.setup, count=len(plan.ops))]
    for n, op in enumerate(plan.ops, 1):
        args = json.dumps(dict(op.args), ensure_ascii=False)
        lines.append(f"  {n}. {op.tool} {args if len(args) <= MAX_OP_CHARS else args[:MAX_OP_CHARS] + '…'}")
    return lines


def _script_refs(module: Module) -> str:
    return ", ".join(f"run_prep_plan(script_ref=\"{module.id}/{s}\")" for s in module.scripts)


def _start(ctx: CommandContext, word: str) -> CommandReply:
    t = kernel_catalogue().bind(ctx.locale)
    room = ctx.room
    module = find_module(ctx.kernel, word)
    if module.problem is not None:
        raise module.problem
    if module.setup is not None and room.file.phase != PREP:
        raise LwError(t("module.prep_only", id=module.id),
                      expected=f".phase prep, then .module start {module.id}", code="refused")
    lines: list[str] = []
    if module.manifest is not None:
        lines += switch_on(ctx.kernel, room, ctx.actor, module.manifest, module.home, locale=ctx.locale)
    if module.systems and not any(room.rule_system.is_a(s) for s in module.systems):
        raise LwError(f"{module.id} is written for {', '.join(module.systems)}; this room plays {room.file.system}",
                      expected="a room on one of those systems (or a patch of one)", code="refused")
    if module.setup is not None:
        try:
            done = run_prep_plan(RunPrepPlanArgs(script_ref=f"{module.id}/{module.setup}", apply=True), ctx)
        except ToolError as exc:
            raise LwError(f"setup {module.setup}: {exc}; nothing of {module.id} was started", code="refused") from None
        lines.append(t("module.setup_run", setup=module.setup, count=done["count"]))
    elif len(module.scripts) > 1:
        lines.append(t("module.scripts_not_run", scripts=_script_refs(module)))
    title, premise = module.title(room.file.locale), module.premise(room.file.locale)
    again = (doc := current(room)) is not None and doc.data.get("id") == module.id
    room.documents.put(Document(DOC, DOC, {"id": module.id, "version": module.version, "title": title,
                                           "premise": premise, "turn": room.turn_number + 1}))
    ctx.events.append({"kind": "module", "audience": "all",
                       "summary": kernel_text("module.begins", room.file.locale, title=title, premise=premise),
                       "said": kernel_catalogue().said("module.begins", title=title, premise=premise).to_json()})
    head = t("module.started_again" if again else "module.started", key=module.key)
    return CommandReply("\n".join([head, *lines]), audience="keeper",
                        data={"kind": "module", "id": module.id, "version": module.version})


def segments(turn: TurnContext) -> list[PromptSegment] | None:
    """The room's module for the keeper's model: its title, premise and notes (``module.md``'s
    body, read from the installed version each turn). Nothing when the room plays no module or
    the module is no longer installed (or does not read)."""
    room = getattr(turn, "room", None)
    if room is None or not hasattr(room, "documents"):
        return None
    doc = current(room)
    if doc is None:
        return None
    try:
        module = find_module(room.kernel, str(doc.data.get("id")))
    except LwError:
        return None
    if module.problem is not None:
        return None
    notes = module.notes
    if module.front is None and (module.home / MODULE_FILE).is_file():
        try:
            notes = read_module_text(read_text(module.home / MODULE_FILE, max_bytes=MAX_MODULE_BYTES),
                                     file=module.home / MODULE_FILE)[1]
        except (LwError, LwErrors):
            return None
    locale = turn.locale
    text = kernel_text("module.segment", locale, title=module.title(locale), key=module.key, premise=module.premise(locale))
    if notes:
        text += "\n\n" + kernel_text("module.segment_notes", locale) + "\n" + notes
    return [PromptSegment("module", text, slot="context", order=-50)]
