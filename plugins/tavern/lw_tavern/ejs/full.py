"""The full EJS mode: a template compiled to JavaScript and run in the kernel's sandbox.

ST-Prompt-Template cards write real JavaScript in their templates: loops, functions,
``await``, lodash chains, ``setvar``/``incvar``, ``getwi``, ``injectPrompt``. Here a template is
compiled (by :func:`compile_template`, no EJS library involved) into one async function whose
value is ``{text, injected, activate}``, and run by :func:`lwcore.sandbox.evaluate` (a fresh
interpreter, memory and time limits, no host I/O, the seeded random source and the game clock).
What the template sees:

- the variable bridge over the room's tree: ``getvar``, ``setvar``, ``incvar``, ``decvar``,
  ``variables``, ``stat_data``; writes come back as effects the caller applies after rendering
  (they are buffered: the text a template prints never depends on a write being kept);
- ``_`` (the sandbox's lodash), ``log``;
- ``getwi([book,] title)``: an entry's text from the room's book, as imported (a snapshot);
  ``activewi([book,] title)``: asks for that entry to fire on the next turn;
- ``injectPrompt(key, text)`` / ``getPromptsInjected()``: extra prompt text of this turn;
- ``faker``: an empty stub (every call gives ``""``, with a warning).

Tags: ``<% code %>``, ``<%= value %>`` and ``<%- value %>`` (both print the value as text: this is
a prompt, not HTML), ``<%# comment %>``, the whitespace forms ``<%_``, ``_%>``, ``-%>``, the
literal ``<%%``/``%%>``, and ``<#escape-ejs> … </#escape-ejs>`` (passed through untouched).

:func:`render_full` returns ``None`` when the sandbox refuses or the script fails (a syntax
error, a throw, a timeout): the caller falls back to the read-only subset. Raw template syntax
never comes out of either.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from lwcore.contributions import TreeOp
from lwcore.turn.mvu import lookup, show_path

from lw_tavern.ejs.lite import ESCAPED, pieces

MAX_SOURCE = 150_000

_PRELUDE = """
var __o = [], __inj = [], __act = [], __warned = false;
function __s(v) {
  if (v === undefined || v === null) return "";
  if (typeof v === "object") { try { return JSON.stringify(v); } catch (e) { return String(v); } }
  return String(v);
}
function __title(a, b) { return String(b === undefined ? a : b); }
var __wi = (typeof input === "object" && input && input.wi) || {};
function getwi(a, b) { var t = __title(a, b); return Object.prototype.hasOwnProperty.call(__wi, t) ? __wi[t] : ""; }
function activewi(a, b) { __act.push(__title(a, b)); return true; }
function injectPrompt(key, text) { __inj.push(__s(text)); }
function getPromptsInjected() { return __inj.join("\\n"); }
var faker = new Proxy({}, { get: function () {
  if (!__warned) { __warned = true; log("faker is a stub here: it gives empty text"); }
  return new Proxy(function () { return ""; }, { get: function () { return function () { return ""; }; } });
} });
"""


@dataclass
class FullRendered:
    """The text, the writes the template asked for (tree operations, in order), the prompts
    it injected, the entries it asked to fire next turn, and its log lines."""

    text: str
    writes: list[TreeOp] = field(default_factory=list)
    injected: list[str] = field(default_factory=list)
    activate: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def compile_template(text: str) -> str:
    """The template as JavaScript (an async function's body ends with the result object)."""
    escaped: list[str] = []

    def stash(m: re.Match[str]) -> str:
        escaped.append(m.group(1).replace("<%%", "<%").replace("%%>", "%>"))
        return f"\x00{len(escaped) - 1}\x00"

    body = ESCAPED.sub(stash, text.replace("<%%", "\x01").replace("%%>", "\x02"))
    code: list[str] = []
    for mode, piece in pieces(body):
        if mode == "text":
            for i, part in enumerate(re.split(r"\x00(\d+)\x00", piece)):
                literal = escaped[int(part)] if i % 2 else part.replace("\x01", "<%").replace("\x02", "%>")
                if literal:
                    code.append(f"__o.push({json.dumps(literal, ensure_ascii=False)});")
            continue
        inner = piece.replace("\x01", "<%").replace("\x02", "%>")
        if mode in ("=", "-"):
            code.append(f"__o.push(__s({inner}\n));")
        elif mode != "#":
            code.append(inner + "\n;")
    return ("(async function () {\n" + _PRELUDE + "\n".join(code)
            + "\nreturn {text: __o.join(''), injected: __inj, activate: __act};\n})()")


def render_full(
    text: str, sandbox: ModuleType, *, tree: Mapping[str, Any], seed: int, clock: Any,
    entries: Mapping[str, str] | None = None, script: str = "template",
) -> FullRendered | None:
    """Run ``text`` as a full EJS template against ``tree``; ``None`` when it fails (the caller
    renders it with the subset instead). ``entries`` (title -> text) answer ``getwi``."""
    try:
        source = compile_template(text)
    except ValueError:
        return None
    if len(source) > MAX_SOURCE:
        return None
    wanted = entries if entries is not None and "getwi" in text else {}
    try:
        outcome = sandbox.evaluate(source, {"wi": dict(wanted)}, state=dict(tree), seed=seed, clock=clock,
                                   script=script)
    except Exception:  # noqa: BLE001 - no usable sandbox (a missing binding, a refused input): the subset
        return None
    if not outcome.ok:
        return None
    value = outcome.value
    if not isinstance(value, Mapping) or not isinstance(value.get("text"), str):
        return None
    out = FullRendered(value["text"], injected=_texts(value.get("injected")), activate=_texts(value.get("activate")))
    out.writes = writes_of(outcome.effects, tree)
    out.warnings = [effect.text for effect in outcome.effects if effect.kind == "log"]
    return out


def _texts(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def writes_of(effects: Sequence[Any], tree: Mapping[str, Any]) -> list[TreeOp]:
    """A template's ``setvar``/``incvar`` effects as tree operations: ``setvar`` puts (creating
    branches), ``incvar`` adds to a number there or starts one."""
    ops: list[TreeOp] = []
    written: set[str] = set()
    for effect in effects:
        if effect.kind not in ("setvar", "incvar"):
            continue
        path = show_path(list(effect.path))
        if effect.kind == "setvar":
            ops.append(TreeOp("put", path, (effect.value,), reason="template"))
        elif effect.kind == "incvar":
            found = path in written or lookup(tree, list(effect.path))[0]
            ops.append(TreeOp("add" if found else "put", path, (effect.by,), reason="template"))
        written.add(path)
    return ops
