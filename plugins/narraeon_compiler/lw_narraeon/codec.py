"""Validators for saved compiler output: exact key sets, no projection, no rebuilding.

Each ``valid_*`` returns a bool and never raises. Exact key sets: the required keys must
all be present and no key outside required + optional may appear. Accepts the 0.5.2
additions: ``messageRole``/``promptId`` on logical messages, ``preload`` on the provider
payload, and the ``assistant`` provider message role.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from lwcore.api import MAX_SAFE_INTEGER

from lw_narraeon.compiler import CACHE_STRATEGIES, LOGICAL_ROLES, MESSAGE_ROLES, PRELOAD_CALL_ID, PROVIDERS, TOOL_STRATEGIES


def is_record(value: Any) -> bool:
    return isinstance(value, dict)


def has_exact_keys(value: dict[str, Any], required: Iterable[str], optional: Iterable[str] = ()) -> bool:
    required = tuple(required)
    allowed = set(required) | set(optional)
    return all(key in value for key in required) and all(key in allowed for key in value)


def _is_str(value: Any) -> bool:
    return isinstance(value, str)


def valid_count(value: Any) -> bool:
    """``Number.isSafeInteger(value) && value >= 0`` (``true`` is not a number)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return 0 <= value <= MAX_SAFE_INTEGER
    if isinstance(value, float):
        return math.isfinite(value) and value.is_integer() and 0 <= value <= MAX_SAFE_INTEGER
    return False


def valid_finite_number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value)


