"""Which tools a room offers this turn, and their offers to the model.

:func:`visible_tools` decides what a room offers (the rules are in its docstring, and in the
turn README's "Tools offered"); :func:`tool_offers` turns those tools into
:class:`~lwcore.provider_adapter.ToolOffer` values (name, description in the reader's locale,
JSON Schema of the arguments), leaving out -- and recording on its plugin -- a plugin tool
whose argument model cannot be loaded.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from lwcore.contributions import ToolSpec, resolve
from lwcore.plugins import describe_exception
from lwcore.provider_adapter import ToolOffer
from lwcore.turn.calls import blame
from lwcore.turn.room import Room

if TYPE_CHECKING:
    from lwcore.kernel import Kernel


def visible_tools(kernel: Kernel, room: Room, *, keeper: bool, phase: str | None | bool = True) -> list[ToolSpec]:
    """The tools this room offers this turn.

    Two limits hold whatever asks: keeper-only tools are offered only to the keeper, phase
    tools only in their phase (the room's, unless ``phase`` names another: what the room
    would offer in it). Past them, a tool an active feature asks for
    (:meth:`Room.active_features`; a skill's ``allowed-tools``) is offered; any other tool is
    offered unless it is gated, or an active feature narrows the room (then only the kernel's
    own tools pass), or the room's ``tool_plugins`` leaves its plugin out (the kernel's own
    tools always pass).
    """
    features = room.active_features()
    asked = {name for feature in features for name in feature.tools}
    narrowed = any(feature.narrows for feature in features)
    kernel_own = {r.id for r in kernel.plugins if r.builtin}
    listed = None if room.file.tool_plugins is None else kernel_own | set(room.file.tool_plugins)
    current = room.file.phase if phase is True else phase
    out = []
    for entry in kernel.tools.entries():
        spec = entry.value
        if spec.keeper_only and not keeper:
            continue
        if spec.phase is not None and spec.phase != current:
            continue
        if spec.name not in asked and (
            spec.gated
            or (narrowed and entry.plugin_id not in kernel_own)
            or (listed is not None and entry.plugin_id not in listed)
        ):
            continue
        out.append(spec)
    return out


_SCHEMAS: dict[Any, str] = {}
"""args_model class -> its JSON Schema as JSON text (generating it is most of a compile)."""


def offer(spec: ToolSpec, locale: str) -> ToolOffer:
    """``spec`` as offered to the model in ``locale`` (a fresh copy of its schema each time)."""
    model = resolve(spec.args_model)
    text = _SCHEMAS.get(model)
    if text is None:
        text = _SCHEMAS[model] = json.dumps(model.model_json_schema(), ensure_ascii=False)
    return ToolOffer(spec.name, spec.describe(locale), json.loads(text))


def tool_offers(kernel: Kernel, specs: Sequence[ToolSpec], locale: str) -> tuple[list[ToolOffer], list[str]]:
    """``(offers, dropped)``: the offers of ``specs``; a plugin tool whose argument model
    cannot be loaded or has no JSON Schema is left out of this turn, recorded on its plugin
    and listed as dropped (``<plugin>: <why>``)."""
    offers: list[ToolOffer] = []
    dropped: list[str] = []
    for spec in specs:
        try:
            offers.append(offer(spec, locale))
        except Exception as exc:  # noqa: BLE001 - a broken plugin tool must not break the turn
            message = f"tool {spec.name!r} cannot be offered: {describe_exception(exc)}"
            dropped.append(f"{blame(kernel, spec.name, message)}: {message}")
    return offers, dropped
