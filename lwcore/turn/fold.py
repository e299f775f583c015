"""Folding the chronicle into the story so far: when, what, and the model step that writes it.

**Policy** (deterministic, :func:`fold_plan`): estimate how full the assembled prompt is
against the room model's window (:func:`estimate_tokens`, CJK-aware); at ``>= 0.60`` fold the
oldest chronicle entries (in the order they were written) in batches until the estimate is
``<= 0.40``; at ``>= 0.85`` fold *before* the next model call. Entries newer than
``current_turn - lag`` (default 4) are never folded, and a fold whose input names one is
refused (:func:`check_fold_input`).

**In a turn** the fold is planned once (:func:`plan_turn`), from the turn's logical messages
before the provider compiles them: an emergency fold runs before the model call (and the
turn's messages are rebuilt with the new summary, then compiled once), any other after the
turn is applied (:func:`fold_batches`).

**The step** (:func:`run_fold`) is a model step through the turn's provider
(:class:`lwcore.turn.provider.Provider`); its result replaces the folded entries *in the
prompt* (the summary covers them), never in the files. The public summary is folded from
public text only, the keeper's margin by a request of its own (see :mod:`lwcore.turn.chronicle`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import takewhile
from typing import Any

from lwcore.errors import LwError
from lwcore.i18n import kernel_catalogue
from lwcore.turn.chronicle import SUMMARY, SUMMARY_BUDGET, SUMMARY_ID, entry_line, entry_turn, summary, unfolded_records
from lwcore.turn.documents import Document, LogRecord, keeper_viewer, project, table_viewer
from lwcore.turn.events import FoldDue
from lwcore.turn.history import HistoryEntry
from lwcore.turn.provider import Message, Provider, Respond
from lwcore.turn.room import Room

TRIGGER = 0.60
FLOOR = 0.40
EMERGENCY = 0.85
LAG_TURNS = 4
BATCH = 8
FOLD_MAX_TOKENS = 2048
"""The token limit of a fold's request."""
DEFAULT_WINDOW = 32_000
"""Tokens, when the room names no ``context_window``."""


# --- the fold policy ----------------------------------------------------------------------


