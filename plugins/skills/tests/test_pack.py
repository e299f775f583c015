"""Skills in ``.lwpack`` packs: each skill folder read by the skill reader and its hooks.js
loaded in the sandbox at build; installed, the folder lands in <data_dir>/skills/ and is
discovered; the in-room install enables it (or says why not); bad folders refuse the build,
located."""

from __future__ import annotations

from pathlib import Path

import pytest

from lwcore.errors import LwError
from lwcore.pack.build import build_pack
from lwcore.pack.install import install_pack
from lwcore.pack.room import RoomEnable
from lwcore.turn.room import Room
from lw_skills.catalog import catalog_for
from lw_skills.pack import enable
from skills_testkit import set_room

SKILL = "---\nname: Tide watch\ndescription: Every shore scene starts with the tide.\nallowed-tools: [keeper_note]\n---\n\nRead the tide.\n"
HOOKS = "on('turn_start', () => incvar('tide', 1));\n"


def source(root: Path, files: dict[str, str], skills: str = "[skills/tide-watch]") -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "pack.yaml").write_text(f"id: shore\nversion: 1.0.0\nengine: \"0.1.0\"\nname: Shore\ndescription: d\n"
                                    f"license: CC0-1.0\ncontents:\n  skills: {skills}\n", encoding="utf-8")
    return root


GOOD = {"skills/tide-watch/SKILL.md": SKILL, "skills/tide-watch/hooks.js": HOOKS,
        "skills/tide-watch/references/tables.md": "| high | low |"}


def test_a_skill_ships_lands_is_discovered_and_switched_on_in_a_room(kernel, tmp_path: Path, room_dir: Path) -> None:  # noqa: ANN001
    built = build_pack(kernel, source(tmp_path / "src", GOOD), tmp_path / "out")
    [item] = built.manifest.contents["skills"]
    assert item.id == "tide-watch" and sorted(item.files) == sorted(GOOD)
    assert built.manifest.trust.has_hooks and built.manifest.trust.counts == {"skills": 1}
    report = install_pack(kernel, str(built.path))
    assert sorted(report.landed) == ["skills/tide-watch/SKILL.md", "skills/tide-watch/hooks.js",
                                     "skills/tide-watch/references/tables.md"]
    skill = catalog_for(kernel).get("tide-watch")
    assert skill.source == "user" and skill.hooks == HOOKS and skill.references == ("tables.md",)
    room = Room.load(room_dir, kernel)
    ctx = RoomEnable(kernel, room, room.file.keeper, "en", report.manifest, report.home, "skills",
                     tuple(report.manifest.contents["skills"]))
    assert enable(ctx) == "skills on: tide-watch"
    assert room.file.features[0].id == "tide-watch" and room.file.features[0].narrows


def test_a_mature_skill_is_left_off_in_a_room_without_the_adult_switch(kernel, tmp_path: Path, room_dir: Path) -> None:  # noqa: ANN001
    mature = {"skills/late/SKILL.md": "---\ndescription: d\nmetadata:\n  content-rating: mature\n---\nbody\n"}
    built = build_pack(kernel, source(tmp_path / "src", mature, "[skills/late]"), tmp_path / "out")
    assert built.manifest.contents["skills"][0].detected == {"content_rating": "mature"}
    report = install_pack(kernel, str(built.path))
    room = Room.load(room_dir, kernel)
    ctx = RoomEnable(kernel, room, room.file.keeper, "en", report.manifest, report.home, "skills",
                     tuple(report.manifest.contents["skills"]))
    line = enable(ctx)
    assert line.startswith("left off late: skill 'late' is rated mature") and room.file.features == []
    set_room(room_dir, adult=True)
    room = Room.load(room_dir, kernel)
    assert enable(RoomEnable(kernel, room, room.file.keeper, "zh", report.manifest, report.home, "skills",
                             ctx.items)) == "已启用技能：late"


@pytest.mark.parametrize(("files", "skills", "message", "where"), [
    ({**GOOD, "skills/tide-watch/SKILL.md": "---\nname: [x\n---\n"}, "[skills/tide-watch]", "invalid YAML",
     "skills/tide-watch/SKILL.md"),
    ({**GOOD, "skills/tide-watch/hooks.js": "on('turn_start', () => {"}, "[skills/tide-watch]",
     "hooks.js does not load", "skills/tide-watch/hooks.js"),
    ({"skills/tension-clock/SKILL.md": SKILL}, "[skills/tension-clock]", "belongs to an installed plugin",
     "skills/tension-clock"),
    ({"skills/Tide/SKILL.md": SKILL}, "[skills/Tide]", "is not an id", "skills/Tide"),
    ({"skills/empty/notes.md": "x"}, "[skills/empty]", "holds a SKILL.md", "skills/empty"),
])
def test_a_bad_skill_refuses_the_build_located(kernel, tmp_path: Path, files: dict, skills: str, message: str,  # noqa: ANN001
                                              where: str) -> None:
    with pytest.raises(LwError) as caught:
        build_pack(kernel, source(tmp_path / "src", files, skills), tmp_path / "out")
    assert message in str(caught.value) and where in str(caught.value), str(caught.value)
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
