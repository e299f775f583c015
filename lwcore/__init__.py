"""lwcore: the Loreweaver plugin-host kernel.

``import lwcore`` is cheap: the names below are imported on first attribute access.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself is not imported: `lw --version` imports only this file
if TYPE_CHECKING:
    from typing import Any

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


def lazy_exports(package: str, table: dict[str, str]) -> Any:
    """A module ``__getattr__`` importing ``table[name]`` (a module path) on first access and
    caching the value in the package's namespace; shared by ``lwcore`` and its subpackages."""
    import sys

    def __getattr__(name: str) -> Any:
        module = table.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        import importlib

        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__


__getattr__ = lazy_exports(__name__, _LAZY)
