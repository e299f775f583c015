"""The registry of subsystem kinds: every module in this package is one kind.

A module here defines ``KIND`` (a :class:`~lwcore.rules.kinds.base.SubsystemKind`); the
registry finds the modules when a kind is first asked for, so adding a kind is adding one
file (see the README next to the rules engine for a worked example). The pack checker, the
dot commands, the renderer and the turn's tools all read kinds from here; the turn's
``subsystem_check`` tool takes the arguments :func:`tool_arguments` lists.
"""

from __future__ import annotations

import importlib
import pkgutil

from lwcore.rules.kinds.base import SubsystemError, SubsystemKind, SubsystemResult, ToolArgument

__all__ = ["SubsystemError", "SubsystemKind", "SubsystemResult", "ToolArgument", "all_kinds", "kind_named", "reset",
           "tool_arguments"]

_KINDS: dict[str, SubsystemKind] | None = None
_ARGUMENTS: dict[str, ToolArgument] | None = None


def _discover() -> dict[str, SubsystemKind]:
    found: dict[str, SubsystemKind] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name == "base" or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        kind = getattr(module, "KIND", None)
        if not isinstance(kind, SubsystemKind) or not kind.name:
            raise TypeError(f"{module.__name__} must define KIND, a named SubsystemKind")
        for word in (kind.name, *kind.aliases):
            if word in found:
                raise TypeError(f"two subsystem kinds are called {word!r}: {found[word].name}, {kind.name}")
            found[word] = kind
    return found


def _registry() -> dict[str, SubsystemKind]:
    global _KINDS
    if _KINDS is None:
        _KINDS = _discover()
    return _KINDS


def kind_named(word: str) -> SubsystemKind | None:
    """The kind a ``kind:`` word (or alias) names, ``None`` for a word no kind answers to."""
    return _registry().get(word)


def all_kinds() -> list[SubsystemKind]:
    """Every kind, each once, by name."""
    return sorted({id(k): k for k in _registry().values()}.values(), key=lambda k: k.name)


def tool_arguments() -> dict[str, ToolArgument]:
    """Every argument a tool call may give some kind, by name, in kind-name order: one
    :class:`ToolArgument` each, its description saying which kinds use it for what. The same
    mapping object until :func:`reset` (a cache key for what is built from it). Two kinds that
    give one name different types or bounds are refused (``TypeError``)."""
    global _ARGUMENTS
    if _ARGUMENTS is None:
        shapes: dict[str, ToolArgument] = {}
        uses: dict[str, list[str]] = {}
        for kind in all_kinds():
            for name, argument in kind.tool_arguments.items():
                first = shapes.setdefault(name, argument)
                if not first.same_shape(argument):
                    raise TypeError(f"subsystem kinds disagree on the tool argument {name!r}: "
                                    f"{first} and {argument} ({kind.name})")
                uses.setdefault(name, []).append(f"for {kind.name}: {argument.description}")
        _ARGUMENTS = {name: ToolArgument(shape.type, "; ".join(uses[name]), shape.low, shape.high)
                      for name, shape in shapes.items()}
    return _ARGUMENTS


def reset() -> None:
    """Forget the discovered kinds (the next lookup scans the package path again)."""
    global _KINDS, _ARGUMENTS
    _KINDS = _ARGUMENTS = None
