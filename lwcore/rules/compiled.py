"""A validated rulepack compiled for use: resolution closures, derived stats, names, labels.

:func:`compile_pack` turns a merged, pydantic-validated pack into a :class:`CompiledPack`.
Every expression and dice expression is parsed here, at load time, so a typo fails the load
with a located diagnostic instead of failing someone's first check.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lwcore.contributions import localized
from lwcore.rules.dice import DIGIT, DiceExpr, Drawer, FaceReplay, rng_drawer
from lwcore.rules.errors import CheckError, DiceError, ExprError, RulepackError, RulesError
from lwcore.rules.expr import BOOL, LIST, NUM, Context, Expr, compile_expr
from lwcore.rules.model import Derived, Rank, Rulepack
from lwcore.io.safe_yaml import Positions

INPUT_TARGETS = ("skill", "attribute", "dc")
MAX_MODIFIER_DICE = 10
RESERVED = ("roll", "dice", "target", "raw_target", "modifier", "successes", "ones")


def locate(error: RulesError, positions: Positions, path: Sequence[Any], *, key: bool = False,
           fallback_file: str | None = None) -> RulepackError:
    """Re-raise an expression/dice error at its place in the file (``path`` in the document)."""
    pos = positions.find(path, key=key)
    where = ".".join(str(p) for p in path)
    message = f"{where}: {error.message}" if where else error.message
    if pos is None:
        return RulepackError(message, file=fallback_file, expected=error.expected)
    line, column = pos.line, pos.column
    if error.column is not None and tuple(path) in positions.values and not key:
        line, column = pos.inside(error.column)
    return RulepackError(message, file=pos.file or fallback_file, line=line, column=column, expected=error.expected)


@dataclass(frozen=True, slots=True)
class CompiledRank:
    id: str
    when: Expr | None
    success: bool
    critical: bool
    fumble: bool
    tier: int
    flags: Mapping[str, Any]


@dataclass(slots=True)
class CheckResult:
    """The outcome of one check. Flags are the winning rank's data; nothing here is display."""

    system: str
    rank: str
    success: bool
    critical: bool
    fumble: bool
    tier: int
    flags: Mapping[str, Any]
    margin: Any
    roll: int
    dice: tuple[int, ...]
    target: int | None
    raw_target: int | None
    difficulty: str | None = None
    variant: str | None = None
    modifiers: Mapping[str, int] = field(default_factory=dict)
    successes: int = 0
    ones: int = 0
    params: Mapping[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "rank": self.rank,
            "success": self.success,
            "critical": self.critical,
            "fumble": self.fumble,
            "tier": self.tier,
            "flags": dict(self.flags),
            "margin": self.margin,
            "roll": self.roll,
            "dice": list(self.dice),
            "target": self.target,
            "raw_target": self.raw_target,
            "difficulty": self.difficulty,
            "variant": self.variant,
            "modifiers": dict(self.modifiers),
            "successes": self.successes,
            "ones": self.ones,
            "params": dict(self.params),
        }


@dataclass
class CompiledResolution:
    roll: DiceExpr
    target_kind: str
    target_expr: Expr | None
    difficulties: dict[str, Expr]
    modifiers: dict[str, tuple[str, int, int | None]]
    ranks: tuple[CompiledRank, ...]
    variants: dict[str, tuple[CompiledRank, ...]]
    margin: Expr | None
    script: str | None
    param_names: tuple[str, ...]


def _num(value: Any) -> int:
    """Results of target/difficulty expressions are whole numbers (rounded down)."""
    if isinstance(value, float):
        return math.floor(value)
    return int(value)


