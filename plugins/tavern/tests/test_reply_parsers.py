"""The reply parsers are linear in the reply: same answers as before, no input makes them slow.

- ``<UpdateVariable>`` parsing (:mod:`lw_tavern.mvu.update`) gives what the regex-based parser it
  replaced gives (``mvu_reference.py``, the oracle) on generated replies full of tags, fences,
  strings and brackets -- commands, their lines and columns, the narration, every problem.
- A hostile corpus at the 512 KiB reply limit, one reply per class (unclosed fences, openings
  without ``>``, unclosed patches, unclosed strings, brackets and parentheses repeated, runs of
  spaces, JSON5 at length, ten thousands of commands), is parsed in a child process that must
  finish within a generous timeout (a hang check, not a speed test: ``bench/replies.py`` measures).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import mvu_reference as reference
from lw_tavern.mvu.update import MAX_REPLY, parse_reply, strip_blocks

PIECES = [
    "<UpdateVariable>", "</UpdateVariable>", "<update_variable x='1'>", "< / updatevariable >", "<updatevariable ",
    "```", "```xml\n", "```json", "<JSONPatch>", "</JSONPatch>", "<json_patch>", "</jsonpatch>", "<Analysis>",
    "</analysis>", "<analysis ", "_.set(", "_.insert(", "_.add(", "_.move(", "_.unset(", "'a'", '"b"', "`c`", "'",
    '"', "[", "]", "{", "}", "(", ")", ",", ";", "//why", "1", "2.5", "1+2", "x", "雾", "\n", " ", "\t", ">", "<",
    "\\", '[{"op":"replace","path":"/a","value":1}]', "{a: 'b',}", "true",
]
REPLY = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


def _shape(parsed):
    return ([(c.op, c.path, c.args, c.reason, c.line, c.column) for c in parsed.commands], parsed.narration,
            [(p.message, p.line, p.column, p.code) for p in parsed.problems])


@settings(max_examples=1500, deadline=None)
@given(REPLY)
def test_the_linear_parser_answers_as_the_regex_parser_did(reply):
    assert strip_blocks(reply) == reference.strip_blocks(reply)
    assert _shape(parse_reply(reply, file="reply")) == _shape(reference.parse_reply(reply, file="reply"))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=12).map("".join))
def test_inside_a_block_the_parsers_agree_too(body):
    reply = f"前文\n<UpdateVariable>\n{body}\n</UpdateVariable>\n后文"
    assert _shape(parse_reply(reply)) == _shape(reference.parse_reply(reply))


def fill(unit: str, size: int = MAX_REPLY - 64) -> str:
    return (unit * (size // len(unit) + 1))[:size]


HOSTILE = {
    # class -> a reply at the size limit
    "unclosed fences": fill("```\n<updatevariable "),
    "openings without '>'": fill("<updatevariable "),
    "a block of openings": "<UpdateVariable>" + fill("<updatevariable "),
    "unclosed patches": "<UpdateVariable>" + fill("<JSONPatch>"),
    "patches closed by the other spelling": "<UpdateVariable>" + fill("<json_patch></jsonpatch>"),
    "unclosed brackets": "<UpdateVariable>" + fill("_.set(["),
    "unclosed strings": "<UpdateVariable>" + fill("_.set('"),
    "unclosed parentheses": "<UpdateVariable>" + fill("_.set(("),
    "nested calls": "<UpdateVariable>" + fill("_.set(a, "),
    "unclosed analysis": "<UpdateVariable>" + fill("<analysis "),
    "analysis and calls": "<UpdateVariable>" + fill("<analysis></analysis>_.set('a',1);"),
    "spaces without a newline": "<UpdateVariable></UpdateVariable>" + " " * (MAX_REPLY - 64),
    "a fence and closing tags": "```\n<updatevariable " + fill("</updatevariable>"),
    "closing tags and fences": "<UpdateVariable>" + fill("</updatevariable>```"),
    "plain JSON at length": "<UpdateVariable><JSONPatch>[" + fill('{"op":"replace","path":"/a","value":1},', MAX_REPLY - 80)
                            .rpartition(",")[0] + "]</JSONPatch></UpdateVariable>",
    "numbers for operations": "<UpdateVariable><JSONPatch>[" + fill("1,", MAX_REPLY - 80) + "1]</JSONPatch></UpdateVariable>",
    "JSON5 at length": "<UpdateVariable><JSONPatch>[" + fill("'a',", MAX_REPLY - 80) + "]</JSONPatch></UpdateVariable>",
    "commands past the cap": "<UpdateVariable>" + fill("_.set('a', 1);\n") + "</UpdateVariable>",
    "JSON5 values past the cap": "<UpdateVariable>" + fill("_.insert('a', {b: 'c'});\n") + "</UpdateVariable>",
    "bad commands": "<UpdateVariable>" + fill("_.set('a' 1);\n") + "</UpdateVariable>",
}

CHILD = """
import json, sys, time
from lw_tavern.mvu.update import parse_reply
cases = json.loads(sys.stdin.read())
out = {}
for name, text in cases.items():
    start = time.process_time()
    parsed = parse_reply(text, file="reply")
    out[name] = {"seconds": time.process_time() - start, "commands": len(parsed.commands),
                 "problems": len(parsed.problems), "narration": len(parsed.narration),
                 # an opening followed by a '>' somewhere would have been a block
                 "tags_left": -1 < parsed.narration.lower().find("<updatevariable") < parsed.narration.rfind(">")}
