"""Hook implementations of the providers plugin (light: adapters are lazy references)."""

from __future__ import annotations

from typing import Any

from lwcore.api import CommandRef, ProviderAdapter, Register, hookimpl


@hookimpl
def lw_provider_adapters(register: Register[ProviderAdapter]) -> None:
    register(
        ProviderAdapter(
            protocol="anthropic_messages",
            adapter="lw_providers.adapters:ANTHROPIC_MESSAGES",
            description={"en": "Anthropic Messages API shapes", "zh": "Anthropic Messages API 形状"},
        )
    )
    register(
        ProviderAdapter(
            protocol="chat_completions",
            adapter="lw_providers.adapters:CHAT_COMPLETIONS",
            description={"en": "OpenAI-compatible Chat Completions shapes", "zh": "OpenAI 兼容的 Chat Completions 形状"},
        )
    )
    register(
        ProviderAdapter(
            protocol="openai_responses",
            adapter="lw_providers.adapters:RESPONSES",
            description={"en": "OpenAI Responses API shapes", "zh": "OpenAI Responses API 形状"},
        )
    )


@hookimpl
def lw_cli(register: Register[Any]) -> None:
    register(CommandRef("provider", "lw_providers.cli:provider", "Provider profiles: how a room reaches its model."))
