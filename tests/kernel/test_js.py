"""``lwcore.js`` says what JavaScript says.

Two oracles: the answers Node gave (``tests/kernel/data/js_values.json``, made by
``tools/js_oracle.py``; Node is not needed to run these tests), and the kernel's own QuickJS
sandbox, asked live in property tests.
"""

from __future__ import annotations

import json
import math
import struct
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lwcore import js
from lwcore.sandbox import Limits, evaluate

DATA = json.loads((Path(__file__).parent / "data" / "js_values.json").read_text(encoding="utf-8"))
LIVE = Limits(time_s=5.0, memory_bytes=64 * 1024 * 1024, output_chars=4_000_000)


def _double(bits: str) -> float:
    return struct.unpack(">d", bytes.fromhex(bits))[0]


def _number_text(x: float) -> str:
    return "-0" if x == 0 and math.copysign(1, x) < 0 else js.number_to_string(x)


def _quickjs(source: str, inputs: object) -> object:
    outcome = evaluate(source, inputs, limits=LIVE)
    assert outcome.failure is None, outcome.failure
    return outcome.value


# --- Node's answers ------------------------------------------------------------------------


def test_the_corpus_is_large_and_holds_the_named_edges() -> None:
    said = {bits: text for bits, text in DATA["numbers"]}
    assert len(said) > 4000
    for value, text in [(0.000001, "0.000001"), (1e-7, "1e-7"), (1e21, "1e+21"), (-0.0, "0"), (5e-324, "5e-324"),
                        (0.1 + 0.2, "0.30000000000000004"), (123456789012345680000.0, "123456789012345680000"),
                        (math.nan, "NaN"), (-math.inf, "-Infinity")]:
        assert said[struct.pack(">d", value).hex()] == text


@pytest.mark.parametrize("chunk", range(8))
def test_number_to_string_matches_node(chunk: int) -> None:
    rows = DATA["numbers"][chunk::8]
    wrong = [(bits, text, js.number_to_string(_double(bits))) for bits, text in rows
             if js.number_to_string(_double(bits)) != text]
    assert wrong == []


def test_ints_are_numbers_as_javascript_makes_them() -> None:
    assert js.number_to_string(2**53 + 1) == "9007199254740992"
    assert js.number_to_string(-(2**53 - 1)) == "-9007199254740991"
    assert js.number_to_string(10**21) == "1e+21"
    assert js.number_to_string(10**400) == "Infinity" and js.number_to_string(-(10**400)) == "-Infinity"
    with pytest.raises(TypeError):
        js.number_to_string(True)


def test_whitespace_is_exactly_what_node_trims() -> None:
    assert sorted(map(ord, js.WHITESPACE)) == DATA["whitespace"]


def test_trim_every_code_point() -> None:
    """Exhaustive: for every scalar value c, trim removes c alone exactly when Node's does."""
    trimmed = set(DATA["whitespace"])
    wrong = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF and (js.trim(chr(c)) == "") != (c in trimmed)]
    assert wrong == []
    assert js.trim("\x85x\x1c") == "\x85x\x1c"  # Python's str.strip would take both


def test_trim_start_and_end_take_one_side() -> None:
    assert js.trim_start("\ufeff\u3000 a \u2028") == "a \u2028"
    assert js.trim_end("\ufeff\u3000 a \u2028") == "\ufeff\u3000 a"


@pytest.mark.parametrize(("value", "said"), DATA["to_number"], ids=repr)
def test_to_number_matches_node(value: object, said: str) -> None:
    assert _number_text(js.to_number(value)) == said


@pytest.mark.parametrize(("value", "said"), DATA["to_string"], ids=repr)
def test_to_string_matches_node(value: object, said: str) -> None:
    assert js.to_string(value) == said


@pytest.mark.parametrize(("value", "said"), DATA["truthy"], ids=repr)
def test_truthy_matches_node(value: object, said: bool) -> None:
    assert js.truthy(value) is said


@pytest.mark.parametrize(("text", "start", "end", "length", "sliced"), DATA["utf16"], ids=repr)
def test_utf16_length_and_slice_match_node(text: str, start: int, end: int | None, length: int, sliced: str) -> None:
    assert js.utf16_length(text) == length
    assert js.utf16_slice(text, start, end) == sliced.encode("utf-16-le", "surrogatepass").decode(
        "utf-16-le", "surrogatepass")


def test_a_slice_through_a_pair_leaves_a_lone_surrogate() -> None:
    assert js.utf16_slice("a😀", 0, 2) == "a\ud83d"
    assert js.utf16_slice("a😀", 2) == "\ude00"


def test_sort_key_is_code_unit_order() -> None:
    assert sorted(["\uff61", "\U0001f600", "a"], key=js.utf16_sort_key) == ["a", "\U0001f600", "\uff61"]


