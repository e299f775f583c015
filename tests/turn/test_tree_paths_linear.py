"""Variable-tree paths from a model's reply cost what they touch, with the same answers as before.

``[`` and a run of spaces made the old bracket pattern try every way of splitting the run
(0.3 s for one 1,000-character path; a reply may carry 500 commands). The bracket is now read
by one look at each character; the old pattern is kept here as the oracle. (MVU's operations
copy on write: ``plugins/tavern/tests/test_mvu_ops_shared.py``.)
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from lwcore.turn.tree import MAX_PATH, TreeError, parse_path

OLD_BRACKET = re.compile(r"""\[\s*(?:(-?\d+)|"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^\]]*))\s*\]""")


def old_bracket(path: str, i: int):
    """What the old pattern read at ``i``: ``(segment, end)`` or ``None``."""
    from lwcore.turn.tree import _unquote

    m = OLD_BRACKET.match(path, i)
    if m is None:
        return None
    if m.group(1) is not None:
        return int(m.group(1)), m.end()
    return (m.group(4).strip() if m.group(4) is not None else _unquote(m.group(2), m.group(3))), m.end()


PIECES = ["[", "]", '"', "'", "\\", " ", "\n", ".", "a", "5", "-", "٣", "x.y", "\u3000", "\t"]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=14).map("".join))
def test_brackets_read_as_the_old_pattern_read_them(text):
    from lwcore.turn.tree import _bracket

    path = "[" + text
    assert _bracket(path, 0) == old_bracket(path, 0)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=20).map("".join))
def test_parse_path_never_crashes(path):
    try:
        parse_path(path)
    except TreeError:
        pass


HOSTILE = ["[" + " " * (MAX_PATH - 1), '["' + "\\\\" * 400, "[ " * 500, "[" + '"' * (MAX_PATH - 1),
           '["' + " " * (MAX_PATH - 10) + "]", "[" * MAX_PATH, "a[0]" * (MAX_PATH // 4)]
CHILD = """
import json, sys
from lwcore.turn.tree import TreeError, parse_path
out = []
for path in json.loads(sys.stdin.read()) * 500:  # a reply's worth of commands
    try:
        parse_path(path)
        out.append("ok")
    except TreeError:
        out.append("refused")
print(json.dumps(out[:7]))
"""


def test_hostile_paths_of_a_whole_reply_parse_in_bounded_time() -> None:
    proc = subprocess.run([sys.executable, "-c", CHILD], input=json.dumps(HOSTILE).encode(), capture_output=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()
    assert json.loads(proc.stdout) == ["refused", "refused", "refused", "refused", "ok", "refused", "refused"]
