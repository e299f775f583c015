"""Where packs live, and their files: content-addressed, confined to the pack.

An installed pack is a folder ``<data_dir>/packs/<id>@<version>/`` (what ``.lwpack`` install
writes); the newest version of each id is the one a room uses. A **development** pack is a
source folder mounted by path (``lw serve --pack DIR``, ``lw panels … --pack DIR``, or
``$LW_DEV_PACKS``, paths separated by ``os.pathsep``); a mount wins over an installed pack of
the same id, so an author sees their edits.

A pack's ``pack.yaml`` is read only for what panels need (``id``, ``version``,
``contents.panels``, ``contents.presentation``, and the ``files`` inventory of a built pack);
the rest is the pack format's business. A folder without ``pack.yaml`` but with
``ui/panels.yaml`` is accepted as a development pack named after the folder.

Every file a pack names is read through :func:`lwcore.io.confine` (no ``..``, no absolute
path, no symbolic link out of the pack) and identified by the SHA-256 of its bytes; when the
built pack's inventory lists a file, the bytes must match it.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lwcore.api import Ledger, LwError, confine, pack_homes as homes, read_bytes, read_yaml

if TYPE_CHECKING:
    from lwcore.api import Kernel

PACKS_DIR = "packs"
MANIFEST = "pack.yaml"
DEFAULT_PANELS = "ui/panels.yaml"
DEFAULT_PRESENTATION = "ui/presentation.yaml"
DEV_ENV = "LW_DEV_PACKS"
PACK_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
MAX_ASSET_BYTES = 8 * 1024 * 1024

MIME_BY_SUFFIX: Mapping[str, str] = {
    ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp",
    ".gif": "image/gif", ".svg": "image/svg+xml",
    ".html": "text/html", ".htm": "text/html", ".js": "text/javascript", ".mjs": "text/javascript",
    ".css": "text/css", ".json": "application/json", ".txt": "text/plain",
    ".woff2": "font/woff2", ".woff": "font/woff",
    ".mp3": "audio/mpeg", ".ogg": "audio/ogg", ".wav": "audio/wav", ".flac": "audio/flac",
    ".m4a": "audio/mp4", ".aac": "audio/aac",
}
IMAGE_MIMES = frozenset({"image/png", "image/jpeg", "image/webp", "image/gif", "image/svg+xml"})
AUDIO_MIMES = frozenset({"audio/mpeg", "audio/ogg", "audio/wav", "audio/flac", "audio/mp4", "audio/aac"})


@dataclass(frozen=True)
class PackHome:
    """One pack folder: ``id``, ``version``, where it is, whether it is a development mount."""

    id: str
    version: str
    path: Path
    dev: bool = False

    @property
    def label(self) -> str:
        return f"{self.id}@{self.version}" + (" (dev)" if self.dev else "")


@dataclass(frozen=True)
class Asset:
    """A file of a pack, content-addressed: ``path`` (pack-relative, ``/``-separated)."""

    path: str
    sha256: str
    size: int
    mime: str


def sniff_mime(data: bytes, path: str) -> str | None:
    """The picture type of ``data`` by its first bytes (``None``: not a picture we show)."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    if path.lower().endswith(".svg"):
        head = data[:2048].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
        if head.startswith((b"<svg", b"<?xml", b"<!--", b"<!doctype svg")) and b"<svg" in data[:65536].lower():
            return "image/svg+xml"
    return None


class DevMounts:
    """The development pack folders of one kernel (a kernel service)."""

    def __init__(self, kernel: Kernel) -> None:
        self._paths: list[Path] = [Path(p) for p in kernel.env.get(DEV_ENV, "").split(os.pathsep) if p.strip()]
        self._lock = threading.Lock()

    def mount(self, path: str | Path) -> PackHome:
        """Mount a source folder; :class:`LwError` when it is no pack."""
        home = read_home(Path(path), dev=True)
        with self._lock:
            resolved = home.path.resolve()
            if all(p.resolve() != resolved for p in self._paths):
                self._paths.append(home.path)
        return home

    @property
    def paths(self) -> tuple[Path, ...]:
        with self._lock:
            return tuple(self._paths)


def dev_mounts(kernel: Kernel) -> DevMounts:
    return kernel.service("panels.dev_mounts", DevMounts)


