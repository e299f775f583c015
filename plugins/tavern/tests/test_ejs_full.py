"""The full EJS mode: templates compiled to JavaScript and run in the kernel's sandbox (golden
table), writes as the kernel's tree operations, failures answered with ``None`` (the caller
falls back to the subset), and raw template syntax never in the output (property)."""

from __future__ import annotations

import lwcore.sandbox as sandbox
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lwcore.contributions import TreeOp

from lw_tavern.ejs.full import compile_template, render_full

TREE = {"世界": {"日": 3, "天气": ["雨", "晴/雨"]}, "名单": ["甲", "乙"]}

GOLDEN = [
    ("plain text", "plain text"),
    ("<%= 1 + 2 %>|<%- 'x' %>|<%# hidden %>", "3|x|"),
    ("<% for (const n of variables.名单) { %>[<%= n %>]<% } %>", "[甲][乙]"),
    ("<% if (getvar('stat_data.世界.日') > 2) { %>late<% } else { %>early<% } %>", "late"),
    ("a  <%_ if (true) { _%>  b  <%_ } _%>  c", "abc"),
    ("line<% if (true) { -%>\nnext<% } -%>\n", "linenext"),
    ("<%% literal %%>", "<% literal %>"),
    ("<#escape-ejs><%= raw %></#escape-ejs>", "<%= raw %>"),
    ("<%= _.get(stat_data, '世界.天气[0]') %>", "雨"),
    ("<%= await Promise.resolve('later') %>", "later"),
    ("<%= undefined %><%= null %><%= {a: 1} %>", '{"a":1}'),
    ("<%= new Date().getUTCFullYear() %>", "1925"),
]


@pytest.mark.parametrize("template,expected", GOLDEN)
def test_templates(template: str, expected: str) -> None:
    out = render_full(template, sandbox, tree=TREE, seed=1, clock=-1420070400000 + 86_400_000 * 3)
    assert out is not None and out.text == expected


def test_writes_are_tree_operations_in_order() -> None:
    out = render_full("<% setvar('世界.日', 9); incvar('世界.日'); incvar('新.计数', 2); incvar('新.计数'); "
                      "decvar('世界.日', 4); %>", sandbox, tree=TREE, seed=1, clock=0)
    assert out is not None and out.writes == [
        TreeOp("put", "世界.日", (9,), "template"), TreeOp("add", "世界.日", (1,), "template"),
        TreeOp("put", "新.计数", (2,), "template"), TreeOp("add", "新.计数", (1,), "template"),
        TreeOp("add", "世界.日", (-4,), "template")]


def test_entries_prompts_and_next_turn_requests() -> None:
    out = render_full("<%= getwi('码头') %>|<%= getwi('书', '码头') %>|<%= getwi('无') %><% injectPrompt('k', '注入'); "
                      "activewi('灯塔'); %><%= getPromptsInjected() %><%= faker.name.firstName() %>",
                      sandbox, tree={}, seed=1, clock=0, entries={"码头": "PIER"})
    assert out is not None and out.text == "PIER|PIER|注入"
    assert out.injected == ["注入"] and out.activate == ["灯塔"] and out.warnings == [
        "faker is a stub here: it gives empty text"]


@pytest.mark.parametrize("template", [
    "<% while (true) {} %>",                 # a timeout
    "<% throw new Error('no') %>",           # a throw
    "<% let x = ; %>",                       # a syntax error
    "<%= this.constructor.constructor('return process')().exit() %>",  # no host to reach
    "unclosed <% if (true) {",               # a tag that is not closed
    "<% const a = []; while (true) a.push('x'.repeat(1e6)); %>",  # memory
])
def test_a_failing_template_gives_none(template: str) -> None:
    assert render_full(template, sandbox, tree=TREE, seed=1, clock=0) is None


def test_compiled_source_keeps_text_as_data() -> None:
    source = compile_template("`${alert}` </script> \\u0000 <%= 1 %>")
    out = render_full("`${alert}` </script> \\u0000 <%= 1 %>", sandbox, tree={}, seed=1, clock=0)
    assert "__o.push(" in source and out is not None and out.text == "`${alert}` </script> \\u0000 1"


@settings(max_examples=120, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("<%=-_#>{}()ifelse ;'\"`$x雾\n/*")), max_size=60))
def test_raw_template_syntax_never_comes_out(text: str) -> None:
    out = render_full(text, sandbox, tree=TREE, seed=1, clock=0)
    literal = text.replace("<%%", "\x01").replace("%%>", "\x02")
    if "<%" not in literal:  # no tags: the text as written, the literal forms read
        assert out is not None and out.text == literal.replace("\x01", "<%").replace("\x02", "%>")
    if out is not None and "<%%" not in text and "<#" not in text:
        assert "<%" not in out.text


def test_a_sandbox_that_cannot_run_gives_none() -> None:
    class Broken:
        @staticmethod
        def evaluate(*args: object, **kwargs: object) -> object:
            raise ImportError("no QuickJS binding")

    assert render_full("<%= 1 %>", Broken, tree={}, seed=1, clock=0) is None  # type: ignore[arg-type]
