"""The campaign chronicle (M18): what the table did, folded deterministically into a summary.

Three document types (registered by the built-in ``turn`` plugin):

- ``chronicle`` (append-only log): ``{text, keeper, turn, pcs, scene}`` -- ``text`` is what
  happened (public), ``keeper`` what the players missed (keeper-only). Written by the
  ``chronicle_record`` tool, which takes no turn: the engine stamps the turn being played,
  so nothing is ever written ahead of the fiction.
- ``campaign_summary`` (one document, id ``summary``): ``{text, keeper, through_turn,
  fold_count, covers}`` -- "the story so far" within :data:`SUMMARY_BUDGET` characters; its
  player projection is ``.recap``. ``keeper`` is the keeper's margin (keeper-only).
  ``covers`` (``{entry, byte}``) says how far into ``docs/chronicle.jsonl`` the summary
  reaches: every record up to byte ``byte``, the last of them entry ``entry``'s.
- ``thread`` (keeper-only): open loops, ``{label, status: open|resolved, notes}``.

**What the players may read stays apart from what they may not.** The summary's ``text`` is
folded from the *public* projections only (the entries' public text and the previous public
summary, projected for :func:`~lwcore.turn.documents.table_viewer`); the keeper annotations of
the same entries are folded, by a request of their own, into the keeper margin, which only the
keeper's projection shows. A fold model that copies its whole input into its answer therefore
puts nothing keeper-only into ``.recap``.

**Bounded reads.** The chronicle gains an entry a turn and is never rewritten; the summary
covers a prefix of it. A turn reads only the records after ``covers.byte`` (checked: the
record ending there must be entry ``covers.entry``'s, else the cursor is found again by id,
reading from the end) -- what the prompt shows, never the folded past.

**Fold policy** (deterministic, :func:`fold_plan`): estimate how full the assembled prompt is
against the room model's window (:func:`estimate_tokens`, CJK-aware); at ``>= 0.60`` fold the
oldest chronicle entries (in the order they were written) in batches until the estimate is
``<= 0.40``; at ``>= 0.85`` fold *before* the next model call. Entries newer than
``current_turn - lag`` (default 4) are never folded, and a fold whose input names one is
refused (:func:`check_fold_input`). The fold is a
model step through the same provider path as a turn; its result replaces the folded entries
*in the prompt* (the summary covers them), never in the files.
"""

from __future__ import annotations

import re
import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import takewhile
from typing import Any

from lwcore.errors import LwError
from lwcore.turn.documents import Document, LogRecord, keeper_viewer, project, table_viewer
from lwcore.turn.room import HistoryEntry, Room

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
    covers = data.get("covers")
    if covers is not None and not (isinstance(covers, dict) and isinstance(covers.get("entry"), str)
                                   and _nonneg_int(covers.get("byte"))):
        problems.append("covers must be {entry: <chronicle id>, byte: <offset in docs/chronicle.jsonl>}")
    return problems


