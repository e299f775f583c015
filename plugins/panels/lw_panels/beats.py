"""A turn's story beats (M19), read from the events it recorded that every player may read.

:func:`beats_of` gives ``(kind, details)`` for each beat a stage director may answer; an event
meant for the keeper alone (``audience: keeper``) is never read, so neither a beat nor its
details can carry keeper-only data:

- ``scene`` / ``act``: the player-visible module variable ``scene`` / ``act`` changed
  (details: ``id``, ``value``);
- ``artifact``: a player-visible variable whose id starts with ``artifact`` got a value
  (details: ``id``, ``value``), or an event of kind ``artifact`` (a plugin tool's: its
  ``id``, ``title``, ``text``, ``form``, ``from``, ``date``, ``source``);
- ``extreme_roll``: a check (``skill_check``) that was a critical or a fumble (details:
  ``character``, ``skill``, ``rank``, ``rank_label``, ``critical``, ``fumble``).

A turn with none of these is a quiet turn: :func:`beats_of` gives ``[("turn", {})]``, the beat
on which a director warms up what it expects to need.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

ARTIFACT_FIELDS = ("id", "title", "text", "form", "from", "date", "source")
ROLL_FIELDS = ("character", "skill", "rank", "rank_label", "critical", "fumble")


def beats_of(events: Iterable[Any]) -> list[tuple[str, dict[str, Any]]]:
    """The beats of a turn's ``events`` (:class:`lwcore.api.TurnEvent` objects), in order."""
    beats: list[tuple[str, dict[str, Any]]] = []
    for event in events:
        if getattr(event, "audience", "keeper") != "all":
            continue
        data = event.data()
        kind = data.get("kind")
        if kind == "variable":
            var, value = str(data.get("id", "")), data.get("value")
            if value == data.get("before") or value in (None, "", False):
                continue
            if var in ("scene", "act"):
                beats.append((var, {"id": var, "value": value}))
            elif var.startswith("artifact"):
                beats.append(("artifact", {"id": var, "value": value}))
        elif kind == "artifact":
            beats.append(("artifact", {k: data[k] for k in ARTIFACT_FIELDS if data.get(k) is not None}))
        elif kind == "check" and (data.get("critical") or data.get("fumble")):
            beats.append(("extreme_roll", {k: data[k] for k in ROLL_FIELDS if data.get(k) is not None}))
    return beats or [("turn", {})]