class CompiledPack:
    """A loaded system: the merged data, the validated model and compiled behaviour."""

    def __init__(self, system_id: str, model: Rulepack, data: Mapping[str, Any], *, origin: str,
                 chain: Sequence[str] = (), warnings: Sequence[str] = ()) -> None:
        self.id = system_id
        self.model = model
        self.data = data
        self.origin = origin
        self.chain = tuple(chain)
        self.warnings = list(warnings)
        self.resolution: CompiledResolution | None = None
        self._derived: list[tuple[str, Callable[[dict[str, Any], frozenset[str]], Any]]] = []
        self._alias: dict[str, str] = {}

    # --- names --------------------------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        """Every word that selects this system: id, ``names`` and ``set_keys``."""
        seen: dict[str, None] = {self.id: None}
        for n in (*self.model.names, *self.model.set_keys):
            seen.setdefault(n, None)
        return tuple(seen)

    def matches(self, word: str) -> bool:
        w = word.strip().casefold()
        return any(w == n.casefold() for n in self.names)

    def canonical(self, name: str) -> str | None:
        """The canonical stat name for ``name`` (itself, or through ``alias``), else ``None``."""
        return self._alias.get(name) or self._alias.get(name.casefold())

    def display_name(self, canonical: str, locale: str = "en") -> str:
        """Presentation name of a stat; falls back to the canonical name. Never affects results."""
        for key in (locale, locale.split("-")[0]):
            table = self.model.display.get(key)
            if table and canonical in table:
                return table[canonical]
        return canonical

    def label(self, rank_id: str, locale: str = "en") -> str:
        """The pack's label for a rank id in ``locale`` (first alternative), else the id."""
        for key in (locale, locale.split("-")[0], "en"):
            table = self.model.labels.get(key)
            if table and rank_id in table:
                value = table[rank_id]
                if isinstance(value, str):
                    return value
                if value:
                    return value[0]
        return rank_id

    def resources(self, locale: str = "en") -> list[dict[str, Any]]:
        """The sheet's resource bars with each label resolved for one viewer's ``locale``."""
        out = []
        if self.model.sheet is None:
            return out
        for res in self.model.sheet.resources:
            item = res.model_dump()
            item["label"] = res.label if isinstance(res.label, str) else localized(res.label, locale)
            out.append(item)
        return out

    def expertise(self, locale: str = "en") -> str:
        text = self.model.expertise
        if text is None:
            return ""
        return text if isinstance(text, str) else localized(text, locale)

    @property
    def variants(self) -> tuple[str, ...]:
        return tuple(self.resolution.variants) if self.resolution else ()

    @property
    def difficulties(self) -> tuple[str, ...]:
        return tuple(self.resolution.difficulties) if self.resolution else ()

    # --- derived ------------------------------------------------------------------------

    def derive(self, values: Mapping[str, Any] | None = None, *, _active: frozenset[str] = frozenset()) -> dict[str, Any]:
        """Derived stats for a sheet's ``values`` (aliases accepted; defaults fill the gaps)."""
        current: dict[str, Any] = dict(self.model.defaults)
        for name, value in (values or {}).items():
            current[self.canonical(name) or name] = value
        active = _active | {self.id}
        out: dict[str, Any] = {}
        for name, fn in self._derived:
            try:
                current[name] = out[name] = fn(current, active)
            except KeyError as exc:
                raise CheckError(f"{self.id}: derived {name!r} needs a value for {exc.args[0]!r}") from None
            except RulesError:
                raise
            except Exception as exc:  # noqa: BLE001 - a computer is plugin code
                raise CheckError(f"{self.id}: derived {name!r} failed: {type(exc).__name__}: {exc}") from None
        return out

    # --- checks -------------------------------------------------------------------------

    def _resolution(self) -> CompiledResolution:
        res = self.resolution
        if res is None:
            raise CheckError(f"system {self.id!r} has no resolution: section", expected="a pack with resolution:")
        if res.script is not None:
            raise CheckError(
                f"system {self.id!r} resolves through the script {res.script!r}, which needs the JS sandbox",
                expected="a host with the sandbox service",
            )
        return res

    def _prepare(self, target: int | None, difficulty: str | None, variant: str | None, modifier: int,
                 params: Mapping[str, Any] | None) -> tuple[dict[str, int], dict[str, Any], int | None, int | None,
                                                            tuple[CompiledRank, ...]]:
        """Parameter values, the base environment, raw and adjusted target, and the ranks."""
        res = self._resolution()
        pvals = res.roll.values(params)
        base_env: dict[str, Any] = dict(pvals)
        base_env["modifier"] = modifier
        if res.target_kind == "input":
            if target is None:
                raise CheckError(f"system {self.id!r} needs a target value (its resolution.target is a value you give)",
                                 expected="a skill/attribute/DC value")
            raw: int | None = int(target)
        elif res.target_kind == "none":
            if target is not None:
                raise CheckError(f"system {self.id!r} takes no target value (resolution.target: none)")
            raw = None
        else:
            assert res.target_expr is not None
            raw = _num(res.target_expr(base_env))
        adjusted = raw
        if difficulty is not None:
            expr = res.difficulties.get(difficulty)
            if expr is None:
                raise CheckError(f"unknown difficulty {difficulty!r} for {self.id}",
                                 expected="one of: " + (", ".join(res.difficulties) or "(none declared)"))
            base_env["target"] = raw
            base_env["raw_target"] = raw
            adjusted = _num(expr(base_env))
        ranks = res.ranks
        if variant is not None:
            chosen = res.variants.get(variant)
            if chosen is None:
                raise CheckError(f"unknown variant {variant!r} for {self.id}",
                                 expected="one of: " + (", ".join(res.variants) or "(none declared)"))
            ranks = chosen
        if raw is not None:
            base_env["target"] = adjusted
            base_env["raw_target"] = raw
        return pvals, base_env, raw, adjusted, ranks

    def outcomes(self, target: int | None, rolls: Sequence[int], *, difficulty: str | None = None,
                 variant: str | None = None, modifier: int = 0,
                 params: Mapping[str, Any] | None = None) -> list[CompiledRank]:
        """The winning rank for each roll value of a one-die roll (a table in one call: odds,
        previews, tests). Same rank logic as :meth:`check`; no dice are drawn."""
        res = self._resolution()
        if res.roll.single_die is None:
            raise CheckError(f"outcomes() needs a one-die roll; {self.id} rolls {res.roll.text!r}")
        _pvals, env, _raw, _adjusted, ranks = self._prepare(target, difficulty, variant, modifier, params)
        env["successes"] = 0
        out = []
        try:
            for value in rolls:
                env["roll"] = value
                env["dice"] = [value]
                env["ones"] = 1 if value == 1 else 0
                for rank in ranks:
                    if rank.when is None or rank.when.fn(env):
                        break
                out.append(rank)
        except ExprError as exc:
            raise CheckError(f"{self.id}: {exc}") from None
        return out

    def check(
        self,
        target: int | None = None,
        *,
        difficulty: str | None = None,
        variant: str | None = None,
        bonus: int = 0,
        penalty: int = 0,
        modifiers: Mapping[str, int] | None = None,
        modifier: int = 0,
        params: Mapping[str, Any] | None = None,
        rng: random.Random | None = None,
        faces: Sequence[int] | None = None,
        roll: int | None = None,
        draw: Drawer | None = None,
    ) -> CheckResult:
        """Make one check. ``target`` is the skill/attribute/DC value (for packs whose
        ``resolution.target`` is one of those). Randomness: ``faces`` replays exactly those
        faces; ``roll`` gives the first face and draws the rest from ``rng``; else ``rng``."""
        res = self._resolution()
        counts: dict[str, int] = dict(modifiers or {})
        if bonus:
            counts["bonus"] = counts.get("bonus", 0) + int(bonus)
        if penalty:
            counts["penalty"] = counts.get("penalty", 0) + int(penalty)
        pvals, base_env, raw, adjusted, ranks = self._prepare(target, difficulty, variant, modifier, params)
        # --- the roll
        replay: FaceReplay | None = None
        if faces is not None:
            replay = FaceReplay(faces)
            drawer = replay
        elif roll is not None:
            if res.roll.single_die is None:
                raise CheckError(f"a given roll value needs a one-die roll; {self.id} rolls {res.roll.text!r}",
                                 expected="faces (--dice) instead")
            replay = FaceReplay([roll], fallback=rng_drawer(rng))
            drawer = replay
        else:
            drawer = draw if draw is not None else rng_drawer(rng)
        base = res.roll.evaluate(drawer, pvals)
        value = base.total
        dice = base.faces
        successes, ones = base.successes, base.ones
        applied: dict[str, int] = {}
        if counts:
            net: dict[str, int] = {}
            for name, count in counts.items():
                spec = res.modifiers.get(name)
                if spec is None:
                    raise CheckError(f"system {self.id!r} has no {name!r} modifier",
                                     expected="one of: " + (", ".join(res.modifiers) or "(none declared)"))
                kind, sign, most = spec
                count = int(count)
                if count < 0:
                    raise CheckError(f"{name}: a negative count", expected="0 or more")
                if most is not None and count > most:
                    raise CheckError(f"{name}: at most {most} per check", expected=f"0 to {most}")
                if count:
                    applied[name] = count
                    net[kind] = net.get(kind, 0) + sign * count
            for kind, n in net.items():
                if abs(n) > MAX_MODIFIER_DICE:
                    raise CheckError(f"{abs(n)} extra dice after cancelling", expected=f"at most {MAX_MODIFIER_DICE}")
                if not n:
                    continue
                if kind == "tens_reroll":
                    units = value % 10
                    candidates = [value]
                    for _ in range(abs(n)):
                        digit = drawer(DIGIT)
                        dice.append(digit)
                        candidates.append(digit * 10 + units or 100)
                else:
                    candidates = [value]
                    for _ in range(abs(n)):
                        again = res.roll.evaluate(drawer, pvals)
                        dice.extend(again.faces)
                        candidates.append(again.total)
                value = min(candidates) if n > 0 else max(candidates)
        if replay is not None and faces is not None:
            replay.finish()
        env = base_env
        env["roll"] = value
        env["dice"] = dice
        env["successes"] = successes
        env["ones"] = ones
        try:
            for rank in ranks:
                if rank.when is None or rank.when.fn(env):
                    break
            margin = res.margin.fn(env) if res.margin is not None else None
        except ExprError as exc:
            raise CheckError(f"{self.id}: {exc}") from None
        return CheckResult(
            system=self.id,
            rank=rank.id,
            success=rank.success,
            critical=rank.critical,
            fumble=rank.fumble,
            tier=rank.tier,
            flags=rank.flags,
            margin=margin,
            roll=value,
            dice=tuple(dice),
            target=adjusted,
            raw_target=raw,
            difficulty=difficulty,
            variant=variant,
            modifiers=applied,
            successes=successes,
            ones=ones,
            params=pvals,
        )


