"""The stage director on a scripted session (M19): the bundled director, the Blackmoor kit, a
real web table playing recorded turns, and a loopback image provider speaking the OpenAI Images
wire format.

Each beat kind stages its form (a quiet turn nothing, a scene a picture and its ambience, an
act a title card, an artefact a letter, a fumble a title card and a sound); warm-up prepares a
picture on the quiet turn before the beat that shows it; the reference picture, the style, the
palette and the banned list travel in every request; the budget stops generation (the kit's
own art is shown instead); a subject without a reference is never requested; a ``pack_only``
pack stops it for the whole room; a room without a kit never wakes a director; no keeper-only
text is ever staged; plain clients read what was staged in the history (``lw turn --view --json``).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner
from panels_testkit import KEEPER_TEXTS, write_pack
from stage_testkit import (
    BLACKMOOR,
    EXTRA_VARIABLES,
    GENERATED,
    KEEPER_SCENE,
    ImageServer,
    director_env,
    replies,
    reply,
    set_var,
    stage_room,
)

from lw_panels.pictures import PictureStore
from lw_panels.serve.table import Table, TurnSource
from lwcore.contributions import StageBeat, StageDirector
from lwcore.hookspecs import hookimpl
from lwcore.kernel import Kernel
from lwcore.plugins import InProcessPlugin
from lwcore.turn.room import Room
from lwcore.turn.view import view_for

CHAPEL = (BLACKMOOR / "ui" / "art" / "chapel.png").read_bytes()
MAP_SHA = hashlib.sha256((BLACKMOOR / "ui" / "art" / "fen-map.png").read_bytes()).hexdigest()
CHAPEL_PROMPT = "a half-sunk stone chapel in a peat fen, its spire leaning, reeds to the windows"
ZHOU_PROMPT = "a young surveyor of the provincial bureau, 1920s field uniform, a theodolite on his shoulder"
FUMBLE_SEED = 2
"""A table seed whose first d100 is a fumble for p2's 侦查 45 (checked in the test)."""


@pytest.fixture
def images():  # noqa: ANN201
    server = ImageServer()
    yield server
    server.close()


def table_for(kernel: Kernel, room: Path, *items: dict, seed: int = 5) -> Table:
    return Table(kernel, room, TurnSource(replies(*items), provider="anthropic_messages"), seed=seed)


def play(table: Table, member: str, text: str) -> None:
    seat = next(s for s in table.seats.values() if s.member == member)
    table.act(seat, text)


def staged_words(table: Table) -> str:
    return json.dumps(table.staged, ensure_ascii=False)


