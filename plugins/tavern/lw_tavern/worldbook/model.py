"""One model for world-book entries, whichever file they came from.

SillyTavern keeps lore in two shapes: the world-info file (``{"entries": {"<uid>": {...}}}``
with the editor's camelCase names: ``key``, ``keysecondary``, ``order``, ``disable`` …) and a
card's embedded ``character_book`` (the V2 spec's names: ``keys``, ``secondary_keys``,
``insertion_order``, ``enabled``, most settings under ``extensions`` in snake_case). Both map
onto :class:`WorldEntry`, whose field *aliases are the world-info names*, so a world-info entry
validates as is and :data:`CARD_FIELDS` drives the card shape in both directions. Unknown
fields are kept (pydantic ``extra``) and so are unknown card ``extensions`` keys: writing a book
back gives the same file, less nothing.

Types are checked strictly (a ``"5"`` is not a number); ``null`` is accepted wherever
SillyTavern itself writes it and means "use the global setting" or the default.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from enum import IntEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

DEFAULT_DEPTH = 4
DEFAULT_WEIGHT = 100
MAX_SCAN_DEPTH = 1000


class Logic(IntEnum):
    """How secondary keys combine with a primary match (SillyTavern's ``selectiveLogic``)."""

    AND_ANY = 0
    NOT_ALL = 1
    NOT_ANY = 2
    AND_ALL = 3


class Position(IntEnum):
    """Where an activated entry is inserted (SillyTavern's ``position``)."""

    BEFORE_CHAR = 0
    AFTER_CHAR = 1
    AN_TOP = 2
    AN_BOTTOM = 3
    AT_DEPTH = 4
    EM_TOP = 5
    EM_BOTTOM = 6
    OUTLET = 7


class Role(IntEnum):
    """The message role of an at-depth insertion."""

    SYSTEM = 0
    USER = 1
    ASSISTANT = 2


Number = int | float


class CharacterFilter(BaseModel):
    """Limit an entry to (or exclude it from) named characters or tagged characters."""

    model_config = ConfigDict(extra="allow", strict=True)

    is_exclude: bool = Field(False, alias="isExclude")
    names: list[str] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list)