def valid_string_array(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def is_prompt_message_role(value: Any) -> bool:
    return value in MESSAGE_ROLES if isinstance(value, str) else False


def valid_provider_kind(value: Any) -> bool:
    return isinstance(value, str) and value in PROVIDERS


def valid_cache_strategy(value: Any) -> bool:
    return isinstance(value, str) and value in CACHE_STRATEGIES


def valid_tool_strategy(value: Any) -> bool:
    return isinstance(value, str) and value in TOOL_STRATEGIES


def valid_block(value: Any) -> bool:
    return (
        is_record(value)
        and has_exact_keys(value, ("source", "markdown"))
        and _is_str(value["source"])
        and _is_str(value["markdown"])
    )


def valid_logical_message(value: Any) -> bool:
    return (
        is_record(value)
        and has_exact_keys(value, ("role", "markdown", "blocks"), ("messageRole", "promptId"))
        and ("messageRole" not in value or is_prompt_message_role(value["messageRole"]))
        and ("promptId" not in value or (_is_str(value["promptId"]) and len(value["promptId"]) > 0))
        and isinstance(value["role"], str)
        and value["role"] in LOGICAL_ROLES
        and _is_str(value["markdown"])
        and isinstance(value["blocks"], list)
        and all(valid_block(block) for block in value["blocks"])
    )


def valid_logical_messages(value: Any) -> bool:
    return isinstance(value, list) and all(valid_logical_message(m) for m in value)


def valid_system_block(value: Any) -> bool:
    return (
        is_record(value)
        and has_exact_keys(value, ("type", "text"), ("cache_control",))
        and value["type"] == "text"
        and _is_str(value["text"])
        and (
            "cache_control" not in value
            or (
                is_record(value["cache_control"])
                and has_exact_keys(value["cache_control"], ("type",))
                and value["cache_control"]["type"] == "ephemeral"
            )
        )
    )


def valid_preload(value: Any) -> bool:
    return (
        is_record(value)
        and has_exact_keys(value, ("callId", "markdown"))
        and value["callId"] == PRELOAD_CALL_ID
        and _is_str(value["markdown"])
    )


def valid_prompt_provider(value: Any) -> bool:
    return (
        is_record(value)
        and has_exact_keys(value, ("protocol", "messages"), ("system", "preload"))
        and ("preload" not in value or valid_preload(value["preload"]))
        and valid_provider_kind(value["protocol"])
        and (
            "system" not in value
            or (isinstance(value["system"], list) and all(valid_system_block(b) for b in value["system"]))
        )
        and isinstance(value["messages"], list)
        and all(
            is_record(message)
            and has_exact_keys(message, ("role", "content"))
            and is_prompt_message_role(message["role"])
            for message in value["messages"]
        )
    )


def valid_prompt_tools(value: Any) -> bool:
    return isinstance(value, list) and all(
        is_record(tool)
        and has_exact_keys(tool, ("name", "description", "inputSchema"))
        and _is_str(tool["name"])
        and _is_str(tool["description"])
        and is_record(tool["inputSchema"])
        for tool in value
    )


def valid_prompt_cache(value: Any) -> bool:
    return (
        is_record(value)
        and has_exact_keys(
            value,
            (
                "strategy",
                "stablePrefixFingerprint",
                "breakpoints",
                "estimatedCacheableBytes",
                "firstDynamicByte",
            ),
        )
        and valid_cache_strategy(value["strategy"])
        and _is_str(value["stablePrefixFingerprint"])
        and isinstance(value["breakpoints"], list)
        and all(isinstance(role, str) and role in LOGICAL_ROLES for role in value["breakpoints"])
        and valid_count(value["estimatedCacheableBytes"])
        and valid_count(value["firstDynamicByte"])
    )


_BUDGET_COUNTS = (
    "messageTokens",
    "toolTokens",
    "outputReserveTokens",
    "forcedTailReserveTokens",
    "safetyMarginTokens",
    "requiredTokens",
    "contextWindowTokens",
)


def valid_prompt_budget(value: Any) -> bool:
    return (
        is_record(value)
        and has_exact_keys(value, ("estimator", *_BUDGET_COUNTS, "status"))
        and value["estimator"] in ("conservative_utf8_bytes", "disabled")
        and all(valid_count(value[key]) for key in _BUDGET_COUNTS)
        and value["status"] in ("fits", "over_budget", "not_checked")
    )


def valid_read_authorization(value: Any) -> bool:
    if not is_record(value) or not has_exact_keys(value, ("shortRef", "locator")) or not _is_str(value["shortRef"]):
        return False
    locator = value["locator"]
    if locator is None:
        return True
    if not is_record(locator):
        return False
    if has_exact_keys(locator, ("yaml",)):
        return isinstance(locator["yaml"], list) and all(
            _is_str(part) or valid_finite_number(part) for part in locator["yaml"]
        )
    return has_exact_keys(locator, ("markdown",)) and valid_string_array(locator["markdown"])


def valid_prompt_coverage(value: Any) -> bool:
    return (
        is_record(value)
        and has_exact_keys(
            value,
            ("slot", "source", "status", "complete", "continuation"),
            ("readAuthorization", "catalogEntries"),
        )
        and _is_str(value["slot"])
        and _is_str(value["source"])
        and value["status"] in ("resolved", "optional_missing", "paged_catalog")
        and isinstance(value["complete"], bool)
        and (value["continuation"] is None or _is_str(value["continuation"]))
        and ("readAuthorization" not in value or valid_read_authorization(value["readAuthorization"]))
        and ("catalogEntries" not in value or valid_string_array(value["catalogEntries"]))
    )


def valid_prompt_compilation(value: Any, *, maintenance: Any = None) -> bool:
    """A whole saved compilation. ``maintenance`` (optional key) is checked by the
    ``maintenance`` predicate when given, else only for being present-or-absent."""
    return (
        is_record(value)
        and has_exact_keys(
            value,
            ("logicalMessages", "provider", "tools", "toolUniverse", "toolStrategy", "coverage", "budget", "cache"),
            ("maintenance",),
        )
        and ("maintenance" not in value or maintenance is None or bool(maintenance(value["maintenance"])))
        and valid_logical_messages(value["logicalMessages"])
        and valid_prompt_provider(value["provider"])
        and valid_prompt_tools(value["tools"])
        and valid_prompt_tools(value["toolUniverse"])
        and valid_tool_strategy(value["toolStrategy"])
        and isinstance(value["coverage"], list)
        and all(valid_prompt_coverage(c) for c in value["coverage"])
        and valid_prompt_budget(value["budget"])
        and valid_prompt_cache(value["cache"])
    )
