"""The typed things a plugin contributes through the hooks.

Every class here is a plain, frozen dataclass so that importing this module (and writing a
plugin's registration hook) costs nothing: no pydantic, no YAML. Heavy objects a contribution
needs -- a pydantic argument model, a handler that imports a big library -- may be given as a
lazy reference ``"package.module:attribute"`` and are imported on first use through
:func:`resolve`.

The kernel checks every contribution's type when it is registered; a wrong type is dropped
and recorded against the plugin that made it (see ``lwcore.plugins``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, TypeVar, dataclass_transform

from lwcore.i18n import negotiate

if TYPE_CHECKING:
    import random

    from lwcore.deadline import Deadline
    from lwcore.provider_adapter import ProviderAdapterProtocol
    from lwcore.room_protocol import TurnRoom
    from lwcore.sandbox.budget import Budget

_C = TypeVar("_C", bound=type)


def _repr(self: Any) -> str:
    return f"{type(self).__qualname__}({', '.join(f'{f.name}={getattr(self, f.name)!r}' for f in fields(self) if f.repr)})"


def _compared(self: Any) -> tuple[Any, ...]:
    return tuple(getattr(self, f.name) for f in fields(self) if f.compare)


def _eq(self: Any, other: Any) -> Any:
    return _compared(self) == _compared(other) if other.__class__ is self.__class__ else NotImplemented


def _hash(self: Any) -> int:
    return hash(tuple(getattr(self, f.name) for f in fields(self) if (f.compare if f.hash is None else f.hash)))


@dataclass_transform(frozen_default=True)
def contribution(cls: _C) -> _C:
    """``@dataclass(frozen=True)`` for the contribution types, behaving the same (repr, ``==``,
    hash, immutability) with one shared ``__repr__``/``__eq__``/``__hash__`` instead of three
    generated and compiled per class: this module is imported by every ``lw`` command that
    lists or loads plugins, and half its import time was that compiling (``bench/boot.py``)."""
    made: Any = dataclass(frozen=True, eq=False, repr=False)(cls)
    made.__repr__ = _repr
    made.__eq__ = _eq
    made.__hash__ = _hash
    return cls  # the same class object, decorated in place


T = TypeVar("T")
T_contra = TypeVar("T_contra", contravariant=True)

LazyRef = str
"""``"package.module:attribute"``: imported on first use by :func:`resolve`."""


def resolve(value: Any) -> Any:
    """Return ``value``, importing it first when it is a ``"module:attribute"`` string.

    Raises ``ImportError``/``AttributeError`` (the caller records them against the plugin)
    when the reference does not resolve.
    """
    if not isinstance(value, str):
        return value
    module_name, sep, attribute = value.partition(":")
    if not sep or not module_name or not attribute:
        raise ImportError(f"lazy reference {value!r} is not of the form 'package.module:attribute'")
    target: Any = importlib.import_module(module_name)
    for part in attribute.split("."):
        target = getattr(target, part)
    return target


class Register(Protocol[T_contra]):
    """The callback a registration hook receives: ``register(contribution)``.

    It never raises into the plugin: a contribution of the wrong type is dropped and the
    reason recorded against the plugin, while its other contributions stay.
    """

    def __call__(self, item: T_contra, /) -> None: ...


# --- rulepack loader ----------------------------------------------------------------------


@contribution
class RulepackSource:
    """A rulepack offered by a plugin: a YAML file (``path``) or a parsed mapping (``data``).

    ``id`` defaults to the file stem for a path; a mapping must name it. Exactly one of
    ``path`` and ``data`` is given.
    """

    path: Path | None = None
    data: Mapping[str, Any] | None = None
    id: str | None = None

    def __post_init__(self) -> None:
        if (self.path is None) == (self.data is None):
            raise ValueError("RulepackSource takes exactly one of path= and data=")
        if self.data is not None and not self.id:
            raise ValueError("RulepackSource(data=...) needs id=")

    @property
    def key(self) -> str:
        """The system id this source defines."""
        if self.id:
            return self.id
        assert self.path is not None
        return Path(self.path).stem


@contribution
class Computer:
    """A named derived-stat computer (``derived: {X: {computer: NAME}}`` in a rulepack).

    ``function(values)`` receives the sheet's current values (canonical name -> value) and
    returns the derived value. It must be deterministic and must not do IO.
    """

    name: str
    function: Callable[[Mapping[str, Any]], Any] | LazyRef
    description: str = ""


# --- tool registry ------------------------------------------------------------------------


@contribution
class ToolSpec:
    """A model-facing tool.

    - ``description``: locale -> text; ``en`` is required, others (``zh``…) optional.
    - ``args_model``: a pydantic ``BaseModel`` subclass (or a lazy reference to one); the
      arguments of every call are validated against it before ``handler`` runs.
    - ``handler(args, ctx)``: receives the validated model instance and a host-supplied
      context, returns a JSON-serialisable result.
    - ``gated``: invisible unless a feature enabled in the room asks for the tool.
    - ``keeper_only``: never offered on a player's behalf.
    - ``phase``: the one phase the tool exists in (e.g. ``"prep"``), or ``None`` for all.
    """

    name: str
    description: Mapping[str, str]
    args_model: Any
    handler: Callable[..., Any] | LazyRef
    gated: bool = False
    keeper_only: bool = False
    phase: str | None = None

    def describe(self, locale: str) -> str:
        """The description in ``locale``, falling back to its language, then to English."""
        return localized(self.description, locale)


# --- prompt-segment provider --------------------------------------------------------------


@contribution
class TurnContext:
    """What a plugin knows about the turn being assembled: the argument of
    ``lw_prompt_segments``, ``lw_turn_scripts`` and ``lw_reply_text``.

    A turn builds it once (:func:`lwcore.turn.context.turn_context`) and hands the same object
    to every hook of the turn. A host asking outside a turn fills what it knows; every field is
    optional.

    - ``locale``: the acting member's locale; ``viewer``: their member id; ``actor_name``:
      their display name (else their id); ``keeper``: whether they keep the room.
    - ``player_input``: what the acting member says this turn.
    - ``model``/``tier``: the model the request names and its tier, when known.
    - ``cwd``: the room folder; ``room``: the loaded room (:class:`lwcore.room_protocol.TurnRoom`:
      what a plugin may use of it; narrow with ``isinstance(turn.room, Room)`` for the rest);
      ``config``: the room's plugin config files (``room.yaml`` ``config:``), name -> absolute
      path.
    - ``rng``: the turn's random source (draw from it for anything random in the prompt, so a
      seeded turn is reproducible); ``budget``: the turn's sandbox CPU budget (the sandbox
      charges it by itself); ``deadline``: the turn's deadline (:mod:`lwcore.deadline`).
    - ``staged``: writes made only if the turn is applied (:class:`StagedWrites`; ``None``
      outside a turn).
    - ``injected``: what the turn's hook scripts added to the prompt (``inject``), filled when
      ``turn_start`` fires.
    - ``extra``: host- and plugin-specific values by name (``story_root``,
      ...); the kernel puts none of its own inputs here.
    """

    locale: str = "en"
    model: str | None = None
    tier: str | None = None
    cwd: Path | None = None
    viewer: str | None = None
    room: TurnRoom | None = None
    player_input: str = ""
    actor_name: str = ""
    keeper: bool = False
    config: Mapping[str, str] = field(default_factory=dict)
    rng: random.Random | None = None
    budget: Budget | None = None
    deadline: Deadline | None = None
    staged: StagedWrites | None = None
    injected: list[str] = field(default_factory=list)
    extra: Mapping[str, Any] = field(default_factory=dict)


@contribution
class PromptSegment:
    """A named piece of prompt text for one turn.

    ``slot`` names where it goes (``system``, ``author``, ``context``, ``state``, ``suffix`` …
    the pipeline decides what each slot means); inside a slot, segments sort by ``order`` then
    ``name``. ``depth`` (when not ``None``) places the segment inside the turn's recent history
    instead, that many entries before its newest end (0: after the newest entry); its slot is
    then not used. Without ``role`` it is text among the history's lines; with ``role``
    (``system``, ``user`` or ``assistant``) it is a message of its own with that role at that
    place, the history around it split into the messages before and after (what the provider
    protocol has no role for inside a conversation -- a system message on some -- its compiler
    sends as a user message). An empty ``text`` means "not injected" and is dropped by the kernel.

    ``entries`` (a tuple, possibly empty) makes the segment a listing (the kernel's recent
    history): its lines, oldest first, under ``text`` as their heading (shown only above
    lines). The segments with a ``depth`` are placed among the entries of the last listing of
    slot ``history``; ``depth`` counts its entries.
    """

    name: str
    text: str
    slot: str = "system"
    order: int = 0
    depth: int | None = None
    role: Literal["system", "user", "assistant"] | None = None
    entries: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if self.role is not None and self.depth is None:
            raise ValueError(f"segment {self.name!r}: a role places a segment at a depth; give its depth")


# --- importer -----------------------------------------------------------------------------


@contribution
class Dropped:
    """One thing an import did not carry over, and why."""

    field: str
    reason: str


@contribution
class ImportReport:
    """An itemized account of an import: what was carried, dropped, and any warnings."""

    carried: tuple[str, ...] = ()
    dropped: tuple[Dropped, ...] = ()
    warnings: tuple[str, ...] = ()


@contribution
class ImportResult(Generic[T]):
    """The typed result of an import (``kind`` names its type) plus its report."""

    kind: str
    value: T
    report: ImportReport = ImportReport()


@contribution
class Importer:
    """Turns foreign bytes into a typed result.

    - ``sniff(data, name) -> float``: confidence in [0, 1] that this importer reads the file;
      must be cheap and must not raise on any input (a raise counts as 0 and is recorded).
    - ``load(data, name) -> ImportResult``: the import itself; raises ``lwcore.errors.LwError``
      (or a subclass) with a located message for bad input.
    """

    id: str
    sniff: Callable[[bytes, str], float] | LazyRef
    load: Callable[[bytes, str], ImportResult[Any]] | LazyRef
    description: Mapping[str, str] = field(default_factory=dict)
    extensions: tuple[str, ...] = ()


# --- panel renderer -----------------------------------------------------------------------


@contribution
class Viewer:
    """Who a panel is rendered for: an id, a locale, and whether they are the keeper."""

    id: str
    locale: str = "en"
    keeper: bool = False


@contribution
class PanelRenderer:
    """Renders one declared panel kind for one viewer in one output format.

    ``render(panel, viewer, fmt) -> str`` where ``fmt`` is one of ``formats``. The kernel
    always has a plain-text fallback, so a renderer need not offer ``"text"``.
    """

    kind: str
    formats: tuple[str, ...]
    render: Callable[[Mapping[str, Any], Viewer, str], str] | LazyRef


# --- stage director (M19) -----------------------------------------------------------------


@contribution
class StageBeat:
    """A moment a stage director may answer: ``kind`` (``scene``, ``act``, ``artifact``,
    ``extreme_roll``, ``turn`` …), the room and turn it happened in, the room's presentation
    kit as data (``kit``: what the enabled packs allow -- ``generation``, ``templates``,
    ``style``, ``subjects``, ``audio``), and ``facts``: only what every player at the table may
    already know (their shared view of the story and variables). A beat never carries
    keeper-only data: a director stages, it does not narrate or decide."""

    kind: str
    room: str
    turn: int
    kit: Mapping[str, Any]
    facts: Mapping[str, Any] = field(default_factory=dict)
    locale: str = "en"


@contribution
class ProviderPreset:
    """A provider profile offered by a plugin (:func:`lwcore.hookspecs.lw_provider_presets`):
    ``name`` (what a room's ``profile:`` says) and the profile file at ``path``."""

    name: str
    path: Path
    description: Mapping[str, str] = field(default_factory=dict)


@contribution
class StageDirector:
    """A host's stage director: ``direct(beat) -> list of performance blocks`` (mappings with
    a ``kind`` the beat's kit allows: ``title_card``, ``letter``, ``clipping``, ``image``,
    ``text``, ``map_pin``; an ``audio`` cue by id; ``prepare``: a subject it expects to need
    soon, for warm-up, never shown). Whatever it returns is checked against the kit by the
    plugin that shows it (a subject without a reference image is never generated; a kit with
    ``generation: pack_only`` allows only the pack's own pictures)."""

    id: str
    direct: Callable[[StageBeat], Any] | LazyRef
    description: Mapping[str, str] = field(default_factory=dict)


# --- prompt compiler ----------------------------------------------------------------------


@contribution
class PromptCompiler:
    """Compiles logical messages into one provider protocol's payload.

    ``protocol`` is the provider protocol name (e.g. ``"chat_completions"``); ``compile`` is
    the compiler's entry point, whose exact signature the contributing plugin documents.
    """

    protocol: str
    compile: Callable[..., Any] | LazyRef
    description: Mapping[str, str] = field(default_factory=dict)


# --- provider adapters --------------------------------------------------------------------


@contribution
class ProviderAdapter:
    """Speaks one provider protocol for the turn pipeline (offering tools, reading a reply's
    tool calls, writing tool results back, and optionally sending a payload over HTTP).

    ``adapter`` is an object (or lazy reference to one) implementing
    :class:`lwcore.provider_adapter.ProviderAdapterProtocol` (an adapter class is made once per
    lookup); ``protocol`` is the provider protocol name it serves.
    """

    protocol: str
    adapter: ProviderAdapterProtocol | type[ProviderAdapterProtocol] | LazyRef
    description: Mapping[str, str] = field(default_factory=dict)


# --- schemas ------------------------------------------------------------------------------


@contribution
class SchemaRef:
    """A file format with a published JSON Schema: ``lw schema NAME`` prints it.

    ``model`` is a pydantic model class (or lazy reference to one).
    """

    name: str
    model: Any
    description: str = ""


# --- room commands --------------------------------------------------------------------------

COMMAND_RUNNERS = ("keeper", "player", "anyone")
"""Who may run a room command: the room's keeper, its players, or any member."""


@contribution
class RoomCommand:
    """A command a member types in a room (``.var list``, ``.pc claim 3``, ``.skill enable x``).

    - ``name``: the word after the dot (``var``); ASCII letters, digits, ``-`` and ``_``.
    - ``handler(ctx)``: receives the turn's command context (``ctx.room``, ``ctx.actor``,
      ``ctx.keeper``, ``ctx.args`` -- the text after the word --, ``ctx.rng``, ``ctx.locale``);
      returns a :class:`CommandReply` or a plain string (shown to the member who typed it). It
      names the room parts it changed with ``ctx.room.mark(...)``; the kernel saves them.
      Raise :class:`lwcore.errors.LwError` for a bad argument: the member sees the message.
    - ``who``: ``keeper`` | ``player`` | ``anyone`` -- **enforced by the kernel** before the
      handler runs; a plugin never checks it itself.
    - ``who_by_word``: who may run the command when the first word of its arguments is one of
      these (``{"enable": "keeper", "disable": "keeper"}`` on a command anyone may list with);
      other arguments fall back to ``who``. Enforced by the kernel the same way.
    - ``model_may_call``: whether the model may ever run it. The kernel offers the model no
      command path at all, so this stays ``False``; it is declared so that a trust card can
      show it.
    - ``fallback``: asked with the whole line when no command claims the typed word (a rule
      system's dot commands: ``.ra 侦查``); the handler returns ``None`` to decline.
    """

    name: str
    handler: Callable[..., Any] | LazyRef
    who: str = "keeper"
    description: Mapping[str, str] = field(default_factory=dict)
    usage: str = ""
    model_may_call: bool = False
    fallback: bool = False
    who_by_word: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        import re

        for who in (self.who, *self.who_by_word.values()):
            if who not in COMMAND_RUNNERS:
                raise ValueError(f"RoomCommand {self.name!r}: who={who!r}, expected one of {COMMAND_RUNNERS}")
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]{0,31}", self.name):
            raise ValueError(f"RoomCommand name {self.name!r} is not a command word")
        if self.model_may_call:
            raise ValueError(f"RoomCommand {self.name!r}: the model may never call a room command")

    def describe(self, locale: str) -> str:
        return localized(self.description, locale) if self.description else ""

    def who_for(self, args: str) -> str:
        """Who may run the command with these arguments (see ``who_by_word``)."""
        words = args.split(maxsplit=1)
        return self.who_by_word.get(words[0].lower(), self.who) if words else self.who


