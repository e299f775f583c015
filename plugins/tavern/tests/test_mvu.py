"""MVU: declarations, the tree operations, update blocks (golden tables and properties)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lwcore.errors import LwError

from lw_tavern.mvu.initvar import is_declaration, parse_initvar, seed
from lw_tavern.mvu.json5 import Json5Error, parse_json5
from lw_tavern.mvu.tree import TreeError, add_milliseconds, op_add, op_delete, op_insert, op_move, op_set, parse_path
from lw_tavern.mvu.update import Command, apply_commands, parse_reply, strip_blocks
from lw_tavern.worldbook.model import WorldEntry

TREE = {
    "角色": {"好感度": [30, "0-100"], "名字": "林潮", "标签": ["谨慎", "寡言"]},
    "世界": {"时间": "2026-01-01T08:00:00.000Z", "日": 1, "天气": ["晴", "晴/雨"]},
    "背包": [{"名称": "灯"}, {"名称": "绳"}],
    "flags": {"seen": False},
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


REPLY = """她笑了一下。

<UpdateVariable>
<Analysis>_.set('flags.seen', false, true);//not real</Analysis>
_.set('角色.好感度', 30, 35);//聊得愉快
_.assign('背包', {名称: '铜钥匙'});
_.remove('背包', 0);
_.unset('flags.seen');
_.add('世界.日', 1 + 1);
_.set('世界.天气', 雨);
_.move('角色.名字', '世界.守望者');
_.set('bad' 1);
_.add('x', 1)
<JSONPatch>
[{"op": "replace", "path": "/角色/标签/0", "value": "热心"},
 {"op": "delta", "path": "/角色/好感度", "value": -1},
 {"op": "add", "path": "/背包/-", "value": {"名称": "伞"}},
 {"op": "remove", "path": "/世界/时间"},
 {"op": "copy", "path": "/a"}]
