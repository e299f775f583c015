"""Hostile input against the room's own state files and the room copy: the seat invites
(``.lw/invites.json``: ``lw seat`` and a running web table), the held rewind record
(``.lw/held.json``: every writer finishes it first), the undo log (``.lw/undo.jsonl``: ``lw room
rewind``, ``lw turn --regenerate``), the stage director's picture ledger
(``director/ledger.json``), and ``lw room create --from`` over a hostile folder tree.

Each file is made huge, nested past the JSON limits, not UTF-8, a folder, a named pipe and a
link to a device (:data:`HOSTILE`). A command refuses it located -- exit 1, the file named, no
traceback -- within the runner's timeout and writes nothing; a player's seat gets a 503 that
names no server path; the ledger counts as the whole budget spent (no picture is requested).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections import deque
from collections.abc import Callable
from pathlib import Path

import pytest

from hostile_kit import RECORD, Snapshot, assert_clean, assert_refused, run_lw
from hostile_strategies import invalid_utf8, nested_json

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "fog-harbor"
REPLY = EXAMPLE / "replies" / "turn1.anthropic_messages.json"
PANELS_TESTS = ROOT / "plugins" / "panels" / "tests"


def _huge(path: Path) -> None:  # past the 16 MiB every JSON reader takes (and an undo line's own limit)
    with path.open("wb") as handle:
        handle.write(b'{"x": "')
        for _ in range(17):
            handle.write(b"x" * (1 << 20))
        handle.write(b'"}\n')


HOSTILE: dict[str, Callable[[Path], None]] = {
    "huge": _huge,
    "nested": lambda path: path.write_bytes(nested_json(100_000).encode() + b"\n"),
    "not utf-8": lambda path: path.write_bytes(invalid_utf8('{"format": 1, "seats": {"') + b"\n"),
    "a folder": lambda path: path.mkdir(),
    "a named pipe": lambda path: os.mkfifo(path),
    "a link to a device": lambda path: path.symlink_to("/dev/zero"),
}
"""Name -> what makes ``path`` hostile (its folder exists, the path does not)."""


def state_of(path: Path) -> tuple[str, bytes | None]:
    """What ``path`` is and, for a regular file, its bytes (compared before and after)."""
    if path.is_symlink():
        return "link", os.readlink(path).encode()
    if path.is_dir():
        return "folder", None
    if path.is_file():
        return "file", path.read_bytes()
    return ("other", None) if os.path.lexists(path) else ("none", None)


def room_copy(tmp_path: Path) -> tuple[Path, Path]:
    room = tmp_path / "room"
    shutil.copytree(EXAMPLE, room, ignore=shutil.ignore_patterns("replies"))
    (room / ".lw").mkdir(exist_ok=True)
    (tmp_path / "home").mkdir()
    return room, tmp_path / "home"


def refused(room: Path, home: Path, target: Path, *args: str, surface: str) -> str:
    """``lw ARGS`` is refused naming ``target``; the room (its state aside) and ``target`` are as they were."""
    files, before = Snapshot(room, ignore=(".lw",)), state_of(target)
    outcome = run_lw(*args, data_dir=home, surface=surface)
    message = assert_refused(outcome, where=target.name)
    files.assert_unchanged()
    assert state_of(target) == before
    return message


# --- the seat invites -------------------------------------------------------------------------


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_invites_file_is_refused_by_lw_seat(tmp_path: Path, case: str) -> None:
    room, home = room_copy(tmp_path)
    target = room / ".lw" / "invites.json"
    HOSTILE[case](target)
    for args in (("seat", "list", str(room)), ("seat", "rotate", str(room), "p1"), ("seat", "revoke", str(room), "p1")):
        refused(room, home, target, *args, surface="lw seat (.lw/invites.json)")


def test_too_many_seats_are_refused_not_read(tmp_path: Path) -> None:
    room, home = room_copy(tmp_path)
    target = room / ".lw" / "invites.json"
    target.write_text(json.dumps({"format": 1, "seats": {f"m{n}": None for n in range(10_001)}}), encoding="utf-8")
    message = refused(room, home, target, "seat", "rotate", str(room), "p1", surface="lw seat (.lw/invites.json)")
    assert "not what lw serve writes" in message


def test_a_player_seat_gets_a_503_without_a_server_path_for_each_hostile_invites_file(tmp_path: Path) -> None:
    pytest.importorskip("starlette", reason="lw serve needs the serve extra")
    sys.path.insert(0, str(PANELS_TESTS))
    import time

    from panels_testkit import Server, fetch

    from lw_panels.serve.table import Table, TurnSource
    from lwcore.kernel import Kernel

    room, home = room_copy(tmp_path)
    target = room / ".lw" / "invites.json"
    table = Table(Kernel(data_dir=home, env={}), room, TurnSource(deque()), seed=5,
                  token=lambda member: f"seat-{member}-0123456789abcdef")
    good = target.read_bytes()
    with Server(table) as server:
        link = server.link("p1")
        assert fetch(link + "state")[0] == 200
        for case in sorted(HOSTILE):
            target.unlink()
            HOSTILE[case](target)
            start = time.perf_counter()
            status, _, body = fetch(link + "state")
            RECORD["web table (.lw/invites.json)"].append(time.perf_counter() - start)
            assert status == 503 and b"cannot be read right now" in body, (case, status, body[:300])
            assert str(tmp_path).encode() not in body and b"Traceback" not in body, (case, body[:300])
            if target.is_dir() and not target.is_symlink():
                target.rmdir()
            else:
                target.unlink()
            target.write_bytes(good)
        assert fetch(link + "state")[0] == 200  # the table plays on once the file is whole again


def test_a_seat_link_gets_a_503_page_for_each_hostile_sessions_file(tmp_path: Path) -> None:
    """Attacker's A4: opening a seat's link while ``.lw/sessions.json`` cannot be read or
    written answered 500 Internal Server Error, a traceback in the server's log; now a 503 page
    saying what to do, no server path; a page's request with a cookie is refused the same way."""
    pytest.importorskip("starlette", reason="lw serve needs the serve extra")
    sys.path.insert(0, str(PANELS_TESTS))
    import http.client
    from urllib.parse import urlsplit

    from panels_testkit import Server, fetch

    from lw_panels.serve.table import Table, TurnSource
    from lwcore.kernel import Kernel

    def opened(url: str) -> tuple[int, bytes]:
        parts = urlsplit(url)
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        try:
            conn.request("GET", parts.path)
            response = conn.getresponse()
            return response.status, response.read()
        finally:
            conn.close()

    room, home = room_copy(tmp_path)
    target = room / ".lw" / "sessions.json"
    table = Table(Kernel(data_dir=home, env={}), room, TurnSource(deque()), seed=5,
                  token=lambda member: f"seat-{member}-0123456789abcdef")
    with Server(table) as server:
        link = server.link("p2")  # p2 reads English (the page says it in its seat's language)
        origin = f"{urlsplit(link).scheme}://{urlsplit(link).netloc}"
        for case in sorted(HOSTILE):
            if os.path.lexists(target):
                target.unlink()
            HOSTILE[case](target)
            status, body = opened(link)
            assert status == 503 and b"tell the keeper" in body, (case, status, body[:300])
            assert str(tmp_path).encode() not in body and b"Traceback" not in body, (case, body[:300])
            status, _, body = fetch(origin + "/s/p2/state", headers={"Cookie": "lw_seat=x"})
            assert status == 503 and str(tmp_path).encode() not in body, (case, status, body[:300])
            if target.is_dir() and not target.is_symlink():
                target.rmdir()
            else:
                target.unlink()
        assert opened(link)[0] == 303  # a session again once the file can be made


