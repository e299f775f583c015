"""The effects a sandboxed script may request, as typed models the engine validates and applies.

A script never changes anything: it *asks*, and an effect is what it asked for, read back as
JSON after the run and checked here before any engine code sees it. The sandbox checks shape
and size; the engine later checks meaning (a declared variable's bounds, whether a panel
exists, whether a planned tool is reachable) and clamps or refuses.

Every effect carries ``line``: the line of the script that emitted it (``None`` when unknown),
so a refusal can point at the call.

=================  ===================================================  ==================
kind               fields                                               limits (per run)
=================  ===================================================  ==================
``setvar``         ``path`` (keys), ``value`` (any JSON)                64 writes with
``incvar``         ``path``, ``by`` (finite number; ``decvar`` is a     ``incvar``
                   negative ``by``)
``inject``         ``text``: a section for this turn's keeper prompt    8 × 4,000 chars
``narrate``        ``text``: appended to the player-visible reply       8 × 2,000 chars
``rewriteReply``   ``text``: replaces the player-visible reply          1 × 8,000 chars
``log``            ``text``: a line for the operator's log              32 × 1,000 chars
``emitUI``         ``blocks`` (tier-0 blocks), ``options``              8 × 16 blocks
``emitPanel``      ``panel`` (``pack/panel``), ``payload`` (any JSON)    20 × 32 KiB
``plan``           ``tool``, ``args`` (an object)                       200 × 8 KiB
=================  ===================================================  ==================

Sizes of text are in characters (code points); payload and arguments sizes in UTF-8 bytes of
their compact JSON.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError, model_validator

from lwcore.sandbox.runtime import Failure, SandboxFailed
from lwcore.ui.blocks import (  # noqa: F401 - the tier-0 blocks live in lwcore.ui; re-exported for scripts' callers
    ID_PATTERN,
    LOCALE_PATTERN,
    MAX_LABEL,
    MAX_OPTIONS,
    MAX_UI_TEXT,
    SHA256,
    BadgeBlock,
    Block,
    Choice,
    ChoicesBlock,
    DividerBlock,
    ImageBlock,
    Label,
    LongText,
    MeterBlock,
    StatBlock,
    Strict,
    TextBlock,
    UIOptions,
)

CAPS: Mapping[str, int] = {
    "writes": 64, "inject": 8, "narrate": 8, "rewriteReply": 1, "log": 32, "emitUI": 8, "emitPanel": 20, "plan": 200,
}
"""How many of each effect one run may emit (``writes`` counts ``setvar`` and ``incvar``)."""

MAX_TEXT = {"inject": 4000, "narrate": 2000, "rewriteReply": 8000, "log": 1000}
MAX_BLOCKS = 16
MAX_PANEL_BYTES = 32 * 1024
MAX_ARGS_BYTES = 8 * 1024
MAX_KEY = 200
PANEL_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}/[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
TOOL_PATTERN = r"^[A-Za-z][A-Za-z0-9_.-]{0,63}$"


Key = Annotated[str, StringConstraints(min_length=1, max_length=MAX_KEY)]
VariablePath = Annotated[list[Key], Field(min_length=1, max_length=32)]
"""Keys from the state's root: ``["角色", "好感度"]``."""


class _Effect(Strict):
    line: int | None = None


class SetVar(_Effect):
    """Set the variable at ``path`` (keys from the state's root) to ``value``."""

    kind: Literal["setvar"]
    path: VariablePath
    value: Any


class IncVar(_Effect):
    """Add ``by`` to the number at ``path`` (a missing one counts as 0)."""

    kind: Literal["incvar"]
    path: VariablePath
    by: int | float


class Inject(_Effect):
    kind: Literal["inject"]
    text: Annotated[str, StringConstraints(max_length=MAX_TEXT["inject"])]


class Narrate(_Effect):
    kind: Literal["narrate"]
    text: Annotated[str, StringConstraints(max_length=MAX_TEXT["narrate"])]


class RewriteReply(_Effect):
    kind: Literal["rewriteReply"]
    text: Annotated[str, StringConstraints(max_length=MAX_TEXT["rewriteReply"])]


