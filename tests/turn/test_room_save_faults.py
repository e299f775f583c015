"""A room's save is one transaction across its files, and turns in one room never lose each
other: faults injected at every step of a save (an exception, or the process killed), then the
next open recovers; six concurrent ``lw turn`` processes on one room all count."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from lwcore.errors import LwError
from lwcore.kernel import Kernel
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room, room_lock

from .conftest import REPLIES, SAY

LW = str(Path(sys.executable).with_name("lw"))
REPLY = json.loads((REPLIES / "turn1.anthropic_messages.json").read_text(encoding="utf-8"))


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and ".lw" not in p.parts}


class Fault(Exception):
    pass


def steps_of_a_turn(kernel: Kernel, room_dir: Path, tmp_path: Path) -> list[str]:
    """The step names one applied turn's save goes through (recorded on a copy)."""
    import shutil

    copy = tmp_path / "probe"
    shutil.copytree(room_dir, copy)
    seen: list[str] = []
    with room_lock(copy):
        room = Room.load(copy, kernel)
        apply_turn(kernel, room, fault=seen.append)
    return seen


def apply_turn(kernel: Kernel, room: Room, fault) -> None:  # noqa: ANN001
    from lwcore.turn import pipeline

    original = room.save
    room.save = lambda: original(fault=fault)  # type: ignore[method-assign]
    pipeline.run_turn(kernel, room, SAY, reply=REPLY, rng=random.Random(5))


def test_the_save_has_the_steps_we_inject_into(kernel: Kernel, room_dir: Path, tmp_path: Path) -> None:
    steps = steps_of_a_turn(kernel, room_dir, tmp_path)
    assert steps[0].startswith("staged:") and "committed" in steps and steps[-1] == "done"
    assert {"applied:variables.yaml", "applied:history.jsonl"} <= set(steps)


def test_an_exception_at_any_step_leaves_the_old_or_the_new_room(kernel: Kernel, room_dir: Path, tmp_path: Path) -> None:
    import shutil

    steps = steps_of_a_turn(kernel, room_dir, tmp_path)
    new_state = snapshot(tmp_path / "probe")
    old_state = snapshot(room_dir)
    assert new_state != old_state
    for index, step in enumerate(steps):
        work = tmp_path / f"case{index}"
        shutil.copytree(room_dir, work)

        def fault(name: str, step: str = step) -> None:
            if name == step:
                raise Fault(step)

        with pytest.raises(Fault):
            with room_lock(work):
                apply_turn(kernel, work_room := Room.load(work, kernel), fault)  # noqa: F841
        with room_lock(work):  # the next open finishes or drops the interrupted save
            Room.load(work, kernel)
        after = snapshot(work)
        committed = steps.index("committed")
        assert after == (new_state if index >= committed else old_state), step


KILLER = textwrap.dedent('''
    import json, os, random, sys
    from pathlib import Path
    from lwcore.kernel import Kernel
    from lwcore.turn.room import Room, room_lock
    from lwcore.turn import pipeline
    folder, step, reply = Path(sys.argv[1]), sys.argv[2], json.loads(Path(sys.argv[3]).read_text())
    kernel = Kernel(data_dir=folder.parent / "data", env={})
    def fault(name):
        if name == step:
            os._exit(9)
    with room_lock(folder):
        room = Room.load(folder, kernel)
        original = room.save
        room.save = lambda: original(fault=fault)
        pipeline.run_turn(kernel, room, sys.argv[4], reply=reply, rng=random.Random(5))
    os._exit(0)
''')


def test_a_killed_process_at_any_step_leaves_the_old_or_the_new_room(kernel: Kernel, room_dir: Path, tmp_path: Path) -> None:
    import shutil

    steps = steps_of_a_turn(kernel, room_dir, tmp_path)
    new_state = snapshot(tmp_path / "probe")
    old_state = snapshot(room_dir)
    script = tmp_path / "killer.py"
    script.write_text(KILLER, encoding="utf-8")
    reply_file = tmp_path / "reply.json"
    reply_file.write_text(json.dumps(REPLY), encoding="utf-8")
    for index, step in enumerate(steps):
        work = tmp_path / f"kill{index}" / "room"
        shutil.copytree(room_dir, work)
        proc = subprocess.run([sys.executable, str(script), str(work), step, str(reply_file), SAY],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 9, proc.stderr
        with room_lock(work):
            Room.load(work, kernel)
        committed = steps.index("committed")
        assert snapshot(work) == (new_state if index >= committed else old_state), step
        assert not any((work / ".lw" / "txn").iterdir())  # nothing staged is left behind


def test_a_save_that_cannot_encode_writes_nothing(kernel: Kernel, room_dir: Path) -> None:
    before = snapshot(room_dir)
    reply = {"content": [*REPLY["content"][:-1], {"type": "text", "text": "雾里有个声音\ud800在喊"}]}
    with pytest.raises(LwError, match="cannot be written as UTF-8"):
        run_turn(kernel, room_dir, SAY, reply=reply, rng=random.Random(5))
    assert snapshot(room_dir) == before


def test_writes_keep_the_file_mode(kernel: Kernel, room_dir: Path) -> None:
    os.chmod(room_dir / "variables.yaml", 0o644)
    os.chmod(room_dir / "history.jsonl", 0o640)
    run_turn(kernel, room_dir, SAY, reply=REPLY, rng=random.Random(5))
    assert (room_dir / "variables.yaml").stat().st_mode & 0o777 == 0o644
    assert (room_dir / "history.jsonl").stat().st_mode & 0o777 == 0o640


def test_six_concurrent_turns_all_count(room_dir: Path, tmp_path: Path) -> None:
    reply = {"content": [{"type": "tool_use", "id": "a", "name": "adjust_variable",
                          "input": {"id": "cult_alert", "delta": 1}}]}
    reply_file = tmp_path / "inc.json"
    reply_file.write_text(json.dumps(reply), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env["LW_HOME"] = str(tmp_path / "home")
    procs = [subprocess.Popen([LW, "turn", str(room_dir), "--say", f"第{i}次", "--reply", str(reply_file), "--json"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env) for i in range(6)]
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
    kernel = Kernel(data_dir=tmp_path / "data", env={})
    room = Room.load(room_dir, kernel)
    assert room.variable("cult_alert").value == 2 + 6
    said = [h.text for h in room.history.all() if h.role == "player"]
    assert sorted(said) == sorted(f"第{i}次" for i in range(6))
