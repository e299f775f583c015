"""The closed, JavaScript-flavoured expressions of the EJS subset and ``@@if`` conditions.

Cards write ``getvar('好感度') > 50 && !variables.flags.seen`` or
``stat_data.世界.日 >= 2``. This is not JavaScript: a hand-written parser over a closed grammar,
evaluated over the values a caller's ``resolve(path)`` gives (``None`` for a missing one).

Grammar (lowest precedence first)::

    cond    := or ('?' cond ':' cond)?
    or      := and ('||' and)*
    and     := eq ('&&' eq)*
    eq      := rel (('===' | '!==' | '==' | '!=') rel)*
    rel     := sum (('<' | '<=' | '>' | '>=') sum)*
    sum     := prod (('+' | '-') prod)*
    prod    := unary (('*' | '/' | '%') unary)*
    unary   := ('!' | '-' | '+') unary | primary
    primary := NUMBER | STRING | true | false | null | undefined | '(' cond ')'
             | getvar '(' STRING (',' ('{' NAME ':' cond (',' NAME ':' cond)* '}' | cond))? ')'
                                                   the options' ``defaults`` stands in for a missing value
             | NAME ('.' NAME | '[' (NUMBER | STRING) ']')*   a variable path

``==``/``!=`` are loose the way JavaScript's are for numbers and numeric text; ``+`` joins
text when either side is text; truthiness is JavaScript's. Limits: 2,000 characters, 300
tokens, nesting 40. Every problem is an :class:`ExprError` with the column.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from lwcore.api import (  # JavaScript semantics, one definition
    js_to_number as to_number,
    js_to_string as to_string,
    js_truthy as truthy,
)

Resolver = Callable[[str], Any]
MAX_LENGTH = 2000
MAX_TOKENS = 300
MAX_DEPTH = 40


class ExprError(ValueError):
    """An expression that cannot be read or evaluated; ``column`` is 1-based."""

    def __init__(self, message: str, column: int | None = None) -> None:
        super().__init__(message if column is None else f"column {column}: {message}")
        self.column = column


_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<num>\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|\.\d+)
  | (?P<str>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
  | (?P<op>===|!==|==|!=|<=|>=|&&|\|\||[-+*/%<>!()\[\].,?:{}])
  | (?P<name>[^\W\d]\w*)
""", re.VERBOSE)
_ROOTS = ("variables", "stat_data")
_LITERALS = {"true": True, "false": False, "null": None, "undefined": None}


def tokenize(text: str) -> list[tuple[str, Any, int]]:
    if len(text) > MAX_LENGTH:
        raise ExprError(f"longer than {MAX_LENGTH} characters")
    out: list[tuple[str, Any, int]] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise ExprError(f"unexpected {text[pos]!r}", pos + 1)
        kind = m.lastgroup or ""
        if kind != "ws":
            value: Any = m.group(0)
            if kind == "num":
                value = float(value) if any(c in value for c in ".eE") else int(value)
            elif kind == "str":
                value = re.sub(r"\\(.)", lambda e: {"n": "\n", "t": "\t"}.get(e.group(1), e.group(1)), value[1:-1])
            out.append((kind, value, pos + 1))
            if len(out) > MAX_TOKENS:
                raise ExprError(f"more than {MAX_TOKENS} tokens")
        pos = m.end()
    return out


def _loose_equal(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, str) and isinstance(b, str):
        return a == b
    if isinstance(a, (int, float, bool, str)) and isinstance(b, (int, float, bool, str)):
        return to_number(a) == to_number(b)
    return a is b


