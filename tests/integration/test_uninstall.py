"""Uninstalling a bundled plugin's distribution (a real ``pip uninstall``) removes its feature
with no residue and leaves the others working. Each plugin is reinstalled (editable) after.

Runs the installed ``lw`` in subprocesses against a fresh data dir, so nothing is cached from
before the uninstall.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LW = str(Path(sys.executable).with_name("lw"))
PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet"]


def lw(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env["LW_HOME"] = str(home)
    return subprocess.run([LW, *args], capture_output=True, text=True, env=env, timeout=120, encoding="utf-8")


def uninstalled(distribution: str, folder: str) -> Iterator[None]:
    subprocess.run([*PIP, "uninstall", "--yes", distribution], check=True, timeout=300)
    try:
        yield
    finally:
        subprocess.run(
            [*PIP, "install", "--no-deps", "--no-build-isolation", "-e", str(ROOT / "plugins" / folder)],
            check=True, timeout=600, capture_output=True,
        )


def answers(home: Path) -> str:
    """Everything the kernel answers about itself, as one text."""
    outputs = [
        lw("--help", home=home),
        lw("plugins", "list", "--json", home=home),
        lw("doctor", home=home),
        lw("rulepack", "list", home=home),
        lw("schema", home=home),
    ]
    for out in outputs:
        assert out.returncode == 0, out.stderr
        assert "Traceback" not in out.stderr
    return "\n".join(o.stdout for o in outputs)


@pytest.fixture
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # a neutral name: the default tmp_path carries the test's name into every path printed
    return tmp_path_factory.mktemp("h")


def test_without_coc7(home: Path) -> None:
    for _ in uninstalled("loreweaver-builtin-coc7", "builtin_coc7"):
        text = answers(home)
        assert not re.search(r"coc|cthulhu|克苏鲁", text, re.I), text
        missing = lw("check", "coc7", "--skill", "60", "--roll", "30", home=home)
        assert missing.returncode == 1 and "Traceback" not in missing.stderr
        assert lw("cmd", "dnd5e", ".chk str", "--seed", "1", home=home).returncode == 0
        assert lw("check", "wod", "--param", "pool=5", "--seed", "1", home=home).returncode == 0


@pytest.mark.parametrize(
    ("distribution", "folder", "system", "others"),
    [
        ("loreweaver-builtin-dnd5e", "builtin_dnd5e", "dnd5e", ("coc7", "wod")),
        ("loreweaver-builtin-wod", "builtin_wod", "wod", ("coc7", "dnd5e")),
    ],
)
def test_without_one_pack_the_other_two_work(home: Path, distribution, folder, system, others) -> None:
    for _ in uninstalled(distribution, folder):
        listed = lw("rulepack", "list", home=home).stdout
        assert [line.split()[0] for line in listed.splitlines()[1:]] == sorted(others)  # after the header row
        assert system not in {p["id"] for p in json.loads(lw("plugins", "list", "--json", home=home).stdout)}
        for other in others:
            result = lw("cmd", other, ".st", "--seed", "1", home=home)
            assert result.returncode == 0, result.stderr


PERSONA_STANCE = "你是一位沉稳克制的克苏鲁跑团守秘人"  # from examples/fog-harbor/persona.json


def test_without_persona_turns_work_without_persona_text(home: Path) -> None:
    with_persona = lw("turn", "--fresh", "--say", "我四处看看。", "--json", home=home)
    assert with_persona.returncode == 0, with_persona.stderr
    data = json.loads(with_persona.stdout)
    assert {s["plugin"] for s in data["segments"]} == {"persona", "turn"}  # turn: the kernel's own state
    assert PERSONA_STANCE in json.dumps(data["payload"], ensure_ascii=False)
    for _ in uninstalled("loreweaver-persona", "persona"):
        result = lw("turn", "--fresh", "--say", "我四处看看。", "--json", home=home)
        assert result.returncode == 0, result.stderr
        data = json.loads(result.stdout)
        assert {s["plugin"] for s in data["segments"]} == {"turn"} and data["dropped"] == []
        assert PERSONA_STANCE not in json.dumps(data["payload"], ensure_ascii=False)
        assert "persona" not in answers(home)


def test_without_skills_the_skill_command_and_tools_are_gone(home: Path) -> None:
    assert re.search(r"^  skill ", lw("--help", home=home).stdout, re.M)
    for _ in uninstalled("loreweaver-skills", "skills"):
        assert not re.search(r"^  skill ", lw("--help", home=home).stdout, re.M)
        text = answers(home)
        assert not re.search(r"skill-forge|generate_skill|lw skill", text), text
        missing = lw("skill", "list", home=home)
        assert missing.returncode != 0 and "Traceback" not in missing.stderr
        turn = lw("turn", "--fresh", "--say", "我四处看看。", "--as", "kp", "--json", home=home)
        assert turn.returncode == 0, turn.stderr
        assert not {"read_skill_reference", "generate_skill"} & set(json.loads(turn.stdout)["tools"])