def estimate_tokens(text: str) -> int:
    """A deterministic token estimate: one token per CJK character, one per four others
    (a flat chars/4 would count a Chinese campaign four times too small)."""
    if not text:
        return 0
    cjk = sum(map(len, _CJK.findall(text)))  # linear in C: a 4 MB prompt in milliseconds
    return max(1, cjk + (len(text) - cjk + 3) // 4)


_CJK = re.compile("[\u2e80-\u9fff\u3000-\u303f\uff00-\uffef\uf900-\ufaff\U00020000-\U0002fa1f]+")
"""Runs of CJK characters (the ideographs and radicals, CJK punctuation, full-width forms)."""


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
    """The deterministic plan: ``entries`` are ``(id, turn, tokens)`` of the unfolded
    chronicle entries in chronicle order. Folds them oldest first -- the run of entries at or
    below the watermark that starts the chronicle (the summary covers a prefix of it) -- in
    batches of ``batch`` until the estimate is at or below :data:`FLOOR`, when fullness
    reached :data:`TRIGGER`. Each folded entry's tokens leave the prompt;
    ``summary_tokens_per_entry`` is what it costs inside the summary instead."""
    fullness = prompt_tokens / window if window > 0 else 1.0
    level = decision(fullness)
    if level == "none":
        return FoldPlan(level, (), fullness, fullness)
    limit = watermark(current_turn, lag)
    eligible = list(takewhile(lambda e: e[1] <= limit, entries))
    batches: list[tuple[str, ...]] = []
    tokens = prompt_tokens
    for start in range(0, len(eligible), max(1, batch)):
        if tokens / window <= FLOOR:
            break
        chunk = eligible[start:start + batch]
        batches.append(tuple(e[0] for e in chunk))
        tokens -= sum(max(0, e[2] - summary_tokens_per_entry) for e in chunk)
    return FoldPlan(level, tuple(batches), fullness, tokens / window if window > 0 else 1.0)


def _fold_input(room: Room, ids: Sequence[str], *, current_turn: int, lag: int = LAG_TURNS) -> list[LogRecord]:
    limit = watermark(current_turn, lag)
    pending = unfolded_records(room)
    by_id = {r.id: r for r in pending}
    for entry_id in ids:
        found = by_id.get(entry_id)
        if found is None or found.doc is None:
            raise LwError(f"fold input names unknown chronicle entry {entry_id!r} (or one the summary already covers)")
        if entry_turn(found.doc) > limit:
            raise LwError(f"chronicle entry {entry_id!r} (turn {entry_turn(found.doc)}) is newer than the fold "
                          f"watermark {limit}: the last {lag} turns are never folded", code="refused")
    oldest = [r.id for r in pending[:len(ids)]]
    if not ids or list(ids) != oldest:
        raise LwError(f"a fold takes the oldest unfolded chronicle entries in order: {', '.join(oldest) or 'none'}, "
                      f"not {', '.join(ids) or 'none'}", code="refused")
    return pending[:len(ids)]


def check_fold_input(room: Room, ids: Sequence[str], *, current_turn: int, lag: int = LAG_TURNS) -> list[Document]:
    """The chronicle entries of a fold, refused (:class:`LwError`) when one is newer than the
    watermark, unknown or already covered, or when they are not the oldest unfolded entries
    in order: the engine's no-future guard (and the summary only ever covers a prefix)."""
    return [r.doc for r in _fold_input(room, ids, current_turn=current_turn, lag=lag) if r.doc is not None]


# --- the fold step ------------------------------------------------------------------------


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
    t = kernel_catalogue().bind(locale)
    lines = [entry_line(view, locale) for view in (project(room, doc, table) for doc in docs) if view]
    current = summary(room)
    previous = (project(room, current, table) or {}).get("text", "") if current is not None else ""
    heading, entries = t("fold.summary_heading"), t("fold.entries_heading")
    rules = t("fold.rules", budget=SUMMARY_BUDGET)
    return _fold_request("lw:fold", rules, f"## {heading}\n{previous or '—'}\n\n## {entries}\n" + "\n".join(lines))


def margin_messages(room: Room, docs: Sequence[Document], locale: str) -> list[dict[str, Any]] | None:
    """The logical messages of the request that writes the keeper margin: the current margin
    and the folded entries as the keeper sees them, annotations included (``None`` when no
    entry carries one). Its answer is projected to the keeper alone."""
    keeper = keeper_viewer(room)
    t = kernel_catalogue().bind(locale)
    views = [view for view in (project(room, doc, keeper) for doc in docs) if view]
    if not any(view.get("keeper") for view in views):
        return None
    current = summary(room)
    previous = (project(room, current, keeper) or {}).get("keeper", "") if current is not None else ""
    heading, entries = t("fold.margin_heading"), t("fold.margin_entries_heading")
    rules = t("fold.margin_rules", budget=SUMMARY_BUDGET)
    body = f"## {heading}\n{previous or '—'}\n\n## {entries}\n" + "\n".join(entry_line(v, locale) for v in views)
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


def apply_fold(room: Room, records: Sequence[LogRecord], text: str, *, margin: str | None = None) -> Document:
    """Write the fold's result as the summary (cut to the budget), covering ``records`` (the
    oldest unfolded entries, in order); ``margin``, when given, replaces the keeper margin."""
    text = bounded(text, "summary text")
    current = summary(room)
    data: dict[str, Any] = dict(current.data) if current else {"keeper": "", "fold_count": 0, "through_turn": 0}
    data["text"] = text
    if margin is not None:
        data["keeper"] = bounded(margin, "keeper margin")
    data["fold_count"] = int(data.get("fold_count", 0)) + 1
    data["through_turn"] = max([int(data.get("through_turn", 0)), *(entry_turn(r.doc) for r in records if r.doc)])
    data["covers"] = {"entry": records[-1].id, "byte": records[-1].end}
    return room.documents.put(Document(SUMMARY_ID, SUMMARY, data))


# --- folding in a turn --------------------------------------------------------------------


def window_of(room: Room) -> int:
    """Tokens the room's model reads (``context_window``, else :data:`DEFAULT_WINDOW`)."""
    return room.file.context_window or DEFAULT_WINDOW


def prompt_tokens(messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> int:
    """The estimated size of a turn's prompt from its logical messages (their text) and the
    tool definitions offered with them -- what the model will read, before any compiler."""
    text = json.dumps({"messages": [m.get("markdown", "") for m in messages], "tools": list(tools)},
                      ensure_ascii=False)
    return estimate_tokens(text)


@dataclass(frozen=True)
class TurnFolds:
    """A turn's fold plan (made once, :func:`plan_turn`): the ``level`` and ``fullness`` of its
    prompt, the batches to fold ``before`` the model call (an emergency) and ``after`` the turn."""

    level: str
    fullness: float
    before: tuple[tuple[str, ...], ...] = ()
    after: tuple[tuple[str, ...], ...] = ()


def plan_turn(room: Room, tokens: int) -> TurnFolds:
    """The fold plan of the turn about to be played in ``room`` for a prompt of ``tokens``
    (:func:`prompt_tokens`): at the emergency level, the batches foldable now (the room at its
    current turn), else -- or when none is foldable yet -- the batches foldable once the turn
    is played (the watermark one turn on); each folds until the prompt is at the floor."""
    keeper = keeper_viewer(room)
    entries = [(doc.id, entry_turn(doc), estimate_tokens(entry_line(project(room, doc, keeper) or {}, room.file.locale)))
               for doc in (r.doc for r in unfolded_records(room)) if doc is not None]
    window = window_of(room)
    now = fold_plan(entries, prompt_tokens=tokens, window=window, current_turn=room.turn_number)
    if now.level == "none":
        return TurnFolds("none", now.fullness)
    if now.level == "emergency" and now.batches:
        return TurnFolds(now.level, now.fullness, before=now.batches)
    later = fold_plan(entries, prompt_tokens=tokens, window=window, current_turn=room.turn_number + 1)
    return TurnFolds(now.level, now.fullness, after=later.batches)


def run_fold(provider: Provider, room: Room, ids: Sequence[str], *, respond: Respond, locale: str) -> FoldResult:
    """One fold: check the input (no-future guard), ask the model for the new public summary
    from public text, and -- when the entries carry keeper annotations -- for the new keeper
    margin by a separate request; then write both. Each request is compiled through the
    turn's provider like a turn's (no tools). The caller saves the room."""
    records = _fold_input(room, ids, current_turn=room.turn_number)
    docs = [r.doc for r in records if r.doc is not None]

    def ask(messages: list[dict[str, Any]]) -> tuple[Mapping[str, Any], str]:
        request = provider.compile(messages, [], model=None, max_tokens=FOLD_MAX_TOKENS).body
        return request, provider.parse(respond(request)).text

    request, text = ask(fold_messages(room, docs, locale))
    margin_request, margin = None, None
    keeper_part = margin_messages(room, docs, locale)
    if keeper_part is not None:
        margin_request, margin = ask(keeper_part)
    written = apply_fold(room, records, text, margin=margin)
    return FoldResult([r.id for r in records], written, request, margin_request)


def fold_batches(
    provider: Provider, room: Room, batches: Sequence[Sequence[str]], *, respond: Respond | None, locale: str,
    fullness: float,
) -> list[FoldResult]:
    """Fold ``batches`` (each a model step) and save; with no way to ask a model, note once
    (keeper-only) that a fold is due (``fullness`` of the window) and fold nothing."""
    if not batches:
        return []
    if respond is None:
        due = FoldDue(fullness=round(fullness, 3),
                      summary=f"chronicle fold due ({fullness:.0%} of the window); no model to fold with")
        room.record(HistoryEntry.of_event(due, turn=room.turn_number))
        room.save()
        return []
    results = [run_fold(provider, room, batch, respond=respond, locale=locale) for batch in batches]
    room.save()
    return results
