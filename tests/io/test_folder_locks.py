"""A room's locks with real threads and a real killed process: a reader never waits for a
writer (a turn in progress), only for a commit being applied; a commit waits for the readers
already reading and stops new ones at the turnstile; a reader inside a read never deadlocks;
a save whose process died is finished by the next reader before it reads."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

from lwcore.io.transaction import FolderTransaction, committing, locked

HANG = 20.0


def folder_with(tmp_path: Path, text: str = "old\n") -> Path:
    folder = tmp_path / "room"
    folder.mkdir()
    (folder / "a.txt").write_text(text, encoding="utf-8")
    (folder / "b.txt").write_text(text, encoding="utf-8")
    return folder


def in_thread(target) -> tuple[threading.Thread, threading.Event]:  # noqa: ANN001
    done = threading.Event()

    def run() -> None:
        target()
        done.set()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, done


def test_a_reader_does_not_wait_for_a_writer_and_reads_the_last_commit(tmp_path: Path) -> None:
    folder = folder_with(tmp_path)
    seen: list[str] = []
    with locked(folder):  # a turn in progress: loaded, changing, not yet saved
        _, done = in_thread(lambda: seen.append(_read(folder)))
        assert done.wait(HANG), "a reader waited for the writer"
        txn = FolderTransaction(folder)
        txn.replace("a.txt", b"new\n")
        txn.replace("b.txt", b"new\n")
        txn.commit()
        _, done = in_thread(lambda: seen.append(_read(folder)))
        assert done.wait(HANG)
    assert seen == ["old\nold\n", "new\nnew\n"]


def _read(folder: Path) -> str:
    with locked(folder, shared=True):
        return (folder / "a.txt").read_text(encoding="utf-8") + (folder / "b.txt").read_text(encoding="utf-8")


def test_a_commit_waits_for_readers_and_new_readers_wait_for_it(tmp_path: Path) -> None:
    folder = folder_with(tmp_path)
    reading, finish_reading = threading.Event(), threading.Event()
    order: list[str] = []

    def long_reader() -> None:
        with locked(folder, shared=True):
            reading.set()
            finish_reading.wait(HANG)
            order.append("first reader done")

    def writer() -> None:
        with locked(folder):
            txn = FolderTransaction(folder)
            txn.replace("a.txt", b"new\n")
            txn.commit()
            order.append("committed")

    in_thread(long_reader)
    assert reading.wait(HANG)
    writing, _ = in_thread(writer)
    _wait_for_the_turnstile(folder)
    later: list[str] = []
    late_reader, late_done = in_thread(lambda: later.append(_read(folder)))
    assert not late_done.wait(0.3)  # a reader arriving now waits for the commit
    finish_reading.set()
    assert late_done.wait(HANG)
    writing.join(HANG)
    assert order == ["first reader done", "committed"] and later == ["new\nold\n"]


def _wait_for_the_turnstile(folder: Path) -> None:
    """Until a commit holds the turnstile (it waits there for the readers already reading)."""
    deadline = time.monotonic() + HANG
    while not (folder / ".lw" / "gate").exists() or not _gate_is_held(folder):
        assert time.monotonic() < deadline, "no commit reached the turnstile"
        time.sleep(0.01)


def _gate_is_held(folder: Path) -> bool:
    import fcntl
    import os

    fd = os.open(folder / ".lw" / "gate", os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def test_a_read_inside_a_read_never_waits(tmp_path: Path) -> None:
    """Nested reads on one thread take no second lock: at the turnstile they could wait for a
    commit that waits for the outer read."""
    folder = folder_with(tmp_path)
    outer, release = threading.Event(), threading.Event()
    nested: list[str] = []

    def reader() -> None:
        with locked(folder, shared=True):
            outer.set()
            release.wait(HANG)
            nested.append(_read(folder))

    reading, _ = in_thread(reader)
    assert outer.wait(HANG)

    def writer() -> None:
        with locked(folder):
            txn = FolderTransaction(folder)
            txn.replace("a.txt", b"new\n")
            txn.commit()

    writing, _ = in_thread(writer)
    _wait_for_the_turnstile(folder)  # the commit is waiting for the outer read, holding the turnstile
    release.set()
    reading.join(HANG)
    writing.join(HANG)
    assert not reading.is_alive() and not writing.is_alive() and nested == ["old\nold\n"]


KILLED = textwrap.dedent('''
    import os, sys
    from pathlib import Path
    from lwcore.io.transaction import FolderTransaction, locked
    folder = Path(sys.argv[1])
    def fault(step):
        if step == "applied:a.txt":
            os._exit(9)
    with locked(folder):
        txn = FolderTransaction(folder, fault=fault)
        txn.replace("a.txt", b"new\\n")
        txn.replace("b.txt", b"new\\n")
        txn.commit()
''')


def test_a_reader_finishes_a_save_whose_process_died(tmp_path: Path) -> None:
    folder = folder_with(tmp_path)
    proc = subprocess.run([sys.executable, "-c", KILLED, str(folder)], capture_output=True, timeout=120)
    assert proc.returncode == 9, proc.stderr
    assert (folder / "a.txt").read_bytes() == b"new\n" and (folder / "b.txt").read_bytes() == b"old\n"  # half
    assert _read(folder) == "new\nnew\n"  # the reader saw the whole commit, never the half
    assert not any((folder / ".lw" / "txn").iterdir())


def test_committing_is_exclusive_of_readers(tmp_path: Path) -> None:
    folder = folder_with(tmp_path)
    with committing(folder):
        _, done = in_thread(lambda: _read(folder))
        assert not done.wait(0.3)
    assert done.wait(HANG)


def test_a_held_change_is_whole_at_once_and_durable_with_the_next_commit(tmp_path: Path) -> None:
    """A held transaction is applied at once (a reader sees it whole, a writer's reader too);
    the next commit ends it (its record gone); a live writer's held change is left to it by a
    reader, and a dead one's is finished by the next writer."""
    folder = folder_with(tmp_path)
    record = folder / ".lw" / "held.json"
    with locked(folder):
        held = FolderTransaction(folder)
        held.replace("a.txt", b"held\n")
        held.truncate("b.txt", 1)
        held.hold()
        assert record.exists()
        seen: dict[str, str] = {}

        def read() -> None:
            with locked(folder, shared=True):  # the writer lives: read what is there
                seen["a"] = (folder / "a.txt").read_text(encoding="utf-8")

        thread, done = in_thread(read)
        assert done.wait(HANG)
        thread.join()
        assert seen["a"] == "held\n" and record.exists()
        after = FolderTransaction(folder)
        after.append("b.txt", b"+next\n")
        after.commit()
    assert not record.exists()
    assert (folder / "a.txt").read_text(encoding="utf-8") == "held\n"
    assert (folder / "b.txt").read_text(encoding="utf-8") == "o+next\n"

    with locked(folder):  # a held change whose process is gone (its record left): the next writer ends it
        held = FolderTransaction(folder)
        held.replace("c.txt", b"new\n")
        held.hold()
    (folder / "c.txt").unlink()  # as if the un-synced file never reached the disk
    with locked(folder):
        assert (folder / "c.txt").read_text(encoding="utf-8") == "new\n" and not record.exists()


def test_a_damaged_held_record_is_a_located_error(tmp_path: Path) -> None:
    import pytest

    from lwcore.errors import LwError

    folder = folder_with(tmp_path)
    (folder / ".lw").mkdir()
    for bad in (b"not json\n", b'{"changes": [{"kind": "replace", "target": "../x", "offset": 0, "size": 0}]}\n',
                b'{"changes": [{"kind": "replace", "target": "a.txt", "offset": 0, "size": 9}]}\nshort'):
        (folder / ".lw" / "held.json").write_bytes(bad)
        with pytest.raises(LwError) as caught, locked(folder):
            pass
        assert caught.value.file is not None and (folder / "a.txt").read_text(encoding="utf-8") == "old\n"
    assert not (tmp_path / "x").exists()
