"""Events are typed objects (``lwcore.turn.events``) written to the same history JSON as before
they were: a room's history reads back as the same typed events, and a turn writes the lines
the untyped events wrote (``fixtures/fog-harbor-turn1.history.jsonl`` was recorded by the
kernel before events were typed: the example's recorded turn with seed 5, then ``.r 1d6``)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from lwcore.kernel import Kernel
from lwcore.turn.events import (
    CheckRolled, CommandRan, Event, Events, FoldDue, KeeperNote, Rolled, SubsystemRan, TreeChanged, TreeRefused,
    VariableChanged, VariableRefused, event_from_data,
)
from lwcore.turn.history import HistoryEntry
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room
from lwcore.turn.view import view_for

from .conftest import SAY

FIXTURE = Path(__file__).with_name("fixtures") / "fog-harbor-turn1.history.jsonl"

OLD_LINES = [  # data as the untyped events wrote it, kind by kind
    ({"kind": "tree", "audience": "keeper", "op": "set", "path": "雾港.潮位", "before": 5, "value": 4, "by": "tavern",
      "summary": "雾港.潮位: 5 → 4"}, TreeChanged),
    ({"kind": "tree_refused", "audience": "keeper", "op": "set", "path": "cult_alert", "by": "tavern",
      "summary": "tavern: set cult_alert refused: a declared variable"}, TreeRefused),
    ({"kind": "variable", "id": "fog", "before": "浓雾", "value": "蔽日", "audience": "all", "summary": "fog: 浓雾 → 蔽日",
      "note": "clamped", "by": "hook lore"}, VariableChanged),
    ({"kind": "variable_refused", "audience": "keeper", "id": "fog", "op": "setvar", "by": "hook lore",
      "where": "lore/hooks.js:7", "summary": "lore/hooks.js:7: setvar(fog) refused: fog is an enum"}, VariableRefused),
    ({"kind": "hook_log", "audience": "keeper", "summary": "lore/hooks.js: hi", "plugin": "tavern", "script": "lore"},
     KeeperNote),
    ({"kind": "staged_refused", "audience": "keeper", "by": "tavern", "summary": "tavern: note 'x' not stored"}, KeeperNote),
    ({"kind": "reply_note", "audience": "keeper", "plugin": "tavern", "summary": "tavern: unclosed block"}, KeeperNote),
    ({"kind": "loop", "audience": "keeper", "summary": "tool loop stopped after 8 steps"}, KeeperNote),
    ({"kind": "fold_due", "fullness": 0.912}, FoldDue),
    ({"kind": "forge", "audience": "keeper", "summary": "skill fen-guide written to skills/fen-guide"}, Event),
]


@pytest.mark.parametrize(("data", "cls"), OLD_LINES, ids=[d["kind"] for d, _ in OLD_LINES])
def test_every_kind_reads_back_typed_and_writes_the_same_data(data: dict, cls: type) -> None:
    event = event_from_data(data)
    assert type(event) is cls and event.kind == data["kind"]
    assert event.data() == data and list(event.data()) == list(data)  # the same keys, in the same order
    assert event_from_data(json.loads(json.dumps(event.data()))).data() == data


def test_an_old_rooms_history_reads_back_as_typed_events() -> None:
    entries = [HistoryEntry.model_validate(json.loads(line)) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]
    events = [e.event for e in entries if e.role == "event"]
    assert [type(e) for e in events] == [CheckRolled, SubsystemRan, VariableChanged, VariableChanged, VariableChanged,
                                         Rolled, CommandRan]
    check, sanity, clues, alert = events[:4]
    assert check.result["skill"] == "侦查" and check.result["rank"] == "regular"
    assert sanity.result["subsystem"] == "sanity" and sanity.data()["kind"] == "sanity"  # the subsystem's own kind
    assert (clues.id, clues.before, clues.value, clues.audience) == ("clues_found", 1, 2, "all")
    assert alert.audience == "keeper"
    for entry in entries:
        if entry.data is not None:
            assert entry.event is not None and entry.event.data() == entry.data
            assert HistoryEntry.of_event(entry.event, turn=entry.turn, actor=entry.actor) == entry


def test_a_turn_writes_the_history_the_untyped_events_wrote(kernel: Kernel, room_dir: Path, recorded) -> None:
    run_turn(kernel, room_dir, SAY, reply=recorded("anthropic_messages"), rng=random.Random(5))
    run_turn(kernel, room_dir, ".r 1d6", actor="kp", rng=random.Random(1))
    assert (room_dir / "history.jsonl").read_bytes() == FIXTURE.read_bytes()


def test_views_read_the_typed_events_of_an_old_room(kernel: Kernel, room_dir: Path) -> None:
    (room_dir / "history.jsonl").write_bytes(FIXTURE.read_bytes())
    room = Room.load(room_dir, kernel)
    player = [line.text for line in view_for(room, "p2").history]  # p2 reads English
    assert "陈默 Spot Hidden 65: 1d100=63/65 Success" in player
    assert not any("cult_alert" in text or "Cult" in text for text in player)  # a keeper-only variable's event
    keeper = [(line.text, line.keeper_only) for line in view_for(room, "kp").history]
    assert ("cult_alert: 2 → 3", True) in keeper


def test_a_plugin_tools_mapping_becomes_a_typed_event() -> None:
    events = Events()
    events.append({"kind": "forge", "audience": "keeper", "summary": "skill x written"})
    events += [{"kind": "variable", "id": "fog", "before": 1, "value": 2, "audience": "all", "summary": "fog: 1 → 2"}]
    events.extend([KeeperNote(kind="memory", summary="chronicle c-1-1 (turn 1)")])
    assert [type(e) for e in events] == [Event, VariableChanged, KeeperNote]
    assert events[0].audience == "keeper" and events[0].history_text() == "skill x written"
