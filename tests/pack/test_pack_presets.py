"""A pack's prompt presets are installed (contract A.6: "安装时每个文件落进共享预设库
（data_dir/presets/<id>.json，id 取净化后的文件名主干），所以 .preset list 立刻能看到——但什么都不会自己生效：
只有房间的守秘人执行 .preset enable <id>…信任卡会披露预设数量（presets: N）").

All through ``lw`` as an operator runs it: ``lw pack build`` and ``install`` (the trust card
counts them), the files in ``<data_dir>/presets/``, ``.preset list`` in a room at once, ``.preset
enable`` refused to a player and done by the keeper, ``lw pack remove``, an upgrade, and what a
pack may not do: replace the operator's own preset, or ship two presets that would land on one
file.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LW = str(Path(sys.executable).with_name("lw"))
FIXTURE = ROOT / "plugins" / "tavern" / "tests" / "fixtures" / "night-watch.preset.json"
DAWN = {"prompts": [{"identifier": "main", "name": "Main", "role": "system", "content": "Speak of the dawn."}],
        "prompt_order": [{"character_id": 100000, "order": [{"identifier": "main", "enabled": True}]}]}


def lw(home: Path, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    run = subprocess.run([LW, "--data-dir", str(home), *args], capture_output=True, text=True, timeout=120,
                         cwd=home.parent)
    assert "Traceback" not in run.stderr, run.stderr
    if ok:
        assert run.returncode == 0, run.stderr
    return run


def source(root: Path, presets: dict[str, bytes], *, version: str = "1.0.0") -> Path:
    for rel, body in presets.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(body)
    listed = ", ".join(json.dumps(rel, ensure_ascii=False) for rel in presets)
    (root / "pack.yaml").write_text(
        f'id: styles\nversion: {version}\nengine: "0.1.0"\nname: Styles\ndescription: Keeper styles.\n'
        f"license: CC0-1.0\ncontents:\n  presets: [{listed}]\n", encoding="utf-8")
    return root


def build(home: Path, src: Path, out: Path) -> Path:
    lw(home, "pack", "build", str(src), "-o", str(out))
    (archive,) = out.glob("*.lwpack")
    return archive


def files(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (``cache/``, the kernel's discovery cache, and ``.lw/``, a lock
    file, left out)."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.relative_to(root).parts[0] not in ("cache", ".lw")}


@pytest.fixture
def room(tmp_path: Path) -> Path:
    target = tmp_path / "room"
    shutil.copytree(ROOT / "examples" / "fog-harbor", target, ignore=shutil.ignore_patterns("replies"))
    return target


def test_installed_presets_land_in_the_library_and_wait_for_the_keeper(tmp_path: Path, room: Path) -> None:
    home = tmp_path / "data"
    night = FIXTURE.read_bytes()
    dawn = json.dumps(DAWN, ensure_ascii=False).encode("utf-8")
    src = source(tmp_path / "src", {"presets/Night Watch.json": night, "presets/晨曦.json": dawn})
    run = lw(home, "pack", "install", str(build(home, src, tmp_path / "out")), "--yes")
    installed = run.stderr + run.stdout  # the trust card, then what was installed
    assert "contains: 2 presets" in installed
    assert "2 prompt preset(s): text folded into a room's style when a keeper enables one." in installed
    assert "discoverable now: presets/Night-Watch.json, presets/晨曦.json" in installed
    assert (home / "presets" / "Night-Watch.json").read_bytes() == night  # the id: the stem made safe
    assert (home / "presets" / "晨曦.json").read_bytes() == dawn
    room_before = files(room)

    listed = lw(home, "turn", str(room), "--as", "p2", "--say", ".preset list").stdout  # at once, for anyone
    assert listed.splitlines() == ["  Night-Watch", "  晨曦", "(* = enabled in this room)"]
    refused = lw(home, "turn", str(room), "--as", "p2", "--say", ".preset enable 晨曦", ok=False)
    assert refused.returncode != 0 and "keeper" in refused.stderr and str(home) not in refused.stderr
    assert files(room) == room_before  # installed is not enabled, and a player cannot enable it

    lw(home, "turn", str(room), "--as", "kp", "--say", ".preset enable Night-Watch")
    assert lw(home, "turn", str(room), "--as", "p1", "--say", ".preset list").stdout.splitlines()[:2] == \
        ["* Night-Watch", "  晨曦"]
    payload = lw(home, "turn", str(room), "--as", "p1", "--say", "我看看码头。", "--payload").stdout
    assert "Write as the night watch of a drowned city." in payload and "Speak of the dawn." not in payload

    lw(home, "pack", "remove", "styles")
    assert not (home / "presets" / "Night-Watch.json").exists() and not (home / "presets" / "晨曦.json").exists()
    after = lw(home, "turn", str(room), "--as", "kp", "--say", ".preset list").stdout
    assert after.splitlines()[0] == "* Night-Watch (未安装)"  # the keeper's locale (zh): it is gone, and said so


def test_an_upgrade_replaces_and_drops_the_packs_own_presets(tmp_path: Path) -> None:
    home = tmp_path / "data"
    night = FIXTURE.read_bytes()
    dawn = json.dumps(DAWN).encode("utf-8")
    lw(home, "pack", "install", str(build(home, source(tmp_path / "v1", {"presets/night.json": night,
                                                                         "presets/dawn.json": dawn}),
                                          tmp_path / "o1")), "--yes")
    newer = night.replace(b"drowned city", b"flooded city")
    lw(home, "pack", "install", str(build(home, source(tmp_path / "v2", {"presets/night.json": newer}, version="1.1.0"),
                                          tmp_path / "o2")), "--yes")
    assert (home / "presets" / "night.json").read_bytes() == newer
    assert not (home / "presets" / "dawn.json").exists()


def test_a_pack_never_replaces_the_operators_own_preset(tmp_path: Path, room: Path) -> None:
    home = tmp_path / "data"
    (home / "presets").mkdir(parents=True)
    mine = (home / "presets" / "night.json")
    mine.write_bytes(json.dumps(DAWN).encode("utf-8"))  # the operator's, by .preset import
    archive = build(home, source(tmp_path / "src", {"presets/night.json": FIXTURE.read_bytes()}), tmp_path / "out")
    lw(home, "pack", "list")  # the packs folder and its lock exist, as on any used data dir
    before = files(home)
    refused = lw(home, "pack", "install", str(archive), "--yes", ok=False)
    assert refused.returncode == 1
    assert "presets/night.json exists and is not from a pack; an install does not replace your own files" \
        in refused.stderr
    assert files(home) == before


@pytest.mark.parametrize(("names", "said"), [
    (["presets/Night.json", "presets/night.json"], "lands 'presets/night.json' at presets/night.json, and "
                                                   "contents.presets[0] lands 'presets/Night.json' at presets/Night.json"),
    (["a/night.json", "b/night.json"], "installs as preset 'night', like 'a/night.json'"),
    (["presets/CON.json"], "presets/CON.json"),
    (["presets/night.txt"], "a preset file is JSON (.json)"),
])
def test_presets_that_cannot_land_are_refused_at_build(tmp_path: Path, names: list[str], said: str) -> None:
    home = tmp_path / "data"
    src = source(tmp_path / "src", dict.fromkeys(names, FIXTURE.read_bytes()))
    run = lw(home, "pack", "build", str(src), "-o", str(tmp_path / "out"), ok=False)
    assert run.returncode == 1 and said in run.stderr, run.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
