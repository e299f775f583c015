"""Generic subsystems declared by rulepacks (``subsystems:``), run by pack data.

The kernel never names a system: each subsystem is a *kind* of procedure many systems share,
configured by the pack (stat names, thresholds, expressions, tables); a pack may call a
subsystem anything and say ``kind:``. A procedure that data cannot describe names a plugin
computer (``computer: NAME``, registered through ``lw_rule_computers``) or a sandbox script
(``script: flow.js``). Randomness and state never leave the engine: dice are rolled here,
sheet changes are applied here and reported as ``changes``.

Kinds (the subsystem's ``kind:``, else its name):

- ``sanity`` — roll the pack's check against a stat; lose ``success/failure`` dice
  (``1/1d6``); a fumble loses the failure expression's maximum; ``floor``; flags
  ``temporary`` when one loss is ``temporary_at`` or more and ``permanent`` at ``permanent_at``.
- ``luck`` — spend a stat to lower a one-die roll to a better rank (never off a fumble when
  ``forbid_fumble``; never more than is held).
- ``growth`` — improvement roll: ``improve_when`` (closed expression over ``roll``, ``skill``),
  gain ``gain`` dice up to ``cap``.
- ``opposed`` — two check results: higher ``tier`` wins; ties by ``tie`` rules
  (``higher_skill``), then ``final`` (``draw``, ``first``, ``second``).
- ``random_madness`` / ``table`` — roll on a declared table (``tables: {NAME: {roll, duration, unit, entries}}``).
- ``push`` — re-roll a failed check once; the result is flagged ``pushed``.
- ``advantage`` — how opposing modifiers net: ``cancel: all`` (any of each cancels) or ``net``.
- ``tally`` — a check whose ranks add to counters (death saves): rank flags ``tally_success``,
  ``tally_failure``, ``regain``; ends at ``successes_needed`` / ``failures_needed``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lwcore.contributions import localized
from lwcore.errors import LwError
from lwcore.rules.errors import CheckError

if TYPE_CHECKING:
    from lwcore.rules.compiled import CheckResult, CompiledPack
    from lwcore.rules.engine import RulesEngine
    from lwcore.rules.sheet import Sheet


class SubsystemError(CheckError):
    """A subsystem cannot run as asked (unknown, malformed, or refused by its rules)."""


@dataclass
class SubsystemResult:
    """What a subsystem did. ``outcome`` is a short id the pack's labels can name."""

    system: str
    subsystem: str
    kind: str
    outcome: str
    success: bool | None = None
    values: dict[str, Any] = field(default_factory=dict)
    changes: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    flags: dict[str, Any] = field(default_factory=dict)
    rolls: list[dict[str, Any]] = field(default_factory=list)
    check: CheckResult | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "subsystem": self.subsystem,
            "kind": self.kind,
            "outcome": self.outcome,
            "success": self.success,
            "values": dict(self.values),
            "changes": {k: list(v) for k, v in self.changes.items()},
            "flags": dict(self.flags),
            "rolls": list(self.rolls),
            "check": self.check.to_json() if self.check is not None else None,
        }


KINDS = ("sanity", "luck", "growth", "opposed", "random_madness", "table", "push", "advantage", "tally")


def spec(pack: CompiledPack, name: str) -> tuple[str, dict[str, Any]]:
    """``(kind, data)`` of the subsystem ``name`` (or the one whose ``kind`` is ``name``)."""
    subs = pack.model.subsystems
    data = subs.get(name)
    if name not in subs:
        for other, odata in subs.items():
            if isinstance(odata, Mapping) and odata.get("kind") == name:
                name, data = other, odata
                break
        else:
            raise SubsystemError(f"{pack.id} declares no {name!r} subsystem",
                                 expected="one of: " + (", ".join(subs) or "(none declared)"))
    data = dict(data or {})
    kind = str(data.get("kind", name))
    return kind, data


