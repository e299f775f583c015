"""The README's host example runs as written (with its data dir pointed at a temp folder)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_host_example_runs(tmp_path: Path) -> None:
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    example = next(b for b in blocks if "Kernel(" in b)
    example = example.replace('"/tmp/my-host-data"', repr(str(tmp_path)))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(example, "README.md", "exec"), {})
    lines = out.getvalue().splitlines()
    assert lines[0] == "[('house', 'House rules apply (en).')]"
    assert lines[1] == "[('host', 'enabled'), ('pack', 'enabled'), ('rules', 'enabled'), ('turn', 'enabled'), ('house', 'enabled')]"
    assert lines[2] == "() ()"


ROOT = README.parent


def test_host_turn_example_runs(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    example = next(b for b in blocks if "kernel.turn(" in b)
    example = example.replace('"/tmp/my-room"', repr(str(tmp_path / "room")))
    example = example.replace('"/tmp/my-host-data"', repr(str(tmp_path / "home")))
    monkeypatch.chdir(ROOT)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(example, "README.md", "exec"), {})
    lines = out.getvalue().splitlines()
    assert lines == [
        "['skill_check', 'subsystem_check', 'adjust_variable', 'adjust_variable', 'set_variable']",
        "2",
    ]
    assert not (ROOT / "examples" / "fog-harbor" / ".lw").exists()  # the checkout's room is untouched


def operator_lines() -> list[str]:
    """The ``lw`` lines of the first shell block under "For operators", comments stripped."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## For operators", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None
    lines = []
    for line in block.group(1).splitlines():
        command = line.split("  #", 1)[0].strip()
        if command.startswith("lw "):
            lines.append(command)
    return lines


def test_operator_block_runs_as_written(tmp_path: Path) -> None:
    """Every ``lw`` line of the operators' block, in order, in a fresh data dir and a folder
    holding a copy of ``examples/`` (the ``pip install`` line is what ``make setup`` did)."""
    import shlex
    import shutil
    import subprocess
    import sys

    lines = operator_lines()
    assert len(lines) >= 10 and lines[0] == "lw plugins list"
    shutil.copytree(ROOT / "examples", tmp_path / "work" / "examples")
    env = {k: v for k, v in __import__("os").environ.items() if not k.startswith("LW_")}
    env["LW_HOME"] = str(tmp_path / "home")
    lw = str(Path(sys.executable).with_name("lw"))
    for line in lines:
        argv = shlex.split(line)
        proc = subprocess.run([lw, *argv[1:]], cwd=tmp_path / "work", env=env, capture_output=True,
                              text=True, timeout=180, stdin=subprocess.DEVNULL)
        assert proc.returncode == 0, f"{line}\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
        assert "Traceback" not in proc.stderr, line
    # The block did what its comments say: the pack is installed, coc7 is enabled again.
    listed = subprocess.run([lw, "plugins", "list"], env=env, capture_output=True, text=True, timeout=60).stdout
    assert re.search(r"^coc7\s.*\senabled\s", listed, re.M), listed
    assert (tmp_path / "home" / "packs").is_dir()
