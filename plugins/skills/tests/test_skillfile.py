"""The SKILL.md reader: both shapes (Claude Code, Loreweaver), every field, located errors,
and property tests (any text gives a skill or a located error; frontmatter round trips)."""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lwcore.errors import LwError
from lwcore.io.roundtrip import dump_yaml
from lw_skills.skillfile import (
    MAX_DESCRIPTION,
    SkillFrontmatter,
    parse_skill_text,
    split_frontmatter,
    split_names,
    valid_id,
)


def md(front: str, body: str = "Body text.") -> str:
    return f"---\n{front}\n---\n\n{body}\n"


def test_a_claude_code_skill_name_is_the_id() -> None:
    skill = parse_skill_text("pdf-tools", md("name: pdf-tools\ndescription: Work with PDFs.\nallowed-tools: Read Grep Glob"))
    assert (skill.id, skill.name, skill.description) == ("pdf-tools", "pdf-tools", "Work with PDFs.")
    assert skill.allowed_tools == ("Read", "Grep", "Glob") and skill.warnings == ()
    assert (skill.scope, skill.systems, skill.content_rating, skill.adult) == ("room", (), "", False)


def test_a_loreweaver_skill_name_is_a_display_name_with_localized_fields() -> None:
    front = """name: Romance & relationships
description: >
  Enable for a romance campaign.
allowed-tools: [adjust_relationship, set_relationship]
name-zh: 恋爱与关系
description-zh: 为恋爱战役开启。
metadata:
  scope: room
  systems: [coc7]
  content-rating: mature"""
    skill = parse_skill_text("romance-relationships", md(front, "# Romance\n\nPlay it warmly."))
    assert skill.name == "Romance & relationships" and skill.display_name("zh-CN") == "恋爱与关系"
    assert skill.describe("en") == "Enable for a romance campaign." and skill.describe("zh") == "为恋爱战役开启。"
    assert skill.display_name("fr") == "Romance & relationships"
    assert skill.allowed_tools == ("adjust_relationship", "set_relationship")
    assert skill.systems == ("coc7",) and skill.content_rating == "mature" and skill.adult
    assert skill.body == "# Romance\n\nPlay it warmly."
    assert skill.frontmatter["metadata"]["content-rating"] == "mature"  # kept as written


@pytest.mark.parametrize(("written", "tools"), [
    ("allowed-tools: [a, b]", ("a", "b")),
    ("allowed-tools: a b", ("a", "b")),
    ("allowed-tools: 'a, b,c'", ("a", "b", "c")),
    ("allowed-tools: 'Bash(git add:*), Read'", ("Bash(git add:*)", "Read")),
    ("allowed-tools: [a, a, b]", ("a", "b")),
    ("allowed-tools: []", ()),
    ("allowed-tools: ''", ()),
    ("allowed-tools:", None),
    ("", None),
])
def test_allowed_tools_as_list_or_string(written: str, tools: tuple[str, ...] | None) -> None:
    skill = parse_skill_text("x", md(f"description: d\n{written}"))
    assert skill.allowed_tools == tools


@pytest.mark.parametrize(("written", "systems"), [
    ("systems: [coc7, dnd5e]", ("coc7", "dnd5e")),
    ("systems: coc7", ("coc7",)),
    ("systems: 'coc7 wod'", ("coc7", "wod")),
    ("systems:", ()),
])
def test_systems_as_list_or_string(written: str, systems: tuple[str, ...]) -> None:
    assert parse_skill_text("x", md(f"description: d\nmetadata:\n  {written}")).systems == systems


@pytest.mark.parametrize("rating", ["", "general", "mature", "explicit"])
def test_every_content_rating(rating: str) -> None:
    skill = parse_skill_text("x", md(f"description: d\nmetadata:\n  content-rating: '{rating}'"))
    assert skill.content_rating == rating and skill.adult == (rating in ("mature", "explicit"))


def test_description_defaults_to_the_first_paragraph_and_name_to_the_id() -> None:
    skill = parse_skill_text("tide", md("license: MIT", "# Tide\n\nRead the tide\ntables first.\n\nThen act."))
    assert (skill.name, skill.description) == ("tide", "Read the tide tables first.")
    assert skill.frontmatter == {"license": "MIT"}


def test_an_id_like_name_that_is_not_the_folder_warns() -> None:
    skill = parse_skill_text("folder-name", md("name: other-name\ndescription: d"))
    assert skill.name == "other-name" and "looks like an id" in skill.warnings[0]


def test_line_endings_and_a_byte_order_mark() -> None:
    text = md("name: Crlf\ndescription: d\nallowed-tools: [a]", "line one\nline two").replace("\n", "\r\n")
    skill = parse_skill_text("x", text)
    assert skill.body == "line one\nline two" and skill.allowed_tools == ("a",)
    assert parse_skill_text("x", "\ufeff" + md("description: d")).description == "d"
    assert parse_skill_text("x", md("description: d").replace("\n", "\r")).description == "d"


@pytest.mark.parametrize(("skill_id", "ok"), [
    ("a", True), ("a1-b2", True), ("x" * 64, True), ("x" * 65, False), ("-a", False), ("a-", False),
    ("a--b", False), ("A", False), ("a_b", False), ("a.b", False), ("", False), ("技能", False), ("a b", False),
])
def test_skill_ids(skill_id: str, ok: bool) -> None:
    assert valid_id(skill_id) is ok
    if not ok:
        with pytest.raises(LwError, match="is not an id"):
            parse_skill_text(skill_id, md("description: d"))


