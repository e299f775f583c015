"""``<UpdateVariable>`` blocks in a model reply: read by code, applied to the tree, cut from narration.

An MVU card teaches the model to end its reply with a block such as::

    <UpdateVariable>
    <Analysis>…the model's reasoning, discarded…</Analysis>
    _.set('角色.好感度', 30, 35);//聊得愉快
    _.add('世界.时间', 3600000);
    _.insert('背包', {"名称": "铜钥匙"});
    <JSONPatch>[{"op": "replace", "path": "/世界/天气", "value": "雨"}]</JSONPatch>
    </UpdateVariable>

:func:`parse_reply` returns the commands in order (``_.set``, ``_.insert``/``_.assign``,
``_.delete``/``_.remove``/``_.unset``, ``_.add``, ``_.move`` and JSON Patch's ``replace``,
``add``, ``remove``, ``move`` and MVU's ``delta``), the narration with every block removed,
and the problems found, each located by line and column in the reply. The commands are the
MVU operations (:class:`lw_tavern.mvu.ops.Op`, with where they were written):
:func:`lw_tavern.mvu.ops.apply_ops` applies them one by one, a command that cannot be applied is
reported and skipped, the others still apply. Nothing here evaluates code: arguments are literals (strings, numbers,
``true``/``false``/``null``, JSON5 arrays and objects) or plain arithmetic on numbers.

Linear in the reply, whatever it holds (a model's reply is untrusted input): tags are found by
searches that never rescan (each close tag is found once and looked up, never searched for
again from every opening), a line number is a lookup, and the commands of a block share a
work allowance (:data:`SCAN_FACTOR` characters a character of the block) that an unclosed
string or bracket repeated many times uses up; past it the rest of the block is one problem.
JSON5 that is not plain JSON (read by the ``json5`` package, some microseconds a character)
is read up to :data:`MAX_REPLY_JSON5` characters a reply; plain JSON is read by the standard
library at C speed. At most :data:`MAX_PROBLEMS` problems are listed.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Any

from lwcore.api import LwError
from lw_tavern.mvu.ops import ALIASES, Op, pointer_path, show_path

from lw_tavern.mvu.json5 import Json5Error, parse_json5

MAX_REPLY = 512 * 1024
MAX_COMMANDS = 500
MAX_PROBLEMS = 50
"""Problems listed for one reply; the rest are counted in one more."""
MAX_REPLY_JSON5 = 16 * 1024
"""Characters of JSON5 that is not plain JSON read from one reply (the ``json5`` package reads
some microseconds a character); plain JSON is not counted."""
SCAN_FACTOR = 8
"""Characters the commands of a block may read, together, per character of the block (plus
:data:`SCAN_FLOOR`): an ordinary block reads each character about once."""
SCAN_FLOOR = 64 * 1024

_OPEN = re.compile(r"<\s*update_?variable\b", re.IGNORECASE)
_CLOSE = re.compile(r"<\s*/\s*update_?variable\s*>", re.IGNORECASE)
_FENCE_HEAD = re.compile(r"[\w-]*\s*<\s*update_?variable\b", re.IGNORECASE)
_FENCE_TAIL = re.compile(r"\s*```")
_ANALYSIS_OPEN = re.compile(r"<\s*analysis\b", re.IGNORECASE)
_ANALYSIS_CLOSE = re.compile(r"<\s*/\s*analysis\s*>", re.IGNORECASE)
_PATCH_OPEN = re.compile(r"<\s*(json_?patch)\s*>", re.IGNORECASE)
_PATCH_CLOSE = re.compile(r"<\s*/\s*(json_?patch)\s*>", re.IGNORECASE)
_ANY_TAG = re.compile(r"<\s*(update_?variable|json_?patch)\b", re.IGNORECASE)
_CALL = re.compile(r"_\s*\.\s*(set|insert|assign|remove|unset|delete|add|move)\s*\(")
_SEMICOLON = re.compile(r"[ \t]*;")
_COMMENT = re.compile(r"[ \t]*//([^\n]*)")
_ARITY = {"set": (2, 3), "insert": (2, 3), "delete": (1, 2), "add": (2, 2), "move": (2, 2)}


@dataclass(frozen=True)
class Command(Op):
    """One update: the kernel's tree operation (the operation, its path, the arguments after
    the path, why: the ``//`` comment) and where it was in the reply (1-based line, column)."""

    line: int = 0
    column: int = 0


