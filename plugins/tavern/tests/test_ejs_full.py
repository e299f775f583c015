"""The full EJS mode: templates compiled to JavaScript and run in the kernel's sandbox (golden
table), writes as the kernel's script writes (located), failures answered with ``None`` (the caller
falls back to the subset), and raw template syntax never in the output (property)."""

from __future__ import annotations

import lwcore.sandbox as sandbox
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lwcore.contributions import VariableWrite

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
    ("<%= undefined %><%= null %><%= {a: 1} %>", "[object Object]"),  # what EJS prints (issue 26)
    ("<%= new Date().getUTCFullYear() %>", "1925"),
]


@pytest.mark.parametrize("template,expected", GOLDEN)
def test_templates(template: str, expected: str) -> None:
    out = render_full(template, sandbox, tree=TREE, seed=1, clock=-1420070400000 + 86_400_000 * 3)
    assert out is not None and out.text == expected


def test_writes_are_the_kernels_script_writes_in_order_with_their_template_lines() -> None:
    template = ("<% setvar('世界.日', 9); incvar('世界.日'); incvar('新.计数', 2); incvar('新.计数'); %>\n"
                "text\n<#escape-ejs>\n<%= kept %>\n</#escape-ejs>\n<%\n  decvar('世界.日', 4); %>")
    out = render_full(template, sandbox, tree=TREE, seed=1, clock=0, script="book#e")
    assert out is not None and out.writes == [
        VariableWrite("setvar", ("世界", "日"), 9, "book#e", 1), VariableWrite("incvar", ("世界", "日"), 1, "book#e", 1),
        VariableWrite("incvar", ("新", "计数"), 2, "book#e", 1), VariableWrite("incvar", ("新", "计数"), 1, "book#e", 1),
        VariableWrite("incvar", ("世界", "日"), -4, "book#e", 7)]


@pytest.mark.parametrize("template,line", [
    ("<% setvar('a', 1) %>", 1),
    ("x\n\n<%= setvar('a', 1) %>", 3),
    ("<%# a\ncomment %>\n<%_ setvar('a', 1) _%>", 3),
    ("<%\nlet v = 1;\n\nsetvar('a', v) %>", 4),
    ("<%%\n%%>\n<% setvar('a', 1) -%>\n", 3),
    ("<#escape-ejs>\n\n\n</#escape-ejs><%\n setvar('a', 1) %>", 5),
])
def test_a_writes_line_is_its_line_in_the_template(template: str, line: int) -> None:
    out = render_full(template, sandbox, tree={}, seed=1, clock=0)
    assert out is not None and [w.line for w in out.writes] == [line]


def test_entries_prompts_and_next_turn_requests() -> None:
    out = render_full("<%= getwi('码头') %>|<%= getwi('书', '码头') %>|<%= getwi('无') %><% injectPrompt('k', '注入'); "
                      "activewi('灯塔'); %><%= getPromptsInjected() %><%= faker.name.firstName() %>",
                      sandbox, tree={}, seed=1, clock=0, entries={"码头": "PIER"})
    assert out is not None and out.text == "PIER|PIER|注入"
    assert out.injected == ["注入"] and out.activate == ["灯塔"] and out.warnings == [
        "faker is a stub here: it gives empty text"]


# --- execvar: a variable holding template text, rendered where it is called -------------------------

EXEC_TREE = {
    "世界": {"日": 3},
    "名单": ["甲", "乙"],
    "模板": {
        "问候": "第<%= getvar('世界.日') %>日",
        "列表": "<% for (const n of variables.名单) { %>[<%= n %>]<% } %>",
        "纯文本": "只是文字",
        "嵌套": "外<%- execvar('模板.问候') %>",
        "描述": ["<%= 1 + 1 %>", "a described leaf: its value is the template"],
        "写": "<% incvar('世界.日') %>写过",
        "异步": "<%= await Promise.resolve('稍后') %>",
        "转义": "<#escape-ejs><%= 原样 %></#escape-ejs>",
        "未闭合": "<% if (true) {",
    },
    "环": "<%- execvar('环') %>",
    "互": {"甲": "<%- execvar('互.乙') %>", "乙": "<%- execvar('互.甲') %>"},
    "坏": "<% throw new Error('坏了') %>",
    "慢": "<% while (true) {} %>",
}

