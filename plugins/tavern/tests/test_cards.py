"""Card split, the import trust boundary, the native card format, presets."""

from __future__ import annotations

import copy
import json
import subprocess
from pathlib import Path

import pytest
from lwcore.errors import LwError

from lw_tavern.card_split import entry_id, import_entries, source_ids, split_card
from lw_tavern.lorecard import (
    FORMAT,
    Lorecard,
    NativeEntry,
    entry_from_world,
    from_card,
    load_lorecard,
    migrate,
    read_lorecard,
    to_card,
    world_entries,
)
from lw_tavern.preset import effective_prompts, fold, load_preset, preset_id, read_preset
from lw_tavern.cardfile import read_book
from lw_tavern.worldbook.load import book_from_data
from lw_tavern.worldbook.model import WorldEntry

FIXTURES = Path(__file__).parent / "fixtures"


def load(name):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


# --- card split ---------------------------------------------------------------------------------


def test_person_half_of_a_heavy_card():
    card = load("tidewatch.heavy.card.json")
    original = copy.deepcopy(card)
    split = split_card(card)
    assert card == original  # never changed
    person = split.person
    assert person["description"] == "守望者林潮。" and person["first_mes"] == "，{{user}}，欢迎来到渔村。"
    assert person["alternate_greetings"] == ["又见面了。"]
    assert person["extensions"] == {"depth_prompt": {"prompt": "stay calm", "depth": 4}}
    book = book_from_data(person["character_book"])
    assert [e.comment for e in book.entries] == ["渔村", "夜里的灯塔"]
    assert "<%" not in book.entries[1].content
    dropped = {(d.field, d.reason.split(":")[0].split(" (")[0]) for d in split.report.dropped}
    assert dropped == {
        ("description", "1 EJS template tag(s) removed"),
        ("first_mes", "1 EJS template tag(s) removed"),
        ("alternate_greetings[0]", "1 EJS template tag(s) removed"),
        ("extensions.loreweaver_hooks", "1 hook script(s) not installed"),
        ("extensions.regex_scripts", "1 SillyTavern script item(s)"),
        ("character_book entry '[InitVar]变量初始化'", "variable declaration"),
        ("character_book entry '真相'", "keeper-only lore"),
        ("character_book entry '[RENDER:status]'", "front-end render entry"),
        ("character_book entry 'frame'", "front-end render entry"),
        ("character_book entry '夜里的灯塔'", "1 EJS template tag(s) removed"),
    }
    world = split.world
    assert world.hooks == [{"code": "on('turn_start', () => incvar('潮位', 1))"}]
    assert world.declarations == [{"世界": {"天气": ["晴", "天气：晴/雨/雾"], "警戒": [0, "0-5"], "日": 1},
                                   "林潮": {"好感度": [50, "0-100"]}}]
    assert len(world.book.entries) == 6 and set(world.extensions) == {"loreweaver_hooks", "regex_scripts"}
    assert world.problems == []


def test_unreadable_declaration_is_the_keepers_problem_only():
    card = {"spec": "chara_card_v2", "data": {"name": "x", "character_book": {"entries": [
        {"keys": [], "comment": "[InitVar]", "content": "{broken: }"}]}}}
    split = split_card(card)
    assert split.report.warnings == () and len(split.world.problems) == 1
    assert split.world.problems[0].line == 1


def test_plain_card_splits_into_itself():
    card = load("harbor.card.json")
    split = split_card(card)
    assert split.report.dropped == ()
    assert {k: v for k, v in split.person.items() if k != "character_book"} == {
        k: v for k, v in card["data"].items() if k != "character_book"}


def test_v1_card():
    split = split_card({"name": "Old", "description": "<%= x %>desc", "first_mes": "hi <% while (1) { %>x<% } %>"})
    assert split.person["description"] == "desc" and split.person["name"] == "Old"
    assert split.person["first_mes"] == "hi "  # a template the subset cannot read is cut at its first tag


# --- the trust boundary -------------------------------------------------------------------------


