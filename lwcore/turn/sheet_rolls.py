"""The rolls a turn makes on characters' sheets: skill checks and subsystems.

This is the turn pipeline's one door to the rules engine (``lwcore.rules``): the room's
rule-system expertise text, one graded check on a kernel sheet (:func:`check_on_sheet`), which
pack subsystem a tool call names (by its name, its kind, or a pack command word) and the prompt
line listing them. How a tool call runs a subsystem is its kind's business
(:mod:`lwcore.rules.kinds`, :mod:`lwcore.rules.tool_calls`), so a new kind needs nothing
here. The pipeline never names a system and never compares rank ids: it reads the semantic
flags of a :class:`lwcore.rules.system.CheckResult` (``success``, ``critical``, ``fumble``)
and runs subsystems through ``RulesEngine.subsystem``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lwcore.errors import LwError
from lwcore.i18n import kernel_text
from lwcore.rules import subsystems
from lwcore.rules.commands import check_command, check_with_value, command_specs
from lwcore.rules.kept_check import forget_check, remember_check
from lwcore.rules.kinds.base import SubsystemKind

if TYPE_CHECKING:
    from lwcore.rules.sheet import Sheet
    from lwcore.rules.system import CheckResult, RuleSystem


def expertise(pack: RuleSystem, locale: str) -> str:
    """The rulepack's ``expertise`` text in ``locale`` ("" when the pack has none)."""
    return pack.expertise(locale)


def _graded(pack: RuleSystem, result: CheckResult, locale: str) -> dict[str, Any]:
    return {
        "roll": result.roll,
        "target": result.target,
        "raw_target": result.raw_target,
        "dice": list(result.dice),
        "kept": list(result.kept),
        "rank": result.rank,
        "rank_label": pack.label(result.rank, locale),
        "success": result.success,
        "critical": result.critical,
        "fumble": result.fumble,
        "difficulty": result.difficulty,
        "modifiers": dict(result.modifiers),
        # what the pack's renderer needs to rebuild the line in another locale (pool systems)
        "margin": result.margin,
        "params": dict(result.params),
    }


def check_on_sheet(
    sheet: Sheet,
    *,
    skill: str,
    variant: str | None,
    difficulty: str | None,
    modifiers: Sequence[str],
    params: Mapping[str, int],
    rng: random.Random,
    locale: str,
    target: int | None = None,
    faces: Sequence[int] | None = None,
) -> dict[str, Any]:
    """Roll and grade one check of ``skill`` on ``sheet`` with its pack; a JSON-ready outcome.
    The skill's value comes from the sheet (stored, else derived, else the pack's default) and
    is used the way the pack's plain check command says
    (:func:`lwcore.rules.commands.check_command`): rolled against, added to the roll (``target``
    is then the number to beat), or filling a dice-pool parameter. The dot commands go through
    the same :func:`lwcore.rules.commands.check_with_value`. The check is kept on the sheet
    (luck, push and opposed work on it)."""
    pack = sheet.rule_system
    spec = check_command(pack)
    canonical = sheet.canonical(skill)
    if spec.stat_format:
        # the command's stat naming (a DC check on STR reads STR's modifier)
        canonical = pack.canonical(spec.stat_format.format(canonical)) or canonical
    value = sheet.get(canonical)
    if value is None:
        raise LwError(f"no value for {skill!r} on this sheet or in the rulepack's defaults")
    if not isinstance(value, int) or isinstance(value, bool):
        raise LwError(f"{canonical} is {value!r}, not a whole number")
    if target is not None and spec.value_is != "modifier":
        uses = "is the target" if spec.value_is == "target" else "fills a dice parameter"
        raise LwError(f"this rule system takes no target: the skill's value {uses}",
                      expected="difficulty or params instead")
    counts: dict[str, int] = {}
    for name in modifiers:
        counts[name] = counts.get(name, 0) + 1
    done = check_with_value(
        pack, spec, canonical, value, target=target,
        difficulty=difficulty if difficulty is not None else spec.difficulty,
        variant=variant if variant is not None else spec.variant,
        modifiers=counts, params=dict(params), rng=rng, faces=faces,
    )
    if done.roll_only:
        forget_check(sheet)
    else:
        remember_check(sheet, done.result, stat=canonical, value=value, modifier=done.modifier)
    out = {"skill": canonical, "skill_label": pack.display_name(canonical, locale), "value": value,
           "value_is": spec.value_is, **_graded(pack, done.result, locale)}
    if done.modifier is not None:
        out["modifier"] = done.modifier
    if done.roll_only:
        # nothing to beat: the total is the outcome, the grade means nothing
        out.update(roll_only=True, total=done.total, rank=None, rank_label="", success=None, critical=False,
                   fumble=False, target=None, raw_target=None, margin=None)
    return out


