"""``subsystem_check``: pack subsystems run through ``RulesEngine.subsystem`` on the room's
kernel sheets; pack command words resolve to it; plugin tool failures are recorded."""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from pydantic import BaseModel

from lwcore.contributions import ToolSpec
from lwcore.errors import LwError
from lwcore.hookspecs import hookimpl
from lwcore.kernel import Kernel
from lwcore.plugins import InProcessPlugin, PluginError
from lwcore.turn.compile import compile_turn
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room


class Fixed(random.Random):
    """Every die shows the same face fraction: 0.99999 -> the highest face (1d100 = 100)."""

    def __init__(self, fraction: float) -> None:
        super().__init__(0)
        self.fraction = fraction

    def random(self) -> float:
        return self.fraction


def _call(**args) -> dict:
    return {"content": [{"type": "tool_use", "id": "s", "name": "subsystem_check", "input": args}]}


def _one(kernel, room_dir: Path, rng: random.Random, **args):
    result = run_turn(kernel, room_dir, "……", reply=_call(**args), rng=rng)
    (only,) = result.applied.results
    return only, result


def _sheet_file(room_dir: Path, name: str = "chen-mo.yaml") -> dict:
    return yaml.safe_load((room_dir / "sheets" / name).read_text(encoding="utf-8"))


def test_a_fumbled_sanity_roll_loses_the_maximum_and_flags_temporary_insanity(kernel, room_dir: Path) -> None:
    result, turn = _one(kernel, room_dir, Fixed(0.99999), character="p1", subsystem="sanity", loss="1/1d10")
    assert not result.is_error, result.content
    content = result.content
    assert content["outcome"] == "fumble" and content["check"]["roll"] == 100 and content["check"]["fumble"]
    assert content["values"]["loss"] == 10 and content["values"]["after"] == 50  # the maximum, not a roll
    assert content["rolls"][0]["maximum"] is True
    assert content["flags"] == {"temporary": True} and content["flag_labels"] == {"temporary": "临时疯狂"}
    assert "临时疯狂" in content["text"] and content["rank_label"] == "大失败"
    # the kernel sheet changed and was written atomically with its flag; unknown fields kept
    on_disk = _sheet_file(room_dir)
    assert on_disk["values"]["理智"] == 50 and on_disk["state"] == {"sanity": {"temporary": True}}
    assert on_disk["occupation"] == "记者 / Journalist" and on_disk["notes"].startswith("沪上")
    assert Room.load(room_dir, kernel).sheets["p1"].get("理智") == 50
    # the event is in the history and the player view
    # (each player reads it in their own locale: p1 in Chinese, p2 in English)
    assert any("临时疯狂" in line.text for line in turn.player_view("p1").history)
    assert any("Temporary Insanity" in line.text for line in turn.player_view("p2").history)


def test_sanity_never_goes_below_the_floor_and_flags_permanent_insanity(kernel, room_dir: Path) -> None:
    path = room_dir / "sheets" / "chen-mo.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("  理智: 60\n", "  理智: 3\n"), encoding="utf-8")
    result, _ = _one(kernel, room_dir, Fixed(0.99999), character="陈默", subsystem="sanity", loss="1d4/1d20")
    values = result.content["values"]
    assert values["before"] == 3 and values["after"] == 0 and values["loss"] == 3
    assert result.content["flags"] == {"permanent": True}  # lost 3 (< 5): not temporary
    assert _sheet_file(room_dir)["values"]["理智"] == 0


def test_a_success_loses_the_success_part_and_dice_modifiers_reach_the_check(kernel, room_dir: Path) -> None:
    result, _ = _one(kernel, room_dir, Fixed(0.0), character="p1", subsystem="sanity", loss="1/1d6", bonus=1)
    content = result.content
    assert content["success"] is True and content["values"]["loss"] == 1 and content["values"]["after"] == 59
    assert content["flags"] == {} and "flag_labels" not in content
    assert content["check"]["modifiers"] == {"bonus": 1}
    penalty, _ = _one(kernel, room_dir, Fixed(0.5), character="p1", subsystem="sanity", loss="0/1", penalty=2)
    assert penalty.content["check"]["modifiers"] == {"penalty": 2}


@pytest.mark.parametrize("word", ["sc", ".sc", "SC"])
def test_the_packs_command_word_resolves_to_the_subsystem(kernel, room_dir: Path, word: str) -> None:
    result, _ = _one(kernel, room_dir, random.Random(3), character="p1", subsystem=word, loss="0/1d3")
    assert not result.is_error, result.content
    assert result.content["subsystem"] == "sanity" and result.content["command"] == "sc"


