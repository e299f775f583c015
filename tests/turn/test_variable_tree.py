"""The room's variable tree (``lwcore.turn.tree``): lodash paths, the kernel's generic changes,
and its checks on every change a writer hands it (a leaf never shadows a declared variable; a
change that breaks its contract is refused, not raised). MVU's operations are the tavern
plugin's (``plugins/tavern/tests/test_mvu_ops.py``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lwcore.contributions import TreeChange
from lwcore.turn.tree import TreeError, add, apply, parse_path, put, remove, replace, show_path

TREE = {
    "角色": {"好感度": [30, "0-100"], "名字": "林潮", "标签": ["谨慎", "寡言"]},
    "世界": {"日": 1},
    "背包": [{"名称": "灯"}, {"名称": "绳"}],
}

PATHS = [
    ("a.b.c", ["a", "b", "c"]),
    ("角色.好感度", ["角色", "好感度"]),
    ("背包[0].名称", ["背包", 0, "名称"]),
    ('a["x.y"].z', ["a", "x.y", "z"]),
    ("a['q'][2]", ["a", "q", 2]),
    ('a."b c".d', ["a", "b c", "d"]),
    ("", []),
]


@pytest.mark.parametrize("path,segments", PATHS)
def test_paths(path, segments):
    assert parse_path(path) == segments


@pytest.mark.parametrize("bad", ["a..b", "a.", "a[0", 'a."b'])
def test_bad_paths(bad):
    with pytest.raises(TreeError):
        parse_path(bad)



CHANGES = [
    # (change, path to read back, expected)
    (put("角色.好感度", 35), ("角色", "好感度"), [35, "0-100"]),  # a described leaf keeps its description
    (put("新.深.处", 1), ("新",), {"深": {"处": 1}}),
    (put("背包[0].颜色", "铜"), ("背包", 0), {"名称": "灯", "颜色": "铜"}),
    (replace("角色.名字", "阿潮"), ("角色", "名字"), "阿潮"),
    (remove("背包[0]"), ("背包",), [{"名称": "绳"}]),
    (add("世界.日", 2), ("世界", "日"), 3),
    (add("世界.新", 2), ("世界", "新"), 2),  # a missing number starts at 0
    (add("角色.好感度", 5), ("角色", "好感度"), [35, "0-100"]),
]


@pytest.mark.parametrize("change,read,expected", CHANGES)
def test_generic_changes(change, read, expected):
    before = repr(TREE)
    out, (outcome,) = apply(TREE, [change])
    assert outcome.applied, outcome
    node = out
    for part in read:
        node = node[part]
    assert node == expected
    assert repr(TREE) == before  # the input is never changed


@pytest.mark.parametrize("change", [
    replace("角色.无", 1), remove("角色.无"), add("角色.名字", 1), put("角色.名字.姓", "林"), put("背包[5].名称", "x"),
    TreeChange("odd", "x", lambda tree: 3),  # a change that gives no tree
    TreeChange("odd", "x", lambda tree: tree["no such key"]),  # one that breaks
])
def test_refused_changes_are_reported_not_raised(change):
    out, (outcome,) = apply(TREE, [change])
    assert not outcome.applied and outcome.reason and out is TREE


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.text(min_size=0, max_size=8), st.integers(min_value=0, max_value=99)), min_size=1, max_size=6))
def test_show_path_is_read_back_the_same(segments):
    """Every key -- dots, brackets, quotes, spaces, control characters -- survives the round trip
    (a numeric text key reads back as that text or as the number: lodash steps both the same)."""
    back = parse_path(show_path(segments))
    assert [str(s) for s in back] == [str(s) for s in segments]


# --- a declared variable is never shadowed by a leaf (issue 24) ------------------------------------

SHADOWING = [put("cult_alert", 0), put("cult_alert.deeper", 1), add("cult_alert", 1),
             TreeChange("merge", "", lambda tree: {**tree, "cult_alert": 0})]


@pytest.mark.parametrize("change", SHADOWING)
def test_a_leaf_never_shadows_a_declared_variable(room_dir, kernel, change):
    from lwcore.turn import tree
    from lwcore.turn.room import Room

    room = Room.load(room_dir, kernel)
    tree.store_tree(room, {"free": 5})
    (event,) = tree.apply_changes(room, [change], by="reply")
    assert event["kind"] == "tree_refused" and event["audience"] == "keeper", event
    assert tree.tree_of(room) == {"free": 5}
    assert room.variable("cult_alert").value == 2


def test_other_leaves_still_apply_and_an_old_shadow_can_only_be_removed(room_dir, kernel):
    from lwcore.turn import tree
    from lwcore.turn.room import Room

    room = Room.load(room_dir, kernel)
    tree.store_tree(room, {"cult_alert": 9, "free": 5})  # a shadow written before the rule
    events = tree.apply_changes(room, [put("other", 1), add("cult_alert", 1), replace("free", 6), remove("cult_alert")],
                                by="reply")
    assert [e["kind"] for e in events] == ["tree", "tree_refused", "tree", "tree"]
    assert "declared variable" in events[1]["summary"]
    assert tree.tree_of(room) == {"free": 6, "other": 1}
    assert events[0]["op"] == "put" and events[0]["summary"] == "other = 1"  # never "None" as a value
