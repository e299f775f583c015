"""Running one tool call: only a tool offered this turn, its arguments checked, its failure contained.

:func:`execute_call` is the one path a tool call takes -- a model's, a prep plan's operation.
Every failure (a tool not offered, arguments that are not JSON or do not fit the tool's model,
a :class:`~lwcore.turn.tools.ToolError` or :class:`~lwcore.errors.LwError`, any exception from
a plugin's handler) becomes a :class:`~lwcore.provider_adapter.ToolResult` with ``is_error`` for
the model, never a crash; a plugin's handler that raises anything else, returns something that
is not JSON, or cannot be imported is also recorded on its plugin (:func:`blame`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from lwcore.contributions import resolve
from lwcore.errors import LwError
from lwcore.io.safe_json import load_json
from lwcore.plugins import describe_exception
from lwcore.provider_adapter import ToolCall, ToolResult
from lwcore.turn.tools import ToolContext, ToolError

if TYPE_CHECKING:
    from lwcore.kernel import Kernel


def _error(call: ToolCall, message: str) -> ToolResult:
    return ToolResult(call.id, call.name, {"error": message}, is_error=True)


def validate_arguments(model: type[BaseModel], arguments: Mapping[str, Any]) -> BaseModel:
    """A tool call's arguments as its model's instance: strictly, as JSON gave them (no
    coercion: ``true`` is not ``1``). Raises pydantic's ``ValidationError``."""
    return model.model_validate(dict(arguments), strict=True)


def argument_problems(exc: ValidationError, most: int = 5) -> str:
    """The first problems of a ``ValidationError`` from :func:`validate_arguments`, one line."""
    return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or '(arguments)'}: {e['msg']}" for e in exc.errors()[:most])


def execute_call(kernel: Kernel, call: ToolCall, ctx: ToolContext, offered: Sequence[str]) -> ToolResult:
    """Run one tool call through the registry. Never raises: failures become tool errors.

    ``call.arguments`` is what a reply gave (a mapping, or JSON text) and is validated here;
    or an instance of the tool's own argument model (exactly that class), arguments the engine
    already validated with it (a prep plan's gate), which run as they are."""
    if call.name not in offered:
        return _error(call, f"tool {call.name!r} is not available in this turn")
    spec = kernel.tools[call.name]
    try:
        model = resolve(spec.args_model)
        handler = resolve(spec.handler)
    except Exception as exc:  # noqa: BLE001 - a broken plugin tool must not break the turn
        blame(kernel, call.name, f"tool {call.name!r} cannot be loaded: {describe_exception(exc)}")
        return _error(call, f"tool {call.name!r} is broken: {type(exc).__name__}: {exc}")
    arguments = call.arguments
    if type(arguments) is model:
        args = arguments
    else:
        if isinstance(arguments, str):
            try:
                arguments = load_json(arguments) if arguments.strip() else {}
            except LwError as exc:
                return _error(call, f"arguments are not valid JSON: {exc}")
        if not isinstance(arguments, Mapping):
            return _error(call, f"arguments must be a JSON object, not {type(arguments).__name__}")
        try:
            args = validate_arguments(model, arguments)
        except ValidationError as exc:
            return _error(call, f"invalid arguments: {argument_problems(exc)}")
    try:
        content = handler(args, ctx)
        json.dumps(content, ensure_ascii=False)
    except ToolError as exc:
        return _error(call, str(exc))
    except LwError as exc:
        return _error(call, str(exc))
    except Exception as exc:  # noqa: BLE001 - isolation: one tool never breaks the turn
        blame(kernel, call.name, f"tool {call.name!r} failed: {describe_exception(exc)}")
        return _error(call, f"tool {call.name!r} failed: {type(exc).__name__}: {exc}")
    return ToolResult(call.id, call.name, content)


def blame(kernel: Kernel, tool: str, message: str) -> str:
    """Record a tool's failure on the plugin that registered it (the built-in ``turn`` plugin
    for the turn's own tools): like a failing hook, it shows in ``lw plugins info``; with
    ``strict`` the kernel raises instead. Returns that plugin's id."""
    plugin_id = kernel.tools.origin(tool)
    kernel.plugin_failed(plugin_id, message)
    return plugin_id
