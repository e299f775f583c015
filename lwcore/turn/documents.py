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
(hand-editable, written back with comments kept) or ``docs/<type>.jsonl`` (append-only logs,
which a turn reads from either end through :class:`DocumentLog` instead of whole). Every
document carries ``schema_version`` and ``meta`` (``source``: ``<pack-id>#<entry-id>``
for imported content).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lwcore.contributions import Document, DocumentType, Viewer, resolve
from lwcore.errors import LwError, quoting_keeper_data
from lwcore.io.atomic import encode_utf8
from lwcore.io.limits import LOG_LINE_LIMITS, YAML_LIMITS, check_shape, check_writable
from lwcore.io.loglines import ends_line, lines_before, lines_from, unterminated
from lwcore.io.roundtrip import update_yaml_text
from lwcore.io.safe_json import iter_json_lines, load_json
from lwcore.io.safe_yaml import read_yaml
from lwcore.io.text import decode_text, read_text
from lwcore.plugins import describe_exception

if TYPE_CHECKING:
    from lwcore.io.transaction import FolderTransaction
    from lwcore.kernel import Kernel
    from lwcore.turn.room import Member, Room

DOCS_DIR = "docs"
LOG_MAX_BYTES = 256 * 1024 * 1024


def viewer_of(room: Room, member: Member) -> Viewer:
    """The :class:`Viewer` a member is: their id, their locale, whether they keep the room."""
    return Viewer(member.id, room.locale_of(member), room.is_keeper(member))


def keeper_viewer(room: Room) -> Viewer:
    return viewer_of(room, room.file.keeper)


def table_viewer(room: Room, locale: str | None = None) -> Viewer:
    """A player who is no member in particular: what every player at the table may read.
    Public text that no one member owns (the campaign summary a fold writes) is built from
    this viewer's projections, never from the keeper's."""
    return Viewer("", locale or room.file.locale, False)


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
        self._logs: dict[str, DocumentLog] = {}

    @property
    def folder(self) -> Path:
        return self.room.path / DOCS_DIR

    def _load(self, kind: DocumentType) -> dict[str, Document]:
        docs = self._docs.get(kind.name)
        if docs is not None:
            return docs
        with quoting_keeper_data():  # a keeper note, a hidden leaf's name … can be in the message
            docs = self._read(kind)
        self._docs[kind.name] = docs
        return docs

    def _read(self, kind: DocumentType) -> dict[str, Document]:
        docs: dict[str, Document] = {}
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
                for number, value in iter_json_lines(text.splitlines(), path, limits=LOG_LINE_LIMITS):
                    record = _log_record(kind, value, path, line=number)
                    _apply(docs, record)
            for record in self._appended.get(kind.name, ()):  # written before the whole log was read
                _apply(docs, LogRecord(record.id, None if _deletion(record) else record, 0))
        return docs

    def all(self, name: str) -> list[Document]:
        """Every stored document of type ``name`` (file order; later log records win)."""
        return list(self._load(doc_type(self.room.kernel, name)).values())

    def appended(self, name: str) -> list[Document]:
        """The records of log type ``name`` appended since the room was read or last saved
        (a deletion is a document whose data is ``{"deleted": true}``)."""
        return list(self._appended.get(name, ()))

    def unsaved(self, name: str) -> bool:
        """Whether documents of type ``name`` changed in memory since the room was read or
        last saved (a cache keyed on the file on disk must not be trusted then)."""
        return name in self._dirty or name in self._appended

    @property
    def pending(self) -> bool:
        """Whether any document changed in memory since the room was read or last saved."""
        return bool(self._dirty or self._appended)

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
        self._check_readable(kind, doc)
        if kind.storage == "log":  # appended: the log is not read for it
            self._appended.setdefault(kind.name, []).append(doc)
            if kind.name in self._docs:
                self._docs[kind.name][doc.id] = doc
        else:
            self._load(kind)[doc.id] = doc
            self._dirty.add(kind.name)
        self.room.mark("documents")
        return doc

    def _check_readable(self, kind: DocumentType, doc: Document) -> None:
        """Refuse (code ``limit``) a document its file could not be read back with: a log
        record whose line passes the log's limits; a YAML record too deep or with too many
        values (the whole file's size is checked when it is saved)."""
        # named by the room-relative path: a tool error reaches the model, never a server path
        if kind.storage == "log":
            line = _log_line(doc)
            check_writable(_log_value(doc), len(line) - 1, LOG_LINE_LIMITS, file=f"{DOCS_DIR}/{kind.name}.jsonl",
                           what=f"{doc.type} {doc.id!r}")
        else:
            try:
                check_shape({doc.id: doc.record()}, YAML_LIMITS, what=f"{doc.type} {doc.id!r}")
            except LwError as exc:
                raise LwError(f"{exc.message}, more than its file is read back with",
                              file=f"{DOCS_DIR}/{kind.name}.yaml", code="limit") from None

    def delete(self, name: str, doc_id: str) -> bool:
        kind = doc_type(self.room.kernel, name)
        docs = self._load(kind)
        if doc_id not in docs:
            return False
        del docs[doc_id]
        if kind.storage == "log":
            self._appended.setdefault(name, []).append(Document(doc_id, name, dict(_DELETED)))
        else:
            self._dirty.add(name)
        self.room.mark("documents")
        return True

    def stage(self, txn: FolderTransaction) -> None:
        """Add the changed document files to the room's save transaction."""
        for name in sorted(self._dirty):
            rel = f"{DOCS_DIR}/{name}.yaml"
            data = {doc_id: doc.record() for doc_id, doc in self._docs[name].items()}
            check_writable(data, 0, YAML_LIMITS, file=self.folder / f"{name}.yaml", what=rel)  # before rendering
            text = update_yaml_text(self._texts.get(name, ""), data)
            body = encode_utf8(text, file=self.folder / f"{name}.yaml")
            check_writable(data, len(body), YAML_LIMITS, file=self.folder / f"{name}.yaml", what=rel)
            txn.replace(rel, body)
            self._texts[name] = text
        for name, docs in sorted(self._appended.items()):
            log = self.log(name)
            lines = []
            for doc in docs:  # put() checked each already; what is written is checked here
                line = _log_line(doc)
                check_writable(_log_value(doc), len(line) - 1, LOG_LINE_LIMITS, file=self.folder / f"{name}.jsonl",
                               what=f"{doc.type} {doc.id!r}")
                lines.append(line)
            txn.append(f"{DOCS_DIR}/{name}.jsonl", (b"\n" if log.unterminated else b"") + b"".join(lines))

    def saved(self) -> None:
        for name in self._appended:
            if name in self._logs:
                self._logs[name].saved()
        self._dirty.clear()
        self._appended.clear()

    def log(self, name: str) -> DocumentLog:
        """The log of type ``name`` (a ``storage="log"`` type), read from either end."""
        kind = doc_type(self.room.kernel, name)
        if kind.storage != "log":
            raise LwError(f"{name} documents are not a log (storage {kind.storage!r})")
        if name not in self._logs:
            self._logs[name] = DocumentLog(self, kind, self.folder / f"{name}.jsonl")
        return self._logs[name]


