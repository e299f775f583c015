"""What one member sees of a room, built only from document projections.

:func:`view_for` returns a :class:`PlayerView` for a player and a :class:`KeeperView` for the
keeper. Every part comes from :func:`lwcore.turn.documents.project` (sheets, variables,
history events, the exposed MVU leaves, the recap), so this module never decides secrecy
itself. The player types cannot even hold a keeper-only variable (``visibility`` is
``Literal["player"]``); the keeper's marks what players do not see.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from lwcore.contributions import Viewer, localized
from lwcore.i18n import kernel_catalogue
from lwcore.turn.documents import project, table_viewer, viewer_of
from lwcore.turn.projections import event_document, sheet_document, variable_document
from lwcore.turn.room import Member, Room

HISTORY_IN_VIEW = 30


class ResourceBar(BaseModel):
    """One of the rulepack's bars (``sheet.resources``: HP, sanity, luck…) on a sheet, labelled in
    the viewer's locale, filled from the values the viewer may see (``max`` is ``None`` for a bar
    without a maximum)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    label: str
    value: int | float | str
    max: int | float | str | None = None


class SheetView(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    member: str
    name: str
    tagline: str | None = None
    """The character in one line (the sheet keys the rulepack names in `sheet.tagline`)."""
    values: dict[str, int | float | str]
    resources: tuple[ResourceBar, ...] = ()
    """The rulepack's bars whose value the viewer sees, in the rulepack's order."""


class HistoryLine(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    turn: int
    role: Literal["player", "keeper", "event"]
    actor: str | None = None
    text: str
    keeper_only: bool = False
    """Only in the keeper's view: a line players do not see."""
    edited: bool = False
    """The keeper replaced this narration after the turn (``lw room edit``)."""
    dice: bool = False
    """An event line that records dice rolled (a check, ``.r``): shown as such."""


class VariableLine(BaseModel):
    """A variable as its viewer sees it (players: ``visibility`` can only be ``player``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    label: str
    kind: Literal["number", "bool", "text", "enum"]
    value: Any
    value_label: str | None = None
    visibility: Literal["player"] = "player"
    minimum: float | None = None
    maximum: float | None = None


class KeeperVariableLine(VariableLine):
    visibility: Literal["player", "keeper"]  # type: ignore[assignment]  # the keeper's line may also be keeper-only (a player's never)
    keeper_only: bool = False
    options: tuple[str, ...] = ()
    option_labels: tuple[str, ...] = ()


class TreeLeaf(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    path: str
    value: Any
    description: str | None = None
    hidden: bool = False
    """Not exposed to players (``.var expose``): only the keeper's frame holds such a leaf,
    marked ``hidden: true`` as the contract (A.2, the MVU tree) says."""


class PlayerView(BaseModel):
    """What one player may see of a room."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    room: str
    title: str
    viewer: str
    locale: str
    variables: tuple[VariableLine, ...]
    sheets: tuple[SheetView, ...]
    history: tuple[HistoryLine, ...]
    tree: tuple[TreeLeaf, ...] = ()
    recap: str | None = None
    keeper: Literal[False] = False

    def to_json_text(self) -> str:
        return json.dumps(self.model_dump(mode="json"), ensure_ascii=False, indent=2)


class KeeperView(PlayerView):
    """The keeper's view: everything, with what players do not see marked."""

    variables: tuple[KeeperVariableLine, ...]
    keeper: Literal[True] = True  # type: ignore[assignment]  # narrows the base's field for this view (pydantic validates it)


def _title(room: Room, locale: str) -> str:
    title = room.file.title
    return localized(title, locale) if isinstance(title, dict) else str(title)


def history_lines(room: Room, member: Member, limit: int = HISTORY_IN_VIEW) -> list[HistoryLine]:
    """The last ``limit`` history lines ``member`` may see, oldest first (read from the end)."""
    return _history_lines(room, viewer_of(room, member), limit)


def _history_lines(room: Room, viewer: Viewer, limit: int) -> list[HistoryLine]:
    lines: list[HistoryLine] = []
    for entry in room.history.newest_first():
        if limit and len(lines) >= limit:
            break
        view = project(room, event_document(entry), viewer)
        if view is not None:
            lines.append(HistoryLine(**{k: v for k, v in view.items() if k != "member"}))
    lines.reverse()
    return lines


def view_for(room: Room, member_ref: str | None = None, *, history_limit: int = HISTORY_IN_VIEW) -> PlayerView:
    """The view of ``member_ref`` (default: the first player): a :class:`KeeperView` for the
    keeper, else a :class:`PlayerView`. With no ``member_ref`` in a room that has no player
    yet, the view of a player who is no member in particular
    (:func:`lwcore.turn.documents.table_viewer`, ``viewer`` empty) -- never the keeper's: "a
    player's view" holds no keeper-only data in any room (attacker's X8)."""
    if member_ref is None and not room.file.players:
        viewer, viewer_id = table_viewer(room), ""
    else:
        member = room.member(member_ref)
        viewer, viewer_id = viewer_of(room, member), member.id
    keeper = viewer.keeper
    variable_type = KeeperVariableLine if keeper else VariableLine
    variables = []
    for var in room.variables.variables:
        view = project(room, variable_document(var), viewer)
        if view is not None:
            variables.append(variable_type(**view))
    sheets = []
    for player in room.file.players:
        if player.id in room.sheets:
            view = project(room, sheet_document(room, player.id), viewer)
            if view is not None:
                fields = {k: view.get(k) for k in ("member", "name", "tagline", "values")}
                sheets.append(SheetView(**fields, resources=resource_bars(room, fields["values"] or {}, viewer.locale)))
    tree: list[TreeLeaf] = []
    mvu = room.documents.get("mvu", "mvu")
    if mvu is not None:
        view = project(room, mvu, viewer)
        for leaf in (view or {}).get("leaves", ()):
            tree.append(TreeLeaf(**{k: leaf.get(k) for k in ("path", "value", "description")},
                                 hidden=not leaf.get("exposed", True)))
    recap = None
    summary = room.documents.get("campaign_summary", "summary")
    if summary is not None:
        view = project(room, summary, viewer)
        recap = (view or {}).get("text") or None
    cls = KeeperView if keeper else PlayerView
    return cls(
        room=room.file.id, title=_title(room, viewer.locale), viewer=viewer_id, locale=viewer.locale,
        variables=tuple(variables), sheets=tuple(sheets),
        history=tuple(_history_lines(room, viewer, history_limit)), tree=tuple(tree), recap=recap,
    )


def resource_bars(room: Room, values: Mapping[str, Any], locale: str) -> tuple[ResourceBar, ...]:
    """The rulepack's bars filled from ``values`` (what the viewer sees of a sheet), labelled in
    ``locale``; a bar whose value is not among them is left out (a maximum not among them is
    ``None``): a bar never shows more than the values it is built from."""
    shape = room.rule_system.model.sheet
    bars = []
    for res in shape.resources if shape is not None else ():
        if res.value is None or values.get(res.value) is None:
            continue
        label = res.label if isinstance(res.label, str) else localized(res.label, locale)
        bars.append(ResourceBar(id=res.id, label=label, value=values[res.value],
                                max=values.get(res.max) if res.max else None))
    return tuple(bars)


def player_view(room: Room, viewer: str | None = None, *, history_limit: int = HISTORY_IN_VIEW) -> PlayerView:
    """The view of a player (``viewer``: member id or name; default the first player)."""
    return view_for(room, viewer, history_limit=history_limit)


def render_text(view: PlayerView) -> str:
    """A view as plain text (what ``lw turn --view`` prints)."""
    t = kernel_catalogue().bind(view.locale)
    head = f"== {view.title} ({view.room}) — {view.viewer}"
    out = [t("view.head_keeper", head=head) if view.keeper else head + " =="]
    own = next((sheet for sheet in view.sheets if sheet.member == view.viewer), None)
    if own is not None:
        out += ["", f"  {own.name}" + (f" — {own.tagline}" if own.tagline else "")]
        if own.resources:
            out.append("  " + " · ".join(f"{bar.label} {_num(bar.value)}" + (f"/{_num(bar.max)}" if bar.max is not None else "")
                                         for bar in own.resources))
    if view.recap:
        out += ["", t("view.recap", text=view.recap)]
    if view.variables:
        out.append("")
        for var in view.variables:
            bounds = f" / {_num(var.maximum)}" if var.maximum is not None else ""
            value = var.value_label if var.value_label is not None else _num(var.value)
            secret = t("view.var_keeper_only") if getattr(var, "keeper_only", False) else ""
            out.append(f"  {var.label}: {value}{bounds}{secret}")
    if view.tree:
        out.append("")
        for leaf in view.tree:
            hidden = t("view.leaf_hidden") if leaf.hidden else ""
            out.append(f"  {leaf.path}: {_num(leaf.value)}{hidden}")
    if view.history:
        out.append("")
        for line in view.history:
            who = f"{line.actor}: " if line.role == "player" and line.actor else ""
            mark = {"player": ">", "keeper": "", "event": "  ·"}[line.role]
            secret = t("view.line_keeper") if line.keeper_only else ""
            secret += t("view.line_edited") if line.edited else ""
            text = f"{mark} {who}{line.text}".strip() if line.role != "event" else f"{mark} {line.text}"
            out.append(text + secret)
    return "\n".join(out)


def _num(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