def name_of(pack: CompiledPack, name: str) -> str:
    """The declared name of the first subsystem called ``name`` or of kind ``name`` (else ``name``)."""
    for other, odata in pack.model.subsystems.items():
        if other == name or (isinstance(odata, Mapping) and odata.get("kind") == name):
            return other
    return name


def has(pack: CompiledPack, name: str) -> bool:
    try:
        spec(pack, name)
    except SubsystemError:
        return False
    return True


def _rng(rng: random.Random | None) -> random.Random:
    return rng if rng is not None else random.Random()


def _roll(expr: str, rng: random.Random | None, what: str) -> Any:
    from lwcore.rules.dice import compile_dice

    try:
        return compile_dice(str(expr)).roll(rng)
    except LwError as exc:
        raise SubsystemError(f"{what}: {exc.message}", expected=exc.expected) from None


def dice_max(expr: str) -> int:
    """The largest total of a dice expression (every die at its highest face)."""
    from lwcore.rules.dice import DIGIT, FUDGE, compile_dice

    def top(sides: int) -> int:
        if sides == FUDGE:
            return 1
        if sides == DIGIT:
            return 9
        return sides

    compiled = compile_dice(str(expr))
    if "!" in compiled.text:
        raise SubsystemError(f"{expr!r}: an exploding roll has no maximum")
    return compiled.evaluate(top).total


def _stat(data: Mapping[str, Any], key: str, pack: CompiledPack, default: str | None = None) -> str:
    name = data.get(key, default)
    if not isinstance(name, str) or not name:
        raise SubsystemError(f"{pack.id}: subsystem needs {key}: (a stat name)")
    return pack.canonical(name) or name


def _number(sheet: Sheet | None, name: str, given: int | None) -> int:
    if given is not None:
        return int(given)
    if sheet is None:
        raise SubsystemError(f"needs a value for {name} (give it, or a sheet)")
    value = sheet.get(name)
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise SubsystemError(f"the sheet has no number for {name}")
    return int(value)


# --- sanity ---------------------------------------------------------------------------------


def split_loss(text: str) -> tuple[str, str]:
    """``"1/1d6"`` -> ``("1", "1d6")``: the first ``/`` separates success from failure."""
    text = str(text).strip()
    ok, sep, bad = text.partition("/")
    if not sep or not ok.strip() or not bad.strip():
        raise SubsystemError(f"loss {text!r} must be SUCCESS/FAILURE", expected="e.g. 0/1d6 or 1/1d10+1")
    from lwcore.rules.dice import compile_dice

    for part in (ok, bad):
        try:
            compile_dice(part.strip())
        except LwError as exc:
            raise SubsystemError(f"loss {text!r}: {exc.message}", expected=exc.expected) from None
    return ok.strip(), bad.strip()


def sanity(pack: CompiledPack, data: Mapping[str, Any], sheet: Sheet | None, *, loss: str,
           value: int | None = None, bonus: int = 0, penalty: int = 0, rng: random.Random | None = None,
           faces: Sequence[int] | None = None, roll: int | None = None, name: str = "sanity") -> SubsystemResult:
    stat = _stat(data, "stat", pack)
    ok_expr, bad_expr = split_loss(loss)
    current = _number(sheet, stat, value)
    from lwcore.rules.dice import FaceReplay, compile_dice, rng_drawer

    # one stream of dice for the check and the loss, so ``faces`` replays the whole procedure
    draw = FaceReplay(faces, fallback=rng_drawer(rng)) if faces is not None else rng_drawer(rng)
    if roll is not None:
        check = pack.check(current, bonus=bonus, penalty=penalty, rng=rng, roll=roll)
    else:
        check = pack.check(current, bonus=bonus, penalty=penalty, draw=draw)
    rolls: list[dict[str, Any]] = []
    if check.fumble and data.get("fumble_loss", "max") == "max":
        amount = dice_max(bad_expr)
        used = bad_expr
        rolls.append({"expr": bad_expr, "total": amount, "faces": [], "maximum": True})
    else:
        used = ok_expr if check.success else bad_expr
        rolled = compile_dice(used).evaluate(draw)
        amount = max(0, rolled.total)
        rolls.append({"expr": used, "total": amount, "faces": rolled.faces})
    floor = int(data.get("floor", 0))
    after = max(floor, current - amount)
    lost = current - after
    flags: dict[str, Any] = {}
    temporary_at = data.get("temporary_at")
    if temporary_at is not None and lost >= int(temporary_at):
        flags["temporary"] = True
    permanent_at = data.get("permanent_at")
    if permanent_at is not None and after <= int(permanent_at):
        flags["permanent"] = True
    changes = {}
    if sheet is not None:
        before = sheet.get(stat)
        sheet.set(stat, after)
        changes[stat] = (before, after)
        if flags:
            sheet.state.setdefault(name, {}).update(flags)
    outcome = "fumble" if check.fumble else ("success" if check.success else "failure")
    return SubsystemResult(pack.id, name, "sanity", outcome, check.success,
                           values={"stat": stat, "before": current, "after": after, "loss": lost, "expr": used,
                                   "loss_text": f"{ok_expr}/{bad_expr}"},
                           changes=changes, flags=flags, rolls=rolls, check=check)


