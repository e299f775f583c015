"""Discovery: plugin folders first (bundled, then data plugins), then <data dir>/skills; a bad
skill never hides the others; changes on disk are seen without a restart; the reference
implementation's seven skills load unchanged."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lw_skills.catalog import SkillCatalog, catalog_for
from skills_testkit import REFERENCE, make_kernel, reference_skills, write_skill

BUNDLED = {"module-forge", "romance-relationships", "rule-forge", "skill-forge", "tension-clock"}


def data_plugin(data_dir: Path, plugin_id: str = "harbour-pack") -> Path:
    """A data plugin folder providing skills (no code)."""
    root = data_dir / "plugins" / plugin_id
    (root / "skills").mkdir(parents=True)
    (root / "lw-plugin.toml").write_text(
        f'id = "{plugin_id}"\nversion = "1.0.0"\ntier = "data"\nprovides = ["skills"]\n[description]\nen = "skills"\n',
        encoding="utf-8")
    return root / "skills"


def test_bundled_skills_come_from_the_plugin_folder(kernel) -> None:  # noqa: ANN001
    skills = catalog_for(kernel).skills()
    assert BUNDLED <= set(skills) and all(skills[s].source == "skills" for s in BUNDLED)
    assert catalog_for(kernel) is catalog_for(kernel)  # one per kernel
    clock = skills["tension-clock"]
    assert clock.hooks and "incvar('tension', 1)" in clock.hooks and clock.references == ("threats.md",)
    assert skills["rule-forge"].allowed_tools == ("generate_rulepack",) and not skills["rule-forge"].warnings


def test_user_and_data_plugin_skills_in_priority_order(kernel, data_dir: Path) -> None:  # noqa: ANN001
    plugin_skills = data_plugin(data_dir)
    write_skill(plugin_skills, "harbour-lore", "name: Harbour lore\ndescription: from a data plugin")
    write_skill(data_dir / "skills", "harbour-lore", "description: the user's copy")
    write_skill(data_dir / "skills", "rule-forge", "description: tries to replace a bundled skill")
    write_skill(data_dir / "skills", "my-own", "description: mine", files={
        "references/a.md": "A", "references/deep/b.md": "B", "references/.hidden": "x", "assets/map.svg": "<svg/>"})
    kernel.refresh()
    catalog = catalog_for(kernel)
    skills = catalog.skills()
    assert skills["harbour-lore"].source == "harbour-pack" and skills["harbour-lore"].description == "from a data plugin"
    assert skills["rule-forge"].source == "skills"
    assert skills["my-own"].source == "user" and skills["my-own"].references == ("a.md", "deep/b.md")
    assert skills["my-own"].assets == ("map.svg",)
    shadowed = {(p.skill, p.source) for p in catalog.problems() if p.error.code == "shadowed"}
    assert shadowed == {("harbour-lore", "user"), ("rule-forge", "user")}


def test_a_broken_skill_is_a_located_problem_and_the_others_load(kernel, data_dir: Path) -> None:  # noqa: ANN001
    user = data_dir / "skills"
    write_skill(user, "good-one", "description: fine")
    bad = write_skill(user, "bad-one", "description: [unclosed")
    write_skill(user, "Bad_Name", "description: fine")
    write_skill(user, "bad-hooks", "description: fine", files={"hooks.js": b"on('turn_start', () => {}); \xff"})
    (user / "no-skill-md").mkdir()
    catalog = catalog_for(kernel)
    assert "good-one" in catalog.skills()
    problems = {p.skill: p.error for p in catalog.problems()}
    assert set(problems) == {"bad-one", "Bad_Name", "bad-hooks"}
    assert problems["bad-one"].file == str(bad / "SKILL.md") and problems["bad-one"].line == 3
    assert "not a skill id" in problems["Bad_Name"].message
    assert problems["bad-hooks"].code == "encoding" and problems["bad-hooks"].file.endswith("hooks.js")
    with pytest.raises(Exception, match="does not load"):
        catalog.require("bad-one")
    with pytest.raises(Exception, match="no skill 'nope'"):
        catalog.require("nope")


def test_changes_on_disk_are_seen_without_a_restart(kernel, data_dir: Path) -> None:  # noqa: ANN001
    catalog = catalog_for(kernel)
    assert "late" not in catalog.skills()
    folder = write_skill(data_dir / "skills", "late", "description: first")
    assert catalog.get("late").description == "first"
    (folder / "SKILL.md").write_text("---\ndescription: second, and longer\n---\n", encoding="utf-8")
    assert catalog.get("late").description == "second, and longer"
    (folder / "references").mkdir()
    (folder / "references" / "r.md").write_text("r", encoding="utf-8")
    assert catalog.get("late").references == ("r.md",)
    (folder / "SKILL.md").unlink()
    assert catalog.get("late") is None


def test_a_reference_link_leading_outside_is_not_listed(kernel, data_dir: Path, tmp_path: Path) -> None:  # noqa: ANN001
    secret = tmp_path / "secret.txt"
    secret.write_text("outside", encoding="utf-8")
    folder = write_skill(data_dir / "skills", "linky", "description: d", files={"references/ok.md": "ok"})
    os.symlink(secret, folder / "references" / "leak.md")
    assert catalog_for(kernel).get("linky").references == ("ok.md",)


def test_tools_nobody_provides_are_warned_by_name(kernel, data_dir: Path) -> None:  # noqa: ANN001
    write_skill(data_dir / "skills", "wants", "description: d\nallowed-tools: [skill_check, summon_kraken]")
    catalog = catalog_for(kernel)
    skill = catalog.get("wants")
    assert catalog.missing_tools(skill) == ["summon_kraken"]
    assert len(skill.warnings) == 1 and "'summon_kraken'" in skill.warnings[0] and "skill_check" not in skill.warnings[0]


@pytest.mark.skipif(not REFERENCE.exists(), reason="the reference repository is not on this machine")
def test_the_reference_implementations_seven_skills_load_unchanged(tmp_path: Path) -> None:
    data_dir = tmp_path / "elsewhere"
    ids = reference_skills(data_dir / "skills")
    assert len(ids) == 7
    before = {p: p.read_bytes() for p in (data_dir / "skills").rglob("*") if p.is_file()}
    kernel = make_kernel(data_dir, disabled=["skills"])  # no bundled skills: every reference skill is read
    catalog = SkillCatalog(kernel)
    skills = catalog.skills()
    assert sorted(skills) == ids and catalog.problems() == []
    for skill in skills.values():
        assert skill.source == "user" and skill.description and skill.body and skill.names.get("zh")
        assert skill.name != skill.id  # their names are display names
        assert skill.allowed_tools is not None  # each lists its tools (mature-mode: none)
    assert skills["romance-relationships"].systems == ("coc7",) and skills["romance-relationships"].adult
    assert skills["mature-mode"].content_rating == "explicit" and skills["mature-mode"].allowed_tools == ()
    assert skills["image-gen"].content_rating == "" and skills["image-gen"].allowed_tools == ("generate_image",)
    assert skills["rule-forge"].allowed_tools == ("generate_rulepack",)
    assert {p: p.read_bytes() for p in (data_dir / "skills").rglob("*") if p.is_file()} == before
