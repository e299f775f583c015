"""The safe readers: limits, refusals and located errors, and that ordinary data reads back
exactly (hypothesis)."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from lwcore.errors import LwError
from lwcore.io import Limits, confine, decode_text, iter_json_lines, load_json, load_yaml, read_text

# YAML reads NEL and the Unicode line and paragraph separators as line breaks wherever they
# stand, and PyYAML's dumper does not quote them in keys: leave them out of the round trip.
_TEXT = st.text(alphabet=st.characters(blacklist_characters="\x85\u2028\u2029", blacklist_categories=["Cs"]),
                max_size=30)
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**12), 10**12),
    st.floats(allow_nan=False, allow_infinity=False, width=64), _TEXT,
)
documents = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(_TEXT, children, max_size=5),
    max_leaves=30,
)


@given(documents)
def test_json_reads_back_what_json_wrote(value) -> None:
    assert load_json(json.dumps(value, ensure_ascii=False)) == value


YAML_FOLDED_BREAKS = ("\x85",)
"""PyYAML's emitter (allow_unicode=True) writes NEL unescaped into a quoted scalar, where YAML
folds it into a space: ``yaml.safe_load`` itself reads ``' '`` back. The writer is wrong there,
not the reader, so NEL is left out of the round trip below. (Which examples Hypothesis draws
depends on the modules loaded, so this showed only in some runs.)"""


def _without_folded_breaks(value) -> bool:
    if isinstance(value, str):
        return not any(c in value for c in YAML_FOLDED_BREAKS)
    if isinstance(value, dict):
        return all(_without_folded_breaks(k) and _without_folded_breaks(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_without_folded_breaks(v) for v in value)
    return True


@given(documents.filter(_without_folded_breaks))
def test_yaml_reads_back_what_yaml_wrote(value) -> None:
    text = yaml.safe_dump(value, allow_unicode=True)
    assert load_yaml(text) == value


def test_pyyaml_folds_the_line_breaks_it_writes_unescaped() -> None:
    """Why the round trip above leaves them out: PyYAML's own loader reads a space back."""
    for brk in YAML_FOLDED_BREAKS:
        text = yaml.safe_dump({brk: None}, allow_unicode=True)
        assert yaml.safe_load(text) == load_yaml(text) != {brk: None}


@given(st.binary(max_size=200))
def test_arbitrary_bytes_never_crash_the_readers(data: bytes) -> None:
    for reader in (load_json, load_yaml):
        try:
            reader(data, "x")
        except LwError as exc:
            assert exc.file == "x" and exc.message


def alias_bomb(levels: int = 9) -> str:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, levels):
        refs = ",".join([f"*a{i-1}"] * 9)
        lines.append(f"a{i}: &a{i} [{refs}]")
    return "\n".join(lines) + "\n"


def test_an_alias_bomb_is_refused_quickly() -> None:
    start = time.perf_counter()
    with pytest.raises(LwError, match="alias") as info:
        load_yaml(alias_bomb(), "bomb.yaml")
    assert time.perf_counter() - start < 5  # a bound against a hang, not a benchmark
    assert info.value.code == "limit" and info.value.line is not None


@pytest.mark.parametrize("text,needle,line", [
    ("a: 1\nb: 2\na: 3\n", "duplicate key 'a' (first at line 1)", 3),
    ("x: !!python/object/apply:os.system [ls]\n", "unsupported YAML tag", 1),
    ("x: !custom 1\n", "unsupported YAML tag", 1),
    ("x: .nan\n", "not a finite number", 1),
    ("x: -.inf\n", "not a finite number", 1),
    ("&a [*a]\n", "recursive alias", 1),
    ("{[1]: 2}\n", "plain value", 1),
    ("a: [\n", "invalid YAML", 2),
    ("[" * 2000 + "]" * 2000, "nesting depth", 1),
])
def test_yaml_refusals_are_located(text: str, needle: str, line: int) -> None:
    with pytest.raises(LwError) as info:
        load_yaml(text, "f.yaml")
    assert needle in info.value.message and info.value.file == "f.yaml" and info.value.line == line


def test_yaml_depth_and_merge_keys() -> None:
    deep = "a:\n" + "".join("  " * (i + 1) + "a:\n" for i in range(70))
    with pytest.raises(LwError, match="deeper than 64"):
        load_yaml(deep)
    assert load_yaml("b: &b {x: 1, y: 2}\nk:\n  <<: *b\n  y: 3\n") == {"b": {"x": 1, "y": 2}, "k": {"x": 1, "y": 3}}
    assert load_yaml("d: 2024-01-01\n") == {"d": "2024-01-01"}  # dates stay text


