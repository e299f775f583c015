"""The full EJS mode: a template compiled to JavaScript and run in the kernel's sandbox.

ST-Prompt-Template cards write real JavaScript in their templates: loops, functions,
``await``, lodash chains, ``setvar``/``incvar``, ``getwi``, ``injectPrompt``. Here a template is
compiled (by :func:`compile_template`, no EJS library involved) into one async function whose
value is ``{text, injected, activate}``, and run by :func:`lwcore.sandbox.evaluate` (a fresh
interpreter, memory and time limits, no host I/O, the seeded random source and the game clock).
What the template sees:

- the variable bridge over the room's tree: ``getvar``, ``setvar``, ``incvar``, ``decvar``,
  ``variables``, ``stat_data``; writes come back as the kernel's
  :class:`~lwcore.contributions.VariableWrite` (each with the template line that asked, when it
  is the template's own) for the caller to have made after rendering -- through the one path
  of scripts' writes, :func:`lwcore.turn.script_writes.apply_write`: a declared module
  variable checked and clamped, any other name a leaf of the MVU tree (they are buffered: the
  text a template prints never depends on a write being kept);
- ``_`` (the sandbox's lodash), ``log``;
- ``getwi([book,] title)``: an entry's text from the room's book, as imported (a snapshot);
  ``activewi([book,] title)``: asks for that entry to fire on the next turn;
- ``injectPrompt(key, text)`` / ``getPromptsInjected()``: extra prompt text of this turn;
- ``execvar(name)``: renders the template text the variable ``name`` holds (a described leaf:
  its value) where it is called, with the same bridge, in the same run -- its writes are
  buffered like the template's own, it reads the writes made before it, it may call
  ``execvar`` itself (at most :data:`MAX_EXECVAR_DEPTH` deep; deeper, a throw or a timeout
  inside it fails the whole template) -- and gives the text (a promise: ``await execvar(…)``,
  or print it: an output tag waits for a promise). Text without tags is itself; a value that
  is no text prints as an output tag would; a missing one is ``""``. The texts come from the
  tree handed in: when a template names ``execvar``, every template text among the tree's
  leaves is compiled with it (:func:`compile_template`), so one written during this render,
  or one whose tag is not closed, prints nothing (with a warning);
- ``faker``: an empty stub (every call gives ``""``, with a warning).

Tags: ``<% code %>``, ``<%= value %>`` and ``<%- value %>`` (both print the value as text: this is
a prompt, not HTML; a promise prints what it resolves to), ``<%# comment %>``, the whitespace forms ``<%_``, ``_%>``, ``-%>``, the
literal ``<%%``/``%%>``, and ``<#escape-ejs> … </#escape-ejs>`` (passed through untouched).

:func:`render_full` returns ``None`` when the sandbox refuses or the script fails (a syntax
error, a throw, a timeout): the caller falls back to the read-only subset. Raw template syntax
never comes out of either.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import Any

from lwcore.api import VariableWrite, tree_leaves as leaves, writes_from

from lw_tavern import jsdeps
from lw_tavern.ejs.lite import ESCAPED, pieces_at

MAX_SOURCE = 150_000
MAX_EXECVAR_DEPTH = 8

_PRELUDE = """
var __o = [], __inj = [], __act = [], __warned = false, __vt = {}, __depth = 0;
function __s(v) {
  if (v === undefined || v === null) return "";
  if (typeof v === "object") { try { return JSON.stringify(v); } catch (e) { return String(v); } }
  return String(v);
}
function __thenable(v) { return v !== null && (typeof v === "object" || typeof v === "function") && typeof v.then === "function"; }
function __out(v) { return __thenable(v) ? v.then(__s) : __s(v); }
async function __join(parts) {
  for (var i = 0; i < parts.length; i++) { if (__thenable(parts[i])) parts[i] = await parts[i]; }
  return parts.join("");
}
function __template(v) { return v.indexOf("<%") !== -1 || v.toLowerCase().indexOf("<#escape-ejs") !== -1; }
async function execvar(name) {
  var v = getvar(name);
  if (Array.isArray(v) && v.length === 2 && typeof v[1] === "string" && (v[0] === null || typeof v[0] !== "object")) v = v[0];
  if (typeof v !== "string") return __s(v);
  if (!__template(v)) return v;
  if (!Object.prototype.hasOwnProperty.call(__vt, v)) {
    log("execvar(" + JSON.stringify(String(name)) + "): its text is not a template this render compiled "
        + "(an unclosed tag, or written during the render): printed nothing");
    return "";
  }
  if (__depth >= __MAX_DEPTH) throw new Error("execvar: templates nested deeper than " + __MAX_DEPTH);
  __depth += 1;
  try { return await eval("(" + __vt[v] + ")")(); } finally { __depth -= 1; }
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
    """The text, the writes the template asked for (in order), the prompts it injected, the
    entries it asked to fire next turn, and its log lines."""

    text: str
    writes: list[VariableWrite] = field(default_factory=list)
    injected: list[str] = field(default_factory=list)
    activate: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Compiled:
    """A template as JavaScript, and where its code came from: ``lines`` holds, for each tag's
    code, ``(first line of it in source, line of its tag in the template)``."""

    source: str
    lines: tuple[tuple[int, int], ...] = ()

    def template_line(self, line: int | None) -> int | None:
        """The template line of a line of :attr:`source` inside a tag's code (``None`` outside:
        the prelude, a text, a variable's template run by ``execvar``)."""
        if line is None:
            return None
        found = None
        for start, at in self.lines:
            if start > line:
                break
            found = (start, at)
        if found is None:
            return None
        start, at = found
        return at + line - start


def compile_template(text: str, tree: Mapping[str, Any] | None = None) -> str:
    """The template as JavaScript (an async function's body ends with the result object).

    When it names ``execvar`` and a ``tree`` is given, the template texts the tree holds come
    along, each compiled the same way into a table ``execvar`` reads (:func:`_variable_templates`).
    :class:`ValueError` when a ``<%`` of ``text`` is not closed."""
    return compile_mapped(text, tree).source


def compile_mapped(text: str, tree: Mapping[str, Any] | None = None) -> Compiled:
    """:func:`compile_template` with the map from its source lines back to the template's."""
    body, lines = _body_mapped(text)
    table = _variable_templates(tree, MAX_SOURCE - len(body)) if tree and "execvar" in text else ""
    head = "(async function () {\n" + _PRELUDE.replace("__MAX_DEPTH", str(MAX_EXECVAR_DEPTH)) + table
    offset = head.count("\n") + 1
    return Compiled(head + body + "\nreturn {text: await __join(__o), injected: __inj, activate: __act};\n})()",
                    tuple((offset + start, at) for start, at in lines))


def _body(text: str) -> str:
    """The statements that push the template's output onto ``__o`` (text, values, promises)."""
    return _body_mapped(text)[0]


def _body_mapped(text: str) -> tuple[str, list[tuple[int, int]]]:
    """:func:`_body`, and for each tag's code ``(its first line in the body, counted from 0;
    its tag's line in ``text``, from 1)``."""
    escaped: list[str] = []
    newlines: list[int] = []

    def stash(m: re.Match[str]) -> str:
        escaped.append(m.group(1).replace("<%%", "<%").replace("%%>", "%>"))
        newlines.append(m.group(0).count("\n"))
        return f"\x00{len(escaped) - 1}\x00"

    body = ESCAPED.sub(stash, text.replace("<%%", "\x01").replace("%%>", "\x02"))
    code: list[str] = []
    lines: list[tuple[int, int]] = []
    at = 0  # lines of the body emitted so far
    read, line = 0, 1  # how far ``body`` is counted, and the template line there
    for mode, piece, start in pieces_at(body):
        if mode == "text":
            for i, part in enumerate(re.split(r"\x00(\d+)\x00", piece)):
                literal = escaped[int(part)] if i % 2 else part.replace("\x01", "<%").replace("\x02", "%>")
                if literal:
                    code.append(f"__o.push({json.dumps(literal, ensure_ascii=False)});")
                    at += 1
            continue
        inner = piece.replace("\x01", "<%").replace("\x02", "%>")
        if mode == "#":
            continue
        passed = body[read:start]
        line += passed.count("\n") + sum(newlines[int(n)] for n in re.findall(r"\x00(\d+)\x00", passed))
        read = start
        lines.append((at, line))
        statement = f"__o.push(__out({inner}\n));" if mode in ("=", "-") else inner + "\n;"
        code.append(statement)
        at += statement.count("\n") + 1
    return "\n".join(code), lines


def _variable_templates(tree: Mapping[str, Any], budget: int) -> str:
    """``__vt``: each template text among the tree's leaves (a described leaf's value) -> the
    source of an async function rendering it (its own output, the same bridge). ``execvar``
    evaluates a function only when it runs it, so a broken one fails only the template that
    runs it. Texts that do not compile, and those past ``budget`` characters of source, are
    left out (``execvar`` then prints nothing, with a warning)."""
    seen: set[str] = set()
    lines: list[str] = []
    for leaf in leaves(tree):
        value = leaf["value"]
        if not isinstance(value, str) or value in seen or not _is_template(value):
            continue
        seen.add(value)
        try:
            function = "async function () {\nvar __o = [];\n" + _body(value) + "\nreturn __join(__o);\n}"
        except ValueError:
            continue
        line = f"__vt[{json.dumps(value, ensure_ascii=False)}] = {json.dumps(function, ensure_ascii=False)};\n"
        if len(line) > budget:
            continue
        budget -= len(line)
        lines.append(line)
    return "".join(lines)


def _is_template(text: str) -> bool:
    return "<%" in text or "<#escape-ejs" in text.lower()


# --- the EJS library (ejs 3.1.9, lodash 4.17.21 as ``_``), as ST-Prompt-Template runs it ------------

_LIBRARY_RUN = r"""
var __lw = { main: null, lines: [], line: 1, depth: 0, inj: [], act: [], warned: false, lodash: null, originals: null };
function __lw_module(src) { var module = { exports: {} }, exports = module.exports; (0, eval)("(function (module, exports, define) {" + src + "\n})")(module, exports, undefined); return module.exports; }
var __ejs = __lw_module(input.ejs);
var __lw_opts = { async: true, outputFunctionName: "print", _with: true, localsName: "locals", client: true, compileDebug: true };
var __lw_sync = Object.assign({}, __lw_opts, { async: false });
function __lw_id(s) { return s; }
function __lw_compile(text, opts) {
  var src = String(__ejs.compile(text, opts))
    .replace("function __append(s) { if (s !== undefined && s !== null) __output += s }",
             "function __append(...args) { args.filter(x => x !== undefined && x !== null).forEach(s => __output += s) }")
    .replace("  var print = __append;", "  const print = __append;");
  return (0, eval)("(" + src + "\n)");
}
var __lw_vars = new Proxy(variables, { get: function (t, k) {
  return k === "stat_data" && !Object.prototype.hasOwnProperty.call(t, k) ? t : t[k];
} });
function __lw_texts(node, out, depth) {
  if (depth > 64 || out.length > 2000) return out;
  if (typeof node === "string") { if (node.indexOf("<%") !== -1) out.push(node); }
  else if (Array.isArray(node)) { for (var i = 0; i < node.length; i++) __lw_texts(node[i], out, depth + 1); }
  else if (node !== null && typeof node === "object") { for (var k in node) __lw_texts(node[k], out, depth + 1); }
  return out;
}
__lw.originals = __lw_texts(variables, [], 0);
function __lw_here() {
  if (__lw.depth > 0) return null;
  var m = /at anonymous \(<input>:(\d+):/.exec(String(new Error().stack));
  if (m && __lw.main) {
    var g = Number(m[1]) - 1, b, found;
    for (b = g - 1; b >= 0 && b > g - 4000; b--) {
      found = /^\s*; __line = (\d+)$/.exec(__lw.main[b]);
      if (found) return Number(found[1]) + (g - b - 1);
      if (/^\s*with \(locals \|\| \{\}\) \{$/.test(__lw.main[b])) return 1 + (g - b - 1);
    }
  }
  return __lw.line;
}
function __lw_write(fn, args) { var where = __lw_here(); var r = fn.apply(null, args); __lw.lines.push(where); return r; }
var __lw_wi = input.wi || {};
function __lw_title(a, b) { return String(b === undefined || (b !== null && typeof b === "object") ? a : b); }
var locals = {
  variables: __lw_vars, stat_data: stat_data,
  getvar: getvar,
  setvar: function () { return __lw_write(setvar, arguments); },
  incvar: function () { return __lw_write(incvar, arguments); },
  decvar: function () { return __lw_write(decvar, arguments); },
  getwi: function (a, b) { var t = __lw_title(a, b); return Object.prototype.hasOwnProperty.call(__lw_wi, t) ? __lw_wi[t] : ""; },
  activewi: function (a, b) { __lw.act.push(__lw_title(a, b)); return true; },
  injectPrompt: function (key, text) { __lw.inj.push(text === undefined || text === null ? "" : String(text)); },
  getPromptsInjected: function () { return __lw.inj.join("\n"); },
  hasPromptsInjected: function () { return __lw.inj.length > 0; },
  userName: input.user, charName: input.char, assistantName: input.char,
  faker: new Proxy({}, { get: function () {
    if (!__lw.warned) { __lw.warned = true; log("faker is a stub here: it gives empty text"); }
    return new Proxy(function () { return ""; }, { get: function () { return function () { return ""; }; } });
  } }),
  execvar: function (name) {
    var v = getvar(name);
    if (Array.isArray(v) && v.length === 2 && typeof v[1] === "string" && (v[0] === null || typeof v[0] !== "object")) v = v[0];
    if (v === undefined || v === null) return "";
    if (typeof v !== "string") return typeof v === "object" ? JSON.stringify(v) : String(v);
    var text = __lw_escape(v);
    if (text.indexOf("<%") === -1) return __lw_unescape(text);
    if (__lw.originals.indexOf(v) === -1) {
      log("execvar(" + JSON.stringify(String(name)) + "): its text was written during this render: printed nothing");
      return "";
    }
    if (__lw.depth >= __MAX_DEPTH) throw new Error("execvar: templates nested deeper than __MAX_DEPTH");
    var fn, asynchronous = false;
    try { fn = __lw_compile(text, __lw_sync); }
    catch (e) {
      try { fn = __lw_compile(text, __lw_opts); asynchronous = true; }
      catch (e2) { log("execvar(" + JSON.stringify(String(name)) + "): its text is not a template EJS compiles (" + String(e2 && e2.message || e2).split("\n")[0] + "): printed nothing"); return ""; }
    }
    __lw.depth += 1;
    if (!asynchronous) {
      try { return __lw_unescape(fn.call(locals, locals, __lw_id)); } finally { __lw.depth -= 1; }
    }
    return fn.call(locals, locals, __lw_id).then(function (t) { __lw.depth -= 1; return __lw_unescape(t); },
                                                 function (e) { __lw.depth -= 1; throw e; });
  }
};
Object.defineProperty(locals, "__line", { get: function () { return __lw.line; }, set: function (v) { if (__lw.depth === 0) __lw.line = v; } });
Object.defineProperty(locals, "_", { configurable: true, enumerable: true, get: function () {
  if (__lw.lodash === null) __lw.lodash = input.lodash ? __lw_module(input.lodash) : _;
  return __lw.lodash;
}, set: function (v) { __lw.lodash = v; } });
for (var __k in input.locals || {}) locals[__k] = input.locals[__k];
"""

_ESCAPE_OPEN = "\ue000"
_ESCAPE_CLOSE = "\ue001"
_LIBRARY_ESCAPES = r"""
var __lw_esc_re = /<#escape-ejs>([\s\S]*?)<\/#escape-ejs>/gi;
function __lw_escape(text) {
  return text.replace(__lw_esc_re, function (m, body) {
    return "\ue000" + body.split("<%%").join("<%").split("%%>").join("%>").split("<%").join("\ue002").split("%>").join("\ue003") + "\ue001";
  });
}
function __lw_unescape(text) {
  return String(text).split("\ue000").join("").split("\ue001").join("").split("\ue002").join("<%").split("\ue003").join("%>");
}
"""


@dataclass(frozen=True)
class LibrarySource:
    """The script that renders templates with the EJS library (its sources handed in as input)."""

    source: str


def _library_script() -> str:
    return ("(async function () {\n" + _LIBRARY_ESCAPES
            + _LIBRARY_RUN.replace("__MAX_DEPTH", str(MAX_EXECVAR_DEPTH))
            + "var __lw_fn = __lw_compile(__lw_escape(input.template), __lw_opts);\n"
            + "__lw.main = String(__lw_fn).split('\\n');\n"
            + "var __lw_text = __lw_unescape(await __lw_fn.call(locals, locals, __lw_id));\n"
            + "return {text: __lw_text, injected: __lw.inj, activate: __lw.act, lines: __lw.lines};\n})()")


LIBRARY_SCRIPT = _library_script()


def library_sources() -> tuple[str, str] | None:
    """``(ejs, lodash)`` JavaScript when both are installed (:mod:`lw_tavern.jsdeps`), else ``None``."""
    ejs, lodash = jsdeps.source("ejs"), jsdeps.source("lodash")
    return (ejs, lodash) if ejs is not None and lodash is not None else None


def render_full(
    text: str, sandbox: ModuleType, *, tree: Mapping[str, Any], seed: int, clock: Any,
    entries: Mapping[str, str] | None = None, script: str = "template", user: str = "User", char: str = "",
    locals: Mapping[str, Any] | None = None, library: bool | None = None,
) -> FullRendered | None:
    """Run ``text`` as a full EJS template against ``tree``; ``None`` when it fails (the caller
    renders it with the subset instead). ``entries`` (title -> text) answer ``getwi``.

    With the EJS library installed (and ``library`` not ``False``) the template is compiled by
    ejs 3.1.9 with ST-Prompt-Template's options and run with its context (``_`` is lodash
    4.17.21, compiled the first time the template touches it); otherwise by this module's own
    compiler. ``user``/``char`` are ``userName``/``charName``; ``locals`` adds names (tests)."""
    sources = library_sources() if library is not False else None
    if sources is None:
        return _render_own(text, sandbox, tree=tree, seed=seed, clock=clock, entries=entries, script=script)
    ejs, lodash = sources
    wanted = entries if entries is not None and "getwi" in text else {}
    inputs = {"template": text, "ejs": ejs, "lodash": lodash if _may_use_lodash(text, tree) else "",
              "wi": dict(wanted), "user": user, "char": char, "locals": dict(locals or {})}
    try:
        outcome = sandbox.evaluate(LIBRARY_SCRIPT, inputs, state=dict(tree), seed=seed, clock=clock, script=script)
    except Exception:  # noqa: BLE001 - no usable sandbox (a missing binding, a refused input): the subset
        return None
    if not outcome.ok:
        return None
    value = outcome.value
    if not isinstance(value, Mapping) or not isinstance(value.get("text"), str):
        return None
    out = FullRendered(value["text"], injected=_texts(value.get("injected")), activate=_texts(value.get("activate")))
    lines = lines_raw if isinstance(lines_raw := value.get("lines"), list) else []
    writes = writes_from(outcome.effects, where=script)
    out.writes = [replace(w, line=lines[i] if i < len(lines) and isinstance(lines[i], int) else None)
                  for i, w in enumerate(writes)]
    out.warnings = [effect.text for effect in outcome.effects if effect.kind == "log"]
    return out


_UNDERSCORE = re.compile(r"(?<![\w$])_(?![\w$])")


def _may_use_lodash(text: str, tree: Mapping[str, Any]) -> bool:
    """Whether the template (or, when it names ``execvar``, a text of the tree) names ``_``: only
    then is lodash handed in (compiling it costs about 10 ms a run)."""
    if _UNDERSCORE.search(text):
        return True
    if "execvar" in text:
        return any(isinstance(leaf["value"], str) and _UNDERSCORE.search(leaf["value"]) for leaf in leaves(tree))
    return False


def _render_own(
    text: str, sandbox: ModuleType, *, tree: Mapping[str, Any], seed: int, clock: Any,
    entries: Mapping[str, str] | None = None, script: str = "template",
) -> FullRendered | None:
    """The template through this module's own compiler (the EJS library is not installed)."""
    try:
        compiled = compile_mapped(text, tree)
    except ValueError:
        return None
    source = compiled.source
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
    out.writes = [replace(w, line=compiled.template_line(w.line)) for w in writes_from(outcome.effects, where=script)]
    out.warnings = [effect.text for effect in outcome.effects if effect.kind == "log"]
    return out


def _texts(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []
