"""``visible_when``: the tiny condition grammar of UI blocks, parsed once, evaluated per viewer.

A block's ``visible_when`` ships to every client of the room, and each client is one more
implementation of this grammar, so it is kept small enough to implement identically
everywhere::

    condition := or
    or        := and ('||' and)*
    and       := unary ('&&' unary)*
    unary     := '!' unary | compare
    compare   := operand (('===' | '!==' | '==' | '!=' | '>=' | '<=' | '>' | '<') operand)?
    operand   := literal | name | '(' or ')'
    literal   := NUMBER | STRING | 'true' | 'false' | 'null'
    name      := IDENT ('.' IDENT)*          a variable id as the viewer's variables name it

``NUMBER`` is decimal digits with an optional fraction (``46``, ``0.5``); ``STRING`` is quoted
with ``'`` or ``"``, where a backslash may only escape the quote or itself. ``IDENT`` starts with
a letter (any script) or ``_`` and goes on with letters, digits and ``_``.

Refused at load, each with the column where it starts: arithmetic (``+ - * / %``, unary minus
too: write ``day < 0`` rather than ``day >= -1``), calls (``getvar(…)``), indexing (``a[0]``),
assignment, bitwise and conditional operators, a comparison chained onto another
(``a < b < c``), more than :data:`MAX_LENGTH` characters, :data:`MAX_DEPTH` levels of
parentheses or :data:`MAX_TOKENS` tokens.

Semantics (see :func:`evaluate`): a name the viewer does not have is ``null``; ``===``/``!==``
compare type and value (a bool never equals a number); ``==``/``!=`` also equate a number
with a numeric string or a bool with 1/0; ordering compares two numbers (a numeric string
counts as its number when the other side is a number) or two strings (by code point),
anything else is an error; truthiness is JavaScript's
(``false``, ``0``, ``""`` and ``null`` are falsy). **An error hides the block**
(:func:`visible`): what cannot be decided is not shown.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar, Union

from lwcore.js import truthy  # JavaScript truthiness, the kernel's one definition

MAX_LENGTH = 200
MAX_DEPTH = 16
MAX_TOKENS = 100

COMPARISONS = ("===", "!==", "==", "!=", ">=", "<=", ">", "<")

_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)?")
_NUMERIC_TEXT = re.compile(r"\s*[+-]?[0-9]+(?:\.[0-9]+)?\s*")
_IDENT = re.compile(r"[^\W\d]\w*")
_SYMBOLS = ("===", "!==", "==", "!=", ">=", "<=", "&&", "||", ">", "<", "!", "(", ")", ".", ",")
_KEYWORDS: dict[str, Any] = {"true": True, "false": False, "null": None}
_REFUSED: dict[str, str] = {
    "+": "arithmetic is not part of visible_when",
    "-": "arithmetic is not part of visible_when (a negative number too: turn the comparison around)",
    "*": "arithmetic is not part of visible_when",
    "/": "arithmetic is not part of visible_when",
    "%": "arithmetic is not part of visible_when",
    "[": "indexing (a[0]) is not part of visible_when",
    "]": "indexing (a[0]) is not part of visible_when",
    "=": "assignment is not part of visible_when (compare with === or ==)",
    "&": "bitwise operators are not part of visible_when (use &&)",
    "|": "bitwise operators are not part of visible_when (use ||)",
    "^": "bitwise operators are not part of visible_when",
    "~": "bitwise operators are not part of visible_when",
    "?": "the conditional operator is not part of visible_when",
    ":": "the conditional operator is not part of visible_when",
    "`": "template strings are not part of visible_when (quote with ' or \")",
}


class ConditionError(ValueError):
    """A condition that is not in the grammar (``column`` is 1-based, ``None`` when the
    problem is the whole condition), or one whose evaluation failed."""

    def __init__(self, message: str, column: int | None = None) -> None:
        super().__init__(f"column {column}: {message}" if column is not None else message)
        self.message = message
        self.column = column


# --- syntax tree ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Literal:
    value: Any


@dataclass(frozen=True, slots=True)
class Name:
    id: str
    column: int


@dataclass(frozen=True, slots=True)
class Not:
    operand: Node


@dataclass(frozen=True, slots=True)
class Both:
    """``&&`` of two or more operands."""

    operands: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Either:
    """``||`` of two or more operands."""

    operands: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Compare:
    op: str
    left: Node
    right: Node


Node = Union[Literal, Name, Not, Both, Either, Compare]


# --- tokens -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # "num" | "str" | "word" | "op" | "end"
    value: Any
    column: int


def _tokens(text: str) -> list[_Token]:
    if not isinstance(text, str):
        raise ConditionError("a condition is a text")
    if len(text) > MAX_LENGTH:
        raise ConditionError(f"the condition is {len(text)} characters long; the limit is {MAX_LENGTH}")
    out: list[_Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        column = i + 1
        if ch in " \t":
            i += 1
            continue
        if len(out) >= MAX_TOKENS:
            raise ConditionError(f"more than {MAX_TOKENS} tokens", column)
        if ch in "'\"":
            value, i = _string(text, i)
            out.append(_Token("str", value, column))
            continue
        match = _NUMBER.match(text, i)
        if match:
            end = match.end()
            if end < n and (text[end] == "." or _IDENT.match(text, end)):
                raise ConditionError(f"{text[i:end + 1]!r} is not a number", column)
            raw = match.group()
            out.append(_Token("num", float(raw) if "." in raw else int(raw), column))
            i = end
            continue
        match = _IDENT.match(text, i)
        if match:
            out.append(_Token("word", match.group(), column))
            i = match.end()
            continue
        for symbol in _SYMBOLS:
            if text.startswith(symbol, i):
                out.append(_Token("op", symbol, column))
                i += len(symbol)
                break
        else:
            reason = _REFUSED.get(ch)
            if reason is None:
                shown = repr(ch) if ch.isprintable() else f"U+{ord(ch):04X}"
                reason = f"unexpected character {shown}"
            raise ConditionError(reason, column)
    out.append(_Token("end", None, n + 1))
    return out


def _string(text: str, start: int) -> tuple[str, int]:
    quote = text[start]
    chars: list[str] = []
    i = start + 1
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            nxt = text[i + 1] if i + 1 < len(text) else ""
            if nxt not in ("\\", quote):
                raise ConditionError("a backslash may only escape the quote or itself", i + 1)
            chars.append(nxt)
            i += 2
            continue
        if ch == quote:
            return "".join(chars), i + 1
        if ch in "\r\n":
            break
        chars.append(ch)
        i += 1
    raise ConditionError("the string is not closed", start + 1)


# --- parser -----------------------------------------------------------------------------


class _Parser:
    def __init__(self, tokens: list[_Token]) -> None:
        self.tokens = tokens
        self.pos = 0
        self.depth = 0

    def peek(self) -> _Token:
        return self.tokens[self.pos]

    def take(self) -> _Token:
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def accept(self, *ops: str) -> _Token | None:
        token = self.peek()
        if token.kind == "op" and token.value in ops:
            self.pos += 1
            return token
        return None

    def condition(self) -> Node:
        node = self.either()
        token = self.peek()
        if token.kind != "end":
            if token.kind == "op" and token.value in COMPARISONS:
                raise ConditionError("comparisons do not chain (a < b < c): join them with &&", token.column)
            raise ConditionError(f"unexpected {_show(token)}", token.column)
        return node

    def either(self) -> Node:
        operands = [self.both()]
        while self.accept("||"):
            operands.append(self.both())
        return operands[0] if len(operands) == 1 else Either(tuple(operands))

    def both(self) -> Node:
        operands = [self.unary()]
        while self.accept("&&"):
            operands.append(self.unary())
        return operands[0] if len(operands) == 1 else Both(tuple(operands))

    def unary(self) -> Node:
        if self.accept("!"):
            return Not(self.unary())
        return self.compare()

    def compare(self) -> Node:
        left = self.operand()
        token = self.accept(*COMPARISONS)
        if token is None:
            return left
        return Compare(token.value, left, self.operand())

    def operand(self) -> Node:
        token = self.take()
        if token.kind == "num" or token.kind == "str":
            return Literal(token.value)
        if token.kind == "word":
            if token.value in _KEYWORDS:
                return Literal(_KEYWORDS[token.value])
            return self.name(token)
        if token.kind == "op" and token.value == "(":
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise ConditionError(f"more than {MAX_DEPTH} levels of parentheses", token.column)
            node = self.either()
            closing = self.take()
            if closing.kind != "op" or closing.value != ")":
                raise ConditionError(f"expected ')', found {_show(closing)}", closing.column)
            self.depth -= 1
            return node
        if token.kind == "end":
            raise ConditionError("the condition ends too early", token.column)
        raise ConditionError(f"expected a value or a variable, found {_show(token)}", token.column)

    def name(self, first: _Token) -> Name:
        parts = [first.value]
        while self.accept("."):
            part = self.take()
            if part.kind != "word" or part.value in _KEYWORDS:
                raise ConditionError(f"expected a name after '.', found {_show(part)}", part.column)
            parts.append(part.value)
        after = self.peek()
        if after.kind == "op" and after.value == "(":
            raise ConditionError(f"calls ({'.'.join(parts)}(…)) are not part of visible_when", after.column)
        return Name(".".join(parts), first.column)


def _show(token: _Token) -> str:
    if token.kind == "op" and token.value == ",":
        return "',' (lists and arguments are not part of visible_when)"
    if token.kind == "end":
        return "the end"
    if token.kind == "str":
        return "a string"
    return repr(token.value) if token.kind != "num" else f"the number {token.value}"


def parse(text: str) -> Node:
    """The syntax tree of ``text``; :class:`ConditionError` (with a column) when it is not a
    condition of the grammar."""
    if not isinstance(text, str) or not text.strip():
        raise ConditionError("the condition is empty")
    if "\n" in text or "\r" in text:
        raise ConditionError("a condition is one line", text.find("\n" if "\n" in text else "\r") + 1)
    return _Parser(_tokens(text)).condition()


# --- reading a tree ---------------------------------------------------------------------


def walk(node: Node) -> Iterator[Node]:
    """Every node of the tree, parents before children."""
    yield node
    if isinstance(node, Not):
        yield from walk(node.operand)
    elif isinstance(node, (Both, Either)):
        for operand in node.operands:
            yield from walk(operand)
    elif isinstance(node, Compare):
        yield from walk(node.left)
        yield from walk(node.right)


def names(node: Node) -> list[Name]:
    """The variable names the condition reads, in order."""
    return [n for n in walk(node) if isinstance(n, Name)]


def compared_literals(node: Node) -> list[Any]:
    """The literal values the condition compares something with (``'顾晚棠'`` in
    ``suspect === '顾晚棠'``): what a reader of the condition learns the author expects."""
    out = []
    for n in walk(node):
        if isinstance(n, Compare):
            out += [side.value for side in (n.left, n.right) if isinstance(side, Literal)]
    return out


def unparse(node: Node) -> str:
    """The condition written back (fully parenthesized); ``parse(unparse(t)) == t``."""
    if isinstance(node, Literal):
        value = node.value
        if value is None:
            return "null"
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, str):
            return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
        return repr(value)
    if isinstance(node, Name):
        return node.id
    if isinstance(node, Not):
        return f"!({unparse(node.operand)})"
    if isinstance(node, Compare):
        return f"({unparse(node.left)}) {node.op} ({unparse(node.right)})"
    joiner = " && " if isinstance(node, Both) else " || "
    return "(" + joiner.join(f"({unparse(o)})" for o in node.operands) + ")"


# --- evaluation -------------------------------------------------------------------------


Values = Mapping[str, Any]
Compiled = Callable[[Values], Any]


def _number(value: Any) -> float | None:
    """``value`` as a number for ``==`` and ordering: numbers, numeric strings (and, for
    ``==`` only, bools); ``None`` when it is not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str) and _NUMERIC_TEXT.fullmatch(value):
        return float(value)
    return None