def test_a_scripted_session_stages_each_beat_under_the_kits_discipline(tmp_path: Path, room: Path,
                                                                       images: ImageServer) -> None:
    kernel = Kernel(data_dir=tmp_path / "data", env=director_env(images.url, budget=2))
    stage_room(kernel, room, tmp_path)
    table = table_for(
        kernel, room,
        reply("雾散了一些，你们看见沼泽深处那座沉没的礼拜堂的尖顶。"),  # a quiet turn naming the chapel
        reply("你们涉水走近。", set_var("scene", "沉没的礼拜堂"), set_var("keeper_scene", KEEPER_SCENE)),
        reply("钟声停了。", set_var("act", "第二幕")),
        reply("门缝里夹着一封信。", set_var("artifact_letter", "妹妹：第三条水道是干的，别等我。——周衡")),
        reply("你们回到地图前。", set_var("scene", "沼泽地图")),
        reply("你们翻开一本泡胀的测绘手册。", set_var("scene", "测绘手册")),
    )
    # 1. a quiet turn: nothing staged, but the chapel it names is prepared ahead of its beat
    play(table, "p1", "我们看看四周。")
    assert table.staging.beats == ["turn"] and table.staged == []
    assert table.staging.prepared == ["blackmoor/chapel"] and images.subjects() == [CHAPEL_PROMPT]
    sent = images.requests[0]
    assert sent["path"] == "/v1/images/edits" and sent["auth"] == "Bearer sk-test" and sent["n"] == "1"
    assert sent["image"] == CHAPEL  # the reference picture travels with the request
    prompt = sent["prompt"]
    assert "水墨" in prompt and "#2b2a22, peat brown, reed gold, slate blue" in prompt
    assert "Never include: text overlays, modern clothing, gore" in prompt

    # 2. the scene beat: the prepared picture, no new request; the ambience cue; the keeper's change stages nothing
    play(table, "p1", "走近礼拜堂。")
    assert table.staging.beats == ["scene"]
    picture, cue = table.staged
    assert picture["kind"] == "image" and picture["generated"] == hashlib.sha256(GENERATED).hexdigest()
    assert picture["caption"] == "沉没的礼拜堂" and len(images.requests) == 1
    assert cue == {"kind": "audio", "cue": "blackmoor/reeds", "layer": "ambience",
                   "title": {"en": "Wind in the reeds", "zh": "芦苇风声"},
                   "hash": hashlib.sha256((BLACKMOOR / "ui/art/reeds.wav").read_bytes()).hexdigest(), "mime": "audio/wav"}
    assert KEEPER_SCENE not in staged_words(table)

    # 3. the act turns: a title card with the scene the players are in
    play(table, "p2", "We wait.")
    assert table.staging.beats == ["act"]
    assert table.staged == [{"kind": "title_card", "title": "沉没的礼拜堂", "act": "第二幕"}]

    # 4. an artefact: a letter in the players' words; the Zhou Heng it names is warmed up (budget: 2 of 2)
    play(table, "p1", "拆开信。")
    assert table.staging.beats == ["artifact"]
    assert table.staged == [{"kind": "letter", "body": "妹妹：第三条水道是干的，别等我。——周衡"}]
    assert table.staging.prepared == ["blackmoor/zhou-heng"] and images.subjects() == [CHAPEL_PROMPT, ZHOU_PROMPT]
    assert images.requests[1]["image"] == (BLACKMOOR / "ui/art/surveyor.png").read_bytes()

    # 5. the budget is spent: the map is shown as the kit's own art, nothing is asked for
    play(table, "p2", "Back to the map.")
    assert [e.get("hash") for e in table.staged if e["kind"] == "image"] == [MAP_SHA]
    assert len(images.requests) == 2 and any("budget" in note for note in table.staging.refused)
    assert PictureStore(room).spent == 2

    # 6. a subject without a reference is never requested: the survey book is a pin on the map
    play(table, "p1", "翻开手册。")
    assert [e["kind"] for e in table.staged] == ["map_pin", "audio"]
    assert table.staged[0] == {"kind": "map_pin", "label": "测绘手册", "map": MAP_SHA}
    assert images.subjects() == [CHAPEL_PROMPT, ZHOU_PROMPT]  # never the survey book

    # no keeper-only text was staged, and plain clients read it all in the history
    result = CliRunner().invoke(_lw(), ["--data-dir", str(tmp_path / "data"), "turn", str(room), "--as", "p2",
                                        "--view", "--json"], env={"LW_DEV_PACKS": ""})
    assert result.exit_code == 0, result.output
    history = json.loads(result.output)["player_view"]["history"]
    staged = [line["text"] for line in history if line["role"] == "event" and line["text"].startswith(("[", "【"))]
    assert "【第二幕 · 沉没的礼拜堂】" in staged and "[信]\n> 妹妹：第三条水道是干的，别等我。——周衡" in staged
    assert "[图: 沉没的礼拜堂]\n[♪ 芦苇风声 (ambience)]" in staged
    assert not [s for s in (*KEEPER_TEXTS, KEEPER_SCENE) if s in result.output]


def test_an_extreme_roll_stages_a_title_card_and_a_sound(tmp_path: Path, room: Path, images: ImageServer) -> None:
    kernel = Kernel(data_dir=tmp_path / "data", env=director_env(images.url))
    stage_room(kernel, room, tmp_path)
    check = ("skill_check", {"character": "p2", "skill": "侦查", "reason": "在礼拜堂里搜寻"})
    table = table_for(kernel, room, reply("骰子落下。", check), seed=FUMBLE_SEED)
    play(table, "p2", "I search the chapel.")
    assert table.staging.beats == ["extreme_roll"], "the seed no longer rolls a fumble: pick another"
    card, sound = table.staged
    assert card["kind"] == "title_card" and card["subtitle"].endswith("侦查") and card["title"]
    assert sound["kind"] == "audio" and sound["cue"] == "blackmoor/bell" and sound["layer"] == "sfx"


def test_pack_only_anywhere_stops_generation_for_the_whole_room(tmp_path: Path, room: Path,
                                                                images: ImageServer) -> None:
    kernel = Kernel(data_dir=tmp_path / "data", env=director_env(images.url, budget=10, prefetch=5))
    veto = write_pack(tmp_path / "veto", "panels:\n  - {id: a, title: A, slot: tray, blocks: [{kind: divider}]}\n",
                      pack_id="veto", presentation="version: 2\ngeneration: pack_only\n")
    stage_room(kernel, room, tmp_path, veto)
    table = table_for(kernel, room, reply("远处是沉没的礼拜堂，还有周衡的营地。"),
                      reply("你们到了。", set_var("scene", "沉没的礼拜堂")))
    play(table, "p1", "看。")
    play(table, "p1", "走。")
    assert images.requests == [] and table.staging.prepared == []
    picture = next(e for e in table.staged if e["kind"] == "image")
    assert picture["hash"] == hashlib.sha256(CHAPEL).hexdigest() and "generated" not in picture  # the pack's own art
    assert not (room / "director").exists()


