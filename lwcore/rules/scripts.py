"""The script channel of rulepacks (A.1): what the expression language cannot say, a script in
the JS sandbox decides -- and the engine still rolls, checks, clamps and applies.

::

    resolution:
      roll: "{pool}d6"          # the engine rolls these dice first
      target: skill
      params: {pool: {min: 1, max: 8, default: 3}}
      script: match/resolver.js
      ranks:                    # the verdicts the script may give (and what each means)
        - {id: pair, success: true, tier: 2}
        - {id: miss, tier: 1}
    subsystems:
      strain:
        script: match/strain.js
        roll: 1d6               # dice rolled first (optional)
        targets: [Nerve]        # sheet values handed in (any name of the stat)
        outcomes: {steady: {success: true}, rattled: {success: false}}   # or a list of ids
        bounds: {Nerve: [0, NerveMax]}   # where its sheet changes are clamped (numbers or stats)

**Files.** ``script:`` is a path relative to the folder of the rulepack file that declares it,
and must stay inside that folder (``..`` and links leading out are refused). The file is read
and loaded in the sandbox when the pack loads -- a syntax error, or a script that defines no
``resolve`` function, fails the load with its location -- and read again for every run, so an
edited script takes effect at once. A pack given as data (no file) cannot have a script.

**A scripted check** (:func:`decide_check`): the engine rolls the declared dice (modifiers
included) and calls ``resolve(check)`` with ``check = {faces, targets: {target, raw_target},
roll, total, kept, successes, ones, modifier, params, difficulty, variant, modifiers}`` (``faces``:
every face rolled; ``kept``: the faces the roll kept, what a rank's ``dice[i]`` reads; ``roll``:
the kept dice total plus ``modifier``, as the ranks read it; ``total``: the dice alone). The script returns a
rank id of the ladder in use, or ``{verdict, margin?, note?, effects?}`` where effects are
``flag`` and ``note`` only: a check changes no sheet value. Its ranks need no ``when:`` (the
script decides; a ``when:`` there is ignored with a warning).

**A scripted subsystem** (:func:`run_subsystem`): the engine rolls ``roll:`` and reads the
``targets:`` stats from the character's sheet; ``resolve(check)`` gets ``{faces, targets, total,
args, subsystem}`` (``args``: what the tool call or the dot command gave) and returns an outcome
id (one of ``outcomes:`` when declared) and/or effects: ``adjust``/``set`` of the pack's stats
(numbers clamped into ``bounds:``, a resource's maximum and never below a bound's floor; a stat
the pack does not know is refused), ``flag``, ``note``.

Randomness never reaches a script's choice: it sees the faces the engine rolled; its own
``Math.random`` is seeded from them. Every failure (syntax, a throw, a loop, a verdict that is
not the pack's) is a :class:`~lwcore.rules.errors.CheckError` located in the script.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lwcore.errors import LwError
from lwcore.io.paths import confine
from lwcore.io.text import read_text
from lwcore.rules.dice import compile_dice
from lwcore.rules.errors import CheckError
from lwcore.rules.kinds.base import COMMON_KEYS, SubsystemError, SubsystemResult, drawer, roll_record
from lwcore.sandbox import RULE_LIMITS, evaluate, resolve
from lwcore.trust import rule_scripts

if TYPE_CHECKING:
    from lwcore.io.safe_yaml import Positions
    from lwcore.rules.diagnostics import Diagnostics
    from lwcore.rules.packcheck import PackChecker
    from lwcore.rules.sheet import Sheet
    from lwcore.rules.system import CompiledRank, RuleSystem

ENTRY = "resolve"
MAX_SCRIPT_BYTES = 160 * 1024
SUBSYSTEM_KEYS = {"script": "the script (a path relative to the rulepack file)",
                  "roll": "dice the engine rolls before the script runs",
                  "targets": "stats whose sheet values the script gets",
                  "outcomes": "the outcome ids the script may give (a list, or id -> {success})",
                  "bounds": "stat -> [low, high] (numbers or stats): where the script's changes are clamped"}


RESOLUTION = "resolution"
"""The key of a scripted resolution in :attr:`RuleSystem.scripts`."""


def subsystem_key(name: str) -> str:
    """The key of the scripted subsystem ``name`` in :attr:`RuleSystem.scripts`."""
    return f"subsystems.{name}"


def bind_all(pack: RuleSystem, data: Mapping[str, Any], positions: Positions, diag: Diagnostics,
             unbound: frozenset[str] = frozenset()) -> None:
    """Bind every script ``data`` declares into ``pack.scripts`` (problems into ``diag``),
    except those declared in a file named in ``unbound`` (YAML not read from disk)."""
    for where, value in rule_scripts(data):
        pos = positions.find(where)
        if pos is not None and pos.file in unbound:
            continue
        path = bind(where, value, positions, diag)
        if path is not None:
            pack.scripts[".".join(where[:-1])] = path


# --- load time ---------------------------------------------------------------------------------


def bind(declared_at: tuple[Any, ...], value: Any, positions: Positions, diag: Diagnostics) -> Path | None:
    """The script file ``value`` (declared at ``declared_at`` in the pack) names, read and
    loaded once in the sandbox; ``None`` with the problem recorded in ``diag``."""
    if not isinstance(value, str) or not value.strip():
        diag.error("script must be a relative path inside the pack", declared_at)
        return None
    pos = positions.find(declared_at)
    declaring = pos.file if pos is not None and pos.file else None
    if declaring is None or declaring.startswith("<"):
        diag.error("a script needs the rulepack to be a file (the path is relative to it)", declared_at)
        return None
    try:
        path = confine(Path(declaring).parent, value, what="script")
    except LwError as exc:
        diag.error(f"script must be a relative path inside the pack ({exc.message})", declared_at)
        return None
    try:
        source = read(path)
    except LwError as exc:
        diag.error(f"script {value!r}: {exc.message}", declared_at, expected=exc.expected)
        return None
    problem = load_problem(source, path.name)
    if problem is not None:
        diag.error(f"{path.name} does not load: {problem}", declared_at)
        return None
    return path


def read(path: Path) -> str:
    return read_text(path, max_bytes=MAX_SCRIPT_BYTES)


def load_problem(source: str, name: str) -> str | None:
    """Why ``source`` (the script ``name``) cannot serve as a rule script -- it does not
    parse, throws while loading, or defines no ``resolve`` function -- located in the script;
    ``None`` when it can."""
    for text in (source, f"{source}\n;typeof {ENTRY};"):  # the script alone first: its own locations
        outcome = evaluate(text, limits=RULE_LIMITS, script=name)
        if outcome.failure is not None:
            return str(outcome.failure)
    if outcome.value != "function":
        return f"{name} defines no function {ENTRY}(check)"
    return None


def check_subsystem(data: Mapping[str, Any], check: PackChecker, path: tuple[Any, ...]) -> None:
    """Load-time checks of a scripted subsystem's settings (the script itself is bound by
    :func:`bind`)."""
    if data.get("roll") is not None:
        check.dice(data["roll"], (*path, "roll"))
    targets = data.get("targets", [])
    if not isinstance(targets, list):
        check.error("targets must be a list of stats", (*path, "targets"))
    else:
        for i, stat in enumerate(targets):
            check.stat(stat, (*path, "targets", i))
    outcomes = data.get("outcomes")
    if outcomes is not None:
        ids = outcomes if isinstance(outcomes, list) else list(outcomes) if isinstance(outcomes, Mapping) else None
        if not ids or not all(isinstance(i, str) and i for i in ids):
            check.error("outcomes must list outcome ids (or map each id to {success: true|false})",
                        (*path, "outcomes"))
        elif isinstance(outcomes, Mapping):
            for oid, spec in outcomes.items():
                if spec is not None and (not isinstance(spec, Mapping) or set(spec) - {"success"}
                                         or not isinstance(spec.get("success", False), bool)):
                    check.error(f"outcome {oid!r} is {{success: true|false}}", (*path, "outcomes", oid))
    bounds = data.get("bounds", {})
    if not isinstance(bounds, Mapping):
        check.error("bounds maps a stat to [low, high]", (*path, "bounds"))
    else:
        for stat, pair in bounds.items():
            check.stat(stat, (*path, "bounds", stat))
            if not isinstance(pair, list) or len(pair) != 2:
                check.error("a bound is [low, high] (a number or a stat each; null: none)", (*path, "bounds", stat))
                continue
            for i, end in enumerate(pair):
                if isinstance(end, str):
                    check.stat(end, (*path, "bounds", stat, i))
                elif end is not None and (not isinstance(end, (int, float)) or isinstance(end, bool)):
                    check.error(f"a bound is a number or a stat, not {end!r}", (*path, "bounds", stat, i))
    known = {**COMMON_KEYS, **SUBSYSTEM_KEYS}
    for key in data:
        if key not in known:
            check.unknown_key(key, path, known)


# --- running -------------------------------------------------------------------------------------


def _seed(*parts: Any) -> int:
    text = json.dumps(parts, ensure_ascii=False, default=str, sort_keys=True)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()[:8], "big")


def _jsonable(value: Any) -> Any:
    """``value`` as JSON data (what a script may be handed); other objects as their text."""
    return json.loads(json.dumps(value, ensure_ascii=False, default=str, allow_nan=False))


def _ask(path: Path, pack_id: str, faces: Sequence[int], targets: Mapping[str, Any], inputs: Mapping[str, Any],
         verdicts: Sequence[str] | None) -> Any:
    """Run the script at ``path``; its checked :class:`lwcore.sandbox.Verdict`, or a located
    :class:`CheckError`."""
    try:
        source = read(path)
    except LwError as exc:
        raise CheckError(f"{pack_id}: {exc}") from None
    outcome = resolve(source, faces=list(faces), targets=_jsonable(dict(targets)), inputs=_jsonable(dict(inputs)),
                      verdicts=verdicts, seed=_seed(pack_id, path.name, list(faces)), script=str(path), entry=ENTRY)
    if outcome.failure is not None:
        error = outcome.failure.to_error()
        raise CheckError(f"{pack_id}: {error.message}", file=error.file, line=error.line, column=error.column,
                         code=error.code)
    return outcome.value


def _bound(pack: RuleSystem, key: str) -> Path:
    if pack.scripts_off is not None:
        raise CheckError(f"{pack.id}: the {key} script cannot run: {pack.scripts_off}", code="refused",
                         expected="a check the pack resolves without a script, or the operator's switch on")
    path = pack.scripts.get(key)
    if path is None:
        raise CheckError(f"{pack.id}: the {key} script is not bound (the pack was read from text, not installed)",
                         expected="the pack installed, its script beside it")
    return path


def decide_check(pack: RuleSystem, ranks: Sequence[CompiledRank], env: Mapping[str, Any], faces: Sequence[int], *,
                 difficulty: str | None, variant: str | None, modifiers: Mapping[str, int]
                 ) -> tuple[CompiledRank, Any, dict[str, Any]]:
    """The rank a scripted resolution gives for a rolled check (``env``: the roll as the rank
    expressions would see it, ``faces``: every face rolled), its margin (``None``: the pack's
    own) and the flags it adds."""
    path = _bound(pack, RESOLUTION)
    by_id = {rank.id: rank for rank in ranks}
    verdict = _ask(path, pack.id, faces, {"target": env.get("target"), "raw_target": env.get("raw_target")},
                   {"roll": env["roll"], "total": env["total"], "kept": list(env["dice"]), "successes": env["successes"], "ones": env["ones"],
                    "modifier": env["modifier"], "params": {k: env[k] for k in pack.resolution.param_names if k in env},  # type: ignore[union-attr]  # a pack that runs a resolution script has a resolution
                    "difficulty": difficulty, "variant": variant, "modifiers": dict(modifiers)},
                   list(by_id))
    if verdict.verdict is None:
        raise CheckError(f"{pack.id}: {path.name}: a check's script must give a verdict (one of: {', '.join(by_id)})",
                         file=str(path))
    flags: dict[str, Any] = {}
    notes = [verdict.note] if verdict.note else []
    for effect in verdict.effects:
        if effect.op == "flag":
            flags[effect.name] = effect.value
        elif effect.op == "note":
            notes.append(effect.text)
        else:
            raise CheckError(f"{pack.id}: {path.name}: a check changes no sheet value ({effect.op} {effect.stat}); "
                             "a subsystem script may", file=str(path))
    if notes:
        flags["note"] = "; ".join(notes)
    return by_id[verdict.verdict], verdict.margin, flags


def _outcomes(data: Mapping[str, Any]) -> tuple[list[str] | None, dict[str, bool]]:
    outcomes = data.get("outcomes")
    if outcomes is None:
        return None, {}
    if isinstance(outcomes, Mapping):
        return list(outcomes), {k: v["success"] for k, v in outcomes.items() if isinstance(v, Mapping) and "success" in v}
    return list(outcomes), {}


def _end(sheet: Sheet, end: Any) -> float | None:
    if isinstance(end, str):
        value = sheet.get(end)
        return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None
    return end


def _clamp(sheet: Sheet, stat: str, value: Any, bounds: Mapping[str, Any]) -> Any:
    """``value`` pulled into the stat's bounds (and under its resource's maximum)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return value
    pair = next((p for s, p in bounds.items() if sheet.canonical(s) == stat), [None, None])
    low, high = _end(sheet, pair[0]), _end(sheet, pair[1])
    resource = sheet.resource(stat)
    if resource and resource[1]:
        top = _end(sheet, resource[1])
        high = top if high is None or (top is not None and top < high) else high
    if high is not None:
        value = min(value, high)
    if low is not None:
        value = max(value, low)
    return value


