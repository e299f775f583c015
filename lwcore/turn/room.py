"""A room on disk: ``room.yaml``, character sheets, declared variables and the turn history.

Layout of a room folder::

    room.yaml          RoomFile: rule system and variant, locale, keeper, players (each with a
                       sheet file), plugin config files by name, enabled features, phase
    sheets/*.yaml      the kernel's character sheet file (lwcore.rules.sheet.SheetFile,
                       ``lw schema sheet``): one each, bound to the room's rulepack
    variables.yaml     {variables: [VariableDef, ...]}: declarations and current values
    history.jsonl      one HistoryEntry (JSON) a line: the turn history

Every model keeps unknown keys and writes them back untouched. Every write is atomic
(:mod:`lwcore.io.atomic`): a reader sees the old file or the new one, never half of one.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator

from lwcore.errors import LwError, quoting_keeper_data, redacted
from lwcore.io.atomic import encode_utf8
from lwcore.io.limits import LOG_LINE_LIMITS, check_writable
from lwcore.io.loglines import unterminated
from lwcore.io.models import reader_limits, validate_model
from lwcore.io.paths import confine
from lwcore.io.roundtrip import dump_yaml, update_yaml_text
from lwcore.io.safe_yaml import load_yaml, read_yaml
from lwcore.io.text import read_text
from lwcore.io.transaction import FaultHook, FolderTransaction, locked
from lwcore.rules import engine_for
from lwcore.rules.sheet import Sheet, load_sheet
from lwcore.deadline import Deadline
from lwcore.turn.checkpoints import stage_record
from lwcore.turn.documents import DocumentStore
from lwcore.turn.history import HistoryEntry, HistoryLog, entry_record, record_text
from lwcore.turn.variables import VariableDef

if TYPE_CHECKING:
    from lwcore.kernel import Kernel
    from lwcore.rules.system import RuleSystem

ROOM_FILE = "room.yaml"
VARIABLES_FILE = "variables.yaml"
HISTORY_FILE = "history.jsonl"


class Member(BaseModel):
    """A keeper or a player: an id, a display name, an optional locale and sheet file."""

    model_config = ConfigDict(extra="allow")

    id: str = Field(min_length=1)
    name: str = ""
    locale: str | None = None
    sheet: str | None = None
    """Path of this member's character sheet, relative to the room folder."""


class Feature(BaseModel):
    """An enabled feature (a skill, a module mechanic ...) and the tools it asks for.

    In ``room.yaml`` a feature with no tools may be written as its bare id. A feature counts
    (is *active*, :meth:`Room.active_features`) unless a condition it carries does not hold:
    ``adult`` (only while the room's adult switch is on) or ``systems`` (only in a room
    playing one of these rule systems). What an active feature does to the room's tools is
    :func:`lwcore.turn.offers.visible_tools`'s: its ``tools`` are offered (gated ones
    included); with ``narrows``, the room offers nothing else but the kernel's own tools and
    what other active features ask for.
    """

    model_config = ConfigDict(extra="allow")

    id: str = Field(min_length=1)
    tools: list[str] = Field(default_factory=list, description="tools this feature asks for (gated ones included)")
    narrows: StrictBool = Field(
        default=False,
        description="the room offers only the tools its active features ask for, plus the kernel's own "
        "(a skill's allowed-tools)",
    )
    adult: StrictBool = Field(default=False, description="counts only while the room's adult switch is on")
    systems: list[str] = Field(
        default_factory=list, description="counts only in a room playing one of these rule systems (empty: any)")