</JSONPatch>
</UpdateVariable>
"""


def test_update_block_golden():
    parsed = parse_reply(REPLY, file="reply")
    assert parsed.narration == "她笑了一下。"
    assert [(c.op, c.path, c.args) for c in parsed.commands] == [
        ("set", "角色.好感度", (35,)),
        ("insert", "背包", ({"名称": "铜钥匙"},)),
        ("delete", "背包", (0,)),
        ("delete", "flags.seen", ()),
        ("add", "世界.日", (2,)),
        ("set", "世界.天气", ("雨",)),
        ("move", "角色.名字", ("世界.守望者",)),
        ("set", "角色.标签.0", ("热心",)),
        ("add", "角色.好感度", (-1,)),
        ("insert", "背包", ("-", {"名称": "伞"})),
        ("delete", "世界.时间", ()),
    ]
    assert parsed.commands[0].reason == "聊得愉快" and (parsed.commands[0].line, parsed.commands[0].column) == (5, 1)
    problems = [(p.line, p.code) for p in parsed.problems]
    assert problems == [(12, "syntax"), (13, "syntax"), (14, "invalid")]
    tree, outcomes = apply_commands(TREE, parsed.commands)
    assert all(o.applied for o in outcomes), [o.reason for o in outcomes if not o.applied]
    assert tree["角色"] == {"好感度": [34, "0-100"], "标签": ["热心", "寡言"]}
    assert tree["世界"] == {"日": 3, "天气": ["雨", "晴/雨"], "守望者": "林潮"}
    assert tree["背包"] == [{"名称": "绳"}, {"名称": "铜钥匙"}, {"名称": "伞"}]
    assert tree["flags"] == {}


def test_failed_command_is_skipped_and_reported():
    tree, outcomes = apply_commands(TREE, [Command("set", "无", (1,)), Command("add", "世界.日", (1,))])
    assert [o.applied for o in outcomes] == [False, True] and tree["世界"]["日"] == 2
    assert "no such variable" in outcomes[0].reason


def test_reply_without_blocks_is_unchanged():
    text = "Nothing to update here.\n\n  Really."
    assert strip_blocks(text) == text and parse_reply(text).commands == []


def test_fenced_and_unclosed_blocks_are_stripped():
    assert strip_blocks("a\n```xml\n<UpdateVariable>\n_.set('x', 1);\n</UpdateVariable>\n```\nb") == "a\n\nb"
    assert strip_blocks("text <UpdateVariable> _.set('x', 1);") == "text"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("_.set(insert'\",;)//[]{}<>UpdateVariable/JSONPatch 01-+*雾\n")), max_size=200))
def test_reply_parsing_never_crashes(text):
    parsed = parse_reply(f"<UpdateVariable>{text}</UpdateVariable>")
    assert "<UpdateVariable>" not in parsed.narration
    for problem in parsed.problems:
        assert problem.line is not None or problem.code == "limit"
    apply_commands(TREE, parsed.commands)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60), st.one_of(st.integers(), st.text(max_size=5), st.none()))
def test_operations_never_crash(path, value):
    for fn, args in ((op_set, (path, value)), (op_insert, (path, value)), (op_delete, (path,)),
                     (op_add, (path, value)), (op_move, (path, "a"))):
        try:
            fn(TREE, *args)
        except TreeError:
            pass


# --- declarations ---------------------------------------------------------------------------------

DECLARATIONS = [
    ({"comment": "[InitVar]变量初始化", "content": "{}"}, True),
    ({"comment": "「[initvar]」", "content": "{}"}, True),
    ({"comment": "[Initial Variables]", "content": "{}"}, True),
    ({"comment": "lore", "content": "@@initial_variables\n{a: 1}"}, True),
    ({"comment": "lore", "content": "the [InitVar] word inside"}, False),
]


@pytest.mark.parametrize("raw,expected", DECLARATIONS)
def test_is_declaration(raw, expected):
    assert is_declaration(raw) is expected
    assert is_declaration(WorldEntry.model_validate(raw)) is expected


def test_json5_declaration_with_chinese_paths_and_descriptions():
    text = "{\n  // 世界\n  世界: {天气: ['晴', '晴/雨'], 日: 1,},\n  '林潮': {好感度: [50, \"0-100\"]}, /* end */\n}"
    assert parse_initvar(text) == {"世界": {"天气": ["晴", "晴/雨"], "日": 1}, "林潮": {"好感度": [50, "0-100"]}}


def test_yaml_declaration():
    assert parse_initvar("@@initial_variables\n世界:\n  日: 1\n  天气: [晴, 晴/雨]\n") == {
        "世界": {"日": 1, "天气": ["晴", "晴/雨"]}}


BAD_DECLARATIONS = [
    ("{a: 1,, }", 1, 8),
    ("{\n  a: [1, 2\n}", 3, 1),
    ("[1, 2]", None, None),
    ("{a: NaN}", None, None),
    ("{a: 1, a: 2}", None, None),
]


@pytest.mark.parametrize("text,line,column", BAD_DECLARATIONS)
def test_bad_declarations_are_located(text, line, column):
    with pytest.raises(LwError) as info:
        parse_initvar(text, where="entry '[InitVar]'")
    assert "entry '[InitVar]'" in str(info.value)
    assert (info.value.line, info.value.column) == (line, column)


def test_seed_never_resets_progress():
    tree = {"世界": {"日": 5}, "林潮": {"好感度": [80, "0-100"]}}
    initial = {"世界": {"日": 1, "天气": "晴"}, "林潮": {"好感度": [50, "0-100"]}, "新": 0}
    assert seed(tree, initial) == {"世界": {"日": 5, "天气": "晴"}, "林潮": {"好感度": [80, "0-100"]}, "新": 0}


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=120))
def test_json5_never_crashes(text):
    try:
        parse_json5(text)
    except Json5Error as exc:
        assert exc.message


def test_json5_deep_nesting_is_refused_not_a_crash():
    with pytest.raises(Json5Error):
        parse_json5("[" * 5000 + "]" * 5000)
