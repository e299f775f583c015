"""Installing and removing packs: the host API behind ``lw pack install|remove|list`` and the
room's ``.pack install``.

Installed is not enabled. An install lands the pack's home in ``<data_dir>/packs/<id>@<version>/``
(the built manifest and every member: cards, world books, assets, and a copy of everything else)
and the files a validator asks for in their discovery folders (``rulepacks/``, ``skills/`` …),
where a running kernel finds them on its next look (discovery compares folder signatures), with
no restart. Rooms still opt in.

Every red line is checked before anything is written (:func:`lwcore.pack.verify.verify_pack`);
then, under the packs folder's lock, the new home and landed files are staged and put in place
with the ledger as one :class:`lwcore.pack.swap.Swap`: a failure or a killed process leaves the
previous state. Re-installing the same ``id@version`` replaces its home whole; installing another
version of an installed pack makes the new one active (its files replace the old version's in the
discovery folders, files the old one landed and the new one does not are removed). A landed file
never overwrites a file another pack owns or one the operator made (unless byte-identical).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from lwcore.errors import LwError, LwErrors
from lwcore.io import read_text
from lwcore.io.paths import confine
from lwcore.io.transaction import FolderLock
from lwcore.pack.ledger import LEDGER, STATE, Ledger, PackVersion, homes, version_key
from lwcore.pack.limits import DEFAULT_LIMITS, PackLimits
from lwcore.pack.manifest import MANIFEST_NAME, BuiltManifest, parse_manifest
from lwcore.pack.sources import Transport, fetch_pack, transport_for
from lwcore.pack.swap import FaultHook, Swap, _no_fault, recover
from lwcore.pack.verify import VerifiedPack, verify_pack

if TYPE_CHECKING:
    from lwcore.kernel import Kernel

WORK = "txn"


@dataclass
class InstallReport:
    """What an install did: the pack, its home, the files landed for discovery, the files of an
    earlier active version taken away, operator files left in place (identical bytes).
    ``sha256`` is the content's: the built manifest's (it lists every member's sha256)."""

    manifest: BuiltManifest
    home: Path
    sha256: str
    landed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    replaced: bool = False
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {"id": self.manifest.id, "version": self.manifest.version, "home": str(self.home),
                "sha256": self.sha256, "landed": self.landed, "removed": self.removed, "kept": self.kept,
                "replaced": self.replaced, "trust": self.manifest.trust.model_dump(), "warnings": self.warnings}


@dataclass(frozen=True)
class InstalledPack:
    """One installed version (``lw pack list``)."""

    id: str
    version: str
    active: bool
    home: Path
    manifest: BuiltManifest | None
    problem: str | None = None

    def to_json(self) -> dict[str, object]:
        m = self.manifest
        return {"id": self.id, "version": self.version, "active": self.active, "home": str(self.home),
                "name": m.name if m else None, "trust": m.trust.model_dump() if m else None, "problem": self.problem}


def packs_dir(kernel: Kernel) -> Path:
    return kernel.data_dir / "packs"


@contextmanager
def packs_locked(kernel: Kernel) -> Iterator[Path]:
    """Hold the packs folder's lock, an interrupted install or remove rolled back first."""
    folder = packs_dir(kernel)
    folder.mkdir(parents=True, exist_ok=True)
    with FolderLock(folder):
        recover(kernel.data_dir, folder / STATE / WORK)
        yield folder


def _copy(chunks: Iterator[bytes], target: Path) -> None:
    """Write ``chunks`` to a new file."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target, "xb") as handle:
        for chunk in chunks:
            handle.write(chunk)


def _flush(paths: list[Path]) -> None:
    """fsync every staged file (several at once: the disk can batch them), so what the swap
    moves into place is on disk before the journal says it is there."""
    from concurrent.futures import ThreadPoolExecutor

    def sync(path: Path) -> None:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(sync, paths))


def _same_bytes(path: Path, chunks: Iterator[bytes]) -> bool:
    try:
        with open(path, "rb") as handle:
            for chunk in chunks:
                if handle.read(len(chunk)) != chunk:
                    return False
            return handle.read(1) == b""
    except OSError:
        return False


def _file_on_the_way(root: Path, target: str, leaving: set[str]) -> str | None:
    """The first folder on the way to ``root/target`` that exists but is not a folder (and is
    not one of ``leaving``, which the same swap deletes first), or ``None``."""
    parts = target.split("/")[:-1]
    for depth in range(1, len(parts) + 1):
        step = "/".join(parts[:depth])
        path = root / step
        if not os.path.lexists(path):
            return None
        if not path.is_dir() and step not in leaving:
            return step
    return None


def install_verified(kernel: Kernel, verified: VerifiedPack, *, fault: FaultHook = _no_fault,
                     durable: bool = True) -> InstallReport:
    """Install a pack that :func:`lwcore.pack.verify.verify_pack` accepted (see the module
    docstring). Raises :class:`LwError`/``LwErrors`` when a landing place is taken; nothing is
    changed then. ``durable`` fsyncs every staged file before the swap (a power cut cannot
    leave a half-written member behind a committed install); the swap is all or nothing for a
    failure or a killed process either way."""
    manifest = verified.manifest
    archive = verified.archive
    # verify held the landing places to the pack name rules (lwcore.pack.contents.landing_problems)
    lands = {f"{item.lands_in}/{dest}": source for item in verified.items for source, dest in item.report.lands.items()}
    problems: list[LwError] = []
    with packs_locked(kernel) as folder:
        ledger = Ledger.load(folder)
        home = folder / manifest.key
        report = InstallReport(manifest, home, verified.content_sha256, replaced=home.exists(),
                               warnings=list(verified.warnings))
        previous = ledger.landed(manifest.id)
        stale = sorted(set(previous) - set(lands))
        put: dict[str, str] = {}
        for target, source in sorted(lands.items()):
            path = kernel.data_dir / target
            owner = ledger.owner(target, excluding=manifest.id)
            blocked = _file_on_the_way(kernel.data_dir, target, set(stale))
            if blocked is not None:
                problems.append(LwError(f"{target} needs {blocked} as a folder, but it is a file (move it away, or "
                                        "rename the pack's content)", file=kernel.data_dir / blocked, code="taken"))
            elif owner is not None:
                problems.append(LwError(f"{target} belongs to pack {owner[0]}@{owner[1]} (lw pack remove {owner[0]} "
                                        "first, or rename the content)", file=path, code="taken"))
            elif target not in previous and os.path.lexists(path):
                if _same_bytes(path, archive.chunks(source)):
                    report.kept.append(target)
                else:
                    problems.append(LwError(f"{target} exists and is not from a pack; an install does not replace "
                                            "your own files (move it away, or rename the pack's content)",
                                            file=path, code="taken"))
            else:
                put[target] = source
        if problems:
            raise problems[0] if len(problems) == 1 else LwErrors(problems)
        swap = Swap(kernel.data_dir, folder / STATE / WORK, fault)
        staged_home = swap.staging / "home"
        staged_home.mkdir()
        (staged_home / MANIFEST_NAME).write_bytes(verified.manifest_bytes)
        staged = [staged_home / MANIFEST_NAME]
        for record in manifest.files:
            _copy(archive.chunks(record.path), staged_home / record.path)
            staged.append(staged_home / record.path)
        if not verified.unchanged():
            raise LwError("the archive changed while it was being installed", file=archive.path, code="integrity")
        for target in stale:  # first: a stale file may stand where a new landing needs a folder
            swap.delete(target)
        swap.put("home", f"packs/{manifest.key}")
        for index, (target, source) in enumerate(sorted(put.items())):
            shutil.copyfile(staged_home / source, swap.staging / str(index))
            staged.append(swap.staging / str(index))
            swap.put(str(index), target)
        if durable:
            _flush(staged)
        ledger.add(manifest.id, manifest.version, PackVersion(verified.content_sha256, {t: lands[t] for t in put}))
        (swap.staging / LEDGER).write_bytes(ledger.dumps())
        swap.put(LEDGER, f"packs/{LEDGER}")
        swap.commit()
        kernel.data_changed()
        report.landed = sorted(put)
        report.removed = stale
    return report


def install_pack(kernel: Kernel, ref: str, *, locale: str = "en", limits: PackLimits = DEFAULT_LIMITS,
                 confirm: Callable[[VerifiedPack], bool] | None = None, fault: FaultHook = _no_fault,
                 transport: Transport | None = None, allow_local: bool = True,
                 durable: bool = True) -> InstallReport | None:
    """Resolve ``ref`` (a path, an ``https://`` URL, ``gh:owner/repo[@tag]``; see
    :func:`lwcore.pack.sources.fetch_pack`), verify it, ask ``confirm`` (given the verified pack,
    to show its trust card; ``None`` installs), and install. Returns ``None`` when declined.
    ``transport`` defaults to the kernel's (:func:`lwcore.pack.sources.transport_for`)."""
    path = fetch_pack(ref, cache_dir=kernel.data_dir / "cache" / "packs", env=kernel.env, limits=limits,
                      transport=transport or transport_for(kernel), allow_local=allow_local, locale=locale)
    with verify_pack(kernel, path, limits=limits, locale=locale) as verified:
        if confirm is not None and not confirm(verified):
            return None
        return install_verified(kernel, verified, fault=fault, durable=durable)


def _read_home_manifest(home: Path) -> BuiltManifest:
    return parse_manifest(read_text(home / MANIFEST_NAME), file=str(home / MANIFEST_NAME), built=True)[0]


def installed_packs(kernel: Kernel) -> list[InstalledPack]:
    """Every installed version, by id then version (an interrupted operation rolled back first)."""
    with packs_locked(kernel) as folder:
        ledger = Ledger.load(folder)
        out = []
        for pack_id, versions in sorted(homes(folder).items()):
            for version in versions:
                home = folder / f"{pack_id}@{version}"
                try:
                    manifest, problem = _read_home_manifest(home), None
                except LwError as exc:
                    manifest, problem = None, str(exc)
                out.append(InstalledPack(pack_id, version, ledger.active.get(pack_id) == version, home, manifest, problem))
        return out


def remove_pack(kernel: Kernel, ref: str, *, fault: FaultHook = _no_fault) -> list[str]:
    """Remove ``id`` (every version) or ``id@version``; returns the data-dir paths taken away.
    When the active version goes and another stays, the highest remaining one becomes active
    and its files are landed again from its home. One :class:`Swap`, like an install."""
    pack_id, _, version = ref.partition("@")
    with packs_locked(kernel) as folder:
        ledger = Ledger.load(folder)
        installed = homes(folder).get(pack_id, [])
        chosen = [version] if version else list(installed)
        if not chosen or (version and version not in installed):
            known = ", ".join(f"{i}@{v}" for i, vs in sorted(homes(folder).items()) for v in vs) or "none"
            raise LwError(f"pack {ref!r} is not installed", expected=f"one of: {known}", code="not_found")
        swap = Swap(kernel.data_dir, folder / STATE / WORK, fault)
        removed = [f"packs/{pack_id}@{v}" for v in chosen]
        for target in removed:
            swap.delete(target)
        active_before, before = ledger.active.get(pack_id), ledger.landed(pack_id)
        for v in chosen:
            ledger.drop(pack_id, v)
        active_after, after = ledger.active.get(pack_id), ledger.landed(pack_id)
        if active_after != active_before:
            for target in sorted(set(before) - set(after)):
                swap.delete(target)
                removed.append(target)
            for index, (target, source) in enumerate(sorted(after.items())):
                if ledger.owner(target, excluding=pack_id) is not None:
                    continue  # another pack took this place while this version was not active
                shutil.copyfile(folder / f"{pack_id}@{active_after}" / source, swap.staging / str(index))
                swap.put(str(index), target)
        (swap.staging / LEDGER).write_bytes(ledger.dumps())
        swap.put(LEDGER, f"packs/{LEDGER}")
        swap.commit()
        kernel.data_changed()
        return removed


def installed_path(kernel: Kernel, ref: str) -> Path | None:
    """``<pack-id>/<path inside the pack>`` -> that file in the active (else newest) installed
    version's home, or ``None`` (not a pack ref, not installed, not a file, or it leaves the
    home). What a room's import flow uses to read a card or a world book a pack installed."""
    pack_id, _, rest = ref.partition("/")
    versions = homes(packs_dir(kernel)).get(pack_id)
    if not versions or not rest:
        return None
    ledger = Ledger.load(packs_dir(kernel))
    version = ledger.active.get(pack_id) or max(versions, key=version_key)
    try:
        path = confine(packs_dir(kernel) / f"{pack_id}@{version}", rest)
    except LwError:
        return None
    return path if path.is_file() else None
