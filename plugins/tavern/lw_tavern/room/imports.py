"""Importing a card into a room: ``pc``, ``companion`` (anyone) or ``world`` (the keeper only).

Every import is split (:func:`lw_tavern.card_split.split_card`) and passes the trust boundary
(:func:`lw_tavern.card_split.import_entries`: scope fixed to the room, ``constant`` kept on the
keeper's world import and off on a person's,
``secret`` kept only for the keeper's world import, entry ids regenerated). Then:

- ``pc`` (for one member): the person half becomes that member's character -- the sheet's name
  and ``notes`` (the card's description and personality; the sheet's values stay the room's
  rules' business) -- and the card's plain lore, the character's: keyed (never constant),
  inert, replaced with the character, and said once (an entry saying what another entry of the
  book says is left out: :func:`lw_tavern.room.book.room_book`). One per member.
- ``companion``: a companion the keeper plays (``companion`` document: name, description,
  personality, scenario, greeting, examples) and its plain lore.
- ``world``: the whole book with the keeper's trust (``secret`` honoured), the card's texts
  its entries' ``match*`` flags scan (description, personality, scenario, creator notes, depth
  prompt: :mod:`lw_tavern.room.scan_texts`; kept in the keeper-only pack document), the ``[InitVar]``
  declarations seeded into the room's MVU tree (a value already there stays: progress is never
  reset; imported leaves stay hidden from players until ``.var expose``), a native card's typed
  variables declared (kept if already declared), the hook scripts installed for the room, the
  person half and a native card's ``pregens`` in the pregen roster, and -- when variables were
  seeded -- the room feature ``tavern-mvu`` that offers the ``set_stat``/``adjust_stat``/
  ``get_stat`` tools.

An import is one document set keyed ``world:<pack>``, ``companion:<pack>`` or ``pc:<member>``;
importing again **replaces** that set (entries, hooks, the pristine pregen sheets -- claims
stay), it never stacks. Everything is read, split and checked before the room is touched: a
refused import changes nothing. Entry documents carry ``meta.source = <pack-id>#<entry-id>``
(the author's id, else the entry's uid; unique in the book: :func:`lw_tavern.card_split.source_ids`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lw_tavern.card_split import HOOKS_EXTENSION, PERSON_TEXT_FIELDS, SECRET_KEPT, import_entries, split_card
from lw_tavern.cardfile import Material, book_of, read_material
from lw_tavern.files import located
from lw_tavern.ejs.lite import strip_templates
from lw_tavern.ejs.macros import MacroContext, substitute
from lw_tavern.messages import MESSAGES
from lw_tavern.mvu.initvar import correctly_merge, seed
from lw_tavern.mvu.magvar import declared_schema
from lw_tavern.mvu.values import Reader, reading
from lw_tavern.room.documents import COMPANION, ENTRY, PACK, PREGEN, SCHEMA, SCHEMA_ID
from lw_tavern.room.scan_texts import CARD_TEXTS, card_texts
from lw_tavern.worldbook.load import book_from_data
from lw_tavern.worldbook.model import WorldBook, WorldEntry, entry_to_worldinfo

from lwcore.api import (
    Document,
    Dropped,
    Feature,
    HistoryEntry,
    ImportReport,
    LwError,
    Member,
    Room,
    Sheet,
    VariableDef,
    VariableError,
    check_value,
    confine,
    installed_path,
    sandbox,
    tree as var_tree,
)

KINDS = ("pc", "companion", "world")
MAX_HOOKS = 16
MAX_HOOK_CHARS = 40_000
MAX_PREGENS = 32
MVU_FEATURE = "tavern-mvu"
MVU_TOOLS = ("set_stat", "adjust_stat", "get_stat")
SECRET_REASON = "keeper-only lore"
PERSON_FIELDS = {
    "pc": ("name", "description", "personality"),
    "companion": ("name", "description", "personality", "scenario", "first_mes", "mes_example"),
    "world": ("name", "description", "personality"),
}
"""The card's text a person import keeps (a pc's sheet: the name, and the description and
personality as its notes; a companion document: all six), and what a world import makes of
the card's person (a pregen of the roster)."""
_USES = {"pc": "the member's sheet takes the name, description and personality",
         "companion": "the companion keeps the name, description, personality, scenario, greeting and examples",
         "world": "the roster's pregen takes the name, description and personality; entries' match flags "
                  "scan the description, personality, scenario, creator notes and depth prompt"}
