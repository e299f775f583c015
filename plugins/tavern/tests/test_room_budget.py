"""The turn's script budget in a room: what degrades when it is spent, and how the keeper hears.

A turn runs under one :class:`lwcore.sandbox.Budget`; here the test activates one around the
turn (the pipeline shares an outer budget), already spent or cut short, and checks each
degradation: a world-book entry whose template would run is left out (never sent raw, never
rendered half), a JavaScript ``@@if`` is false, the room's hook scripts are disabled for the
turn, a regex key that overruns is skipped -- each a warning the keeper reads in the timed
state or the history, and the turn itself completes.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from lwcore.kernel import Kernel
from lwcore.sandbox import Budget
from lwcore.turn.documents import Document
from lwcore.turn.compile import compile_turn
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room, room_lock

from roomkit import FIXTURES, copy_room, import_into, recorded, request_text

BELL = FIXTURES / "bell-tower.world.json"


@pytest.fixture
def kernel(tmp_path: Path) -> Kernel:
    return Kernel(data_dir=tmp_path / "data", env={})


@pytest.fixture
def room_dir(tmp_path: Path, kernel: Kernel) -> Path:
    room = copy_room(tmp_path / "room")
    import_into(kernel, room, BELL, "world")
    return room


def add_entry(kernel: Kernel, room_dir: Path, uid: int, keys: list[str], content: str) -> None:
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        room.documents.put(Document(f"e-{uid}", "worldbook_entry", {"pack": "world:bell-tower", "entry": {
            "uid": uid, "key": keys, "content": content, "secret": False}}, meta={"source": f"bell-tower#{uid}"}))
        room.save()


def spent() -> Budget:
    budget = Budget(1.0)
    budget.exhaust()
    return budget


def warnings(room_dir: Path, kernel: Kernel) -> list[str]:
    doc = Room.load(room_dir, kernel).documents.get("worldbook_timed", "timed")
    return list(doc.data.get("warnings") or []) if doc is not None else []


def applied(kernel: Kernel, room_dir: Path, say: str) -> str:
    result = run_turn(kernel, room_dir, say, provider="chat_completions", reply=recorded("chat_completions"),
                      rng=random.Random(1))
    assert result.applied is not None
    return request_text(result.compiled)


def test_with_the_budget_spent_template_entries_are_left_out_and_the_turn_completes(kernel: Kernel,
                                                                                     room_dir: Path) -> None:
    with spent().active():
        text = applied(kernel, room_dir, "我提着灯。")
    assert "LOOP0" not in text and "<%" not in text and "for (" not in text
    left = [w for w in warnings(room_dir, kernel) if "left out" in w]
    assert left and all("script time is spent" in w for w in left)


def test_without_the_budget_spent_the_same_entries_render(kernel: Kernel, room_dir: Path) -> None:
    with Budget(5.0).active():
        assert "LOOP0 LOOP1 LOOP2" in request_text(compile_turn(kernel, room_dir, "我提着灯。", rng=random.Random(1)))


def test_with_the_budget_spent_a_javascript_condition_is_false(kernel: Kernel, room_dir: Path) -> None:
    add_entry(kernel, room_dir, 97, ["潮"], "@@if [1, 2].includes(getvar('雾港.潮位')[0])\nJS-CONDITION")
    assert "JS-CONDITION" in request_text(compile_turn(kernel, room_dir, "潮水", rng=random.Random(1)))
    with spent().active():
        text = applied(kernel, room_dir, "潮水")
    assert "JS-CONDITION" not in text
    assert any("script time is spent; treated as false" in w for w in warnings(room_dir, kernel))


def test_with_the_budget_spent_the_rooms_hooks_are_disabled_for_the_turn(kernel: Kernel, room_dir: Path) -> None:
    with spent().active():
        applied(kernel, room_dir, "我提着灯。")
    history = (room_dir / "history.jsonl").read_text(encoding="utf-8")
    assert "disabled" in history and "script time is spent" in history
    applied(kernel, room_dir, "我提着灯。")  # the next turn has a budget of its own: the hooks run again
    last = [json.loads(line) for line in (room_dir / "history.jsonl").read_text(encoding="utf-8").splitlines()]
    assert not any("script time is spent" in str(e.get("text")) for e in last if e["turn"] == last[-1]["turn"])


def test_a_regex_key_that_overruns_is_skipped_and_told_to_the_keeper_by_its_handle(kernel: Kernel,
                                                                                  room_dir: Path) -> None:
    add_entry(kernel, room_dir, 96, ["/(a+)+$/"], "NEVER-HERE")
    add_entry(kernel, room_dir, 95, ["/灯[塔光]/"], "LAMP-REGEX")
    text = applied(kernel, room_dir, "灯塔 " + "a" * 30 + "!")
    assert "NEVER-HERE" not in text and "LAMP-REGEX" in text
    (warning,) = [w for w in warnings(room_dir, kernel) if "regex key" in w]
    assert warning.startswith("entry bell-tower#96: regex key '/(a+)+$/' skipped") and "0.1 s" in warning


def test_a_budget_that_runs_out_mid_turn_stops_the_rest_not_the_turn(kernel: Kernel, room_dir: Path) -> None:
    for uid in range(6):
        add_entry(kernel, room_dir, 80 + uid, ["灯"], f"<% for (;;) {{}} %>SPIN{uid}")
    budget = Budget(1.2)  # two of them use their 0.5 s each, the third is cut, the rest never start
    with budget.active():
        text = applied(kernel, room_dir, "我提着灯。")
    assert "SPIN" not in text and budget.spent and budget.used < 1.2 + 0.1
    found = warnings(room_dir, kernel)
    assert sum("full EJS mode failed" in w for w in found) >= 1 and sum("left out" in w for w in found) >= 2


def test_a_book_compiled_after_the_budget_is_spent_still_reads_a_refused_pattern_as_a_plain_key() -> None:
    from lw_tavern.worldbook.engine import compile_book
    from lw_tavern.worldbook.model import WorldBook, WorldEntry, WorldSettings

    book = WorldBook(entries=[WorldEntry.model_validate({"uid": 0, "key": ["/(/", "/雾+/"], "content": "x"})])
    with spent().active():  # the checks have a budget of their own: a room keeps what compiles
        compiled = compile_book(book, WorldSettings())
    plain, regex = compiled.scans[0].keys
    assert plain.regex is None and regex.regex is not None
