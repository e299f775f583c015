"""Message controls (:mod:`lwcore.turn.checkpoints`): rewind, edit, regenerate and choose, each
one transaction under the room's lock -- every file of the room checked byte for byte against a
copy taken at the point it goes back to, and faults injected at every step of each control (an
exception, or the process killed): the room is wholly before or wholly after."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from lwcore.errors import LwError
from lwcore.kernel import Kernel
from lwcore.turn import checkpoints
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room, room_lock
from lwcore.turn.view import view_for

from .conftest import REPLIES, with_narration

REPLY = json.loads((REPLIES / "turn1.anthropic_messages.json").read_text(encoding="utf-8"))


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file of the room (the lock and state folder ``.lw/`` aside), by path."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and ".lw" not in p.parts}


def play(kernel: Kernel, room: Path, n: int, *, seed: int = 5) -> None:
    run_turn(kernel, room, f"第{n}回：我去码头查看那艘空船。", actor="p1",
             reply=with_narration(REPLY, f"（第{n}回）"), rng=random.Random(seed + n))


def played(kernel: Kernel, room_dir: Path, turns: int) -> list[tuple[int, dict[str, bytes]]]:
    """Play ``turns`` model turns, each after a room command (a roll for the table, which is a
    turn of the history too), returning for each its turn number and the room's files as they
    were just before it."""
    before = []
    for n in range(1, turns + 1):
        run_turn(kernel, room_dir, ".r 1d6", actor="p2", rng=random.Random(n))
        before.append((Room.load(room_dir, kernel).turn_number + 1, snapshot(room_dir)))
        play(kernel, room_dir, n)
    return before


def rewind(kernel: Kernel, room: Path, turn: int, **kw) -> int:  # noqa: ANN003
    with room_lock(room):
        return checkpoints.rewind(room, turn, **kw)


def test_rewind_puts_every_file_back_byte_for_byte(kernel: Kernel, room_dir: Path) -> None:
    start = snapshot(room_dir)
    before = played(kernel, room_dir, 4)
    assert [turn for turn, _ in before] == [2, 4, 6, 8]
    rewind(kernel, room_dir, 6)
    assert snapshot(room_dir) == before[2][1]
    play(kernel, room_dir, 33)  # the room plays on from there
    rewind(kernel, room_dir, 4)
    assert snapshot(room_dir) == before[1][1]
    rewind(kernel, room_dir, 1)  # before the first roll: the room as it came
    assert snapshot(room_dir) == start
    assert Room.load(room_dir, kernel).turn_number == 0


def test_a_rewind_that_cannot_be_done_says_why_and_changes_nothing(kernel: Kernel, room_dir: Path) -> None:
    played(kernel, room_dir, 2)
    state = snapshot(room_dir)
    for turn in (5, 99):
        with pytest.raises(LwError, match="nothing has been saved since before turn"):
            rewind(kernel, room_dir, turn)
    (room_dir / ".lw" / "undo.jsonl").write_bytes(b"")  # a room from before the undo log
    play(kernel, room_dir, 3)
    with pytest.raises(LwError, match="does not reach back to before turn 2"):
        rewind(kernel, room_dir, 2)
    assert snapshot(room_dir) != state and Room.load(room_dir, kernel).turn_number == 5


def test_an_edit_is_marked_for_players_and_undone_by_a_rewind(kernel: Kernel, room_dir: Path) -> None:
    before = played(kernel, room_dir, 3)
    after = snapshot(room_dir)
    with room_lock(room_dir):
        checkpoints.edit(Room.load(room_dir, kernel), before[1][0], "雾散了一瞬，码头空无一人。")
    room = Room.load(room_dir, kernel)
    lines = [line for line in view_for(room, "p2").history if line.role == "keeper"]
    assert [line.edited for line in lines] == [False, True, False]
    assert lines[1].text == "雾散了一瞬，码头空无一人。" and "（第3回）" in lines[2].text
    history = (room_dir / "history.jsonl").read_text(encoding="utf-8")
    assert history.count("\n") == after["history.jsonl"].decode("utf-8").count("\n")  # one line replaced in place
    rewind(kernel, room_dir, before[2][0])  # the edit came after the last turn: undone with it
    assert snapshot(room_dir) == before[2][1]


@pytest.mark.parametrize("text, message", [("   ", "empty"), ("x" * 100_001, "at most 100,000")])
def test_an_edit_that_is_refused_writes_nothing(kernel: Kernel, room_dir: Path, text: str, message: str) -> None:
    played(kernel, room_dir, 1)
    state = snapshot(room_dir)
    with room_lock(room_dir), pytest.raises(LwError, match=message):
        checkpoints.edit(Room.load(room_dir, kernel), 2, text)
    with room_lock(room_dir), pytest.raises(LwError, match="turn 7 has no narration"):
        checkpoints.edit(Room.load(room_dir, kernel), 7, "雾")
    assert snapshot(room_dir) == state


def regenerate(kernel: Kernel, room_dir: Path, extra: str, seed: int) -> None:
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        said, actor = checkpoints.last_said(room)
        checkpoints.regenerate(room, lambda loaded: run_turn(kernel, loaded, said, actor=actor, rng=random.Random(seed),
                                                             reply=with_narration(REPLY, extra)))


def test_regenerate_keeps_alternatives_and_choosing_switches_whole_states(kernel: Kernel, room_dir: Path) -> None:
    before = played(kernel, room_dir, 2)
    first = snapshot(room_dir)
    regenerate(kernel, room_dir, "（重写一）", seed=100)
    second = snapshot(room_dir)
    regenerate(kernel, room_dir, "（重写二）", seed=200)
    third = snapshot(room_dir)
    assert len({first["history.jsonl"], second["history.jsonl"], third["history.jsonl"]}) == 3
    room = Room.load(room_dir, kernel)
    shown = checkpoints.alternatives_of(room)
    assert [(n, chosen) for n, _, chosen in shown] == [(1, False), (2, False), (3, True)]
    assert "（第2回）" in shown[0][1] and "（重写一）" in shown[1][1] and "（重写二）" in shown[2][1]
    said = [h.text for h in room.history.all() if h.role == "player"]
    assert said == ["第1回：我去码头查看那艘空船。", "第2回：我去码头查看那艘空船。"]  # played again, not twice
    for number, state in ((1, first), (3, third), (2, second), (1, first)):
        with room_lock(room_dir):
            checkpoints.choose(room_dir, number, turn_number=Room.load(room_dir, kernel).turn_number)
        assert snapshot(room_dir) == state, number
    rewind(kernel, room_dir, before[1][0])  # the alternatives of an undone turn go with it
    assert snapshot(room_dir) == before[1][1] and checkpoints.alternatives_of(Room.load(room_dir, kernel)) == []


def test_a_room_read_again_after_a_rewind_is_the_room_a_load_gives(kernel: Kernel, room_dir: Path) -> None:
    played(kernel, room_dir, 2)
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        turn = room.turn_number
        _, changed = checkpoints._rewind(room_dir, turn, keep=True, fault=None)
        again, loaded = room.reread(changed), Room.load(room_dir, kernel)
    assert "history.jsonl" in changed and again is not room
    assert again.turn_number == loaded.turn_number == turn - 1
    assert {k: s.values() for k, s in again.sheets.items()} == {k: s.values() for k, s in loaded.sheets.items()}
    assert again.variables == loaded.variables and again._texts == loaded._texts
    assert [e.text for e in again.history.tail(9)] == [e.text for e in loaded.history.tail(9)]
    assert {k: s.values() for k, s in room.sheets.items()} != {k: s.values() for k, s in loaded.sheets.items()}


def test_a_regenerate_that_fails_puts_the_earlier_reply_back(kernel: Kernel, room_dir: Path) -> None:
    played(kernel, room_dir, 2)
    state = snapshot(room_dir)

    def broken(room: Room) -> None:
        raise LwError("the model is gone", code="cancelled")

    with room_lock(room_dir):
        with pytest.raises(LwError, match="the model is gone"):
            checkpoints.regenerate(Room.load(room_dir, kernel), broken)
    assert snapshot(room_dir) == state


# --- faults -------------------------------------------------------------------------------------


class Fault(Exception):
    pass


CONTROLS = {
    "rewind": lambda kernel, room, fault: checkpoints.rewind(room, 4, fault=fault),
    "edit": lambda kernel, room, fault: checkpoints.edit(Room.load(room, kernel), 4, "雾散了。", fault=fault),
    "regenerate-rewind": lambda kernel, room, fault: checkpoints.rewind(room, 6, keep=True, fault=fault),
    "held-rewind": lambda kernel, room, fault: checkpoints._rewind(room, 6, keep=True, fault=fault, hold=True),
}


def control_steps(kernel: Kernel, room: Path, name: str, tmp_path: Path) -> tuple[list[str], dict[str, bytes]]:
    probe = tmp_path / f"probe-{name}"
    shutil.copytree(room, probe)
    seen: list[str] = []
    with room_lock(probe):
        CONTROLS[name](kernel, probe, seen.append)
    return seen, snapshot(probe)


@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_an_exception_at_any_step_of_a_control_leaves_the_room_before_or_after(
        kernel: Kernel, room_dir: Path, tmp_path: Path, name: str) -> None:
    played(kernel, room_dir, 3)
    old_state = snapshot(room_dir)
    steps, new_state = control_steps(kernel, room_dir, name, tmp_path)
    assert new_state != old_state and "committed" in steps and steps[-1] == "done"
    for index, step in enumerate(steps):
        work = tmp_path / f"{name}-{index}"
        shutil.copytree(room_dir, work)

        def fault(seen: str, step: str = step) -> None:
            if seen == step:
                raise Fault(step)

        with pytest.raises(Fault), room_lock(work):
            CONTROLS[name](kernel, work, fault)
        with room_lock(work):  # the next open finishes or drops the interrupted transaction
            Room.load(work, kernel)
        assert snapshot(work) == (new_state if index >= steps.index("committed") else old_state), step


KILLER = textwrap.dedent('''
    import os, sys
    from pathlib import Path
    from lwcore.kernel import Kernel
    from lwcore.turn import checkpoints
    from lwcore.turn.room import Room, room_lock
    folder, step, name = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    kernel = Kernel(data_dir=folder.parent / "data", env={})
    def fault(seen):
        if seen == step:
            os._exit(9)
    with room_lock(folder):
        if name == "rewind":
            checkpoints.rewind(folder, 4, fault=fault)
        elif name == "edit":
            checkpoints.edit(Room.load(folder, kernel), 4, "雾散了。", fault=fault)
        elif name == "held-rewind":
            checkpoints._rewind(folder, 6, keep=True, fault=fault, hold=True)
        else:
            checkpoints.rewind(folder, 6, keep=True, fault=fault)
    os._exit(0)
''')


def test_a_killed_process_at_any_step_of_a_control_leaves_the_room_before_or_after(
        kernel: Kernel, room_dir: Path, tmp_path: Path) -> None:
    played(kernel, room_dir, 3)
    old_state = snapshot(room_dir)
    script = tmp_path / "killer.py"
    script.write_text(KILLER, encoding="utf-8")
    for name in sorted(CONTROLS):
        steps, new_state = control_steps(kernel, room_dir, name, tmp_path)
        for index, step in enumerate(steps):
            work = tmp_path / f"kill-{name}-{index}" / "room"
            shutil.copytree(room_dir, work)
            proc = subprocess.run([sys.executable, str(script), str(work), step, name], capture_output=True,
                                  text=True, timeout=120)
            assert proc.returncode == 9, proc.stderr
            with room_lock(work):
                Room.load(work, kernel)
            assert snapshot(work) == (new_state if index >= steps.index("committed") else old_state), (name, step)
            assert not any((work / ".lw" / "txn").iterdir()) and not (work / ".lw" / "held.json").exists()


REGENERATE_KILLER = textwrap.dedent('''
    import json, os, random, sys
    from pathlib import Path
    from lwcore.kernel import Kernel
    from lwcore.turn import checkpoints
    from lwcore.turn.pipeline import run_turn
    from lwcore.turn.room import Room, room_lock
    folder, kill, reply = Path(sys.argv[1]), int(sys.argv[2]), json.loads(Path(sys.argv[3]).read_text("utf-8"))
    kernel = Kernel(data_dir=folder.parent / "data", env={})
    seen = []
    def fault(step):
        seen.append(step)
        if len(seen) - 1 == kill:
            os._exit(9)
    def play(loaded):
        original = loaded.save
        loaded.save = lambda: original(fault=fault)
        return run_turn(kernel, loaded, said, actor=actor, reply=reply, rng=random.Random(3))
    with room_lock(folder):
        room = Room.load(folder, kernel)
        said, actor = checkpoints.last_said(room)
        checkpoints.regenerate(room, play, fault=fault)
    print(json.dumps(seen))
    os._exit(0)
''')


def test_a_killed_regenerate_leaves_the_room_as_before_it_rewound_or_regenerated(
        kernel: Kernel, room_dir: Path, tmp_path: Path) -> None:
    """The regenerate's rewind is held (durable with the turn's save): a process killed at any
    step of the rewind or of the turn's save leaves, once the room is opened again, the room
    as it was just before turn N (the earlier reply kept) until the turn's save commits, and
    the regenerated room from then on -- never a mix."""
    played(kernel, room_dir, 3)
    reply = tmp_path / "reply.json"
    reply.write_text(json.dumps(with_narration(REPLY, "（重写）"), ensure_ascii=False), encoding="utf-8")
    script = tmp_path / "regenerate.py"
    script.write_text(REGENERATE_KILLER, encoding="utf-8")
    rewound, whole = tmp_path / "rewound" / "room", tmp_path / "whole" / "room"
    for copy in (rewound, whole):
        shutil.copytree(room_dir, copy)
    with room_lock(rewound):
        checkpoints.rewind(rewound, 6, keep=True)
    proc = subprocess.run([sys.executable, str(script), str(whole), "-1", str(reply)], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    steps = json.loads(proc.stdout)
    committed = [i for i, step in enumerate(steps) if step == "committed"]
    assert len(committed) == 2 and steps[-1] == "done"  # the held rewind's, then the turn's save's
    states = {"rewound": snapshot(rewound), "regenerated": snapshot(whole)}
    assert states["rewound"] != states["regenerated"]
    for index, step in enumerate(steps):
        work = tmp_path / f"kill-{index}" / "room"
        shutil.copytree(room_dir, work)
        proc = subprocess.run([sys.executable, str(script), str(work), str(index), str(reply)], capture_output=True,
                              text=True, timeout=120)
        assert proc.returncode == 9, proc.stderr
        if index < committed[1]:  # a reader finding the held rewind of a dead process finishes it
            with room_lock(work, shared=True):
                Room.load(work, kernel)
            assert not (work / ".lw" / "held.json").exists(), step
        with room_lock(work):
            Room.load(work, kernel)
        expected = "regenerated" if index >= committed[1] else "rewound"
        assert snapshot(work) == states[expected], (index, step, expected)
        assert not (work / ".lw" / "held.json").exists() and not any((work / ".lw" / "txn").iterdir())


def test_a_damaged_undo_log_is_a_located_error(kernel: Kernel, room_dir: Path) -> None:
    played(kernel, room_dir, 2)
    log = room_dir / ".lw" / "undo.jsonl"
    log.write_bytes(log.read_bytes() + b'{"turn_before": "x"}\n')
    state = snapshot(room_dir)
    with pytest.raises(LwError, match="undo log's line at byte") as caught:
        rewind(kernel, room_dir, 2)
    assert caught.value.file is not None and snapshot(room_dir) == state


HOSTILE_LINES = [
    b"not json at all",
    b"[]",
    b'{"turn_before": 1, "turn_after": 2}',
    b'{"turn_before": true, "turn_after": 2, "changes": []}',
    b'{"turn_before": 1, "turn_after": 99, "changes": {"target": "x"}}',
    b'{"turn_before": 1, "turn_after": 99, "changes": [{"target": "../outside.txt", "kind": "replace", "before": null, "after": "eA=="}]}',
    b'{"turn_before": 1, "turn_after": 99, "changes": [{"target": "/etc/passwd", "kind": "replace", "before": null, "after": "eA=="}]}',
    b'{"turn_before": 1, "turn_after": 99, "changes": [{"target": "variables.yaml", "kind": "delete"}]}',
    b'{"turn_before": 1, "turn_after": 99, "changes": [{"target": "history.jsonl", "kind": "append", "at": -5, "was": "", "data": ""}]}',
    b'{"turn_before": 1, "turn_after": 99, "changes": [{"target": "variables.yaml", "kind": "replace", "before": "!!!", "after": "eA=="}]}',
    b'{"turn_before": 1, "turn_after": 99, "changes": [{"kind": "replace", "before": null, "after": "eA=="}]}',
    b'{"turn_before": 1, "turn_after": 99, "lost": "yes"}',
    b"\xff\xfe\x00garbage",
]


@pytest.mark.parametrize("line", HOSTILE_LINES, ids=range(len(HOSTILE_LINES)))
def test_a_hostile_undo_log_line_is_refused_located_and_nothing_is_written(
        kernel: Kernel, room_dir: Path, tmp_path: Path, line: bytes) -> None:
    before = played(kernel, room_dir, 2)
    log = room_dir / ".lw" / "undo.jsonl"
    log.write_bytes(log.read_bytes() + line + b"\n")
    state = snapshot(room_dir)
    with pytest.raises(LwError) as caught:
        rewind(kernel, room_dir, before[1][0])
    assert caught.value.file is not None, caught.value
    assert snapshot(room_dir) == state and not (tmp_path / "outside.txt").exists()


@pytest.mark.parametrize("text", ["{", "[]", '{"turn": 4, "items": [{"records": [7]}]}',
                                  '{"turn": 4, "items": [{"records": ["{\\"turn_before\\": 1, \\"turn_after\\": 4, '
                                  '\\"changes\\": [{\\"target\\": \\"../x\\", \\"kind\\": \\"replace\\", '
                                  '\\"before\\": null, \\"after\\": \\"eA==\\"}]}"]}]}'])
def test_hostile_kept_alternatives_are_refused_located(kernel: Kernel, room_dir: Path, tmp_path: Path, text: str) -> None:
    before = played(kernel, room_dir, 2)
    (room_dir / ".lw" / "alternatives.json").write_text(text, encoding="utf-8")
    state = snapshot(room_dir)
    with room_lock(room_dir), pytest.raises(LwError) as caught:
        checkpoints.choose(room_dir, 1, turn_number=before[1][0])
    assert caught.value.file is not None and snapshot(room_dir) == state
    assert not (tmp_path / "x").exists()
