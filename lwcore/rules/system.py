"""A rule system ready to use: a validated rulepack compiled into closures (:class:`RuleSystem`).

:func:`compile_pack` turns a merged, pydantic-validated pack into a :class:`RuleSystem`.
Every expression and dice expression is parsed here, at load time, so a typo fails the load
with a located diagnostic instead of failing someone's first check; every problem found is
reported at once (:class:`lwcore.rules.diagnostics.Diagnostics`).
"""

from __future__ import annotations

import math
import random
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lwcore.contributions import localized
from lwcore.i18n import negotiate
from lwcore.errors import LwError
from lwcore.io.safe_yaml import Positions
from lwcore.rules.diagnostics import Diagnostics, did_you_mean
from lwcore.rules.dice import DIGIT, DiceExpr, Drawer, FaceReplay, rng_drawer
from lwcore.rules.errors import CheckError, ExprError, RulesError
from lwcore.rules.expr import BOOL, LIST, NUM, Expr, ExprScope, compile_expr
from lwcore.rules.kinds import KindSet, bundled
from lwcore.rules.model import ComputedElse, Rank, Rulepack, label_words
from lwcore.rules.packcheck import check_behaviour
from lwcore.rules.scripts import bind_all, decide_check

INPUT_TARGETS = ("skill", "attribute", "dc")
MAX_MODIFIER_DICE = 10
RESERVED = ("roll", "total", "dice", "target", "raw_target", "modifier", "successes", "ones")
LOCALE = re.compile(r"^[a-z]{2,3}([-_][A-Za-z0-9]{2,8})*$")

MAX_SPECIALTY = 40
"""A specialty (``Latin`` in ``Language (Latin)``) is at most this many characters."""
_SPECIALISED = re.compile(r"(?P<family>[^()]+?)\s*\(\s*(?P<spec>[^()]+?)\s*\)")
_NOT_IN_SPECIALTY = frozenset("+-&=:;,|，；：、。\r\n\t")


def tight(name: str) -> str:
    """``name`` as the pack keys it: NFKC (full-width brackets are brackets), and no space
    around the brackets of a specialised name (``Fighting (Brawl)`` -> ``Fighting(Brawl)``)."""
    if not name.isascii():
        name = unicodedata.normalize("NFKC", name)
    if "(" not in name:
        return name
    m = _SPECIALISED.fullmatch(name.strip())
    return f"{m['family']}({m['spec']})" if m is not None else name



@dataclass(frozen=True, slots=True)
class CompiledRank:
    id: str
    when: Expr | None
    success: bool
    critical: bool
    fumble: bool
    tier: int
    flags: Mapping[str, Any]

    def same_outcome(self, other: CompiledRank) -> bool:
        return (self.success, self.critical, self.fumble, self.tier, dict(self.flags)) == \
            (other.success, other.critical, other.fumble, other.tier, dict(other.flags))


@dataclass(slots=True)
class CheckResult:
    """The outcome of one check. Flags are the winning rank's data; nothing here is display.

    ``dice`` is every face rolled, in roll order (what replays the check: ``faces=result.dice``);
    ``kept`` the natural faces the roll kept (what the ranks' ``dice[i]`` read): a keep/drop
    leaves its dropped faces out, a whole-roll reroll keeps the chosen roll's faces, a
    percentile tens reroll keeps one die, the value read with the kept tens digit.

    ``roll`` is the kept dice total, without the check's flat ``modifier`` (what the ranks call
    ``total``; their ``roll`` is this plus the modifier)."""

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
    kept: tuple[int, ...] = ()

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
            "kept": list(self.kept),
        }


@dataclass(frozen=True, slots=True)
class CompiledModifier:
    """``kind`` is ``tens_reroll``, ``reroll`` or ``roll``; ``sign`` +1 keeps the lowest, -1 the
    highest; ``most`` the most per check; ``roll`` the replacement roll of a ``roll`` modifier."""

    kind: str
    sign: int
    most: int | None
    roll: DiceExpr | None = None


@dataclass
class CompiledResolution:
    roll: DiceExpr
    target_kind: str
    target_expr: Expr | None
    difficulties: dict[str, Expr]
    modifiers: dict[str, CompiledModifier]
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


