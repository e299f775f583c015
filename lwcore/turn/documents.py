"""Room content as documents (M17): one type, one projection exit for information isolation.

Everything a room holds that the turn shows anyone -- sheets, module variables, history
events, the MVU tree, keeper notes, chronicle entries, the campaign summary, threads, and any
plugin's content (world book entries, panel data) -- is a :class:`Document` of a registered
:class:`~lwcore.contributions.DocumentType`. The type's ``project(doc, viewer, room)`` is the
**only** way a document's content reaches a viewer: player views, panel data, ``--json``
outputs and the per-viewer parts of the prompt are built from projections, and an
architecture test forbids reading secrecy fields (``visibility``, ``audience``, ``secret``,
``keeper``) anywhere else in the turn layer.

Files stay the source of truth on disk. Derived types are built from the room's own files
(``sheets/``, ``variables.yaml``, ``history.jsonl``); stored types live in ``docs/<type>.yaml``
(hand-editable, written back with comments kept) or ``docs/<type>.jsonl`` (append-only logs).
Every document carries ``schema_version`` and ``meta`` (``source``: ``<pack-id>#<entry-id>``
for imported content).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lwcore.contributions import DocumentType, Viewer, resolve
from lwcore.errors import LwError
from lwcore.io.atomic import encode_utf8
from lwcore.io.roundtrip import update_yaml_text
from lwcore.io.safe_json import iter_json_lines
from lwcore.io.safe_yaml import read_yaml
from lwcore.io.text import read_text
from lwcore.plugins import describe_exception

if TYPE_CHECKING:
    from lwcore.io.transaction import FolderTransaction
    from lwcore.kernel import Kernel
    from lwcore.turn.room import Member, Room

DOCS_DIR = "docs"
LOG_MAX_BYTES = 256 * 1024 * 1024


@dataclass(frozen=True)
class Document:
    """One unit of room content: ``type`` names its :class:`DocumentType`, ``data`` is the
    type's payload (shape versioned by ``schema_version``), ``meta`` holds provenance."""

    id: str
    type: str
    data: Mapping[str, Any]
    schema_version: int = 1
    meta: Mapping[str, Any] = field(default_factory=dict)

    @property
    def source(self) -> str:
        """Provenance: ``<pack-id>#<entry-id>`` for imported content, ``""`` for native."""
        value = self.meta.get("source", "")
        return value if isinstance(value, str) else ""

    def record(self) -> dict[str, Any]:
        """The on-disk record (what ``docs/<type>.*`` holds for it)."""
        out: dict[str, Any] = {"schema_version": self.schema_version, "data": dict(self.data)}
        if self.meta:
            out["meta"] = dict(self.meta)
        return out


def viewer_of(room: Room, member: Member) -> Viewer:
    """The :class:`Viewer` a member is: their id, their locale, whether they keep the room."""
    return Viewer(member.id, room.locale_of(member), room.is_keeper(member))


def keeper_viewer(room: Room) -> Viewer:
    return viewer_of(room, room.file.keeper)


def doc_type(kernel: Kernel, name: str) -> DocumentType:
    types = kernel.document_types
    if name not in types:
        raise LwError(f"unknown document type {name!r}", expected=", ".join(sorted(types)) or "a registered type")
    return types[name]


def project(room: Room, doc: Document, viewer: Viewer) -> dict[str, Any] | None:
    """THE exit: what ``viewer`` may see of ``doc`` (``None``: nothing). A projection that
    fails hides the document (fail closed) and is recorded against its plugin."""
    kernel = room.kernel
    try:
        kind = doc_type(kernel, doc.type)
    except LwError:
        return None
    try:
        view = resolve(kind.project)(doc, viewer, room)
    except Exception as exc:  # noqa: BLE001 - a broken projection must hide, never leak
        kernel.plugin_failed(kernel.document_types.origin(doc.type),
                             f"projection of {doc.type!r} failed: {describe_exception(exc)}")
        return None
    if view is not None and not isinstance(view, Mapping):
        kernel.plugin_failed(kernel.document_types.origin(doc.type),
                             f"projection of {doc.type!r} returned {type(view).__name__}")
        return None
    return dict(view) if view is not None else None


def project_all(room: Room, docs: Iterable[Document], viewer: Viewer) -> list[tuple[Document, dict[str, Any]]]:
    """``(doc, view)`` for each document ``viewer`` may see."""
    out = []
    for doc in docs:
        view = project(room, doc, viewer)
        if view is not None:
            out.append((doc, view))
    return out


def migrate(kind: DocumentType, doc: Document, file: Path | None = None) -> Document:
    """``doc`` lifted to ``kind.schema_version`` through the registered steps; a newer
    version, or a missing step, is a located :class:`LwError`."""
    version = doc.schema_version
    if version > kind.schema_version:
        raise LwError(
            f"{doc.type} {doc.id!r} has schema_version {version}, newer than this engine's "
            f"{kind.schema_version}", file=file, expected="a newer Loreweaver, or the file as it was",
        )
    data = dict(doc.data)
    while version < kind.schema_version:
        step = kind.migrations.get(version)
        if step is None:
            raise LwError(f"{doc.type} {doc.id!r}: no migration from schema_version {version}", file=file)
        data = dict(step(data))
        version += 1
    return Document(doc.id, doc.type, data, version, doc.meta) if version != doc.schema_version else doc


