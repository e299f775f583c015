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
    zh = ctx.locale.startswith("zh")
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
            line += ("（无法使用：" if zh else " (unusable: ") + module.problem.message + ("）" if zh else ")")
        lines.append(line)
    if mine is not None and mine not in {m.id for m in installed_modules(ctx.kernel)}:
        lines.append(f"* {mine} ({'未安装' if zh else 'not installed'})")
    if not lines:
        return CommandReply("还没有安装模组（lw pack install，或模组锻造）。" if zh
                            else "No modules installed (lw pack install, or the module forge).")
    tail = "(* = 本房间的模组；.module show <id>)" if zh else "(* = this room's module; .module show <id>)"
    return CommandReply("\n".join([*lines, tail]))


def _show(ctx: CommandContext, word: str) -> CommandReply:
    zh = ctx.locale.startswith("zh")
    if not word:
        doc = current(ctx.room)
        if doc is None:
            raise LwError("this room plays no module yet" if not zh else "本房间还没有开始模组",
                          expected=".module show <id> (.module lists them)")
        word = str(doc.data.get("id"))
    module = find_module(ctx.kernel, word)
    if module.problem is not None:
        if ctx.keeper:
            raise module.problem
        # module.md holds the keeper's notes: a player is not told what is wrong in it
        raise LwError(f"模组 {module.id} 现在无法使用（守秘人可以看到原因）" if zh
                      else f"module {module.id} cannot be used now (the keeper can see why)", code="unusable")
    about = describe(module, ctx.locale)
    lines = [f"{about['title']}（{module.key}）" if zh else f"{about['title']} ({module.key})", about["premise"]]
    if module.systems:
        fits = any(ctx.room.pack.is_a(s) for s in module.systems)
        lines.append(("规则系统：" if zh else "rule systems: ") + ", ".join(module.systems)
                     + ("" if fits else ("（本房间在玩 " if zh else f" (this room plays ") + ctx.room.file.system
                        + ("）" if zh else ")")))
    if not ctx.keeper:
        return CommandReply("\n".join(lines))
    if module.notes:
        lines += ["", "守秘人笔记：" if zh else "Keeper's notes:", module.notes]
    for path in module.worlds:
        lines.append(("世界卡：" if zh else "world card: ") + f".import {module.id}/{path} world")
    for path in module.books:
        lines.append(("世界书：" if zh else "world book: ") + f".import {module.id}/{path} world")
    if module.assets:
        lines.append((f"媒体素材：{module.assets} 个文件" if zh else f"media: {module.assets} file(s)"))
    lines += _setup_preview(ctx, module)
    return CommandReply("\n".join(lines))


def _setup_preview(ctx: CommandContext, module: Module) -> list[str]:
    zh = ctx.locale.startswith("zh")
    if module.setup is None:
        if len(module.scripts) > 1:
            return [("备团脚本有多个，.module start 不会自动运行：" if zh else "several prep scripts; .module start runs none: ")
                    + ", ".join(f"run_prep_plan(script_ref=\"{module.id}/{s}\")" for s in module.scripts)]
        return ["没有铺设脚本。" if zh else "no setup script."]
    source = read_text(module.home / module.setup, max_bytes=MAX_MODULE_BYTES)
    try:
        plan, _ = checked_plan(ctx.kernel, ctx.room, source, script=f"{module.id}/{module.setup}")
    except LwError as exc:  # sandboxed JS turned off by the operator
        return [(f"铺设 {module.setup}：无法预览：" if zh else f"setup {module.setup}: no preview: ") + exc.message]
    if not plan.ok:
        assert plan.failure is not None
        return [(f"铺设 {module.setup}：在本房间不可用：" if zh else f"setup {module.setup}: would be refused here: ")
                + str(plan.failure)]
    head = (f"铺设 {module.setup}：{len(plan.ops)} 步（预览，未执行；.module start 在准备阶段运行它）：" if zh
            else f"setup {module.setup}: {len(plan.ops)} operation(s) (a preview, nothing applied; .module start runs "
                 "it in the prep phase):")
    lines = [head]
    for n, op in enumerate(plan.ops, 1):
        args = json.dumps(dict(op.args), ensure_ascii=False)
        lines.append(f"  {n}. {op.tool} {args if len(args) <= MAX_OP_CHARS else args[:MAX_OP_CHARS] + '…'}")
    return lines


def _start(ctx: CommandContext, word: str) -> CommandReply:
    zh = ctx.locale.startswith("zh")
    room = ctx.room
    module = find_module(ctx.kernel, word)
    if module.problem is not None:
        raise module.problem
    if module.setup is not None and room.file.phase != PREP:
        raise LwError(f"{module.id}'s setup runs in the prep phase" if not zh else f"{module.id} 的铺设只在准备阶段运行",
                      expected=f".phase prep, then .module start {module.id}", code="refused")
    lines: list[str] = []
    if module.manifest is not None:
        lines += switch_on(ctx.kernel, room, ctx.actor, module.manifest, module.home, locale=ctx.locale)
    if module.systems and not any(room.pack.is_a(s) for s in module.systems):
        raise LwError(f"{module.id} is written for {', '.join(module.systems)}; this room plays {room.file.system}",
                      expected="a room on one of those systems (or a patch of one)", code="refused")
    if module.setup is not None:
        try:
            done = run_prep_plan(RunPrepPlanArgs(script_ref=f"{module.id}/{module.setup}", apply=True), ctx)
        except ToolError as exc:
            raise LwError(f"setup {module.setup}: {exc}; nothing of {module.id} was started", code="refused") from None
        lines.append(f"铺设 {module.setup}：已运行 {done['count']} 步" if zh
                     else f"setup {module.setup}: {done['count']} operation(s) run")
    elif len(module.scripts) > 1:
        lines.append(("备团脚本有多个，未运行：" if zh else "several prep scripts, none run: ")
                     + ", ".join(f"run_prep_plan(script_ref=\"{module.id}/{s}\")" for s in module.scripts))
    title, premise = module.title(room.file.locale), module.premise(room.file.locale)
    again = (doc := current(room)) is not None and doc.data.get("id") == module.id
    room.documents.put(Document(DOC, DOC, {"id": module.id, "version": module.version, "title": title,
                                           "premise": premise, "turn": room.turn_number + 1}))
    ctx.events.append({"kind": "module", "audience": "all",
                       "summary": (f"模组开始：{title} —— {premise}" if room.file.locale.startswith("zh")
                                   else f"The module begins: {title} — {premise}")})
    head = (f"本房间开始模组 {module.key}" if zh else f"this room now plays {module.key}") + \
        (("（再次开始）" if zh else " (started again)") if again else "")
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
    head = (f"本房间的模组：{module.title(locale)}（{module.key}）\n开场：{module.premise(locale)}" if locale.startswith("zh")
            else f"This room plays the module {module.title(locale)} ({module.key}).\nPremise: {module.premise(locale)}")
    text = head + (("\n\n守秘人笔记（只给守秘人）：\n" if locale.startswith("zh") else "\n\nThe keeper's notes (keeper only):\n")
                   + notes if notes else "")
    return [PromptSegment("module", text, slot="context", order=-50)]