class RoomFile(BaseModel):
    """``room.yaml``."""

    model_config = ConfigDict(extra="allow")

    format: Literal[1] = 1
    id: str = Field(min_length=1)
    title: str | dict[str, str] = ""
    system: str = Field(min_length=1, description="rule system id (a rulepack id)")
    variant: str | None = Field(default=None, description="house-rule variant of the rulepack")
    locale: str = "en"
    phase: str | None = Field(default=None, description="current phase (e.g. prep); phase tools follow it")
    clock: str | None = Field(
        default=None,
        description="the game clock (ISO 8601 date-time) that hook scripts and macros see; the host's "
        "time never enters a turn (default: the epoch)",
    )
    context_window: int | None = Field(
        default=None, gt=0,
        description="tokens the room's model reads; the chronicle folds when the prompt nears it "
        "(default 32000)",
    )
    provider: str | None = Field(
        default=None,
        description="provider protocol this room's turns compile for (default: the first installed "
        "adapter that has a prompt compiler)",
    )
    profile: str | None = Field(
        default=None, min_length=1,
        description="the provider profile (lw provider list) lw turn --say plays this room on",
    )
    keeper: Member
    players: list[Member] = Field(default_factory=list)
    config: dict[str, str] = Field(
        default_factory=dict,
        description="plugin config files by name, relative to the room folder; handed to "
        "prompt-segment providers as absolute paths in TurnContext.config",
    )
    adult: StrictBool = Field(
        default=False,
        description="the room's adult switch: features (skills) rated mature or explicit count only "
        "while it is on; only the keeper sets it",
    )
    features: list[Feature] = Field(default_factory=list)
    tool_plugins: list[str] | None = Field(
        default=None,
        description="when set, only tools of these plugin ids (and the kernel's own) are offered "
        "in this room; unset: every enabled plugin's tools",
    )

    @field_validator("features", mode="before")
    @classmethod
    def _bare_ids(cls, value: Any) -> Any:
        if isinstance(value, list):
            return [{"id": item} if isinstance(item, str) else item for item in value]
        return value


class VariablesFile(BaseModel):
    """``variables.yaml``."""

    model_config = ConfigDict(extra="allow")

    variables: list[VariableDef] = Field(default_factory=list)


# --- reading and writing -----------------------------------------------------------------


def _read_model(model: type[BaseModel], path: Path) -> Any:
    """Read a YAML file of the room and validate it; located errors."""
    data, positions = read_yaml(path, positions=True)
    if data is None:
        data = {}
    return validate_model(model, data, file=path, positions=positions, strict=True)


def _dump_model(model: BaseModel) -> dict[str, Any]:
    return model.model_dump(mode="json", exclude_unset=True)


