"""lw pack build: every file through its real parser, every error at once, the built manifest,
byte-determinism."""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
from pathlib import Path

import pytest
import yaml

from lwcore.errors import LwError, LwErrors
from lwcore.kernel import Kernel
from lwcore.pack import manifest as manifest_module
from lwcore.pack.build import build_pack
from lwcore.pack.verify import verify_pack



def test_the_built_manifest_records_inventory_detection_and_trust(kernel: Kernel, tmp_path: Path, example) -> None:
    src = example(tmp_path / "blackmoor")
    built = build_pack(kernel, src, tmp_path / "out")
    assert built.path.name == "blackmoor-1.0.0.lwpack"
    with zipfile.ZipFile(built.path) as z:
        names = z.namelist()
        data = yaml.safe_load(z.read("pack.yaml"))
    assert names == ["art/map.png", "cards/blackmoor.lorecard.json", "prep/setup.js", "rules/blackmoor.yaml",
                     "skills/fen-guide/SKILL.md", "skills/fen-guide/hooks.js", "skills/fen-guide/references/channels.md",
                     "ui/art/bell.wav", "ui/art/chapel.png", "ui/art/fen-map.png", "ui/art/reeds.wav",
                     "ui/art/surveyor.png", "ui/art/village.svg", "ui/panels.yaml", "ui/presentation.yaml",
                     "pack.yaml"]  # room/, replies/, README.md: not declared
    assert data["manifest_version"] == 2
    files = {f["path"]: f for f in data["files"]}
    for name in names[:-1]:
        body = (src / name).read_bytes()
        assert files[name] == {"path": name, "size": len(body), "sha256": hashlib.sha256(body).hexdigest()}
    card = data["contents"]["cards"][0]
    assert card["detected"] == {"container": "json", "format": "lorecard-v1", "kind": "world"}
    assert card["handles"] == ["channels", "drowned-chapel", "ferryman", "the-surveyor"]
    assert data["contents"]["rulepacks"][0] == {"path": "rules/blackmoor.yaml", "id": "blackmoor",
                                                 "detected": {"extends": "coc7"}}
    assert data["assets"] == [{"path": "art/map.png", "mime": "image/png"}]
    assert data["contents"]["skills"][0]["files"] == names[4:7]
    assert data["contents"]["panels"][0]["files"] == ["ui/art/village.svg"]
    assert data["contents"]["panels"][0]["detected"] == {"panels": 2, "tier2": 0}
    kit = data["contents"]["presentation"][0]
    assert kit["files"] == names[7:12] and kit["detected"] == {"cues": 2, "generation": "allow", "subjects": 4}
    assert data["trust"] == {"counts": {"cards": 1, "panels": 1, "prep": 1, "presentation": 1, "rulepacks": 1,
                                        "skills": 1},
                             "world_cards": 1, "has_hooks": True, "has_ejs": False, "has_rules_script": False,
                             "prep_scripts": 1, "presets": 0, "panels": 2, "presentation_subjects": 4,
                             "imagegen": True, "assets": 1,
                             "asset_bytes": (src / "art/map.png").stat().st_size}


def _scramble(root: Path, *, when: int, mode: int) -> None:
    for path in sorted(root.rglob("*")):
        if path.is_file():
            path.chmod(mode)
            os.utime(path, (when, when))


def test_two_builds_in_two_places_with_other_mtimes_and_umask_are_identical(kernel: Kernel, tmp_path: Path, example) -> None:
    a = example(tmp_path / "a" / "somewhere")
    b = example(tmp_path / "b" / "elsewhere" / "deeper")
    _scramble(a, when=86_400, mode=0o600)
    _scramble(b, when=2_000_000_000, mode=0o755)
    old = os.umask(0o077)
    try:
        first = build_pack(kernel, a, tmp_path / "out-a")
    finally:
        os.umask(0o002)
    try:
        second = build_pack(kernel, b, tmp_path / "out-b")
    finally:
        os.umask(old)
    assert first.sha256 == second.sha256 == hashlib.sha256(second.path.read_bytes()).hexdigest()
    assert first.path.read_bytes() == second.path.read_bytes()
    assert first.path.stat().st_mode & 0o777 == 0o600 and second.path.stat().st_mode & 0o777 == 0o664
    with zipfile.ZipFile(first.path) as z:
        for info in z.infolist():
            assert info.date_time == (1980, 1, 1, 0, 0, 0) and info.external_attr >> 16 == 0o100644
            assert info.compress_type == zipfile.ZIP_STORED and info.create_system == 3


