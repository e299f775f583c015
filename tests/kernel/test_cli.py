"""The ``lw`` console script, run as a real subprocess (the installed entry point)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

LW = str(Path(sys.executable).with_name("lw"))

GOOD = """
from lwcore.contributions import PromptSegment
from lwcore.hookspecs import hookimpl

@hookimpl
def lw_prompt_segments(turn):
    return [PromptSegment("good-seg", "good text")]
"""


def run(*args: str, site=None, home: Path, env: dict[str, str] | None = None, stdin: str | None = None):
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    full_env["LW_HOME"] = str(home)
    if site is not None:
        full_env["PYTHONPATH"] = str(site.root)
    full_env.update(env or {})
    return subprocess.run(
        [LW, *args], capture_output=True, text=True, env=full_env, input=stdin, timeout=120, encoding="utf-8"
    )


def test_version(tmp_path) -> None:
    result = run("--version", home=tmp_path)
    assert result.returncode == 0 and result.stdout.strip() == "lw 0.1.0"


def test_list_json_fields(site, tmp_path) -> None:
    site.add("good", code=GOOD)
    site.add("broken", code="raise RuntimeError('kaput')")
    result = run("plugins", "list", "--json", site=site, home=tmp_path, env={"LW_PLUGINS": "broken"})
    assert result.returncode == 0, result.stderr
    rows = {row["id"]: row for row in json.loads(result.stdout)}
    good, broken = rows["good"], rows["broken"]
    for key in ("id", "version", "distribution", "tier", "bundled", "status", "provides", "needs", "reason"):
        assert key in good
    assert (good["status"], good["tier"], good["bundled"], good["distribution"]) == ("disabled", "code", False, "lwtest-good")
    assert broken["status"] == "error" and "RuntimeError: kaput" in broken["reason"]
    assert "Traceback" not in result.stderr


def test_enable_requires_confirmation_then_persists(site, tmp_path) -> None:
    site.add("good", code=GOOD)
    refused = run("plugins", "enable", "good", site=site, home=tmp_path, stdin="")
    assert refused.returncode == 1
    assert "runs with your privileges" in refused.stdout
    assert "--yes" in refused.stderr and "nothing to read on stdin" in refused.stderr and "Traceback" not in refused.stderr
    declined = run("plugins", "enable", "good", site=site, home=tmp_path, stdin="n\n")
    assert declined.returncode == 1 and "not confirmed" in declined.stderr
    assert not (tmp_path / "plugins.json").exists()
    accepted = run("plugins", "enable", "good", "--yes", site=site, home=tmp_path)
    assert accepted.returncode == 0 and accepted.stdout.strip().endswith("good: enabled")
    assert json.loads((tmp_path / "plugins.json").read_text(encoding="utf-8"))["enabled"] == ["good"]
    info = json.loads(run("plugins", "info", "good", "--json", site=site, home=tmp_path).stdout)
    assert info["status"] == "enabled"
    disabled = run("plugins", "disable", "good", site=site, home=tmp_path)
    assert disabled.stdout.strip() == "good: disabled"
    piped = run("plugins", "enable", "good", site=site, home=tmp_path, stdin="y\n")  # echo y | lw plugins enable
    assert piped.returncode == 0 and "Enable it? [y/N] y" in piped.stdout and piped.stdout.strip().endswith("good: enabled")


def test_list_has_a_header_row(tmp_path) -> None:
    result = run("plugins", "list", home=tmp_path)
    assert result.stdout.splitlines()[0].split() == ["ID", "VERSION", "TIER", "STATUS", "FROM"]


def test_unknown_plugin_and_schema_are_clean_errors(tmp_path) -> None:
    for args in (("plugins", "info", "nope"), ("schema", "nope")):
        result = run(*args, home=tmp_path)
        assert result.returncode == 1
        assert result.stderr.startswith("error: ") and "Traceback" not in result.stderr


def test_schema_plugin_manifest(tmp_path) -> None:
    result = run("schema", "plugin-manifest", home=tmp_path)
    schema = json.loads(result.stdout)
    assert schema["title"] == "Loreweaver plugin manifest"
    assert {"id", "version", "tier", "provides", "needs", "min_engine", "description"} <= set(schema["properties"])


def test_doctor_shows_reasons(site, tmp_path) -> None:
    site.add("broken", manifest='id = "broken"\nversion = "1"\ntier = "code"\nprovides = ["nope"]\n')
    result = run("doctor", site=site, home=tmp_path)
    assert result.returncode == 0
    assert "data dir: " + str(tmp_path) in result.stdout
    assert "Python 3." in result.stdout
    assert "[ERR] broken" in result.stdout and "provides" in result.stdout


BROKEN_CLI = """
from lwcore.hookspecs import hookimpl

