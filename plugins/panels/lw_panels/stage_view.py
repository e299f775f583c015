"""Staged entries (:mod:`lw_panels.staging`) as one seat reads them, and as plain text.

:func:`stage_for` gives each entry in the viewer's language, with where its picture or sound
is (``src``): a pack's file by the address the table serves it at, a generated picture as a
``data:`` URL (it is the room's, not a pack's). Every entry is player-visible by construction
(a director is given only the players' shared view), so every seat -- keeper and players --
gets the same entries, each in its own language. :func:`stage_lines` is the text version
(what a plain client shows, and what the room's history keeps).
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from lw_panels.messages import MESSAGES
from lwcore.api import LwError, localized

Source = Callable[[str], str | None]
"""A pack file's content address -> where the seat loads it (``None``: not available)."""


def _text(value: Any, locale: str) -> str | None:
    if value is None:
        return None
    return localized(value, locale) if isinstance(value, Mapping) else str(value)


def stage_for(entries: Iterable[Mapping[str, Any]], locale: str, source: Source,
              generated: Callable[[str], bytes] | None = None) -> list[dict[str, Any]]:
    """``entries`` for a viewer in ``locale``: ``{"form": kind, …words…, "src"}``.
    ``generated(sha)`` reads one of the room's generated pictures."""
    out: list[dict[str, Any]] = []
    for entry in entries:
        kind = entry.get("kind")
        item: dict[str, Any] = {"form": kind}
        for key in ("title", "subtitle", "act", "body", "from", "to", "date", "headline", "source", "text",
                    "caption", "label", "note"):
            words = _text(entry.get(key), locale)
            if words is not None:
                item[key] = words
        if kind == "image":
            item["src"] = _picture(entry, source, generated)
        elif kind == "map_pin":
            item["map"] = source(entry["map"]) if entry.get("map") else None
            if entry.get("x") is not None:
                item["x"], item["y"] = float(entry["x"]), float(entry["y"])
        elif kind == "audio":
            item.update(layer=entry.get("layer"), cue=entry.get("cue"), mime=entry.get("mime"),
                        src=source(entry["hash"]) if entry.get("hash") else None)
            item.setdefault("title", str(entry.get("cue", "")).rsplit("/", 1)[-1])
        out.append(item)
    return out


def _picture(entry: Mapping[str, Any], source: Source, generated: Callable[[str], bytes] | None) -> str | None:
    """A generated picture embedded whole when ``generated`` reads it (a standalone page), else
    where ``source`` serves it by its hash (the web table: never inside every update); the
    kit's own picture when neither gives one."""
    key = entry.get("generated")
    if key and generated is not None:
        try:
            data = generated(key)
        except LwError:
            data = None
        if data is not None:
            return f"data:{entry.get('mime') or 'image/png'};base64," + base64.b64encode(data).decode("ascii")
    elif key:
        served = source(key)
        if served is not None:
            return served
    return source(entry["hash"]) if entry.get("hash") else None


def stage_lines(item: Mapping[str, Any], locale: str) -> list[str]:
    """One viewer's entry (:func:`stage_for`) as text lines."""
    t = MESSAGES.bind(locale)
    form = item.get("form")
    head = " · ".join(str(item[k]) for k in ("act", "title", "subtitle") if item.get(k))
    if form == "title_card":
        return [f"【{head}】"]
    if form == "letter":
        who = " · ".join(str(item[k]) for k in ("from", "to", "date") if item.get(k))
        return [f"[{t('stage.letter')}{': ' + who if who else ''}]", *(f"> {line}" for line in str(item["body"]).splitlines())]
    if form == "clipping":
        where = " · ".join(str(item[k]) for k in ("source", "date") if item.get(k))
        return [f"[{t('stage.clipping')}: {item['headline']}{' (' + where + ')' if where else ''}]",
                *(f"> {line}" for line in str(item["body"]).splitlines())]
    if form == "image":
        return [f"[{t('text.picture')}: {item['caption']}]" if item.get("caption") else f"[{t('text.picture')}]"]
    if form == "map_pin":
        return [f"[{t('stage.map_pin')}: {item['label']}{' — ' + item['note'] if item.get('note') else ''}]"]
    if form == "audio":
        return [f"[♪ {item.get('title')} ({item.get('layer')})]"]
    if form == "text":
        return str(item.get("text", "")).splitlines() or [""]
    return []


def stage_text(items: Iterable[Mapping[str, Any]], locale: str) -> str:
    """Several entries as text (one block of lines)."""
    return "\n".join(line for item in items for line in stage_lines(item, locale))