def _from_record(name: str, doc_id: str, record: Any, path: Path, line: int | None = None,
                 byte: int | None = None) -> Document:
    if not isinstance(record, dict) or not isinstance(record.get("data"), dict):
        raise LwError(f"{name} {doc_id!r}: a record holds data: {{…}}", file=path, line=line, byte=byte)
    version = record.get("schema_version", 1)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise LwError(f"{name} {doc_id!r}: schema_version must be a whole number from 1", file=path, line=line,
                      byte=byte)
    meta = record.get("meta") or {}
    if not isinstance(meta, dict):
        raise LwError(f"{name} {doc_id!r}: meta must be a mapping", file=path, line=line, byte=byte)
    return Document(doc_id, name, record["data"], version, meta)


# --- document logs ------------------------------------------------------------------------

_DELETED = {"deleted": True}


def _deletion(doc: Document) -> bool:
    return doc.data == _DELETED


def _log_value(doc: Document) -> dict[str, Any]:
    """The JSON value of the line a log record is appended as."""
    return {"id": doc.id, "deleted": True} if _deletion(doc) else {"id": doc.id, **doc.record()}


def _log_line(doc: Document) -> bytes:
    """The line a log record is appended as (with its newline)."""
    return encode_utf8(json.dumps(_log_value(doc), ensure_ascii=False, separators=(",", ":")) + "\n")


@dataclass(frozen=True)
class LogRecord:
    """One record of a document log: the document it stores (``None``: it deletes ``id``)
    and ``end``, the byte offset just after its line (where it will end, for a record not
    saved yet)."""

    id: str
    doc: Document | None
    end: int


