"""Loading packs: every problem located (file, line, column), files confined to the pack and
content-addressed, tier-2 rules, and a hostile-file corpus that never gets a traceback."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from panels_testkit import EXAMPLE_PACK, copy_pack, png, write_pack

from lw_panels.load import cached_pack, load_pack
from lw_panels.packs import PackHome, dev_mounts, installed_homes, pack_homes, read_home
from lwcore.errors import LwError, LwErrors

TIER1 = """\
panels:
  - id: hud
    title: {en: HUD}
    slot: sidebar
    blocks:
      - {kind: meter, label: Clues, value: {$var: clues_found}, min: 0, max: 6}
"""


def home(folder: Path) -> PackHome:
    return read_home(folder, dev=True)


def problems(folder: Path) -> list[LwError]:
    with pytest.raises(LwError) as caught:
        load_pack(home(folder))
    error = caught.value
    return error.errors if isinstance(error, LwErrors) else [error]


def test_the_example_pack_loads(tmp_path: Path) -> None:
    pack = load_pack(home(copy_pack(tmp_path / "harbor-ui")))
    assert [p.ref for p in pack.panels] == ["harbor-ui/hud", "harbor-ui/dice", "harbor-ui/board", "harbor-ui/map"]
    svg = (EXAMPLE_PACK / "ui/art/harbour.svg").read_bytes()
    assert pack.files["ui/art/harbour.svg"].sha256 == hashlib.sha256(svg).hexdigest()
    hud = pack.panel("hud")
    image = next(b for b in hud.templates if b["kind"] == "image")
    assert "src" not in image and image["hash"] == hashlib.sha256(svg).hexdigest() and image["mime"] == "image/svg+xml"
    mapped = pack.panel("map")
    assert mapped.tier == 2 and mapped.entry.path == "ui/map/index.html" and len(mapped.assets) == 3
    assert pack.kit is not None and pack.kit.file.generation == "pack_only"


CASES = {
    "bad yaml": ("panels:\n  - id: hud\n    title: [unclosed\n", "invalid YAML", 4),
    "duplicate key": ("panels:\n  - id: a\n    id: b\n", "duplicate", 3),
    "unknown field": (TIER1 + "    colour: red\n", "colour", 7),
    "bad slot": (TIER1.replace("sidebar", "footer"), "slot", 4),
    "bad audience": (TIER1 + "    audience: everyone\n", "audience", 7),
    "no blocks": ("panels:\n  - {id: hud, title: x, slot: tray}\n", "needs blocks", 2),
    "bad id": (TIER1.replace("id: hud", "id: HUD!"), "id", 2),
    "meter range": (TIER1.replace("max: 6", "max: 0"), "above min", 6),
    "string number": (TIER1.replace("min: 0", "min: '0'"), "min", 6),
    "nested repeat": ("panels:\n  - id: a\n    title: a\n    slot: tray\n    blocks:\n      - repeat: {prefix: x, block: "
                      "{repeat: {prefix: y, block: {kind: divider}}}}\n", "repeat", 6),
    "duplicate panel": (TIER1 + TIER1.split("\n", 1)[1], "used twice", 1),
    "tier2 without fallback": ("panels:\n  - id: m\n    title: m\n    slot: modal\n    entry: ui/m/index.html\n"
                               "    assets: [ui/m/index.html]\n", "fallback: null", 2),
    "tier2 entry not listed": ("panels:\n  - id: m\n    title: m\n    slot: modal\n    entry: ui/m/index.html\n"
                               "    assets: [ui/m/app.js]\n    fallback: null\n", "include the entry", 2),
    "tier2 asset elsewhere": ("panels:\n  - id: m\n    title: m\n    slot: modal\n    entry: ui/m/index.html\n"
                              "    assets: [ui/m/index.html, ui/other.js]\n    fallback: null\n", "entry's folder", 2),
    "tier2 with blocks": ("panels:\n  - id: m\n    title: m\n    slot: modal\n    entry: ui/m/index.html\n"
                          "    assets: [ui/m/index.html]\n    fallback: null\n    blocks: [{kind: divider}]\n", "fallback, not blocks", 2),
    "tier1 with fallback": (TIER1 + "    fallback: null\n", "only a tier-2", 2),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_located_problems(tmp_path: Path, name: str) -> None:
    text, words, line = CASES[name]
    folder = write_pack(tmp_path / "p", text, files={"ui/m/index.html": "<p>x</p>", "ui/m/app.js": "1",
                                                     "ui/other.js": "1"})
    found = problems(folder)
    assert any(words in str(e) for e in found), [str(e) for e in found]
    first = next(e for e in found if words in str(e))
    assert first.file and first.file.endswith("panels.yaml") and first.line == line, str(first)


def test_a_bad_condition_points_at_its_column(tmp_path: Path) -> None:
    text = TIER1 + '      - {kind: text, text: x, visible_when: "day >= 1 + 2"}\n'
    [error] = problems(write_pack(tmp_path / "p", text))
    line = text.splitlines()[6]
    assert error.line == 7 and error.column == line.index("+") + 1, str(error)
    assert "arithmetic" in error.message and "blocks[1].visible_when" in error.message


def test_every_problem_at_once(tmp_path: Path) -> None:
    text = TIER1.replace("sidebar", "footer") + '      - {kind: text, text: x, visible_when: "f(1)"}\n'
    found = problems(write_pack(tmp_path / "p", text))
    assert len(found) == 2 and {e.line for e in found} == {4, 7}


IMAGE = TIER1 + "      - {kind: image, src: SRC, caption: Map}\n"


def test_images_are_pictures_of_the_pack(tmp_path: Path) -> None:
    outside = tmp_path / "secret.png"
    outside.write_bytes(png())
    folder = write_pack(tmp_path / "p", IMAGE.replace("SRC", "art/map.png"), files={"art/map.png": png()})
    pack = load_pack(home(folder))
    assert pack.files["art/map.png"].sha256 == hashlib.sha256(png()).hexdigest()
    for src, words in [("../secret.png", "inside the pack"), ("art/none.png", "not a file"),
                       ("art/fake.png", "not a PNG"), ("art/link.png", "outside")]:
        folder = write_pack(tmp_path / src.replace("/", "_").replace(".", "_"), IMAGE.replace("SRC", src),
                            files={"art/fake.png": b"GIF8 nope", "art/x.txt": "x"})
        if src == "art/link.png":
            os.symlink(outside, folder / "art" / "link.png")
        found = problems(folder)
        assert any(words in str(e) for e in found), (src, [str(e) for e in found])


def test_a_built_packs_inventory_is_checked(tmp_path: Path) -> None:
    folder = write_pack(tmp_path / "p", IMAGE.replace("SRC", "art/map.png"), files={"art/map.png": png()})
    manifest = folder / "pack.yaml"
    manifest.write_text(manifest.read_text() + f"files:\n  - {{path: art/map.png, sha256: '{'0' * 64}', size: 1}}\n")
    [error] = problems(folder)
    assert error.code == "integrity" and "inventory" in error.message


def test_homes_installed_newest_and_dev_mounts_win(tmp_path: Path, kernel, data_dir: Path) -> None:  # noqa: ANN001
    for version in ("1.2.0", "1.10.0", "1.9.9"):
        write_pack(data_dir / "packs" / f"testpack@{version}", TIER1)
    assert installed_homes(data_dir)["testpack"].version == "1.10.0"
    dev = write_pack(tmp_path / "src", TIER1.replace("HUD", "Dev HUD"))
    dev_mounts(kernel).mount(dev)
    assert pack_homes(kernel)["testpack"].dev is True
    assert cached_pack(kernel, pack_homes(kernel)["testpack"]).panels[0].title == {"en": "Dev HUD"}


def test_a_dev_pack_is_read_again_when_it_changes(tmp_path: Path, kernel) -> None:  # noqa: ANN001
    folder = write_pack(tmp_path / "p", TIER1)
    first = cached_pack(kernel, home(folder))
    assert cached_pack(kernel, home(folder)) is first
    panels = folder / "ui" / "panels.yaml"
    panels.write_text(TIER1.replace("HUD", "New"), encoding="utf-8")
    os.utime(panels, ns=(1, 1))
    assert cached_pack(kernel, home(folder)).panels[0].title == {"en": "New"}


def test_a_folder_without_pack_yaml_is_a_dev_pack_named_after_it(tmp_path: Path) -> None:
    folder = write_pack(tmp_path / "my-ui", TIER1)
    (folder / "pack.yaml").unlink()
    found = home(folder)
    assert (found.id, found.version, found.dev) == ("my-ui", "0.0.0-dev", True)
    assert load_pack(found).panels[0].ref == "my-ui/hud"
    bad = write_pack(tmp_path / "Bad Name", TIER1)
    (bad / "pack.yaml").unlink()
    with pytest.raises(LwError, match="no pack id"):
        read_home(bad, dev=True)


HOSTILE = [
    b"", b"\x00\x01\x02", b"\xff\xfe\xfd", b"panels: !!python/object:os.system 1\n", b"a: &a [*a]\n",
    b"panels:\n" + b"  - " * 300 + b"x\n", b"- " * 2000, b"panels: " + b"[" * 500, b"panels: {}\n",
    b"panels:\n  - 12\n", b"panels: [null]\n", "panels:\n  - id: ü\n".encode("utf-16"),
    b"x: &x {a: &y [*x, *x]}\n" * 3, b"panels:\n  - id: a\n    title: " + b"A" * (3 * 1024 * 1024) + b"\n",
]


@pytest.mark.parametrize("data", HOSTILE, ids=lambda d: repr(d[:24]))
def test_hostile_panels_files_are_refused_cleanly(tmp_path: Path, data: bytes) -> None:
    folder = write_pack(tmp_path / "p", "")
    (folder / "ui" / "panels.yaml").write_bytes(data)
    with pytest.raises(LwError) as caught:
        load_pack(home(folder))
    assert caught.value.file or isinstance(caught.value, LwErrors), str(caught.value)


@pytest.mark.parametrize("manifest", [
    b"id: ../x\nversion: 1.0.0\n", b"id: ok\nversion: latest\n", b"id: ok\nversion: 1.0.0\ncontents: [a]\n",
    b"id: ok\nversion: 1.0.0\ncontents: {panels: ../../etc/passwd}\n",
    b"id: ok\nversion: 1.0.0\ncontents: {panels: [../../etc/passwd]}\n",
    b"id: ok\nversion: 1.0.0\nfiles: [3]\n", b"\x00", b"[1, 2]\n",
])
def test_hostile_pack_manifests(tmp_path: Path, manifest: bytes) -> None:
    folder = write_pack(tmp_path / "p", TIER1)
    (folder / "pack.yaml").write_bytes(manifest)
    with pytest.raises(LwError) as caught:
        load_pack(read_home(folder, dev=True))
    assert caught.value.file, str(caught.value)