@pytest.mark.parametrize("keeper", [False, True])
def test_import_trust_boundary(keeper):
    card = load("tidewatch.heavy.card.json")
    book = read_book(FIXTURES / "tidewatch.heavy.card.json")
    imported = import_entries(book, pack_id="tidewatch", keeper=keeper, char_name=card["data"]["name"])
    titles = [e.comment for e in imported.book.entries]
    assert ("真相" in titles) is keeper  # secret only for a keeper
    assert "[InitVar]变量初始化" not in titles  # declarations are data, never lore
    assert (imported.declarations != []) is keeper
    assert any(e.constant for e in imported.book.entries) is keeper  # a keeper's world keeps constant lore (issue 26)
    village = next(e for e in imported.book.entries if e.comment == "渔村")
    assert village.content == "渔村靠海，潮汐守望守着灯。"  # {{char}} bound at import
    lamp = next(e for e in imported.book.entries if e.comment == "夜里的灯塔")
    # a keeper's @@if becomes the entry's condition; a person's lore runs no condition at all
    assert lamp.condition == ("stat_data.世界.日 >= 2" if keeper else "")
    assert lamp.content.startswith("@@activate\n") is keeper and "@@if" not in lamp.content  # @@activate kept by a keeper
    assert any("runs no condition" in d.reason for d in imported.changed) is not keeper
    status = next(e for e in imported.book.entries if e.comment == "[RENDER:status]")
    frame = next(e for e in imported.book.entries if e.comment == "frame")
    assert status.disable and frame.disable
    assert imported.scope == "room"
    ids = [e.id for e in imported.book.entries]
    assert len(set(ids)) == len(ids) and all(i.startswith("e") for i in ids)
    again = import_entries(book, pack_id="tidewatch", keeper=keeper)
    assert [e.id for e in again.book.entries] == ids  # deterministic
    assert [e.id for e in import_entries(book, pack_id="other", keeper=keeper).book.entries] != ids
    reasons = " ".join(d.reason for d in imported.changed)
    if keeper:  # the keeper's world keeps constant lore as the author set it (issue 26)
        assert "constant: sent every turn" in reasons and "@@activate kept" in reasons
        assert any(e.constant for e in imported.book.entries)
    else:
        assert "constant turned off" in reasons and "@@activate removed" in reasons
        assert not any(e.constant for e in imported.book.entries)


def test_entry_ids_are_stable_handles():
    book = read_book(FIXTURES / "harbor.worldinfo.json")
    assert entry_id("p", book.entries[0], 0) == entry_id("p", book.entries[0], 0)
    assert entry_id("p", book.entries[0], 0) != entry_id("p", book.entries[1], 1)


def sillytavern_book(entries: list[dict]) -> dict:
    """What SillyTavern's ``convertCharacterBook`` keeps of a card's book: entries keyed by
    their ``id`` (a later entry with the same id replaces the earlier one)."""
    return {entry["id"]: entry for entry in entries}


LANTERN_HANDLES = ["row#0", "row#1~2", "row#1", "row#3", "row#4"]


def test_native_entries_without_ids_get_distinct_uids_by_position():
    card = read_lorecard(FIXTURES / "lantern-row.lorecard.json")
    assert [e.uid for e in world_entries(card.worldbook)] == [0, 1, 2, 3, 4]
    entries = to_card(card)["data"]["character_book"]["entries"]
    assert [e["id"] for e in entries] == [0, 1, 2, 3, 4]
    assert len(sillytavern_book(entries)) == 5  # SillyTavern keeps every entry


UIDS = [
    # (uid each entry carries in extensions (None: none), the uids given)
    ([None, None, None], [0, 1, 2]),
    ([5, None, None, 1], [5, 6, 2, 1]),  # position 1 is carried by the last entry: the next number past 5
    ([None, 0], [1, 0]),  # position 0 is carried by the next entry
    ([None, "1", None], [0, "1", 2]),
    (["0", None, None], ["0", 1, 2]),
    ([None, 0, None, "2"], [3, 0, 4, "2"]),  # SillyTavern reads 2 and "2" as one key
    (["a", None], ["a", 1]),
    ([3, 3, None], [3, 3, 2]),  # carried uids are kept as they are, even twice
]


@pytest.mark.parametrize("carried,expected", UIDS)
def test_uids_of_native_entries(carried, expected):
    entries = [NativeEntry(content="x", extensions={} if uid is None else {"uid": uid}) for uid in carried]
    assert [e.uid for e in world_entries(entries)] == expected


