"""What a pack's UI files must be, as an operator meets it through ``lw``:

- a panel without ``slot`` is refused at its place in ``ui/panels.yaml``, naming the missing key
  and the slots there are (contract D: "slot（sidebar/tray/modal）"), not a bare "Field required";
- a pack carries one presentation kit (contract M19: "发一份 ui/presentation.yaml 并在
  contents.presentation 里声明（一个包一份）"): a second one is refused by ``lw pack build``, and an
  archive that lists two (built by an older host) by ``lw pack verify`` and ``lw pack install``,
  with nothing written.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from panels_testkit import EXAMPLE_PACK

LW = str(Path(sys.executable).with_name("lw"))


def lw(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([LW, "--data-dir", str(home), *args], capture_output=True, text=True, timeout=120,
                          cwd=home.parent)


def tree(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` with its bytes (``cache/``, the kernel's discovery cache, left out)."""
    return {p.relative_to(root).as_posix(): (p.read_bytes() if p.is_file() else b"/")
            for p in sorted(root.rglob("*")) if p.relative_to(root).parts[0] != "cache"} if root.exists() else {}


@pytest.mark.parametrize(("panel", "said"), [
    ("  - id: hud\n    title: HUD\n    blocks: [{kind: text, text: hi}]\n",
     "panels.yaml:2:5: panels[0].slot: required: one of sidebar, tray, modal"),
    ("  - {id: hud, title: HUD, audience: all, blocks: [{kind: text, text: hi}]}\n",
     "panels.yaml:2:5: panels[0].slot: required: one of sidebar, tray, modal"),
    ("  - id: hud\n    slot: tray\n    blocks: [{kind: text, text: hi}]\n",
     "panels.yaml:2:5: panels[0].title: required"),
    ("  - {id: hud, title: HUD, slot: side, blocks: [{kind: text, text: hi}]}\n",
     "panels.yaml:2:33: panels[0].slot: Input should be 'sidebar', 'tray' or 'modal'"),
])
def test_a_panel_missing_its_slot_is_refused_at_its_place(tmp_path: Path, panel: str, said: str) -> None:
    source = tmp_path / "src"
    (source / "ui").mkdir(parents=True)
    (source / "ui" / "panels.yaml").write_text("panels:\n" + panel, encoding="utf-8")
    (source / "pack.yaml").write_text('id: hud\nversion: 1.0.0\nengine: "0.1.0"\nname: HUD\ndescription: d\n'
                                      "license: CC0-1.0\ncontents:\n  panels: [ui/panels.yaml]\n", encoding="utf-8")
    home = tmp_path / "data"
    for run in (lw(home, "pack", "build", str(source), "-o", str(tmp_path / "out")),
                lw(home, "panels", "check", str(source))):
        assert run.returncode != 0 and "Traceback" not in run.stderr
        assert said in run.stderr, run.stderr
        assert "Field required" not in run.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def two_kits(tmp_path: Path) -> Path:
    source = shutil.copytree(EXAMPLE_PACK, tmp_path / "src")
    (source / "ui" / "second.yaml").write_text("version: 2\ngeneration: pack_only\n", encoding="utf-8")
    text = (source / "pack.yaml").read_text(encoding="utf-8")
    (source / "pack.yaml").write_text(text.replace("presentation: [ui/presentation.yaml]",
                                                   "presentation: [ui/presentation.yaml, ui/second.yaml]"),
                                      encoding="utf-8")
    return source


def test_a_second_presentation_kit_is_refused_at_build(tmp_path: Path) -> None:
    source = two_kits(tmp_path)
    run = lw(tmp_path / "data", "pack", "build", str(source), "-o", str(tmp_path / "out"))
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "ui/second.yaml: contents.presentation lists 2 kits (ui/presentation.yaml, ui/second.yaml); " \
           "a pack carries one presentation kit" in run.stderr, run.stderr
    assert run.stderr.count("lists 2 kits") == 1
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
    check = lw(tmp_path / "data", "panels", "check", str(source))  # the same rule where a room reads a pack
    assert check.returncode == 1 and "pack.yaml:9:17: contents.presentation lists 2 kits" in check.stderr


def test_an_archive_with_two_kits_is_refused_by_verify_and_install(tmp_path: Path, monkeypatch) -> None:
    """An archive an older host built (the rule switched off in-process to make one): the real
    ``lw pack verify`` and ``lw pack install`` refuse it, and the data dir stays as it was."""
    from lw_panels import pack_kinds

    from lwcore.kernel import Kernel
    from lwcore.pack.build import build_pack

    monkeypatch.setattr(pack_kinds, "second_kit", lambda paths: None)
    archive = build_pack(Kernel(data_dir=tmp_path / "build-data", env={}), two_kits(tmp_path), tmp_path / "out").path
    monkeypatch.undo()
    home = tmp_path / "data"
    home.mkdir()
    assert lw(home, "pack", "list").returncode == 0
    before = tree(home)
    for args in (("pack", "verify", str(archive)), ("pack", "install", str(archive), "--yes")):
        run = lw(home, *args)
        assert run.returncode == 1 and "Traceback" not in run.stderr
        assert "contents.presentation lists 2 kits" in run.stderr, run.stderr
    assert tree(home) == before
