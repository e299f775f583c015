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

A macro whose context was not given stays as it is; a macro that writes variables
(``{{setvar::…}}``, ``{{addvar::…}}`` …) is removed with a warning (this path only reads); an
unknown macro is left alone. Everything is bounded: no recursion into substituted values.

``MacroContext(inert=True)`` is for text a person import brought (:mod:`lw_tavern.inert`):
only ``{{user}}``, ``{{char}}``, ``{{newline}}``, ``{{trim}}`` and ``{{// …}}`` are
substituted; every other macro -- reads, writes, draws, rolls -- stays exactly as written.
"""

from __future__ import annotations

import datetime
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lwcore.errors import LwError
from lwcore.rules.dice import roll

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


def substitute(text: str, ctx: MacroContext) -> str:
    """``text`` with every macro the context can answer replaced (see the module docstring)."""
    if "{{" not in text:
        return text

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
