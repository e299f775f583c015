"""SillyTavern's ``{{macros}}`` in world-book and card text, from injected context only.

- ``{{getvar::path}}`` and ``{{var:path}}`` (also ``{{var::path}}``): a variable's value.
- ``{{user}}`` (the acting member, given at render), ``{{char}}`` (bound when a card is imported).
- ``{{time}}`` (``HH:MM``) and ``{{date}}`` (``YYYY-MM-DD``) of the injected game clock.
- ``{{random:a,b,c}}`` / ``{{random::a::b}}`` and ``{{pick::a::b}}``: one option, drawn with
  the injected random source.
- ``{{newline}}``, ``{{// a comment}}`` (removed), ``{{trim}}`` (removed with the whitespace
  around it).
- ``{{roll:2d6}}`` / ``{{roll 2d6}}``: rolled by the kernel's dice engine (``lwcore.rules``);
  the number in the text is the engine's, never the model's.

- ``{{noop}}`` (removed), ``{{reverse:text}}``; the legacy ``<USER>``, ``<BOT>``, ``<CHAR>``.
- Tavern Helper's macro-likes, first (as it runs them): ``{{get_message_variable::path}}`` (the
  value, JSON unless a text) and ``{{format_message_variable::path}}`` (YAML, indented under
  what precedes it on its line), and their ``chat``/``character``/``preset``/``global`` siblings;
  keys starting with ``$`` are left out.

A macro whose context was not given stays as it is; a macro that writes variables
(``{{setvar::…}}``, ``{{addvar::…}}`` …) is removed with a warning (this path only reads); an
unknown macro is left alone, or, with ``unknown=True`` (a room's text), removed and reported once.
Everything is bounded: no recursion into substituted values.

``MacroContext(inert=True)`` is for text a person import brought (:mod:`lw_tavern.inert`):
only ``{{user}}``, ``{{char}}``, ``{{newline}}``, ``{{trim}}`` and ``{{// …}}`` are
substituted; every other macro -- reads, writes, draws, rolls -- stays exactly as written.
"""

from __future__ import annotations

import datetime
import html
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lwcore.api import LwError, roll

from lw_tavern.ejs.yamlout import fast
from lw_tavern.mvu import lodash

_MACRO = re.compile(r"\{\{(.*?)\}\}", re.DOTALL)
_WRITES = ("setvar", "addvar", "incvar", "decvar", "setglobalvar", "addglobalvar", "incglobalvar", "decglobalvar")


@dataclass
class MacroContext:
    """What the macros may read. Missing pieces leave their macros untouched."""

    resolve: Callable[[str], Any] | None = None
    user: str | None = None
    char: str | None = None
    clock: datetime.datetime | None = None
    rng: random.Random | None = None
    dice: bool = True
    warnings: list[str] = field(default_factory=list)
    rolls: list[dict[str, Any]] = field(default_factory=list)
    inert: bool = False
    """Text a person import brought: only the name and formatting macros (module docstring)."""
    message_variables: Any = None
    """The latest message's variables for Tavern Helper's ``{{get_message_variable::…}}`` and
    ``{{format_message_variable::…}}`` (a room: ``{"stat_data": <its tree>}``)."""
    chat_variables: Any = None
    """The variables of the other scopes (``chat``, ``character``, ``preset``, ``global``)."""
    yaml: Callable[[Any], str | None] | None = None
    """``YAML.stringify`` for a value :mod:`lw_tavern.ejs.yamlout` cannot write itself."""
    unknown: bool = False
    """Remove a macro nothing here answers (reported once by name) instead of leaving it."""
    keep: tuple[str, ...] = ("outlet",)
    """Macros a later pass fills (never removed as unknown)."""


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _options(arg: str) -> list[str]:
    return arg.split("::") if "::" in arg else arg.split(",")


_LEGACY = ((re.compile(r"<USER>", re.IGNORECASE), "{{user}}"), (re.compile(r"<BOT>", re.IGNORECASE), "{{char}}"),
           (re.compile(r"<CHAR>", re.IGNORECASE), "{{char}}"))
_GET_LIKE = re.compile(r"\{\{get_(message|chat|character|preset|global)_variable::(.*?)\}\}", re.IGNORECASE)
_FORMAT_LIKE = re.compile(r"^(.*)\{\{format_(message|chat|character|preset|global)_variable::(.*?)\}\}",
                          re.IGNORECASE | re.MULTILINE)
_FORMAT_ONE = re.compile(r"^(.*)\{\{format_(message|chat|character|preset|global)_variable::(.*?)\}\}",
                         re.IGNORECASE)
_IDENT = re.compile(r"[^\W\d][\w-]*")
_KNOWN = {"user", "char", "getvar", "var", "time", "date", "random", "pick", "newline", "trim", "noop", "reverse",
          "roll", *_WRITES}


def _without_dollar(value: Any) -> Any:
    """lodash-omitdeep's ``omitDeepBy(value, key starts with "$")``."""
    if isinstance(value, dict):
        return {k: _without_dollar(v) for k, v in value.items() if not str(k).startswith("$")}
    if isinstance(value, list):
        return [_without_dollar(v) for v in value]
    return value


