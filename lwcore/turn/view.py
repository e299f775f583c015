"""The player view: the only room projection that leaves the engine for a player.

Built by :func:`player_view` from the room; its types cannot hold a keeper-only variable
(:class:`lwcore.turn.variables.PlayerVariable` is ``visibility: Literal["player"]``) and its
history lines come only from entries whose audience is ``all`` -- variable events are
re-checked against the variable's *current* declaration, so a variable later made secret
disappears from old lines too.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from lwcore.turn.events import entry_text
from lwcore.turn.room import HistoryEntry, Room, sheet_values
from lwcore.turn.variables import PlayerVariable, player_variables


class SheetView(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    member: str
    name: str
    occupation: str | None = None
    values: dict[str, int | float | str]


class HistoryLine(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    turn: int
    role: Literal["player", "keeper", "event"]
    actor: str | None = None
    text: str


class PlayerView(BaseModel):
    """What one player may see of a room."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    room: str
    title: str
    viewer: str
    locale: str
    variables: tuple[PlayerVariable, ...]
    sheets: tuple[SheetView, ...]
    history: tuple[HistoryLine, ...]

    def to_json_text(self) -> str:
        return json.dumps(self.model_dump(mode="json"), ensure_ascii=False, indent=2)


def _title(room: Room, locale: str) -> str:
    from lwcore.contributions import localized

    title = room.file.title
    return localized(title, locale) if isinstance(title, dict) else str(title)


def event_text(room: Room, entry: HistoryEntry, locale: str) -> str | None:
    """The player-facing line of an event entry, or ``None`` when players may not see it."""
    data = entry.data or {}
    if entry.audience != "all" or data.get("audience", "all") != "all":
        return None
    if data.get("kind") == "variable":
        var = room.variable(str(data.get("id")))
        if var is None or var.visibility != "player":
            return None
    # checks, subsystems and variables are rendered from their data in the reader's locale
    return entry_text(room, entry, locale) or None


def player_view(room: Room, viewer: str | None = None, *, history_limit: int = 30) -> PlayerView:
    """Project ``room`` for the player ``viewer`` (default: the first player)."""
    member = room.member(viewer)
    locale = room.locale_of(member)
    lines: list[HistoryLine] = []
    for entry in room.history:
        if entry.audience != "all":
            continue
        text = event_text(room, entry, locale) if entry.role == "event" else entry.text
        if text:
            actor = entry.actor
            if entry.role == "player" and actor in room.sheets:
                actor = room.sheets[actor].name
            lines.append(HistoryLine(turn=entry.turn, role=entry.role, actor=actor, text=text))
    sheets = tuple(
        SheetView(member=p.id, name=room.sheets[p.id].name, occupation=_text(room.sheets[p.id].extra.get("occupation")),
                  values=sheet_values(room.sheets[p.id]))
        for p in room.file.players
        if p.id in room.sheets
    )
    return PlayerView(
        room=room.file.id,
        title=_title(room, locale),
        viewer=member.id,
        locale=locale,
        variables=player_variables(room.variables.variables, locale),
        sheets=sheets,
        history=tuple(lines[-history_limit:] if history_limit else lines),
    )


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def render_text(view: PlayerView) -> str:
    """The player view as plain text (what ``lw turn --view`` prints)."""
    out = [f"== {view.title} ({view.room}) — {view.viewer} =="]
    if view.variables:
        out.append("")
        for var in view.variables:
            bounds = ""
            if var.maximum is not None:
                bounds = f" / {_num(var.maximum)}"
            value = var.value_label if var.value_label is not None else _num(var.value)
            out.append(f"  {var.label}: {value}{bounds}")
    if view.history:
        out.append("")
        for line in view.history:
            who = f"{line.actor}: " if line.role == "player" and line.actor else ""
            mark = {"player": ">", "keeper": "", "event": "  ·"}[line.role]
            out.append(f"{mark} {who}{line.text}".strip() if line.role != "event" else f"{mark} {line.text}")
    return "\n".join(out)


def _num(value: Any) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