def test_aliases_are_copies_not_shared_objects() -> None:
    data = load_yaml("a: &x [1]\nb: *x\n")
    data["a"].append(2)
    assert data["b"] == [1]


@pytest.mark.parametrize("text,needle,code", [
    ('{"a": 1, "a": 2}', "duplicate key 'a'", "duplicate_key"),
    ("[NaN]", "NaN is not a JSON number", "value"),
    ('{"x": Infinity}', "Infinity is not a JSON number", "value"),
    ('{"x": 1e400}', "out of range", "value"),
    ('"\\ud800"', "lone surrogate", "value"),
    ("1" * 5000, "too many digits", "value"),
    ("[" * 50000 + "]" * 50000, "nested deeper", "limit"),
    ('{"a": ' * 200 + "1" + "}" * 200, "nested deeper", "limit"),
    ("{nope", "invalid JSON", "syntax"),
])
def test_json_refusals(text: str, needle: str, code: str) -> None:
    with pytest.raises(LwError) as info:
        load_json(text, "f.json")
    assert needle in info.value.message and info.value.code == code


def test_size_limits() -> None:
    with pytest.raises(LwError, match="larger than"):
        load_json(b"[" + b"1," * 100 + b"1]", "f", limits=Limits(max_bytes=50))
    with pytest.raises(LwError, match="more than 10 values"):
        load_json(json.dumps(list(range(20))), limits=Limits(max_nodes=10))


def test_encoding_errors_name_line_column_and_byte(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes("第一行\n".encode() + b"ab\xffcd")
    with pytest.raises(LwError) as info:
        read_text(path)
    err = info.value
    assert (err.line, err.column, err.byte, err.code) == (2, 3, 12, "encoding")
    assert "byte 12" in str(err) and str(path) in str(err)
    assert decode_text(b"\xef\xbb\xbfhi") == "hi"


def test_missing_files_and_folders(tmp_path: Path) -> None:
    with pytest.raises(LwError, match="file not found"):
        read_text(tmp_path / "nope")
    with pytest.raises(LwError, match="is a folder"):
        read_text(tmp_path)


def test_json_lines_give_one_outcome_per_line() -> None:
    lines = ['{"a": 1}', "", "oops", '{"b": NaN}', '{"c": 3}']
    outcomes = list(iter_json_lines(lines, "<stdin>"))
    assert [n for n, _ in outcomes] == [1, 3, 4, 5]
    assert outcomes[0][1] == {"a": 1} and outcomes[3][1] == {"c": 3}
    assert isinstance(outcomes[1][1], LwError) and outcomes[1][1].line == 3
    assert isinstance(outcomes[2][1], LwError) and outcomes[2][1].line == 4


@pytest.mark.parametrize("rel", ["../x", "/etc/passwd", "a/../../x", "C:\\\\x", "\\\\\\\\server\\\\share", "a\x00b", "", "  "])
def test_confine_refuses_escapes(tmp_path: Path, rel: str) -> None:
    with pytest.raises(LwError):
        confine(tmp_path, rel, file="room.yaml")


def test_confine_follows_symlinks(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    room = tmp_path / "room"
    room.mkdir()
    (room / "link").symlink_to(outside)
    with pytest.raises(LwError, match="outside its folder"):
        confine(room, "link/secret.yaml")
    assert confine(room, "sheets/../sheets/a.yaml") == (room / "sheets" / "a.yaml").resolve()


@given(st.lists(st.sampled_from(["a", "b", ".", "..", "/", "\\", "~", "_", "-"]), max_size=12).map("".join))
def test_confine_result_is_always_inside(rel: str) -> None:
    root = Path("/tmp/lw-confine-root")
    try:
        out = confine(root, rel)
    except LwError:
        return
    assert out == root.resolve() or root.resolve() in out.parents


def test_nonfinite_allowed_when_asked() -> None:
    assert math.isnan(load_yaml("x: .nan", limits=Limits(allow_nonfinite=True))["x"])


@pytest.mark.parametrize("digits", ["1" * 1300, "1" * 5000, "0x" + "f" * 1100, "-" + "9" * 4400])
def test_an_integer_no_field_can_hold_is_refused_as_too_large_with_its_value_clipped(digits: str) -> None:
    with pytest.raises(LwError) as info:
        load_yaml(f"a: 1\nn: {digits}\n", "f.yaml")
    err = info.value
    assert (err.code, err.line, err.column) == ("value", 2, 4)
    assert "too large a number" in err.message and len(err.message) < 120  # never the thousands of digits
    assert load_yaml("n: " + "1" * 1200 + "\n", "f.yaml")["n"] == int("1" * 1200)  # under 4096 bits still reads
