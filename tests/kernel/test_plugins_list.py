"""``lw plugins list`` answered without click (``lwcore.cli.listing``) prints exactly what the
click command prints, and hands anything else to it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lwcore.cli import listing

LW = str(Path(sys.executable).with_name("lw"))
BROKEN = "raise RuntimeError('broken at import')\n"


def lw(*args: str, home: Path, site=None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env["LW_HOME"] = str(home)
    if site is not None:
        env["PYTHONPATH"] = str(site.root)
        env["LW_PLUGINS"] = "broken"
    return subprocess.run([LW, *args], capture_output=True, text=True, env=env, timeout=120)


@pytest.mark.parametrize("options", [(), ("--json",), ("--all",), ("--all", "--json"), ("--json", "--all")])
def test_the_fast_path_prints_what_the_click_command_prints(options, site, tmp_path: Path) -> None:
    site.add("broken", code=BROKEN)  # an error row, with its reason, in both
    fast = lw("plugins", "list", *options, home=tmp_path / "home", site=site)
    # --data-dir before the command word: the click group parses it, the fast path does not apply
    slow = lw("--data-dir", str(tmp_path / "home"), "plugins", "list", *options, home=tmp_path / "home", site=site)
    assert fast.returncode == slow.returncode == 0 and fast.stderr == slow.stderr == ""
    assert fast.stdout == slow.stdout
    assert "broken" in fast.stdout and "RuntimeError: broken at import" in fast.stdout
    if "--json" in options:
        json.loads(fast.stdout)


def test_the_fast_path_imports_no_click(tmp_path: Path) -> None:
    code = ("import sys\nfrom lwcore.cli import main\ntry:\n    main(['plugins', 'list'])\nexcept SystemExit as e:\n"
            "    print('EXIT', e.code, 'click' in sys.modules, file=sys.stderr)\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")} | {"LW_HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.stderr.strip() == "EXIT 0 False" and "host" in out.stdout


@pytest.mark.parametrize("args", [["plugins", "list", "--json", "--json"], ["plugins", "list", "--help"],
                                  ["plugins", "list", "x"], ["plugins", "info", "host"], ["plugins"]])
def test_other_command_lines_are_left_to_click(args: list[str], capsys) -> None:
    assert listing.fast_list(args) is False and capsys.readouterr().out == ""


def test_a_failure_before_printing_is_left_to_click(monkeypatch, capsys) -> None:
    def fails(*args, **kwargs):
        raise OSError("the data dir went away")

    monkeypatch.setattr(listing, "listing", fails)
    assert listing.fast_list(["plugins", "list"]) is False and capsys.readouterr().out == ""
