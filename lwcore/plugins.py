"""Plugin discovery, manifests, capability gating and failure isolation.

Discovery finds *candidates* without running plugin code:

- entry points in the group ``loreweaver.plugins`` (one ``entry_points()`` scan per boot);
  the manifest is ``lw-plugin.toml`` at the root of the entry point's top-level import
  package, located with ``importlib.util.find_spec`` (which does not execute the package, and
  works for editable installs through their import finders);
- folders under each directory root (``<data_dir>/plugins`` and host-given paths), each with
  its ``lw-plugin.toml``; these are data/declarative plugins and never run code;
- in-process plugin objects a host passes to :class:`lwcore.Kernel`.

Every failure -- missing module, import error, bad manifest, bad hook signature, a hook that
raises or returns the wrong thing, a duplicate id -- is recorded on the plugin's
:class:`PluginRecord` (status ``error``) and contained to that plugin, or to that one hook
implementation's contribution. ``strict`` turns the first failure into :class:`PluginError`.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FunctionType, MethodType, ModuleType, SimpleNamespace
from typing import Any

from lwcore import __version__
from lwcore.api_version import API_VERSION, satisfies
from lwcore.distributions import entry_points, find, normalize
from lwcore.errors import LwError, PluginError
from lwcore.hookspecs import DATA_KINDS, FAMILIES, HOOK_FAMILY, PREFIX
from lwcore.manifest import MANIFEST_NAME, Manifest, ManifestCache, key_line, load_manifest, version_tuple

ENTRY_POINT_GROUP = "loreweaver.plugins"

SOURCE_RANK = {"builtin": 0, "bundled": 1, "in_process": 2, "entry_point": 3, "directory": 4}
"""Priority of where a plugin came from (lower wins a name clash): the kernel's own built-in
plugins, then the distributions shipped with the kernel, then the host's in-process plugins,
then other installed distributions, then plugin folders."""

KERNEL_DISTRIBUTION = "loreweaver"
BUNDLE_EXTRA = "bundled"


@dataclass(frozen=True)
class InProcessPlugin:
    """A plugin a host passes directly: a manifest (mapping or :class:`Manifest`) and an object
    (module, class instance, namespace) carrying ``@hookimpl`` functions."""

    manifest: Mapping[str, Any] | Manifest
    obj: Any


@dataclass
class PluginRecord:
    """Everything the kernel knows about one discovered plugin.

    ``status`` is ``error`` when anything failed (see ``errors``), else ``enabled`` or
    ``disabled`` (see ``disabled_reason``). ``refused`` lists hook implementations the kernel
    did not register because the manifest does not provide their family.
    """

    name: str
    source: str
    location: Path | None = None
    manifest_file: Path | None = None
    module: str | None = None
    """The hook module to import (built-in plugins; entry points name theirs)."""
    bundled: bool = False
    """Shipped with the kernel: decided by the kernel (:func:`kernel_bundle`), never by the
    plugin's own manifest."""
    distribution: str | None = None
    dist_version: str | None = None
    entry_point: Any = None
    obj: Any = None
    manifest: Manifest | None = None
    enabled: bool = False
    disabled_reason: str | None = None
    errors: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    loaded: bool = False
    load_failed: bool = False
    blocked: bool = False

    @property
    def id(self) -> str:
        """The manifest id, or the entry-point/folder name when there is no valid manifest."""
        return self.manifest.id if self.manifest else self.name

    @property
    def builtin(self) -> bool:
        return self.source == "builtin"

    @property
    def status(self) -> str:
        if self.errors:
            return "error"
        return "enabled" if self.enabled else "disabled"

    @property
    def usable(self) -> bool:
        """Enabled, with a manifest, and its code (if any) not failed to load."""
        return self.enabled and self.manifest is not None and not self.load_failed and not self.blocked

    @property
    def rank(self) -> tuple[int, str, str]:
        """Sort key: kernel-defined priority (bundled first), then id, then location."""
        source = "bundled" if self.bundled and not self.builtin else self.source
        return (SOURCE_RANK[source], self.id, str(self.location or ""))

    def provides(self, family: str) -> bool:
        return self.manifest is not None and family in self.manifest.provides

    @property
    def reason(self) -> str | None:
        """One line explaining a non-enabled status."""
        if self.errors:
            return "; ".join(self.errors)
        return None if self.enabled else self.disabled_reason

    def to_json(self) -> dict[str, Any]:
        m = self.manifest
        return {
            "id": self.id,
            "version": m.version if m else self.dist_version,
            "distribution": self.distribution,
            "distribution_version": self.dist_version,
            "source": self.source,
            "location": str(self.location) if self.location else None,
            "tier": m.tier if m else None,
            "bundled": self.bundled,
            "builtin": self.builtin,
            "status": self.status,
            "enabled": self.enabled,
            "loaded": self.loaded,
            "provides": list(m.provides) if m else [],
            "needs": list(m.needs) if m else [],
            "cli_commands": list(m.cli_commands) if m else [],
            "description": dict(m.description) if m else {},
            "reason": self.reason,
            "errors": list(self.errors),
            "refused": list(self.refused),
        }


