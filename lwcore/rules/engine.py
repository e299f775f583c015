"""Rulepack discovery, ``extends`` resolution, caching, and the host API (:class:`RulesEngine`).

Sources, in priority order:

1. ``kernel.rulepacks`` — packs contributed by plugins (the ``lw_rulepacks`` hook and the
   ``rulepacks/`` folder of a plugin that provides ``rulepacks``); bundled plugins win there.
2. ``<data_dir>/rulepacks/*.yaml`` — the operator's own files; the file stem is the id. A user
   file can never shadow an id a plugin provides (it is skipped and reported).

A malformed pack is skipped and its located diagnostics kept (:meth:`RulesEngine.problems`,
shown by ``lw doctor``); it never stops anything else. Parsed files are cached by file
signature; compiled packs are cached until any source changes. The sources are looked at again
at most once per ``recheck_after`` seconds (default 1 s; :meth:`RulesEngine.refresh` at once, and
so does :meth:`lwcore.kernel.Kernel.data_changed`, which an install calls),
so a running kernel notices a new, changed or removed file within that window while a batch of
checks does not stat every file per request.

One engine serves every thread of its kernel: looking at the sources, building a pack and the
name cache happen under the engine's lock, so a thread never sees the sources half looked at
(an empty set while another thread collects them) nor a pack half built.
"""

from __future__ import annotations

import copy
import os
import random
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lwcore.contributions import resolve
from lwcore.errors import LwError
from lwcore.io.limits import YAML_LIMITS
from lwcore.io.safe_yaml import Positions, load_yaml, read_yaml
from lwcore.rules import subsystems
from lwcore.rules.commands import CommandResult, run_command
from lwcore.rules.creation import make_char
from lwcore.rules.errors import CheckError, RulepackError, RulesError
from lwcore.rules.kinds import KindSet, bundled, resolve_kind
from lwcore.rules.kinds.base import SubsystemResult
from lwcore.rules.merge import MAX_EXTENDS_DEPTH, deep_merge, merge_positions
from lwcore.rules.pack_validation import validate_pack
from lwcore.rules.sheet import Sheet
from lwcore.rules.system import CheckResult, RuleSystem, compile_pack
from lwcore.sandbox.switch import REASON as JS_OFF
from lwcore.sandbox.switch import js_enabled

if TYPE_CHECKING:
    from lwcore.kernel import Kernel

USER_ORIGIN = "user"
PACK_LIMITS = YAML_LIMITS.with_(max_nodes=100_000)
"""A rulepack is a few thousand values; an alias bomb is refused after 100 000."""


@dataclass(frozen=True, slots=True)
class PackSource:
    """Where one system id comes from."""

    id: str
    origin: str
    path: Path | None = None
    data: Mapping[str, Any] | None = None
    text: str | None = None
    """YAML text not on disk (a file inside a pack archive), named by ``name``."""
    name: str | None = None

    @property
    def label(self) -> str:
        if self.name is not None:
            return self.name
        return str(self.path) if self.path is not None else f"<{self.origin}:{self.id}>"

    def signature(self) -> Any:
        if self.path is None:
            return (self.id, self.origin, id(self.data), id(self.text))
        try:
            st = os.stat(self.path)
        except OSError:
            return (self.id, str(self.path), None)
        return (self.id, str(self.path), st.st_mtime_ns, st.st_size)


@dataclass(frozen=True, slots=True)
class Problem:
    """A diagnostic about one pack: ``error`` for a pack that did not load, else a warning."""

    id: str
    origin: str
    message: str
    error: bool = True

    def __str__(self) -> str:
        kind = "error" if self.error else "warning"
        return f"rulepack {self.id} ({self.origin}) {kind}: {self.message}"


_FILE_CACHE: dict[str, tuple[Any, Any, Positions]] = {}


def _parse(read: Any, label: str) -> tuple[dict[str, Any], Positions]:
    """``read()`` -> (data, positions) of one YAML document that must be a mapping."""
    try:
        data, positions = read()
    except LwError as exc:
        raise RulepackError.of(exc) from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise RulepackError("a rulepack is a mapping of keys", file=label, line=1, column=1,
                            expected="keys like names:, defaults:, resolution:")
    return data, positions


OWN_KEYS = ("names", "set_keys")
"""The keys a patch (``extends:``) never inherits: the words that select a system are its own."""


