"""The native card format v1: ``*.lorecard.json`` (``format: "loreweaver.card"``).

Field names and meanings follow Loreweaver's own implementation (its ``core/lorecard.py`` and
the studio's export), so a file it writes imports here unchanged: ``opening``,
``alternate_openings``, ``dialogue_examples``, ``author_notes``, typed ``variables``, a
``worldbook`` list whose entries may carry ``id`` (the ``<pack-id>#<entry-id>`` handle),
``condition`` and ``secret``, top-level ``hooks`` and ``pregens``. Unknown fields are kept.

``format_version`` is the schema version. :func:`migrate` upgrades an older document through
the registered steps (:data:`MIGRATIONS`, one per version; v0, the pre-freeze shape, has none
on purpose and is refused), and a newer one is refused.

:func:`to_card` / :func:`from_card` convert to and from a SillyTavern V2 card. A SillyTavern
card goes to the native format and back without losing anything: what the native format has
no field for rides in the entry's and the card's ``extensions`` and in kept extra fields.

Entries need no ``id``. Every entry still gets a distinct uid (:func:`world_entries`: the one a
SillyTavern card gave it, else its position), so an exported card's ``character_book`` entries
have distinct ids (SillyTavern keys them by ``id``) and every entry has a handle
(:meth:`Lorecard.handles`). The handle of an entry without an ``id`` is its position: it stays
the same across re-imports of the same file and moves when entries are reordered.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from lw_tavern.card_split import HOOKS_EXTENSION, card_data, source_ids
from lw_tavern.files import located, read_json_file, validate
from lw_tavern.worldbook.load import book_from_data, book_to_data
from lw_tavern.worldbook.model import CARD_FIELDS, WorldBook, WorldEntry

FORMAT: Final = "loreweaver.card"
CURRENT_VERSION = 1
Migration = Callable[[dict[str, Any]], dict[str, Any]]
MIGRATIONS: dict[int, Migration] = {}
"""``from_version -> step`` turning a document of that version into the next one."""


def migration(from_version: int) -> Callable[[Migration], Migration]:
    """Register the step that upgrades documents of ``from_version`` by one version."""

    def register(step: Migration) -> Migration:
        MIGRATIONS[from_version] = step
        return step

    return register


Logic = Literal["and_any", "and_all", "not_any", "not_all"]
LOGIC_NUMBER = {"and_any": 0, "not_all": 1, "not_any": 2, "and_all": 3}
POSITION_NUMBER = {"before": 0, "after": 1}


class NativeEntry(BaseModel):
    """One lore entry of a native card."""

    model_config = ConfigDict(extra="allow", strict=True)

    id: str | None = Field(None, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
    title: str = ""
    content: str
    keys: list[str] = Field(default_factory=list)
    secondary_keys: list[str] = Field(default_factory=list)
    selective_logic: Logic = "and_any"
    category: str = "lore"
    secret: bool = False
    constant: bool = False
    priority: int = 0
    enabled: bool = True
    condition: str = Field("", max_length=500)
    probability: int = Field(100, ge=0, le=100)
    case_sensitive: bool = False
    match_whole_words: bool = False
    scan_depth: int = Field(0, ge=0, le=1000)
    position: Literal["", "before", "after"] = ""
    sticky: int = Field(0, ge=0)
    cooldown: int = Field(0, ge=0)
    delay: int = Field(0, ge=0)
    extensions: dict[str, Any] = Field(default_factory=dict)


class NativeVariable(BaseModel):
    """A typed variable (a module tracker): kind, visibility, labels, default, bounds."""

    model_config = ConfigDict(extra="allow", strict=True)

    id: str = Field(min_length=1, max_length=64)
    kind: Literal["number", "bool", "text", "enum"]
    visibility: Literal["player", "keeper"] = "player"
    labels: dict[str, str] = Field(default_factory=dict)
    default: Any = None
    minimum: int | float | None = None
    maximum: int | float | None = None
    options: list[str] | None = None


class Pregen(BaseModel):
    """A claimable pre-generated character of a module."""

    model_config = ConfigDict(extra="allow", strict=True)

    name: str = Field(min_length=1, max_length=60)
    concept: str = ""
    blurb: str = ""
    notes: str = ""
    skills: dict[str, int] = Field(default_factory=dict)


class Lorecard(BaseModel):
    """A native card (format v1)."""

    model_config = ConfigDict(extra="allow", strict=True)

    format: Literal["loreweaver.card"] = FORMAT
    format_version: Literal[1] = 1
    name: str = ""
    description: str = ""
    personality: str = ""
    scenario: str = ""
    opening: str = ""
    alternate_openings: list[str] = Field(default_factory=list)
    dialogue_examples: str = ""
    author_notes: str = ""
    tags: list[str] = Field(default_factory=list)
    variables: list[NativeVariable] = Field(default_factory=list, max_length=256)
    worldbook: list[NativeEntry] = Field(default_factory=list, max_length=10_000)
    hooks: list[str | dict[str, Any]] = Field(default_factory=list)
    pregens: list[Pregen] = Field(default_factory=list)
    extensions: dict[str, Any] = Field(default_factory=dict)

    def handles(self, pack_id: str) -> list[str]:
        """Every entry's handle ``<pack-id>#<entry-id>``, in order: the author's ``id``, else one
        made from the entry's uid (:func:`lw_tavern.card_split.source_ids`)."""
        return [f"{pack_id}#{entry_id}" for entry_id in source_ids(world_entries(self.worldbook))]