def _log_record(kind: DocumentType, value: Any, path: Path, *, line: int | None = None, byte: int | None = None,
                end: int = 0) -> LogRecord:
    """A parsed log line (or its error, raised) as a :class:`LogRecord`."""
    if isinstance(value, LwError):
        raise value
    if not isinstance(value, dict) or not isinstance(value.get("id"), str):
        raise LwError("a log record is an object with an id", file=path, line=line, byte=byte)
    if value.get("deleted") is True:
        return LogRecord(value["id"], None, end)
    doc = _from_record(kind.name, value["id"], value, path, line, byte)
    return LogRecord(doc.id, migrate(kind, doc, path), end)


def _apply(docs: dict[str, Document], record: LogRecord) -> None:
    if record.doc is None:
        docs.pop(record.id, None)
    else:
        docs[record.id] = record.doc


class DocumentLog:
    """One document log (``docs/<type>.jsonl``) read from either end, saved records and the
    ones appended since the room was read alike.

    A log only grows, so a turn that needs its newest records (:meth:`newest`) or the records
    written after a remembered offset (:meth:`after`, :meth:`ending_at`) reads those and no
    more. Offsets are bytes of the file; a record not saved yet has the offset it will have.
    """

    def __init__(self, store: DocumentStore, kind: DocumentType, path: Path) -> None:
        self.store = store
        self.kind = kind
        self.path = path
        try:
            self.size = path.stat().st_size
        except FileNotFoundError:
            self.size = 0
        self.unterminated = unterminated(path)
        """Whether the file's last line lacks its newline (the next append starts with one)."""
        self._after: tuple[int, list[LogRecord]] | None = None  # saved records from an offset (cached)
        self._ending: dict[int, LogRecord | None] = {}  # offset -> the saved record ending there

    def _parse(self, raw: bytes, start: int, end: int) -> LogRecord:
        try:
            with quoting_keeper_data():
                value = load_json(decode_text(raw, self.path), self.path, limits=LOG_LINE_LIMITS)
                return _log_record(self.kind, value, self.path, byte=start, end=end)
        except LwError as exc:  # located by byte: a log read from its end has no line numbers
            exc.byte = start + (exc.byte or 0)
            exc.line = exc.column = None
            exc.message = f"{exc.message} (the record at byte {start})"
            raise

    def pending(self) -> list[LogRecord]:
        """The records appended since the room was read, with the offsets they will have."""
        end = self.size + (1 if self.unterminated else 0)
        out = []
        for doc in self.store.appended(self.kind.name):
            end += len(_log_line(doc))
            out.append(LogRecord(doc.id, None if _deletion(doc) else doc, end))
        return out

    def after(self, offset: int) -> list[LogRecord]:
        """Every record whose line starts at or after byte ``offset`` (a line boundary),
        oldest first: the saved ones read from there, then the pending ones."""
        cached = self._after
        if cached is None or offset < cached[0]:
            records = [self._parse(line.raw, line.start, line.end)
                       for line in lines_from(self.path, offset) if line.end <= self.size and line.raw.strip()]
            self._after = cached = (offset, records)
        saved = [r for r in cached[1] if r.end > offset] if offset > cached[0] else cached[1]
        return [*saved, *(r for r in self.pending() if r.end > offset)]

    def newest(self) -> Iterator[LogRecord]:
        """Every record, newest first (pending ones first), read from the end as far as the
        caller goes."""
        yield from reversed(self.pending())
        lines = lines_before(self.path, self.size)
        try:
            for line in lines:
                if line.raw.strip():
                    yield self._parse(line.raw, line.start, line.end)
        finally:
            lines.close()

    def ending_at(self, offset: int) -> LogRecord | None:
        """The record whose line ends exactly at byte ``offset``, if one does."""
        if offset > self.size:
            return next((r for r in self.pending() if r.end == offset), None)
        if offset not in self._ending:
            self._ending[offset] = self._read_ending_at(offset)
        return self._ending[offset]

    def _read_ending_at(self, offset: int) -> LogRecord | None:
        if not ends_line(self.path, offset):
            return None
        lines = lines_before(self.path, offset, block=4096)
        try:
            line = next(lines, None)
        finally:
            lines.close()
        if line is None or line.end != offset or not line.raw.strip():
            return None
        return self._parse(line.raw, line.start, line.end)

    def saved(self) -> None:
        """The pending records are on disk now."""
        pending = self.pending()
        if self._after is not None:
            self._after = (self._after[0], [*self._after[1], *pending])
        if pending:
            self.size = pending[-1].end
            self.unterminated = False



def iter_visible(room: Room, docs: Iterable[Document], viewer: Viewer) -> Iterator[dict[str, Any]]:
    """The views of ``docs`` that ``viewer`` may see, lazily (for reverse history scans)."""
    for doc in docs:
        view = project(room, doc, viewer)
        if view is not None:
            yield view