class Recorder:
    """Records plugin failures; in strict mode the first one is raised instead."""

    def __init__(self, strict: bool) -> None:
        self.strict = strict

    def fail(self, record: PluginRecord, message: str, *, fatal: bool = False) -> None:
        """Record ``message``; ``fatal`` also keeps the plugin from loading at all.

        A message already recorded is not repeated (a hook failing every turn stays one line).
        """
        if message not in record.errors:
            record.errors.append(message)
        if fatal:
            record.blocked = True
        if self.strict:
            raise PluginError(f"plugin {record.id!r}: {message}")


def describe_exception(exc: BaseException) -> str:
    """``Type: message`` plus where in plugin code it happened (last frame)."""
    text = f"{type(exc).__name__}: {exc}"
    tb = exc.__traceback__
    last = None
    while tb is not None:
        last = tb
        tb = tb.tb_next
    if last is not None:
        text += f" (at {last.tb_frame.f_code.co_filename}:{last.tb_lineno})"
    return text


# --- discovery ----------------------------------------------------------------------------


def kernel_bundle() -> tuple[frozenset[str], Path | None]:
    """The distributions shipped with the kernel, and the folder holding its metadata.

    The set is the kernel distribution's own ``bundled`` extra (``Requires-Dist: NAME; extra ==
    "bundled"``): a fact of the kernel's packaging, not of any plugin. An entry point counts as
    bundled only when its distribution is in the set *and* its metadata sits in the same folder
    as the kernel's (the same environment), so a manifest saying ``bundled = true`` switches
    nothing on, and neither does a look-alike name installed elsewhere.
    """
    dist = find(KERNEL_DISTRIBUTION)
    if dist is None:
        return frozenset(), None
    names = set()
    for requirement in dist.requires():
        spec, _, marker = requirement.partition(";")
        if re.search(r"""extra\s*==\s*["']""" + BUNDLE_EXTRA + r"""["']""", marker):
            match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", spec)
            if match:
                names.add(normalize(match.group(1)))
    return frozenset(names), dist.path.resolve().parent


BUILTIN_IDS: tuple[str, ...] = ("host", "pack", "rules", "turn")
"""The kernel's built-in plugins, in priority order: each is the folder ``lwcore/builtins/<id>/``
(manifest ``lw-plugin.toml``, hooks in module ``lwcore.builtins.<id>.plugin``)."""

BUILTIN_ROOT = Path(__file__).parent / "builtins"


def builtin_records() -> list[PluginRecord]:
    """The kernel's own built-in plugins, as plugin candidates (nothing is imported)."""
    return [
        PluginRecord(
            name=plugin_id, source="builtin", location=BUILTIN_ROOT / plugin_id,
            manifest_file=BUILTIN_ROOT / plugin_id / MANIFEST_NAME,
            module=f"lwcore.builtins.{plugin_id}.plugin",
            distribution=KERNEL_DISTRIBUTION, bundled=True,
        )
        for plugin_id in BUILTIN_IDS
    ]


