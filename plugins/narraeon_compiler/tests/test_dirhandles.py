"""Directory handles: reference conformance vectors, canonical-only parsing, round trips."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lw_narraeon.dirhandles import encode_dir_handle, parse_dir_handle, try_parse_dir_handle
from lw_narraeon.errors import DirHandleError

# Produced by running encodeURIComponent / the reference parser under Node.js.
VECTORS = json.loads((Path(__file__).parent / "golden" / "js_vectors.json").read_text(encoding="utf-8"))


def test_parser_agrees_with_reference_on_1500_handles() -> None:
    disagreements = [(h, want, try_parse_dir_handle(h)) for h, want in VECTORS["parse"] if try_parse_dir_handle(h) != want]
    assert disagreements == []
    assert sum(1 for _, want in VECTORS["parse"] if want is not None) > 100


def test_encoder_agrees_with_encode_uri_component() -> None:
    for directory, handle in VECTORS["encode"]:
        try:
            ours = encode_dir_handle(directory)
        except DirHandleError:
            # Stricter than the reference by design: only for directories its parser rejects.
            assert try_parse_dir_handle(handle) is None
            continue
        assert ours == handle


@pytest.mark.parametrize(
    "handle, directory",
    [
        ("@dir-/", ""),
        ("@dir-/characters", "characters"),
        ("@dir-/characters/%E5%BC%A0%E4%B8%89", "characters/张三"),
        ("@dir-/a%20b", "a b"),
        ("@dir-/(x)!*~'.-_", "(x)!*~'.-_"),
        ("@dir-/%F0%9F%98%80", "😀"),
        ("@dir-/...", "..."),
    ],
)
def test_canonical_handles_parse(handle: str, directory: str) -> None:
    assert parse_dir_handle(handle) == directory
    assert encode_dir_handle(directory) == handle


@pytest.mark.parametrize(
    "handle",
    [
        "", "@dir-", "@dir-/a/", "@dir-//a", "@dir-/a//b", "dir-/a", "@DIR-/a",
        "@dir-/%e5%bc%a0",  # lower-case hex
        "@dir-/%41",  # over-encoding
        "@dir-/张",  # raw non-ASCII
        "@dir-/a b",  # raw space
        "@dir-/.", "@dir-/..", "@dir-/a/../b", "@dir-/%2E%2E",
        "@dir-/a\\b", "@dir-/a%5Cb",  # backslash, even encoded
        "@dir-/a%2Fb",  # slash inside a segment
        "@dir-/%FF", "@dir-/%C0%AF", "@dir-/%ED%A0%80", "@dir-/%E5%BC",  # invalid UTF-8
        "@dir-/%", "@dir-/%4", "@dir-/%ZZ",
    ],
)
def test_non_canonical_handles_are_rejected(handle: str) -> None:
    with pytest.raises(DirHandleError):
        parse_dir_handle(handle)
    assert try_parse_dir_handle(handle) is None


@pytest.mark.parametrize("value", [None, 3, b"@dir-/", ["@dir-/"]])
def test_parser_rejects_non_strings_with_its_own_error(value: object) -> None:
    with pytest.raises(DirHandleError):
        parse_dir_handle(value)


@pytest.mark.parametrize("directory", ["/a", "a/", "a//b", ".", "..", "a/./b", "a\\b", "x\ud800", 7])
def test_encoder_refuses_what_the_parser_rejects(directory: object) -> None:
    with pytest.raises(DirHandleError):
        encode_dir_handle(directory)  # type: ignore[arg-type]


segment = st.text(min_size=1, max_size=12).filter(lambda s: "/" not in s)
directories = st.lists(segment, min_size=1, max_size=4).map("/".join)


@settings(max_examples=400, deadline=None)
@given(directories)
def test_every_encoded_handle_parses_back(directory: str) -> None:
    try:
        handle = encode_dir_handle(directory)
    except DirHandleError:
        return
    assert parse_dir_handle(handle) == directory
    assert handle.isascii() and " " not in handle


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=30))
def test_encode_never_raises_anything_else(directory: str) -> None:
    try:
        handle = encode_dir_handle(directory)
    except DirHandleError:
        return
    assert parse_dir_handle(handle) == directory


pieces = st.sampled_from(
    list("aZ09-_.!~*'() /\\%fEe5CDA8B") + ["张", "😀", "%E5", "%BC", "%A0", "%2E", "%5C", "%2F", "%F0%9F", "%98%80", "\ud800"]
)
handle_text = st.lists(pieces, max_size=12).map(lambda parts: "@dir-/" + "".join(parts))


@settings(max_examples=1000, deadline=None)
@given(st.one_of(handle_text, st.text(max_size=20)))
def test_parser_never_raises_anything_but_its_own_error(handle: str) -> None:
    try:
        directory = parse_dir_handle(handle)
    except DirHandleError:
        return
    assert encode_dir_handle(directory) == handle
