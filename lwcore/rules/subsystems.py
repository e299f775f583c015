"""Subsystems declared by rulepacks (``subsystems:``): finding one and running it.

The kernel never names a system: each subsystem is a *kind* of procedure many systems share
(:mod:`lwcore.rules.kinds`, one module each), configured by the pack (stat names, thresholds,
expressions, tables); a pack may call a subsystem anything and say ``kind:``. A procedure that
data cannot describe names a plugin computer (``computer: NAME``, registered through
``lw_rule_computers``) or a sandbox script (``script: flow.js``). Randomness and state never
leave the engine: dice are rolled here, sheet changes are applied here and reported as
``changes``.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from lwcore.errors import LwError
from lwcore.rules.dice import FaceReplay, rng_drawer
from lwcore.rules.kinds import advantage
from lwcore.rules.kinds.base import SubsystemError, SubsystemKind, SubsystemResult
from lwcore.rules.render import render_values
from lwcore.rules.scripts import run_subsystem

if TYPE_CHECKING:
    from lwcore.rules.engine import RulesEngine
    from lwcore.rules.sheet import Sheet
    from lwcore.rules.system import RuleSystem

__all__ = ["SubsystemError", "SubsystemResult", "has", "headline", "kind_of", "name_of", "net_advantage",
           "render_subsystem", "run", "run_on_kept", "spec"]


def spec(pack: RuleSystem, name: str) -> tuple[str, dict[str, Any]]:
    """``(kind, data)`` of the subsystem ``name`` (or the first one whose ``kind`` is ``name``)."""
    subs = pack.model.subsystems
    if name in subs:
        data = subs[name]
    else:
        found = next((d for d in subs.values() if isinstance(d, Mapping) and kind_word(d, "") == name), None)
        if found is None:
            raise SubsystemError(f"{pack.id} declares no {name!r} subsystem",
                                 expected="one of: " + (", ".join(subs) or "(none declared)"))
        data = found
    data = dict(data or {})
    return kind_word(data, name), data


def kind_word(data: Mapping[str, Any], name: str) -> str:
    """The ``kind:`` of a subsystem's settings (``template:`` is the same word), else its name."""
    return str(data.get("kind", data.get("template", name)))


def name_of(pack: RuleSystem, name: str) -> str:
    """The declared name of the first subsystem called ``name`` or of kind ``name`` (else ``name``)."""
    for other, odata in pack.model.subsystems.items():
        if other == name or (isinstance(odata, Mapping) and kind_word(odata, "") == name):
            return other
    return name


def has(pack: RuleSystem, name: str) -> bool:
    return name in pack.model.subsystems or any(
        isinstance(d, Mapping) and kind_word(d, "") == name for d in pack.model.subsystems.values())


def kind_of(pack: RuleSystem, kind: str, data: Mapping[str, Any], name: str = "") -> SubsystemKind:
    """The :class:`~lwcore.rules.kinds.base.SubsystemKind` of ``pack``'s engine that runs
    ``data`` (a script or a computer is refused here: :func:`run` handles those)."""
    pack_id = pack.id
    if data.get("script") is not None:
        raise SubsystemError(f"{pack_id}: subsystem {name!r} runs the script {data['script']!r}, not a kind",
                             expected="run it by name (the engine runs its script)")
    found = pack.kinds.named(kind)
    if found is None:
        names = ", ".join(k.name for k in pack.kinds.all())
        raise SubsystemError(f"{pack_id}: subsystem {name!r} has kind {kind!r}, which the engine does not run",
                             expected=f"kind: one of {names}, or computer:/script:")
    return found


def run(engine: RulesEngine | None, pack: RuleSystem, name: str, sheet: Sheet | None = None,
        **kwargs: Any) -> SubsystemResult:
    """Run subsystem ``name`` of ``pack`` (by its name or its kind); ``sheet`` is read and
    changed in place."""
    kind, data = spec(pack, name)
    sub_name = name_of(pack, name)
    if data.get("script") is not None:
        return run_subsystem(pack, sub_name, data, sheet, **kwargs)
    if data.get("computer") is not None:
        return _computer(engine, pack, sub_name, data, sheet, kwargs)
    runner = kind_of(pack, kind, data, sub_name).run
    try:
        return runner(pack, data, sheet, name=sub_name, **kwargs)
    except TypeError:
        try:
            inspect.signature(runner).bind(pack, data, sheet, name=sub_name, **kwargs)
        except TypeError as exc:
            raise SubsystemError(f"the {sub_name!r} subsystem ({kind}) cannot take these arguments: {exc}",
                                 expected=_arguments(runner)) from None
        raise


