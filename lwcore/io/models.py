"""Validating data read from outside against a pydantic model, with located errors.

One function for every file format: each pydantic error becomes a :class:`LwError` at the
line and column of the offending value (when the data came with :class:`Positions`), and all
of them are reported at once (:class:`lwcore.errors.LwErrors`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from lwcore.errors import LwError, LwErrors
from lwcore.io.limits import JSON_LIMITS, YAML_LIMITS, Limits
from lwcore.io.safe_json import read_json
from lwcore.io.safe_yaml import Positions, read_yaml

if TYPE_CHECKING:
    from pydantic import BaseModel

M = TypeVar("M", bound="BaseModel")


def _data_path(data: Any, loc: tuple[Any, ...]) -> tuple[list[Any], Any]:
    """The part of pydantic's ``loc`` that walks the data (union-member names cut off)."""
    path: list[Any] = []
    node = data
    for part in loc:
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        else:
            continue
        path.append(part)
    return path, node


def validate_model(
    model: type[M],
    data: Any,
    *,
    file: str | Path | None = None,
    positions: Positions | None = None,
    strict: bool | None = None,
    context: Mapping[str, Any] | None = None,
) -> M:
    """``model.model_validate(data)``; every failure is a located error, all reported.

    ``strict=True`` refuses what pydantic would otherwise coerce (``"5"`` or ``true`` for an
    integer, ``50.7`` for an int): use it wherever the data comes from outside and the format
    does not say a coercion is meant.
    """
    from pydantic import ValidationError

    name = str(file) if file is not None else None
    try:
        return model.model_validate(data, strict=strict, context=context)
    except ValidationError as exc:
        problems = []
        for error in exc.errors(include_url=False):
            path, _ = _data_path(data, tuple(error["loc"]))
            where = ".".join(str(p) for p in error["loc"] if not (isinstance(p, str) and p.startswith(("function-", "tagged-union")))) or "(top)"
            pos = positions.find(path) if positions is not None else None
            message = f"{where}: {error['msg']}"
            if "input" in error and error["type"] not in ("missing",) and _short(error["input"]):
                message += f" (got {_short(error['input'])})"
            problems.append(
                LwError(message, file=(pos.file if pos and pos.file else name),
                        line=pos.line if pos and pos.line else None,
                        column=pos.column if pos and pos.column else None, code="invalid")
            )
        raise (problems[0] if len(problems) == 1 else LwErrors(problems)) from None


def _short(value: Any) -> str:
    """A short rendering of a bad input for an error message (never a whole document)."""
    if isinstance(value, (Mapping, list)):
        return ""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def reader_limits(path: str | Path) -> Limits:
    """The limits :func:`read_document` reads ``path`` with (by its suffix): what a writer of
    that file must stay within."""
    return JSON_LIMITS if str(path).lower().endswith(".json") else YAML_LIMITS


def read_document(path: str | Path) -> tuple[Any, Positions | None]:
    """A data file by its suffix: ``.json`` with the JSON reader, anything else as YAML
    (with positions). Returns ``(data, positions or None)``."""
    if str(path).lower().endswith(".json"):
        return read_json(path, limits=reader_limits(path)), None
    data, positions = read_yaml(path, positions=True, limits=reader_limits(path))
    return data, positions