def run_subsystem(pack: RuleSystem, name: str, data: Mapping[str, Any], sheet: Sheet | None, *,
                  rng: Any = None, faces: Sequence[int] | None = None, **args: Any) -> SubsystemResult:
    """Run the scripted subsystem ``name`` (module docstring); ``sheet`` changes in place."""
    path = _bound(pack, subsystem_key(name))
    rolls: list[dict[str, Any]] = []
    rolled: list[int] = []
    total = None
    if data.get("roll") is not None:
        draw = drawer(rng, faces)
        result = compile_dice(str(data["roll"])).evaluate(draw)
        rolled, total = list(result.faces), result.total
        rolls.append(roll_record(result))
        finish = getattr(draw, "finish", None)
        if faces is not None and finish is not None:
            finish()
    targets: dict[str, Any] = {}
    for stat in data.get("targets") or ():
        if sheet is None:
            raise SubsystemError(f"{pack.id}: the {name!r} subsystem reads {stat} from a character sheet")
        targets[stat] = sheet.get(stat)
    ids, success_of = _outcomes(data)
    verdict = _ask(path, pack.id, rolled, targets, {"total": total, "args": args, "subsystem": name}, ids)
    changes: dict[str, tuple[Any, Any]] = {}
    flags: dict[str, Any] = {}
    notes = [verdict.note] if verdict.note else []
    bounds = data.get("bounds") or {}
    for effect in verdict.effects:
        if effect.op in ("adjust", "set"):
            if sheet is None:
                raise SubsystemError(f"{pack.id}: {path.name} changes {effect.stat}, but no character sheet was given")
            if not sheet.known(effect.stat):
                raise CheckError(f"{pack.id}: {path.name}: {effect.stat!r} is not a stat of this system",
                                 file=str(path))
            stat = sheet.canonical(effect.stat)
            before = sheet.get(stat)
            if effect.op == "adjust":
                if not isinstance(before, (int, float)) or isinstance(before, bool):
                    raise CheckError(f"{pack.id}: {path.name}: {stat} is not a number ({before!r})", file=str(path))
                after = _clamp(sheet, stat, before + effect.by, bounds)
            else:
                if isinstance(before, (int, float)) and not isinstance(before, bool) and (
                        not isinstance(effect.value, (int, float)) or isinstance(effect.value, bool)):
                    raise CheckError(f"{pack.id}: {path.name}: {stat} is a number, not {effect.value!r}", file=str(path))
                after = _clamp(sheet, stat, effect.value, bounds)
            if isinstance(after, float) and after.is_integer() and isinstance(before, int):
                after = int(after)
            sheet.set(stat, after)
            first = changes.get(stat, (before, None))[0]
            changes[stat] = (first, after)
        elif effect.op == "flag":
            flags[effect.name] = effect.value
        else:
            notes.append(effect.text)
    if notes:
        flags["note"] = "; ".join(notes)
    outcome = verdict.verdict or "done"
    values: dict[str, Any] = {"dice": rolled} if rolled else {}
    if total is not None:
        values["total"] = total
    if verdict.margin is not None:
        values["margin"] = verdict.margin
    return SubsystemResult(pack.id, name, "script", outcome, success_of.get(outcome), values=values, changes=changes,
                           flags=flags, rolls=rolls)