def test_handles_of_entries_without_ids_are_unique_and_stable():
    card = read_lorecard(FIXTURES / "lantern-row.lorecard.json")
    assert card.handles("row") == LANTERN_HANDLES  # an author's id wins; a position that reads like it moves aside
    assert read_lorecard(FIXTURES / "lantern-row.lorecard.json").handles("row") == LANTERN_HANDLES
    book = book_from_data(to_card(card))
    for keeper in (True, False):
        imported = import_entries(split_card(to_card(card)).world.book, pack_id="world:row", keeper=keeper)
        kept = [i for i, e in enumerate(book.entries) if keeper or not e.secret]
        assert imported.sources == [LANTERN_HANDLES[i].split("#", 1)[1] for i in kept]
    person = split_card(to_card(card)).person["character_book"]
    imported = import_entries(book_from_data(person), pack_id="pc:p1", keeper=False)
    assert imported.sources == ["0", "1~2", "1", "4"]  # the person half keeps each entry's handle


SOURCE_IDS = [
    # ((author id, uid) per entry, the entry ids of their handles)
    ([(None, 0), (None, 1)], ["0", "1"]),
    ([("a", 0), (None, 0)], ["a", "0"]),
    ([(None, 0), (None, 0)], ["0", "0~2"]),  # a card book with one id twice (SillyTavern would keep one)
    ([("x", 0), ("x", 1)], ["x", "x~2"]),
    ([(None, 7), ("7", 0), (None, "7~2")], ["7~3", "7", "7~2"]),
]


@pytest.mark.parametrize("entries,expected", SOURCE_IDS)
def test_source_ids(entries, expected):
    assert source_ids([WorldEntry(id=i, uid=u) for i, u in entries]) == expected


def test_a_carried_uid_of_the_wrong_type_is_located(tmp_path):
    path = tmp_path / "bad.lorecard.json"
    path.write_text('{"format": "loreweaver.card", "format_version": 1, "worldbook": [\n'
                    '  {"content": "x"},\n  {"content": "y", "extensions": {"uid": [1]}}\n]}', encoding="utf-8")
    with pytest.raises(LwError) as info:
        read_lorecard(path)
    assert info.value.line == 3 and "worldbook[1].extensions.uid" in str(info.value)


# --- native card format -------------------------------------------------------------------------


def test_native_card_reads_every_field():
    card = read_lorecard(FIXTURES / "ashen-stair.lorecard.json")
    assert card.name == "灰烬楼梯" and card.opening == "灯灭了，楼梯多了一级。"
    assert [v.id for v in card.variables] == ["stairs_seen", "true_floor"]
    assert card.variables[1].visibility == "keeper"
    assert card.handles("ashen") == ["ashen#stair-rule", "ashen#janitor", "ashen#2"]
    janitor = world_entries(card.worldbook)[1]
    assert janitor.secret and janitor.keysecondary == ["夜班"] and janitor.selective_logic == 3
    assert (janitor.position, janitor.order, janitor.probability, janitor.scan_depth) == (0, 20, 80, 2)
    assert (janitor.sticky, janitor.cooldown, janitor.delay) == (2, 1, 3)
    key = world_entries(card.worldbook)[2]
    assert key.condition == "stairs_seen >= 2" and key.disable and key.model_extra == {"category": "clue"}
    assert len(card.hooks) == 2 and card.pregens[0].skills == {"侦查": 60}


def test_native_entries_survive_the_world_model():
    card = read_lorecard(FIXTURES / "ashen-stair.lorecard.json")
    for entry, world in zip(card.worldbook, world_entries(card.worldbook), strict=True):
        assert entry_from_world(world).model_dump(exclude={"extensions"}) == \
            entry.model_dump(exclude={"extensions"}) | ({"position": "after"} if entry.position == "" else {})


def test_sillytavern_card_to_native_and_back_loses_nothing():
    for name in ("harbor.card.json", "tidewatch.heavy.card.json"):
        card = load(name)
        native = from_card(card)
        text = json.dumps(native.model_dump(mode="json"), ensure_ascii=False)
        again = to_card(load_lorecard(json.loads(text)))
        assert {k: v for k, v in again.items() if k != "data"} == {k: v for k, v in card.items() if k != "data"}
        assert {k: v for k, v in again["data"].items() if k != "character_book"} == {
            k: v for k, v in card["data"].items() if k != "character_book"}
        assert book_from_data(again) == book_from_data(card)


