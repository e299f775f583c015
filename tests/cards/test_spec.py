"""Spec detection: chara_card_v3 > chara_card_v2 > V1, and everything that is not a card."""

from __future__ import annotations

import json
import re

import pytest

from lwcore.cards import V1, V2, V3, detect_spec, load_card, unwrap
from lwcore.errors import LwError

FIELDS = {"name": "N", "description": "d"}

# (case id, object, spec, spec_version, where the fields are, a note fragment or None)
RECOGNISED = [
    ("v3", {"spec": V3, "spec_version": "3.0", "data": FIELDS}, V3, "3.0", "data", None),
    ("v2", {"spec": V2, "spec_version": "2.0", "data": FIELDS}, V2, "2.0", "data", None),
    ("v3-empty-data", {"spec": V3, "data": {}}, V3, None, "data", None),
    ("v2-with-v1-copies", {"spec": V2, "data": FIELDS, "name": "top", "description": "top"}, V2, None, "data", None),
    ("v3-newer-version", {"spec": V3, "spec_version": "3.5", "data": FIELDS}, V3, "3.5", "data", "newer than this reader"),
    ("v2-version-number", {"spec": V2, "spec_version": 2.0, "data": FIELDS}, V2, None, "data", "not a string"),
    ("v2-version-odd", {"spec": V2, "spec_version": "two", "data": FIELDS}, V2, "two", "data", None),
    ("spec-less-wrapped", {"data": FIELDS}, V2, None, "data", "no 'spec' field"),
    ("spec-null-wrapped", {"spec": None, "data": {"name": "N", "first_mes": "hi"}}, V2, None, "data", "no 'spec' field"),
    ("v1", {"name": "N", "description": "d", "personality": "p"}, V1, None, "top", None),
    ("v1-first-mes-only", {"name": "N", "first_mes": "hi"}, V1, None, "top", None),
    ("v1-mes-example-only", {"name": "N", "mes_example": "<START>"}, V1, None, "top", None),
    ("v1-data-not-object", {"name": "N", "scenario": "s", "data": [1]}, V1, None, "top", None),
]

# (case id, object, message fragment)
REFUSED = [
    ("array", [FIELDS], "an array, not a JSON object"),
    ("string", "card", "a string, not a JSON object"),
    ("null", None, "null, not a JSON object"),
    ("number", 3, "a number, not a JSON object"),
    ("empty", {}, "no V1 card fields"),
    ("name-only", {"name": "N"}, "no V1 card fields"),
    ("name-not-string", {"name": 5, "description": "d"}, "no V1 card fields"),
    ("fields-not-strings", {"name": "N", "description": 5}, "no V1 card fields"),
    ("spec-number", {"spec": 2, "data": FIELDS}, "'spec' is a number"),
    ("spec-list", {"spec": [V2], "data": FIELDS}, "'spec' is an array"),
    ("v2-no-data", {"spec": V2, **FIELDS}, "'data' is missing"),
    ("v3-data-list", {"spec": V3, "data": [FIELDS]}, "'data' is an array"),
    ("v2-data-null", {"spec": V2, "data": None}, "'data' is null"),
    ("unknown-version", {"spec": "chara_card_v4", "data": FIELDS}, "unknown card spec 'chara_card_v4'"),
    ("other-format", {"spec": "whatever-preset/1", "data": FIELDS}, "'spec' is 'whatever-preset/1'"),
    ("wrapped-without-fields", {"data": {"extensions": {}}}, "'data' object has no card fields"),
]


@pytest.mark.parametrize(("obj", "spec", "version", "where", "note"), [c[1:] for c in RECOGNISED],
                         ids=[c[0] for c in RECOGNISED])
def test_recognised(obj, spec, version, where, note):
    got_spec, got_version, data, notes = unwrap(obj)
    assert (got_spec, got_version) == (spec, version)
    assert data is (obj["data"] if where == "data" else obj)
    assert detect_spec(obj) == spec
    assert (note is None and notes == []) or any(note in n for n in notes)
    card = load_card(json.dumps(obj).encode(), "c.json")
    assert (card.spec, card.spec_version, card.data, card.raw) == (spec, version, data, obj)
    assert card.report.container == "json" and card.report.source == "file" and card.assets == ()


@pytest.mark.parametrize(("obj", "fragment"), [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED])
def test_refused_with_the_reason(obj, fragment):
    with pytest.raises(LwError) as info:
        unwrap(obj, file="c.json")
    assert fragment in info.value.message and info.value.code == "not_a_card"
    assert info.value.file == "c.json" and "chara_card_v3" in info.value.expected
    assert detect_spec(obj) is None
    # a scalar is not even a JSON container start: the file is refused before parsing
    expected = fragment if isinstance(obj, (dict, list)) else "not a card file"
    with pytest.raises(LwError, match="^c.json: .*" + re.escape(expected)):
        load_card(json.dumps(obj).encode(), "c.json")


def test_unknown_fields_and_extensions_are_kept_untouched():
    card = {"spec": V3, "spec_version": "3.0", "future_top": [1], "data": {
        "name": "N", "description": "d", "mystery": {"a": [1, 2]}, "extensions": {"x": {"y": "z"}, "depth_prompt": {"depth": 4}},
    }}
    got = load_card(json.dumps(card).encode())
    assert got.data == card["data"] and got.raw == card and got.file is None


def test_utf8_bom_and_chinese():
    card = {"spec": V2, "data": {"name": "北境的雪", "description": "守夜人"}}
    got = load_card(b"\xef\xbb\xbf" + json.dumps(card, ensure_ascii=False).encode("utf-8"), "卡.json")
    assert got.data["name"] == "北境的雪" and got.file == "卡.json"


def test_json_errors_keep_their_line_and_column():
    with pytest.raises(LwError) as info:
        load_card(b'{\n  "spec": "chara_card_v2",\n  "data": {oops}\n}', "c.json")
    assert (info.value.file, info.value.line, info.value.column, info.value.code) == ("c.json", 3, 12, "syntax")
