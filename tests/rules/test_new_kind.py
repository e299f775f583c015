"""A new subsystem kind is one plugin registration (the ``subsystem_kinds`` hook family): the
worked example of the rules README, installed exactly as written there as a third-party plugin
(a real distribution on the path, enabled by the operator), is validated by the pack checker,
run by a dot command, rendered, tested by the pack's own table, offered by the turn's tool door
and run by a turn's ``subsystem_check`` call (its argument given in the tool's ``args``), with
no change to the kernel."""

from __future__ import annotations

import random
import re
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
def stress_plugin(site, tmp_path: Path) -> Path:
    """The README's kind module and plugin.py, installed as the third-party plugin ``stress``;
    returns the data dir of a kernel that has it enabled (``LW_PLUGINS=stress``)."""
    (kind_source,) = [b for b in blocks("python") if "class Stress(SubsystemKind)" in b]
    (plugin_source,) = [b for b in blocks("python") if "def lw_subsystem_kinds" in b]
    site.add("stress", code=plugin_source, package="lw_stress", provides=("subsystem_kinds",),
             files={"kinds.py": kind_source})
    data = tmp_path / "data"
    data.mkdir()
    return data


def kernel_with_stress(data: Path) -> Kernel:
    return Kernel(data_dir=data, env={"LW_PLUGINS": "stress"})


def engine_with(kernel: Kernel | None, tmp_path: Path, text: str) -> RulesEngine:
    path = tmp_path / "calm.yaml"
    path.write_text(text, encoding="utf-8")
    return RulesEngine(kernel, sources=[PackSource("calm", "test", path)], user_dir=None)


def pack_text() -> str:
    (text,) = [b for b in blocks("yaml") if "kind" not in b and "stress: {tool: stress}" in b]
    return text


def test_the_readme_kind_is_registered_and_runs_through_a_pack(stress_plugin, tmp_path: Path) -> None:
    kernel = kernel_with_stress(stress_plugin)
    assert kernel.plugin("stress").status == "enabled"
    assert kernel.subsystem_kinds.origin("stress") == "stress"
    assert kernel.subsystem_kinds.origin("sanity") == "rules"  # the bundled kinds: the built-in rules plugin's
    engine = engine_with(kernel, tmp_path, pack_text())
    pack = engine.rule_system("calm")
    assert pack.warnings == [] and pack.kinds is engine.kinds and pack.kinds.named("stress") is not None
    assert [str(o) for o in run_pack_tests(engine, pack) if not o.passed] == []
    sheet = engine.sheet("calm", {"Stress": 2})
    result = engine.command("calm", ".stress +1", sheet=sheet, faces=[3])
    assert result.text == "Stress 2 -> 6 (+4)" and sheet["Stress"] == 6 and result.sheet_changed
    assert engine.subsystem("calm", "stress", sheet, rng=random.Random(1)).values["before"] == 6


def test_the_pack_checker_reads_the_new_kinds_keys(stress_plugin, tmp_path: Path) -> None:
    kernel = kernel_with_stress(stress_plugin)
    text = pack_text().replace("{stat: Stress, roll: 1d6, limit: 10}", "{roll: 1d, limt: 10}")
    with pytest.raises(RulepackError) as info:
        engine_with(kernel, tmp_path, text).rule_system("calm")
    found = str(info.value)
    assert "a stress subsystem needs stat:" in found and "subsystems.stress.roll" in found
    warned = engine_with(kernel, tmp_path, pack_text().replace("limit: 10}", "limit: 10, limt: 9}")).rule_system("calm").warnings
    assert any("unknown key 'limt'" in w and "did you mean 'limit'?" in w for w in warned)


def test_the_turns_tool_door_offers_the_new_kind(stress_plugin, tmp_path: Path) -> None:
    kernel = kernel_with_stress(stress_plugin)
    pack = engine_with(kernel, tmp_path, pack_text()).rule_system("calm")
    target = sheet_rolls.find_subsystem(pack, ".stress")
    assert target.kind is kernel.subsystem_kinds["stress"] and target.command == "stress"
    assert "stress" in sheet_rolls.usable_subsystems(pack)
    assert sheet_rolls.tool_notes(pack, "en") == "Subsystems for subsystem_check: stress (Stress, limit 10, .stress)"
    # the typed fields are the bundled kinds' (a plugin kind's arguments come in `args`)
    fields = tools.subsystem_check_args().model_fields
    assert not [name for name, f in fields.items() if "for stress:" in (f.description or "")]


def _calm_room(tmp_path: Path, data: Path) -> tuple[Kernel, Path]:
    """A kernel whose user rulepacks hold the README's pack, and a room of one character on it."""
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
    return kernel_with_stress(data), room


def _subsystem_call(kernel: Kernel, room: Path, **args: object):
    reply = {"content": [{"type": "tool_use", "id": "s", "name": "subsystem_check",
                          "input": {"character": "p1", **args}}]}
    (only,) = run_turn(kernel, room, "Ash frets.", reply=reply, rng=random.Random(3)).applied.results
    return only


