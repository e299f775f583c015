"""The chronicle read from its end (M18, issue 19's "reading for a prompt touches only what
the prompt needs"): document logs with offsets, the summary's cursor, and the proof that a
turn never reads the folded past -- that part of the file is overwritten with garbage and the
prompt does not change. The prompt's chronicle is checked against a whole read every turn."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import yaml

from lwcore.errors import LwError
from lwcore.kernel import Kernel
from lwcore.turn import chronicle, fold
from lwcore.turn.compile import compile_turn
from lwcore.turn.pipeline import run_turn
from lwcore.turn.segments import room_segments
from lwcore.turn.room import Room, room_lock

NOTE = "他们没注意到灯。"


def reply(turn: int, *, entries: int = 1) -> dict:
    calls = [{"type": "tool_use", "id": f"c{turn}-{i}", "name": "chronicle_record",
              "input": {"text": f"第{turn}回合之{i}：调查员们沿着码头查到了线索。" + "雾" * 80, "keeper": NOTE}}
             for i in range(entries)]
    return {"content": [*calls, {"type": "text", "text": f"第{turn}夜。"}]}


def fold_model(request: dict) -> dict:
    body = json.dumps(request, ensure_ascii=False)
    turns = sorted({int(t) for t in __import__("re").findall(r"\[(\d+)\] 第\d+回合", body)})
    return {"content": [{"type": "text", "text": f"调查员们查到了第{turns[-1] if turns else 0}回合。"}]}


def chronicle_block(room: Room) -> str:
    story = next(s.text for s in room_segments(room, room.file.locale) if s.name == "story")
    return next((part for part in story.split("\n\n") if part.startswith("## 编年史")), "")


def expected_block(room: Room, folded: set[str]) -> str:
    """The prompt's chronicle by a whole read: every entry no fold covered, in file order."""
    from lwcore.turn.documents import keeper_viewer, project

    keeper = keeper_viewer(room)
    lines = [chronicle.entry_line(project(room, doc, keeper), "zh")
             for doc in room.documents.all(chronicle.CHRONICLE) if doc.id not in folded]
    return ("## 编年史\n" + "\n".join(lines)) if lines else ""


def campaign(kernel: Kernel, room_dir: Path, turns: int, *, window: int = 3000, entries: int = 1) -> set[str]:
    room_yaml = room_dir / "room.yaml"
    room_yaml.write_text(room_yaml.read_text(encoding="utf-8") + f"context_window: {window}\n", encoding="utf-8")
    folded: set[str] = set()
    for turn in range(1, turns + 1):
        result = run_turn(kernel, room_dir, f"第{turn}次", actor="kp", reply=reply(turn, entries=entries),
                          rng=random.Random(turn), fold_reply=fold_model)
        folded |= {entry for fold in result.folds for entry in fold.folded}
        room = Room.load(room_dir, kernel)
        assert chronicle_block(room) == expected_block(room, folded), f"turn {turn}"
    return folded


def test_the_prompt_gets_what_a_whole_read_gives(kernel: Kernel, room_dir: Path) -> None:
    folded = campaign(kernel, room_dir, 16, entries=2)  # two entries a turn: batches end mid-turn too
    assert folded, "nothing folded"
    room = Room.load(room_dir, kernel)
    covers = chronicle.summary(room).data["covers"]
    data = (room_dir / "docs" / "chronicle.jsonl").read_bytes()
    line = data[:covers["byte"]].splitlines()[-1]
    assert json.loads(line)["id"] == covers["entry"] and data[covers["byte"] - 1:covers["byte"]] == b"\n"


def test_a_turn_never_reads_the_folded_past(kernel: Kernel, room_dir: Path) -> None:
    campaign(kernel, room_dir, 14)
    before = json.dumps(compile_turn(kernel, room_dir, "？", actor="kp").request, ensure_ascii=False)
    room = Room.load(room_dir, kernel)
    covers = chronicle.summary(room).data["covers"]
    log = room_dir / "docs" / "chronicle.jsonl"
    data = log.read_bytes()
    cursor_line = data[:covers["byte"] - 1].rfind(b"\n") + 1  # the record at the cursor stays readable
    assert cursor_line > 0
    garbage = bytes(b if b == 0x0A else 0x21 for b in data[:cursor_line])  # same length, newlines kept
    log.write_bytes(garbage + data[cursor_line:])
    with pytest.raises(LwError):  # a whole read would fail on the garbage...
        Room.load(room_dir, kernel).documents.all(chronicle.CHRONICLE)
    assert json.dumps(compile_turn(kernel, room_dir, "？", actor="kp").request, ensure_ascii=False) == before
    turn = Room.load(room_dir, kernel).turn_number
    result = run_turn(kernel, room_dir, "继续", actor="kp", reply=reply(turn + 1), rng=random.Random(3),
                      fold_reply=fold_model)  # ...a whole turn, with its fold, does not read it
    assert not any(r.is_error for r in result.applied.results)
    assert f"[{turn + 1}] 第{turn + 1}回合之0" in run_turn(kernel, room_dir, ".chronicle 2", actor="p1").command.reply.text


