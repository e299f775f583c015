"""Generated hostile inputs (hypothesis strategies and fixed corpora) for any surface.

Text and bytes builders: :func:`nested_json`, :func:`nested_yaml`, :func:`alias_bomb`,
:func:`invalid_utf8`, :func:`huge_text`. Strategies: :func:`wrong_types` (values of every JSON
type but the expected one), :func:`hostile_scalars` (numbers and strings parsers mishandle),
:func:`hostile_yaml` (whole YAML documents: deep, aliased, tagged, duplicated, mis-encoded),
:func:`hostile_json_lines` (batch lines), :func:`path_tricks` (paths that climb out, are
absolute, or name devices and folders).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

JSON_KINDS = {
    "int": st.integers(-10**6, 10**6),
    "float": st.floats(allow_nan=False, allow_infinity=False).filter(lambda f: not float(f).is_integer()),
    "bool": st.booleans(),
    "str": st.text(max_size=20),
    "null": st.none(),
    "list": st.lists(st.integers(), max_size=3),
    "dict": st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
}


def nested_json(depth: int, opener: str = "[", closer: str = "]") -> str:
    return opener * depth + closer * depth


def nested_yaml(depth: int) -> str:
    """A flow list nested ``depth`` deep (``[[[…]]]``)."""
    return "a: " + "[" * depth + "]" * depth + "\n"


def alias_bomb(levels: int = 12, width: int = 9) -> str:
    """A few hundred bytes that expand to ``width ** levels`` values when aliases are followed."""
    lines = ['a0: &a0 ["lol"]']
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    lines.append(f"bomb: *a{levels - 1}")
    return "\n".join(lines) + "\n"


def invalid_utf8(prefix: str = "names: [x]\n") -> bytes:
    return prefix.encode() + b"defaults: {\xff\xfe: 1}\n"


def huge_text(size: int, unit: str = "x") -> str:
    return unit * size


def wrong_types(expected: str) -> st.SearchStrategy[Any]:
    """Values of every JSON type except ``expected`` (``int`` also excludes ``bool``, which
    Python would read as 0/1, and whole floats like ``50.0``)."""
    others = [s for kind, s in JSON_KINDS.items() if kind != expected]
    if expected == "int":
        others.append(st.just(50.7))
    return st.one_of(others)


def hostile_scalars() -> st.SearchStrategy[str]:
    """Scalar tokens (as YAML/JSON text) that parsers mishandle: non-finite numbers, numbers
    that are text in YAML, huge integers, tags, control characters, lone surrogates."""
    return st.sampled_from([
        ".nan", ".inf", "-.inf", "1e400", "NaN", "Infinity", "9" * 5000, "0x1F", "0o17", "1_000",
        "!!python/object/apply:os.system ['true']", "!!binary aGVsbG8=", "!custom x", "~", "null",
        '"\\ud800"', '"\\x00"', "yes", "no", "2024-01-01", "'", '"',
    ])


def hostile_yaml() -> st.SearchStrategy[bytes]:
    """Whole YAML documents that must be refused with a location (or read safely)."""
    fixed = [
        alias_bomb().encode(),
        nested_yaml(5000).encode(),
        nested_yaml(100).encode(),
        invalid_utf8(),
        b"names: [x]\nnames: [y]\n",
        b"!!python/object/apply:os.system ['echo pwned']\n",
        b"a: &a [*a]\n",
        b"\x00\x01\x02",
        b"resolution: {roll: 1d20\n",
        b"- just\n- a list\n",
        b"just text\n",
        ("defaults:\n" + "".join(f"  s{i}: {i}\n" for i in range(20000))).encode(),
    ]
    scalar = hostile_scalars().map(lambda token: f"defaults: {{STR: {token}}}\n".encode())
    return st.one_of(st.sampled_from(fixed), scalar)


CHECK_REQUEST: dict[str, Any] = {"system": "coc7", "skill": 50}
"""A valid ``lw check --batch`` request, the default base of :func:`hostile_json_lines`."""


def hostile_json_lines(fields: dict[str, str], base: dict[str, Any] | None = None) -> st.SearchStrategy[bytes]:
    """One batch line: a valid request (``base``) with one of its ``fields`` given a wrong type,
    or a line that is not a JSON object at all (bad tokens, bad bytes, deep nesting, blank)."""
    import json

    base = CHECK_REQUEST if base is None else base

    def with_wrong(field_and_value: tuple[str, Any]) -> bytes:
        field, value = field_and_value
        return json.dumps({**base, field: value}).encode()

    wrong = st.sampled_from(sorted(fields)).flatmap(lambda f: st.tuples(st.just(f), wrong_types(fields[f])))
    return st.one_of(wrong.map(with_wrong), st.sampled_from(malformed_lines(base, next(iter(sorted(fields))))))


def malformed_lines(base: dict[str, Any], field: str) -> list[bytes]:
    """Lines that are no request at all, each built on ``base`` with ``field`` spoiled: tokens
    JSON does not have, numbers no reader keeps, bytes that are not UTF-8, a lone surrogate, a
    duplicate key, nesting 50,000 deep, truncated JSON, a value that is no object, blank."""
    import json

    rest = {k: v for k, v in base.items() if k != field}
    head = json.dumps(rest)[:-1].encode() + b", " if rest else b"{"
    key = json.dumps(field).encode() + b": "
    return [
        head + key + b"NaN}", head + key + b"Infinity}", head + key + b"-Infinity}", head + key + b"1e400}",
        head + key + b"9" * 5000 + b"}", head + key + b'"5\xff"}',
        head + key + b'"\\ud800"}', head + key + b"1, " + key + b"2}", head + key + b"[" * 50000 + b"]" * 50000 + b"}",
        nested_json(50000).encode(), b"[]", b"42", b'"text"', b"null", b"{", head + key, b"", b"   \t",
        b"\xef\xbb\xbf{}", b"\x00",
    ]


def path_tricks() -> st.SearchStrategy[str]:
    """Paths a file names that must be refused or confined."""
    return st.sampled_from([
        "../../../../etc/passwd", "/etc/passwd", "..", ".", "/dev/zero", "/dev/stdin", "nul", "con",
        "a/../../b.yaml", "\\..\\..\\x.yaml", "missing/deeper/file.yaml",
    ])