def migrate(raw: Mapping[str, Any], *, file: Any = None, text: str | None = None,
            steps: Mapping[int, Migration] | None = None, current: int = CURRENT_VERSION) -> dict[str, Any]:
    """``raw`` brought to the ``current`` version through the registered steps.

    Refuses (located) a document that is not a native card, a newer version, and an older one
    with no step for it.
    """
    steps = MIGRATIONS if steps is None else steps
    if raw.get("format") != FORMAT:
        raise located(f"format is {raw.get('format')!r}, not {FORMAT!r}", file=file, text=text, path=("format",),
                      expected=f'"format": "{FORMAT}"')
    version = raw.get("format_version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise located(f"format_version is {version!r}, not a whole number", file=file, text=text,
                      path=("format_version",))
    if version > current:
        raise located(f"format_version {version} is newer than this build reads ({current}); update Loreweaver",
                      file=file, text=text, path=("format_version",), code="version")
    doc = dict(raw)
    while version < current:
        step = steps.get(version)
        if step is None:
            raise located(f"format_version {version} cannot be upgraded (this build reads {current})", file=file,
                          text=text, path=("format_version",), code="version")
        doc = step(doc)
        version += 1
        doc["format_version"] = version
    return doc


def load_lorecard(raw: Any, *, file: Any = None, text: str | None = None) -> Lorecard:
    """A native card from JSON data (migrated, validated, every problem located)."""
    if not isinstance(raw, Mapping):
        raise located("a native card is a JSON object", file=file, text=text, path=())
    doc = migrate(raw, file=file, text=text)
    card = validate(Lorecard, doc, file=file, text=text)
    seen: set[str] = set()
    for i, entry in enumerate(card.worldbook):
        if entry.id and entry.id in seen:
            raise located(f"entry id {entry.id!r} is used twice (ids are handles and must be unique)", file=file,
                          text=text, path=("worldbook", i, "id"))
        if entry.id:
            seen.add(entry.id)
    world_entries(card.worldbook, file=file, text=text)  # what rides in extensions is checked here, located
    return card


def read_lorecard(path: Any) -> Lorecard:
    """A ``*.lorecard.json`` file."""
    data, text = read_json_file(path)
    return load_lorecard(data, file=path, text=text)


def sniff(data: Mapping[str, Any]) -> bool:
    """Whether parsed JSON is a native card."""
    return isinstance(data, Mapping) and data.get("format") == FORMAT


# --- to and from SillyTavern ---------------------------------------------------------------------

_TEXT = (("name", "name"), ("description", "description"), ("personality", "personality"),
         ("scenario", "scenario"), ("opening", "first_mes"), ("dialogue_examples", "mes_example"),
         ("author_notes", "creator_notes"))
_NATIVE_ENTRY_ATTRS = {"key", "keysecondary", "comment", "content", "constant", "selective_logic", "order", "disable",
                       "probability", "case_sensitive", "match_whole_words", "scan_depth", "position", "sticky",
                       "cooldown", "delay", "id", "condition", "secret"}
_ST_ONLY = [(attr, path.split(".", 1)[1] if path.startswith("extensions.") else path)
            for attr, path in CARD_FIELDS if attr not in _NATIVE_ENTRY_ATTRS]


