"""The embeddable kernel: boot, registries, and the API a host uses.

Each :class:`Kernel` owns its own pluggy manager (no module-level state), so two kernels in
one process are independent. Booting reads manifests only; plugin code is imported the first
time a contribution of its family is needed, and registries are built lazily and cached until
a plugin folder changes (directory signature) or :meth:`Kernel.refresh` is called.

One kernel may serve many threads at once (a chat server, a bot, ``lw serve``): what is built
lazily -- registries, plugin imports, the folder re-check, kernel services such as the rules
engine -- is built once under the kernel's lock (or the service's own), and a thread never
sees it half built. Turns in different rooms run side by side; turns in one room are
serialized by the room's lock (:func:`lwcore.turn.room.room_lock`). A QuickJS context stays
on the thread that made it (each turn makes its own).
"""

from __future__ import annotations

import os
import threading
from operator import attrgetter
from types import ModuleType
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from lwcore import contributions, hookspecs, i18n
from lwcore.hookspecs import RegistrySpec
from lwcore.context import PluginContext
from lwcore.contributions import (
    Computer,
    DocumentType,
    HookScript,
    ImportResult,
    Importer,
    PackValidator,
    PanelRenderer,
    PromptCompiler,
    PromptSegment,
    ProviderAdapter,
    ProviderPreset,
    ReplyEdit,
    RoomCommand,
    RulepackSource,
    SchemaRef,
    StageDirector,
    ToolSpec,
    TurnContext,
    Viewer,
    field_problems,
    localized,
    resolve,
)
from lwcore.datadir import resolve_data_dir
from lwcore.errors import LwError
from lwcore.manifest import Manifest, ManifestCache, validate
from lwcore.plugins import (
    Gate,
    builtin_records,
    InProcessPlugin,
    PluginRecord,
    Recorder,
    call_impls,
    check_manifest,
    describe_exception,
    directory_signature,
    discover_directories,
    discover_entry_points,
    env_allowlist,
    is_strict,
    load_code,
    ordered_impls,
    read_manifests,
    resolve_duplicates,
)
from lwcore.registry import Conflict, Entry, Registry
from lwcore.settings import PluginSettings

if TYPE_CHECKING:  # the facade's own types: the one allowed reference up the layers (lwcore.turn.pipeline)
    from lwcore.turn.pipeline import Room, TurnResult


T = TypeVar("T")


REGISTRIES = hookspecs.REGISTRIES
"""Registry name -> how it is filled: derived from the hookspecs' family declarations."""


_DATA_ENTRY: dict[str, Callable[[Path], Any]] = {
    "rulepacks": lambda path: RulepackSource(path=path),
    "provider_presets": lambda path: ProviderPreset(name=path.stem, path=path),
}
"""Data kinds whose files fill a registry: file -> contribution."""


def contribution_type(name: str) -> type:
    """A type a registration names: a class of :mod:`lwcore.contributions` or a ``"module:Class"``."""
    found: type = resolve(name) if ":" in name else getattr(contributions, name)
    return found


def accepts(spec: RegistrySpec, item: Any) -> bool:
    """Whether ``item`` has one of the types ``spec`` registers, tried in their order and each
    imported only when the ones before did not match (a ``lw_cli`` giving ``CommandRef``s never
    imports click; ``SubsystemKindRef``s never import the rules engine)."""
    return any(isinstance(item, contribution_type(name)) for name in spec.registration.contributes)


@dataclass(frozen=True)
class SegmentSet:
    """The prompt segments of one turn, plus what was dropped and why."""

    segments: tuple[Entry[PromptSegment], ...]
    dropped: tuple[str, ...]

    def by_slot(self, slot: str) -> list[PromptSegment]:
        return [e.value for e in self.segments if e.value.slot == slot]


@dataclass(frozen=True)
class ReplyText:
    """A reply text after every reply processor: the text players read, each processor's
    edit (attributed to its plugin, in the order they ran), and what was dropped and why."""

    text: str
    edits: tuple[Entry[ReplyEdit], ...]
    dropped: tuple[str, ...]


