"""``lw pack verify``: every check an install makes, and nothing written.

In order, each stage reporting all of its problems at once:

1. the archive's structure (:func:`lwcore.pack.archive.open_pack`: size, count, ratio, names,
   links, duplicates, overlaps);
2. the built manifest (schema, version, migrations) and the engine minimum (a localized
   refusal);
3. the inventory: no member the ``files`` list does not name, none it names missing, every
   member's size and sha256 as listed;
4. the contents, re-parsed by the validators registered on *this* host, each item's detected
   facts equal to what the manifest says (a card labelled ``character`` that carries module
   machinery is refused), every member shipped by an item or an asset, every asset's media
   type as its extension says, and the ``trust`` block equal to the one derived again here.

The result keeps the archive open (use it as a context manager), so an install extracts exactly
the bytes that were checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from lwcore import __version__
from lwcore.errors import LwError, LwErrors
from lwcore.io.text import decode_text
from lwcore.manifest import version_tuple
from lwcore.pack.archive import PackArchive, file_sha256, open_pack
from lwcore.pack.card import message
from lwcore.pack.contents import CheckedItem, check_contents, media_type, trust_of
from lwcore.pack.files import ArchiveFiles
from lwcore.pack.limits import DEFAULT_LIMITS, PackLimits
from lwcore.pack.manifest import MANIFEST_NAME, BuiltManifest, parse_manifest

if TYPE_CHECKING:
    from lwcore.kernel import Kernel


def require_engine(minimum: str, locale: str, *, file: str, current: str = __version__) -> None:
    """Refuse (localized) a pack whose engine minimum this lwcore does not meet."""
    have, need = version_tuple(current), version_tuple(minimum)
    width = max(len(have), len(need))
    if have + (0,) * (width - len(have)) < need + (0,) * (width - len(need)):
        raise LwError(message("engine", locale, required=minimum, current=current), file=file, code="engine")


@dataclass
class VerifiedPack:
    """A pack that passed every check: the open archive, its manifest and checked items."""

    archive: PackArchive
    manifest: BuiltManifest
    manifest_bytes: bytes
    items: list[CheckedItem]
    warnings: list[str] = field(default_factory=list)
    stamp: tuple[int, int, int] = (0, 0, 0)
    """``(inode, size, mtime)`` of the archive when it was checked (see :meth:`unchanged`)."""
    _sha256: str | None = None

    @property
    def sha256(self) -> str:
        """The archive file's sha256 (one more read; computed on first use)."""
        if self._sha256 is None:
            self._sha256 = file_sha256(self.archive.path)
        return self._sha256

    @property
    def content_sha256(self) -> str:
        """The sha256 of the built manifest: it lists every member's sha256, so it names the
        content exactly, at no extra read."""
        import hashlib

        return hashlib.sha256(self.manifest_bytes).hexdigest()

    def unchanged(self) -> bool:
        """Whether the archive file is still the one that was checked (same inode, size and
        modification time of the open file)."""
        return self.stamp == self.archive.stamp()

    def __enter__(self) -> VerifiedPack:
        return self

    def __exit__(self, *exc: object) -> None:
        self.archive.close()

    @property
    def files(self) -> ArchiveFiles:
        return ArchiveFiles(self.archive)


def _raise(problems: list[LwError]) -> None:
    if problems:
        raise problems[0] if len(problems) == 1 else LwErrors(problems)


def verify_pack(kernel: Kernel, path: str | Path, *, limits: PackLimits = DEFAULT_LIMITS,
                locale: str = "en") -> VerifiedPack:
    """Run every check on the ``.lwpack`` at ``path`` (see the module docstring)."""
    archive = open_pack(path, limits=limits)
    try:
        return _verify(kernel, archive, limits, locale)
    except BaseException:
        archive.close()
        raise


