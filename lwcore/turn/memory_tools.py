"""The keeper's campaign-memory tools: record the chronicle, track open threads, keep notes.

``chronicle_record`` takes no turn: the engine stamps the turn being played, so nothing can be
written ahead of the fiction. What these tools write is keeper-side until a projection says
otherwise (a chronicle entry's ``text`` is public, its ``keeper`` note is not; threads and
notes are keeper-only), and their events are recorded for the keeper only.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from lwcore.errors import LwError
from lwcore.turn import chronicle
from lwcore.turn.documents import Document
from lwcore.turn.events import KeeperNote
from lwcore.turn.tools import ToolContext, ToolError

MAX_TEXT = 2000


class ChronicleArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str = Field(min_length=1, max_length=MAX_TEXT, description="what the table did in this stretch (past tense, public)")
    keeper: str = Field(default="", max_length=MAX_TEXT, description="what the players missed or set in motion (keeper-only)")
    pcs: list[str] = Field(default_factory=list, max_length=20, description="the characters involved")
    scene: str = Field(default="", max_length=200, description="where it happened")


class ThreadArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    label: str = Field(min_length=1, max_length=200, description="the open loop in a few words (its identity)")
    status: Literal["open", "resolved"] = "open"
    notes: str = Field(default="", max_length=MAX_TEXT)


class NoteArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    title: str = Field(min_length=1, max_length=200, description="what the note is about (its identity)")
    text: str = Field(max_length=MAX_TEXT, description="the note; empty removes it")


def _written(ctx: ToolContext, summary: str) -> None:
    ctx.events.append(KeeperNote(kind="memory", summary=summary))


def chronicle_record(args: ChronicleArgs, ctx: ToolContext) -> dict[str, Any]:
    try:
        doc = chronicle.record(ctx.room, args.text, keeper=args.keeper, pcs=args.pcs, scene=args.scene)
    except LwError as exc:
        raise ToolError(str(exc)) from None
    _written(ctx, f"chronicle {doc.id} (turn {doc.data['turn']})")
    return {"ok": True, "id": doc.id, "turn": doc.data["turn"]}


def thread_note(args: ThreadArgs, ctx: ToolContext) -> dict[str, Any]:
    doc = Document(chronicle.thread_id(args.label), chronicle.THREAD,
                   {"label": args.label.strip(), "status": args.status, "notes": args.notes})
    try:
        ctx.room.documents.put(doc)
    except LwError as exc:
        raise ToolError(str(exc)) from None
    _written(ctx, f"thread {doc.id} {args.status}: {args.label}")
    return {"ok": True, "id": doc.id, "status": args.status}


def keeper_note(args: NoteArgs, ctx: ToolContext) -> dict[str, Any]:
    note_id = chronicle.thread_id(args.title).replace("t-", "n-", 1)
    if not args.text.strip():
        removed = ctx.room.documents.delete("note", note_id)
        return {"ok": True, "id": note_id, "removed": removed}
    ctx.room.documents.put(Document(note_id, "note", {"title": args.title.strip(), "text": args.text}))
    _written(ctx, f"note {note_id}: {args.title}")
    return {"ok": True, "id": note_id}