# --- the held rewind record -------------------------------------------------------------------


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_held_record_stops_every_writer_located(tmp_path: Path, case: str) -> None:
    room, home = room_copy(tmp_path)
    target = room / ".lw" / "held.json"
    HOSTILE[case](target)
    message = refused(room, home, target, "turn", str(room), "--say", "我去码头。", "--reply", str(REPLY),
                      surface="lw turn (.lw/held.json)")
    assert "held change is damaged" in message
    refused(room, home, target, "room", "rewind", str(room), "--to", "1", surface="lw room rewind (.lw/held.json)")


@pytest.mark.parametrize("header", [
    {"format": 1, "changes": [{"kind": "replace", "target": "../outside.txt", "offset": 0, "size": 0}]},
    {"format": 1, "changes": [{"kind": "replace", "target": "room.yaml", "offset": 0, "size": 10**9}]},
    {"format": 1, "changes": [{"kind": "chmod", "target": "room.yaml", "offset": 0, "size": 0}]},
    {"format": 1, "changes": "everything"},
])
def test_a_held_record_naming_what_it_may_not_is_refused(tmp_path: Path, header: dict) -> None:
    room, home = room_copy(tmp_path)
    target = room / ".lw" / "held.json"
    target.write_bytes(json.dumps(header).encode() + b"\n")
    refused(room, home, target, "turn", str(room), "--say", "我去码头。", "--reply", str(REPLY),
            surface="lw turn (.lw/held.json)")
    assert not (room.parent / "outside.txt").exists()


