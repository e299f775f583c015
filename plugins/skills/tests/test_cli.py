"""``lw skill`` through the installed console script (subprocesses): every command, JSON
output, and a hostile SKILL.md corpus -- each bad folder is a located refusal with exit 1,
never a traceback or a hang, the others keep loading, and no file is changed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skills_testkit import copy_room, lw, write_skill

DEPTH = 200


def hostile_corpus() -> dict[str, tuple[bytes, dict[str, bytes], str, int | None]]:
    """id -> (SKILL.md bytes, other files, a word the error says, the line it names)."""
    bomb = "l0: &l0 [a, b, c, d, e, f, g, h, i]\n" + "\n".join(
        f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 9))
    def fm(front: str, body: str = "body") -> bytes:
        return f"---\n{front}\n---\n{body}\n".encode()
    return {
        "no-fence": (b"name: x\ndescription: y\n", {}, "starts with a '---' line", 1),
        "unclosed": (b"---\nname: x\ndescription: y\n", {}, "never closed", 4),
        "bad-yaml": (fm("name: [x"), {}, "invalid YAML", 3),
        "alias-bomb": (fm(bomb), {}, "values", None),
        "deep": (fm("a: " + "[" * DEPTH + "]" * DEPTH), {}, "nest", None),
        "duplicate": (fm("name: a\nname: b"), {}, "duplicate", 3),
        "python-tag": (fm("name: !!python/object/apply:os.system [ls]"), {}, "tag", 2),
        "a-list": (fm("- a\n- b"), {}, "not a mapping", 2),
        "bad-utf8": (b"---\ndescription: caf\xe9\n---\n", {}, "invalid UTF-8", 2),
        "nul-bytes": (fm("description: a\x00b"), {}, "invalid YAML", None),
        "huge": (fm("description: d", "x" * (300 * 1024)), {}, "limit", None),
        "long-description": (fm("description: " + "d" * 1025), {}, "description", 2),
        "name-number": (fm("name: 42"), {}, "name", 2),
        "tools-mapping": (fm("allowed-tools: {a: b}"), {}, "allowed-tools", 2),
        "bad-rating": (fm("metadata:\n  content-rating: nsfw"), {}, "content-rating", 3),
        "bad-scope": (fm("metadata:\n  scope: global"), {}, "metadata.scope", 3),
        "systems-number": (fm("metadata:\n  systems: 7"), {}, "metadata.systems", 3),
        "zh-list": (fm("description-zh: [a]"), {}, "description-zh", 2),
        "lone-surrogate": (fm('description: "\\ud800"'), {}, "surrogate", None),
        "Upper-Case": (fm("description: d"), {}, "not a skill id", None),
        "bad-hooks": (fm("description: d"), {"hooks.js": b"on('turn_start', () => 1) \xc3\x28"}, "invalid UTF-8", 1),
        "big-hooks": (fm("description: d"), {"hooks.js": b"//" + b"x" * (200 * 1024)}, "limit", None),
        "skill-md-folder": (b"", {}, "is a folder", None),
    }


@pytest.fixture(scope="module")
def hostile_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("hostile")
    skills = home / "skills"
    for skill_id, (text, files, _, _) in hostile_corpus().items():
        folder = skills / skill_id
        folder.mkdir(parents=True)
        if skill_id == "skill-md-folder":
            (folder / "SKILL.md").mkdir()
        else:
            (folder / "SKILL.md").write_bytes(text)
        for rel, data in files.items():
            (folder / rel).write_bytes(data)
    write_skill(skills, "survivor", "description: still loads")
    return home


def snapshot(root: Path) -> dict[Path, bytes]:
    """Every file under ``root`` but the lock file (``.lw/``)."""
    return {p: p.read_bytes() for p in root.rglob("*") if p.is_file() and ".lw" not in p.relative_to(root).parts}


def test_the_list_shows_every_problem_located_and_the_rest_loads(hostile_home: Path) -> None:
    before = snapshot(hostile_home / "skills")
    out = lw("skill", "list", "--json", home=hostile_home)
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    data = json.loads(out.stdout)
    assert "survivor" in {s["id"] for s in data["skills"]}
    problems = {p["id"]: p for p in data["problems"]}
    assert set(problems) == set(hostile_corpus())
    for skill_id, (_, _, word, line) in hostile_corpus().items():
        error = problems[skill_id]["error"]
        assert word.lower() in problems[skill_id]["message"].lower(), (skill_id, problems[skill_id]["message"])
        assert error["file"] and skill_id in error["file"]
        if line is not None:
            assert error["line"] == line, (skill_id, error)
    text = lw("skill", "list", home=hostile_home)
    assert text.returncode == 0 and sum(line.startswith("x ") for line in text.stdout.splitlines()) == len(hostile_corpus())
    assert snapshot(hostile_home / "skills") == before


@pytest.mark.parametrize("skill_id", sorted(hostile_corpus()))
def test_each_hostile_skill_is_refused_with_its_location(hostile_home: Path, skill_id: str) -> None:
    _, _, word, line = hostile_corpus()[skill_id]
    folder = hostile_home / "skills" / skill_id
    for args in (("skill", "show", skill_id), ("skill", "validate", str(folder))):
        out = lw(*args, home=hostile_home)
        assert out.returncode == 1, (args, out.stdout, out.stderr)
        assert "Traceback" not in out.stderr and "internal error" not in out.stderr.lower()
        assert word.lower() in out.stderr.lower() and str(folder) in out.stderr, out.stderr
        if line is not None:
            assert f":{line}:" in out.stderr or f":{line} " in out.stderr or out.stderr.rstrip().endswith(f":{line}")


def test_a_hostile_skill_is_never_enabled(hostile_home: Path, tmp_path: Path) -> None:
    room = copy_room(tmp_path / "room")
    before = snapshot(room)
    for skill_id in ("alias-bomb", "bad-utf8", "Upper-Case"):
        out = lw("skill", "enable", str(room), skill_id, "--json", home=hostile_home)
        assert out.returncode == 1 and "does not load" in json.loads(out.stdout)["error"]["message"]
    assert snapshot(room) == before


def test_show_validate_enable_disable(tmp_path: Path) -> None:
    home = tmp_path / "home"
    room = copy_room(tmp_path / "room")
    write_skill(home / "skills", "pier-watch", "name: Pier watch\ndescription: Watch the pier.\n"
                "allowed-tools: [keeper_note, summon_kraken]", files={"references/tides.md": "high at dusk"})
    shown = lw("skill", "show", "pier-watch", home=home)
    assert shown.returncode == 0 and "summon_kraken (not installed)" in shown.stdout and "tides.md" in shown.stdout
    data = json.loads(lw("skill", "show", "pier-watch", "--json", home=home).stdout)
    assert data["missing_tools"] == ["summon_kraken"] and data["references"] == ["tides.md"]
    valid = lw("skill", "validate", str(home / "skills" / "pier-watch" / "SKILL.md"), home=home)
    assert valid.returncode == 0 and "ok, skill pier-watch (Pier watch)" in valid.stdout
    assert "'summon_kraken'" in valid.stdout
    on = lw("skill", "enable", str(room), "pier-watch", "--json", home=home)
    assert on.returncode == 0, on.stderr
    assert json.loads(on.stdout)["feature"] == {"id": "pier-watch", "skill": True, "narrows": True,
                                                "tools": ["keeper_note", "read_skill_reference"]}
    listed = json.loads(lw("skill", "list", str(room), "--json", home=home).stdout)
    assert [r["id"] for r in listed["room"]] == ["pier-watch"] and listed["room"][0]["active"]
    text = lw("skill", "list", str(room), home=home).stdout
    assert "* pier-watch  Pier watch — Watch the pier. [from user]" in text and "[from skills" in text
    off = lw("skill", "disable", str(room), "pier-watch", home=home)
    assert off.returncode == 0 and "disabled" in off.stdout
    again = lw("skill", "disable", str(room), "pier-watch", "--json", home=home)
    assert again.returncode == 1 and "not enabled" in json.loads(again.stdout)["error"]["message"]
    missing = lw("skill", "show", "nope", home=home)
    assert missing.returncode == 1 and "no skill 'nope'" in missing.stderr and "pier-watch" in missing.stderr
    assert "skill" in lw("schema", "skill", home=home).stdout
    doctor = lw("doctor", home=home)
    assert doctor.returncode == 0 and "skills discovered" in doctor.stdout
