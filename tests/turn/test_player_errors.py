"""What a player reads of a room command's error (``lwcore.turn.room_commands.for_player``):
never a path of the server, never what only the keeper may see; the keeper reads it whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from lwcore.errors import LwError, LwErrors
from lwcore.turn.room import Room
from lwcore.turn.room_commands import SECRET_REFUSAL, for_player, run_room_command

ROOM = Path("/srv/lw/rooms/fog")
DATA = Path("/home/op/.local/share/lw")
PLACES = {ROOM: "", DATA: "<data dir>"}

CASES = [
    # (error, what a player reads)
    (LwError("bad value", file=ROOM / "sheets" / "a.yaml", line=3, column=2), "sheets/a.yaml:3:2: bad value"),
    (LwError("card file 'x' leads outside its folder", expected=f"a path inside {ROOM}"),
     "card file 'x' leads outside its folder (expected a path inside .)"),
    (LwError("cannot read", file=DATA / "presets" / "p.json"), "<data dir>/presets/p.json: cannot read"),
    (LwError(f"see {DATA}/plugins/x and {ROOM}/docs"), "see <data dir>/plugins/x and docs"),
    (LwError("elsewhere", file="/etc/lw/site.yaml", line=4), "elsewhere"),  # another server path: not said
    (LwError("a relative file stays", file="room.yaml", line=1), "room.yaml:1: a relative file stays"),
    (LwError(f"{ROOM}2 is another folder"), f"{ROOM}2 is another folder"),
    (LwError("no pregen '9' in this room"), "no pregen '9' in this room"),  # words are not paths
]


@pytest.mark.parametrize(("error", "shown"), CASES, ids=[str(i) for i in range(len(CASES))])
def test_a_player_reads_no_server_path(error: LwError, shown: str) -> None:
    out = for_player(error, PLACES)
    assert str(out) == shown
    assert out.code == error.code


def test_what_may_quote_keeper_data_is_one_refusal_at_its_file() -> None:
    error = LwError("duplicate key 'SECRET'", file=ROOM / "variables.yaml", line=9)
    error.secret = True
    out = for_player(error, PLACES)
    assert str(out) == f"variables.yaml: {SECRET_REFUSAL}" and out.file == "variables.yaml" and out.code == "secret"
    assert out.line is None  # the line could point at the secret itself
    elsewhere = LwError("bad 'SECRET'", file="/srv/other/x.yaml")
    elsewhere.secret = True
    assert str(for_player(elsewhere, PLACES)) == SECRET_REFUSAL  # a file outside the room: not named


def test_several_problems_each_lose_their_paths() -> None:
    out = for_player(LwErrors([LwError("a", file=ROOM / "x.yaml"), LwError("b", file=DATA / "y")]), PLACES)
    assert isinstance(out, LwErrors) and str(out) == "x.yaml: a\n<data dir>/y: b"


def test_in_a_room_the_keeper_reads_the_whole_error(room_dir: Path, kernel) -> None:  # noqa: ANN001
    (room_dir / "docs").mkdir(exist_ok=True)
    (room_dir / "docs" / "chronicle.jsonl").write_text('{"id": "x", "type": "chronicle", "data": {}, "data": 1}\n',
                                                      encoding="utf-8")
    room = Room.load(room_dir, kernel)
    with pytest.raises(LwError) as player:
        run_room_command(kernel, room, room.member("p1"), ".chronicle")
    assert str(player.value) == f"docs/chronicle.jsonl: {SECRET_REFUSAL}"
    with pytest.raises(LwError) as keeper:
        run_room_command(kernel, room, room.member("kp"), ".chronicle")
    assert keeper.value.file == str(room_dir / "docs" / "chronicle.jsonl") and "duplicate key" in str(keeper.value)
    with pytest.raises(LwError) as usage:
        run_room_command(kernel, room, room.member("p1"), f".import {room_dir}/../x.json")
    assert str(room_dir) not in str(usage.value) and str(room_dir.parent) not in str(usage.value)