def test_a_changed_byte_changes_the_sha256(kernel: Kernel, tmp_path: Path, example) -> None:
    src = example(tmp_path / "src")
    first = build_pack(kernel, src, tmp_path / "one").sha256
    (src / "art" / "map.png").write_bytes((src / "art" / "map.png").read_bytes() + b"\0")
    assert build_pack(kernel, src, tmp_path / "two").sha256 != first


def test_every_problem_is_reported_at_once_and_located(kernel: Kernel, tmp_path: Path, write) -> None:
    src = write(tmp_path / "src", files={
        "rules/fen.yaml": "extends: coc7\nderived:\n  bog: {expr: \"沼泽知识 +\"}\n",  # a broken expression, line 3
        "cards/mira.json": '{"spec": "chara_card_v2", "data": {"name": 5}}',  # a wrong type
        "rules/other.yaml": "extends: nowhere\n",                             # unknown parent, line 1
    }, contents="contents:\n  rulepacks: [rules/fen.yaml, rules/other.yaml]\n  cards: [cards/mira.json, cards/gone.json]\n")
    with pytest.raises(LwErrors) as caught:
        build_pack(kernel, src, tmp_path / "out")
    errors = caught.value.errors
    text = str(caught.value)
    assert len(errors) == 4, text
    assert any(e.file and e.file.endswith("rules/fen.yaml") and e.line == 3 for e in errors), text
    assert any(e.file and e.file.endswith("rules/other.yaml") and e.line == 1 and "nowhere" in e.message for e in errors), text
    assert any(e.file and e.file.endswith("cards/mira.json") and e.line == 1 and "name" in e.message for e in errors), text
    assert any(e.file and e.file.endswith("cards/gone.json") and "not found" in e.message for e in errors), text
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(("extra", "words"), [
    ("trust: {counts: {}}\n", "trust: is generated"),
    ("files: []\n", "files: is generated"),
    ("manifest_version: 3\n", "newer than this engine reads"),
    ("manifest_version: 1\n", "cannot be upgraded"),
])
def test_a_source_manifest_cannot_claim_what_the_build_generates(kernel: Kernel, tmp_path: Path, extra: str, words: str, write) -> None:
    src = write(tmp_path / "src", extra=extra)
    with pytest.raises(LwError, match=words) as caught:
        build_pack(kernel, src, tmp_path / "out")
    assert caught.value.line is not None


def test_a_registered_migration_lifts_an_older_manifest(kernel: Kernel, tmp_path: Path, monkeypatch, write) -> None:
    def from_v1(doc: dict) -> dict:
        doc = dict(doc)
        doc["contents"] = {("worldbooks" if k == "lorebooks" else k): v for k, v in doc["contents"].items()}
        return doc

    monkeypatch.setitem(manifest_module.MIGRATIONS, 1, from_v1)
    src = write(tmp_path / "src", files={"books/fen.json": json.dumps({"entries": {"0": {"uid": 0, "key": ["fen"], "content": "Mud."}}})},
                       contents="manifest_version: 1\ncontents:\n  lorebooks: [books/fen.json]\n")
    built = build_pack(kernel, src, tmp_path / "out")
    assert built.manifest.manifest_version == 2 and built.manifest.trust.counts == {"worldbooks": 1}


def test_a_kind_no_plugin_validates_is_refused_naming_the_plugin(tmp_path: Path, write) -> None:
    src = write(tmp_path / "src")
    off = Kernel(data_dir=tmp_path / "data", env={}, disabled={"tavern"})
    with pytest.raises(LwError) as caught:
        build_pack(off, src, tmp_path / "out")
    assert "contents.cards" in str(caught.value) and "plugin 'tavern' validates it but is disabled" in str(caught.value)
    assert "lw plugins enable tavern" in str(caught.value) and caught.value.line == 9
    unknown = write(tmp_path / "src2", files={"skills/x/SKILL.md": "---\nname: x\n---\nhi\n"},
                           contents="contents:\n  skill: [skills/x]\n")
    with pytest.raises(LwError, match=r"contents.skill: no installed plugin validates this kind.*did you mean 'skills'"):
        build_pack(Kernel(data_dir=tmp_path / "data", env={}), unknown, tmp_path / "out")


