"""Where the persona keeps its files (issue 13) and how it writes them (issue 11).

Without ``$DSH_HOME`` every file lives under the kernel's data dir (``--data-dir``,
``$LW_HOME``, a host's ``data_dir``), never in ``~/.dsh``; with ``$DSH_HOME`` the spec's
shared layout. Every rewrite goes through one atomic write that keeps links and modes.
"""

from __future__ import annotations

import ast
import json
import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner
from lwcore.cli import lw
from lwcore.contributions import TurnContext
from lwcore.kernel import Kernel

import lw_persona
from lw_persona.places import Places

CARD = {"spec": "chara_card_v2", "data": {"name": "Guide", "description": "{{char}} guides {{user}}.", "personality": "calm"}}


@pytest.fixture
def no_dsh(monkeypatch, tmp_path):
    """No $DSH_HOME, and a fake home folder that must stay empty (no ~/.dsh)."""
    monkeypatch.delenv("DSH_HOME")
    fake_home = tmp_path / "user-home"
    fake_home.mkdir()
    monkeypatch.setenv("HOME", str(fake_home))
    return fake_home


def persona_files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() and "cache" not in p.parts)


def test_cli_writes_under_data_dir_option(no_dsh, tmp_path):
    data = tmp_path / "data"
    card = tmp_path / "guide.json"
    card.write_text(json.dumps(CARD), encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(lw, ["--data-dir", str(data), "persona", "import", str(card)]).exit_code == 0
    assert runner.invoke(lw, ["--data-dir", str(data), "persona", "preset", "apply", "guide"]).exit_code == 0
    assert persona_files(data) == ["plugins-data/persona/config.json", "plugins-data/persona/presets/autosave.json",
                                   "plugins-data/persona/presets/guide.json"]
    out = runner.invoke(lw, ["--data-dir", str(data), "persona", "render", "--user", "小林"])
    assert out.exit_code == 0 and "Guide guides 小林." in out.output
    assert list(no_dsh.iterdir()) == []


def test_lw_home_is_followed(no_dsh, tmp_path, monkeypatch):
    monkeypatch.setenv("LW_HOME", str(tmp_path / "lw-home"))
    card = tmp_path / "guide.json"
    card.write_text(json.dumps(CARD), encoding="utf-8")
    assert CliRunner().invoke(lw, ["persona", "import", str(card)]).exit_code == 0
    assert (tmp_path / "lw-home" / "plugins-data" / "persona" / "presets" / "guide.json").is_file()
    assert list(no_dsh.iterdir()) == []


def test_a_hosts_data_dir_is_followed_by_the_segment_hook(no_dsh, tmp_path):
    kernel = Kernel(data_dir=tmp_path / "host-data")
    folder = tmp_path / "host-data" / "plugins-data" / "persona"
    folder.mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps({"persona": {"stance": "host {{user}}"}}), encoding="utf-8")
    segments = kernel.prompt_segments(TurnContext(actor_name="阿明")).segments
    assert [e.value.text for e in segments if e.plugin_id == "persona"] == ["host 阿明"]
    assert list(no_dsh.iterdir()) == []


def test_dsh_home_shares_files_with_other_whale_persona_tools(tmp_path, home):
    """With $DSH_HOME set, a config another tool wrote there is the one used, even with a
    kernel data dir of our own."""
    (home / "whale-persona").mkdir(parents=True)
    (home / "whale-persona" / "config.json").write_text(json.dumps({"persona": {"stance": "shared"}}), encoding="utf-8")
    kernel = Kernel(data_dir=tmp_path / "own-data")
    segments = kernel.prompt_segments(TurnContext()).segments
    assert [e.value.text for e in segments if e.plugin_id == "persona"] == ["shared"]
    assert not (tmp_path / "own-data" / "plugins-data").exists()


def test_the_manifest_asks_for_the_data_dir():
    kernel = Kernel(entry_points=True)
    assert "fs:data_dir" in kernel.plugin("persona").manifest.needs


# --- writes (issue 11) -----------------------------------------------------------------------


def test_preset_apply_writes_through_a_symlinked_config(write_config, tmp_path, home):
    real = tmp_path / "dotfiles" / "persona-config.json"
    real.parent.mkdir()
    real.write_text(json.dumps({"persona": {"stance": "old"}, "x-other-tool": 1}), encoding="utf-8")
    real.chmod(0o640)
    link = home / "whale-persona" / "config.json"
    link.parent.mkdir(parents=True)
    link.symlink_to(real)
    preset = {"spec": "whale-persona-preset/1", "id": "new", "persona": {"stance": "new"}}
    (home / "whale-persona" / "presets").mkdir()
    (home / "whale-persona" / "presets" / "new.json").write_text(json.dumps(preset), encoding="utf-8")
    result = CliRunner().invoke(lw, ["persona", "preset", "apply", "new"])
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert json.loads(real.read_text(encoding="utf-8")) == {"persona": {"stance": "new"}, "x-other-tool": 1}
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert sorted(p.name for p in real.parent.iterdir()) == ["persona-config.json"]  # no temp file left


WRITES = {".write_text", ".write_bytes", ".touch", "atomic_write_text", "atomic_write_bytes", "os.replace", "os.rename",
          "mkstemp", "os.open"}
"""Calls that create or replace a file. ``write_text`` / ``cfgmod.write_text`` (config.write_text,
the atomic rewrite every command uses) are not in it."""
ALLOWED = {
    ("config.py", "atomic_write_text"),  # inside config.write_text
    ("inbox.py", "os.open"),  # inbox.append_line: O_APPEND, one write per line
    ("sinks.py", "os.open"),  # sinks.sink_entry: O_APPEND to the route's file
    ("checks.py", ".write_text"), ("checks.py", ".write_bytes"),  # the self-check's temporary folder
}


def call_name(node: ast.Call) -> str:
    """``os.replace``/``cfgmod.write_text`` for calls on those modules, ``.name`` for any other
    method (``path.write_text``), ``name`` for plain functions."""
    func = node.func
    if isinstance(func, ast.Attribute):
        if isinstance(func.value, ast.Name) and func.value.id in ("os", "cfgmod"):
            return f"{func.value.id}.{func.attr}"
        return "." + func.attr
    return getattr(func, "id", "")


def test_every_rewrite_goes_through_config_write_text():
    package = Path(lw_persona.__file__).parent
    found = []
    for path in sorted(package.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = call_name(node)
            if name in WRITES and (path.name, name) not in ALLOWED:
                found.append(f"{path.name}:{node.lineno}: {name}")
            at = {"open": 1, ".open": 0}.get(name)  # open(path, mode) / path.open(mode)
            mode = node.args[at] if at is not None and len(node.args) > at else None
            if isinstance(mode, ast.Constant) and set(str(mode.value)) & set("wax+"):
                found.append(f"{path.name}:{node.lineno}: open for writing")
    assert found == []
