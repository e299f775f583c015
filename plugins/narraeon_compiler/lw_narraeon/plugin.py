"""Hook implementations of the narraeon_compiler plugin.

Kept light on purpose: no pydantic, no compiler code at import time or in the registration
hooks. Everything heavy is a lazy ``"module:attribute"`` reference.
"""

from __future__ import annotations

from typing import Any

from lwcore.api import CommandRef, PromptCompiler, Register, SchemaRef, hookimpl


@hookimpl
def lw_prompt_compilers(register: Register[PromptCompiler]) -> None:
    for protocol in ("anthropic_messages", "chat_completions", "openai_responses"):
        register(
            PromptCompiler(
                protocol=protocol,
                compile=f"lw_narraeon.compiler:compile_{protocol}",
                description={
                    "en": f"narraeon 0.5.2 ordered prompt compilation for {protocol}",
                    "zh": f"narraeon 0.5.2 有序提示编译（{protocol}）",
                },
            )
        )


@hookimpl
def lw_schemas(register: Register[SchemaRef]) -> None:
    register(SchemaRef("narraeon-compile-request", "lw_narraeon.schemas:CompileRequest",
                       "one line of `lw prompt compile --batch` input"))
    register(SchemaRef("narraeon-compile-response", "lw_narraeon.schemas:CompileResponse",
                       "one line of `lw prompt compile --batch` output"))
    register(SchemaRef("narraeon-logical-message", "lw_narraeon.schemas:LogicalMessage",
                       "a logical prompt message"))


@hookimpl
def lw_cli(register: Register[Any]) -> None:
    register(CommandRef("prompt", "lw_narraeon.cli:prompt",
                        "Compile prompts (narraeon format) and work with directory handles."))