def _scope(ctx: MacroContext, kind: str) -> Any:
    return ctx.message_variables if kind.lower() == "message" else ctx.chat_variables


def _variable(ctx: MacroContext, kind: str, path: str) -> Any:
    variables = _scope(ctx, kind)
    return _without_dollar(lodash.get(variables or {}, html.unescape(path), None))


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _yaml(ctx: MacroContext, value: Any) -> str:
    text = fast(value)
    if text is None and ctx.yaml is not None:
        text = ctx.yaml(value)
    if text is None:
        text = json.dumps(value, ensure_ascii=False)
        ctx.warnings.append("{{format_*_variable}}: written as JSON (the yaml library is not available)")
    return text


def _format(ctx: MacroContext, prefix: str, kind: str, path: str) -> str:
    inner = _FORMAT_ONE.match(prefix)
    if inner:
        prefix = _format(ctx, inner.group(1), inner.group(2), inner.group(3)) + prefix[inner.end():]
    value = _variable(ctx, kind, path)
    text = value if isinstance(value, str) else _yaml(ctx, value)
    return prefix + text.replace("\n", "\n" + " " * _utf16(prefix))


def macro_likes(text: str, ctx: MacroContext) -> str:
    """Tavern Helper's macro-likes (``{{get_*_variable::path}}``, ``{{format_*_variable::path}}``),
    before SillyTavern's macros, as Tavern Helper runs them."""
    if "_variable::" not in text or (ctx.message_variables is None and ctx.chat_variables is None):
        return text

    def get(m: re.Match[str]) -> str:
        value = _variable(ctx, m.group(1), m.group(2))
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    text = _GET_LIKE.sub(get, text)
    return _FORMAT_LIKE.sub(lambda m: _format(ctx, m.group(1), m.group(2), m.group(3)), text)


def substitute(text: str, ctx: MacroContext) -> str:
    """``text`` with every macro the context can answer replaced (see the module docstring)."""
    if "<" in text and (ctx.user is not None or ctx.char is not None):
        for pattern, macro in _LEGACY:
            text = pattern.sub(macro, text)
    if "{{" not in text:
        return text
    if not ctx.inert:
        text = macro_likes(text, ctx)

    def one(m: re.Match[str]) -> str:
        body = m.group(1)
        stripped = body.strip()
        low = stripped.lower()
        if stripped.startswith("//"):
            return ""
        if low == "newline":
            return "\n"
        if low == "trim":
            return "\x00trim\x00"
        name, sep, arg = stripped.partition("::")
        if not sep:
            name, sep, arg = stripped.partition(":")
        key = name.strip().lower()
        if ctx.inert and (sep or key not in ("user", "char")):
            return m.group(0)
        if key in _WRITES:
            ctx.warnings.append(f"{{{{{key}::…}}}} removed: this text only reads variables")
            return ""
        if key in ("getvar", "var") and sep and ctx.resolve is not None:
            return _text(ctx.resolve(arg.strip()))
        if key == "user" and not sep and ctx.user is not None:
            return ctx.user
        if key == "char" and not sep and ctx.char is not None:
            return ctx.char
        if key == "time" and not sep and ctx.clock is not None:
            return ctx.clock.strftime("%H:%M")
        if key == "date" and not sep and ctx.clock is not None:
            return ctx.clock.strftime("%Y-%m-%d")
        if key in ("random", "pick") and sep and ctx.rng is not None:
            options = [o.strip() for o in _options(arg)]
            return options[int(ctx.rng.random() * len(options))] if options else ""
        if key.startswith("roll") and ctx.dice:
            expr = arg if sep else stripped[4:]
            return _roll(expr.strip(), ctx, m.group(0))
        if key == "noop" and not sep:
            return ""
        if key == "reverse" and sep:
            return arg[::-1]
        if ctx.unknown and _IDENT.fullmatch(name.strip()) and key not in ctx.keep and key not in _KNOWN:
            note = f"{{{{{name.strip()}}}}}: a macro this room does not support: removed"
            if note not in ctx.warnings:
                ctx.warnings.append(note)
            return ""
        return m.group(0)

    out = _MACRO.sub(one, text)
    if "\x00trim\x00" in out:
        out = re.sub(r"\s*\x00trim\x00\s*", "", out)
    return out


def _roll(expr: str, ctx: MacroContext, original: str) -> str:
    """A dice expression rolled by the kernel's engine (``2d6``, ``d20``, ``1d100+5``)."""
    if not expr or ctx.rng is None:
        return original
    if re.fullmatch(r"d\d+", expr, re.IGNORECASE):
        expr = "1" + expr
    try:
        outcome = roll(expr, ctx.rng)
    except LwError as exc:
        ctx.warnings.append(f"{{{{roll:{expr}}}}}: {exc.message}")
        return original
    ctx.rolls.append(outcome.to_json())
    return str(outcome.total)