def _strict_equal(a: Any, b: Any) -> bool:
    kind = a.__class__
    if kind is b.__class__ and kind in _PLAIN:
        return bool(a == b)
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, str) and isinstance(b, str):
        return a == b
    return False


def _loose_equal(a: Any, b: Any) -> bool:
    if _strict_equal(a, b):
        return True
    if a is None or b is None:
        return False
    na = float(a) if isinstance(a, bool) else _number(a)
    nb = float(b) if isinstance(b, bool) else _number(b)
    return na is not None and nb is not None and na == nb


_PLAIN = (str, int, float)
_ORDERS: dict[str, Callable[[Any, Any], bool]] = {
    ">": lambda a, b: a > b, "<": lambda a, b: a < b, ">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b,
}


def _ordering(op: str) -> Callable[[Any, Any], bool]:
    """The comparison ``op``: two numbers (not bools) compared at once, anything else
    through :func:`_order`."""
    test = _ORDERS[op]

    def order(a: Any, b: Any) -> bool:
        if (a.__class__ is int or a.__class__ is float) and (b.__class__ is int or b.__class__ is float):
            return bool(test(a, b))
        return _order(op, a, b)
    return order


def _order(op: str, a: Any, b: Any) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return _compare(op, a, b)
    na, nb = _number(a), _number(b)
    if na is None or nb is None:
        raise ConditionError(f"cannot order {_kind(a)} and {_kind(b)}")
    return _compare(op, na, nb)


