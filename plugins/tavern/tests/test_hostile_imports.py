"""Hostile files through the real ``lw tavern import`` in a child process: every refusal is one
located message and exit code 1, never a traceback or a hang, and the room is left byte for
byte as it was."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from roomkit import FIXTURES, copy_room, files

LW = str(Path(sys.executable).with_name("lw"))
BELL = json.loads((FIXTURES / "bell-tower.world.json").read_text(encoding="utf-8"))
NATIVE = json.loads((FIXTURES / "ashen-stair.lorecard.json").read_text(encoding="utf-8"))


def card(**changes: object) -> bytes:
    data = json.loads(json.dumps(BELL))
    for path, value in changes.items():
        node = data
        *parents, last = path.split("__")
        for part in parents:
            node = node[int(part)] if part.isdigit() else node[part]
        node[int(last) if last.isdigit() else last] = value
    return json.dumps(data, ensure_ascii=False).encode("utf-8")


def native(**changes: object) -> bytes:
    return json.dumps({**NATIVE, **changes}, ensure_ascii=False).encode("utf-8")


BOOK = BELL["data"]["character_book"]
HOSTILE: dict[str, tuple[bytes, str]] = {
    # (file bytes, import kind)
    "empty": (b"", "world"),
    "truncated": (b'{"spec": "chara_card_v2", "data": {"name": "x"', "world"),
    "png-truncated": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x01", "pc"),
    "binary": (b"\x00\x01\x02garbage", "pc"),
    "latin1": ('{"spec": "chara_card_v2", "data": {"name": "caf\xe9"}}'.encode("latin-1"), "pc"),
    "deep": (b"[" * 5000 + b"]" * 5000, "world"),
    "nan": (b'{"spec": "chara_card_v2", "data": {"name": "x", "character_book": {"entries": [{"keys": [], "insertion_order": NaN}]}}}', "world"),
    "duplicate-key": (b'{"spec": "chara_card_v2", "data": {"name": "x", "name": "y"}}', "pc"),
    "surrogate": (b'{"spec": "chara_card_v2", "data": {"name": "\\ud800"}}', "pc"),
    "huge-number": (b'{"spec": "chara_card_v2", "data": {"name": "x", "character_book": {"entries": [{"insertion_order": 1' + b"0" * 5000 + b"}]}}}", "world"),
    "a-list": (b"[1, 2, 3]", "world"),
    "not-a-card": (b'{"format": "something else", "value": 1}', "pc"),
    "entry-keys-object": (card(data__character_book__entries__1__keys={"a": 1}), "world"),
    "entry-order-text": (card(data__character_book__entries__2__insertion_order="一百"), "pc"),
    "broken-initvar": (card(data__character_book__entries__0__content="{雾港: {潮位: [2, '0-5'],, }"), "world"),
    "hook-not-a-script": (card(data__extensions__loreweaver_hooks=[42]), "world"),
    "too-many-hooks": (card(data__extensions__loreweaver_hooks=["on('turn_start', () => {})"] * 17), "world"),
    "hook-too-long": (card(data__extensions__loreweaver_hooks=["//" + "x" * 40_000]), "world"),
    "no-name-as-pc": (card(data__name=""), "pc"),
    "book-only-as-pc": (json.dumps({"entries": {"0": {"key": ["a"], "content": "b"}}}).encode(), "pc"),
    "native-newer": (native(format_version=2), "world"),
    "native-v0": (native(format_version=0), "world"),
    "native-duplicate-ids": (native(worldbook=[NATIVE["worldbook"][0], NATIVE["worldbook"][0]]), "world"),
    "native-bad-variable": (native(variables=[{"id": "x", "kind": "number", "minimum": 5, "maximum": 1}]), "world"),
    "native-bad-pregen": (native(pregens=[{"name": "", "skills": {"侦查": "很多"}}]), "world"),
    "too-big": (b"{" + b" " * (33 * 1024 * 1024) + b"}", "world"),
}


def clean_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a child ``lw``: no ``LW_*`` of the developer's, a data dir of its own."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env["LW_HOME"] = str(tmp_path / "home")
    return env


def lw_import(tmp_path: Path, path: Path, kind: str, room: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([LW, "tavern", "import", str(path), "--as", kind, str(room), "--json"],
                          capture_output=True, env=clean_env(tmp_path), timeout=120)


@pytest.fixture(scope="module")
def room_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_room(tmp_path_factory.mktemp("template") / "room", with_docs=False)


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_import_is_refused_and_writes_nothing(tmp_path: Path, room_template: Path, name: str) -> None:
    import shutil

    content, kind = HOSTILE[name]
    room = tmp_path / "room"
    shutil.copytree(room_template, room)
    path = tmp_path / f"{name}.json"
    path.write_bytes(content)
    before = files(room)
    result = lw_import(tmp_path, path, kind, room)
    out, err = result.stdout.decode("utf-8"), result.stderr.decode("utf-8")
    assert result.returncode == 1, (name, out, err)
    assert "Traceback" not in out + err and "internal error" not in out + err
    error = json.loads(out)["error"]
    assert error["message"] and error["file"] == str(path), error
    assert files(room) == before
    assert not (room / "docs").exists()


def test_the_same_file_imports_when_it_is_whole(tmp_path: Path, room_template: Path) -> None:
    """The corpus's base card is fine: the refusals above are the damage, not the card."""
    import shutil

    room = tmp_path / "room"
    shutil.copytree(room_template, room)
    path = tmp_path / "bell.json"
    path.write_bytes(card())
    result = lw_import(tmp_path, path, "world", room)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["entries"] == 13 and report["hooks"] == 1 and report["pregens"] == ["钟楼守夜人"]
    assert (room / "docs" / "worldbook_entry.yaml").is_file()