def summary_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 -> 2: the list of every folded id becomes the ``covers`` cursor (its byte is
    found again from the entry on first read, then saved)."""
    data = dict(data)
    folded = data.pop("folded", None)
    if isinstance(folded, list) and folded and isinstance(folded[-1], str):
        data["covers"] = {"entry": folded[-1], "byte": 0}
    return data


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


# --- reading and writing the chronicle (bounded) ------------------------------------------


def summary(room: Room) -> Document | None:
    return room.documents.get(SUMMARY, SUMMARY_ID)


def _turn(doc: Document) -> int:
    turn = doc.data.get("turn", 0)
    return turn if _nonneg_int(turn) else 0


def _start(room: Room) -> tuple[int, int | None]:
    """Where the records the summary does not cover begin: ``(byte, None)``; or, when its
    cursor names no record of the log, ``(0, through_turn)`` (read everything, and count
    entries up to ``through_turn`` as covered).

    The cursor is checked (the record ending at ``covers.byte`` must be ``covers.entry``'s).
    When the log was edited by hand before it, the cursor is found again after the *oldest*
    record of that entry -- at worst some folded entries show again until the next fold,
    never is an unfolded one lost -- and put back (saved with the room): one whole read, once."""
    current = summary(room)
    if current is None:
        return 0, None
    through = current.data.get("through_turn", 0)
    fallback = (0, through if _nonneg_int(through) and through > 0 else None)
    covers = current.data.get("covers")
    if not isinstance(covers, dict) or not isinstance(covers.get("entry"), str) or not _nonneg_int(covers.get("byte")):
        return fallback
    log = room.documents.log(CHRONICLE)
    entry, byte = covers["entry"], covers["byte"]
    found = log.ending_at(byte)
    if found is not None and found.id == entry:
        return byte, None
    ends = [record.end for record in log.newest() if record.id == entry]
    if not ends:
        return fallback
    room.documents.put(Document(SUMMARY_ID, SUMMARY, {**current.data, "covers": {"entry": entry, "byte": ends[-1]}}))
    return ends[-1], None


def _unfolded_records(room: Room) -> list[LogRecord]:
    """The chronicle entries the summary does not cover, each as its newest record, in the
    order of those records (the order they were written in, and folded in)."""
    start, through = _start(room)
    latest: dict[str, LogRecord] = {}
    for record in room.documents.log(CHRONICLE).after(start):
        latest.pop(record.id, None)
        if record.doc is not None and (through is None or _turn(record.doc) > through):
            latest[record.id] = record
    return list(latest.values())


def unfolded(room: Room) -> list[Document]:
    """Chronicle entries the summary does not cover yet, oldest first."""
    return [r.doc for r in _unfolded_records(room) if r.doc is not None]


def recent(room: Room, count: int) -> list[Document]:
    """The last ``count`` chronicle entries (folded or not), oldest first, read from the end."""
    seen: set[str] = set()
    out: list[Document] = []
    for record in room.documents.log(CHRONICLE).newest():
        if len(out) >= count:
            break
        if record.id in seen:
            continue
        seen.add(record.id)
        if record.doc is not None:
            out.append(record.doc)
    out.reverse()
    return out


def record(room: Room, text: str, *, keeper: str = "", pcs: Sequence[str] = (), scene: str = "") -> Document:
    """Append a chronicle entry for the turn being played (the engine stamps the turn). Its
    id is ``c-<turn>-<n>``, ``n`` one past the highest this turn used (the turn's records all
    lie after the summary's cursor: a fold never reaches the turn being played)."""
    turn = room.turn_number + 1
    prefix = f"c-{turn}-"
    start, _ = _start(room)
    used = [int(r.id[len(prefix):]) for r in room.documents.log(CHRONICLE).after(start)
            if r.id.startswith(prefix) and r.id[len(prefix):].isdigit()]
    doc = Document(f"{prefix}{max(used, default=0) + 1}", CHRONICLE,
                   {"text": text, "keeper": keeper, "turn": turn, "pcs": list(pcs), "scene": scene})
    return room.documents.put(doc)


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
    pending = _unfolded_records(room)
    by_id = {r.id: r for r in pending}
    for entry_id in ids:
        found = by_id.get(entry_id)
        if found is None or found.doc is None:
            raise LwError(f"fold input names unknown chronicle entry {entry_id!r} (or one the summary already covers)")
        if _turn(found.doc) > limit:
            raise LwError(f"chronicle entry {entry_id!r} (turn {_turn(found.doc)}) is newer than the fold "
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


def apply_fold(room: Room, records: Sequence[LogRecord], text: str, *, margin: str | None = None) -> Document:
    """Write the fold's result as the summary (cut to the budget), covering ``records`` (the
    oldest unfolded entries, in order); ``margin``, when given, replaces the keeper margin."""
    text = bounded(text, "summary text")
    current = summary(room)
    data = dict(current.data) if current else {"keeper": "", "fold_count": 0, "through_turn": 0}
    data["text"] = text
    if margin is not None:
        data["keeper"] = bounded(margin, "keeper margin")
    data["fold_count"] = int(data.get("fold_count", 0)) + 1
    data["through_turn"] = max([int(data.get("through_turn", 0)), *(_turn(r.doc) for r in records if r.doc)])
    data["covers"] = {"entry": records[-1].id, "byte": records[-1].end}
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
    keeper = keeper_viewer(room)
    zh = room.file.locale.startswith("zh")
    entries = [(doc.id, _turn(doc), estimate_tokens(entry_line(project(room, doc, keeper) or {}, zh)))
               for doc in unfolded(room)]
    return fold_plan(entries, prompt_tokens=prompt_tokens, window=window_of(room), current_turn=room.turn_number)


def run_fold(kernel: Any, room: Room, ids: Sequence[str], *, protocol: str, respond: Respond, locale: str) -> FoldResult:
    """One fold: check the input (no-future guard), ask the model for the new public summary
    from public text, and -- when the entries carry keeper annotations -- for the new keeper
    margin by a separate request; then write both. Each request is compiled through the
    provider path like a turn's. The caller saves the room."""
    from lwcore.turn.pipeline import adapter_for, compiler_for, payload_of

    records = _fold_input(room, ids, current_turn=room.turn_number)
    docs = [r.doc for r in records if r.doc is not None]
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
    written = apply_fold(room, records, text, margin=margin)
    return FoldResult([r.id for r in records], written, request, margin_request)


def fold_as_planned(
    kernel: Any, room: Room, plan: FoldPlan, *, protocol: str, respond: Respond | None, locale: str,
) -> list[FoldResult]:
    """Run the plan's batches (each a model step) and save; with no way to ask a model, note
    once (keeper-only) that a fold is due and fold nothing."""
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