def test_a_turns_subsystem_check_runs_the_new_kind(stress_plugin, tmp_path: Path) -> None:
    kernel, room = _calm_room(tmp_path, stress_plugin)
    before = (room / "sheets" / "ash.yaml").read_bytes()
    refused = _subsystem_call(kernel, room, subsystem="stress", loss="1/1d6")
    assert refused.is_error and "does not take loss" in refused.content["error"], refused.content
    too_much = _subsystem_call(kernel, room, subsystem="stress", args={"bonus": 11})  # the kind's own bounds
    assert too_much.is_error and "a whole number from 0 to 10" in too_much.content["error"], too_much.content
    assert (room / "sheets" / "ash.yaml").read_bytes() == before
    out = _subsystem_call(kernel, room, subsystem=".stress", args={"bonus": 3})
    assert not out.is_error, out.content
    added = out.content["rolls"][0]["total"]
    assert out.content["kind"] == "stress" and out.content["command"] == "stress"
    assert out.content["values"] == {"stat": "Stress", "before": 2, "after": 2 + added + 3, "added": added + 3}
    assert out.content["text"] == f"Stress 2 -> {5 + added} (+{added + 3})"
    assert yaml.safe_load((room / "sheets" / "ash.yaml").read_text(encoding="utf-8"))["values"]["Stress"] == 5 + added
    last = (room / "history.jsonl").read_text(encoding="utf-8").splitlines()[-1]
    assert f"Ash Stress 2 -> {5 + added}" in last


def test_without_the_plugin_the_kind_is_unknown(stress_plugin, tmp_path: Path) -> None:
    not_enabled = Kernel(data_dir=stress_plugin, env={})  # installed, but third-party code is off until enabled
    assert "stress" not in not_enabled.subsystem_kinds and kinds.kind_named("stress") is None
    pack = engine_with(not_enabled, tmp_path, pack_text().split("tests:")[0]).rule_system("calm")
    assert any("kind 'stress' is not one this engine runs" in w for w in pack.warnings)


def test_a_plugin_kind_cannot_take_a_bundled_kinds_word(site, tmp_path: Path) -> None:
    """Trust order: the bundled kinds win; a plugin kind whose alias is taken is left out and
    ``lw doctor``'s lines say so."""
    site.add("rival", package="lw_rival", provides=("subsystem_kinds",), code=(
        "from lwcore.api import SubsystemKind, hookimpl\n\n\n"
        "class Rival(SubsystemKind):\n    name = 'rival'\n    aliases = ('sanity',)\n\n\n"
        "@hookimpl\ndef lw_subsystem_kinds(register):\n    register(Rival())\n"))
    kernel = Kernel(data_dir=tmp_path / "data", env={"LW_PLUGINS": "rival"})
    from lwcore.rules import engine_for

    engine = engine_for(kernel)
    assert engine.kinds.named("rival") is None and engine.kinds.named("sanity").name == "sanity"
    assert engine.kinds.skipped == ["subsystem kind 'rival' left out: 'sanity' already names 'sanity'"]
    assert any("subsystem kind 'rival' left out" in line for _, line in kernel.diagnostics())


def test_a_kind_by_reference_is_imported_only_when_an_engine_needs_it(site, tmp_path: Path) -> None:
    """``SubsystemKindRef`` keeps listing plugins light; a reference that does not import, or
    names another kind, is left out and reported while every other kind still runs."""
    site.add("refs", package="lw_refs", provides=("subsystem_kinds",), code=(
        "from lwcore.api import SubsystemKindRef, hookimpl\n\n\n"
        "@hookimpl\ndef lw_subsystem_kinds(register):\n"
        "    register(SubsystemKindRef('calm', 'lw_refs.kinds:KIND'))\n"
        "    register(SubsystemKindRef('ghost', 'lw_refs.nowhere:KIND'))\n"
        "    register(SubsystemKindRef('liar', 'lw_refs.kinds:KIND'))\n"),
        files={"kinds.py": "import sys\nsys.modules['lw_refs'].imported = True\n"
                           "from lwcore.api import SubsystemKind\n\n\nclass Calm(SubsystemKind):\n    name = 'calm'\n\n\n"
                           "KIND = Calm()\n"})
    kernel = Kernel(data_dir=tmp_path / "data", env={"LW_PLUGINS": "refs"})
    kernel.load_all()  # what `lw plugins list` does
    import sys

    assert set(kernel.subsystem_kinds) >= {"calm", "ghost", "liar", "sanity"}
    assert not getattr(sys.modules["lw_refs"], "imported", False)
    from lwcore.rules import engine_for

    engine = engine_for(kernel)
    assert engine.kinds.named("calm").name == "calm" and engine.kinds.named("sanity") is not None
    assert sys.modules["lw_refs"].imported
    skipped = "\n".join(engine.kinds.skipped)
    assert "subsystem kind 'ghost' of plugin refs left out: No module named 'lw_refs.nowhere'" in skipped
    assert "subsystem kind 'liar' of plugin refs left out: registered as 'liar' but its name is 'calm'" in skipped
