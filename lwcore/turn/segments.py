"""The kernel's own state as prompt segments: what the keeper's model is told about the room.

The built-in ``turn`` plugin contributes these through ``lw_prompt_segments``, like any
plugin's segments: named, slotted and ordered (:data:`ORDER`: before every other segment of
their slot), so a host replaces or drops one as it would any segment (a ``wrapper`` on
``lw_prompt_segments``). Nothing here knows a rule system: the rulepack gives the expertise,
the subsystems, the display names and each sheet's one-line ``tagline``.

======================  =========  ==============================================================
segment                 slot       what
======================  =========  ==============================================================
``rules``               system     the keeper's iron rules (in the acting member's language)
``expertise``           context    the rulepack's expertise and the subsystems ``subsystem_check`` runs
``sheets``              context    each player's sheet: name, tagline, values, expressions, state, notes
``variables``           history    every module variable and the MVU tree, as the keeper sees them
``story``               history    the story so far, the chronicle not yet folded, the open threads
``history``             history    the recent history: a listing (``entries``) the depth segments go among
======================  =========  ==============================================================

Every part is the keeper's projection of the room's documents (the model plays the keeper),
rendered in the acting member's locale.
"""

from __future__ import annotations

import json
from typing import Any

from lwcore.contributions import PromptSegment, TurnContext, Viewer
from lwcore.i18n import kernel_catalogue
from lwcore.rules.kept_check import LAST_CHECK
from lwcore.turn import chronicle, sheet_rolls
from lwcore.turn.documents import project
from lwcore.turn.projections import event_document, sheet_document, variable_document
from lwcore.turn.room import Room

PLUGIN = "turn"
"""The built-in plugin that contributes these segments."""
HISTORY_IN_PROMPT = 60
"""History entries the prompt lists (the newest)."""
ORDER = -10_000
"""The kernel's segments come first in their slot (plugins' orders are above it)."""

ROLL_MACRO = "{{roll:XdY}}"
"""How the rules segment tells the model to write an incidental roll."""


def state_segments(turn: TurnContext) -> list[PromptSegment]:
    """The kernel's segments for ``turn`` (none for a context without a loaded room)."""
    room = turn.room
    if not isinstance(room, Room):
        return []
    return room_segments(room, turn.locale)


def room_segments(room: Room, locale: str, *, history_limit: int = HISTORY_IN_PROMPT) -> list[PromptSegment]:
    """The kernel's segments for ``room`` rendered in ``locale`` (see the module docstring);
    ``history_limit`` entries of the history are listed (0: all)."""
    t = kernel_catalogue().bind(locale)
    keeper = Viewer(room.file.keeper.id, locale, True)
    return [
        PromptSegment("rules", t("prompt.rules", roll_macro=ROLL_MACRO), slot="system", order=ORDER),
        PromptSegment("expertise", expertise_text(room, locale), slot="context", order=ORDER),
        PromptSegment("sheets", sheets_text(room, keeper), slot="context", order=ORDER + 1),
        PromptSegment("variables", variables_text(room, keeper), slot="history", order=ORDER),
        PromptSegment("story", story_text(room, keeper), slot="history", order=ORDER + 1),
        PromptSegment("history", t("prompt.history"), slot="history", order=ORDER + 2,
                      entries=tuple(history_lines(room, keeper, history_limit))),
    ]


def expertise_text(room: Room, locale: str) -> str:
    """The room's rule-system expertise in ``locale`` plus the subsystems the
    ``subsystem_check`` tool can run (the pack the room loaded with, its sheets' pack)."""
    parts = [sheet_rolls.expertise(room.rule_system, locale), sheet_rolls.tool_notes(room.rule_system, locale)]
    return "\n\n".join(p for p in parts if p)


