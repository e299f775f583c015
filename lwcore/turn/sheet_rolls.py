"""The rolls a turn makes on characters' sheets: skill checks and subsystems.

This is the turn pipeline's one door to the rules engine (``lwcore.rules``): the room's
rule-system expertise text, one graded check on a kernel sheet (:func:`check_on_sheet`), and
which pack subsystem a tool call names (by its name, its kind, or a pack command word) with
the engine arguments for it -- read from the subsystem's kind
(:mod:`lwcore.rules.kinds`), so a new kind needs nothing here. The pipeline never names a
system and never compares rank ids: it reads the semantic flags of a
:class:`lwcore.rules.system.CheckResult` (``success``, ``critical``, ``fumble``) and runs
subsystems through ``RulesEngine.subsystem``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lwcore.errors import LwError
from lwcore.rules import engine_for, subsystems
from lwcore.rules.commands import check_command, check_with_value
from lwcore.rules.kept_check import forget_check, last_check, remember_check
from lwcore.rules.kinds.base import SubsystemKind, SubsystemResult

if TYPE_CHECKING:
    from lwcore.kernel import Kernel
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
    pack = sheet.pack
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

    @property
    def kept_checks(self) -> int:
        """How many characters' kept checks it works on (0: none, it rolls its own)."""
        return self.kind.kept_checks if self.kind is not None else 0


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
        found = next(((w, c) for w, c in pack.model.commands.items() if w.casefold() == key), None)
        if found is None or not found[1].tool:
            hint = " (a check command: use skill_check)" if found is not None and found[1].action == "check" else ""
            raise LwError(f"the rule system has no subsystem {word!r}{hint}",
                          expected="one of: " + (", ".join(usable_subsystems(pack)) or "(none declared)"))
        command, target = found[0], str(found[1].tool)
        fixed = dict(found[1].args or {}, **({"table": found[1].table} if found[1].table else {}))
    kind_name, data = subsystems.spec(pack, target)
    name = subsystems.name_of(pack, target)
    scripted = data.get("computer") is not None or data.get("script") is not None
    kind = None if scripted else subsystems.kind_of(kind_name, data, pack.id, name)
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


def subsystem_kwargs(target: SubsystemTarget, *, loss: str | None, skill: str | None, table: str | None,
                     bonus: int, penalty: int, args: Mapping[str, Any], locale: str) -> dict[str, Any]:
    """The engine's keyword arguments for one run of ``target`` from a tool call's arguments
    (the kind says which it takes); :class:`LwError` for a missing or a meaningless argument."""
    given: dict[str, Any] = {"loss": loss, "skill": skill, "table": table or target.fixed.get("table"),
                             "bonus": bonus, "penalty": penalty}
    if target.kind is None:  # a computer or a script: everything goes through
        return {**dict(args), **{k: v for k, v in given.items() if v}}
    if not target.kind.runs_alone:
        raise LwError(f"the {target.name!r} subsystem works on earlier check results; no tool runs it")
    if target.kind.kept_checks:
        raise LwError(f"the {target.name!r} subsystem works on the last check: run it with run_on_checks")
    for key, value in args.items():
        if key in given and given[key]:
            raise LwError(f"{key} is given twice (as an argument and in args)")
        given[key] = value
    return target.kind.tool_kwargs(target.name, given, locale)


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
    head = "subsystem_check 可用的子系统：" if locale.startswith("zh") else "Subsystems for subsystem_check: "
    return head + "; ".join(items)


def run_on_checks(kernel: Kernel, room: Any, target: SubsystemTarget, sheet: Sheet, *, opponent: str | None,
                  skill: str | None, opponent_skill: str | None, want: str | None, rng: random.Random,
                  locale: str, variant: str | None) -> tuple[SubsystemResult, dict[str, Any], list[str]]:
    """Run a subsystem that works on the most recent checks kept on the sheets (a luck spend or
    a push on one character's; an opposed roll on two characters', which may roll both checks
    first, given ``skill``). Returns ``(SubsystemResult, extra output, member ids whose sheet
    changed)``; a kept check is replaced by its new form (luck lowers its roll, a push is
    flagged ``pushed``)."""
    engine = engine_for(kernel)
    pack = room.pack
    member_id = next(m for m, s in room.sheets.items() if s is sheet)
    if target.kept_checks == 1:
        if opponent or skill or opponent_skill:
            raise LwError(f"the {target.name!r} subsystem works on the character's last check only",
                          expected="no opponent/skill")
        result = subsystems.run_on_kept(engine, pack, target.name, sheet, want=want, rng=rng)
        return result, {"stat": result.values.get("stat")}, [member_id]
    if want:
        raise LwError("opposed takes no want", expected="opponent [skill, opponent_skill]")
    if not opponent:
        raise LwError(f"the {target.name!r} subsystem needs opponent", expected="the other character")
    other_id, other = room.sheet_of(opponent)
    if other is sheet:
        raise LwError("a character cannot oppose themself", expected="another character")
    extra: dict[str, Any] = {"opponent": other.name, "opponent_member": other_id}
    if skill or opponent_skill:
        if not skill:
            raise LwError("rolling both checks needs skill", expected="skill (and opponent_skill)")
        extra["checks"] = [check_on_sheet(who, skill=what, variant=variant, difficulty=None, modifiers=[], params={},
                                          rng=rng, locale=locale)
                           for who, what in ((sheet, skill), (other, opponent_skill or skill))]
    first, _ = last_check(sheet)
    try:
        second, _ = last_check(other)
    except LwError:
        raise LwError(f"{other.name} has no earlier check", expected="opponent_skill to roll one") from None
    result = engine.subsystem(pack.id, target.name, first=first, second=second)
    changed = [member_id, other_id] if (skill or opponent_skill) else []
    return result, extra, changed
