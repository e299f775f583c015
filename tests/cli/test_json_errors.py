"""With ``--json``, every error is ``{"error": {"message", "location", "code"}}`` on stdout
and the exit status is not 0 -- for every command that has a ``--json`` option.

The commands are found by walking the whole click tree (``cli_tree``); nothing here lists
them. Each gets the bad inputs that fit its parameters:

- ``unknown-option``: ``--no-such-option`` (every command): a usage error whose location is
  that option (exit 2);
- ``missing-argument``: its first required argument left out: located at that argument;
- ``bad-value``: ``not-a-value`` for its first option taking a number or a choice: located at
  that option;
- ``missing-file``: every argument (and required option) given a path that does not exist
  (a choice gets its first choice): a refused input (exit 1, a code other than ``usage`` or
  ``internal``), located at the file when the error names one.

Each runs through ``lwcore.cli.main`` in this process (as the console script does, with
``sys.argv`` set), in an empty folder with a fresh data dir and nothing on stdin.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import click
import pytest

from cli_tree import Entry, commands

MISSING = "missing"
"""The folder (never created) the ``missing-file`` paths are in."""


def with_json() -> list[Entry]:
    return [entry for entry in commands() if entry.option("--json") is not None]


def fill(entry: Entry, root: Path, stop_at: click.Argument | None = None) -> list[str]:
    """Every argument and required option of ``entry`` with a path that does not exist (a
    choice with its first choice); with ``stop_at``, that argument and the ones after it
    (arguments are positional) are left out."""
    argv: list[str] = []
    stopped = False
    for param in entry.command.params:
        stopped = stopped or param is stop_at
        if not (isinstance(param, click.Argument) or param.required) or (stopped and isinstance(param, click.Argument)):
            continue
        if isinstance(param.type, click.Choice):
            value = str(param.type.choices[0])
        else:
            value = str(root / MISSING / f"{param.name}.txt")
        argv += [value] if isinstance(param, click.Argument) else [param.opts[0], value]
    return argv


def cases() -> list[tuple[str, str]]:
    out = []
    for entry in with_json():
        out.append((entry.name, "unknown-option"))
        params = entry.command.params
        if any(isinstance(p, click.Argument) and p.required for p in params):
            out.append((entry.name, "missing-argument"))
        if any(isinstance(p, click.Option) and isinstance(p.type, (click.types.IntParamType, click.Choice))
               for p in params):
            out.append((entry.name, "bad-value"))
        if not isinstance(entry.command, click.Group) and any(
                isinstance(p, click.Argument) or p.required for p in params):
            out.append((entry.name, "missing-file"))
    return out


def test_the_tree_holds_the_commands_with_json_of_every_kind() -> None:
    names = {entry.name for entry in with_json()}
    assert {"lw check", "lw turn", "lw pack build", "lw plugins list", "lw skill show", "lw tavern inspect",
            "lw story"} <= names
    kinds = {kind for _, kind in cases()}
    assert kinds == {"unknown-option", "missing-argument", "bad-value", "missing-file"}


def run_main(argv: list[str], folder: Path, monkeypatch: pytest.MonkeyPatch,
             capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from lwcore.cli import main

    args = ["--data-dir", str(folder / "home"), *argv]
    monkeypatch.chdir(folder)
    monkeypatch.setattr(sys, "argv", ["lw", *args])
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    with pytest.raises(SystemExit) as exited:
        main(args)
    out, err = capsys.readouterr()
    return int(exited.value.code or 0), out, err


@pytest.mark.parametrize(("name", "kind"), cases())
def test_a_bad_input_is_a_json_error_on_stdout(name: str, kind: str, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    entry = next(e for e in with_json() if e.name == name)
    params = entry.command.params
    if kind == "unknown-option":
        argv, where = [*entry.path, "--json", "--no-such-option"], "--no-such-option"
    elif kind == "missing-argument":
        argument = next(p for p in params if isinstance(p, click.Argument) and p.required)
        argv = [*entry.path, *fill(entry, tmp_path, stop_at=argument), "--json"]
        where = argument.human_readable_name
    elif kind == "bad-value":
        option = next(p for p in params if isinstance(p, click.Option)
                      and isinstance(p.type, (click.types.IntParamType, click.Choice)))
        argv = [*entry.path, *fill(entry, tmp_path), option.opts[0], "not-a-value", "--json"]
        where = max(option.opts, key=lambda o: (o.startswith("--"), len(o)))
    else:
        argv, where = [*entry.path, *fill(entry, tmp_path), "--json"], None

    code, out, err = run_main(argv, tmp_path, monkeypatch, capsys)

    assert code != 0, f"lw {' '.join(argv)} exited 0:\n{out}"
    assert "Traceback" not in err and err == "", err
    document = json.loads(out)  # stdout is one JSON document and nothing else
    error = document["error"]
    assert {"message", "location", "code"} <= set(error), error
    assert isinstance(error["message"], str) and error["message"]
    assert isinstance(error["location"], str) and isinstance(error["code"], str) and error["code"]
    if kind == "missing-file":
        assert code == 1 and error["code"] not in ("usage", "internal"), error
        if error.get("file"):
            assert error["location"].startswith(error["file"]), error
    else:
        assert code == 2 and error["code"] == "usage" and error["location"] == where, error
