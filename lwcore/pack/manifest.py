"""``pack.yaml``: the author's manifest, the built manifest, their schema version and migrations.

An author writes (``lw schema lwpack-source``)::

    id: blackmoor                 # lower-case slug; with version, the install folder name
    version: 1.0.0                # MAJOR.MINOR.PATCH[-pre][+build]
    engine: "0.1.0"               # the lowest lwcore version that can install it (no ranges)
    name: {en: Blackmoor, zh: 黑沼}          # a string (English) or locale -> text
    description: {en: "...", zh: "..."}
    authors: [Ann]
    license: CC-BY-4.0
    contents:                     # kind -> items; each kind is checked by the plugin
      rulepacks: [rules/blackmoor.yaml]     # that registered its validator
      cards: [cards/blackmoor.json, {path: cards/guide.json, notes: {en: "Read first"}}]
    assets: [art/, {path: music/theme.ogg, title: Theme, license: CC0}]   # files or folders

``lw pack build`` writes the **built manifest** into the archive (``lw schema lwpack``): the
same fields with every item as a mapping (``id``, ``files`` it brings, ``detected`` facts such
as a card's kind, stable ``handles``), every asset with its media type, the complete ``files``
inventory (path, size, sha256 of every member but ``pack.yaml``) and the generated ``trust``
block. ``files`` and ``trust`` are never hand-written. Unknown top-level keys are kept as
written.

``manifest_version`` is the schema version (2; the author may leave it out). An older manifest
is upgraded through the steps registered in :data:`MIGRATIONS` (version 1, the shape before
the complete inventory, deliberately has none and is refused); a newer one is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints, field_validator

from lwcore.contributions import localized
from lwcore.errors import LwError
from lwcore.io import load_yaml
from lwcore.io.models import validate_model
from lwcore.pack.names import name_problem

MANIFEST_NAME = "pack.yaml"
PACK_SUFFIX = ".lwpack"
MANIFEST_VERSION = 2
GENERATED = ("files", "trust")
"""Top-level keys only ``lw pack build`` writes."""

Migration = Callable[[dict[str, Any]], dict[str, Any]]
MIGRATIONS: dict[int, Migration] = {}
"""``version -> step`` lifting a raw manifest of that version to the next one."""

SLUG = r"^[a-z0-9][a-z0-9-]{0,63}$"
SEMVER = r"^\d{1,9}\.\d{1,9}\.\d{1,9}(?:-[0-9A-Za-z.-]{1,40})?(?:\+[0-9A-Za-z.-]{1,40})?$"
ENGINE = r"^\d{1,9}(?:\.\d{1,9}){0,3}$"
KIND = r"^[a-z][a-z0-9_]{0,31}$"
LOCALE = r"^[a-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$"

Text = Annotated[str, StringConstraints(min_length=1, max_length=4000)]
Localized = Text | dict[Annotated[str, StringConstraints(pattern=LOCALE)], Text]
Scalar = str | int | float | bool | None


def _check_path(value: str) -> str:
    problem = name_problem(value)
    if problem is not None:
        raise ValueError(f"path {value!r} {problem}")
    return value


PackPath = Annotated[str, StringConstraints(min_length=1, max_length=512)]


def _as_mapping(value: Any) -> Any:
    return {"path": value} if isinstance(value, str) else value


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ItemDecl(_Strict):
    """One declared content item: a path, with optional notes shown at install."""

    path: PackPath
    notes: Localized | None = None

    @field_validator("path")
    @classmethod
    def _path(cls, value: str) -> str:
        return _check_path(value)


class BuiltItem(ItemDecl):
    """A content item of a built manifest: what its validator found."""

    id: str | None = None
    files: list[PackPath] = Field(default_factory=list)
    detected: dict[str, Scalar] = Field(default_factory=dict)
    handles: list[str] = Field(default_factory=list)


class AssetDecl(_Strict):
    """One declared asset: a file or a folder of files, with optional credits."""

    path: PackPath
    title: Text | None = None
    license: Text | None = None
    tags: list[Annotated[str, StringConstraints(min_length=1, max_length=64)]] = Field(default_factory=list, max_length=32)

    @field_validator("path")
    @classmethod
    def _path(cls, value: str) -> str:
        return _check_path(value.rstrip("/"))


class BuiltAsset(AssetDecl):
    """An asset of a built manifest: one file, with its media type."""

    mime: str


class FileRecord(_Strict):
    """One member of the archive: its size and sha256."""

    path: PackPath
    size: int = Field(ge=0)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")

    @field_validator("path")
    @classmethod
    def _path(cls, value: str) -> str:
        return _check_path(value)


class Trust(_Strict):
    """What an operator is told before installing: generated, never hand-written, and derived
    again from the archive at verify time (a pack cannot show ``has_hooks: false`` while
    shipping hooks)."""

    counts: dict[Annotated[str, StringConstraints(pattern=KIND)], int] = Field(
        description="items per content kind")
    world_cards: int = Field(0, description="cards that carry module machinery (imported by the keeper)")
    has_hooks: bool = Field(False, description="sandboxed hooks JS")
    has_ejs: bool = Field(False, description="EJS templates")
    has_rules_script: bool = Field(False, description="a rules script decides checks")
    prep_scripts: int = 0
    presets: int = 0
    panels: int = 0
    presentation_subjects: int = 0
    imagegen: bool = Field(False, description="may spend the operator's image-generation budget")
    assets: int = 0
    asset_bytes: int = 0


class SourceManifest(BaseModel):
    """The author's ``pack.yaml`` (``lw schema lwpack-source``). Unknown top-level keys are
    kept and written into the built manifest unchanged."""

    model_config = ConfigDict(extra="allow", strict=True, title="Loreweaver pack manifest (source)")

    manifest_version: int = MANIFEST_VERSION
    id: str = Field(pattern=SLUG, description="lower-case slug: letters, digits, '-'")
    version: str = Field(pattern=SEMVER, description="MAJOR.MINOR.PATCH, quoted if YAML would read a number")
    engine: str = Field("0", pattern=ENGINE, description="the lowest lwcore version that can install it")
    name: Localized
    description: Localized
    authors: list[Text] = Field(default_factory=list, max_length=64)
    license: Text | None = None
    contents: dict[Annotated[str, StringConstraints(pattern=KIND)], list[Annotated[ItemDecl, BeforeValidator(_as_mapping)]]] = Field(
        default_factory=dict, description="content kind -> declared items (paths or {path, notes})")
    assets: list[Annotated[AssetDecl, BeforeValidator(_as_mapping)]] = Field(
        default_factory=list, description="media files or folders, shipped as they are")

    def extras(self) -> dict[str, Any]:
        """The unknown top-level keys, as written."""
        return dict(self.model_extra or {})

    def title(self, locale: str) -> str:
        return self.name if isinstance(self.name, str) else localized(self.name, locale)


class BuiltManifest(SourceManifest):
    """The manifest inside a built ``.lwpack`` (``lw schema lwpack``)."""

    model_config = ConfigDict(extra="allow", strict=True, title="Loreweaver pack manifest (built)")

    contents: dict[Annotated[str, StringConstraints(pattern=KIND)], list[BuiltItem]] = Field(default_factory=dict)  # type: ignore[assignment]  # narrows the base model's field (a built pack's items carry hashes)
    assets: list[BuiltAsset] = Field(default_factory=list)  # type: ignore[assignment]  # narrows the base model's field (a built pack's items carry hashes)
    files: list[FileRecord]
    trust: Trust

    @property
    def key(self) -> str:
        """``<id>@<version>``: the install folder's name."""
        return f"{self.id}@{self.version}"

    def items(self) -> list[tuple[str, BuiltItem]]:
        """``(kind, item)`` for every content item, kinds in sorted order."""
        return [(kind, item) for kind in sorted(self.contents) for item in self.contents[kind]]