def _strict_equal(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if type(a) is not type(b):
        return False
    return a == b if isinstance(a, (str, type(None))) else a is b


class _Parser:
    def __init__(self, text: str, resolve: Resolver) -> None:
        self.tokens = tokenize(text)
        self.pos = 0
        self.resolve = resolve
        self.depth = 0

    def peek(self) -> tuple[str, Any, int] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def at(self, *ops: str) -> bool:
        tok = self.peek()
        return tok is not None and tok[0] == "op" and tok[1] in ops

    def take(self) -> tuple[str, Any, int]:
        tok = self.peek()
        if tok is None:
            raise ExprError("the expression ends too early")
        self.pos += 1
        return tok

    def expect(self, op: str) -> None:
        tok = self.take()
        if tok[0] != "op" or tok[1] != op:
            raise ExprError(f"{op!r} expected, found {tok[1]!r}", tok[2])

    def parse(self) -> Any:
        value = self.cond()
        tok = self.peek()
        if tok is not None:
            raise ExprError(f"unexpected {tok[1]!r}", tok[2])
        return value

    def nested(self, fn: Callable[[], Any]) -> Any:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ExprError(f"nested deeper than {MAX_DEPTH}")
        try:
            return fn()
        finally:
            self.depth -= 1

    def cond(self) -> Any:
        value = self.or_()
        if self.at("?"):
            self.take()
            yes = self.nested(self.cond)
            self.expect(":")
            no = self.nested(self.cond)
            return yes if truthy(value) else no
        return value

    def or_(self) -> Any:
        value = self.and_()
        while self.at("||"):
            self.take()
            right = self.and_()
            value = value if truthy(value) else right
        return value

    def and_(self) -> Any:
        value = self.eq()
        while self.at("&&"):
            self.take()
            right = self.eq()
            value = right if truthy(value) else value
        return value

    def eq(self) -> Any:
        value = self.rel()
        while self.at("===", "!==", "==", "!="):
            op = self.take()[1]
            right = self.rel()
            same = _strict_equal(value, right) if op in ("===", "!==") else _loose_equal(value, right)
            value = same if op in ("===", "==") else not same
        return value

    def rel(self) -> Any:
        value = self.sum()
        while self.at("<", "<=", ">", ">="):
            op = self.take()[1]
            right = self.sum()
            if isinstance(value, str) and isinstance(right, str):
                a: Any = value
                b: Any = right
            else:
                a, b = to_number(value), to_number(right)
                if math.isnan(a) or math.isnan(b):
                    value = False
                    continue
            value = {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
        return value

    def sum(self) -> Any:
        value = self.prod()
        while self.at("+", "-"):
            op = self.take()[1]
            right = self.prod()
            if op == "+" and (isinstance(value, str) or isinstance(right, str)):
                value = to_string(value) + to_string(right)
            else:
                value = to_number(value) + to_number(right) if op == "+" else to_number(value) - to_number(right)
                value = _tidy(value)
        return value

    def prod(self) -> Any:
        value = self.unary()
        while self.at("*", "/", "%"):
            op = self.take()[1]
            a, b = to_number(value), to_number(self.unary())
            if op == "*":
                value = _tidy(a * b)
            elif b == 0:
                value = math.nan if op == "%" or a == 0 or math.isnan(a) else math.copysign(math.inf, a)
            else:
                value = _tidy(a / b if op == "/" else math.fmod(a, b))
        return value

    def unary(self) -> Any:
        if self.at("!"):
            self.take()
            return not truthy(self.nested(self.unary))
        if self.at("-", "+"):
            op = self.take()[1]
            value = to_number(self.nested(self.unary))
            return _tidy(-value if op == "-" else value)
        return self.primary()

    def primary(self) -> Any:
        kind, value, column = self.take()
        if kind in ("num", "str"):
            return value
        if kind == "op" and value == "(":
            inner = self.nested(self.cond)
            self.expect(")")
            return inner
        if kind == "name":
            if value in _LITERALS:
                return _LITERALS[value]
            if value == "getvar" and self.at("("):
                return self.getvar(column)
            return self.resolve(self.path(value))
        raise ExprError(f"unexpected {value!r}", column)

    def getvar(self, column: int) -> Any:
        self.expect("(")
        kind, name, col = self.take()
        if kind != "str":
            raise ExprError("getvar takes a quoted variable name", col)
        options: dict[str, Any] = {}
        if self.at(","):
            self.take()
            if self.at("{"):
                options = self.options()
            else:
                self.nested(self.cond)
        self.expect(")")
        value = self.resolve(name)
        return options.get("defaults") if value is None else value

    def options(self) -> dict[str, Any]:
        """``{name: value, …}``: getvar's options object (``defaults`` is used)."""
        self.expect("{")
        out: dict[str, Any] = {}
        while not self.at("}"):
            kind, key, col = self.take()
            if kind not in ("name", "str"):
                raise ExprError("an option name expected", col)
            self.expect(":")
            out[str(key)] = self.nested(self.cond)
            if not self.at("}"):
                self.expect(",")
        self.expect("}")
        return out

    def path(self, first: str) -> str:
        parts = [first]
        while self.at(".", "["):
            if self.take()[1] == ".":
                kind, value, column = self.take()
                if kind != "name":
                    raise ExprError("a name expected after '.'", column)
                parts.append(value)
            else:
                kind, value, column = self.take()
                if kind not in ("num", "str"):
                    raise ExprError("only a number or a quoted key may stand in [ ]", column)
                parts.append(str(value))
                self.expect("]")
        if parts[0] in _ROOTS and len(parts) > 1:
            parts = parts[1:]
        return ".".join(parts)


def _tidy(value: float) -> Any:
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


def evaluate(text: str, resolve: Resolver) -> Any:
    """The value of ``text`` (raises :class:`ExprError`)."""
    return _Parser(text, resolve).parse()


def evaluate_condition(text: str, resolve: Resolver) -> bool:
    """An ``@@if`` condition's verdict (raises :class:`ExprError`; callers fail closed)."""
    return truthy(evaluate(text, resolve))


def show(value: Any) -> str:
    """A value as an output tag prints it (``null``/``undefined`` print as nothing)."""
    return "" if value is None else to_string(value)