@contribution
class CommandReply:
    """What a room command answers.

    ``text`` is shown to the member who typed it; ``audience`` says who else sees it and
    whether it joins the room's history: ``actor`` (only the typer, not recorded), ``all``
    (every member, recorded), ``keeper`` (the keeper, recorded keeper-only). ``data`` is
    kept with a recorded line (a structured result, e.g. a check). ``said`` is the catalogued
    message ``text`` is (:meth:`lwcore.i18n.Said.to_json`): kept with a recorded line, so every
    member reads it in their own language.
    """

    text: str
    audience: str = "actor"
    data: Mapping[str, Any] | None = None
    said: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        if self.audience not in ("actor", "all", "keeper"):
            raise ValueError(f"CommandReply audience {self.audience!r}, expected actor, all or keeper")


# --- hook scripts --------------------------------------------------------------------------


@contribution
class HookScript:
    """A ``hooks.js`` that runs in one room's turn, in the kernel's JS sandbox (a skill's
    hooks beside its ``SKILL.md``, a world card's ``loreweaver_hooks``).

    ``id`` names it within its plugin (``skill:romance``); ``origin`` says where it came from
    for the keeper's log (``skills/romance/hooks.js``). The script only *asks* for effects;
    the engine checks, clamps and applies them (see ``lwcore/sandbox/README.md``).
    """

    id: str
    source: str
    origin: str = ""