class FolderFiles:
    """A pack folder seen as its files (what :class:`AssetReader` reads through; a pack's
    validator reads the source tree or the archive through the same two methods)."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def display(self, path: str) -> str:
        return str(self.root / path)

    def read_bytes(self, path: str, *, max_bytes: int = MAX_ASSET_BYTES) -> bytes:
        target = confine(self.root, path, file=self.root, what="pack file")
        if not target.is_file():
            raise LwError(f"{path!r} is not a file of the pack", file=target, code="not_found")
        return read_bytes(target, max_bytes=max_bytes)


def read_home(path: Path, *, dev: bool) -> PackHome:
    """The :class:`PackHome` of folder ``path`` (its ``pack.yaml`` id and version)."""
    if not path.is_dir():
        raise LwError("not a pack folder", file=path, expected="a folder with pack.yaml or ui/panels.yaml")
    manifest = read_manifest(path)
    if manifest is None:
        if not (path / DEFAULT_PANELS).is_file():
            raise LwError(f"not a pack folder (no {MANIFEST}, no {DEFAULT_PANELS})", file=path)
        pack_id = path.name.lower()
        if not PACK_ID.match(pack_id):
            raise LwError(f"a pack without {MANIFEST} is named after its folder, and {path.name!r} is no pack id",
                          file=path, expected="lowercase letters, digits and -")
        return PackHome(pack_id, "0.0.0-dev", path, dev)
    return PackHome(manifest["id"], manifest["version"], path, dev)


def second_kit(kit_files: list[str] | tuple[str, ...]) -> str | None:
    """Why a pack listing ``kit_files`` is refused, or ``None``: a pack carries one presentation
    kit (contract M19: "一个包一份"); the director reads one brief per pack."""
    if len(kit_files) <= 1:
        return None
    return (f"contents.presentation lists {len(kit_files)} kits ({', '.join(kit_files)}); a pack carries one "
            "presentation kit: merge them into one ui/presentation.yaml")


def read_manifest(path: Path) -> dict[str, Any] | None:
    """The parts of ``pack.yaml`` panels use (``None`` when there is none): ``id``,
    ``version``, ``contents`` (kind -> paths) and ``files`` (path -> sha256, for built packs)."""
    file = path / MANIFEST
    if not file.is_file():
        return None
    data, positions = read_yaml(file, positions=True)
    if not isinstance(data, dict):
        raise LwError(f"{MANIFEST} must be a mapping", file=file, line=1)

    def where(*keys: Any) -> dict[str, Any]:
        pos = positions.find(keys)
        return {"file": file, "line": pos.line if pos else None, "column": pos.column if pos else None}

    pack_id, version = data.get("id"), data.get("version")
    if not isinstance(pack_id, str) or not PACK_ID.match(pack_id):
        raise LwError(f"id {pack_id!r} is not a pack id", expected="lowercase letters, digits and -", **where("id"))
    if not isinstance(version, str) or not re.match(r"^[0-9]+(\.[0-9]+)*([-+][0-9A-Za-z.-]+)?$", version):
        raise LwError(f"version {version!r} is not a version", expected="MAJOR.MINOR.PATCH", **where("version"))
    contents = data.get("contents") or {}
    if not isinstance(contents, dict):
        raise LwError("contents must be a mapping of kind -> paths", **where("contents"))
    ours: dict[str, list[str]] = {}
    for kind in ("panels", "presentation"):
        items = contents.get(kind) or []
        paths = [i.get("path") if isinstance(i, dict) else i for i in items] if isinstance(items, list) else None
        if paths is None or not all(isinstance(p, str) and p.strip() for p in paths):
            raise LwError(f"contents.{kind} must be a list of paths (or {{path: …}})", **where("contents", kind))
        ours[kind] = [p for p in paths if isinstance(p, str)]  # all are, as checked above
    extra = second_kit(ours["presentation"])
    if extra is not None:
        raise LwError(extra, **where("contents", "presentation"))
    files: dict[str, str] = {}
    for index, entry in enumerate(data.get("files") or []):
        if isinstance(entry, dict) and isinstance(entry.get("path"), str) and isinstance(entry.get("sha256"), str):
            files[entry["path"]] = entry["sha256"].lower()
        else:
            raise LwError("a files entry is {path, sha256, size}", **where("files", index))
    return {"id": pack_id, "version": version, "contents": ours, "files": files, "path": file}


def installed_homes(data_dir: Path) -> dict[str, PackHome]:
    """The active installed version of each pack id under ``<data_dir>/packs``: the one the
    install ledger names (the version installed last), else the highest whose home exists."""
    root = data_dir / PACKS_DIR
    try:
        active = Ledger.load(root).active
    except LwError:
        active = {}
    best: dict[str, PackHome] = {}
    for pack_id, versions in homes(root).items():
        chosen = active.get(pack_id)
        version = chosen if chosen is not None and chosen in versions else versions[-1]
        best[pack_id] = PackHome(pack_id, version, root / f"{pack_id}@{version}")
    return best


def pack_homes(kernel: Kernel) -> dict[str, PackHome]:
    """Every pack a room of ``kernel`` may enable: installed ones, then development mounts
    (which win on an id clash). A mount that is no longer a pack is left out. Read again only
    when the packs folder or a mount's ``pack.yaml`` changed."""
    return kernel.service("panels.homes", _HomeIndex).homes(kernel)