# --- compilation ----------------------------------------------------------------------------

ComputerLookup = Callable[[str], Callable[[Mapping[str, Any]], Any] | None]
GroupLookup = Callable[[str], "CompiledPack | None"]


def compile_pack(
    system_id: str,
    model: Rulepack,
    data: Mapping[str, Any],
    positions: Positions,
    *,
    origin: str,
    chain: Sequence[str] = (),
    warnings: Sequence[str] = (),
    computers: ComputerLookup = lambda name: None,
    computer_names: Callable[[], Sequence[str]] = lambda: (),
    groups: GroupLookup = lambda name: None,
    group_names: Callable[[], Sequence[str]] = lambda: (),
    file: str | None = None,
) -> CompiledPack:
    """Compile a validated pack; raise a located :class:`RulepackError` on the first problem."""
    pack = CompiledPack(system_id, model, data, origin=origin, chain=chain, warnings=warnings)
    alias: dict[str, str] = {}
    for canonical in (*model.defaults, *model.derived):
        alias.setdefault(canonical, canonical)
        alias.setdefault(canonical.casefold(), canonical)
    for canonical, words in model.alias.items():
        alias[canonical] = canonical
        alias.setdefault(canonical.casefold(), canonical)
        for word in words:
            alias.setdefault(word, canonical)
            alias.setdefault(word.casefold(), canonical)
    pack._alias = alias
    for name, sub in model.subsystems.items():
        script = (sub or {}).get("script")
        if script is not None and (not isinstance(script, str) or script.startswith(("/", "\\"))
                                   or ".." in script.replace("\\", "/").split("/")):
            raise locate(RulepackError("script must be a relative path inside the pack"), positions,
                         ("subsystems", name, "script"), fallback_file=file)
    stats = {*model.defaults, *model.derived, *model.alias}
    formulas = model.creation_constraints.get("roll")
    if isinstance(formulas, Mapping):
        for stat, formula in formulas.items():
            if isinstance(formula, str):
                try:
                    DiceExpr(formula)
                except DiceError as exc:
                    raise locate(exc, positions, ("creation_constraints", "roll", stat), fallback_file=file) from None
    pack._derived = _compile_derived(model, positions, stats, computers, computer_names, groups, group_names, file)
    if model.resolution is not None:
        pack.resolution = _compile_resolution(model, positions, file)
    if model.subsystems or model.commands:
        from lwcore.rules.packcheck import check_behaviour

        pack.warnings += check_behaviour(model, positions, file, computers=computers, computer_names=computer_names)
    return pack