# --- reply text --------------------------------------------------------------------------------


@contribution
class TreeChange:
    """One change a writer asks for on a room's variable tree (:mod:`lwcore.turn.tree`), for
    the kernel to check, make and record (iron rule 1: the writer only asks).

    ``apply(tree) -> tree`` is the change itself: a pure function from the tree before to the
    tree after, which never changes its argument (copy what it changes) and raises
    :class:`lwcore.turn.tree.TreeError` to refuse. A plugin brings its format's semantics this
    way (a card format's update operations, say); the kernel's own are :func:`lwcore.turn.tree.put`,
    ``replace``, ``remove`` and ``add``. ``op`` names it and ``path`` is where it writes (both
    for the record), ``reason`` says why (for the keeper), ``shows`` the path whose value the
    record shows afterwards (default ``path``; a move's destination)."""

    op: str
    path: str
    apply: Callable[[dict[str, Any]], dict[str, Any]]
    reason: str = ""
    shows: str | None = None


@contribution
class VariableWrite:
    """A script's ``setvar``/``incvar`` (a hook's, a template's), for the engine to make
    (:mod:`lwcore.turn.script_writes`): ``op`` is ``setvar`` (``value`` the new value) or
    ``incvar`` (``value`` the number to add), ``path`` the keys from the state's root, ``where``
    the script (``lore/hooks.js``, a template's entry) and ``line`` the line in it that asked,
    when known: together they locate a refusal for the keeper."""

    op: Literal["setvar", "incvar"]
    path: tuple[str, ...]
    value: Any = None
    where: str = ""
    line: int | None = None