_SCRIPTS_REASON = "SillyTavern script items: not run in a room"
SCAN_WORDS = {"character_description": "description", "character_personality": "personality",
              "character_depth_prompt": "depth prompt", "scenario": "scenario", "creator_notes": "creator notes"}


@dataclass(frozen=True)
class Source:
    """Where an import reads from: the file, the pack id it imports as, and how to name it."""
    path: Path
    pack_id: str
    shown: str


def pack_id_of(name: str) -> str:
    """A pack id from a file name: the stem without ``.lorecard``/``.card``/``.world``, made
    safe (letters, digits, ``_``, ``.``, ``-``)."""
    stem = Path(name).name
    for suffix in (".json", ".png", ".charx", ".lorecard", ".card", ".world"):
        if stem.lower().endswith(suffix):
            stem = stem[: -len(suffix)]
    clean = re.sub(r"[^\w.-]+", "-", stem, flags=re.UNICODE).strip(".-")
    return clean[:64] or "card"


def resolve_source(kernel: Any, room: Room, ref: str) -> Source:
    """``ref`` as a file: ``<pack-id>/<path>`` inside the active version of an installed
    ``.lwpack`` with that id, or inside a plugin (a data plugin's folder) with that id; else a
    path inside the room folder. Either way it may not leave its folder."""
    head, sep, rest = ref.strip().partition("/")
    source = None
    if sep and rest and (packed := installed_path(kernel, ref.strip())) is not None:
        source = Source(packed, head, ref.strip())
    elif sep and rest:
        for record in kernel.plugins:
            if record.id == head and record.usable and record.location is not None:
                source = Source(confine(record.location, rest, what=f"file of pack {head!r}"), head, ref.strip())
                break
    if source is None:
        source = Source(confine(room.path, ref.strip(), what="card file"), pack_id_of(ref), ref.strip())
    if not source.path.is_file():
        raise LwError(f"no file {source.shown!r}", expected="a file in the room folder, or <pack-id>/<path> in an "
                      "installed pack", code="not_found")
    return source


@dataclass
class ImportPlan:
    """Everything an import will write, computed before the room is touched."""
    kind: str
    key: str
    pack_id: str
    name: str
    shown: str
    member: str | None = None
    entries: list[Document] = field(default_factory=list)
    hooks: list[str] = field(default_factory=list)
    seed: list[dict[str, Any]] = field(default_factory=list)
    variables: list[Any] = field(default_factory=list)
    pregens: list[dict[str, Any]] = field(default_factory=list)
    person: dict[str, Any] = field(default_factory=dict)
    scan: dict[str, str] = field(default_factory=dict)
    """A world card's texts entries with ``match*`` flags scan, by scan name."""
    story: dict[str, Any] = field(default_factory=dict)
    """A world card's story texts: ``first_mes`` and ``alternate_greetings`` (the room's opening and
    the keeper's alternatives), ``system_prompt`` and ``post_history_instructions`` (prompt text)."""
    report: ImportReport = ImportReport()
    changed: list[Dropped] = field(default_factory=list)
    """What the trust boundary changed in the entries kept (constant off, render entries
    disabled, secrets kept keeper-only, ids regenerated …)."""


def import_key(kind: str, pack_id: str, member: str | None) -> str:
    return f"pc:{member}" if kind == "pc" else f"{kind}:{pack_id}"