class WorldEntry(BaseModel):
    """One world-book entry. Field aliases are SillyTavern's world-info names.

    ``extensions`` holds card extension keys that have no field here (other tools' data).

    Loreweaver additions (never written into a SillyTavern file unless set): ``id`` (a stable
    entry id, the ``<pack-id>#<entry-id>`` handle), ``condition`` (an ``@@if`` expression over
    the room's variables) and ``secret`` (keeper-only lore).
    """

    model_config = ConfigDict(extra="allow", strict=True, populate_by_name=True)

    uid: int | str = 0
    key: list[str] = Field(default_factory=list)
    keysecondary: list[str] = Field(default_factory=list)
    comment: str = ""
    content: str = ""
    constant: bool = False
    vectorized: bool = False
    selective: bool = True
    selective_logic: Literal[0, 1, 2, 3] = Field(0, alias="selectiveLogic")
    add_memo: bool = Field(False, alias="addMemo")
    order: Number = 100
    position: int = Position.BEFORE_CHAR
    disable: bool = False
    ignore_budget: bool = Field(False, alias="ignoreBudget")
    exclude_recursion: bool = Field(False, alias="excludeRecursion")
    prevent_recursion: bool = Field(False, alias="preventRecursion")
    delay_until_recursion: bool | int = Field(False, alias="delayUntilRecursion")
    probability: Number | None = 100
    use_probability: bool = Field(True, alias="useProbability")
    depth: int | None = DEFAULT_DEPTH
    outlet_name: str = Field("", alias="outletName")
    group: str = ""
    group_override: bool = Field(False, alias="groupOverride")
    group_weight: Number | None = Field(DEFAULT_WEIGHT, alias="groupWeight")
    scan_depth: int | None = Field(None, alias="scanDepth")
    case_sensitive: bool | None = Field(None, alias="caseSensitive")
    match_whole_words: bool | None = Field(None, alias="matchWholeWords")
    use_group_scoring: bool | None = Field(None, alias="useGroupScoring")
    automation_id: str = Field("", alias="automationId")
    role: Literal[0, 1, 2] | None = 0
    sticky: int | None = None
    cooldown: int | None = None
    delay: int | None = None
    display_index: int | None = Field(None, alias="displayIndex")
    triggers: list[str] = Field(default_factory=list)
    character_filter: CharacterFilter | None = Field(None, alias="characterFilter")
    match_persona_description: bool = Field(False, alias="matchPersonaDescription")
    match_character_description: bool = Field(False, alias="matchCharacterDescription")
    match_character_personality: bool = Field(False, alias="matchCharacterPersonality")
    match_character_depth_prompt: bool = Field(False, alias="matchCharacterDepthPrompt")
    match_scenario: bool = Field(False, alias="matchScenario")
    match_creator_notes: bool = Field(False, alias="matchCreatorNotes")
    extensions: dict[str, Any] = Field(default_factory=dict)
    # Loreweaver's own (native card format, trust boundary of imports)
    id: str | None = None
    condition: str = ""
    secret: bool = False

    @field_validator("id", mode="before")
    @classmethod
    def _id_as_text(cls, value: Any) -> Any:
        """An integer ``id`` (world-info exports and card books carry one; SillyTavern ignores
        it) is read as its text."""
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else value

    @property
    def title(self) -> str:
        """What people call the entry: its comment, else its first key, else its uid."""
        return self.comment or (self.key[0] if self.key else f"#{self.uid}")

    @property
    def groups(self) -> tuple[str, ...]:
        """The inclusion groups (a comma-separated list in the file)."""
        return tuple(g for g in re.split(r",\s*", self.group) if g) if self.group else ()

    @property
    def recursion_delay_level(self) -> int:
        """``delayUntilRecursion``: 0 off, ``true`` is level 1, a number is that level."""
        value = self.delay_until_recursion
        if value is True:
            return 1
        if value is False:
            return 0
        return int(value)

    def digest(self) -> str:
        """A short hash of the entry's whole content (timed effects forget an edited entry)."""
        blob = json.dumps(self.model_dump(by_alias=True, mode="json"), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


class WorldSettings(BaseModel):
    """The global activation settings (SillyTavern's "World Info settings" panel).

    ``budget`` is a percentage of ``max_context`` tokens, ``budget_cap`` an absolute cap (0 =
    none). ``max_recursion_steps`` 0 means no limit (and is otherwise incompatible with
    ``min_activations`` in SillyTavern's UI; here both simply apply).
    """

    model_config = ConfigDict(extra="forbid", strict=True)

    depth: int = Field(2, ge=0, le=MAX_SCAN_DEPTH)
    min_activations: int = Field(0, ge=0)
    min_activations_depth_max: int = Field(0, ge=0)
    budget: Number = Field(25, ge=0)
    budget_cap: int = Field(0, ge=0)
    max_context: int = Field(8192, ge=1)
    include_names: bool = True
    recursive: bool = False
    case_sensitive: bool = False
    match_whole_words: bool = False
    use_group_scoring: bool = False
    max_recursion_steps: int = Field(0, ge=0)

    def token_budget(self) -> int:
        """SillyTavern's budget: ``round(budget% × context)`` (at least 1), then the cap."""
        budget = _js_round(self.budget * self.max_context / 100) or 1
        if self.budget_cap > 0 and budget > self.budget_cap:
            budget = self.budget_cap
        return budget


def unique_ids(wanted: Sequence[tuple[str, bool]]) -> list[str]:
    """One id per ``(wanted id, firm)`` pair, unique in the list and deterministic: firm ids
    (an author's) are given first, each to its first asker; then each other wanted id where it
    is free; then whoever is left gets its wanted id with ``~2``, ``~3`` … appended (``~`` is
    never in an author's native id)."""
    out: list[str | None] = [None] * len(wanted)
    taken: set[str] = set()
    for firm_pass in (True, False):
        for index, (want, firm) in enumerate(wanted):
            if out[index] is None and firm is firm_pass and want not in taken:
                out[index] = want
                taken.add(want)
    for index, (want, _) in enumerate(wanted):
        if out[index] is None:
            n = 2
            while f"{want}~{n}" in taken:
                n += 1
            out[index] = f"{want}~{n}"
            taken.add(f"{want}~{n}")
    return [str(i) for i in out]


def _js_round(value: float) -> int:
    """``Math.round``: halves round up (towards +infinity)."""
    import math

    return int(math.floor(value + 0.5))


SourceFormat = Literal["worldinfo", "character_book"]


class WorldBook(BaseModel):
    """A world book: its entries in file order, and what file shape it came from.

    ``extra`` holds the file's other top-level keys (``name``, ``description``,
    ``scan_depth`` … of a card book; ``originalData`` … of a world-info file), written back as
    they were.
    """

    model_config = ConfigDict(strict=True)

    entries: list[WorldEntry] = Field(default_factory=list)
    source: SourceFormat = "worldinfo"
    extra: dict[str, Any] = Field(default_factory=dict)

    @property
    def name(self) -> str:
        value = self.extra.get("name")
        return value if isinstance(value, str) else ""


# --- the card (V2 ``character_book``) shape -----------------------------------------------

CARD_FIELDS: tuple[tuple[str, str], ...] = (
    # (WorldEntry attribute, V2 path); "extensions.x" lives in the entry's extensions
    ("key", "keys"),
    ("keysecondary", "secondary_keys"),
    ("comment", "comment"),
    ("content", "content"),
    ("constant", "constant"),
    ("selective", "selective"),
    ("order", "insertion_order"),
    ("position", "extensions.position"),
    ("exclude_recursion", "extensions.exclude_recursion"),
    ("prevent_recursion", "extensions.prevent_recursion"),
    ("delay_until_recursion", "extensions.delay_until_recursion"),
    ("display_index", "extensions.display_index"),
    ("probability", "extensions.probability"),
    ("use_probability", "extensions.useProbability"),
    ("depth", "extensions.depth"),
    ("selective_logic", "extensions.selectiveLogic"),
    ("outlet_name", "extensions.outlet_name"),
    ("group", "extensions.group"),
    ("group_override", "extensions.group_override"),
    ("group_weight", "extensions.group_weight"),
    ("scan_depth", "extensions.scan_depth"),
    ("case_sensitive", "extensions.case_sensitive"),
    ("match_whole_words", "extensions.match_whole_words"),
    ("use_group_scoring", "extensions.use_group_scoring"),
    ("automation_id", "extensions.automation_id"),
    ("role", "extensions.role"),
    ("vectorized", "extensions.vectorized"),
    ("sticky", "extensions.sticky"),
    ("cooldown", "extensions.cooldown"),
    ("delay", "extensions.delay"),
    ("ignore_budget", "extensions.ignore_budget"),
    ("triggers", "extensions.triggers"),
    ("match_persona_description", "extensions.match_persona_description"),
    ("match_character_description", "extensions.match_character_description"),
    ("match_character_personality", "extensions.match_character_personality"),
    ("match_character_depth_prompt", "extensions.match_character_depth_prompt"),
    ("match_scenario", "extensions.match_scenario"),
    ("match_creator_notes", "extensions.match_creator_notes"),
    ("character_filter", "character_filter"),
    ("id", "extensions.loreweaver_id"),
    ("condition", "extensions.loreweaver_condition"),
    ("secret", "extensions.loreweaver_secret"),
)
"""How each entry field sits in a card's ``character_book`` (SillyTavern's own mapping, plus
Loreweaver's three fields under ``extensions.loreweaver_*``)."""

_CARD_TOP = frozenset(path for _, path in CARD_FIELDS if "." not in path) | {"enabled", "id", "position", "case_sensitive"}
_CARD_EXT = frozenset(path.split(".", 1)[1] for _, path in CARD_FIELDS if path.startswith("extensions."))
_ALIAS = {name: (info.alias or name) for name, info in WorldEntry.model_fields.items()}


def entry_from_card(raw: Mapping[str, Any], index: int) -> dict[str, Any]:
    """A V2 ``character_book`` entry as world-info fields (ready for :class:`WorldEntry`).

    Follows SillyTavern's own conversion: ``uid`` is the entry's ``id`` (else its index),
    ``disable`` is ``not enabled``, ``position`` comes from ``extensions.position`` else from
    ``before_char``/``after_char``, case sensitivity from ``extensions.case_sensitive`` else
    the spec's top-level ``case_sensitive``, ``addMemo`` is whether there is a comment.
    Unknown top-level keys stay as they are, unknown ``extensions`` keys in ``extensions``.
    """
    ext = ext_raw if isinstance(ext_raw := raw.get("extensions"), Mapping) else {}
    out: dict[str, Any] = {k: v for k, v in raw.items() if k not in _CARD_TOP and k != "extensions"}
    out["uid"] = raw["id"] if "id" in raw and raw["id"] is not None else index
    for attr, path in CARD_FIELDS:
        if path.startswith("extensions."):
            name = path.split(".", 1)[1]
            if name in ext:
                out[_ALIAS[attr]] = ext[name]
        elif path in raw:
            out[_ALIAS[attr]] = raw[path]
    if "enabled" in raw:
        enabled = raw["enabled"]
        out["disable"] = (not enabled) if isinstance(enabled, bool) else enabled
    if "position" not in ext and "position" in raw:
        out["position"] = Position.BEFORE_CHAR if raw["position"] == "before_char" else Position.AFTER_CHAR
    if "case_sensitive" not in ext and "case_sensitive" in raw:
        out["caseSensitive"] = raw["case_sensitive"]
    if "selective" not in raw:
        out["selective"] = False  # SillyTavern reads a missing V2 `selective` as false
    out.setdefault("addMemo", bool(raw.get("comment")))
    out["extensions"] = {k: v for k, v in ext.items() if k not in _CARD_EXT}
    return out


def entry_to_card(entry: WorldEntry) -> dict[str, Any]:
    """The entry in a card's ``character_book`` shape (SillyTavern's export, extras kept)."""
    data = entry.model_dump(by_alias=False)
    ext = dict(entry.extensions)
    out: dict[str, Any] = {"id": entry.uid}
    defaults = WorldEntry.model_fields
    for attr, path in CARD_FIELDS:
        value = data[attr]
        if attr in ("id", "condition", "secret") and value == defaults[attr].default:
            ext.pop(path.split(".", 1)[1], None)
            continue
        if isinstance(value, IntEnum):
            value = int(value)
        if path.startswith("extensions."):
            ext[path.split(".", 1)[1]] = value
        elif attr == "character_filter" and value is None:
            continue
        else:
            out[path] = value
    out["enabled"] = not entry.disable
    out["position"] = "before_char" if entry.position == Position.BEFORE_CHAR else "after_char"
    if entry.case_sensitive is not None:
        out["case_sensitive"] = entry.case_sensitive
    out.update(entry.model_extra or {})
    out["extensions"] = ext
    return out


def entry_to_worldinfo(entry: WorldEntry) -> dict[str, Any]:
    """The entry in a world-info file's shape: world-info names, unknown fields kept, card
    extension keys that have a world-info field dropped (they are the field)."""
    out = entry.model_dump(by_alias=True, mode="json", exclude={"extensions", "id", "condition", "secret"})
    for name in ("id", "condition", "secret"):
        value = getattr(entry, name)
        if value != WorldEntry.model_fields[name].default:
            out[name] = value
    ext = {k: v for k, v in entry.extensions.items() if k not in _CARD_EXT}
    if ext:
        out["extensions"] = ext
    return out


def js_key_order(keys: list[str]) -> list[str]:
    """The order JavaScript iterates an object's keys: integer-like keys ascending, then the
    others in insertion order (SillyTavern walks ``entries`` this way)."""
    def is_index(k: str) -> bool:
        return k.isdigit() and (k == "0" or not k.startswith("0")) and int(k) < 2**32 - 1

    return sorted((k for k in keys if is_index(k)), key=int) + [k for k in keys if not is_index(k)]
