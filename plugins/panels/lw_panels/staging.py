"""Staging one turn (M19): its beats, the directors' answers, the pictures, what every seat is shown.

:func:`stage_turn` is what the web table runs after each turn it played. In a room whose
enabled packs ship no presentation kit it returns at once: no director is woken, no picture
is looked at, nothing is spent. Otherwise, for each beat of the turn (:func:`lw_panels.beats.beats_of`;
a quiet turn is one ``turn`` beat) it wakes the directors with the players' shared view as
facts (:func:`lwcore.api.view_for` of a player: never keeper-only data), keeps what the kit
allows (:func:`lw_panels.presentation.stage`), and turns it into *staged entries*:

- a picture of a subject gets the picture kept for it, else a new one when the kit, the
  operator's settings and the room's budget allow (:class:`lw_panels.pictures.Painter`),
  else the kit's own art (the subject's reference picture), else its caption as text;
- an audio cue gets its layer, title and content address (a seat may play it);
- the directors' ``prepare`` wishes are warm-up: after the beats, up to the operator's
  ``TRPG_DIRECTOR__PREFETCH`` of them that have no picture yet are generated now (within the
  same budget), so the beat that shows them finds the picture ready.

Entries keep their words as the kit and facts gave them (a label may be per language): each
seat reads them in its own language (:mod:`lw_panels.stage_view`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lw_panels.beats import beats_of
from lw_panels.manifest import room_packs
from lw_panels.pictures import Painter, PictureStore
from lw_panels.presentation import room_kit, stage
from lwcore.api import DirectorSettings, LwError, director_settings, view_for

if TYPE_CHECKING:
    from lw_panels.imagegen import Adapter
    from lwcore.api import Kernel, Room


@dataclass
class Staging:
    """What staging a turn did: ``entries`` (what every seat is shown), the ``beats`` the
    directors were woken on, what was ``refused`` and why, the subjects a picture request was
    ``sent`` for, and ``prepared`` (those sent ahead of their beat)."""

    entries: list[dict[str, Any]] = field(default_factory=list)
    beats: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    sent: list[str] = field(default_factory=list)
    prepared: list[str] = field(default_factory=list)


def stage_turn(kernel: Kernel, room: Room, events: Iterable[Any], *,
               adapters: dict[str, Adapter] | None = None) -> Staging:
    """Stage the turn whose ``events`` (the applied turn's) were just recorded in ``room``."""
    kits = [p.kit for p in room_packs(room).packs if p.kit is not None]
    kit = room_kit(kits, room.file.locale)
    done = Staging()
    if kit is None or not len(kernel.stage_directors):
        return done
    try:
        settings = director_settings(kernel.env)
    except LwError as exc:  # a bad knob: stage without spending, and say why
        settings = DirectorSettings()
        done.refused.append(exc.message)
    painter = Painter(room, kit, PictureStore(room.path), settings, kernel.env)
    if adapters is not None:
        painter.adapters = adapters
    facts = view_for(room, None).model_dump(mode="json", include={"variables", "history", "recap"})
    wishes: list[str] = []
    for kind, details in beats_of(events):
        done.beats.append(kind)
        performances, refused = stage(kernel, room, kind, kit=kit, facts={**facts, "beat": details},
                                      locale=room.file.locale)
        done.refused += refused
        for block in performances:
            if block["kind"] == "prepare":
                wishes.append(block["subject"])
            else:
                done.entries.append(_entry(block, kit, painter))
    for subject in dict.fromkeys(wishes):
        if len(done.prepared) >= settings.prefetch:
            break
        if painter.kept(subject) is None and painter.picture(subject) is not None:
            done.prepared.append(subject)
    done.sent = list(painter.sent)
    done.refused += painter.notes
    return done


def _entry(block: dict[str, Any], kit: dict[str, Any], painter: Painter) -> dict[str, Any]:
    kind = block["kind"]
    if kind == "audio":
        cue = next(c for c in kit["audio"] if c["id"] == block["cue"])
        asset = cue.get("asset") or {}
        return {"kind": "audio", "cue": cue["id"], "layer": cue["layer"], "title": cue.get("title"),
                "hash": asset.get("hash"), "mime": asset.get("mime")}
    if kind != "image" or block.get("subject") is None:
        return block
    subject = next(s for s in kit["subjects"] if s["id"] == block["subject"])
    caption = block.get("caption") or subject.get("name")
    picture = painter.picture(subject["id"])
    if picture is not None:
        return {"kind": "image", "subject": subject["id"], "generated": picture["sha256"], "mime": picture["mime"],
                "caption": caption}
    if subject.get("ref"):  # the kit's own art
        return {"kind": "image", "subject": subject["id"], "hash": subject["ref"]["hash"], "caption": caption}
    return {"kind": "text", "text": caption}
