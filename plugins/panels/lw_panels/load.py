"""Loading a pack's panels (and presentation kit): validated, located, compiled, cached.

:func:`load_pack` reads a pack folder's ``ui/panels.yaml`` files (``contents.panels`` of its
``pack.yaml``, else ``ui/panels.yaml``), checks them against :mod:`lw_panels.model`, checks
every ``visible_when`` against the grammar, reads every image and tier-2 file through the
pack's :class:`~lw_panels.packs.AssetReader` (confined, hashed, typed by its bytes), and
compiles the blocks (:mod:`lw_panels.compile`). Every problem of the pack is reported at
once, each at its file, line and column (:class:`lwcore.errors.LwErrors`).

:func:`cached_pack` keeps loaded packs per kernel; an installed pack is immutable (a new
version is a new folder), a development mount is re-read when any of its files changes.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from lw_panels.compile import Emit, compile_blocks
from lw_panels.model import PanelDef, PanelsFile
from lw_panels.packs import (
    DEFAULT_PANELS,
    DEFAULT_PRESENTATION,
    IMAGE_MIMES,
    MAX_ASSET_BYTES,
    MIME_BY_SUFFIX,
    Asset,
    AssetReader,
    FolderFiles,
    PackHome,
    read_manifest,
    second_kit,
    signature,
    sniff_mime,
)
from lw_panels.located import located_at, read_yaml_file, validate
from lw_panels.presentation import Kit, load_kit
from lwcore.api import (
    LwError,
    LwErrors,
    VarBinding,
    YamlPositions as Positions,
    condition as cond,
    confine,
    read_bytes,
)

if TYPE_CHECKING:
    from lwcore.api import Kernel

_NOT_SHOWN = frozenset({"kind", "id", "src", "style", "tone", "slot", "audience", "entry", "assets", "visible_when"})
"""Fields whose strings are not text a viewer reads (kinds, ids, paths, enums, conditions)."""


@dataclass(frozen=True)
class Reference:
    """Something a panel's definition says that ships to every viewer of it: a condition, a
    variable it binds, a repeat prefix, or a text -- with where it is written."""

    kind: str  # "condition" | "binding" | "prefix" | "text"
    value: Any
    where: LwError
    """An (unraised) error carrying the location, for messages about this reference."""


@dataclass(frozen=True)
class Panel:
    """One loaded panel of a pack (``ref`` is ``pack/panel``, how hooks address it)."""

    pack: str
    id: str
    title: Any
    slot: str
    audience: str
    tier: int
    blocks: tuple[Emit, ...]
    """Tier 1: its blocks; tier 2: its fallback (empty for ``fallback: null``)."""
    templates: tuple[dict[str, Any], ...]
    """The blocks as they ship to clients that resolve templates themselves (images by hash)."""
    fallback_null: bool = False
    entry: Asset | None = None
    assets: tuple[Asset, ...] = ()
    references: tuple[Reference, ...] = ()
    where: LwError | None = None
    named: frozenset[str] = frozenset()
    """Every variable id the panel names: in its conditions and its bindings."""
    prefixes: tuple[str, ...] = ()
    """Its repeat prefixes."""
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """Its last resolution per locale (:func:`lw_panels.compile.resolve_reusing`)."""

    @property
    def ref(self) -> str:
        return f"{self.pack}/{self.id}"


@dataclass(frozen=True)
class LoadedPack:
    home: PackHome
    panels: tuple[Panel, ...]
    kit: Kit | None
    files: Mapping[str, Asset]
    """Every file the panels and the kit use, by pack-relative path."""
    signature: tuple[Any, ...] = ()

    @property
    def by_hash(self) -> dict[str, Asset]:
        return {asset.sha256: asset for asset in self.files.values()}

    def panel(self, panel_id: str) -> Panel | None:
        return next((p for p in self.panels if p.id == panel_id), None)


def _conditions(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every ``visible_when`` value in ``data`` with its data path."""
    if isinstance(data, Mapping):
        for key, value in data.items():
            if key == "visible_when":
                yield (*path, key), value
            else:
                yield from _conditions(value, (*path, key))
    elif isinstance(data, list):
        for index, item in enumerate(data):
            yield from _conditions(item, (*path, index))


def check_conditions(data: Any, file: str | Path, positions: Positions) -> tuple[list[LwError], set[tuple[Any, ...]]]:
    """Each ``visible_when`` string parsed; a refusal located at its own column in the file."""
    problems, paths = [], set()
    for path, text in _conditions(data):
        if not isinstance(text, str):
            continue
        try:
            cond.parse(text)
        except cond.ConditionError as exc:
            pos = positions.find(path)
            line, column = (pos.inside(exc.column) if pos and exc.column and pos.line else
                            ((pos.line, pos.column) if pos else (None, None)))
            where = "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else str(p)) for i, p in enumerate(path))
            problems.append(LwError(f"{where}: {exc.message}", file=file, line=line or None, column=column or None,
                                    code="condition"))
            paths.add(path)
    return problems, paths


