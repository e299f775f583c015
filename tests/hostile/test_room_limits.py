"""What a turn accepts, the room reads back: no accepted reply can brick a room.

The issue's case: a reply carrying 4.5 MB of narration (within the 16 MiB JSON limit) was
applied, its history line passed the 4 MiB line limit, and every later turn and ``--view``
failed. Now every write of a turn is held to the limit of the reader that reads it back
(``lwcore.io.limits``): at its maximum it is stored whole and reads back; past it, it is cut
with a note (history lines) or refused at apply time (documents: a tool error, a refused tree
operation), and what slips past both fails the save with a located error, every file
byte-identical. Real ``lw`` processes for the issue's case; the kernel API for the walk.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict

from hostile_kit import Snapshot, assert_clean, assert_refused, run_lw
from lwcore.contributions import DocumentType, ReplyEdit, ToolSpec
from lwcore.errors import LwError
from lwcore.hookspecs import hookimpl
from lwcore.io.limits import LOG_LINE_LIMITS, YAML_LIMITS
from lwcore.io.loglines import MAX_LINE
from lwcore.io.speech import MAX_SAID_BYTES
from lwcore.kernel import Kernel
from lwcore.plugins import InProcessPlugin
from lwcore.turn import tree
from lwcore.turn.documents import Document
from lwcore.turn.history import entry_record, record_text
from lwcore.turn.room import HistoryEntry, Room, room_lock
from lwcore.turn.variables import MAX_TEXT, VariableDef
from lwcore.turn.view import view_for

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "fog-harbor"
RECORDED = json.loads((EXAMPLE / "replies" / "turn1.chat_completions.json").read_text(encoding="utf-8"))
MEMBERS = ("kp", "p1", "p2")


def room_copy(tmp_path: Path, *, tools: tuple[str, ...] = ()) -> Path:
    room = tmp_path / "room"
    shutil.copytree(EXAMPLE, room, ignore=shutil.ignore_patterns("replies"))
    if tools:
        text = (room / "room.yaml").read_text(encoding="utf-8")
        (room / "room.yaml").write_text(text.replace("tool_plugins: [coc7]", f"tool_plugins: [coc7, {', '.join(tools)}]"),
                                        encoding="utf-8")
    return room


def reply(narration: str, calls: list[tuple[str, dict[str, Any]]] = ()) -> dict[str, Any]:
    """A Chat Completions reply: ``narration`` and the tool calls ``calls``."""
    message: dict[str, Any] = {"role": "assistant", "content": narration}
    if calls:
        message["tool_calls"] = [{"id": f"call_{n}", "type": "function",
                                  "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}
                                 for n, (name, args) in enumerate(calls)]
    return {**RECORDED, "choices": [{"index": 0, "finish_reason": "tool_calls" if calls else "stop",
                                     "message": message}]}


def line_size(entry: HistoryEntry) -> int:
    return len(record_text(entry_record(entry)).encode("utf-8"))


def text_filling_a_line(turn: int, role: str, actor: str, extra: int = 0, **fields: Any) -> str:
    """ASCII text whose history line (``role`` by ``actor`` at ``turn``, with ``fields``) is
    the line limit exactly, plus ``extra`` characters."""
    empty = line_size(HistoryEntry(turn=turn, role=role, actor=actor, text="", **fields))
    return "a" * (MAX_LINE - empty + extra)


def reads_back(room_dir: Path, kernel: Kernel) -> Room:
    """Everything of the room read the way a turn and the views read it."""
    with room_lock(room_dir, shared=True):
        room = Room.load(room_dir, kernel)
        entries = room.history.all()
        assert room.turn_number == (entries[-1].turn if entries else 0)
        for member in MEMBERS:
            view_for(room, member).to_json_text()
        for name, kind in kernel.document_types.items():
            if kind.storage != "derived":
                room.documents.all(name)
            if kind.storage == "log":
                list(room.documents.log(name).newest())
    for line in (room_dir / "history.jsonl").read_bytes().splitlines():
        assert len(line) <= MAX_LINE
    return room


# --- the case, with real lw processes --------------------------------------------------


def test_a_reply_with_4_5_mb_of_narration_leaves_a_room_that_opens(tmp_path: Path) -> None:
    room = room_copy(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    big = tmp_path / "big.json"
    big.write_text(json.dumps(reply("雾" * 1_500_000 + "（完）")), encoding="utf-8")  # 4.5 MB of narration
    outcome = run_lw("turn", str(room), "--say", "我去码头。", "--reply", str(big), "--json", data_dir=home,
                     surface="lw turn (4.5 MB narration)")
    assert_clean(outcome)
    assert outcome.code == 0, outcome.stderr
    narration = json.loads(outcome.stdout)["applied"]["narration"]
    assert narration.endswith("(cut: the text had 1,500,003 characters; a history line holds 4,194,304 bytes)")
    last = json.loads((room / "history.jsonl").read_bytes().splitlines()[-1])
    assert last["role"] == "keeper" and last["text"] == narration  # what the turn answered is what was kept
    for member in MEMBERS:  # every view opens
        shown = run_lw("turn", str(room), "--view", "--as", member, "--json", data_dir=home,
                       surface="lw turn --view (after)")
        assert_clean(shown)
        assert shown.code == 0 and "(cut: the text had" in shown.stdout, shown.stderr
    # The human report of a turn lays out the head of such a text, not all of it (rich's
    # wrapping of 4.5 MB took over half a minute); --view and --json print it whole, unwrapped.
    again = room_copy(tmp_path / "again")
    reported = run_lw("turn", str(again), "--say", "我去码头。", "--reply", str(big), data_dir=home,
                      surface="lw turn (4.5 MB narration, report)")
    assert_clean(reported)
    assert reported.code == 0 and "more characters: lw turn --json prints the whole text" in reported.stdout
    assert len(reported.stdout) < 200_000
    small = tmp_path / "small.json"
    small.write_text(json.dumps(reply("雾散了。")), encoding="utf-8")
    after = run_lw("turn", str(room), "--say", "我回去。", "--reply", str(small), "--json", data_dir=home,
                   surface="lw turn (after)")
    assert_clean(after)
    assert after.code == 0, after.stderr  # and the next turn plays


# --- every write of a turn at its maximum -------------------------------------------------------


class StashArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: str
    size: int
    id: str


def stash(args: StashArgs, ctx: Any) -> dict[str, Any]:
    """Put a document of type ``stash_<kind>`` whose record fills ``size`` bytes (for a log:
    its line, newline not counted)."""
    doc = Document(args.id, f"stash_{args.kind}", {"blob": ""})
    empty = len(json.dumps({"id": doc.id, **doc.record()}, ensure_ascii=False, separators=(",", ":")))
    ctx.room.documents.put(Document(args.id, f"stash_{args.kind}", {"blob": "b" * (args.size - empty)}))
    return {"ok": True}


HUGE_NOTE = "n" * (MAX_LINE + 10)


def stash_plugin() -> InProcessPlugin:
    @hookimpl
    def lw_document_types(register):  # noqa: ANN001, ANN202
        register(DocumentType("stash_log", lambda doc, viewer, room: dict(doc.data), storage="log"))
        register(DocumentType("stash_yaml", lambda doc, viewer, room: dict(doc.data)))

    @hookimpl
    def lw_tools(register):  # noqa: ANN001, ANN202
        register(ToolSpec("stash", {"en": "store a blob"}, StashArgs, stash))

    @hookimpl
    def lw_reply_text(turn, text, ctx):  # noqa: ANN001, ANN202
        # a processor whose note to the keeper is larger than a history line
        return ReplyEdit(narration=text, notes=(HUGE_NOTE,) if "[huge note]" in text else ())

    manifest = {"id": "stash", "version": "1", "tier": "code",
                "provides": ["documents", "tools", "reply_text"]}
    return InProcessPlugin(manifest, SimpleNamespace(lw_document_types=lw_document_types, lw_tools=lw_tools,
                                                     lw_reply_text=lw_reply_text))


@pytest.fixture
def kernel(tmp_path: Path) -> Kernel:
    return Kernel(data_dir=tmp_path / "data", env={}, plugins=[stash_plugin()])


def test_every_write_of_a_turn_at_its_maximum_reads_back(tmp_path: Path, kernel: Kernel) -> None:
    room_dir = room_copy(tmp_path, tools=("stash",))
    turn = Room.load(room_dir, kernel).turn_number + 1
    narration = text_filling_a_line(turn, "keeper", "kp")
    said = "a" * MAX_SAID_BYTES  # the longest line a member may say (the keeper's own)
    long_text = "长" * MAX_TEXT
    calls = [
        ("stash", {"kind": "log", "size": MAX_LINE, "id": "at-max"}),       # a docs log line at the limit
        ("stash", {"kind": "log", "size": MAX_LINE + 1, "id": "past-max"}),  # one byte past: refused
        ("stash", {"kind": "yaml", "size": 1 << 20, "id": "a-mebibyte"}),
        ("chronicle_record", {"text": long_text, "keeper": long_text, "scene": "码" * 200}),
        ("keeper_note", {"title": "注" * 200, "text": long_text}),
        ("thread_note", {"label": "线" * 100, "status": "open", "notes": long_text}),
        ("define_variable", {"id": "longest", "kind": "text", "visibility": "player"}),
        ("set_variable", {"id": "longest", "value": long_text}),
        ("skill_check", {"character": "p1", "skill": "侦查", "reason": "r" * 300}),
        ("subsystem_check", {"character": "p1", "subsystem": "sanity", "loss": "1/1d8", "reason": "r" * 300}),
    ]
    result = kernel.turn(room_dir, said, actor="kp", reply=reply(narration, calls), provider="chat_completions",
                         rng=random.Random(3))
    errors = {r.name + ":" + str(n): r.content for n, r in enumerate(result.applied.results) if r.is_error}
    assert list(errors) == ["stash:1"], errors
    refusal = errors["stash:1"]["error"]
    assert refusal.startswith("docs/stash_log.jsonl: stash_log 'past-max' would be 4,194,305 bytes; it is read "
                              "back only up to 4,194,304"), refusal
    assert result.applied.narration == narration  # at the limit: whole
    room = reads_back(room_dir, kernel)
    entries = room.history.all()
    assert [e.text for e in entries if e.role == "player"][-1] == said
    assert [e.text for e in entries if e.role == "keeper"][-1] == narration
    assert room.documents.get("stash_log", "at-max") is not None and room.documents.get("stash_log", "past-max") is None
    assert len(room.documents.get("stash_yaml", "a-mebibyte").data["blob"]) > 1_000_000
    assert room.variable("longest").value == long_text[:VariableDef.model_fields["max_length"].default]

    # one byte past what a member may say: refused before anything is written
    before = snapshot(room_dir)
    with pytest.raises(LwError, match="one line is at most"):
        kernel.turn(room_dir, said + "a", actor="p1", reply=reply("unused"), provider="chat_completions")
    before.assert_unchanged()

    # a narration one character past its line: cut with a note, and the room still opens
    turn = room.turn_number + 1
    result = kernel.turn(room_dir, said, actor="p1",
                         reply=reply(text_filling_a_line(turn, "keeper", "kp", extra=1) + "[huge note]"),
                         provider="chat_completions", rng=random.Random(4))
    assert result.applied.narration.endswith("characters; a history line holds 4,194,304 bytes)")
    room = reads_back(room_dir, kernel)
    entries = room.history.all()
    newest = [e for e in entries if e.turn == turn]
    assert all(line_size(e) <= MAX_LINE for e in newest)
    player, = (e for e in newest if e.role == "player")
    assert player.text == said
    notes = [e for e in newest if (e.data or {}).get("kind") == "reply_note"]
    assert len(notes) == 1, [(e.role, json.dumps(e.data)[:200].replace("n" * 50, ""), e.text[:80]) for e in newest]
    note = notes[0]
    assert note.data["cut"] and "(cut: the text had" in note.text and note.audience == "keeper"


def snapshot(room_dir: Path) -> Snapshot:
    return Snapshot(room_dir, ignore=(".lw",))


def nested(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = {"x": value}
    return value


def test_a_variable_tree_nested_past_its_file_is_refused_whole(tmp_path: Path, kernel: Kernel) -> None:
    room_dir = room_copy(tmp_path)
    levels = YAML_LIMITS.max_depth - 3  # docs/mvu.yaml: {mvu: {data: {tree: {deep: …}}}}
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        events = tree.apply_changes(room, [tree.put("deep", nested(levels))], by="test")
        assert [e["kind"] for e in events] == ["tree"], events  # the deepest tree its file reads back
        room.save()
    assert reads_back(room_dir, kernel).documents.get("mvu", "mvu").data["tree"] == {"deep": nested(levels)}
    unchanged = snapshot(room_dir)
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        events = tree.apply_changes(room, [tree.put("deeper", nested(levels + 1))], by="test")
        assert [e["kind"] for e in events] == ["tree_refused"] and "nested deeper than 64" in events[0]["summary"]
        room.save()
    unchanged.assert_unchanged()


def test_a_save_its_readers_could_not_read_back_writes_nothing(tmp_path: Path, kernel: Kernel) -> None:
    """What slips past the caps (a variable or a sheet's state nested too deep, a document
    file grown past its size, a line put in by hand) fails the save, located, and every file
    stays as it was."""
    room_dir = room_copy(tmp_path)
    unchanged = snapshot(room_dir)

    def refused(change: Any, where: str) -> None:
        with room_lock(room_dir):
            room = Room.load(room_dir, kernel)
            change(room)
            with pytest.raises(LwError) as caught:
                room.save()
        assert caught.value.code == "limit" and where in str(caught.value.file), caught.value
        unchanged.assert_unchanged()
        reads_back(room_dir, kernel)

    def a_variable_nested_too_deep(room: Room) -> None:  # an unknown key is written back as it is
        room.variables.variables.append(VariableDef.model_validate(
            {"id": "deep", "kind": "number", "value": 0, "notes": nested(YAML_LIMITS.max_depth)}))
        room.mark("variables")

    def deep_sheet_state(room: Room) -> None:
        _, sheet = room.sheet_of("p1")
        nested: dict[str, Any] = {}
        for _ in range(YAML_LIMITS.max_depth + 1):
            nested = {"x": nested}
        sheet.state["deep"] = nested
        room.mark("sheet:p1")

    def big_document_file(room: Room) -> None:
        for n in range(17):  # each under a log line, together past the file's 16 MiB
            room.documents.put(Document(f"chunk{n}", "stash_yaml", {"blob": "c" * (1 << 20)}))

    def a_line_put_in_by_hand(room: Room) -> None:
        room.history.pending.append(HistoryEntry(turn=1, role="keeper", text="h" * (LOG_LINE_LIMITS.max_bytes + 1)))

    refused(a_variable_nested_too_deep, "variables.yaml")
    refused(deep_sheet_state, "sheets/chen-mo.yaml")
    refused(big_document_file, "stash_yaml.yaml")
    refused(a_line_put_in_by_hand, "history.jsonl")
