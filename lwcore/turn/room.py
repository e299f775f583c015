"""A room on disk: ``room.yaml``, character sheets, declared variables and the turn history.

Layout of a room folder::

    room.yaml          RoomFile: rule system and variant, locale, keeper, players (each with a
                       sheet file), plugin config files by name, enabled features, phase
    sheets/*.yaml      the kernel's character sheet file (lwcore.rules.sheet.SheetFile,
                       ``lw schema sheet``): one each, bound to the room's rulepack
    variables.yaml     {variables: [VariableDef, ...]}: declarations and current values
    history.jsonl      one HistoryEntry (JSON) a line: the turn history

Every model keeps unknown keys and writes them back untouched. Every write is atomic
(:mod:`lwcore.fileio`): a reader sees the old file or the new one, never half of one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from lwcore.errors import LwError
from lwcore.fileio import atomic_write_text
from lwcore.rules.sheet import Sheet, SheetFile
from lwcore.turn.variables import VariableDef

if TYPE_CHECKING:
    from lwcore.kernel import Kernel
    from lwcore.rules.compiled import CompiledPack

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
    """An enabled feature (a skill, a module mechanic ...) and the gated tools it asks for.

    In ``room.yaml`` a feature with no tools may be written as its bare id.
    """

    model_config = ConfigDict(extra="allow")

    id: str = Field(min_length=1)
    tools: list[str] = Field(default_factory=list)


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
    keeper: Member
    players: list[Member] = Field(default_factory=list)
    config: dict[str, str] = Field(
        default_factory=dict,
        description="plugin config files by name, relative to the room folder; handed to "
        "prompt-segment providers as absolute paths in TurnContext.extra['config']",
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


class HistoryEntry(BaseModel):
    """One line of ``history.jsonl``.

    ``role``: ``player`` (what a player said), ``keeper`` (narration), ``event`` (a tool's
    outcome, e.g. a check). ``audience``: ``all`` or ``keeper`` (never shown to players).
    """

    model_config = ConfigDict(extra="allow")

    turn: int = 0
    role: Literal["player", "keeper", "event"]
    actor: str | None = None
    text: str = ""
    audience: Literal["all", "keeper"] = "all"
    data: dict[str, Any] | None = None


# --- reading and writing -----------------------------------------------------------------


def _yaml() -> Any:
    import yaml

    return yaml


def _load_yaml(path: Path) -> Any:
    yaml = _yaml()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LwError("file not found", file=path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise LwError(f"cannot read: {exc}", file=path) from None
    try:
        return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise LwError(
            f"bad YAML: {getattr(exc, 'problem', exc)}",
            file=path,
            line=mark.line + 1 if mark else None,
            column=mark.column + 1 if mark else None,
        ) from None


def _validated(model: type[BaseModel], data: Any, path: Path) -> Any:
    try:
        return model.model_validate(data if data is not None else {})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top)"
        more = f" (+{exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        raise LwError(f"{where}: {first['msg']}{more}", file=path) from None


def dump_yaml(data: Any) -> str:
    yaml = _yaml()
    return yaml.dump(
        data,
        Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper),
        allow_unicode=True,
        sort_keys=False,
        default_flow_style=False,
    )


def _dump_model(model: BaseModel) -> dict[str, Any]:
    return model.model_dump(mode="json", exclude_unset=True)


@dataclass
class Room:
    """A loaded room. Mutate through the turn pipeline's tools, then :meth:`save`."""

    path: Path
    file: RoomFile
    pack: CompiledPack
    """The room's rulepack (``file.system``); every sheet is bound to it."""
    sheets: dict[str, Sheet]
    """Member id -> the kernel's :class:`lwcore.rules.sheet.Sheet` (only values that differ
    from the pack are stored; defaults and derived values come from the pack)."""
    variables: VariablesFile
    history: list[HistoryEntry]
    _dirty: set[str] = field(default_factory=set)
    _history_saved: int = 0

    # -- loading ---------------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | Path, kernel: Kernel | None = None) -> Room:
        """Read a room folder (or its ``room.yaml``); :class:`LwError` with a location if bad.

        The sheets are bound to the room's rulepack, found through ``kernel`` (without one, a
        default :class:`lwcore.kernel.Kernel` is booted); an unknown rule system is an error.
        """
        path = Path(path)
        if path.name == ROOM_FILE and path.is_file():
            path = path.parent
        if not (path / ROOM_FILE).is_file():
            raise LwError(f"not a room folder (no {ROOM_FILE})", file=path)
        room_file: RoomFile = _validated(RoomFile, _load_yaml(path / ROOM_FILE), path / ROOM_FILE)
        ids = [room_file.keeper.id, *(p.id for p in room_file.players)]
        if len(set(ids)) != len(ids):
            raise LwError("member ids must be unique (keeper and players)", file=path / ROOM_FILE)
        pack = _pack(kernel, room_file.system, path / ROOM_FILE)
        sheets: dict[str, Sheet] = {}
        for member in (room_file.keeper, *room_file.players):
            if member.sheet:
                sheets[member.id] = _load_sheet(path / member.sheet, pack, member)
        variables = VariablesFile()
        if (path / VARIABLES_FILE).is_file():
            variables = _validated(VariablesFile, _load_yaml(path / VARIABLES_FILE), path / VARIABLES_FILE)
            seen: set[str] = set()
            for var in variables.variables:
                if var.id in seen:
                    raise LwError(f"variable {var.id!r} is declared twice", file=path / VARIABLES_FILE)
                seen.add(var.id)
        history = _load_history(path / HISTORY_FILE)
        return cls(path, room_file, pack, sheets, variables, history, set(), len(history))

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

    # -- variables -------------------------------------------------------------------------

    def variable(self, var_id: str) -> VariableDef | None:
        for var in self.variables.variables:
            if var.id == var_id:
                return var
        return None

    # -- history ---------------------------------------------------------------------------

    @property
    def turn_number(self) -> int:
        return max((h.turn for h in self.history), default=0)

    def record(self, entry: HistoryEntry) -> None:
        self.history.append(entry)

    def mark(self, *what: str) -> None:
        """Mark parts to write on :meth:`save`: ``variables``, ``room``, ``sheet:<member id>``."""
        self._dirty.update(what)

    # -- saving ----------------------------------------------------------------------------

    def save(self) -> list[Path]:
        """Write what changed (each file atomically); history last. Returns the files written."""
        written: list[Path] = []
        if "room" in self._dirty:
            written.append(self._write(ROOM_FILE, dump_yaml(_dump_model(self.file))))
        for member in self.members:
            if f"sheet:{member.id}" in self._dirty and member.sheet and member.id in self.sheets:
                written.append(self._write(member.sheet, dump_sheet(self.sheets[member.id], member.sheet)))
        if "variables" in self._dirty:
            data = _dump_model(self.variables)
            data["variables"] = [_dump_var(v) for v in self.variables.variables]
            written.append(self._write(VARIABLES_FILE, dump_yaml(data)))
        if len(self.history) != self._history_saved or "history" in self._dirty:
            text = "".join(
                json.dumps(_dump_model(h), ensure_ascii=False, separators=(",", ":")) + "\n"
                for h in self.history
            )
            written.append(self._write(HISTORY_FILE, text))
            self._history_saved = len(self.history)
        self._dirty.clear()
        return written

    def _write(self, rel: str, text: str) -> Path:
        target = self.path / rel
        atomic_write_text(target, text)
        return target


