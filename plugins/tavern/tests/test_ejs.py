"""The EJS subset, its expressions and the macros: golden tables, fail-safety, no crashes."""

from __future__ import annotations

import datetime
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lw_tavern.ejs.expr import ExprError, evaluate, evaluate_condition
from lw_tavern.ejs.lite import render, tree_resolver
from lw_tavern.ejs.macros import MacroContext, substitute
from lw_tavern.ejs.render import render_text

TREE = {"世界": {"日": [2, "day"], "天气": "雨", "警戒": 3}, "林潮": {"好感度": [60, "0-100"], "名": "林潮"},
        "flags": {"seen": False}, "列表": [1, 2, 3], "空": ""}
R = tree_resolver(TREE)

EXPRESSIONS = [
    ("1 + 2 * 3", 7),
    ("(1 + 2) * 3", 9),
    ("7 / 2", 3.5),
    ("7 % 4", 3),
    ("-3 + +2", -1),
    ("'a' + 1", "a1"),
    ("1 + '1'", "11"),
    ("'2' == 2", True),
    ("'2' === 2", False),
    ("null == undefined", True),
    ("0 == ''", True),
    ("!0", True),
    ("1 && 'x'", "x"),
    ("0 || 'y'", "y"),
    ("1 < 2 ? 'yes' : 'no'", "yes"),
    ("'b' > 'a'", True),
    ("'x' < 1", False),
    ("世界.日", 2),
    ("variables.世界.日 >= 2", True),
    ("stat_data.林潮.好感度 > 50 && !flags.seen", True),
    ("getvar('林潮.好感度')", 60),
    ("getvar('stat_data.世界.天气', {defaults: 1})", "雨"),
    ("getvar('没有', {defaults: 5}) + 1", 6),
    ("世界['天气'] === '雨'", True),
    ("列表[1]", 2),
    ("没有.这个 == null", True),
    ("1 / 0", float("inf")),
]


@pytest.mark.parametrize("expr,value", EXPRESSIONS)
def test_expressions(expr, value):
    assert evaluate(expr, R) == value


@pytest.mark.parametrize("expr", ["1 +", "(1", "a.", "foo()", "a = 1", "`x`", "1 ? 2", "[1]", "a[b]", "x" * 3000])
def test_bad_expressions(expr):
    with pytest.raises(ExprError):
        evaluate(expr, R)


def test_condition_truthiness():
    assert evaluate_condition("空", R) is False and evaluate_condition("列表", R) is True


TEMPLATES = [
    ("plain {{user}}", "plain {{user}}"),
    ("<%= 世界.天气 %>天", "雨天"),
    ("<%- getvar('林潮.名') %>", "林潮"),
    ("<%# a comment %>x", "x"),
    ("<% if (世界.警戒 > 2) { %>危险<% } else { %>平静<% } %>", "危险"),
    ("<% if (世界.警戒 > 5) { %>A<% } else if (世界.警戒 > 2) { %>B<% } else { %>C<% } %>", "B"),
    ("<% if (flags.seen) { %>A<% } %>end", "end"),
    ("<% if (1) { %><% if (0) { %>inner<% } else { %>other<% } %><% } %>", "other"),
    ("a\n<% if (1) { -%>\nb\n<% } -%>\nc", "a\nb\nc"),
    ("a  <%_ if (1) { _%>  b<%_ } %>", "ab"),
    ("<#escape-ejs><%= raw %> <%% x %%></#escape-ejs>", "<%= raw %> <% x %>"),
    ("<%= 1 + %>x", "x"),  # a broken output prints nothing
    ("<% if (1 +) { %>hidden<% } else { %>shown<% } %>", "shown"),  # a broken condition takes no branch
    ("<% if (1) { %>never closed", ""),  # unbalanced: nothing at all comes out
    ("<% } %>text", ""),
    ("<% for (let i = 0; i < 3; i++) { %>x<% } %>", ""),  # needs the full mode
    ("<% setvar('x', 1) %>kept", "kept"),  # writes are ignored here
    ("<% execvar('模板') %>kept", "kept"),  # and so is running a variable's template
    ("<%- execvar('模板') %>kept", "kept"),
    ("<%= await execvar('模板') %>kept", "kept"),
    ("<%= setvar('x', 1) %>kept", "kept"),
    ("tail <%= 1", ""),
]


