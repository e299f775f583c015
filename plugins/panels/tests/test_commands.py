"""``.panels`` (who may switch, what is kept where, what each member is told) and panel
intents (only what the viewer could type; a roll is the engine's, as that player)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from panels_testkit import KEEPER_TEXTS, install, load, say, write_pack

from lw_panels.intents import intent_line
from lwcore.errors import LwError
from lwcore.kernel import Kernel
from lwcore.rules.dice import roll


def test_enable_is_the_keepers_and_persists(kernel: Kernel, room: Path, pack: Path) -> None:
    for player in ("p1", "p2"):
        with pytest.raises(LwError, match="keeper only"):
            say(kernel, room, ".panels enable harbor-ui", player)
    assert not (room / "docs" / "panel_packs.yaml").exists()
    reply = say(kernel, room, ".panels enable harbor-ui", "kp").command.reply
    assert reply.audience == "all" and "harbor-ui@1.0.0" in reply.text
    saved = (room / "docs" / "panel_packs.yaml").read_text(encoding="utf-8")
    assert "harbor-ui" in saved
    assert "已经启用" in say(kernel, room, ".panels enable harbor-ui", "kp").command.reply.text
    with pytest.raises(LwError, match="keeper only"):
        say(kernel, room, ".panels disable harbor-ui", "p1")
    say(kernel, room, ".panels disable harbor-ui", "kp")
    assert "harbor-ui" not in (room / "docs" / "panel_packs.yaml").read_text(encoding="utf-8")
    with pytest.raises(LwError, match="not on here"):
        say(kernel, room, ".panels disable harbor-ui", "kp")


def test_installed_is_not_enabled(kernel: Kernel, room: Path, data_dir: Path, pack: Path) -> None:
    install(data_dir, pack, "harbor-ui", "2.0.0")
    assert "off" in say(kernel, room, ".panels list", "p2").command.reply.text
    with pytest.raises(LwError, match="no pack 'ghost'"):
        say(kernel, room, ".panels enable ghost", "kp")
    with pytest.raises(LwError, match="unknown"):
        say(kernel, room, ".panels frobnicate", "kp")


def test_list_tells_each_member_only_their_panels(kernel: Kernel, table_room: Path) -> None:
    player = say(kernel, table_room, ".panels", "p2").command.reply
    keeper = say(kernel, table_room, ".panels list", "kp").command.reply
    assert player.audience == "actor" and "3 panels" in player.text and "board" not in player.text
    assert not any(secret in player.text for secret in KEEPER_TEXTS)
    assert "harbor-ui/board" in keeper.text and "keeper" in keeper.text


def test_a_broken_enabled_pack_is_the_keepers_problem(kernel: Kernel, table_room: Path, pack: Path) -> None:
    (pack / "ui" / "panels.yaml").write_text("panels: [", encoding="utf-8")
    keeper = say(kernel, table_room, ".panels", "kp").command.reply.text
    player = say(kernel, table_room, ".panels", "p1").command.reply.text
    assert "invalid YAML" in keeper and "invalid YAML" not in player
    from lw_panels.table import table_view

    assert table_view(load(kernel, table_room), "p1")["panels"] == []  # the room still plays


def test_intents_carry_only_what_the_viewer_could_type(kernel: Kernel, table_room: Path) -> None:
    loaded = load(kernel, table_room)
    p1 = loaded.member("p1")
    assert intent_line(loaded, p1, "harbor-ui/hud", "choice", " 我去灯塔。 ") == "我去灯塔。"
    assert intent_line(loaded, p1, "harbor-ui/map", "roll", " 1d100 +\n 5 ") == ".r 1d100 + 5"
    for panel, kind, value, code in [
        ("harbor-ui/board", "input", "x", "forbidden"),  # a keeper panel is not the player's
        ("ghost/panel", "input", "x", "forbidden"),
        ("harbor-ui/hud", "exec", "x", "invalid"),
        ("harbor-ui/hud", "input", "   ", "invalid"),
        ("harbor-ui/hud", "input", "x" * 2001, "invalid"),
        ("harbor-ui/hud", "input", 42, "invalid"),
    ]:
        with pytest.raises(LwError) as caught:
            intent_line(loaded, p1, panel, kind, value)
        assert caught.value.code == code, (panel, kind)
    assert intent_line(loaded, loaded.member("kp"), "harbor-ui/board", "input", ".var list") == ".var list"


def test_a_roll_intent_is_the_dice_engine_as_that_player(kernel: Kernel, table_room: Path) -> None:
    loaded = load(kernel, table_room)
    line = intent_line(loaded, loaded.member("p2"), "harbor-ui/map", "roll", "2d6+1")
    result = say(kernel, table_room, line, "p2", rng=random.Random(42))
    expected = roll("2d6+1", random.Random(42))
    entry = load(kernel, table_room).history.all()[-1]
    assert result.command.name == "r" and entry.actor == "p2" and entry.audience == "all"
    assert entry.data["result"]["faces"] == expected.faces and entry.data["result"]["total"] == expected.total


def test_an_intent_cannot_work_a_keeper_command(kernel: Kernel, table_room: Path) -> None:
    loaded = load(kernel, table_room)
    line = intent_line(loaded, loaded.member("p1"), "harbor-ui/hud", "input", ".panels disable harbor-ui")
    with pytest.raises(LwError, match="keeper only"):
        say(kernel, table_room, line, "p1")


def test_panel_packs_document_refuses_bad_writes(kernel: Kernel, room: Path, tmp_path: Path) -> None:
    from lwcore.turn.documents import Document

    loaded = load(kernel, room)
    for data in ({"packs": ["../x"]}, {"packs": "harbor-ui"}, {"packs": ["a", "a"]}):
        with pytest.raises(LwError, match="refused"):
            loaded.documents.put(Document("enabled", "panel_packs", data))
    with pytest.raises(LwError, match="refused"):
        loaded.documents.put(Document("other", "panel_packs", {"packs": []}))
    write_pack(tmp_path / "p", "panels:\n  - {id: a, title: A, slot: tray, blocks: [{kind: divider}]}\n")
    with pytest.raises(LwError, match="no enabled pack declares"):
        loaded.documents.put(Document("testpack/a", "panel_payload", {"payload": 1, "turn": 1}))


def test_doctor_lists_packs_and_their_problems(kernel: Kernel, pack: Path) -> None:
    lines = [line for plugin, line in kernel.diagnostics() if plugin == "panels"]
    assert "pack harbor-ui@1.0.0 (dev): 4 panels, a presentation kit" in lines
    (pack / "ui" / "panels.yaml").write_text("panels: [", encoding="utf-8")
    lines = [line for plugin, line in kernel.diagnostics() if plugin == "panels"]
    assert any(line.startswith("pack harbor-ui@1.0.0 (dev):") and "invalid YAML" in line for line in lines)