_NONE_IF_ZERO = (lambda v: v or 0, lambda n: n or None)
_BOOL = (lambda v: bool(v), lambda n: n)
_SAME = (lambda v: v, lambda n: n)
EXACT: tuple[tuple[str, str, tuple[Callable[[Any], Any], Callable[[Any], Any]]], ...] = (
    # (world-info name, native field, (to native, back from native)); a value that does not come
    # back the same rides in the native entry's extensions as "st_<name>"
    ("caseSensitive", "case_sensitive", _BOOL),
    ("matchWholeWords", "match_whole_words", _BOOL),
    ("scanDepth", "scan_depth", _NONE_IF_ZERO),
    ("sticky", "sticky", _NONE_IF_ZERO),
    ("cooldown", "cooldown", _NONE_IF_ZERO),
    ("delay", "delay", _NONE_IF_ZERO),
    ("probability", "probability", (lambda v: int(v) if isinstance(v, (int, float)) and float(v).is_integer()
                                    and 0 <= v <= 100 else 100, _SAME[1])),
    ("order", "priority", (lambda v: int(v) if float(v).is_integer() else 0, _SAME[1])),
    ("position", "position", (lambda v: {0: "before", 1: "after"}.get(v, "after"),
                              lambda n: POSITION_NUMBER.get(n, 1))),
)


_ALIAS = {name: (info.alias or name) for name, info in WorldEntry.model_fields.items()}
_FROM_EXTENSIONS: dict[str, tuple[str, ...]] = {
    "uid": ("extensions", "uid"),
    **{wi: ("extensions", f"st_{wi}") for wi, _, _ in EXACT},
    **{_ALIAS[attr]: ("extensions", key) for attr, key in _ST_ONLY},
}


def _same(a: Any, b: Any) -> bool:
    return a == b and type(a) is type(b)


def world_entries(entries: Sequence[NativeEntry], *, file: Any = None, text: str | None = None) -> list[WorldEntry]:
    """The native entries as world-book entries (what they have no field for from their
    ``extensions``), each with a distinct uid: the one it carries (``extensions.uid``, from a
    SillyTavern card; kept as it is), else its position in the list, else -- when another entry
    carries that number -- the lowest number past every carried one that is still free. Numbers
    compare as text, as SillyTavern's keys do. A value in ``extensions`` that does not fit its
    field is a located :class:`LwError`."""
    carried = [str(e.extensions["uid"]) for e in entries if isinstance(e.extensions.get("uid"), (int, str))]
    taken = set(carried)
    past = max((int(u) for u in carried if u.isdigit()), default=-1) + 1
    out = []
    for index, entry in enumerate(entries):
        uid: Any = None
        if "uid" not in entry.extensions:
            uid = index
            if str(uid) in taken:
                while str(past) in taken:
                    past += 1
                uid = past
            taken.add(str(uid))
        out.append(validate(WorldEntry, _world_data(entry, uid), file=file, text=text, at=("worldbook", index),
                            rename=_native_location))
    return out


def _native_location(loc: tuple[Any, ...]) -> tuple[Any, ...]:
    """A world-entry field in a pydantic location -> where a native entry keeps it (only the
    fields read from ``extensions`` can be wrong: the native ones were validated already)."""
    return (*_FROM_EXTENSIONS.get(loc[0], (loc[0],)), *loc[1:]) if loc else loc


def _world_data(entry: NativeEntry, uid: Any) -> dict[str, Any]:
    """A native entry as world-info data; ``uid`` unless it carries one in ``extensions``."""
    ext = dict(entry.extensions)
    data: dict[str, Any] = {
        "uid": ext.pop("uid", uid), "key": entry.keys, "keysecondary": entry.secondary_keys, "comment": entry.title,
        "content": entry.content, "constant": entry.constant, "selectiveLogic": LOGIC_NUMBER[entry.selective_logic],
        "disable": not entry.enabled, "id": entry.id, "condition": entry.condition, "secret": entry.secret,
    }
    for wi, native, (_, back) in EXACT:
        marker = f"st_{wi}"
        data[wi] = ext.pop(marker) if marker in ext else back(getattr(entry, native))
    for attr, key in _ST_ONLY:
        if key in ext:
            data[_ALIAS[attr]] = ext.pop(key)
    extra = dict(entry.model_extra or {})
    if entry.category != "lore":
        extra["category"] = entry.category
    for key in [k for k in ext if k.startswith("st_extra_")]:
        extra[key[len("st_extra_"):]] = ext.pop(key)
    return {**extra, **data, "extensions": ext}


