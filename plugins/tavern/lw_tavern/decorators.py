"""Leading ``@@decorator`` lines of world-book entry content.

SillyTavern strips every leading line that starts with ``@@`` from an entry's content and
keeps the ones it knows (``@@activate``, ``@@dont_activate``); a line ``@@@name`` is a fallback
that is only read when the decorator before it was unknown. Card authors use the same lines
for other tools: ST-Prompt-Template's ``@@if <expr>`` (an entry condition),
``@@initial_variables`` (an MVU variable declaration), ``@@render_before``/``@@render_after``/
``@@iframe``/``@@message_formatting`` (front-end rendering). :func:`split_decorators` reads
them all with SillyTavern's rules, one parser for the engine and the importers.
"""

from __future__ import annotations

from dataclasses import dataclass

ENGINE_DECORATORS = ("@@activate", "@@dont_activate")
"""The decorators SillyTavern's world-info engine knows."""
KNOWN_DECORATORS = ENGINE_DECORATORS + (
    "@@if", "@@initial_variables", "@@render_before", "@@render_after", "@@iframe", "@@message_formatting",
)
RENDER_ONLY = frozenset({"render_before", "render_after", "iframe", "message_formatting"})


@dataclass(frozen=True)
class Decorator:
    """One decorator line: ``line`` verbatim, ``name`` without ``@@``, ``arg`` the rest."""

    line: str
    name: str
    arg: str


def _known(line: str) -> bool:
    data = line[1:] if line.startswith("@@@") else line
    return any(data.startswith(d) for d in KNOWN_DECORATORS)


def split_decorators(content: str) -> tuple[tuple[Decorator, ...], str]:
    """``(decorators, content without them)`` with SillyTavern's ``parseDecorators`` rules.

    Only content that starts with ``@@`` has decorators. When every line is a decorator the
    content is kept whole (SillyTavern does the same: there is no body to cut to).
    """
    if not content.startswith("@@"):
        return (), content
    lines = content.split("\n")
    found: list[Decorator] = []
    rest = content
    fallback = False
    for i, line in enumerate(lines):
        if not line.startswith("@@"):
            rest = "\n".join(lines[i:])
            break
        if line.startswith("@@@") and not fallback:
            continue
        if _known(line):
            text = line[1:] if line.startswith("@@@") else line
            head, _, arg = text[2:].partition(" ")
            found.append(Decorator(text, head.strip(), arg.strip()))
            fallback = False
        else:
            fallback = True
    return tuple(found), rest


def has_line(decorators: tuple[Decorator, ...], line: str) -> bool:
    """Whether one decorator line is exactly ``line`` (SillyTavern compares whole lines)."""
    return any(d.line == line for d in decorators)


def named(decorators: tuple[Decorator, ...], name: str) -> Decorator | None:
    """The first decorator called ``name`` (``if``, ``initial_variables`` …)."""
    return next((d for d in decorators if d.name == name), None)
