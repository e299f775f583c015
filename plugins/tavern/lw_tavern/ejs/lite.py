"""The read-only EJS subset (ST-Prompt-Template cards) rendered without running any code.

Supported: ``<% if (…) { %>`` / ``<% } else if (…) { %>`` / ``<% } else { %>`` / ``<% } %>``,
output tags ``<%= … %>`` and ``<%- … %>`` (both print the value as text), comments ``<%# … %>``,
the whitespace forms ``<%_``, ``_%>``, ``-%>``, and ``<#escape-ejs> … </#escape-ejs>`` (the
text inside passes untouched, ``<%%``/``%%>`` becoming ``<%``/``%>``). Expressions are
:mod:`lw_tavern.ejs.expr`. Writes (``setvar``, ``incvar`` …) are ignored here, with a warning:
this mode only reads. ``execvar`` (which runs the template a variable holds, writes and all)
is skipped the same way, as a statement or in an output tag (which then prints nothing).

Fail-safe, never fail-open: raw template syntax never comes out. A broken output expression
prints nothing; a broken condition takes no branch; a template whose blocks do not balance, or
that holds statements this subset cannot run (loops, functions), renders as nothing at all, with
the reason in the warnings: the text of a branch that should not have been shown never is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from lwcore.api import (
    TreeError,
    tree_lookup as lookup,
    tree_parse_path as parse_path,
    tree_value_of as value_of,
)

from lw_tavern.ejs.expr import ExprError, evaluate, show, truthy

MAX_TEMPLATE = 200_000
MAX_NESTING = 32

ESCAPED = re.compile(r"<#escape-ejs>(.*?)<#?/#?escape-ejs>", re.DOTALL | re.IGNORECASE)
TAG = re.compile(r"<%([_=\-#]?)(.*?)([_\-]?)%>", re.DOTALL)
_IF = re.compile(r"^if\s*\((.*)\)\s*\{$", re.DOTALL)
_ELSE_IF = re.compile(r"^\}\s*else\s+if\s*\((.*)\)\s*\{$", re.DOTALL)
_ELSE = re.compile(r"^\}\s*else\s*\{$")
_WRITE = re.compile(r"^(?:await\s+)?(setvar|incvar|decvar|addvar|setLocalVar|setGlobalVar|setMessageVar|execvar)\s*\(",
                    re.I)
"""A call that writes variables, or runs template code that may (``execvar``): skipped here."""


@dataclass
class Rendered:
    """The rendered text and what was skipped or wrong (for the keeper's log)."""

    text: str
    warnings: list[str] = field(default_factory=list)


@dataclass
class _If:
    branches: list[tuple[str | None, list[Any]]]


class _Unsupported(ValueError):
    pass


def tree_resolver(tree: Mapping[str, Any]) -> Callable[[str], Any]:
    """A resolver over an MVU tree: ``a.b``, ``stat_data.a.b``, ``variables.a.b`` and
    ``a[0]`` paths; described leaves read as their value; missing paths as ``None``."""

    def resolve(path: str) -> Any:
        for root in ("stat_data.", "variables."):
            if path.startswith(root):
                path = path[len(root):]
        try:
            found, value = lookup(tree, parse_path(path))
        except TreeError:
            return None
        return value_of(value) if found else None

    return resolve


def pieces(text: str) -> Iterator[tuple[str, str]]:
    """The template as ``(mode, body)`` in order: ``("text", chunk)`` for literal text and
    ``(mode, code)`` for a tag (``""`` a statement, ``"="``/``"-"`` an output, ``"#"`` a
    comment), with the whitespace forms applied (``<%_`` trims spaces before the tag, ``_%>``
    after it, ``-%>`` one newline after it). :class:`ValueError` when a ``<%`` is not closed.
    One walk for the read-only subset and the full mode."""
    for mode, body, _ in pieces_at(text):
        yield mode, body


def pieces_at(text: str) -> Iterator[tuple[str, str, int]]:
    """:func:`pieces` with where each piece starts in ``text`` (a tag: its ``<%``)."""
    pos = 0
    for m in TAG.finditer(text):
        chunk = text[pos:m.start()]
        if m.group(1) == "_":
            chunk = chunk.rstrip(" \t")
        if chunk:
            yield "text", chunk, pos
        pos = m.end()
        if m.group(3) == "-" and text.startswith("\n", pos):
            pos += 1
        elif m.group(3) == "_":
            while pos < len(text) and text[pos] in " \t":
                pos += 1
        yield ("" if m.group(1) == "_" else m.group(1)), m.group(2), m.start()
    if "<%" in text[pos:]:
        raise ValueError("a '<%' tag is not closed")
    if text[pos:]:
        yield "text", text[pos:], pos


def _parse(text: str) -> list[Any]:
    """Text and tags into nodes: ``str`` text, ``("out", expr)``, ``("stmt", code)``, :class:`_If`."""
    root: list[Any] = []
    stack: list[tuple[list[Any], _If]] = []
    current = root
    try:
        walked = list(pieces(text))
    except ValueError as exc:
        raise _Unsupported(str(exc)) from None
    for mode, body in walked:
        if mode == "text":
            current.append(body)
            continue
        code = body.strip()
        if mode == "#":
            continue
        if mode in ("=", "-"):
            current.append(("write" if _WRITE.match(code) else "out", code))
            continue
        code = code.rstrip(";").strip()
        if not code:
            continue
        if (cond := _IF.match(code)) is not None:
            if len(stack) >= MAX_NESTING:
                raise _Unsupported(f"blocks nested deeper than {MAX_NESTING}")
            block = _If([(cond.group(1), [])])
            current.append(block)
            stack.append((current, block))
            current = block.branches[-1][1]
        elif (cond := _ELSE_IF.match(code)) is not None or _ELSE.match(code):
            if not stack:
                raise _Unsupported("'else' without an open 'if'")
            branch: list[Any] = []
            stack[-1][1].branches.append((cond.group(1) if cond else None, branch))
            current = branch
        elif code == "}":
            if not stack:
                raise _Unsupported("'}' without an open block")
            current = stack.pop()[0]
        elif _WRITE.match(code):
            current.append(("write", code))
        else:
            raise _Unsupported(f"statement {code[:40]!r} needs the full EJS mode")
    if stack:
        raise _Unsupported("an 'if' block is not closed")
    return root


def render(text: str, resolve: Callable[[str], Any]) -> Rendered:
    """Render ``text`` against ``resolve`` (see the module docstring for what is supported)."""
    if "<%" not in text and "<#" not in text.lower():
        return Rendered(text)
    warnings: list[str] = []
    if len(text) > MAX_TEMPLATE:
        return Rendered("", [f"template longer than {MAX_TEMPLATE} characters: left out"])
    escaped: list[str] = []

    def stash(m: re.Match[str]) -> str:
        escaped.append(m.group(1).replace("<%%", "<%").replace("%%>", "%>"))
        return f"\x00{len(escaped) - 1}\x00"

    body = ESCAPED.sub(stash, text)
    try:
        nodes = _parse(body)
    except _Unsupported as exc:
        return Rendered("", [f"template left out: {exc}"])
    out: list[str] = []
    _run(nodes, resolve, out, warnings)
    result = "".join(out)
    for i, chunk in enumerate(escaped):
        result = result.replace(f"\x00{i}\x00", chunk)
    return Rendered(result, warnings)


def _run(nodes: list[Any], resolve: Callable[[str], Any], out: list[str], warnings: list[str]) -> None:
    for node in nodes:
        if isinstance(node, str):
            out.append(node)
        elif isinstance(node, _If):
            for cond, branch in node.branches:
                if cond is not None:
                    try:
                        taken = truthy(evaluate(cond, resolve))
                    except ExprError as exc:
                        warnings.append(f"condition {cond!r}: {exc}; branch not taken")
                        taken = False
                else:
                    taken = True
                if taken:
                    _run(branch, resolve, out, warnings)
                    break
        elif node[0] == "out":
            try:
                out.append(show(evaluate(node[1], resolve)))
            except ExprError as exc:
                warnings.append(f"output {node[1]!r}: {exc}; printed nothing")
        elif (call := _WRITE.match(node[1])) is not None and call.group(1).lower() == "execvar":
            warnings.append(f"{node[1][:40]!r} skipped: execvar runs a variable's template, which needs the full EJS mode")
        else:
            warnings.append(f"{node[1][:40]!r} ignored: templates only read variables here")


def strip_templates(text: str) -> tuple[str, int]:
    """``text`` without its templates, and how many constructs went: tags and whole ``if``
    blocks (every branch: which one would have shown is a world's business). A template this
    subset cannot parse is cut at its first tag, so no part of it survives."""
    if "<%" not in text:
        return text, 0
    try:
        nodes = _parse(text)
    except _Unsupported:
        return text[:text.index("<%")], 1
    kept = [n for n in nodes if isinstance(n, str)]
    return "".join(kept), len(nodes) - len(kept)