def plan_import(room: Room | None, material: Material, source: Source, kind: str, *,
                member: Member | None = None) -> ImportPlan:
    """What importing ``material`` as ``kind`` would write (see the module docstring): the
    documents, and the report of what is kept, stripped and changed.

    A ``world`` plan keeps secret entries and world machinery: call it only for the keeper.
    ``room=None`` plans a preview (``lw tavern inspect``): nothing is checked against a room
    (its rules for the pregens, the member a pc import is for).
    """
    if kind not in KINDS:
        raise LwError(f"unknown import kind {kind!r}", expected=" | ".join(KINDS))
    if kind == "pc" and member is None and room is not None:
        raise LwError("a pc import needs the member it is for")
    if material.book_only and kind != "world":
        raise LwError("a world book on its own has no person to import", file=source.path,
                      expected=f"{source.shown} world")
    book_of(material, source.path)  # every entry checked, its problems located in the file
    split = split_card(material.card)
    person = split.person
    name = str(person.get("name") or "")
    key = import_key(kind, source.pack_id, member.id if member else None)
    plan = ImportPlan(kind, key, source.pack_id, name, source.shown, member.id if member else None)
    keeper = kind == "world"
    if keeper:
        book = split.world.book
        plan.hooks = _hooks(split.world.hooks, source, material)
        carried = [f"the world of {name or source.shown}"]
        dropped = [Dropped(f"extensions.{k}", _SCRIPTS_REASON) for k in split.world.extensions if k != HOOKS_EXTENSION]
    else:
        if not name:
            raise LwError("the card has no name: nothing to import as a person", file=source.path,
                          expected='"name" in the card')
        raw = person.get("character_book")
        book = book_from_data(raw) if isinstance(raw, Mapping) else None
        plan.person = {k: person[k] for k in PERSON_FIELDS[kind] if isinstance(person.get(k), str) and person[k].strip()}
        plan.person = {k: _names_bound(v, name, kind) if k != "name" else v for k, v in plan.person.items()}
        carried = list(plan.person)
        dropped = list(split.report.dropped)
    if keeper:
        plan.scan = card_texts(person)
        plan.story = story_texts(material.card)
    scanned = {field for name, (field, *_) in CARD_TEXTS if name in plan.scan}
    unused = [k for k in (*PERSON_TEXT_FIELDS, "alternate_greetings")
              if k not in PERSON_FIELDS[kind] and k not in scanned and k not in plan.story
              and _has_text(person.get(k))]
    if unused:
        dropped.append(Dropped(", ".join(unused), f"not used by a {kind} import ({_USES[kind]})"))
    warnings: list[str] = list(material.warnings)
    if book is not None:
        imported = _entries(book, plan, keeper=keeper, char_name=name or None, file=source.path)
        plan.entries = imported.docs
        plan.seed = imported.declarations
        plan.changed = imported.changed
        carried.append(f"{len(plan.entries)} world-book entries")
        dropped += imported.dropped
    if keeper:
        plan.variables = _variables(material, source)
        plan.seed = _unshadowed(room, plan.seed, plan.variables, warnings)
        plan.pregens = _pregens(room, material, person, source, warnings)
        if plan.scan:
            carried.append("the card's " + ", ".join(SCAN_WORDS[k] for k in plan.scan)
                           + ", for the entries that match their keys there")
        if plan.story.get("first_mes"):
            alternates = len(plan.story.get("alternate_greetings") or [])
            carried.append("the card's greeting (first_mes), which opens the room's story when nothing was said yet"
                           + (f"; {alternates} alternate greeting(s) offered to the keeper (.lore greeting)"
                              if alternates else ""))
        elif plan.story.get("alternate_greetings"):
            carried.append(f"{len(plan.story['alternate_greetings'])} alternate greeting(s) offered to the keeper "
                           "(.lore greeting)")
        for field_name, what in (("system_prompt", "the card's system prompt, in the keeper's instructions"),
                                 ("post_history_instructions",
                                  "the card's post-history instructions, after the recent history")):
            if plan.story.get(field_name):
                carried.append(what)
        if plan.hooks:
            carried.append(f"{len(plan.hooks)} hook script(s)")
        if plan.seed:
            carried.append(f"{len(plan.seed)} variable declaration(s) seeded into the room's tree")
        if plan.variables:
            carried.append(f"{len(plan.variables)} module variable(s)")
        if plan.pregens:
            carried.append(f"{len(plan.pregens)} pre-generated character(s) for the roster")
    plan.report = ImportReport(carried=tuple(carried), dropped=tuple(dropped), warnings=tuple(warnings))
    return plan


