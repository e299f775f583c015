"""Subsystem kinds: the bundled ones, and the set one rules engine runs.

A kind is a :class:`~lwcore.rules.kinds.base.SubsystemKind`; plugins contribute kinds through
the ``subsystem_kinds`` hook family (``lw_subsystem_kinds``: ``register(MyKind())``). The kinds
shipped with the kernel live one module each in this package (each defines ``KIND``) and are
registered by the built-in ``rules`` plugin like any other plugin's (:data:`BUNDLED`). A rules
engine turns the kernel's ``subsystem_kinds`` registry into a :class:`KindSet` (a kernel-less
engine uses :func:`bundled`); every pack it loads carries that set (``RuleSystem.kinds``), so
the pack checker, the dot commands, the renderer and the tools see the same kinds.

The ``subsystem_check`` tool's typed fields are the bundled kinds' :func:`tool_arguments`; a
plugin's kind takes its own through the tool's ``args`` mapping.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from typing import Any

from lwcore.rules.bundled_kinds import BUNDLED_KINDS
from lwcore.rules.kinds.base import SubsystemError, SubsystemKind, SubsystemResult, ToolArgument

__all__ = ["BUNDLED", "KindSet", "SubsystemError", "SubsystemKind", "SubsystemResult", "ToolArgument", "all_kinds",
           "bundled", "bundled_kinds", "kind_named", "reset", "resolve_kind", "tool_arguments"]

BUNDLED = BUNDLED_KINDS
"""The modules of this package that each define one bundled ``KIND`` (:data:`lwcore.rules.bundled_kinds.BUNDLED_KINDS`)."""


class KindSet:
    """The kinds one engine runs, by ``kind:`` word (name or alias).

    Built from kinds in trust order: a kind whose name or alias an earlier kind already
    answers to is left out and the reason kept in :attr:`skipped`.
    """

    def __init__(self, kinds: Iterable[SubsystemKind], skipped: Iterable[str] = ()) -> None:
        found: dict[str, SubsystemKind] = {}
        self.skipped: list[str] = list(skipped)
        for kind in kinds:
            taken = [w for w in (kind.name, *kind.aliases) if w in found]
            if taken:
                self.skipped.append(f"subsystem kind {kind.name!r} left out: {', '.join(map(repr, taken))} "
                                    f"already names {found[taken[0]].name!r}")
                continue
            for word in (kind.name, *kind.aliases):
                found[word] = kind
        self._words = found
        self._arguments: dict[str, ToolArgument] | None = None

    def named(self, word: str) -> SubsystemKind | None:
        """The kind a ``kind:`` word (or alias) names, ``None`` for a word no kind answers to."""
        return self._words.get(word)

    def all(self) -> list[SubsystemKind]:
        """Every kind, each once, by name."""
        return sorted({id(k): k for k in self._words.values()}.values(), key=lambda k: k.name)

    def tool_arguments(self) -> Mapping[str, ToolArgument]:
        """Every argument a tool call may give some kind, by name, in kind-name order: one
        :class:`ToolArgument` each, its description saying which kinds use it for what. The same
        mapping object for this set (a cache key for what is built from it). Two kinds that give
        one name different types or bounds are refused (``TypeError``)."""
        if self._arguments is None:
            shapes: dict[str, ToolArgument] = {}
            uses: dict[str, list[str]] = {}
            for kind in self.all():
                for name, argument in kind.tool_arguments.items():
                    first = shapes.setdefault(name, argument)
                    if not first.same_shape(argument):
                        raise TypeError(f"subsystem kinds disagree on the tool argument {name!r}: "
                                        f"{first} and {argument} ({kind.name})")
                    uses.setdefault(name, []).append(f"for {kind.name}: {argument.description}")
            self._arguments = {name: ToolArgument(shape.type, "; ".join(uses[name]), shape.low, shape.high)
                               for name, shape in shapes.items()}
        return self._arguments


def resolve_kind(offered: Any, name: str) -> SubsystemKind:
    """The :class:`SubsystemKind` a plugin registered as ``name``: an instance, or a
    ``SubsystemKindRef`` whose reference is imported now. ``TypeError``/``ImportError`` say why
    it is not one (its name differs, its reference does not import or is no kind)."""
    kind = getattr(offered, "kind", offered)
    if isinstance(kind, str):
        module_name, sep, attribute = kind.partition(":")
        if not sep:
            raise ImportError(f"{kind!r} is not 'package.module:attribute'")
        kind = getattr(importlib.import_module(module_name), attribute)
    if not isinstance(kind, SubsystemKind):
        raise TypeError(f"{type(kind).__name__} is not a SubsystemKind")
    if kind.name != name:
        raise TypeError(f"registered as {name!r} but its name is {kind.name!r}")
    return kind


def bundled_kinds() -> tuple[SubsystemKind, ...]:
    """The kinds shipped with the kernel (what the built-in ``rules`` plugin registers)."""
    kinds = []
    for name in BUNDLED:
        module = importlib.import_module(f"{__name__}.{name}")
        kind = getattr(module, "KIND", None)
        if not isinstance(kind, SubsystemKind) or not kind.name:
            raise TypeError(f"{module.__name__} must define KIND, a named SubsystemKind")
        kinds.append(kind)
    return tuple(kinds)


_BUNDLED: KindSet | None = None


def bundled() -> KindSet:
    """The bundled kinds as a :class:`KindSet` (a kernel-less engine's; the same object until
    :func:`reset`)."""
    global _BUNDLED
    if _BUNDLED is None:
        _BUNDLED = KindSet(bundled_kinds())
    return _BUNDLED


def kind_named(word: str) -> SubsystemKind | None:
    """The bundled kind a word names (:meth:`KindSet.named` of :func:`bundled`)."""
    return bundled().named(word)


def all_kinds() -> list[SubsystemKind]:
    """Every bundled kind, by name."""
    return bundled().all()


def tool_arguments() -> Mapping[str, ToolArgument]:
    """The bundled kinds' tool arguments (:meth:`KindSet.tool_arguments` of :func:`bundled`)."""
    return bundled().tool_arguments()


def reset() -> None:
    """Forget the bundled set (the next lookup imports the kinds again)."""
    global _BUNDLED
    _BUNDLED = None