def _verify(kernel: Kernel, archive: PackArchive, limits: PackLimits, locale: str) -> VerifiedPack:
    stamp = archive.stamp()
    where = archive.display(MANIFEST_NAME)
    if MANIFEST_NAME not in archive.members:
        raise LwError(f"the archive has no {MANIFEST_NAME} at its top (build packs with lw pack build)",
                      file=archive.path, code="archive")
    raw = archive.read(MANIFEST_NAME, max_bytes=limits.manifest_bytes)
    manifest, locate = parse_manifest(decode_text(raw, where), file=where, built=True)
    require_engine(manifest.engine, locale, file=where)

    problems: list[LwError] = []
    inventory = {record.path: record for record in manifest.files}
    if MANIFEST_NAME in inventory:
        problems.append(LwError(f"the files inventory lists {MANIFEST_NAME} itself", **locate(("files",))))
    for name, info in archive.members.items():
        if name != MANIFEST_NAME and name not in inventory:
            problems.append(LwError("member is not in the manifest's files inventory (undeclared)",
                                    file=archive.display(name), byte=info.header_offset, code="undeclared"))
    for index, record in enumerate(manifest.files):
        if record.path not in archive.members:
            problems.append(LwError(f"files[{index}]: {record.path!r} is listed but not in the archive",
                                    **locate(("files", index)), code="missing"))
        elif archive.size(record.path) != record.size:
            problems.append(LwError(f"member is {archive.size(record.path)} bytes; the inventory says {record.size}",
                                    file=archive.display(record.path), code="integrity"))
    _raise(problems)
    for record in manifest.files:
        if archive.digest(record.path) != record.sha256:
            problems.append(LwError("member's sha256 does not match the files inventory",
                                    file=archive.display(record.path), code="integrity"))
    _raise(problems)

    files = ArchiveFiles(archive)
    checked = check_contents(kernel, manifest.contents, files, pack_id=manifest.id, locate=locate,
                             max_items=limits.items)
    problems += checked.problems
    stored = {(kind, item.path): item for kind, item in manifest.items()}
    for item in checked.items:
        found, said = item.built(), stored[(item.kind, item.decl.path)]
        for key in ("id", "files", "detected", "handles"):
            if getattr(found, key) != getattr(said, key):
                problems.append(LwError(
                    f"contents.{item.kind}: {item.decl.path} parses differently than its manifest says: "
                    f"{key} is {getattr(found, key)!r}, the manifest says {getattr(said, key)!r}",
                    file=files.display(item.decl.path), code="mismatch"))
    shipped = set(checked.claims)
    for index, asset in enumerate(manifest.assets):
        if asset.path not in inventory:
            problems.append(LwError(f"assets[{index}]: {asset.path!r} is not in the files inventory",
                                    **locate(("assets", index)), code="missing"))
        elif asset.path in shipped:
            problems.append(LwError(f"assets[{index}]: {asset.path!r} is also shipped by {checked.claims[asset.path]}",
                                    **locate(("assets", index)), code="duplicate"))
        if asset.mime != media_type(asset.path):
            problems.append(LwError(f"assets[{index}]: media type {asset.mime!r}, but {asset.path!r} is "
                                    f"{media_type(asset.path)!r}", **locate(("assets", index, "mime")), code="mismatch"))
        shipped.add(asset.path)
    for name in sorted(set(inventory) - shipped):
        problems.append(LwError("member is in the inventory but no content item or asset ships it (undeclared)",
                                file=archive.display(name), code="undeclared"))
    if not checked.problems:
        trust = trust_of(checked.items, manifest.assets, {n: r.size for n, r in inventory.items()})
        if trust != manifest.trust:
            wrong = [k for k in type(trust).model_fields if getattr(trust, k) != getattr(manifest.trust, k)]
            problems.append(LwError("the trust block does not match the pack's contents: " + ", ".join(
                f"{k} is {getattr(trust, k)!r}, the manifest says {getattr(manifest.trust, k)!r}" for k in wrong),
                **locate(("trust",)), code="mismatch"))
    _raise(problems)
    return VerifiedPack(archive, manifest, raw, checked.items, list(checked.warnings), stamp)