STORY_FIELDS = ("first_mes", "system_prompt", "post_history_instructions")


def story_texts(card: Mapping[str, Any]) -> dict[str, Any]:
    """A card's story texts (V1 names read too); ``alternate_greetings`` as a list (a text is one)."""
    data = data_raw if isinstance(data_raw := card.get("data"), Mapping) else card
    out: dict[str, Any] = {}
    for name in STORY_FIELDS:
        value = value_raw if isinstance(value_raw := data.get(name), str) else None
        if name == "first_mes" and value is None and isinstance(card.get("char_greeting"), str):
            value = card["char_greeting"]
        if value and value.strip():
            out[name] = value
    alternates = data.get("alternate_greetings")
    if isinstance(alternates, str):
        alternates = [alternates]
    if isinstance(alternates, list):
        kept = [a for a in alternates if isinstance(a, str) and a.strip()]
        if kept:
            out["alternate_greetings"] = kept
    return out


def opening_text(room: Room, plan_name: str, text: str) -> str:
    """A greeting as the room's opening reads it: ``{{char}}`` the card's name, ``{{user}}`` the
    players' characters (their names, or "you"), templates left out (no template runs here)."""
    players = [m for m in room.members if not room.is_keeper(m)]
    names = [(room.sheets[m.id].name if m.id in room.sheets and room.sheets[m.id].name else m.name or m.id)
             for m in players]
    user = names[0] if len(names) == 1 else ("、".join(names) if names else "you")
    body, _ = strip_templates(text)
    return substitute(body, MacroContext(user=user, char=plan_name, inert=True)).strip()


def open_story(room: Room, plan: Any, text: str, index: int) -> None:
    """Record ``text`` as the story's opening (a keeper line every member reads)."""
    room.record(HistoryEntry(turn=0, role="keeper", text=opening_text(room, plan.name, text),
                             data={"kind": "opening", "pack": plan.key, "greeting": index}))


def _names_bound(text: str, name: str, kind: str) -> str:
    """A person's text with its name macros read (inert: no other macro runs): ``{{char}}`` (and
    ``<BOT>``/``<CHAR>``) is the card's name; in a pc's own card ``{{user}}`` (``<USER>``) is that
    character too. A companion's ``{{user}}`` is read when it is placed (the acting member)."""
    return substitute(text, MacroContext(user=name if kind == "pc" else None, char=name, inert=True))


def _has_text(value: Any) -> bool:
    if isinstance(value, list):
        return any(_has_text(v) for v in value)
    return isinstance(value, str) and bool(value.strip())


@dataclass
class _Imported:
    docs: list[Document]
    declarations: list[dict[str, Any]]
    dropped: list[Dropped]
    changed: list[Dropped]


def _entries(book: WorldBook, plan: ImportPlan, *, keeper: bool, char_name: str | None, file: Path) -> _Imported:
    try:
        imported = import_entries(book, pack_id=plan.key, keeper=keeper, char_name=char_name)
    except LwError as exc:
        if exc.file is not None:
            raise
        inside = f" (line {exc.line}, column {exc.column} of its text)" if exc.line is not None else ""
        raise LwError(exc.message + inside, file=file, code=exc.code, expected=exc.expected) from None
    docs = []
    for entry, source in zip(imported.book.entries, imported.sources, strict=True):
        docs.append(Document(str(entry.id), ENTRY, {"pack": plan.key, "entry": stored_entry(entry)},
                             meta={"source": f"{plan.pack_id}#{source}"}))
    return _Imported(docs, imported.declarations, list(imported.report.dropped), list(imported.changed))


