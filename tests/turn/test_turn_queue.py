"""Per-room turn queues and turn deadlines (real threads; the deadlines' clock injected).

A queue runs its room's jobs one at a time in submission order on its own thread, rooms side
by side; a job whose deadline passed while it waited is never started; a turn past its
deadline writes nothing (room byte-identical), a turn that began saving in time finishes."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest

from lwcore.errors import LwError
from lwcore.kernel import Kernel
from lwcore.deadline import Deadline
from lwcore.turn.queue import TurnQueue, queue_for
from lwcore.turn.room import Room, room_lock

from .conftest import SAY

HANG = 20.0


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and ".lw" not in p.relative_to(folder).parts}


def test_a_deadline_refuses_commits_once_passed_or_expired() -> None:
    clock = Clock()
    deadline = Deadline(5, clock=clock)
    assert deadline.remaining() == 5 and deadline.bound(60) == 5 and deadline.bound(2) == 2
    clock.now += 5
    assert deadline.expired and deadline.remaining() == 0
    with pytest.raises(LwError, match="did not finish within 5 s; nothing of it was saved") as caught:
        deadline.claim()
    assert caught.value.code == "deadline"
    with pytest.raises(LwError):
        deadline.bound(60)

    early = Deadline(5, clock=clock)
    assert early.expire() and early.expired
    with pytest.raises(LwError):
        early.claim()

    claimed = Deadline(5, clock=clock)
    claimed.claim()  # a commit began in time
    assert not claimed.expire() and claimed.claimed  # the host must wait for it
    clock.now += 60
    claimed.claim()  # and every later save of that turn goes on
    assert claimed.bound(60) == 60


def test_one_queue_runs_its_jobs_in_order_on_one_thread() -> None:
    jobs = TurnQueue("order")
    gate = threading.Event()
    ran: list[tuple[int, int]] = []

    def job(n: int) -> int:
        if n == 0:
            gate.wait(HANG)
        ran.append((n, threading.get_ident()))
        return n * n

    futures = [jobs.submit(lambda n=n: job(n)) for n in range(20)]
    assert jobs.pending == 20
    gate.set()
    assert [f.result(HANG) for f in futures] == [n * n for n in range(20)]
    assert [n for n, _ in ran] == list(range(20)) and len({t for _, t in ran}) == 1
    assert ran[0][1] != threading.get_ident()


def test_rooms_run_side_by_side() -> None:
    """Room A's job waits for room B's: with one queue for both this would never end."""
    a, b = TurnQueue("a"), TurnQueue("b")
    b_ran = threading.Event()
    first = a.submit(lambda: b_ran.wait(HANG))
    second = b.submit(b_ran.set)
    second.result(HANG)
    assert first.result(HANG) is True


def test_a_job_whose_deadline_passed_while_waiting_is_never_started() -> None:
    clock = Clock()
    jobs = TurnQueue("late")
    gate = threading.Event()
    started: list[str] = []
    blocker = jobs.submit(lambda: gate.wait(HANG))
    late = jobs.submit(lambda: started.append("late"), deadline=Deadline(1, clock=clock))
    clock.now += 2
    gate.set()
    blocker.result(HANG)
    with pytest.raises(LwError) as caught:
        late.result(HANG)
    assert caught.value.code == "deadline" and started == []


def test_a_failing_job_fails_only_its_own_future() -> None:
    jobs = TurnQueue("fail")

    def boom() -> None:
        raise LwError("no")

    bad, good = jobs.submit(boom), jobs.submit(lambda: "fine")
    with pytest.raises(LwError, match="no"):
        bad.result(HANG)
    assert good.result(HANG) == "fine"


def test_an_idle_worker_ends_and_a_new_job_starts_another() -> None:
    jobs = TurnQueue("idle", idle=0.05)
    first = jobs.submit(threading.current_thread).result(HANG)
    first.join(HANG)  # no job for 0.05 s: the worker ends
    assert not first.is_alive()
    second = jobs.submit(threading.current_thread).result(HANG)
    assert second is not first and second.name == "turns:idle"
    jobs.close()
    with pytest.raises(LwError):
        jobs.submit(lambda: None)


def test_one_queue_per_room_folder(kernel: Kernel, room_dir: Path, tmp_path: Path) -> None:
    assert queue_for(kernel, room_dir) is queue_for(kernel, room_dir / "room.yaml")
    other = tmp_path / "other"
    other.mkdir()
    assert queue_for(kernel, other) is not queue_for(kernel, room_dir)


def test_a_turn_past_its_deadline_leaves_the_room_byte_identical(kernel: Kernel, room_dir: Path, recorded) -> None:
    clock = Clock()
    before = snapshot(room_dir)
    deadline = Deadline(30, clock=clock)
    clock.now += 31  # the turn ran long (say, a model that took its time)
    with pytest.raises(LwError) as caught:
        kernel.turn(room_dir, SAY, reply=recorded("anthropic_messages"), rng=random.Random(5), deadline=deadline)
    assert caught.value.code == "deadline"
    assert snapshot(room_dir) == before
    with room_lock(room_dir):  # a room command is held to it too
        room = Room.load(room_dir, kernel)
        with pytest.raises(LwError):
            kernel.turn(room, ".r 1d6", actor="p1", rng=random.Random(1), deadline=deadline)
    assert snapshot(room_dir) == before
    in_time = Deadline(30, clock=clock)
    result = kernel.turn(room_dir, SAY, reply=recorded("anthropic_messages"), rng=random.Random(5), deadline=in_time)
    assert result.applied.written and in_time.claimed and snapshot(room_dir) != before
