"""Dice expressions: parsed once, compiled to closures (never ``eval``), rolled many times.

Grammar (whitespace is ignored; case-insensitive letters)::

    expr    := term (('+' | '-') term)*
    term    := unary (('*' | 'x' | '×' | '/') unary)*
    unary   := ('-' | '+') unary | atom
    atom    := INT | '{' NAME '}' | dice | '(' expr ')'
    dice    := [INT | '{' NAME '}'] 'd' (INT | '{' NAME '}' | '%' | 'F') modifier*
    modifier:= ('kh' | 'kl' | 'dh' | 'dl' | 'k') INT     keep/drop (bare k = kh)
             | '!'                                       explode on the highest face
             | ('>=' | '>' | '<=' | '<') (INT | '{' NAME '}')   success pool

Semantics:

- Every value is an integer. ``/`` is *floor* division (rounds toward minus infinity, like
  Python's ``//``: ``7/2 = 3``, ``-7/2 = -4``); dividing by zero is a :class:`DiceError`.
  ``x`` and ``×`` mean ``*``.
- ``d%`` is ``d100``; ``dF`` is a Fudge die with faces -1, 0, +1.
- ``!`` rerolls and adds every die showing its highest face, up to :data:`MAX_EXPLOSIONS` extra
  dice per term (the roll then reports ``capped``); ``!`` on a one-sided die or ``dF`` is refused.
- Keep/drop applies after explosions; among equal faces the earlier rolled is kept (``kh``,
  ``kl``) or dropped (``dh``, ``dl``) first. :attr:`DiceRoll.faces` is every face rolled (what
  replays the roll), :attr:`DiceRoll.kept` the faces kept (the dropped ones left out).
- A pool ``NdS>=T`` is worth the number of kept dice meeting the comparison; the roll reports
  ``successes`` (summed over pool terms) and ``ones`` (kept dice showing 1, over every term).
- ``{name}`` is a parameter slot; its value comes from the declarations given to
  :func:`compile_dice` (clamped to ``min``/``max``, ``default`` when absent).

Limits (refused with a :class:`DiceError` at compile time, never a hang):
:data:`MAX_DICE_PER_TERM`, :data:`MAX_SIDES`, :data:`MAX_TOTAL_DICE` (parameters counted at
their maximum), :data:`MAX_LENGTH`, :data:`MAX_DEPTH`.

Randomness comes from a *drawer* ``draw(sides) -> face``: :func:`rng_drawer` wraps a
``random.Random``; :class:`FaceReplay` replays given faces (and checks them), so any roll can
be reproduced from its reported faces.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lwcore.rules.errors import DiceError

MAX_DICE_PER_TERM = 1000
MAX_SIDES = 10000
MAX_TOTAL_DICE = 5000
MAX_EXPLOSIONS = 100
MAX_LENGTH = 1000
MAX_DEPTH = 40
MAX_LITERAL = 10**9

FUDGE = -3
"""``draw(FUDGE)`` returns -1, 0 or +1."""
DIGIT = -10
"""``draw(DIGIT)`` returns a ten-sided die read as a digit, 0..9 (a percentile tens/units die)."""

Drawer = Callable[[int], int]


# --- drawers ------------------------------------------------------------------------------


_SHARED_RNG = random.Random()


def rng_drawer(rng: random.Random | None = None) -> Drawer:
    """A drawer using ``rng.random()`` (a process-wide unseeded ``Random`` when ``rng`` is None)."""
    rnd = (rng if rng is not None else _SHARED_RNG).random

    def draw(sides: int) -> int:
        if sides > 0:
            return int(rnd() * sides) + 1
        if sides == FUDGE:
            return int(rnd() * 3) - 1
        return int(rnd() * 10)

    return draw


def face_range(sides: int) -> tuple[int, int]:
    """The inclusive range of faces ``draw(sides)`` may return."""
    if sides > 0:
        return 1, sides
    if sides == FUDGE:
        return -1, 1
    return 0, 9


def die_name(sides: int) -> str:
    if sides > 0:
        return f"d{sides}"
    return "dF" if sides == FUDGE else "d10 digit"


class FaceReplay:
    """A drawer that hands out ``faces`` in order, checking each against the die it is for.

    When the faces run out it asks ``fallback`` (a drawer) or raises :class:`DiceError`.
    :meth:`finish` raises when faces were left over.
    """

    __slots__ = ("faces", "used", "fallback")

    def __init__(self, faces: Iterable[int], fallback: Drawer | None = None) -> None:
        self.faces = [int(f) for f in faces]
        self.used = 0
        self.fallback = fallback

    def __call__(self, sides: int) -> int:
        if self.used >= len(self.faces):
            if self.fallback is not None:
                return self.fallback(sides)
            raise DiceError(
                f"not enough dice faces: die #{self.used + 1} ({die_name(sides)}) has no face given",
                expected=f"{self.used + 1} or more faces",
            )
        face = self.faces[self.used]
        lo, hi = face_range(sides)
        if not lo <= face <= hi:
            raise DiceError(
                f"face {face} (die #{self.used + 1}) is impossible on a {die_name(sides)}",
                expected=f"a face from {lo} to {hi}",
            )
        self.used += 1
        return face

    def finish(self) -> None:
        if self.used < len(self.faces):
            raise DiceError(
                f"{len(self.faces)} faces given but the roll used {self.used}",
                expected=f"exactly {self.used} faces",
            )


# --- results ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TermRoll:
    """One dice term of a roll: its label, every face in roll order, and which were kept."""

    label: str
    faces: tuple[int, ...]
    kept: tuple[bool, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"term": self.label, "faces": list(self.faces)}
        if self.kept is not None:
            out["kept"] = list(self.kept)
        return out

    def __str__(self) -> str:
        if self.kept is None:
            return f"{self.label} [{', '.join(map(str, self.faces))}]"
        shown = [str(f) if k else f"({f})" for f, k in zip(self.faces, self.kept, strict=True)]
        return f"{self.label} [{', '.join(shown)}]"


class DiceRoll:
    """The outcome of rolling a compiled expression once."""

    __slots__ = ("expr", "total", "_terms", "successes", "ones", "capped")

    def __init__(self, expr: str, total: int, terms: list[Any], acc: list[int]) -> None:
        self.expr = expr
        self.total = total
        self._terms = terms
        self.successes = acc[0]
        self.ones = acc[1]
        self.capped = bool(acc[2])

    @property
    def terms(self) -> tuple[TermRoll, ...]:
        return tuple(TermRoll(label, tuple(faces), None if kept is None else tuple(kept)) for label, faces, kept in self._terms)

    @property
    def faces(self) -> list[int]:
        """Every face rolled, in roll order (what :class:`FaceReplay` needs to replay it)."""
        out: list[int] = []
        for _label, faces, _kept in self._terms:
            out.extend(faces)
        return out

    @property
    def kept(self) -> list[int]:
        """The natural faces the roll kept, in roll order over every term: a dice term without
        keep/drop keeps all its faces (explosions included); ``khN``/``klN``/``dhN``/``dlN``
        leave out the dropped ones. What a rank's ``dice[i]`` reads."""
        out: list[int] = []
        for _label, faces, kept in self._terms:
            out.extend(faces if kept is None else (f for f, k in zip(faces, kept, strict=True) if k))
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "expr": self.expr,
            "total": self.total,
            "faces": self.faces,
            "terms": [t.to_json() for t in self.terms],
            "successes": self.successes,
            "ones": self.ones,
            "capped": self.capped,
        }

    def __str__(self) -> str:
        detail = " ".join(str(t) for t in self.terms)
        return f"{self.expr} = {self.total}" + (f"  {detail}" if detail else "")

    def __repr__(self) -> str:
        return f"DiceRoll({self.expr!r}, total={self.total}, faces={self.faces})"