class Kernel:
    """A booted plugin host.

    Options (all keyword-only, all optional):

    - ``data_dir``: overrides ``$LW_HOME`` and the platform data dir.
    - ``enabled``: the exact set of plugin ids to enable (the operator's settings and
      ``LW_PLUGINS`` are then ignored); ``disabled``: ids to keep off.
    - ``plugins``: extra in-process plugins (:class:`InProcessPlugin`), enabled by default.
    - ``entry_points``: ``False`` skips entry-point discovery (tests, sealed hosts); a set of
      entry-point names keeps only those installed plugins (a sealed host that wants, say, one
      bundled rule system, the provider adapters and a prompt compiler, and nothing else).
    - ``plugin_dirs``: more directory roots besides ``<data_dir>/plugins``.
    - ``strict``: raise on the first plugin failure (default: ``$LW_STRICT_PLUGINS``).
    - ``env``: the environment to read ``LW_*`` variables from (default ``os.environ``).
    """

    def __init__(
        self,
        *,
        data_dir: str | Path | None = None,
        enabled: Iterable[str] | None = None,
        disabled: Iterable[str] = (),
        plugins: Sequence[InProcessPlugin] = (),
        entry_points: bool | Iterable[str] = True,
        plugin_dirs: Sequence[str | Path] = (),
        strict: bool | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.env: Mapping[str, str] = dict(os.environ if env is None else env)
        self.data_dir = resolve_data_dir(data_dir, self.env)
        self.strict = is_strict(self.env) if strict is None else strict
        self._recorder = Recorder(self.strict)
        self._host_enabled = frozenset(enabled) if enabled is not None else None
        self._host_disabled = frozenset(disabled)
        self._in_process = tuple(plugins)
        self._use_entry_points: bool | frozenset[str] = (
            entry_points if isinstance(entry_points, bool) else frozenset(entry_points)
        )
        self.plugin_roots: tuple[Path, ...] = (
            self.data_dir / "plugins",
            *(Path(p) for p in plugin_dirs),
        )
        self._pm = self._new_plugin_manager()
        self._data_kinds = hookspecs.DATA_KINDS
        self._entry_records: list[PluginRecord] | None = None
        self._registries: dict[str, Registry[Any]] = {}
        self._command_registries: dict[str, Registry[Any]] = {}
        self._services: dict[str, Any] = {}
        self.settings_problem: str | None = None
        self.data_generation = 0
        self.locale_packs: i18n.LocalePacks = {}
        """What this kernel's locale packs add (:mod:`lwcore.i18n`); read at discovery."""
        """Bumped by :meth:`data_changed`; services caching what they found in the data dir
        compare it to look again at once."""
        self._lock = threading.RLock()
        self._boot()

    # --- boot and refresh -------------------------------------------------------------

    def _boot(self) -> None:
        cache = ManifestCache(self.data_dir / "cache" / "manifests.json")
        if self._entry_records is None:
            entry_records = builtin_records()
            if self._use_entry_points:
                wanted = self._use_entry_points
                entry_records += [r for r in discover_entry_points() if wanted is True or r.name in wanted]
            entry_records += [self._in_process_record(p) for p in self._in_process]
            read_manifests(entry_records, cache, self._recorder)
            self._entry_owners: dict[str, PluginRecord] = {}
            resolve_duplicates(entry_records, self._recorder, self._entry_owners)
            self._entry_records = entry_records
        self._dir_signature = directory_signature(self.plugin_roots, self._data_kinds)
        dir_records = discover_directories(self.plugin_roots)
        read_manifests(dir_records, cache, self._recorder)
        cache.save()
        resolve_duplicates(dir_records, self._recorder, dict(self._entry_owners))
        records = [*self._entry_records, *dir_records]
        settings = PluginSettings.load(self.data_dir)
        self.settings_problem = settings.problem
        gate = Gate(
            settings_enabled=frozenset(settings.enabled),
            settings_disabled=frozenset(settings.disabled),
            env_allowlist=env_allowlist(self.env),
            host_enabled=self._host_enabled,
            host_disabled=self._host_disabled,
        )
        for record in records:
            gate.decide(record)
        self._records = records
        self._by_id = {r.id: r for r in records if r.manifest is not None and r.enabled}
        self._use_locale_packs(records)
        self._registries.clear()
        self._command_registries.clear()

    @staticmethod
    def _new_plugin_manager() -> Any:
        import pluggy

        pm = pluggy.PluginManager(hookspecs.PROJECT)
        specs = ModuleType("lwcore.hookspecs.table")  # pluggy reads hookspecs off a module or class
        specs.__dict__.update(hookspecs.SPECS)
        pm.add_hookspecs(specs)
        return pm

    def _in_process_record(self, plugin: InProcessPlugin) -> PluginRecord:
        record = PluginRecord(name="?", source="in_process", obj=plugin.obj)
        if isinstance(plugin.manifest, Manifest):
            record.manifest = plugin.manifest
        else:
            try:
                data = validate(plugin.manifest, file=Path("<in-process>"))
                record.manifest = Manifest.from_validated(data)
            except LwError as exc:
                record.name = str(plugin.manifest.get("id", "?"))
                self._recorder.fail(record, f"bad manifest: {exc}", fatal=True)
                return record
        record.name = record.manifest.id
        check_manifest(record, self._recorder)
        return record

    def data_changed(self) -> None:
        """Say that this process changed files the kernel's services discover in the data dir
        (``lw pack install`` landed a rulepack): they look again on their next call instead of
        waiting for their recheck interval. Another process's changes are seen within it."""
        with self._lock:
            self.data_generation += 1

    def refresh(self, *, entry_points: bool = False) -> None:
        """Re-discover plugin folders (and entry points when asked) and drop cached registries."""
        with self._lock:
            if entry_points:
                self._entry_records = None
                self._pm = self._new_plugin_manager()
            self._boot()

    def _check_directories(self) -> None:
        if directory_signature(self.plugin_roots, self._data_kinds) != self._dir_signature:
            with self._lock:  # once: a thread that waited finds the folders looked at again
                if directory_signature(self.plugin_roots, self._data_kinds) != self._dir_signature:
                    self._boot()

    # --- plugins ------------------------------------------------------------------------

    @property
    def plugins(self) -> tuple[PluginRecord, ...]:
        """Every discovered plugin, in priority order (bundled first, then id)."""
        self._check_directories()
        return tuple(self._records)

    def plugin(self, plugin_id: str) -> PluginRecord:
        """The record for ``plugin_id`` (an enabled one first); ``KeyError`` if unknown."""
        for record in self.plugins:
            if record.id == plugin_id and record.enabled:
                return record
        for record in self._records:
            if record.id == plugin_id:
                return record
        raise KeyError(plugin_id)

    def load_all(self) -> None:
        """Import every enabled code plugin and build every registry (what ``lw doctor`` does)."""
        for name in REGISTRIES:
            self.registry(name)
        with self._lock:
            for record in self._enabled_records():
                load_code(record, self._pm, self._recorder)

    def context_for(self, record: PluginRecord) -> PluginContext:
        assert record.manifest is not None
        return PluginContext(record.manifest, record.location, self.data_dir, self.env)

    def _use_locale_packs(self, records: Sequence[PluginRecord]) -> None:
        """The enabled plugins that provide ``locales`` are locale packs (:func:`lwcore.i18n.
        read_locale_packs`): this kernel's :attr:`locale_packs`, active from now on in the thread
        or task that loads it and during each of its turns; a file or message refused is
        recorded against its plugin (``lw plugins list`` shows it)."""
        owners = {}
        for record in records:
            if record.enabled and record.manifest is not None and "locales" in record.manifest.provides \
                    and record.location is not None and (record.location / "locales").is_dir():
                owners[record.location / "locales"] = record
        self.locale_packs, refused = i18n.read_locale_packs(owners)
        i18n.activate(self.locale_packs)
        for file, why in refused:
            record = next(r for folder, r in owners.items() if folder in file.parents)
            self._recorder.fail(record, f"locale pack {file}: {why}; left out")

    def _enabled_records(self, family: str | None = None) -> list[PluginRecord]:
        return [
            r for r in self._records if r.usable and (family is None or r.provides(family))
        ]

    def _loaded_records(
        self, family: str, only: Callable[[PluginRecord], bool] | None = None
    ) -> dict[str, PluginRecord]:
        records = {}
        for record in self._enabled_records(family):
            if only is not None and not only(record):
                continue
            load_code(record, self._pm, self._recorder)
            if record.usable:
                records[record.id] = record
        return records

    # --- registries ---------------------------------------------------------------------

    def registry(self, name: str) -> Registry[Any]:
        """The registry ``name`` (one of :data:`REGISTRIES`), built on first use."""
        self._check_directories()
        registry = self._registries.get(name)
        if registry is None:
            with self._lock:
                registry = self._registries.get(name)
                if registry is None:
                    registry = self._registries[name] = self._build_registry(name)
        return registry

    def _build_registry(self, name: str, only: Callable[[PluginRecord], bool] | None = None) -> Registry[Any]:
        """Fill registry ``name`` from every enabled plugin of its family (or those ``only``
        accepts), in trust order; each contribution checked and attributed."""
        spec = REGISTRIES[name]
        key_of = attrgetter(spec.registration.key)
        entries: list[Entry[Any]] = []
        records = self._loaded_records(spec.family, only)
        for record in records.values():
            if spec.registration.data_kind and record.location is not None:
                folder = record.location / spec.registration.data_kind
                if folder.is_dir():
                    entries += self._data_entries(spec, record, folder)
        code_records = {k: r for k, r in records.items() if r.manifest and r.manifest.tier == "code"}

        def make_kwargs(record: PluginRecord) -> dict[str, Any]:
            def register(item: Any) -> None:
                if not accepts(spec, item):
                    kind = " or ".join(name.rpartition(":")[2] for name in spec.registration.contributes)
                    self._recorder.fail(
                        record,
                        f"{spec.hook}: register() got {type(item).__name__}, expected {kind}; dropped",
                    )
                    return
                try:
                    key = key_of(item)
                except Exception as exc:  # noqa: BLE001 - a contribution with no usable key
                    self._recorder.fail(record, f"{spec.hook}: contribution has no key ({exc}); dropped")
                    return
                if not isinstance(key, str) or not key:
                    self._recorder.fail(record, f"{spec.hook}: contribution key {key!r} is not a name; dropped")
                    return
                declared = record.manifest.cli_commands if spec.hook == "lw_cli" and record.manifest else ()
                if declared and key not in declared:
                    self._recorder.fail(
                        record, f"lw_cli: command {key!r} is not in the manifest's cli_commands {list(declared)}; dropped"
                    )
                    return
                problems = field_problems(item)
                if problems:
                    self._recorder.fail(
                        record, f"{spec.hook}: {type(item).__name__} {key!r} dropped: {'; '.join(problems)}"
                    )
                    return
                entries.append(Entry(key, item, record.id))

            return {"register": register, "ctx": self.context_for(record)}

        for outcome in call_impls(self._pm, spec.hook, code_records, self._recorder, make_kwargs):
            if outcome.error is None and outcome.result is not None:
                self._recorder.fail(
                    outcome.record,
                    f"{spec.hook} returned {type(outcome.result).__name__}; registration hooks "
                    "return None and call register()",
                )
        rank = {r.id: r.rank for r in records.values()}
        entries.sort(key=lambda e: rank.get(e.plugin_id, (99, e.plugin_id, "")))  # trust order decides clashes
        return Registry(name, entries)

    def _data_entries(self, spec: RegistrySpec, record: PluginRecord, folder: Path) -> list[Entry[Any]]:
        """A data folder's files as contributions: each ``*.yaml`` by its stem."""
        make = _DATA_ENTRY.get(spec.registration.data_kind or "")
        if make is None:
            return []
        return [Entry(path.stem, make(path), record.id) for path in sorted(folder.glob("*.yaml"))]

    def __getattr__(self, name: str) -> Any:
        """A registry by its attribute (``kernel.tools``, ``kernel.rulepacks``,
        ``kernel.cli_commands`` …): one for every registry the hookspecs declare
        (:data:`lwcore.hookspecs.ACCESSORS`), built on first use like :meth:`registry`."""
        registry = hookspecs.ACCESSORS.get(name)
        if registry is None or name.startswith("_"):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        return self.registry(registry)

    if TYPE_CHECKING:  # what the declared registries hold, for a type checker
        rulepacks: Registry[RulepackSource]
        rule_computers: Registry[Computer]
        tools: Registry[ToolSpec]
        importers: Registry[Importer]
        panel_renderers: Registry[PanelRenderer]
        stage_directors: Registry[StageDirector]
        prompt_compilers: Registry[PromptCompiler]
        provider_adapters: Registry[ProviderAdapter]
        provider_presets: Registry[ProviderPreset]
        schemas: Registry[SchemaRef]
        document_types: Registry[DocumentType]
        room_commands: Registry[RoomCommand]
        pack_validators: Registry[PackValidator]
        cli_commands: Registry[Any]

    def cli_command(self, name: str) -> Any | None:
        """What ``lw NAME`` runs (a ``click.Command`` or a ``CommandRef``), or None.

        A manifest's ``commands`` is binding: a plugin that declares some can register no
        others. So only the plugins declaring ``name``, and any ``cli`` plugin declaring
        nothing, are imported to answer; a clash is decided by trust order exactly as in
        :attr:`cli_commands`.
        """
        self._check_directories()
        registry = self._command_registries.get(name)
        if registry is None:
            with self._lock:
                def claims(record: PluginRecord) -> bool:
                    declared = record.manifest.cli_commands if record.manifest else ()
                    return not declared or name in declared

                registry = self._command_registries.get(name)
                if registry is None:
                    registry = self._command_registries[name] = self._build_registry("cli", claims)
        return registry.get(name)

    @property
    def conflicts(self) -> tuple[Conflict, ...]:
        """Every collision in the registries built so far (the loser is never silent)."""
        return tuple(c for r in self._registries.values() for c in r.conflicts)

    def data_folders(self, kind: str) -> tuple[tuple[str, Path], ...]:
        """``(plugin_id, folder)`` for each enabled plugin providing data folder ``kind``."""
        self._check_directories()
        out = []
        for record in self._enabled_records(kind):
            if record.location is not None and (record.location / kind).is_dir():
                out.append((record.id, record.location / kind))
        return tuple(out)

    # --- call hooks -----------------------------------------------------------------------

    def prompt_segments(self, turn: TurnContext | None = None) -> SegmentSet:
        """Ask every enabled prompt-segment provider for this turn's segments.

        A provider that raises or returns the wrong thing loses its contribution for this
        turn (recorded on its plugin and listed in ``dropped``); empty texts are left out.
        Segments come back sorted by ``order``, then name (``SegmentSet.by_slot`` groups them).
        """
        entries, dropped = self._per_turn("lw_prompt_segments", "prompt_segments", PromptSegment, turn,
                                          keep=lambda item: bool(item.text))
        entries.sort(key=lambda e: (e.value.order, e.value.name))
        return SegmentSet(tuple(entries), tuple(dropped))

    def turn_scripts(self, turn: TurnContext | None = None) -> tuple[tuple[Entry[HookScript], ...], tuple[str, ...]]:
        """The hook scripts every enabled plugin contributes to this turn, and what was
        dropped. A plugin must declare ``sandbox:js`` to contribute scripts; without it, its
        scripts are dropped and the reason recorded."""
        entries, dropped = self._per_turn("lw_turn_scripts", "turn_scripts", HookScript, turn,
                                          need="sandbox:js", keep=lambda item: bool(item.source.strip()))
        return tuple(entries), tuple(dropped)

    def reply_text(self, turn: TurnContext | None, text: str) -> ReplyText:
        """Pass a model's reply text through every enabled reply processor (``lw_reply_text``),
        one after another, each given the text as the one before left it. A processor that
        raises, or returns anything but a :class:`ReplyEdit` with well-typed fields, is skipped
        (recorded on its plugin, listed in ``dropped``) and the text goes on unchanged."""
        turn = turn or TurnContext()
        self._check_directories()
        with self._lock:  # the records and the manager they are registered with, together
            records, pm = self._loaded_records("reply_text"), self._pm
        current = text
        edits: list[Entry[ReplyEdit]] = []
        dropped: list[str] = []
        order = dict.fromkeys(impl.plugin_name for impl in ordered_impls(pm, "lw_reply_text", records))
        for plugin_id in order:
            record = records[plugin_id]
            outcomes = call_impls(pm, "lw_reply_text", {plugin_id: record}, self._recorder,
                                  lambda r: {"turn": turn, "text": current, "ctx": self.context_for(r)})
            for outcome in outcomes:
                result = outcome.result
                if outcome.error is not None:
                    dropped.append(f"{plugin_id}: {outcome.error}")
                    continue
                if result is None:
                    continue
                problem = (f"returned {type(result).__name__}, expected ReplyEdit" if not isinstance(result, ReplyEdit)
                           else "; ".join(field_problems(result)))
                if problem:
                    message = f"lw_reply_text {problem}; its edit was not applied"
                    dropped.append(f"{plugin_id}: {message}")
                    self._recorder.fail(record, message)
                    continue
                current = result.narration
                edits.append(Entry(plugin_id, result, plugin_id))
        return ReplyText(current, tuple(edits), tuple(dropped))

    def _per_turn(
        self, hook: str, family: str, kind: type, turn: TurnContext | None, *,
        need: str | None = None, keep: Callable[[Any], bool] = lambda item: True,
    ) -> tuple[list[Entry[Any]], list[str]]:
        """Call a per-turn hook on every enabled plugin of ``family``; ``(entries, dropped)``.

        Each implementation is isolated: a raise, a result that is not a list, an item of the
        wrong type or with wrong field types, or a plugin lacking ``need`` loses that part of
        the contribution for this turn (recorded on its plugin, listed in ``dropped``).
        """
        turn = turn or TurnContext()
        self._check_directories()
        with self._lock:  # the records and the manager they are registered with, together
            records, pm = self._loaded_records(family), self._pm
        dropped: list[str] = []
        entries: list[Entry[Any]] = []

        def drop(record: PluginRecord, message: str) -> None:
            dropped.append(f"{record.id}: {message}")
            self._recorder.fail(record, message)

        outcomes = call_impls(pm, hook, records, self._recorder,
                              lambda r: {"turn": turn, "ctx": self.context_for(r)})
        for outcome in outcomes:
            record, result = outcome.record, outcome.result
            if outcome.error is not None:
                dropped.append(f"{record.id}: {outcome.error}")
                continue
            if result is None:
                continue
            if isinstance(result, (str, bytes, Mapping)) or not isinstance(result, Iterable):
                drop(record, f"{hook} returned {type(result).__name__}, expected a list of {kind.__name__}")
                continue
            if need is not None and record.manifest is not None and need not in record.manifest.needs:
                drop(record, f"{hook}: contributions dropped: the manifest does not declare {need!r}")
                continue
            for item in result:
                if not isinstance(item, kind):
                    drop(record, f"{hook} yielded {type(item).__name__}, expected {kind.__name__}; dropped")
                elif problems := field_problems(item):
                    drop(record, f"{kind.__name__} {getattr(item, 'name', getattr(item, 'id', '?'))!r} dropped: "
                                 + "; ".join(problems))
                elif keep(item):
                    key = getattr(item, "name", None) or getattr(item, "id", None) or ""
                    entries.append(Entry(key, item, record.id))
        return entries, dropped

    def sniff(self, data: bytes, name: str = "") -> list[tuple[float, str]]:
        """``(confidence, importer id)`` for every importer, most confident first.

        A sniffer that raises or answers outside [0, 1] scores 0 and is recorded.
        """
        scores = []
        for entry in self.importers.entries():
            record = self.plugin(entry.plugin_id)
            try:
                score = float(resolve(entry.value.sniff)(data, name))
                if not 0.0 <= score <= 1.0:
                    raise ValueError(f"confidence {score} outside [0, 1]")
            except Exception as exc:  # noqa: BLE001 - isolation
                self._recorder.fail(record, f"importer {entry.key!r} sniff failed: {describe_exception(exc)}")
                score = 0.0
            scores.append((score, entry.key))
        return sorted(scores, key=lambda s: -s[0])

    def import_bytes(self, data: bytes, name: str = "", importer: str | None = None) -> ImportResult[Any]:
        """Import with ``importer`` (or the most confident one); :class:`LwError` if none fits."""
        if importer is None:
            ranked = [s for s in self.sniff(data, name) if s[0] > 0]
            if not ranked:
                raise LwError("no importer recognises this file", file=name or None)
            importer = ranked[0][1]
        if importer not in self.importers:
            raise LwError(f"unknown importer {importer!r}", expected=", ".join(self.importers) or "an installed importer")
        result = resolve(self.importers[importer].load)(data, name)
        if not isinstance(result, ImportResult):
            record = self.plugin(self.importers.origin(importer))
            self._recorder.fail(record, f"importer {importer!r} returned {type(result).__name__}, expected ImportResult")
            raise LwError(f"importer {importer!r} failed (see lw plugins info {record.id})")
        return result

    def turn(self, room: Room | str | Path, player_input: str, *, provider: str | None = None,
             **options: Any) -> TurnResult:
        """Play one turn in ``room`` (a folder, whose lock the turn takes, or a loaded room whose
        lock the caller holds): compile it and, given ``reply=`` or ``endpoint=``, apply it.
        The kernel's one entry point for turns -- ``lw turn``, ``lw serve`` and hosts all use
        it: :func:`lwcore.turn.pipeline.run_turn` (its docstring lists the options)."""
        if not any(r.id == "turn" and r.builtin and r.usable for r in self._records):
            raise LwError("the built-in 'turn' plugin is disabled in this kernel; the host runs its own turns")
        from lwcore.turn.pipeline import run_turn  # the one host -> turn import (the facade)

        if provider is not None:
            options["provider"] = provider
        with i18n.packs_in_use(self.locale_packs):
            return run_turn(self, room, player_input, **options)

    def diagnostics(self) -> list[tuple[str, str]]:
        """``(plugin id, line)`` from every plugin's ``lw_diagnostics`` (``lw doctor``). A
        plugin whose hook raises or returns the wrong thing gets one line saying so."""
        with self._lock:
            records, pm = self._loaded_records("diagnostics"), self._pm
        lines: list[tuple[str, str]] = []
        for outcome in call_impls(
            pm, "lw_diagnostics", records, self._recorder,
            lambda r: {"kernel": self, "ctx": self.context_for(r)},
        ):
            plugin_id = outcome.record.id
            if outcome.error is not None:
                lines.append((plugin_id, f"could not be checked: {outcome.error}"))
            elif outcome.result is not None:
                if isinstance(outcome.result, (str, bytes)) or not isinstance(outcome.result, Iterable):
                    self._recorder.fail(outcome.record, "lw_diagnostics must return a list of lines")
                    continue
                lines += [(plugin_id, str(line)) for line in outcome.result]
        return lines

    def service(self, name: str, factory: Callable[[Kernel], T]) -> T:
        """The kernel's one instance of service ``name``, made by ``factory(kernel)`` on first
        use (thread-safe). Engines that keep state per kernel (the rules engine's pack cache,
        a sandbox pool) live here rather than as attributes set on the kernel."""
        value = self._services.get(name)
        if value is None:
            with self._lock:
                value = self._services.get(name)
                if value is None:
                    value = self._services[name] = factory(self)
        return value

    def plugin_failed(self, plugin_id: str, message: str) -> None:
        """Record a failure of ``plugin_id``'s code that a host caught while calling it (e.g. a
        tool handler that raised): kept on its record like a failing hook (``lw plugins info``);
        with ``strict`` this raises :class:`PluginError` instead. Unknown ids are ignored."""
        try:
            record = self.plugin(plugin_id)
        except KeyError:
            return
        self._recorder.fail(record, message)

    def render_panel(self, panel: Mapping[str, Any], viewer: Viewer, fmt: str = "text") -> str:
        """Render ``panel`` (a mapping with ``kind``) for ``viewer`` in ``fmt``.

        Falls back to the kernel's plain-text rendering when no renderer offers ``fmt`` or
        the renderer fails (the failure is recorded on its plugin).
        """
        kind = str(panel.get("kind", ""))
        renderer = self.panel_renderers.get(kind)
        if renderer is not None and fmt in renderer.formats:
            try:
                text = resolve(renderer.render)(panel, viewer, fmt)
                if isinstance(text, str):
                    return text
                raise TypeError(f"render returned {type(text).__name__}, expected str")
            except Exception as exc:  # noqa: BLE001 - isolation
                record = self.plugin(self.panel_renderers.origin(kind))
                self._recorder.fail(record, f"panel renderer {kind!r} failed: {describe_exception(exc)}")
        return plain_text_panel(panel, viewer)


def plain_text_panel(panel: Mapping[str, Any], viewer: Viewer) -> str:
    """The kernel's fallback: title, then ``label: value`` lines for each block."""
    def text(value: Any) -> str:
        return localized(value, viewer.locale) if isinstance(value, Mapping) else str(value)

    lines = []
    if panel.get("title"):
        lines.append(text(panel["title"]))
    for block in panel.get("blocks", ()) or ():
        if not isinstance(block, Mapping):
            continue
        label = text(block.get("label", block.get("caption", block.get("kind", ""))))
        value = block.get("value", block.get("text"))
        lines.append(f"{label}: {text(value)}" if value is not None else label)
    return "\n".join(lines)
