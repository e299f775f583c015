"""The one path of scripts' variable writes (iron rule 1): a declared module variable takes a
value of its own kind only (no coercion), clamped into its bounds; any other path is an MVU
leaf; a refusal changes nothing and is a located, keeper-only event. Hook scripts go through
it (end to end below); templates too (``plugins/tavern/tests/test_template_writes.py``)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from lwcore.contributions import VariableWrite
from lwcore.kernel import Kernel
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room
from lwcore.turn.script_writes import apply_write
from lwcore.turn.variables import VariableDef, VariableError, check_value

from .conftest import SAY
from .test_turn_hooks import script_plugin

NUM = VariableDef(id="n", kind="number", minimum=-2, maximum=3, value=1)
FREE = VariableDef(id="f", kind="number", integer=False, value=0.5)
FLAG = VariableDef(id="b", kind="bool")
TEXT = VariableDef(id="t", kind="text", max_length=4, value="ab")
PICK = VariableDef(id="e", kind="enum", options=["一", "二"], option_labels={"二": {"en": "two"}})
VARS = {v.id: v for v in (NUM, FREE, FLAG, TEXT, PICK)}
REFUSED = object()

# (variable, op, value, stored value or REFUSED)
TABLE: list[tuple[str, str, Any, Any]] = [
    ("n", "setvar", 2, 2), ("n", "setvar", 3, 3), ("n", "setvar", 4, 3), ("n", "setvar", -2, -2),
    ("n", "setvar", -9.5, -2), ("n", "setvar", 1e300, 3), ("n", "setvar", 2.5, 3), ("n", "setvar", -1.5, -2),
    ("n", "incvar", 1, 2), ("n", "incvar", 5, 3), ("n", "incvar", -5, -2),
    ("n", "setvar", "2", REFUSED), ("n", "setvar", " 2 ", REFUSED), ("n", "setvar", True, REFUSED),
    ("n", "setvar", None, REFUSED), ("n", "setvar", [2], REFUSED), ("n", "setvar", {"v": 2}, REFUSED),
    ("n", "incvar", "1", REFUSED), ("n", "incvar", True, REFUSED),
    ("f", "setvar", 0.25, 0.25), ("f", "incvar", 0.25, 0.75),
    ("b", "setvar", True, True), ("b", "setvar", False, False), ("b", "setvar", 1, REFUSED),
    ("b", "setvar", 0, REFUSED), ("b", "setvar", "true", REFUSED), ("b", "setvar", "是", REFUSED),
    ("b", "incvar", 1, REFUSED),
    ("t", "setvar", "cd", "cd"), ("t", "setvar", "abcdef", "abcd"), ("t", "setvar", "", ""),
    ("t", "setvar", 5, REFUSED), ("t", "setvar", False, REFUSED), ("t", "setvar", ["x"], REFUSED),
    ("t", "incvar", 1, REFUSED),
    ("e", "setvar", "二", "二"), ("e", "setvar", "two", "二"), ("e", "setvar", "三", REFUSED),
    ("e", "setvar", 1, REFUSED), ("e", "setvar", None, REFUSED), ("e", "incvar", 1, REFUSED),
]


@pytest.fixture
def room(kernel: Kernel, room_dir: Path) -> Room:
    loaded = Room.load(room_dir, kernel)
    loaded.variables.variables += [v.model_copy() for v in VARS.values()]
    return loaded


@pytest.mark.parametrize("var_id,op,value,expected", TABLE, ids=[f"{v}-{o}-{x!r}" for v, o, x, _ in TABLE])
def test_a_write_on_a_declared_variable(room: Room, var_id: str, op: str, value: Any, expected: Any) -> None:
    before = room.variable(var_id).value
    events = apply_write(room, VariableWrite(op, (var_id,), value, "lore/hooks.js", 7), by="hook lore")  # type: ignore[arg-type]
    (event,) = events
    if expected is REFUSED:
        assert room.variable(var_id).value == before
        assert event.kind == "variable_refused" and event.audience == "keeper"
        assert event.summary.startswith(f"lore/hooks.js:7: {op}({var_id}) refused: {var_id} ")
    else:
        stored = room.variable(var_id).value
        assert stored == expected and type(stored) is type(expected)
        assert event.kind == "variable" and event.value == expected and event.by == "hook lore"
    assert room.documents.get("mvu", "mvu") is None  # a declared name is never a tree leaf


def test_exact_checking_refuses_what_the_lenient_check_converts() -> None:
    """The model's variable tools keep the lenient check (JSON from a model); scripts get the
    exact one. One function, one flag."""
    for var, raw, lenient in ((NUM, "2", 2), (FLAG, "yes", True), (FLAG, 1, True), (TEXT, 12, "12")):
        assert check_value(var, raw)[0] == lenient
        with pytest.raises(VariableError, match=f"^{var.id} is "):
            check_value(var, raw, exact=True)


def test_other_paths_are_mvu_leaves(room: Room) -> None:
    events = []
    for write in (VariableWrite("setvar", ("世界", "天气"), "雨"), VariableWrite("incvar", ("世界", "日"), 2),
                  VariableWrite("incvar", ("世界", "日"), 1), VariableWrite("setvar", ("n", "deep"), "x")):
        events += apply_write(room, write, by="t")
    # a deeper path under a declared variable would shadow it in the tree: refused, for the keeper
    assert room.documents.get("mvu", "mvu").data["tree"] == {"世界": {"天气": "雨", "日": 3}}
    assert [e.kind for e in events] == ["tree"] * 3 + ["tree_refused"] and room.variable("n").value == 1
    assert events[-1].audience == "keeper" and "n is a declared variable" in events[-1].summary


def test_a_hooks_refused_write_is_located_and_kept_from_players(tmp_path: Path, room_dir: Path, recorded) -> None:
    source = "on('turn_start', () => {\n  setvar('clues_found', '5');\n  setvar('fog', '蔽日');\n});"
    kernel = Kernel(data_dir=tmp_path / "d", env={}, plugins=[script_plugin(source)])
    run_turn(kernel, room_dir, SAY, provider="chat_completions", reply=recorded("chat_completions"),
             rng=random.Random(5))
    room = Room.load(room_dir, kernel)
    refused = [e for e in room.history.all() if e.data and e.data.get("kind") == "variable_refused"]
    assert [(e.audience, e.text) for e in refused] == [
        ("keeper", "lore/hooks.js:2: setvar(clues_found) refused: clues_found is a number, got the text '5'")]
    assert room.variable("fog").value == "蔽日"
