"""Rooms by name in the data dir (``lw room``) and the one reading of a ``ROOM`` argument, through
the real ``lw`` as an operator runs it: create (example, folder, rule system, world card), list,
rename, archive, restore; every command taking ROOM finds a room by name; refusals are located,
exit non-zero and write nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lwcore.errors import LwError
from lwcore.rooms import ROOM_NAME, check_name, create_room, list_rooms, resolve_room

LW = str(Path(sys.executable).with_name("lw"))
REPO = Path(__file__).resolve().parents[2]
CARD = REPO / "plugins" / "tavern" / "tests" / "fixtures" / "bell-tower.world.json"


def lw(home: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env["LW_HOME"] = str(home)
    done = subprocess.run([LW, *args], capture_output=True, text=True, env=env, timeout=180, cwd=cwd)
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    return done


def tree(folder: Path) -> dict[str, bytes]:
    """Every file of ``folder`` but the rooms' lock and transaction state (``.lw/``)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and ".lw" not in p.relative_to(folder).parts}


def test_a_room_made_from_the_example_is_played_by_name_everywhere(tmp_path: Path) -> None:
    home = tmp_path / "home"
    made = lw(home, "room", "create", "harbor", "--example", "fog-harbor")
    assert made.returncode == 0, made.stderr
    folder = home / "rooms" / "harbor"
    assert "id: harbor\n" in (folder / "room.yaml").read_text(encoding="utf-8")
    assert "# 雾港疑案" in (folder / "room.yaml").read_text(encoding="utf-8")  # the copy keeps its comments
    assert not (folder / "replies").exists()
    # every command that takes ROOM takes the name (run from a folder without such a path)
    view = lw(home, "turn", "harbor", "--as", "p2", "--view", "--json", cwd=tmp_path)
    assert view.returncode == 0 and json.loads(view.stdout)["player_view"]["room"] == "harbor"
    said = lw(home, "turn", "harbor", "--as", "p1", "--say", ".r 1d6", "--seed", "3", cwd=tmp_path)
    assert said.returncode == 0, said.stderr
    assert lw(home, "skill", "list", "harbor", "--json", cwd=tmp_path).returncode == 0
    assert lw(home, "panels", "render", "harbor", "--as", "p1", cwd=tmp_path).returncode == 0
    imported = lw(home, "tavern", "import", str(CARD), "--as", "world", "harbor", "--json", cwd=tmp_path)
    assert imported.returncode == 0, imported.stderr
    listed = json.loads(lw(home, "room", "list", "--json").stdout)
    assert [(r["name"], r["system"], r["players"], r["turns"] >= 1, r["archived"]) for r in listed] == [
        ("harbor", "coc7", 2, True, False)]


def test_an_example_that_ships_a_table_not_a_room_says_which_folder_to_copy(tmp_path: Path) -> None:
    """``examples/blackmoor`` is a pack whose table is its ``room/`` folder: ``--example`` of it
    names that folder, and the command it names makes the room."""
    home = tmp_path / "home"
    refused = lw(home, "room", "create", "fen", "--example", "blackmoor")
    assert refused.returncode == 1 and not (home / "rooms" / "fen").exists()
    table = REPO / "examples" / "blackmoor" / "room"
    assert refused.stderr.startswith(f"error: no bundled example room 'blackmoor' (expected --from {table} "), refused.stderr
    assert "--example fog-harbor" in refused.stderr
    made = lw(home, "room", "create", "fen", "--from", str(table))
    assert made.returncode == 0 and (home / "rooms" / "fen" / "room.yaml").is_file(), made.stderr
    unknown = lw(home, "room", "create", "x", "--example", "nowhere")
    assert "(expected --example fog-harbor, or a room folder of your own: --from FOLDER)" in unknown.stderr, unknown


