"""The ``rulepacks`` kind of ``.lwpack`` content, checked by the rules engine itself.

A pack's rulepack is a ``.yaml`` file whose stem is its system id. It is compiled exactly as the
engine will compile it once installed: ``extends:`` finds its parent among the pack's own
rulepacks first, then among the host's (plugins' and ``<data_dir>/rulepacks/``); the id must not
be one a plugin provides (discovery would never let the file replace it); the scripts it names
(``resolution.script``, ``subsystems.*.script``) ship beside it. The yaml lands as
``<data_dir>/rulepacks/<id>.yaml``, each script at the same place relative to it.

In a room, ``.pack install`` decides the room's rule system with this kind's :func:`enable`
before it switches anything else on.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from lwcore.contributions import ContentReport, PackItem
from lwcore.errors import LwError
from lwcore.i18n import kernel_catalogue
from lwcore.pack.names import join, name_problem, parent
from lwcore.rules import engine_for
from lwcore.rules.engine import USER_ORIGIN, PackSource, RulesEngine
from lwcore.rules.errors import RulepackError
from lwcore.rules.scripts import load_problem
from lwcore.trust import rule_scripts

ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


def _stem(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[0]


def validate(item: PackItem) -> ContentReport:
    files = item.files
    label = files.display(item.path)
    if not item.path.endswith((".yaml", ".yml")):
        raise LwError("a rulepack is a .yaml file", file=label, expected="rules/<system id>.yaml")
    system_id = _stem(item.path)
    if not ID.match(system_id):
        raise LwError(f"the file name gives the system id {system_id!r}; ids are lower-case letters, digits, - and _",
                      file=label)
    engine: RulesEngine = engine_for(item.kernel) if item.kernel is not None else RulesEngine(None)
    owner = engine.sources().get(system_id)
    if owner is not None and owner.origin != USER_ORIGIN:
        raise LwError(f"the system id {system_id!r} belongs to plugin {owner.origin}; a pack's rulepack needs its own "
                      f"id (name the file differently and write extends: {system_id})", file=label, code="taken")
    beside = [PackSource(_stem(p), f"pack {item.pack_id}", text=files.read_text(p), name=files.display(p))
              for p in item.siblings if p != item.path and p.endswith((".yaml", ".yml"))]
    source = PackSource(system_id, f"pack {item.pack_id}", text=files.read_text(item.path), name=label)
    try:
        compiled = engine.validate_sources(source, beside=beside)
    except RulepackError as exc:
        raise LwError(exc.message, file=exc.file or label, line=exc.line, column=exc.column,
                      expected=exc.expected, code="rulepack") from None
    from lwcore.io import load_yaml

    data, positions = load_yaml(files.read_text(item.path), label, positions=True)
    extra: list[str] = []
    lands = {item.path: f"{system_id}.yaml"}
    problems: list[LwError] = []
    for where, script in rule_scripts(data if isinstance(data, Mapping) else {}):
        if not isinstance(script, str):
            continue  # the engine's own load refused it above
        pos = positions.find(list(where))
        at = {"file": label, "line": pos.line if pos else None, "column": pos.column if pos else None}
        member = join(parent(item.path), script)
        landing = join("", script)
        if name_problem(member) or name_problem(landing) or landing.split("/")[0] == "..":
            problems.append(LwError(f"script {script!r} must be a path beside the rulepack, inside the pack", **at))
        elif not files.is_file(member):
            problems.append(LwError(f"script {script!r} is not in the pack (looked for {member})", **at,
                                    code="not_found"))
        elif (problem := load_problem(files.read_text(member), files.display(member))) is not None:
            problems.append(LwError(f"script {script!r} does not load: {problem}", **at, code="script"))
        else:
            extra.append(member)
            lands[member] = landing
    if problems:
        from lwcore.errors import LwErrors

        raise problems[0] if len(problems) == 1 else LwErrors(problems)
    return ContentReport(
        id=system_id, files=(item.path, *sorted(set(extra))), lands=lands,
        detected={"extends": data.get("extends")} if isinstance(data, Mapping) and data.get("extends") else {},
        rules_script=bool(extra), warnings=tuple(compiled.warnings),
    )


def enable(ctx: Any) -> str | None:
    """``.pack install`` in a room, before any other kind is switched on (``ctx``: the kernel's
    ``RoomEnable``): the pack's rule system is decided first, so what the pack brings next (a
    skill's ``systems``, a world card's sheets) is judged against the system the room will play.

    A pack that brings a module to play -- exactly one world card (the contract: "包里恰好只有一张
    世界卡时的那张卡（顺带把包的建卡系统钉上）") -- pins its character-creation system: the one
    rulepack of the pack that answers a ``make_char`` command (its own or one it extends). Not
    pinned, and said why, when the pack has several, or the room already has characters on a
    system the new one is not (nor a patch of). ``None`` when there is nothing to say."""
    if ctx.pack.trust.world_cards != 1:
        return None
    t = kernel_catalogue().bind(ctx.locale)
    engine = engine_for(ctx.kernel)
    found: list[tuple[str, str]] = []
    for item in ctx.items:
        system_id = engine.find(item.id) if item.id else None
        if system_id is None:
            continue
        words = [word for word, command in engine.rule_system(system_id).model.commands.items()
                 if command.action == "make_char"]
        if words:
            found.append((system_id, words[0]))
    if len(found) != 1:
        if not found:
            return None
        names = ", ".join(system for system, _ in found)
        return t("rules.pin_several", names=names)
    (system_id, word), room = found[0], ctx.room
    if engine.find(room.file.system) == system_id:
        return None
    was = room.file.system
    try:
        room.set_system(system_id)
    except LwError:
        return t("rules.pin_blocked", was=was, system=system_id)
    return t("rules.pinned", system=system_id, was=was, word=word)