@contribution
class ReplyEdit:
    """What a reply processor (``lw_reply_text``) makes of the model's reply text.

    - ``narration``: the text as players will read it (e.g. with a protocol's update blocks
      removed);
    - ``tree_changes``: changes of the room's variable tree the text asked for
      (:class:`TreeChange`); the kernel checks, makes and records them (iron rule 1: the
      processor only reads, code writes);
    - ``notes``: lines for the keeper (problems found in the text), recorded keeper-only.
    """

    narration: str
    tree_changes: tuple[TreeChange, ...] = ()
    notes: tuple[str, ...] = ()


# --- room documents (M17) ---------------------------------------------------------------------


@contribution
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


@dataclass
class StagedWrites:
    """Writes a plugin asks for while a turn compiles, made only if the turn is applied
    (:mod:`lwcore.turn.staged` makes them): room documents to store, variable-tree changes and
    scripts' variable writes, in that order (each kind in the order staged). ``by`` names the
    writer in the events the writes become."""

    documents: list[tuple[str, Document]] = field(default_factory=list)
    tree_changes: list[tuple[str, TreeChange]] = field(default_factory=list)
    variable_writes: list[tuple[str, VariableWrite]] = field(default_factory=list)

    def document(self, doc: Document, *, by: str) -> None:
        """Store ``doc`` (through its type's write check) if the turn is applied."""
        self.documents.append((by, doc))

    def tree(self, changes: Iterable[TreeChange], *, by: str) -> None:
        """Make ``changes`` on the room's variable tree if the turn is applied."""
        self.tree_changes += [(by, change) for change in changes]

    def variables(self, writes: Iterable[VariableWrite], *, by: str) -> None:
        """Make a script's ``writes`` if the turn is applied, as a hook's are made."""
        self.variable_writes += [(by, write) for write in writes]

    def clear(self) -> None:
        """Forget every staged write (they were made, or the turn is dropped)."""
        self.documents.clear()
        self.tree_changes.clear()
        self.variable_writes.clear()