@pytest.mark.parametrize(("key", "index"), [("0", True), ("17", True), ("4294967294", True), ("4294967295", False),
                                             ("01", False), ("-1", False), ("1.5", False), ("", False),
                                             ("１", False), ("²", False), (" 1", False)])
def test_is_array_index(key: str, index: bool) -> None:
    assert js.is_array_index(key) is index


def test_object_keys_order_is_quickjs_order() -> None:
    keys = ["b", "10", "a", "2", "01", "4294967295", "0"]
    source = "const o = {}; for (const k of input) o[k] = 1; Object.keys(o)"
    assert js.object_keys(dict.fromkeys(keys)) == _quickjs(source, keys) == ["0", "2", "10", "b", "a", "01",
                                                                             "4294967295"]


# --- the QuickJS sandbox, live -------------------------------------------------------------

_LIVE = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
_finite = st.floats(allow_nan=False, allow_infinity=False)
_decimals = st.builds(lambda m, e: float(f"{m}e{e}"), st.integers(-(10**17), 10**17), st.integers(-340, 320)).filter(math.isfinite)


@_LIVE
@given(st.lists(st.one_of(_finite, _decimals, st.integers(-(2**70), 2**70)), min_size=1, max_size=200))
def test_number_to_string_matches_quickjs(values: list[float]) -> None:
    values = [float(v) for v in values]  # JSON carries every finite double exactly
    assert [js.number_to_string(v) for v in values] == _quickjs("input.map(String)", values)


_json_scalar = st.one_of(st.none(), st.booleans(), _finite, st.integers(-js.MAX_SAFE_INTEGER, js.MAX_SAFE_INTEGER),
                         st.text(st.characters(exclude_categories=["Cs"]), max_size=8))
_json = st.recursive(_json_scalar, lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=12)


@_LIVE
@given(st.lists(_json, min_size=1, max_size=40))
def test_string_number_and_truthiness_of_json_values_match_quickjs(values: list[object]) -> None:
    source = "input.map(v => [String(v), Object.is(Number(v), -0) ? '-0' : String(Number(v)), !!v])"
    expected = _quickjs(source, values)
    assert [[js.to_string(v), _number_text(js.to_number(v)), js.truthy(v)] for v in values] == expected


_numeric_text = st.one_of(
    st.lists(st.sampled_from(list("0123456789.eE+-xXoObB_ aAfF\u00a0\ufeff\u2028\x85\t") + ["Infinity"]),
             max_size=10).map("".join),
    st.builds(lambda ws, x, ws2: ws + repr(x) + ws2, st.text(st.sampled_from(js.WHITESPACE), max_size=2), _finite,
              st.text(st.sampled_from(js.WHITESPACE), max_size=2)),
)


@_LIVE
@given(st.lists(_numeric_text, min_size=1, max_size=80))
def test_to_number_of_text_matches_quickjs(texts: list[str]) -> None:
    source = "input.map(v => Object.is(Number(v), -0) ? '-0' : String(Number(v)))"
    assert [_number_text(js.to_number(t)) for t in texts] == _quickjs(source, texts)


_units = st.text(st.one_of(st.characters(max_codepoint=0x7F), st.characters(min_codepoint=0x3000, max_codepoint=0x30FF),
                           st.characters(min_codepoint=0x1F600, max_codepoint=0x1F64F),
                           st.sampled_from(list(js.WHITESPACE) + ["\x85", "\x1c", "\u200b", "\u180e"])), max_size=12)


@_LIVE
@given(st.lists(st.tuples(_units, st.integers(-15, 15), st.one_of(st.none(), st.integers(-15, 15))), min_size=1,
                max_size=40))
def test_length_slice_and_trim_match_quickjs(cases: list[tuple[str, int, int | None]]) -> None:
    # a slice may end in a lone surrogate, which cannot cross back as text: compare its code units
    source = ("input.map(([s, a, b]) => { const t = b === null ? s.slice(a) : s.slice(a, b);"
              " return [s.length, Array.from({length: t.length}, (_, i) => t.charCodeAt(i)), s.trim()]; })")
    expected = _quickjs(source, [list(c) for c in cases])
    got = []
    for text, start, end in cases:
        part = js.utf16_slice(text, start, end).encode("utf-16-le", "surrogatepass")
        got.append([js.utf16_length(text), list(struct.unpack(f"<{len(part) // 2}H", part)), js.trim(text)])
    assert got == expected


@_LIVE
@given(st.lists(st.text(st.characters(exclude_categories=["Cs"]), max_size=6), min_size=2, max_size=30))
def test_sort_key_matches_quickjs_sort(texts: list[str]) -> None:
    assert sorted(texts, key=js.utf16_sort_key) == _quickjs("input.slice().sort()", texts)