def _fmt(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def sheets_text(room: Room, keeper: Viewer) -> str:
    """Every player's sheet as the keeper sees it: ``### name (member, tagline)``, the values
    by their display names, expressions, the engine's kept state (the last check left out:
    it is a check event already) and the sheet's notes."""
    t = kernel_catalogue().bind(keeper.locale)
    lines = [t("prompt.sheets")]
    pack = room.rule_system
    for member in room.file.players:
        if member.id not in room.sheets:
            continue
        sheet = project(room, sheet_document(room, member.id), keeper)
        if sheet is None:
            continue
        tagline = sheet.get("tagline")
        lines.append(f"### {sheet['name']} ({member.id}" + (f", {tagline}" if tagline else "") + ")")
        lines.append("; ".join(f"{pack.display_name(k, keeper.locale)} {_fmt(v)}" for k, v in sheet["values"].items()))
        if sheet["expressions"]:
            lines.append("; ".join(f"&{k}={v}" for k, v in sheet["expressions"].items()))
        shown_state = {k: v for k, v in sheet["state"].items() if k != LAST_CHECK}
        if shown_state:
            lines.append(t("prompt.sheet_state", state=json.dumps(shown_state, ensure_ascii=False)))
        notes = (sheet.get("extra") or {}).get("notes")
        if isinstance(notes, str) and notes.strip():
            lines.append(notes.strip())
    return "\n".join(lines) if len(lines) > 1 else ""


def variables_text(room: Room, keeper: Viewer) -> str:
    """Every module variable as the keeper sees it (kind, visibility, value, bounds or options
    with their labels in the reader's locale), then the MVU tree's leaves."""
    t = kernel_catalogue().bind(keeper.locale)
    lines = []
    for var_def in room.variables.variables:
        var = project(room, variable_document(var_def), keeper)
        if var is None:
            continue
        bounds = ""
        if var["minimum"] is not None or var["maximum"] is not None:
            low = _fmt(var["minimum"]) if var["minimum"] is not None else ""
            high = _fmt(var["maximum"]) if var["maximum"] is not None else ""
            bounds = f" [{low}..{high}]"
        if var["options"]:
            shown = [o if not var["option_labels"] or label == o else f"{o} ({label})"
                     for o, label in zip(var["options"], var["option_labels"] or var["options"])]
            bounds = f" {{{' | '.join(shown)}}}"
        tag = t("prompt.keeper_only") if var["keeper_only"] else t("prompt.player_visible")
        value = json.dumps(var["value"], ensure_ascii=False)
        if var["value_label"] is not None and var["value_label"] != var["value"]:
            value += f" ({var['value_label']})"
        lines.append(f"- {var['id']} ({var['label']}, {var['kind']}, {tag}) = {value}{bounds}")
    text = ""
    if lines:
        text = t("prompt.variables") + "\n" + "\n".join(lines)
    tree = tree_text(room, keeper)
    if tree:
        text = f"{text}\n\n{tree}" if text else tree
    return text


def tree_text(room: Room, keeper: Viewer) -> str:
    """The MVU tree's leaves, each marked when players do not see it."""
    doc = room.documents.get("mvu", "mvu")
    view = project(room, doc, keeper) if doc is not None else None
    if not view or not view["leaves"]:
        return ""
    t = kernel_catalogue().bind(keeper.locale)
    lines = [f"- {leaf['path']} = {json.dumps(leaf['value'], ensure_ascii=False)}" for leaf in view["leaves"]]
    lines = [line if leaf["exposed"] else t("prompt.tree_hidden", line=line) for line, leaf in zip(lines, view["leaves"])]
    return t("prompt.tree") + "\n" + "\n".join(lines)


def story_text(room: Room, keeper: Viewer) -> str:
    """The story so far (with the keeper's margin), the chronicle since, and the open threads."""
    t = kernel_catalogue().bind(keeper.locale)
    parts = []
    summary = chronicle.summary(room)
    view = project(room, summary, keeper) if summary is not None else None
    if view and view.get("text"):
        block = t("prompt.story") + "\n" + view["text"]
        if view.get("keeper"):
            block += "\n" + t("prompt.story_margin", text=view["keeper"])
        parts.append(block)
    entries = [chronicle.entry_line(entry, keeper.locale)
               for entry in (project(room, doc, keeper) for doc in chronicle.unfolded(room)) if entry]
    if entries:
        parts.append(t("prompt.chronicle") + "\n" + "\n".join(entries))
    threads = [project(room, doc, keeper) for doc in room.documents.all(chronicle.THREAD)]
    open_threads = [t for t in threads if t and t.get("status") == "open"]
    if open_threads:
        parts.append(t("prompt.threads") + "\n" + "\n".join(f"- {t['label']}" + (f": {t['notes']}" if t.get("notes") else "") for t in open_threads))
    return "\n\n".join(parts)


def history_lines(room: Room, keeper: Viewer, limit: int = HISTORY_IN_PROMPT) -> list[str]:
    """The last ``limit`` history entries (0: all), oldest first, one line each as the keeper
    reads them (keeper-only ones marked)."""
    lines = []
    for entry in room.history.tail(limit) if limit else room.history.all():
        line = project(room, event_document(entry), keeper)
        if line is not None:
            secret = " (keeper)" if line["keeper_only"] else ""
            lines.append(f"[{line['turn']}] {line['role']} {line['member'] or line['role']}{secret}: {line['text']}")
    return lines
