"""The turn pipeline's one door to the rules engine (``lwcore.rules``).

Everything the turn pipeline needs from the rules engine goes through here -- the room's
rule-system expertise text, one graded check on a kernel sheet, and which pack subsystem a
tool call names (by its name, its kind, or a pack command word) with the engine arguments
for it -- so the pipeline never names a system and never compares rank ids: it reads the
semantic flags of a :class:`lwcore.rules.compiled.CheckResult` (``success``, ``critical``,
``fumble``) and runs subsystems through ``RulesEngine.subsystem``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lwcore.errors import LwError

if TYPE_CHECKING:
    import random

    from lwcore.kernel import Kernel
    from lwcore.rules.compiled import CompiledPack
    from lwcore.rules.sheet import Sheet


def expertise(pack: CompiledPack, locale: str) -> str:
    """The rulepack's ``expertise`` text in ``locale`` ("" when the pack has none)."""
    return pack.expertise(locale)


def _int(value: Any, name: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise LwError(f"{name} is {value!r}, not a number") from None


def _graded(pack: CompiledPack, result: Any, locale: str) -> dict[str, Any]:
    return {
        "roll": result.roll,
        "target": result.target,
        "raw_target": result.raw_target,
        "dice": list(result.dice),
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


def resolve_check(
    kernel: Kernel,
    system: str,
    variant: str | None,
    sheet: Sheet,
    *,
    skill: str,
    difficulty: str | None,
    modifiers: list[str],
    params: Mapping[str, int],
    rng: random.Random,
    locale: str,
    target: int | None = None,
    faces: Sequence[int] | None = None,
) -> dict[str, Any]:
    """Roll and grade one check with the room's rulepack; a JSON-ready outcome. The skill's
    value comes from the kernel sheet (stored, else derived, else the pack's default) and is
    used the way the pack's plain check command says (:func:`lwcore.rules.commands.check_command`:
    its first ``action: check`` command): rolled against, added to the roll (``target`` is then
    the number to beat), or filling a dice-pool parameter. Both this and the dot commands go
    through :func:`lwcore.rules.commands.check_with_value`."""
    from lwcore.rules.commands import check_command, check_with_value

    pack = sheet.pack
    found = check_command(pack)
    word, spec = found if found is not None else ("check", {})
    value_is = str(spec.get("value_is") or "target")
    canonical = sheet.canonical(skill)
    if spec.get("stat_format"):
        # the command's stat naming (a DC check on STR reads STR's modifier)
        canonical = pack.canonical(str(spec["stat_format"]).format(canonical)) or canonical
    value = sheet.get(canonical)
    if value is None:
        raise LwError(f"no value for {skill!r} on this sheet or in the rulepack's defaults")
    if target is not None and value_is != "modifier":
        uses = "is the target" if value_is == "target" else "fills a dice parameter"
        raise LwError(f"this rule system takes no target: the skill's value {uses}",
                      expected="difficulty or params instead")
    counts: dict[str, int] = {}
    for name in modifiers:
        counts[name] = counts.get(name, 0) + 1
    done = check_with_value(
        pack, spec, canonical, _int(value, canonical), target=target,
        difficulty=difficulty if difficulty is not None else spec.get("difficulty"),
        variant=variant if variant is not None else spec.get("variant"),
        modifiers=counts, params=dict(params), rng=rng, faces=faces, command=word,
    )
    from lwcore.rules import subsystems

    if done.roll_only:
        sheet.state.pop(subsystems.LAST_CHECK, None)
    else:
        # kept for luck / push / opposed (saved with the sheet)
        subsystems.remember_check(sheet, done.result, stat=canonical, value=value,
                                  **({"modifier": done.modifier} if done.modifier is not None else {}))
    out = {"skill": canonical, "skill_label": pack.display_name(canonical, locale), "value": value,
           "value_is": value_is, **_graded(pack, done.result, locale)}
    if done.modifier is not None:
        out["modifier"] = done.modifier
    if done.roll_only:
        # nothing to beat: the total is the outcome, the grade means nothing
        out.update(roll_only=True, total=done.total, rank=None, rank_label="", success=None, critical=False,
                   fumble=False, target=None, raw_target=None, margin=None)
    return out


# --- subsystems ---------------------------------------------------------------------------------

NEEDS_A_CHECK = ("advantage",)
"""Subsystem kinds no tool runs (how modifiers net is applied inside every check)."""

ON_EARLIER_CHECKS = ("luck", "opposed", "push")
"""Subsystem kinds that work on a character's most recent check (kept in the sheet's ``state``
under :data:`lwcore.rules.subsystems.LAST_CHECK` by every check the turn makes)."""


@dataclass(frozen=True)
class SubsystemTarget:
    """What a ``subsystem`` word of a tool call names: the pack's subsystem, its kind, and the
    fixed arguments of the pack command that named it (``ti: {tool: …, table: realtime}``)."""

    name: str
    kind: str
    data: Mapping[str, Any]
    command: str | None = None
    fixed: Mapping[str, Any] = field(default_factory=dict)


def find_subsystem(pack: CompiledPack, word: str) -> SubsystemTarget:
    """The subsystem ``word`` names: a subsystem of the pack, a subsystem kind, or the word of a
    pack command that runs one (``commands: {sc: {tool: sanity}}``; a leading ``.`` is fine).
    :class:`LwError` listing what the pack offers when nothing matches."""
    from lwcore.rules import subsystems

    word = word.strip()
    command = None
    fixed: dict[str, Any] = {}
    target = word
    if not subsystems.has(pack, word):
        key = word.lstrip("./").casefold()
        spec = next((c for w, c in pack.model.commands.items() if w.casefold() == key), None)
        if spec is None or not spec.tool:
            hint = " (a check command: use skill_check)" if spec is not None and spec.action == "check" else ""
            raise LwError(f"the rule system has no subsystem {word!r}{hint}",
                          expected="one of: " + (", ".join(usable_subsystems(pack)) or "(none declared)"))
        command, target = key, spec.tool
        if spec.table:
            fixed["table"] = spec.table
    kind, data = subsystems.spec(pack, target)
    return SubsystemTarget(subsystems.name_of(pack, target), kind, data, command, fixed)


def usable_subsystems(pack: CompiledPack) -> dict[str, SubsystemTarget]:
    """The pack's subsystems a tool can run on a character (not those needing earlier checks)."""
    out = {}
    for name in pack.model.subsystems:
        target = find_subsystem(pack, name)
        if target.data.get("computer") is not None or target.kind not in NEEDS_A_CHECK:
            out[name] = target
    return out


def subsystem_kwargs(target: SubsystemTarget, *, loss: str | None, skill: str | None, table: str | None,
                     bonus: int, penalty: int, args: Mapping[str, Any], locale: str) -> dict[str, Any]:
    """The engine's keyword arguments for one run of ``target`` from a tool call's arguments;
    :class:`LwError` for a missing or a meaningless argument."""
    kind = target.kind
    given = {"loss": loss, "skill": skill, "table": table or target.fixed.get("table")}
    if target.data.get("computer") is not None:
        kwargs: dict[str, Any] = dict(args)
        if bonus:
            kwargs["bonus"] = bonus
        if penalty:
            kwargs["penalty"] = penalty
        kwargs.update({k: v for k, v in given.items() if v is not None})
        return kwargs
    if kind in NEEDS_A_CHECK:
        raise LwError(f"the {target.name!r} subsystem works on earlier check results; no tool runs it")
    if kind in ON_EARLIER_CHECKS:
        raise LwError(f"the {target.name!r} subsystem works on the last check: run it with run_on_checks")
    takes = {"sanity": {"loss", "bonus", "penalty"}, "growth": {"skill"}, "random_madness": {"table"},
             "table": {"table"}, "tally": {"modifier"}}.get(kind, set())
    extra = [k for k, v in (*given.items(), ("bonus", bonus), ("penalty", penalty)) if v and k not in takes]
    extra += [k for k in args if k not in takes]
    if extra:
        raise LwError(f"the {target.name!r} subsystem does not take {', '.join(extra)}",
                      expected="its arguments: " + (", ".join(sorted(takes)) or "none"))
    kwargs = {}
    if kind == "sanity":
        if not loss:
            raise LwError(f"the {target.name!r} subsystem needs loss (SUCCESS/FAILURE)", expected="e.g. 0/1d6")
        kwargs.update(loss=loss, bonus=bonus, penalty=penalty)
    elif kind == "growth":
        if not skill:
            raise LwError(f"the {target.name!r} subsystem needs skill", expected="the skill to improve")
        kwargs["skill"] = skill
    elif kind in ("random_madness", "table"):
        kwargs.update(table_name=given["table"], locale=locale)
    elif kind == "tally" and "modifier" in args:
        kwargs["modifier"] = _int(args["modifier"], "modifier")
    return kwargs


def tool_notes(pack: CompiledPack, locale: str) -> str:
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
        if target.kind == "sanity":
            uses.append("loss S/F")
        elif target.kind == "growth":
            uses.append("skill")
        elif target.kind in ("luck", "push"):
            uses.append("last check" if not locale.startswith("zh") else "上一次检定")
        elif target.kind == "opposed":
            uses.append("opponent [skill, opponent_skill]")
        elif target.kind in ("random_madness", "table"):
            uses.append("table " + "|".join(str(t) for t in (target.data.get("tables") or {})))
        uses += words.get(name, [])
        items.append(f"{name} ({', '.join(uses)})" if uses else name)
    head = "subsystem_check 可用的子系统：" if locale.startswith("zh") else "Subsystems for subsystem_check: "
    return head + "; ".join(items)


def run_on_checks(kernel: Kernel, room: Any, target: SubsystemTarget, sheet: Sheet, *, opponent: str | None,
                  skill: str | None, opponent_skill: str | None, want: str | None, rng: random.Random,
                  locale: str, variant: str | None) -> tuple[Any, dict[str, Any], list[str]]:
    """Run a ``luck`` / ``push`` / ``opposed`` subsystem on the most recent checks kept in the
    sheets' ``state`` (``opposed`` may roll both checks instead, given ``skill``).
    Returns ``(SubsystemResult, extra output, member ids whose sheet changed)``; the kept check
    is replaced by its new form (luck lowers its roll, a push is flagged ``pushed``)."""
    from dataclasses import replace

    from lwcore.rules import engine_for, subsystems

    engine = engine_for(kernel)
    pack = room.pack
    member_id = next(m for m, s in room.sheets.items() if s is sheet)
    kind = target.kind
    if kind in ("luck", "push"):
        if opponent or skill or opponent_skill:
            raise LwError(f"the {target.name!r} subsystem works on the character's last check only",
                          expected="no opponent/skill")
        if want and kind == "push":
            raise LwError("push takes no want", expected="no want")
        check, kept = subsystems.last_check(sheet)
        keep = {k: kept[k] for k in ("stat", "value", "modifier") if k in kept}
        if kind == "luck":
            result = engine.subsystem(pack.id, target.name, sheet, check=check, want=subsystems.rank_named(pack, want))
            subsystems.remember_check(sheet, subsystems.after_luck(pack, check, result), **keep)
        else:
            result = engine.subsystem(pack.id, target.name, previous=check, modifier=int(kept.get("modifier") or 0),
                                      rng=rng)
            assert result.check is not None
            subsystems.remember_check(sheet, replace(result.check, flags={**dict(result.check.flags),
                                                                          **result.flags}), **keep)
        return result, {"stat": keep.get("stat")}, [member_id]
    # opposed
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
        rolled = []
        for who, what in ((sheet, skill), (other, opponent_skill or skill)):
            rolled.append(resolve_check(kernel, pack.id, variant, who, skill=what, difficulty=None, modifiers=[],
                                        params={}, rng=rng, locale=locale))
        extra["checks"] = rolled
    first, _ = subsystems.last_check(sheet)
    try:
        second, _ = subsystems.last_check(other)
    except LwError:
        raise LwError(f"{other.name} has no earlier check", expected="opponent_skill to roll one") from None
    result = engine.subsystem(pack.id, target.name, first=first, second=second)
    changed = [member_id, other_id] if (skill or opponent_skill) else []
    return result, extra, changed