def discover_entry_points(group: str = ENTRY_POINT_GROUP) -> list[PluginRecord]:
    """One scan of installed distributions' entry points in ``group``; no plugin code runs."""
    bundle, kernel_folder = kernel_bundle()
    records = []
    for ep in entry_points(group):
        dist = ep.dist
        record = PluginRecord(
            name=ep.name,
            source="entry_point",
            entry_point=ep,
            distribution=dist.name,
            dist_version=dist.version,
            bundled=dist.name in bundle and dist.path.resolve().parent == kernel_folder,
        )
        top = ep.module.split(".")[0]
        try:
            spec = importlib.util.find_spec(top)
        except (ImportError, ValueError) as exc:
            spec = None
            record.errors.append(f"cannot locate module {top!r}: {exc}")
        if spec is None:
            if not record.errors:
                record.errors.append(
                    f"entry point {ep.value!r}: module {top!r} is not installed "
                    f"(distribution {record.distribution or '?'} is broken or half-removed)"
                )
            records.append(record)
            continue
        folders = list(spec.submodule_search_locations or [])
        if not folders and spec.origin:
            folders = [str(Path(spec.origin).parent)]
        for folder in folders:
            candidate = Path(folder) / MANIFEST_NAME
            if candidate.is_file():
                record.location = Path(folder)
                record.manifest_file = candidate
                break
        else:
            record.location = Path(folders[0]) if folders else None
            record.errors.append(
                f"no {MANIFEST_NAME} in the package {top!r} "
                f"({', '.join(folders) or 'no folder'}); a plugin package must ship its manifest"
            )
        records.append(record)
    return records


def discover_directories(roots: Sequence[Path]) -> list[PluginRecord]:
    """Every non-hidden folder under each root is a directory-plugin candidate."""
    records = []
    for root in roots:
        try:
            children = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
        except OSError:
            continue
        for child in children:
            record = PluginRecord(name=child.name, source="directory", location=child)
            manifest = child / MANIFEST_NAME
            if manifest.is_file():
                record.manifest_file = manifest
            else:
                record.errors.append(f"{child}: no {MANIFEST_NAME}; folder skipped")
            records.append(record)
    return records


def directory_signature(roots: Sequence[Path], data_kinds: Iterable[str]) -> tuple[Any, ...]:
    """A cheap fingerprint of directory roots: plugin folders, their manifests, data folders.

    Changes when a plugin folder is added or removed, its manifest edited, or a file added to
    or removed from one of its data folders.
    """
    kinds = tuple(sorted(data_kinds))
    parts: list[Any] = []
    for root in roots:
        try:
            children = sorted(os.scandir(root), key=lambda e: e.name)
        except OSError:
            parts.append((str(root), None))
            continue
        for child in children:
            if not child.is_dir() or child.name.startswith("."):
                continue
            entry: list[Any] = [child.path]
            for name in (MANIFEST_NAME, *kinds):
                try:
                    st = os.stat(os.path.join(child.path, name))
                    entry.append((name, st.st_mtime_ns, st.st_size))
                except OSError:
                    pass
            parts.append(tuple(entry))
    return tuple(parts)


def read_manifests(records: Iterable[PluginRecord], cache: ManifestCache, recorder: Recorder) -> None:
    """Read and validate each record's manifest; failures are recorded on the record."""
    for record in records:
        if record.manifest is not None or record.manifest_file is None:
            continue
        try:
            record.manifest = load_manifest(record.manifest_file, cache)
        except LwError as exc:
            recorder.fail(record, f"bad manifest: {exc}", fatal=True)
            continue
        check_manifest(record, recorder)


def check_manifest(record: PluginRecord, recorder: Recorder) -> None:
    """Checks that depend on where the plugin came from and on the running engine."""
    m = record.manifest
    assert m is not None
    if version_tuple(__version__) < version_tuple(m.min_engine):
        recorder.fail(record, f"needs lwcore >= {m.min_engine}, this is {__version__}", fatal=True)
    if m.requires_api is not None and not satisfies(m.requires_api):
        recorder.fail(record, str(_api_refusal(record, m.requires_api)), fatal=True)
    if record.source == "directory":
        if m.tier == "code":
            recorder.fail(
                record, "a directory plugin cannot be code-tier (ship code as a distribution)", fatal=True
            )


def _api_refusal(record: PluginRecord, requirement: str) -> LwError:
    """The located message refusing a plugin whose ``requires_api`` this kernel does not meet."""
    line = None
    if record.manifest_file is not None:
        try:
            line = key_line(record.manifest_file.read_text(encoding="utf-8"), "requires_api")
        except (OSError, UnicodeDecodeError):
            line = None
    return LwError(
        f"requires_api: needs plugin API {requirement}, this kernel provides {API_VERSION}; "
        "not loaded (update the plugin or Loreweaver)",
        file=record.manifest_file,
        line=line,
    )