@dataclass
class Room:
    """A loaded room. Mutate through the turn pipeline's tools, then :meth:`save`.

    Reading and saving assume the caller holds the room's lock (:func:`room_lock`); the
    turn pipeline and the ``lw`` commands do.
    """

    path: Path
    file: RoomFile
    rule_system: RuleSystem
    """The room's rule system (``file.system``); every sheet is bound to it."""
    sheets: dict[str, Sheet]
    """Member id -> the kernel's :class:`lwcore.rules.sheet.Sheet` (only values that differ
    from the pack are stored; defaults and derived values come from the pack)."""
    variables: VariablesFile
    history: HistoryLog
    """``history.jsonl``, read from the end on demand (:class:`lwcore.turn.history.HistoryLog`)."""
    kernel: Kernel
    _dirty: set[str] = field(default_factory=set)
    _texts: dict[str, str] = field(default_factory=dict)
    """Relative path -> the text each YAML file had when read (comments are kept on write)."""
    documents: DocumentStore = field(init=False)
    """The room's stored documents (``docs/``): see :mod:`lwcore.turn.documents`."""
    deadline: Deadline | None = None
    """The deadline of the turn changing this room (:mod:`lwcore.deadline`): every save
    claims it first. ``None``: no deadline."""

    def __post_init__(self) -> None:
        self.documents = DocumentStore(self)

    @property
    def pack(self) -> RuleSystem:
        """Deprecated since lwcore.api 2.0 (removed in 3.0): :attr:`rule_system`."""
        import warnings

        warnings.warn("Room.pack is deprecated: use .rule_system", DeprecationWarning, stacklevel=2)
        return self.rule_system

    # -- loading ---------------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | Path, kernel: Kernel) -> Room:
        """Read a room folder (or its ``room.yaml``); :class:`LwError` with a location if bad.

        The sheets are bound to the room's rulepack, found through ``kernel``; an unknown rule
        system is an error. Every path a room file names must stay inside the room folder.
        """
        path = Path(path)
        if path.name == ROOM_FILE and path.is_file():
            path = path.parent
        if not (path / ROOM_FILE).is_file():
            raise LwError(f"not a room folder (no {ROOM_FILE})", file=path)
        texts: dict[str, str] = {}
        room_file: RoomFile = _read_model(RoomFile, path / ROOM_FILE)
        texts[ROOM_FILE] = read_text(path / ROOM_FILE)
        ids = [room_file.keeper.id, *(p.id for p in room_file.players)]
        if len(set(ids)) != len(ids):
            raise LwError("member ids must be unique (keeper and players)", file=path / ROOM_FILE)
        for member in (room_file.keeper, *room_file.players):
            if member.sheet:
                confine(path, member.sheet, file=path / ROOM_FILE, what=f"sheet of {member.id!r}")
        for name, rel in room_file.config.items():
            confine(path, rel, file=path / ROOM_FILE, what=f"config file {name!r}")
        pack = _pack(kernel, room_file.system, path / ROOM_FILE)
        sheets: dict[str, Sheet] = {}
        for member in (room_file.keeper, *room_file.players):
            _read_sheet(path, member, pack, sheets, texts)
        variables = _read_variables(path, texts)
        return cls(path, room_file, pack, sheets, variables, HistoryLog(path / HISTORY_FILE), kernel, set(), texts)

    def reread(self, changed: Collection[str]) -> Room:
        """The room as its folder holds it now, after a control (:mod:`lwcore.turn.checkpoints`)
        changed the files ``changed`` (paths relative to the room) under the caller's lock:
        those read again, every other part taken over from this load (unchanged on disk), the
        history and the documents read afresh. What :meth:`load` would give, without reading
        again what did not change. This room must have nothing unsaved (else: a full load)."""
        changed = set(changed)
        if ROOM_FILE in changed or self._dirty or self.history.pending or self.documents.pending:
            return type(self).load(self.path, self.kernel)
        texts = {rel: text for rel, text in self._texts.items() if rel not in changed}
        sheets: dict[str, Sheet] = {}
        for member in self.members:
            if member.sheet in changed:
                _read_sheet(self.path, member, self.rule_system, sheets, texts)
            elif member.id in self.sheets:
                sheets[member.id] = self.sheets[member.id]
        variables = _read_variables(self.path, texts) if VARIABLES_FILE in changed else self.variables
        return type(self)(self.path, self.file, self.rule_system, sheets, variables, HistoryLog(self.path / HISTORY_FILE),
                          self.kernel, set(), texts, deadline=self.deadline)

    # -- members ---------------------------------------------------------------------------

    @property
    def members(self) -> list[Member]:
        return [self.file.keeper, *self.file.players]

    def member(self, ref: str | None) -> Member:
        """A member by id or name (``None``: the first player, else the keeper)."""
        if ref is None:
            return self.file.players[0] if self.file.players else self.file.keeper
        for member in self.members:
            if ref in (member.id, member.name):
                return member
        for member_id, sheet in self.sheets.items():
            if ref == sheet.name:
                return self.member(member_id)
        raise LwError(
            f"no member {ref!r} in room {self.file.id!r}",
            expected="one of: " + ", ".join(m.id for m in self.members),
        )

    def is_keeper(self, member: Member) -> bool:
        return member.id == self.file.keeper.id

    def locale_of(self, member: Member) -> str:
        return member.locale or self.file.locale

    def sheet_of(self, ref: str) -> tuple[str, Sheet]:
        """``(member id, sheet)`` by member id/name or sheet name; :class:`LwError` if none."""
        member = self.member(ref)
        if member.id not in self.sheets:
            raise LwError(f"{ref!r} has no character sheet")
        return member.id, self.sheets[member.id]

    def set_system(self, system: str) -> RuleSystem:
        """Play ``system`` (any word that selects it) from now on: ``room.yaml``'s ``system``
        (marked to be saved), :attr:`pack`, and every sheet bound to the new pack. Refused
        (:class:`LwError`, nothing changed) when the system is not installed or a sheet belongs
        to a system it is not (:meth:`lwcore.rules.system.RuleSystem.is_a`): every sheet is
        bound to the room's system."""
        pack = _pack(self.kernel, system, self.path / ROOM_FILE)
        strangers = sorted(mid for mid, sheet in self.sheets.items() if not pack.is_a(sheet.rule_system.id))
        if strangers:
            raise LwError(f"this room has characters on {self.rule_system.id} ({', '.join(strangers)}), and {pack.id} is not "
                          f"{self.rule_system.id} or a patch of it", code="refused")
        self.sheets = {mid: Sheet(pack, sheet.stored(), name=sheet.name, expressions=sheet.expressions,
                                  state=sheet.state, extra=sheet.extra) for mid, sheet in self.sheets.items()}
        self.rule_system = pack
        self.file.system = pack.id
        self.mark("room")
        return pack

    # -- features --------------------------------------------------------------------------

    def active_features(self) -> list[Feature]:
        """The enabled features whose conditions hold here: not ``adult`` unless the room's
        adult switch is on, not limited to ``systems`` the room does not play."""
        return [
            f for f in self.file.features
            if (self.file.adult or not f.adult) and (not f.systems or any(self.rule_system.is_a(s) for s in f.systems))
        ]

    # -- variables -------------------------------------------------------------------------

    def variable(self, var_id: str) -> VariableDef | None:
        for var in self.variables.variables:
            if var.id == var_id:
                return var
        return None

    # -- history ---------------------------------------------------------------------------

    @property
    def turn_number(self) -> int:
        return self.history.turn_number

    def record(self, entry: HistoryEntry) -> HistoryEntry:
        """Add ``entry`` to the history (appended on :meth:`save`); the entry as it will be
        stored (:func:`lwcore.turn.history.fitted`: a line the log can read back)."""
        return self.history.record(entry)

    def mark(self, *what: str) -> None:
        """Mark parts to write on :meth:`save`: ``variables``, ``room``, ``sheet:<member id>``
        (documents mark themselves through :attr:`documents`)."""
        self._dirty.update(what)

    # -- saving ----------------------------------------------------------------------------

    def save(self, *, fault: FaultHook | None = None) -> list[Path]:
        """Write what changed as one transaction (every file or none, see
        :mod:`lwcore.io.transaction`); new history entries are appended; the undo log gets
        the line that undoes it (:mod:`lwcore.turn.checkpoints`). Every file body is
        built (and encoded) before anything is touched. Returns the files written. With a
        :attr:`deadline` that has passed, :class:`LwError` (code ``deadline``) and nothing is
        written."""
        txn = FolderTransaction(self.path, fault=fault) if fault else FolderTransaction(self.path)
        if "room" in self._dirty:
            self._stage(txn, ROOM_FILE, _dump_model(self.file))
        for member in self.members:
            if f"sheet:{member.id}" in self._dirty and member.sheet and member.id in self.sheets:
                sheet = self.sheets[member.id]
                if member.sheet.lower().endswith(".json"):
                    body = encode_utf8(dump_sheet(sheet, member.sheet), file=self.path / member.sheet)
                    check_writable(sheet_data(sheet), len(body), reader_limits(member.sheet),
                                   file=self.path / member.sheet, what=member.sheet)
                    txn.replace(member.sheet, body)
                else:
                    self._stage(txn, member.sheet, sheet_data(sheet, as_written=self._written(member.sheet)))
        if "variables" in self._dirty:
            data = _dump_model(self.variables)
            data["variables"] = [_dump_var(v) for v in self.variables.variables]
            self._stage(txn, VARIABLES_FILE, data)
        self.documents.stage(txn)
        if self.history.pending:
            lead = b"\n" if unterminated(self.history.path) else b""
            txn.append(HISTORY_FILE, lead + self._history_bytes(self.history.pending))
        if txn.changes:  # the undo log's line for this save (lwcore.turn.checkpoints), in the same transaction
            stage_record(self.path, txn, turn_before=self.history.saved_turn, turn_after=self.turn_number)
        if txn.changes and self.deadline is not None:
            self.deadline.claim()  # past the turn's deadline nothing is written
        written = txn.commit()
        self.history.saved()
        self.documents.saved()
        self._dirty.clear()
        return written

    def _written(self, rel: str) -> dict[str, Any]:
        """The data a YAML file of the room held when it was read (``{}`` when new)."""
        text = self._texts.get(rel, "")
        data = load_yaml(text, self.path / rel) if text.strip() else {}
        return data if isinstance(data, dict) else {}

    def _stage(self, txn: FolderTransaction, rel: str, data: Any) -> None:
        """Stage a YAML file of the room holding ``data``, refused (nothing written) when its
        reader would not take it back."""
        check_writable(data, 0, reader_limits(rel), file=self.path / rel, what=rel)  # its shape, before rendering
        text = update_yaml_text(self._texts.get(rel, ""), data)
        body = encode_utf8(text, file=self.path / rel)
        check_writable(data, len(body), reader_limits(rel), file=self.path / rel, what=rel)
        txn.replace(rel, body)
        self._texts[rel] = text

    def _history_bytes(self, entries: list[HistoryEntry]) -> bytes:
        """The lines appended for ``entries``; each one a line the log's readers take back
        (recorded entries are fitted already: this refuses what was put in another way)."""
        lines = []
        for number, entry in enumerate(entries):
            record = entry_record(entry)
            line = encode_utf8(record_text(record), file=self.path / HISTORY_FILE)
            check_writable(record, len(line), LOG_LINE_LIMITS, file=self.path / HISTORY_FILE,
                           what=f"the history line of new entry {number + 1}")
            lines.append(line + b"\n")
        return b"".join(lines)