print(json.dumps(out))
"""


def test_hostile_replies_at_the_size_limit_parse_in_bounded_time() -> None:
    proc = subprocess.run([sys.executable, "-c", CHILD], input=json.dumps(HOSTILE).encode(), capture_output=True,
                          timeout=120, cwd=Path(__file__).parent)
    assert proc.returncode == 0, proc.stderr.decode()
    results = json.loads(proc.stdout)
    for name, text in HOSTILE.items():
        assert len(text) <= MAX_REPLY, name
        got = results[name]
        assert not got["tags_left"], f"{name}: an update block reached the narration"
        assert got["problems"] <= 52, f"{name}: {got['problems']} problems listed"
        assert got["commands"] <= 500
    assert results["commands past the cap"]["commands"] == 500
    assert results["plain JSON at length"]["commands"] == 500
    assert results["numbers for operations"]["problems"] == 51  # 50 listed, then how many more
    assert results["JSON5 values past the cap"]["commands"] == 500


MAGVAR_CHILD = """
import json, sys
import lwcore.sandbox as sandbox
from lw_tavern.mvu.magvar import update_variables
from lw_tavern.mvu.update import strip_blocks
from lw_tavern.mvu.values import Reader
cases = json.loads(sys.stdin.read())
out = {}
for name, text in cases.items():
    tree, errors, update = update_variables({"a": 1, "b": [1]}, text, Reader(sandbox))
    out[name] = {"commands": len(update.commands), "errors": len(errors),
                 "tags_left": "<updatevariable>" in strip_blocks(text).lower()}
print(json.dumps(out))
"""

MAGVAR_HOSTILE = {
    **{name: HOSTILE[name] for name in ("unclosed brackets", "unclosed strings", "unclosed parentheses",
                                          "nested calls", "unclosed patches", "commands past the cap",
                                          "JSON5 values past the cap", "plain JSON at length")},
    # values only mathjs reads, at the command cap: one run of the library for all of them
    "mathjs values": "<UpdateVariable>" + fill("_.set('a', 1, sqrt(16)+1);\n") + "</UpdateVariable>",
    # an expression that computes too long: the run's limits stop it, the value stays text
    "a runaway expression": "<UpdateVariable>_.set('a', 1, factorial(170)^factorial(170)*range(1,1e9));</UpdateVariable>",
}


def test_hostile_replies_at_the_size_limit_are_read_as_magvarupdate_reads_them_in_bounded_time() -> None:
    """What a room reads (MagVarUpdate's extraction, values in the sandbox): bounded whatever the
    reply holds (a hang check through a timeout, not a speed test: ``bench/replies.py`` measures)."""
    proc = subprocess.run([sys.executable, "-c", MAGVAR_CHILD], input=json.dumps(MAGVAR_HOSTILE).encode(),
                          capture_output=True, timeout=300, cwd=Path(__file__).parent)
    assert proc.returncode == 0, proc.stderr.decode()
    results = json.loads(proc.stdout)
    for name in MAGVAR_HOSTILE:
        assert results[name]["commands"] <= 500 and not results[name]["tags_left"], name
    assert results["commands past the cap"]["commands"] == 500
    assert results["mathjs values"]["commands"] == 500
    assert results["a runaway expression"]["commands"] == 1