def resolve_duplicates(
    records: list[PluginRecord], recorder: Recorder, owners: dict[str, PluginRecord]
) -> None:
    """Sort ``records`` by priority; one claiming an id already in ``owners`` is an error.

    ``owners`` (id -> record) is updated with the ids this call hands out.
    """
    records.sort(key=lambda r: r.rank)
    for record in records:
        if record.manifest is None or record.blocked:
            continue
        owner = owners.get(record.id)
        if owner is None:
            owners[record.id] = record
        else:
            where = record.distribution or (str(record.location) if record.location else record.source)
            recorder.fail(
                record,
                f"duplicate id {record.id!r} (from {where}); "
                f"{owner.distribution or owner.location or owner.source} keeps it",
                fatal=True,
            )


# --- gating -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Gate:
    """The operator's and host's choices that decide which plugins are enabled."""

    settings_enabled: frozenset[str] = frozenset()
    settings_disabled: frozenset[str] = frozenset()
    env_allowlist: frozenset[str] | None = None
    host_enabled: frozenset[str] | None = None
    host_disabled: frozenset[str] = frozenset()

    def decide(self, record: PluginRecord) -> None:
        """Set ``record.enabled`` and ``record.disabled_reason``."""
        m = record.manifest
        if m is None or record.blocked:
            record.enabled = False
            record.disabled_reason = "not loadable"
            return
        enabled, reason = self._decision(record, m)
        record.enabled = enabled
        record.disabled_reason = None if enabled else reason

    def _decision(self, record: PluginRecord, m: Manifest) -> tuple[bool, str]:
        if m.id in self.host_disabled:
            return False, "disabled by the host"
        if self.host_enabled is not None:
            return record.builtin or m.id in self.host_enabled, "not in the host's enabled set"
        if m.id in self.settings_disabled:
            return False, f"disabled by the operator (lw plugins enable {m.id})"
        if record.builtin or record.bundled or m.tier != "code" or record.source == "in_process":
            return True, ""
        if self.env_allowlist is not None:
            return m.id in self.env_allowlist, "third-party code plugin not listed in LW_PLUGINS"
        return m.id in self.settings_enabled, (
            f"third-party code plugin, runs with your privileges: not enabled "
            f"(lw plugins enable {m.id})"
        )


# --- loading and calling ------------------------------------------------------------------


def _hook_candidates(obj: Any) -> list[str]:
    """The attribute names of ``obj`` that could be hook implementations, sorted.

    pluggy only takes functions and methods found without running descriptors or a module's
    ``__getattr__``; for a module that is exactly its own namespace's functions, which are
    read here straight from ``__dict__`` (asking pluggy about every imported name is most of
    the cost of loading a plugin)."""
    if isinstance(obj, ModuleType):
        return sorted(name for name, value in vars(obj).items() if isinstance(value, (FunctionType, MethodType)))
    return sorted(dir(obj))