_Ordered = TypeVar("_Ordered", str, float)


def _compare(op: str, left: _Ordered, right: _Ordered) -> bool:
    if op == ">":
        return left > right
    if op == "<":
        return left < right
    if op == ">=":
        return left >= right
    return left <= right


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a bool"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a text"
    return "a " + type(value).__name__


def _not_strict(a: Any, b: Any) -> bool:
    return not _strict_equal(a, b)


def _not_loose(a: Any, b: Any) -> bool:
    return not _loose_equal(a, b)


_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "===": _strict_equal, "!==": _not_strict, "==": _loose_equal, "!=": _not_loose,
    ">": _ordering(">"), "<": _ordering("<"), ">=": _ordering(">="), "<=": _ordering("<="),
}


def compare(op: str, a: Any, b: Any) -> bool:
    """One comparison with the grammar's semantics (:class:`ConditionError` when unorderable)."""
    return _COMPARE[op](a, b)


def compile_node(node: Node) -> Compiled:
    """A closure evaluating ``node`` against a viewer's values (name -> value; a missing
    name is ``null``). Raises :class:`ConditionError` when a comparison cannot be made."""
    if isinstance(node, Literal):
        value = node.value
        return lambda values: value
    if isinstance(node, Name):
        key = node.id
        return lambda values: values.get(key)
    if isinstance(node, Not):
        inner = compile_node(node.operand)
        return lambda values: not truthy(inner(values))
    if isinstance(node, Compare):
        test = _COMPARE[node.op]
        # the common shapes, name against literal, without a call per operand
        if isinstance(node.left, Name) and isinstance(node.right, Literal):
            key, literal = node.left.id, node.right.value
            return lambda values: test(values.get(key), literal)
        if isinstance(node.left, Literal) and isinstance(node.right, Name):
            literal, key = node.left.value, node.right.id
            return lambda values: test(literal, values.get(key))
        left, right = compile_node(node.left), compile_node(node.right)
        return lambda values: test(left(values), right(values))
    parts = tuple(compile_node(o) for o in node.operands)
    if isinstance(node, Both):
        def both(values: Values) -> Any:
            result: Any = True
            for part in parts:
                result = part(values)
                if not truthy(result):
                    return result
            return result
        return both

    def either(values: Values) -> Any:
        result: Any = False
        for part in parts:
            result = part(values)
            if truthy(result):
                return result
        return result
    return either


def compile_condition(text: str) -> Callable[[Values], bool]:
    """``text`` parsed and compiled to ``visible(values) -> bool``: errors hide (``False``)."""
    run = compile_node(parse(text))

    def visible(values: Values) -> bool:
        try:
            result = run(values)
        except ConditionError:
            return False
        return result if result is True or result is False else truthy(result)
    return visible


def evaluate(text: str, values: Values) -> Any:
    """The value of condition ``text`` (:class:`ConditionError` on any problem)."""
    return compile_node(parse(text))(values)


def visible(text: str, values: Values) -> bool:
    """Whether a block with ``visible_when: text`` shows for a viewer with ``values``: a
    condition that does not parse or cannot be evaluated hides the block."""
    try:
        return truthy(evaluate(text, values))
    except ConditionError:
        return False


def check(text: str) -> str:
    """``text`` when it is a condition of the grammar; else :class:`ConditionError`. For
    model validators: the message carries the column."""
    parse(text)
    return text