# --- the undo log -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example room after one turn played (its undo log has that turn's record)."""
    root = tmp_path_factory.mktemp("played")
    room, home = room_copy(root)
    outcome = run_lw("turn", str(room), "--say", "我去码头。", "--reply", str(REPLY), data_dir=home)
    assert_clean(outcome)
    assert outcome.code == 0 and (room / ".lw" / "undo.jsonl").is_file(), outcome.stderr
    return room


UNDO_LINES = {
    "a file outside": {"turn_before": 0, "turn_after": 5, "changes": [
        {"kind": "replace", "target": "../../outside.txt", "before": None, "after": ""}]},
    "the room's state": {"turn_before": 0, "turn_after": 5, "changes": [
        {"kind": "replace", "target": ".lw/invites.json", "before": None, "after": ""}]},
    "not base64": {"turn_before": 0, "turn_after": 5, "changes": [
        {"kind": "replace", "target": "room.yaml", "before": "!!", "after": "??"}]},
    "an append past any file": {"turn_before": 0, "turn_after": 5, "changes": [
        {"kind": "append", "target": "history.jsonl", "at": 1 << 62, "was": None, "data": ""}]},
    "a turn that is text": {"turn_before": "0", "turn_after": 5, "changes": []},
}


@pytest.mark.parametrize("case", sorted(HOSTILE) + sorted(UNDO_LINES))
def test_a_hostile_undo_log_is_refused_by_every_control(tmp_path: Path, played: Path, case: str) -> None:
    room = tmp_path / "room"
    shutil.copytree(played, room, ignore=shutil.ignore_patterns("lock", "commit", "gate"))
    (tmp_path / "home").mkdir()
    target = room / ".lw" / "undo.jsonl"
    target.unlink()
    if case in HOSTILE:
        HOSTILE[case](target)
    else:
        target.write_text(json.dumps(UNDO_LINES[case]) + "\n", encoding="utf-8")
    for label, args in (("lw room rewind", ("room", "rewind", str(room), "--to", "1")),
                        ("lw turn --regenerate", ("turn", str(room), "--regenerate", "--reply", str(REPLY)))):
        refused(room, tmp_path / "home", target, *args, surface=f"{label} (.lw/undo.jsonl)")
    assert not (room.parent / "outside.txt").exists()


# --- the stage director's picture ledger ------------------------------------------------------


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_picture_ledger_counts_as_the_budget_spent(tmp_path: Path, case: str) -> None:
    """A room folder may bring its own ``director/ledger.json`` (a copied template): whatever
    it is, no picture is requested past the operator's budget, the turn plays, and the ledger
    is left as it was."""
    pytest.importorskip("starlette", reason="the web table needs the serve extra")
    sys.path.insert(0, str(PANELS_TESTS))
    import time

    from stage_testkit import ImageServer, director_env, replies, reply, set_var, stage_room

    from lw_panels.pictures import PictureStore
    from lw_panels.serve.table import Table, TurnSource
    from lwcore.kernel import Kernel

    room = tmp_path / "room"
    shutil.copytree(EXAMPLE, room, ignore=shutil.ignore_patterns("replies"))
    images = ImageServer()
    try:
        kernel = Kernel(data_dir=tmp_path / "data", env=director_env(images.url, budget=3))
        stage_room(kernel, room, tmp_path)
        target = room / "director" / "ledger.json"
        target.parent.mkdir(exist_ok=True)
        HOSTILE[case](target)
        before = state_of(target)
        start = time.perf_counter()
        assert PictureStore(room).spent >= 1 << 30
        table = Table(kernel, room, TurnSource(replies(reply("你们到了。", set_var("scene", "沉没的礼拜堂"))),
                                               provider="anthropic_messages"), seed=5)
        seat = next(s for s in table.seats.values() if s.member == "p1")
        table.act(seat, "走。")
        RECORD["director (director/ledger.json)"].append(time.perf_counter() - start)
        assert images.requests == [], case
        assert any("budget (3) is spent" in note for note in table.staging.refused), table.staging.refused
        assert state_of(target) == before
    finally:
        images.close()


