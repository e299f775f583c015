"""Where plugin segments land (slot ``state``, ``depth`` inside the recent history), the turn's
random source in the context, and writes staged while compiling (made only when applied)."""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from lwcore.contributions import PromptSegment, TreeOp, TurnContext
from lwcore.hookspecs import hookimpl
from lwcore.kernel import Kernel
from lwcore.plugins import InProcessPlugin
from lwcore.turn.documents import Document
from lwcore.turn.pipeline import apply_reply, compile_turn, run_turn
from lwcore.turn.room import HistoryEntry, Room, room_lock

from .conftest import SAY


def segment_plugin(fn: Any, plugin_id: str = "seg") -> InProcessPlugin:
    manifest = {"id": plugin_id, "version": "1", "tier": "code", "provides": ["prompt_segments"]}
    return InProcessPlugin(manifest, SimpleNamespace(lw_prompt_segments=hookimpl(fn)))


def state_message(compiled: Any) -> str:
    (message,) = [m for m in compiled.messages if m.get("promptId") == "lw:state"]
    return message["markdown"]


@pytest.fixture
def history_room(kernel: Kernel, room_dir: Path) -> Path:
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        for turn, (role, text) in enumerate([("player", "第一句"), ("keeper", "第二句"), ("player", "第三句"),
                                             ("keeper", "第四句")], 1):
            room.record(HistoryEntry(turn=turn, role=role, actor="p1" if role == "player" else "kp", text=text))
        room.save()
    return room_dir


def test_state_slot_and_depth_placement(tmp_path: Path, history_room: Path) -> None:
    def segments(turn: TurnContext) -> list[PromptSegment]:
        return [PromptSegment("late", "LATE-NOTE", slot="state"),
                PromptSegment("d0", "AT-DEPTH-0", depth=0),
                PromptSegment("d2", "AT-DEPTH-2", depth=2, slot="system"),  # the slot is not used
                PromptSegment("deep", "AT-DEPTH-99", depth=99),
                PromptSegment("neg", "AT-DEPTH-NEG", depth=-3)]

    kernel = Kernel(data_dir=tmp_path / "d", env={}, plugins=[segment_plugin(segments)])
    compiled = compile_turn(kernel, history_room, SAY)
    text = state_message(compiled)
    lines = [line for line in text.splitlines() if line.strip()]
    order = [next(i for i, line in enumerate(lines) if needle in line) for needle in (
        "AT-DEPTH-99", "第一句", "第二句", "AT-DEPTH-2", "第三句", "第四句", "AT-DEPTH-0", "AT-DEPTH-NEG", "LATE-NOTE")]
    assert order == sorted(order)
    system = next(m for m in compiled.messages if m.get("promptId") == "lw:system")["markdown"]
    assert "AT-DEPTH-2" not in system
    assert {s.name for s in compiled.segments if s.plugin == "seg"} == {"late", "d0", "d2", "deep", "neg"}


def test_depth_segments_reach_an_empty_history(tmp_path: Path, room_dir: Path) -> None:
    kernel = Kernel(data_dir=tmp_path / "d", env={},
                    plugins=[segment_plugin(lambda turn: [PromptSegment("d", "ONLY-DEPTH", depth=4)])])
    assert "ONLY-DEPTH" in state_message(compile_turn(kernel, room_dir, SAY))


def test_segments_draw_from_the_turns_random_source(tmp_path: Path, room_dir: Path, recorded) -> None:
    def segments(turn: TurnContext) -> list[PromptSegment]:
        return [PromptSegment("luck", f"LUCK-{turn.extra['rng'].randint(1, 10**9)}", slot="context")]

    kernel = Kernel(data_dir=tmp_path / "d", env={}, plugins=[segment_plugin(segments)])
    texts = []
    for _ in range(2):
        compiled = run_turn(kernel, room_dir, SAY, rng=random.Random(11)).compiled
        texts.append(next(b["markdown"] for m in compiled.messages for b in m.get("blocks", ()) if "LUCK-" in b["markdown"]))
    expected = random.Random(11).randint(1, 10**9)
    assert texts == [f"LUCK-{expected}"] * 2


def staging_plugin(calls: list[int]) -> InProcessPlugin:
    def segments(turn: TurnContext) -> list[PromptSegment]:
        calls.append(1)
        staged = turn.extra["staged"]
        staged.document(Document("staged-note", "note", {"text": f"compile {len(calls)}"}), by="seg")
        staged.tree([TreeOp("put", "计数", (len(calls),)), TreeOp("set", "不存在", (1,))], by="seg")
        staged.document(Document("bad", "no_such_type", {}), by="seg")
        return [PromptSegment("s", "staging", slot="context")]

    return segment_plugin(segments)


def test_staged_writes_wait_for_an_applied_reply(tmp_path: Path, room_dir: Path, recorded) -> None:
    calls: list[int] = []
    kernel = Kernel(data_dir=tmp_path / "d", env={}, plugins=[staging_plugin(calls)])
    def files() -> dict[Path, bytes]:
        return {p: p.read_bytes() for p in room_dir.rglob("*") if p.is_file() and ".lw" not in p.parts}

    before = files()
    run_turn(kernel, room_dir, SAY)  # compile only: nothing staged is made
    assert files() == before
    room = Room.load(room_dir, kernel)
    first = compile_turn(kernel, room, SAY)
    second = compile_turn(kernel, room, SAY)  # a recompile stages afresh
    applied = apply_reply(kernel, second, recorded("anthropic_messages"), rng=random.Random(5))
    room.save()
    assert first.staged.documents and not second.staged.documents  # committed and cleared
    stored = Room.load(room_dir, kernel)
    assert stored.documents.get("note", "staged-note").data == {"text": "compile 3"}
    assert stored.documents.get("mvu", "mvu").data["tree"] == {"计数": 3}
    kinds = [e["kind"] for e in applied.events if e.get("by") == "seg"]
    assert kinds == ["staged_refused", "tree", "tree_refused"]
    assert all(e["audience"] == "keeper" for e in applied.events if e.get("by") == "seg")
