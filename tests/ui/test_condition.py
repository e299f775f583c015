"""visible_when: the grammar's tables (accepted, refused with their columns), its semantics
for every operator and value kind, and properties: nothing the parser accepts can call,
index or do arithmetic; trees survive unparse/parse; evaluation is total."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lwcore.ui import condition as cond

ACCEPTED = {
    "day >= 46": ("day",),
    "stage === 2 && !alerted": ("stage", "alerted"),
    "mvu.角色.好感度 > 50": ("mvu.角色.好感度",),
    "(a || b) && c != 'x'": ("a", "b", "c"),
    "fog === \"蔽日\"": ("fog",),
    "!(x < 0.5)": ("x",),
    "flag": ("flag",),
    "true": (),
    "x == null": ("x",),
    "  spaced   ==   'a b'  ": ("spaced",),
    "_private_1 <= 3": ("_private_1",),
    "'it\\'s' === quote": ("quote",),
}

REFUSED = {
    "a + 1 > 2": (3, "arithmetic"),
    "day >= -1": (8, "negative"),
    "a * 2": (3, "arithmetic"),
    "a / 2": (3, "arithmetic"),
    "a % 2": (3, "arithmetic"),
    "getvar('x') > 1": (7, "calls"),
    "Math.max(a, b)": (9, "calls"),
    "a[0] === 1": (2, "indexing"),
    "a = 1": (3, "assignment"),
    "a & b": (3, "bitwise"),
    "a | b": (3, "bitwise"),
    "a ? b : c": (3, "conditional"),
    "a < b < c": (7, "chain"),
    "a >": (4, "ends too early"),
    "(a": (3, "expected ')'"),
    "'open": (1, "not closed"),
    "'bad\\n'": (5, "backslash"),
    "1.": (1, "not a number"),
    "3abc": (1, "not a number"),
    "a.": (3, "expected a name"),
    "a.true": (3, "expected a name"),
    "`t`": (1, "template"),
    "a,b": (2, "lists"),
    "": (None, "empty"),
    "a\nb": (2, "one line"),
    "x " * 101: (None, "limit"),
    "@": (1, "unexpected character"),
    "a === b c": (9, "unexpected"),
}


@pytest.mark.parametrize("text", sorted(ACCEPTED))
def test_accepted_conditions_and_the_names_they_read(text: str) -> None:
    assert tuple(n.id for n in cond.names(cond.parse(text))) == ACCEPTED[text]


@pytest.mark.parametrize("text", sorted(REFUSED, key=repr))
def test_refused_conditions_say_where_and_why(text: str) -> None:
    column, words = REFUSED[text]
    with pytest.raises(cond.ConditionError) as caught:
        cond.parse(text)
    if column is not None:
        assert caught.value.column == column, caught.value
    assert words.split()[0].lower() in str(caught.value).lower() or words in str(caught.value)


def test_depth_and_token_limits() -> None:
    cond.parse("(" * cond.MAX_DEPTH + "a" + ")" * cond.MAX_DEPTH)
    with pytest.raises(cond.ConditionError, match="parentheses"):
        cond.parse("(" * (cond.MAX_DEPTH + 1) + "a" + ")" * (cond.MAX_DEPTH + 1))
    with pytest.raises(cond.ConditionError, match="tokens"):
        cond.parse("&&".join(["a"] * 60))


# --- semantics: one row per operator and kind of operands -------------------------------------

VALUES: dict[str, Any] = {"n3": 3, "f3": 3.0, "s3": "3", "sx": "x", "sy": "y", "t": True, "f": False, "nil": None,
                          "zero": 0, "empty": "", "n1": 1, "list": [1]}

SEMANTICS = [
    ("n3 === f3", True), ("n3 === s3", False), ("n3 == s3", True), ("n3 != s3", False), ("n3 !== s3", True),
    ("t === n1", False), ("t == n1", True), ("f == zero", True), ("nil == zero", False), ("nil == missing", True),
    ("nil === missing", True), ("sx === 'x'", True), ("sx == 'X'", False), ("sx < sy", True), ("s3 < 10", True),
    ("s3 < '10'", False), ("n3 >= 3", True), ("n3 > 3", False), ("n3 <= 2.5", False), ("!empty", True),
    ("!zero", True), ("!sx", False), ("!list", False), ("!missing", True), ("n3 && sx", True),
    ("zero || sx", True), ("zero && missing > 1", False), ("n3 || missing > 1", True),
]


@pytest.mark.parametrize("text,expected", SEMANTICS)
def test_semantics(text: str, expected: bool) -> None:
    assert cond.truthy(cond.evaluate(text, VALUES)) is expected
    assert cond.visible(text, VALUES) is expected


ERRORS = ["sx > 3", "nil > 0", "t < 2", "missing >= 0", "list < 1", "sx <= nil"]


@pytest.mark.parametrize("text", ERRORS)
def test_what_cannot_be_ordered_hides_the_block(text: str) -> None:
    with pytest.raises(cond.ConditionError):
        cond.evaluate(text, VALUES)
    assert cond.visible(text, VALUES) is False
    assert cond.compile_condition(text)(VALUES) is False


def test_a_broken_condition_is_not_visible() -> None:
    assert cond.visible("a +", {"a": 1}) is False


def test_compared_literals() -> None:
    tree = cond.parse("culprit === '顾晚棠' || (day > 3 && !x) || y")
    assert cond.compared_literals(tree) == ["顾晚棠", 3]


# --- properties ---------------------------------------------------------------------------------

FRAGMENTS = ["a", "b.c", "角色", "_x", "1", "2.5", "'s'", '"t"', "true", "null", " ", "(", ")", "!", "&&", "||",
             "===", "!==", "==", "!=", "<", ">", "<=", ">=", "+", "-", "*", "/", "%", "[", "]", "[0]", ",", ".",
             "getvar", "f(", "=", "?", ":"]
_STRING = re.compile(r"'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"")
_NAME_THEN_CALL_OR_INDEX = re.compile(r"[^\W\d][\w.]*\s*[(\[]")


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=14))
def test_nothing_accepted_can_call_index_or_compute(parts: list[str]) -> None:
    text = "".join(parts)
    try:
        tree = cond.parse(text)
    except cond.ConditionError:
        return
    code = _STRING.sub("''", text)
    stripped = re.sub(r"===|!==|==|!=|>=|<=", " ", code)
    assert not set(stripped) & set("+-*/%[],?:="), text
    assert not _NAME_THEN_CALL_OR_INDEX.search(code), text
    for node in cond.walk(tree):
        assert isinstance(node, (cond.Literal, cond.Name, cond.Not, cond.Both, cond.Either, cond.Compare))


def _trees() -> st.SearchStrategy[Any]:
    names = st.from_regex(r"[a-z_][a-z0-9_]{0,5}(\.[a-z_][a-z0-9_]{0,3}){0,2}", fullmatch=True).filter(
        lambda s: not set(s.split(".")) & {"true", "false", "null"})
    literals = st.one_of(st.integers(0, 10**6), st.floats(0, 1000, allow_nan=False).map(lambda f: round(f, 3)),
                         st.text(max_size=6).filter(lambda s: "\n" not in s and "\r" not in s), st.booleans(),
                         st.none())
    leaves = st.one_of(names.map(lambda n: cond.Name(n, 1)), literals.map(cond.Literal))
    return st.recursive(leaves, lambda inner: st.one_of(
        inner.map(cond.Not),
        st.tuples(st.sampled_from(cond.COMPARISONS), leaves, leaves).map(lambda t: cond.Compare(*t)),
        st.lists(inner, min_size=2, max_size=3).map(lambda xs: cond.Both(tuple(xs))),
        st.lists(inner, min_size=2, max_size=3).map(lambda xs: cond.Either(tuple(xs))),
    ), max_leaves=6)


def _shape(node: Any) -> Any:
    """A tree without columns, floats as the text would read them."""
    if isinstance(node, cond.Name):
        return ("name", node.id)
    if isinstance(node, cond.Literal):
        return ("lit", type(node.value).__name__ if not isinstance(node.value, (int, float)) or isinstance(node.value, bool)
                else "num", node.value if not isinstance(node.value, float) else float(node.value))
    if isinstance(node, cond.Not):
        return ("not", _shape(node.operand))
    if isinstance(node, cond.Compare):
        return ("cmp", node.op, _shape(node.left), _shape(node.right))
    return (type(node).__name__, tuple(_shape(o) for o in node.operands))


@settings(max_examples=300, deadline=None)
@given(_trees())
def test_unparse_parses_back_to_the_same_tree(tree: Any) -> None:
    text = cond.unparse(tree)
    if len(text) > cond.MAX_LENGTH:
        return
    try:
        parsed = cond.parse(text)
    except cond.ConditionError as exc:  # only limits may refuse a tree we built
        assert "limit" in str(exc) or "tokens" in str(exc) or "parentheses" in str(exc), (text, exc)
        return
    assert _shape(parsed) == _shape(tree), text


JSON_VALUES = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
                                     st.text(max_size=4)), lambda inner: st.lists(inner, max_size=2), max_leaves=4)


@settings(max_examples=300, deadline=None)
@given(_trees(), st.dictionaries(st.sampled_from(["a", "b", "c", "a.b", "x"]), JSON_VALUES))
def test_evaluation_is_total(tree: Any, values: dict[str, Any]) -> None:
    try:
        result = cond.compile_node(tree)(values)
    except cond.ConditionError:
        return
    assert isinstance(cond.truthy(result), bool)