def stored_entry(entry: WorldEntry) -> dict[str, Any]:
    """An entry as a room keeps it: world-info names, defaults left out (the file stays
    readable), ``secret`` always written (a projection treats a missing one as secret)."""
    full = entry_to_worldinfo(entry)
    defaults = entry_to_worldinfo(WorldEntry())
    out = {k: v for k, v in full.items() if k not in defaults or defaults[k] != v or k in ("uid", "key", "content")}
    out.pop("id", None)
    out["secret"] = entry.secret
    return out


def _hooks(raw: list[Any], source: Source, material: Material) -> list[str]:
    """The card's hook scripts as text; anything else is refused, located."""
    where = ("hooks",) if material.native is not None else ("data", "extensions", HOOKS_EXTENSION)
    if len(raw) > MAX_HOOKS:
        raise located(f"{len(raw)} hook scripts; a room runs at most {MAX_HOOKS}", file=source.path,
                      text=material.text, path=where, code="limit")
    scripts = []
    for i, item in enumerate(raw):
        script = item.get("source", item.get("code")) if isinstance(item, Mapping) else item
        if not isinstance(script, str) or not script.strip():
            raise located("a hook is a script (text, or an object with source)", file=source.path, text=material.text,
                          path=(*where, i))
        if len(script) > MAX_HOOK_CHARS:
            raise located(f"the script is longer than {MAX_HOOK_CHARS:,} characters", file=source.path,
                          text=material.text, path=(*where, i), code="limit")
        scripts.append(script)
    return scripts


def _variables(material: Material, source: Source) -> list[Any]:
    """A native card's typed variables as the room declares them (default as the value)."""
    from pydantic import ValidationError

    out = []
    for i, var in enumerate(getattr(material.native, "variables", None) or ()):
        data = {"id": var.id, "kind": var.kind, "visibility": var.visibility, "labels": dict(var.labels),
                "minimum": var.minimum, "maximum": var.maximum, **({"options": var.options} if var.options else {})}
        try:
            declared = VariableDef.model_validate(data)
            if var.default is not None:
                declared.value, _ = check_value(declared, var.default)
        except ValidationError as exc:
            why = "; ".join(e["msg"] for e in exc.errors(include_url=False))
            raise located(f"variable {var.id!r}: {why}", file=source.path, text=material.text,
                          path=("variables", i)) from None
        except VariableError as exc:
            raise located(f"variable {var.id!r}: default: {exc}", file=source.path, text=material.text,
                          path=("variables", i, "default")) from None
        out.append(declared)
    return out


def _unshadowed(room: Room | None, seeds: list[dict[str, Any]], variables: list[Any],
                warnings: list[str]) -> list[dict[str, Any]]:
    """The ``[InitVar]`` declarations without the top-level names that are the room's declared
    module variables (or the card's own typed ones): the tree never shadows a declared id
    (:func:`lwcore.turn.tree.apply_changes` refuses the same for every later write)."""
    declared = {var.id for var in variables} | ({var.id for var in room.variables.variables} if room else set())
    out = []
    for seed in seeds:
        clash = sorted(k for k in seed if k in declared)
        if clash:
            warnings.append(f"[InitVar] {', '.join(clash)}: declared variable(s) of the room, not seeded into its tree")
        out.append({k: v for k, v in seed.items() if k not in declared})
    return out