@dataclass
class Parsed:
    """The commands of a reply, the reply without its update blocks, and what could not be read."""

    commands: list[Command] = field(default_factory=list)
    narration: str = ""
    problems: list[LwError] = field(default_factory=list)


class _Lines:
    """Line and column of an offset, by a lookup (the line starts are found once)."""

    def __init__(self, text: str) -> None:
        self.starts = [0]
        at = text.find("\n")
        while at >= 0:
            self.starts.append(at + 1)
            at = text.find("\n", at + 1)

    def __call__(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1


class _Allowance:
    """What one reply's parse may still read: block characters, and JSON5 characters."""

    def __init__(self) -> None:
        self.chars = 0
        self.json5 = MAX_REPLY_JSON5


# --- finding tags (each search moves forward; nothing is searched for twice) -----------------


def _spans(text: str, open_re: re.Pattern[str], close_re: re.Pattern[str], start: int = 0,
           end: int | None = None) -> list[tuple[int, int, int, int]]:
    """``(start, inner start, inner end, end)`` of every ``<tag …>…</tag>`` in ``text[start:end]``,
    a tag left open running to ``end``: what ``<\\s*tag\\b[^>]*>(.*?)(?:</tag>|\\Z)`` finds, in
    linear time (an opening with no ``>`` after it means no later opening has one either)."""
    end = len(text) if end is None else end
    out = []
    pos = start
    while True:
        opening = open_re.search(text, pos, end)
        if opening is None:
            break
        gt = text.find(">", opening.end(), end)
        if gt < 0:
            break
        closing = close_re.search(text, gt + 1, end)
        if closing is None:
            out.append((opening.start(), gt + 1, end, end))
            break
        out.append((opening.start(), gt + 1, closing.start(), closing.end()))
        pos = closing.end()
    return out


def _patches(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int, int, int]]:
    """``(start, body start, body end, end)`` of every ``<JSONPatch>…</JSONPatch>`` (the closing
    tag spelled like the opening one, ``json_patch`` or ``jsonpatch``, in any case), as
    ``<\\s*(json_?patch)\\s*>(.*?)<\\s*/\\s*\\1\\s*>`` finds them: the closing tags are
    listed once and each opening looks its one up."""
    end = len(text) if end is None else end
    closes: dict[str, list[tuple[int, int]]] = {}
    for m in _PATCH_CLOSE.finditer(text, start, end):
        closes.setdefault(m.group(1).lower(), []).append((m.start(), m.end()))
    starts = {name: [c[0] for c in found] for name, found in closes.items()}
    out = []
    pos = start
    while True:
        opening = _PATCH_OPEN.search(text, pos, end)
        if opening is None:
            break
        name = opening.group(1).lower()
        k = bisect.bisect_left(starts.get(name, []), opening.end())
        if k == len(starts.get(name, [])):
            pos = opening.start() + 1
            continue
        close_start, close_end = closes[name][k]
        out.append((opening.start(), opening.end(), close_start, close_end))
        pos = close_end
    return out


