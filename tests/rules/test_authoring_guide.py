"""``docs/authoring-rulepacks.md`` runs: every block in it is executed, in order, in one
temporary folder (``LW_HOME`` is its ``home/``).

- a fenced block with ``title="PATH"`` is a file: it is written to PATH (later blocks with the
  same title replace it, as the tutorial's steps grow the file);
- a ``console`` block holds ``$ lw …`` commands, each followed by the output it must print
  (stdout, then stderr); a ``...`` line stands for any lines, a ``~ TEXT`` line for a line
  that contains TEXT (for output laid out for a terminal); an output starting with
  ``error:`` or ``FAIL`` means the command must exit 1, otherwise 0.

Any other block fails the test: the guide has no code that does not run.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "authoring-rulepacks.md"
LW = [sys.executable, "-c", "import sys; from lwcore.cli import main; main(sys.argv[1:])"]
BLOCK = re.compile(r"^```(?P<info>[^\n]*)\n(?P<body>.*?)^```\s*$", re.M | re.S)


def blocks() -> list[tuple[str, str]]:
    return [(m.group("info").strip(), m.group("body")) for m in BLOCK.finditer(GUIDE.read_text(encoding="utf-8"))]


def matches(expected: list[str], actual: list[str]) -> bool:
    """``expected`` lines against ``actual``; a ``...`` line matches any number of lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    if expected[0].startswith("~ "):
        return bool(actual) and expected[0][2:] in actual[0] and matches(expected[1:], actual[1:])
    return bool(actual) and expected[0] == actual[0] and matches(expected[1:], actual[1:])


def run(command: str, workdir: Path) -> tuple[int, list[str]]:
    stdin = None
    if command.startswith("echo "):
        payload, command = command.split(" | ", 1)
        stdin = shlex.split(payload)[1] + "\n"
    argv = shlex.split(command)
    assert argv[0] == "lw", command
    env = {**os.environ, "LW_HOME": str(workdir / "home")}
    proc = subprocess.run([*LW, *argv[1:]], input=stdin, capture_output=True, text=True, cwd=workdir, env=env,
                          timeout=120)
    return proc.returncode, (proc.stdout + proc.stderr).splitlines()


def test_every_block_of_the_guide_runs(tmp_path: Path) -> None:
    found = blocks()
    assert sum(info == "console" for info, _ in found) >= 8
    for info, body in found:
        title = re.search(r'title="([^"]+)"', info)
        if title:
            path = tmp_path / title.group(1)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(body, encoding="utf-8")
            continue
        assert info == "console", f"a block that does not run: ```{info}"
        steps = re.split(r"^\$ ", body, flags=re.M)
        assert steps[0].strip() == "", "a console block starts with a $ command"
        for step in steps[1:]:
            command, *expected = step.rstrip("\n").split("\n")
            code, lines = run(command, tmp_path)
            failing = bool(expected) and expected[0].startswith(("error:", "FAIL"))
            assert code == (1 if failing else 0), f"$ {command}\n" + "\n".join(lines)
            assert matches(expected, lines), f"$ {command}\nexpected:\n" + "\n".join(expected) + "\ngot:\n" + \
                "\n".join(lines)
