"""A viewer's own variables, built only from the room's document projections.

What a panel may read for a viewer is exactly what that viewer may see: the declared module
variables the ``variable`` projection gives them, then the leaves of the MVU tree the
``mvu`` projection gives them, as ``mvu.<path>`` -- a leaf the keeper has not exposed is left
out for the keeper too (panels never surface unexposed module internals, on any screen).
Nothing here decides secrecy: a keeper-only variable is simply absent from a player's
projection, so no binding or condition can reach it.

:func:`keeper_only` lists, from the keeper's projections, what players cannot see (ids and
values): what a player panel must never name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lw_panels.compile import ViewerVar, shown
from lwcore.contributions import Viewer
from lwcore.turn.documents import keeper_viewer, project
from lwcore.turn.projections import variable_document

if TYPE_CHECKING:
    from lwcore.turn.room import Room

MVU_PREFIX = "mvu."


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


@dataclass(frozen=True)
class Secrets:
    """What only the keeper sees: variable ids (declared and MVU) and their current values;
    ``visible`` holds the ids players do see."""

    ids: frozenset[str]
    values: tuple[Any, ...]
    visible: frozenset[str] = frozenset()
    named: frozenset[str] = frozenset()
    """The ids and every ancestor of one (``mvu.内部`` of ``mvu.内部.真凶``): saying any of
    them says a secret's name."""

    def names(self, name: str) -> bool:
        return name in self.named

    def only_prefix(self, prefix: str) -> bool:
        """Whether only keeper-only ids start with ``prefix`` (a repeat over it names them)."""
        return any(i.startswith(prefix) for i in self.ids) and not any(i.startswith(prefix) for i in self.visible)


def keeper_only(room: Room) -> Secrets:
    """The keeper-only variables of ``room``: those the keeper's projections mark as not
    shown to players, and the MVU leaves the keeper has not exposed."""
    keeper = keeper_viewer(room)
    ids: set[str] = set()
    visible: set[str] = set()
    values: list[Any] = []
    for var in room.variables.variables:
        view = project(room, variable_document(var), keeper)
        if view is None:
            continue
        if view.get("keeper_only"):
            ids.add(view["id"])
            values.append(view.get("value"))
        else:
            visible.add(view["id"])
    doc = room.documents.get("mvu", "mvu")
    view = project(room, doc, keeper) if doc is not None else None
    for leaf in (view or {}).get("leaves", ()):
        var_id = MVU_PREFIX + str(leaf["path"])
        if not leaf.get("exposed", True):
            ids.add(var_id)
            values.append(leaf.get("value"))
        else:
            visible.add(var_id)
    named = {".".join(i.split(".")[:n]) for i in ids for n in range(1, i.count(".") + 2)}
    return Secrets(frozenset(ids), tuple(values), frozenset(visible), frozenset(named))