def migrate(raw: Mapping[str, Any], *, built: bool, file: str, positions: Any = None) -> dict[str, Any]:
    """``raw`` lifted to :data:`MANIFEST_VERSION` through :data:`MIGRATIONS` (located refusals
    for a missing version in a built manifest, a newer version, or one with no upgrade)."""

    def where(*path: Any) -> dict[str, Any]:
        pos = positions.find(list(path)) if positions is not None else None
        return {"file": file, "line": pos.line if pos else None, "column": pos.column if pos else None}

    version = raw.get("manifest_version", None if built else MANIFEST_VERSION)
    if version is None:
        raise LwError("a built pack names its manifest_version", **where(), expected=f"manifest_version: {MANIFEST_VERSION}")
    if isinstance(version, bool) or not isinstance(version, int):
        raise LwError(f"manifest_version {version!r} is not a whole number", **where("manifest_version"))
    if version > MANIFEST_VERSION:
        raise LwError(f"manifest_version {version} is newer than this engine reads ({MANIFEST_VERSION}); update lwcore",
                      **where("manifest_version"), code="version")
    doc = dict(raw)
    while version < MANIFEST_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise LwError(f"manifest_version {version} cannot be upgraded (this engine reads {MANIFEST_VERSION})",
                          **where("manifest_version"), code="version")
        doc = step(doc)
        version += 1
        doc["manifest_version"] = version
    return doc


