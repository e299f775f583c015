"""MVU's operations copy on write, with the same answers as copying the whole tree per operation.

Each operation copied the whole tree (a reply's 500 commands on a 1 MB tree: 25 s); now it
copies the containers on its path, and the property test holds it to the old answers (moved
from the kernel's tests with the operations, issue 25).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

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

    from lwcore.turn.tree import TreeError

    from lw_tavern.mvu.ops import OPERATIONS, apply_ops
    from lw_tavern.mvu.ops import Op as TreeOp

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
