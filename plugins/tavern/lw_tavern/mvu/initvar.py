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

from lwcore.api import LwError, load_yaml

from lw_tavern.decorators import named, split_decorators
from lw_tavern.mvu import lodash
from lw_tavern.mvu.json5 import Json5Error, parse_json5
from lw_tavern.mvu.values import ReadError, current


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

    With an MVU reader active (:func:`lw_tavern.mvu.values.reading`: a room's import), the text
    is read as MagVarUpdate reads it (:func:`initvar_text`, then ``parseString``). Otherwise
    JSON5 first; a text that does not open with ``{`` or ``[`` is then read as YAML (by the
    kernel's safe reader). The result must be an object.
    A text that is neither is a located :class:`LwError` (``where`` names the entry).
    """
    prefix = f"{where}: " if where else ""
    reader = current()
    if reader is not None:  # MagVarUpdate's own reading (parseString, in the sandbox)
        (read,) = reader.parse([initvar_text(content)])
        if not reader.missing:
            if isinstance(read, ReadError):
                raise LwError(f"{prefix}{read}", file=file, code="syntax")
            if not isinstance(read, dict):
                raise LwError(f"{prefix}the declaration is {type(read).__name__}, not an object", file=file,
                              code="invalid", expected="{...}")
            return read
    _, body = split_decorators(content)
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


# --- MagVarUpdate's loading (``loadInitVarData``) ---------------------------------------------

_XML = re.compile(r".*<initvar>.*\n([\s\S]*)\n.*</initvar>.*", re.MULTILINE)
_FENCE = re.compile(r"```.*\n([\s\S]*)\n```", re.MULTILINE)


def initvar_text(content: str) -> str:
    """The text MagVarUpdate parses of an ``[InitVar]`` entry: inside ``<initvar>`` tags, inside
    a code fence, else the whole (decorator lines skipped)."""
    _, body = split_decorators(content)
    found = _XML.search(body.strip())
    if found:
        body = found.group(1)
    found = _FENCE.search(body.strip())
    if found:
        body = found.group(1)
    return body


def correctly_merge(into: dict[str, Any], value: Any) -> dict[str, Any]:
    """MagVarUpdate's ``correctlyMerge``: lodash ``merge`` where a list replaces a list."""
    if isinstance(value, str):  # lodash merges a text's characters by index
        value = {str(i): ch for i, ch in enumerate(value)}
    elif isinstance(value, list):
        value = {str(i): item for i, item in enumerate(value)}
    if not isinstance(value, dict):
        return into
    for key, src in value.items():
        if isinstance(src, list):
            into[key] = copy.deepcopy(src)
        elif isinstance(src, dict):
            current = into.get(key)
            if not isinstance(current, (dict, list)):
                current = {} if not isinstance(current, list) else current
                into[key] = current
            if isinstance(current, dict):
                correctly_merge(current, src)
            else:
                lodash.merge(current, src)
        else:
            into[key] = copy.deepcopy(src)
    return into


def load_books(books: Mapping[str, list[Any]], tree: Mapping[str, Any], reader: Any) -> tuple[dict[str, Any], list[str]]:
    """``tree`` after MagVarUpdate's ``loadInitVarData`` over ``books`` (name -> entries in order):
    in each book, its ``[InitVar]`` entries' data merged in order (a later one over an earlier);
    a book with an entry that cannot be read is left out whole; then the tree's own top-level
    keys win over the declared ones (a re-import never resets progress). Returns the tree and
    the problems (one per book left out)."""
    out = dict(copy.deepcopy(dict(tree)))
    problems: list[str] = []
    for name, entries in books.items():
        declared = [e for e in entries if is_declaration(e)]
        if not declared:
            continue
        texts = [initvar_text(_content(e)) for e in declared]
        parsed = reader.parse(texts)
        merged: dict[str, Any] = {}
        failed = None
        for entry, data in zip(declared, parsed):
            if isinstance(data, Exception):
                failed = f"{name}/{_title(entry)}: {data}"
                break
            if data:
                correctly_merge(merged, data)
        if failed is not None:
            problems.append(failed)
            continue
        out = {**merged, **out}
    return out, problems