def test_a_folder_of_that_name_is_a_path_first(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert lw(home, "room", "create", "harbor", "--example", "fog-harbor").returncode == 0
    local = tmp_path / "work"
    (local / "harbor").mkdir(parents=True)
    done = lw(home, "turn", "harbor", cwd=local)  # ./harbor exists and is no room: that is what it means
    assert done.returncode == 1 and "not a room folder" in done.stderr
    assert lw(home, "turn", "./nothere", cwd=local).stderr.count("not a room folder") == 1
    missing = lw(home, "turn", "nothere", cwd=local)
    assert missing.returncode == 1 and "no room named 'nothere'" in missing.stderr and "lw room list" in missing.stderr


def test_empty_rooms_on_a_rule_system_and_from_a_world_card(tmp_path: Path) -> None:
    home = tmp_path / "home"
    made = lw(home, "room", "create", "雾港", "--system", "coc7", "--player", "Ann", "--player", "Bo",
              "--locale", "zh", "--title", "雾港夜话")
    assert made.returncode == 0, made.stderr
    room = json.loads(lw(home, "room", "list", "--json").stdout)[0]
    assert (room["name"], room["title"], room["players"], room["turns"]) == ("雾港", "雾港夜话", 2, 0)
    assert "可用的房间命令" in lw(home, "turn", "雾港", "--as", "Ann", "--say", ".help").stdout  # the room's locale
    carded = lw(home, "room", "create", "bell", "--system", "coc7", "--player", "Ann", "--card", str(CARD))
    assert carded.returncode == 0, carded.stderr
    assert "13 world-book entries" in carded.stdout  # the keeper's import report
    docs = home / "rooms" / "bell" / "docs" / "worldbook_entry.yaml"
    assert docs.is_file() and "world:bell-tower" in docs.read_text(encoding="utf-8")


def test_rename_archive_restore(tmp_path: Path) -> None:
    home = tmp_path / "home"
    lw(home, "room", "create", "harbor", "--example", "fog-harbor")
    before = tree(home / "rooms" / "harbor")
    assert lw(home, "room", "rename", "harbor", "fog").returncode == 0
    assert tree(home / "rooms" / "fog") == before and not (home / "rooms" / "harbor").exists()
    assert lw(home, "room", "archive", "fog").returncode == 0
    archived = lw(home, "turn", "fog")
    assert archived.returncode == 1 and "archived" in archived.stderr and "lw room restore fog" in archived.stderr
    assert json.loads(lw(home, "room", "list", "--json").stdout) == []
    (listed,) = json.loads(lw(home, "room", "list", "--archived", "--json").stdout)
    assert (listed["name"], listed["archived"]) == ("fog", True)
    assert lw(home, "room", "restore", "fog").returncode == 0
    assert tree(home / "rooms" / "fog") == before


REFUSALS = {
    "a name with a separator": ("room", "create", "a/b", "--system", "coc7"),
    "a dot name": ("room", "create", "..", "--system", "coc7"),
    "a hidden name": ("room", "create", ".x", "--system", "coc7"),
    "a dash first": ("room", "create", "-x", "--system", "coc7"),
    "a name too long": ("room", "create", "x" * 65, "--system", "coc7"),
    "a taken name": ("room", "create", "harbor", "--system", "coc7"),
    "an unknown system": ("room", "create", "new", "--system", "no-such-system"),
    "two sources": ("room", "create", "new", "--system", "coc7", "--example", "fog-harbor"),
    "no source": ("room", "create", "new"),
    "an unknown example": ("room", "create", "new", "--example", "nowhere"),
    "a broken card": ("room", "create", "new", "--system", "coc7", "--card", "BROKEN"),
    "a missing card": ("room", "create", "new", "--system", "coc7", "--card", "MISSING"),
    "rename to a taken name": ("room", "rename", "harbor", "harbor"),
    "rename a missing room": ("room", "rename", "nothere", "x"),
    "archive a missing room": ("room", "archive", "nothere"),
    "restore a room never archived": ("room", "restore", "harbor"),
}


@pytest.fixture(scope="module")
def one_room(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("rooms") / "home"
    assert lw(home, "room", "create", "harbor", "--example", "fog-harbor").returncode == 0
    return home


@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_a_refused_room_command_writes_nothing(one_room: Path, tmp_path: Path, case: str) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"broken": ', encoding="utf-8")
    args = [{"BROKEN": str(broken), "MISSING": str(tmp_path / "missing.json")}.get(a, a) for a in REFUSALS[case]]
    before = tree(one_room)
    done = lw(one_room, *args)
    assert done.returncode != 0 and done.stderr.strip(), case
    assert tree(one_room) == before, case
    assert ".new-" not in done.stderr  # never the staging folder
    if case == "a broken card":
        assert done.stderr.startswith(f"error: {broken}:")  # located in the operator's own file


def test_a_room_is_created_whole_or_not_at_all(tmp_path: Path) -> None:
    """Fault injection: whatever fills the new room fails at any point -- nothing is left."""
    data = tmp_path / "data"
    for step in range(3):
        def prepare(folder: Path, step: int = step) -> None:
            (folder / "a").write_text("x", encoding="utf-8")
            if step == 0:
                raise LwError("refused")
            (folder / "b").write_text("y", encoding="utf-8")
            if step == 1:
                raise KeyboardInterrupt
            raise OSError("disk full")

        with pytest.raises((LwError, KeyboardInterrupt, OSError)):
            create_room(data, "r", system="coc7", prepare=prepare)
        assert sorted(p.name for p in (data / "rooms").iterdir()) == []
    assert list_rooms(data) == []


def test_names_resolve_only_inside_the_rooms_folder(tmp_path: Path) -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    data = tmp_path / "data"
    create_room(data, "harbor", system="coc7")

    @settings(max_examples=300, deadline=None)
    @given(st.text(min_size=1, max_size=70))
    def check(name: str) -> None:
        try:
            check_name(name)
        except LwError:
            assert not ROOM_NAME.match(name) or name.endswith(".")
            return
        assert "/" not in name and "\\" not in name and not name.startswith((".", "-")) and len(name) <= 64
        assert (data / "rooms" / name).resolve().parent == (data / "rooms").resolve()

    check()
    assert resolve_room("harbor", data) == data / "rooms" / "harbor"


def test_rename_and_archive_touch_only_the_data_dirs_rooms(tmp_path: Path) -> None:
    """A folder of the same name in the current directory is never moved (attacker's H1), and a
    name ending in a newline names no room (L2)."""
    home = tmp_path / "home"
    lw(home, "room", "create", "harbor", "--example", "fog-harbor")
    here = tmp_path / "here"
    (here / "harbor").mkdir(parents=True)
    (here / "harbor" / "notes.txt").write_text("mine", encoding="utf-8")
    assert lw(home, "room", "archive", "harbor", cwd=here).returncode == 0
    assert (here / "harbor" / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert (home / "rooms" / ".archive" / "harbor" / "room.yaml").is_file()
    lw(home, "room", "restore", "harbor")
    (here / "spare").mkdir()
    refused = lw(home, "room", "rename", "spare", "stolen", cwd=here)
    assert refused.returncode == 1 and "no room named 'spare'" in refused.stderr
    assert (here / "spare").is_dir() and not (home / "rooms" / "stolen").exists()
    newline = lw(home, "room", "create", "x\n", "--system", "coc7")
    assert newline.returncode == 1 and not any(p.name.startswith("x") for p in (home / "rooms").iterdir())


def test_lw_room_profile_names_the_profile_a_room_plays_on(tmp_path: Path) -> None:
    """``lw room profile ROOM NAME`` writes the room's ``profile:`` (a data-dir profile or a
    preset, checked first: an unknown name changes nothing), shows it, and ``--none`` drops it;
    ``lw turn ROOM --dry-run`` then compiles for that profile's protocol."""
    home = tmp_path / "home"
    assert lw(home, "room", "create", "harbor", "--example", "fog-harbor").returncode == 0
    room = home / "rooms" / "harbor"
    assert "no profile" in lw(home, "room", "profile", "harbor").stdout
    before = tree(room)
    missing = lw(home, "room", "profile", "harbor", "nowhere")
    assert missing.returncode == 1 and "no provider profile named 'nowhere'" in missing.stderr
    assert tree(room) == before
    added = lw(home, "provider", "add", "local", "--protocol", "chat_completions", "--endpoint",
               "http://127.0.0.1:9/v1/chat/completions", "--model", "m", "--no-key")
    assert added.returncode == 0, added.stderr
    assert lw(home, "room", "profile", "harbor", "local").returncode == 0
    assert lw(home, "room", "profile", "harbor").stdout.strip() == "local"
    assert "profile: local" in (room / "room.yaml").read_text(encoding="utf-8")
    dry = lw(home, "turn", "harbor", "--say", "我看看四周。", "--dry-run", "--payload")
    assert dry.returncode == 0 and '"messages"' in dry.stdout, dry.stderr  # chat completions' shape
    both = lw(home, "room", "profile", "harbor", "local", "--none")
    assert both.returncode == 1 and "not both" in both.stderr
    assert lw(home, "room", "profile", "harbor", "--none").returncode == 0
    assert "no profile" in lw(home, "room", "profile", "harbor").stdout