def test_a_failing_provider_degrades_to_the_kits_art(tmp_path: Path, room: Path, images: ImageServer) -> None:
    images.status = 500
    kernel = Kernel(data_dir=tmp_path / "data", env=director_env(images.url, budget=3))
    stage_room(kernel, room, tmp_path)
    table = table_for(kernel, room, reply("你们到了。", set_var("scene", "沉没的礼拜堂")))
    play(table, "p1", "走。")
    picture = next(e for e in table.staged if e["kind"] == "image")
    assert picture["hash"] == hashlib.sha256(CHAPEL).hexdigest()
    assert any("HTTP 500" in note for note in table.staging.refused) and PictureStore(room).spent == 1


@pytest.mark.parametrize("fault", ["not a picture", "no key"])
def test_a_bad_answer_or_no_key_degrades_to_the_kits_art(tmp_path: Path, room: Path, images: ImageServer,
                                                         fault: str) -> None:
    env = director_env(images.url, budget=3)
    if fault == "no key":
        env.pop("OPENAI_API_KEY")
    images.picture = b"<html>not a picture</html>"
    kernel = Kernel(data_dir=tmp_path / "data", env=env)
    stage_room(kernel, room, tmp_path)
    table = table_for(kernel, room, reply("你们到了。", set_var("scene", "沉没的礼拜堂")))
    play(table, "p1", "走。")
    assert table.staged[0]["hash"] == hashlib.sha256(CHAPEL).hexdigest() and "generated" not in table.staged[0]
    why = "not a PNG, JPEG or WebP" if fault == "not a picture" else "set OPENAI_API_KEY"
    assert any(why in note for note in table.staging.refused), table.staging.refused
    assert len(images.requests) == PictureStore(room).spent == (1 if fault == "not a picture" else 0)


@pytest.mark.parametrize("spent", [-1000, True, 1.5])
def test_a_ledger_that_owes_pictures_counts_as_spent(tmp_path: Path, room: Path, images: ImageServer,
                                                     spent: object) -> None:
    """Attacker's X5: a room folder (copied from someone's template with lw room create --from)
    may bring its own director/ledger.json; a negative count was budget the operator never gave."""
    kernel = Kernel(data_dir=tmp_path / "data", env=director_env(images.url, budget=3))
    stage_room(kernel, room, tmp_path)
    (room / "director").mkdir(exist_ok=True)
    (room / "director" / "ledger.json").write_text(json.dumps({"spent": spent, "pictures": {}}), encoding="utf-8")
    table = table_for(kernel, room, reply("你们到了。", set_var("scene", "沉没的礼拜堂")))
    play(table, "p1", "走。")
    assert images.requests == [] and table.staged[0]["hash"] == hashlib.sha256(CHAPEL).hexdigest()
    assert any("budget (3) is spent" in note for note in table.staging.refused), table.staging.refused


def test_a_room_without_players_stages_nothing_of_the_keepers(tmp_path: Path, room: Path, images: ImageServer) -> None:
    """Attacker's X8: the director's facts were the view of the room's first player -- or, in a
    room with no player yet, the keeper's. A keeper preparing the room alone had a keeper-only
    scene put on a title card and kept in the history for every player, seated later with lw
    seat add, to read."""
    kernel = Kernel(data_dir=tmp_path / "data", env=director_env(images.url, budget=2))
    stage_room(kernel, room, tmp_path)
    variables = room / "variables.yaml"
    text = variables.read_text(encoding="utf-8")
    variables.write_text(text.replace("  - id: scene\n    kind: text\n    visibility: player",
                                      "  - id: scene\n    kind: text\n    visibility: keeper"), encoding="utf-8")
    yaml_text = (room / "room.yaml").read_text(encoding="utf-8")
    start, end = yaml_text.index("players:"), yaml_text.index("config:")
    (room / "room.yaml").write_text(yaml_text[:start] + "players: []\n" + yaml_text[end:], encoding="utf-8")
    table = table_for(kernel, room, reply("钟声停了。", set_var("scene", KEEPER_SCENE), set_var("act", "第二幕")))
    play(table, "kp", "第二幕开始。")
    assert table.staging.beats == ["act"] and table.staged, table.staging
    assert KEEPER_SCENE not in staged_words(table)
    history = Room.load(room, kernel).history.all()
    shared = json.dumps([e.text for e in history if getattr(e, "audience", "all") == "all"], ensure_ascii=False)
    assert "第二幕" in staged_words(table) and KEEPER_SCENE not in shared