def _replaced(data: Any, paths: set[tuple[Any, ...]], value: Any) -> Any:
    """A copy of ``data`` with the values at ``paths`` replaced by ``value``."""
    if not paths:
        return data
    import copy

    out = copy.deepcopy(data)
    for path in paths:
        node = out
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return out


def _walk_model(value: Any, path: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], str, Any]]:
    """``(path, field name, value)`` for every leaf field of a model tree."""
    if isinstance(value, BaseModel):
        for name in type(value).model_fields:
            child = getattr(value, name)
            key = "$var" if isinstance(value, VarBinding) else name
            if isinstance(child, (BaseModel, list, dict)):
                yield from _walk_model(child, (*path, key))
            elif child is not None:
                yield (*path, key), name, (value if isinstance(value, VarBinding) else child)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _walk_model(item, (*path, index))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield (*path, key), str(key), item


def references(panel: PanelDef, index: int, file: str | Path, positions: Positions) -> tuple[Reference, ...]:
    """What ``panel`` says that ships to its viewers (see :class:`Reference`)."""
    out = []
    for path, name, value in _walk_model(panel, ("panels", index)):
        where = located_at(positions, file, path, "")
        if isinstance(value, VarBinding):
            out.append(Reference("binding", value.var, where))
        elif name == "visible_when":
            out.append(Reference("condition", cond.parse(value), where))
        elif name == "prefix" and len(path) >= 2 and path[-2] == "repeat":
            out.append(Reference("prefix", value, where))
        elif isinstance(value, str) and name not in _NOT_SHOWN and not name.startswith("$"):
            out.append(Reference("text", value, where))
    return tuple(out)


def _wire(block: BaseModel, address: Any) -> dict[str, Any]:
    data = block.model_dump(mode="json", by_alias=True, exclude_none=True)

    def swap(node: Any) -> Any:
        if isinstance(node, dict):
            if node.get("kind") == "image" and isinstance(node.get("src"), str):
                found = address(node["src"])
                node = {k: v for k, v in node.items() if k != "src"} | found
            return {k: swap(v) for k, v in node.items()}
        if isinstance(node, list):
            return [swap(v) for v in node]
        return node
    return swap(data)


def _image_sources(blocks: Any) -> Iterator[tuple[tuple[Any, ...], str]]:
    for path, name, value in _walk_model(blocks, ()):
        if name == "src" and isinstance(value, str):
            yield path, value


def load_panels_file(pack_id: str, rel: str, reader: AssetReader) -> tuple[list[Panel], list[LwError]]:
    """One ``panels.yaml`` of pack ``pack_id``: its panels, and every problem found."""
    try:
        data, positions, file = read_yaml_file(reader, rel, "panels file")
    except LwError as exc:
        return [], [exc]
    problems, bad = check_conditions(data, file, positions)
    # the refused conditions are reported; the rest of the file is still checked as if they read "true"
    parsed, more = validate(PanelsFile, _replaced(data, bad, "true"), file, positions, skip=bad)
    problems += more
    if parsed is None:
        return [], problems
    panels = []
    for index, spec in enumerate(parsed.panels):
        before = len(problems)
        base = ("panels", index)
        addresses: dict[str, dict[str, Any]] = {}
        for path, src in _image_sources([spec.blocks or [], spec.fallback or []]):
            block_path = (*base, "blocks" if path[0] == 0 else "fallback", *path[1:-1])
            try:
                asset, data_bytes = reader.read(src, file=file, line=_line(positions, (*block_path, "src")))
            except LwError as exc:
                problems.append(exc)
                continue
            mime = sniff_mime(data_bytes, src)
            if mime is None or mime not in IMAGE_MIMES:
                problems.append(located_at(positions, file, (*block_path, "src"),
                                    f"{src} is not a PNG, JPEG, WebP, GIF or SVG picture", code="invalid"))
                continue
            addresses[src] = {"hash": asset.sha256, "mime": mime}
        entry, assets = None, []
        if spec.entry is not None:
            for position, rel_asset in enumerate(spec.assets or []):
                try:
                    asset, _ = reader.read(rel_asset, file=file, line=_line(positions, (*base, "assets", position)))
                except LwError as exc:
                    problems.append(exc)
                    continue
                if asset.mime == "application/octet-stream":
                    problems.append(located_at(positions, file, (*base, "assets", position),
                                        f"{rel_asset}: a panel ships only known file types "
                                        f"({', '.join(sorted(MIME_BY_SUFFIX))})", code="invalid"))
                assets.append(asset)
                if rel_asset == spec.entry:
                    entry = asset
        if len(problems) > before:
            continue

        def address(src: str, found: dict[str, dict[str, Any]] = addresses) -> dict[str, Any]:
            return found[src]

        source = spec.blocks if spec.entry is None else (spec.fallback or [])
        compiled = compile_blocks(source, address)
        refs = references(spec, index, file, positions)
        named = {n.id for r in refs if r.kind == "condition" for n in cond.names(r.value)}
        named |= {r.value for r in refs if r.kind == "binding"}
        panels.append(Panel(
            pack=pack_id, id=spec.id, title=spec.title, slot=spec.slot, audience=spec.audience, tier=spec.tier,
            blocks=compiled, templates=tuple(_wire(b, address) for b in source),
            fallback_null=spec.entry is not None and spec.fallback is None, entry=entry, assets=tuple(assets),
            references=refs, where=located_at(positions, file, base, ""), named=frozenset(sorted(named)),
            prefixes=tuple(r.value for r in refs if r.kind == "prefix"),
        ))
    return panels, problems


