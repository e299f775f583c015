"""Every example in every ``lw`` command's help runs.

The commands are found by walking the whole click tree (``cli_tree``): the kernel's built-in
commands and every bundled plugin's, groups and subcommands alike. A command's examples are
the lines of an ``Examples`` block in its help (a line starting ``Examples`` and ending
``:``, then the lines indented under it). Conventions, so that help can be read and run:

- The examples of one command run in order, in one fresh folder holding a copy of
  ``examples/`` with a fresh data dir (``LW_HOME``) and nothing on stdin, so an example may
  use what the one before it made (``lw pack build … -o dist``, then ``lw pack verify dist/…``).
- ``SYSTEM`` stands for an installed rule system id: the line must run for at least one of
  the bundled systems (tried in the order of :data:`SYSTEMS`).
- ``echo 'TEXT' | lw …``: TEXT (one shell word) is the command's stdin.
- ``# online`` ends an example that needs the network (a model endpoint, a download); it is
  not run. Such a line must name a remote (``https://``, ``http://`` or ``gh:``) and every
  line naming one must be marked, so the marker skips exactly those. Any other ``  # …``
  after an example is a comment.
- Running means: exit status 0 and no traceback.

A help that shows a usage summary (lines starting ``lw ``, with placeholders) must also
show examples that run.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cli_tree import Entry, commands, declared_commands

ROOT = Path(__file__).resolve().parents[2]
LW = [sys.executable, "-c", "import sys; from lwcore.cli import main; main(sys.argv[1:])"]
SYSTEMS = ("coc7", "dnd5e", "wod")
ONLINE = "# online"
REMOTE = re.compile(r"(?:https?://|\bgh:)\S+")
HEADING = re.compile(r"^(\s*)Examples\b.*:\s*$")


def examples_of(help_text: str) -> list[str]:
    """The example lines of a help text (comments kept: ``# online`` decides)."""
    found: list[str] = []
    lines = help_text.splitlines()
    for index, line in enumerate(lines):
        heading = HEADING.match(line)
        if not heading:
            continue
        indent = len(heading.group(1))
        for body in lines[index + 1:]:
            if not body.strip() or len(body) - len(body.lstrip()) <= indent:
                break
            found.append(body.strip())
    return found


def summary_lines(help_text: str) -> list[str]:
    """Lines of the help that show a command line (``lw …``) outside the example blocks."""
    inside = set(examples_of(help_text))
    return [line.strip() for line in help_text.splitlines()
            if line.strip().startswith("lw ") and line.strip() not in inside]


WITH_EXAMPLES = [entry for entry in commands() if examples_of(entry.help)]


def test_the_walk_reaches_every_declared_command_and_finds_examples() -> None:
    top = {entry.path[0] for entry in commands() if len(entry.path) == 1}
    assert top == declared_commands()
    assert len(commands()) > 100
    named = {entry.name for entry in WITH_EXAMPLES}
    assert {"lw turn", "lw pack", "lw check", "lw rulepack", "lw prompt compile"} <= named


@pytest.mark.parametrize("entry", commands(), ids=lambda e: e.name)
def test_a_usage_summary_comes_with_examples(entry: Entry) -> None:
    if summary_lines(entry.help):
        assert examples_of(entry.help), f"{entry.name} --help shows a usage summary but no Examples block"


@pytest.mark.parametrize("entry", WITH_EXAMPLES, ids=lambda e: e.name)
def test_every_example_is_a_command_line_and_online_ones_are_marked(entry: Entry) -> None:
    for example in examples_of(entry.help):
        command, _, comment = example.partition("  #")
        assert re.match(r"^(lw |echo '[^']*' \| lw )", command.strip()), f"{entry.name}: not an lw line: {example!r}"
        online = ("#" + comment).strip().startswith(ONLINE)
        assert online == bool(REMOTE.search(command)), (
            f"{entry.name}: {example!r} — mark a line that needs the network with '{ONLINE}', and only such a line")


def run_example(line: str, folder: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    stdin = ""
    if line.startswith("echo "):
        payload, line = line.split(" | ", 1)
        stdin = shlex.split(payload)[1]
    argv = shlex.split(line)
    assert argv[0] == "lw", line
    return subprocess.run([*LW, *argv[1:]], input=stdin, capture_output=True, text=True, cwd=folder, env=env,
                          timeout=120)


@pytest.mark.parametrize("entry", WITH_EXAMPLES, ids=lambda e: e.name)
def test_every_help_example_runs(entry: Entry, tmp_path: Path) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LW_", "DSH_"))}
    env["LW_HOME"] = str(tmp_path / "home")
    ran = 0
    for example in examples_of(entry.help):
        command, _, comment = example.partition("  #")
        if ("#" + comment).strip().startswith(ONLINE):
            continue
        failures = []
        for system in SYSTEMS if "SYSTEM" in command else ("",):
            proc = run_example(command.strip().replace("SYSTEM", system), tmp_path, env)
            if proc.returncode == 0 and "Traceback" not in proc.stderr:
                break
            failures.append(f"{system or 'as written'}: exit {proc.returncode}: {proc.stderr.strip()[-1500:]}")
        else:
            pytest.fail(f"{entry.name} --help: {example!r} does not run:\n" + "\n".join(failures))
        ran += 1
    assert ran, f"{entry.name} --help has only online examples"