# --- lw room create --from ----------------------------------------------------------------------


def _deep(src: Path) -> str:
    from lwcore.io.tree_copy import MAX_DEPTH

    folder = src / "notes"
    for n in range(MAX_DEPTH + 2):
        folder = folder / f"d{n}"
    folder.mkdir(parents=True)
    (folder / "x.md").write_text("deep", encoding="utf-8")
    return "notes/d0/"


def _loop(src: Path) -> str:
    (src / "notes").mkdir()
    (src / "notes" / "again").symlink_to("..", target_is_directory=True)
    return "notes/again"


def _pipe_deep_inside(src: Path) -> str:
    (src / "notes" / "a" / "b").mkdir(parents=True)
    os.mkfifo(src / "notes" / "a" / "b" / "state.json")
    return "notes/a/b/state.json"


def _device_link(src: Path) -> str:
    (src / "history.jsonl").unlink()
    (src / "history.jsonl").symlink_to("/dev/zero")
    return "history.jsonl"


COPIES: dict[str, Callable[[Path], str]] = {
    "folders nested past the limit": _deep,
    "a folder linked to its parent": _loop,
    "a pipe deep inside": _pipe_deep_inside,
    "a history linked to a device": _device_link,
}
"""Name -> what makes the source hostile, returning where the refusal must point (inside SRC)."""


@pytest.mark.parametrize("case", sorted(COPIES))
def test_a_hostile_source_tree_is_refused_where_it_is(tmp_path: Path, case: str) -> None:
    src = tmp_path / "src"
    shutil.copytree(EXAMPLE, src, ignore=shutil.ignore_patterns("replies"))
    where = COPIES[case](src)
    home = tmp_path / "home"
    home.mkdir()
    source = Snapshot(src)
    outcome = run_lw("room", "create", "copied", "--from", str(src), data_dir=home, surface="lw room create --from")
    message = assert_refused(outcome, where=where)
    assert message.startswith("error: ") and str(tmp_path) not in message, message
    rooms = home / "rooms"
    assert not rooms.exists() or [p.name for p in rooms.iterdir()] == [], "a room or a staging folder was left"
    source.assert_unchanged()


def test_a_source_rooms_state_is_never_copied(tmp_path: Path) -> None:
    """The source's ``.lw/`` (its seat links, its undo log) is left behind unread: a pipe or a
    huge file there costs nothing, and the copy starts with no links. A held rewind the source
    never finished is the one part read (the copy is taken as last committed, so it is finished
    first): damaged, the copy is refused naming it, and no room is made."""
    src = tmp_path / "src"
    shutil.copytree(EXAMPLE, src, ignore=shutil.ignore_patterns("replies"))
    (src / ".lw").mkdir()
    HOSTILE["a named pipe"](src / ".lw" / "invites.json")
    HOSTILE["huge"](src / ".lw" / "undo.jsonl")
    home = tmp_path / "home"
    home.mkdir()
    outcome = run_lw("room", "create", "copied", "--from", str(src), data_dir=home, surface="lw room create --from")
    assert_clean(outcome)
    assert outcome.code == 0, outcome.stderr
    copied = home / "rooms" / "copied"
    assert (copied / "room.yaml").is_file() and not (copied / ".lw" / "invites.json").exists()
    assert not (copied / ".lw" / "undo.jsonl").exists()
    HOSTILE["a link to a device"](src / ".lw" / "held.json")
    source, held = Snapshot(src, ignore=(".lw",)), state_of(src / ".lw" / "held.json")
    outcome = run_lw("room", "create", "again", "--from", str(src), data_dir=home, surface="lw room create --from")
    assert "held change is damaged" in assert_refused(outcome, where="held.json")
    assert sorted(p.name for p in (home / "rooms").iterdir()) == ["copied"]
    source.assert_unchanged()
    assert state_of(src / ".lw" / "held.json") == held