@contribution
class DocumentType:
    """A kind of room content and its projection contract (the single exit for iron rule 3).

    - ``project(doc, viewer, room) -> dict | None``: what ``viewer`` (a :class:`Viewer`) may
      see of the document; ``None`` means the document is invisible to them. Every player
      view, panel datum, ``--json`` output and per-viewer prompt part is built from this.
    - ``validate_write(doc, room) -> list[str]``: the violations that refuse a write (empty:
      the write is fine).
    - ``schema_version``: the version of ``doc.data``'s shape; ``migrations`` maps an older
      version to a function lifting ``data`` one version up (newer versions are refused).
    - ``storage``: ``yaml`` (one hand-editable file ``docs/<name>.yaml`` in the room, id ->
      record) or ``log`` (append-only ``docs/<name>.jsonl``; a record written again with the
      same id supersedes the older one), or ``derived`` (built by the kernel from the room's
      own files: sheets, variables, history).
    """

    name: str
    project: Callable[..., Mapping[str, Any] | None] | LazyRef
    validate_write: Callable[..., Sequence[str]] | LazyRef | None = None
    schema_version: int = 1
    storage: str = "yaml"
    migrations: Mapping[int, Callable[[dict[str, Any]], dict[str, Any]]] = field(default_factory=dict)
    description: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        import re

        if not re.fullmatch(r"[a-z][a-z0-9_]{0,47}", self.name):
            raise ValueError(f"DocumentType name {self.name!r}: lowercase letters, digits and _")
        if self.storage not in ("yaml", "log", "derived"):
            raise ValueError(f"DocumentType {self.name!r}: storage {self.storage!r}, expected yaml, log or derived")
        if self.schema_version < 1:
            raise ValueError(f"DocumentType {self.name!r}: schema_version must be 1 or more")