def _arguments(runner: Any) -> str:
    names = [p for p in inspect.signature(runner).parameters if p not in ("pack", "data", "sheet", "name")]
    return "its arguments: " + ", ".join(names)


def run_on_kept(engine: RulesEngine | None, pack: RuleSystem, name: str, sheet: Sheet | None, *,
                want: str | None = None, rng: random.Random | None = None, faces: Any = None) -> SubsystemResult:
    """Run a kind that works on the character's kept check (luck, push) on ``sheet``; the kept
    check becomes its new form."""
    kind, data = spec(pack, name)
    found = kind_of(pack, kind, data, name_of(pack, name))
    on_kept = getattr(found, "on_kept", None)
    if found.kept_checks != 1 or on_kept is None or data.get("computer") is not None:
        raise SubsystemError(f"the {name!r} subsystem does not work on one kept check")
    if sheet is None:
        raise SubsystemError("this character has no earlier check", expected="a sheet with a kept check")
    return on_kept(pack, data, sheet, name=name_of(pack, name), want=want, rng=rng, faces=faces)


def render_subsystem(pack: RuleSystem, result: SubsystemResult, locale: str = "en") -> str:
    """A subsystem result as one line in ``locale`` (the kind's renderer, else its values)."""
    found = pack.kinds.named(result.kind)
    return found.render(pack, result, locale) if found is not None else render_values(pack, result, locale)


def headline(pack: RuleSystem, name: str, answer: Mapping[str, Any]) -> str:
    """How a line about a run of the subsystem ``name`` starts: its kind's
    :attr:`~lwcore.rules.kinds.base.SubsystemKind.headline` filled from a tool's answer (its
    ``character`` and what the kind added there). A computer or a script, or an answer without
    a field the pattern names, gives the character alone."""
    kind, data = spec(pack, name)
    scripted = data.get("computer") is not None or data.get("script") is not None
    found = None if scripted else pack.kinds.named(kind)
    try:
        return (found or SubsystemKind).headline.format_map(answer)
    except KeyError:
        return str(answer.get("character", ""))


def net_advantage(pack: RuleSystem, gains: int, losses: int, rule: str | None = None) -> dict[str, int]:
    """Modifier counts after the pack's ``advantage`` subsystem nets them (``rule`` picks a
    ``house:`` rule)."""
    _kind, data = spec(pack, "advantage")
    return advantage.net(data, gains, losses, rule)


def _computer(engine: RulesEngine | None, pack: RuleSystem, name: str, data: Mapping[str, Any],
              sheet: Sheet | None, kwargs: dict[str, Any]) -> SubsystemResult:
    cname = str(data["computer"])
    fn = engine.computer(cname) if engine is not None else None
    if fn is None:
        raise SubsystemError(f"{pack.id}: subsystem {name!r} needs the computer {cname!r}, which is not registered")
    faces = kwargs.pop("faces", None)
    rng = kwargs.pop("rng", None)
    replay = FaceReplay(faces, fallback=None if rng is None else rng_drawer(rng)) if faces is not None else None
    draw = replay if replay is not None else rng_drawer(rng)
    call = {"system": pack.id, "subsystem": name, "data": dict(data), "args": dict(kwargs), "draw": draw,
            "values": sheet.values() if sheet is not None else {}}
    try:
        out = fn(call)
    except LwError:
        raise
    except Exception as exc:  # noqa: BLE001 - plugin code
        raise SubsystemError(f"{pack.id}: computer {cname!r} failed: {type(exc).__name__}: {exc}") from None
    if replay is not None:
        replay.finish()
    if not isinstance(out, Mapping) or not isinstance(out.get("outcome"), str):
        raise SubsystemError(f"{pack.id}: computer {cname!r} must return a mapping with an outcome")
    changes: dict[str, tuple[Any, Any]] = {}
    for stat, delta in (out.get("adjust") or {}).items():
        if sheet is not None and isinstance(delta, int):
            floor = data.get("floor")
            before, after = sheet.adjust(stat, delta, floor=int(floor) if floor is not None else None)
            changes[sheet.canonical(stat)] = (before, after)
    success = out.get("success")
    return SubsystemResult(pack.id, name, "computer", out["outcome"], None if success is None else bool(success),
                           values=dict(out.get("values") or {}), changes=changes, flags=dict(out.get("flags") or {}),
                           rolls=list(out.get("rolls") or []))