# --- the last check kept on a sheet ------------------------------------------------------------

LAST_CHECK = "last_check"
"""The key of ``Sheet.state`` that keeps the character's most recent check (what ``luck`` and
``push`` work on, and ``opposed`` may compare): ``CheckResult.to_json()`` plus ``stat``/``value``."""


def check_from_json(data: Mapping[str, Any]) -> CheckResult:
    """A :class:`CheckResult` back from its ``to_json()`` form (unknown keys ignored)."""
    from dataclasses import fields

    from lwcore.rules.compiled import CheckResult

    names = {f.name for f in fields(CheckResult)}
    kwargs = {k: v for k, v in data.items() if k in names}
    try:
        kwargs["dice"] = tuple(kwargs.get("dice") or ())
        kwargs["flags"] = dict(kwargs.get("flags") or {})
        kwargs["modifiers"] = dict(kwargs.get("modifiers") or {})
        kwargs["params"] = dict(kwargs.get("params") or {})
        return CheckResult(**kwargs)
    except TypeError as exc:
        raise SubsystemError(f"the kept check is malformed: {exc}") from None


def remember_check(sheet: Sheet, result: CheckResult, **extra: Any) -> None:
    """Keep ``result`` as the sheet's most recent check (in ``sheet.state``)."""
    sheet.state[LAST_CHECK] = {**result.to_json(), **extra}


def last_check(sheet: Sheet | None) -> tuple[CheckResult, dict[str, Any]]:
    """The sheet's most recent check and its stored record; :class:`SubsystemError` if none."""
    kept = sheet.state.get(LAST_CHECK) if sheet is not None else None
    if not isinstance(kept, Mapping):
        raise SubsystemError("this character has no earlier check", expected="make a check first")
    return check_from_json(kept), dict(kept)


def rank_named(pack: CompiledPack, word: str | None) -> str | None:
    """The rank id ``word`` names: a rank id or its label in any locale (any case); ``None``
    for no word; an unknown word is returned as given (the subsystem then says so)."""
    if word is None or not word.strip():
        return None
    key = word.strip().casefold()
    res = pack.resolution
    ranks: list[str] = []
    if res is not None:
        for group in (res.ranks, *res.variants.values()):
            ranks += [r.id for r in group if r.id not in ranks]
    locales = {"en", "zh", *(str(k) for k in (pack.model.labels or {}))}
    for rank_id in ranks:
        if key == rank_id.casefold() or any(key == pack.label(rank_id, loc).casefold() for loc in locales):
            return rank_id
    return word.strip()


