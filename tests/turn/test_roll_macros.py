"""``{{roll:…}}`` in narration: the linear pattern answers as the backtracking one did, and no
narration makes it slow or floods the history with rolls."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from lwcore.turn.macros import MAX_ROLLS, expand_rolls

OLD_MACRO = re.compile(r"\{\{\s*roll\s*:\s*([^{}]{1,200}?)\s*\}\}", re.IGNORECASE)
"""The pattern before: right answers, but ``{{roll:`` and a long run of spaces took minutes."""


def old_expand(text: str, rng: random.Random) -> tuple[str, list[dict]]:
    from lwcore.errors import LwError
    from lwcore.rules.dice import roll

    rolls: list[dict] = []

    def replace(match: re.Match[str]) -> str:
        try:
            outcome = roll(match.group(1), rng)
        except LwError as exc:
            rolls.append({"expr": match.group(1), "error": str(exc)})
            return f"[roll error: {exc.message}]"
        rolls.append(outcome.to_json())
        return str(outcome.total)

    return (OLD_MACRO.sub(replace, text), rolls) if "{{" in text else (text, [])


PIECES = ["{{", "}}", "{", "}", "roll", "ROLL", ":", " ", "  ", "\n", "\u3000", "1d6", "d", "2", "+", "x", "雾"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=14).map("".join), st.integers(0, 2**32))
def test_the_linear_pattern_answers_as_the_old_one(text, seed):
    assert expand_rolls(text, random.Random(seed)) == old_expand(text, random.Random(seed))


def test_expressions_past_their_length_are_left_as_written():
    long = "{{roll:" + "1" * 201 + "}}"
    assert expand_rolls(long, random.Random(1)) == (long, [])
    assert expand_rolls("{{roll:" + " " * 300 + "1d1" + " " * 300 + "}}", random.Random(1))[0] == "1"


def test_at_most_so_many_rolls_a_narration():
    text, rolls = expand_rolls("{{roll:1d1}}" * (MAX_ROLLS + 3), random.Random(1))
    assert len(rolls) == MAX_ROLLS
    assert text == "1" * MAX_ROLLS + f"[roll not made: more than {MAX_ROLLS} rolls in one reply]" * 3


HOSTILE = {
    "an open macro and spaces": "{{roll:" + " " * 500_000,
    "open macros with spaces": "{{roll:  " * 60_000,
    "braces and spaces": "{{  " * 120_000,
    "a long expression": "{{roll:" + "x" * 500_000 + "}}",
    "many macros": "{{roll:1d6}}" * 40_000,
    "roll and spaces": "{{ roll " + " " * 500_000,
}

CHILD = """
import json, random, sys
from lwcore.turn.macros import expand_rolls
cases = json.loads(sys.stdin.read())
print(json.dumps({name: len(expand_rolls(text, random.Random(1))[1]) for name, text in cases.items()}))
"""


def test_hostile_narrations_expand_in_bounded_time() -> None:
    proc = subprocess.run([sys.executable, "-c", CHILD], input=json.dumps(HOSTILE).encode(), capture_output=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()
    rolled = json.loads(proc.stdout)
    assert rolled["many macros"] == MAX_ROLLS and rolled["an open macro and spaces"] == 0
