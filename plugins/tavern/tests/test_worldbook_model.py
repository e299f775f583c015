"""Both SillyTavern book shapes map onto one model; writing back loses nothing; bad files are located."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from lwcore.errors import LwError, LwErrors

from lw_tavern.decorators import split_decorators
from lw_tavern.cardfile import read_book
from lw_tavern.worldbook.load import book_from_data, book_to_data
from lw_tavern.worldbook.model import WorldEntry, js_key_order

FIXTURES = Path(__file__).parent / "fixtures"


def load(name):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def test_worldinfo_file_reads_every_field():
    book = read_book(FIXTURES / "harbor.worldinfo.json")
    assert book.source == "worldinfo" and book.name == "Fog Harbor"
    harbor, keeper, tides = book.entries
    assert harbor.key == ["雾港", "fog harbor"] and harbor.keysecondary == ["钟声", "bell"]
    assert (harbor.sticky, harbor.cooldown, harbor.delay, harbor.order) == (2, 1, None, 120)
    assert harbor.model_extra == {"editorColor": "#334455"}
    assert keeper.groups == ("places", "people") and keeper.recursion_delay_level == 2
    assert (keeper.position, keeper.depth, keeper.role, keeper.scan_depth) == (4, 2, 2, 6)
    assert keeper.case_sensitive is True and keeper.match_whole_words is True and keeper.ignore_budget
    assert keeper.character_filter is not None and keeper.character_filter.names == ["Mira"]
    assert keeper.triggers == ["normal", "continue"] and keeper.match_creator_notes
    assert tides.disable and tides.constant and tides.outlet_name == "tides" and tides.position == 7


def test_card_book_maps_onto_the_same_model():
    card = read_book(FIXTURES / "harbor.card.json")
    info = read_book(FIXTURES / "harbor.worldinfo.json")
    assert card.source == "character_book" and card.name == "Fog Harbor"
    shared = {"uid", "key", "keysecondary", "comment", "content", "constant", "selective", "selective_logic",
              "order", "position", "disable", "exclude_recursion", "prevent_recursion", "delay_until_recursion",
              "probability", "use_probability", "depth", "group", "group_override", "group_weight", "scan_depth",
              "case_sensitive", "match_whole_words", "use_group_scoring", "automation_id", "role", "sticky",
              "cooldown", "delay", "display_index"}
    a, b = card.entries[0].model_dump(), info.entries[0].model_dump()
    assert {k: a[k] for k in shared} == {k: b[k] for k in shared}
    dark = card.entries[1]
    assert dark.uid == 7 and dark.disable and dark.position == 1 and dark.case_sensitive is True
    assert dark.selective is False  # a V2 entry without `selective` is not selective (as SillyTavern reads it)
    assert card.entries[0].model_extra == {"use_regex": True, "name": "harbor", "priority": 5}


@pytest.mark.parametrize("name", ["harbor.worldinfo.json", "harbor.card.json"])
def test_round_trip_keeps_everything(name):
    raw = load(name)
    book = book_from_data(raw)
    again = book_to_data(book)
    original = raw if "entries" in raw else raw["data"]["character_book"]
    if book.source == "worldinfo":
        for key, entry in original["entries"].items():
            for field, value in entry.items():
                assert again["entries"][key][field] == value, (key, field)
        assert again["originalData"] == original["originalData"]
    else:
        for before, after in zip(original["entries"], again["entries"]):
            for field, value in before.items():
                if field == "extensions":
                    for k, v in value.items():
                        assert after["extensions"][k] == v, (before["id"], k)
                else:
                    assert after[field] == value, (before["id"], field)
        assert {k: v for k, v in again.items() if k != "entries"} == {
            k: v for k, v in original.items() if k != "entries"}
    assert book_from_data(again) == book


def test_export_to_the_other_shape_and_back():
    info = read_book(FIXTURES / "harbor.worldinfo.json")
    as_card = info.model_copy(update={"source": "character_book"})
    back = book_from_data(book_to_data(as_card))
    for a, b in zip(back.entries, info.entries):
        # a card has no field for addMemo (it is read back as "has a comment")
        assert a.model_dump(exclude={"add_memo"}) == b.model_dump(exclude={"add_memo"})
        assert a.model_extra == b.model_extra


def test_js_key_order():
    assert js_key_order(["10", "b", "2", "a", "01", "0"]) == ["0", "2", "10", "b", "a", "01"]


def test_worldinfo_entries_in_uid_order_whatever_the_file_order():
    book = book_from_data({"entries": {"5": {"content": "five"}, "1": {"content": "one"}}})
    assert [e.uid for e in book.entries] == [1, 5]


BAD = [
    ('{"entries": {"0": {"key": "harbor"}}}', "entries.0.key", 1),
    ('{"entries": {\n  "0": {"key": ["a"], "order": "100"}\n}}', "entries.0.order", 2),
    ('{"entries": {"0": {"selectiveLogic": 7}}}', "selectiveLogic", 1),
    ('{"entries": [{"keys": ["a"], "insertion_order": true}]}', "entries[0].insertion_order", 1),
    ('{"entries": [{"keys": ["a"], "extensions": {"probability": "50"}}]}', "entries[0].extensions.probability", 1),
    ('{"entries": 5}', "entries", 1),
    ('[1, 2]', "(top)", 1),
]


@pytest.mark.parametrize("text,where,line", BAD)
def test_bad_books_are_located(tmp_path, text, where, line):
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LwError) as info:
        read_book(path)
    error = info.value
    assert where in str(error) and error.file == str(path)
    assert error.line == line


def test_every_bad_entry_is_reported_at_once(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"entries": {"0": {"key": 1}, "1": {"disable": "no"}}}', encoding="utf-8")
    with pytest.raises(LwErrors) as info:
        read_book(path)
    assert len(info.value.errors) == 2


def test_model_validates_strictly():
    with pytest.raises(Exception):
        WorldEntry.model_validate({"key": ["a"], "constant": "yes"}, strict=True)


DECORATORS = [
    ("plain text", [], "plain text"),
    ("@@activate\nbody", ["@@activate"], "body"),
    ("@@dont_activate\n@@if x > 1\nbody", ["@@dont_activate", "@@if x > 1"], "body"),
    ("@@unknown\n@@@activate\nbody", ["@@activate"], "body"),  # fallback read after an unknown one
    ("@@activate\n@@@dont_activate\nbody", ["@@activate"], "body"),  # fallback skipped after a known one
    ("@@activate", ["@@activate"], "@@activate"),  # nothing but decorators: content kept whole
    (" @@activate\nbody", [], " @@activate\nbody"),
    ("@@initial_variables\n{a: 1}", ["@@initial_variables"], "{a: 1}"),
]


@pytest.mark.parametrize("content,lines,rest", DECORATORS)
def test_decorators(content, lines, rest):
    found, body = split_decorators(content)
    assert [d.line for d in found] == lines and body == rest


def test_unknown_fields_survive_a_model_copy():
    entry = WorldEntry.model_validate({"key": ["a"], "someTool": {"x": [1]}})
    copied = copy.deepcopy(entry)
    assert copied.model_extra == {"someTool": {"x": [1]}}
