"""Cards from installed ``.lwpack`` packs: ``.import <pack-id>/<path>`` reads the active
version's home, and ``.pack install`` in a room imports a pack's one world card (or lists the
choice when there are several)."""

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


TOWER_COC = "extends: coc7\nnames: [tower-coc]\n"
"""(The file's name is the system's id.) A patch of the room's own system: it inherits coc7's make_char command (.coc)."""
TOWER_D20 = "extends: dnd5e\nnames: [tower-d20]\n"
"""A patch of another system."""
NO_CREATION = "extends: coc7\nnames: [tower-dice]\ncommands: {coc: null}\n"
"""A patch without character creation (its parent's make_char command deleted)."""


@pytest.mark.parametrize(("rulepacks", "pinned", "said"), [
    ({"tower-coc.yaml": TOWER_COC}, "tower-coc", "rule system pinned: tower-coc (was coc7; create characters with .coc)"),
    ({"tower-d20.yaml": TOWER_D20}, None, "rule system not pinned: this room has characters on coc7, which tower-d20 does not extend"),
    ({"tower-coc.yaml": TOWER_COC, "tower-d20.yaml": TOWER_D20}, None,
     "rule system not pinned: the pack has several character-creation systems (tower-coc, tower-d20)"),
    ({"tower-dice.yaml": NO_CREATION}, None, None),
    ({}, None, None),
])
def test_the_one_world_card_pins_the_packs_character_creation_system(
        kernel: Kernel, tmp_path: Path, rulepacks: dict[str, str], pinned: str | None, said: str | None) -> None:
    install(kernel, tmp_path, rulepacks=rulepacks)
    room_dir = copy_room(tmp_path / "room")
    before = (room_dir / "room.yaml").read_text(encoding="utf-8")
    line = enable(kernel, room_dir)
    assert line is not None and line.startswith("imported world: ")
    last = line.splitlines()[-1]
    assert (last == said) if said else not last.startswith("rule system")
    room = Room.load(room_dir, kernel)
    assert room.file.system == (pinned or "coc7")
    if pinned:  # room.yaml keeps its comments; every sheet loads on the patch
        after = (room_dir / "room.yaml").read_text(encoding="utf-8")
        comments = [line.strip() for line in before.splitlines() if line.strip().startswith("#")]
        assert comments and all(c in after for c in comments) and "system: tower-coc" in after
        assert set(room.sheets) == {"p1", "p2"} and all(sheet.system == "tower-coc" for sheet in room.sheets.values())


def test_a_room_without_characters_takes_another_systems_pack(kernel: Kernel, tmp_path: Path) -> None:
    install(kernel, tmp_path, rulepacks={"tower-d20.yaml": TOWER_D20})
    room_dir = copy_room(tmp_path / "room")
    import yaml

    data = yaml.safe_load((room_dir / "room.yaml").read_text(encoding="utf-8"))
    for member in [data["keeper"], *data["players"]]:
        member.pop("sheet", None)
    (room_dir / "room.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    line = enable(kernel, room_dir)
    assert line is not None and line.splitlines()[-1] == "rule system pinned: tower-d20 (was coc7; create characters with .dnd)"
    assert Room.load(room_dir, kernel).file.system == "tower-d20"