def entry_from_world(entry: WorldEntry) -> NativeEntry:
    """A world-book entry as a native entry; whatever the native fields cannot hold exactly
    goes to ``extensions``, so that :func:`world_entries` gives the same entry back."""
    ext: dict[str, Any] = dict(entry.extensions)
    ext["uid"] = entry.uid
    for attr, key in _ST_ONLY:
        value = getattr(entry, attr)
        if value != WorldEntry.model_fields[attr].default:
            ext[key] = value.model_dump(by_alias=True) if isinstance(value, BaseModel) else value
    native_values: dict[str, Any] = {}
    wi_values = entry.model_dump(by_alias=True)
    for wi, native, (to, back) in EXACT:
        value = wi_values[wi]
        native_values[native] = to(value)
        if not _same(back(native_values[native]), value):
            ext[f"st_{wi}"] = value
    extra = dict(entry.model_extra or {})
    category = extra.pop("category", "lore")
    for key in [k for k in extra if k in NativeEntry.model_fields]:
        ext[f"st_extra_{key}"] = extra.pop(key)  # a card field whose name a native field has
    return NativeEntry.model_validate({
        **extra, **native_values,
        "id": entry.id, "title": entry.comment, "content": entry.content, "keys": entry.key,
        "secondary_keys": entry.keysecondary,
        "selective_logic": {v: k for k, v in LOGIC_NUMBER.items()}[entry.selective_logic],
        "category": category, "secret": entry.secret, "constant": entry.constant,
        "enabled": not entry.disable, "condition": entry.condition, "extensions": ext,
    })


def from_card(card: Mapping[str, Any], *, file: Any = None, text: str | None = None) -> Lorecard:
    """A SillyTavern card (V1/V2/V3 raw dict) as a native card; nothing is lost.

    The card's fields are checked on the way (a located error for a book entry or a text
    field of the wrong type)."""
    if not isinstance(card, Mapping):
        raise located("a card is a JSON object", file=file, text=text, path=())
    data = card_data(card)
    at = ("data",) if data is not card and "data" in card else ()
    for name in [st for _, st in _TEXT] + ["alternate_greetings", "tags", "extensions"]:
        value = data.get(name)
        wanted = {"alternate_greetings": list, "tags": list, "extensions": dict}.get(name, str)
        if value is not None and not isinstance(value, wanted):
            raise located(f"{name} is a {type(value).__name__}, not a {wanted.__name__}", file=file, text=text,
                          path=(*at, name))
    out: dict[str, Any] = {"format": FORMAT, "format_version": CURRENT_VERSION}
    for native, st in _TEXT:
        if st in data:
            out[native] = data[st]
    out["alternate_openings"] = list(data.get("alternate_greetings") or [])
    out["tags"] = list(data.get("tags") or [])
    ext = dict(data.get("extensions") or {})
    hooks = ext.pop(HOOKS_EXTENSION, None)
    if isinstance(hooks, list):
        out["hooks"] = hooks
    variables = ext.pop("loreweaver_variables", None)
    if isinstance(variables, list):
        out["variables"] = variables
    out["extensions"] = ext
    st_names = {st for _, st in _TEXT} | {"alternate_greetings", "tags", "extensions", "character_book"}
    rest = {k: v for k, v in data.items() if k not in st_names}
    book = data.get("character_book")
    if isinstance(book, Mapping):
        wb = book_from_data(card if at else book, file=file, text=text)
        out["worldbook"] = [entry_from_world(e).model_dump(exclude_defaults=False) for e in wb.entries]
        rest["character_book"] = dict(wb.extra)
    envelope = {k: v for k, v in card.items() if k != "data"} if "data" in card else {}
    if envelope:
        rest["card"] = envelope
    out["sillytavern"] = rest
    return validate(Lorecard, out, file=file)


def to_card(card: Lorecard) -> dict[str, Any]:
    """A native card as a SillyTavern V2 card (what it came from, if it came from one)."""
    extra = dict(card.model_extra or {})
    rest = dict(extra.pop("sillytavern", {}) or {})
    envelope = rest.pop("card", {"spec": "chara_card_v2", "spec_version": "2.0"})
    book_extra = rest.pop("character_book", None)
    data: dict[str, Any] = {st: getattr(card, native) for native, st in _TEXT}
    data["alternate_greetings"] = list(card.alternate_openings)
    data["tags"] = list(card.tags)
    ext = dict(card.extensions)
    if card.hooks:
        ext[HOOKS_EXTENSION] = card.hooks
    if card.variables:
        ext["loreweaver_variables"] = [v.model_dump(exclude_none=True) for v in card.variables]
    data["extensions"] = ext
    data.update(rest)
    if card.worldbook or book_extra is not None:
        book = WorldBook(entries=world_entries(card.worldbook), source="character_book",
                         extra=book_extra or {})
        data["character_book"] = book_to_data(book)
    return {**envelope, "data": data}
