"""A manifest's ``cli_commands`` is binding: ``lw NAME`` imports only the plugins that declare
NAME (and any ``cli`` plugin declaring nothing), and a plugin cannot register a command it
did not declare. Real entry points on a temporary site."""

from __future__ import annotations

import sys
from pathlib import Path

from lwcore.contributions import CommandRef
from lwcore.kernel import Kernel

DECLARED = """
import click
from lwcore.hookspecs import hookimpl

@click.command()
def {name}():
    click.echo("{name}")

@hookimpl
def lw_cli(register):
    register({name})
    register(click.Command("{extra}", callback=lambda: None))
"""

UNDECLARED = """
import click
from lwcore.hookspecs import hookimpl

@hookimpl
def lw_cli(register):
    register(click.Command("loose", callback=lambda: None))
"""


def kernel(tmp_path: Path, ids: str) -> Kernel:
    return Kernel(data_dir=tmp_path / "home", env={"LW_PLUGINS": ids})


def test_only_the_declaring_plugin_is_imported(site, tmp_path: Path) -> None:  # noqa: ANN001
    site.add("alpha", code=DECLARED.format(name="alpha", extra="alpha2"), provides=("cli",),
             extra_manifest='cli_commands = ["alpha", "alpha2"]')
    site.add("beta", code=DECLARED.format(name="beta", extra="sneaky"), provides=("cli",),
             extra_manifest='cli_commands = ["beta"]')
    k = kernel(tmp_path, "alpha,beta")
    command = k.cli_command("alpha")
    assert command is not None and command.name == "alpha"
    assert "lwtest_alpha.plugin" in sys.modules and "lwtest_beta.plugin" not in sys.modules
    assert k.cli_command("nobody-declares-this") is None
    assert "lwtest_beta.plugin" not in sys.modules


def test_an_undeclared_command_is_dropped_and_recorded(site, tmp_path: Path) -> None:  # noqa: ANN001
    site.add("beta", code=DECLARED.format(name="beta", extra="sneaky"), provides=("cli",),
             extra_manifest='cli_commands = ["beta"]')
    k = kernel(tmp_path, "beta")
    assert k.cli_command("beta") is not None and k.cli_command("sneaky") is None
    assert set(k.cli_commands) >= {"beta"} and "sneaky" not in k.cli_commands
    (record,) = [r for r in k.plugins if r.id == "beta"]
    assert any("'sneaky' is not in the manifest's cli_commands" in e for e in record.errors), record.errors


def test_a_plugin_declaring_nothing_is_asked_for_every_command(site, tmp_path: Path) -> None:  # noqa: ANN001
    site.add("alpha", code=DECLARED.format(name="alpha", extra="alpha2"), provides=("cli",),
             extra_manifest='cli_commands = ["alpha", "alpha2"]')
    site.add("gamma", code=UNDECLARED, provides=("cli",))
    k = kernel(tmp_path, "alpha,gamma")
    assert k.cli_command("loose") is not None and "lwtest_gamma.plugin" in sys.modules
    assert "lwtest_alpha.plugin" not in sys.modules  # alpha declares no "loose"
    assert isinstance(k.cli_command("plugins"), CommandRef)  # the built-in host declares it


def test_the_old_spelling_commands_is_read_as_cli_commands(site, tmp_path: Path) -> None:  # noqa: ANN001
    """``commands`` (the key's name before lwcore 2.0) still declares ``lw`` subcommands; a
    manifest giving both is refused, located."""
    site.add("alpha", code=DECLARED.format(name="alpha", extra="alpha2"), provides=("cli",),
             extra_manifest='commands = ["alpha"]')
    site.add("beta", code=DECLARED.format(name="beta", extra="sneaky"), provides=("cli",),
             extra_manifest='commands = ["beta"]\ncli_commands = ["beta"]')
    k = kernel(tmp_path, "alpha,beta")
    (alpha,) = [r for r in k.plugins if r.id == "alpha"]
    assert alpha.manifest is not None and alpha.manifest.cli_commands == ("alpha",)
    assert k.cli_command("alpha") is not None and k.cli_command("alpha2") is None
    (beta,) = [r for r in k.plugins if r.id == "beta"]
    assert beta.status == "error" and "give cli_commands only" in (beta.reason or ""), beta.reason
