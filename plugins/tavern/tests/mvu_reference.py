"""The reply parser of `lw_tavern.mvu.update` as it stood before it was made linear (kept as the
oracle of `test_reply_parsers.py`: on small replies the linear parser must give the same
commands, narration and problems). Quadratic on hostile replies: never call it with a large one."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from lwcore.errors import LwError
from lw_tavern.mvu.ops import ALIASES, pointer_path, show_path
from lw_tavern.mvu.ops import Op as TreeOp

from lw_tavern.mvu.json5 import Json5Error, parse_json5

MAX_REPLY = 512 * 1024
MAX_COMMANDS = 500

_BLOCK = re.compile(r"<\s*update_?variable\b[^>]*>(.*?)(?:<\s*/\s*update_?variable\s*>|\Z)", re.IGNORECASE | re.DOTALL)
_FENCED = re.compile(r"```[\w-]*[ \t]*\n?(\s*<\s*update_?variable\b.*?(?:<\s*/\s*update_?variable\s*>|\Z))\s*```",
                     re.IGNORECASE | re.DOTALL)
_ANALYSIS = re.compile(r"<\s*analysis\b[^>]*>.*?(?:<\s*/\s*analysis\s*>|\Z)", re.IGNORECASE | re.DOTALL)
_PATCH = re.compile(r"<\s*(json_?patch)\s*>(.*?)<\s*/\s*\1\s*>", re.IGNORECASE | re.DOTALL)
_CALL = re.compile(r"_\s*\.\s*(set|insert|assign|remove|unset|delete|add|move)\s*\(")
_ARITY = {"set": (2, 3), "insert": (2, 3), "delete": (1, 2), "add": (2, 2), "move": (2, 2)}


@dataclass(frozen=True)
class Command(TreeOp):
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


def _where(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def strip_blocks(text: str) -> str:
    """The reply without ``<UpdateVariable>`` blocks (fenced or not) and stray ``<JSONPatch>``
    blocks, blank lines they leave collapsed. A reply without blocks comes back unchanged."""
    if not re.search(r"<\s*(update_?variable|json_?patch)\b", text, re.IGNORECASE):
        return text
    cleaned = _FENCED.sub("", text)
    cleaned = _BLOCK.sub("", cleaned)
    cleaned = _PATCH.sub("", cleaned)
    cleaned = re.sub(r"[ \t]+\n", "\n", cleaned)
    return re.sub(r"\n{3,}", "\n\n", cleaned).strip()


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
    for block in _BLOCK.finditer(text):
        start = block.start(1)
        inner = block.group(1)
        analysis = [(m.start(), m.end()) for m in _ANALYSIS.finditer(inner)]

        def hidden(pos: int, spans: list[tuple[int, int]] = analysis) -> bool:
            return any(a <= pos < b for a, b in spans)

        found: list[tuple[int, Command | LwError | list[Command | LwError]]] = []
        for patch in _PATCH.finditer(inner):
            if not hidden(patch.start()):
                found.append((patch.start(), _patch_commands(patch.group(2), text, start + patch.start(2), file)))
        patch_spans = [(m.start(), m.end()) for m in _PATCH.finditer(inner)]
        for call in _CALL.finditer(inner):
            if hidden(call.start()) or any(a <= call.start() < b for a, b in patch_spans):
                continue
            found.append((call.start(), _call(inner, call, text, start, file)))
        for _, item in sorted(found, key=lambda pair: pair[0]):
            for one in item if isinstance(item, list) else [item]:
                if one is None:
                    continue
                if isinstance(one, LwError):
                    out.problems.append(one)
                elif len(out.commands) < MAX_COMMANDS:
                    out.commands.append(one)
    if len(out.commands) >= MAX_COMMANDS:
        out.problems.append(LwError(f"more than {MAX_COMMANDS} update commands; the rest were ignored",
                                    file=file, code="limit"))
    out.narration = strip_blocks(text)
    return out


def _call(inner: str, call: re.Match[str], text: str, base: int, file: str | None) -> Command | LwError | None:
    name = call.group(1).lower()
    op = ALIASES.get(name, name)
    line, column = _where(text, base + call.start())
    try:
        args, end = _arguments(inner, call.end())
    except ValueError as exc:
        return LwError(f"_.{name}(…): {exc}", file=file, line=line, column=column, code="syntax")
    rest = inner[end:]
    semicolon = re.match(r"[ \t]*;", rest)
    if semicolon is None:
        return LwError(f"_.{name}(…) is not followed by ';' (MVU ignores it)", file=file, line=line,
                       column=column, code="syntax")
    reason = ""
    comment = re.match(r"[ \t]*//([^\n]*)", rest[semicolon.end():])
    if comment:
        reason = comment.group(1).strip()
    low, high = _ARITY[op]
    if not low <= len(args) <= high:
        return LwError(f"_.{name} takes {low} to {high} arguments, got {len(args)}", file=file, line=line,
                       column=column, code="arity")
    path = args[0]
    if not isinstance(path, str):
        return LwError(f"_.{name}: the path is {path!r}, not text", file=file, line=line, column=column,
                       code="invalid")
    rest_args: tuple[Any, ...] = tuple(args[1:])
    if op == "set":
        rest_args = (args[-1],)  # _.set(path, old, new): the old value is only a note
    return Command(op, path, rest_args, reason, line, column)


def _arguments(text: str, pos: int) -> tuple[list[Any], int]:
    """Comma-separated literal arguments up to the matching ``)``."""
    args: list[Any] = []
    while True:
        pos = _skip(text, pos)
        if pos >= len(text):
            raise ValueError("the argument list is not closed")
        if text[pos] == ")" and not args:
            return args, pos + 1
        value, pos = _value(text, pos)
        args.append(value)
        pos = _skip(text, pos)
        if pos >= len(text):
            raise ValueError("the argument list is not closed")
        if text[pos] == ",":
            pos += 1
            continue
        if text[pos] == ")":
            return args, pos + 1
        raise ValueError(f"unexpected {text[pos]!r} in the arguments")


def _skip(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ARITH = re.compile(r"[-+*/%().\d\s eE]+")
_WORDS = {"true": True, "false": False, "null": None, "undefined": None}


def _value(text: str, pos: int) -> tuple[Any, int]:
    ch = text[pos]
    if ch in "\"'`":
        return _string(text, pos)
    if ch in "[{":
        end = _balanced(text, pos)
        try:
            return parse_json5(text[pos:end]), end
        except Json5Error as exc:
            raise ValueError(f"bad literal {text[pos:end][:40]!r}: {exc.message}") from None
    # a bare token: a number, a word, arithmetic, or unquoted text (MVU reads it as a string)
    end = pos
    depth = 0
    while end < len(text):
        c = text[end]
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            break
        end += 1
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


def _string(text: str, pos: int) -> tuple[str, int]:
    quote = text[pos]
    out: list[str] = []
    i = pos + 1
    escapes = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            if nxt == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", text[i + 2:i + 6]):
                out.append(chr(int(text[i + 2:i + 6], 16)))
                i += 6
                continue
            out.append(escapes.get(nxt, nxt))
            i += 2
            continue
        if ch == quote:
            return "".join(out), i + 1
        out.append(ch)
        i += 1
    raise ValueError("a string is not closed")


def _balanced(text: str, pos: int) -> int:
    depth = 0
    i = pos
    while i < len(text):
        ch = text[i]
        if ch in "\"'`":
            _, i = _string(text, i)
            continue
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("a bracket is not closed")


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


def _patch_commands(body: str, text: str, base: int, file: str | None) -> list[Command | LwError]:
    line, column = _where(text, base)
    try:
        ops = parse_json5(body.strip().strip("`").removeprefix("json").strip())
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