# --- .lwpack content validators ----------------------------------------------------------------


class PackFiles(Protocol):
    """A read-only view of one pack's files: a source folder at build time, the verified archive
    at verify and install time. Paths are pack-relative POSIX paths (``rules/blackmoor.yaml``).

    Every read is bounded and confined to the pack; a missing file, a folder, a symlink or a
    file over ``max_bytes`` is a located :class:`lwcore.errors.LwError` naming :meth:`display`.
    """

    def read_bytes(self, path: str, *, max_bytes: int = ...) -> bytes: ...

    def read_text(self, path: str, *, max_bytes: int = ...) -> str:
        """UTF-8 text (a byte-order mark dropped); bad bytes are located by line and column."""
        ...

    def is_file(self, path: str) -> bool: ...

    def files_under(self, folder: str) -> tuple[str, ...]:
        """Every file below ``folder`` (recursively), sorted; hidden names (``.x``) left out."""
        ...

    def display(self, path: str) -> str:
        """How ``path`` is named in error messages (``SRC/rules/x.yaml``, ``x.lwpack!/rules/x.yaml``)."""
        ...


@contribution
class PackItem:
    """One declared item of a pack's ``contents.<kind>`` list, handed to that kind's validator.

    - ``path``: the declared pack-relative path (a file; a folder for folder-shaped content
      such as a skill).
    - ``options``: what the author wrote beside ``path`` (e.g. ``notes``), as written.
    - ``siblings``: every declared path of the same kind, this one included, in manifest order
      (a rulepack's ``extends:`` resolves against them before the host's packs).
    - ``files``: the pack's files (:class:`PackFiles`).
    - ``pack_id``: the pack's id (stable content handles are ``<pack-id>#<entry-id>``).
    - ``kernel``: the host kernel (its registries, its rules engine), or ``None``.
    """

    kind: str
    path: str
    options: Mapping[str, Any]
    siblings: tuple[str, ...]
    files: Any
    pack_id: str
    kernel: Any = None


