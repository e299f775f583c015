"""Imports into rooms (``.import``, ``lw tavern import``), the pregen roster (``.pc``), presets
(``.preset``), the MVU tools, and what players never see of any of it."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from lwcore.errors import LwError
from lwcore.kernel import Kernel
from lwcore.turn.compile import compile_turn
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room, room_lock
from lwcore.turn.view import view_for

from roomkit import EXAMPLE, FIXTURES, SAY, copy_room, files, import_into, recorded, request_text

BELL = FIXTURES / "bell-tower.world.json"
SECRETS = ("SECRET-TRUTH", "周伯年在灯塔下献祭", "水下的真相", "船长在北岬灯塔下的礁洞里", "船长的去向")


@pytest.fixture
def kernel(tmp_path: Path) -> Kernel:
    return Kernel(data_dir=tmp_path / "data", env={})


@pytest.fixture
def room_dir(tmp_path: Path) -> Path:
    room = copy_room(tmp_path / "room")
    shutil.copy(BELL, room / "bell.json")
    shutil.copy(FIXTURES / "ashen-stair.lorecard.json", room / "ashen.lorecard.json")
    shutil.copy(FIXTURES / "night-watch.preset.json", room / "night-watch.json")
    return room


def say(kernel: Kernel, room_dir: Path, line: str, who: str) -> str:
    result = run_turn(kernel, room_dir, line, actor=who)
    assert result.command is not None
    return result.command.reply.text


def docs(kernel: Kernel, room_dir: Path, kind: str) -> dict:
    return {d.id: d for d in Room.load(room_dir, kernel).documents.all(kind)}


# --- the example room -------------------------------------------------------------------------


def test_the_example_rooms_world_is_a_fresh_import_of_its_card(kernel: Kernel, tmp_path: Path) -> None:
    """The shipped docs/ are exactly what importing the shipped card gives (they never drift)."""
    bare = copy_room(tmp_path / "bare", with_docs=False)
    import_into(kernel, bare, bare / "cards" / "fog-harbor.world.json", "world", shown="cards/fog-harbor.world.json")
    for name in ("worldbook_entry", "worldbook_pack", "pregen"):
        assert (bare / "docs" / f"{name}.yaml").read_text(encoding="utf-8") == \
            (EXAMPLE / "docs" / f"{name}.yaml").read_text(encoding="utf-8"), name
    assert sorted(p.name for p in (bare / "docs").iterdir()) == sorted(p.name for p in (EXAMPLE / "docs").iterdir())
    assert (bare / "room.yaml").read_bytes() == (EXAMPLE / "room.yaml").read_bytes()


# --- world imports ----------------------------------------------------------------------------


def test_a_world_import_brings_the_world(kernel: Kernel, room_dir: Path) -> None:
    reply = say(kernel, room_dir, ".import bell.json world", "kp")
    assert "imported world" in reply or "已导入世界" in reply
    room = Room.load(room_dir, kernel)
    entries = [d for d in room.documents.all("worldbook_entry") if d.data["pack"] == "world:bell"]
    assert len(entries) == 13  # 14 entries less the declaration
    sources = {d.meta["source"] for d in entries}
    assert {"bell#pier", "bell#truth", "bell#3"} <= sources  # the author's id, else the uid
    assert all(d.id.startswith("e") and d.id != "pier" for d in entries)  # ids regenerated
    (truth,) = [d for d in entries if d.meta["source"] == "bell#truth"]
    assert truth.data["entry"]["secret"] is True  # the keeper's import keeps secret
    assert room.documents.get("mvu", "mvu").data["tree"]["雾港"] == {"潮位": [2, "0-5"], "钟声": 0}
    assert room.documents.get("mvu", "mvu").data["exposed"] == []  # hidden until the keeper exposes
    pack = room.documents.get("worldbook_pack", "world:bell")
    assert pack.data["hooks"] == ["on('turn_start', () => { incvar('雾港.钟声', 1); });"]
    assert [f.id for f in room.file.features] == ["tavern-mvu"]
    assert "钟楼守夜人" in {d.data["name"] for d in room.documents.all("pregen")}
    listing = say(kernel, room_dir, ".var list", "kp")
    assert "雾港.潮位 = 2（0-5）  [未公开]" in listing  # the kernel's .var: imported leaves hidden, described
    say(kernel, room_dir, ".var expose 雾港", "kp")
    assert "雾港.潮位 = 2（0-5）  [公开]" in say(kernel, room_dir, ".var list", "kp")
    assert [leaf.path for leaf in view_for(Room.load(room_dir, kernel), "p1").tree] == ["雾港.潮位", "雾港.钟声"]


def test_re_import_replaces_and_never_resets_progress(kernel: Kernel, room_dir: Path) -> None:
    from lwcore.turn import tree as mvu

    say(kernel, room_dir, ".import bell.json world", "kp")
    first = files(room_dir)
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        tree = mvu.tree_of(room)
        tree["雾港"]["潮位"] = [5, "0-5"]
        mvu.store_tree(room, tree)
        room.save()
    say(kernel, room_dir, ".import bell.json world", "kp")
    say(kernel, room_dir, ".import bell.json world", "kp")
    room = Room.load(room_dir, kernel)
    assert len([d for d in room.documents.all("worldbook_entry") if d.data["pack"] == "world:bell"]) == 13
    assert room.documents.get("worldbook_pack", "world:bell").data["hooks"] == [
        "on('turn_start', () => { incvar('雾港.钟声', 1); });"]  # replaced, not stacked
    assert [f.id for f in room.file.features] == ["tavern-mvu"]
    assert mvu.tree_of(room)["雾港"]["潮位"] == [5, "0-5"]  # progress kept
    from lwcore.turn.context import turn_context

    scripts, _ = kernel.turn_scripts(turn_context(room, room.member("p1"), SAY))
    assert len([s for s in scripts if s.plugin_id == "tavern"]) == 1
    assert files(room_dir)["docs/worldbook_entry.yaml"] == first["docs/worldbook_entry.yaml"]


def test_a_native_card_world_import(kernel: Kernel, room_dir: Path) -> None:
    reply = say(kernel, room_dir, ".import ashen.lorecard.json world", "kp")
    assert "2 module variable(s)" in reply
    room = Room.load(room_dir, kernel)
    assert room.variable("stairs_seen").value == 0 and room.variable("stairs_seen").visibility == "player"
    assert room.variable("true_floor").value == 4 and room.variable("true_floor").visibility == "keeper"
    sources = {d.meta["source"] for d in room.documents.all("worldbook_entry") if d.data["pack"] == "world:ashen"}
    assert {"ashen#stair-rule", "ashen#janitor"} <= sources
    assert len(room.documents.get("worldbook_pack", "world:ashen").data["hooks"]) == 2
    roster = {d.data["name"]: d for d in room.documents.all("pregen")}
    assert roster["值班员"].data["sheet"]["values"] == {"侦查": 60}
    assert "true_floor" not in view_for(room, "p1").to_json_text()


def sources(kernel: Kernel, room_dir: Path, pack: str) -> list[str]:
    """The handles of one import's entries, in the book's order."""
    room = Room.load(room_dir, kernel)
    return [d.meta["source"] for d in room.documents.all("worldbook_entry") if d.data["pack"] == pack]


def test_entries_without_ids_get_distinct_stable_handles(kernel: Kernel, room_dir: Path) -> None:
    shutil.copy(FIXTURES / "lantern-row.lorecard.json", room_dir / "lantern-row.lorecard.json")
    say(kernel, room_dir, ".import lantern-row.lorecard.json world", "kp")
    world = sources(kernel, room_dir, "world:lantern-row")
    assert sorted(world) == sorted(["lantern-row#0", "lantern-row#1~2", "lantern-row#1", "lantern-row#3",
                                    "lantern-row#4"])
    first = files(room_dir)["docs/worldbook_entry.yaml"]
    say(kernel, room_dir, ".import lantern-row.lorecard.json world", "kp")
    assert files(room_dir)["docs/worldbook_entry.yaml"] == first  # a re-import gives the same handles and ids
    say(kernel, room_dir, ".import lantern-row.lorecard.json", "p1")
    person = sources(kernel, room_dir, "pc:p1")
    assert sorted(person) == sorted(set(world) - {"lantern-row#3"})  # the secret one left out, the rest the same


REFERENCE = Path("/work/.mirror/1A7432+loreweaver/repo")


@pytest.mark.skipif(not REFERENCE.exists(), reason="the reference repository is not on this machine")
def test_the_reference_studio_export_imports_with_distinct_handles(kernel: Kernel, room_dir: Path) -> None:
    import subprocess

    text = subprocess.run(["git", "-C", str(REFERENCE), "show", "HEAD:tests/fixtures/studio_export.lorecard.json"],
                          capture_output=True, check=True).stdout
    (room_dir / "studio_export.lorecard.json").write_bytes(text)
    say(kernel, room_dir, ".import studio_export.lorecard.json world", "kp")
    world = sources(kernel, room_dir, "world:studio_export")
    assert sorted(world) == ["studio_export#0", "studio_export#1", "studio_export#2"]
    say(kernel, room_dir, ".import studio_export.lorecard.json world", "kp")
    assert sources(kernel, room_dir, "world:studio_export") == world
    say(kernel, room_dir, ".import studio_export.lorecard.json", "p1")
    assert sorted(sources(kernel, room_dir, "pc:p1")) == ["studio_export#0", "studio_export#2"]  # #1 is secret


def test_only_the_keeper_imports_a_world(kernel: Kernel, room_dir: Path) -> None:
    keeper_tools = compile_turn(kernel, room_dir, SAY, actor="kp").tool_names
    assert not any("import" in name for name in keeper_tools)  # never a model tool: a room command only
    before = files(room_dir)
    with pytest.raises(LwError, match="keeper only"):
        say(kernel, room_dir, ".import bell.json world", "p1")
    assert files(room_dir) == before


# --- person imports ---------------------------------------------------------------------------


def test_a_person_import_strips_the_world_and_names_no_secret(kernel: Kernel, room_dir: Path) -> None:
    reply = say(kernel, room_dir, ".import bell.json", "p2")
    assert "imported character: 钟楼守夜人" in reply
    assert "extensions.loreweaver_hooks: 1 hook script(s) not installed" in reply
    assert "keeper-only" not in reply and "守秘人专属" not in reply  # not even how many there were
    for secret in SECRETS:
        assert secret not in reply
    room = Room.load(room_dir, kernel)
    assert room.sheets["p2"].name == "钟楼守夜人" and "守夜人老吴" in room.sheets["p2"].extra["notes"]
    assert "他知道水下是什么" not in room.sheets["p2"].extra["notes"]  # EJS removed from the text
    assert room.sheets["p2"].get("侦查") is not None  # the rules' values stay
    entries = [d for d in room.documents.all("worldbook_entry") if d.data["pack"] == "pc:p2"]
    assert entries and not any(d.data["entry"]["secret"] for d in entries)
    assert all(d.data["entry"].get("constant") is not True for d in entries)
    assert room.documents.get("worldbook_pack", "pc:p2").data["hooks"] == []
    assert "钟声" not in (room.documents.get("mvu", "mvu").data["tree"] if room.documents.get("mvu", "mvu") else {})
    assert [f.id for f in room.file.features] == []
    again = say(kernel, room_dir, ".import bell.json", "p2")  # replaces the member's earlier one
    assert again and len([d for d in Room.load(room_dir, kernel).documents.all("worldbook_entry")
                          if d.data["pack"] == "pc:p2"]) == len(entries)


def test_a_player_reading_a_keepers_file_sees_no_secret_in_an_error(kernel: Kernel, room_dir: Path) -> None:
    broken = json.loads(BELL.read_text(encoding="utf-8"))
    broken["data"]["character_book"]["entries"][2]["insertion_order"] = "SECRET-TRUTH 不是数字"
    (room_dir / "broken.json").write_text(json.dumps(broken, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(LwError) as player:
        say(kernel, room_dir, ".import broken.json", "p1")
    assert "SECRET-TRUTH" not in str(player.value) and "keeper" in str(player.value)
    with pytest.raises(LwError) as keeper:
        say(kernel, room_dir, ".import broken.json world", "kp")
    assert "insertion_order" in str(keeper.value) and keeper.value.line == 1  # located for the keeper (one-line JSON)
    assert keeper.value.column is not None and keeper.value.file.endswith("broken.json")
    # a player gets one refusal whatever went wrong: which files exist is not theirs to learn
    refusals = {}
    shown = {"broken.json": "broken.json", "missing.json": "missing.json", "../room.yaml": "../room.yaml",
             "room.yaml": "room.yaml", "cards": "cards",
             str(room_dir / "bell.json"): "bell.json"}  # even the player's own words name no server path
    for ref, echoed in shown.items():
        with pytest.raises(LwError) as refused:
            say(kernel, room_dir, f".import {ref}", "p1")
        refusals[ref] = str(refused.value).replace(repr(echoed), "REF")
        assert refused.value.file is None and str(room_dir) not in str(refused.value)
    assert len(set(refusals.values())) == 1, refusals
    with pytest.raises(LwError, match="no file"):  # the keeper reads what is wrong
        say(kernel, room_dir, ".import missing.json world", "kp")
    with pytest.raises(LwError, match="outside"):
        say(kernel, room_dir, ".import ../room.yaml world", "kp")


def test_the_keeper_imports_a_character_for_a_member(kernel: Kernel, room_dir: Path) -> None:
    with pytest.raises(LwError, match="keeper plays no character"):
        say(kernel, room_dir, ".import bell.json pc", "kp")
    with pytest.raises(LwError, match="only the keeper"):
        say(kernel, room_dir, ".import bell.json pc @p2", "p1")
    say(kernel, room_dir, ".import bell.json pc @p2", "kp")
    assert Room.load(room_dir, kernel).sheets["p2"].name == "钟楼守夜人"


# --- the roster -------------------------------------------------------------------------------


def test_claims_are_exclusive_and_release_restores_the_sheet(kernel: Kernel, room_dir: Path) -> None:
    before = (room_dir / "sheets" / "chen-mo.yaml").read_bytes()
    listing = say(kernel, room_dir, ".pc list", "p2")
    assert "阿潮" in listing and ("free" in listing or "空闲" in listing)
    assert "阿潮" in say(kernel, room_dir, ".pc claim 阿潮", "p1")
    room = Room.load(room_dir, kernel)
    assert room.sheets["p1"].name == "阿潮"
    with pytest.raises(LwError, match="taken"):
        say(kernel, room_dir, ".pc claim 1", "p2")
    say(kernel, room_dir, ".import bell.json world", "kp")
    with pytest.raises(LwError, match="already play"):
        say(kernel, room_dir, ".pc claim 钟楼守夜人", "p1")
    with pytest.raises(LwError, match="not yours"):
        say(kernel, room_dir, ".pc release 阿潮", "p2")
    with pytest.raises(LwError, match="keeper claims no"):
        say(kernel, room_dir, ".pc claim 钟楼守夜人", "kp")
    say(kernel, room_dir, ".import ../room/cards/fog-harbor.world.json world", "kp")  # a re-import keeps the claim
    assert Room.load(room_dir, kernel).documents.get("pregen", "阿潮").data["claimed_by"] == "p1"
    assert "claimed by 林晓" in say(kernel, room_dir, ".pc list", "p2")
    say(kernel, room_dir, ".pc release", "p1")
    assert (room_dir / "sheets" / "chen-mo.yaml").read_bytes() == before
    assert Room.load(room_dir, kernel).sheets["p1"].name == "陈默"
    say(kernel, room_dir, ".pc claim 阿潮", "p2")
    say(kernel, room_dir, ".pc release 阿潮", "kp")  # the keeper frees any claim
    assert Room.load(room_dir, kernel).sheets["p2"].name == "苏婉清"


def test_a_member_without_a_sheet_claims_and_releases(kernel: Kernel, room_dir: Path) -> None:
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        room.file.players[1].sheet = None
        room.mark("room")
        room.save()
    say(kernel, room_dir, ".pc claim 阿潮", "p2")
    room = Room.load(room_dir, kernel)
    assert room.file.players[1].sheet == "sheets/p2-阿潮.yaml" and room.sheets["p2"].name == "阿潮"
    say(kernel, room_dir, ".pc release", "p2")
    room = Room.load(room_dir, kernel)
    assert room.file.players[1].sheet is None and "p2" not in room.sheets


def test_a_claim_is_checked_against_the_rooms_rules(kernel: Kernel, room_dir: Path) -> None:
    card = json.loads((room_dir / "ashen.lorecard.json").read_text(encoding="utf-8"))
    card["pregens"] = [{"name": "外来者", "skills": {"Athletics": 5, "侦查": 50}}]
    (room_dir / "ashen.lorecard.json").write_text(json.dumps(card, ensure_ascii=False), encoding="utf-8")
    reply = say(kernel, room_dir, ".import ashen.lorecard.json world", "kp")
    assert "Athletics are not stats of coc7" in reply
    before = files(room_dir)
    with pytest.raises(LwError, match="Athletics is not a stat of coc7"):
        say(kernel, room_dir, ".pc claim 外来者", "p1")
    assert files(room_dir) == before


def test_a_pregen_named_with_digits_is_claimed_by_its_name_not_its_number(kernel: Kernel, room_dir: Path) -> None:
    """An id or a name wins over a number of ``.pc list``: a pregen named "2" is claimed by
    ``.pc claim 2`` (the web table's button sends the id), not the list's second pregen."""
    card = json.loads((room_dir / "ashen.lorecard.json").read_text(encoding="utf-8"))
    card["pregens"] = [{"name": "Zed", "skills": {"侦查": 50}}, {"name": "2", "skills": {"侦查": 40}}]
    (room_dir / "ashen.lorecard.json").write_text(json.dumps(card, ensure_ascii=False), encoding="utf-8")
    say(kernel, room_dir, ".import ashen.lorecard.json world", "kp")
    ids = [d.id for d in Room.load(room_dir, kernel).documents.all("pregen")]
    assert ids.index("2") != 1, ids  # so the second of the list is another pregen
    second = ids[1]
    say(kernel, room_dir, ".pc claim 2", "p1")
    pregens = docs(kernel, room_dir, "pregen")
    assert pregens["2"].data["claimed_by"] == "p1" and pregens[second].data["claimed_by"] == ""
    assert Room.load(room_dir, kernel).sheets["p1"].name == "2"
    say(kernel, room_dir, ".pc release 2", "kp")
    assert docs(kernel, room_dir, "pregen")["2"].data["claimed_by"] == ""
    say(kernel, room_dir, f".pc claim {ids.index('阿潮') + 1}", "p2")  # a number no id or name has: the list's
    assert docs(kernel, room_dir, "pregen")["阿潮"].data["claimed_by"] == "p2"


# --- presets ----------------------------------------------------------------------------------


def test_presets_install_and_apply_only_when_enabled(kernel: Kernel, room_dir: Path) -> None:
    with pytest.raises(LwError, match="keeper only"):
        say(kernel, room_dir, ".preset import night-watch.json", "p1")
    installed = say(kernel, room_dir, ".preset import night-watch.json", "kp")
    assert ".preset enable night-watch" in installed and "'ghost', which is not in prompts" in installed
    assert (kernel.data_dir / "presets" / "night-watch.json").read_bytes() == (room_dir / "night-watch.json").read_bytes()
    assert "drowned city" not in request_text(compile_turn(kernel, room_dir, SAY, rng=random.Random(1)))
    say(kernel, room_dir, ".preset enable night-watch", "kp")
    compiled = compile_turn(kernel, room_dir, SAY, rng=random.Random(1))
    world = next(m["markdown"] for m in compiled.messages if m.get("promptId") == "lw:world")
    assert world.index("<lore>") < world.index("雾港的码头") < world.index("福顺号") < world.index("</lore>")
    author = next(m["markdown"] for m in compiled.messages if m.get("promptId") == "lw:author")
    assert "drowned city" in author
    assert "* night-watch" in say(kernel, room_dir, ".preset list", "p2")
    say(kernel, room_dir, ".preset disable night-watch", "kp")
    assert "drowned city" not in request_text(compile_turn(kernel, room_dir, SAY, rng=random.Random(1)))
    with pytest.raises(LwError, match="no preset"):
        say(kernel, room_dir, ".preset enable nothing-here", "kp")


def test_a_preset_from_an_installed_pack(tmp_path: Path, room_dir: Path) -> None:
    pack = tmp_path / "data" / "plugins" / "harbor-style"
    (pack / "presets").mkdir(parents=True)
    (pack / "lw-plugin.toml").write_text('id = "harbor-style"\nversion = "1.0.0"\ntier = "data"\nprovides = ["presets"]\n'
                                         '[description]\nen = "a style pack"\n', encoding="utf-8")
    shutil.copy(FIXTURES / "night-watch.preset.json", pack / "presets" / "night.json")
    kernel = Kernel(data_dir=tmp_path / "data", env={})
    assert ".preset enable night" in say(kernel, room_dir, ".preset import harbor-style/presets/night.json", "kp")
    with pytest.raises(LwError, match="outside"):
        say(kernel, room_dir, ".preset import harbor-style/../../../room/room.yaml", "kp")


# --- tools ------------------------------------------------------------------------------------


def test_the_mvu_tools(kernel: Kernel, room_dir: Path) -> None:
    say(kernel, room_dir, ".import bell.json world", "kp")
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        room.file.tool_plugins = ["coc7", "tavern"]
        room.mark("room")
        room.save()
    reply = {"id": "r", "object": "chat.completion", "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": "潮水涨了。", "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "set_stat", "arguments": json.dumps({"path": "雾港.潮位", "value": 4})}},
            {"id": "c2", "type": "function", "function": {"name": "adjust_stat", "arguments": json.dumps({"path": "守夜人.信任", "delta": -3})}},
            {"id": "c3", "type": "function", "function": {"name": "get_stat", "arguments": json.dumps({"path": "雾港.潮位"})}},
            {"id": "c4", "type": "function", "function": {"name": "set_stat", "arguments": json.dumps({"path": "雾港.新", "value": 1})}},
            {"id": "c5", "type": "function", "function": {"name": "set_stat", "arguments": json.dumps({"path": "雾港.潮位", "value": "很高"})}},
        ]}}]}
    result = run_turn(kernel, room_dir, SAY, provider="chat_completions", reply=reply, rng=random.Random(2))
    assert {"set_stat", "adjust_stat", "get_stat"} <= set(result.compiled.tool_names)
    by_id = {r.call_id: r for r in result.applied.results}
    assert by_id["c1"].content == {"path": "雾港.潮位", "before": 2, "value": 4}
    assert by_id["c2"].content["value"] == 7
    assert by_id["c3"].content == {"path": "雾港.潮位", "value": 4, "description": "0-5"}
    assert by_id["c4"].is_error and "no such variable" in by_id["c4"].content["error"]
    assert by_id["c5"].is_error and "not a number" in by_id["c5"].content["error"]
    tree = Room.load(room_dir, kernel).documents.get("mvu", "mvu").data["tree"]
    assert tree["雾港"]["潮位"] == [4, "0-5"] and tree["守夜人"]["信任"] == [7, "对调查员的信任"]
    assert "潮位" not in view_for(Room.load(room_dir, kernel), "p1").to_json_text()


def test_the_mvu_tools_are_offered_only_where_the_feature_asks(kernel: Kernel, room_dir: Path) -> None:
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        room.file.tool_plugins = None
        room.mark("room")
        room.save()
    assert "set_stat" not in compile_turn(kernel, room_dir, SAY).tool_names
    say(kernel, room_dir, ".import bell.json world", "kp")
    assert "set_stat" in compile_turn(kernel, room_dir, SAY).tool_names


# --- what players see -------------------------------------------------------------------------


def test_secret_entries_reach_no_player_facing_byte(kernel: Kernel, room_dir: Path, capsys) -> None:
    from lwcore.cli import main

    say(kernel, room_dir, ".import bell.json world", "kp")
    reply = recorded("anthropic_messages")
    reply_file = room_dir.parent / "reply.json"
    reply_file.write_text(json.dumps(reply, ensure_ascii=False), encoding="utf-8")

    def lw(*args: str) -> str:
        with pytest.raises(SystemExit):
            main(["--data-dir", str(kernel.data_dir), *args])
        return capsys.readouterr().out

    outputs = {
        "turn --json": json.loads(lw("turn", str(room_dir), "--say", SAY, "--reply", str(reply_file), "--seed", "5",
                                     "--json")),
    }
    keeper_prompt = json.dumps(outputs["turn --json"]["payload"], ensure_ascii=False)
    assert "SECRET-TRUTH" in keeper_prompt  # the keeper's model has it ...
    player_facing = {
        "applied": json.dumps({k: v for k, v in outputs["turn --json"]["applied"].items() if k != "tool_messages"},
                              ensure_ascii=False),
        "player_view": json.dumps(outputs["turn --json"]["player_view"], ensure_ascii=False),
        "view p1": lw("turn", str(room_dir), "--as", "p1"),
        "view p2 --json": lw("turn", str(room_dir), "--as", "p2", "--view", "--json"),
        ".pc list": lw("turn", str(room_dir), "--say", ".pc list", "--as", "p1", "--json"),
        ".preset list": lw("turn", str(room_dir), "--say", ".preset list", "--as", "p1", "--json"),
        ".import pc": lw("turn", str(room_dir), "--say", ".import bell.json", "--as", "p2", "--json"),
        ".import example pc": lw("turn", str(room_dir), "--say", ".import cards/fog-harbor.world.json", "--as", "p1"),
        ".help": lw("turn", str(room_dir), "--say", ".help", "--as", "p1"),
    }
    for name, text in player_facing.items():
        for secret in SECRETS:
            assert secret not in text, (name, secret)
    room = Room.load(room_dir, kernel)
    from lwcore.turn.documents import project_all, viewer_of

    for kind in kernel.document_types:
        if kernel.document_types[kind].storage == "derived":
            continue
        for player in ("p1", "p2"):
            seen = json.dumps([v for _, v in project_all(room, room.documents.all(kind), viewer_of(room, room.member(player)))],
                              ensure_ascii=False)
            for secret in SECRETS:
                assert secret not in seen, (kind, player, secret)


def test_an_initvar_never_seeds_a_declared_variable(kernel: Kernel, room_dir: Path) -> None:
    """A world card's ``[InitVar]`` naming a declared module variable: that name is left out of
    the tree (with a warning in the keeper's report), the rest is seeded."""
    card = json.loads(BELL.read_text(encoding="utf-8"))
    entry = card["data"]["character_book"]["entries"][0]
    assert "[InitVar]" in entry["keys"]
    entry["content"] = "{cult_alert: 0, true_culprit: '无人', 雾港: {潮位: [2, '0-5']}}"
    (room_dir / "shadow.json").write_text(json.dumps(card, ensure_ascii=False), encoding="utf-8")
    plan = import_into(kernel, room_dir, room_dir / "shadow.json", "world")
    assert any("cult_alert, true_culprit" in w and "not seeded" in w for w in plan.report.warnings)
    room = Room.load(room_dir, kernel)
    assert room.documents.get("mvu", "mvu").data["tree"] == {"雾港": {"潮位": [2, "0-5"]}}
    assert room.variable("cult_alert").value == 2 and room.variable("true_culprit").value == "灯塔看守人周伯年"