class RuleSystem:
    """A loaded system: the merged data, the validated model and compiled behaviour.

    ``cache`` holds what other modules derive from the pack once (command words, difficulty
    words …); it lives as long as this loaded pack.
    """

    def __init__(self, system_id: str, model: Rulepack, data: Mapping[str, Any], *, origin: str,
                 chain: Sequence[str] = (), lineage: Sequence[Sequence[str]] = (),
                 warnings: Sequence[str] = ()) -> None:
        self.id = system_id
        self.model = model
        self.data = data
        self.origin = origin
        self.chain = tuple(chain)
        self.lineage: tuple[tuple[str, ...], ...] = tuple(tuple(words) for words in lineage) or (self.names,)
        """Each system of :attr:`chain`'s own selecting words (its id, ``names``, ``set_keys``)."""
        self.warnings = list(warnings)
        self.resolution: CompiledResolution | None = None
        self.cache: dict[Any, Any] = {}
        self._words: dict[tuple[int, str, str], str] = {}
        self.test_locations: list[str] = []
        """``file:line:column`` of each case of the pack's ``tests:`` table."""
        self._derived: list[tuple[str, Callable[[dict[str, Any], frozenset[str]], Any]]] = []
        self._alias: dict[str, str] = {}
        self._families: dict[str, str] = {}
        """Every name of a ``specialisations`` family (any case) -> the family's canonical name."""
        self.scripts: dict[str, Path] = {}
        self.scripts_off: str | None = None
        self.kinds: KindSet = bundled()
        """The subsystem kinds this pack's subsystems run on: its engine's (the kernel's
        ``subsystem_kinds`` registry), the bundled kinds for a pack compiled alone."""
        """Why the pack's rule scripts may not run here (the operator's switch,
        :mod:`lwcore.sandbox.switch`), else ``None``."""
        """The pack's rule scripts, bound at load (``resolution``, ``subsystems.<name>`` -> file;
        :mod:`lwcore.rules.scripts`)."""

    @property
    def has_rules_script(self) -> bool:
        """Whether the pack resolves anything through a JS script (the trust card says so)."""
        return bool(self.scripts)

    # --- names --------------------------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        """Every word that selects this system: id, ``names`` and ``set_keys`` -- its own: a
        patch (``extends:``) never answers to its parent's words."""
        seen: dict[str, None] = {self.id: None}
        for n in (*self.model.names, *self.model.set_keys):
            seen.setdefault(n, None)
        return tuple(seen)

    def matches(self, word: str) -> bool:
        """Whether ``word`` selects this system (one of :attr:`names`, any case)."""
        w = word.strip().casefold()
        return any(w == n.casefold() for n in self.names)

    def is_a(self, word: str) -> bool:
        """Whether this system is, or extends, the system ``word`` selects: a patch of system
        ``base`` plays ``base``'s sheets and counts for what is written for ``base`` (a skill's
        ``systems``), though ``base`` never selects the patch (:meth:`matches`)."""
        w = word.strip().casefold()
        return any(w == n.casefold() for words in self.lineage for n in words)

    def bounds(self, stat: str) -> tuple[float | None, float | None]:
        """``(min, max)`` a player's ``.st`` may give ``stat`` (any alias): its ``bounds`` entry,
        else the ``*`` entry, else ``(None, None)`` (the pack says nothing)."""
        canonical = self.canonical(stat) or stat
        table = self.model.bounds
        named = next((b for k, b in table.items() if k != "*" and (self.canonical(k) or k) == canonical), None)
        found = self.family(canonical) if named is None else None
        if found is not None:  # a specialty is bounded as its family is
            named = table.get(found[0])
        chosen = named or table.get("*")
        return (chosen.min, chosen.max) if chosen is not None else (None, None)

    def canonical(self, name: str) -> str | None:
        """The canonical stat name for ``name`` (itself, or through ``alias``), else ``None``.

        A specialised name ``FAMILY(SPECIALTY)`` (brackets full-width or not, spaces around
        them or not) is the stat an alias names (``格斗(斗殴)`` -> ``斗殴``), else, when FAMILY
        is one of the pack's ``specialisations`` (any of its names), ``<family>(<specialty>)``
        -- ``Language (Latin)`` -> ``外语(Latin)``; a specialty holds no digit, sign or
        separator, no control or invisible format character, and at most :data:`MAX_SPECIALTY`
        characters."""
        hit = self._alias.get(name) or self._alias.get(name.casefold())
        if hit is not None or ("(" not in name and "\uff08" not in name):
            return hit
        whole = tight(name)
        hit = self._alias.get(whole) or self._alias.get(whole.casefold())
        if hit is not None:
            return hit
        m = _SPECIALISED.fullmatch(whole)
        if m is None:
            return None
        family = self._families.get(m["family"]) or self._families.get(m["family"].casefold())
        spec = m["spec"]
        if family is None or len(spec) > MAX_SPECIALTY or any(
                c.isdigit() or c in _NOT_IN_SPECIALTY or unicodedata.category(c)[0] == "C" for c in spec):
            return None
        return f"{family}({spec})"

    def family(self, canonical: str) -> tuple[str, str] | None:
        """``(family, specialty)`` of a specialised canonical name (``外语(Latin)``), else ``None``."""
        if not canonical.endswith(")") or canonical in self.model.defaults:
            return None
        m = _SPECIALISED.fullmatch(canonical)
        if m is None or m["family"] not in self.model.specialisations:
            return None
        return m["family"], m["spec"]

    def default(self, canonical: str) -> Any:
        """The pack's starting value of ``canonical``: its ``defaults`` entry, else a
        specialty's family ``default``, else ``None``."""
        if canonical in self.model.defaults:
            return self.model.defaults[canonical]
        found = self.family(canonical)
        return self.model.specialisations[found[0]].default if found is not None else None

    @property
    def aliases(self) -> Mapping[str, str]:
        """Every name the pack knows (canonical names, aliases, casefolded forms) -> canonical."""
        return self._alias

    def display_name(self, canonical: str, locale: str = "en") -> str:
        """Presentation name of a stat; falls back to the canonical name. Never affects results."""
        shown = self._words.get((0, canonical, locale))
        if shown is None:
            shown = canonical
            key = negotiate(locale, [k for k, table in self.model.display.items() if table and canonical in table], "")
            if key:
                shown = self.model.display[key][canonical]
            else:
                found = self.family(canonical)
                if found is not None:  # Language (Latin): the family's name, then the specialty
                    head = self.display_name(found[0], locale)
                    shown = f"{head} ({found[1]})" if head[-1:].isascii() else f"{head}({found[1]})"
            self._remember((0, canonical, locale), shown)
        return shown

    def label(self, rank_id: str, locale: str = "en") -> str:
        """The pack's label for a rank id in ``locale`` (the displayed one), else the id."""
        shown = self._words.get((1, rank_id, locale))
        if shown is None:
            shown = rank_id
            usable = {k: words for k, table in self.model.labels.items()
                      if table and rank_id in table and (words := label_words(table[rank_id]))}
            key = negotiate(locale, usable, "en")
            if key in usable:
                shown = usable[key][0]
            self._remember((1, rank_id, locale), shown)
        return shown

    def _remember(self, key: tuple[int, str, str], shown: str) -> None:
        if len(self._words) > 4096:
            self._words.clear()
        self._words[key] = shown

    def rank_ids(self) -> list[str]:
        """Every rank id of the ladder and its variants, in order, each once."""
        res = self.resolution
        if res is None:
            return []
        seen: dict[str, None] = {}
        for ladder in (res.ranks, *res.variants.values()):
            for rank in ladder:
                seen.setdefault(rank.id, None)
        return list(seen)

    def resources(self, locale: str = "en") -> list[dict[str, Any]]:
        """The sheet's resource bars with each label resolved for one viewer's ``locale``."""
        out: list[dict[str, Any]] = []
        if self.model.sheet is None:
            return out
        for res in self.model.sheet.resources:
            item = res.model_dump()
            item["label"] = res.label if isinstance(res.label, str) else localized(res.label, locale)
            out.append(item)
        return out

    def tagline(self, fields: Mapping[str, Any]) -> str | None:
        """A character's one-line description from a sheet's own ``fields`` (the keys the
        pack names in ``sheet.tagline``, joined by commas); ``None`` when it names none the
        sheet has."""
        if self.model.sheet is None:
            return None
        parts = [str(fields[key]).strip() for key in self.model.sheet.tagline
                 if fields.get(key) is not None and str(fields[key]).strip()]
        return ", ".join(parts) or None

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

    @property
    def default_target(self) -> int | None:
        """``resolution.check.default_target``: the number to beat when a check gives none."""
        res = self.model.resolution
        return res.check.default_target if res is not None and res.check is not None else None

    @property
    def modifier_routes(self) -> Mapping[str, str]:
        """``favorable``/``unfavorable`` -> the modifier ``resolution.check`` routes it to."""
        routes = self.cache.get("modifier_routes")
        if routes is None:
            res = self.model.resolution
            check = res.check if res is not None else None
            routes = {} if check is None else {
                k: v for k, v in (("favorable", check.favorable), ("unfavorable", check.unfavorable)) if v}
            self.cache["modifier_routes"] = routes
        return routes

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
        previews, tests). Same rank logic as :meth:`check`; no dice are drawn. Each value is the
        die as rolled (the ranks' ``total``); ``modifier`` is added to it for their ``roll``."""
        res = self._resolution()
        if res.script is not None:
            raise CheckError(f"outcomes() needs rank conditions; {self.id} resolves through {res.script!r}",
                             expected="a check per roll")
        if res.roll.single_die is None:
            raise CheckError(f"outcomes() needs a one-die roll; {self.id} rolls {res.roll.text!r}")
        _pvals, env, _raw, _adjusted, ranks = self._prepare(target, difficulty, variant, modifier, params)
        env["successes"] = 0
        out = []
        try:
            for value in rolls:
                env["total"] = value
                env["roll"] = value + modifier
                env["dice"] = [value]
                env["ones"] = 1 if value == 1 else 0
                for rank in ranks:
                    if rank.when is None or rank.when.fn(env):
                        break
                out.append(rank)
        except ExprError as exc:
            raise CheckError(f"{self.id}: {exc}") from None
        return out

    def _modifier_plan(self, res: CompiledResolution, counts: Mapping[str, int]) -> tuple[
            dict[str, int], dict[str, int], DiceExpr | None]:
        """``(applied counts, net count per kind, replacement roll)`` for the asked modifiers."""
        applied: dict[str, int] = {}
        net: dict[str, int] = {}
        replacements: list[DiceExpr] = []
        for name, count in counts.items():
            spec = res.modifiers.get(name)
            if spec is None:
                raise CheckError(f"system {self.id!r} has no {name!r} modifier{did_you_mean(name, res.modifiers)}",
                                 expected="one of: " + (", ".join(res.modifiers) or "(none declared)"))
            if not isinstance(count, int) or isinstance(count, bool):
                raise CheckError(f"{name}: the count must be a whole number, not {count!r}")
            if count < 0:
                raise CheckError(f"{name}: a negative count", expected="0 or more")
            most = spec.most if spec.most is not None else (1 if spec.kind == "roll" else None)
            if most is not None and count > most:
                raise CheckError(f"{name}: at most {most} per check", expected=f"0 to {most}")
            if count:
                applied[name] = count
                if spec.roll is not None:
                    replacements.append(spec.roll)
                else:
                    net[spec.kind] = net.get(spec.kind, 0) + spec.sign * count
        # one replacement roll is used; two different ones cancel (advantage and disadvantage)
        replacement = replacements[0] if len({r.text for r in replacements}) == 1 else None
        return applied, net, replacement

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
        pvals, base_env, raw, adjusted, ranks = self._prepare(target, difficulty, variant, modifier, params)
        applied: dict[str, int] = {}
        net: dict[str, int] = {}
        rolled = res.roll
        if modifiers or bonus or penalty:
            counts: dict[str, int] = dict(modifiers or {})
            if bonus:
                counts["bonus"] = counts.get("bonus", 0) + bonus
            if penalty:
                counts["penalty"] = counts.get("penalty", 0) + penalty
            applied, net, replacement = self._modifier_plan(res, counts)
            rolled = replacement or rolled
        # --- the roll
        replay: FaceReplay | None = None
        drawer: Drawer
        if faces is not None:
            replay = FaceReplay(faces)
            drawer = replay
        elif roll is not None:
            if rolled.single_die is None:
                raise CheckError(f"a given roll value needs a one-die roll; {self.id} rolls {rolled.text!r}",
                                 expected="faces (--dice) instead")
            replay = FaceReplay([roll], fallback=rng_drawer(rng))
            drawer = replay
        else:
            drawer = draw if draw is not None else rng_drawer(rng)
        base = rolled.evaluate(drawer, pvals)
        dice = base.faces
        # what the roll keeps: its total, its kept natural faces, their successes and ones
        value, kept, successes, ones = base.total, base.kept, base.successes, base.ones
        for kind, n in net.items():
            if abs(n) > MAX_MODIFIER_DICE:
                raise CheckError(f"{abs(n)} extra dice after cancelling", expected=f"at most {MAX_MODIFIER_DICE}")
            if not n:
                continue
            if kind == "tens_reroll":
                units = value % 10
                values = [value]
                for _ in range(abs(n)):
                    digit = drawer(DIGIT)
                    dice.append(digit)
                    values.append(digit * 10 + units or 100)
                # one percentile die whose tens digit is the kept tens die
                value = min(values) if n > 0 else max(values)
                kept, ones = [value], int(value == 1)
                continue
            candidates = [(value, kept, successes, ones)]
            for _ in range(abs(n)):
                again = rolled.evaluate(drawer, pvals)
                dice.extend(again.faces)
                candidates.append((again.total, again.kept, again.successes, again.ones))
            totals = [c[0] for c in candidates]
            value, kept, successes, ones = candidates[totals.index(min(totals) if n > 0 else max(totals))]
        if replay is not None and faces is not None:
            replay.finish()
        env = base_env
        env["total"] = value
        env["roll"] = value + modifier
        env["dice"] = kept
        env["successes"] = successes
        env["ones"] = ones
        flags: Mapping[str, Any] = {}
        scripted_margin = None
        try:
            if res.script is not None:
                rank, scripted_margin, flags = decide_check(self, ranks, env, dice, difficulty=difficulty,
                                                            variant=variant, modifiers=applied)
            else:
                for rank in ranks:
                    if rank.when is None or rank.when.fn(env):
                        break
            margin = scripted_margin if scripted_margin is not None else \
                res.margin.fn(env) if res.margin is not None else None
        except ExprError as exc:
            raise CheckError(f"{self.id}: {exc}") from None
        return CheckResult(self.id, rank.id, rank.success, rank.critical, rank.fumble, rank.tier,
                           {**rank.flags, **flags} if flags else rank.flags, margin,
                           value, tuple(dice), adjusted, raw, difficulty, variant, applied, successes, ones, pvals,
                           tuple(kept))


# --- compilation ----------------------------------------------------------------------------

ComputerLookup = Callable[[str], Callable[[Mapping[str, Any]], Any] | None]
GroupLookup = Callable[[str], "RuleSystem | None"]


def compile_pack(
    system_id: str,
    model: Rulepack,
    data: Mapping[str, Any],
    positions: Positions,
    *,
    origin: str,
    chain: Sequence[str] = (),
    lineage: Sequence[Sequence[str]] = (),
    warnings: Sequence[str] = (),
    computers: ComputerLookup = lambda name: None,
    computer_names: Callable[[], Sequence[str]] = lambda: (),
    groups: GroupLookup = lambda name: None,
    group_names: Callable[[], Sequence[str]] = lambda: (),
    file: str | None = None,
    unbound: frozenset[str] = frozenset(),
    kinds: KindSet | None = None,
) -> RuleSystem:
    """Compile a validated pack; every problem is reported at once as located
    :class:`~lwcore.rules.errors.RulepackError`\\ s (a :class:`~lwcore.rules.errors.RulepackErrors`
    when there are several); warnings land in ``RuleSystem.warnings``. Scripts declared in the
    files named in ``unbound`` (YAML read from a pack archive) are left to the pack's checks."""
    diag = Diagnostics(positions, file)
    pack = RuleSystem(system_id, model, data, origin=origin, chain=chain, lineage=lineage, warnings=warnings)
    if kinds is not None:
        pack.kinds = kinds
    _resolve_resources(model, diag)
    alias: dict[str, str] = {}
    for canonical in (*model.defaults, *model.derived):
        alias.setdefault(canonical, canonical)
        alias.setdefault(canonical.casefold(), canonical)
    for canonical, words in model.alias.items():
        alias[canonical] = canonical
        alias.setdefault(canonical.casefold(), canonical)
        for word in words:
            for form in dict.fromkeys((word, tight(word))):
                alias.setdefault(form, canonical)
                alias.setdefault(form.casefold(), canonical)
    pack._alias = alias
    for family, entry in model.specialisations.items():
        for word in (family, *entry.alias):
            pack._families.setdefault(tight(word), family)
            pack._families.setdefault(tight(word).casefold(), family)
    bind_all(pack, data, positions, diag, unbound)
    stats = {*model.defaults, *model.derived, *model.alias}
    formulas = model.creation_constraints.get("roll")
    attributes = model.creation_constraints.get("attributes")
    rolls: list[tuple[tuple[str, ...], Any]] = [(("creation_constraints", "roll", stat), f) for stat, f in formulas.items()] \
        if isinstance(formulas, Mapping) else []
    if isinstance(attributes, Mapping):
        rolls += [(("creation_constraints", "attributes", stat, "roll"), entry.get("roll"))
                  for stat, entry in attributes.items() if isinstance(entry, Mapping)]
    for path, formula in rolls:
        if isinstance(formula, str):
            try:
                DiceExpr(formula)
            except LwError as exc:
                diag.add(exc, path)
    pack._derived = _compile_derived(model, diag, stats, computers, computer_names, groups, group_names)
    if model.resolution is not None:
        pack.resolution = _compile_resolution(model, diag)
    if model.subsystems or model.commands:
        check_behaviour(model, diag, computers=computers, computer_names=computer_names, kinds=pack.kinds)
    _check_words(pack, diag)
    _check_bounds(pack, diag)
    diag.raise_errors(warnings)
    pack.warnings += diag.warnings
    for i in range(len(model.tests)):
        pos = positions.find(("tests", i))
        pack.test_locations.append(f"{pos.file or file}:{pos.line}:{pos.column}" if pos and (pos.file or file)
                                   else "")
    return pack


def _resolve_resources(model: Rulepack, diag: Diagnostics) -> None:
    """Point every ``source:`` resource at stats: a ``{current, max}`` record under ``sheet:``
    whose entries name stats, or give starting numbers (then kept in stats ``<id>`` and
    ``<id>max``, added to the defaults when the pack does not declare them)."""
    if model.sheet is None:
        return
    for i, res in enumerate(model.sheet.resources):
        if res.value is not None or res.source in (None, "attributes"):
            continue
        path = ("sheet", "resources", i, "source")
        record = (model.sheet.model_extra or {}).get(res.source)
        if not isinstance(record, Mapping) or "current" not in record:
            diag.error(f"source {res.source!r} names no {{current, max}} record under sheet:", path,
                       expected=f"sheet: {{{res.source}: {{current: <stat or number>, max: <stat or number>}}}}")
            continue
        names = {"current": res.id, "max": f"{res.id}max"}
        for part in ("current", "max"):
            entry = record.get(part)
            if entry is None:
                continue
            if isinstance(entry, str):
                stat = entry
            elif isinstance(entry, (int, float)) and not isinstance(entry, bool):
                stat = names[part]
                model.defaults.setdefault(stat, entry)
            else:
                diag.error(f"{res.source}.{part} must name a stat or give a number", ("sheet", res.source, part))
                continue
            if part == "current":
                res.value = stat
            else:
                res.max = stat


def _check_bounds(pack: RuleSystem, diag: Diagnostics) -> None:
    """``bounds`` names stats of the pack (or ``*``): a typo would leave a stat unbounded."""
    stats = sorted(set(pack.aliases.values()))
    for name in pack.model.bounds:
        if name != "*" and pack.canonical(name) is None:
            diag.error(f"unknown stat {name!r}{did_you_mean(name, stats)}", ("bounds", name), key=True)


def _check_words(pack: RuleSystem, diag: Diagnostics) -> None:
    """Warnings for ``labels`` and ``display`` written in a shape the engine would ignore."""
    model = pack.model
    ranks = set(pack.rank_ids())
    for top, table in model.labels.items():
        if top in ranks:
            diag.warn(f"{top!r} is a rank id, but labels are labels.<locale>.<id> (did you mean "
                      f"labels.en.{top}?)", ("labels", top))
        elif not LOCALE.match(str(top)):
            diag.warn(f"{top!r} does not look like a locale (labels are labels.<locale>.<id>, e.g. en, zh)",
                      ("labels", top))
    stats = set(pack.aliases.values())
    res = model.resolution
    known = stats | set(res.modifiers if res else ()) | set(res.params if res else ()) | set(model.specialisations)
    for top, shown in model.display.items():
        if not LOCALE.match(str(top)):
            diag.warn(f"{top!r} does not look like a locale (display is display.<locale>.<stat>)"
                      f"{did_you_mean(str(top), ['en', 'zh'])}", ("display", top))
            continue
        for name in shown or {}:
            if name not in known and pack.canonical(name) is None:
                diag.warn(f"{name!r} is not a stat of this pack (kept, not used){did_you_mean(name, stats)}",
                          ("display", top, name))


def _compile_resolution(model: Rulepack, diag: Diagnostics) -> CompiledResolution | None:
    res = model.resolution
    assert res is not None
    base = ("resolution",)
    errors_before = len(diag.errors)
    scripted = res.script is not None
    params = {name: p.model_dump() for name, p in res.params.items()}
    for name in params:
        if name in RESERVED:
            diag.error(f"parameter name {name!r} is reserved", (*base, "params", name), key=True)
    try:
        roll = DiceExpr(res.roll or "0", params)
    except LwError as exc:
        diag.add(exc, (*base, "roll"))
        return None
    param_types = {name: NUM for name in params}
    expression = diag.expression

    # target
    target_expr = None
    target_spec = res.target
    if isinstance(target_spec, str) and target_spec.strip() in INPUT_TARGETS:
        target_kind = "input"
    elif isinstance(target_spec, str) and target_spec.strip() == "none":
        target_kind = "none"
    else:
        target_kind = "expr"
        scope = ExprScope({**param_types, "modifier": NUM},
                          {"target": "resolution.target computes the target", "roll": "no roll yet",
                           "total": "no roll yet"},
                          what="resolution.target")
        target_expr = expression(target_spec, scope, NUM, (*base, "target"))
    no_target = "this pack has target: none" if target_kind == "none" else None
    # difficulties
    diff_names = {**param_types, "modifier": NUM}
    if no_target is None:
        diff_names.update(target=NUM, raw_target=NUM)
    before_roll = "difficulties adjust the target before the roll"
    diff_scope = ExprScope(diff_names, {"target": no_target or "", "raw_target": no_target or "",
                                        "roll": before_roll, "total": before_roll, "dice": before_roll, "successes": before_roll,
                                        "ones": before_roll},
                           what="a difficulty target")
    difficulties: dict[str, Expr] = {}
    for name, diff in res.difficulties.items():
        compiled = expression(diff.target, diff_scope, NUM, (*base, "difficulties", name, "target"))
        if compiled is not None:
            difficulties[name] = compiled
    if no_target and res.difficulties:
        diag.error("difficulties need a target, but this pack has target: none", (*base, "difficulties"), key=True)
    # modifiers
    modifiers: dict[str, CompiledModifier] = {}
    for name, mod in res.modifiers.items():
        path = (*base, "modifiers", name)
        if mod.roll is not None:
            try:
                replacement = DiceExpr(mod.roll, params)
            except LwError as exc:
                diag.add(exc, (*path, "roll"))
                continue
            modifiers[name] = CompiledModifier("roll", 0, mod.max, replacement)
            continue
        kind = "tens_reroll" if mod.tens_reroll else "reroll"
        direction = mod.tens_reroll or mod.reroll
        if kind == "tens_reroll" and roll.single_die != 100:
            diag.error(f"modifier {name!r}: tens_reroll needs a one-die percentile roll", path)
        modifiers[name] = CompiledModifier(kind, 1 if direction == "keep_lowest" else -1, mod.max)
    # the names a rank's when: and the margin read
    has_pool = roll.has_pool or any(m.roll is not None and m.roll.has_pool for m in modifiers.values())
    names = {**param_types, "roll": NUM, "total": NUM, "dice": LIST, "modifier": NUM, "ones": NUM}
    unavailable = {}
    if has_pool:
        names["successes"] = NUM
    else:
        unavailable["successes"] = "the roll has no success pool (like 5d10>=8)"
    if no_target is None:
        names.update(target=NUM, raw_target=NUM)
    else:
        unavailable.update(target=no_target, raw_target=no_target)
    # the most faces any roll of this check keeps (a replacement roll may keep another number)
    kept_counts = [roll.kept_dice, *(m.roll.kept_dice for m in modifiers.values() if m.roll is not None)]
    known_counts = [k for k in kept_counts if k is not None]
    static_dice = max(known_counts) if len(known_counts) == len(kept_counts) else None
    rank_scope = ExprScope(names, unavailable, dice_count=static_dice, what="when:")

    def compile_ranks(ranks: list[Rank], path: tuple[Any, ...], allow_drop: bool) -> list[CompiledRank]:
        out = []
        for i, rank in enumerate(ranks):
            if rank.drop and not allow_drop:
                diag.error("drop: is only for ranks inside a variant", (*path, i, "drop"))
            when = None
            if rank.when is not None and scripted:
                diag.warn(f"rank {rank.id!r}: when: is not used (the script {res.script!r} decides)",
                          (*path, i, "when"))
            elif rank.when is not None:
                when = expression(rank.when, rank_scope, BOOL, (*path, i, "when"))
            out.append(CompiledRank(rank.id, when, rank.success, rank.critical, rank.fumble, rank.tier,
                                    dict(rank.model_extra or {})))
        return out

    def check_order(ranks: list[CompiledRank], raw: list[Rank], path: tuple[Any, ...]) -> tuple[CompiledRank, ...]:
        first: dict[str, CompiledRank] = {}
        for i, rank in enumerate(ranks):
            other = first.setdefault(rank.id, rank)
            if other is not rank and not other.same_outcome(rank):
                diag.error(f"rank id {rank.id!r} appears twice with different outcomes (success, critical, "
                           "fumble, tier or flags)", (*path, i),
                           expected="one id per outcome: give the second rule its own id, or the same fields")
        fallbacks = [i for i, (r, src) in enumerate(zip(ranks, raw, strict=False)) if src.when is None and not src.drop]
        if scripted:  # the ranks are the script's verdicts: no conditions, no fallback
            return tuple(ranks)
        if not fallbacks:
            diag.error("no fallback rank: one rank must have no when:", path, expected="a last rank without when:")
        elif len(fallbacks) > 1 or fallbacks[0] != len(ranks) - 1:
            diag.error(f"rank {ranks[fallbacks[0]].id!r} has no when: but is not last; the ranks after it can "
                       "never match", path, expected="exactly one rank without when:, placed last")
        return tuple(ranks)

    if res.ranks:
        base_ranks = compile_ranks(res.ranks, (*base, "ranks"), False)
        raw_ranks = list(res.ranks)
    else:
        if target_kind == "none":
            diag.error("resolution needs ranks: when target is none", base)
            return None
        success = compile_expr(f"roll {res.compare} target", rank_scope, BOOL)
        base_ranks = [CompiledRank("success", success, True, False, False, 1, {}),
                      CompiledRank("failure", None, False, False, False, 0, {})]
        raw_ranks = [Rank(id="success", when="x"), Rank(id="failure")]
    ranks = check_order(base_ranks, raw_ranks, (*base, "ranks"))
    variants: dict[str, tuple[CompiledRank, ...]] = {}
    for vname, variant in res.variants.items():
        vpath = (*base, "variants", vname, "ranks")
        patch = compile_ranks(variant.ranks, vpath, True)
        if any(r.when is None and not r.drop for r in variant.ranks):
            # a variant with its own fallback is a whole ladder
            variants[vname] = check_order(patch, list(variant.ranks), vpath)
            continue
        merged = list(ranks)
        merged_raw: list[Rank] = list(raw_ranks)
        for i, rank in enumerate(patch):
            raw_rank = variant.ranks[i]
            where = [j for j, r in enumerate(merged) if r.id == rank.id]
            if raw_rank.drop:
                if not where:
                    diag.error(f"variant drops rank {rank.id!r}, which does not exist", (*vpath, i))
                for j in reversed(where):
                    del merged[j], merged_raw[j]
            elif where:
                merged[where[0]], merged_raw[where[0]] = rank, raw_rank
                for j in reversed(where[1:]):
                    del merged[j], merged_raw[j]
            else:
                at = next((j for j, r in enumerate(merged_raw) if r.when is None), len(merged))
                merged.insert(at, rank)
                merged_raw.insert(at, raw_rank)
        variants[vname] = check_order(merged, merged_raw, vpath)
    margin = None
    if res.margin is not None:
        margin = expression(res.margin, rank_scope, NUM, (*base, "margin"))
    elif target_kind != "none":
        text = "target - roll" if res.compare in ("<=", "<") else "roll - target"
        margin = compile_expr(text, rank_scope, NUM)
    elif has_pool:
        margin = compile_expr("successes", rank_scope, NUM)
    if len(diag.errors) > errors_before:
        return None
    return CompiledResolution(roll, target_kind, target_expr, difficulties, modifiers, ranks, variants, margin,
                              res.script, tuple(params))


def _compile_derived(
    model: Rulepack,
    diag: Diagnostics,
    stats: set[str],
    computers: ComputerLookup,
    computer_names: Callable[[], Sequence[str]],
    groups: GroupLookup,
    group_names: Callable[[], Sequence[str]],
) -> list[tuple[str, Callable[[dict[str, Any], frozenset[str]], Any]]]:
    scope = ExprScope({s: NUM for s in sorted(stats)}, what="a derived expr")
    compiled: dict[str, tuple[Callable[[dict[str, Any], frozenset[str]], Any], set[str]]] = {}

    def need(stat: str, path: tuple[Any, ...]) -> str | None:
        if stat not in stats:
            diag.error(f"unknown stat {stat!r}{did_you_mean(stat, stats)}", path,
                       expected="a stat named in defaults, derived or alias")
            return None
        return stat

    def expression(text: str, path: tuple[Any, ...]) -> Expr | None:
        return diag.expression(text, scope, NUM, path)

    for name, spec in model.derived.items():
        path = ("derived", name)
        fn: Callable[[dict[str, Any], frozenset[str]], Any] | None = None
        deps: set[str] = set()
        kind = spec.kind
        if kind == "copy_of":
            src = need(spec.copy_of, (*path, "copy_of"))  # type: ignore[arg-type]  # copy_of is set when kind is copy_of (the model checks it)
            if src is not None:
                deps, fn = {src}, (lambda s: lambda v, a: v[s])(src)
        elif kind == "half_of":
            src = need(spec.half_of, (*path, "half_of"))  # type: ignore[arg-type]  # half_of is set when kind is half_of (the model checks it)
            if src is not None:
                deps = {src}
                fn = (lambda s: lambda v, a: math.floor(v[s] / 2) if isinstance(v[s], float) else v[s] // 2)(src)
        elif kind == "floor_div":
            fd = spec.floor_div
            assert fd is not None
            src = need(fd.of, (*path, "floor_div", "of"))
            if src is not None:
                deps, fn = {src}, (lambda s, b: lambda v, a: math.floor(v[s] / b))(src, fd.by)
        elif kind == "sum_ranges":
            fn, deps = _sum_ranges(spec.sum_ranges, (*path, "sum_ranges"), need, expression)
        elif kind == "expr":
            expr = expression(spec.expr or "", (*path, "expr"))
            if expr is not None:
                deps, fn = set(expr.names), (lambda e: lambda v, a: e.fn(v))(expr)
        elif kind == "computer":
            cname = spec.computer
            assert cname is not None
            function = computers(cname)
            if function is None:
                known = ", ".join(sorted(computer_names())) or "none are registered"
                diag.error(f"unknown computer {cname!r}{did_you_mean(cname, computer_names())}", (*path, "computer"),
                           expected=f"a registered computer ({known})")
            else:
                fn = (lambda f: lambda v, a: f(v))(function)
        else:
            fn = _grouped(spec, name, path, diag, groups, group_names)
        if fn is not None:
            compiled[name] = (fn, deps)
    # order: dependencies first, declaration order otherwise
    order: list[str] = []
    state: dict[str, int] = {}

    def visit(name: str, trail: list[str]) -> bool:
        if state.get(name) == 2:
            return True
        if state.get(name) == 1:
            loop = " -> ".join([*trail[trail.index(name):], name])
            diag.error(f"derived stats depend on each other in a loop: {loop}", ("derived", name), key=True)
            return False
        state[name] = 1
        for dep in sorted(compiled[name][1]):
            if dep in compiled and dep != name and not visit(dep, [*trail, name]):
                return False
        state[name] = 2
        order.append(name)
        return True

    for name in compiled:
        if not visit(name, []):
            break
    return [(name, compiled[name][0]) for name in order]


def _sum_ranges(sr: Any, path: tuple[Any, ...], need: Callable[[str, tuple[Any, ...]], str | None],
                expression: Callable[[str, tuple[Any, ...]], Expr | None]) -> tuple[Any, set[str]]:
    """A ``sum_ranges`` lookup: inclusive ``[low, high, value]`` rows, first match, else the
    fallback (a value, or ``{expr, format}`` computed)."""
    needed = [need(s, (*path, "of", i)) for i, s in enumerate(sr.of)]
    of = [s for s in needed if s is not None]
    if len(of) < len(needed):
        return None, set()
    deps = set(of)
    table = [(lo, hi, val) for lo, hi, val in sr.ranges]
    fallback: Callable[[dict[str, Any]], Any]
    if isinstance(sr.else_, ComputedElse):
        computed = expression(sr.else_.expr, (*path, "else", "expr"))
        if computed is None:
            return None, set()
        deps |= set(computed.names)
        text = sr.else_.format

        def fallback(v: dict[str, Any], e: Expr = computed, text: str | None = text) -> Any:
            number = e.fn(v)
            if isinstance(number, float) and number.is_integer():
                number = int(number)
            return text.replace("{}", str(number)) if text is not None else number
    else:
        fallback = (lambda d: lambda v: d)(sr.else_)

    def ranged(v: dict[str, Any], a: frozenset[str]) -> Any:
        total = sum(v[s] for s in of)
        for lo, hi, val in table:
            if lo <= total <= hi:
                return val
        return fallback(v)

    return ranged, deps


def _grouped(spec: Any, name: str, path: tuple[Any, ...], diag: Diagnostics, groups: GroupLookup,
             group_names: Callable[[], Sequence[str]]) -> Callable[[dict[str, Any], frozenset[str]], Any] | None:
    """``computer_group: SYSTEM``: that system's derived value of the same name (or ``stat:``)."""
    gname = spec.computer_group
    if not gname:
        diag.error("computer_group needs a system id", path)
        return None
    if gname not in group_names():
        known = ", ".join(sorted(group_names())) or "none"
        diag.error(f"computer_group: unknown system {gname!r}{did_you_mean(gname, group_names())}",
                   (*path, "computer_group"), expected=f"an installed system ({known})")
        return None
    stat = spec.stat or name

    def grouped(v: dict[str, Any], a: frozenset[str]) -> Any:
        if gname in a:
            raise CheckError(f"computer_group loop through {gname!r}")
        other = groups(gname)
        if other is None:
            raise CheckError(f"computer_group: system {gname!r} is not available")
        result = other.derive(v, _active=a)
        if stat not in result:
            raise CheckError(f"computer_group: {gname!r} derives no {stat!r}")
        return result[stat]

    return grouped
