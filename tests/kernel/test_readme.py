"""The README's blocks run as written.

Python blocks run in this process (temporary folders inside the test's own tmp dir); the
operators' shell block runs with ``bash`` exactly as printed, in a fresh data dir and a folder
holding a copy of ``examples/`` and the venv ``make setup`` made. Every shell block is claimed
by a runner here or by ``.ci/run`` (the blocks that install from PyPI)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
sys.path.insert(0, str(ROOT / "tools"))
import readme  # noqa: E402  (tools/readme.py: the README's blocks by heading)

sys.path.remove(str(ROOT / "tools"))

#: Which runner runs each shell block, by the heading it stands under.
RUNNERS = {
    "The two commands": ".ci/run (make demo, make test)",
    "For operators": "test_operator_block_runs_as_written",
    "Installing without make": ".ci/run (python tools/readme.py run 'Installing without make')",
}


def python_block(marker: str) -> str:
    return next(code for _, code in readme.blocks("python") if marker in code)


def run_python(code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.chdir(ROOT)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    return out.getvalue().splitlines()


def test_host_example_runs_twice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As written, and again: a second run needs no cleaning up (it takes a new folder)."""
    for _ in range(2):
        lines = run_python(python_block("Kernel("), tmp_path, monkeypatch)
        assert lines[0] == "[('house', 'House rules apply (en).')]"
        assert lines[1] == "[('host', 'enabled'), ('pack', 'enabled'), ('rules', 'enabled'), ('turn', 'enabled'), ('house', 'enabled')]"
        assert lines[2] == "() ()"
    assert len(list(tmp_path.iterdir())) == 2  # each run made its own data dir under the temp dir


def test_host_turn_example_runs_twice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for _ in range(2):
        lines = run_python(python_block("kernel.turn("), tmp_path, monkeypatch)
        assert lines == [
            "['skill_check', 'subsystem_check', 'adjust_variable', 'adjust_variable', 'set_variable']",
            "2",
        ]
    assert not (ROOT / "examples" / "fog-harbor" / ".lw").exists()  # the checkout's room is untouched
    assert sorted(p.name for p in next(tmp_path.iterdir()).iterdir()) == ["data", "room"]


def test_every_shell_block_has_a_runner() -> None:
    headings = [h for h, _ in readme.blocks("sh")]
    assert set(headings) == set(RUNNERS), "a README shell block nobody runs (or a runner for none)"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "make demo" in ci and "make test" in ci
    assert "tools/readme.py run 'Installing without make'" in ci


def test_operator_block_runs_as_written(tmp_path: Path) -> None:
    """The operators' block through ``bash -e``, every line as printed (the activate line
    included), in a folder with ``examples/`` and ``.venv`` as a checkout after make setup."""
    import shutil

    code = readme.script("For operators")
    assert code.splitlines()[1].startswith(". .venv/bin/activate ")
    work = tmp_path / "work"
    shutil.copytree(ROOT / "examples", work / "examples")
    (work / ".venv").symlink_to(Path(sys.prefix))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LW_", "VIRTUAL_ENV"))}
    env["PATH"] = "/usr/bin:/bin"  # a fresh shell: lw is found only through the activate line
    env["LW_HOME"] = str(tmp_path / "home")
    proc = subprocess.run(["bash", "-c", code], cwd=work, env=env, capture_output=True, text=True,
                          timeout=900, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    assert "Traceback" not in proc.stderr
    # The block did what its comments say: the pack is installed, coc7 is enabled again.
    lw = str(Path(sys.prefix) / "bin" / "lw")
    listed = subprocess.run([lw, "plugins", "list", "--json"], env=env, capture_output=True, text=True, timeout=60)
    rows = {r["id"]: r["status"] for r in json.loads(listed.stdout)}
    assert rows["coc7"] == "enabled"
    assert (tmp_path / "home" / "packs").is_dir()
    assert re.search(r"blackmoor", proc.stdout)


def test_operator_block_needs_its_activate_line(tmp_path: Path) -> None:
    """Without the activate line the block fails in a fresh shell: the line is what makes it
    run, so the test above would notice if the README lost it."""
    code = readme.script("For operators").replace(". .venv/bin/activate ", "true ", 1)
    env = {"PATH": "/usr/bin:/bin", "LW_HOME": str(tmp_path / "home"), "HOME": str(tmp_path)}
    proc = subprocess.run(["bash", "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 127 and "lw: command not found" in proc.stderr
