"""The runtime tool catalogue: pydantic argument models and tool definitions.

The tools are executed by the host's runtime (it owns the world store); this plugin only
declares them -- names, localized descriptions, argument models -- so the kernel's tool
registry and the compiler's tool universe agree. The registered handler raises a clear
error if something calls it without a host runtime.
"""

from __future__ import annotations

import functools
import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from lwcore.api import LwError, localized
from lw_narraeon.dirhandles import parse_dir_handle
from lw_narraeon.errors import DirHandleError
from lw_narraeon.tool_texts import DESCRIPTIONS, RUNTIME_TOOL_NAMES


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _dir_handle(value: str) -> str:
    try:
        parse_dir_handle(value)
    except DirHandleError as exc:
        raise ValueError(exc.message) from None
    return value


class StateListArgs(_Args):
    parent: str = Field(description="@dir-/ or an @dir-* handle")
    cursor: str | None = None
    limit: int = Field(50, ge=1, le=100)

    @field_validator("parent")
    @classmethod
    def _check_parent(cls, value: str) -> str:
        return _dir_handle(value)


class HistoryListArgs(_Args):
    order: Literal["newest_first", "oldest_first"]
    cursor: str | None = None
    limit: int = Field(50, ge=1, le=100)


class ContextSearchArgs(_Args):
    scope: Literal["state", "history"]
    query: str = Field(min_length=1)
    within: str | None = Field(None, description="an @document or @dir-* handle")
    cursor: str | None = None
    limit: int = Field(20, ge=1, le=100)


class ContextReadArgs(_Args):
    target: str = Field(min_length=2, pattern=r"^@")


class MetadataPatch(_Args):
    title: str | None = None
    summary: str | None = None
    aliases: list[str] | None = None


class YamlLocator(_Args):
    yaml: list[str | int]


class MarkdownLocator(_Args):
    markdown: list[str]


class Edit(_Args):
    op: Literal["replace", "add", "append", "remove", "replace_section", "replace_preamble", "replace_body"]
    locator: YamlLocator | MarkdownLocator | None = None
    value: Any = None
    markdown: str | None = None


class WorldPatchArgs(_Args):
    target: str = Field(min_length=2, pattern=r"^@")
    set_metadata: MetadataPatch | None = None
    edits: list[Edit] = Field(default_factory=list)


class WorldCreateArgs(_Args):
    parent: str = Field(description="@dir-/ or an @dir-* handle")
    refHint: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]{0,63}$")
    title: str = Field(min_length=1)
    summary: str | None = None
    codec: Literal["yaml", "markdown"] = "markdown"
    body: Any = None

    @field_validator("parent")
    @classmethod
    def _check_parent(cls, value: str) -> str:
        return _dir_handle(value)


class WorldRetireArgs(_Args):
    target: str = Field(min_length=2, pattern=r"^@")
    retired: bool


class WorldCheckpointArgs(_Args):
    pass


class ArtifactEmitArgs(_Args):
    output: str = Field(min_length=1)
    payload: Any


class ArtifactClearArgs(_Args):
    output: str = Field(min_length=1)


ARG_MODELS: dict[str, type[BaseModel]] = {
    "state_list": StateListArgs,
    "history_list": HistoryListArgs,
    "context_search": ContextSearchArgs,
    "context_read": ContextReadArgs,
    "world_patch": WorldPatchArgs,
    "world_create": WorldCreateArgs,
    "world_retire": WorldRetireArgs,
    "world_checkpoint": WorldCheckpointArgs,
    "artifact_emit": ArtifactEmitArgs,
    "artifact_clear": ArtifactClearArgs,
}


@functools.cache
def _schema_text(name: str) -> str:
    """The JSON Schema of tool ``name``'s arguments as JSON text (generating it costs ~0.3 ms)."""
    return json.dumps(ARG_MODELS[name].model_json_schema())


def runtime_tool_definitions(
    names: tuple[str, ...] | list[str] | None = None, *, locale: str = "en"
) -> list[dict[str, Any]]:
    """``[{name, description, inputSchema}]`` for the tool universe of a compilation.

    ``locale`` is ``en`` or ``zh-CN`` (``zh*`` picks Chinese). Unknown names are skipped.
    """
    chosen = RUNTIME_TOOL_NAMES if names is None else tuple(n for n in names if n in ARG_MODELS)
    return [
        {
            "name": name,
            "description": localized(DESCRIPTIONS[name], locale),
            "inputSchema": json.loads(_schema_text(name)),  # a fresh copy per call
        }
        for name in chosen
    ]