# --- parameters ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ParamSpec:
    """A declared parameter: integer bounds and a default."""

    min: int
    max: int
    default: int

    def clamp(self, value: int) -> int:
        return self.min if value < self.min else self.max if value > self.max else value


def param_specs(declared: Mapping[str, Any] | None) -> dict[str, ParamSpec]:
    """Normalise ``{name: {min, max, default}}`` (mappings or :class:`ParamSpec`)."""
    out: dict[str, ParamSpec] = {}
    for name, spec in (declared or {}).items():
        if isinstance(spec, ParamSpec):
            out[name] = spec
            continue
        get = spec.get if isinstance(spec, Mapping) else (lambda k, d=None, s=spec: getattr(s, k, d))
        lo, hi = get("min", 0), get("max", MAX_DICE_PER_TERM)
        default = get("default", None)
        lo = 0 if lo is None else int(lo)
        hi = MAX_DICE_PER_TERM if hi is None else int(hi)
        default = lo if default is None else int(default)
        out[name] = ParamSpec(lo, hi, min(max(default, lo), hi))
    return out


# --- tokenizer ----------------------------------------------------------------------------

_TWO = (">=", "<=", "kh", "kl", "dh", "dl")


def _tokens(text: str) -> list[tuple[str, Any, int]]:
    """``(kind, value, column)`` tokens; kinds: int, name (a {param}), op, end."""
    out: list[tuple[str, Any, int]] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
            continue
        col = i + 1
        if "0" <= c <= "9":
            j = i
            while j < n and "0" <= text[j] <= "9":
                j += 1
            digits = text[i:j]
            if len(digits) > 10 or int(digits) > MAX_LITERAL:
                raise DiceError(f"number {digits[:12]} is too large", column=col, expected=f"at most {MAX_LITERAL}")
            out.append(("int", int(digits), col))
            i = j
            continue
        if c == "{":
            j = text.find("}", i)
            name = text[i + 1 : j].strip() if j > 0 else ""
            if j < 0 or not name.isidentifier() or not name.isascii():
                raise DiceError("bad parameter slot", column=col, expected="{name} with letters, digits or _")
            out.append(("name", name, col))
            i = j + 1
            continue
        pair = text[i : i + 2].lower()
        if pair in _TWO:
            out.append(("op", pair, col))
            i += 2
            continue
        low = c.lower()
        if low in "+-*/()!<>%dfkx" or c == "×":
            out.append(("op", "*" if c == "×" else low, col))
            i += 1
            continue
        raise DiceError(f"unexpected character {c!r}", column=col, expected="a number, d, +, -, *, /, ( or )")
    out.append(("end", None, n + 1))
    return out