def test_warm_up_is_bounded_by_the_prefetch_setting(tmp_path: Path, room: Path, images: ImageServer) -> None:
    kernel = Kernel(data_dir=tmp_path / "data", env=director_env(images.url, budget=3, prefetch=0))
    stage_room(kernel, room, tmp_path)
    table = table_for(kernel, room, reply("沉没的礼拜堂和周衡。"), reply("到了。", set_var("scene", "沉没的礼拜堂")))
    play(table, "p1", "看。")
    assert images.requests == [] and table.staging.prepared == []  # nothing ahead
    play(table, "p1", "走。")
    assert images.subjects() == [CHAPEL_PROMPT] and table.staged[0]["generated"]  # drawn when its beat came


def test_no_spending_by_default(tmp_path: Path, room: Path, images: ImageServer) -> None:
    kernel = Kernel(data_dir=tmp_path / "data", env={"TRPG_DIRECTOR__IMAGE_PROVIDER": "openai_images",
                                                     "TRPG_DIRECTOR__IMAGE_ENDPOINT": images.url})
    stage_room(kernel, room, tmp_path)
    table = table_for(kernel, room, reply("沉没的礼拜堂。"), reply("到了。", set_var("scene", "沉没的礼拜堂")))
    play(table, "p1", "看。")
    play(table, "p1", "走。")
    assert images.requests == [] and table.staged[0]["hash"] == hashlib.sha256(CHAPEL).hexdigest()


def test_a_room_without_a_kit_never_wakes_a_director(tmp_path: Path, room: Path, images: ImageServer) -> None:
    woken: list[StageBeat] = []

    def direct(beat: StageBeat) -> list:
        woken.append(beat)
        return [{"kind": "text", "text": "x"}]

    @hookimpl
    def lw_stage_directors(register):  # noqa: ANN001, ANN202
        register(StageDirector("spy", direct))

    spy = InProcessPlugin({"id": "spy-director", "version": "1", "tier": "code", "provides": ["director"]},
                          SimpleNamespace(lw_stage_directors=lw_stage_directors))
    kernel = Kernel(data_dir=tmp_path / "data", env=director_env(images.url, budget=5), plugins=[spy])
    variables = room / "variables.yaml"
    variables.write_text(variables.read_text(encoding="utf-8") + EXTRA_VARIABLES, encoding="utf-8")
    table = table_for(kernel, room, reply("沉没的礼拜堂。", set_var("scene", "沉没的礼拜堂"), set_var("act", "第二幕")))
    play(table, "p1", "走。")
    assert woken == [] and table.staged == [] and table.staging.beats == [] and images.requests == []
    assert not (room / "director").exists()


def test_bad_director_settings_are_refused_by_name(tmp_path: Path, room: Path, images: ImageServer) -> None:
    kernel = Kernel(data_dir=tmp_path / "data", env={**director_env(images.url), "TRPG_DIRECTOR__ROOM_BUDGET": "lots"})
    stage_room(kernel, room, tmp_path)
    table = table_for(kernel, room, reply("到了。", set_var("scene", "沉没的礼拜堂")))
    play(table, "p1", "走。")
    assert images.requests == [] and any("TRPG_DIRECTOR__ROOM_BUDGET" in r for r in table.staging.refused)


def _lw():  # noqa: ANN202
    from lwcore.cli import lw

    return lw


def test_a_regenerated_turn_keeps_its_own_staging_in_the_history(tmp_path: Path, room: Path) -> None:
    kernel = Kernel(data_dir=tmp_path / "data", env={})
    stage_room(kernel, room, tmp_path)
    table = table_for(kernel, room, reply("到了。", set_var("scene", "沉没的礼拜堂")),
                      reply("再来。", set_var("act", "第二幕")))
    play(table, "p1", "走。")
    keeper = next(s for s in table.seats.values() if s.keeper)

    def staged_lines() -> list[str]:
        history = view_for(Room.load(room, kernel), "p1").history
        return [line.text for line in history if line.text.startswith(("[", "【"))]

    assert staged_lines() == ["[图: 沉没的礼拜堂]\n[♪ 芦苇风声 (ambience)]"]
    table.control(keeper, {"action": "regenerate"}).result()
    assert table.staging.beats == ["act"] and staged_lines() == ["【第二幕 · 码头】"]
    table.control(keeper, {"action": "choose", "number": 1}).result()
    assert staged_lines() == ["[图: 沉没的礼拜堂]\n[♪ 芦苇风声 (ambience)]"] and table.staged == []