def test_native_to_sillytavern_and_back():
    card = read_lorecard(FIXTURES / "ashen-stair.lorecard.json")
    again = from_card(to_card(card))
    assert again.variables == card.variables and again.hooks == card.hooks
    assert [e.model_dump(exclude={"extensions"}) for e in again.worldbook] == [
        e.model_dump(exclude={"extensions"}) | ({"position": "after"} if e.position == "" else {})
        for e in card.worldbook]


VERSIONS = [
    ({"format": FORMAT, "format_version": 2}, "newer than this build"),
    ({"format": FORMAT, "format_version": 0}, "cannot be upgraded"),
    ({"format": FORMAT, "format_version": "1"}, "not a whole number"),
    ({"format": "something.else", "format_version": 1}, "not 'loreweaver.card'"),
]


@pytest.mark.parametrize("doc,message", VERSIONS)
def test_versions_refused(doc, message):
    with pytest.raises(LwError) as info:
        load_lorecard(doc)
    assert message in str(info.value)


def test_registered_migrations_chain():
    steps = {1: lambda d: {**d, "opening": d.pop("greeting", "")}, 2: lambda d: {**d, "tags": ["v3"]}}
    doc = migrate({"format": FORMAT, "format_version": 1, "greeting": "hi"}, steps=steps, current=3)
    assert doc["format_version"] == 3 and doc["opening"] == "hi" and doc["tags"] == ["v3"]
    with pytest.raises(LwError):
        migrate({"format": FORMAT, "format_version": 1}, steps={2: lambda d: d}, current=3)


def test_bad_native_cards_are_located(tmp_path):
    path = tmp_path / "bad.lorecard.json"
    path.write_text('{"format": "loreweaver.card", "format_version": 1,\n "worldbook": [\n  {"content": 5}\n]}',
                    encoding="utf-8")
    with pytest.raises(LwError) as info:
        read_lorecard(path)
    assert info.value.line == 3 and "worldbook[0].content" in str(info.value)
    dup = {"format": FORMAT, "format_version": 1, "worldbook": [{"id": "a", "content": "x"}, {"id": "a", "content": "y"}]}
    with pytest.raises(LwError, match="used twice"):
        load_lorecard(dup)


def test_unknown_native_fields_are_kept():
    doc = {"format": FORMAT, "format_version": 1, "studio": {"layout": 2},
           "worldbook": [{"content": "x", "studio_color": "red"}]}
    card = load_lorecard(doc)
    dumped = card.model_dump(mode="json")
    assert dumped["studio"] == {"layout": 2} and dumped["worldbook"][0]["studio_color"] == "red"


def test_schema_is_published():
    schema = Lorecard.model_json_schema()
    assert {"opening", "alternate_openings", "dialogue_examples", "author_notes", "hooks", "variables",
            "worldbook"} <= set(schema["properties"])


# --- presets ------------------------------------------------------------------------------------


def test_preset_fold_golden():
    loaded = read_preset(FIXTURES / "night-watch.preset.json")
    folded = fold(loaded.preset)
    assert folded.style == "Write as the night watch of a drowned city.\n\nKeep sentences short."
    assert (folded.before_lore, folded.after_lore, folded.late) == ("<lore>", "</lore>", "Stay in the fog.")
    assert [(d.depth, d.role, d.text) for d in folded.at_depth] == [(2, "user", "(Remember the tide.)")]
    assert [p.identifier for p in effective_prompts(loaded.preset)][:3] == ["main", "tone", "personaDescription"]
    assert loaded.warnings == ["prompt_order[1] names 'ghost', which is not in prompts (ignored)"]
    assert loaded.preset.model_extra["temperature"] == 0.9


FOLDS = [
    # (sequence of (identifier, content or marker), expected (style, before, after, late))
    ([("a", "A")], ("A", "", "", "")),
    ([("a", "A"), ("charDescription", None), ("b", "B")], ("A", "B", "", "")),
    ([("worldInfoAfter", None), ("a", "A"), ("worldInfoBefore", None), ("b", "B")], ("", "", "A\n\nB", "")),
    ([("chatHistory", None), ("a", "A"), ("scenario", None), ("b", "B")], ("", "", "", "A\n\nB")),
    ([("a", "A"), ("worldInfoBefore", None), ("b", "B"), ("worldInfoAfter", None), ("c", "C"),
      ("chatHistory", None), ("d", "D")], ("A", "B", "C", "D")),
    ([("a", "  "), ("b", "B")], ("B", "", "", "")),
]