def test_other_subsystem_kinds_and_command_fixed_arguments(kernel, room_dir: Path) -> None:
    growth, _ = _one(kernel, room_dir, Fixed(0.99999), character="p1", subsystem="growth", skill="侦查")
    assert growth.content["kind"] == "growth" and growth.content["success"] is True
    assert Room.load(room_dir, kernel).sheets["p1"].get("侦查") == 65 + 10
    table, _ = _one(kernel, room_dir, random.Random(1), character="p1", subsystem="ti")
    assert table.content["kind"] == "table" and table.content["values"]["table"] == "realtime"
    assert table.content["command"] == "ti"


@pytest.mark.parametrize(("args", "message"), [
    ({"subsystem": "nothing", "loss": "1/1d3"}, "one of: sanity"),
    ({"subsystem": "ra"}, "use skill_check"),
    ({"subsystem": "sanity"}, "needs loss"),
    ({"subsystem": "sanity", "loss": "1/1d3", "skill": "侦查"}, "does not take skill"),
    ({"subsystem": "sanity", "loss": "1/1d3", "args": {"x": 1}}, "does not take x"),
    ({"subsystem": "luck"}, "no earlier check"),
    ({"subsystem": "push"}, "no earlier check"),
    ({"subsystem": "opposed"}, "needs opponent"),
    ({"subsystem": "luck", "loss": "1/1d3"}, "does not take loss"),
    ({"subsystem": "sanity", "loss": "1/1d3", "opponent": "p2"}, "does not take opponent"),
    ({"subsystem": "sanity", "loss": "1/1dx"}, "1/1dx"),
    ({"subsystem": "sanity", "loss": "1/1d3", "character": "nobody"}, "nobody"),
    ({"subsystem": "sanity", "loss": "1/1d3", "args": {"bonus": "two"}}, "bonus is 'two'"),
    ({"subsystem": "sanity", "loss": "1/1d3", "bonus": 1, "args": {"bonus": 1}}, "bonus given twice"),
    ({"subsystem": "sanity", "args": {"loss": "1/1d3", "penalty": 11}}, "a whole number from 0 to 10"),
    ({"subsystem": "luck", "want": "extreme", "skill": "侦查"}, "does not take skill"),
    ({"subsystem": "opposed", "opponent": "p2", "opponent_skill": "侦查"}, "rolling both checks needs skill"),
])
def test_bad_subsystem_calls_are_tool_errors(kernel, room_dir: Path, args: dict, message: str) -> None:
    before = (room_dir / "sheets" / "chen-mo.yaml").read_bytes()
    result, _ = _one(kernel, room_dir, random.Random(1), **{"character": "p1", **args})
    assert result.is_error and message in result.content["error"], result.content
    assert (room_dir / "sheets" / "chen-mo.yaml").read_bytes() == before


def test_subsystems_are_listed_for_the_model_from_pack_data(kernel, room_dir: Path) -> None:
    compiled = compile_turn(kernel, room_dir, "x", provider="chat_completions")
    world = next(m for m in compiled.messages if m.get("promptId") == "lw:world")["markdown"]
    line = next(x for x in world.splitlines() if x.startswith("subsystem_check"))
    assert "sanity (理智, loss S/F, .sc)" in line and "growth (skill, .en)" in line
    assert "random_madness (table realtime|summary, .ti, .li)" in line
    assert "luck (幸运, 上一次检定, .luck)" in line and "push (上一次检定, .push)" in line and "opposed (opponent" in line
    assert "advantage" not in line  # nets modifiers inside every check; no tool runs it


# --- the room's sheets are kernel sheets -------------------------------------------------------


def test_a_sheet_without_a_system_key_is_read_as_the_rooms(kernel, room_dir: Path) -> None:
    path = room_dir / "sheets" / "chen-mo.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("system: coc7\n", ""), encoding="utf-8")
    room = Room.load(room_dir, kernel)
    sheet = room.sheets["p1"]
    assert sheet.system == room.rule_system.id and sheet.get("Spot Hidden") == 65 and sheet.get("HP") == 11
    assert sheet.extra["occupation"] == "记者 / Journalist"


def test_a_sheet_of_another_system_or_an_unknown_system_is_refused(kernel, room_dir: Path) -> None:
    path = room_dir / "sheets" / "chen-mo.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("system: coc7\n", "system: dnd5e\n"), encoding="utf-8")
    with pytest.raises(LwError, match="this sheet is for rule system") as info:
        Room.load(room_dir, kernel)
    assert info.value.file.endswith("chen-mo.yaml")
    path.write_text(text.replace("values:\n", "values: [1]\nx:\n"), encoding="utf-8")
    with pytest.raises(LwError, match="values") as info:
        Room.load(room_dir, kernel)
    room_yaml = room_dir / "room.yaml"
    room_yaml.write_text(room_yaml.read_text(encoding="utf-8").replace("system: coc7", "system: nosuch"), encoding="utf-8")
    with pytest.raises(LwError, match="not installed"):
        Room.load(room_dir, kernel)


