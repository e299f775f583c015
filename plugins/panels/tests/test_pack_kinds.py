"""The ``panels`` and ``presentation`` kinds of ``.lwpack``: built, verified and installed
through the kernel's pack code with this plugin's loader; the trust card counts them; the
installed pack is used by a room; ``.pack install``'s switch refuses a pack that leaks."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
from panels_testkit import EXAMPLE_PACK, SECRET_VALUE, load, say

from lw_panels.packs import installed_homes, read_manifest
from lw_panels.table import table_view
from lwcore.errors import LwError, LwErrors
from lwcore.kernel import Kernel
from lwcore.pack.build import build_pack
from lwcore.pack.install import install_pack


def built(kernel: Kernel, source: Path, out: Path) -> Path:
    return build_pack(kernel, source, out).path


def test_build_install_use(kernel: Kernel, room: Path, tmp_path: Path, data_dir: Path) -> None:
    archive = built(kernel, EXAMPLE_PACK, tmp_path / "out")
    report = install_pack(kernel, str(archive))
    trust = report.manifest.trust
    assert trust.panels == 4 and trust.presentation_subjects == 2 and trust.imagegen is False  # pack_only
    items = report.manifest.contents["panels"]
    svg = hashlib.sha256((EXAMPLE_PACK / "ui/art/harbour.svg").read_bytes()).hexdigest()
    assert items[0].files == ["ui/art/harbour.svg", "ui/map/index.html", "ui/map/map.css", "ui/map/map.js"]
    assert items[0].detected == {"panels": 4, "tier2": 1}
    home = installed_homes(data_dir)["harbor-ui"]
    assert read_manifest(home.path)["files"]["ui/art/harbour.svg"] == svg  # the built inventory is read
    say(kernel, room, ".panels enable harbor-ui", "kp")
    view = table_view(load(kernel, room), "p2")
    hud = next(p for p in view["panels"] if p["id"] == "harbor-ui/hud")
    assert {"kind": "image", "hash": svg, "mime": "image/svg+xml", "caption": "The harbour at dusk",
            "alt": "A pier in fog"} in hud["blocks"]


def test_a_bad_panel_file_stops_the_build(kernel: Kernel, tmp_path: Path) -> None:
    source = shutil.copytree(EXAMPLE_PACK, tmp_path / "src")
    panels = source / "ui" / "panels.yaml"
    panels.write_text(panels.read_text(encoding="utf-8").replace('visible_when: "clues_found >= 2"',
                                                                 'visible_when: "clues_found + 1 >= 2"'),
                      encoding="utf-8")
    (source / "ui" / "map" / "map.css").unlink()
    with pytest.raises(LwError) as caught:
        built(kernel, source, tmp_path / "out")
    problems = caught.value.errors if isinstance(caught.value, LwErrors) else [caught.value]
    text = "\n".join(str(p) for p in problems)
    assert "panels.yaml:13:36:" in text and "arithmetic" in text
    assert "map.css" in text
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


def test_the_in_room_switch_refuses_a_leaking_pack(kernel: Kernel, room: Path, tmp_path: Path) -> None:
    from lw_panels.pack_kinds import enable
    from lwcore.pack.room import RoomEnable

    source = shutil.copytree(EXAMPLE_PACK, tmp_path / "src")
    panels = source / "ui" / "panels.yaml"
    panels.write_text(panels.read_text(encoding="utf-8").replace(
        "visible_when: \"fog === '蔽日'\"", f"visible_when: \"fog === '{SECRET_VALUE}'\""), encoding="utf-8")
    report = install_pack(kernel, str(built(kernel, source, tmp_path / "out")))
    loaded = load(kernel, room)
    ctx = RoomEnable(kernel, loaded, loaded.member("kp"), "en", report.manifest, report.home, "panels",
                     tuple(report.manifest.contents["panels"]))
    with pytest.raises(LwError, match="compares with"):
        enable(ctx)
    assert "harbor-ui" not in (room / "docs").joinpath("panel_packs.yaml").read_text(encoding="utf-8") \
        if (room / "docs" / "panel_packs.yaml").exists() else True
    clean = install_pack(kernel, str(built(kernel, EXAMPLE_PACK, tmp_path / "clean")))
    ctx = RoomEnable(kernel, loaded, loaded.member("kp"), "en", clean.manifest, clean.home, "panels",
                     tuple(clean.manifest.contents["panels"]))
    assert enable(ctx) == "Panels of harbor-ui@1.0.0 are on in this room."
    assert enable(ctx) is None  # the presentation kind finds it on already
    loaded.save()
    assert "harbor-ui" in (room / "docs" / "panel_packs.yaml").read_text(encoding="utf-8")