@pytest.mark.parametrize("sequence,expected", FOLDS)
def test_fold_geometry(sequence, expected):
    prompts = [{"identifier": i, "marker": True} if c is None else {"identifier": i, "content": c}
               for i, c in sequence]
    order = [{"character_id": 100001, "order": [{"identifier": i, "enabled": True} for i, _ in sequence]}]
    f = fold(load_preset({"prompts": prompts, "prompt_order": order}).preset)
    assert (f.style, f.before_lore, f.after_lore, f.late) == expected


def test_order_group_choice():
    prompts = [{"identifier": "a", "content": "A"}, {"identifier": "b", "content": "B"}]
    order = [{"character_id": 100000, "order": [{"identifier": "a"}]},
             {"character_id": 7, "order": [{"identifier": "b"}]}]
    preset = load_preset({"prompts": prompts, "prompt_order": order}).preset
    assert fold(preset).style == "A" and fold(preset, character_id=7).style == "B"


BAD_PRESETS = [
    ('{"temperature": 1}', "no `prompts`", 1),
    ('{"prompts": []}', "prompts", 1),
    ('{"prompts": [{"identifier": "a"},\n {"identifier": "a"}]}', "used twice", 2),
    ('{"prompts": [{"identifier": "a", "role": "narrator"}]}', "prompts[0].role", 1),
    ('{"prompts": [{"identifier": "a"}], "prompt_order": [{"character_id": "x"}]}', "character_id", 1),
]


@pytest.mark.parametrize("text,message,line", BAD_PRESETS)
def test_bad_presets_are_located(tmp_path, text, message, line):
    path = tmp_path / "p.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LwError) as info:
        read_preset(path)
    assert message in str(info.value) and info.value.line == line


def test_preset_ids():
    assert preset_id("My Preset (v2).json") == "My-Preset-v2" and preset_id("夜巡.json") == "夜巡"
    assert preset_id("../../etc.json") == "etc" and preset_id(".json") == "preset"


# --- the reference implementation's own fixture, outside the repository -----------------------------

REFERENCE = Path("/work/.mirror/1A7432+loreweaver/repo")


needs_reference = pytest.mark.skipif(not REFERENCE.exists(), reason="the reference repository is not on this machine")


def studio_export(folder: Path) -> Path:
    """The reference's own studio export, written into ``folder`` under its own name."""
    text = subprocess.run(["git", "-C", str(REFERENCE), "show", "HEAD:tests/fixtures/studio_export.lorecard.json"],
                          capture_output=True, text=True, check=True).stdout
    path = folder / "studio_export.lorecard.json"
    path.write_text(text, encoding="utf-8")
    return path


@needs_reference
def test_reference_studio_export_imports_unchanged(tmp_path):
    path = studio_export(tmp_path)
    text = path.read_text(encoding="utf-8")
    card = read_lorecard(path)
    assert card.format_version == 1 and card.worldbook and card.variables
    raw = json.loads(text)
    for entry, raw_entry in zip(card.worldbook, raw["worldbook"]):
        dumped = entry.model_dump(mode="json")
        assert {k: dumped[k] for k in raw_entry} == raw_entry  # every field read as written
    assert [v.model_dump(mode="json", exclude_none=True) for v in card.variables] == raw["variables"]


@needs_reference
def test_reference_studio_export_entries_without_ids_stay_distinct(tmp_path):
    """Its three entries carry no id: each gets its own uid, SillyTavern id and handle."""
    card = read_lorecard(studio_export(tmp_path))
    assert all(e.id is None for e in card.worldbook) and len(card.worldbook) == 3
    assert card.handles("studio_export") == ["studio_export#0", "studio_export#1", "studio_export#2"]
    entries = to_card(card)["data"]["character_book"]["entries"]
    assert [e["id"] for e in entries] == [0, 1, 2]
    assert len(sillytavern_book(entries)) == 3