# --- parser -> AST ------------------------------------------------------------------------
# Nodes: ("int", v) ("param", name) ("neg", a) ("bin", op, a, b)
#        ("dice", count, sides, explode, keep, pool, label)  count/sides: ("int", v)|("param", n)
#        keep: None | (mode "kh"/"kl"/"dh"/"dl", n);  pool: None | (op, ("int", v)|("param", n))


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _tokens(text)
        self.i = 0
        self.depth = 0

    def peek(self) -> tuple[str, Any, int]:
        return self.toks[self.i]

    def take(self) -> tuple[str, Any, int]:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def fail(self, message: str, tok: tuple[str, Any, int] | None = None, expected: str | None = None) -> DiceError:
        tok = tok or self.peek()
        return DiceError(message, column=tok[2], expected=expected)

    def parse(self) -> tuple[Any, ...]:
        if self.peek()[0] == "end":
            raise self.fail("empty dice expression", expected="something like 1d20+3")
        node = self.expr()
        tok = self.peek()
        if tok[0] != "end":
            raise self.fail(f"unexpected {self.show(tok)}", expected="+, -, *, / or the end")
        return node

    @staticmethod
    def show(tok: tuple[str, Any, int]) -> str:
        if tok[0] == "end":
            return "end of expression"
        if tok[0] == "name":
            return "{" + tok[1] + "}"
        return repr(str(tok[1]))

    def expr(self) -> tuple[Any, ...]:
        node = self.term()
        while self.peek()[0] == "op" and self.peek()[1] in "+-":
            op = self.take()[1]
            node = ("bin", op, node, self.term())
        return node

    def term(self) -> tuple[Any, ...]:
        node = self.unary()
        while self.peek()[0] == "op" and self.peek()[1] in ("*", "/", "x"):
            op = self.take()[1]
            node = ("bin", "/" if op == "/" else "*", node, self.unary())
        return node

    def unary(self) -> tuple[Any, ...]:
        tok = self.peek()
        if tok[0] == "op" and tok[1] in "+-":
            self.take()
            self.enter(tok)
            inner = self.unary()
            self.depth -= 1
            return ("neg", inner) if tok[1] == "-" else inner
        return self.atom()

    def enter(self, tok: tuple[str, Any, int]) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.fail("expression nested too deeply", tok, expected=f"at most {MAX_DEPTH} levels")

    def atom(self) -> tuple[Any, ...]:
        tok = self.peek()
        kind, value, _col = tok
        if kind == "op" and value == "(":
            self.take()
            self.enter(tok)
            node = self.expr()
            self.depth -= 1
            close = self.peek()
            if close[0] != "op" or close[1] != ")":
                raise self.fail(f"unexpected {self.show(close)}", close, expected="')'")
            self.take()
            return node
        if kind in ("int", "name"):
            self.take()
            count = ("int", value) if kind == "int" else ("param", value)
            nxt = self.peek()
            if nxt[0] == "op" and nxt[1] == "d":
                return self.dice(count, tok)
            return count
        if kind == "op" and value == "d":
            return self.dice(("int", 1), tok)
        raise self.fail(f"unexpected {self.show(tok)}", tok, expected="a number, a die like d20, {param} or '('")

    def dice(self, count: tuple[str, Any], start: tuple[str, Any, int]) -> tuple[Any, ...]:
        self.take()  # the 'd'
        tok = self.take()
        if tok[0] == "int":
            sides: tuple[str, Any] = ("int", tok[1])
            if tok[1] < 1:
                raise self.fail("a die needs at least one side", tok, expected="d1 or more")
        elif tok[0] == "name":
            sides = ("param", tok[1])
        elif tok[0] == "op" and tok[1] == "%":
            sides = ("int", 100)
        elif tok[0] == "op" and tok[1] == "f":
            sides = ("int", FUDGE)
        else:
            raise self.fail(f"unexpected {self.show(tok)} after 'd'", tok, expected="a number of sides, % or F")
        explode = False
        keep = None
        pool = None
        while True:
            mod = self.peek()
            if mod[0] != "op":
                break
            op = mod[1]
            if op == "!":
                if explode:
                    raise self.fail("'!' given twice", mod)
                self.take()
                explode = True
            elif op in ("kh", "kl", "dh", "dl", "k"):
                if keep is not None:
                    raise self.fail("only one keep/drop per dice term", mod)
                self.take()
                num = self.take()
                if num[0] != "int":
                    raise self.fail(f"unexpected {self.show(num)} after {op!r}", num, expected="a number of dice")
                keep = ("kh" if op == "k" else op, num[1])
            elif op in (">=", "<=", ">", "<"):
                if pool is not None:
                    raise self.fail("only one success comparison per dice term", mod)
                self.take()
                num = self.take()
                if num[0] == "int":
                    pool = (op, ("int", num[1]))
                elif num[0] == "name":
                    pool = (op, ("param", num[1]))
                else:
                    raise self.fail(f"unexpected {self.show(num)} after {op!r}", num, expected="a target number")
            else:
                break
        end = self.peek()[2] - 1 if self.peek()[0] != "end" else len(self.text)
        label = self.text[start[2] - 1 : end].strip().replace(" ", "")
        return ("dice", count, sides, explode, keep, pool, label)