@pytest.mark.parametrize(("text", "message", "line", "column"), [
    ("name: x\n", "starts with a '---' line", 1, 1),
    ("---\nname: x\n", "never closed", 3, None),
    ("---\nname: [x\n---\n", "invalid YAML", 3, 1),
    ("---\n- a\n- b\n---\n", "not a mapping", 2, None),
    ("---\nname: 5\n---\n", "name: Input should be a valid string", 2, 7),
    ("---\ndescription: d\nname: ''\n---\n", "name:", 3, 7),
    ("---\nname: x\nname: y\n---\n", "duplicate", 3, 1),
    (f"---\ndescription: {'x' * (MAX_DESCRIPTION + 1)}\n---\n", "description:", 2, 14),
    ("---\nallowed-tools: {a: 1}\n---\n", "allowed-tools", 2, 16),
    ("---\nallowed-tools: [a, 3]\n---\n", "allowed-tools.1", 2, 20),
    ("---\nmetadata: 5\n---\n", "metadata", 2, 11),
    ("---\nmetadata:\n  scope: table\n---\n", "metadata.scope", 3, 10),
    ("---\nmetadata:\n  content-rating: adult\n---\n", "metadata.content-rating", 3, 19),
    ("---\nmetadata:\n  systems: {a: b}\n---\n", "metadata.systems", 3, 12),
    ("---\nname-zh: 3\n---\n", "name-zh", 2, 10),
    ("---\ndescription-zh: ''\n---\n", "description-zh", 2, 17),
    ("---\n1: x\n---\n", "not a text", 2, 1),
    ("---\nname: !!python/object:os.system x\n---\n", "tag", 2, 7),
    ("---\na: &a [1]\nb: *a\nname: !custom x\n---\n", "tag", 4, 7),
])
def test_located_errors(text: str, message: str, line: int, column: int | None) -> None:
    with pytest.raises(LwError) as info:
        parse_skill_text("x", text, file="skills/x/SKILL.md")
    error = info.value
    assert message in str(error) and error.file == "skills/x/SKILL.md"
    assert error.line == line
    if column is not None:
        assert error.column == column


def test_an_alias_bomb_is_refused() -> None:
    rows = "\n".join(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 9))
    with pytest.raises(LwError, match="alias|more than"):
        parse_skill_text("x", f"---\nl0: &l0 [a, b, c, d, e, f, g, h, i]\n{rows}\n---\n")


def test_the_schema_is_published() -> None:
    schema = SkillFrontmatter.model_json_schema(by_alias=True)
    assert {"name", "description", "allowed-tools", "metadata"} <= set(schema["properties"])


# --- properties ---------------------------------------------------------------------------

@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=400))
def test_any_text_gives_a_skill_or_a_located_error(text: str) -> None:
    try:
        skill = parse_skill_text("any", text, file="SKILL.md")
    except LwError as exc:
        assert exc.file == "SKILL.md" and exc.message
    else:
        assert skill.id == "any" and isinstance(skill.body, str)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.sampled_from("---:\n\r\t #[]{}'\"abc!&*|>"), max_size=120))
def test_frontmatter_noise_gives_a_skill_or_a_located_error(noise: str) -> None:
    try:
        parse_skill_text("noise", f"---\n{noise}\n---\nbody", file="SKILL.md")
    except LwError as exc:
        assert exc.file == "SKILL.md"


_word = st.text(alphabet=string.ascii_letters + string.digits + "_", min_size=1, max_size=12)
_text = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=60).filter(
    lambda s: s.strip() == s and s.strip())


@settings(max_examples=200)
@given(
    name=_text, description=_text.filter(lambda s: len(s) <= MAX_DESCRIPTION), tools=st.one_of(st.none(), st.lists(_word, max_size=5, unique=True)),
    systems=st.lists(_word, max_size=3, unique=True), rating=st.sampled_from(["", "general", "mature", "explicit"]),
    zh=st.one_of(st.none(), _text), body=st.text(max_size=200),
)
def test_written_frontmatter_reads_back(name, description, tools, systems, rating, zh, body) -> None:  # noqa: ANN001
    front = {"name": name, "description": description, "metadata": {"systems": systems, "content-rating": rating}}
    if tools is not None:
        front["allowed-tools"] = tools
    if zh is not None:
        front["name-zh"] = zh
    text = "---\n" + dump_yaml(front) + "---\n" + body
    skill = parse_skill_text("round-trip", text)
    assert (skill.name, skill.description) == (name, description)
    assert skill.allowed_tools == (tuple(tools) if tools is not None else None)
    assert skill.systems == tuple(systems) and skill.content_rating == rating
    assert skill.names == ({"zh": zh} if zh is not None else {})
    assert skill.body == split_frontmatter(text)[1]


@settings(max_examples=200)
@given(st.lists(_word, min_size=1, max_size=8), st.lists(st.sampled_from([" ", ",", ", ", "\t", " ,  "]), min_size=8, max_size=8))
def test_names_split_whatever_the_separators(names: list[str], separators: list[str]) -> None:
    text = "".join(n + s for n, s in zip(names, separators))
    assert split_names(text) == names
