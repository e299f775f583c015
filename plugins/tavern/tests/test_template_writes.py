"""A full-mode template's ``setvar``/``incvar`` in a room's turn: the kernel's one path of script
writes (iron rule 1). On a declared module variable the value must be of its kind (a wrong type
is refused, logged for the keeper with the entry and the template line, the variable kept), a
number is clamped into its bounds, a text cut at its length; any other name lands in the MVU
tree. Every row runs a real turn (compile, the recorded reply applied, the room saved)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from lwcore.kernel import Kernel
from lwcore.turn.documents import Document
from lwcore.turn.compile import compile_turn
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room, room_lock
from lwcore.turn.variables import VariableDef
from lwcore.turn.view import view_for

from roomkit import SAY, copy_room, files, recorded

HANDLE = "fog-harbor#writes"
DECLARED = [
    VariableDef(id="tide", kind="number", minimum=0, maximum=5, value=2, visibility="player"),
    VariableDef(id="lamp", kind="bool", value=False),
    VariableDef(id="note", kind="text", max_length=8, value="起初"),
    VariableDef(id="mood", kind="enum", options=["平静", "不安", "恐慌"], value="平静",
                option_labels={"不安": {"en": "Uneasy"}}),
]
START = {var.id: var.value for var in DECLARED}
REFUSED = object()

# (template statement, variable, what it holds after the turn: a value, or REFUSED = unchanged)
WRITES: list[tuple[str, str, Any]] = [
    # number, bounds [0, 5], integer
    ("setvar('tide', 4)", "tide", 4),
    ("setvar('tide', 99)", "tide", 5),  # above the maximum: clamped
    ("setvar('tide', -7)", "tide", 0),  # below the minimum: clamped
    ("setvar('tide', 3.6)", "tide", 4),  # an integer variable: rounded
    ("incvar('tide', 10)", "tide", 5),  # 2 + 10, clamped to the maximum
    ("decvar('tide', 9)", "tide", 0),  # 2 - 9, clamped to the minimum
    ("incvar('tide')", "tide", 3),
    ("setvar('tide', '3')", "tide", REFUSED),  # numeric text is text: no coercion
    ("setvar('tide', true)", "tide", REFUSED),
    ("setvar('tide', null)", "tide", REFUSED),
    ("setvar('tide', [1])", "tide", REFUSED),
    # bool
    ("setvar('lamp', true)", "lamp", True),
    ("setvar('lamp', 1)", "lamp", REFUSED),
    ("setvar('lamp', 'true')", "lamp", REFUSED),
    # text, at most 8 characters
    ("setvar('note', '灯亮了')", "note", "灯亮了"),
    ("setvar('note', 'abcdefghijkl')", "note", "abcdefgh"),  # cut at its length
    ("setvar('note', 42)", "note", REFUSED),
    ("setvar('note', {a: 1})", "note", REFUSED),
    # enum
    ("setvar('mood', '恐慌')", "mood", "恐慌"),
    ("setvar('mood', 'Uneasy')", "mood", "不安"),  # an option's label names the option
    ("setvar('mood', '暴怒')", "mood", REFUSED),  # no such option
    ("setvar('mood', 2)", "mood", REFUSED),
    ("setvar('mood', false)", "mood", REFUSED),
]


@pytest.fixture
def kernel(tmp_path: Path) -> Kernel:
    return Kernel(data_dir=tmp_path / "data", env={})


def room_with(tmp_path: Path, kernel: Kernel, statement: str) -> Path:
    """The example room with the declared variables and an entry (firing on SAY) whose
    template makes ``statement`` on its third line."""
    room_dir = copy_room(tmp_path / "room")
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        room.variables.variables += [var.model_copy() for var in DECLARED]
        room.mark("variables")
        room.documents.put(Document("e-writes", "worldbook_entry", {"pack": "world:fog-harbor", "entry": {
            "uid": 90, "key": ["码头"], "content": f"WRITES-RENDERED\n<% const n = 1;\n  {statement}; %>",
            "secret": False}}, meta={"source": HANDLE}))
        room.save()
    return room_dir


def refusals(room: Room) -> list[Any]:
    return [e for e in room.history.all() if e.data and e.data.get("kind") == "variable_refused"]


@pytest.mark.parametrize("statement,name,expected", WRITES, ids=[w[0] for w in WRITES])
def test_a_templates_write_on_a_declared_variable(tmp_path: Path, kernel: Kernel, statement: str, name: str,
                                                   expected: Any) -> None:
    room_dir = room_with(tmp_path, kernel, statement)
    result = run_turn(kernel, room_dir, SAY, provider="chat_completions", reply=recorded("chat_completions"),
                      rng=random.Random(1))
    assert "WRITES-RENDERED" in str(result.compiled.request) and "setvar" not in str(result.compiled.request)
    room = Room.load(room_dir, kernel)
    held = {var.id: var.value for var in room.variables.variables if var.id in START}
    refused = refusals(room)
    if expected is REFUSED:
        assert held == START  # nothing changed
        (event,) = refused
        assert event.audience == "keeper"
        assert event.text.startswith(f"{HANDLE}:3: ") and f"({name}) refused: {name} " in event.text
        for player in ("p1", "p2"):
            assert "refused" not in view_for(room, player).to_json_text()
    else:
        assert refused == []
        assert held == {**START, name: expected}
        assert type(held[name]) is type(expected)
    # a declared name never becomes a leaf of the tree
    tree = room.documents.get("mvu", "mvu")
    assert name not in (tree.data["tree"] if tree is not None else {})


def test_a_clamped_write_says_so_and_a_player_visible_one_is_seen_by_players(tmp_path: Path, kernel: Kernel) -> None:
    room_dir = room_with(tmp_path, kernel, "setvar('tide', 99); setvar('note', 'abcdefghijkl')")
    run_turn(kernel, room_dir, SAY, provider="chat_completions", reply=recorded("chat_completions"), rng=random.Random(1))
    room = Room.load(room_dir, kernel)
    changes = {e.data["id"]: e for e in room.history.all() if e.data and e.data.get("kind") == "variable"
               and e.data.get("id") in START}
    assert changes["tide"].data["note"] == "99 is outside [0, 5]; clamped to 5" and changes["tide"].audience == "all"
    assert changes["note"].data["note"] == "text cut to 8 characters" and changes["note"].audience == "keeper"
    assert all(c.data["by"] == "tavern templates" for c in changes.values())


def test_undeclared_names_land_in_the_mvu_tree_in_order(tmp_path: Path, kernel: Kernel) -> None:
    room_dir = room_with(tmp_path, kernel, "setvar('雾港.潮声', 'low'); incvar('雾港.计数', 2); incvar('雾港.计数'); "
                                            "setvar('tide', 1); setvar('tide.x', 7)")
    run_turn(kernel, room_dir, SAY, provider="chat_completions", reply=recorded("chat_completions"), rng=random.Random(1))
    room = Room.load(room_dir, kernel)
    tree = room.documents.get("mvu", "mvu").data["tree"]
    assert tree["雾港"] == {"潮声": "low", "计数": 3}
    assert room.variable("tide").value == 1  # one key naming a declared variable: the variable
    # a deeper path under it would shadow the variable in the tree: refused for the keeper, as for hooks
    assert "tide" not in tree
    (shadow,) = [e for e in room.history.all() if e.data and e.data.get("kind") == "tree_refused"]
    assert shadow.audience == "keeper" and "tide is a declared variable" in shadow.text
    assert refusals(room) == []


def test_compiling_alone_writes_nothing(tmp_path: Path, kernel: Kernel) -> None:
    room_dir = room_with(tmp_path, kernel, "setvar('tide', 5); setvar('lamp', 'yes')")
    before = files(room_dir)
    compile_turn(kernel, room_dir, SAY, rng=random.Random(1))
    assert files(room_dir) == before