class Log(_Effect):
    kind: Literal["log"]
    text: Annotated[str, StringConstraints(max_length=MAX_TEXT["log"])]


class EmitUI(_Effect):
    kind: Literal["emitUI"]
    blocks: Annotated[list[Block], Field(min_length=1, max_length=MAX_BLOCKS)]
    options: UIOptions = UIOptions()


_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
"""Made once: ``json.dumps`` with options builds a new encoder on every call (a third of the
size check's cost, which a 200-operation plan pays 200 times)."""


def _json_bytes(value: Any) -> int:
    return len(_COMPACT.encode(value).encode("utf-8"))


class EmitPanel(_Effect):
    """An opaque JSON payload for one panel of a pack (``pack/panel``)."""

    kind: Literal["emitPanel"]
    panel: Annotated[str, StringConstraints(pattern=PANEL_PATTERN)]
    payload: Any

    @model_validator(mode="after")
    def _size(self) -> EmitPanel:
        size = _json_bytes(self.payload)
        if size > MAX_PANEL_BYTES:
            raise ValueError(f"the payload is {size} bytes of JSON; the limit is {MAX_PANEL_BYTES}")
        return self


class Plan(_Effect):
    """One planned tool call."""

    kind: Literal["plan"]
    tool: Annotated[str, StringConstraints(pattern=TOOL_PATTERN)]
    args: dict[str, Any]

    @model_validator(mode="after")
    def _size(self) -> Plan:
        size = _json_bytes(self.args)
        if size > MAX_ARGS_BYTES:
            raise ValueError(f"the arguments are {size} bytes of JSON; the limit is {MAX_ARGS_BYTES}")
        return self


Effect = Annotated[
    Union[SetVar, IncVar, Inject, Narrate, RewriteReply, Log, EmitUI, EmitPanel, Plan],
    Field(discriminator="kind"),
]
"""Any effect; ``kind`` tells which."""

_ADAPTER: TypeAdapter[Any] = TypeAdapter(Effect)


_LIST_TAGS = {"meter", "stat", "badge", "text", "divider", "choices", "image", "adjust", "set", "flag", "note"}
"""Discriminator values pydantic puts in a location after a list index (UI blocks, rule effects)."""
_UNION_TAGS = {"str", "int", "float", "bool", "none"}
_FIELD = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _where(loc: tuple[Any, ...]) -> str:
    """``blocks[0].max`` from pydantic's location, without its union and tag entries."""
    parts: list[str] = []
    previous: Any = None
    for item in loc:
        if isinstance(item, int):
            parts.append(f"[{item}]")
        elif not ((item in _LIST_TAGS and isinstance(previous, int)) or item in _UNION_TAGS
                  or not _FIELD.match(str(item))):
            parts.append(("." if parts else "") + str(item))
        previous = item
    return "".join(parts)


def parse_effects(raw: Any, allowed: Iterable[str], script: str) -> tuple[Any, ...]:
    """Validate the JSON list a run produced into effects; the first bad one raises
    :class:`SandboxFailed` (``invalid``) located at the line that emitted it."""
    kinds = set(allowed)
    if not isinstance(raw, list):
        raise SandboxFailed(Failure("invalid", "the sandbox returned effects that are not a list", script=script))
    effects = []
    for item in raw:
        kind = item.get("kind") if isinstance(item, dict) else None
        line = item.get("line") if isinstance(item, dict) and isinstance(item.get("line"), int) else None
        if kind not in kinds:
            raise SandboxFailed(Failure("invalid", f"{kind!r} is not an effect this run may request", line, script=script))
        try:
            effects.append(_ADAPTER.validate_python(item))
        except ValidationError as exc:
            raise SandboxFailed(Failure("invalid", f"{kind}(): {first_problem(exc, skip=1)}", line, script=script)) from None
    return tuple(effects)


def first_problem(exc: ValidationError, skip: int = 0) -> str:
    """``where: what`` of a validation's first error, its location read as a script author
    writes it (``blocks[0].max``), ``skip`` leading entries left out."""
    error = exc.errors()[0]
    where = _where(tuple(error["loc"])[skip:])
    message = str(error["msg"]).removeprefix("Value error, ")
    return f"{where}: {message}" if where else message
