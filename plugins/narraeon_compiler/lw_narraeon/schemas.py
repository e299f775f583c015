"""Pydantic models publishing the batch formats as JSON Schema (``lw schema NAME``).

The compiler itself validates with :func:`lw_narraeon.compiler.normalize_messages` (faster,
and its messages name the exact failing index); these models describe the same shapes.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Block(BaseModel):
    model_config = ConfigDict(extra="forbid")
    source: str
    markdown: str


class LogicalMessage(BaseModel):
    """A logical prompt message."""

    model_config = ConfigDict(extra="forbid")
    role: Literal["runtime_system", "author_instruction", "world_context", "player_input", "assistant", "tool"]
    markdown: str | None = Field(None, description="defaults to the blocks' markdown, trimmed, joined by a blank line")
    blocks: list[Block] = Field(default_factory=list)
    messageRole: Literal["system", "user", "assistant"] | None = Field(None, description="provider role; default system")
    promptId: str | None = Field(None, min_length=1, description="messages of one prompt merge even with merging off")


class CompileRequest(BaseModel):
    """One line of ``lw prompt compile --batch`` input."""

    model_config = ConfigDict(extra="forbid")
    provider: Literal["anthropic_messages", "chat_completions", "openai_responses"]
    cacheStrategy: Literal["explicit_anthropic_blocks", "explicit_cliproxyapi_message", "provider_managed"] | None = None
    ordered: bool = True
    mergeConsecutiveMessages: bool = True
    callChain: bool = False
    tools: list[dict[str, Any]] | Literal["runtime"] = Field(default_factory=list)
    toolStrategy: Literal["native_allowed_subset", "runtime_gate"] = "native_allowed_subset"
    locale: str = "en"
    messages: list[LogicalMessage]


class CacheInfo(BaseModel):
    stablePrefixFingerprint: str
    estimatedCacheableBytes: int
    firstDynamicByte: int


class ErrorInfo(BaseModel):
    """A refused line: the kernel's located error (as ``lw check --batch`` answers)."""

    code: str
    message: str
    line: int | None = Field(None, description="the request's line in the input (always given by lw prompt compile)")
    column: int | None = None
    byte: int | None = Field(None, description="0-based byte offset in the line, for bytes that are not UTF-8")
    file: str | None = Field(None, description="the input file (null for stdin)")
    expected: str | None = None


class CompileResponse(BaseModel):
    """One line of ``lw prompt compile --batch`` output: a compilation or an error."""

    output: dict[str, Any] | None = None
    stableText: str | None = None
    cache: CacheInfo | None = None
    breakpoints: list[str] | None = None
    error: ErrorInfo | None = None
