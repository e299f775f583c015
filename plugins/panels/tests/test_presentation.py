"""Presentation kits (M19): the v2 file validated and located, a room's kit from its enabled
packs (any pack_only stops generation, templates intersect), and a stage director through
``lw_stage_directors``, checked against the kit and never woken without one."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from panels_testkit import load, png, say, write_pack

from lw_panels.load import load_pack
from lw_panels.manifest import room_packs
from lw_panels.packs import dev_mounts, read_home
from lw_panels.presentation import check_performance, room_kit, stage
from lw_panels.stage_view import stage_for, stage_text
from lwcore.contributions import StageBeat, StageDirector
from lwcore.errors import LwError, LwErrors
from lwcore.hookspecs import hookimpl
from lwcore.kernel import Kernel
from lwcore.plugins import InProcessPlugin

PANELS = "panels:\n  - {id: a, title: A, slot: tray, blocks: [{kind: divider}]}\n"
KIT = """\
version: 2
generation: GENERATION
templates: TEMPLATES
style:
  keywords: {en: ink wash, zh: 水墨}
  banned: [text overlays]
  palette: ["#16232e", wet slate blue]
subjects:
  - {id: gu, kind: npc, name: {en: Gu Wantang, zh: 顾晚棠}, ref: art/gu.png, prompt: a woman in a dark coat}
  - {id: nameless, kind: npc, name: {en: The stranger}}
audio:
  - {id: tide, layer: bgm, asset: art/tide.mp3, title: {zh: 潮涌}}