EXECVAR = [
    # (template, text)
    ("<%- execvar('模板.问候') %>", "第3日"),
    ("<%- await execvar('模板.问候') %>", "第3日"),
    ("<%= execvar('stat_data.模板.列表') %>", "[甲][乙]"),
    ("<%- execvar('模板.纯文本') %>", "只是文字"),  # text without tags is itself
    ("<%- execvar('模板.嵌套') %>", "外第3日"),  # a variable's template may call execvar
    ("<%- execvar('模板.描述') %>", "2"),
    ("<%- await execvar('模板.异步') %>", "稍后"),  # an async text gives a promise: EJS prints no promise unawaited
    ("<%- execvar('模板.转义') %>", "<%= 原样 %>"),
    ("<%- execvar('世界.日') %>", "3"),  # a value that is no text prints as an output tag prints it
    ("[<%- execvar('没有') %>]", "[]"),
    ("<% const t = await execvar('模板.问候'); %><%= t.length %>", "3"),
    ("<% setvar('世界.日', 7) %><%- execvar('模板.问候') %>", "第7日"),  # it reads the render's own writes
    ("<% for (const k of ['问候', '纯文本']) { %><%- execvar('模板.' + k) %>;<% } %>", "第3日;只是文字;"),
]


@pytest.mark.parametrize("template,expected", EXECVAR)
def test_execvar(template: str, expected: str) -> None:
    out = render_full(template, sandbox, tree=EXEC_TREE, seed=1, clock=0)
    assert out is not None and out.text == expected


def test_execvar_writes_are_buffered_like_the_templates_own() -> None:
    out = render_full("<%- execvar('模板.写') %>|<%= getvar('世界.日') %>", sandbox, tree=EXEC_TREE, seed=1, clock=0)
    assert out is not None and out.text == "写过|4"
    assert [(w.op, w.path, w.value) for w in out.writes] == [("incvar", ("世界", "日"), 1)]
    assert out.writes[0].line is None  # a line of the variable's template, not of this one
    assert EXEC_TREE["世界"]["日"] == 3  # the tree itself is never written by a render


@pytest.mark.parametrize("template,warning", [
    ("[<%- execvar('模板.未闭合') %>]", 'execvar("模板.未闭合")'),
    ("<% setvar('新', '<' + '%= 1 %' + '>') %>[<%- execvar('新') %>]", 'execvar("新")'),  # written during the render
])
def test_execvar_of_a_template_it_cannot_run_prints_nothing(template: str, warning: str) -> None:
    out = render_full(template, sandbox, tree=EXEC_TREE, seed=1, clock=0)
    assert out is not None and out.text.endswith("[]") and "<%" not in out.text
    assert any(w.startswith(warning) for w in out.warnings), out.warnings


@pytest.mark.parametrize("name", ["环", "互.甲", "坏", "慢"])
def test_execvar_that_fails_fails_the_template(name: str) -> None:
    """Endless nesting, a throw, a timeout inside the variable's template: the whole template
    fails (the caller falls back to the subset), under the same limits as any template."""
    assert render_full(f"before <%- execvar('{name}') %>", sandbox, tree=EXEC_TREE, seed=1, clock=0) is None


def test_execvar_compiles_only_what_the_template_can_reach() -> None:
    """A template that never names execvar carries no variable templates (the source stays small)."""
    assert compile_template("<%= 1 %>", {}) == compile_template("<%= 1 %>")
    assert "第" not in compile_template("<%= 1 %>") and "第" in compile_template("<%- execvar('x') %>", EXEC_TREE)


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


@settings(max_examples=80, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("<%=-_#>{}()ifelse ;'\"`$x雾\n/*")), max_size=60))
def test_execvar_never_lets_template_syntax_out(text: str) -> None:
    out = render_full("[<%- execvar('v') %>]", sandbox, tree={"v": text}, seed=1, clock=0)
    if out is not None and "<%%" not in text and "<#" not in text:
        assert "<%" not in out.text


def test_a_sandbox_that_cannot_run_gives_none() -> None:
    class Broken:
        @staticmethod
        def evaluate(*args: object, **kwargs: object) -> object:
            raise ImportError("no QuickJS binding")

    assert render_full("<%= 1 %>", Broken, tree={}, seed=1, clock=0) is None  # type: ignore[arg-type]