def after_luck(pack: CompiledPack, check: CheckResult, result: SubsystemResult) -> CheckResult:
    """``check`` as it stands once ``result`` (a luck spend) lowered its roll: the new roll graded
    by the pack, flagged ``luck_spent`` (so a kept check shows luck was used)."""
    from dataclasses import replace

    new_roll = int(result.values["new_roll"])
    (rank,) = pack.outcomes(check.raw_target, [new_roll], difficulty=check.difficulty, variant=check.variant)
    margin = check.margin + (check.roll - new_roll) if isinstance(check.margin, int) else check.margin
    return replace(check, roll=new_roll, rank=rank.id, success=rank.success, critical=rank.critical,
                   fumble=rank.fumble, tier=rank.tier, margin=margin,
                   flags={**dict(rank.flags), "luck_spent": int(result.values["cost"])})


# --- luck -----------------------------------------------------------------------------------


def luck(pack: CompiledPack, data: Mapping[str, Any], sheet: Sheet | None, *, check: CheckResult,
         want: str | None = None, held: int | None = None, apply: bool = True, name: str = "luck") -> SubsystemResult:
    """Spend the luck stat to lower ``check.roll`` until its rank is ``want`` (default: the
    first success rank reachable). Refused off a fumble (``forbid_fumble``) or beyond the
    luck held."""
    stat = _stat(data, "stat", pack)
    have = _number(sheet, stat, held)
    if check.fumble and data.get("forbid_fumble", True):
        raise SubsystemError("luck cannot buy off a fumble")
    if check.raw_target is None:
        raise SubsystemError("luck needs a check with a target")
    rolls = list(range(check.roll, 0, -1))
    ranks = pack.outcomes(check.raw_target, rolls, difficulty=check.difficulty, variant=check.variant)
    wanted_tier = None
    if want is not None:
        match = [r for r in ranks if r.id == want]
        if not match:
            raise SubsystemError(f"no roll at or below {check.roll} reaches {want!r}")
        wanted_tier = match[0].tier
    cost = None
    reached = None
    for value, rank in zip(rolls, ranks, strict=True):
        if wanted_tier is not None:
            good = rank.tier >= wanted_tier
        else:
            good = rank.success and rank.tier > check.tier
        if good:
            cost, reached = check.roll - value, rank
            break
    if cost is None or reached is None:
        raise SubsystemError("no better result can be bought")
    if cost > have:
        raise SubsystemError(f"needs {cost} {stat} but only {have} is held")
    changes = {}
    if apply and sheet is not None and cost:
        before = sheet.get(stat)
        sheet.set(stat, have - cost)
        changes[stat] = (before, have - cost)
    return SubsystemResult(pack.id, name, "luck", reached.id, reached.success,
                           values={"stat": stat, "cost": cost, "before": have, "after": have - cost,
                                   "roll": check.roll, "new_roll": check.roll - cost, "rank": reached.id},
                           changes=changes)


# --- growth ---------------------------------------------------------------------------------


def growth(pack: CompiledPack, data: Mapping[str, Any], sheet: Sheet | None, *, skill: str,
           value: int | None = None, rng: random.Random | None = None, faces: Sequence[int] | None = None,
           name: str = "growth") -> SubsystemResult:
    from lwcore.rules.dice import FaceReplay, compile_dice, rng_drawer
    from lwcore.rules.expr import BOOL, NUM, Context, compile_expr

    canonical = pack.canonical(skill) or skill
    current = _number(sheet, canonical, value)
    when_text = data.get("improve_when", "roll > skill")
    try:
        when = compile_expr(when_text, Context({"roll": NUM, "skill": NUM}, what="improve_when"), BOOL)
    except LwError as exc:
        raise SubsystemError(f"{pack.id}: subsystems.{name}.improve_when: {exc.message}") from None
    draw = FaceReplay(faces, fallback=rng_drawer(rng)) if faces is not None else rng_drawer(rng)
    first = compile_dice(str(data.get("roll", "1d100"))).evaluate(draw)
    rolls = [{"expr": first.expr, "total": first.total, "faces": first.faces}]
    improved = bool(when.fn({"roll": first.total, "skill": current}))
    after = current
    gain = 0
    if improved:
        g = compile_dice(str(data.get("gain", "1d10"))).evaluate(draw)
        rolls.append({"expr": g.expr, "total": g.total, "faces": g.faces})
        cap = data.get("cap")
        after = current + g.total if cap is None else min(int(cap), current + g.total)
        after = max(after, current)
        gain = after - current
    changes = {}
    if sheet is not None and improved:
        before = sheet.get(canonical)
        sheet.set(canonical, after)
        changes[canonical] = (before, after)
    return SubsystemResult(pack.id, name, "growth", "improved" if improved else "unchanged", improved,
                           values={"stat": canonical, "before": current, "after": after, "gain": gain,
                                   "roll": first.total},
                           changes=changes, rolls=rolls)