@contribution
class ContentReport:
    """What a validator found in one :class:`PackItem` (it raises a located ``LwError`` /
    ``LwErrors`` instead when the item is bad).

    - ``id``: the content id the item installs under (a rule system id, a skill id, a preset id).
    - ``files``: further pack files the item needs (a rulepack's scripts, a skill folder's
      files, a panel's images): they join the archive and its inventory. Pack-relative.
    - ``lands``: pack path -> destination inside the validator's ``lands_in`` folder, for the
      files that must land in a discovery folder (``rules/x.yaml`` -> ``x.yaml``). Everything
      else stays in the pack's home ``<data_dir>/packs/<id>@<version>/``.
    - ``detected``: facts found in the real payload (a card's ``kind``: ``world`` or
      ``character``, its format …), stamped into the built manifest and compared again at
      verify, so a manifest cannot call a file something it is not. JSON scalars only.
    - ``handles``: the stable content ids the item defines (``lighthouse-keeper``); the pack
      refuses two items defining the same one (``<pack-id>#<entry-id>`` must be unique).
    - trust facts: ``hooks`` (sandboxed hooks JS), ``ejs`` (EJS templates), ``rules_script``
      (a rules script decides checks), ``world`` (a world card: module machinery the keeper
      imports), ``panels`` (panels declared), ``subjects`` (presentation subjects),
      ``imagegen`` (may spend the operator's image-generation budget).
    - ``warnings``: odd but acceptable things the author should hear about at build time.
    """

    id: str | None = None
    files: tuple[str, ...] = ()
    lands: Mapping[str, str] = field(default_factory=dict)
    detected: Mapping[str, Any] = field(default_factory=dict)
    handles: tuple[str, ...] = ()
    hooks: bool = False
    ejs: bool = False
    rules_script: bool = False
    world: bool = False
    panels: int = 0
    subjects: int = 0
    imagegen: bool = False
    warnings: tuple[str, ...] = ()


@contribution
class PackValidator:
    """How one kind of ``.lwpack`` content (``contents.<kind>`` in ``pack.yaml``) is checked,
    and where it lands. The same code checks a pack at build, verify and install time, so a
    pack is judged by the parser that will run it.

    - ``kind``: the ``contents`` key (``rulepacks``, ``skills``, ``cards`` …); lower-case.
    - ``validate(item) -> ContentReport``: parse the item with the real parser; raise a located
      :class:`lwcore.errors.LwError` (or ``LwErrors`` for several problems) when it is bad.
    - ``lands_in``: the data-dir folder its discovery reads (``rulepacks``, ``skills``), or
      ``None`` when the content stays in the pack's home. Installed is not enabled: landing
      makes content discoverable; rooms still opt in.
    - ``enable(ctx) -> str | None``: what the in-room ``.pack install`` switches on in that
      room for this kind (``ctx`` is a ``lwcore.pack.room.RoomEnable``); returns a receipt
      line, or ``None`` when it did nothing. Leave it ``None`` for kinds a room never
      switches on by itself. The kernel's ``rulepacks`` kind runs first (it decides the room's
      rule system); the others follow by kind name, seeing the room as the earlier ones left it.
    """

    kind: str
    validate: Callable[[PackItem], ContentReport] | LazyRef
    lands_in: str | None = None
    enable: Callable[..., Any] | LazyRef | None = None
    description: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        import re

        if not re.fullmatch(r"[a-z][a-z0-9_]{0,31}", self.kind):
            raise ValueError(f"PackValidator kind {self.kind!r}: lowercase letters, digits and _")
        if self.lands_in is not None and not re.fullmatch(r"[a-z][a-z0-9_-]{0,31}", self.lands_in):
            raise ValueError(f"PackValidator {self.kind!r}: lands_in {self.lands_in!r} is not a folder name")


# --- cli ------------------------------------------------------------------------------------


@contribution
class CommandRef:
    """An ``lw`` subcommand given by reference: ``command`` is a ``click.Command`` or a lazy
    reference to one, imported only when the command runs (or its help is shown)."""

    name: str
    command: Any
    help: str = ""


@contribution
class SubsystemKindRef:
    """A subsystem kind given by reference (``lw_subsystem_kinds``): ``kind`` is a
    ``SubsystemKind`` instance or a lazy reference to one (``"package.module:KIND"``), imported
    when a rules engine first needs its kinds. ``name`` must be the kind's own name (a kind
    whose name differs is left out and reported)."""

    name: str
    kind: Any


# --- checking contributions -------------------------------------------------------------


def field_problems(item: Any) -> list[str]:
    """What is wrong with the fields of a contribution (a dataclass of this module).

    Checked at registration, so that a plugin's ``PromptSegment(order="zzz")`` is dropped and
    recorded against it instead of breaking a sort in every turn. Checks each field against
    its annotation: ``str``, ``int`` (not ``bool``), ``bool``, ``float``, ``Path``, ``None``
    unions, ``Literal`` choices, ``tuple[str, ...]``, ``Mapping[str, str]``, and callables or
    lazy references. A protocol (``TurnRoom``, ``ProviderAdapterProtocol``) passes anything: it
    is the type checker's to check, and typing a field that was ``Any`` changes nothing at run
    time (the API's stability promise).
    """
    checks = _CHECKS.get(type(item))
    if checks is None:
        import dataclasses
        import typing

        if not dataclasses.is_dataclass(item):
            return []
        try:
            hints = typing.get_type_hints(type(item))
        except NameError:  # a type only the type checker imports (a later layer's, or costly)
            hints = typing.get_type_hints(type(item), localns=_annotation_names())
        checks = _CHECKS[type(item)] = [
            (f.name, _checker(hints[f.name]), _describe(hints[f.name])) for f in dataclasses.fields(item) if f.name in hints
        ]
    problems = []
    for name, check, described in checks:
        value = getattr(item, name)
        if not check(value):
            problems.append(f"{name}={value!r:.60} is not {described}")
    return problems


