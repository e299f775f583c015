"""The turn pipeline's one door to the rules engine (``lwcore.rules``).

Everything the turn pipeline needs from the rules engine goes through here -- the room's
rule-system expertise text, one graded check, and a subsystem's declared ``loss`` -- so the
pipeline never names a system and never compares rank ids: it reads the semantic flags of a
:class:`lwcore.rules.compiled.CheckResult` (``success``, ``critical``, ``fumble``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from lwcore.errors import LwError

if TYPE_CHECKING:
    import random

    from lwcore.kernel import Kernel
    from lwcore.rules.compiled import CompiledPack


def pack_for(kernel: Kernel, system: str) -> CompiledPack:
    """The compiled rulepack of ``system`` (an id or any name it answers to)."""
    from lwcore.rules import engine_for

    engine = engine_for(kernel)
    system_id = engine.find(system) or system
    return engine.pack(system_id)


def expertise(kernel: Kernel, system: str, variant: str | None, locale: str) -> str:
    """The rulepack's ``expertise`` text in ``locale`` ("" when the pack or text is missing)."""
    try:
        return pack_for(kernel, system).expertise(locale)
    except LwError:
        return ""


def sheet_value(pack: CompiledPack, values: Mapping[str, Any], name: str) -> tuple[str, str | None, Any]:
    """``(canonical name, key on the sheet or None, value)``: the sheet's own value, else a
    derived stat, else the pack's default. :class:`LwError` when there is none."""
    canonical = pack.canonical(name) or name
    for key, value in values.items():
        if key == canonical or pack.canonical(key) == canonical:
            return canonical, key, value
    try:
        derived = pack.derive(values)
    except LwError:
        derived = {}
    if canonical in derived:
        return canonical, None, derived[canonical]
    if canonical in pack.model.defaults:
        return canonical, None, pack.model.defaults[canonical]
    raise LwError(f"no value for {name!r} on this sheet or in the rulepack's defaults")


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
    }


def resolve_check(
    kernel: Kernel,
    system: str,
    variant: str | None,
    values: Mapping[str, Any],
    *,
    skill: str,
    difficulty: str | None,
    modifiers: list[str],
    params: Mapping[str, int],
    rng: random.Random,
    locale: str,
) -> dict[str, Any]:
    """Roll and grade one check with the room's rulepack; a JSON-ready outcome."""
    pack = pack_for(kernel, system)
    canonical, _key, value = sheet_value(pack, values, skill)
    counts: dict[str, int] = {}
    for name in modifiers:
        counts[name] = counts.get(name, 0) + 1
    result = pack.check(
        _int(value, canonical), difficulty=difficulty, variant=variant, modifiers=counts or None,
        params=dict(params) or None, rng=rng,
    )
    return {"skill": canonical, "skill_label": pack.display_name(canonical, locale), "value": value,
            **_graded(pack, result, locale)}


def loss_subsystems(pack: CompiledPack) -> dict[str, Mapping[str, Any]]:
    """The pack's subsystems that declare a ``loss`` (a stat lost by a graded roll)."""
    subsystems = pack.data.get("subsystems") if isinstance(pack.data, Mapping) else None
    if not isinstance(subsystems, Mapping):
        return {}
    return {str(k): v for k, v in subsystems.items() if isinstance(v, Mapping) and "loss" in v}


def resolve_loss(
    kernel: Kernel,
    system: str,
    variant: str | None,
    values: Mapping[str, Any],
    *,
    subsystem: str,
    loss: str,
    rng: random.Random,
    locale: str,
) -> dict[str, Any]:
    """A subsystem loss check: grade a roll against the subsystem's stat with the pack's
    resolution, then roll the success or the failure part of ``loss`` (``"S/F"``, the shape
    the pack declares) with the engine's dice. Returns the outcome and the stat's new value
    (never below 0); the caller writes it to the sheet."""
    from lwcore.rules.dice import roll

    pack = pack_for(kernel, system)
    declared = loss_subsystems(pack)
    if subsystem not in declared:
        raise LwError(f"the rule system has no loss subsystem {subsystem!r}",
                      expected="one of: " + (", ".join(declared) or "(none declared)"))
    spec = declared[subsystem]
    stat = str(spec.get("stat") or subsystem)
    canonical, key, value = sheet_value(pack, values, stat)
    current = _int(value, canonical)
    parts = loss.split("/", 1)
    if len(parts) != 2 or not parts[0].strip() or not parts[1].strip():
        raise LwError(f"loss {loss!r} is not success/failure", expected=f"the shape {spec.get('loss')!r}, e.g. 0/1d6")
    result = pack.check(current, variant=variant, rng=rng)
    part = parts[0] if result.success else parts[1]
    lost = roll(part.strip(), rng)
    amount = max(0, lost.total)
    new_value = max(0, current - amount)
    return {
        "subsystem": subsystem,
        "stat": canonical,
        "stat_label": pack.display_name(canonical, locale),
        "sheet_key": key or canonical,
        "before": current,
        "loss": loss,
        "loss_roll": lost.to_json(),
        "lost": current - new_value,
        "value": new_value,
        **_graded(pack, result, locale),
    }


def tool_notes(kernel: Kernel, system: str, locale: str) -> str:
    """One line naming the pack's loss subsystems (with their stat and loss shape), for
    ``loss_check``; "" when there are none."""
    try:
        pack = pack_for(kernel, system)
    except LwError:
        return ""
    items = []
    for name, spec in loss_subsystems(pack).items():
        stat = pack.canonical(str(spec.get("stat") or name)) or str(spec.get("stat") or name)
        items.append(f"{name} ({pack.display_name(stat, locale)}, {spec.get('loss')})")
    if not items:
        return ""
    head = "loss_check 可用的子系统：" if locale.startswith("zh") else "Subsystems for loss_check: "
    return head + "; ".join(items)
