"""At-depth entries (and a preset's in-chat prompts) reach the provider as messages of their role
at their depth: through the room's real prompt assembly, the narraeon compiler and the
provider adapters' request bodies. Anthropic has no system role inside a conversation: a system
entry goes there as a user message (SillyTavern's conversion for Claude), never into the
top-level system prompt."""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from lwcore.kernel import Kernel
from lwcore.turn.documents import Document
from lwcore.turn.compile import compile_turn
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import HistoryEntry, Room, room_lock

from roomkit import FIXTURES, copy_room

SAY = "钟楼那边有动静。"
LINES = ("第一句：潮水退了。", "第二句：钟停了。", "第三句：灯灭了。", "第四句：有人敲门。")
ROLES = {0: "system", 1: "user", 2: "assistant"}
PROVIDER_ROLE = {  # what each protocol's request says for an entry's role
    "chat_completions": {"system": "system", "user": "user", "assistant": "assistant"},
    "anthropic_messages": {"system": "user", "user": "user", "assistant": "assistant"},
}


@pytest.fixture
def kernel(tmp_path: Path) -> Kernel:
    return Kernel(data_dir=tmp_path / "data", env={})


def room_with(tmp_path: Path, kernel: Kernel, entries: list[tuple[str, int, int]], *, preset: bool = False) -> Path:
    """The example room with four lines of history last and an at-depth entry ``(text, depth,
    role)`` for each of ``entries``, all firing on SAY (``preset``: the night-watch preset
    enabled first)."""
    room_dir = copy_room(tmp_path / "room")
    if preset:
        shutil.copy(FIXTURES / "night-watch.preset.json", room_dir / "night-watch.json")
        for line in (".preset import night-watch.json", ".preset enable night-watch"):
            assert run_turn(kernel, room_dir, line, actor="kp").command is not None
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        for turn, text in enumerate(LINES, 1):
            player = turn % 2 == 1
            room.record(HistoryEntry(turn=turn, role="player" if player else "keeper", actor="p1" if player else "kp",
                                     text=text))
        for i, (text, depth, role) in enumerate(entries):
            room.documents.put(Document(f"e-depth-{i}", "worldbook_entry", {"pack": "world:fog-harbor", "entry": {
                "uid": 80 + i, "key": ["钟楼"], "content": text, "position": 4, "depth": depth, "role": role,
                "secret": False}}, meta={"source": f"fog-harbor#depth-{i}"}))
        room.save()
    return room_dir


def sequence(request: dict[str, Any]) -> list[tuple[str, str]]:
    """The request's conversation as ``(role, text)`` in order (the system prompt left out)."""
    out = []
    for message in request["messages"]:
        content = message["content"]
        text = content if isinstance(content, str) else "\n\n".join(b["text"] for b in content if b.get("type") == "text")
        out.append((message["role"], text))
    return out


def holder(request: dict[str, Any], needle: str) -> int:
    (index,) = [i for i, (_, text) in enumerate(sequence(request)) if needle in text]
    return index


def system_prompt(request: dict[str, Any]) -> str:
    system = request.get("system", "")
    return system if isinstance(system, str) else "\n".join(b["text"] for b in system)


@pytest.mark.parametrize("protocol", sorted(PROVIDER_ROLE))
@pytest.mark.parametrize("role", sorted(ROLES))
def test_an_at_depth_entry_is_a_message_of_its_role_at_its_depth(tmp_path: Path, kernel: Kernel, protocol: str,
                                                                   role: int) -> None:
    text = f"AT-DEPTH-{ROLES[role].upper()}"
    room_dir = room_with(tmp_path, kernel, [(text, 2, role)])
    request = compile_turn(kernel, room_dir, SAY, provider=protocol, rng=random.Random(1)).request
    seq = sequence(request)
    at = holder(request, text)
    assert seq[at][0] == PROVIDER_ROLE[protocol][ROLES[role]]
    assert text not in system_prompt(request)  # Anthropic's top-level system prompt: never
    flat = "\n".join(t for _, t in seq)
    # depth 2: one history entry from the end (SillyTavern counts the message being answered)
    assert flat.index(LINES[2]) < flat.index(text) < flat.index(LINES[3]) < flat.index(SAY)
    if seq[at][0] != "user":  # its own message: the history on either side is not in it
        assert not any(line in seq[at][1] for line in LINES)
        assert seq[at - 1][0] == "user" and LINES[2] in seq[at - 1][1]
        assert seq[at + 1][0] == "user" and LINES[3] in seq[at + 1][1]


@pytest.mark.parametrize("protocol", sorted(PROVIDER_ROLE))
def test_entries_of_each_role_at_several_depths(tmp_path: Path, kernel: Kernel, protocol: str) -> None:
    entries = [("DEEP-SYSTEM", 9, 0), ("MID-ASSISTANT", 3, 2), ("MID-USER", 3, 1), ("LAST-SYSTEM", 0, 0)]
    request = compile_turn(kernel, room_with(tmp_path, kernel, entries), SAY, provider=protocol,
                           rng=random.Random(1)).request
    seq = sequence(request)
    flat = "\n".join(t for _, t in seq)
    order = [flat.index(n) for n in ("DEEP-SYSTEM", LINES[0], LINES[1], LINES[2], LINES[3], "LAST-SYSTEM", SAY)]
    assert order == sorted(order)
    assert LINES[1] in flat[:flat.index("MID-USER")] and LINES[2] in flat[flat.index("MID-USER"):]
    for name, _, role in entries:
        assert seq[holder(request, name)][0] == PROVIDER_ROLE[protocol][ROLES[role]], name
    if protocol == "chat_completions":  # system entries are messages of their own, around the history
        for name in ("DEEP-SYSTEM", "LAST-SYSTEM", "MID-ASSISTANT"):
            assert not any(line in seq[holder(request, name)][1] for line in LINES), name


@pytest.mark.parametrize("protocol", sorted(PROVIDER_ROLE))
def test_a_presets_in_chat_prompt_keeps_its_role(tmp_path: Path, kernel: Kernel, protocol: str) -> None:
    room_dir = room_with(tmp_path, kernel, [], preset=True)
    request = compile_turn(kernel, room_dir, SAY, provider=protocol, rng=random.Random(1)).request
    seq = sequence(request)
    at = holder(request, "(Remember the tide.)")  # role user, injection depth 2
    assert seq[at][0] == "user"
    flat = "\n".join(t for _, t in seq)
    assert flat.index(LINES[2]) < flat.index("(Remember the tide.)") < flat.index(LINES[3])
