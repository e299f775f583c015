"""Hostile input against ``lw prompt compile --batch``: every line gets exactly one answer
(the compilation, or the kernel's located error naming the line, as ``lw check --batch``
answers), later lines are never lost, and nothing is a traceback or an internal error (exit
2). Each case is a real ``lw`` process with a timeout; generation is derandomized."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostile_kit import hostile_cases, assert_clean, assert_refused, run_lw
from hostile_strategies import hostile_json_lines, malformed_lines

CASES = hostile_cases(8)
SURFACE = "lw prompt compile --batch"
REQUEST = {"provider": "chat_completions", "messages": [{"role": "player_input", "markdown": "p"}]}
FIELDS = {"provider": "str", "messages": "list", "cacheStrategy": "str", "ordered": "bool",
          "mergeConsecutiveMessages": "bool", "callChain": "bool", "tools": "list", "toolStrategy": "str",
          "locale": "str"}
ERROR_KEYS = {"message", "file", "line", "column", "byte", "expected", "code"}


def compile_batch(stdin: bytes, home: Path) -> list[dict]:
    outcome = run_lw("prompt", "compile", "--batch", "-", data_dir=home, stdin=stdin, surface=SURFACE)
    assert_clean(outcome)
    answers = [json.loads(line) for line in outcome.stdout.splitlines()]
    assert outcome.code == (1 if any("error" in a for a in answers) else 0), outcome.stderr
    return answers


def assert_interleaved(answers: list[dict], count: int) -> list[dict]:
    """``count`` hostile lines each followed by a good one: every good one compiled, and each
    hostile one answered on its own line (refused with that line number, or compiled).
    Returns the hostile lines' answers."""
    assert len(answers) == 2 * count
    assert all(good["output"]["messages"] == [{"role": "user", "content": "p"}] for good in answers[1::2])
    for index, answer in enumerate(answers[0::2]):
        if "error" in answer:
            error = answer["error"]
            assert set(error) == ERROR_KEYS and error["line"] == 2 * index + 1 and error["message"], error
    return answers[0::2]


@pytest.mark.parametrize("field", ["provider", "messages"])
def test_every_malformed_line_is_refused_with_its_line(tmp_path: Path, field: str) -> None:
    """Tokens JSON lacks (NaN, Infinity, 1e400), 5,000-digit numbers, invalid UTF-8, a lone
    surrogate, a duplicate key, nesting 50,000 deep, truncated JSON, values that are no
    object, blank lines: each refused on its line, the good line after it still compiled."""
    bad = malformed_lines(REQUEST, field)
    good = json.dumps(REQUEST).encode()
    answers = compile_batch(b"\n".join(line for b in bad for line in (b, good)) + b"\n", tmp_path / "home")
    refused = assert_interleaved(answers, len(bad))
    assert all("error" in answer for answer in refused), [a for a in refused if "error" not in a]
    codes = [answer["error"]["code"] for answer in refused]
    assert {"value", "limit", "encoding", "duplicate_key", "syntax", "empty", "invalid_request"} <= set(codes), codes


@pytest.mark.parametrize(("field", "value"), [
    ("provider", 5), ("provider", None), ("provider", ["anthropic_messages"]), ("messages", "hi"),
    ("messages", [1]), ("messages", [{"role": "player_input", "markdown": 5}]), ("ordered", "yes"),
    ("ordered", 1), ("callChain", None), ("tools", {"a": 1}), ("toolStrategy", 0), ("locale", 5),
    ("cacheStrategy", True),
])
def test_a_field_of_the_wrong_type_is_refused_never_coerced(tmp_path: Path, field: str, value: object) -> None:
    line = json.dumps({**REQUEST, field: value}).encode()
    [answer] = compile_batch(line + b"\n", tmp_path / "home")
    assert answer["error"]["line"] == 1 and answer["error"]["code"] in (
        "invalid_request", "unsupported_provider", "invalid_logical_messages", "unsupported_cache_strategy",
        "unsupported_tool_strategy"), answer


@CASES
@given(lines=st.lists(hostile_json_lines(FIELDS, base=REQUEST), min_size=1, max_size=4))
def test_compile_batch_answers_every_hostile_line_and_goes_on(tmp_path_factory: pytest.TempPathFactory,
                                                             lines: list[bytes]) -> None:
    home = tmp_path_factory.mktemp("hostile") / "home"
    good = json.dumps(REQUEST).encode()
    answers = compile_batch(b"\n".join(line for bad in lines for line in (bad, good)) + b"\n", home)
    assert_interleaved(answers, len(lines))


@pytest.mark.parametrize("kind", ["folder", "missing", "/dev/zero"])
def test_compile_batch_from_a_file_that_is_not_one(tmp_path: Path, kind: str) -> None:
    target = {"folder": tmp_path, "missing": tmp_path / "missing.jsonl"}.get(kind, Path(kind))
    outcome = run_lw("prompt", "compile", "--batch", str(target), data_dir=tmp_path / "home", timeout=30,
                     surface=SURFACE)
    assert_refused(outcome, where=str(target))
