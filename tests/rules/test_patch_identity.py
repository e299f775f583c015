"""A patch rulepack (``extends:``) has its own id and its own keys (contract A.1: "补丁必须有自己的
新 id"): it never inherits its parent's ``names``/``set_keys``, so a word that selects the parent
never selects the patch -- however the ids sort. What is written for the parent still holds in a
room playing the patch (its sheets load, a skill for the parent counts): the patch *is a* parent.

Everything here runs ``lw`` as an operator would, in a data dir holding the user rulepack
``abyss.yaml`` (``extends: coc7``): ``abyss`` sorts before ``coc7``, so a patch that inherited
``coc`` would be the first system found for it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LW = str(Path(sys.executable).with_name("lw"))
PATCH = "extends: coc7\nnames: [abyss, 深渊]\ndefaults:\n  深渊知识: 5\n"


def lw(home: Path, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    run = subprocess.run([LW, "--data-dir", str(home), *args], capture_output=True, text=True, timeout=120,
                         cwd=home.parent)
    if ok:
        assert run.returncode == 0, run.stderr
    return run


@pytest.fixture
def home(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    (data / "rulepacks").mkdir(parents=True)
    (data / "rulepacks" / "abyss.yaml").write_text(PATCH, encoding="utf-8")
    return data


def test_the_parents_words_never_select_the_patch(home: Path) -> None:
    for word in ("coc", "coc7", "CoC7", "call of cthulhu", "克苏鲁"):
        assert json.loads(lw(home, "check", word, "--skill", "侦查=50", "--dice", "14", "--json").stdout)["system"] == "coc7"
    for word in ("abyss", "深渊"):
        assert json.loads(lw(home, "check", word, "--skill", "深渊知识=50", "--dice", "14", "--json").stdout)["system"] \
            == "abyss"
    listed = {line.split()[0]: line for line in lw(home, "rulepack", "list").stdout.splitlines()[1:]}
    assert listed["abyss"].split(None, 3)[3] == "abyss, 深渊"  # its own words only
    shown = json.loads(lw(home, "rulepack", "show", "abyss", "--json").stdout)
    assert shown["chain"] == ["abyss", "coc7"]
    assert shown["pack"]["names"] == ["abyss", "深渊"] and "set_keys" not in shown["pack"]
    assert shown["pack"]["defaults"]["侦查"] == 25  # everything else is inherited


def test_a_patch_without_names_answers_only_to_its_id(home: Path) -> None:
    (home / "rulepacks" / "abyss.yaml").write_text("extends: coc7\n", encoding="utf-8")
    assert json.loads(lw(home, "check", "coc", "--skill", "侦查=50", "--dice", "14", "--json").stdout)["system"] == "coc7"
    assert lw(home, "rulepack", "list").stdout.splitlines()[1].split() == ["abyss", "user", "ok", "abyss"]


def test_a_room_playing_the_patch_keeps_what_is_written_for_the_parent(home: Path, tmp_path: Path) -> None:
    """The room's sheets say ``system: coc7`` and load; a skill for coc7 counts; the room's
    ``.ra`` grades with the patch (its own skill)."""
    room = tmp_path / "room"
    shutil.copytree(ROOT / "examples" / "fog-harbor", room, ignore=shutil.ignore_patterns("replies"))
    text = (room / "room.yaml").read_text(encoding="utf-8").replace("system: coc7", "system: abyss")
    (room / "room.yaml").write_text(text, encoding="utf-8")
    skill = home / "skills" / "deep-dive"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: deep-dive\ndescription: Dive.\nmetadata:\n  systems: [coc7]\n---\n\nDive.\n",
                                    encoding="utf-8")
    said = lw(home, "turn", str(room), "--as", "kp", "--say", ".skill enable deep-dive").stdout
    assert said.strip() == "技能 deep-dive（deep-dive）已启用"
    listing = lw(home, "skill", "list", str(room)).stdout.splitlines()
    assert "* deep-dive — Dive. [from user; coc7]" in listing  # * = counts in this room
    roll = json.loads(lw(home, "turn", str(room), "--as", "p2", "--say", ".ra 深渊知识", "--seed", "3",
                         "--json").stdout)
    assert roll["data"]["system"] == "abyss" and roll["text"] == "苏婉清: 深渊知识 5: 1d100=24/5 Failure"


def test_a_pack_that_claims_the_bundled_systems_words_never_takes_them(home: Path) -> None:
    """A user rulepack that writes ``names``/``set_keys`` the bundled coc7 answers to (``coc``,
    ``coc7``'s names) does not take them: a word two systems claim selects the one first in
    trust order (built-in and bundled before plugins and user files), however the ids sort."""
    (home / "rulepacks" / "abyss.yaml").write_text(PATCH.replace("names: [abyss, 深渊]",
                                                                 "names: [abyss, 深渊, call of cthulhu]\nset_keys: [coc, coc7]"),
                                                   encoding="utf-8")
    for word in ("coc", "call of cthulhu"):
        assert json.loads(lw(home, "check", word, "--skill", "侦查=50", "--dice", "14", "--json").stdout)["system"] == "coc7"
    assert json.loads(lw(home, "check", "深渊", "--skill", "深渊知识=50", "--dice", "14", "--json").stdout)["system"] == "abyss"
