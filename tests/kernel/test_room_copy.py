"""Hostile room folders (the attacker's M3 and L1), through the real ``lw``: ``lw room create NAME
--from SRC`` copies only the regular files and folders inside SRC (a link is never followed, a
pipe, device or socket is refused, each file and the whole copy are bounded), a refusal names
the path inside SRC and leaves no room and no staging folder; ``lw room list`` never blocks on a
room's history that is a pipe and reads only its tail."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from lwcore.cli import lw as lw_group
from lwcore.io import tree_copy

LW = str(Path(sys.executable).with_name("lw"))
REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "fog-harbor"


def lw(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env["LW_HOME"] = str(home)
    done = subprocess.run([LW, *args], capture_output=True, text=True, env=env, timeout=60)
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    return done


def source(tmp_path: Path) -> Path:
    folder = tmp_path / "src"
    shutil.copytree(EXAMPLE, folder, ignore=shutil.ignore_patterns("replies"))
    (folder / "cards").mkdir(exist_ok=True)
    return folder


def nothing_made(home: Path) -> bool:
    rooms = home / "rooms"
    return not rooms.exists() or not [p.name for p in rooms.iterdir()]


def outside_secret(tmp_path: Path) -> Path:
    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("the operator's private notes", encoding="utf-8")
    return secret


HOSTILE = {
    "a link to /dev/zero": (lambda src, tmp: (src / "cards" / "zero.png").symlink_to("/dev/zero"),
                            "cards/zero.png", "symbolic link"),
    "a link to a file outside": (lambda src, tmp: (src / "cards" / "notes.md").symlink_to(outside_secret(tmp)),
                                 "cards/notes.md", "symbolic link"),
    "a linked folder": (lambda src, tmp: (src / "docs2").symlink_to(outside_secret(tmp).parent, target_is_directory=True),
                        "docs2", "symbolic link"),
    "a named pipe": (lambda src, tmp: os.mkfifo(src / "cards" / "fifo.json"), "cards/fifo.json", "named pipe"),
    "a socket": (lambda src, tmp: _socket(src / "cards" / "s.sock"), "cards/s.sock", "socket"),
}


def _socket(path: Path) -> None:
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(path))
    sock.close()


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_entry_in_the_source_is_refused_where_it_is(tmp_path: Path, case: str) -> None:
    make, where, what = HOSTILE[case]
    src = source(tmp_path)
    make(src, tmp_path)
    home = tmp_path / "home"
    done = lw(home, "room", "create", "copied", "--from", str(src))
    assert done.returncode == 1, done.stdout
    assert done.stderr.startswith(f"error: {where}: ") and what in done.stderr, done.stderr
    assert str(tmp_path) not in done.stderr  # the path inside the source, never a server path
    assert nothing_made(home)


def test_file_and_total_limits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = source(tmp_path)
    (src / "cards" / "big.bin").write_bytes(b"x" * 5000)
    home = tmp_path / "home"
    runner = CliRunner()
    monkeypatch.setattr(tree_copy, "FILE_BYTES", 4096)
    done = runner.invoke(lw_group, ["--data-dir", str(home), "room", "create", "a", "--from", str(src)])
    assert done.exit_code == 1 and "limit of one file" in str(done.exception)
    assert (done.exception.file, done.exception.code) == ("cards/big.bin", "limit")
    assert nothing_made(home)
    monkeypatch.setattr(tree_copy, "FILE_BYTES", 1 << 20)
    monkeypatch.setattr(tree_copy, "TOTAL_BYTES", 6000)
    done = runner.invoke(lw_group, ["--data-dir", str(home), "room", "create", "a", "--from", str(src)])
    assert done.exit_code == 1 and "limit of a whole room" in str(done.exception), done.output
    assert nothing_made(home)


def test_a_clean_folder_is_copied_whole(tmp_path: Path) -> None:
    src = source(tmp_path)
    (src / "cards" / "deep").mkdir()
    (src / "cards" / "deep" / "a.md").write_text("一张卡", encoding="utf-8")
    home = tmp_path / "home"
    (tmp_path / "link").symlink_to(src, target_is_directory=True)  # the folder named may itself be a link
    done = lw(home, "room", "create", "copied", "--from", str(tmp_path / "link"))
    assert done.returncode == 0, done.stderr
    made = home / "rooms" / "copied"
    assert (made / "cards" / "deep" / "a.md").read_text(encoding="utf-8") == "一张卡"
    assert sorted(p.name for p in (home / "rooms").iterdir()) == ["copied"]


def test_a_copied_file_is_never_writable_by_others(tmp_path: Path) -> None:
    """Attacker's X7: a template's files kept their modes, so a world-writable file made a room
    any local user could rewrite (its room.yaml, its history)."""
    src = source(tmp_path)
    for path in (src / "room.yaml", src / "cards"):
        if path.is_file():
            path.chmod(0o666)
    (src / "cards" / "tool.sh").write_text("#!/bin/sh\n", encoding="utf-8")
    (src / "cards" / "tool.sh").chmod(0o777)
    home = tmp_path / "home"
    assert lw(home, "room", "create", "copied", "--from", str(src)).returncode == 0
    made = home / "rooms" / "copied"
    assert (made / "room.yaml").stat().st_mode & 0o777 == 0o644
    assert (made / "cards" / "tool.sh").stat().st_mode & 0o777 == 0o755  # still runnable, by the operator's rules


def test_room_list_never_blocks_on_a_pipe_for_a_history(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert lw(home, "room", "create", "harbor", "--example", "fog-harbor").returncode == 0
    assert lw(home, "room", "create", "piped", "--example", "fog-harbor").returncode == 0
    history = home / "rooms" / "piped" / "history.jsonl"
    history.unlink(missing_ok=True)
    os.mkfifo(history)
    listed = lw(home, "room", "list")  # a read of the pipe would wait for a writer for ever
    assert listed.returncode == 0, listed.stderr
    assert "harbor" in listed.stdout and "piped" in listed.stdout


def test_room_list_reads_only_the_tail_of_a_long_history(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert lw(home, "room", "create", "long", "--example", "fog-harbor").returncode == 0
    history = home / "rooms" / "long" / "history.jsonl"
    filler = b'{"turn": 1, "role": "keeper", "text": "' + b"x" * 1000 + b'"}\n'
    with history.open("wb") as f:
        f.write(b"\x00" * (64 << 20))  # 64 MiB the listing must not read (nor choke on)
        f.write(filler * 3 + b'{"turn": 7, "role": "keeper", "text": "last"}\n')
    listed = lw(home, "room", "list")
    assert listed.returncode == 0 and "turn 7" in listed.stdout, listed.stdout + listed.stderr


def test_a_turn_on_a_room_whose_history_is_a_pipe_is_refused_and_leaves_the_room_usable(tmp_path: Path) -> None:
    """A save never journals a write to a pipe (it would fail half-way, and every later command
    would replay the journal): a located refusal, nothing written, the room still listed."""
    home = tmp_path / "home"
    assert lw(home, "room", "create", "piped", "--example", "fog-harbor").returncode == 0
    folder = home / "rooms" / "piped"
    (folder / "history.jsonl").unlink(missing_ok=True)
    os.mkfifo(folder / "history.jsonl")
    reply = EXAMPLE / "replies" / "turn1.anthropic_messages.json"
    for _ in range(2):
        done = lw(home, "turn", "piped", "--say", "我去码头。", "--reply", str(reply))
        assert done.returncode == 1 and "history.jsonl" in done.stderr and "not a regular file" in done.stderr, \
            done.stderr
        assert not (folder / ".lw" / "txn" / "journal.json").exists()
    assert "piped" in lw(home, "room", "list").stdout