def _compile_resolution(model: Rulepack, positions: Positions, file: str | None) -> CompiledResolution:
    res = model.resolution
    assert res is not None
    base = ("resolution",)
    if res.script is not None:
        if res.script.startswith(("/", "\\")) or ".." in res.script.replace("\\", "/").split("/"):
            raise locate(RulepackError("script must be a relative path inside the pack"), positions,
                         (*base, "script"), fallback_file=file)
    params = {name: p.model_dump() for name, p in res.params.items()}
    for name in params:
        if name in RESERVED:
            raise locate(RulepackError(f"parameter name {name!r} is reserved"), positions,
                         (*base, "params", name), key=True, fallback_file=file)
    try:
        roll = DiceExpr(res.roll or "0", params)
    except DiceError as exc:
        raise locate(exc, positions, (*base, "roll"), fallback_file=file) from None
    param_ctx = {name: NUM for name in params}
    # target
    target_kind = "input"
    target_expr = None
    target_spec = res.target
    if isinstance(target_spec, str) and target_spec.strip() in INPUT_TARGETS:
        target_kind = "input"
    elif isinstance(target_spec, str) and target_spec.strip() == "none":
        target_kind = "none"
    else:
        target_kind = "expr"
        ctx = Context({**param_ctx, "modifier": NUM},
                      {"target": "resolution.target computes the target", "roll": "no roll yet"},
                      what="resolution.target")
        try:
            target_expr = compile_expr(target_spec, ctx, NUM)
        except ExprError as exc:
            raise locate(exc, positions, (*base, "target"), fallback_file=file) from None
    no_target = "this pack has target: none" if target_kind == "none" else None
    # difficulties
    diff_ctx_names = {**param_ctx, "modifier": NUM}
    if no_target is None:
        diff_ctx_names.update(target=NUM, raw_target=NUM)
    diff_ctx = Context(diff_ctx_names, {
        "target": no_target or "", "raw_target": no_target or "",
        "roll": "difficulties adjust the target before the roll",
        "dice": "difficulties adjust the target before the roll",
        "successes": "difficulties adjust the target before the roll",
        "ones": "difficulties adjust the target before the roll",
    }, what="a difficulty target")
    difficulties: dict[str, Expr] = {}
    for name, diff in res.difficulties.items():
        try:
            difficulties[name] = compile_expr(diff.target, diff_ctx, NUM)
        except ExprError as exc:
            raise locate(exc, positions, (*base, "difficulties", name, "target"), fallback_file=file) from None
    if no_target and difficulties:
        raise locate(RulepackError("difficulties need a target, but this pack has target: none"), positions,
                     (*base, "difficulties"), key=True, fallback_file=file)
    # modifiers
    modifiers: dict[str, tuple[str, int, int | None]] = {}
    for name, mod in res.modifiers.items():
        kind = "tens_reroll" if mod.tens_reroll else "reroll"
        direction = mod.tens_reroll or mod.reroll
        if kind == "tens_reroll" and roll.single_die != 100:
            raise locate(RulepackError(f"modifier {name!r}: tens_reroll needs a one-die percentile roll"),
                         positions, (*base, "modifiers", name), fallback_file=file)
        modifiers[name] = (kind, 1 if direction == "keep_lowest" else -1, mod.max)
    # rank context
    has_pool = roll.has_pool
    names = {**param_ctx, "roll": NUM, "dice": LIST, "modifier": NUM, "ones": NUM}
    unavailable = {}
    if has_pool:
        names["successes"] = NUM
    else:
        unavailable["successes"] = "the roll has no success pool (like 5d10>=8)"
    if no_target is None:
        names.update(target=NUM, raw_target=NUM)
    else:
        unavailable.update(target=no_target, raw_target=no_target)
    static_dice = None
    if not modifiers and "{" not in roll.text and "!" not in roll.text:
        static_dice = roll.max_dice
    rank_ctx = Context(names, unavailable, dice_count=static_dice, what="when:")

    def compile_ranks(ranks: list[Rank], path: tuple[Any, ...], allow_drop: bool) -> list[CompiledRank]:
        out = []
        for i, rank in enumerate(ranks):
            if rank.drop and not allow_drop:
                raise locate(RulepackError("drop: is only for ranks inside a variant"), positions,
                             (*path, i, "drop"), fallback_file=file)
            when = None
            if rank.when is not None:
                try:
                    when = compile_expr(rank.when, rank_ctx, BOOL)
                except ExprError as exc:
                    raise locate(exc, positions, (*path, i, "when"), fallback_file=file) from None
            flags = dict(rank.model_extra or {})
            out.append(CompiledRank(rank.id, when, rank.success, rank.critical, rank.fumble, rank.tier, flags))
        return out

    def check_order(ranks: list[CompiledRank], path: tuple[Any, ...]) -> tuple[CompiledRank, ...]:
        ids = [r.id for r in ranks]
        dupes = {i for i in ids if ids.count(i) > 1}
        if dupes:
            raise locate(RulepackError(f"rank id {sorted(dupes)[0]!r} appears twice"), positions, path,
                         fallback_file=file)
        fallbacks = [i for i, r in enumerate(ranks) if r.when is None]
        if not fallbacks:
            raise locate(RulepackError("no fallback rank: one rank must have no when:", expected="a last rank without when:"),
                         positions, path, fallback_file=file)
        if len(fallbacks) > 1 or fallbacks[0] != len(ranks) - 1:
            raise locate(RulepackError(f"rank {ranks[fallbacks[0]].id!r} has no when: but is not last; the ranks after it can never match",
                                       expected="exactly one rank without when:, placed last"),
                         positions, path, fallback_file=file)
        return tuple(ranks)

    if res.ranks:
        base_ranks = compile_ranks(res.ranks, (*base, "ranks"), False)
    else:
        if target_kind == "none":
            raise locate(RulepackError("resolution needs ranks: when target is none"), positions, base,
                         fallback_file=file)
        success = compile_expr(f"roll {res.compare} target", rank_ctx, BOOL)
        base_ranks = [CompiledRank("success", success, True, False, False, 1, {}),
                      CompiledRank("failure", None, False, False, False, 0, {})]
    ranks = check_order(base_ranks, (*base, "ranks"))
    variants: dict[str, tuple[CompiledRank, ...]] = {}
    for vname, variant in res.variants.items():
        vpath = (*base, "variants", vname, "ranks")
        patch = compile_ranks(variant.ranks, vpath, True)
        merged = list(ranks)
        for i, rank in enumerate(patch):
            raw_rank = variant.ranks[i]
            where = next((j for j, r in enumerate(merged) if r.id == rank.id), None)
            if raw_rank.drop:
                if where is None:
                    raise locate(RulepackError(f"variant drops rank {rank.id!r}, which does not exist"), positions,
                                 (*vpath, i), fallback_file=file)
                del merged[where]
            elif where is not None:
                merged[where] = rank
            else:
                fallback_at = next((j for j, r in enumerate(merged) if r.when is None), len(merged))
                merged.insert(fallback_at, rank)
        variants[vname] = check_order(merged, vpath)
    margin = None
    if res.margin is not None:
        try:
            margin = compile_expr(res.margin, rank_ctx, NUM)
        except ExprError as exc:
            raise locate(exc, positions, (*base, "margin"), fallback_file=file) from None
    elif target_kind != "none":
        text = "target - roll" if res.compare in ("<=", "<") else "roll - target"
        margin = compile_expr(text, rank_ctx, NUM)
    elif has_pool:
        margin = compile_expr("successes", rank_ctx, NUM)
    return CompiledResolution(roll, target_kind, target_expr, difficulties, modifiers, ranks, variants, margin,
                              res.script, tuple(params))