def test_a_json_sheet_is_read_and_written_as_json(kernel, room_dir: Path) -> None:
    import json

    data = _sheet_file(room_dir)
    (room_dir / "sheets" / "chen-mo.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    room_yaml = room_dir / "room.yaml"
    room_yaml.write_text(room_yaml.read_text(encoding="utf-8").replace("sheets/chen-mo.yaml", "sheets/chen-mo.json"),
                         encoding="utf-8")
    result, _ = _one(kernel, room_dir, Fixed(0.99999), character="p1", subsystem="sanity", loss="0/1d2")
    assert not result.is_error
    written = json.loads((room_dir / "sheets" / "chen-mo.json").read_text(encoding="utf-8"))
    assert written["values"]["理智"] == 58 and written["owner"] == "p1"


# --- plugin tool failures ----------------------------------------------------------------------


class _Args(BaseModel):
    n: int


def _boom(args: _Args, ctx) -> dict:
    raise RuntimeError("plugin bug")


def _unserialisable(args: _Args, ctx) -> dict:
    return {"n": object()}


def _plugin_kernel(tmp_path: Path, room_dir: Path, *, strict: bool = False, broken: bool = False) -> Kernel:
    @hookimpl
    def lw_tools(register):  # noqa: ANN001, ANN202
        register(ToolSpec("boom", {"en": "breaks"}, _Args, _boom))
        register(ToolSpec("odd", {"en": "returns junk"}, _Args, _unserialisable))
        if broken:
            register(ToolSpec("missing", {"en": "cannot load"}, "no_such_module_xyz:Args", "no_such_module_xyz:run"))
            register(ToolSpec("headless", {"en": "no handler"}, _Args, "no_such_module_xyz:run"))

    manifest = {"id": "extra", "version": "1", "tier": "code", "provides": ["tools"]}
    room_yaml = room_dir / "room.yaml"
    room_yaml.write_text(room_yaml.read_text(encoding="utf-8").replace("tool_plugins: [coc7]", "tool_plugins: [coc7, extra]"),
                         encoding="utf-8")
    return Kernel(data_dir=tmp_path / "data", env={}, strict=strict,
                  plugins=[InProcessPlugin(manifest, SimpleNamespace(lw_tools=lw_tools))])


def test_a_failing_plugin_tool_is_recorded_on_the_plugin_and_returned_as_an_error(tmp_path: Path, room_dir: Path) -> None:
    kernel = _plugin_kernel(tmp_path, room_dir)
    reply = {"content": [
        {"type": "tool_use", "id": "a", "name": "boom", "input": {"n": 1}},
        {"type": "tool_use", "id": "b", "name": "odd", "input": {"n": 1}},
        {"type": "tool_use", "id": "c", "name": "adjust_variable", "input": {"id": "clues_found", "delta": 1}},
        {"type": "tool_use", "id": "d", "name": "boom", "input": {"n": 2}},
    ]}
    result = run_turn(kernel, room_dir, "x", reply=reply)
    boom, odd, fine, again = result.applied.results
    assert boom.is_error and "RuntimeError: plugin bug" in boom.content["error"]
    assert odd.is_error and "TypeError" in odd.content["error"]
    assert not fine.is_error and again.is_error
    errors = kernel.plugin("extra").errors
    assert any("tool 'boom' failed: RuntimeError: plugin bug" in e for e in errors)
    assert any("tool 'odd' failed: TypeError" in e for e in errors)
    assert len([e for e in errors if "boom" in e]) == 1  # the same failure twice is one line
    record = kernel.plugin("extra")
    assert record.status == "error" and record.usable  # shown like a failing hook; not blocked
    assert "boom" in compile_turn(kernel, room_dir, "x").tool_names


def test_a_plugin_tool_that_cannot_be_loaded_is_dropped_and_recorded(tmp_path: Path, room_dir: Path) -> None:
    kernel = _plugin_kernel(tmp_path, room_dir, broken=True)
    result = run_turn(kernel, room_dir, "x", reply={"content": [
        {"type": "tool_use", "id": "a", "name": "missing", "input": {"n": 1}},
        {"type": "tool_use", "id": "b", "name": "adjust_variable", "input": {"id": "clues_found", "delta": 1}},
        {"type": "tool_use", "id": "c", "name": "headless", "input": {"n": 1}}]})
    compiled = result.compiled
    assert "missing" not in compiled.tool_names and "boom" in compiled.tool_names
    assert any(d.startswith("extra: tool 'missing' cannot be offered: ModuleNotFoundError") for d in compiled.dropped)
    missing, fine, headless = result.applied.results
    assert missing.is_error and "not available" in missing.content["error"] and not fine.is_error
    assert headless.is_error and "is broken" in headless.content["error"]
    errors = kernel.plugin("extra").errors
    assert any("tool 'missing' cannot be offered" in e for e in errors)
    assert any("tool 'headless' cannot be loaded: ModuleNotFoundError" in e for e in errors)


def test_in_strict_mode_a_failing_plugin_tool_raises(tmp_path: Path, room_dir: Path) -> None:
    kernel = _plugin_kernel(tmp_path, room_dir, strict=True)
    with pytest.raises(PluginError, match="plugin bug"):
        run_turn(kernel, room_dir, "x", reply={"content": [
            {"type": "tool_use", "id": "a", "name": "boom", "input": {"n": 1}}]})


def test_kernel_tool_errors_are_not_blamed_on_a_plugin(kernel, room_dir: Path) -> None:
    result, _ = _one(kernel, room_dir, random.Random(1), character="p1", subsystem="nothing", loss="1/1d3")
    assert result.is_error
    assert all(not record.errors for record in kernel.plugins if record.id == "coc7")


# --- the same tool for other rule systems (nothing here is specific to one pack) ---------------


def _tiny_room(tmp_path: Path, system: str, values: dict) -> Path:
    room = tmp_path / f"room-{system}"
    (room / "sheets").mkdir(parents=True)
    (room / "room.yaml").write_text(yaml.safe_dump({
        "id": f"tiny-{system}", "system": system, "locale": "en", "keeper": {"id": "gm"},
        "players": [{"id": "p1", "name": "Ash", "sheet": "sheets/ash.yaml"}],
    }), encoding="utf-8")
    (room / "sheets" / "ash.yaml").write_text(yaml.safe_dump({"name": "Ash", "values": values}), encoding="utf-8")
    return room


def test_a_tally_subsystem_of_another_pack(kernel, tmp_path: Path) -> None:
    room = _tiny_room(tmp_path, "dnd5e", {"HP": 0})
    result, _ = _one(kernel, room, Fixed(0.0), character="Ash", subsystem="death_save")
    assert not result.is_error, result.content
    assert result.content["kind"] == "tally" and result.content["values"]["failures"] >= 1
    assert "death_failures" in _sheet_file(room, "ash.yaml")["values"]


def test_a_computer_subsystem_gets_its_args(kernel, tmp_path: Path) -> None:
    room = _tiny_room(tmp_path, "wod", {})
    result, _ = _one(kernel, room, random.Random(4), character="p1", subsystem="cw", args={"pool": 5, "again": 9})
    assert not result.is_error, result.content
    assert result.content["kind"] == "computer" and result.content["command"] == "cw"
    assert result.content["values"]["pool"] == 5 and len(result.content["values"]["dice"]) >= 5
    bad, _ = _one(kernel, room, random.Random(4), character="p1", subsystem="cofd", args={"pool": 5, "again": 3})
    assert bad.is_error and "again must be" in bad.content["error"]


def test_a_computer_subsystem_gets_the_commands_fixed_args_beneath_the_calls(tmp_path: Path) -> None:
    """As the dot command does, the tool hands a computer the fixed ``args`` of the pack
    command that named it; what the call gives wins."""
    data = tmp_path / "data"
    (data / "rulepacks").mkdir(parents=True)
    (data / "rulepacks" / "nine.yaml").write_text(
        "resolution: {roll: 1d20, target: skill}\n"
        "subsystems: {pool: {computer: wod_cofd_pool, again: 10}}\n"
        "commands: {cw: {tool: pool, args: {again: 9, pool: 2}}}\n", encoding="utf-8")
    kernel = Kernel(data_dir=data, env={})
    room = _tiny_room(tmp_path, "nine", {})
    fixed, _ = _one(kernel, room, random.Random(4), character="p1", subsystem="cw")
    assert not fixed.is_error, fixed.content
    assert (fixed.content["values"]["again"], fixed.content["values"]["pool"]) == (9, 2)
    given, _ = _one(kernel, room, random.Random(4), character="p1", subsystem="cw", args={"pool": 6})
    assert (given.content["values"]["again"], given.content["values"]["pool"]) == (9, 6)
    by_name, _ = _one(kernel, room, random.Random(4), character="p1", subsystem="pool")
    assert by_name.content["values"]["again"] == 10  # the subsystem's own setting: no command named it
