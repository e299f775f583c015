"""The closed expression language of rulepacks (``when:``, difficulty ``target:``, derived ``expr``).

Grammar (lowest precedence first)::

    or      := and ('||' and)*
    and     := not ('&&' not)*
    not     := '!' not | compare                 ! applies to a whole comparison
    compare := sum (('==' | '!=' | '<' | '<=' | '>' | '>=') sum)?
    sum     := product (('+' | '-') product)*
    product := unary (('*' | '/' | '%') unary)*
    unary   := '-' unary | postfix
    postfix := primary ('[' sum ']')?
    primary := NUMBER | 'true' | 'false' | NAME | FUNC '(' sum (',' sum)* ')'
             | 'if' '(' or ',' or ',' or ')' | '(' or ')'

Two value types: numbers and booleans (plus the list ``dice``, which must be indexed).
``/`` is true division (``floor(target / 2)`` for integer halves), ``%`` is the floor modulo;
functions are ``floor ceil min max abs`` and ``if(condition, then, else)`` (both branches of
one type). ``dice[i]`` indexes the dice from 0, as Loreweaver's packs write it (``dice[0]`` is
the first die); the name ``diceN`` counts from 1 (``dice1`` is ``dice[0]``). Every expression
is parsed and type-checked once, at load time, against the names its scope
(:class:`ExprScope`) provides; an unknown name, a name the scope does not offer, a type
mismatch or a syntax error raises :class:`ExprError` with the 1-based column and what was
expected. Compiled expressions are closures over an environment mapping; nothing is ever
``eval``-ed.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from lwcore.rules.errors import ExprError

NUM = "number"
BOOL = "true/false"
LIST = "list of dice"

FUNCTIONS: dict[str, tuple[int, int | None]] = {
    "floor": (1, 1),
    "ceil": (1, 1),
    "abs": (1, 1),
    "min": (2, None),
    "max": (2, None),
    "if": (3, 3),
}
KEYWORDS = ("true", "false")
MAX_EXPR_LENGTH = 2000
MAX_EXPR_DEPTH = 60

Env = Mapping[str, Any]
Fn = Callable[[Env], Any]


@dataclass(frozen=True)
class ExprScope:
    """The names an expression may use where it is written: name -> type, plus why a name the
    language knows is missing there.

    ``dice_count``: how many dice ``dice[i]``/``diceN`` may reach, when known at load time.
    ``unavailable``: name -> reason, for names the language knows but this scope lacks.
    ``what``: where the expression is written, for messages (``when:``, ``a derived expr``).
    """

    names: Mapping[str, str]
    unavailable: Mapping[str, str] = field(default_factory=dict)
    dice_count: int | None = None
    what: str = "expression"

    def describe(self) -> str:
        shown = [n for n in self.names if not _dice_n(n)]
        return ", ".join(shown) or "no names"


def _dice_n(name: str) -> int | None:
    if name.startswith("dice") and name[4:].isdigit() and name[4:] != "0" and not name[4:].startswith("0"):
        return int(name[4:])
    return None


# --- tokenizer ----------------------------------------------------------------------------

_OPS2 = ("&&", "||", "==", "!=", "<=", ">=")
_OPS1 = "+-*/%<>!()[],"


def _tokens(text: str) -> list[tuple[str, Any, int]]:
    out: list[tuple[str, Any, int]] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
            continue
        col = i + 1
        if c.isdigit() and c.isascii():
            j = i
            while j < n and text[j].isascii() and text[j].isdigit():
                j += 1
            if j < n and text[j] == "." and j + 1 < n and text[j + 1].isascii() and text[j + 1].isdigit():
                j += 1
                while j < n and text[j].isascii() and text[j].isdigit():
                    j += 1
                value: Any = float(text[i:j])
            else:
                if j - i > 15:
                    raise ExprError(f"number {text[i:i + 16]}… is too long", column=col, expected="at most 15 digits")
                value = int(text[i:j])
            out.append(("num", value, col))
            i = j
            continue
        if c.isalpha() or c == "_":
            j = i + 1
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            out.append(("name", text[i:j], col))
            i = j
            continue
        pair = text[i : i + 2]
        if pair in _OPS2:
            out.append(("op", pair, col))
            i += 2
            continue
        if c in _OPS1:
            out.append(("op", c, col))
            i += 1
            continue
        hint = "'&&'" if c == "&" else "'||'" if c == "|" else "'=='" if c == "=" else None
        raise ExprError(
            f"unexpected character {c!r}",
            column=col,
            expected=hint or "a number, a name, an operator or a parenthesis",
        )
    out.append(("end", None, n + 1))
    return out


# --- specialised closures (a name or a constant operand is read inline) -----------------

def _leaf(fn: Fn) -> tuple[str, Any] | None:
    return getattr(fn, "leaf", None)


def _name_fn(key: str) -> Fn:
    def fn(e: Env) -> Any:
        return e[key]

    fn.leaf = ("name", key)  # type: ignore[attr-defined]  # compiled expressions carry their shape as a function attribute
    return fn


def _const_fn(value: Any) -> Fn:
    def fn(e: Env) -> Any:
        return value

    fn.leaf = ("const", value)  # type: ignore[attr-defined]  # compiled expressions carry their shape as a function attribute
    return fn


# op -> (generic, name∘const, name∘name, any∘const)
_BIN: dict[str, tuple[Callable[..., Fn], ...]] = {
    "==": (lambda a, b: lambda e: a(e) == b(e), lambda k, c: lambda e: e[k] == c,
           lambda k, j: lambda e: e[k] == e[j], lambda a, c: lambda e: a(e) == c),
    "!=": (lambda a, b: lambda e: a(e) != b(e), lambda k, c: lambda e: e[k] != c,
           lambda k, j: lambda e: e[k] != e[j], lambda a, c: lambda e: a(e) != c),
    "<": (lambda a, b: lambda e: a(e) < b(e), lambda k, c: lambda e: e[k] < c,
          lambda k, j: lambda e: e[k] < e[j], lambda a, c: lambda e: a(e) < c),
    "<=": (lambda a, b: lambda e: a(e) <= b(e), lambda k, c: lambda e: e[k] <= c,
           lambda k, j: lambda e: e[k] <= e[j], lambda a, c: lambda e: a(e) <= c),
    ">": (lambda a, b: lambda e: a(e) > b(e), lambda k, c: lambda e: e[k] > c,
          lambda k, j: lambda e: e[k] > e[j], lambda a, c: lambda e: a(e) > c),
    ">=": (lambda a, b: lambda e: a(e) >= b(e), lambda k, c: lambda e: e[k] >= c,
           lambda k, j: lambda e: e[k] >= e[j], lambda a, c: lambda e: a(e) >= c),
    "+": (lambda a, b: lambda e: a(e) + b(e), lambda k, c: lambda e: e[k] + c,
          lambda k, j: lambda e: e[k] + e[j], lambda a, c: lambda e: a(e) + c),
    "-": (lambda a, b: lambda e: a(e) - b(e), lambda k, c: lambda e: e[k] - c,
          lambda k, j: lambda e: e[k] - e[j], lambda a, c: lambda e: a(e) - c),
    "*": (lambda a, b: lambda e: a(e) * b(e), lambda k, c: lambda e: e[k] * c,
          lambda k, j: lambda e: e[k] * e[j], lambda a, c: lambda e: a(e) * c),
}


def _binary(op: str, a: Fn, b: Fn) -> Fn:
    generic, name_const, name_name, any_const = _BIN[op]
    la, lb = _leaf(a), _leaf(b)
    if lb is not None and lb[0] == "const":
        if la is not None and la[0] == "const" and op in ("+", "-", "*"):
            return _const_fn(generic(a, b)({}))
        if la is not None and la[0] == "name":
            return name_const(la[1], lb[1])
        return any_const(a, lb[1])
    if la is not None and lb is not None and la[0] == lb[0] == "name":
        return name_name(la[1], lb[1])
    return generic(a, b)


def _floor_div_const(a: Fn, c: Any) -> Fn:
    """floor(a / c) for a non-zero integer constant c: exact integer division for ints."""
    la = _leaf(a)
    if la is not None and la[0] == "name":
        k = la[1]

        def fn(e: Env) -> Any:
            v = e[k]
            return v // c if type(v) is int else math.floor(v / c)

        return fn

    def gn(e: Env) -> Any:
        v = a(e)
        return v // c if type(v) is int else math.floor(v / c)

    return gn


# --- parser + type checker + compiler in one pass -----------------------------------------


class _Parser:
    def __init__(self, text: str, scope: ExprScope) -> None:
        self.text = text
        self.scope = scope
        self.toks = _tokens(text)
        self.i = 0
        self.depth = 0
        self.names_used: set[str] = set()

    def peek(self) -> tuple[str, Any, int]:
        return self.toks[self.i]

    def take(self) -> tuple[str, Any, int]:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def is_op(self, *ops: str) -> bool:
        tok = self.toks[self.i]
        return tok[0] == "op" and tok[1] in ops

    @staticmethod
    def show(tok: tuple[str, Any, int]) -> str:
        return "the end of the expression" if tok[0] == "end" else repr(str(tok[1]))

    def fail(self, message: str, col: int, expected: str | None = None) -> ExprError:
        return ExprError(message, column=col, expected=expected)

    def expect_type(self, got: str, want: str, col: int, what: str) -> None:
        if got != want:
            raise self.fail(f"{what} needs a {want}, got a {got}", col, expected=f"a {want}")

    def enter(self, col: int) -> None:
        self.depth += 1
        if self.depth > MAX_EXPR_DEPTH:
            raise self.fail("expression nested too deeply", col, expected=f"at most {MAX_EXPR_DEPTH} levels")

    # each rule returns (fn, type, column of its start)

    def parse(self) -> tuple[Fn, str]:
        if self.peek()[0] == "end":
            raise self.fail("empty expression", 1, expected="an expression")
        fn, typ, _ = self.or_()
        tok = self.peek()
        if tok[0] != "end":
            expected = "'&&', '||', a comparison, an operator or the end"
            if tok[0] == "op" and tok[1] == "=":
                expected = "'==' (one '=' is not an operator)"
            raise self.fail(f"unexpected {self.show(tok)}", tok[2], expected=expected)
        return fn, typ

    def or_(self) -> tuple[Fn, str, int]:
        f, t, col = self.and_()
        while self.is_op("||"):
            self.take()
            self.expect_type(t, BOOL, col, "'||'")
            g, u, gcol = self.and_()
            self.expect_type(u, BOOL, gcol, "'||'")
            f = (lambda a, b: lambda e: a(e) or b(e))(f, g)
        return f, t, col

    def and_(self) -> tuple[Fn, str, int]:
        f, t, col = self.not_()
        while self.is_op("&&"):
            self.take()
            self.expect_type(t, BOOL, col, "'&&'")
            g, u, gcol = self.not_()
            self.expect_type(u, BOOL, gcol, "'&&'")
            f = (lambda a, b: lambda e: a(e) and b(e))(f, g)
        return f, t, col

    def not_(self) -> tuple[Fn, str, int]:
        if self.is_op("!"):
            col = self.take()[2]
            self.enter(col)
            f, t, inner = self.not_()
            self.depth -= 1
            self.expect_type(t, BOOL, inner, "'!'")
            return (lambda a: lambda e: not a(e))(f), BOOL, col
        return self.compare()

    def compare(self) -> tuple[Fn, str, int]:
        f, t, col = self.sum_()
        if self.is_op("==", "!=", "<", "<=", ">", ">="):
            op = self.take()[1]
            g, u, gcol = self.sum_()
            if op in ("==", "!=") and t == u == BOOL:
                return _binary(op, f, g), BOOL, col
            self.expect_type(t, NUM, col, f"'{op}'")
            self.expect_type(u, NUM, gcol, f"'{op}'")
            if self.is_op("==", "!=", "<", "<=", ">", ">="):
                tok = self.peek()
                raise self.fail("comparisons do not chain", tok[2], expected="'&&' between two comparisons")
            return _binary(op, f, g), BOOL, col
        return f, t, col

    def sum_(self) -> tuple[Fn, str, int]:
        f, t, col = self.product()
        while self.is_op("+", "-"):
            op = self.take()[1]
            self.expect_type(t, NUM, col, f"'{op}'")
            g, u, gcol = self.product()
            self.expect_type(u, NUM, gcol, f"'{op}'")
            f = _binary(op, f, g)
        return f, t, col

    def product(self) -> tuple[Fn, str, int]:
        f, t, col = self.unary()
        while self.is_op("*", "/", "%"):
            tok = self.take()
            op = tok[1]
            self.expect_type(t, NUM, col, f"'{op}'")
            nxt = self.peek()
            g, u, gcol = self.unary()
            self.expect_type(u, NUM, gcol, f"'{op}'")
            if op in "/%" and nxt[0] == "num" and nxt[1] == 0 and self.toks[self.i - 1] is nxt:
                raise self.fail("division by zero", nxt[2], expected="a divisor other than 0")
            if op == "*":
                f = _binary(op, f, g)
            elif op == "/":
                lg = _leaf(g)
                divisor = lg[1] if lg is not None and lg[0] == "const" and isinstance(lg[1], int) and lg[1] else None
                num = f
                f = (lambda a, b, c: lambda e: _div(a(e), b(e), c))(f, g, tok[2])
                if divisor is not None:
                    f.div = (num, divisor)  # type: ignore[attr-defined]  # compiled expressions carry their shape as a function attribute
            else:
                f = (lambda a, b, c: lambda e: _mod(a(e), b(e), c))(f, g, tok[2])
        return f, t, col

    def unary(self) -> tuple[Fn, str, int]:
        if self.is_op("-"):
            col = self.take()[2]
            self.enter(col)
            f, t, inner = self.unary()
            self.depth -= 1
            self.expect_type(t, NUM, inner, "'-'")
            return (lambda a: lambda e: -a(e))(f), NUM, col
        return self.postfix()

    def postfix(self) -> tuple[Fn, str, int]:
        f, t, col = self.primary()
        if self.is_op("["):
            tok = self.take()
            if t != LIST:
                raise self.fail(f"only dice can be indexed, not a {t}", tok[2], expected="dice[0], dice[1] …")
            idx_tok = self.peek()
            self.enter(tok[2])
            g, u, gcol = self.sum_()
            self.depth -= 1
            self.expect_type(u, NUM, gcol, "an index")
            if not self.is_op("]"):
                tok2 = self.peek()
                raise self.fail(f"unexpected {self.show(tok2)}", tok2[2], expected="']'")
            self.take()
            if idx_tok[0] == "num" and self.toks[self.i - 2] is idx_tok:
                index = idx_tok[1]
                if not isinstance(index, int):
                    raise self.fail(f"dice index {index} is not a die number", idx_tok[2],
                                    expected="0, 1, 2 … (dice[0] is the first die)")
                self._check_die(index + 1, idx_tok[2], f"dice[{index}]", lambda n: f"dice[0] to dice[{n - 1}]")
            return (lambda a, b, c: lambda e: _index(a(e), b(e), c))(f, g, col), NUM, col
        if t == LIST:
            raise self.fail("dice is a list; pick one die", col, expected="dice[0] or dice1")
        return f, t, col

    def _check_die(self, position: int, col: int, shown: str, allowed: Callable[[int], str]) -> None:
        """Refuse a fixed die reference beyond the dice the roll keeps (``position`` counts
        from 1; ``allowed(count)`` says what may be written instead)."""
        count = self.scope.dice_count
        if count is not None and position > count:
            raise self.fail(f"{shown}, but the roll keeps {count} dice", col,
                            expected=allowed(count) if count else "no dice reference (the roll keeps none)")

    def primary(self) -> tuple[Fn, str, int]:
        tok = self.take()
        kind, value, col = tok
        if kind == "num":
            return _const_fn(value), NUM, col
        if kind == "op" and value == "(":
            self.enter(col)
            f, t, _ = self.or_()
            self.depth -= 1
            if not self.is_op(")"):
                nxt = self.peek()
                raise self.fail(f"unexpected {self.show(nxt)}", nxt[2], expected="')'")
            self.take()
            return f, t, col
        if kind == "name":
            if value in KEYWORDS:
                v = value == "true"
                return (lambda e: v), BOOL, col
            if value in FUNCTIONS:
                return self.call(value, col)
            return self.name(value, col)
        raise self.fail(f"unexpected {self.show(tok)}", col, expected="a number, a name, a function or '('")

    def name(self, name: str, col: int) -> tuple[Fn, str, int]:
        scope = self.scope
        if self.is_op("("):
            raise self.fail(f"unknown function {name!r}", col, expected="one of: " + ", ".join(FUNCTIONS))
        n = _dice_n(name)
        if n is not None and "dice" in scope.names:
            self._check_die(n, col, name, lambda count: f"dice1 to dice{count}")
            self.names_used.add("dice")
            return (lambda i, c: lambda e: _index(e["dice"], i, c))(n - 1, col), NUM, col
        typ = scope.names.get(name)
        if typ is None:
            base = "dice" if n is not None else name
            if base in scope.unavailable:
                raise self.fail(f"{base!r} is not available here: {scope.unavailable[base]}", col,
                                expected=scope.describe())
            close = difflib.get_close_matches(name, [*scope.names, *FUNCTIONS], n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise self.fail(f"unknown name {name!r}{hint}", col, expected="one of: " + scope.describe())
        self.names_used.add(name)
        return _name_fn(name), typ, col

    def choice(self, col: int) -> tuple[Fn, str, int]:
        """``if(condition, then, else)`` after its ``(``: a true/false condition, then two
        branches of one type."""
        parts: list[tuple[Fn, str, int]] = []
        for closer in (",", ",", ")"):
            part = self.or_()
            parts.append(part)
            if not self.is_op(closer):
                nxt = self.peek()
                raise self.fail(f"unexpected {self.show(nxt)}", nxt[2],
                                expected="if(condition, then, else): three arguments")
            self.take()
        self.depth -= 1
        (cond, ctype, ccol), (then, ttype, _), (other, otype, ocol) = parts
        self.expect_type(ctype, BOOL, ccol, "if()'s condition")
        if ttype == LIST or otype == LIST:
            raise self.fail("dice is a list; pick one die", ocol, expected="dice[0] or dice1")
        self.expect_type(otype, ttype, ocol, "if()'s else branch")
        return _choice(cond, then, other), ttype, col

    def call(self, fname: str, col: int) -> tuple[Fn, str, int]:
        if not self.is_op("("):
            nxt = self.peek()
            raise self.fail(f"{fname} is a function", nxt[2], expected=f"'(' after {fname}")
        self.take()
        self.enter(col)
        if fname == "if":
            return self.choice(col)
        args: list[Fn] = []
        while True:
            g, u, gcol = self.sum_()
            self.expect_type(u, NUM, gcol, f"{fname}()")
            args.append(g)
            if self.is_op(","):
                self.take()
                continue
            if self.is_op(")"):
                self.take()
                break
            nxt = self.peek()
            raise self.fail(f"unexpected {self.show(nxt)}", nxt[2], expected="',' or ')'")
        self.depth -= 1
        lo, hi = FUNCTIONS[fname]
        if len(args) < lo or (hi is not None and len(args) > hi):
            want = str(lo) if hi == lo else f"at least {lo}"
            raise self.fail(f"{fname}() takes {want} argument(s), got {len(args)}", col, expected=f"{want} argument(s)")
        if fname == "floor":
            a = args[0]
            div = getattr(a, "div", None)
            if div is not None:
                return _floor_div_const(*div), NUM, col
            return (lambda e: math.floor(a(e))), NUM, col
        if fname == "ceil":
            a = args[0]
            return (lambda e: math.ceil(a(e))), NUM, col
        if fname == "abs":
            a = args[0]
            return (lambda e: abs(a(e))), NUM, col
        pick = min if fname == "min" else max
        if len(args) == 2:
            a, b = args
            return (lambda e: pick(a(e), b(e))), NUM, col
        return (lambda e: pick(x(e) for x in args)), NUM, col


def _choice(cond: Fn, then: Fn, other: Fn) -> Fn:
    return lambda e: then(e) if cond(e) else other(e)


def _div(a: Any, b: Any, col: int) -> Any:
    if b == 0:
        raise ExprError("division by zero", column=col)
    q = a / b
    return int(q) if isinstance(q, float) and q.is_integer() and abs(q) < 2**53 else q


def _mod(a: Any, b: Any, col: int) -> Any:
    if b == 0:
        raise ExprError("modulo by zero", column=col)
    return a % b


def _index(seq: Any, i: Any, col: int) -> Any:
    """``seq[i]`` for a die index counted from 0; an :class:`ExprError` outside the kept dice."""
    if not isinstance(i, int) and not (isinstance(i, float) and i.is_integer()):
        raise ExprError(f"dice index {i} is not a whole number", column=col)
    i = int(i)
    if i < 0 or i >= len(seq):
        raise ExprError(f"dice index {i} out of range (the roll kept {len(seq)} dice)", column=col)
    return seq[i]


@dataclass(frozen=True)
class Expr:
    """A compiled expression: call it with an environment mapping (name -> value)."""

    text: str
    type: str
    fn: Fn
    names: frozenset[str]

    def __call__(self, env: Env) -> Any:
        return self.fn(env)


def compile_expr(text: Any, scope: ExprScope, want: str | None = None) -> Expr:
    """Parse, type-check and compile ``text`` for ``scope``; ``want`` is the required result type.

    An integer literal given directly (YAML ``target: 1``) is accepted as a number expression.
    """
    if isinstance(text, bool):
        text = "true" if text else "false"
    elif isinstance(text, (int, float)):
        text = str(text)
    if not isinstance(text, str):
        raise ExprError(f"an expression must be text, not {type(text).__name__}", expected="a string")
    if len(text) > MAX_EXPR_LENGTH:
        raise ExprError(f"expression is {len(text)} characters long", expected=f"at most {MAX_EXPR_LENGTH}")
    parser = _Parser(text, scope)
    fn, typ = parser.parse()
    if want is not None and typ != want:
        raise ExprError(f"{scope.what} must be a {want}, but this is a {typ}", column=1, expected=f"a {want}")
    return Expr(text, typ, fn, frozenset(parser.names_used))