def _compile_derived(
    model: Rulepack,
    positions: Positions,
    stats: set[str],
    computers: ComputerLookup,
    computer_names: Callable[[], Sequence[str]],
    groups: GroupLookup,
    group_names: Callable[[], Sequence[str]],
    file: str | None,
) -> list[tuple[str, Callable[[dict[str, Any], frozenset[str]], Any]]]:
    ctx = Context({s: NUM for s in sorted(stats)}, what="a derived expr")
    compiled: dict[str, tuple[Callable[[dict[str, Any], frozenset[str]], Any], set[str]]] = {}

    def need(stat: str, path: tuple[Any, ...]) -> str:
        if stat not in stats:
            raise locate(RulepackError(f"unknown stat {stat!r}", expected="a stat named in defaults, derived or alias"),
                         positions, path, fallback_file=file)
        return stat

    for name, spec in model.derived.items():
        path = ("derived", name)
        fn: Callable[[dict[str, Any], frozenset[str]], Any]
        deps: set[str] = set()
        kind = spec.kind
        if kind == "copy_of":
            src = need(spec.copy_of, (*path, "copy_of"))  # type: ignore[arg-type]
            deps = {src}
            fn = (lambda s: lambda v, a: v[s])(src)
        elif kind == "half_of":
            src = need(spec.half_of, (*path, "half_of"))  # type: ignore[arg-type]
            deps = {src}
            fn = (lambda s: lambda v, a: math.floor(v[s] / 2) if isinstance(v[s], float) else v[s] // 2)(src)
        elif kind == "floor_div":
            fd = spec.floor_div
            assert fd is not None
            src = need(fd.of, (*path, "floor_div", "of"))
            deps = {src}
            fn = (lambda s, b: lambda v, a: math.floor(v[s] / b))(src, fd.by)
        elif kind == "sum_ranges":
            sr = spec.sum_ranges
            assert sr is not None
            of = [need(s, (*path, "sum_ranges", "of", i)) for i, s in enumerate(sr.of)]
            deps = set(of)
            table = [(lo, hi, val) for lo, hi, val in sr.ranges]
            default = sr.else_

            def ranged(v: dict[str, Any], a: frozenset[str], of: list[str] = of,
                       table: list[Any] = table, default: Any = default) -> Any:
                total = sum(v[s] for s in of)
                for lo, hi, val in table:
                    if lo <= total <= hi:
                        return val
                return default

            fn = ranged
        elif kind == "expr":
            try:
                expr = compile_expr(spec.expr, ctx, NUM)
            except ExprError as exc:
                raise locate(exc, positions, (*path, "expr"), fallback_file=file) from None
            deps = set(expr.names)
            fn = (lambda e: lambda v, a: e.fn(v))(expr)
        elif kind == "computer":
            cname = spec.computer
            assert cname is not None
            function = computers(cname)
            if function is None:
                known = ", ".join(sorted(computer_names())) or "none are registered"
                raise locate(RulepackError(f"unknown computer {cname!r}", expected=f"a registered computer ({known})"),
                             positions, (*path, "computer"), fallback_file=file)
            fn = (lambda f: lambda v, a: f(v))(function)
        else:
            gname = spec.computer_group
            assert gname is not None
            if gname == "":
                raise locate(RulepackError("computer_group needs a system id"), positions, path, fallback_file=file)
            stat = spec.stat or name

            def grouped(v: dict[str, Any], a: frozenset[str], g: str = gname, stat: str = stat) -> Any:
                if g in a:
                    raise CheckError(f"computer_group loop through {g!r}")
                other = groups(g)
                if other is None:
                    raise CheckError(f"computer_group: system {g!r} is not available")
                result = other.derive(v, _active=a)
                if stat not in result:
                    raise CheckError(f"computer_group: {g!r} derives no {stat!r}")
                return result[stat]

            if gname not in group_names():
                known = ", ".join(sorted(group_names())) or "none"
                raise locate(RulepackError(f"computer_group: unknown system {gname!r}", expected=f"an installed system ({known})"),
                             positions, (*path, "computer_group"), fallback_file=file)
            fn = grouped
        compiled[name] = (fn, deps)
    # order: dependencies first, declaration order otherwise
    order: list[str] = []
    state: dict[str, int] = {}

    def visit(name: str, trail: list[str]) -> None:
        if state.get(name) == 2:
            return
        if state.get(name) == 1:
            loop = " -> ".join([*trail[trail.index(name):], name])
            raise locate(RulepackError(f"derived stats depend on each other in a loop: {loop}"), positions,
                         ("derived", name), key=True, fallback_file=file)
        state[name] = 1
        for dep in sorted(compiled[name][1]):
            if dep in compiled and dep != name:
                visit(dep, [*trail, name])
        state[name] = 2
        order.append(name)

    for name in compiled:
        visit(name, [])
    return [(name, compiled[name][0]) for name in order]
