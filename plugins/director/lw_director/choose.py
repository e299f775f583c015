"""The bundled stage director: one beat in, a few performance blocks out.

:func:`direct` is what ``lw_stage_directors`` registers. It reads only the beat: its ``kind``,
the room's presentation ``kit`` (what may be staged) and its ``facts`` -- the players' shared
view (``variables``, ``history``, ``recap``) and, under ``beat``, the player-visible details of
the moment (a variable's new value, a check's result). It never narrates (every word it stages
is one the players have already been shown), never rolls, and never sees keeper-only data: the
host builds the facts from a player's projection.

What each beat stages, in order of preference among the forms the kit allows:

- ``scene`` (the player-visible variable ``scene`` changed): a picture of the kit subject the new
  scene names (generated from its reference, or the pack's own art when it may not be
  generated), else a ``map_pin`` for the place, else a ``title_card``, else ``text``; and the
  kit's ``bgm``/``ambience`` cue the scene names (else its first one).
- ``act`` (the variable ``act`` changed): a ``title_card`` (the act, and the current scene as its
  title), else ``text``.
- ``artifact`` (a player-visible variable ``artifact…`` got a value, or an ``artifact`` event):
  a ``letter`` when the artefact says it is one (its id or ``form``), a ``clipping`` when it is
  a ``clipping``/``news`` one, else the first of letter, clipping, text the kit allows; and a
  picture of an ``item`` subject the artefact names.
- ``extreme_roll`` (a check that was a critical or a fumble): a ``title_card`` (the rank, the
  character and the skill), else ``text``; and the kit's first ``sfx`` cue.
- ``turn`` (a quiet turn: no other beat): nothing shown.

Warm-up: on every beat it also answers ``{"kind": "prepare", "subject": id}`` for the
subjects it expects to need soon -- those that can be generated and are named in the current
``scene`` or ``act`` values or in the last :data:`LOOKAHEAD` lines of the shared history, but
are not what this beat shows. The host prepares them (within the operator's prefetch and room
budgets) so that when the beat that shows them comes, the picture is ready.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

LOOKAHEAD = 6
"""History lines (the latest ones players have read) searched for subjects to warm up."""

PLACE_FORMS = ("image", "map_pin", "title_card", "text")
ACT_FORMS = ("title_card", "text")
ARTIFACT_FORMS = ("letter", "clipping", "text")
ROLL_FORMS = ("title_card", "text")


def direct(beat: Any) -> list[dict[str, Any]]:
    """The blocks this director stages for ``beat`` (a :class:`lwcore.api.StageBeat`)."""
    kit: Mapping[str, Any] = beat.kit
    facts: Mapping[str, Any] = beat.facts or {}
    details: Mapping[str, Any] = facts.get("beat") or {}
    allowed = tuple(kit.get("templates") or ())
    shown: list[dict[str, Any]] = []
    if beat.kind == "scene":
        shown = _scene(kit, allowed, _words(details.get("value")))
    elif beat.kind == "act":
        shown = _act(allowed, _words(details.get("value")), _variable(facts, "scene"))
    elif beat.kind == "artifact":
        shown = _artifact(kit, allowed, details)
    elif beat.kind == "extreme_roll":
        shown = _roll(kit, allowed, details)
    pictured = {b.get("subject") for b in shown if b.get("kind") == "image"}
    return shown + [{"kind": "prepare", "subject": s} for s in expected(kit, facts) if s not in pictured]


def expected(kit: Mapping[str, Any], facts: Mapping[str, Any]) -> list[str]:
    """The subjects warm-up should prepare: generatable ones named in the current scene or act
    or in the latest shared history lines, in kit order."""
    history = [str(line.get("text", "")) for line in (facts.get("history") or ())[-LOOKAHEAD:]
               if isinstance(line, Mapping)]
    said = " ".join([_variable(facts, "scene"), _variable(facts, "act"), _words((facts.get("beat") or {}).get("value")),
                     *history])
    return [s["id"] for s in kit.get("subjects") or () if s.get("generate") and _names(s, said)]


def _first(allowed: Sequence[str], forms: Sequence[str]) -> str | None:
    return next((form for form in forms if form in allowed), None)


def _scene(kit: Mapping[str, Any], allowed: Sequence[str], scene: str) -> list[dict[str, Any]]:
    if not scene:
        return []
    place = _named(kit, scene, ("location",)) or _named(kit, scene, ("npc", "item"))
    out: list[dict[str, Any]] = []
    picture = _picture(place, scene) if place is not None and "image" in allowed else None
    if picture is not None:
        out.append(picture)
    elif "map_pin" in allowed:
        board = next((s for s in kit.get("subjects") or () if s.get("kind") == "location" and s.get("ref")
                      and str(s["id"]).endswith("map")), None)
        out.append({"kind": "map_pin", "label": scene, **({"map": board["ref"]["hash"]} if board else {})})
    else:
        form = _first(allowed, ("title_card", "text"))
        if form == "title_card":
            out.append({"kind": "title_card", "title": scene})
        elif form == "text":
            out.append({"kind": "text", "text": scene})
    cues = [c for c in kit.get("audio") or () if c.get("layer") in ("bgm", "ambience")]
    cue = next((c for c in cues if _names(c, scene)), cues[0] if cues else None)
    if cue is not None:
        out.append({"kind": "audio", "cue": cue["id"]})
    return out


def _act(allowed: Sequence[str], act: str, scene: str) -> list[dict[str, Any]]:
    if not act:
        return []
    form = _first(allowed, ACT_FORMS)
    if form == "title_card":
        return [{"kind": "title_card", "act": act, "title": scene or act}]
    return [{"kind": "text", "text": act}] if form == "text" else []


def _artifact(kit: Mapping[str, Any], allowed: Sequence[str], details: Mapping[str, Any]) -> list[dict[str, Any]]:
    body = _words(details.get("text") if details.get("text") is not None else details.get("value"))
    if not body:
        return []
    hint = f"{details.get('form') or ''} {details.get('id') or ''}".lower()
    wanted = ("letter",) if "letter" in hint else ("clipping",) if ("clipping" in hint or "news" in hint) else ()
    form = _first(allowed, (*wanted, *ARTIFACT_FORMS))
    out: list[dict[str, Any]] = []
    title = _words(details.get("title"))
    if form == "letter":
        out.append({"kind": "letter", "body": body, **({"from": _words(details["from"])} if details.get("from") else {}),
                    **({"date": _words(details["date"])} if details.get("date") else {})})
    elif form == "clipping":
        out.append({"kind": "clipping", "headline": title or body.split("\n")[0][:80], "body": body,
                    **({"source": _words(details["source"])} if details.get("source") else {}),
                    **({"date": _words(details["date"])} if details.get("date") else {})})
    elif form == "text":
        out.append({"kind": "text", "text": body})
    item = _named(kit, f"{title} {body}", ("item",))
    picture = _picture(item, title or None) if item is not None and "image" in allowed else None
    return out + ([picture] if picture is not None else [])


def _roll(kit: Mapping[str, Any], allowed: Sequence[str], details: Mapping[str, Any]) -> list[dict[str, Any]]:
    rank = _words(details.get("rank_label") or details.get("rank"))
    who = " · ".join(p for p in (_words(details.get("character")), _words(details.get("skill"))) if p)
    if not rank and not who:
        return []
    form = _first(allowed, ROLL_FORMS)
    out: list[dict[str, Any]] = []
    if form == "title_card":
        out.append({"kind": "title_card", "title": rank or who, **({"subtitle": who} if rank and who else {})})
    elif form == "text":
        out.append({"kind": "text", "text": " — ".join(p for p in (rank, who) if p)})
    cue = next((c for c in kit.get("audio") or () if c.get("layer") == "sfx"), None)
    if cue is not None:
        out.append({"kind": "audio", "cue": cue["id"]})
    return out


def _picture(subject: Mapping[str, Any] | None, caption: str | None) -> dict[str, Any] | None:
    """A picture of ``subject``: generated when the kit allows it, else the pack's own art
    (its reference image), else none."""
    if subject is None:
        return None
    extra = {"caption": caption} if caption else {}
    if subject.get("generate"):
        return {"kind": "image", "subject": subject["id"], **extra}
    if subject.get("ref"):
        return {"kind": "image", "hash": subject["ref"]["hash"], **({"caption": caption or subject.get("name")})}
    return None


def _named(kit: Mapping[str, Any], text: str, kinds: Sequence[str]) -> Mapping[str, Any] | None:
    return next((s for s in kit.get("subjects") or () if s.get("kind") in kinds and _names(s, text)), None)


def _names(item: Mapping[str, Any], text: str) -> bool:
    """Whether ``text`` names ``item`` (a subject or a cue): its name or title, or its id."""
    text = text.lower()
    if not text:
        return False
    words = [item.get("name"), item.get("title"), str(item.get("id", "")).rsplit("/", 1)[-1]]
    for word in words:
        for value in (word.values() if isinstance(word, Mapping) else (word,)):
            if isinstance(value, str) and len(value.strip()) >= 2 and value.strip().lower() in text:
                return True
    return False


def _variable(facts: Mapping[str, Any], name: str) -> str:
    for var in facts.get("variables") or ():
        if isinstance(var, Mapping) and var.get("id") == name:
            return _words(var.get("value_label") if var.get("value_label") is not None else var.get("value"))
    return ""


def _words(value: Any) -> str:
    if value is None or isinstance(value, bool):
        return ""
    return str(value).strip()
