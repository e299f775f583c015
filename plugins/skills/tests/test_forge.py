"""The forge in real turns: each tool invisible until its forge skill is enabled, keeper only,
its output read by the engine's own readers before anything is written, nothing written when
a check fails; a forged module's setup previewed and applied through run_prep_plan."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from lwcore.rules import engine_for
from lwcore.turn.compile import compile_turn
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room
from lw_skills.catalog import catalog_for
from lw_skills.forge import read_module_text
from lw_skills.rooms import enable
from skills_testkit import reply, set_room

FORGES = {"skill-forge": "generate_skill", "rule-forge": "generate_rulepack", "module-forge": "generate_module"}

SKILL_MD = """---
name: Harbour fog
description: Keep the fog thick and the lanterns few.
allowed-tools: [keeper_note]
name-zh: 港口浓雾
---

# Harbour fog

Describe what the fog hides before what it shows.
"""

D6_PACK = """\
names: [pips, "pips and pluck"]
set_keys: [pips]
defaults: {pluck: 3, wits: 2}
resolution:
  roll: "{pool}d6>=5"
  target: none
  params: {pool: {min: 1, max: 10, default: 2}}
  ranks:
    - {id: triumph, when: "successes >= 2", success: true, tier: 3}
    - {id: success, when: "successes == 1", success: true, tier: 2}
    - {id: miss, tier: 1}
  margin: successes
subsystems:
  stress: {}
