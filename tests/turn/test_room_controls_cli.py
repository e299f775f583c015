"""The keeper's message controls from the command line, as real ``lw`` processes:
``lw turn ROOM --regenerate``, ``lw room alternatives|choose|edit|rewind``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from .conftest import REPLIES, with_narration
from .test_checkpoints import snapshot

LW = str(Path(sys.executable).with_name("lw"))
SAY = "我去码头查看那艘空船。"


def lw(*args: str, home: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env["LW_HOME"] = str(home)
    return subprocess.run([LW, *args], capture_output=True, text=True, env=env, timeout=120)


def reply_file(tmp_path: Path, extra: str) -> str:
    reply = json.loads((REPLIES / "turn1.anthropic_messages.json").read_text(encoding="utf-8"))
    path = tmp_path / f"reply{len(list(tmp_path.glob('reply*')))}.json"
    path.write_text(json.dumps(with_narration(reply, extra), ensure_ascii=False), encoding="utf-8")
    return str(path)


def test_regenerate_choose_edit_and_rewind_from_the_command_line(tmp_path: Path, room_dir: Path) -> None:
    home = tmp_path / "home"
    start = snapshot(room_dir)
    room = str(room_dir)
    first = lw("turn", room, "--say", SAY, "--reply", reply_file(tmp_path, "（初稿）"), "--seed", "1", home=home)
    assert first.returncode == 0, first.stderr
    after_first = snapshot(room_dir)
    none = lw("room", "alternatives", room, home=home)
    assert none.returncode == 0 and "no other reply" in none.stdout

    again = lw("turn", room, "--regenerate", "--reply", reply_file(tmp_path, "（重写）"), "--seed", "2", home=home)
    assert again.returncode == 0, again.stderr
    assert "（重写）" in again.stdout and SAY in again.stdout  # the same words, played again
    listed = json.loads(lw("room", "alternatives", room, "--json", home=home).stdout)
    assert [(a["number"], a["chosen"]) for a in listed] == [(1, False), (2, True)]
    assert "（初稿）" in listed[0]["narration"] and "（重写）" in listed[1]["narration"]

    chosen = lw("room", "choose", room, "1", home=home)
    assert chosen.returncode == 0, chosen.stderr
    assert snapshot(room_dir) == after_first

    edited = lw("room", "edit", room, "雾里什么也没有。", home=home)
    assert edited.returncode == 0 and "turn 1's narration replaced" in edited.stdout, edited.stderr
    view = lw("turn", room, "--as", "p2", home=home)
    assert "雾里什么也没有。 (edited)" in view.stdout, view.stdout

    rewound = lw("room", "rewind", room, "--to", "1", home=home)
    assert rewound.returncode == 0 and "the room is at turn 0" in rewound.stdout, rewound.stderr
    assert snapshot(room_dir) == start


def test_controls_refused_with_a_clear_message(tmp_path: Path, room_dir: Path) -> None:
    home = tmp_path / "home"
    room = str(room_dir)
    cases = [
        (("room", "rewind", room, "--to", "3"), "no turn 3 to go back before"),
        (("room", "edit", room, "雾"), "turn 0 has no narration to edit"),
        (("room", "choose", room, "2"), "the last turn has no other reply to choose"),
        (("turn", room, "--regenerate", "--reply", reply_file(tmp_path, "x")), "no turn has been played here yet"),
        (("turn", room, "--regenerate"), "--regenerate needs a model"),
        (("turn", room, "--regenerate", "--say", "x"), "leave out --say"),
    ]
    before = snapshot(room_dir)
    for args, message in cases:
        done = lw(*args, home=home)
        assert done.returncode != 0 and message in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stderr
    assert snapshot(room_dir) == before


def _record(change: dict) -> bytes:
    return json.dumps({"turn_before": 1, "turn_after": 99, "changes": [change]}).encode("ascii") + b"\n"


HOSTILE_RECORDS = {
    "the room folder itself": {"target": ".", "kind": "replace", "before": None, "after": "eA=="},
    "an empty target": {"target": "", "kind": "replace", "before": None, "after": "eA=="},
    "a folder": {"target": "notes", "kind": "replace", "before": None, "after": "eA=="},
    "a dotted spelling": {"target": "./history.jsonl", "kind": "append", "at": 0, "was": "", "data": "eA=="},
    "the room's own state": {"target": ".lw/alternatives.json", "kind": "replace", "before": None, "after": "eA=="},
    "an append past the end": {"target": "history.jsonl", "kind": "append", "at": 10 ** 12, "was": "eA==",
                               "data": "eA=="},
    "an append at an absurd offset": {"target": "history.jsonl", "kind": "append", "at": 1 << 60, "was": "",
                                      "data": "eA=="},
}


def test_a_hostile_undo_log_is_refused_located_by_rewind_and_regenerate(tmp_path: Path, room_dir: Path) -> None:
    """The attacker's M4: an undo record whose target is the room folder, nothing, a folder, a
    second spelling of a file or the room's own state, or an append past its file's end, is
    refused where it is in the log (its byte offset) by ``lw room rewind`` and ``lw turn
    --regenerate``, and no file changes (no sparse file of a terabyte, no folder replaced)."""
    home = tmp_path / "home"
    room = str(room_dir)
    played = lw("turn", room, "--say", SAY, "--reply", reply_file(tmp_path, "（初稿）"), "--seed", "1", home=home)
    assert played.returncode == 0, played.stderr
    (room_dir / "notes").mkdir()
    log = room_dir / ".lw" / "undo.jsonl"
    clean = log.read_bytes()
    for name, change in HOSTILE_RECORDS.items():
        log.write_bytes(clean + _record(change))
        before = snapshot(room_dir)
        for args in (("room", "rewind", room, "--to", "1"),
                     ("turn", room, "--regenerate", "--reply", reply_file(tmp_path, "（重写）"))):
            done = lw(*args, home=home)
            assert done.returncode == 1, (name, args, done.stdout)
            assert "undo.jsonl: " in done.stderr and f"line at byte {len(clean)} " in done.stderr, (name, done.stderr)
            assert "is not a record" in done.stderr and "Traceback" not in done.stderr, (name, done.stderr)
            assert snapshot(room_dir) == before, (name, args)
        assert (room_dir / "history.jsonl").stat().st_size < 1 << 20 and (room_dir / "notes").is_dir()
