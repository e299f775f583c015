"""Hostile input against every turn and host surface that reads a file or stdin: a room's
``room.yaml``, ``variables.yaml``, sheets, ``history.jsonl``, ``docs/*``, its save journal, the
paths it names; ``lw turn --reply`` / ``--fold-reply``; a tool call's arguments inside a
reply; ``plugins.json`` and a data-dir plugin's manifest (``lw plugins list``, ``lw doctor``).
Each case is a real ``lw`` process with a timeout: a refusal exits 1 with a located message
(no traceback, no internal error) and leaves every file byte-identical; a file the kernel
only reports (settings, a plugin folder) never stops the command."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostile_kit import hostile_cases, Snapshot, assert_clean, assert_refused, run_lw
from hostile_strategies import alias_bomb, hostile_yaml, invalid_utf8, nested_json, nested_yaml, path_tricks

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "fog-harbor"
REPLY = EXAMPLE / "replies" / "turn1.anthropic_messages.json"
CASES = hostile_cases(6)


def room_copy(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("hostile-room")
    room = root / "room"
    shutil.copytree(EXAMPLE, room, ignore=shutil.ignore_patterns("replies"))
    (root / "home").mkdir()
    return room, root / "home"


def refused_turn(room: Path, home: Path, *extra: str, where: str, surface: str, say: str = "我去码头。") -> str:
    snapshot = Snapshot(room, ignore=(".lw",))
    outcome = run_lw("turn", str(room), "--say", say, *extra, data_dir=home, surface=surface)
    message = assert_refused(outcome, where=where)
    snapshot.assert_unchanged()
    return message


# --- room files ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["room.yaml", "variables.yaml", "sheets/chen-mo.yaml"])
@CASES
@given(document=hostile_yaml())
def test_a_hostile_room_file_is_refused_and_nothing_written(tmp_path_factory, name: str, document: bytes) -> None:
    room, home = room_copy(tmp_path_factory)
    (room / name).write_bytes(document)
    snapshot = Snapshot(room, ignore=(".lw",))
    outcome = run_lw("turn", str(room), "--say", "我去码头。", "--reply", str(REPLY), data_dir=home,
                     surface=f"lw turn ({name})")
    if outcome.code == 0:  # a hostile-looking document that is a valid file after all
        assert_clean(outcome)
        return
    assert_refused(outcome, where=Path(name).name)
    snapshot.assert_unchanged()


@pytest.mark.parametrize("trick", ["../../../../etc/passwd", "/etc/passwd", "..", "a/../../b.yaml",
                                   "C:\\\\Windows\\\\x.yaml", "sheets/../../outside.yaml"])
def test_a_sheet_path_that_leaves_the_room_is_refused(tmp_path_factory, trick: str) -> None:
    room, home = room_copy(tmp_path_factory)
    text = (room / "room.yaml").read_text(encoding="utf-8").replace("sheets/chen-mo.yaml", trick)
    (room / "room.yaml").write_text(text, encoding="utf-8")
    message = refused_turn(room, home, where="room.yaml", surface="lw turn (sheet paths)")
    assert "outside its folder" in message or "absolute" in message


def test_a_sheet_link_pointing_out_of_the_room_is_refused(tmp_path_factory) -> None:
    room, home = room_copy(tmp_path_factory)
    outside = room.parent / "outside.yaml"
    shutil.copy(room / "sheets" / "chen-mo.yaml", outside)
    (room / "sheets" / "chen-mo.yaml").unlink()
    (room / "sheets" / "chen-mo.yaml").symlink_to(outside)
    refused_turn(room, home, where="room.yaml", surface="lw turn (sheet paths)")


@pytest.mark.parametrize("line", [
    b"{nope", b'{"turn": 1, "role": "wizard", "text": "x"}', b'{"turn": "1", "role": "player", "text": "x"}',
    nested_json(5000).encode(), b'{"turn": 1, "role": "player", "text": "\xff"}', b'{"turn": NaN, "role": "player"}',
])
def test_a_bad_history_line_is_located_by_byte(tmp_path_factory, line: bytes) -> None:
    room, home = room_copy(tmp_path_factory)
    good = (room / "history.jsonl").read_bytes()
    (room / "history.jsonl").write_bytes(good + line + b"\n")
    message = refused_turn(room, home, "--reply", str(REPLY), where="history.jsonl", surface="lw turn (history)")
    assert f"byte {len(good)}" in message


@pytest.mark.parametrize("document", [alias_bomb().encode(), nested_yaml(3000).encode(), invalid_utf8(),
                                      b"t-1:\n  data: {label: x}\nt-1:\n  data: {label: y}\n",
                                      b"t-1:\n  schema_version: 99\n  data: {label: x, status: open}\n",
                                      b"t-1: just text\n"])
def test_a_hostile_documents_file_is_refused(tmp_path_factory, document: bytes) -> None:
    room, home = room_copy(tmp_path_factory)
    (room / "docs").mkdir(exist_ok=True)  # the example room ships documents of its own
    (room / "docs" / "thread.yaml").write_bytes(document)
    snapshot = Snapshot(room, ignore=(".lw",))
    outcome = run_lw("turn", str(room), "--say", ".threads", "--as", "kp", data_dir=home, surface="lw turn (docs)")
    assert_refused(outcome, where="thread.yaml")
    snapshot.assert_unchanged()


def test_a_damaged_save_journal_is_reported_never_guessed(tmp_path_factory) -> None:
    room, home = room_copy(tmp_path_factory)
    txn = room / ".lw" / "txn"
    txn.mkdir(parents=True)
    (txn / "journal.json").write_text('{"format": 1, "changes": [{"kind": "replace", "target": "../x"}]}', "utf-8")
    outcome = run_lw("turn", str(room), "--say", "我去码头。", "--reply", str(REPLY), data_dir=home,
                     surface="lw turn (journal)")
    assert_refused(outcome, where="journal.json")
    assert (txn / "journal.json").exists()  # left for the operator to inspect


# --- replies ----------------------------------------------------------------------------------

REPLIES = [
    nested_json(50000).encode(), b'{"content": [{"type": "text", "text": NaN}]}', b'{"content": 1e400}',
    b"\xff\xfe not json", b"", b'{"content": [], "content": []}', ("[" * 100 + "]" * 100).encode(),
    b'{"content": "\\ud800"}', ("x" * (17 * 1024 * 1024)).encode(),
]


@pytest.mark.parametrize("option", ["--reply", "--fold-reply"])
@pytest.mark.parametrize("index", range(len(REPLIES)))
def test_a_hostile_reply_file_is_refused_and_nothing_written(tmp_path_factory, option: str, index: int) -> None:
    room, home = room_copy(tmp_path_factory)
    reply = room.parent / "reply.json"
    reply.write_bytes(REPLIES[index])
    extra = [option, str(reply)] + (["--reply", str(REPLY)] if option == "--fold-reply" else [])
    refused_turn(room, home, *extra, where="reply.json", surface=f"lw turn {option}")


@CASES
@given(arguments=st.sampled_from([nested_json(50000), "[1, 2", '{"id": NaN}', '{"id": "clues_found", "delta": 1e400}',
                                  '{"id": "clues_found", "delta": true}', '"just a string"', "\\ud800"]))
def test_hostile_tool_arguments_become_tool_errors(tmp_path_factory, arguments: str) -> None:
    room, home = room_copy(tmp_path_factory)
    reply = room.parent / "reply.json"
    reply.write_text(json.dumps({"choices": [{"message": {"role": "assistant", "content": "雾。", "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "adjust_variable", "arguments": arguments}}]}}]}),
        encoding="utf-8")
    outcome = run_lw("turn", str(room), "--say", "我去码头。", "--reply", str(reply), "--json", data_dir=home,
                     surface="lw turn (tool arguments)")
    assert_clean(outcome)
    assert outcome.code == 0, outcome.stderr
    result = json.loads(outcome.stdout)["applied"]["tool_results"][0]
    assert result["is_error"]
    assert "clues_found" in (room / "variables.yaml").read_text(encoding="utf-8")


# --- the host's own files ---------------------------------------------------------------------


@pytest.mark.parametrize("document", [b"{nope", b"[]", nested_json(5000).encode(), invalid_utf8('{"enabled": ["'),
                                      b'{"enabled": "everything"}', b'{"enabled": [1, 2]}', b'{"a": 1, "a": 2}'])
def test_damaged_plugin_settings_are_reported_not_fatal(tmp_path: Path, document: bytes) -> None:
    (tmp_path / "plugins.json").write_bytes(document)
    snapshot = Snapshot(tmp_path / "plugins.json")
    for args in (("plugins", "list"), ("doctor",)):
        outcome = run_lw(*args, data_dir=tmp_path, surface="lw plugins (settings)")
        assert_clean(outcome)
        assert outcome.code == 0
    doctor = run_lw("doctor", data_dir=tmp_path)
    assert "plugins.json" in doctor.stdout
    refused = run_lw("plugins", "disable", "coc7", data_dir=tmp_path, surface="lw plugins (settings)")
    assert_refused(refused, where="plugins.json")
    snapshot.assert_unchanged()  # a damaged file is never overwritten


@CASES
@given(manifest=st.sampled_from([
    b'id = "x"\nversion = 1.0.0\n', b'id = "x"\n' * 2, invalid_utf8('id = "'), b"\x00" * 10,
    b'id = "host"\nversion = "1"\ntier = "data"\nprovides = ["rulepacks"]\n',
    b'id = "x"\nversion = "1"\ntier = "code"\nprovides = ["tools"]\n',
    b'id = "x"\nversion = "1"\ntier = "data"\nprovides = ["rulepacks"]\nmin_engine = "999"\n',
    ("a = [" * 5000).encode(),
]))
def test_a_hostile_plugin_folder_is_listed_as_an_error_never_fatal(tmp_path_factory, manifest: bytes) -> None:
    home = tmp_path_factory.mktemp("home")
    folder = home / "plugins" / "x"
    folder.mkdir(parents=True)
    (folder / "lw-plugin.toml").write_bytes(manifest)
    outcome = run_lw("plugins", "list", "--json", data_dir=home, surface="lw plugins (folders)")
    assert_clean(outcome)
    assert outcome.code == 0
    rows = json.loads(outcome.stdout)
    builtins = [r["status"] for r in rows if r["source"] == "builtin"]
    assert builtins and builtins == ["enabled"] * len(builtins)
    odd = [row for row in rows if row["source"] == "directory"]
    assert odd and all(row["status"] == "error" for row in odd)