# --- subsystems ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class SubsystemTarget:
    """What a ``subsystem`` word of a tool call names: the pack's subsystem, its kind (``None``
    for a computer- or script-backed one), and the fixed arguments of the pack command that named it
    (``ti: {tool: …, table: realtime}``)."""

    name: str
    kind_name: str
    data: Mapping[str, Any]
    kind: SubsystemKind | None
    command: str | None = None
    fixed: Mapping[str, Any] = field(default_factory=dict)


def find_subsystem(pack: RuleSystem, word: str) -> SubsystemTarget:
    """The subsystem ``word`` names: a subsystem of the pack, a subsystem kind, or the word of a
    pack command that runs one (``commands: {sc: {tool: sanity}}``; a leading ``.`` is fine).
    :class:`LwError` listing what the pack offers when nothing matches."""
    word = word.strip()
    command = None
    fixed: Mapping[str, Any] = {}
    target = word
    if not subsystems.has(pack, word):
        key = word.lstrip("./").casefold()
        found = next((c for w, c in command_specs(pack).items() if w.casefold() == key), None)
        if found is None or not found.tool:
            hint = " (a check command: use skill_check)" if found is not None and found.action == "check" else ""
            raise LwError(f"the rule system has no subsystem {word!r}{hint}",
                          expected="one of: " + (", ".join(usable_subsystems(pack)) or "(none declared)"))
        command, target, fixed = found.word, str(found.tool), found.fixed
    kind_name, data = subsystems.spec(pack, target)
    name = subsystems.name_of(pack, target)
    scripted = data.get("computer") is not None or data.get("script") is not None
    kind = None if scripted else subsystems.kind_of(pack, kind_name, data, name)
    return SubsystemTarget(name, kind_name, data, kind, command, fixed)


def usable_subsystems(pack: RuleSystem) -> dict[str, SubsystemTarget]:
    """The pack's subsystems a tool can run on a character (not those applied inside checks,
    nor those of a kind this engine does not run)."""
    out = {}
    for name in pack.model.subsystems:
        try:
            target = find_subsystem(pack, name)
        except LwError:
            continue
        if target.kind is None or target.kind.runs_alone:
            out[name] = target
    return out


def tool_notes(pack: RuleSystem, locale: str) -> str:
    """One line naming the subsystems ``subsystem_check`` can run (with what they use and the
    pack's command words for them); "" when there are none."""
    try:
        usable = usable_subsystems(pack)
    except LwError:
        return ""
    if not usable:
        return ""
    words: dict[str, list[str]] = {}
    for word, spec in pack.model.commands.items():
        if spec.tool:
            try:
                words.setdefault(find_subsystem(pack, spec.tool).name, []).append("." + word)
            except LwError:
                continue
    items = []
    for name, target in usable.items():
        uses = []
        stat = target.data.get("stat")
        if isinstance(stat, str):
            uses.append(pack.display_name(pack.canonical(stat) or stat, locale))
        if target.kind is not None:
            uses += target.kind.uses(pack, target.data, locale)
        uses += words.get(name, [])
        items.append(f"{name} ({', '.join(uses)})" if uses else name)
    return kernel_text("subsystems.head", locale, items="; ".join(items))
