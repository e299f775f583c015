"""A pack's YAML files read with every problem located (file, line, column): shared by the
panels files (:mod:`lw_panels.load`) and the presentation kits (:mod:`lw_panels.presentation`)."""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping, Set as AbstractSet
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from lw_panels.packs import AssetReader
from lwcore.api import BLOCK_KINDS as KINDS, YAML_LIMITS, LwError, YamlPositions as Positions, load_yaml


def data_path(data: Any, loc: tuple[Any, ...]) -> tuple[list[Any], str]:
    """The data path of a pydantic location and its reading (``panels[0].blocks[2].max``):
    what pydantic adds for unions (member names, a template block's ``block``/``repeat`` tag,
    a block's kind tag, a binding's tag) is not data and is left out."""
    path: list[Any] = []
    node = data
    parts = list(loc)
    i = 0
    while i < len(parts):
        part = parts[i]
        i += 1
        if isinstance(part, int) and isinstance(node, list) and 0 <= part < len(node):
            node = node[part]
            path.append(part)
            if isinstance(node, Mapping):
                if i < len(parts) and parts[i] in ("block", "repeat") and i + 1 < len(parts) and (
                        parts[i] == "block" or parts[i + 1] == "repeat"):
                    i += 1
                if i < len(parts) and parts[i] == node.get("kind") and parts[i] in KINDS:
                    i += 1
        elif isinstance(node, Mapping) and part in node:
            node = node[part]
            path.append(part)
    text = "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else str(p)) for i, p in enumerate(path))
    return path, text


def located_at(positions: Positions, file: str | Path, path: list[Any] | tuple[Any, ...], message: str,
               **kw: Any) -> LwError:
    """An error at ``path`` of the data read from ``file`` (its line and column when known)."""
    pos = positions.find(tuple(path))
    return LwError(message, file=file, line=pos.line if pos and pos.line else None,
                   column=pos.column if pos and pos.column else None, **kw)


def validate(model: type[BaseModel], data: Any, file: str | Path, positions: Positions,
             skip: AbstractSet[tuple[Any, ...]] = frozenset()) -> tuple[Any, list[LwError]]:
    """``model`` validated from ``data``: ``(instance or None, located problems)`` -- one
    problem per place (a union's alternatives say the same thing several times); places in
    ``skip`` were already reported more precisely."""
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        problems, seen = [], set(skip)
        for error in exc.errors(include_url=False):
            path, text = data_path(data, tuple(error["loc"]))
            message = str(error["msg"]).removeprefix("Value error, ")
            key: tuple[Any, ...] = tuple(path)
            if error["type"] == "missing" and error["loc"] and isinstance(error["loc"][-1], str):
                # located at the mapping that lacks it (the key is not in the file): say which key
                name = error["loc"][-1]
                text = f"{text}.{name}" if text else name
                choices = _choices(model, tuple(error["loc"]))
                message = "required" + (f": one of {', '.join(choices)}" if choices else "")
                key = (*key, name)
            if key in seen:
                continue
            seen.add(key)
            problems.append(located_at(positions, file, path, f"{text}: {message}" if text else message,
                                       code="invalid"))
        return None, problems


def _choices(model: Any, loc: tuple[Any, ...]) -> list[str]:
    """The values a ``Literal`` field at ``loc`` allows (``[]`` when it is not one): what a
    message about a missing field names (``slot: required: one of sidebar, tray, modal``)."""
    node: Any = model
    for part in loc:
        node = _unwrap(node)
        if isinstance(part, int):
            args = [a for a in typing.get_args(node) if a is not type(None)]
            node = args[0] if typing.get_origin(node) in (list, tuple) and args else None
        elif isinstance(node, type) and issubclass(node, BaseModel) and part in node.model_fields:
            node = node.model_fields[part].annotation
        else:
            return []
    node = _unwrap(node)
    return [str(v) for v in typing.get_args(node)] if typing.get_origin(node) is typing.Literal else []


def _unwrap(annotation: Any) -> Any:
    """``Annotated[X, …]`` and ``X | None`` read as ``X``."""
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
        elif origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(annotation) if a is not type(None)]
            if len(args) != 1:
                return annotation
            annotation = args[0]
        else:
            return annotation


def read_yaml_file(reader: AssetReader, rel: str, what: str) -> tuple[Any, Positions, str]:
    """``(data, positions, display name)`` of one YAML file of the pack."""
    try:
        raw = reader.files.read_bytes(rel, max_bytes=YAML_LIMITS.max_bytes)
    except LwError as exc:
        raise LwError(f"the {what} {rel} named by the pack cannot be read: {exc.message}", file=exc.file,
                      code=exc.code) from None
    file = reader.files.display(rel)
    data, positions = load_yaml(raw, file, positions=True)
    return data, positions, file
