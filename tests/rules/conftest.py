"""Shared fixtures of the rules tests."""

from __future__ import annotations

import os
import subprocess
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from lwcore.cli import main
from lwcore.rules import RulesEngine
from lwcore.rules.engine import PackSource
from lwcore.rules.system import RuleSystem


@pytest.fixture
def lw(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """Run ``lw ARGS…`` in this process: ``(exit code, stdout, stderr)``."""

    def run(*args: str) -> tuple[int, str, str]:
        try:
            main(list(args))
            code = 0
        except SystemExit as exc:
            code = int(exc.code or 0)
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


@pytest.fixture
def pack_from(tmp_path: Path) -> Callable[..., RuleSystem]:
    """``pack_from(TEXT, name="shape")``: the rulepack TEXT (dedented) saved as
    ``tmp_path/NAME.yaml`` and loaded by an engine that has no other source."""

    def load(text: str, name: str = "shape") -> RuleSystem:
        path = tmp_path / f"{name}.yaml"
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        return RulesEngine(None, sources=[PackSource(name, "test", path)], user_dir=None).rule_system(name)

    return load


REFERENCE = Path(os.environ.get("LW_REFERENCE_REPO", "/work/.mirror/1A7432+loreweaver/repo"))
"""The Loreweaver reference repository (a bare git directory); tests that read it are skipped
when it is not on this machine."""


@pytest.fixture
def reference_packs(tmp_path: Path) -> Callable[..., list[Path]]:
    """``reference_packs(NAME, …)``: Loreweaver's shipped ``rulepacks/NAME.yaml`` copied from the
    reference repository into a temporary folder (never into this one), unchanged."""
    if not REFERENCE.exists():
        pytest.skip("the Loreweaver reference repository is not here")

    def copy(*names: str) -> list[Path]:
        paths = []
        for name in names:
            text = subprocess.run(["git", "-C", str(REFERENCE), "show", f"HEAD:rulepacks/{name}.yaml"],
                                  capture_output=True, check=True).stdout
            path = tmp_path / f"{name}.yaml"
            path.write_bytes(text)
            paths.append(path)
        return paths

    return copy