def _own_words(system_id: str, data: Mapping[str, Any]) -> tuple[str, ...]:
    """A pack file's own selecting words: its id, then its ``names`` and ``set_keys`` (text only;
    the pack's validation reports anything else)."""
    words = [system_id]
    for key in OWN_KEYS:
        value = data.get(key)
        if isinstance(value, list):
            words += [w for w in value if isinstance(w, str)]
    return tuple(dict.fromkeys(words))


def read_source(source: PackSource) -> tuple[Any, Positions]:
    """Parse a source (files cached by signature; text as given). Raises :class:`RulepackError`."""
    if source.text is not None:
        text = source.text
        return _parse(lambda: load_yaml(text, source.label, positions=True, limits=PACK_LIMITS), source.label)
    if source.path is None:
        return copy.deepcopy(dict(source.data or {})), Positions()
    key = str(source.path)
    sig = source.signature()
    cached = _FILE_CACHE.get(key)
    if cached is not None and cached[0] == sig:
        return copy.deepcopy(cached[1]), cached[2]
    path = source.path
    data, positions = _parse(lambda: read_yaml(path, positions=True, limits=PACK_LIMITS), str(path))
    if len(_FILE_CACHE) > 512:
        _FILE_CACHE.clear()
    _FILE_CACHE[key] = (sig, copy.deepcopy(data), positions)
    return data, positions