def _pregens(room: Room | None, material: Material, person: Mapping[str, Any], source: Source,
             warnings: list[str]) -> list[dict[str, Any]]:
    """The roster a world import brings: a native card's ``pregens``, and the card's person."""
    found: list[dict[str, Any]] = []
    for pregen in getattr(material.native, "pregens", None) or ():
        notes = "\n\n".join(t for t in (pregen.concept, pregen.notes) if t)
        found.append({"name": pregen.name, "concept": pregen.concept, "blurb": pregen.blurb,
                      "sheet": {"name": pregen.name, "values": dict(pregen.skills), **({"notes": notes} if notes else {})}})
    name = str(person.get("name") or "").strip()
    if name and not any(p["name"] == name for p in found):
        # the roster's texts are the character's own: its name macros read as a pc import reads
        # them (whoever claims it plays it), never left raw for the table to see
        notes = "\n\n".join(_names_bound(str(person[k]).strip(), name, "pc") for k in ("description", "personality")
                            if isinstance(person.get(k), str) and person[k].strip())
        blurb = _names_bound(str(person.get("description") or "").strip().split("\n")[0], name, "pc")[:200]
        found.append({"name": name, "concept": "", "blurb": blurb,
                      "sheet": {"name": name, "values": {}, **({"notes": notes} if notes else {})}})
    if len(found) > MAX_PREGENS:
        warnings.append(f"{len(found)} pre-generated characters; the roster keeps the first {MAX_PREGENS}")
        found = found[:MAX_PREGENS]
    for pregen in found:
        unknown = [] if room is None else [k for k in pregen["sheet"]["values"] if room.rule_system.canonical(k) is None]
        if unknown and room is not None:
            warnings.append(f"pregen {pregen['name']}: {', '.join(unknown)} are not stats of {room.rule_system.id}; "
                            "it cannot be claimed here")
        pregen["pack"] = source.pack_id
    return found


# --- writing ------------------------------------------------------------------------------------


def apply_import(room: Room, plan: ImportPlan) -> None:
    """Write ``plan`` into the room (in memory; the caller saves), replacing the import with the
    same key."""
    store = room.documents
    for doc in store.all(ENTRY):
        if doc.data.get("pack") == plan.key:
            store.delete(ENTRY, doc.id)
    for doc in plan.entries:
        store.put(doc)
    store.put(Document(plan.key, PACK, {
        "kind": plan.kind, "pack": plan.pack_id, "name": plan.name, "file": plan.shown,
        **({"member": plan.member} if plan.member else {}), "hooks": list(plan.hooks),
        "entries": len(plan.entries), **({"scan": dict(plan.scan)} if plan.scan else {}),
        **({"story": dict(plan.story)} if plan.story else {}),
        "report": {"carried": list(plan.report.carried), "dropped": [f"{d.field}: {d.reason}" for d in plan.report.dropped],
                   "changed": [f"{d.field}: {d.reason}" for d in plan.changed], "warnings": list(plan.report.warnings)},
    }))
    if plan.seed:
        _seed(room, plan.seed)
    if plan.story.get("first_mes") and not room.history:
        open_story(room, plan, str(plan.story["first_mes"]), 0)
    for var in plan.variables:
        if room.variable(var.id) is None:
            room.variables.variables.append(var)
            room.mark("variables")
    for pregen in plan.pregens:
        _put_pregen(room, pregen)
    if plan.kind == "companion":
        store.put(Document(plan.key, COMPANION, {**plan.person, "pack": plan.pack_id}))
    if plan.kind == "pc" and plan.member is not None:
        _person_sheet(room, room.member(plan.member), plan.person)


def _seed(room: Room, declarations: list[dict[str, Any]]) -> None:
    """Seed the tree with the declared data (``$meta`` and markers read into the room's MVU
    schema, as MagVarUpdate does when it loads ``[InitVar]``, and removed from the data)."""
    merged: dict[str, Any] = {}
    for declared in declarations:
        correctly_merge(merged, declared)
    old = room.documents.get(SCHEMA, SCHEMA_ID)
    schema, cleaned = declared_schema(merged, old.data.get("schema") if old is not None else None)
    room.documents.put(Document(SCHEMA_ID, SCHEMA, {"schema": schema}))
    tree = seed(var_tree.tree_of(room), cleaned)
    if tree != var_tree.tree_of(room):
        var_tree.store_tree(room, tree)
    if not any(f.id == MVU_FEATURE for f in room.file.features):
        room.file.features.append(Feature(id=MVU_FEATURE, tools=list(MVU_TOOLS)))
        room.mark("room")


def slug(name: str) -> str:
    """A roster id from a name: trimmed, case-folded, spaces to ``-`` (other letters kept)."""
    return re.sub(r"\s+", "-", name.strip().casefold())[:64]


