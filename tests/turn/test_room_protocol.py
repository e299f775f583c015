"""The typed seams of the plugin API (issue 25): ``TurnContext.room`` is a
:class:`lwcore.api.TurnRoom`, ``ProviderAdapter.adapter`` a ``ProviderAdapterProtocol``.

A loaded room satisfies the room protocol (the type checker checks it where a turn builds its
context; here it is checked at run time), a plugin's per-turn hook reads the room through it in
a real turn, and typing the two fields changed nothing about what registers."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from lwcore.api import (
    Document,
    PromptSegment,
    ProviderAdapter,
    ProviderAdapterProtocol,
    Room,
    TurnContext,
    TurnRoom,
    hookimpl,
)
from lwcore.contributions import field_problems
from lwcore.kernel import Kernel
from lwcore.plugins import InProcessPlugin
from lwcore.turn.compile import compile_turn
from lwcore.turn.context import turn_context

from .conftest import SAY


def test_a_loaded_room_is_a_turn_room_and_reads_the_same_through_it(room_dir: Path, kernel: Kernel) -> None:
    room = Room.load(room_dir, kernel)
    assert isinstance(room, TurnRoom)
    context = turn_context(room, room.member("p1"), SAY)
    seen = context.room
    assert seen is room
    assert [m.id for m in seen.members] == [room.file.keeper.id, *(p.id for p in room.file.players)]
    assert seen.member(None).id == room.file.players[0].id
    assert seen.path == room_dir and seen.kernel is kernel and seen.turn_number == room.history.turn_number
    assert [e.text for e in seen.history.tail(2)] == [e.text for e in room.history.tail(2)]
    assert seen.documents.all("chronicle") == room.documents.all("chronicle")
    # what is not in the protocol is not there for a plugin that does not narrow
    assert not isinstance(SimpleNamespace(path=room_dir, kernel=kernel), TurnRoom)


def test_a_plugin_hook_reads_the_turn_room_through_the_protocol(tmp_path: Path, room_dir: Path) -> None:
    seen: list[Any] = []

    def lw_prompt_segments(turn: TurnContext) -> list[PromptSegment]:
        room = turn.room
        if room is None:  # a context asked for outside a turn
            return []
        seen.append(room)
        actor = room.member(turn.viewer)
        said = [e.text for e in room.history.tail(50) if e.role == "player"]
        room.documents.put(Document("probe", "mvu", {"tree": {"seen": actor.id}, "exposed": []}))
        return [PromptSegment("probe", f"PROBE {actor.id} of {len(room.members)}; said before: {len(said)}")]

    manifest = {"id": "room-probe", "version": "1", "tier": "code", "provides": ["prompt_segments"]}
    kernel = Kernel(data_dir=tmp_path / "data", env={},
                    plugins=[InProcessPlugin(manifest, SimpleNamespace(lw_prompt_segments=hookimpl(lw_prompt_segments)))])
    compiled = compile_turn(kernel, room_dir, SAY, actor="p1")
    (room,) = seen
    assert isinstance(room, TurnRoom) and isinstance(room, Room)
    assert f"PROBE p1 of {len(room.members)}" in json.dumps(compiled.request, ensure_ascii=False)
    assert room.documents.get("mvu", "probe") is not None  # written through the protocol's documents


class _Adapter:
    """Every member of the adapter protocol, doing nothing."""

    protocol = "probe"
    default_key_env = "PROBE_KEY"

    def request(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        return {}

    tool_definitions = continue_request = tool_result_messages = send = parse_reply = request


def test_typing_the_adapter_field_changed_nothing_at_registration() -> None:
    assert isinstance(_Adapter(), ProviderAdapterProtocol)
    for adapter in (_Adapter(), _Adapter, "lw_providers.adapters:RESPONSES", SimpleNamespace(name="x")):
        assert field_problems(ProviderAdapter("probe", adapter)) == []
    assert field_problems(ProviderAdapter(3, "a:b")) != []  # the other fields still are
