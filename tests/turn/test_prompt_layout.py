"""Where plugin segments land (slot ``state``, ``depth`` inside the recent history), the turn's
random source in the context, and writes staged while compiling (made only when applied)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from lwcore.contributions import PromptSegment, TurnContext
from lwcore.turn import tree
from lwcore.hookspecs import hookimpl
from lwcore.kernel import Kernel
from lwcore.plugins import InProcessPlugin
from lwcore.turn.documents import Document
from lwcore.turn.apply import apply_reply
from lwcore.turn.compile import compile_turn
from lwcore.turn.pipeline import run_turn
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


def test_a_depth_segment_with_a_role_is_a_message_of_that_role(tmp_path: Path, history_room: Path) -> None:
    def segments(turn: TurnContext) -> list[PromptSegment]:
        return [PromptSegment("late", "LATE-NOTE", slot="state"),
                PromptSegment("deep", "DEEP-SYSTEM", depth=99, role="system"),
                PromptSegment("text", "INLINE-TEXT", depth=2),
                PromptSegment("mid", "MID-ASSISTANT", depth=2, role="assistant"),
                PromptSegment("mid2", "MID-USER", depth=2, role="user"),
                PromptSegment("end", "END-SYSTEM", depth=0, role="system")]

    kernel = Kernel(data_dir=tmp_path / "d", env={}, plugins=[segment_plugin(segments)])
    compiled = compile_turn(kernel, history_room, SAY, provider="chat_completions")
    shown = [(m.get("promptId"), m.get("messageRole"), m["markdown"]) for m in compiled.messages]
    state = [s for s in shown if s[0] and (s[0].startswith("lw:state") or s[0].startswith("lw:depth"))]
    assert [(p, r) for p, r, _ in state] == [  # an empty run of history between two messages is no message
        ("lw:state", "user"), ("lw:depth-1", "system"), ("lw:state-2", "user"), ("lw:depth-2", "assistant"),
        ("lw:depth-3", "user"), ("lw:state-4", "user"), ("lw:depth-4", "system"), ("lw:state-5", "user")]
    texts = {p: t for p, _, t in state}
    assert "第一句" not in texts["lw:state"] and "最近经过" not in texts["lw:state"]  # nothing before the deepest
    assert texts["lw:depth-1"] == "DEEP-SYSTEM"
    assert texts["lw:state-2"].startswith("## 最近经过\n") and "第二句" in texts["lw:state-2"]
    assert texts["lw:state-2"].endswith("第二句")
    # one place: the segments in the kernel's order (by name: mid, mid2, text); a role-less one is a line
    assert texts["lw:state-4"].startswith("INLINE-TEXT\n[3] ")
    assert texts["lw:depth-2"] == "MID-ASSISTANT" and texts["lw:depth-3"] == "MID-USER"
    assert "第三句" in texts["lw:state-4"] and "第四句" in texts["lw:state-4"] and "最近经过" not in texts["lw:state-4"]
    assert texts["lw:depth-4"] == "END-SYSTEM" and texts["lw:state-5"] == "LATE-NOTE"  # slot state: after it all
    payload = [(m["role"], m["content"]) for m in compiled.request["messages"]]
    roles = [r for r, c in payload if any(n in c for n in ("DEEP-SYSTEM", "MID-ASSISTANT", "END-SYSTEM"))]
    assert roles == ["system", "assistant", "system"]
    anthropic = compile_turn(kernel, history_room, SAY, provider="anthropic_messages").request
    held = {n: m["role"] for m in anthropic["messages"] for b in m["content"] if isinstance(m["content"], list)
            for n in ("DEEP-SYSTEM", "MID-ASSISTANT", "MID-USER", "END-SYSTEM") if n in b["text"]}
    assert held == {"DEEP-SYSTEM": "user", "MID-ASSISTANT": "assistant", "MID-USER": "user", "END-SYSTEM": "user"}
    assert "SYSTEM" not in json.dumps(anthropic["system"])


@pytest.mark.parametrize("segment,why,kept", [
    # a role without a depth: the segment cannot be made, the plugin's hook fails for this turn
    (lambda: PromptSegment("r", "BAD-ROLE", role="user"), "give its depth", False),
    # an unknown role: that segment is dropped at registration, the plugin's others stay
    (lambda: PromptSegment("r", "BAD-ROLE", depth=1, role="narrator"), "role='narrator'", True),  # type: ignore[arg-type]
])
def test_a_bad_role_is_dropped_and_says_why(tmp_path: Path, room_dir: Path, segment: Any, why: str, kept: bool) -> None:
    kernel = Kernel(data_dir=tmp_path / "d", env={},
                    plugins=[segment_plugin(lambda turn: [segment(), PromptSegment("ok", "KEPT-OK", slot="context")])])
    compiled = compile_turn(kernel, room_dir, SAY)
    text = json.dumps(compiled.messages, ensure_ascii=False)
    assert "BAD-ROLE" not in text and ("KEPT-OK" in text) is kept
    assert [d for d in compiled.dropped if why in d and d.startswith("seg: ")]


def test_segments_draw_from_the_turns_random_source(tmp_path: Path, room_dir: Path, recorded) -> None:
    def segments(turn: TurnContext) -> list[PromptSegment]:
        return [PromptSegment("luck", f"LUCK-{turn.rng.randint(1, 10**9)}", slot="context")]

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
        staged = turn.staged
        staged.document(Document("staged-note", "note", {"text": f"compile {len(calls)}"}), by="seg")
        staged.tree([tree.put("计数", len(calls)), tree.replace("不存在", 1)], by="seg")
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
    kinds = [e.kind for e in applied.events if e.data().get("by") == "seg"]
    assert kinds == ["staged_refused", "tree", "tree_refused"]
    assert all(e.audience == "keeper" for e in applied.events if e.data().get("by") == "seg")


def test_the_kernels_state_is_ordinary_segments(tmp_path: Path, history_room: Path) -> None:
    """The kernel's own prompt text comes from the built-in ``turn`` plugin's segments, named,
    slotted and ordered like any plugin's."""
    kernel = Kernel(data_dir=tmp_path / "d", env={})
    compiled = compile_turn(kernel, history_room, SAY)
    own = [(s.name, s.slot) for s in compiled.segments if s.plugin == "turn"]
    assert own == [("expertise", "context"), ("rules", "system"), ("variables", "history"), ("sheets", "context"),
                   ("history", "history")]
    world = next(m for m in compiled.messages if m.get("promptId") == "lw:world")
    assert [b["source"] for b in world["blocks"]][:2] == ["turn:expertise", "turn:sheets"]
    assert world["markdown"].count("### 陈默 (p1, 记者 / Journalist)") == 1  # the rulepack's tagline keys


