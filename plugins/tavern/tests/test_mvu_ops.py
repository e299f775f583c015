"""MVU's operations on the variable tree (``lw_tavern.mvu.ops``, moved from the kernel in issue 25):
the operations with MVU's semantics (golden tables), dates, operations as data, and the kernel's
checks when a room makes them (a leaf never shadows a declared variable)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lwcore.kernel import Kernel
from lwcore.turn.tree import TreeError

from lw_tavern.mvu.ops import Op as TreeOp
from lw_tavern.mvu.ops import (
    add_milliseconds,
    apply_ops,
    op_add,
    op_delete,
    op_insert,
    op_move,
    op_put,
    op_set,
)

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def room_dir(tmp_path: Path) -> Path:
    target = tmp_path / "fog-harbor"
    shutil.copytree(ROOT / "examples" / "fog-harbor", target, ignore=shutil.ignore_patterns("replies"))
    return target


@pytest.fixture(scope="module")
def kernel(tmp_path_factory: pytest.TempPathFactory) -> Kernel:
    return Kernel(data_dir=tmp_path_factory.mktemp("lw-data"), env={})


TREE = {
    "角色": {"好感度": [30, "0-100"], "名字": "林潮", "标签": ["谨慎", "寡言"]},
    "世界": {"时间": "2026-01-01T08:00:00.000Z", "日": 1, "天气": ["晴", "晴/雨"]},
    "背包": [{"名称": "灯"}, {"名称": "绳"}],
    "flags": {"seen": False},
}

OPS = [
    # (function, args, path to read back, expected value)
    (op_set, ("角色.好感度", 35), ("角色", "好感度"), [35, "0-100"]),  # the description stays
    (op_set, ("角色.好感度", "40"), ("角色", "好感度"), [40, "0-100"]),  # numeric text into a number
    (op_set, ("角色.名字", "阿潮"), ("角色", "名字"), "阿潮"),
    (op_set, ("背包[1].名称", "钥匙"), ("背包",), [{"名称": "灯"}, {"名称": "钥匙"}]),
    (op_insert, ("背包", {"名称": "刀"}), ("背包",), [{"名称": "灯"}, {"名称": "绳"}, {"名称": "刀"}]),
    (op_insert, ("背包", 0, {"名称": "刀"}), ("背包",), [{"名称": "刀"}, {"名称": "灯"}, {"名称": "绳"}]),
    (op_insert, ("背包", "-", {"名称": "刀"}), ("背包",), [{"名称": "灯"}, {"名称": "绳"}, {"名称": "刀"}]),
    (op_insert, ("角色", {"年龄": 30}), ("角色", "年龄"), 30),  # an object merges
    (op_insert, ("角色", "年龄", 30), ("角色", "年龄"), 30),
    (op_insert, ("世界.新", "k", 1), ("世界", "新"), {"k": 1}),  # a missing target is created
    (op_delete, ("角色.名字",), ("角色",), {"好感度": [30, "0-100"], "标签": ["谨慎", "寡言"]}),
    (op_delete, ("背包[0]",), ("背包",), [{"名称": "绳"}]),
    (op_delete, ("角色.标签", "寡言"), ("角色", "标签"), ["谨慎"]),
    (op_delete, ("角色.标签", 0), ("角色", "标签"), ["寡言"]),
    (op_delete, ("角色", "名字"), ("角色",), {"好感度": [30, "0-100"], "标签": ["谨慎", "寡言"]}),
    (op_add, ("角色.好感度", 5), ("角色", "好感度"), [35, "0-100"]),
    (op_add, ("世界.日", -1), ("世界", "日"), 0),
    (op_add, ("世界.时间", 90 * 60 * 1000), ("世界", "时间"), "2026-01-01T09:30:00.000Z"),
    (op_move, ("角色.名字", "世界.守望者"), ("世界", "守望者"), "林潮"),
]


@pytest.mark.parametrize("fn,args,read,expected", OPS)
def test_operations(fn, args, read, expected):
    before = repr(TREE)
    out = fn(TREE, *args)
    node = out
    for part in read:
        node = node[part]
    assert node == expected
    assert repr(TREE) == before  # the input is never changed


REFUSED = [
    (op_set, ("角色.新", 1)),  # set changes existing variables only
    (op_set, ("角色.好感度", "很多")),
    (op_insert, ("角色.名字", 1)),  # a string is not a container
    (op_insert, ("无.此.路径", 1)),
    (op_delete, ("角色.无",)),
    (op_delete, ("角色.标签", "没有")),
    (op_add, ("角色.名字", 1)),
    (op_add, ("角色.好感度", "abc")),
    (op_move, ("角色", "角色.子")),
]


@pytest.mark.parametrize("fn,args", REFUSED)
def test_refused_operations(fn, args):
    with pytest.raises(TreeError):
        fn(TREE, *args)


DATES = [
    ("2026-01-01", 1000, "2026-01-01T00:00:01.000Z"),
    ("2026-01-01T23:59:59.999Z", 1, "2026-01-02T00:00:00.000Z"),
    ("2026-01-01T08:00:00+08:00", 0, "2026-01-01T00:00:00.000Z"),
    ("2026-03-01T00:00:00Z", -86_400_000, "2026-02-28T00:00:00.000Z"),
]


@pytest.mark.parametrize("iso,ms,expected", DATES)
def test_date_arithmetic(iso, ms, expected):
    assert add_milliseconds(iso, ms) == expected


def test_failed_command_is_skipped_and_reported():
    tree, outcomes = apply_ops(TREE, [TreeOp("set", "无", (1,)), TreeOp("add", "世界.日", (1,))])
    assert [o.applied for o in outcomes] == [False, True] and tree["世界"]["日"] == 2
    assert "no such variable" in outcomes[0].reason


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60), st.one_of(st.integers(), st.text(max_size=5), st.none()))
def test_operations_never_crash(path, value):
    for fn, args in ((op_set, (path, value)), (op_insert, (path, value)), (op_delete, (path,)),
                     (op_add, (path, value)), (op_move, (path, "a"))):
        try:
            fn(TREE, *args)
        except TreeError:
            pass


        try:
            op_put(TREE, path, value)
        except TreeError:
            pass


PUTS = [
    # put creates what is missing, keeps descriptions, never turns a value into a branch
    (("世界.天气", "雨"), ("世界", "天气"), ["雨", "晴/雨"]),
    (("新.深.处", 1), ("新",), {"深": {"处": 1}}),
    (("背包[0].颜色", "铜"), ("背包", 0), {"名称": "灯", "颜色": "铜"}),
    (('a["x.y"]', 2), ("a",), {"x.y": 2}),
]


@pytest.mark.parametrize("args,read,expected", PUTS)
def test_put_creates_branches(args, read, expected):
    node = op_put(TREE, *args)
    for part in read:
        node = node[part]
    assert node == expected


@pytest.mark.parametrize("args", [("角色.名字.姓", "林"), ("背包[5].名称", "x"), ("角色.好感度", "很多")])
def test_put_refuses(args):
    with pytest.raises(TreeError):
        op_put(TREE, *args)


def test_unknown_operation_and_wrong_arity_are_reported_not_raised():
    _, outcomes = apply_ops(TREE, [TreeOp("explode", "a"), TreeOp("set", "世界.日"), TreeOp("remove", "世界.日")])
    assert [o.applied for o in outcomes] == [False, False, True]
    assert "unknown operation" in outcomes[0].reason and outcomes[1].reason.startswith("set:")


# --- a declared variable is never shadowed by a leaf (issue 24) ------------------------------------

SHADOWING = [
    # (operation, path, args): each would create or change a top-level leaf named cult_alert
    ("set", "cult_alert", (0,)),  # set on a missing path: refused anyway
    ("put", "cult_alert", (0,)),
    ("put", "cult_alert.deeper", (1,)),
    ("insert", "", ({"cult_alert": 0},)),  # a merge into the root (a JSON Patch add /cult_alert)
    ("insert", "", ("cult_alert", 0)),
    ("move", "free", ("cult_alert",)),
    ("add", "cult_alert", (1,)),
]


@pytest.mark.parametrize("op,path,args", SHADOWING)
def test_a_leaf_never_shadows_a_declared_variable(room_dir, kernel, op, path, args):
    from lwcore.turn import tree
    from lwcore.turn.room import Room

    from lw_tavern.mvu.ops import change

    room = Room.load(room_dir, kernel)
    tree.store_tree(room, {"free": 5})
    (event,) = tree.apply_changes(room, [change(TreeOp(op, path, args))], by="reply")
    assert event["kind"] == "tree_refused" and event["audience"] == "keeper", event
    assert tree.tree_of(room) == {"free": 5}
    assert room.variable("cult_alert").value == 2


def test_other_leaves_still_apply_and_an_old_shadow_can_only_be_removed(room_dir, kernel):
    from lwcore.turn import tree
    from lwcore.turn.room import Room

    from lw_tavern.mvu.ops import change

    room = Room.load(room_dir, kernel)
    tree.store_tree(room, {"cult_alert": 9, "free": 5})  # a shadow written before the rule
    ops = [TreeOp("insert", "", ({"other": 1},)), TreeOp("add", "cult_alert", (1,)), TreeOp("set", "free", (6,)),
           TreeOp("delete", "cult_alert", ())]
    events = tree.apply_changes(room, [change(op) for op in ops], by="reply")
    assert [e["kind"] for e in events] == ["tree", "tree_refused", "tree", "tree"]
    assert "declared variable" in events[1]["summary"]
    assert tree.tree_of(room) == {"free": 6, "other": 1}