@pytest.mark.parametrize("template,expected", TEMPLATES)
def test_templates(template, expected):
    assert render(template, R).text == expected


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["<%", "%>", "<%=", "<%-", "<%#", "-%>", "_%>", "<%_", "if (1) {", "} else {",
                                 "}", "x", " ", "\n", "'", "getvar('世界.日')", "<#escape-ejs>", "</#escape-ejs>",
                                 "1 +", ")", "{{var:a}}"]), max_size=25).map("".join))
def test_no_template_syntax_ever_comes_out(text):
    out = render(text, R)
    if "<#escape-ejs>" not in text:  # escaped blocks pass their text through on purpose
        assert "<%" not in out.text


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_expressions_never_crash(text):
    try:
        evaluate(text, R)
    except ExprError:
        pass


def ctx(**kw):
    base = dict(resolve=R, user="Mira", char="林潮", clock=datetime.datetime(2026, 3, 4, 21, 7), rng=random.Random(4))
    return MacroContext(**(base | kw))


MACROS = [
    ("{{user}} meets {{char}}", "Mira meets 林潮"),
    ("{{getvar::世界.天气}}/{{var:林潮.好感度}}/{{var::世界.日}}", "雨/60/2"),
    ("{{getvar::林潮}}", '{"好感度": [60, "0-100"], "名": "林潮"}'),
    ("{{getvar::没有}}|", "|"),
    ("{{time}} {{date}}", "21:07 2026-03-04"),
    ("a{{newline}}b", "a\nb"),
    ("a{{// hidden note}}b", "ab"),
    ("a {{trim}} b", "ab"),
    ("{{setvar::x::1}}rest", "rest"),
    ("{{unknownmacro}}", "{{unknownmacro}}"),
]


@pytest.mark.parametrize("text,expected", MACROS)
def test_macros(text, expected):
    assert substitute(text, ctx()) == expected


def test_random_and_pick_use_the_given_rng():
    draws = [substitute("{{random::甲::乙::丙}}", ctx(rng=random.Random(s))) for s in range(30)]
    assert set(draws) == {"甲", "乙", "丙"}
    assert substitute("{{random:a,b}}", ctx(rng=random.Random(1))) == substitute("{{random:a,b}}", ctx(rng=random.Random(1)))
    assert substitute("{{pick::x::y}}", ctx(rng=None)) == "{{pick::x::y}}"


def test_rolls_come_from_the_dice_engine():
    c = ctx(rng=random.Random(9))
    text = substitute("roll {{roll:3d6}} and {{roll d20}}", c)
    totals = [r["total"] for r in c.rolls]
    assert text == f"roll {totals[0]} and {totals[1]}" and 3 <= totals[0] <= 18 and 1 <= totals[1] <= 20
    assert all(len(r["faces"]) in (3, 1) for r in c.rolls)
    bad = ctx()
    assert substitute("{{roll:9d}}", bad) == "{{roll:9d}}" and bad.warnings


def test_missing_context_leaves_macros():
    assert substitute("{{user}} {{time}}", MacroContext()) == "{{user}} {{time}}"


def test_render_text_runs_templates_then_macros():
    out = render_text("<% if (世界.日 >= 2) { %>{{char}}醒着<% } %>", ctx())
    assert out.text == "林潮醒着" and out.warnings == []


@pytest.mark.parametrize("template", ["<% execvar('a') %>", "<%- execvar('a') %>", "<%= await execvar(\"a\") %>"])
def test_execvar_is_skipped_with_a_warning(template):
    out = render(template + "rest", R)
    assert out.text == "rest" and out.warnings == [f"{template[3:-2].strip()!r} skipped: execvar runs a variable's "
                                                   "template, which needs the full EJS mode"]


_JS_VALUES = {"tiny": 1e-7, "micro": 0.000001, "big": 1e21, "hex": "0x10", "nel": " 12\x85", "one": [5], "sum": 0.1}


@pytest.mark.parametrize("expr", ['"v" + tiny', '"v" + micro', '"v" + big', "micro", "big", "hex == 16",
                                  "nel == 12", "sum + 0.2", '"" + one', "tiny * 10"])
def test_expressions_say_what_javascript_says(expr):
    """Numbers as text, and text as numbers, agree with the kernel's QuickJS sandbox."""
    from lwcore.sandbox import evaluate as run_js

    from lw_tavern.ejs.expr import show

    source = "const {" + ", ".join(_JS_VALUES) + "} = input; String(" + expr + ")"
    assert show(evaluate(expr, _JS_VALUES.get)) == run_js(source, _JS_VALUES).value
