"""Skills in a room: the features entry enabling writes, refusals, the adult switch, rule
systems, narrowing and unlocking the room's tools (through the turn's real tool list), stale
entries, hand-written ids."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from pydantic import BaseModel

from lwcore.contributions import ToolSpec
from lwcore.errors import LwError
from lwcore.hookspecs import hookimpl
from lwcore.plugins import InProcessPlugin
from lwcore.io.safe_yaml import read_yaml
from lwcore.turn.compile import compile_turn
from lwcore.turn.room import Room
from lw_skills.catalog import catalog_for
from lw_skills.rooms import disable, enable, room_skills
from skills_testkit import make_kernel, set_room, write_skill

KERNEL_OWN = {"define_variable", "set_variable", "adjust_variable", "skill_check", "subsystem_check",
              "chronicle_record", "thread_note", "keeper_note"}


def switch(kernel, room_dir: Path, skill_id: str, on: bool = True):  # noqa: ANN001, ANN201
    room = Room.load(room_dir, kernel)
    done = enable(room, catalog_for(kernel), skill_id) if on else disable(room, skill_id)
    room.save()
    return done


def features(room_dir: Path) -> list[dict]:
    return read_yaml(room_dir / "room.yaml")["features"]


def keeper_tools(kernel, room_dir: Path) -> set[str]:  # noqa: ANN001
    return set(compile_turn(kernel, room_dir, "x", actor="kp").tool_names)


@pytest.fixture
def open_room(room_dir: Path) -> Path:
    """The example room without its tool_plugins allowlist: every plugin's ungated tools."""
    text = (room_dir / "room.yaml").read_text(encoding="utf-8")
    (room_dir / "room.yaml").write_text(text.replace("tool_plugins: [coc7]\n", ""), encoding="utf-8")
    return room_dir


def test_enabling_writes_the_entry_and_keeps_the_file_as_written(kernel, room_dir: Path) -> None:  # noqa: ANN001
    before = (room_dir / "room.yaml").read_text(encoding="utf-8")
    done = switch(kernel, room_dir, "rule-forge")
    assert done.feature.tools == ["generate_rulepack", "read_skill_reference"] and done.feature.narrows
    assert features(room_dir) == [{"id": "rule-forge", "skill": True, "tools": ["generate_rulepack", "read_skill_reference"],
                                   "narrows": True}]
    after = (room_dir / "room.yaml").read_text(encoding="utf-8")
    assert "# Tools offered here" in after and after.index("# Tools offered here") > after.index("read_skill_reference")
    assert switch(kernel, room_dir, "rule-forge").replaced  # enabling again refreshes, never duplicates
    assert len(features(room_dir)) == 1
    switch(kernel, room_dir, "rule-forge", on=False)
    assert features(room_dir) == []
    assert (room_dir / "room.yaml").read_text(encoding="utf-8").replace("features: []", "features: []") == before
    with pytest.raises(LwError, match="not enabled"):
        switch(kernel, room_dir, "rule-forge", on=False)


class LanternArgs(BaseModel):
    """Arguments of the lantern plugin's tools (none)."""


def _lantern_plugin() -> InProcessPlugin:
    """A third-party plugin with two ungated tools: what a narrowing skill takes away."""

    @hookimpl
    def lw_tools(register):  # noqa: ANN001, ANN202
        for name in ("lantern_light", "lantern_trim"):
            register(ToolSpec(name=name, description={"en": name}, args_model=LanternArgs, handler=lambda args, ctx: {}))

    return InProcessPlugin({"id": "lantern", "version": "1.0", "tier": "code", "provides": ["tools"]},
                           SimpleNamespace(lw_tools=lw_tools))


def test_narrowing_leaves_the_kernels_tools_and_the_listed_ones(data_dir: Path, open_room: Path) -> None:
    kernel = make_kernel(data_dir, plugins=[_lantern_plugin()])
    everything = keeper_tools(kernel, open_room)
    assert everything == KERNEL_OWN | {"lantern_light", "lantern_trim"}
    write_skill(data_dir / "skills", "narrow", "description: d\nallowed-tools: [lantern_light, get_stat, summon_kraken]")
    done = switch(kernel, open_room, "narrow")
    assert done.missing == ("summon_kraken",) and done.feature.tools == ["lantern_light", "get_stat"]
    # the listed ungated tool stays, the listed gated one is unlocked, the rest of the plugins' go
    assert keeper_tools(kernel, open_room) == KERNEL_OWN | {"lantern_light", "get_stat"}
    write_skill(data_dir / "skills", "empty-list", "description: d\nallowed-tools: []")
    switch(kernel, open_room, "empty-list")
    assert keeper_tools(kernel, open_room) == KERNEL_OWN | {"lantern_light", "get_stat"}  # [] asks for nothing more
    switch(kernel, open_room, "narrow", on=False)
    assert keeper_tools(kernel, open_room) == KERNEL_OWN