def test_files_outside_the_pack_links_and_bad_names_are_refused(kernel: Kernel, tmp_path: Path, write) -> None:
    src = write(tmp_path / "src")
    (tmp_path / "secret.txt").write_text("no", encoding="utf-8")
    (src / "art" / "leak.png").symlink_to(tmp_path / "secret.txt")
    with pytest.raises(LwError, match="symbolic link"):
        build_pack(kernel, src, tmp_path / "out")
    (src / "art" / "leak.png").unlink()
    escape = write(tmp_path / "src2", contents="contents:\n  cards: [../secret.txt]\n")
    with pytest.raises(LwError, match=r"'\.\.' segment"):
        build_pack(kernel, escape, tmp_path / "out")
    clash = write(tmp_path / "src3", files={"art/Map.png": b"x", "art/map.png": b"y"})
    with pytest.raises(LwError, match="case-insensitive"):
        build_pack(kernel, clash, tmp_path / "out")
    folders = write(tmp_path / "src4", files={"art/Maps/a.png": b"x", "art/maps/b.png": b"y"})
    with pytest.raises(LwError, match="has the folder 'art/maps', which differs from 'art/Maps'") as caught:
        build_pack(kernel, folders, tmp_path / "out")
    assert caught.value.file == str(folders / "art/maps/b.png")


def test_two_items_landing_at_one_place_are_refused_at_build(kernel: Kernel, tmp_path: Path, write) -> None:
    """What the data dir cannot hold is refused where the author can fix it: two rulepacks whose
    scripts land at one place (exactly, or by case) under ``rulepacks/``."""
    example = Path(__file__).resolve().parents[1] / "rules" / "script_pack"
    files = {f"rules/{p.relative_to(example).as_posix()}": p.read_text(encoding="utf-8")
             for p in example.rglob("*") if p.is_file()}
    for folder, words in (("match", "the landing place appears more than once"),
                          ("Match", "has the folder 'rulepacks/Match', which differs from 'rulepacks/match'")):
        twin = files["rules/match.yaml"].replace('names: [match, "pair match"]', "names: [twin]").replace(
            "set_keys: [match]", "set_keys: [twin]").replace("match/", f"{folder}/")
        extra = {"other/twin.yaml": twin, f"other/{folder}/resolver.js": files["rules/match/resolver.js"],
                 f"other/{folder}/strain.js": files["rules/match/strain.js"]}
        src = write(tmp_path / f"src-{folder}", files={**files, **extra},
                    contents="contents:\n  rulepacks: [rules/match.yaml, other/twin.yaml]\n")
        with pytest.raises(LwErrors) as caught:
            build_pack(kernel, src, tmp_path / "out")
        assert words in str(caught.value)
        assert {e.file for e in caught.value.errors} == {str(src / f"other/{folder}/resolver.js"),
                                                         str(src / f"other/{folder}/strain.js")}


def test_two_items_cannot_ship_one_file_and_handles_are_unique(kernel: Kernel, tmp_path: Path, write) -> None:
    card = {"format": "loreweaver.card", "format_version": 1, "name": "A",
            "worldbook": [{"id": "well", "content": "A well.", "keys": ["well"]}]}
    src = write(tmp_path / "src", files={"cards/a.lorecard.json": json.dumps(card),
                                                "cards/b.lorecard.json": json.dumps(card)},
                       contents="contents:\n  cards: [cards/a.lorecard.json, cards/b.lorecard.json]\nassets: [cards/a.lorecard.json]\n")
    with pytest.raises(LwErrors) as caught:
        build_pack(kernel, src, tmp_path / "out")
    text = str(caught.value)
    assert "the handle fen#well is also defined by contents.cards[0]" in text
    assert "'cards/a.lorecard.json' is an asset and also shipped by contents.cards[0]" in text


def test_the_build_verifies_its_own_output(kernel: Kernel, tmp_path: Path, example) -> None:
    built = build_pack(kernel, example(tmp_path / "src"), tmp_path / "out")
    with verify_pack(kernel, built.path) as verified:
        assert verified.sha256 == built.sha256 and verified.manifest == built.manifest