def _fenced(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every fenced update block: a code fence (any language tag), the
    opening tag, and everything up to the first closing tag that a closing fence follows --
    what ``````[\\w-]*[ \\t]*\\n?(\\s*<update_variable\\b.*?(?:</update_variable>|\\Z))\\s*`````` finds,
    in linear time (every closing tag is looked at once)."""
    good: list[tuple[int, int]] = []  # (closing tag start, end of the fence after it)
    for m in _CLOSE.finditer(text):
        tail = _FENCE_TAIL.match(text, m.end())
        if tail is not None:
            good.append((m.start(), tail.end()))
    if not good:
        return []
    starts = [g[0] for g in good]
    out = []
    pos = 0
    while True:
        at = text.find("```", pos)
        if at < 0:
            break
        head = _FENCE_HEAD.match(text, at + 3)
        if head is None:
            pos = at + 1
            continue
        k = bisect.bisect_left(starts, head.end())
        if k == len(starts):
            pos = at + 1
            continue
        out.append((at, good[k][1]))
        pos = good[k][1]
    return out


def _cut(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` without the (sorted, disjoint) ``spans``."""
    if not spans:
        return text
    parts = []
    pos = 0
    for a, b in spans:
        parts.append(text[pos:a])
        pos = b
    parts.append(text[pos:])
    return "".join(parts)


def strip_blocks(text: str) -> str:
    """The reply without ``<UpdateVariable>`` blocks (fenced or not) and stray ``<JSONPatch>``
    blocks, blank lines they leave collapsed. A reply without blocks comes back unchanged."""
    if not _ANY_TAG.search(text):
        return text
    cleaned = _cut(text, _fenced(text))
    cleaned = _cut(cleaned, [(a, d) for a, _, _, d in _spans(cleaned, _OPEN, _CLOSE)])
    cleaned = _cut(cleaned, [(a, d) for a, _, _, d in _patches(cleaned)])
    lines = cleaned.split("\n")
    cleaned = "\n".join([line.rstrip(" \t") for line in lines[:-1]] + lines[-1:])
    if "\n\n\n" in cleaned:
        cleaned = re.sub(r"\n{3,}", "\n\n", cleaned)
    return cleaned.strip()


def _inside(spans: list[tuple[int, int]], starts: list[int], pos: int) -> bool:
    """Whether ``pos`` falls in one of the sorted, disjoint ``spans`` (``starts``: their starts)."""
    k = bisect.bisect_right(starts, pos) - 1
    return k >= 0 and spans[k][0] <= pos < spans[k][1]


def parse_reply(text: str, *, file: str | None = None) -> Parsed:
    """Every update command of a reply, in order, with the narration left for players.

    Never raises for bad content: an unreadable command becomes a located problem.
    """
    out = Parsed()
    if len(text) > MAX_REPLY:
        out.problems.append(LwError(f"the reply is longer than {MAX_REPLY} characters; updates not read",
                                    file=file, code="limit"))
        out.narration = strip_blocks(text)
        return out
    where = _Lines(text)
    allowance = _Allowance()
    problems: list[LwError | _Issue] = []
    for _, start, stop, _ in _spans(text, _OPEN, _CLOSE):
        inner = text[start:stop]
        allowance.chars = SCAN_FACTOR * len(inner) + SCAN_FLOOR
        analysis = [(a, d) for a, _, _, d in _spans(inner, _ANALYSIS_OPEN, _ANALYSIS_CLOSE)]
        analysis_starts = [a for a, _ in analysis]
        found: list[tuple[int, Command | LwError | _Issue | list[Command | LwError]]] = []
        patches = _patches(inner)
        patch_commands: list[int] = []  # where each command a patch gives is (to keep the cap exact)
        for a, body_start, body_end, _ in patches:
            if not _inside(analysis, analysis_starts, a):
                items = _patch_commands(inner[body_start:body_end], where, start + body_start, file, allowance)
                found.append((a, items))
                patch_commands += [a] * sum(1 for one in items if isinstance(one, Command))
        patch_spans = [(a, d) for a, _, _, d in patches]
        patch_starts = [a for a, _ in patch_spans]
        calls = 0
        for call in _CALL.finditer(inner):
            if _inside(analysis, analysis_starts, call.start()) or _inside(patch_spans, patch_starts, call.start()):
                continue
            if len(out.commands) + calls + bisect.bisect_left(patch_commands, call.start()) >= MAX_COMMANDS:
                break  # this and every later command would be past the cap: not read
            if allowance.chars <= 0:
                found.append((call.start(), _Issue(
                    f"this block's commands from here on were not read: more unreadable text than a reply "
                    f"may hold ({SCAN_FACTOR} characters read a character of the block)", start + call.start(),
                    "limit")))
                break
            item = _call(inner, call, start, where, allowance)
            calls += isinstance(item, Command)
            found.append((call.start(), item))
        for _, item in sorted(found, key=lambda pair: pair[0]):
            for one in item if isinstance(item, list) else [item]:
                if isinstance(one, Command):
                    if len(out.commands) < MAX_COMMANDS:
                        out.commands.append(one)
                elif one is not None:
                    problems.append(one)
    if len(out.commands) >= MAX_COMMANDS:
        problems.append(LwError(f"more than {MAX_COMMANDS} update commands; the rest were ignored",
                                file=file, code="limit"))
    out.problems = [_error(one, where, file) for one in problems[:MAX_PROBLEMS]]
    if len(problems) > MAX_PROBLEMS:
        out.problems.append(LwError(f"and {len(problems) - MAX_PROBLEMS} more problems in the update blocks",
                                    file=file, code="limit"))
    out.narration = strip_blocks(text)
    return out


@dataclass(frozen=True)
class _Issue:
    """A problem found while reading a command: made a located error only if it is listed."""

    message: str
    offset: int
    code: str


def _error(issue: LwError | _Issue, where: _Lines, file: str | None) -> LwError:
    if isinstance(issue, LwError):
        return issue
    line, column = where(issue.offset)
    return LwError(issue.message, file=file, line=line, column=column, code=issue.code)


class _Unreadable(ValueError):
    """An argument list that cannot be read, and how far the reading got (what it cost)."""

    def __init__(self, message: str, pos: int) -> None:
        super().__init__(message)
        self.pos = pos


def _call(inner: str, call: re.Match[str], base: int, where: _Lines, allowance: _Allowance) -> Command | _Issue:
    name = call.group(1).lower()
    op = ALIASES.get(name, name)
    offset = base + call.start()
    try:
        args, end = _arguments(inner, call.end(), allowance)
    except _Unreadable as exc:
        allowance.chars -= exc.pos - call.start()
        return _Issue(f"_.{name}(…): {exc}", offset, "syntax")
    allowance.chars -= end - call.start()
    semicolon = _SEMICOLON.match(inner, end)
    if semicolon is None:
        return _Issue(f"_.{name}(…) is not followed by ';' (MVU ignores it)", offset, "syntax")
    reason = ""
    comment = _COMMENT.match(inner, semicolon.end())
    if comment:
        reason = comment.group(1).strip()
    low, high = _ARITY[op]
    if not low <= len(args) <= high:
        return _Issue(f"_.{name} takes {low} to {high} arguments, got {len(args)}", offset, "arity")
    path = args[0]
    if not isinstance(path, str):
        return _Issue(f"_.{name}: the path is {path!r}, not text", offset, "invalid")
    rest_args: tuple[Any, ...] = tuple(args[1:])
    if op == "set":
        rest_args = (args[-1],)  # _.set(path, old, new): the old value is only a note
    line, column = where(offset)
    return Command(op, path, rest_args, reason, line, column)


def _arguments(text: str, pos: int, allowance: _Allowance) -> tuple[list[Any], int]:
    """Comma-separated literal arguments up to the matching ``)``."""
    args: list[Any] = []
    while True:
        pos = _skip(text, pos)
        if pos >= len(text):
            raise _Unreadable("the argument list is not closed", pos)
        if text[pos] == ")" and not args:
            return args, pos + 1
        value, pos = _value(text, pos, allowance)
        args.append(value)
        pos = _skip(text, pos)
        if pos >= len(text):
            raise _Unreadable("the argument list is not closed", pos)
        if text[pos] == ",":
            pos += 1
            continue
        if text[pos] == ")":
            return args, pos + 1
        raise _Unreadable(f"unexpected {text[pos]!r} in the arguments", pos)


def _skip(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ARITH = re.compile(r"[-+*/%().\d\s eE]+")
_WORDS = {"true": True, "false": False, "null": None, "undefined": None}


def _value(text: str, pos: int, allowance: _Allowance) -> tuple[Any, int]:
    ch = text[pos]
    if ch in "\"'`":
        return _string(text, pos)
    if ch in "[{":
        end = _balanced(text, pos)
        try:
            return parse_json5(text[pos:end], allowance=allowance), end
        except Json5Error as exc:
            raise _Unreadable(f"bad literal {text[pos:end][:40]!r}: {exc.message}", end) from None
    # a bare token: a number, a word, arithmetic, or unquoted text (MVU reads it as a string),
    # up to a ',' or ')' outside parentheses
    end = pos
    depth = 0
    while True:
        m = _BARE.search(text, end)
        if m is None:
            end = len(text)
            break
        j = m.start()
        c = text[j]
        if c == "(":
            depth += 1
        elif depth == 0:
            end = j
            break
        elif c == ")":
            depth -= 1
        end = j + 1
    token = text[pos:end].strip()
    if token in _WORDS:
        return _WORDS[token], end
    if _NUMBER.fullmatch(token):
        return _to_number(token), end
    if token and _ARITH.fullmatch(token):
        try:
            return _arithmetic(token), end
        except ValueError:
            pass
    return token, end


def _to_number(token: str) -> int | float:
    return int(token) if re.fullmatch(r"[-+]?\d+", token) else float(token)


_STOPS = {q: re.compile("[\\\\" + q + "]") for q in "\"'`"}
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
_BRACKETS = re.compile(r"[\"'`\[\]{}]")
_BARE = re.compile(r"[(),]")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def _string(text: str, pos: int) -> tuple[str, int]:
    """The quoted string at ``pos`` (JavaScript's escapes) and the position after it; the
    search jumps from one quote or backslash to the next."""
    quote = text[pos]
    stop = _STOPS[quote]
    out: list[str] = []
    i = pos + 1
    while True:
        m = stop.search(text, i)
        if m is None or (text[m.start()] == "\\" and m.start() + 1 >= len(text)):
            raise _Unreadable("a string is not closed", len(text))
        j = m.start()
        out.append(text[i:j])
        if text[j] == quote:
            return "".join(out), j + 1
        nxt = text[j + 1]
        if nxt == "u" and _HEX4.fullmatch(text, j + 2, j + 6):
            out.append(chr(int(text[j + 2:j + 6], 16)))
            i = j + 6
            continue
        out.append(_ESCAPES.get(nxt, nxt))
        i = j + 2


def _balanced(text: str, pos: int) -> int:
    """The position after the bracket that closes the one at ``pos`` (strings skipped)."""
    depth = 0
    i = pos
    while True:
        m = _BRACKETS.search(text, i)
        if m is None:
            raise _Unreadable("a bracket is not closed", len(text))
        j = m.start()
        ch = text[j]
        if ch in "\"'`":
            _, i = _string(text, j)
            continue
        if ch in "[{":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return j + 1
        i = j + 1


def _arithmetic(expr: str) -> int | float:
    """``+ - * / %`` and parentheses over numbers (what MVU's math evaluation is used for)."""
    tokens = re.findall(r"\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+|[-+*/%()]", expr)
    if "".join(tokens) != re.sub(r"\s+", "", expr):
        raise ValueError(f"cannot read {expr!r}")
    pos = 0

    def peek() -> str | None:
        return tokens[pos] if pos < len(tokens) else None

    def take() -> str:
        nonlocal pos
        pos += 1
        return tokens[pos - 1]

    def atom(depth: int) -> float:
        if depth > 50:
            raise ValueError("too deeply nested")
        tok = peek()
        if tok is None:
            raise ValueError("the expression ends early")
        if tok in "+-":
            take()
            value = atom(depth + 1)
            return -value if tok == "-" else value
        if tok == "(":
            take()
            value = sum_(depth + 1)
            if peek() != ")":
                raise ValueError("')' expected")
            take()
            return value
        if tok in "*/%)":
            raise ValueError(f"unexpected {tok!r}")
        return _to_number(take())

    def product(depth: int) -> float:
        value = atom(depth)
        while peek() in ("*", "/", "%"):
            op = take()
            right = atom(depth)
            if op != "*" and right == 0:
                raise ValueError("division by zero")
            value = value * right if op == "*" else value / right if op == "/" else value % right
        return value

    def sum_(depth: int) -> float:
        value = product(depth)
        while peek() in ("+", "-"):
            op = take()
            right = product(depth)
            value = value + right if op == "+" else value - right
        return value

    result = sum_(0)
    if pos != len(tokens):
        raise ValueError(f"unexpected {tokens[pos]!r}")
    if isinstance(result, float):
        if result != result or result in (float("inf"), float("-inf")):
            raise ValueError("not a finite number")
        result = float(f"{result:.12g}")
        if result.is_integer() and abs(result) < 2**53:
            return int(result)
    return result


def _patch_commands(body: str, where: _Lines, base: int, file: str | None,
                    allowance: _Allowance) -> list[Command | LwError]:
    line, column = where(base)
    try:
        ops = parse_json5(body.strip().strip("`").removeprefix("json").strip(), allowance=allowance)
    except Json5Error as exc:
        return [LwError(f"JSONPatch: {exc.message}", file=file, line=line + (exc.line or 1) - 1,
                        column=exc.column or column, code="syntax")]
    if not isinstance(ops, list):
        return [LwError("JSONPatch is a list of operations", file=file, line=line, column=column, code="invalid")]
    out: list[Command | LwError] = []
    for n, op in enumerate(ops):
        if not isinstance(op, dict) or not isinstance(op.get("op"), str):
            out.append(LwError(f"JSONPatch[{n}] is not an operation", file=file, line=line, column=column,
                               code="invalid"))
            continue
        kind = op["op"]
        path = op.get("path", op.get("to"))
        if not isinstance(path, str):
            out.append(LwError(f"JSONPatch[{n}] has no path", file=file, line=line, column=column, code="invalid"))
            continue
        segments = pointer_path(path)
        dotted = show_path(segments)
        if kind == "replace":
            out.append(Command("set", dotted, (op.get("value"),), "json_patch", line, column))
        elif kind == "delta":
            out.append(Command("add", dotted, (op.get("value"),), "json_patch", line, column))
        elif kind in ("add", "insert"):
            if not segments:
                out.append(LwError(f"JSONPatch[{n}]: cannot add at the root", file=file, line=line, column=column,
                                   code="invalid"))
                continue
            last = segments[-1]
            key: Any = int(last) if isinstance(last, str) and last.isdigit() else last
            out.append(Command("insert", show_path(segments[:-1]), (key, op.get("value")), "json_patch", line, column))
        elif kind == "remove":
            out.append(Command("delete", dotted, (), "json_patch", line, column))
        elif kind == "move" and isinstance(op.get("from"), str):
            out.append(Command("move", show_path(pointer_path(op["from"])), (dotted,), "json_patch", line, column))
        else:
            out.append(LwError(f"JSONPatch[{n}]: unsupported op {kind!r}", file=file, line=line, column=column,
                               code="invalid"))
    return out
