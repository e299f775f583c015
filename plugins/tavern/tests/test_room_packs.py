"""Cards from installed ``.lwpack`` packs: ``.import <pack-id>/<path>`` reads the active
version's home, and ``.pack install`` in a room imports a pack's one world card (or lists the
choice when there are several). (The rule system such a pack pins is the kernel's decision,
made before the card is imported: ``tests/pack/test_room_install.py``.)"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from lwcore.errors import LwError
from lwcore.kernel import Kernel
from lwcore.pack.build import build_pack
from lwcore.pack.install import install_pack, installed_packs
from lwcore.pack.room import RoomEnable
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room, room_lock

from roomkit import FIXTURES, copy_room

BELL = FIXTURES / "bell-tower.world.json"
PERSON = {"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": "Mira", "description": "A quiet cartographer."}}


def pack_source(root: Path, *, worlds: int = 1, rulepacks: dict[str, str] | None = None) -> Path:
    """A pack source: ``worlds`` copies of the bell-tower world card, a character card, and
    ``rulepacks`` (file name: YAML text)."""
    (root / "cards").mkdir(parents=True)
    cards = []
    for n in range(worlds):
        shutil.copy(BELL, root / "cards" / f"tower{n}.world.json")
        cards.append(f"cards/tower{n}.world.json")
    (root / "cards" / "mira.json").write_text(json.dumps(PERSON), encoding="utf-8")
    cards.append("cards/mira.json")
    rules = []
    for name, text in (rulepacks or {}).items():
        (root / "rules").mkdir(exist_ok=True)
        (root / "rules" / name).write_text(text, encoding="utf-8")
        rules.append(f"rules/{name}")
    (root / "pack.yaml").write_text(
        'id: tower\nversion: 1.0.0\nengine: "0.1.0"\nname: Tower\ndescription: A bell tower.\nlicense: CC0-1.0\n'
        f"contents:\n  cards: [{', '.join(cards)}]\n" + (f"  rulepacks: [{', '.join(rules)}]\n" if rules else ""),
        encoding="utf-8")
    return root


@pytest.fixture
def kernel(tmp_path: Path) -> Kernel:
    return Kernel(data_dir=tmp_path / "data", env={})


def install(kernel: Kernel, tmp_path: Path, *, worlds: int = 1, rulepacks: dict[str, str] | None = None) -> None:
    source = pack_source(tmp_path / f"src{worlds}", worlds=worlds, rulepacks=rulepacks)
    built = build_pack(kernel, source, tmp_path / f"out{worlds}")
    assert install_pack(kernel, str(built.path)) is not None


def test_import_from_an_installed_pack(kernel: Kernel, tmp_path: Path) -> None:
    install(kernel, tmp_path)
    room_dir = copy_room(tmp_path / "room")
    reply = run_turn(kernel, room_dir, ".import tower/cards/tower0.world.json world", actor="kp").command.reply.text
    assert "tower/cards/tower0.world.json" in reply
    room = Room.load(room_dir, kernel)
    sources = {d.meta["source"] for d in room.documents.all("worldbook_entry") if d.data["pack"] == "world:tower"}
    assert "tower#pier" in sources and "tower#truth" in sources
    assert run_turn(kernel, room_dir, ".import tower/cards/mira.json", actor="p2").command is not None
    assert Room.load(room_dir, kernel).sheets["p2"].name == "Mira"
    with pytest.raises(LwError, match="cannot be imported") as refused:  # a player: one refusal, no path
        run_turn(kernel, room_dir, ".import tower/../../room.yaml", actor="p1")
    assert str(kernel.data_dir) not in str(refused.value)
    with pytest.raises(LwError, match="outside"):  # the keeper: what is wrong
        run_turn(kernel, room_dir, ".import tower/../../room.yaml world", actor="kp")


def enable(kernel: Kernel, room_dir: Path) -> str | None:
    (pack,) = installed_packs(kernel)
    validator = kernel.pack_validators["cards"]
    from lwcore.contributions import resolve

    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        ctx = RoomEnable(kernel, room, room.file.keeper, "en", pack.manifest, pack.home, "cards",
                         tuple(pack.manifest.contents["cards"]))
        line = resolve(validator.enable)(ctx)
        room.save()
    return line


def test_a_pack_install_in_a_room_imports_its_world_card(kernel: Kernel, tmp_path: Path) -> None:
    install(kernel, tmp_path)
    room_dir = copy_room(tmp_path / "room")
    line = enable(kernel, room_dir)
    assert line is not None and line.startswith("imported world: 钟楼守夜人 (tower/cards/tower0.world.json)")
    room = Room.load(room_dir, kernel)
    assert room.documents.get("worldbook_pack", "world:tower") is not None
    assert "Mira" not in {d.data["name"] for d in room.documents.all("pregen")}  # a character card is the players'


def test_several_world_cards_are_a_choice_for_the_keeper(kernel: Kernel, tmp_path: Path) -> None:
    install(kernel, tmp_path, worlds=2)
    room_dir = copy_room(tmp_path / "room")
    line = enable(kernel, room_dir)
    assert line is not None and ".import tower/cards/tower0.world.json world; .import tower/cards/tower1.world.json world" in line
    assert Room.load(room_dir, kernel).documents.get("worldbook_pack", "world:tower") is None
