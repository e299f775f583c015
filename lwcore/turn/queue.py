"""Per-room turn queues: one room's turns run one at a time, in the order they were asked for.

A host that takes actions from many people at once (a web table, a chat server) hands each
room's actions to that room's :class:`TurnQueue` (:func:`queue_for`: one per room folder and
kernel). A queue runs its jobs on one worker thread of its own, first come first served, so
turns in one room apply in the order they arrived, while other rooms' queues run at the same
time; nothing that only reads a room goes through a queue (readers take the room's commit lock
as readers, :func:`lwcore.turn.room.room_lock` with ``shared``, and never wait for a turn).

:meth:`TurnQueue.submit` returns a :class:`concurrent.futures.Future` at once. A job given a
:class:`~lwcore.deadline.Deadline` that has passed before its turn came is not started
(its future fails with the deadline's error); a job already running is never interrupted (a
thread cannot be), but past its deadline it writes nothing (:mod:`lwcore.deadline`), so
the host may answer its user at the deadline and let the worker finish in the background.

The worker thread is started on the first job and ends after ``idle`` seconds without one
(a host with many rooms keeps threads only for the busy ones). A QuickJS context stays on the
thread that made it: each turn makes and frees its own on the worker.
"""

from __future__ import annotations

import contextvars
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from lwcore.errors import LwError
from lwcore.deadline import Deadline
from lwcore.turn.room import room_folder

if TYPE_CHECKING:
    from lwcore.kernel import Kernel

T = TypeVar("T")
IDLE_SECONDS = 30.0


class TurnQueue:
    """The turns of one room, run in order on one worker thread (``name`` names it)."""

    def __init__(self, name: str = "room", *, idle: float = IDLE_SECONDS) -> None:
        self.name = name
        self.idle = idle
        self._jobs: queue.SimpleQueue[tuple[Future[Any], Callable[[], Any], Deadline | None] | None] = \
            queue.SimpleQueue()
        self._lock = threading.Lock()
        self._worker: threading.Thread | None = None
        self._closed = False
        self._pending = 0

    def submit(self, job: Callable[[], T], *, deadline: Deadline | None = None) -> Future[T]:
        """Queue ``job`` (run as ``job()`` after every job submitted before it, in a copy of the
        submitter's context: the locale packs in use there, say); its future."""
        future: Future[T] = Future()
        context = contextvars.copy_context()
        with self._lock:
            if self._closed:
                raise LwError("this room takes no more turns (the host is stopping)", code="closed")
            self._pending += 1
            self._jobs.put((future, lambda: context.run(job), deadline))
            if self._worker is None:
                self._worker = threading.Thread(target=self._run, name=f"turns:{self.name}", daemon=True)
                self._worker.start()
        return future

    @property
    def pending(self) -> int:
        """Jobs submitted and not finished (the running one included)."""
        with self._lock:
            return self._pending

    def close(self) -> None:
        """Take no more jobs; the worker ends after the ones already queued."""
        with self._lock:
            self._closed = True
            if self._worker is not None:
                self._jobs.put(None)

    def _run(self) -> None:
        while True:
            try:
                item = self._jobs.get(timeout=self.idle)
            except queue.Empty:
                with self._lock:  # a job submitted now finds no worker and starts one
                    if self._jobs.empty():
                        self._worker = None
                        return
                continue
            if item is None:
                with self._lock:
                    self._worker = None
                return
            future, job, deadline = item
            try:
                if future.set_running_or_notify_cancel():
                    if deadline is not None and deadline.expired:
                        future.set_exception(deadline.error())
                    else:
                        try:
                            future.set_result(job())
                        except BaseException as exc:  # noqa: BLE001 - the job's failure is its future's
                            future.set_exception(exc)
            finally:
                with self._lock:
                    self._pending -= 1


class TurnQueues:
    """The turn queues of one kernel, by room folder (a kernel service)."""

    def __init__(self, kernel: Kernel | None = None) -> None:
        self._queues: dict[Path, TurnQueue] = {}
        self._lock = threading.Lock()

    def get(self, room: str | Path) -> TurnQueue:
        key = Path(room).resolve()
        with self._lock:
            found = self._queues.get(key)
            if found is None:
                found = self._queues[key] = TurnQueue(key.name)
            return found


def queue_for(kernel: Kernel, room: str | Path) -> TurnQueue:
    """The turn queue of the room folder ``room`` among ``kernel``'s hosts (one per folder)."""
    return kernel.service("turn.queues", TurnQueues).get(room_folder(room))
