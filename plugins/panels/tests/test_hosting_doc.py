"""docs/hosting.md's "Several rooms on one server" block runs as written, from a checkout's
folder (a copy of ``examples/``) in a fresh data dir: the rooms it makes are served, each
``lw serve`` line on a free port (``--port 0`` added, nothing else changed) until it has
printed every seat's link (the first) or how to make it anew (the second). A room on a pack's rule system whose pack is not installed is refused with
the command that installs one."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="lw serve needs the serve extra (starlette, uvicorn)")
pytest.importorskip("uvicorn", reason="lw serve needs the serve extra (starlette, uvicorn)")

ROOT = Path(__file__).resolve().parents[3]
HOSTING = ROOT / "docs" / "hosting.md"
HEADING = "Several rooms on one server"
sys.path.insert(0, str(ROOT / "tools"))
import readme  # noqa: E402  (tools/readme.py: a document's blocks by heading)

sys.path.remove(str(ROOT / "tools"))


def block() -> list[str]:
    found = [code for heading, code in readme.blocks("sh", HOSTING.read_text(encoding="utf-8")) if heading == HEADING]
    assert len(found) == 1, f"docs/hosting.md has no single shell block under {HEADING!r}"
    return [line for line in found[0].splitlines() if line.strip()]


def environment(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LW_", "VIRTUAL_ENV"))}
    env.update({"PATH": f"{Path(sys.prefix) / 'bin'}:/usr/bin:/bin", "LW_HOME": str(home), "PYTHONUNBUFFERED": "1"})
    return env


def served(line: str, work: Path, env: dict[str, str]) -> str:
    """Run one ``lw serve`` line on a free port until it has printed its links; its output."""
    command, _, _ = line.partition("#")
    process = subprocess.Popen(["bash", "-c", f"exec {command.strip()} --port 0"], cwd=work, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: list[str] = []

    def read() -> None:
        for out in process.stdout:  # type: ignore[union-attr]
            lines.append(out)
            if out.startswith("Ctrl-C stops it"):
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(120)
    try:
        assert lines and lines[-1].startswith("Ctrl-C stops it"), "".join(lines)
        return "".join(lines)
    finally:
        process.terminate()
        _, err = process.communicate(timeout=30)
        assert "Traceback" not in err, err


def test_the_several_rooms_block_runs_as_written(tmp_path: Path) -> None:
    lines = block()
    setup = [line for line in lines if not line.startswith("lw serve ")]
    serves = [line for line in lines if line.startswith("lw serve ")]
    assert len(serves) == 2 and len(setup) + len(serves) == len(lines)
    work = tmp_path / "work"
    shutil.copytree(ROOT / "examples", work / "examples")
    env = environment(tmp_path / "home")
    done = subprocess.run(["bash", "-c", "set -euo pipefail\n" + "\n".join(setup)], cwd=work, env=env,
                          capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    first, every = (served(line, work, env) for line in serves)
    for room in ("fog-harbor", "fen"):  # each room under its own path, a link for every seat ...
        assert len(re.findall(rf"\((?:keeper|p1|p2)\): http://127\.0\.0\.1:\d+/r/{room}/t/\S+/", first)) == 3, first
        # ... printed once: --all serves the same two rooms and says how to make each link anew
        assert len(re.findall(rf"the link sent earlier \(a new one: lw seat rotate {room} (?:kp|p1|p2) ", every)) == 3, every


def test_a_room_on_a_pack_not_installed_names_the_command(tmp_path: Path) -> None:
    env = environment(tmp_path / "home")
    line = next(line for line in block() if "--from examples/blackmoor/room" in line)
    made = subprocess.run(["bash", "-c", line], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    refused = subprocess.run(["lw", "turn", "fen", "--say", ".pc list"], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=120)
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert "rule system 'blackmoor' is not installed" in refused.stderr
    assert "lw pack install" in refused.stderr and "lw rulepack list" in refused.stderr, refused.stderr
