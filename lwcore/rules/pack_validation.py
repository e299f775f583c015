"""A pack's data against the rulepack format (:mod:`lwcore.rules.model`), every problem at once.

- Every pydantic error becomes a located :class:`~lwcore.rules.errors.RulepackError` (all of
  them, not the first); an unknown key where the format forbids one (inside ``resolution``)
  says which key was probably meant.
- Keys the engine does not read where the format allows extra keys (the top level, a sheet,
  a command, a resource) are located warnings with a "did you mean": a newer pack still loads,
  and a typo does not pass silently. ``lw rulepack validate --strict`` makes them errors.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from lwcore.io.safe_yaml import Positions
from lwcore.rules.diagnostics import Diagnostics, did_you_mean
from lwcore.rules.model import Rank, Rulepack

FREE_KEYS: dict[tuple[str, ...], tuple[str, ...]] = {
    ("st_show",): ("top", "itemsPerLine"),
    ("creation_constraints",): ("method", "roll", "point_buy", "array", "range", "ranges", "attributes"),
}
"""Sections typed as plain mappings whose keys the engine still knows."""


def validate_pack(data: Mapping[str, Any], positions: Positions, file: str | None) -> tuple[Rulepack, list[str]]:
    """``(model, warnings)`` for merged pack data; a located error (all of them) otherwise."""
    diag = Diagnostics(positions, file)
    _walk(Rulepack, data, (), diag)
    for path, known in FREE_KEYS.items():
        section = data.get(path[0])
        if isinstance(section, Mapping):
            for key in section:
                if key not in known:
                    diag.unknown_key(key, path, known)
    try:
        model = Rulepack.model_validate(dict(data))
    except ValidationError as exc:
        _report(exc.errors(include_url=False), data, diag)
        diag.raise_errors()
        raise AssertionError("unreachable") from exc
    return model, diag.warnings


def _data_path(loc: list[Any], data: Mapping[str, Any], extra: bool) -> list[Any]:
    """The deepest part of pydantic's ``loc`` that exists in the data (union-member names,
    which pydantic adds to ``loc``, are cut off); an unknown key keeps its own name."""
    path: list[Any] = []
    node: Any = data
    for part in loc:
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        else:
            if isinstance(node, Mapping) and extra:
                path.append(part)
            break
        path.append(part)
    return path


def _report(errors: list[Any], data: Mapping[str, Any], diag: Diagnostics) -> None:
    """Every pydantic error, located; the members of one failed union make one message."""
    seen: dict[tuple[Any, ...], list[str]] = {}
    for error in errors:
        loc = [p for p in error["loc"] if not (isinstance(p, str) and p.startswith(("function-", "tagged-union")))]
        extra = error["type"] == "extra_forbidden"
        path = tuple(_data_path(loc, data, extra))
        if extra:
            known = _fields_at(list(path[:-1]))
            hint = did_you_mean(str(path[-1]), known)
            diag.error(f"unknown key{hint}" + (f"; known keys: {', '.join(known)}" if known and not hint else ""),
                       path, key=True)
            continue
        seen.setdefault(path, []).append(str(error["msg"]).replace("Value error, ", ""))
    for path, messages in seen.items():
        message = messages[0]
        if len(messages) > 1:
            shape = _shape_hint(path)
            message = f"wrong shape ({shape})" if shape else "; ".join(dict.fromkeys(messages))
        diag.error(message, path)


def _shape_hint(path: tuple[Any, ...]) -> str:
    if path and path[0] == "labels":
        return "a label is text, a list of text, or {display, markers}"
    if "else" in path:
        return "else is a value or {expr, format}"
    if path and path[0] == "defaults":
        return "a default is a number, text or true/false"
    return ""


def _fields_at(path: list[Any]) -> list[str]:
    """The field names the model expects at ``path`` (for "did you mean")."""
    model: Any = Rulepack
    skip = False  # the next part is a key of a dict of models, or an index of a list
    for part in path:
        if skip:
            skip = False
            continue
        found = _field_model(model, part) if isinstance(part, str) else None
        if found is None:
            return []
        container, model = found
        skip = container in ("dict", "list")
    return [f.alias or name for name, f in model.model_fields.items()]


def _models_in(annotation: Any) -> list[tuple[str, type[BaseModel]]]:
    """``(container, model)`` pairs inside a field's type: ``("", M)`` for ``M | None``,
    ``("dict", M)`` for ``dict[str, M]``, ``("list", M)`` for ``list[M]``."""
    origin = typing.get_origin(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [("", annotation)]
    if origin in (typing.Union, types.UnionType):
        return [pair for arg in typing.get_args(annotation) for pair in _models_in(arg)]
    if origin is dict:
        return [("dict", m) for _c, m in _models_in(typing.get_args(annotation)[1]) if _c == ""]
    if origin is list:
        return [("list", m) for _c, m in _models_in(typing.get_args(annotation)[0]) if _c == ""]
    return []


def _field_model(model: type[BaseModel], key: str) -> tuple[str, type[BaseModel]] | None:
    """``(container, model)`` of the field ``key`` when it holds one kind of model."""
    for name, info in model.model_fields.items():
        if key in (name, info.alias):
            found = _models_in(info.annotation)
            return found[0] if len(found) == 1 else None
    return None


def _walk(model: type[BaseModel], data: Any, path: tuple[Any, ...], diag: Diagnostics) -> None:
    """Warn about keys a model keeps without reading (``extra="allow"``); recurse into fields."""
    if not isinstance(data, Mapping):
        return
    fields = {(info.alias or name): info for name, info in model.model_fields.items()}
    allows_extra = model.model_config.get("extra") == "allow"
    for key, value in data.items():
        info = fields.get(key)
        if info is None:
            if allows_extra and model is not Rank:
                diag.unknown_key(key, path, fields)
            continue
        for container, sub in _models_in(info.annotation):
            if container == "" and isinstance(value, Mapping):
                _walk(sub, value, (*path, key), diag)
            elif container == "dict" and isinstance(value, Mapping):
                for k, v in value.items():
                    _walk(sub, v, (*path, key, k), diag)
            elif container == "list" and isinstance(value, list):
                for i, v in enumerate(value):
                    _walk(sub, v, (*path, key, i), diag)
