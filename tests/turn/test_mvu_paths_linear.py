"""MVU paths and operations from a model's reply cost what they touch, with the same answers as before.

``[`` and a run of spaces made the old bracket pattern try every way of splitting the run
(0.3 s for one 1,000-character path; a reply may carry 500 commands). The bracket is now read
by one look at each character; the old pattern is kept here as the oracle. Each operation
copied the whole tree (a reply's 500 commands on a 1 MB tree: 25 s); now it copies the
containers on its path, and the property test holds it to the old answers.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from lwcore.turn.mvu import MAX_PATH, TreeError, parse_path

OLD_BRACKET = re.compile(r"""\[\s*(?:(-?\d+)|"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^\]]*))\s*\]""")


def old_bracket(path: str, i: int):
    """What the old pattern read at ``i``: ``(segment, end)`` or ``None``."""
    from lwcore.turn.mvu import _unquote

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
    from lwcore.turn.mvu import _bracket

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
from lwcore.turn.mvu import TreeError, parse_path
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


# --- applying: copy on write, same answers as copying the whole tree per operation ---------

KEYS = st.sampled_from(["a", "b", "c", "0", "1"])
LEAF = st.one_of(st.integers(-3, 3), st.sampled_from(["x", "2", "2026-01-01"]), st.booleans(), st.none())
TREE = st.recursive(LEAF, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                  st.dictionaries(KEYS, inner, max_size=3),
                                                  st.tuples(LEAF, st.just("desc")).map(list)), max_leaves=12)
PATH = st.lists(st.one_of(KEYS, st.sampled_from(["[0]", "[1]", "[-]"])), min_size=1, max_size=3).map(
    lambda parts: ".".join(parts).replace(".[", "["))
OP = st.one_of(
    st.tuples(st.sampled_from(["set", "put", "add"]), PATH, st.tuples(st.one_of(LEAF, TREE))),
    st.tuples(st.just("insert"), PATH, st.one_of(st.tuples(TREE), st.tuples(st.sampled_from(["-", 0, 1, "k"]), TREE))),
    st.tuples(st.just("delete"), PATH, st.one_of(st.just(()), st.tuples(st.one_of(st.integers(0, 2), KEYS)))),
    st.tuples(st.just("move"), PATH, st.tuples(PATH)),
)


@settings(max_examples=600, deadline=None)
@given(st.dictionaries(KEYS, TREE, max_size=4), st.lists(OP, max_size=8))
def test_operations_share_what_they_do_not_touch_and_change_nothing_else(tree, raw_ops):
    import copy

    from lwcore.turn.mvu import OPERATIONS, TreeError, TreeOp, apply_ops

    ops = [TreeOp(name, path, tuple(args)) for name, path, args in raw_ops]
    before = copy.deepcopy(tree)
    result, outcomes = apply_ops(tree, ops)
    assert tree == before  # the input is never changed
    expected = copy.deepcopy(before)  # the old way: every operation on a copy of the whole tree
    for op, outcome in zip(ops, outcomes):
        try:
            expected = OPERATIONS[op.op](copy.deepcopy(expected), op.path, *op.args)
            applied = True
        except (TreeError, TypeError):
            applied = False
        assert applied == outcome.applied, (op, outcome)
    assert result == expected
    states, snapshots = [tree], [before]  # one operation at a time, as a room applies them
    for op in ops:
        states.append(apply_ops(states[-1], [op])[0])
        snapshots.append(copy.deepcopy(states[-1]))
    assert states == snapshots  # no later operation changed an earlier state (the events' "before")
