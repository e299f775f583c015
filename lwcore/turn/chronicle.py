"""The campaign chronicle (M18): what the table did, folded deterministically into a summary.

Three document types (registered by the built-in ``turn`` plugin):

- ``chronicle`` (append-only log): ``{text, keeper, turn, pcs, scene}`` -- ``text`` is what
  happened (public), ``keeper`` what the players missed (keeper-only). Written by the
  ``chronicle_record`` tool, which takes no turn: the engine stamps the turn being played,
  so nothing is ever written ahead of the fiction.
- ``campaign_summary`` (one document, id ``summary``): ``{text, keeper, through_turn,
  fold_count, folded}`` -- "the story so far" within :data:`SUMMARY_BUDGET` characters; its
  player projection is ``.recap``.
- ``thread`` (keeper-only): open loops, ``{label, status: open|resolved, notes}``.

**What the players may read stays apart from what they may not.** The summary's ``text`` is
folded from the *public* projections only (the entries' public text and the previous public
summary, projected for :func:`~lwcore.turn.documents.table_viewer`); the keeper annotations of
the same entries are folded, by a request of their own, into the keeper margin, which only the
keeper's projection shows. A fold model that copies its whole input into its answer therefore
puts nothing keeper-only into ``.recap``.

**Fold policy** (deterministic, :func:`fold_plan`): estimate how full the assembled prompt is
against the room model's window (:func:`estimate_tokens`, CJK-aware); at ``>= 0.60`` fold the
oldest chronicle entries in batches until the estimate is ``<= 0.40``; at ``>= 0.85`` fold
*before* the next model call. Entries newer than ``current_turn - lag`` (default 4) are never
folded, and a fold whose input names one is refused (:func:`check_fold_input`). The fold is a
model step through the same provider path as a turn; its result replaces the folded entries
*in the prompt* (the summary covers them), never in the files.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lwcore.errors import LwError
from lwcore.turn.documents import Document, keeper_viewer, project, table_viewer

if TYPE_CHECKING:
    from lwcore.turn.room import Room

CHRONICLE = "chronicle"
SUMMARY = "campaign_summary"
SUMMARY_ID = "summary"
THREAD = "thread"
THREAD_STATUSES = ("open", "resolved")

TRIGGER = 0.60
FLOOR = 0.40
EMERGENCY = 0.85
LAG_TURNS = 4
BATCH = 8
SUMMARY_BUDGET = 4000
"""Characters the summary may hold (a fold's result is cut there, at a sentence if it can)."""
DEFAULT_WINDOW = 32_000
"""Tokens, when the room names no ``context_window``."""


# --- validation ---------------------------------------------------------------------------


def _nonneg_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def validate_chronicle(doc: Document, room: Room) -> list[str]:
    data = doc.data
    problems = []
    if not isinstance(data.get("text"), str) or not data["text"].strip():
        problems.append("text must be a non-empty string")
    if not _nonneg_int(data.get("turn")):
        problems.append("turn must be a whole number (the turn the entry was written after)")
    elif data["turn"] > room.turn_number + 1:
        problems.append(f"turn {data['turn']} is ahead of the fiction (the room is at turn {room.turn_number})")
    if not isinstance(data.get("keeper", ""), str):
        problems.append("keeper must be a string")
    if not _strings(data.get("pcs", [])):
        problems.append("pcs must be a list of character names")
    if not isinstance(data.get("scene", ""), str):
        problems.append("scene must be a string")
    return problems


def validate_summary(doc: Document, room: Room) -> list[str]:
    data = doc.data
    problems = []
    if not isinstance(data.get("text"), str):
        problems.append("text must be a string")
    elif len(data["text"]) > SUMMARY_BUDGET:
        problems.append(f"text is over the {SUMMARY_BUDGET}-character budget")
    for key in ("through_turn", "fold_count"):
        if not _nonneg_int(data.get(key, 0)):
            problems.append(f"{key} must be a whole number")
    if not isinstance(data.get("keeper", ""), str):
        problems.append("keeper must be a string")
    if not _strings(data.get("folded", [])):
        problems.append("folded must be a list of chronicle ids")
    return problems


def validate_thread(doc: Document, room: Room) -> list[str]:
    data = doc.data
    problems = []
    if not isinstance(data.get("label"), str) or not data["label"].strip():
        problems.append("label must be a non-empty string")
    if data.get("status") not in THREAD_STATUSES:
        problems.append(f"status must be one of: {', '.join(THREAD_STATUSES)}")
    if not isinstance(data.get("notes", ""), str):
        problems.append("notes must be a string")
    return problems


def thread_id(label: str) -> str:
    """A thread's id from its label, so re-stating a loop updates it instead of adding one."""
    return "t-" + hashlib.sha1(label.strip().casefold().encode("utf-8")).hexdigest()[:10]


# --- writing ------------------------------------------------------------------------------


def record(room: Room, text: str, *, keeper: str = "", pcs: Sequence[str] = (), scene: str = "") -> Document:
    """Append a chronicle entry for the turn being played (the engine stamps the turn)."""
    turn = room.turn_number + 1
    existing = room.documents.all(CHRONICLE)
    doc = Document(f"c-{turn}-{len(existing) + 1}", CHRONICLE,
                   {"text": text, "keeper": keeper, "turn": turn, "pcs": list(pcs), "scene": scene})
    return room.documents.put(doc)


def summary(room: Room) -> Document | None:
    return room.documents.get(SUMMARY, SUMMARY_ID)


def unfolded(room: Room) -> list[Document]:
    """Chronicle entries the summary does not cover yet, oldest first."""
    current = summary(room)
    through = current.data.get("through_turn", 0) if current else 0
    folded = set(current.data.get("folded", ())) if current else set()
    entries = [d for d in room.documents.all(CHRONICLE) if d.data.get("turn", 0) > through or d.id not in folded]
    entries = [d for d in entries if d.id not in folded]
    return sorted(entries, key=lambda d: (d.data.get("turn", 0), d.id))


def entry_line(view: Mapping[str, Any], zh: bool) -> str:
    """One chronicle entry as a line, from a viewer's projection of it (the keeper's brings
    its annotation)."""
    line = f"[{view.get('turn')}] {view.get('text', '')}"
    if view.get("keeper"):
        line += ("（守秘人：" if zh else " (keeper: ") + str(view["keeper"]) + ("）" if zh else ")")
    return line


# --- the fold policy ----------------------------------------------------------------------


def estimate_tokens(text: str) -> int:
    """A deterministic token estimate: one token per CJK character, one per four others
    (a flat chars/4 would count a Chinese campaign four times too small)."""
    if not text:
        return 0
    cjk = sum(1 for ch in text if _cjk(ch))
    return max(1, cjk + (len(text) - cjk + 3) // 4)


def _cjk(ch: str) -> bool:
    code = ord(ch)
    return (0x2E80 <= code <= 0x9FFF or 0x3000 <= code <= 0x303F or 0xFF00 <= code <= 0xFFEF
            or 0xF900 <= code <= 0xFAFF or 0x20000 <= code <= 0x2FA1F)


def decision(fullness: float) -> str:
    """``none`` | ``fold`` (after this turn) | ``emergency`` (before the next model call)."""
    if fullness >= EMERGENCY:
        return "emergency"
    if fullness >= TRIGGER:
        return "fold"
    return "none"


def watermark(current_turn: int, lag: int = LAG_TURNS) -> int:
    """Entries at or below this turn may be folded; the last ``lag`` turns stay raw."""
    return current_turn - lag


@dataclass(frozen=True)
class FoldPlan:
    """What to fold now: ``batches`` of chronicle ids (oldest first), and the estimated
    fullness before and after."""

    level: str
    batches: tuple[tuple[str, ...], ...]
    fullness: float
    after: float


def fold_plan(
    entries: Sequence[tuple[str, int, int]], *, prompt_tokens: int, window: int, current_turn: int,
    lag: int = LAG_TURNS, batch: int = BATCH, summary_tokens_per_entry: int = 0,
) -> FoldPlan:
    """The deterministic plan: ``entries`` are ``(id, turn, tokens)`` of unfolded chronicle
    entries. Folds (oldest first, eligible only at or below the watermark) in batches of
    ``batch`` until the estimate is at or below :data:`FLOOR` -- when fullness reached
    :data:`TRIGGER`. Each folded entry's tokens leave the prompt; ``summary_tokens_per_entry``
    is what it costs inside the summary instead."""
    fullness = prompt_tokens / window if window > 0 else 1.0
    level = decision(fullness)
    if level == "none":
        return FoldPlan(level, (), fullness, fullness)
    limit = watermark(current_turn, lag)
    eligible = sorted((e for e in entries if e[1] <= limit), key=lambda e: (e[1], e[0]))
    batches: list[tuple[str, ...]] = []
    tokens = prompt_tokens
    for start in range(0, len(eligible), max(1, batch)):
        if tokens / window <= FLOOR:
            break
        chunk = eligible[start:start + batch]
        batches.append(tuple(e[0] for e in chunk))
        tokens -= sum(max(0, e[2] - summary_tokens_per_entry) for e in chunk)
    return FoldPlan(level, tuple(batches), fullness, tokens / window if window > 0 else 1.0)


def check_fold_input(room: Room, ids: Sequence[str], *, current_turn: int, lag: int = LAG_TURNS) -> list[Document]:
    """The chronicle entries of a fold, refused (:class:`LwError`) when one is newer than the
    watermark or unknown: the engine's no-future guard."""
    limit = watermark(current_turn, lag)
    docs = []
    for entry_id in ids:
        doc = room.documents.get(CHRONICLE, entry_id)
        if doc is None:
            raise LwError(f"fold input names unknown chronicle entry {entry_id!r}")
        if doc.data.get("turn", 0) > limit:
            raise LwError(f"chronicle entry {entry_id!r} (turn {doc.data.get('turn')}) is newer than the fold "
                          f"watermark {limit}: the last {lag} turns are never folded", code="refused")
        docs.append(doc)
    return docs


# --- the fold step ------------------------------------------------------------------------

FOLD_INSTRUCTIONS = {
    "en": (
        "You keep the campaign's story-so-far. Fold the chronicle entries below into the "
        "current summary: one continuous account of what the table did, oldest first, in the "
        "past tense, at most {budget} characters. Keep names, places, promises and open "
        "questions; drop dice figures. Write only the new summary text."
    ),
    "zh": (
        "你负责维护本战役的“前情提要”。把下面的编年史条目并入现有提要：按时间顺序、用过去时，"
        "写成一段连贯的记述，至多 {budget} 字。保留人名、地名、许诺与悬而未决的问题，略去骰点。"
        "只写新的提要正文。"
    ),
}


MARGIN_INSTRUCTIONS = {
    "en": (
        "You keep the keeper's private margin beside the campaign's story-so-far: what the "
        "players missed, what is in motion behind the scenes, the secrets in play. Fold the "
        "keeper annotations below into the current margin, oldest first, at most {budget} "
        "characters. The players never read it. Write only the new margin text."
    ),
    "zh": (
        "你负责维护“前情提要”旁的守秘人私注：玩家错过了什么、幕后有什么在推进、哪些秘密仍在起作用。"
        "把下面的守秘人注并入现有私注，按时间顺序，至多 {budget} 字。玩家永远读不到它。只写新的私注正文。"
    ),
}


@dataclass
class FoldResult:
    """One fold: the entries it covered, the summary it wrote, the public request and (when
    the entries carried keeper annotations) the keeper margin's own request."""

    folded: list[str]
    summary: Document
    request: Mapping[str, Any] = field(default_factory=dict)
    margin_request: Mapping[str, Any] | None = None


def _fold_request(prompt_id: str, rules: str, body: str) -> list[dict[str, Any]]:
    return [
        {"role": "runtime_system", "messageRole": "system", "promptId": prompt_id, "markdown": rules,
         "blocks": [{"source": "lwcore:fold", "markdown": rules}]},
        {"role": "player_input", "markdown": body, "blocks": []},
    ]


def fold_messages(room: Room, docs: Sequence[Document], locale: str) -> list[dict[str, Any]]:
    """The logical messages of the request that writes the public summary: built from the
    player projections only (:func:`~lwcore.turn.documents.table_viewer`) -- the entries'
    public text and the summary the players already read -- so nothing in it is keeper-only."""
    table = table_viewer(room, locale)
    zh = locale.startswith("zh")
    lines = [entry_line(view, zh) for view in (project(room, doc, table) for doc in docs) if view]
    current = summary(room)
    previous = (project(room, current, table) or {}).get("text", "") if current is not None else ""
    heading = "现有提要" if zh else "Current summary"
    entries = "待并入的条目" if zh else "Entries to fold in"
    rules = FOLD_INSTRUCTIONS["zh" if zh else "en"].format(budget=SUMMARY_BUDGET)
    return _fold_request("lw:fold", rules, f"## {heading}\n{previous or '—'}\n\n## {entries}\n" + "\n".join(lines))


def margin_messages(room: Room, docs: Sequence[Document], locale: str) -> list[dict[str, Any]] | None:
    """The logical messages of the request that writes the keeper margin: the current margin
    and the folded entries as the keeper sees them, annotations included (``None`` when no
    entry carries one). Its answer is projected to the keeper alone."""
    keeper = keeper_viewer(room)
    zh = locale.startswith("zh")
    views = [view for view in (project(room, doc, keeper) for doc in docs) if view]
    if not any(view.get("keeper") for view in views):
        return None
    current = summary(room)
    previous = (project(room, current, keeper) or {}).get("keeper", "") if current is not None else ""
    heading = "现有私注" if zh else "Current margin"
    entries = "待并入的条目（含守秘人注）" if zh else "Entries to fold in (with keeper annotations)"
    rules = MARGIN_INSTRUCTIONS["zh" if zh else "en"].format(budget=SUMMARY_BUDGET)
    body = f"## {heading}\n{previous or '—'}\n\n## {entries}\n" + "\n".join(entry_line(v, zh) for v in views)
    return _fold_request("lw:fold-margin", rules, body)


def bounded(text: str, what: str) -> str:
    """A fold's answer cut to :data:`SUMMARY_BUDGET` characters (at a sentence end when one
    is past the middle); an empty answer is refused, so nothing is folded."""
    text = text.strip()
    if not text:
        raise LwError(f"the fold returned no {what}; nothing was folded")
    if len(text) > SUMMARY_BUDGET:
        cut = text[:SUMMARY_BUDGET]
        stop = max(cut.rfind(p) for p in ("。", ". ", "！", "？", "\n"))
        text = cut[: stop + 1].strip() if stop > SUMMARY_BUDGET // 2 else cut
    return text


def apply_fold(room: Room, docs: Sequence[Document], text: str, *, margin: str | None = None) -> Document:
    """Write the fold's result as the summary (cut to the budget), covering ``docs``;
    ``margin``, when given, replaces the keeper margin."""
    text = bounded(text, "summary text")
    current = summary(room)
    data = dict(current.data) if current else {"keeper": "", "fold_count": 0, "folded": [], "through_turn": 0}
    data["text"] = text
    if margin is not None:
        data["keeper"] = bounded(margin, "keeper margin")
    data["fold_count"] = int(data.get("fold_count", 0)) + 1
    data["folded"] = [*data.get("folded", []), *(d.id for d in docs)]
    data["through_turn"] = max([int(data.get("through_turn", 0)), *(int(d.data.get("turn", 0)) for d in docs)])
    return room.documents.put(Document(SUMMARY_ID, SUMMARY, data))


# --- folding in a turn --------------------------------------------------------------------

Respond = Callable[[Mapping[str, Any]], Mapping[str, Any]]
"""Answers one provider request with the provider's reply (an endpoint, or recorded replies)."""


def window_of(room: Room) -> int:
    return room.file.context_window or DEFAULT_WINDOW


def plan_for(room: Room, request: Mapping[str, Any]) -> FoldPlan:
    """The fold plan for a compiled request of this room (its estimated size against the
    room model's window; what folding each unfolded entry would take out of the prompt)."""
    import json

    prompt_tokens = estimate_tokens(json.dumps(request, ensure_ascii=False))
    entries = [(d.id, int(d.data.get("turn", 0)),
                estimate_tokens(f"[{d.data.get('turn')}] {d.data.get('text', '')} {d.data.get('keeper', '')}"))
               for d in unfolded(room)]
    return fold_plan(entries, prompt_tokens=prompt_tokens, window=window_of(room), current_turn=room.turn_number)


def run_fold(kernel: Any, room: Room, ids: Sequence[str], *, protocol: str, respond: Respond, locale: str) -> FoldResult:
    """One fold: check the input (no-future guard), ask the model for the new public summary
    from public text, and -- when the entries carry keeper annotations -- for the new keeper
    margin by a separate request; then write both. Each request is compiled through the
    provider path like a turn's. The caller saves the room."""
    from lwcore.turn.pipeline import adapter_for, compiler_for, payload_of

    docs = check_fold_input(room, ids, current_turn=room.turn_number)
    adapter = adapter_for(kernel, protocol)
    compiler = compiler_for(kernel, protocol)

    def ask(messages: list[dict[str, Any]]) -> tuple[Mapping[str, Any], str]:
        request = adapter.request(payload_of(compiler(messages, tools=[])), [], model=None, max_tokens=2048)
        return request, adapter.parse_reply(respond(request)).text

    request, text = ask(fold_messages(room, docs, locale))
    margin_request, margin = None, None
    keeper_part = margin_messages(room, docs, locale)
    if keeper_part is not None:
        margin_request, margin = ask(keeper_part)
    written = apply_fold(room, docs, text, margin=margin)
    return FoldResult([d.id for d in docs], written, request, margin_request)


def fold_as_planned(
    kernel: Any, room: Room, plan: FoldPlan, *, protocol: str, respond: Respond | None, locale: str,
) -> list[FoldResult]:
    """Run the plan's batches (each a model step) and save; with no way to ask a model, note
    once (keeper-only) that a fold is due and fold nothing."""
    from lwcore.turn.room import HistoryEntry

    if not plan.batches:
        return []
    if respond is None:
        room.record(HistoryEntry(turn=room.turn_number, role="event", audience="keeper",
                                 text=f"chronicle fold due ({plan.fullness:.0%} of the window); no model to fold with",
                                 data={"kind": "fold_due", "fullness": round(plan.fullness, 3)}))
        room.save()
        return []
    results = [run_fold(kernel, room, batch, protocol=protocol, respond=respond, locale=locale) for batch in plan.batches]
    room.save()
    return results