# --- opposed --------------------------------------------------------------------------------


def opposed(pack: CompiledPack, data: Mapping[str, Any], *, first: CheckResult, second: CheckResult,
            name: str = "opposed") -> SubsystemResult:
    """Higher rank tier wins (a failed check never beats by tier alone if both fail: a draw
    unless ``tie`` decides); ties by ``tie`` rules, then ``final``."""
    both_fail = not first.success and not second.success
    winner: str | None = None
    decided_by = "tier"
    if both_fail and data.get("both_fail", "draw") == "draw":
        winner, decided_by = "draw", "both_fail"
    elif first.tier != second.tier:
        winner = "first" if first.tier > second.tier else "second"
    else:
        for rule in data.get("tie", ["higher_skill"]) or []:
            if rule == "higher_skill" and first.raw_target is not None and second.raw_target is not None \
                    and first.raw_target != second.raw_target:
                winner = "first" if first.raw_target > second.raw_target else "second"
                decided_by = "higher_skill"
                break
            if rule == "lower_roll" and first.roll != second.roll:
                winner = "first" if first.roll < second.roll else "second"
                decided_by = "lower_roll"
                break
            if rule == "higher_margin" and first.margin != second.margin:
                winner = "first" if first.margin > second.margin else "second"
                decided_by = "higher_margin"
                break
        if winner is None:
            winner = str(data.get("final", "draw"))
            decided_by = "final"
            if winner not in ("draw", "first", "second"):
                raise SubsystemError(f"subsystems.{name}.final must be draw, first or second")
    return SubsystemResult(pack.id, name, "opposed", winner, None,
                           values={"winner": winner, "decided_by": decided_by,
                                   "first": first.to_json(), "second": second.to_json()})


# --- tables ---------------------------------------------------------------------------------


def table(pack: CompiledPack, data: Mapping[str, Any], *, table_name: str | None = None,
          rng: random.Random | None = None, locale: str = "en", name: str = "random_madness") -> SubsystemResult:
    tables = data.get("tables") or {}
    if not tables:
        raise SubsystemError(f"{pack.id}: subsystems.{name} declares no tables")
    if table_name is None:
        table_name = next(iter(tables))
    if table_name not in tables:
        raise SubsystemError(f"no table {table_name!r}", expected="one of: " + ", ".join(tables))
    tab = tables[table_name]
    if isinstance(tab, str):
        tab = {"roll": tab}
    rolled = _roll(tab.get("roll", "1d10"), rng, f"table {table_name}")
    rolls = [{"expr": rolled.expr, "total": rolled.total, "faces": rolled.faces}]
    entries = tab.get("entries") or []
    entry: Any = None
    if entries:
        index = max(0, min(len(entries) - 1, rolled.total - int(tab.get("first", 1))))
        entry = entries[index]
        if isinstance(entry, Mapping):
            entry = localized({str(k): str(v) for k, v in entry.items()}, locale)
    values: dict[str, Any] = {"table": table_name, "roll": rolled.total, "entry": entry}
    if tab.get("duration"):
        d = _roll(tab["duration"], rng, f"table {table_name} duration")
        rolls.append({"expr": d.expr, "total": d.total, "faces": d.faces})
        unit = tab.get("unit", "")
        values["duration"] = d.total
        values["unit"] = localized(unit, locale) if isinstance(unit, Mapping) else str(unit)
    return SubsystemResult(pack.id, name, "table", table_name, None, values=values, rolls=rolls)


