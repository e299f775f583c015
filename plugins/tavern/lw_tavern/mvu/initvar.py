"""Variable declaration entries: ``[InitVar]``, ``[InitialVariables]``, ``@@initial_variables``.

An MVU card declares its variable tree in a world-book entry: the entry's name contains
``InitVar`` (``[InitVar]变量初始化``), or ``[InitialVariables]``, or its content starts with an
``@@initial_variables`` line. The content is a JSON5 object (comments, trailing commas,
unquoted Chinese keys, ``[value, "description"]`` leaves), or, in newer cards, YAML of the same
tree. Such an entry is data, not lore: it seeds the room's tree and is never injected.

:func:`is_declaration` is the one test of "is this a declaration" (the card split and the
import use it both); :func:`parse_initvar` reads one; :func:`seed` merges it into a tree
without resetting progress (values already there win).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from lwcore.errors import LwError
from lwcore.io import load_yaml

from lw_tavern.decorators import named, split_decorators
from lw_tavern.mvu.json5 import Json5Error, parse_json5


def _title(entry: Mapping[str, Any] | Any) -> str:
    if isinstance(entry, Mapping):
        for name in ("comment", "title", "name"):
            if isinstance(entry.get(name), str) and entry[name]:
                return str(entry[name])
        return ""
    return str(getattr(entry, "comment", "") or "")


def _content(entry: Mapping[str, Any] | Any) -> str:
    value = entry.get("content") if isinstance(entry, Mapping) else getattr(entry, "content", "")
    return value if isinstance(value, str) else ""


def is_declaration(entry: Mapping[str, Any] | Any) -> bool:
    """Whether a world-book entry (a model or a raw dict) declares MVU variables."""
    title = _title(entry)
    if "initvar" in title.lower() or "[initialvariables]" in title.replace(" ", "").lower():
        return True
    decorators, _ = split_decorators(_content(entry))
    return named(decorators, "initial_variables") is not None


def parse_initvar(content: str, *, where: str = "", file: str | None = None) -> dict[str, Any]:
    """The variable tree a declaration entry holds (its decorator lines skipped).

    JSON5 first; a text that does not open with ``{`` or ``[`` is then read as YAML (by the
    kernel's safe reader); the result must be an object.
    A text that is neither is a located :class:`LwError` (``where`` names the entry).
    """
    _, body = split_decorators(content)
    prefix = f"{where}: " if where else ""
    try:
        data = parse_json5(body)
    except Json5Error as first:
        # a text that opens like JSON5 is JSON5; only a block of YAML is read as YAML
        data = None if re.match(r"\s*(//[^\n]*\n\s*|/\*.*?\*/\s*)*[\[{]", body, re.DOTALL) else _yaml(body)
        if data is None:
            raise LwError(f"{prefix}not a JSON5 (or YAML) object: {first.message}", file=file, line=first.line,
                          column=first.column, code="syntax") from None
    if not isinstance(data, dict):
        raise LwError(f"{prefix}the declaration is a {type(data).__name__}, not an object", file=file,
                      code="invalid", expected="{...}")
    return data


def _yaml(text: str) -> Any:
    try:
        data = load_yaml(text)
    except LwError:
        return None
    return data if isinstance(data, dict) else None


def seed(tree: Mapping[str, Any], initial: Mapping[str, Any]) -> dict[str, Any]:
    """``tree`` with what ``initial`` declares and it lacks: objects merge key by key, a value
    already in the tree stays (a re-import never resets progress)."""
    out = copy.deepcopy(dict(tree))
    for key, value in initial.items():
        if key not in out:
            out[key] = copy.deepcopy(value)
        elif isinstance(out[key], dict) and isinstance(value, Mapping):
            out[key] = seed(out[key], value)
    return out