def load_code(record: PluginRecord, pm: Any, recorder: Recorder) -> None:
    """Import the plugin's code and register only the hooks its manifest's families allow.

    Idempotent. Everything that touches plugin code is guarded: the import, the lookup of its
    hook functions (a module whose ``__getattr__`` raises), pluggy's validation. A failure is
    recorded and the plugin contributes nothing (``load_failed``).
    """
    if record.loaded or record.load_failed or not record.usable:
        return
    m = record.manifest
    assert m is not None
    if m.tier != "code":
        record.loaded = True
        return
    allowed = {hook for family in m.provides for hook in FAMILIES.get(family, ())}
    try:
        if record.source == "in_process":
            obj = record.obj
        elif record.module is not None:
            obj = importlib.import_module(record.module)
        else:
            obj = record.entry_point.load()
        record.obj = obj
        accepted: dict[str, Callable[..., Any]] = {}
        for attr in _hook_candidates(obj):
            opts = pm.parse_hookimpl_opts(obj, attr)
            if opts is None:
                continue
            hook = opts.get("specname") or attr
            if not hook.startswith(PREFIX):
                continue
            problem = _unsupported_options(opts)
            if problem:
                record.refused.append(f"{attr}: {problem}")
            elif hook not in HOOK_FAMILY:
                record.refused.append(f"{attr}: no such hook")
            elif hook not in allowed:
                record.refused.append(f"{attr}: family {HOOK_FAMILY[hook]!r} is not in the manifest's provides")
            else:
                accepted[attr] = getattr(obj, attr)
    except BaseException as exc:  # noqa: BLE001 - isolation: any failure while reading plugin code
        if isinstance(exc, KeyboardInterrupt):
            raise
        record.load_failed = True
        recorder.fail(record, f"import failed: {describe_exception(exc)}")
        return
    implemented = {HOOK_FAMILY[opts_hook] for opts_hook in (_hook_name(pm, obj, a) for a in accepted)}
    for family in m.provides:
        data_folder = family in DATA_KINDS and record.location is not None and (record.location / family).is_dir()
        if family in FAMILIES and family not in implemented and not data_folder:
            recorder.fail(record, f"provides {family!r} but implements none of its hooks ({', '.join(FAMILIES[family])})")
    shim = SimpleNamespace(**accepted)
    try:
        pm.register(shim, name=m.id)
    except Exception as exc:  # pluggy.PluginValidationError and friends
        record.load_failed = True
        try:
            pm.unregister(name=m.id)
        except Exception:  # noqa: BLE001 - it may not have been registered at all
            pass
        recorder.fail(record, f"hook validation failed: {exc}")
        return
    record.loaded = True


def _hook_name(pm: Any, obj: Any, attr: str) -> str:
    opts = pm.parse_hookimpl_opts(obj, attr) or {}
    return opts.get("specname") or attr


SUPPORTED_HOOK_OPTIONS = ("tryfirst", "trylast", "wrapper", "hookwrapper", "specname")
"""pluggy ``@hookimpl`` options the kernel honours (see :func:`call_impls`); ``optionalhook``
is refused: an implementation of a hook the kernel does not have is always reported."""


def _unsupported_options(opts: Mapping[str, Any]) -> str | None:
    if opts.get("optionalhook"):
        return "optionalhook is not supported (every hook must exist)"
    if opts.get("tryfirst") and opts.get("trylast"):
        return "tryfirst and trylast together"
    if opts.get("wrapper") and opts.get("hookwrapper"):
        return "wrapper and hookwrapper together"
    return None


@dataclass(frozen=True)
class HookOutcome:
    """One implementation's call: its plugin, and either its result or the failure message."""

    record: PluginRecord
    result: Any = None
    error: str | None = None


def _materialize(result: Any) -> Any:
    """A lazy iterable result (a generator hook) consumed now, inside the caller's guard."""
    if isinstance(result, (str, bytes, Mapping)) or result is None:
        return result
    if isinstance(result, Iterable) and not isinstance(result, (list, tuple)):
        return list(result)
    return result


def ordered_impls(pm: Any, hook_name: str, records: Mapping[str, PluginRecord], *, wrappers: bool = False) -> list[Any]:
    """The implementations of ``hook_name`` by the plugins in ``records`` (the plain ones, or
    the wrappers) in call order: ``tryfirst``, then plain, then ``trylast``; inside each group
    by plugin priority (built-in, bundled, then id)."""
    impls = [i for i in getattr(pm.hook, hook_name).get_hookimpls()
             if i.plugin_name in records and bool(i.wrapper or i.hookwrapper) == wrappers]
    return sorted(impls, key=lambda i: (0 if i.tryfirst else 2 if i.trylast else 1, records[i.plugin_name].rank))