class DocumentStore:
    """The stored documents of one room (``docs/``), read on first use, written in the room's
    save transaction."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self._docs: dict[str, dict[str, Document]] = {}
        self._texts: dict[str, str] = {}
        self._dirty: set[str] = set()
        self._appended: dict[str, list[Document]] = {}

    @property
    def folder(self) -> Path:
        return self.room.path / DOCS_DIR

    def _load(self, kind: DocumentType) -> dict[str, Document]:
        docs = self._docs.get(kind.name)
        if docs is not None:
            return docs
        docs = {}
        if kind.storage == "yaml":
            path = self.folder / f"{kind.name}.yaml"
            if path.is_file():
                text = read_text(path)
                self._texts[kind.name] = text
                raw = read_yaml(path) or {}
                if not isinstance(raw, dict):
                    raise LwError("a documents file maps ids to records", file=path, line=1)
                for doc_id, record in raw.items():
                    docs[str(doc_id)] = migrate(kind, _from_record(kind.name, str(doc_id), record, path), path)
        elif kind.storage == "log":
            path = self.folder / f"{kind.name}.jsonl"
            if path.is_file():
                text = read_text(path, max_bytes=LOG_MAX_BYTES)
                for number, value in iter_json_lines(text.splitlines(), path):
                    if isinstance(value, LwError):
                        raise value
                    if not isinstance(value, dict) or not isinstance(value.get("id"), str):
                        raise LwError("a log record is an object with an id", file=path, line=number)
                    if value.get("deleted") is True:
                        docs.pop(value["id"], None)
                        continue
                    docs[value["id"]] = migrate(kind, _from_record(kind.name, value["id"], value, path, number), path)
        self._docs[kind.name] = docs
        return docs

    def all(self, name: str) -> list[Document]:
        """Every stored document of type ``name`` (file order; later log records win)."""
        return list(self._load(doc_type(self.room.kernel, name)).values())

    def unsaved(self, name: str) -> bool:
        """Whether documents of type ``name`` changed in memory since the room was read or
        last saved (a cache keyed on the file on disk must not be trusted then)."""
        return name in self._dirty or name in self._appended

    def get(self, name: str, doc_id: str) -> Document | None:
        return self._load(doc_type(self.room.kernel, name)).get(doc_id)

    def put(self, doc: Document) -> Document:
        """Store ``doc`` (new or replacing one with its id) after the type's write check;
        :class:`LwError` with every violation when it refuses. Written on the room's save."""
        kind = doc_type(self.room.kernel, doc.type)
        if kind.storage == "derived":
            raise LwError(f"{doc.type} documents are derived from the room's files; change those instead")
        doc = Document(doc.id, doc.type, dict(doc.data), kind.schema_version, dict(doc.meta))
        violations = list(resolve(kind.validate_write)(doc, self.room)) if kind.validate_write else []
        if violations:
            raise LwError(f"{doc.type} {doc.id!r} refused: " + "; ".join(violations), code="invalid")
        self._load(kind)[doc.id] = doc
        if kind.storage == "log":
            self._appended.setdefault(kind.name, []).append(doc)
        else:
            self._dirty.add(kind.name)
        self.room.mark("documents")
        return doc

    def delete(self, name: str, doc_id: str) -> bool:
        kind = doc_type(self.room.kernel, name)
        docs = self._load(kind)
        if doc_id not in docs:
            return False
        del docs[doc_id]
        if kind.storage == "log":
            self._appended.setdefault(name, []).append(Document(doc_id, name, {"deleted": True}))
        else:
            self._dirty.add(name)
        self.room.mark("documents")
        return True

    def stage(self, txn: FolderTransaction) -> None:
        """Add the changed document files to the room's save transaction."""
        for name in sorted(self._dirty):
            rel = f"{DOCS_DIR}/{name}.yaml"
            data = {doc_id: doc.record() for doc_id, doc in self._docs[name].items()}
            text = update_yaml_text(self._texts.get(name, ""), data)
            txn.replace(rel, encode_utf8(text, file=self.folder / f"{name}.yaml"))
            self._texts[name] = text
        for name, docs in sorted(self._appended.items()):
            lines = []
            for doc in docs:
                if doc.data == {"deleted": True}:
                    lines.append(json.dumps({"id": doc.id, "deleted": True}))
                else:
                    lines.append(json.dumps({"id": doc.id, **doc.record()}, ensure_ascii=False, separators=(",", ":")))
            txn.append(f"{DOCS_DIR}/{name}.jsonl", encode_utf8("".join(line + "\n" for line in lines)))

    def saved(self) -> None:
        self._dirty.clear()
        self._appended.clear()


def _from_record(name: str, doc_id: str, record: Any, path: Path, line: int | None = None) -> Document:
    if not isinstance(record, dict) or not isinstance(record.get("data"), dict):
        raise LwError(f"{name} {doc_id!r}: a record holds data: {{…}}", file=path, line=line)
    version = record.get("schema_version", 1)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise LwError(f"{name} {doc_id!r}: schema_version must be a whole number from 1", file=path, line=line)
    meta = record.get("meta") or {}
    if not isinstance(meta, dict):
        raise LwError(f"{name} {doc_id!r}: meta must be a mapping", file=path, line=line)
    return Document(doc_id, name, record["data"], version, meta)


def iter_visible(room: Room, docs: Iterable[Document], viewer: Viewer) -> Iterator[dict[str, Any]]:
    """The views of ``docs`` that ``viewer`` may see, lazily (for reverse history scans)."""
    for doc in docs:
        view = project(room, doc, viewer)
        if view is not None:
            yield view
