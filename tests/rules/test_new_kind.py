"""A new subsystem kind is one new file: the worked example of the rules README, added exactly
as written there, is validated by the pack checker, run by a dot command, rendered, tested by
the pack's own table, offered by the turn's tool door and run by a turn's ``subsystem_check``
call (its argument reaching the tool from the kind's declaration), with no other change."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest
import yaml

import lwcore.rules.kinds as kinds
from lwcore.kernel import Kernel
from lwcore.rules import RulesEngine
from lwcore.rules.engine import PackSource
from lwcore.rules.errors import RulepackError
from lwcore.rules.pack_tests import run_pack_tests
from lwcore.turn import sheet_rolls, tools
from lwcore.turn.pipeline import run_turn

README = Path(kinds.__file__).resolve().parents[1] / "README.md"


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)


@pytest.fixture
def stress_kind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The README's ``stress.py`` as one more file of the kinds package."""
    (source,) = [b for b in blocks("python") if "class Stress(SubsystemKind)" in b]
    folder = tmp_path / "more_kinds"
    folder.mkdir()
    (folder / "stress.py").write_text(source, encoding="utf-8")
    monkeypatch.setattr(kinds, "__path__", [*kinds.__path__, str(folder)])
    kinds.reset()
    yield kinds.kind_named("stress")
    kinds.reset()
    sys.modules.pop("lwcore.rules.kinds.stress", None)


def engine_with(tmp_path: Path, text: str) -> RulesEngine:
    path = tmp_path / "calm.yaml"
    path.write_text(text, encoding="utf-8")
    return RulesEngine(None, sources=[PackSource("calm", "test", path)], user_dir=None)


def pack_text() -> str:
    (text,) = [b for b in blocks("yaml") if "kind" not in b and "stress: {tool: stress}" in b]
    return text


def test_the_readme_kind_is_found_and_runs_through_a_pack(stress_kind, tmp_path: Path) -> None:
    assert stress_kind is not None and stress_kind.name == "stress"
    engine = engine_with(tmp_path, pack_text())
    pack = engine.pack("calm")
    assert pack.warnings == []
    assert [str(o) for o in run_pack_tests(engine, pack) if not o.passed] == []
    sheet = engine.sheet("calm", {"Stress": 2})
    result = engine.command("calm", ".stress +1", sheet=sheet, faces=[3])
    assert result.text == "Stress 2 -> 6 (+4)" and sheet["Stress"] == 6 and result.sheet_changed
    assert engine.subsystem("calm", "stress", sheet, rng=random.Random(1)).values["before"] == 6


def test_the_pack_checker_reads_the_new_kinds_keys(stress_kind, tmp_path: Path) -> None:
    text = pack_text().replace("{stat: Stress, roll: 1d6, limit: 10}", "{roll: 1d, limt: 10}")
    with pytest.raises(RulepackError) as info:
        engine_with(tmp_path, text).pack("calm")
    found = str(info.value)
    assert "a stress subsystem needs stat:" in found and "subsystems.stress.roll" in found
    warned = engine_with(tmp_path, pack_text().replace("limit: 10}", "limit: 10, limt: 9}")).pack("calm").warnings
    assert any("unknown key 'limt'" in w and "did you mean 'limit'?" in w for w in warned)


def test_the_turns_tool_door_offers_the_new_kind(stress_kind, tmp_path: Path) -> None:
    pack = engine_with(tmp_path, pack_text()).pack("calm")
    target = sheet_rolls.find_subsystem(pack, ".stress")
    assert target.kind is stress_kind and target.command == "stress"
    assert "stress" in sheet_rolls.usable_subsystems(pack)
    assert sheet_rolls.tool_notes(pack, "en") == "Subsystems for subsystem_check: stress (Stress, limit 10, .stress)"
    # the tool's argument model now describes the kind's use of its declared argument
    bonus = tools.subsystem_check_args().model_fields["bonus"]
    assert "for stress: stress added on top of the roll" in bonus.description
    assert (bonus.metadata[0].ge, bonus.metadata[1].le) == (0, 10)


def _calm_room(tmp_path: Path) -> tuple[Kernel, Path]:
    """A kernel whose user rulepacks hold the README's pack, and a room of one character on it."""
    data = tmp_path / "data"
    (data / "rulepacks").mkdir(parents=True)
    (data / "rulepacks" / "calm.yaml").write_text(pack_text(), encoding="utf-8")
    room = tmp_path / "room"
    (room / "sheets").mkdir(parents=True)
    (room / "room.yaml").write_text(yaml.safe_dump({
        "id": "calm-room", "system": "calm", "locale": "en", "keeper": {"id": "gm"},
        "players": [{"id": "p1", "name": "Ash", "sheet": "sheets/ash.yaml"}],
    }), encoding="utf-8")
    (room / "sheets" / "ash.yaml").write_text(yaml.safe_dump({"name": "Ash", "values": {"Stress": 2}}),
                                              encoding="utf-8")
    return Kernel(data_dir=data, env={}), room


def _subsystem_call(kernel: Kernel, room: Path, **args: object):
    reply = {"content": [{"type": "tool_use", "id": "s", "name": "subsystem_check",
                          "input": {"character": "p1", **args}}]}
    (only,) = run_turn(kernel, room, "Ash frets.", reply=reply, rng=random.Random(3)).applied.results
    return only


def test_a_turns_subsystem_check_runs_the_new_kind(stress_kind, tmp_path: Path) -> None:
    kernel, room = _calm_room(tmp_path)
    before = (room / "sheets" / "ash.yaml").read_bytes()
    refused = _subsystem_call(kernel, room, subsystem="stress", loss="1/1d6")
    assert refused.is_error and "does not take loss" in refused.content["error"], refused.content
    assert (room / "sheets" / "ash.yaml").read_bytes() == before
    out = _subsystem_call(kernel, room, subsystem=".stress", bonus=3)
    assert not out.is_error, out.content
    added = out.content["rolls"][0]["total"]
    assert out.content["kind"] == "stress" and out.content["command"] == "stress"
    assert out.content["values"] == {"stat": "Stress", "before": 2, "after": 2 + added + 3, "added": added + 3}
    assert out.content["text"] == f"Stress 2 -> {5 + added} (+{added + 3})"
    assert yaml.safe_load((room / "sheets" / "ash.yaml").read_text(encoding="utf-8"))["values"]["Stress"] == 5 + added
    last = (room / "history.jsonl").read_text(encoding="utf-8").splitlines()[-1]
    assert f"Ash Stress 2 -> {5 + added}" in last


def test_without_the_file_the_kind_is_unknown(tmp_path: Path) -> None:
    kinds.reset()
    assert kinds.kind_named("stress") is None
    pack = engine_with(tmp_path, pack_text().split("tests:")[0]).pack("calm")
    assert any("kind 'stress' is not one this engine runs" in w for w in pack.warnings)
