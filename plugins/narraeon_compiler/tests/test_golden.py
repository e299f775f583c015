"""Golden payloads: every branch on every provider, byte for byte against the reference.

``golden/expected.jsonl`` is the output of the narraeon 0.5.2 reference code (run under
Node.js) for the requests in ``golden/cases.jsonl``; fingerprints in it are therefore the
reference's, frozen, and must stay stable across runs and machines.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lw_narraeon.canonical import js_json
from lw_narraeon.compiler import compile_request

GOLDEN = Path(__file__).parent / "golden"
CASES = [json.loads(line) for line in (GOLDEN / "cases.jsonl").read_text(encoding="utf-8").splitlines()]
EXPECTED = (GOLDEN / "expected.jsonl").read_bytes().decode("utf-8").rstrip("\n").split("\n")


def test_one_expected_line_per_case() -> None:
    assert len(CASES) == len(EXPECTED) > 100
    names = [case["name"] for case in CASES]
    assert len(set(names)) == len(names)


@pytest.mark.parametrize("index", range(len(CASES)), ids=[case["name"] for case in CASES])
def test_golden_payload(index: int) -> None:
    response = compile_request(CASES[index]["request"])
    assert js_json(response) == EXPECTED[index]


def test_golden_covers_every_branch() -> None:
    names = {case["name"] for case in CASES}
    for provider in ("anthropic", "chat", "openai"):
        for branch in (
            "ordered-basic", "ordered-merge-off", "ordered-merge-on-ids", "ordered-cjk-emoji",
            "ordered-empty-user-entries", "ordered-system-after-user", "ordered-dialogue-merge-off",
            "legacy-full", "chain-ordered", "chain-ordered-cliproxy", "chain-legacy",
        ):
            assert f"{provider}-{branch}" in names
    by_name = dict(zip((c["name"] for c in CASES), EXPECTED))
    error = json.loads(by_name["anthropic-ordered-system-after-user"])["error"]
    assert error["code"] == "prompt_role_order_unsupported"
    assert "请将所有 System 提示" in error["message"]
    assert "error" not in json.loads(by_name["chat-ordered-system-after-user"])


def test_fingerprint_stable_across_processes() -> None:
    import subprocess
    import sys

    request = CASES[0]["request"]
    code = (
        "import json,sys; from lw_narraeon.compiler import compile_request; "
        "print(compile_request(json.loads(sys.stdin.read()))['cache']['stablePrefixFingerprint'])"
    )
    seen = set()
    for seed in ("0", "12345"):
        out = subprocess.run(
            [sys.executable, "-c", code], input=json.dumps(request), capture_output=True, text=True,
            env={"PYTHONHASHSEED": seed, "PATH": ""}, check=True,
        )
        seen.add(out.stdout.strip())
    assert seen == {json.loads(EXPECTED[0])["cache"]["stablePrefixFingerprint"]}


OWN_CASES = [json.loads(line) for line in (GOLDEN / "own_cases.jsonl").read_text(encoding="utf-8").splitlines()]
OWN_EXPECTED = (GOLDEN / "own_expected.jsonl").read_bytes().decode("utf-8").rstrip("\n").split("\n")


@pytest.mark.parametrize("index", range(len(OWN_CASES)), ids=[case["name"] for case in OWN_CASES])
def test_legacy_missing_roles_golden(index: int) -> None:
    """Where we differ from the reference on purpose: a missing legacy role is omitted."""
    text = js_json(compile_request(OWN_CASES[index]["request"]))
    assert text == OWN_EXPECTED[index]
    assert "undefined" not in text
    output = json.loads(text)["output"]
    for block in output.get("system", []):
        assert set(block) >= {"type", "text"}
    for message in output["messages"]:
        assert message["content"] not in ([], "")