@hookimpl
def lw_cli(register):
    raise RuntimeError("cli exploded")
"""

GOOD_CLI = """
import click
from lwcore.hookspecs import hookimpl

@click.command("hello")
def hello():
    "Say hello."
    click.echo("hello from a plugin")

@hookimpl
def lw_cli(register):
    register(hello)
"""


def test_broken_subcommand_never_breaks_help(site, tmp_path) -> None:
    site.add("badcli", code=BROKEN_CLI, provides=("cli",), extra_manifest='cli_commands = ["bad"]')
    site.add("goodcli", code=GOOD_CLI, provides=("cli",), extra_manifest='cli_commands = ["hello"]')
    env = {"LW_PLUGINS": "badcli,goodcli"}
    result = run("--help", site=site, home=tmp_path, env=env)
    assert result.returncode == 0 and "hello" in result.stdout and "plugins" in result.stdout
    assert run("hello", site=site, home=tmp_path, env=env).stdout.strip() == "hello from a plugin"
    bad = run("bad", site=site, home=tmp_path, env=env)
    assert bad.returncode != 0 and "Traceback" not in bad.stderr


@pytest.mark.parametrize(
    "mode",
    [
        [],  # a regular (wheel) install
        ["-e"],  # the build backend's editable install
    ],
    ids=["wheel", "editable"],
)
def test_scaffolded_plugin_installed_into_this_venv(tmp_path, mode) -> None:
    """`lw plugins new` -> the install command it prints, run as printed (pip may not reach an
    index: the scaffold must come from its folder) -> listed as disabled and not imported ->
    enabled -> its hook is called. Uninstalled again afterwards."""
    import shlex

    home = tmp_path / "home"
    made = subprocess.run(
        [LW, "plugins", "new", "greeter", "--dir", "lw-plugin-greeter"], capture_output=True, text=True,
        env={**{k: v for k, v in os.environ.items() if not k.startswith("LW_")}, "LW_HOME": str(home)},
        cwd=tmp_path, timeout=120,
    )
    assert made.returncode == 0, made.stderr
    hint = made.stdout.splitlines()[-1]
    assert hint.startswith("next: ") and hint.endswith(" && lw plugins enable greeter"), hint
    argv = shlex.split(hint.removeprefix("next: ").removesuffix(" && lw plugins enable greeter"))
    assert argv == [sys.executable, "-m", "pip", "install", "./lw-plugin-greeter"]
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    # Offline: no index at all, and the venv's own build backend (the folder is the only source).
    install = subprocess.run(
        [*argv[:4], *mode, *argv[4:], "--quiet", "--no-index", "--no-deps", "--no-build-isolation"],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )
    assert install.returncode == 0, install.stderr
    try:
        listed = json.loads(run("plugins", "list", "--json", home=home).stdout)
        (row,) = [r for r in listed if r["id"] == "greeter"]
        assert (row["status"], row["loaded"], row["bundled"], row["distribution"]) == (
            "disabled", False, False, "lw-plugin-greeter",
        )
        assert run("plugins", "enable", "greeter", "--yes", home=home).returncode == 0
        probe = (
            "import sys\n"
            "from lwcore.kernel import Kernel\n"
            "from lwcore.contributions import TurnContext\n"
            "k = Kernel()\n"
            "print([(e.plugin_id, e.value.text) for e in k.prompt_segments(TurnContext(locale='zh-CN')).segments "
            "if e.plugin_id == 'greeter'])\n"
        )
        env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
        env["LW_HOME"] = str(home)
        out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=60)
        assert out.stdout.strip() == "[('greeter', '你好，守秘人。')]", out.stderr
        test = subprocess.run(
            # Its own --basetemp: a default one would share the outer run's numbered temp folders and,
            # at exit, delete the stale ones (gigabytes after a full suite), which outlasted the timeout.
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--basetemp={tmp_path / 'inner-tmp'}",
             str(tmp_path / "lw-plugin-greeter" / "tests")],
            capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path / "lw-plugin-greeter",
        )
        assert test.returncode == 0, test.stdout + test.stderr
    finally:
        subprocess.run([*pip, "uninstall", "--quiet", "--yes", "lw-plugin-greeter"], capture_output=True, timeout=120)
    listed = json.loads(run("plugins", "list", "--json", home=home).stdout)
    assert all(r["id"] != "greeter" for r in listed)


def test_damaged_settings_are_reported_and_never_overwritten(site, tmp_path) -> None:
    site.add("good", code=GOOD)
    (tmp_path / "plugins.json").write_text("{not json", encoding="utf-8")
    doctor = run("doctor", site=site, home=tmp_path)
    assert doctor.returncode == 0 and "plugins.json:1:2: invalid JSON" in doctor.stdout and "ignored" in doctor.stdout
    result = run("plugins", "disable", "good", site=site, home=tmp_path)
    assert result.returncode == 1 and "fix or remove it first" in result.stderr
    assert (tmp_path / "plugins.json").read_text(encoding="utf-8") == "{not json"


def test_settings_keep_unknown_keys(site, tmp_path) -> None:
    site.add("good", code=GOOD)
    (tmp_path / "plugins.json").write_text('{"note": "mine", "enabled": []}', encoding="utf-8")
    assert run("plugins", "enable", "good", "--yes", site=site, home=tmp_path).returncode == 0
    saved = json.loads((tmp_path / "plugins.json").read_text(encoding="utf-8"))
    assert saved == {"note": "mine", "enabled": ["good"], "disabled": []}


def test_one_kernel_per_invocation_for_the_given_data_dir(tmp_path, monkeypatch) -> None:
    from click.testing import CliRunner

    from lwcore.cli import lw
    from lwcore.kernel import Kernel

    booted = []
    original = Kernel.__init__

    def counting(self, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        booted.append(kwargs.get("data_dir"))
        original(self, *args, **kwargs)

    monkeypatch.setattr(Kernel, "__init__", counting)
    out = CliRunner().invoke(lw, ["--data-dir", str(tmp_path / "mine"), "plugins", "list"], catch_exceptions=False)
    assert out.exit_code == 0 and booted == [str(tmp_path / "mine")]


@pytest.mark.parametrize(
    ("directory", "shown"),
    [
        ("lw-plugin-x", "./lw-plugin-x"),  # a bare name is a distribution name to pip
        ("./lw-plugin-x", "./lw-plugin-x"),
        ("sub/lw-plugin-x", "./sub/lw-plugin-x"),
        ("../lw-plugin-x", "../lw-plugin-x"),
        ("/abs/lw-plugin-x", "/abs/lw-plugin-x"),
        ("my plugins/x", "'./my plugins/x'"),
        ("-x", "./-x"),  # never read as an option either
    ],
)
def test_install_hint_is_always_a_path(directory: str, shown: str) -> None:
    from lwcore.builtins.host.scaffold import install_hint

    assert install_hint(Path(directory), python="py") == f"py -m pip install {shown}"