expertise: {en: "Roll a pool of d6; each 5 or 6 is a success.", zh: "掷一把 d6，每个 5 或 6 算一次成功。"}
"""

SETUP = """const suspects = ["the ferryman", "the widow", "the clerk"];
for (const who of suspects) plan("thread_note", {label: "What did " + who + " see?"});
plan("define_variable", {id: "fog_depth", kind: "number", minimum: 0, maximum: 5, initial: 1, visibility: "keeper"});
plan("keeper_note", {title: "The truth", text: "The lamp is a lure."});
"""


def forge_room(kernel, room_dir: Path, *skills: str) -> None:  # noqa: ANN001
    room = Room.load(room_dir, kernel)
    for skill in skills:
        enable(room, catalog_for(kernel), skill)
    room.save()


def call(kernel, room_dir: Path, tool: str, args: dict, actor: str = "kp"):  # noqa: ANN001, ANN201
    result = run_turn(kernel, room_dir, "forge it", actor=actor, reply=reply("anthropic_messages", "", [(tool, args)]),
                      rng=random.Random(1))
    return result.applied.results[0]


def files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")} if root.exists() else set()


@pytest.mark.parametrize(("skill", "tool"), sorted(FORGES.items()))
def test_each_forge_tool_appears_only_with_its_skill_and_only_for_the_keeper(kernel, room_dir: Path, skill: str,  # noqa: ANN001
                                                                             tool: str) -> None:
    assert not set(FORGES.values()) & set(compile_turn(kernel, room_dir, "x", actor="kp").tool_names)
    forge_room(kernel, room_dir, skill)
    keeper = set(compile_turn(kernel, room_dir, "x", actor="kp").tool_names)
    assert keeper & set(FORGES.values()) == {tool}
    assert tool not in compile_turn(kernel, room_dir, "x", actor="p1").tool_names
    refused = call(kernel, room_dir, tool, {}, actor="p1")
    assert refused.is_error and "not available in this turn" in refused.content["error"]


def test_generate_skill_writes_a_skill_discovery_reads(kernel, room_dir: Path, data_dir: Path) -> None:  # noqa: ANN001
    forge_room(kernel, room_dir, "skill-forge")
    done = call(kernel, room_dir, "generate_skill", {"id": "harbour-fog", "skill_md": SKILL_MD,
                                                      "references": {"sounds.md": "bells, gulls"}})
    assert not done.is_error, done.content
    assert done.content["skill"] == "harbour-fog" and done.content["missing_tools"] == []
    skill = catalog_for(kernel).get("harbour-fog")
    assert skill.source == "user" and skill.display_name("zh") == "港口浓雾" and skill.references == ("sounds.md",)
    assert (data_dir / "skills" / "harbour-fog" / "SKILL.md").read_text(encoding="utf-8") == SKILL_MD
    forge_room(kernel, room_dir, "harbour-fog")
    assert "Describe what the fog hides" in str(compile_turn(kernel, room_dir, "x").request)
    again = call(kernel, room_dir, "generate_skill", {"id": "harbour-fog", "skill_md": SKILL_MD})
    assert again.is_error and "replace" in again.content["error"]
    replaced = call(kernel, room_dir, "generate_skill", {"id": "harbour-fog", "replace": True,
                                                          "skill_md": SKILL_MD.replace("few", "very few")})
    assert not replaced.is_error and catalog_for(kernel).get("harbour-fog").references == ()
    assert files(data_dir / "skills") == {"harbour-fog", "harbour-fog/SKILL.md"}  # no staging left behind


@pytest.mark.parametrize(("args", "message"), [
    ({"id": "bad-front", "skill_md": "---\nname: [x\n---\n"}, "<generated>/bad-front/SKILL.md:3:1: invalid YAML"),
    ({"id": "no-fence", "skill_md": "just text"}, "<generated>/no-fence/SKILL.md:1:1"),
    ({"id": "long", "skill_md": f"---\ndescription: {'d' * 1100}\n---\n"}, "<generated>/long/SKILL.md:2:14: description"),
    ({"id": "tension-clock", "skill_md": SKILL_MD}, "belongs to an installed plugin"),
    ({"id": "refs", "skill_md": SKILL_MD, "references": {"../escape.md": "x"}}, "is not a file name"),
    ({"id": "Bad_Id", "skill_md": SKILL_MD}, "invalid arguments: id"),
])
def test_generate_skill_refuses_and_writes_nothing(kernel, room_dir: Path, data_dir: Path, args: dict,  # noqa: ANN001
                                                   message: str) -> None:
    forge_room(kernel, room_dir, "skill-forge")
    result = call(kernel, room_dir, "generate_skill", args)
    assert result.is_error and message in result.content["error"], result.content
    assert files(data_dir / "skills") == set()


def test_generate_rulepack_writes_a_playable_system(kernel, room_dir: Path, data_dir: Path) -> None:  # noqa: ANN001
    forge_room(kernel, room_dir, "rule-forge")
    done = call(kernel, room_dir, "generate_rulepack", {"id": "pips", "rulepack": D6_PACK})
    assert not done.is_error, done.content
    assert done.content["names"][:2] == ["pips", "pips and pluck"] and done.content["subsystems"] == ["stress"]
    assert (data_dir / "rulepacks" / "pips.yaml").read_text(encoding="utf-8") == D6_PACK
    engine = engine_for(kernel)
    result = engine.check("pips", params={"pool": 4}, rng=random.Random(2))
    assert result.rank in ("triumph", "success", "miss") and engine.find("pips and pluck") == "pips"


@pytest.mark.parametrize(("pack_id", "text", "message"), [
    ("typo", D6_PACK.replace('"successes >= 2"', '"sucesses >= 2"'), "<generated>/typo.yaml:"),
    ("no-checks", "names: [nc]\ndefaults: {a: 1}\n", "resolves no checks"),
    ("bad-yaml", "names: [x\n", "<generated>/bad-yaml.yaml:2"),
    ("coc7", D6_PACK, "belongs to"),
    ("fallback", D6_PACK.replace("    - {id: miss, tier: 1}\n", ""), "fallback"),
])
def test_generate_rulepack_refuses_and_writes_nothing(kernel, room_dir: Path, data_dir: Path, pack_id: str,  # noqa: ANN001
                                                      text: str, message: str) -> None:
    forge_room(kernel, room_dir, "rule-forge")
    result = call(kernel, room_dir, "generate_rulepack", {"id": pack_id, "rulepack": text})
    assert result.is_error and message in result.content["error"], result.content
    assert files(data_dir / "rulepacks") == set()


def test_a_forged_module_is_set_up_through_run_prep_plan(kernel, room_dir: Path, data_dir: Path) -> None:  # noqa: ANN001
    forge_room(kernel, room_dir, "module-forge")
    done = call(kernel, room_dir, "generate_module", {
        "id": "lamp-under-water", "title": "The Lamp Under the Water", "premise": "A trawler drifts home empty.",
        "notes": "# Truth\n\nThe lamp is a lure.", "setup": SETUP, "systems": ["coc7"], "version": "1.2.0"})
    assert not done.is_error, done.content
    assert done.content["setup"] == "lamp-under-water/prep/setup.js" and done.content["operations"] == 5
    folder = data_dir / "packs" / "lamp-under-water@1.2.0"
    front, notes = read_module_text((folder / "module.md").read_text(encoding="utf-8"), file=folder / "module.md")
    assert (front.title, front.premise, front.systems, notes) == (
        "The Lamp Under the Water", "A trawler drifts home empty.", ["coc7"], "# Truth\n\nThe lamp is a lure.")
    assert (folder / "prep" / "setup.js").read_text(encoding="utf-8") == SETUP
    set_room(room_dir, phase="prep")
    preview = call(kernel, room_dir, "run_prep_plan", {"script_ref": done.content["setup"]})
    assert not preview.is_error and preview.content["count"] == 5 and not preview.content["applied"]
    assert Room.load(room_dir, kernel).variable("fog_depth") is None
    applied = call(kernel, room_dir, "run_prep_plan", {"script_ref": done.content["setup"], "apply": True})
    assert not applied.is_error, applied.content
    room = Room.load(room_dir, kernel)
    assert room.variable("fog_depth").value == 1 and len(room.documents.all("thread")) == 3


@pytest.mark.parametrize(("change", "message"), [
    ({"setup": 'plan("story_next", {});'}, "does not offer 'story_next'"),
    ({"setup": 'plan("define_variable", {id: "x", kind: "colour"});'}, "invalid arguments for 'define_variable'"),
    ({"setup": 'plan("thread_note", {label: "a"});\nfor (;;) {}'}, "CPU"),
    ({"setup": "plan(("}, "SyntaxError"),
    ({"systems": ["no-such-system"]}, "no installed rule system"),
])
def test_a_module_whose_setup_would_fail_is_not_written(kernel, room_dir: Path, data_dir: Path, change: dict,  # noqa: ANN001
                                                        message: str) -> None:
    forge_room(kernel, room_dir, "module-forge")
    args = {"id": "broken", "title": "t", "premise": "p", "notes": "n", "setup": 'plan("thread_note", {label: "a"});'}
    result = call(kernel, room_dir, "generate_module", args | change)
    assert result.is_error and message in result.content["error"], result.content
    assert files(data_dir / "packs") == set()