def call_impls(
    pm: Any,
    hook_name: str,
    records: Mapping[str, PluginRecord],
    recorder: Recorder,
    make_kwargs: Callable[[PluginRecord], dict[str, Any]],
) -> list[HookOutcome]:
    """Call every registered implementation of ``hook_name`` one by one, with pluggy's
    ordering and wrappers, each isolated.

    - Order: ``tryfirst`` implementations, then plain ones, then ``trylast``; inside each group
      by plugin priority (built-in, bundled, then id) -- never by registration order, which
      would depend on discovery order.
    - Wrappers (``wrapper=True`` and old-style ``hookwrapper=True``) run around the call,
      outermost first. A new-style wrapper receives the list of results (``result = yield``)
      and returns the list to use; an old-style one gets a ``pluggy.Result`` and may
      ``force_result``. A result the wrapper keeps (the same object) stays attributed to its
      plugin; one it adds is attributed to the wrapper's plugin.
    - Isolation: an exception (also from a generator being consumed, or from a wrapper
      before or after its ``yield``) is recorded against its plugin and comes back as an
      outcome with ``error`` set; the other implementations and wrappers still run, and a
      failing wrapper leaves the results as they were.
    """
    wrappers = ordered_impls(pm, hook_name, records, wrappers=True)
    plain = ordered_impls(pm, hook_name, records)

    def fail(record: PluginRecord, exc: BaseException, what: str) -> str:
        if isinstance(exc, KeyboardInterrupt):
            raise exc
        message = f"{hook_name} {what} {describe_exception(exc)}"
        recorder.fail(record, message)
        return message

    entered: list[tuple[Any, Any]] = []
    errors: list[HookOutcome] = []
    for impl in wrappers:
        record = records[impl.plugin_name]
        kwargs = make_kwargs(record)
        try:
            gen = impl.function(*[kwargs[name] for name in impl.argnames])
            next(gen)
        except StopIteration:
            recorder.fail(record, f"{hook_name} wrapper did not yield")
            continue
        except BaseException as exc:  # noqa: BLE001 - isolation
            errors.append(HookOutcome(record, error=fail(record, exc, "wrapper raised")))
            continue
        entered.append((impl, gen))

    outcomes: list[HookOutcome] = []
    for impl in plain:
        record = records[impl.plugin_name]
        kwargs = make_kwargs(record)
        try:
            result = _materialize(impl.function(*[kwargs[name] for name in impl.argnames]))
        except BaseException as exc:  # noqa: BLE001 - isolation
            outcomes.append(HookOutcome(record, error=fail(record, exc, "raised")))
            continue
        outcomes.append(HookOutcome(record, result))

    for impl, gen in reversed(entered):
        outcomes = _exit_wrapper(impl, gen, records[impl.plugin_name], outcomes, recorder, hook_name, fail)
    return errors + outcomes


def _exit_wrapper(
    impl: Any, gen: Any, record: PluginRecord, outcomes: list[HookOutcome], recorder: Recorder,
    hook_name: str, fail: Callable[[PluginRecord, BaseException, str], str],
) -> list[HookOutcome]:
    """Resume one wrapper after the implementations ran; returns the outcomes to use."""
    good = [o for o in outcomes if o.error is None and o.result is not None]
    results = [o.result for o in good]
    try:
        if impl.hookwrapper:
            from pluggy import Result

            box = Result(list(results), None)
            try:
                gen.send(box)
            except StopIteration:
                pass
            else:
                recorder.fail(record, f"{hook_name} wrapper yielded more than once; its result is ignored")
                gen.close()
                return outcomes
            new = box.get_result()
        else:
            try:
                gen.send(list(results))
            except StopIteration as stop:
                new = stop.value
            else:
                recorder.fail(record, f"{hook_name} wrapper yielded more than once; its result is ignored")
                gen.close()
                return outcomes
        new = _materialize(new)
    except BaseException as exc:  # noqa: BLE001 - isolation: the results stay as they were
        fail(record, exc, "wrapper raised")
        return outcomes
    if not isinstance(new, list):
        recorder.fail(record, f"{hook_name} wrapper returned {type(new).__name__}, expected the list of results")
        return outcomes
    owners = {id(o.result): o.record for o in good}
    kept = [HookOutcome(owners.get(id(item), record), item) for item in new]
    return [o for o in outcomes if o.error is not None or o.result is None] + kept


def is_strict(env: Mapping[str, str]) -> bool:
    """``LW_STRICT_PLUGINS`` set to a true value."""
    return env.get("LW_STRICT_PLUGINS", "").strip().lower() in {"1", "true", "yes", "on"}


def env_allowlist(env: Mapping[str, str]) -> frozenset[str] | None:
    """``LW_PLUGINS`` as a set of ids (``None`` when unset; empty string = no third-party)."""
    if "LW_PLUGINS" not in env:
        return None
    return frozenset(p.strip() for p in env["LW_PLUGINS"].replace(";", ",").split(",") if p.strip())


def python_summary() -> str:
    return f"Python {sys.version.split()[0]} ({sys.executable})"