def test_a_hand_edit_before_the_cursor_finds_it_again(kernel: Kernel, room_dir: Path) -> None:
    folded = campaign(kernel, room_dir, 14)
    before = json.dumps(compile_turn(kernel, room_dir, "？", actor="kp").request, ensure_ascii=False)
    old_byte = chronicle.summary(Room.load(room_dir, kernel)).data["covers"]["byte"]
    log = room_dir / "docs" / "chronicle.jsonl"
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    first = json.loads(lines[0])
    first["data"]["text"] = "（守秘人手改）" + first["data"]["text"]  # longer: every offset after it moves
    log.write_text("\n" + json.dumps(first, ensure_ascii=False) + "\n" + "".join(lines[1:]), encoding="utf-8")
    assert json.dumps(compile_turn(kernel, room_dir, "？", actor="kp").request, ensure_ascii=False) == before
    turn = Room.load(room_dir, kernel).turn_number
    run_turn(kernel, room_dir, "继续", actor="kp", reply=reply(turn + 1), rng=random.Random(3))  # saves the room
    room = Room.load(room_dir, kernel)
    covers = chronicle.summary(room).data["covers"]
    assert json.loads(log.read_bytes()[:covers["byte"]].splitlines()[-1])["id"] == covers["entry"]
    assert covers["byte"] > old_byte  # moved with the edit, and saved
    assert chronicle_block(room) == expected_block(room, folded)


def test_a_schema_1_summary_is_migrated(kernel: Kernel, room_dir: Path) -> None:
    folded = campaign(kernel, room_dir, 12)
    before = json.dumps(compile_turn(kernel, room_dir, "？", actor="kp").request, ensure_ascii=False)
    path = room_dir / "docs" / "campaign_summary.yaml"
    old = yaml.safe_load(path.read_text(encoding="utf-8"))
    record = old["summary"]
    record["schema_version"] = 1
    del record["data"]["covers"]
    record["data"]["folded"] = sorted(folded, key=lambda i: [int(p) for p in i.split("-")[1:]])
    path.write_text(yaml.safe_dump(old, allow_unicode=True), encoding="utf-8")
    assert json.dumps(compile_turn(kernel, room_dir, "？", actor="kp").request, ensure_ascii=False) == before
    turn = Room.load(room_dir, kernel).turn_number
    run_turn(kernel, room_dir, "继续", actor="kp", reply=reply(turn + 1), rng=random.Random(3))
    saved = yaml.safe_load(path.read_text(encoding="utf-8"))["summary"]
    assert saved["schema_version"] == 2 and "folded" not in saved["data"] and saved["data"]["covers"]["byte"] > 0


def test_a_fold_takes_the_oldest_entries_in_order(kernel: Kernel, room_dir: Path) -> None:
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        ids = [chronicle.record(room, f"第{i}幕。").id for i in range(3)]
        room.save()
    assert ids == ["c-1-1", "c-1-2", "c-1-3"]
    room = Room.load(room_dir, kernel)
    assert [d.id for d in fold.check_fold_input(room, ids[:2], current_turn=9)] == ids[:2]
    for wrong in ([ids[1]], [ids[1], ids[0]], []):
        with pytest.raises(LwError, match="oldest unfolded chronicle entries in order"):
            fold.check_fold_input(room, wrong, current_turn=9)


def test_entry_ids_never_collide_after_a_deletion(kernel: Kernel, room_dir: Path) -> None:
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        first, second = chronicle.record(room, "甲。"), chronicle.record(room, "乙。")
        room.save()
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        assert room.documents.delete(chronicle.CHRONICLE, first.id)
        third = chronicle.record(room, "丙。")
        room.save()
    assert (first.id, second.id, third.id) == ("c-1-1", "c-1-2", "c-1-3")
    room = Room.load(room_dir, kernel)
    assert [d.data["text"] for d in room.documents.all(chronicle.CHRONICLE)] == ["乙。", "丙。"]
    assert [d.data["text"] for d in chronicle.recent(room, 5)] == ["乙。", "丙。"]


def test_pending_records_have_the_offsets_they_get(kernel: Kernel, room_dir: Path) -> None:
    docs = room_dir / "docs"
    docs.mkdir(exist_ok=True)
    original = '{"id":"c-0-1","schema_version":1,"data":{"text":"前史。","turn":0}}'.encode()
    (docs / "chronicle.jsonl").write_bytes(original)  # hand-edited: its last line lacks its newline
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        log = room.documents.log(chronicle.CHRONICLE)
        assert log.unterminated
        chronicle.record(room, "雾起。", keeper=NOTE)
        room.documents.delete(chronicle.CHRONICLE, "c-0-1")
        chronicle.record(room, "灯灭。")
        expected = [(r.id, r.end) for r in log.pending()]
        room.save()
    data = (docs / "chronicle.jsonl").read_bytes()
    for entry_id, end in expected:
        assert data[end - 1:end] == b"\n" and json.loads(data[:end].splitlines()[-1])["id"] == entry_id
    room = Room.load(room_dir, kernel)
    assert [d.data["text"] for d in room.documents.all(chronicle.CHRONICLE)] == ["雾起。", "灯灭。"]
    log = room.documents.log(chronicle.CHRONICLE)
    assert [(r.id, r.end) for r in log.after(len(original) + 1)] == expected
    assert [r.id for r in log.after(0)] == ["c-0-1", *(e for e, _ in expected)]
    assert [r.id for r in log.newest()] == ["c-1-2", "c-0-1", "c-1-1", "c-0-1"]
    assert log.ending_at(expected[1][1]).doc is None and log.ending_at(expected[1][1] - 1) is None


def test_a_bad_log_record_is_located_by_byte(kernel: Kernel, room_dir: Path) -> None:
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        chronicle.record(room, "雾起。")
        room.save()
    log = room_dir / "docs" / "chronicle.jsonl"
    size = log.stat().st_size
    log.write_bytes(log.read_bytes() + b'{"id": "c-1-9", "data": [}\n')
    room = Room.load(room_dir, kernel)
    with pytest.raises(LwError) as caught:
        list(room.documents.log(chronicle.CHRONICLE).newest())
    assert caught.value.file == str(log) and caught.value.byte is not None and caught.value.byte >= size
    assert f"the record at byte {size}" in caught.value.message