def test_a_skill_without_allowed_tools_leaves_the_tools_alone(kernel, open_room: Path) -> None:  # noqa: ANN001
    everything = keeper_tools(kernel, open_room)
    switch(kernel, open_room, "tension-clock")
    assert keeper_tools(kernel, open_room) == everything | {"read_skill_reference"}  # it has references


def test_asked_tools_pass_the_rooms_plugin_allowlist(kernel, room_dir: Path) -> None:  # noqa: ANN001
    assert "generate_skill" not in keeper_tools(kernel, room_dir)
    switch(kernel, room_dir, "skill-forge")
    tools = keeper_tools(kernel, room_dir)
    assert "generate_skill" in tools and "generate_rulepack" not in tools
    player = set(compile_turn(kernel, room_dir, "x", actor="p1").tool_names)
    assert "generate_skill" not in player  # the forge is keeper only


def test_the_adult_switch(kernel, room_dir: Path, data_dir: Path) -> None:  # noqa: ANN001
    write_skill(data_dir / "skills", "late-night", "description: d\nallowed-tools: [keeper_note]\n"
                "metadata:\n  content-rating: mature", body="ADULT BODY")
    with pytest.raises(LwError, match="adult switch") as info:
        switch(kernel, room_dir, "late-night")
    assert "adult: true" in str(info.value) and features(room_dir) == []
    set_room(room_dir, adult=True)
    switch(kernel, room_dir, "late-night")
    assert features(room_dir)[0]["adult"] is True
    compiled = compile_turn(kernel, room_dir, "x", actor="kp")
    assert "ADULT BODY" in str(compiled.request) and set(compiled.tool_names) == KERNEL_OWN
    set_room(room_dir, adult=False)  # switched off later: the skill stops counting at once
    compiled = compile_turn(kernel, room_dir, "x", actor="kp")
    assert "ADULT BODY" not in str(compiled.request) and set(compiled.tool_names) == KERNEL_OWN
    [entry] = room_skills(Room.load(room_dir, kernel), catalog_for(kernel))
    assert not entry.active and "adult switch" in entry.reason
    set_room(room_dir, adult="yes")
    with pytest.raises(LwError, match="adult"):
        Room.load(room_dir, kernel)  # no guessing: the switch is a boolean


def test_rule_systems(kernel, room_dir: Path, data_dir: Path) -> None:  # noqa: ANN001
    write_skill(data_dir / "skills", "d20-only", "description: d\nmetadata:\n  systems: [dnd5e]", body="D20 BODY")
    write_skill(data_dir / "skills", "any-alias", "description: d\nmetadata:\n  systems: [Call of Cthulhu]",
                body="ALIAS BODY")
    with pytest.raises(LwError, match="is for dnd5e; this room plays coc7"):
        switch(kernel, room_dir, "d20-only")
    switch(kernel, room_dir, "any-alias")  # a system's other names count
    assert "ALIAS BODY" in str(compile_turn(kernel, room_dir, "x").request)
    set_room(room_dir, features=[{"id": "d20-only", "skill": True, "systems": ["dnd5e"]}])
    assert "D20 BODY" not in str(compile_turn(kernel, room_dir, "x").request)


def test_stale_entries_and_hand_written_ids(kernel, room_dir: Path, data_dir: Path) -> None:  # noqa: ANN001
    folder = write_skill(data_dir / "skills", "grows", "description: d\nallowed-tools: [keeper_note]")
    switch(kernel, room_dir, "grows")
    catalog = catalog_for(kernel)
    assert [rs.stale for rs in room_skills(Room.load(room_dir, kernel), catalog)] == [False]
    (folder / "SKILL.md").write_text("---\ndescription: d\nallowed-tools: [keeper_note, generate_skill]\n---\n",
                                     encoding="utf-8")
    [entry] = room_skills(Room.load(room_dir, kernel), catalog)
    assert entry.stale and entry.active
    assert "generate_skill" not in keeper_tools(kernel, room_dir)  # the entry is what counts
    switch(kernel, room_dir, "grows")
    assert "generate_skill" in keeper_tools(kernel, room_dir)
    set_room(room_dir, features=["tension-clock", {"id": "gone", "skill": True}, "not-a-skill"])
    listed = {rs.id: rs for rs in room_skills(Room.load(room_dir, kernel), catalog)}
    assert set(listed) == {"tension-clock", "gone"}
    assert listed["tension-clock"].active and not listed["gone"].active and listed["gone"].reason == "not installed"
    assert "Tension clock" in str(compile_turn(kernel, room_dir, "x").request)


def test_enabling_an_unknown_or_broken_skill_is_refused(kernel, room_dir: Path, data_dir: Path) -> None:  # noqa: ANN001
    write_skill(data_dir / "skills", "broken", "description: [")
    with pytest.raises(LwError, match="does not load"):
        switch(kernel, room_dir, "broken")
    with pytest.raises(LwError, match="no skill 'ghost'"):
        switch(kernel, room_dir, "ghost")
    assert features(room_dir) == []
