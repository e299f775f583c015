"""Room documents (M17): every type's projection per viewer, the store, migrations, plugin
types, and that keeper-only content never reaches a player-facing byte."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from lwcore.contributions import DocumentType, Viewer
from lwcore.errors import LwError
from lwcore.hookspecs import hookimpl
from lwcore.kernel import Kernel
from lwcore.plugins import InProcessPlugin
from lwcore.turn import chronicle
from lwcore.turn.documents import Document, project, viewer_of
from lwcore.turn.pipeline import run_turn
from lwcore.turn.projections import event_document, sheet_document, variable_document
from lwcore.turn.room import HistoryEntry, Room, room_lock
from lwcore.turn.view import render_text, view_for

SECRET = "灯塔看守人周伯年"
MARGIN = "KEEPER-MARGIN-7731"


@pytest.fixture
def room(kernel: Kernel, room_dir: Path) -> Room:
    return Room.load(room_dir, kernel)


def viewers(room: Room) -> tuple[Viewer, Viewer, Viewer]:
    return (viewer_of(room, room.member("kp")), viewer_of(room, room.member("p1")), viewer_of(room, room.member("p2")))


def test_variable_projection(room: Room) -> None:
    keeper, p1, _ = viewers(room)
    secret = room.variable("true_culprit")
    assert project(room, variable_document(secret), p1) is None
    kept = project(room, variable_document(secret), keeper)
    assert kept["value"] == SECRET and kept["keeper_only"] is True
    fog = project(room, variable_document(room.variable("fog")), viewers(room)[2])
    assert fog["value_label"] in ("Thick fog", "Light mist", "Sun-blotting fog") and "keeper_only" not in fog


def test_sheet_projection_hides_notes_and_state(room: Room) -> None:
    keeper, p1, _ = viewers(room)
    player = project(room, sheet_document(room, "p1"), p1)
    assert set(player) == {"member", "name", "tagline", "values"}
    assert player["tagline"] == "记者 / Journalist"  # the sheet keys the rulepack names (coc7: occupation)
    assert "notes" in project(room, sheet_document(room, "p1"), keeper)["extra"]


def test_event_projection(room: Room) -> None:
    keeper, p1, _ = viewers(room)
    hidden = HistoryEntry(turn=3, role="event", text=f"true_culprit = {SECRET}", audience="keeper")
    assert project(room, event_document(hidden), p1) is None
    assert project(room, event_document(hidden), keeper)["keeper_only"] is True
    # a variable event disappears for players when the variable is secret *now*
    var_event = HistoryEntry(turn=3, role="event", text="x", data={"kind": "variable", "id": "cult_alert", "value": 5})
    assert project(room, event_document(var_event), p1) is None


def test_mvu_projection_is_fail_closed(room: Room) -> None:
    keeper, p1, _ = viewers(room)
    doc = Document("mvu", "mvu", {"tree": {"世界": {"时间": "1925-01-03"}, "真相": {"凶手": [SECRET, "谁干的"]}},
                                  "exposed": []})
    assert project(room, doc, p1) == {"tree": {}, "leaves": []}
    doc = Document("mvu", "mvu", {**doc.data, "exposed": ["世界"]})
    shown = project(room, doc, p1)
    assert shown["tree"] == {"世界": {"时间": "1925-01-03"}} and SECRET not in json.dumps(shown, ensure_ascii=False)
    leaves = {leaf["path"]: leaf["exposed"] for leaf in project(room, doc, keeper)["leaves"]}
    assert leaves == {"世界.时间": True, "真相.凶手": False}


def test_chronicle_summary_thread_and_note_projections(room: Room) -> None:
    keeper, p1, _ = viewers(room)
    entry = Document("c-1", "chronicle", {"text": "船空了。", "keeper": MARGIN, "turn": 1, "pcs": ["陈默"], "scene": "码头"})
    assert project(room, entry, p1) == {"text": "船空了。", "turn": 1, "pcs": ["陈默"], "scene": "码头"}
    assert project(room, entry, keeper)["keeper"] == MARGIN
    summary = Document("summary", "campaign_summary", {"text": "前情", "keeper": MARGIN, "through_turn": 1,
                                                        "fold_count": 1, "folded": ["c-1"]})
    assert project(room, summary, p1) == {"text": "前情", "through_turn": 1}
    for kind in ("thread", "note"):
        doc = Document("x", kind, {"label": SECRET, "status": "open", "title": SECRET, "text": SECRET})
        assert project(room, doc, p1) is None and project(room, doc, keeper) is not None


def test_store_writes_yaml_and_log_in_the_room_transaction(kernel: Kernel, room_dir: Path) -> None:
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        room.documents.put(Document(chronicle.thread_id("灯"), "thread", {"label": "灯", "status": "open", "notes": ""}))
        chronicle.record(room, "他们到了码头。", keeper=MARGIN)
        room.save()
    (room_dir / "docs" / "thread.yaml").write_text(
        "# the keeper's threads\n" + (room_dir / "docs" / "thread.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        assert [d.data["label"] for d in room.documents.all("thread")] == ["灯"]
        assert room.documents.all("chronicle")[0].data["turn"] == 1
        room.documents.put(Document(chronicle.thread_id("灯"), "thread", {"label": "灯", "status": "resolved", "notes": ""}))
        room.documents.delete("chronicle", room.documents.all("chronicle")[0].id)
        room.save()
    text = (room_dir / "docs" / "thread.yaml").read_text(encoding="utf-8")
    assert text.startswith("# the keeper's threads\n") and "resolved" in text
    assert len((room_dir / "docs" / "chronicle.jsonl").read_text(encoding="utf-8").splitlines()) == 2  # append-only
    assert Room.load(room_dir, kernel).documents.all("chronicle") == []


def test_writes_are_validated(room: Room) -> None:
    with pytest.raises(LwError, match="status must be one of"):
        room.documents.put(Document("t", "thread", {"label": "x", "status": "maybe"}))
    with pytest.raises(LwError, match="ahead of the fiction"):
        room.documents.put(Document("c", "chronicle", {"text": "later", "turn": 99}))
    with pytest.raises(LwError, match="derived"):
        room.documents.put(Document("p1", "sheet", {}))


def plugin_types(*types: DocumentType) -> InProcessPlugin:
    @hookimpl
    def lw_document_types(register):  # noqa: ANN001, ANN202
        for kind in types:
            register(kind)

    return InProcessPlugin({"id": "lore", "version": "1", "tier": "code", "provides": ["documents"]},
                           SimpleNamespace(lw_document_types=lw_document_types))


def test_plugin_types_migrations_and_failing_projections(tmp_path: Path, room_dir: Path) -> None:
    def boom(doc, viewer, room):  # noqa: ANN001, ANN202
        raise RuntimeError("projection bug")

    lore = DocumentType("lore_entry", lambda d, v, r: None if d.data.get("secret") and not v.keeper else dict(d.data),
                        schema_version=2, migrations={1: lambda data: {k: v for k, v in data.items() if k != "key"} | {"keys": data.get("key", [])}})
    broken = DocumentType("broken", boom)
    kernel = Kernel(data_dir=tmp_path / "data", env={}, plugins=[plugin_types(lore, broken)])
    docs = room_dir / "docs"
    docs.mkdir(exist_ok=True)
    (docs / "lore_entry.yaml").write_text(
        "a:\n  schema_version: 1\n  data: {key: [灯], content: 灯塔}\n  meta: {source: 'fog#lighthouse'}\n"
        "b:\n  schema_version: 2\n  data: {keys: [x], secret: true, content: hidden}\n", encoding="utf-8")
    room = Room.load(room_dir, kernel)
    a, b = room.documents.all("lore_entry")
    assert a.data == {"content": "灯塔", "keys": ["灯"]} and a.schema_version == 2 and a.source == "fog#lighthouse"
    _, p1, _ = viewers(room)
    assert project(room, b, p1) is None
    assert project(room, Document("z", "broken", {"x": 1}), p1) is None  # fail closed
    assert any("projection bug" in e for e in kernel.plugin("lore").errors)
    (docs / "lore_entry.yaml").write_text("a:\n  schema_version: 3\n  data: {}\n", encoding="utf-8")
    with pytest.raises(LwError, match="newer than this engine"):
        Room.load(room_dir, kernel).documents.all("lore_entry")


def _secret_bytes(text: str) -> list[str]:
    return [needle for needle in (SECRET, MARGIN, "cult_alert", "true_culprit") if needle in text]


def test_no_keeper_bytes_in_player_views_json_or_commands(kernel: Kernel, room_dir: Path) -> None:
    reply = {"content": [
        {"type": "tool_use", "id": "a", "name": "chronicle_record", "input": {"text": "众人在码头发现空船。", "keeper": MARGIN}},
        {"type": "tool_use", "id": "b", "name": "thread_note", "input": {"label": SECRET, "notes": MARGIN}},
        {"type": "tool_use", "id": "c", "name": "keeper_note", "input": {"title": "凶手", "text": SECRET}},
        {"type": "text", "text": "雾更浓了。"},
    ]}
    result = run_turn(kernel, room_dir, "我去码头", actor="kp", reply=reply, rng=random.Random(2))
    assert not any(r.is_error for r in result.applied.results)
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        room.documents.put(Document("mvu", "mvu", {"tree": {"真相": SECRET, "天气": "雾"}, "exposed": ["天气"]}))
        room.save()
    for member in ("p1", "p2"):
        view = view_for(Room.load(room_dir, kernel), member)
        for blob in (view.to_json_text(), render_text(view)):
            assert _secret_bytes(blob) == [], (member, _secret_bytes(blob))
        for line in (".recap", ".chronicle", ".help"):
            text = run_turn(kernel, room_dir, line, actor=member).command.reply.text
            assert _secret_bytes(text) == [], (member, line)
        with pytest.raises(LwError):
            run_turn(kernel, room_dir, ".threads", actor=member)
    keeper_view = render_text(view_for(Room.load(room_dir, kernel), "kp"))
    assert SECRET in keeper_view and "(未公开)" in keeper_view


def test_the_default_view_of_a_room_without_players_is_never_the_keepers(kernel: Kernel, room_dir: Path) -> None:
    """Attacker's X8: view_for(room) is "a player's view"; in a room with no player yet it fell
    back to the keeper's, keeper-only variables and history included."""
    path = room_dir / "room.yaml"
    text = path.read_text(encoding="utf-8")
    start, end = text.index("players:"), text.index("\n", text.index("players:"))
    rest = text[end:]
    while rest.startswith("\n  ") or rest.startswith("\n-"):  # the players' entries
        rest = rest[rest.index("\n", 1):]
    path.write_text(text[:start] + "players: []" + rest, encoding="utf-8")
    room = Room.load(room_dir, kernel)
    assert room.file.players == []
    view = view_for(room)
    assert not view.keeper and view.viewer == "" and _secret_bytes(view.to_json_text() + render_text(view)) == []
    assert any(var.id == "fog" for var in view.variables)  # what players see is still there
    assert SECRET in view_for(room, "kp").to_json_text()  # the keeper's own view is whole


def test_var_expose_and_hide(kernel: Kernel, room_dir: Path) -> None:
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        room.documents.put(Document("mvu", "mvu", {"tree": {"主角": {"好感": [30, "对你的好感"]}, "真相": SECRET}, "exposed": []}))
        room.save()
    listing = run_turn(kernel, room_dir, ".var list", actor="kp").command.reply.text
    assert "主角.好感 = 30" in listing and "未公开" in listing
    run_turn(kernel, room_dir, ".var expose 主角", actor="kp")
    tree = view_for(Room.load(room_dir, kernel), "p1").tree
    assert [(leaf.path, leaf.value) for leaf in tree] == [("主角.好感", 30)]
    run_turn(kernel, room_dir, ".var hide 主角", actor="kp")
    assert view_for(Room.load(room_dir, kernel), "p1").tree == ()
    with pytest.raises(LwError, match="keeper only"):
        run_turn(kernel, room_dir, ".var expose *", actor="p1")
    with pytest.raises(LwError, match="not a variable path"):
        run_turn(kernel, room_dir, ".var expose a..b", actor="kp")