# --- push -----------------------------------------------------------------------------------


def push(pack: CompiledPack, data: Mapping[str, Any], *, previous: CheckResult, pushed: bool = False,
         rng: random.Random | None = None, faces: Sequence[int] | None = None, modifier: int = 0,
         name: str = "push") -> SubsystemResult:
    """Re-roll a failed check once with the same target, difficulty and dice (and ``modifier``,
    the value a modifier-style check added to the roll); flagged pushed."""
    if pushed or previous.flags.get("pushed"):
        raise SubsystemError("a pushed roll cannot be pushed again")
    if previous.success:
        raise SubsystemError("only a failed check can be pushed")
    if previous.fumble and data.get("forbid_fumble", False):
        raise SubsystemError("a fumble cannot be pushed")
    again = pack.check(previous.raw_target, difficulty=previous.difficulty, variant=previous.variant,
                       modifiers=previous.modifiers, modifier=modifier, params=previous.params, rng=rng, faces=faces)
    flags = {"pushed": True}
    if not again.success:
        flags["dire"] = True
    return SubsystemResult(pack.id, name, "push", again.rank, again.success, values={"rank": again.rank},
                           flags=flags, check=again)


# --- advantage ------------------------------------------------------------------------------


def net_advantage(pack: CompiledPack, gains: int, losses: int, rule: str | None = None) -> dict[str, int]:
    """Modifier counts after the pack's cancelling rule (``subsystems.advantage``).

    ``cancel: all`` — any of each cancels all of the other; ``net`` — count sources and keep
    the difference (one die at most either way). ``rule`` picks a ``house:`` variant."""
    kind, data = spec(pack, "advantage")
    up, down = (data.get("pair") or ["advantage", "disadvantage"])[:2]
    mode = data.get("cancel", "all")
    if rule is not None:
        house = data.get("house") or {}
        if rule not in house:
            raise SubsystemError(f"no advantage rule {rule!r}", expected="one of: " + (", ".join(house) or "none"))
        mode = house[rule]
    gains, losses = max(0, int(gains)), max(0, int(losses))
    most = int(data.get("max", 1))
    if mode == "all":
        if gains and losses:
            return {}
        g, lo = min(gains, most), min(losses, most)
    elif mode == "net":
        n = gains - losses
        g, lo = (min(n, most), 0) if n > 0 else (0, min(-n, most))
    else:
        raise SubsystemError(f"advantage cancel: {mode!r} is not all or net")
    out = {}
    if g:
        out[str(up)] = g
    if lo:
        out[str(down)] = lo
    return out


# --- tally ----------------------------------------------------------------------------------