_CHECKS: dict[type, list[tuple[str, Callable[[Any], bool], str]]] = {}
"""Contribution class -> (field, its check, what it expects): built once per class, so checking
the ~150 contributions of ``lw plugins list`` costs little."""


def _annotation_names() -> dict[str, Any]:
    """The protocols the annotations of checked contributions name that this module imports
    only for the type checker, each read as ``Any``: a protocol passes anything at run time
    (:func:`field_problems`), and importing ``ProviderAdapter.adapter``'s would cost every
    ``lw plugins list`` its module's dataclasses (a few milliseconds)."""
    return {"TurnRoom": Any, "ProviderAdapterProtocol": Any}


def _checker(expected: Any) -> Callable[[Any], bool]:
    """A function telling whether a value matches the annotation ``expected`` (see
    :func:`field_problems`); anything it cannot check passes."""
    import collections.abc
    import types
    import typing

    origin = typing.get_origin(expected)
    args = typing.get_args(expected)
    if expected is Any or isinstance(expected, TypeVar) or getattr(expected, "_is_protocol", False):
        return lambda value: True
    if origin in (typing.Union, types.UnionType):
        options = [_checker(a) for a in args]
        return lambda value: any(check(value) for check in options)
    if origin is typing.Literal:
        return lambda value: any(value == a and type(value) is type(a) for a in args)
    if expected is type(None):
        return lambda value: value is None
    if expected is int:
        return lambda value: isinstance(value, int) and not isinstance(value, bool)
    if expected is float:
        return lambda value: isinstance(value, (int, float)) and not isinstance(value, bool)
    if origin is tuple:
        if args and args[-1] is Ellipsis:
            item = _checker(args[0])
            return lambda value: isinstance(value, tuple) and all(item(v) for v in value)
        return lambda value: isinstance(value, tuple)
    if origin in (collections.abc.Mapping, dict):
        if args:
            key, val = _checker(args[0]), _checker(args[1])
            return lambda value: isinstance(value, Mapping) and all(key(k) and val(v) for k, v in value.items())
        return lambda value: isinstance(value, Mapping)
    if origin is collections.abc.Callable:
        return callable
    if origin is not None:
        return lambda value: isinstance(value, origin)
    if isinstance(expected, type):
        return lambda value: isinstance(value, expected)
    return lambda value: True


def _describe(expected: Any) -> str:
    return str(expected).replace("typing.", "").replace("collections.abc.", "")


def localized(texts: Mapping[str, str], locale: str) -> str:
    """Pick from a locale map (``{en: …, zh: …}``, data written by an author) the entry
    serving ``locale``: its own tag, then each shorter one down to the language (``zh`` for
    ``zh-CN``), then ``en`` (:func:`lwcore.i18n.negotiate`), else the map's first entry."""
    key = negotiate(locale, texts, "en")
    return texts[key] if key in texts else next(iter(texts.values()), "")


__all__: Sequence[str] = (
    "ContentReport",
    "Document",
    "DocumentType",
    "HookScript",
    "PackFiles",
    "PackItem",
    "PackValidator",
    "CommandReply",
    "CommandRef",
    "RoomCommand",
    "ReplyEdit",
    "TreeChange",
    "Computer",
    "Dropped",
    "ImportReport",
    "ImportResult",
    "Importer",
    "LazyRef",
    "PanelRenderer",
    "PromptCompiler",
    "PromptSegment",
    "ProviderAdapter",
    "Register",
    "RulepackSource",
    "SchemaRef",
    "StageBeat",
    "StageDirector",
    "StagedWrites",
    "SubsystemKindRef",
    "ToolSpec",
    "TurnContext",
    "Viewer",
    "localized",
    "resolve",
)