class _HomeIndex:
    def __init__(self, kernel: Kernel) -> None:
        self._key: Any = None
        self._homes: dict[str, PackHome] = {}
        self._lock = threading.Lock()

    def homes(self, kernel: Kernel) -> dict[str, PackHome]:
        mounts = dev_mounts(kernel).paths
        key = (_stamp(kernel.data_dir / PACKS_DIR), tuple((p, _stamp(p / MANIFEST), _stamp(p)) for p in mounts))
        with self._lock:
            if key == self._key:
                return dict(self._homes)
        homes = installed_homes(kernel.data_dir)
        for path in mounts:
            try:
                home = read_home(path, dev=True)
            except LwError:
                continue
            homes[home.id] = home
        with self._lock:
            self._key, self._homes = key, homes
        return dict(homes)


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size


def find_home(kernel: Kernel, pack_id: str) -> PackHome:
    homes = pack_homes(kernel)
    if pack_id not in homes:
        known = ", ".join(sorted(homes)) or "none installed"
        raise LwError(f"no pack {pack_id!r} is installed", expected=f"one of: {known}", code="unknown")
    return homes[pack_id]


@dataclass
class AssetReader:
    """Reads a pack's files by pack-relative path, each once, hashed and typed; checks a
    built pack's inventory. ``files`` is a :class:`FolderFiles` or a pack validator's view
    (source tree or archive): anything with ``read_bytes(path, max_bytes=)`` and
    ``display(path)``."""

    files: Any
    inventory: Mapping[str, str] = field(default_factory=dict)
    _cache: dict[str, tuple[Asset, bytes]] = field(default_factory=dict)

    def read(self, rel: str, *, file: Any = None, line: int | None = None) -> tuple[Asset, bytes]:
        rel = rel.replace("\\", "/")
        hit = self._cache.get(rel)
        if hit is not None:
            return hit
        try:
            data = self.files.read_bytes(rel, max_bytes=MAX_ASSET_BYTES)
        except LwError as exc:
            raise LwError(f"{rel!r}: {exc.message}", file=file or exc.file, line=line if file else exc.line,
                          code=exc.code) from None
        digest = hashlib.sha256(data).hexdigest()
        expected = self.inventory.get(rel)
        if expected is not None and expected != digest:
            raise LwError(f"{rel!r} does not match the pack's inventory (sha256 {digest[:12]}…, "
                          f"listed {expected[:12]}…)", file=file, line=line, code="integrity")
        suffix = Path(rel).suffix.lower()
        asset = Asset(rel, digest, len(data), MIME_BY_SUFFIX.get(suffix, "application/octet-stream"))
        self._cache[rel] = (asset, data)
        return asset, data

    @property
    def read_files(self) -> dict[str, Asset]:
        """Every file read so far, by path."""
        return {rel: asset for rel, (asset, _) in self._cache.items()}


def signature(root: Path, paths: Iterable[str]) -> tuple[tuple[str, int, int], ...]:
    """``(path, mtime_ns, size)`` of each file under ``root``: a changed file changes it."""
    out = []
    for rel in paths:
        try:
            stat = (root / rel).stat()
            out.append((rel, stat.st_mtime_ns, stat.st_size))
        except OSError:
            out.append((rel, -1, -1))
    return tuple(out)
