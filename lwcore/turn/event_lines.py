"""The history's event lines, rendered for a reader's locale.

A check or subsystem event keeps its structured outcome in the history entry's ``data`` (the
pack's rank id, the canonical skill or stat, the rolled figures); its stored ``text`` is only
the line in the locale of the turn that made it. Readers get the line rebuilt from the data
with the rulepack's own renderer (:func:`lwcore.rules.render.render_check` and
:func:`~lwcore.rules.subsystems.render_subsystem`, through ``display_name`` and ``label``), so a
player reading in English sees English labels in a room kept in Chinese. Variable events
show the variable's label and, for an enum, its option labels in the reader's locale.

Nothing here decides who may read an entry: :mod:`lwcore.turn.view` filters first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from lwcore.errors import LwError
from lwcore.i18n import Said
from lwcore.rules import subsystems
from lwcore.rules.render import render_check, render_total
from lwcore.rules.subsystems import SubsystemResult, headline, render_subsystem
from lwcore.rules.system import CheckResult, RuleSystem
from lwcore.turn.events import CheckRolled, SubsystemRan, VariableChanged, is_subsystem_data

if TYPE_CHECKING:
    from lwcore.turn.history import HistoryEntry
    from lwcore.turn.room import Room


def check_result(data: Mapping[str, Any], system: str = "") -> CheckResult:
    """A :class:`~lwcore.rules.system.CheckResult` from its JSON form (``to_json``) or from
    the graded fields a ``skill_check`` result carries; missing fields take neutral values."""
    def _int(key: str, default: int = 0) -> int:
        value = data.get(key)
        return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else default

    def _opt(key: str) -> int | None:
        value = data.get(key)
        return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None

    return CheckResult(
        system=str(data.get("system") or system),
        rank=str(data.get("rank", "")),
        success=bool(data.get("success")),
        critical=bool(data.get("critical")),
        fumble=bool(data.get("fumble")),
        tier=_int("tier"),
        flags=dict(data.get("flags") or {}),
        margin=data.get("margin"),
        roll=_int("roll"),
        dice=tuple(int(d) for d in data.get("dice") or () if isinstance(d, (int, float))),
        target=_opt("target"),
        raw_target=_opt("raw_target"),
        difficulty=data.get("difficulty") or None,
        variant=data.get("variant") or None,
        modifiers={str(k): int(v) for k, v in dict(data.get("modifiers") or {}).items()},
        successes=_int("successes"),
        ones=_int("ones"),
        params={str(k): int(v) for k, v in dict(data.get("params") or {}).items()},
    )


def subsystem_result(pack: RuleSystem, data: Mapping[str, Any]) -> SubsystemResult:
    """A :class:`~lwcore.rules.subsystems.SubsystemResult` from a ``subsystem_check`` event
    (its kind is read from the pack, as the event's own ``kind`` names the event)."""
    name = str(data["subsystem"])
    kind, _ = subsystems.spec(pack, name)
    check = data.get("check")
    return SubsystemResult(
        system=pack.id,
        subsystem=name,
        kind=kind,
        outcome=str(data.get("outcome", "")),
        success=data.get("success"),
        values=dict(data.get("values") or {}),
        changes={k: tuple(v) for k, v in dict(data.get("changes") or {}).items()},
        flags=dict(data.get("flags") or {}),
        rolls=list(data.get("rolls") or []),
        check=check_result(check, pack.id) if isinstance(check, Mapping) else None,
    )


def is_check(data: Mapping[str, Any]) -> bool:
    return data.get("kind") == "check" and "skill" in data and "rank" in data


def check_line(pack: RuleSystem, data: Mapping[str, Any], locale: str) -> str:
    """``陈默 侦查 65: 1d100=63/65 成功`` -- a skill check event in ``locale``."""
    modifier = data.get("modifier")
    modifier = modifier if isinstance(modifier, int) and not isinstance(modifier, bool) else None
    result = check_result(data, pack.id)
    if data.get("roll_only") and modifier is not None:
        text = render_total(pack, str(data["skill"]), modifier, result, locale)
    else:
        text = render_check(pack, result, locale, stat=str(data["skill"]), modifier=modifier)
    who = data.get("character")
    return f"{who} {text}" if who else text


def subsystem_line(pack: RuleSystem, data: Mapping[str, Any], locale: str) -> str:
    """``陈默 Sanity 1/1d8: …`` -- a subsystem event in ``locale``."""
    text = render_subsystem(pack, subsystem_result(pack, data), locale)
    return f"{headline(pack, str(data['subsystem']), data)} {text}" if data.get("character") else text


def variable_line(room: Room, event: VariableChanged, locale: str) -> str | None:
    """``Fog: Thick fog → Sun-blotted`` -- a variable event in ``locale`` (``None`` when the
    variable is no longer declared; ``""`` when it changed nothing a reader can see: a write
    of the value it had is no change, and a reader is not told of it). A variable that had
    no value reads ``Storm: rising``, never ``None → rising``."""
    var = room.variable(str(event.id))
    if var is None:
        return None
    value = var.show_value(event.value, locale)
    before = event.before
    was = var.show_value(before, locale) if before is not None else ""
    if was == value:
        return ""
    return f"{var.label(locale)}: {was} → {value}" if str(was).strip() else f"{var.label(locale)}: {value}"


def entry_text(room: Room, entry: HistoryEntry, locale: str, *, variables: bool = True) -> str:
    """The line of ``entry`` for a reader in ``locale``: a check, subsystem or variable event
    is rebuilt from its data, a catalogued message (``said``) read in ``locale``; anything else (or data the pack cannot render any more, e.g.
    after a pack change) keeps its stored text. ``variables=False`` keeps a variable event's
    stored line (ids and canonical values: what the keeper's prompt shows)."""
    event = entry.event
    if event is None:
        return entry.text
    said = Said.from_json(event.data().get("said"))
    if said is not None:
        return said.reread(locale) or entry.text
    try:
        if isinstance(event, VariableChanged):
            if not variables:
                return entry.text
            line = variable_line(room, event, locale)
            return line if line is not None else entry.text
        if isinstance(event, CheckRolled) and is_check(event.data()):
            return check_line(room.rule_system, event.result, locale)
        if isinstance(event, SubsystemRan) and is_subsystem_data(event.result):
            return subsystem_line(room.rule_system, event.result, locale)
    except (LwError, KeyError, TypeError, ValueError, AttributeError, AssertionError):
        return entry.text
    return entry.text