def test_the_kernels_hostile_card_corpus_through_lw_tavern_import(tmp_path: Path, room_template: Path) -> None:
    """Every broken card container (the kernel's corpus: JSON, PNG, CHARX) is refused with the
    card reader's located message and exit 1, and the room stays as it was. One child process
    runs them all (``lwcore.cli.main`` per card) under one timeout."""
    import shutil

    from lwcore.cards.hostile import hostile_cards, run_cli

    room = tmp_path / "room"
    shutil.copytree(room_template, room)
    cards = tmp_path / "cards"
    cards.mkdir()
    before = files(room)
    results = run_cli(["tavern", "import", "{file}", "--as", "world", str(room)], cards, env=clean_env(tmp_path))
    assert [r["id"] for r in results] == [c.id for c in hostile_cards() if not c.in_assets]
    bad = [r for r in results if r["code"] != 1 or not r["stderr"].startswith(f"error: {r['file']}")
           or "internal error" in r["stderr"] or "Traceback" in r["stderr"]]
    assert not bad, bad
    assert files(room) == before


@pytest.mark.parametrize("command", ["inspect", "convert", "activate"])
def test_the_kernels_hostile_card_corpus_through_the_other_tavern_commands(tmp_path: Path, command: str) -> None:
    """The same corpus through ``lw tavern inspect``, ``convert`` and ``activate``: each card is
    refused with the card reader's located message and exit 1, and ``convert`` writes nothing."""
    from lwcore.cards.hostile import hostile_cards, run_cli

    cards = tmp_path / "cards"
    cards.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    chat = tmp_path / "chat.json"
    chat.write_text('["hello"]', encoding="utf-8")
    args = {"inspect": ["tavern", "inspect", "{file}"],
            "convert": ["tavern", "convert", "{file}", str(out / "converted.json")],
            "activate": ["tavern", "activate", "{file}", "--chat", str(chat)]}[command]
    results = run_cli(args, cards, env=clean_env(tmp_path))
    assert [r["id"] for r in results] == [c.id for c in hostile_cards() if not c.in_assets]
    bad = [r for r in results if r["code"] != 1 or not r["stderr"].startswith(f"error: {r['file']}")
           or "internal error" in r["stderr"] or "Traceback" in r["stderr"]]
    assert not bad, bad
    assert list(out.iterdir()) == []


def test_a_png_card_imports(tmp_path: Path, room_template: Path) -> None:
    """The same world card inside a PNG (the kernel's card reader) imports like the JSON one."""
    import shutil

    from lwcore.cards.write import card_png

    room = tmp_path / "room"
    shutil.copytree(room_template, room)
    path = tmp_path / "bell.png"
    path.write_bytes(card_png(BELL, kind="zTXt"))
    result = lw_import(tmp_path, path, "world", room)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["pack"] == "bell" and report["entries"] == 13 and report["hooks"] == 1