def _line(positions: Positions, path: tuple[Any, ...]) -> int | None:
    pos = positions.find(path)
    return pos.line if pos and pos.line else None


def load_contents(pack_id: str, reader: AssetReader, panel_files: list[str],
                  kit_files: list[str]) -> tuple[list[Panel], Kit | None]:
    """The panels and the kit of a pack, read through ``reader``; :class:`LwError` (or
    :class:`LwErrors`) with every problem when anything is wrong."""
    panels: list[Panel] = []
    problems: list[LwError] = []
    for rel in panel_files:
        found, trouble = load_panels_file(pack_id, rel, reader)
        panels += found
        problems += trouble
    seen: set[str] = set()
    for panel in panels:
        if panel.id in seen:
            problems.append(LwError(f"panel id {panel.id!r} is declared twice in pack {pack_id}",
                                    file=panel.where.file if panel.where else None,
                                    line=panel.where.line if panel.where else None))
        seen.add(panel.id)
    kit = None
    extra = second_kit(kit_files)
    if extra is not None:
        problems.append(LwError(extra, file=reader.files.display(kit_files[1]), code="duplicate"))
        kit_files = kit_files[:1]
    for rel in kit_files:
        try:
            kit = load_kit(pack_id, rel, reader)
        except LwError as exc:
            problems += exc.errors if isinstance(exc, LwErrors) else [exc]
    if problems:
        raise problems[0] if len(problems) == 1 else LwErrors(problems)
    return panels, kit


def load_pack(home: PackHome) -> LoadedPack:
    """Every panel and the presentation kit of the pack at ``home`` (see :func:`load_contents`)."""
    manifest = read_manifest(home.path)
    reader = AssetReader(FolderFiles(home.path), (manifest or {}).get("files", {}))
    contents = (manifest or {}).get("contents", {})
    panel_files = list(contents.get("panels") or [])
    kit_files = list(contents.get("presentation") or [])
    if manifest is None:
        panel_files = [DEFAULT_PANELS] if (home.path / DEFAULT_PANELS).is_file() else []
        kit_files = [DEFAULT_PRESENTATION] if (home.path / DEFAULT_PRESENTATION).is_file() else []
    panels, kit = load_contents(home.id, reader, panel_files, kit_files)
    files = reader.read_files
    tracked = ["pack.yaml", *panel_files, *kit_files, *files]
    return LoadedPack(home, tuple(panels), kit, files, signature(home.path, tracked))


def asset_bytes(pack: LoadedPack, asset: Asset) -> bytes:
    """The bytes of ``asset`` as they are now, read confined to the pack; :class:`LwError`
    when the file changed since the pack was loaded (its hash no longer matches)."""
    import hashlib

    data = read_bytes(confine(pack.home.path, asset.path, what="pack file"), max_bytes=MAX_ASSET_BYTES)
    if hashlib.sha256(data).hexdigest() != asset.sha256:
        raise LwError(f"{asset.path} changed since its pack was loaded", file=pack.home.path / asset.path,
                      code="integrity")
    return data


class PackCache:
    """Loaded packs of one kernel, by folder (a kernel service)."""

    def __init__(self, kernel: Kernel) -> None:
        self._packs: dict[Path, LoadedPack] = {}
        self._lock = threading.Lock()

    def get(self, home: PackHome) -> LoadedPack:
        with self._lock:
            hit = self._packs.get(home.path)
        if hit is not None and hit.home == home and _unchanged(hit, everything=home.dev):
            return hit
        pack = load_pack(home)
        with self._lock:
            self._packs[home.path] = pack
        return pack


def _unchanged(pack: LoadedPack, *, everything: bool) -> bool:
    """Whether the pack's files are as loaded: all of them for a development mount; for an
    installed pack (replaced whole on reinstall) its ``pack.yaml``."""
    tracked = pack.signature if everything else pack.signature[:1]
    return signature(pack.home.path, [entry[0] for entry in tracked]) == tuple(tracked)


def cached_pack(kernel: Kernel, home: PackHome) -> LoadedPack:
    return kernel.service("panels.packs", PackCache).get(home)