def room_folder(path: str | Path) -> Path:
    """The room folder of ``path`` (a folder, or its ``room.yaml``)."""
    path = Path(path)
    return path.parent if path.name == ROOM_FILE and path.is_file() else path


@contextmanager
def shown_to(path: str | Path, member_ref: str | None) -> Iterator[None]:
    """``with shown_to(room, member):`` around loading a room and building output for
    ``member_ref`` (``None``: the first player) from it: an error raised inside that may quote
    keeper-only data (marked ``secret``) is shown whole only to the keeper (recognized from
    ``room.yaml`` alone), to anyone else redacted, and with no server path in it (a file in the
    room by its name there: :func:`lwcore.errors.redacted`). History lines and documents are
    read while the output is built, so the whole of it goes inside, not only :meth:`Room.load`."""
    try:
        yield
    except LwError as exc:
        try:
            keeper = (read_yaml(room_folder(path) / ROOM_FILE) or {}).get("keeper") or {}
        except (LwError, AttributeError):
            keeper = {}
        if member_ref is not None and isinstance(keeper, dict) and member_ref in (keeper.get("id"), keeper.get("name")):
            raise
        raise redacted(exc, room=room_folder(path)) from None


def room_lock(path: str | Path, *, shared: bool = False, timeout: float = 120.0) -> Any:
    """``with room_lock(folder):`` -- hold the room's writer lock for a load-change-save (one
    writer at a time); ``shared=True`` for a read: the room as last committed, whole, without
    waiting for a writer in progress (only for a commit being applied; see
    :mod:`lwcore.io.transaction`). An interrupted save is finished (or dropped) first."""
    folder = room_folder(path)
    if not (folder / ROOM_FILE).is_file():
        raise LwError(f"not a room folder (no {ROOM_FILE})", file=folder)
    return locked(folder, shared=shared, timeout=timeout)