def _host(wrapper: Any) -> InProcessPlugin:
    manifest = {"id": "host-prompt", "version": "1", "tier": "code", "provides": ["prompt_segments"]}
    return InProcessPlugin(manifest, SimpleNamespace(lw_prompt_segments=hookimpl(wrapper=True)(wrapper)))


def test_a_host_drops_or_replaces_the_kernels_sheet_segment(tmp_path: Path, history_room: Path) -> None:
    def drop(turn: TurnContext) -> Any:
        results = yield
        return [[s for s in segments if s.name != "sheets"] for segments in results]

    def replace(turn: TurnContext) -> Any:
        results = yield
        return [[s if s.name != "sheets" else PromptSegment("sheets", "HOST-SHEETS", slot=s.slot, order=s.order)
                 for s in segments] for segments in results]

    plain = compile_turn(Kernel(data_dir=tmp_path / "a", env={}), history_room, SAY)
    dropped = compile_turn(Kernel(data_dir=tmp_path / "b", env={}, plugins=[_host(drop)]), history_room, SAY)
    replaced = compile_turn(Kernel(data_dir=tmp_path / "c", env={}, plugins=[_host(replace)]), history_room, SAY)

    def world(compiled: Any) -> str:
        return next(m for m in compiled.messages if m.get("promptId") == "lw:world")["markdown"]

    sheets = next(b["markdown"] for m in plain.messages for b in m.get("blocks", []) if b["source"] == "turn:sheets")
    assert sheets.startswith("## 角色卡") and sheets in world(plain)
    assert world(dropped) == world(plain).replace("\n\n" + sheets, "")
    assert world(replaced) == world(plain).replace(sheets, "HOST-SHEETS")  # in the sheets' place
    for compiled in (dropped, replaced):  # the rest of the kernel's state is where it was
        assert [m["markdown"] for m in compiled.messages if m.get("promptId") != "lw:world"] == [
            m["markdown"] for m in plain.messages if m.get("promptId") != "lw:world"]


def test_every_hook_of_a_turn_gets_the_one_context(tmp_path: Path, room_dir: Path, recorded) -> None:
    """Issue 25: a turn builds its context once; the segment, turn-script and reply hooks all
    get that object, the member's words under the one name ``player_input``."""
    seen: list[tuple[str, TurnContext]] = []

    def lw_prompt_segments(turn: TurnContext) -> list[PromptSegment]:
        seen.append(("segments", turn))
        return []

    def lw_turn_scripts(turn: TurnContext) -> list[Any]:
        seen.append(("scripts", turn))
        return []

    def lw_reply_text(turn: TurnContext, text: str) -> None:
        seen.append(("reply", turn))

    manifest = {"id": "watch", "version": "1", "tier": "code",
                "provides": ["prompt_segments", "turn_scripts", "reply_text"]}
    hooks = SimpleNamespace(**{f.__name__: hookimpl(f) for f in (lw_prompt_segments, lw_turn_scripts, lw_reply_text)})
    kernel = Kernel(data_dir=tmp_path / "d", env={}, plugins=[InProcessPlugin(manifest, hooks)])
    run_turn(kernel, room_dir, SAY, actor="p2", reply=recorded("anthropic_messages"), rng=random.Random(3))
    assert sorted(kind for kind, _ in seen) == ["reply", "scripts", "segments"]
    (context,) = {id(turn): turn for _, turn in seen}.values()
    assert (context.player_input, context.viewer, context.keeper, context.staged is not None) == (SAY, "p2", False, True)
    assert not hasattr(context, "user_text") and "user_text" not in context.extra
