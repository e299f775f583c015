"""A viewer's own variables, built only from the room's document projections.

What a panel may read for a viewer is exactly what that viewer may see: the declared module
variables the ``variable`` projection gives them, then the leaves of the MVU tree the
``mvu`` projection gives them, as ``mvu.<path>`` -- a leaf the keeper has not exposed is left
out for the keeper too (panels never surface unexposed module internals, on any screen).
Nothing here decides secrecy: a keeper-only variable is simply absent from a player's
projection, so no binding or condition can reach it.

:func:`keeper_only` (the kernel's :func:`lwcore.turn.leaks.keeper_only`, re-exported) lists,
from the keeper's projections, what players cannot see (ids and values): what a player panel
must never name or say.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lw_panels.compile import ViewerVar, shown
from lwcore.api import MVU_PREFIX, KeeperOnly as Secrets, Viewer, keeper_only, project, variable_document

if TYPE_CHECKING:
    from lwcore.api import Room

__all__ = ["MVU_PREFIX", "Secrets", "ViewerState", "keeper_only", "viewer_state"]


@dataclass(frozen=True)
class ViewerState:
    """``vars`` (id -> :class:`ViewerVar`, in the viewer's order) and ``values`` (id -> value,
    what ``visible_when`` compares)."""

    vars: dict[str, ViewerVar]
    values: dict[str, Any]


def viewer_state(room: Room, viewer: Viewer) -> ViewerState:
    """The variables ``viewer`` may see, as panels read them."""
    vars: dict[str, ViewerVar] = {}
    for var in room.variables.variables:
        view = project(room, variable_document(var), viewer)
        if view is None:
            continue
        value = view.get("value")
        text = view.get("value_label") if view.get("value_label") is not None else shown(value)
        vars[view["id"]] = ViewerVar(view["id"], str(view.get("label") or view["id"]), value, str(text))
    for leaf in _leaves(room, viewer):
        var_id = MVU_PREFIX + str(leaf["path"])
        if var_id not in vars:
            vars[var_id] = ViewerVar(var_id, str(leaf.get("description") or leaf["path"]), leaf.get("value"),
                                     shown(leaf.get("value")))
    return ViewerState(vars, {k: v.value for k, v in vars.items()})


def _leaves(room: Room, viewer: Viewer) -> list[dict[str, Any]]:
    doc = room.documents.get("mvu", "mvu")
    view = project(room, doc, viewer) if doc is not None else None
    return [leaf for leaf in (view or {}).get("leaves", ()) if leaf.get("exposed", True)]