def _pack(kernel: Kernel, system: str, where: Path) -> RuleSystem:
    engine = engine_for(kernel)
    system_id = engine.find(system)
    if system_id is None:
        raise LwError(f"rule system {system!r} is not installed (no rulepack answers to it; a pack's rule "
                      "system comes with lw pack install, lw rulepack list shows those installed)", file=where,
                      expected="one of: " + (", ".join(engine.ids()) or "(no rulepacks installed)"))
    return engine.rule_system(system_id)


def _read_sheet(folder: Path, member: Member, pack: RuleSystem, sheets: dict[str, Sheet], texts: dict[str, str]) -> None:
    """Read ``member``'s sheet (if it has one) into ``sheets``, its text (a YAML sheet's) into ``texts``."""
    if member.sheet:
        sheets[member.id] = _load_sheet(folder / member.sheet, pack, member)
        if not member.sheet.lower().endswith(".json"):
            texts[member.sheet] = read_text(folder / member.sheet)


def _read_variables(folder: Path, texts: dict[str, str]) -> VariablesFile:
    """The room's ``variables.yaml`` (empty when there is none), its text put in ``texts``."""
    path = folder / VARIABLES_FILE
    if not path.is_file():
        return VariablesFile()
    with quoting_keeper_data():
        variables: VariablesFile = _read_model(VariablesFile, path)
    texts[VARIABLES_FILE] = read_text(path)
    seen: set[str] = set()
    for var in variables.variables:
        if var.id in seen:
            raise LwError(f"variable {var.id!r} is declared twice", file=path)
        seen.add(var.id)
    return variables