def tally(pack: CompiledPack, data: Mapping[str, Any], sheet: Sheet | None, *, rng: random.Random | None = None,
          faces: Sequence[int] | None = None, roll: int | None = None, modifier: int = 0,
          name: str = "tally") -> SubsystemResult:
    """A check whose rank flags count toward an end (death saves)."""
    target = data.get("target")
    check = pack.check(int(target) if target is not None else None, variant=data.get("variant"),
                       modifier=modifier, rng=rng, faces=faces, roll=roll)
    ok_stat = _stat(data, "success_stat", pack)
    bad_stat = _stat(data, "failure_stat", pack)
    ok_need = int(data.get("successes_needed", 3))
    bad_need = int(data.get("failures_needed", 3))
    ok = int(sheet.get(ok_stat, 0) or 0) if sheet is not None else 0
    bad = int(sheet.get(bad_stat, 0) or 0) if sheet is not None else 0
    before_ok, before_bad = ok, bad
    ok += int(check.flags.get("tally_success", 0))
    bad += int(check.flags.get("tally_failure", 0))
    flags: dict[str, Any] = {}
    changes: dict[str, tuple[Any, Any]] = {}
    regain = int(check.flags.get("regain", 0))
    outcome = check.rank
    if regain:
        flags["regained"] = regain
        ok, bad = 0, 0
        outcome = "regain"
        if sheet is not None and data.get("regain_stat"):
            stat = _stat(data, "regain_stat", pack)
            before = sheet.get(stat)
            sheet.set(stat, regain)
            changes[stat] = (before, regain)
    elif bad >= bad_need:
        flags["ended"] = "failure"
        outcome = "ended_failure"
    elif ok >= ok_need:
        flags["ended"] = "success"
        outcome = "ended_success"
    ok, bad = min(ok, ok_need), min(bad, bad_need)
    if sheet is not None:
        if ok != before_ok:
            sheet.set(ok_stat, ok)
            changes[ok_stat] = (before_ok, ok)
        if bad != before_bad:
            sheet.set(bad_stat, bad)
            changes[bad_stat] = (before_bad, bad)
    return SubsystemResult(pack.id, name, "tally", outcome, check.success,
                           values={"successes": ok, "failures": bad, "roll": check.roll,
                                   "successes_needed": ok_need, "failures_needed": bad_need},
                           changes=changes, flags=flags, check=check)


# --- dispatch -------------------------------------------------------------------------------


def run(engine: RulesEngine | None, pack: CompiledPack, name: str, sheet: Sheet | None = None,
        **kwargs: Any) -> SubsystemResult:
    """Run subsystem ``name`` of ``pack`` (by its name or its kind)."""
    kind, data = spec(pack, name)
    sub_name = name_of(pack, name)
    if data.get("script") is not None:
        raise SubsystemError(f"{pack.id}: subsystem {sub_name!r} runs the script {data['script']!r}, which needs "
                             "the JS sandbox", expected="a host with the sandbox service")
    if data.get("computer") is not None:
        return _computer(engine, pack, sub_name, data, sheet, kwargs)
    if kind == "sanity":
        return sanity(pack, data, sheet, name=sub_name, **kwargs)
    if kind == "luck":
        return luck(pack, data, sheet, name=sub_name, **kwargs)
    if kind == "growth":
        return growth(pack, data, sheet, name=sub_name, **kwargs)
    if kind == "opposed":
        return opposed(pack, data, name=sub_name, **kwargs)
    if kind in ("random_madness", "table"):
        return table(pack, data, name=sub_name, **kwargs)
    if kind == "push":
        return push(pack, data, name=sub_name, **kwargs)
    if kind == "tally":
        return tally(pack, data, sheet, name=sub_name, **kwargs)
    if kind == "advantage":
        counts = net_advantage(pack, kwargs.get("gains", 0), kwargs.get("losses", 0), kwargs.get("rule"))
        return SubsystemResult(pack.id, sub_name, "advantage", "net", None, values={"modifiers": counts})
    raise SubsystemError(f"{pack.id}: subsystem {sub_name!r} has kind {kind!r}, which the engine does not run",
                         expected="kind: one of " + ", ".join(KINDS) + ", or computer:/script:")


def _computer(engine: RulesEngine | None, pack: CompiledPack, name: str, data: Mapping[str, Any],
              sheet: Sheet | None, kwargs: dict[str, Any]) -> SubsystemResult:
    from lwcore.rules.dice import FaceReplay, rng_drawer

    cname = str(data["computer"])
    fn = engine._computer(cname) if engine is not None else None  # noqa: SLF001
    if fn is None:
        raise SubsystemError(f"{pack.id}: subsystem {name!r} needs the computer {cname!r}, which is not registered")
    faces = kwargs.pop("faces", None)
    rng = kwargs.pop("rng", None)
    replay = FaceReplay(faces, fallback=None if rng is None and faces is not None else rng_drawer(rng)) \
        if faces is not None else None
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
