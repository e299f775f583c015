"""Canonical JSON equals JavaScript's JSON.stringify (vectors produced under Node.js)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lwcore.js import utf16_sort_key as js_sort_key

from lw_narraeon.canonical import (
    js_json,
    js_json_utf8,
    json_number,
    json_text_as_string_utf8,
    sha256_hex,
    utf8_length,
)

VECTORS = json.loads((Path(__file__).parent / "golden" / "js_vectors.json").read_text(encoding="utf-8"))


def test_matches_json_stringify_vectors() -> None:
    mismatches = [(value, want, js_json(value)) for value, want in VECTORS["json"] if js_json(value) != want]
    assert mismatches == []
    assert len(VECTORS["json"]) > 300


@pytest.mark.parametrize(
    "value, text",
    [
        (1.0, "1"), (1e21, "1e+21"), (1e20, "100000000000000000000"), (1e-7, "1e-7"), (1e-6, "0.000001"),
        (0.1, "0.1"), (-0.0, "0"), (1.5e-6, "0.0000015"), (5e-324, "5e-324"), (2**60, "1152921504606847000"),
        (float("nan"), "null"), (float("inf"), "null"), (123.456, "123.456"), (-2.5, "-2.5"),
    ],
)
def test_json_number(value: float, text: str) -> None:
    assert json_number(value) == text
    assert js_json(value) == text


def test_structure_rules() -> None:
    assert js_json({"b": 1, "a": [True, None, "x"]}) == '{"b":1,"a":[true,null,"x"]}'
    assert js_json({"b": 1, "1": 2, "0": 3, "01": 4}) == '{"0":3,"1":2,"b":1,"01":4}'
    assert js_json("张😀\u2028\x01\x7f") == '"张😀\u2028\\u0001\x7f"'
    assert js_json("\ud800x\udfff") == '"\\ud800x\\udfff"'
    assert js_json("\ud83d\ude00") == '"😀"'  # a pair held as two code points is one character
    assert js_json((1, 2)) == "[1,2]"


@settings(max_examples=300, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | st.text(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
        max_leaves=20,
    )
)
def test_round_trips_through_json(value) -> None:
    text = js_json(value)
    assert json.loads(text) == value
    if not any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        text.encode("utf-8")


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.text() | st.floats(allow_nan=False) | st.integers(), lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=10))
def test_fast_quoting_of_json_text_equals_general_quoting(value) -> None:
    text, data = js_json_utf8(value)
    assert text == js_json(value) and data == text.encode("utf-8")
    assert json_text_as_string_utf8(data) == js_json(text).encode("utf-8")


def test_bytes_and_hash_use_text_encoder_semantics() -> None:
    assert utf8_length("a张😀") == 1 + 3 + 4
    assert utf8_length("\ud800") == 3  # U+FFFD
    assert sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert sha256_hex("\ud800") == sha256_hex("\ufffd")


def test_sort_key_is_utf16_order() -> None:
    mixed = ["\uffff", "𠀀", "\ue000", "a"]
    assert sorted(mixed, key=js_sort_key) == ["a", "𠀀", "\ue000", "\uffff"]  # surrogates < U+E000
    assert sorted(mixed) != sorted(mixed, key=js_sort_key)
    directories = [d for d, _ in VECTORS["encode"]]
    assert sorted(directories, key=js_sort_key) == VECTORS["sort"]  # Array.prototype.sort()