def _load_sheet(path: Path, pack: RuleSystem, member: Member) -> Sheet:
    """A room's sheet file as the kernel's :class:`Sheet`. ``system`` may be left out (the
    room's is meant); unknown keys (``owner``, ``notes``, the keys a pack's ``sheet.tagline`` names …) are kept."""
    sheet = load_sheet(path, pack)
    if not sheet.name:
        sheet.name = member.name or member.id
    return sheet


def sheet_data(sheet: Sheet, *, as_written: dict[str, Any] | None = None) -> dict[str, Any]:
    """A sheet as the data of its file; empty default fields left out.

    ``as_written`` is what the file held: a value its author wrote stays written (in its place)
    even when it equals what the pack would give, as long as it is still the sheet's value; a
    written value that changed is written with its new value. (The sheet model stores only
    what differs from the pack; the file is the author's.)"""
    data = sheet.to_file().model_dump(mode="json", exclude_defaults=True)
    written = (as_written or {}).get("values")
    if not isinstance(written, dict):
        return data
    stored = data.get("values") or {}
    values: dict[str, Any] = {}
    for name, old in written.items():
        current = stored.get(name, sheet.get(str(name)))
        if current is not None:
            values[name] = current if name in stored or current != old else old
    values.update((k, v) for k, v in stored.items() if k not in values)
    data["values"] = values
    return data


def dump_sheet(sheet: Sheet, rel: str) -> str:
    """A sheet's file text (JSON for ``.json``, else YAML)."""
    data = sheet_data(sheet)
    if rel.lower().endswith(".json"):
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    return dump_yaml(data)


def sheet_values(sheet: Sheet) -> dict[str, Any]:
    """The values a reader of the sheet is shown: the pack's headline stats (``st_show.top``),
    then what the sheet stores, then the values the pack derives -- not every default."""
    values = sheet.values()
    pack = sheet.rule_system
    out: dict[str, Any] = {}
    for name in (*pack.model.st_show.get("top", ()), *sheet.stored(), *pack.model.derived):
        if name in values and name not in out:
            out[name] = values[name]
    return out


def _dump_var(var: VariableDef) -> dict[str, Any]:
    data = var.model_dump(mode="json", exclude_unset=True)
    data["value"] = var.value
    return data


def room_schema_model() -> type[BaseModel]:
    return RoomFile