def _put_pregen(room: Room, pregen: dict[str, Any]) -> None:
    """Add or refresh a pregen; a refresh keeps its claim (and the claimer's original sheet)."""
    doc_id = slug(pregen["name"])
    old = room.documents.get(PREGEN, doc_id)
    kept = {k: old.data[k] for k in ("claimed_by", "original") if old is not None and k in old.data}
    room.documents.put(Document(doc_id, PREGEN, {**pregen, "claimed_by": "", **kept}))


def _person_sheet(room: Room, member: Member, person: Mapping[str, Any]) -> None:
    """The member's character becomes the card's person: name and notes (values untouched)."""
    notes = "\n\n".join(str(person[k]).strip() for k in ("description", "personality") if person.get(k))
    sheet = room.sheets.get(member.id)
    if sheet is None:
        sheet = Sheet(room.rule_system, name=str(person["name"]))
        room.sheets[member.id] = sheet
        member.sheet = sheet_path(room, member)
        room.mark("room")
    sheet.name = str(person["name"])
    if notes:
        sheet.extra["notes"] = notes
    room.mark(f"sheet:{member.id}")


def sheet_path(room: Room, member: Member) -> str:
    """Where a member without a sheet gets one: ``sheets/<member id>.yaml`` (made safe)."""
    safe = re.sub(r"[^\w.-]+", "-", member.id, flags=re.UNICODE).strip(".-") or "member"
    return f"sheets/{safe}.yaml"


# --- the whole import -------------------------------------------------------------------------


def run_import(room: Room, source: Source, kind: str, *, member: Member | None = None) -> ImportPlan:
    """Read, split, check and write one import (in memory; the caller saves)."""


    material = read_material(source.path)
    with reading(Reader(sandbox)):  # declarations read as MagVarUpdate reads them
        plan = plan_import(room, material, source, kind, member=member)
    apply_import(room, plan)
    return plan


def summary(plan: ImportPlan, *, locale: str, for_keeper: bool) -> str:
    """The import's report as a member reads it in ``locale`` (:func:`report_lines` under a title)."""
    t = MESSAGES.bind(locale)
    head = t("import.head", kind=t(f"import.kind.{plan.kind}"), who=plan.name or plan.pack_id, shown=plan.shown)
    return "\n".join([head, *report_lines(plan, for_keeper=for_keeper)])


def report_lines(plan: ImportPlan, *, for_keeper: bool) -> list[str]:
    """The plan's report: ``+`` what it keeps, ``-`` what it strips, ``~`` what the trust
    boundary changes, ``!`` warnings. A non-keeper reads nothing of the entries kept from them
    -- not their titles, not that there are any (a pack's card can hold the keeper's secrets)."""
    lines = [f"  + {c}" for c in plan.report.carried]
    lines += [f"  - {d.field}: {d.reason}" for d in plan.report.dropped
              if for_keeper or not d.reason.startswith(SECRET_REASON)]
    lines += [f"  ~ {d.field}: {d.reason}" for d in plan.changed if for_keeper or d.reason != SECRET_KEPT]
    lines += [f"  ! {w}" for w in plan.report.warnings]
    return lines


def enable_cards(ctx: Any) -> str | None:
    """What ``.pack install`` switches on in a room for a pack's cards (``ctx``: the kernel's
    ``RoomEnable``): its one world card imported as the room's world (the keeper ran the
    install; the kernel pinned the pack's character-creation system before, so the card's
    sheets meet the system the room will play); with several, the ``.import`` line of each for
    the keeper to choose; character cards are for players to import themselves."""
    worlds = [item for item in ctx.items if item.detected.get("kind") == "world"]
    if not worlds:
        return None
    if len(worlds) > 1:
        lines = [f".import {ctx.pack.id}/{item.path} world" for item in worlds]
        return MESSAGES.text("import.several_worlds", ctx.locale, lines="; ".join(lines))
    item = worlds[0]
    plan = run_import(ctx.room, Source(ctx.home / item.path, ctx.pack.id, f"{ctx.pack.id}/{item.path}"), "world")
    return summary(plan, locale=ctx.locale, for_keeper=True)