def _pack(kernel: Kernel | None, system: str, where: Path) -> CompiledPack:
    from lwcore.rules import engine_for

    if kernel is None:
        from lwcore.kernel import Kernel

        kernel = Kernel()
    engine = engine_for(kernel)
    system_id = engine.find(system)
    if system_id is None:
        raise LwError(f"rule system {system!r} is not installed (no rulepack answers to it)", file=where,
                      expected="one of: " + (", ".join(engine.ids()) or "(no rulepacks installed)"))
    return engine.pack(system_id)


def _load_sheet(path: Path, pack: CompiledPack, member: Member) -> Sheet:
    """A room's sheet file as the kernel's :class:`Sheet`. ``system`` may be left out (the
    room's is meant); unknown keys (``owner``, ``occupation``, ``notes`` …) are kept."""
    data = _load_yaml(path)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise LwError("a sheet is a mapping (name:, values:, …)", file=path, line=1)
    data.setdefault("system", pack.id)
    model: SheetFile = _validated(SheetFile, data, path)
    if not pack.matches(model.system):
        raise LwError(f"this sheet is for rule system {model.system!r}, the room plays {pack.id!r}", file=path)
    sheet = Sheet.from_file(pack, model)
    if not sheet.name:
        sheet.name = member.name or member.id
    return sheet


def dump_sheet(sheet: Sheet, rel: str) -> str:
    """A sheet's file text (JSON for ``.json``, else YAML); empty default fields left out."""
    data = sheet.to_file().model_dump(mode="json", exclude_defaults=True)
    if rel.lower().endswith(".json"):
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    return dump_yaml(data)


def sheet_values(sheet: Sheet) -> dict[str, Any]:
    """The values a reader of the sheet is shown: the pack's headline stats (``st_show.top``),
    then what the sheet stores, then the values the pack derives -- not every default."""
    values = sheet.values()
    pack = sheet.pack
    out: dict[str, Any] = {}
    for name in (*pack.model.st_show.get("top", ()), *sheet.stored(), *pack.model.derived):
        if name in values and name not in out:
            out[name] = values[name]
    return out


def _dump_var(var: VariableDef) -> dict[str, Any]:
    data = var.model_dump(mode="json", exclude_unset=True)
    data["value"] = var.value
    return data


def _load_history(path: Path) -> list[HistoryEntry]:
    if not path.is_file():
        return []
    entries = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                entries.append(HistoryEntry.model_validate_json(line))
            except ValidationError as exc:
                first = exc.errors()[0]
                raise LwError(f"bad history entry: {first['msg']}", file=path, line=number) from None
    return entries


def room_schema_model() -> type[BaseModel]:
    return RoomFile