Locate = Callable[[Sequence[Any]], dict[str, Any]]


def locator(positions: Any, file: str) -> Locate:
    """``locate(path)`` -> the ``file``/``line``/``column`` keywords of an error about the value
    at ``path`` in the manifest."""

    def locate(path: Sequence[Any]) -> dict[str, Any]:
        pos = positions.find(list(path)) if positions is not None else None
        return {"file": file, "line": pos.line if pos else None, "column": pos.column if pos else None}

    return locate


def parse_manifest(text: str, *, file: str, built: bool) -> tuple[Any, Locate]:
    """Read ``pack.yaml`` text: YAML through the kernel's safe reader, the version migrated,
    then the model (:class:`SourceManifest` or, ``built``, :class:`BuiltManifest`); every
    problem located (all of the model's at once). Returns the model and its :func:`locator`."""
    data, positions = load_yaml(text, file, positions=True)
    if not isinstance(data, dict):
        raise LwError("pack.yaml is a mapping (id:, version:, contents: …)", file=file, line=1, column=1)
    if not built:
        for key in GENERATED:
            if key in data:
                pos = positions.find([key], key=True)
                raise LwError(f"{key}: is generated by lw pack build; remove it from the source manifest", file=file,
                              line=pos.line if pos else None, column=pos.column if pos else None)
    data = migrate(data, built=built, file=file, positions=positions)
    model = BuiltManifest if built else SourceManifest
    return validate_model(model, data, file=file, positions=positions, strict=True), locator(positions, file)


def dump_manifest(manifest: BuiltManifest) -> str:
    """The built manifest as YAML text, byte for byte the same for the same manifest on any
    machine: a fixed key order, PyYAML's pure-Python emitter, no line wrapping."""
    import yaml

    def item(i: BuiltItem) -> dict[str, Any]:
        out: dict[str, Any] = {"path": i.path}
        for key in ("notes", "id"):
            if getattr(i, key) is not None:
                out[key] = getattr(i, key)
        if i.files:
            out["files"] = list(i.files)
        if i.detected:
            out["detected"] = dict(sorted(i.detected.items()))
        if i.handles:
            out["handles"] = list(i.handles)
        return out

    def asset(a: BuiltAsset) -> dict[str, Any]:
        out: dict[str, Any] = {"path": a.path, "mime": a.mime}
        for key in ("title", "license"):
            if getattr(a, key) is not None:
                out[key] = getattr(a, key)
        if a.tags:
            out["tags"] = list(a.tags)
        return out

    data: dict[str, Any] = {
        "manifest_version": manifest.manifest_version,
        "id": manifest.id,
        "version": manifest.version,
        "engine": manifest.engine,
        "name": manifest.name,
        "description": manifest.description,
    }
    if manifest.authors:
        data["authors"] = list(manifest.authors)
    if manifest.license is not None:
        data["license"] = manifest.license
    data["contents"] = {kind: [item(i) for i in items] for kind, items in sorted(manifest.contents.items())}
    if manifest.assets:
        data["assets"] = [asset(a) for a in manifest.assets]
    data["files"] = [f.model_dump() for f in manifest.files]
    data["trust"] = manifest.trust.model_dump()
    for key, value in sorted(manifest.extras().items()):
        data[key] = value
    return yaml.dump(data, Dumper=yaml.SafeDumper, sort_keys=False, allow_unicode=True,
                     default_flow_style=False, width=1 << 16)
