"""MVU: declarations and update blocks (golden tables and properties); the tree operations are
``test_mvu_ops.py``."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lwcore.errors import LwError
from lw_tavern.mvu.ops import apply_ops

from lw_tavern.mvu.initvar import is_declaration, parse_initvar, seed
from lw_tavern.mvu.json5 import Json5Error, parse_json5
from lw_tavern.mvu.update import parse_reply, strip_blocks
from lw_tavern.worldbook.model import WorldEntry

TREE = {
    "角色": {"好感度": [30, "0-100"], "名字": "林潮", "标签": ["谨慎", "寡言"]},
    "世界": {"时间": "2026-01-01T08:00:00.000Z", "日": 1, "天气": ["晴", "晴/雨"]},
    "背包": [{"名称": "灯"}, {"名称": "绳"}],
    "flags": {"seen": False},
}

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
    tree, outcomes = apply_ops(TREE, parsed.commands)
    assert all(o.applied for o in outcomes), [o.reason for o in outcomes if not o.applied]
    assert tree["角色"] == {"好感度": [34, "0-100"], "标签": ["热心", "寡言"]}
    assert tree["世界"] == {"日": 3, "天气": ["雨", "晴/雨"], "守望者": "林潮"}
    assert tree["背包"] == [{"名称": "绳"}, {"名称": "铜钥匙"}, {"名称": "伞"}]
    assert tree["flags"] == {}


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
    apply_ops(TREE, parsed.commands)


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