# --- compiler -----------------------------------------------------------------------------

Eval = Callable[[Drawer, list, list, Mapping[str, int]], int]


def _floordiv(a: int, b: int) -> int:
    if b == 0:
        raise DiceError("division by zero in dice expression")
    return a // b


class _Compiler:
    def __init__(self, text: str, params: Mapping[str, ParamSpec]) -> None:
        self.text = text
        self.params = params
        self.total_dice = 0
        self.kept_dice: int | None = 0
        self.has_dice = False
        self.has_pool = False

    def need_param(self, name: str) -> ParamSpec:
        spec = self.params.get(name)
        if spec is None:
            col = self.text.find("{" + name) + 1 or None
            known = ", ".join(sorted(self.params)) or "none are declared"
            raise DiceError(f"unknown parameter {{{name}}}", column=col, expected=f"a declared parameter ({known})")
        return spec

    def compile(self, node: tuple[Any, ...]) -> tuple[Eval, int | None]:
        """Return ``(evaluator, constant value or None)``."""
        kind = node[0]
        if kind == "int":
            v = node[1]
            return (lambda d, t, a, p: v), v
        if kind == "param":
            name = node[1]
            self.need_param(name)
            return (lambda d, t, a, p: p[name]), None
        if kind == "neg":
            f, c = self.compile(node[1])
            if c is not None:
                return (lambda d, t, a, p: -c), -c
            return (lambda d, t, a, p: -f(d, t, a, p)), None
        if kind == "bin":
            return self.binary(node)
        return self.dice(node), None

    def binary(self, node: tuple[Any, ...]) -> tuple[Eval, int | None]:
        op = node[1]
        f, fc = self.compile(node[2])
        g, gc = self.compile(node[3])
        if fc is not None and gc is not None:
            if op == "/" and gc == 0:
                raise DiceError("division by zero in dice expression")
            v = fc + gc if op == "+" else fc - gc if op == "-" else fc * gc if op == "*" else fc // gc
            return (lambda d, t, a, p: v), v
        if gc is not None:
            if op == "+":
                return (lambda d, t, a, p: f(d, t, a, p) + gc), None
            if op == "-":
                return (lambda d, t, a, p: f(d, t, a, p) - gc), None
            if op == "*":
                return (lambda d, t, a, p: f(d, t, a, p) * gc), None
            if gc == 0:
                raise DiceError("division by zero in dice expression")
            return (lambda d, t, a, p: f(d, t, a, p) // gc), None
        if op == "+":
            return (lambda d, t, a, p: f(d, t, a, p) + g(d, t, a, p)), None
        if op == "-":
            return (lambda d, t, a, p: f(d, t, a, p) - g(d, t, a, p)), None
        if op == "*":
            return (lambda d, t, a, p: f(d, t, a, p) * g(d, t, a, p)), None
        return (lambda d, t, a, p: _floordiv(f(d, t, a, p), g(d, t, a, p))), None

    def count_kept(self, count: tuple[str, Any], explode: bool, keep: tuple[str, int] | None) -> None:
        """Add one term's kept faces to :attr:`kept_dice` (``None`` once a count varies)."""
        if self.kept_dice is None:
            return
        if count[0] != "int" or explode:
            self.kept_dice = None
            return
        n = count[1]
        if keep is None:
            self.kept_dice += n
        elif keep[0] in ("kh", "kl"):
            self.kept_dice += min(keep[1], n)
        else:
            self.kept_dice += max(n - keep[1], 0)

    def bound(self, spec: tuple[str, Any]) -> tuple[int, int]:
        if spec[0] == "int":
            return spec[1], spec[1]
        p = self.need_param(spec[1])
        return p.min, p.max

    def dice(self, node: tuple[Any, ...]) -> Eval:
        _, count, sides, explode, keep, pool, label = node
        self.has_dice = True
        cmin, cmax = self.bound(count)
        smin, smax = self.bound(sides)
        if cmax > MAX_DICE_PER_TERM:
            raise DiceError(f"{label}: {cmax} dice in one term", expected=f"at most {MAX_DICE_PER_TERM}")
        if cmin < 0:
            raise DiceError(f"{label}: a negative number of dice", expected="0 or more dice")
        if smax > MAX_SIDES:
            raise DiceError(f"{label}: a die with {smax} sides", expected=f"at most {MAX_SIDES} sides")
        if sides[0] == "param" and smin < 1:
            raise DiceError(f"{label}: parameter {{{sides[1]}}} may give a die fewer than 1 side", expected="min: 1 or more")
        self.total_dice += cmax
        if self.total_dice > MAX_TOTAL_DICE:
            raise DiceError(f"too many dice in one expression ({self.total_dice})", expected=f"at most {MAX_TOTAL_DICE}")
        fudge = sides == ("int", FUDGE)
        if explode and (fudge or smin < 2):
            raise DiceError(f"{label}: '!' on a die that would explode forever", expected="a die with 2 or more sides")
        if keep is not None and count[0] == "int" and keep[1] > count[1]:
            raise DiceError(f"{label}: keeps or drops {keep[1]} of {count[1]} dice", expected=f"at most {count[1]}")
        self.count_kept(count, explode, keep)
        if count == ("int", 1) and sides[0] == "int" and not explode and keep is None and pool is None:
            s = sides[1]
            if fudge:

                def one_fudge(d: Drawer, t: list, a: list, p: Mapping[str, int]) -> int:
                    v = d(FUDGE)
                    t.append((label, [v], None))
                    return v

                return one_fudge

            def one_die(d: Drawer, t: list, a: list, p: Mapping[str, int]) -> int:
                v = d(s)
                if v == 1:
                    a[1] += 1
                t.append((label, [v], None))
                return v

            return one_die
        cname = None if count[0] == "int" else count[1]
        cconst = count[1] if cname is None else 0
        sname = None if sides[0] == "int" else sides[1]
        sconst = sides[1] if sname is None else 0
        params = self.params
        explode_cap = MAX_EXPLOSIONS
        keep_mode, keep_n = keep if keep is not None else (None, 0)
        by_highest, keeps = ("kh", "dh"), ("kh", "kl")
        pool_op = pool[0] if pool else None
        if pool is not None:
            self.has_pool = True
        pool_name = pool[1][1] if pool and pool[1][0] == "param" else None
        if pool_name is not None:
            self.need_param(pool_name)
        pool_const = pool[1][1] if pool and pool_name is None else 0
        if pool is None and keep is None and not explode and cname is None and sname is None:
            n, s = cconst, sconst

            def plain(d: Drawer, t: list, a: list, p: Mapping[str, int]) -> int:
                faces = [d(s) for _ in range(n)]
                t.append((label, faces, None))
                a[1] += faces.count(1)
                return sum(faces)

            return plain

        def general(d: Drawer, t: list, a: list, p: Mapping[str, int]) -> int:
            n = cconst if cname is None else params[cname].clamp(p[cname])
            s = sconst if sname is None else params[sname].clamp(p[sname])
            faces = [d(s) for _ in range(n)]
            if explode:
                pending = faces.count(s)
                extra = 0
                while pending:
                    if extra >= explode_cap:
                        a[2] = 1
                        break
                    v = d(s)
                    faces.append(v)
                    extra += 1
                    pending -= 1
                    if v == s:
                        pending += 1
            kept_mask = None
            kept = faces
            if keep_mode is not None:
                # the N highest (kh, dh) or lowest (kl, dl) faces, the earlier rolled first among
                # equal ones; kh/kl keep them, dh/dl drop them
                order = sorted(range(len(faces)), key=faces.__getitem__, reverse=keep_mode in by_highest)
                keeping = keep_mode in keeps
                flags = [not keeping] * len(faces)
                for i in order[:keep_n]:
                    flags[i] = keeping
                kept_mask = flags
                kept = [f for f, keep_it in zip(faces, flags, strict=True) if keep_it]
            t.append((label, faces, kept_mask))
            a[1] += kept.count(1)
            if pool_op is None:
                return sum(kept)
            target = pool_const if pool_name is None else p[pool_name]
            if pool_op == ">=":
                hits = sum(1 for f in kept if f >= target)
            elif pool_op == ">":
                hits = sum(1 for f in kept if f > target)
            elif pool_op == "<=":
                hits = sum(1 for f in kept if f <= target)
            else:
                hits = sum(1 for f in kept if f < target)
            a[0] += hits
            return hits

        return general


class DiceExpr:
    """A compiled dice expression. Roll it with :meth:`roll` (thread-safe, reusable)."""

    __slots__ = ("text", "params", "_eval", "_defaults", "constant", "single_die", "max_dice", "kept_dice",
                 "has_pool")

    def __init__(self, text: str, params: Mapping[str, Any] | None = None) -> None:
        if not isinstance(text, str):
            raise DiceError(f"a dice expression must be text, not {type(text).__name__}")
        if len(text) > MAX_LENGTH:
            raise DiceError(f"dice expression is {len(text)} characters long", expected=f"at most {MAX_LENGTH}")
        self.text = text.strip()
        self.params = param_specs(params)
        compiler = _Compiler(self.text, self.params)
        tree = _Parser(self.text).parse()
        evaluator, const = compiler.compile(tree)
        self._eval = evaluator
        self.constant = const if not compiler.has_dice else None
        single = tree[0] == "dice" and tree[1] == ("int", 1) and tree[2][0] == "int" and not any(tree[3:6])
        self.single_die: int | None = tree[2][1] if single and tree[2][1] > 0 else None
        """Sides of the die when the whole expression is one plain die (``1d100``, ``d%``)."""
        self.max_dice = compiler.total_dice
        self.kept_dice: int | None = compiler.kept_dice
        """How many faces :attr:`DiceRoll.kept` holds on every roll (``None`` when a parameter
        or an explosion makes it vary)."""
        self.has_pool = compiler.has_pool
        self._defaults = {name: spec.default for name, spec in self.params.items()}

    def values(self, params: Mapping[str, Any] | None) -> dict[str, int]:
        """The parameter values for one roll: declared defaults, given values clamped."""
        if not params:
            return self._defaults
        out = dict(self._defaults)
        for name, value in params.items():
            spec = self.params.get(name)
            if spec is None:
                raise DiceError(f"unknown parameter {name!r}", expected=", ".join(sorted(self.params)) or "no parameters")
            try:
                out[name] = spec.clamp(int(value))
            except (TypeError, ValueError):
                raise DiceError(f"parameter {name!r} must be an integer, not {value!r}") from None
        return out

    def evaluate(self, draw: Drawer, params: Mapping[str, int] | None = None) -> DiceRoll:
        """Roll with an explicit drawer and already-resolved parameter values."""
        terms: list[Any] = []
        acc = [0, 0, 0]
        total = self._eval(draw, terms, acc, self._defaults if params is None else params)
        return DiceRoll(self.text, total, terms, acc)

    def roll(
        self,
        rng: random.Random | None = None,
        *,
        faces: Sequence[int] | None = None,
        params: Mapping[str, Any] | None = None,
        draw: Drawer | None = None,
    ) -> DiceRoll:
        """Roll once. ``faces`` replays exactly those faces (all must be used);
        ``rng`` (a ``random.Random``) is the source otherwise; ``draw`` overrides both."""
        values = self.values(params)
        if draw is not None:
            return self.evaluate(draw, values)
        if faces is not None:
            replay = FaceReplay(faces)
            result = self.evaluate(replay, values)
            replay.finish()
            return result
        return self.evaluate(rng_drawer(rng), values)

    def __repr__(self) -> str:
        return f"DiceExpr({self.text!r})"


_CACHE: dict[str, DiceExpr] = {}


def compile_dice(text: str, params: Mapping[str, Any] | None = None) -> DiceExpr:
    """Parse and compile ``text`` (cached when it declares no parameters)."""
    if params:
        return DiceExpr(text, params)
    cached = _CACHE.get(text)
    if cached is None:
        cached = DiceExpr(text)
        if len(_CACHE) > 4096:
            _CACHE.clear()
        _CACHE[text] = cached
    return cached


def roll(
    text: str,
    rng: random.Random | None = None,
    *,
    faces: Sequence[int] | None = None,
    params: Mapping[str, Any] | None = None,
) -> DiceRoll:
    """Compile (cached) and roll ``text`` once; see :meth:`DiceExpr.roll`."""
    if not params:
        return compile_dice(text).roll(rng, faces=faces)
    fixed = {name: {"min": int(v), "max": int(v), "default": int(v)} for name, v in params.items()}
    return DiceExpr(text, fixed).roll(rng, faces=faces)
