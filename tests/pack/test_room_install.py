"""``.pack install`` in a room, as a keeper runs it with ``lw turn``: the rule system first, then
everything the pack brings; a path on the server for the keeper, never for a player.

The contract (发现、清单与版本): "在远程桌上，装上就等于启用……这条命令会把包带来的开关全推上去——面板与演出包、
KP 技能，以及包里恰好只有一张世界卡时的那张卡（顺带把包的建卡系统钉上）", and "引用形式相同，安装函数也是同一个",
"当然是守秘人限定：它要往服务器数据目录里写". The pack's skill is for the pack's own system: deciding
the system after the skill left the skill off; now the system is decided first and the skill
counts. A local path is read as the CLI reads it (relative to the working directory); every
bad path is refused, located, in bounded time, with the data dir and the room as they were.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
LW = str(Path(sys.executable).with_name("lw"))
WORLD = ROOT / "plugins" / "tavern" / "tests" / "fixtures" / "bell-tower.world.json"

TOWER_COC = "extends: coc7\nnames: [tower-coc]\n"
"""A patch of the room's own system: it inherits coc7's make_char command (.coc)."""
TOWER_D20 = "extends: dnd5e\nnames: [tower-d20]\n"
"""A patch of another system (.dnd)."""
NO_CREATION = "extends: coc7\nnames: [tower-dice]\ncommands: {coc: null}\n"
"""A patch without character creation (its parent's make_char command deleted)."""


def skill(systems: list[str]) -> str:
    return f"---\nname: Bells\ndescription: Ring the bells.\nmetadata:\n  systems: {systems}\n---\n\nRing them.\n"


def pack_source(root: Path, *, rulepacks: dict[str, str], worlds: int = 1,
                skills: dict[str, list[str]] | None = None) -> Path:
    root.mkdir(parents=True)
    contents: dict[str, list[str]] = {}
    for n in range(worlds):
        (root / "cards").mkdir(exist_ok=True)
        shutil.copy(WORLD, root / "cards" / f"tower{n}.world.json")
        contents.setdefault("cards", []).append(f"cards/tower{n}.world.json")
    for name, text in rulepacks.items():
        (root / "rules").mkdir(exist_ok=True)
        (root / "rules" / name).write_text(text, encoding="utf-8")
        contents.setdefault("rulepacks", []).append(f"rules/{name}")
    for skill_id, systems in (skills or {}).items():
        (root / "skills" / skill_id).mkdir(parents=True)
        (root / "skills" / skill_id / "SKILL.md").write_text(skill(systems), encoding="utf-8")
        contents.setdefault("skills", []).append(f"skills/{skill_id}")
    manifest = {"id": "tower", "version": "1.0.0", "engine": "0.1.0", "name": "Tower", "description": "A bell tower.",
                "license": "CC0-1.0", "contents": contents}
    (root / "pack.yaml").write_text(yaml.safe_dump(manifest), encoding="utf-8")
    return root


def lw(cwd: Path, home: Path, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    run = subprocess.run([LW, "--data-dir", str(home), *args], capture_output=True, text=True, timeout=120, cwd=cwd)
    assert "Traceback" not in run.stderr, run.stderr
    if ok:
        assert run.returncode == 0, run.stderr
    return run


def files(root: Path) -> dict[str, bytes]:
    """Every file (``cache/`` and ``.lw/`` lock folders left out), byte for byte."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and not {"cache", ".lw"} & set(p.relative_to(root).parts)}


@pytest.fixture
def work(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "examples" / "fog-harbor", tmp_path / "room", ignore=shutil.ignore_patterns("replies"))
    (tmp_path / "data").mkdir()
    return tmp_path


def build(work: Path, **source: object) -> str:
    """Build the pack into ``work/out`` and return its path as the keeper types it: relative."""
    src = pack_source(work / "src", **source)  # type: ignore[arg-type]
    lw(work, work / "data", "pack", "build", str(src), "-o", "out")
    return "out/tower-1.0.0.lwpack"


def test_the_system_is_decided_before_the_packs_skills(work: Path) -> None:
    ref = build(work, rulepacks={"tower-coc.yaml": TOWER_COC},
                skills={"tower-bells": ["tower-coc"], "tower-lore": ["coc7"], "d20-only": ["dnd5e"]})
    comments = [line for line in (work / "room" / "room.yaml").read_text(encoding="utf-8").splitlines() if "#" in line]
    receipt = lw(work, work / "data", "turn", "room", "--as", "kp", "--say", f".pack install {ref}").stdout.splitlines()
    pinned = receipt.index("规则系统已固定为 tower-coc（原为 coc7；建卡：.coc）")
    cards = next(i for i, line in enumerate(receipt) if line.startswith("已导入世界：钟楼守夜人"))
    skills = next(i for i, line in enumerate(receipt) if line.startswith("已启用技能："))
    assert pinned < cards and pinned < skills  # decided first, then what the pack brings
    assert receipt[skills] == ("已启用技能：tower-bells, tower-lore; 未启用 d20-only: skill 'd20-only' is for dnd5e; "
                               "this room plays tower-coc")
    text = (work / "room" / "room.yaml").read_text(encoding="utf-8")
    assert "system: tower-coc" in text and all(line in text.splitlines() for line in comments)
    listing = lw(work, work / "data", "skill", "list", "room").stdout.splitlines()
    assert any(line.startswith("* tower-bells") for line in listing)  # * = counts in this room
    assert any(line.startswith("* tower-lore") for line in listing)  # a skill for coc7 counts in its patch
    view = lw(work, work / "data", "turn", "room", "--as", "p2", "--say", ".ra spot hidden", "--seed", "31").stdout
    assert view.strip() == "苏婉清: Spot Hidden 45: 1d100=2/45 Extreme Success"  # the sheets play on the patch


def test_without_its_one_world_card_a_pack_does_not_pin_its_system(work: Path) -> None:
    ref = build(work, rulepacks={"tower-coc.yaml": TOWER_COC}, worlds=0, skills={"tower-bells": ["tower-coc"]})
    receipt = lw(work, work / "data", "turn", "room", "--as", "kp", "--say", f".pack install {ref}").stdout
    assert "规则系统" not in receipt
    assert "未启用 tower-bells: skill 'tower-bells' is for tower-coc; this room plays coc7" in receipt
    assert "system: coc7" in (work / "room" / "room.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize(("rulepacks", "pinned", "said"), [
    ({"tower-d20.yaml": TOWER_D20}, None,
     "规则系统未固定：本房间已有 coc7 的角色卡，tower-d20 不是它的扩展"),
    ({"tower-coc.yaml": TOWER_COC, "tower-d20.yaml": TOWER_D20}, None,
     "规则系统未固定：包里有多个建卡系统（tower-coc, tower-d20）"),
    ({"tower-dice.yaml": NO_CREATION}, None, None),
    ({}, None, None),
])
def test_what_the_one_world_card_pins(work: Path, rulepacks: dict[str, str], pinned: str | None,
                                      said: str | None) -> None:
    ref = build(work, rulepacks=rulepacks)
    receipt = lw(work, work / "data", "turn", "room", "--as", "kp", "--say", f".pack install {ref}").stdout
    lines = [line for line in receipt.splitlines() if line.startswith("规则系统")]
    assert lines == ([said] if said else [])
    assert "已导入世界：钟楼守夜人" in receipt
    assert yaml.safe_load((work / "room" / "room.yaml").read_text(encoding="utf-8"))["system"] == (pinned or "coc7")


def test_a_room_without_characters_takes_another_systems_pack(work: Path) -> None:
    data = yaml.safe_load((work / "room" / "room.yaml").read_text(encoding="utf-8"))
    for member in [data["keeper"], *data["players"]]:
        member.pop("sheet", None)
    (work / "room" / "room.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    ref = build(work, rulepacks={"tower-d20.yaml": TOWER_D20}, skills={"d20-bells": ["dnd5e"]})
    receipt = lw(work, work / "data", "turn", "room", "--as", "kp", "--say", f".pack install {ref}").stdout
    assert "规则系统已固定为 tower-d20（原为 coc7；建卡：.dnd）" in receipt
    assert "已启用技能：d20-bells" in receipt  # judged against the new system
    assert yaml.safe_load((work / "room" / "room.yaml").read_text(encoding="utf-8"))["system"] == "tower-d20"


def test_a_path_on_the_server_is_the_keepers_and_read_like_the_cli(work: Path) -> None:
    ref = build(work, rulepacks={"tower-coc.yaml": TOWER_COC})
    room_before, data_before = files(work / "room"), files(work / "data")
    for line in (f".pack install {ref}", f".pack install {work / ref}"):
        refused = lw(work, work / "data", "turn", "room", "--as", "p1", "--say", line, ok=False)
        assert refused.returncode != 0 and "error: .pack is for the keeper only" in refused.stderr
        assert str(work) not in refused.stderr
    assert files(work / "room") == room_before and files(work / "data") == data_before
    absolute = lw(work, work / "data", "turn", str(work / "room"), "--as", "kp", "--say",
                  f".pack install {work / ref}").stdout
    assert f"已安装 tower@1.0.0 到 {work / 'data' / 'packs' / 'tower@1.0.0'}" in absolute


def hostile_paths(work: Path) -> list[tuple[str, str]]:
    """``(the ref typed, what the refusal says)``: each a path the keeper might type by mistake
    or on purpose."""
    (work / "folder.lwpack").mkdir()
    (work / "empty.lwpack").write_bytes(b"")
    (work / "text.lwpack").write_text("not a zip\n", encoding="utf-8")
    (work / "fake.lwpack").write_bytes(b"PK\x03\x04" + os.urandom(64))
    os.mkfifo(work / "pipe.lwpack")
    os.symlink("/dev/zero", work / "zero.lwpack")
    os.symlink(work / "nowhere", work / "dangling.lwpack")
    return [
        ("missing.lwpack", "no such pack file"),
        ("folder.lwpack", "not a pack file (a folder, a device or a pipe)"),
        ("pipe.lwpack", "not a pack file (a folder, a device or a pipe)"),
        ("zero.lwpack", "not a pack file (a folder, a device or a pipe)"),
        ("/dev/zero", "not a pack file (a folder, a device or a pipe)"),
        ("dangling.lwpack", "no such pack file"),
        ("empty.lwpack", "empty.lwpack"),
        ("text.lwpack", "text.lwpack"),
        ("fake.lwpack", "fake.lwpack"),
        ("a" * 5000 + ".lwpack", "cannot read this path: File name too long"),
        ("~no-such-user-here/x.lwpack", "cannot read this path: Could not determine home directory"),
        ("room/room.yaml", "room.yaml"),
        ("ftp://example.invalid/x.lwpack", "ftp:// is not fetched; packs come over https"),
    ]


def test_bad_paths_are_refused_and_nothing_changes(work: Path) -> None:
    cases = hostile_paths(work)
    assert lw(work, work / "data", "pack", "list").returncode == 0
    room_before, data_before = files(work / "room"), files(work / "data")
    for ref, said in cases:
        started = time.monotonic()
        refused = lw(work, work / "data", "turn", "room", "--as", "kp", "--say", f".pack install {ref}", ok=False)
        assert time.monotonic() - started < 60, ref  # a hang check (a pipe, a device), not a speed claim
        assert refused.returncode != 0 and said in refused.stderr, (ref, refused.stderr)
        assert refused.stderr.startswith("error: ") and len(refused.stderr) < 2000
    assert files(work / "room") == room_before and files(work / "data") == data_before