"""
FILES = {"art/gu.png": png(), "art/tide.mp3": b"ID3\x03\x00\x00\x00\x00\x00\x00"}


def kit_pack(tmp_path: Path, name: str, generation: str = "allow", templates: str = "[title_card, letter, image]") -> Path:
    return write_pack(tmp_path / name, PANELS, pack_id=name, files=FILES,
                      presentation=KIT.replace("GENERATION", generation).replace("TEMPLATES", templates))


def test_a_kit_loads_with_content_addresses(tmp_path: Path) -> None:
    pack = load_pack(read_home(kit_pack(tmp_path, "one"), dev=True))
    data = pack.kit.to_data()
    assert data["subjects"][0]["ref"]["mime"] == "image/png" and data["subjects"][1]["ref"] is None
    assert data["audio"][0]["asset"]["mime"] == "audio/mpeg"


BAD_KITS = {
    "version 1": ("version: 2", "version: 1", "version", 1),
    "generation": ("generation: allow", "generation: always", "generation", 2),
    "template": ("templates: [title_card, letter, image]", "templates: [movie]", "templates", 3),
    "subject kind": ("kind: npc, name: {en: Gu", "kind: god, name: {en: Gu", "kind", 9),
    "palette": ('palette: ["#16232e", wet slate blue]', 'palette: ["#zzz"]', "palette", 7),
    "unknown key": ("audio:\n", "music: []\naudio:\n", "music", 11),
    "ref outside": ("ref: art/gu.png", "ref: ../gu.png", "inside the pack", 9),
    "ref not a picture": ("ref: art/gu.png", "ref: art/tide.mp3", "not a PNG", 9),
    "cue not audio": ("asset: art/tide.mp3", "asset: art/gu.png", "not an audio file", 12),
}


@pytest.mark.parametrize("name", sorted(BAD_KITS))
def test_bad_kits_are_located(tmp_path: Path, name: str) -> None:
    old, new, words, line = BAD_KITS[name]
    folder = kit_pack(tmp_path, "bad")
    path = folder / "ui" / "presentation.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    with pytest.raises(LwError) as caught:
        load_pack(read_home(folder, dev=True))
    problems = caught.value.errors if isinstance(caught.value, LwErrors) else [caught.value]
    hit = next((p for p in problems if words in str(p)), None)
    assert hit is not None, [str(p) for p in problems]
    assert hit.file.endswith("presentation.yaml") and hit.line == line, str(hit)


def enable(kernel: Kernel, room: Path, *folders: Path) -> dict:
    for folder in folders:
        dev_mounts(kernel).mount(folder)
        say(kernel, room, f".panels enable {read_home(folder, dev=True).id}", "kp")
    loaded = load(kernel, room)
    return room_kit([p.kit for p in room_packs(loaded).packs if p.kit], "zh")


def test_a_rooms_kit_is_what_its_packs_allow_together(kernel: Kernel, room: Path, tmp_path: Path) -> None:
    kit = enable(kernel, room, kit_pack(tmp_path, "one"))
    assert kit["generation"] == "allow" and kit["templates"] == ["image", "title_card", "letter"]
    assert [(s["id"], s["generate"], s["name"]) for s in kit["subjects"]] == [
        ("one/gu", True, "顾晚棠"), ("one/nameless", False, "The stranger")]  # no ref: never generated
    kit = enable(kernel, room, kit_pack(tmp_path, "two", "pack_only", "[letter, text, image]"))
    assert kit["generation"] == "pack_only" and kit["templates"] == ["image", "letter"]
    assert not any(s["generate"] for s in kit["subjects"])  # one pack_only stops it for the room
    assert kit["style"]["one"]["keywords"] == "水墨" and kit["audio"][1]["id"] == "two/tide"


def test_a_room_without_a_kit_wakes_no_director(kernel: Kernel, room: Path, tmp_path: Path) -> None:
    assert enable(kernel, room, write_pack(tmp_path / "plain", PANELS, pack_id="plain")) is None
    assert stage(kernel, load(kernel, room), "scene", kit=None) == ([], [])


def director_kernel(tmp_path: Path, answer: list, beats: list) -> Kernel:
    def direct(beat: StageBeat) -> list:
        beats.append(beat)
        return answer

    @hookimpl
    def lw_stage_directors(register):  # noqa: ANN001, ANN202
        register(StageDirector("house", direct))

    plugin = InProcessPlugin({"id": "house-director", "version": "1", "tier": "code", "provides": ["director"]},
                             SimpleNamespace(lw_stage_directors=lw_stage_directors))
    return Kernel(data_dir=tmp_path / "d", env={}, plugins=[plugin])


def test_a_director_is_held_to_the_kit(tmp_path: Path, room: Path) -> None:
    answer = [
        {"kind": "title_card", "title": {"en": "Act II", "zh": "第二幕"}, "subtitle": "雾港"},
        {"kind": "letter", "from": "周伯年", "body": "灯在水下亮着。"},
        {"kind": "clipping", "headline": "渔船归港", "body": "无人"},  # not in the room's templates
        {"kind": "image", "subject": "one/gu"},  # generated from its reference: allowed here
        {"kind": "image", "subject": "one/nameless"},  # no reference: never
        {"kind": "image", "subject": "ghost/x"},
        {"kind": "audio", "cue": "one/tide"},
        {"kind": "video", "src": "x"},
    ]
    beats: list[StageBeat] = []
    kernel = director_kernel(tmp_path, answer, beats)
    kit = enable(kernel, room, kit_pack(tmp_path, "one"))
    shown, refused = stage(kernel, load(kernel, room), "scene", kit=kit, facts={"recap": "x"}, locale="zh")
    assert beats[0].kind == "scene" and beats[0].kit == kit and beats[0].facts == {"recap": "x"}
    assert [b["kind"] for b in shown] == ["title_card", "letter", "image", "audio"]
    assert shown[0]["title"] == {"en": "Act II", "zh": "第二幕"} and shown[2]["subject"] == "one/gu"
    lines = stage_text(stage_for(shown[:2], "zh", lambda sha: None), "zh").splitlines()
    assert lines == ["【第二幕 · 雾港】", "[信: 周伯年]", "> 灯在水下亮着。"]
    assert len(refused) == 4 and any("no reference image" in r for r in refused)
    assert any("does not allow clipping" in r for r in refused)


def test_pack_only_refuses_generation(tmp_path: Path) -> None:
    kit = {"templates": ["image"], "generation": "pack_only", "audio": [],
           "subjects": [{"id": "p/gu", "generate": False, "ref": {"hash": "c" * 64}, "name": "Gu"}]}
    block, why = check_performance({"kind": "image", "subject": "p/gu"}, kit)
    assert block is None and "pack_only" in why
    block, why = check_performance({"kind": "image", "hash": "c" * 64}, kit)  # the pack's own art is fine
    assert why is None
    assert check_performance({"kind": "image", "hash": "d" * 64}, kit)[1] == "a picture by hash must be one of the kit's own"


def test_a_failing_director_loses_its_beat_only(tmp_path: Path, room: Path) -> None:
    kernel = director_kernel(tmp_path, None, [])  # type: ignore[arg-type]

    def boom(beat: StageBeat) -> list:
        raise RuntimeError("no budget")

    kit = enable(kernel, room, kit_pack(tmp_path, "one"))
    object.__setattr__(kernel.stage_directors["house"], "direct", boom)
    shown, refused = stage(kernel, load(kernel, room), "scene", kit=kit)
    assert shown == [] and refused == ["house: failed"]
    assert "no budget" in " ".join(kernel.plugin("house-director").errors)