class RulesEngine:
    """The rules service of one kernel: rulepacks by system id, checks, derived stats.

    ``RulesEngine(kernel)``; or ``RulesEngine(None, sources=[...])`` for a kernel-less use.
    ``recheck_after`` (seconds, ``clock`` to measure them) bounds how often the sources are
    looked at again; 0 looks at them on every call.
    """

    def __init__(self, kernel: Kernel | None = None, *, sources: Sequence[PackSource] = (),
                 computers: Mapping[str, Any] | None = None, user_dir: Path | None | bool = True,
                 recheck_after: float = 1.0, clock: Any = time.monotonic) -> None:
        self.kernel = kernel
        self.recheck_after = recheck_after
        self._clock = clock
        self._checked_at: float | None = None
        self._generation = 0
        self._extra_sources = tuple(sources)
        self._extra_computers = dict(computers or {})
        if user_dir is True:
            self.user_dir: Path | None = (kernel.data_dir / "rulepacks") if kernel is not None else None
        else:
            self.user_dir = user_dir or None
        self._signature: Any = None
        self._sources: dict[str, PackSource] = {}
        self._shadowed: list[Problem] = []
        self._packs: dict[str, RuleSystem | RulepackError] = {}
        self._names: dict[str, str | None] = {}
        self._kinds: tuple[Any, KindSet] | None = None
        self._lock = threading.RLock()
        """Guards the sources, the pack and name caches (re-entrant: building a pack asks for
        the packs it groups with)."""

    @property
    def kinds(self) -> KindSet:
        """The subsystem kinds this engine runs: the kernel's ``subsystem_kinds`` registry in
        trust order (the bundled kinds come from the built-in ``rules`` plugin), or the bundled
        kinds for a kernel-less engine. The same set until that registry is rebuilt."""
        if self.kernel is None:
            return bundled()
        registry = self.kernel.subsystem_kinds
        if self._kinds is None or self._kinds[0] is not registry:
            found, skipped = [], []
            for name in registry:
                try:
                    found.append(resolve_kind(registry[name], name))
                except Exception as exc:  # noqa: BLE001 - a plugin's broken kind is left out and reported
                    skipped.append(f"subsystem kind {name!r} of plugin {registry.origin(name)} left out: {exc}")
            self._kinds = (registry, KindSet(found, skipped))
        return self._kinds[1]

    # --- sources ------------------------------------------------------------------------

    def _collect(self) -> tuple[dict[str, PackSource], list[Problem], Any]:
        sources: dict[str, PackSource] = {}
        shadowed: list[Problem] = []
        registry_marker: Any = None
        if self.kernel is not None:
            registry = self.kernel.rulepacks
            registry_marker = id(registry)
            for entry in registry.entries():
                given = entry.value
                sources[entry.key] = PackSource(entry.key, entry.plugin_id, Path(given.path) if given.path else None,
                                                given.data)
        for src in self._extra_sources:
            sources.setdefault(src.id, src)
        if self.user_dir is not None:
            try:
                files = sorted(p for p in self.user_dir.iterdir() if p.suffix == ".yaml" and p.is_file()
                               and not p.name.startswith("."))
            except OSError:
                files = []
            for path in files:
                stem = path.stem
                if stem in sources:
                    owner = sources[stem].origin
                    shadowed.append(Problem(stem, USER_ORIGIN, f"{path}: the id {stem!r} belongs to plugin {owner}; "
                                            "a user file cannot replace it (rename the file to make a new system)"))
                    continue
                sources[stem] = PackSource(stem, USER_ORIGIN, path)
        computers_marker = id(self.kernel.rule_computers) if self.kernel is not None else None
        kinds_marker = id(self.kinds)
        signature = (registry_marker, computers_marker, kinds_marker, tuple(s.signature() for s in sources.values()))
        return sources, shadowed, signature

    def refresh(self) -> None:
        """Look at the sources now (a new, changed or removed pack is seen on the next call)."""
        with self._lock:
            self._checked_at = None
            self._refresh()

    def _refresh(self) -> None:
        with self._lock:
            now = self._clock()
            generation = self.kernel.data_generation if self.kernel is not None else 0
            if (self._checked_at is not None and now - self._checked_at < self.recheck_after
                    and generation == self._generation):
                return
            sources, shadowed, signature = self._collect()
            if signature != self._signature:
                self._signature = signature
                self._sources = sources
                self._shadowed = shadowed
                self._packs = {}
                self._names = {}
            self._checked_at, self._generation = now, generation  # only once the sources are in

    def sources(self) -> dict[str, PackSource]:
        """System id -> where it comes from (after shadowing rules)."""
        with self._lock:
            self._refresh()
            return dict(self._sources)

    def ids(self) -> list[str]:
        """Every system id with a source (loaded or not), sorted."""
        with self._lock:
            self._refresh()
            return sorted(self._sources)

    # --- loading ------------------------------------------------------------------------

    def computer(self, name: str) -> Any:
        """The function of the computer ``name`` (registered or given), ``None`` if unknown."""
        if name in self._extra_computers:
            return resolve(self._extra_computers[name])
        if self.kernel is None:
            return None
        registry = self.kernel.rule_computers
        if name not in registry:
            return None
        comp = registry[name]
        try:
            return resolve(comp.function)
        except Exception:  # noqa: BLE001 - a broken lazy reference is a missing computer
            return None

    def _computer_names(self) -> list[str]:
        names = list(self._extra_computers)
        if self.kernel is not None:
            names += list(self.kernel.rule_computers)
        return names

    def _merged(self, system_id: str, trail: tuple[str, ...]) -> tuple[dict[str, Any], Positions, list[str], str,
                                                                        list[tuple[str, ...]]]:
        """Read ``system_id`` and everything it extends; return (data, positions, chain, file,
        lineage): ``lineage`` holds each system of the chain's own words (its id, ``names`` and
        ``set_keys``), in chain order.

        A patch has its own id and keys: ``names`` and ``set_keys`` are never inherited (a patch
        of a system must not answer to its parent's names); the parent's words stay in the
        lineage, where :meth:`lwcore.rules.system.RuleSystem.is_a` finds them."""
        sources = self._sources
        source = sources.get(system_id)
        if source is None:
            raise RulepackError(f"unknown system {system_id!r}")
        data, positions = read_source(source)
        file = source.label
        parent = data.pop("extends", None)
        own = _own_words(system_id, data) if isinstance(data, dict) else (system_id,)
        if parent is None:
            return data, positions, [system_id], file, [own]
        chain = (*trail, system_id)
        where = positions.find(("extends",))
        loc: dict[str, Any] = {"file": file}
        if where is not None:
            loc.update(line=where.line, column=where.column)
        if not isinstance(parent, str) or not parent:
            raise RulepackError("extends: must name a parent system id", **loc)
        if parent == system_id:
            raise RulepackError(f"{system_id!r} extends itself; a patch needs its own new id", **loc,
                                expected="extends: <another system id>")
        if parent in chain:
            shown = " -> ".join([*chain, parent])
            raise RulepackError(f"extends cycle: {shown}", **loc)
        if len(chain) > MAX_EXTENDS_DEPTH:
            shown = " -> ".join([*chain, parent])
            raise RulepackError(f"extends chain too deep: {shown}", **loc,
                                expected=f"at most {MAX_EXTENDS_DEPTH} levels of extends")
        if parent not in sources:
            shown = " -> ".join([*chain, parent])
            raise RulepackError(f"unknown parent system {parent!r} (chain: {shown})", **loc,
                                expected="an installed system id")
        try:
            pdata, ppos, pchain, _pfile, plineage = self._merged(parent, chain)
        except RulepackError as exc:
            if "extends" in exc.message and (exc.message.startswith(("extends cycle", "extends chain", "unknown parent"))):
                raise
            raise RulepackError(f"parent {parent!r} does not load: {exc}", **loc) from None
        for key in OWN_KEYS:  # the patch's own words, or none: never the parent's
            pdata.pop(key, None)
        merged = deep_merge(pdata, data)
        return merged, merge_positions(ppos, positions, data), [system_id, *pchain], file, [own, *plineage]

    def _build(self, system_id: str) -> RuleSystem:
        data, positions, chain, file, lineage = self._merged(system_id, ())
        model, warnings = validate_pack(data, positions, file)
        origin = self._sources[system_id].origin

        def group(name: str) -> RuleSystem | None:
            try:
                return self.rule_system(name)
            except RulesError:
                return None

        pack = compile_pack(
            system_id, model, data, positions, origin=origin, chain=chain, lineage=lineage, warnings=warnings,
            computers=self.computer, computer_names=self._computer_names,
            groups=group, group_names=lambda: list(self._sources), file=file,
            unbound=frozenset(s.label for s in self._sources.values() if s.text is not None),
            kinds=self.kinds,
        )
        if self.kernel is not None and not js_enabled(self.kernel.env):
            pack.scripts_off = JS_OFF  # the operator's switch: a check that needs a script is refused
        return pack

    def pack(self, system: str) -> RuleSystem:
        """Deprecated since lwcore.api 2.0 (removed in 3.0): :meth:`rule_system`."""
        import warnings

        warnings.warn("RulesEngine.pack() is deprecated: use .rule_system()", DeprecationWarning, stacklevel=2)
        return self.rule_system(system)

    def rule_system(self, system: str) -> RuleSystem:
        """The compiled pack for a system id or any of its names; :class:`RulepackError` when
        unknown or malformed (the located diagnostic)."""
        with self._lock:
            self._refresh()
            system_id = system if system in self._sources else self._find(system)
            if system_id is None:
                raise self._unknown(system)
            cached = self._packs.get(system_id)
            if cached is None:
                # seen only by this thread's own recursion (the lock is held while building)
                self._packs[system_id] = RulepackError(f"{system_id}: extends loop through computer_group")
                try:
                    cached = self._build(system_id)
                except RulepackError as exc:
                    cached = exc
                except RulesError as exc:
                    cached = RulepackError(str(exc))
                self._packs[system_id] = cached
        if isinstance(cached, RulepackError):
            raise cached
        return cached

    def _unknown(self, system: str) -> RulepackError:
        """"unknown system", saying so when a plugin that is not enabled provides it."""
        for record in self.kernel.plugins if self.kernel is not None else ():
            if record.usable or not record.provides("rulepacks") or record.location is None:
                continue
            folded = system.strip().casefold()
            files = record.location / "rulepacks"
            if record.id.casefold() == folded or (files / f"{system.strip()}.yaml").is_file():
                why = record.reason or "not enabled"
                return RulepackError(f"the system {system!r} comes from the plugin {record.id!r}, which is not "
                                     f"enabled ({why})", expected=f"lw plugins enable {record.id}")
        known = ", ".join(sorted(self._sources)) or "none installed"
        return RulepackError(f"unknown system {system!r}", expected=f"one of: {known}")

    def find(self, word: str) -> str | None:
        """The system id selected by ``word`` (id, then names/set_keys, case-insensitive; a word
        two systems claim selects the one first in trust order)."""
        with self._lock:
            self._refresh()
            return self._find(word)

    def _find(self, word: str) -> str | None:
        if word in self._names:
            return self._names[word]
        found = self._search(word)
        self._names[word] = found
        return found

    def _search(self, word: str) -> str | None:
        if word in self._sources:
            return word
        folded = word.strip().casefold()
        for system_id in self._sources:
            if system_id.casefold() == folded:
                return system_id
        # in trust order (built-in and bundled systems first, then plugins by id, then user
        # files): a word an installed pack also claims keeps selecting the system it always did
        for system_id in self._sources:
            cached = self._packs.get(system_id)
            if cached is None:
                try:
                    cached = self.rule_system(system_id)
                except RulesError:
                    continue
            if isinstance(cached, RuleSystem) and cached.matches(word):
                return system_id
        return None

    def packs(self) -> dict[str, RuleSystem]:
        """Every pack that loads (malformed ones are in :meth:`problems`)."""
        out = {}
        for system_id in self.ids():
            try:
                out[system_id] = self.rule_system(system_id)
            except RulesError:
                continue
        return out

    def problems(self) -> list[Problem]:
        """Diagnostics: packs that did not load (errors), shadowed user files, warnings."""
        out: list[Problem] = []
        with self._lock:
            for system_id in self.ids():
                source = self._sources[system_id]
                try:
                    pack = self.rule_system(system_id)
                except RulesError as exc:
                    out.append(Problem(system_id, source.origin, str(exc)))
                    continue
                out += [Problem(system_id, source.origin, w, error=False) for w in pack.warnings]
            out += self._shadowed
            out += [Problem("", "subsystem_kinds", reason, error=False) for reason in self.kinds.skipped]
        return out

    def validate_file(self, path: str | Path) -> RuleSystem:
        """Load one file as if installed (its stem is the id; ``extends`` resolves against
        the installed packs). Raises a located :class:`RulepackError`."""
        path = Path(path)
        return self.validate_sources(PackSource(path.stem, f"file {path.name}", path))

    def validate_sources(self, source: PackSource, *, beside: Sequence[PackSource] = ()) -> RuleSystem:
        """Load ``source`` as if installed, with ``beside`` (packs shipped together with it, e.g.
        in one ``.lwpack``) found before the installed ones when ``extends`` looks a parent up.
        Nothing is cached. Raises a located :class:`RulepackError`."""
        with self._lock:  # the sources are swapped for the build: no other thread may see them
            self.refresh()
            lookup = dict(self._sources)
            for other in beside:
                lookup[other.id] = other
            lookup[source.id] = source
            saved, saved_packs, saved_names = self._sources, self._packs, self._names
            self._sources, self._packs, self._names = lookup, {}, {}
            try:
                return self._build(source.id)
            finally:
                self._sources, self._packs, self._names = saved, saved_packs, saved_names

    # --- the host API -------------------------------------------------------------------

    def check(
        self,
        system: str,
        skill: int | None = None,
        *,
        target: int | None = None,
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
    ) -> CheckResult:
        """One check against ``system`` (``skill``/``target``: the value rolled against)."""
        if skill is not None and target is not None:
            raise CheckError("give skill or target, not both")
        return self.rule_system(system).check(
            skill if skill is not None else target,
            difficulty=difficulty, variant=variant, bonus=bonus, penalty=penalty, modifiers=modifiers,
            modifier=modifier, params=params, rng=rng, faces=faces, roll=roll,
        )

    def derive(self, system: str, values: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Derived stats of ``system`` for a sheet's values."""
        return self.rule_system(system).derive(values)

    def display_name(self, system: str, canonical: str, locale: str = "en") -> str:
        return self.rule_system(system).display_name(canonical, locale)

    # --- sheets, subsystems, commands (see sheet.py, subsystems.py, commands.py) -------------

    def sheet(self, system: str, values: Mapping[str, Any] | None = None, **kwargs: Any) -> Sheet:
        """A new :class:`lwcore.rules.sheet.Sheet` of ``system`` (only non-default values kept)."""
        return Sheet(self.rule_system(system), values, **kwargs)

    def subsystem(self, system: str, name: str, sheet: Sheet | None = None, **kwargs: Any) -> SubsystemResult:
        """Run the pack's subsystem ``name`` (or of that kind); ``sheet`` is read and changed in
        place; see ``subsystems.py``."""
        return subsystems.run(self, self.rule_system(system), name, sheet, **kwargs)

    def command(self, system: str, text: str, *, sheet: Sheet | None = None, rng: random.Random | None = None,
                locale: str = "en", faces: Sequence[int] | None = None,
                advantage_rule: str | None = None, variant: str | None = None) -> CommandResult:
        """Parse and run a dot command (``.ra 困难侦查+10 b2``); ``variant``: the house-rule ladder
        its checks use unless the command names one itself (a room's ``variant``)."""
        return run_command(self, self.rule_system(system), text, sheet=sheet, rng=rng, locale=locale, faces=faces,
                           advantage_rule=advantage_rule, variant=variant)

    def make_char(self, system: str, *, rng: random.Random | None = None, method: str | None = None,
                  assign: Mapping[str, Any] | None = None) -> Sheet:
        """A new validated sheet from the pack's ``creation_constraints``."""
        return make_char(self.rule_system(system), rng=rng, method=method, assign=assign)
