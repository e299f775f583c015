"""lwcore: the Loreweaver plugin-host kernel.

``import lwcore`` is cheap: the names below are imported on first attribute access.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_LAZY = {
    "Kernel": "lwcore.kernel",
    "InProcessPlugin": "lwcore.plugins",
    "PluginRecord": "lwcore.plugins",
    "LwError": "lwcore.errors",
    "hookimpl": "lwcore.hookspecs",
    "TurnContext": "lwcore.contributions",
    "PromptSegment": "lwcore.contributions",
    "ToolSpec": "lwcore.contributions",
    "Viewer": "lwcore.contributions",
}

__all__ = ["__version__", *_LAZY]

if TYPE_CHECKING:
    from lwcore.contributions import PromptSegment, ToolSpec, TurnContext, Viewer
    from lwcore.errors import LwError
    from lwcore.hookspecs import hookimpl
    from lwcore.kernel import Kernel
    from lwcore.plugins import InProcessPlugin, PluginRecord


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'lwcore' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
